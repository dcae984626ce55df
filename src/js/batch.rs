//! Names into wasm memory, in one batch per call. A name never passes through a Rust
//! `String` (which would replace an unpaired surrogate with U+FFFD and make two tools
//! equal): `host.js` writes each string's code units straight into memory the binding
//! allocated for them, or, for large well-formed batches, encodes the whole batch as
//! UTF-8 in one native `encodeInto` call, which is decoded here into the very same code
//! units. Answers go back as indices into the caller's own strings.
//!
//! The limits below are checked before anything is allocated, so no call, however large
//! its input, can run the module out of memory.

use super::{host, must_be, unreadable, JsResult, Message};
use crate::names::NameList;
use alloc::{vec, vec::Vec};
use js_sys::{Array, JsString};
use wasm_bindgen::prelude::*;

/// The most code units of names one batch may hold (16 MiB as UTF-16): every turn's
/// rows, every registered list, every palette. Chosen so that a batch and its transient
/// UTF-8 copy stay well inside a Cloudflare Worker's 128 MB.
pub(crate) const MAX_UNITS: usize = 1 << 23;
/// The most names (rows with a candidate, registered names, palette names) one batch may hold.
pub(crate) const MAX_NAMES: usize = 1 << 20;
/// The most code units of one field's texts a `ToolIndex` reads (64 MiB as UTF-16): tool
/// descriptions run longer than names, and an index is built once.
pub(crate) const MAX_TEXT_UNITS: usize = 1 << 25;

/// Below this many code units a JavaScript loop beats a native call and a decode.
const UTF8_FROM: usize = 48;

/// Whether `count` names of `units` code units in all fit one batch: within the limits,
/// and with room for them (and what is built from them: an index, a turn's rows) in the
/// module's memory as it can grow now. Asked before anything is copied in, so that input
/// too large for the memory at hand is answered up front (a RangeError, or refusal 2a
/// for a store's answer) instead of trapping half-way through a call.
pub(crate) fn fits(count: usize, units: usize) -> bool {
    count <= MAX_NAMES && units <= MAX_UNITS && room_for(units * 6 + count * 96)
}

/// [`fits`] for a `ToolIndex`'s texts (written as UTF-16 beyond [`MAX_UNITS`]).
pub(crate) fn fits_texts(count: usize, units: usize) -> bool {
    count <= MAX_NAMES && units <= MAX_TEXT_UNITS && room_for(units * 4 + count * 96)
}

fn room_for(bytes: usize) -> bool {
    let mut probe: Vec<u8> = Vec::new();
    probe.try_reserve_exact(bytes).is_ok()
}

/// Writes `strings` (`units` code units in all, as measured) into a name list.
/// The caller checked [`fits`].
pub(crate) fn write(strings: &Array, units: usize) -> NameList {
    let count = strings.length() as usize;
    let mut ends = vec![0u32; count];
    if (UTF8_FROM..=MAX_UNITS).contains(&units) {
        let mut bytes = vec![0u8; units * 3];
        let written = host::encode_names(strings, &mut ends, &mut bytes);
        if written >= 0 {
            let mut out = vec![0u16; units];
            if decode_utf8(bytes.get(..written as usize).unwrap_or(&[]), &mut out) {
                return NameList::from_parts(out, ends).unwrap_or_default();
            }
        }
    }
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
    let answer = host::iterable(value);
    match answer.dyn_ref::<host::Unreadable>() {
        Some(u) => Err(unreadable(place(), &u.cause())),
        None => Ok(answer.is_truthy()),
    }
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
    place
        .add(
            " is too large: a call takes at most 1,048,576 names and 8,388,608 code units of names",
        )
        .range_error()
}

/// UTF-8 to UTF-16, exactly: every scalar value becomes its one or two code units.
/// Fills `out` and returns whether the bytes were UTF-8 (as `TextEncoder` always
/// writes) that came to exactly `out.len()` code units.
fn decode_utf8(bytes: &[u8], out: &mut [u16]) -> bool {
    let (mut i, mut k) = (0, 0);
    while i < bytes.len() {
        // Runs of ASCII, the usual tool name, in one tight loop.
        let run = bytes[i..].iter().take_while(|&&b| b < 0x80).count();
        let Some(dst) = out.get_mut(k..k + run) else {
            return false;
        };
        for (d, &b) in dst.iter_mut().zip(&bytes[i..i + run]) {
            *d = u16::from(b);
        }
        (i, k) = (i + run, k + run);
        let Some(&b) = bytes.get(i) else { break };
        let (len, init) = match b {
            0xC2..=0xDF => (2, u32::from(b & 0x1F)),
            0xE0..=0xEF => (3, u32::from(b & 0x0F)),
            0xF0..=0xF4 => (4, u32::from(b & 0x07)),
            _ => return false,
        };
        let Some(tail) = bytes.get(i + 1..i + len) else {
            return false;
        };
        let mut c = init;
        for &t in tail {
            if t & 0xC0 != 0x80 {
                return false;
            }
            c = c << 6 | u32::from(t & 0x3F);
        }
        let pair;
        let code: &[u16] = if c <= 0xFFFF {
            pair = [c as u16, 0];
            &pair[..1]
        } else {
            let c = c - 0x1_0000;
            pair = [0xD800 | (c >> 10) as u16, 0xDC00 | (c & 0x3FF) as u16];
            &pair
        };
        let Some(dst) = out.get_mut(k..k + code.len()) else {
            return false;
        };
        dst.copy_from_slice(code);
        (i, k) = (i + len, k + code.len());
    }
    k == out.len()
}

#[cfg(test)]
mod tests {
    use super::decode_utf8;
    use alloc::{vec, vec::Vec};

    #[test]
    fn utf8_decodes_to_the_same_code_units_as_javascript() {
        for s in [
            "",
            "calendar",
            "caf\u{e9}",
            "\u{1F600}x",
            "\u{FEFF}\u{3000}a",
            "\u{10FFFF}",
        ] {
            let expected: Vec<u16> = s.encode_utf16().collect();
            let mut out = vec![0; expected.len()];
            assert!(decode_utf8(s.as_bytes(), &mut out));
            assert_eq!(out, expected);
            // A count that does not match is refused, never a panic.
            assert!(!decode_utf8(s.as_bytes(), &mut vec![0; expected.len() + 1]));
            if !expected.is_empty() {
                assert!(!decode_utf8(s.as_bytes(), &mut vec![0; expected.len() - 1]));
            }
        }
        let mut out = vec![0; 4];
        assert!(!decode_utf8(&[0xFF], &mut out));
        assert!(!decode_utf8(&[0xE2, 0x82], &mut out));
        assert!(!decode_utf8(&[0xC3, 0x41], &mut out));
    }
}
