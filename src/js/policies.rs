//! `Rule` (one `ToolCallPolicy`) and `Policies` (a `ToolPolicies`): the seams as steps.

use wasm_bindgen::prelude::*;

use super::palette::first_name;
use super::scratch;
use crate::names::{NameList, NameSet};
use crate::policy::{dropped_reason, Policy, PolicySet, Step, WhenTool};

#[wasm_bindgen]
pub struct Rule {
    policy: Policy,
}

/// `when`: 0 any tool, 1 one name, 2 a set of names (back to back in `units`/`ends`).
#[allow(clippy::too_many_arguments)]
#[wasm_bindgen]
pub fn rule(
    name: Vec<u16>,
    when: u8,
    units: Vec<u16>,
    ends: Vec<u32>,
    redirect_to: Option<Vec<u16>>,
    has_model: bool,
    has_transform: bool,
    has_guard: bool,
) -> Option<Rule> {
    let when_tool = match when {
        0 => WhenTool::Any,
        1 => WhenTool::One(units),
        _ => WhenTool::Set(NameSet::new(NameList::from_parts(units, ends)?)),
    };
    Some(Rule {
        policy: Policy {
            name,
            when_tool,
            redirect_to,
            has_model,
            has_transform,
            has_guard,
        },
    })
}

#[wasm_bindgen]
impl Rule {
    pub fn matches_tool(&self, tool: &[u16]) -> bool {
        self.policy.matches_tool(tool)
    }
}

#[wasm_bindgen]
#[derive(Default)]
pub struct Policies {
    pending: Vec<Policy>,
    set: Option<PolicySet>,
}

#[wasm_bindgen]
impl Policies {
    #[wasm_bindgen(constructor)]
    pub fn new() -> Policies {
        Policies::default()
    }

    pub fn add(&mut self, rule: &Rule) {
        self.pending.push(rule.policy.clone());
    }

    /// Composes the added rules: -1, or the index of the first duplicate name.
    pub fn seal(&mut self, has_resolver: bool, has_callback: bool) -> i32 {
        match PolicySet::new(
            std::mem::take(&mut self.pending),
            has_resolver,
            has_callback,
        ) {
            Ok(set) => {
                self.set = Some(set);
                -1
            }
            Err(i) => i as i32,
        }
    }

    fn step(&self, f: impl FnOnce(&PolicySet) -> Step) -> u32 {
        self.set.as_ref().map_or(Step::Invalid, f).encode()
    }

    pub fn model_begin(&self) -> u32 {
        self.step(|s| s.model_begin())
    }

    pub fn model_answer(&self, step: u32, yes: bool) -> u32 {
        self.step(|s| s.model_answer(Step::decode(step), yes))
    }

    /// The id of the emitted tool, whose `len` code units are in the input buffer.
    pub fn tool_id(&self, len: u32) -> u32 {
        scratch::read(|units, _| {
            let tool = first_name(units, len);
            self.set.as_ref().map_or(u32::MAX, |s| s.tool_id(tool))
        })
    }

    pub fn post_begin(&self) -> u32 {
        self.step(|s| s.post_begin())
    }

    pub fn post_answer(&self, step: u32, yes: bool, tool: u32) -> u32 {
        self.step(|s| s.post_answer(Step::decode(step), yes, tool))
    }
}

/// Why the gate dropped a redirect, for the `Dispatch` and the warning.
#[wasm_bindgen]
pub fn dropped_because(target: &[u16], original: &[u16]) -> Vec<u16> {
    dropped_reason(target, original)
}
