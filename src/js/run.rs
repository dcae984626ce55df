//! `PaletteRun` (SPEC 8): the binding of [`crate::run::Run`]. Its JavaScript half is run.js.

use super::batch;
use crate::run::{Cache, RevealError, Run as Core};
use alloc::vec::Vec;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    /// A step as the facade receives it (run.js): each list the registered names' indices.
    pub type Stepped;
    #[wasm_bindgen(method)]
    fn stepped(
        this: &Stepped,
        step: u32,
        offered: &[u32],
        listed: &[u32],
        deferred: &[u32],
        revealed: &[u32],
        kept: bool,
    );
}

#[wasm_bindgen]
pub struct Run(Core);

#[wasm_bindgen]
impl Run {
    /// A run by `Cache::ALL[cache]` over the `registered`, then `pinned` names in the
    /// batch; `Err(i)` when `pinned[i]` is not registered.
    #[wasm_bindgen(constructor)]
    pub fn new(cache: usize, registered: u32, pinned: u32) -> Result<Run, u32> {
        let all = batch::names(registered + pinned);
        let (registered, pinned) = all.split(registered as usize);
        let cache = Cache::ALL.get(cache).map_or(Cache::DEFAULT, |&(_, c)| c);
        Core::new(cache, registered, &pinned)
            .map(Run)
            .map_err(|i| i as u32)
    }

    /// The next step, for a `Routed` outcome's `count` names in the batch (`routed`) or
    /// every tool; `Err(i)` (the run as it was) when names[i] is not registered.
    pub fn step(&mut self, to: &Stepped, routed: bool, count: u32) -> Result<(), u32> {
        let names = routed.then(|| batch::names(count));
        let s = self.0.step(names.as_ref()).map_err(|i| i as u32)?;
        to.stepped(
            s.step,
            &s.offered,
            &s.listed,
            &s.deferred,
            &s.revealed,
            s.kept,
        );
        Ok(())
    }

    /// `Deferred`: the `count` names in the batch join what the run revealed (the indices
    /// new to it); `Err(i)`: names[i] is not registered; `Err(undefined)`: not deferred.
    pub fn reveal(&mut self, count: u32) -> Result<Vec<u32>, Option<u32>> {
        self.0.reveal(&batch::names(count)).map_err(|e| match e {
            RevealError::Unregistered(i) => Some(i as u32),
            RevealError::NotDeferred(_) => None,
        })
    }
}
