//! Names into wasm memory, in one batch per call, in one encoding: a name never passes
//! through a Rust `String` (which would replace an unpaired surrogate with U+FFFD and make
//! two tools equal) nor UTF-8; `host.js` writes each string's UTF-16 code units straight
//! into memory the binding allocated for them. (A UTF-8 `encodeInto` path for large
//! batches was measured against it: 3-5% faster at 200 rows, 6-10% slower at 10,000, and
//! 600 gzip bytes heavier.) Answers go back as indices into the caller's own strings.
//!
//! The core's limits (`names::fits`) are checked before anything is allocated, so no
//! call, however large its input, can run the module out of memory.

use super::{host, must_be, unreadable, JsResult, Message};
use crate::names::NameList;
use alloc::{vec, vec::Vec};
use js_sys::{Array, JsString};
use wasm_bindgen::prelude::*;

pub(crate) use crate::names::{fits, fits_texts};

/// Writes `strings` (`units` code units in all, as measured) into a name list: `host.js`
/// writes their code units straight into memory allocated for exactly them. The caller
/// checked [`fits`].
pub(crate) fn write(strings: &Array, units: usize) -> NameList {
    let mut ends = vec![0u32; strings.length() as usize];
    let mut out = vec![0u16; units];
    host::write_names(strings, &mut ends, &mut out);
    // The ends were written for exactly these units; a list that does not check out
    // (not expected) reads as no names rather than as wrong ones.
    NameList::from_parts(out, ends).unwrap_or_default()
}

/// The code units of one string (a checked string of the caller's), or the RangeError
/// naming it (`place`) when it does not fit a batch.
pub(crate) fn name_units(value: &JsValue, place: &dyn Fn() -> Message) -> JsResult<Vec<u16>> {
    check_fits(value, place)?;
    let name: &JsString = value.unchecked_ref();
    let mut out = vec![0u16; name.length() as usize];
    host::write_name(name, &mut out);
    Ok(out)
}

/// Checks that one string of the caller's fits a batch (the RangeError naming it if not).
pub(crate) fn check_fits(value: &JsValue, place: &dyn Fn() -> Message) -> JsResult<()> {
    let len = value.unchecked_ref::<JsString>().length() as usize;
    if fits(1, len) {
        Ok(())
    } else {
        Err(too_big(place()))
    }
}

/// [`name_units`] of a string known to fit (checked when it was given).
pub(crate) fn units_of(value: &JsValue) -> Vec<u16> {
    name_units(value, &|| Message::new("")).unwrap_or_default()
}

/// Whether an object of the caller's is iterable (a non-object is not); when reading its
/// `Symbol.iterator` throws, the error naming it (`place`).
pub(crate) fn is_iterable(value: &JsValue, place: &dyn Fn() -> Message) -> JsResult<bool> {
    if !value.is_object() {
        return Ok(false);
    }
    host::iterable(value).map_err(|cause| unreadable(place(), &cause))
}

/// The caller's iterable of strings, as a fresh array and its total length in code
/// units; or the error naming the argument (`place`, built only when it is needed).
pub(crate) fn strings(value: &JsValue, place: &dyn Fn() -> Message) -> JsResult<(Array, usize)> {
    let list = listed(value, place)?;
    let units = measured(&list, place)?;
    Ok((list, units))
}

/// The caller's iterable as a fresh array (its items not checked yet).
pub(crate) fn listed(value: &JsValue, place: &dyn Fn() -> Message) -> JsResult<Array> {
    if !is_iterable(value, place)? {
        return Err(must_be(place(), "an iterable of strings", value));
    }
    host::list(value).map_err(|cause| {
        place()
            .add(" could not be iterated")
            .type_error_caused(&cause)
    })
}

/// The total length of a listed iterable's strings, checked: all strings, within limits.
pub(crate) fn measured(list: &Array, place: &dyn Fn() -> Message) -> JsResult<usize> {
    let measured = host::measure(list);
    if measured < 0.0 {
        let i = (-measured - 1.0) as u32;
        let place = place().index(i);
        return Err(must_be(place, "a string", &list.get(i)));
    }
    let units = measured as usize;
    if !fits(list.length() as usize, units) {
        return Err(too_big(place()));
    }
    Ok(units)
}

/// The RangeError for a caller's argument beyond the limits.
pub(crate) fn too_big(place: Message) -> JsValue {
    place.add(crate::names::TOO_LARGE).range_error()
}
