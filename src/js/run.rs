//! `PaletteRun` (SPEC 8): the binding of [`crate::run`]. Its JavaScript half is run.js. A
//! run is two records: its roster (the registered names, built once) and its progress,
//! which each step copies and puts in place at once, so that a step cut short leaves the
//! run as it was.

use super::batch;
use crate::run::{Cache, RevealError, Roster, Run};
use tool_palette_heap as heap;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(raw_module = "./calls.js")]
extern "C" {
    /// A step (to run.js): each list the registered names' indices.
    fn stepped(
        step: u32,
        offered: &[u32],
        listed: &[u32],
        deferred: &[u32],
        revealed: &[u32],
        kept: bool,
    );
    /// The tools a `reveal` made new to the run.
    fn revealed(new: &[u32]);
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
/// every tool, handed to run.js; `Some(i)` (the run as it was) when names[i] is not
/// registered.
#[wasm_bindgen]
pub fn step(slot: u32, roster: u32, routed: bool, count: u32) -> Option<u32> {
    let names = routed.then(|| batch::names(count));
    let taken = heap::with(roster, |r: &Roster| {
        heap::replace(slot, |run: &Run| {
            let mut next = run.clone();
            match next.step(r, names.as_ref()) {
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
