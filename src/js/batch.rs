//! Names into wasm memory, one batch per call, as UTF-16 code units (a Rust `String` would
//! replace an unpaired surrogate with U+FFFD and make two tools equal): host.js `writeBatch`
//! writes them straight into the room kept here, and the export it calls next copies them
//! out before any caller code runs. Answers go back as indices into the caller's strings.

use crate::names::{fits, NameList};
use alloc::vec::Vec;
use core::cell::Cell;
use tool_palette_heap as heap;
use wasm_bindgen::prelude::*;

/// Where JavaScript writes: the names' ends, their code units, a code per string. The
/// room is the heap record in slot 0 (host.js never gives that slot to an instance): it
/// grows in place, its memory its own, whatever call grows it.
#[derive(Default)]
struct Room {
    ends: Vec<u32>,
    units: Vec<u16>,
    codes: Vec<u8>,
}

const ROOM: u32 = 0;

thread_local! {
    /// Where each of the three is, at an address that stays (JavaScript is given it).
    static AT: Cell<[u32; 3]> = const { Cell::new([0; 3]) };
}

/// Room for `count` names of `units` code units and `codes` bytes (a turn's rows): the
/// address of the three places, or 0 beyond what one call may hold (`names::fits`).
#[wasm_bindgen]
pub fn room(count: u32, units: u32, codes: u32) -> u32 {
    let (count, units, codes) = (count as usize, units as usize, codes as usize);
    if !fits(count.max(codes), units) {
        return 0;
    }
    fn grow<T: Copy + Default>(v: &mut Vec<T>, len: usize) -> bool {
        let more = len.saturating_sub(v.len());
        v.try_reserve_exact(more).is_ok() && {
            v.resize(v.len().max(len), T::default());
            true
        }
    }
    if !heap::holds(ROOM) && !heap::build(ROOM, false, || Some(Room::default())) {
        return 0;
    }
    let grown = heap::within(ROOM, |room: &mut Room| {
        let grown = grow(&mut room.ends, count)
            && grow(&mut room.units, units)
            && grow(&mut room.codes, codes);
        AT.set([
            room.ends.as_ptr() as u32,
            room.units.as_ptr() as u32,
            room.codes.as_ptr() as u32,
        ]);
        grown
    });
    if grown == Some(true) {
        AT.with(|at| at.as_ptr() as u32)
    } else {
        0
    }
}

/// The first `count` names and `codes` codes JavaScript wrote, copied out.
pub(crate) fn take(count: u32, codes: u32) -> (NameList, Vec<u8>) {
    heap::with(ROOM, |room: &Room| {
        let count = (count as usize).min(room.ends.len());
        let units = room.ends[..count].last().map_or(0, |&end| end as usize);
        let names = (units <= room.units.len())
            .then(|| {
                NameList::from_parts(room.units[..units].to_vec(), room.ends[..count].to_vec())
            })
            .flatten()
            .unwrap_or_default();
        let codes = room.codes[..(codes as usize).min(room.codes.len())].to_vec();
        (names, codes)
    })
    .unwrap_or_default()
}

/// [`take`]'s names.
pub(crate) fn names(count: u32) -> NameList {
    take(count, 0).0
}
