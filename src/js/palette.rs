//! Binding an outcome at the model-call boundary: `activeTools` and `bindPalette`.

use super::{batch, host, must_be, unreadable, JsResult, Message};
use crate::names::NameSet;
use crate::routing;
use js_sys::Array;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &str = r#"
/** The routed names, or `undefined` ("every tool", the AI SDK's own meaning). Never `[]`. */
export declare function activeTools(outcome: RouterOutcome): string[] | undefined;

/** Keeps the routed tools of an array of `{ name }` or a record keyed by name; unchanged unless routed. */
export declare function bindPalette<T extends readonly { readonly name: string }[] | Record<string, unknown>>(
  tools: T,
  outcome: RouterOutcome,
): T;
"#;

/// Whether an outcome narrows: `Some(names)` for a `Routed` (ours, or one of another
/// build of this package, which reads the same), `None` for a refusal or
/// `RoutingUnavailable`.
fn routed_names(
    outcome: &JsValue,
    place: &dyn Fn() -> Message,
) -> JsResult<Option<(Array, usize)>> {
    const WHAT: &str = "a Routed, RoutingRefusal or RoutingUnavailable";
    if !outcome.is_object() {
        return Err(must_be(place(), WHAT, outcome));
    }
    let kind = host::get(outcome, |k| &k.kind).map_err(|cause| unreadable(place(), &cause))?;
    match kind.as_string().as_deref() {
        Some("routed") => {
            let names = host::get(outcome, |k| &k.names)
                .map_err(|cause| unreadable(place().add(".names"), &cause))?;
            Ok(Some(batch::strings(&names, &|| place().add(".names"))?))
        }
        Some("refused") | Some("unavailable") => Ok(None),
        _ => Err(must_be(place(), WHAT, outcome)),
    }
}

/// The routed names, or `undefined` ("every tool", the AI SDK's own meaning). Never
/// `[]`: a `Routed` is never empty.
#[wasm_bindgen(js_name = activeTools, skip_typescript)]
pub fn active_tools(outcome: JsValue) -> JsResult<JsValue> {
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
        let is_iterable = host::has_iterator(&tools);
        if let Some(u) = is_iterable.dyn_ref::<host::Unreadable>() {
            return Err(unreadable(place(), &u.cause()));
        }
        if is_iterable.is_truthy() {
            return Err(must_be(place(), WHAT, &tools));
        }
    }
    let Some((allowed, allowed_units)) = routed else {
        return Ok(tools);
    };
    let (items, keys) = if is_array {
        let items = host::list(&tools).map_err(|cause| unreadable(place(), &cause))?;
        let names = host::names_of(&items);
        if let Some(u) = names.dyn_ref::<host::Unreadable>() {
            let at = place().index(u.index()).add(".name");
            return Err(unreadable(at, &u.cause()));
        }
        (items.into(), names.unchecked_into::<Array>())
    } else {
        let keys = host::keys(&tools).map_err(|cause| unreadable(place(), &cause))?;
        (tools.clone(), keys)
    };
    let measured = host::measure(&keys);
    if measured < 0.0 {
        let i = (-measured - 1.0) as u32;
        let at = place().index(i).add(".name");
        return Err(must_be(at, "a string", &keys.get(i)));
    }
    if !batch::fits(keys.length() as usize, measured as usize) {
        return Err(batch::too_big(place()));
    }
    let palette = NameSet::new(batch::write(&allowed, allowed_units));
    let kept = routing::keep(&palette, &batch::write(&keys, measured as usize));
    if is_array {
        Ok(host::pick(&items, &kept).into())
    } else {
        host::record(&tools, &keys, &kept).map_err(|cause| unreadable(place(), &cause))
    }
}
