//! `resolvePalette`: one turn, with the registered names given on every call.

use super::batch;
use super::options::{self, Layer, ROUTING};
use super::turn::{self, Ask, Registered};
use super::{host, JsResult, Message};
use crate::names::NameSet;
use alloc::rc::Rc;
use core::cell::RefCell;
use js_sys::{Array, Promise};
use wasm_bindgen::prelude::*;

const PLACE: &str = "resolvePalette: options";

/// Narrows `registered` to the tools this turn's skills name. Store faults resolve to
/// refusals; only the caller's own mistakes (and an abort) reject.
#[wasm_bindgen(js_name = resolvePalette, skip_typescript)]
pub fn resolve_palette(options: JsValue) -> Promise {
    match ask(&options) {
        Ok((ask, list, units)) => turn::run(ask, move || Registered {
            set: registry_of(&list, units),
            list,
        }),
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

thread_local! {
    /// The last registered list indexed, kept for the next call: agents pass the same
    /// names turn after turn (and hosts build a router per request with them).
    static LAST: RefCell<Option<(Array, Rc<NameSet>)>> = const { RefCell::new(None) };
}

/// The index of `list` (`units` code units of names, checked against the limits): the
/// last one built when the names are the same strings in the same order, compared name
/// by name on every call, else a new one, which then replaces it.
pub(crate) fn registry_of(list: &Array, units: usize) -> Rc<NameSet> {
    let last = LAST.with(|l| l.borrow().clone());
    if let Some((names, set)) = last {
        if host::same(&names, list) {
            return set;
        }
    }
    let set = Rc::new(NameSet::new(batch::write(list, units)));
    LAST.with(|l| *l.borrow_mut() = Some((list.clone(), set.clone())));
    set
}
