//! `resolvePalette`: one turn, with the registered names given on every call.

use super::batch;
use super::options::{self, Layer, ROUTING};
use super::turn::{self, Ask, Palette};
use super::{JsResult, Message};
use alloc::rc::Rc;
use js_sys::{Array, Promise};
use wasm_bindgen::prelude::*;

const PLACE: &str = "resolvePalette: options";

/// Narrows `registered` to the tools this turn's skills name. Store faults resolve to
/// refusals; only the caller's own mistakes (and an abort) reject.
#[wasm_bindgen(js_name = resolvePalette, skip_typescript)]
pub fn resolve_palette(options: JsValue) -> Promise {
    match ask(&options) {
        Ok((ask, list, units)) => turn::run(ask, Palette::Names(list, units)),
        Err(error) => Promise::reject(&error),
    }
}

fn ask(options: &JsValue) -> JsResult<(Ask, Array, usize)> {
    let place = || Message::new(PLACE);
    options::object(options, &place, "an object")?;
    let fields = options::read(options, ROUTING, &place)?;
    let layer = Layer::check(&fields, &place)?;
    let (list, units) = batch::strings(&fields.get(5), &|| place().add(".registered"))?;
    let signal = options::signal(fields.get(6), &|| place().add(".signal"))?;
    let on_decision = layer.on_decision.iter().cloned().collect();
    let ask = Ask {
        layer: Rc::new(layer),
        signal,
        context: JsValue::UNDEFINED,
        on_decision,
        signal_place: "resolvePalette: options.signal",
    };
    Ok((ask, list, units))
}

