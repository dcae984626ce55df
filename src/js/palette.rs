//! Binding an outcome at the model-call boundary: `activeTools` and `bindPalette`.

use super::wire::Palette;
use super::{batch, host, must_be, unreadable, JsResult, Message};
use crate::names::NameSet;
use crate::routing;
use js_sys::Array;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &str = r#"
/**
 * Keeps the routed tools of an array of `{ name }` or a record keyed by name; unchanged unless
 * routed. An array entry without a string name (a provider-defined tool, a separator) is kept in place.
 */
export declare function bindPalette<T extends readonly unknown[] | Record<string, unknown>>(
  tools: T,
  outcome: RouterOutcome,
): T;
"#;

/// Whether an outcome narrows: `Some(names)` for a `Routed` (ours, or one of another
/// build of this package, which reads the same), `None` for a refusal or
/// `RoutingUnavailable`. The facade read it (host.js `readOutcome`: what its `kind` says,
/// a wire `Palette`, and a routed one's `names`).
pub(crate) fn routed_names(
    outcome: &JsValue,
    kind: u32,
    names: &host::Strings,
    place: &dyn Fn() -> Message,
) -> JsResult<Option<(Array, usize)>> {
    const WHAT: &str = "a Routed, RoutingRefusal or RoutingUnavailable";
    if !outcome.is_object() {
        return Err(must_be(place(), WHAT, outcome));
    }
    match Palette::of(kind) {
        Some(Palette::Unreadable) => Err(unreadable(place(), &names.cause())),
        Some(Palette::Routed) => {
            let (names, units) = batch::listed(names, &|| place().add(".names"))?;
            if names.length() == 0 {
                let message = ".names must not be empty (a routed palette is never empty)";
                return Err(place().add(message).type_error());
            }
            Ok(Some((names, units)))
        }
        Some(Palette::NotRouted) => Ok(None),
        _ => Err(must_be(place(), WHAT, outcome)),
    }
}

#[wasm_bindgen(typescript_custom_section)]
const ACTIVE_TOOLS: &str = r#"
/**
 * The routed names, or `undefined` ("every tool", the AI SDK's own meaning). Never `[]`.
 */
export function activeTools(outcome: RouterOutcome): string[] | undefined;
"#;

/// The routed names, or `undefined` ("every tool", the AI SDK's own meaning). Never `[]`.
#[wasm_bindgen(js_name = activeTools, skip_typescript)]
pub fn active_tools(outcome: JsValue, kind: u32, names: host::Strings) -> JsResult<JsValue> {
    let names = routed_names(&outcome, kind, &names, &|| {
        Message::new("activeTools: outcome")
    })?;
    Ok(names.map_or(JsValue::UNDEFINED, |(names, _)| names.into()))
}

#[wasm_bindgen(raw_module = "./host.js")]
extern "C" {
    /// What bindPalette reads of its arguments (see host.js).
    pub type Binding;
    #[wasm_bindgen(method, getter)]
    fn kind(this: &Binding) -> u32;
    #[wasm_bindgen(method, getter)]
    fn outcome(this: &Binding) -> host::Strings;
    #[wasm_bindgen(method, getter)]
    fn array(this: &Binding) -> bool;
    #[wasm_bindgen(method, getter)]
    fn iterable(this: &Binding) -> bool;
    #[wasm_bindgen(method, getter)]
    fn items(this: &Binding) -> JsValue;
    #[wasm_bindgen(method, getter)]
    fn names(this: &Binding) -> Array;
    #[wasm_bindgen(method, getter)]
    fn at(this: &Binding) -> Option<Vec<u32>>;
    #[wasm_bindgen(method, getter)]
    fn fault(this: &Binding) -> Option<host::Unreadable>;
}

/// Keeps the routed tools of an array of `{ name }` or a record keyed by name: the
/// caller's own objects, in the caller's order; the input itself unless routed. The
/// facade read the outcome and the tools (`binding`).
#[wasm_bindgen(js_name = bindPalette, skip_typescript)]
pub fn bind_palette(tools: JsValue, outcome: JsValue, binding: Binding) -> JsResult<JsValue> {
    let place = || Message::new("bindPalette: tools");
    const WHAT: &str = "an array of { name } or a record keyed by name";
    if !tools.is_object() {
        return Err(must_be(place(), WHAT, &tools));
    }
    let read = binding.outcome();
    let at = || Message::new("bindPalette: outcome");
    let routed = routed_names(&outcome, binding.kind(), &read, &at)?;
    let is_array = binding.array();
    let fault = binding.fault();
    // A Map or a Set is no record: filtering its (absent) own keys would drop every tool.
    match &fault {
        Some(u) if !is_array && u.index() == u32::MAX => {
            return Err(unreadable(place(), &u.cause()))
        }
        _ if binding.iterable() => return Err(must_be(place(), WHAT, &tools)),
        _ => {}
    }
    let Some((allowed, allowed_units)) = routed else {
        return Ok(tools);
    };
    // The tools' names, and the positions of the tools that have one (all of a record's).
    if let Some(u) = fault {
        return Err(match u.index() {
            u32::MAX => unreadable(place(), &u.cause()),
            i => unreadable(place().index(i).add(".name"), &u.cause()),
        });
    }
    let keys = binding.names();
    let total = keys.length();
    let (items, named_at) = match binding.at() {
        Some(at) => (binding.items(), at),
        None => (tools.clone(), (0..total).collect()),
    };
    // Every name is a string here: `measure` only sums.
    let measured = host::measure(&keys).max(0.0) as usize;
    if !batch::fits(keys.length() as usize, measured) {
        return Err(batch::too_big(place()));
    }
    let total = if is_array {
        items.unchecked_ref::<Array>().length()
    } else {
        total
    };
    let palette = NameSet::new(batch::write(&allowed, allowed_units));
    let kept = routing::keep(&palette, &batch::write(&keys, measured), &named_at, total);
    if is_array {
        Ok(host::pick(&items, &kept).into())
    } else {
        host::record(&tools, &keys, &kept).map_err(|cause| unreadable(place(), &cause))
    }
}
