//! Names into wasm memory, in one batch per call, in one encoding: a name never passes
//! through a Rust `String` (which would replace an unpaired surrogate with U+FFFD and make
//! two tools equal) nor UTF-8; `host.js` writes each string's UTF-16 code units straight
//! into memory the binding allocated for them. (A UTF-8 `encodeInto` path for large
//! batches was measured against it: 3-5% faster at 200 rows, 6-10% slower at 10,000, and
//! 600 gzip bytes heavier.) Answers go back as indices into the caller's own strings.
//!
//! The core's limits (`names::fits`) are checked before anything is allocated, so no
//! call, however large its input, can run the module out of memory.

use super::wire::Listed;
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

// ------------------------------------------------------------------ the batch JavaScript writes

/// Where JavaScript writes a call's names (host.js `writeBatch`): a turn's row codes, the
/// names' ends and their code units, and where each of the three is (`at`, whose address
/// JavaScript is given).
#[derive(Default)]
struct Room {
    codes: Vec<u8>,
    ends: Vec<u32>,
    units: Vec<u16>,
    at: Vec<u32>,
}

thread_local! {
    /// Taken and put back, never borrowed across a call.
    static ROOM: core::cell::Cell<Room> = core::cell::Cell::new(Room::default());
}

/// Room for JavaScript to write `codes` bytes of row codes and `count` names of `units`
/// code units into, at most what one call takes (a name and a list, or a turn's rows,
/// within the limits): the address of where the three are, or 0 when that is more or
/// the memory has no room for it.
#[wasm_bindgen(skip_typescript)]
pub fn room(codes: u32, count: u32, units: u32) -> u32 {
    let (codes, count, units) = (codes as usize, count as usize, units as usize);
    let names = crate::names::MAX_NAMES;
    if codes > 2 * names || count > names + 1 || units > 2 * crate::names::MAX_UNITS {
        return 0;
    }
    fn grow<T: Copy + Default>(v: &mut Vec<T>, len: usize) -> bool {
        let more = len.saturating_sub(v.len());
        if v.try_reserve_exact(more).is_err() {
            return false;
        }
        v.resize(v.len().max(len), T::default());
        true
    }
    ROOM.with(|cell| {
        let mut room = cell.take();
        let grown = grow(&mut room.codes, codes)
            && grow(&mut room.ends, count)
            && grow(&mut room.units, units);
        room.at = [
            room.codes.as_ptr() as usize,
            room.ends.as_ptr() as usize,
            room.units.as_ptr() as usize,
        ]
        .map(|a| a as u32)
        .to_vec();
        let at = if grown {
            room.at.as_ptr() as usize as u32
        } else {
            0
        };
        cell.set(room);
        at
    })
}

/// The `count` names of `units` code units JavaScript wrote into the room, copied out
/// before any caller code runs (a reader that calls back into the package writes there
/// too); no names when they do not check out.
pub(crate) fn take(count: usize, units: usize) -> NameList {
    take_rows(0, count, units).1
}

/// [`take`], and the `codes` bytes of row codes written before them.
pub(crate) fn take_rows(codes: usize, count: usize, units: usize) -> (Vec<u8>, NameList) {
    ROOM.with(|cell| {
        let room = cell.take();
        let taken = (room.codes.len() >= codes
            && room.ends.len() >= count
            && room.units.len() >= units)
            .then(|| {
                let names =
                    NameList::from_parts(room.units[..units].to_vec(), room.ends[..count].to_vec());
                (room.codes[..codes].to_vec(), names.unwrap_or_default())
            });
        cell.set(room);
        taken.unwrap_or_default()
    })
}

/// A list of strings the facade read (host.js `readStrings`: `listed` a wire `Listed`,
/// `count` strings of `units` code units), checked: every item a string, within the
/// limits; or the error naming it (`place`).
pub(crate) fn checked_strings(
    listed: u32,
    read: &host::Strings,
    count: f64,
    units: f64,
    place: &dyn Fn() -> Message,
) -> JsResult<()> {
    all_strings(listed, read, place)?;
    match fits(count as usize, units as usize) {
        true => Ok(()),
        false => Err(too_big(place())),
    }
}

/// [`checked_strings`] but for the limits.
pub(crate) fn all_strings(
    listed: u32,
    read: &host::Strings,
    place: &dyn Fn() -> Message,
) -> JsResult<()> {
    match Listed::of(listed) {
        Some(Listed::Strings) => Ok(()),
        Some(Listed::NotIterable) => Err(must_be(place(), "an iterable of strings", &read.value())),
        Some(Listed::NotIterated) => Err(place()
            .add(" could not be iterated")
            .type_error_caused(&read.cause())),
        Some(Listed::NotString) => {
            let i = read.at();
            Err(must_be(place().index(i), "a string", &read.list().get(i)))
        }
        _ => Err(unreadable(place(), &read.cause())),
    }
}

/// The strings of a list the facade read (host.js `readStrings`), as an array and their
/// total length in code units; or the error naming the argument (`place`).
pub(crate) fn listed(
    read: &host::Strings,
    place: &dyn Fn() -> Message,
) -> JsResult<(Array, usize)> {
    let (count, units) = (read.count(), read.units());
    checked_strings(read.listed(), read, count, units, place)?;
    Ok((read.list(), units as usize))
}
