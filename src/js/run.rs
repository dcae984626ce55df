//! `PaletteRun` (SPEC 8): the binding of [`crate::run`]. Its JavaScript half is run.js. A
//! run is two records: its roster (the registered names, built once) and its progress,
//! which each step copies and puts in place at once, so that a step cut short leaves the
//! run as it was.

use super::batch;
use crate::run::{Cache, RevealError, Roster, Run, SavedError};
use alloc::{vec, vec::Vec};
use tool_palette_heap as heap;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(raw_module = "./calls.js")]
extern "C" {
    /// A step (to run.js): each list the registered names' indices; `fresh`: per skill
    /// the outcome named, whether it is new to the run.
    fn stepped(
        step: u32,
        offered: &[u32],
        listed: &[u32],
        deferred: &[u32],
        revealed: &[u32],
        kept: bool,
        fresh: &[u8],
    );
    /// The tools a `reveal` made new to the run.
    fn revealed(new: &[u32]);
    /// A saved form (run.js `save`): code units.
    fn text(units: &[u16]);
}

/// A step or reveal that cannot be taken: no such run (a broken promise of run.js's).
const MISSING: u32 = u32::MAX;
/// A reveal on a run that does not defer.
const NOT_DEFERRED: u32 = u32::MAX - 1;

/// A run by `Cache::ALL[cache]` into `slot`, over the roster put into `roster` from the
/// `registered`, then `pinned` names in the batch: `Some(i)` when `pinned[i]` is not
/// registered (`MISSING`: the memory ran out).
#[wasm_bindgen]
pub fn run(slot: u32, roster: u32, cache: usize, registered: u32, pinned: u32) -> Option<u32> {
    let mut unregistered = None;
    let made = heap::build(roster, false, || {
        let all = batch::names(registered + pinned);
        let (registered, pinned) = all.split(registered as usize);
        Roster::new(registered, &pinned)
            .map_err(|i| unregistered = Some(i as u32))
            .ok()
    });
    if let Some(i) = unregistered {
        return Some(i);
    }
    let cache = Cache::ALL.get(cache).map_or(Cache::DEFAULT, |&(_, c)| c);
    let started = made
        && heap::with(roster, |r: &Roster| {
            heap::build(slot, false, || Some(Run::new(cache, r)))
        }) == Some(true);
    (!started).then_some(MISSING)
}

/// The run's next step, for a `Routed` outcome's `count` names in the batch (`routed`) or
/// every tool, and the `skills` the outcome names after them, handed to run.js; `Some(i)`
/// (the run as it was) when names[i] is not registered.
#[wasm_bindgen]
pub fn step(slot: u32, roster: u32, routed: bool, count: u32, skills: u32) -> Option<u32> {
    let (names, skills) = batch::names(count + skills).split(count as usize);
    let names = routed.then_some(names);
    let taken = heap::with(roster, |r: &Roster| {
        heap::replace(slot, |run: &Run| {
            let mut next = run.clone();
            match next.step(r, names.as_ref(), &skills) {
                Ok(_) => Some((next, None)),
                Err(i) => Some((run.clone(), Some(i as u32))),
            }
        })
    })
    .flatten();
    match taken {
        Some(None) => {
            heap::with(slot, |run: &Run| {
                let s = run.last();
                stepped(
                    s.step,
                    &s.offered,
                    &s.listed,
                    &s.deferred,
                    &s.revealed,
                    s.kept,
                    &s.fresh.iter().map(|&f| u8::from(f)).collect::<Vec<u8>>(),
                )
            });
            None
        }
        Some(Some(i)) => Some(i),
        None => Some(MISSING),
    }
}

/// `Deferred`: the `count` names in the batch join what the run revealed (the indices new
/// to it, handed to run.js); `Some(i)`: names[i] is not registered; `NOT_DEFERRED`.
#[wasm_bindgen]
pub fn reveal(slot: u32, roster: u32, count: u32) -> Option<u32> {
    let names = batch::names(count);
    let answer = heap::with(roster, |r: &Roster| {
        // What it reveals, found on a copy in the call's memory; then the run copied and
        // put in place with it.
        let new = heap::with(slot, |run: &Run| run.clone().reveal(r, &names))?;
        if new.is_ok() {
            heap::replace(slot, |run: &Run| {
                let mut next = run.clone();
                next.reveal(r, &names).ok().map(|_| (next, ()))
            })?;
        }
        Some(new)
    })
    .flatten();
    match answer {
        Some(Ok(new)) => {
            revealed(&new);
            None
        }
        Some(Err(RevealError::Unregistered(i))) => Some(i as u32),
        Some(Err(RevealError::NotDeferred(_))) => Some(NOT_DEFERRED),
        None => Some(MISSING),
    }
}

/// SPEC 9, `load_skill`: the skill first in the batch, loaded by the model itself, and
/// its `count` tools after it, which join the run's later palettes; those that joined now
/// handed to run.js (`revealed`). False: no such run.
#[wasm_bindgen]
pub fn join(slot: u32, roster: u32, count: u32) -> bool {
    let (skill, tools) = batch::names(count + 1).split(1);
    let joined = heap::with(roster, |r: &Roster| {
        heap::replace(slot, |run: &Run| {
            let mut next = run.clone();
            let new = next.join(r, skill.get(0), &tools);
            Some((next, new))
        })
    })
    .flatten();
    joined.map(|new| revealed(&new)).is_some()
}

/// The run's saved form, handed to run.js (SPEC 8: a run outlives its process).
#[wasm_bindgen]
pub fn saved(slot: u32, roster: u32) -> bool {
    let saved = heap::with(roster, |r: &Roster| {
        heap::with(slot, |run: &Run| run.save(r))
    })
    .flatten();
    saved.map(|units| text(&units)).is_some()
}

/// Restores into `slot` and `roster` the run whose saved form is the batch's first string,
/// over the `registered` names after it: `[]`, or why not (run.js words it): `[0]` not a
/// saved run, `[1]` another version, `[2, given, saved]` another number of names, `[3]`
/// other names, `[4]` no memory.
#[wasm_bindgen]
pub fn restore(slot: u32, roster: u32, registered: u32) -> Vec<u32> {
    let mut why = None;
    let mut held = None;
    let made = heap::build(roster, false, || {
        let all = batch::names(1 + registered);
        let (saved, names) = all.split(1);
        Run::load(saved.get(0), names)
            .map(|(roster, run)| {
                held = Some(run);
                roster
            })
            .map_err(|e| why = Some(e))
            .ok()
    });
    match why {
        Some(SavedError::NotSaved) => return vec![0],
        Some(SavedError::Version) => return vec![1],
        Some(SavedError::Count { given, saved }) => return vec![2, given, saved],
        Some(SavedError::Names) => return vec![3],
        None => {}
    }
    // (The run's memory: made again inside its own record, a copy of what `load` made.)
    if made && heap::build(slot, false, || held.clone()) {
        Vec::new()
    } else {
        vec![4]
    }
}

/// The run's strategy, by its place in `Cache::ALL` (wire.js `CACHES`).
#[wasm_bindgen]
pub fn strategy(slot: u32) -> u32 {
    heap::with(slot, |run: &Run| {
        Cache::ALL
            .iter()
            .position(|&(_, c)| c == run.cache())
            .unwrap_or(0) as u32
    })
    .unwrap_or(0)
}

/// Steps the run has taken.
#[wasm_bindgen]
pub fn steps(slot: u32) -> u32 {
    heap::with(slot, Run::steps).unwrap_or(0)
}
