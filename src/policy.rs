//! Per-intent policies: what a `ToolCallPolicy` declares and how a `ToolPolicies` composes
//! them. The two seams that apply them are in [`seams`], the palette gate in [`gate`].
//!
//! The predicates (`match`, `guard`, `argsTransform`) and the adopter's resolver and
//! dispatch callback are the caller's code; the core asks them through [`seams::Hooks`]
//! and decides the order, the composition and the gate.

pub mod gate;
pub mod seams;

use crate::names::{Name, NameList, NameSet, NameTable};
use alloc::vec::Vec;

/// The tools a policy's redirect applies to.
#[derive(Debug, Clone)]
pub enum WhenTool {
    Any,
    One(Vec<u16>),
    Set(NameSet),
}

impl WhenTool {
    pub fn matches(&self, tool: &Name) -> bool {
        match self {
            WhenTool::Any => true,
            WhenTool::One(name) => name.as_slice() == tool,
            WhenTool::Set(set) => set.contains(tool),
        }
    }
}

/// The declarative part of a `ToolCallPolicy`; its functions live with the binding.
#[derive(Debug, Clone)]
pub struct Policy {
    pub name: Vec<u16>,
    pub when_tool: WhenTool,
    pub redirect_to: Option<Vec<u16>>,
    pub has_model: bool,
    pub has_guard: bool,
}

/// Policies composed in declaration order, with what the adopter added around them.
#[derive(Debug, Clone, Default)]
pub struct PolicySet {
    policies: Vec<Policy>,
    has_resolver: bool,
    has_callback: bool,
}

impl PolicySet {
    /// Fails with the index of the first policy whose name an earlier one already used.
    pub fn new(
        policies: Vec<Policy>,
        has_resolver: bool,
        has_callback: bool,
    ) -> Result<Self, usize> {
        let mut names = NameList::default();
        for p in &policies {
            names.push(&p.name);
        }
        let mut table = NameTable::with_capacity(policies.len());
        for i in 0..policies.len() {
            if !table.insert(i as u32, |j| names.get(j as usize)) {
                return Err(i);
            }
        }
        Ok(PolicySet {
            policies,
            has_resolver,
            has_callback,
        })
    }

    pub fn policies(&self) -> &[Policy] {
        &self.policies
    }
}

#[cfg(test)]
mod tests;
