//! Policies (SPEC 4) in the core's form, and the seams it runs over policies.js's `Frame`.

use super::batch;
use crate::names::{Name, NameList, NameSet};
use crate::policy::gate::{admits, Admits, Handed};
use crate::policy::seams::{Failure, Hooks, Selection};
use crate::policy::{Policy, PolicySet, WhenTool};
use alloc::vec::Vec;
use tool_palette_heap as heap;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(raw_module = "./calls.js")]
extern "C" {
    // One seam call's JavaScript half (policies.js `Frame`): a function that calls the
    // caller's code answers nothing when that failed (the frame keeps why).
    fn asked(policy: u32, guard: bool) -> Option<bool>;
    fn redirect(policy: u32) -> Option<bool>;
    fn resolve() -> Option<bool>;
    /// `onToolCallDispatch`: whether it returned a call, whose name is then in the batch.
    fn callback() -> Option<bool>;
    /// The gate dropped the redirect; `registered`: only registered names pass.
    fn dropped(registered: bool);
    /// The policy, function and seam (`seams::Function`, `seams::Seam`) the core blames.
    fn failed(policy: u32, function: u32, seam: u32);
}

/// A `ToolPolicies`' policies (or a `ToolCallPolicy`'s, for `matchesTool`), composed, and
/// the slot of the registered names its gate admits.
struct Policies {
    set: PolicySet,
    gate: Option<u32>,
}

/// The palette a dispatch is handed, as policies.js read it (`gate::Handed`).
#[wasm_bindgen]
#[derive(Clone, Copy)]
pub enum Palette {
    Nothing,
    Routed,
    NotRouted,
    Names,
}

/// No memory to build the policies in (`policies`' answer).
const NO_ROOM: u32 = u32::MAX;

/// Composes into `slot` the policies in the batch: per policy its name, its redirect
/// target (`""`: none) and its `whenTool` names, shaped by `shape`, three numbers a policy:
/// how many `whenTool` names (`u32::MAX`: any tool), whether it has a model, a guard.
/// `gate`: the slot of the registered names; `resolver`, `hook`: whether the set has a
/// model resolver, an `onToolCallDispatch`. `Some(i)`: policy i reuses a name (nothing is
/// built), or `NO_ROOM`.
#[wasm_bindgen]
pub fn policies(
    slot: u32,
    gate: Option<u32>,
    resolver: bool,
    hook: bool,
    shape: Vec<u32>,
) -> Option<u32> {
    let mut reused = None;
    let placed = heap::build(slot, false, || {
        let counts: Vec<u32> = shape
            .chunks_exact(3)
            .map(|p| 2 + if p[0] == u32::MAX { 0 } else { p[0] })
            .collect();
        let names = batch::names(counts.iter().sum());
        let mut at = 0;
        let mut list = Vec::with_capacity(counts.len());
        for (p, &n) in shape.chunks_exact(3).zip(&counts) {
            let mut tools = NameList::default();
            (at + 2..at + n as usize).for_each(|i| tools.push(names.get(i)));
            let target = names.get(at + 1);
            list.push(Policy {
                name: names.get(at).to_vec(),
                when_tool: if p[0] == u32::MAX {
                    WhenTool::Any
                } else {
                    WhenTool::Set(NameSet::new(tools))
                },
                redirect_to: (!target.is_empty()).then(|| target.to_vec()),
                has_model: p[1] != 0,
                has_guard: p[2] != 0,
            });
            at += n as usize;
        }
        match PolicySet::new(list, resolver, hook) {
            Ok(set) => Some(Policies { set, gate }),
            Err(i) => {
                reused = Some(i as u32);
                None
            }
        }
    });
    reused.or((!placed).then_some(NO_ROOM))
}

/// Whether policy `i`'s `whenTool` covers the name in the batch.
#[wasm_bindgen(js_name = matchesTool)]
pub fn matches_tool(slot: u32, i: u32) -> bool {
    let name = batch::names(1);
    heap::with(slot, |p: &Policies| {
        let policy = p.set.policies().get(i as usize);
        policy.is_some_and(|p| p.when_tool.matches(name.get(0)))
    })
    .unwrap_or(false)
}

/// PRE-model seam: the policy that supplies the model, if one does.
#[wasm_bindgen(js_name = selectModel)]
pub fn select_model(slot: u32) -> Option<u32> {
    heap::with(slot, |p: &Policies| {
        match p.set.select_model(&mut Asking(&|_| true)) {
            Ok(Selection::Policy(i)) => Some(i as u32),
            Ok(_) => None,
            Err(failure) => failed_at(failure),
        }
    })
    .flatten()
}

/// POST-model seam over the call's name and, for `Routed` or `Names`, the palette's
/// `count` names (in the batch after it): the policy that redirected, if one did.
#[wasm_bindgen]
pub fn dispatch(slot: u32, palette: Palette, count: u32) -> Option<u32> {
    let handed = match palette {
        Palette::Nothing => Handed::Nothing,
        Palette::Routed => Handed::Routed,
        Palette::NotRouted => Handed::NotRouted,
        Palette::Names => Handed::Names,
    };
    let names = batch::names(1 + count);
    heap::with(slot, |p: &Policies| {
        let admits = admits(handed, p.gate.is_some());
        let known = |tool: &Name| {
            p.gate
                .and_then(|gate| heap::with(gate, |known: &NameSet| known.contains(tool)))
                .unwrap_or(false)
        };
        let allows = |tool: &Name| match admits {
            Admits::Every => true,
            Admits::Registered => known(tool),
            // A palette handed over for one dispatch: one scan costs less than an index.
            Admits::Routed | Admits::Handed => names.iter().skip(1).any(|name| name == tool),
        };
        match p.set.dispatch(names.get(0), &mut Asking(&allows)) {
            Ok(dispatched) => {
                if dispatched.dropped.is_some() {
                    dropped(admits == Admits::Registered);
                }
                dispatched.redirected_by.map(|i| i as u32)
            }
            Err(failure) => failed_at(failure),
        }
    })
    .flatten()
}

/// The frame words a policy's failing function (the rest it throws as it is).
fn failed_at(failure: Failure<()>) -> Option<u32> {
    if let Some((policy, function, seam)) = failure.blamed() {
        failed(policy as u32, function as u32, seam as u32);
    }
    None
}

/// The core's hooks of one seam call: the frame, and what the palette gate admits.
struct Asking<'a>(&'a dyn Fn(&Name) -> bool);

impl Hooks for Asking<'_> {
    type Error = ();

    fn matches(&mut self, i: usize) -> Result<bool, ()> {
        asked(i as u32, false).ok_or(())
    }

    fn guard(&mut self, i: usize) -> Result<bool, ()> {
        asked(i as u32, true).ok_or(())
    }

    fn redirect(&mut self, i: usize) -> Result<(), ()> {
        redirect(i as u32).map(drop).ok_or(())
    }

    fn resolve_model(&mut self) -> Result<bool, ()> {
        resolve().ok_or(())
    }

    fn on_dispatch(&mut self) -> Result<Option<Vec<u16>>, ()> {
        let rewritten = callback().ok_or(())?;
        Ok(rewritten.then(|| batch::names(1).get(0).to_vec()))
    }

    fn allows(&mut self, tool: &Name) -> Result<bool, ()> {
        Ok((self.0)(tool))
    }
}
