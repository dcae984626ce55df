//! `resolvePalette`: one turn, with the registered names given on every call.

use super::batch;
use super::options::{self, Layer, ROUTING};
use super::turn::{self, Ask, Palette};
use super::{JsResult, Message};
use crate::given::Rule;
use alloc::rc::Rc;
use js_sys::Promise;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &str = r#"
export interface ResolvePaletteOptions {
  /** The procedural layer; `null`/`undefined` means none is registered (refusal 1). */
  entries: EntriesThunk | null | undefined;
  /**
   * The registered palette: the only names a turn can route to. At most 1,048,576 names and
   * 8,388,608 code units of names (a RangeError naming it beyond; the same limits hold for every
   * list of names a call is given, and for a store's rows, which beyond them are refusal 2a).
   */
  registered: Iterable<string>;
  /** Store budget for this turn, in milliseconds (refusal 2b when it elapses). */
  timeoutMs?: number;
  /** Cancels the turn: the promise rejects with `signal.reason`. */
  signal?: AbortSignalLike;
  /** Replaces the candidate reader (a string result is the candidate). */
  candidateOf?: (row: unknown) => unknown;
  /** Replaces the activity reader (a truthy result is active). */
  isActive?: (row: unknown) => unknown;
  /** Receives the decision report, synchronously, just before the promise settles. */
  onDecision?: (decision: RoutingDecision) => void;
}

"#;

const PLACE: &str = "resolvePalette: options";

/// Narrows `registered` to the tools this turn's skills name. Store faults resolve to refusals
/// (rows beyond 1,048,576, or beyond 8,388,608 code units of candidates, are refusal 2a with
/// `RangeError`); only the caller's mistakes and an abort reject.
#[wasm_bindgen(
    js_name = resolvePalette,
    unchecked_return_type = "Promise<Routed | RoutingRefusal>"
)]
pub fn resolve_palette(
    #[wasm_bindgen(unchecked_param_type = "ResolvePaletteOptions")] options: JsValue,
) -> Promise {
    match ask(&options) {
        Ok((ask, palette)) => turn::run(ask, palette),
        Err(error) => Promise::reject(&error),
    }
}

fn ask(options: &JsValue) -> JsResult<(Ask, Palette)> {
    let place = || Message::new(PLACE);
    options::checked(options.clone(), Rule::Object, &place)?;
    let fields = options::read(options, ROUTING, &place)?;
    let layer = Layer::check(&fields, &place)?;
    // The list of the last turn is checked and indexed already.
    let at = || place().add(".registered");
    let list = batch::listed(&fields.named("registered"), &at)?;
    let palette = match turn::known(&list) {
        Some(registered) => Palette::Indexed(registered),
        None => Palette::Names(list.clone(), batch::measured(&list, &at)?),
    };
    let signal = options::signal(fields.named("signal"), &|| place().add(".signal"))?;
    let on_decision = layer.on_decision.iter().cloned().collect();
    let ask = Ask {
        layer: Rc::new(layer),
        signal,
        context: JsValue::UNDEFINED,
        on_decision,
        signal_place: "resolvePalette: options.signal",
    };
    Ok((ask, palette))
}
