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
/// `RoutingUnavailable`.
pub(crate) fn routed_names(
    outcome: &JsValue,
    place: &dyn Fn() -> Message,
) -> JsResult<Option<(Array, usize)>> {
    const WHAT: &str = "a Routed, RoutingRefusal or RoutingUnavailable";
    if !outcome.is_object() {
        return Err(must_be(place(), WHAT, outcome));
    }
    let kind = host::get(outcome, |k| &k.kind).map_err(|cause| unreadable(place(), &cause))?;
    match Palette::of(host::kind_of(&kind)) {
        Some(Palette::Routed) => {
            let names = host::get(outcome, |k| &k.names)
                .map_err(|cause| unreadable(place().add(".names"), &cause))?;
            let (names, units) = batch::strings(&names, &|| place().add(".names"))?;
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

/// The routed names, or `undefined` ("every tool", the AI SDK's own meaning). Never `[]`.
#[wasm_bindgen(js_name = activeTools, unchecked_return_type = "string[] | undefined")]
pub fn active_tools(
    #[wasm_bindgen(unchecked_param_type = "RouterOutcome")] outcome: JsValue,
) -> JsResult<JsValue> {
    let names = routed_names(&outcome, &|| Message::new("activeTools: outcome"))?;
    Ok(names.map_or(JsValue::UNDEFINED, |(names, _)| names.into()))
}

/// Keeps the routed tools of an array of `{ name }` or a record keyed by name: the
/// caller's own objects, in the caller's order; the input itself unless routed.
#[wasm_bindgen(js_name = bindPalette, skip_typescript)]
pub fn bind_palette(tools: JsValue, outcome: JsValue) -> JsResult<JsValue> {
    let place = || Message::new("bindPalette: tools");
    const WHAT: &str = "an array of { name } or a record keyed by name";
    if !tools.is_object() {
        return Err(must_be(place(), WHAT, &tools));
    }
    let routed = routed_names(&outcome, &|| Message::new("bindPalette: outcome"))?;
    let is_array = host::is_array(&tools);
    if !is_array {
        // A Map or a Set is no record: filtering its (absent) own keys would drop every tool.
        if host::has_iterator(&tools).map_err(|cause| unreadable(place(), &cause))? {
            return Err(must_be(place(), WHAT, &tools));
        }
    }
    let Some((allowed, allowed_units)) = routed else {
        return Ok(tools);
    };
    // The tools' names, and the positions of the tools that have one (all of a record's).
    let (items, keys, named_at) = if is_array {
        let items = host::list(&tools).map_err(|cause| unreadable(place(), &cause))?;
        let named = host::names_of(&items);
        if let Some(u) = named.dyn_ref::<host::Unreadable>() {
            let at = place().index(u.index()).add(".name");
            return Err(unreadable(at, &u.cause()));
        }
        let named: host::Named = named.unchecked_into();
        (JsValue::from(items), named.names(), named.at())
    } else {
        let keys = host::keys(&tools).map_err(|cause| unreadable(place(), &cause))?;
        let at = (0..keys.length()).collect();
        (tools.clone(), keys, at)
    };
    // Every name is a string here: `measure` only sums.
    let measured = host::measure(&keys).max(0.0) as usize;
    if !batch::fits(keys.length() as usize, measured) {
        return Err(batch::too_big(place()));
    }
    let total = if is_array {
        items.unchecked_ref::<Array>().length()
    } else {
        keys.length()
    };
    let palette = NameSet::new(batch::write(&allowed, allowed_units));
    let kept = routing::keep(&palette, &batch::write(&keys, measured), &named_at, total);
    if is_array {
        Ok(host::pick(&items, &kept).into())
    } else {
        host::record(&tools, &keys, &kept).map_err(|cause| unreadable(place(), &cause))
    }
}
