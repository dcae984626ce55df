//! `Rule` (one `ToolCallPolicy`) and `Policies` (a `ToolPolicies`): the seams' plans.

use wasm_bindgen::prelude::*;

use super::palette::first_name;
use super::scratch::Buffers;
use crate::names::{NameSet, Names};
use crate::policy::{dropped_reason, Policy, PolicySet, Then, WhenTool};
use alloc::vec::Vec;

#[wasm_bindgen]
pub struct Rule {
    policy: Policy,
}

/// No `redirectTo`: the length the package's JavaScript passes for it then.
const NONE: u32 = u32::MAX;

/// Builds one policy's declarative part from the input buffer: units
/// `[name][redirectTo][whenTool names]`, words: the whenTool names' ends. `when`: 0 any
/// tool, 1 one name, 2 a set of names.
#[wasm_bindgen]
pub fn rule(
    b: &Buffers,
    name_len: u32,
    redirect_len: u32,
    when: u8,
    when_count: u32,
    has_model: bool,
    has_guard: bool,
) -> Option<Rule> {
    b.read(|units, words| {
        let name_end = name_len as usize;
        let name = units.get(..name_end)?.to_vec();
        let (redirect_to, redirect_end) = if redirect_len == NONE {
            (None, name_end)
        } else {
            let end = name_end + redirect_len as usize;
            (Some(units.get(name_end..end)?.to_vec()), end)
        };
        let names = Names::new(
            units.get(redirect_end..)?,
            words.get(..when_count as usize)?,
        )?;
        let when_tool = match when {
            0 => WhenTool::Any,
            1 => WhenTool::One(names.get(0).to_vec()),
            _ => WhenTool::Set(NameSet::new(names.to_list())),
        };
        Some(Rule {
            policy: Policy {
                name,
                when_tool,
                redirect_to,
                has_model,
                has_transform: false,
                has_guard,
            },
        })
    })
}

#[wasm_bindgen]
impl Rule {
    /// Whether whenTool covers the tool whose `len` code units are in the input buffer.
    pub fn matches_tool(&self, b: &Buffers, len: u32) -> bool {
        b.read(|units, _| self.policy.matches_tool(first_name(units, len)))
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
            core::mem::take(&mut self.pending),
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

    /// The PRE seam's plan. Answer: `[len, askResolver (0/1), ...policy indices to ask
    /// in order]`.
    pub fn model_plan(&self, b: &mut Buffers) -> u32 {
        b.answer(|_, _, out| {
            let Some(set) = &self.set else {
                return;
            };
            let plan = set.model_plan();
            out.push(u32::from(plan.then_resolver));
            out.extend(plan.ask.iter().map(|&i| i as u32));
        })
    }

    /// The POST seam's plan for the emitted tool whose `len` code units are in the input
    /// buffer. Answer: `[len, runCallback (0/1), ...(index << 2 | then)]` with `then`
    /// 0 = whenTool does not cover the tool, 1 = ask guard, 2 = redirect.
    pub fn dispatch_plan(&self, b: &mut Buffers, len: u32) -> u32 {
        b.answer(|units, _, out| {
            let Some(set) = &self.set else {
                return;
            };
            let plan = set.dispatch_plan(set.tool_id(first_name(units, len)));
            out.push(u32::from(plan.then_callback));
            out.extend(plan.ask.iter().map(|c| {
                let then = match c.then {
                    Then::Skip => 0,
                    Then::Guard => 1,
                    Then::Redirect => 2,
                };
                (c.policy as u32) << 2 | then
            }));
        })
    }
}

/// Why the gate dropped a redirect, for the `Dispatch` and the warning. Input: units
/// `[target][original]`. Answer: `[len, ...reason units]`.
#[wasm_bindgen]
pub fn dropped_because(b: &mut Buffers, target_len: u32) -> u32 {
    b.answer(|units, _, out| {
        let (target, original) = units.split_at(units.len().min(target_len as usize));
        out.extend(dropped_reason(target, original).into_iter().map(u32::from));
    })
}
