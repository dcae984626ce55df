//! `resolvePalette`: one turn, with the registered names given on every call.

use super::batch;
use super::options::{self, Layer, ROUTING};
use super::turn::{self, Ask, Palette};
use super::{host, JsResult, Message};
use alloc::rc::Rc;
use alloc::vec;
use js_sys::Array;
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

/**
 * Narrows `registered` to the tools this turn's skills name. Store faults resolve to refusals
 * (rows beyond 1,048,576, or beyond 8,388,608 code units of candidates, are refusal 2a with
 * `RangeError`); only the caller's mistakes and an abort reject.
 */
export declare function resolvePalette(options: ResolvePaletteOptions): Promise<Routed | RoutingRefusal>;
"#;

const PLACE: &str = "resolvePalette: options";

/// Narrows `registered` to the tools this turn's skills name. Store faults resolve to refusals
/// (rows beyond 1,048,576, or beyond 8,388,608 code units of candidates, are refusal 2a with
/// `RangeError`); only the caller's mistakes and an abort reject.
///
/// The facade (api.js) read the options once each (host.js `readFields`: their kinds, the
/// budget, the key whose read threw), here in the order of [`ROUTING`], and the
/// registered names (host.js `readStrings`); the turn's promise is `turn`'s.
#[allow(clippy::too_many_arguments)]
#[wasm_bindgen(js_name = resolvePalette, skip_typescript)]
pub fn resolve_palette(
    turn: host::Wait,
    options: JsValue,
    kinds: u32,
    budget: f64,
    unread: Option<u32>,
    entries: JsValue,
    timeout_ms: JsValue,
    candidate_of: JsValue,
    is_active: JsValue,
    on_decision: JsValue,
    registered: JsValue,
    signal: JsValue,
    names: host::Strings,
    list: Array,
    listed: u32,
    count: f64,
    units: f64,
) -> JsResult<()> {
    let place = || Message::new(PLACE);
    let values = vec![
        entries,
        timeout_ms,
        candidate_of,
        is_active,
        on_decision,
        registered,
        signal,
    ];
    let fields = options::given_fields(&options, ROUTING, kinds, budget, values, unread, &place)?;
    let layer = Layer::check(&fields, &place)?;
    let at = || place().add(".registered");
    batch::all_strings(listed, &names, &at)?;
    // The list of the last turn is checked and indexed already.
    let palette = match turn::known(&list) {
        Some(registered) => Palette::Indexed(registered),
        None => {
            batch::checked_strings(listed, &names, count, units, &at)?;
            Palette::Names(list, units as usize)
        }
    };
    let signal = options::signal(&fields, &|| place().add(".signal"))?;
    let on_decision = layer.on_decision.iter().cloned().collect();
    let ask = Ask {
        layer: Rc::new(layer),
        signal,
        context: JsValue::UNDEFINED,
        on_decision,
        signal_place: "resolvePalette: options.signal",
    };
    turn::run(ask, palette, turn)
}

#[cfg(test)]
mod tests {
    /// The values `resolve_palette` takes, in its parameters' order, are [`super::ROUTING`].
    #[test]
    fn the_parameters_are_the_routing_options_in_order() {
        let params = [
            "entries",
            "timeoutMs",
            "candidateOf",
            "isActive",
            "onDecision",
            "registered",
            "signal",
        ];
        assert_eq!(super::ROUTING, params);
    }
}
