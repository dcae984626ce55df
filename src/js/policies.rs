//! Policies (SPEC 4) in the core's form, and the seams it runs over policies.js's `Frame`.

use super::batch;
use super::routing::Names;
use crate::names::{Name, NameList, NameSet};
use crate::policy::gate::{admits, Admits, Handed};
use crate::policy::seams::{Failure, Hooks, Selection};
use crate::policy::{Policy, PolicySet, WhenTool};
use alloc::vec::Vec;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    /// One seam call's JavaScript half: a method that calls the caller's code answers
    /// nothing when that failed (the frame keeps why).
    pub type Frame;
    #[wasm_bindgen(method)]
    fn asked(this: &Frame, policy: u32, guard: bool) -> Option<bool>;
    #[wasm_bindgen(method)]
    fn redirect(this: &Frame, policy: u32) -> Option<bool>;
    #[wasm_bindgen(method)]
    fn resolve(this: &Frame) -> Option<bool>;
    /// `onToolCallDispatch`: whether it returned a call, whose name is then in the batch.
    #[wasm_bindgen(method)]
    fn callback(this: &Frame) -> Option<bool>;
    /// The gate dropped the redirect; `registered`: only registered names pass.
    #[wasm_bindgen(method)]
    fn dropped(this: &Frame, registered: bool);
    /// The policy, function and seam (`seams::Function`, `seams::Seam`) the core blames.
    #[wasm_bindgen(method)]
    fn failed(this: &Frame, policy: u32, function: u32, seam: u32);
}

/// A `ToolPolicies`' policies (or a `ToolCallPolicy`'s, for `matchesTool`), added one by
/// one, then composed (`PolicySet`), and the registered names its gate admits.
#[wasm_bindgen]
pub struct Policies(Vec<Policy>, PolicySet, Option<NameSet>, bool, bool);

#[wasm_bindgen]
impl Policies {
    /// `model`, `hook`: whether the set has a model resolver, an `onToolCallDispatch`.
    #[wasm_bindgen(constructor)]
    pub fn new(gate: Option<Names>, model: bool, hook: bool) -> Policies {
        Policies(
            Vec::new(),
            PolicySet::default(),
            gate.map(|names| names.0),
            model,
            hook,
        )
    }

    /// A policy from the batch: its name, redirect target (`""`: none), `whenTool` names
    /// (`tools` of them; none: any tool).
    pub fn add(&mut self, tools: Option<u32>, has_model: bool, has_guard: bool) {
        let names = batch::names(2 + tools.unwrap_or(0));
        let mut listed = NameList::default();
        names.iter().skip(2).for_each(|name| listed.push(name));
        let target = names.get(1);
        self.0.push(Policy {
            name: names.get(0).to_vec(),
            when_tool: tools.map_or(WhenTool::Any, |_| WhenTool::Set(NameSet::new(listed))),
            redirect_to: (!target.is_empty()).then(|| target.to_vec()),
            has_model,
            has_guard,
        });
    }

    /// The policies added, composed: the index of a name used again, if one is.
    pub fn compose(&mut self) -> Option<u32> {
        let list = core::mem::take(&mut self.0);
        let set = PolicySet::new(list, self.3, self.4);
        set.map(|set| self.1 = set).err().map(|i| i as u32)
    }

    /// Whether policy `i`'s `whenTool` covers the name in the batch.
    #[wasm_bindgen(js_name = matchesTool)]
    pub fn matches_tool(&self, i: u32) -> bool {
        let policy = self.1.policies().get(i as usize);
        policy.is_some_and(|p| p.when_tool.matches(batch::names(1).get(0)))
    }

    /// PRE-model seam: the policy that supplies the model, if one does.
    #[wasm_bindgen(js_name = selectModel)]
    pub fn select_model(&self, frame: &Frame) -> Option<u32> {
        match self.1.select_model(&mut Asking(frame, &|_| true)) {
            Ok(Selection::Policy(i)) => Some(i as u32),
            Ok(_) => None,
            Err(failure) => failed(frame, failure),
        }
    }

    /// POST-model seam over the call's name and a narrowing palette's names (in the batch):
    /// the policy that redirected, if one did.
    pub fn dispatch(&self, frame: &Frame, palette: Option<u32>) -> Option<u32> {
        let names = batch::names(1 + palette.unwrap_or(0));
        let handed = palette.map_or(Handed::Nothing, |_| Handed::Routed);
        let admits = admits(handed, self.2.is_some());
        let allows = |tool: &Name| match admits {
            Admits::Every => true,
            Admits::Registered => self.2.as_ref().is_some_and(|known| known.contains(tool)),
            // A palette handed over for one dispatch: one scan costs less than an index.
            Admits::Routed | Admits::Handed => names.iter().skip(1).any(|name| name == tool),
        };
        match self.1.dispatch(names.get(0), &mut Asking(frame, &allows)) {
            Ok(dispatched) => {
                if dispatched.dropped.is_some() {
                    frame.dropped(admits == Admits::Registered);
                }
                dispatched.redirected_by.map(|i| i as u32)
            }
            Err(failure) => failed(frame, failure),
        }
    }
}

/// The frame words a policy's failing function (the rest it throws as it is).
fn failed(frame: &Frame, failure: Failure<()>) -> Option<u32> {
    if let Some((policy, function, seam)) = failure.blamed() {
        frame.failed(policy as u32, function as u32, seam as u32);
    }
    None
}

/// The core's hooks of one seam call: the frame, and what the palette gate admits.
struct Asking<'a>(&'a Frame, &'a dyn Fn(&Name) -> bool);

impl Hooks for Asking<'_> {
    type Error = ();

    fn matches(&mut self, i: usize) -> Result<bool, ()> {
        self.0.asked(i as u32, false).ok_or(())
    }

    fn guard(&mut self, i: usize) -> Result<bool, ()> {
        self.0.asked(i as u32, true).ok_or(())
    }

    fn redirect(&mut self, i: usize) -> Result<(), ()> {
        self.0.redirect(i as u32).map(drop).ok_or(())
    }

    fn resolve_model(&mut self) -> Result<bool, ()> {
        self.0.resolve().ok_or(())
    }

    fn on_dispatch(&mut self) -> Result<Option<Vec<u16>>, ()> {
        let rewritten = self.0.callback().ok_or(())?;
        Ok(rewritten.then(|| batch::names(1).get(0).to_vec()))
    }

    fn allows(&mut self, tool: &Name) -> Result<bool, ()> {
        Ok((self.1)(tool))
    }
}
