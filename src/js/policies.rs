//! Policies (SPEC 4): a set of policies in the core's form and its two seams, run by the
//! core over the facade's frame (policies.js `Frame`), which calls the caller's functions
//! when the core asks and keeps what they answered. The JavaScript half is policies.js.

use super::batch;
use super::routing::Names;
use crate::names::{Name, NameList, NameSet};
use crate::policy::gate::{admits, dropped_reason, dropped_warning, Admits, Handed};
use crate::policy::seams::{failure_text, Failure, Hooks, Misstep, Selection};
use crate::policy::{Policy, PolicySet, WhenTool};
use alloc::vec::Vec;
use wasm_bindgen::prelude::*;

/// What the code of a policy's first string in the batch says it has (bits).
#[wasm_bindgen]
#[derive(Clone, Copy)]
pub enum Has {
    /// The string starts a policy: its name; then its redirect target (`""` for none),
    /// then its `whenTool` names.
    Policy = 1,
    Model = 2,
    Guard = 4,
    /// A `whenTool` (else any tool).
    Tools = 8,
}

/// What one of the caller's functions came to, as the frame answers. A failure's value
/// (what was thrown or returned) stays with the frame.
#[wasm_bindgen]
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Asked {
    No,
    Yes,
    Threw,
    Thenable,
    UnreadableThen,
    /// `argsTransform` returned no plain object; the batch holds what it was, in words.
    NotPlain,
    /// An error the frame made or the adopter's code threw: the seam throws it as it is.
    Raw,
}

/// A seam's answer: a policy's by its index after `Policy`.
#[wasm_bindgen]
#[derive(Clone, Copy)]
pub enum Source {
    Failed,
    /// No policy redirected (dispatch), or the default model.
    Default,
    Resolver,
    Policy,
}

#[wasm_bindgen]
extern "C" {
    /// One seam call's JavaScript half (policies.js `Frame`).
    pub type Frame;
    /// The policy's `match` (or `guard`), asked with the context.
    #[wasm_bindgen(method)]
    fn asked(this: &Frame, policy: u32, guard: bool) -> Asked;
    /// The call rewritten to the policy's target, through its `argsTransform`.
    #[wasm_bindgen(method)]
    fn redirect(this: &Frame, policy: u32) -> Asked;
    /// `modelResolver`: `Yes` when it answered a model.
    #[wasm_bindgen(method)]
    fn resolve(this: &Frame) -> Asked;
    /// `onToolCallDispatch`: `Yes` when it returned a call, whose name is then in the batch.
    #[wasm_bindgen(method)]
    fn callback(this: &Frame) -> Asked;
    /// The gate dropped the redirect: the reason and the warning.
    #[wasm_bindgen(method)]
    fn dropped(this: &Frame, reason: &[u16], warning: &[u16]);
    /// A policy's function failed: the seam's error message.
    #[wasm_bindgen(method)]
    fn failed(this: &Frame, message: &[u16]);
}

/// A `ToolPolicies`' policies and registered names (a `ToolCallPolicy`'s own, for
/// `matchesTool`).
#[wasm_bindgen]
pub struct Policies {
    set: PolicySet,
    registered: Option<NameSet>,
}

#[wasm_bindgen]
impl Policies {
    /// The policies of the `count` strings in the batch, coded by [`Has`]; fails with the
    /// index of a policy whose name an earlier one has.
    #[wasm_bindgen(constructor)]
    pub fn new(
        count: u32,
        registered: Option<Names>,
        resolver: bool,
        callback: bool,
    ) -> Result<Policies, JsValue> {
        let (strings, codes) = batch::take(count, count);
        let has = |i: usize, what: Has| codes.get(i).is_some_and(|c| c & what as u8 != 0);
        let (mut policies, mut i) = (Vec::new(), 0);
        while i + 1 < strings.len() {
            let (mut tools, mut next) = (NameList::default(), i + 2);
            while next < strings.len() && !has(next, Has::Policy) {
                tools.push(strings.get(next));
                next += 1;
            }
            let target = strings.get(i + 1);
            policies.push(Policy {
                name: strings.get(i).to_vec(),
                when_tool: if has(i, Has::Tools) {
                    WhenTool::Set(NameSet::new(tools))
                } else {
                    WhenTool::Any
                },
                redirect_to: (!target.is_empty()).then(|| target.to_vec()),
                has_model: has(i, Has::Model),
                has_guard: has(i, Has::Guard),
            });
            i = next;
        }
        let set =
            PolicySet::new(policies, resolver, callback).map_err(|i| JsValue::from(i as u32))?;
        Ok(Policies {
            set,
            registered: registered.map(|names| names.0),
        })
    }

    /// Whether the first policy's `whenTool` covers the name in the batch.
    #[wasm_bindgen(js_name = matchesTool)]
    pub fn matches_tool(&self) -> bool {
        let tool = batch::names(1);
        self.set
            .policies()
            .first()
            .is_some_and(|p| tool.iter().any(|t| p.when_tool.matches(t)))
    }

    /// PRE-model seam: where the model comes from.
    #[wasm_bindgen(js_name = selectModel)]
    pub fn select_model(&self, frame: &Frame) -> u32 {
        let none = NameList::default();
        let mut asking = Asking {
            frame,
            admits: Admits::Every,
            palette: &none,
            registered: None,
        };
        match self.set.select_model(&mut asking) {
            Ok(Selection::Policy(i)) => Source::Policy as u32 + i as u32,
            Ok(Selection::Resolver) => Source::Resolver as u32,
            Ok(Selection::Default) => Source::Default as u32,
            Err(failure) => self.failed(frame, failure),
        }
    }

    /// POST-model seam: the batch holds the call's name, then the names of the palette
    /// when it narrows (`palette` of them). The redirecting policy; a dropped redirect is
    /// the frame's.
    pub fn dispatch(&self, frame: &Frame, palette: Option<u32>) -> u32 {
        let names = batch::names(1 + palette.unwrap_or(0));
        let tool = names.iter().next().unwrap_or_default();
        let handed = if palette.is_some() {
            Handed::Routed
        } else {
            Handed::Nothing
        };
        let admits = admits(handed, self.registered.is_some());
        let mut asking = Asking {
            frame,
            admits,
            palette: &names,
            registered: self.registered.as_ref(),
        };
        match self.set.dispatch(tool, &mut asking) {
            Ok(dispatched) => {
                if let Some(target) = dispatched.dropped {
                    let reason = dropped_reason(&target, tool, admits);
                    let by = dispatched
                        .redirected_by
                        .map(|i| &self.set.policies()[i].name[..]);
                    frame.dropped(&reason, &dropped_warning(by, &reason));
                }
                dispatched
                    .redirected_by
                    .map_or(Source::Default as u32, |i| Source::Policy as u32 + i as u32)
            }
            Err(failure) => self.failed(frame, failure),
        }
    }
}

impl Policies {
    /// Words a policy's failing function for the frame (the rest it throws as it is).
    fn failed(&self, frame: &Frame, failure: Failure<Asked>) -> u32 {
        let Failure::Policy {
            policy,
            function,
            seam,
            cause,
        } = failure
        else {
            return Source::Failed as u32;
        };
        let said;
        let misstep = match cause {
            Asked::Threw => Misstep::Threw,
            Asked::Thenable => Misstep::Thenable,
            Asked::UnreadableThen => Misstep::UnreadableThen,
            Asked::NotPlain => {
                said = batch::names(1);
                Misstep::NotPlain(said.iter().next().unwrap_or_default())
            }
            _ => return Source::Failed as u32,
        };
        frame.failed(&failure_text(
            &self.set.policies()[policy].name,
            function,
            seam,
            misstep,
        ));
        Source::Failed as u32
    }
}

/// The core's hooks of one seam call: the frame, and what the gate admits.
struct Asking<'a> {
    frame: &'a Frame,
    admits: Admits,
    /// The call's name, then the palette's.
    palette: &'a NameList,
    registered: Option<&'a NameSet>,
}

fn held(asked: Asked) -> Result<bool, Asked> {
    match asked {
        Asked::Yes => Ok(true),
        Asked::No => Ok(false),
        failed => Err(failed),
    }
}

impl Hooks for Asking<'_> {
    type Error = Asked;

    fn matches(&mut self, i: usize) -> Result<bool, Asked> {
        held(self.frame.asked(i as u32, false))
    }

    fn guard(&mut self, i: usize) -> Result<bool, Asked> {
        held(self.frame.asked(i as u32, true))
    }

    fn redirect(&mut self, i: usize) -> Result<(), Asked> {
        held(self.frame.redirect(i as u32)).map(drop)
    }

    fn resolve_model(&mut self) -> Result<bool, Asked> {
        held(self.frame.resolve())
    }

    fn on_dispatch(&mut self) -> Result<Option<Vec<u16>>, Asked> {
        let rewritten = held(self.frame.callback())?;
        Ok(rewritten.then(|| batch::names(1).iter().next().unwrap_or_default().to_vec()))
    }

    fn allows(&mut self, tool: &Name) -> Result<bool, Asked> {
        Ok(match self.admits {
            Admits::Every => true,
            Admits::Registered => self.registered.is_some_and(|names| names.contains(tool)),
            // A palette handed over for one dispatch: one scan costs less than an index.
            Admits::Routed | Admits::Handed => self.palette.iter().skip(1).any(|name| name == tool),
        })
    }
}
