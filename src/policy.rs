//! Per-intent policies and the two seams of one agent iteration.
//!
//! The predicates (`match`, `guard`, `argsTransform`, the adopter's resolver and
//! dispatch callback) are the caller's code; the core decides the order, the
//! composition and the palette gate. The rules are a step machine ([`Step`]); the
//! binding runs them as plans compiled from it ([`PolicySet::model_plan`],
//! [`PolicySet::dispatch_plan`]) so that a seam crosses into wasm once, not once per
//! step; [`Hooks`] and the drivers below run them natively (tests, fuzzing).

use crate::names::{Name, NameList, NameSet, NameTable, Names};
use alloc::{vec, vec::Vec};

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
    pub has_transform: bool,
    pub has_guard: bool,
}

impl Policy {
    pub fn matches_tool(&self, tool: &Name) -> bool {
        self.when_tool.matches(tool)
    }
}

/// The caller's functions, asked by policy index.
pub trait Hooks {
    type Error;
    /// `policies[i].match(ctx)`, already checked to be a plain truthy/falsy answer.
    fn matches(&mut self, policy: usize) -> Result<bool, Self::Error>;
    /// `policies[i].guard(ctx)`.
    fn guard(&mut self, policy: usize) -> Result<bool, Self::Error>;
    /// Rewrites the call to `policies[i].redirectTo`, applying `argsTransform` when the
    /// policy has one.
    fn redirect(&mut self, policy: usize) -> Result<(), Self::Error>;
    /// Asks the adopter's `modelResolver`; `true` when it supplied a model.
    fn resolve_model(&mut self) -> Result<bool, Self::Error>;
    /// Runs the adopter's `onToolCallDispatch` on the current call.
    fn on_dispatch(&mut self) -> Result<(), Self::Error>;
    /// The name of the call as it stands now.
    fn current_tool(&self) -> Vec<u16>;
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Seam {
    Pre,
    Post,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Function {
    Match,
    Guard,
    ArgsTransform,
}

/// A policy's function failed: which policy, which function, at which seam.
#[derive(Debug)]
pub struct SeamError<E> {
    pub policy: usize,
    pub function: Function,
    pub seam: Seam,
    pub cause: E,
}

/// Errors of the adopter's own callbacks pass through unwrapped.
#[derive(Debug)]
pub enum Failure<E> {
    Policy(SeamError<E>),
    Adopter(E),
}

fn at<T, E>(
    r: Result<T, E>,
    policy: usize,
    function: Function,
    seam: Seam,
) -> Result<T, Failure<E>> {
    r.map_err(|cause| {
        Failure::Policy(SeamError {
            policy,
            function,
            seam,
            cause,
        })
    })
}

/// Which model reasons this iteration.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Selection {
    Policy(usize),
    Resolver,
    Default,
}

impl Selection {
    pub fn source(self) -> &'static str {
        match self {
            Selection::Policy(_) => "policy",
            Selection::Resolver => "resolver",
            Selection::Default => "default",
        }
    }
}

/// The palette the gate checks a redirected call against.
pub enum Gate<'a> {
    /// No palette, a refusal or `RoutingUnavailable`: every tool passes.
    Every,
    Only(&'a NameSet),
    /// A palette handed over for one dispatch: one scan costs less than indexing it.
    Listed(Names<'a>),
}

impl Gate<'_> {
    pub fn allows(&self, tool: &Name) -> bool {
        match self {
            Gate::Every => true,
            Gate::Only(set) => set.contains(tool),
            Gate::Listed(names) => names.iter().any(|n| n == tool),
        }
    }
}

/// Where the emitted call goes, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision {
    /// The policy that rewrote the call, if one did.
    pub redirected_by: Option<usize>,
    /// Set when the gate refused the final target: the original call dispatches.
    pub dropped: Option<Vec<u16>>,
}

/// What a seam needs from the caller next: the rules of both seams as a machine that is
/// driven by answering steps. The core decides the order and the composition; the
/// caller only runs the function it is asked for. Steps carry all their state, so seams
/// may nest (a predicate may itself call a seam) without anything shared being
/// overwritten. The plans the binding runs are compiled from these steps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// Run `policies[i].match(ctx)`; answer whether it was truthy.
    Match(usize),
    /// Run `policies[i].guard(ctx)`; answer whether it was truthy.
    Guard(usize),
    /// Rewrite the call to `policies[i].redirectTo` (with `argsTransform`), then answer.
    Redirect(usize),
    /// Ask the adopter's `modelResolver`; answer whether it supplied a model.
    Resolver,
    /// Run the adopter's `onToolCallDispatch`, then answer.
    Callback,
    /// POST seam: all that is left is the palette gate ([`PolicySet::gate_drops`]).
    Gate,
    /// PRE seam: the model is chosen.
    Selected(Selection),
    /// The caller answered a step this seam never asks (a bug in the binding).
    Invalid,
}

impl Step {
    /// Steps cross the wasm boundary as one number: kind in the low 4 bits, index above.
    pub fn encode(self) -> u32 {
        let (kind, i) = match self {
            Step::Match(i) => (0, i),
            Step::Guard(i) => (1, i),
            Step::Redirect(i) => (2, i),
            Step::Resolver => (3, 0),
            Step::Callback => (4, 0),
            Step::Gate => (5, 0),
            Step::Selected(Selection::Policy(i)) => (6, i),
            Step::Selected(Selection::Resolver) => (7, 0),
            Step::Selected(Selection::Default) => (8, 0),
            Step::Invalid => (9, 0),
        };
        kind | (i as u32) << 4
    }

    pub fn decode(code: u32) -> Step {
        let i = (code >> 4) as usize;
        match code & 15 {
            0 => Step::Match(i),
            1 => Step::Guard(i),
            2 => Step::Redirect(i),
            3 => Step::Resolver,
            4 => Step::Callback,
            5 => Step::Gate,
            6 => Step::Selected(Selection::Policy(i)),
            7 => Step::Selected(Selection::Resolver),
            8 => Step::Selected(Selection::Default),
            _ => Step::Invalid,
        }
    }
}

/// A tool name as the seams know it: its index among the names any `whenTool` mentions,
/// so that a POST seam copies the emitted name into the core once, not once per policy.
pub type ToolId = u32;
pub const UNMENTIONED: ToolId = u32::MAX;

/// The PRE seam as a plan (see [`PolicySet::model_plan`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelPlan {
    pub ask: Vec<usize>,
    pub then_resolver: bool,
}

/// What a truthy `match` leads to for one redirect policy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Then {
    /// `whenTool` does not cover the emitted tool: on to the next policy.
    Skip,
    /// Ask `guard`; truthy redirects, falsy goes on to the next policy.
    Guard,
    /// Redirect.
    Redirect,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Candidate {
    pub policy: usize,
    pub then: Then,
}

/// The POST seam for one emitted tool as a plan (see [`PolicySet::dispatch_plan`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DispatchPlan {
    pub ask: Vec<Candidate>,
    pub then_callback: bool,
}

/// Composed policies, in declaration order.
#[derive(Debug, Clone)]
pub struct PolicySet {
    policies: Vec<Policy>,
    /// Per policy: `None` = any tool, else the ids of its `whenTool` names.
    when_ids: Vec<Option<Vec<ToolId>>>,
    mentioned: NameSet,
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
        let mut mentioned = NameList::default();
        for p in &policies {
            names.push(&p.name);
            match &p.when_tool {
                WhenTool::Any => {}
                WhenTool::One(n) => mentioned.push(n),
                WhenTool::Set(set) => set.list().iter().for_each(|n| mentioned.push(n)),
            }
        }
        let mut table = NameTable::with_capacity(policies.len());
        for i in 0..policies.len() {
            if !table.insert(i as u32, |j| names.get(j as usize)) {
                return Err(i);
            }
        }
        let mentioned = NameSet::new(mentioned);
        let id = |n: &Name| mentioned.position(n).unwrap_or(UNMENTIONED);
        let when_ids = policies
            .iter()
            .map(|p| match &p.when_tool {
                WhenTool::Any => None,
                WhenTool::One(n) => Some(vec![id(n)]),
                WhenTool::Set(set) => Some(set.list().iter().map(id).collect()),
            })
            .collect();
        Ok(PolicySet {
            policies,
            when_ids,
            mentioned,
            has_resolver,
            has_callback,
        })
    }

    pub fn policies(&self) -> &[Policy] {
        &self.policies
    }

    /// The id the POST seam's steps take for the emitted tool.
    pub fn tool_id(&self, tool: &Name) -> ToolId {
        self.mentioned.position(tool).unwrap_or(UNMENTIONED)
    }

    fn matches_tool_id(&self, i: usize, tool: ToolId) -> bool {
        match &self.when_ids[i] {
            None => true,
            // whenTool lists are short: a scan is smaller than sorting and searching.
            Some(ids) => tool != UNMENTIONED && ids.contains(&tool),
        }
    }

    // PRE-model seam: the first policy with a `model` whose `match` holds, before the
    // adopter's resolver. `guard` is never asked here.

    pub fn model_begin(&self) -> Step {
        self.model_from(0)
    }

    fn model_from(&self, from: usize) -> Step {
        match (from..self.policies.len()).find(|&i| self.policies[i].has_model) {
            Some(i) => Step::Match(i),
            None if self.has_resolver => Step::Resolver,
            None => Step::Selected(Selection::Default),
        }
    }

    pub fn model_answer(&self, step: Step, yes: bool) -> Step {
        match step {
            Step::Match(i) if self.policies.get(i).is_some_and(|p| p.has_model) => {
                if yes {
                    Step::Selected(Selection::Policy(i))
                } else {
                    self.model_from(i + 1)
                }
            }
            Step::Resolver if self.has_resolver => Step::Selected(if yes {
                Selection::Resolver
            } else {
                Selection::Default
            }),
            _ => Step::Invalid,
        }
    }

    // POST-model seam: the first redirect policy whose `match`, `whenTool` and `guard`
    // hold rewrites the call; then the adopter's callback; then the palette gate, last.

    pub fn post_begin(&self) -> Step {
        self.post_from(0)
    }

    fn post_from(&self, from: usize) -> Step {
        match (from..self.policies.len()).find(|&i| self.policies[i].redirect_to.is_some()) {
            Some(i) => Step::Match(i),
            None => self.after_redirect(),
        }
    }

    fn after_redirect(&self) -> Step {
        if self.has_callback {
            Step::Callback
        } else {
            Step::Gate
        }
    }

    pub fn post_answer(&self, step: Step, yes: bool, tool: ToolId) -> Step {
        let redirecting = |i: usize| {
            self.policies
                .get(i)
                .is_some_and(|p| p.redirect_to.is_some())
        };
        match step {
            Step::Match(i) if redirecting(i) => {
                if !yes || !self.matches_tool_id(i, tool) {
                    self.post_from(i + 1)
                } else if self.policies[i].has_guard {
                    Step::Guard(i)
                } else {
                    Step::Redirect(i)
                }
            }
            Step::Guard(i) if redirecting(i) && self.policies[i].has_guard => {
                if yes {
                    Step::Redirect(i)
                } else {
                    self.post_from(i + 1)
                }
            }
            Step::Redirect(i) if redirecting(i) => self.after_redirect(),
            Step::Callback if self.has_callback => Step::Gate,
            _ => Step::Invalid,
        }
    }

    /// The gate, last: a call that was redirected (by a policy or by the adopter's
    /// callback) to a target outside the palette is dropped, and the original dispatches.
    /// A call nobody redirected is never the gate's business.
    pub fn gate_drops(gate: &Gate<'_>, original: &Name, target: &Name, by_policy: bool) -> bool {
        (by_policy || target != original) && !gate.allows(target)
    }

    /// The PRE seam compiled from the steps above: the policies whose `match` is asked,
    /// in order (the first truthy answer selects it), then whether the resolver is asked.
    /// The binding runs this plan instead of crossing into wasm once per step.
    pub fn model_plan(&self) -> ModelPlan {
        let mut ask = Vec::new();
        let mut step = self.model_begin();
        while let Step::Match(i) = step {
            ask.push(i);
            step = self.model_answer(step, false);
        }
        ModelPlan {
            ask,
            then_resolver: step == Step::Resolver,
        }
    }

    /// The POST seam for one emitted tool, compiled from the steps above: the redirect
    /// policies whose `match` is asked, in order, each with what a truthy `match` leads to
    /// (the whenTool check, then `guard` or the redirect), then whether the adopter's
    /// callback runs before the gate.
    pub fn dispatch_plan(&self, tool: ToolId) -> DispatchPlan {
        let mut ask = Vec::new();
        let mut step = self.post_begin();
        while let Step::Match(i) = step {
            ask.push(Candidate {
                policy: i,
                then: match self.post_answer(step, true, tool) {
                    Step::Guard(_) => Then::Guard,
                    Step::Redirect(_) => Then::Redirect,
                    _ => Then::Skip,
                },
            });
            step = self.post_answer(step, false, tool);
        }
        DispatchPlan {
            ask,
            then_callback: step == Step::Callback,
        }
    }

    /// Drives the PRE seam with `hooks` (the native rendition of what the binding does).
    pub fn select_model<H: Hooks>(&self, hooks: &mut H) -> Result<Selection, Failure<H::Error>> {
        let mut step = self.model_begin();
        loop {
            let yes = match step {
                Step::Match(i) => at(hooks.matches(i), i, Function::Match, Seam::Pre)?,
                Step::Resolver => hooks.resolve_model().map_err(Failure::Adopter)?,
                Step::Selected(s) => return Ok(s),
                _ => unreachable!("the PRE seam asks only match and the resolver"),
            };
            step = self.model_answer(step, yes);
        }
    }

    /// Drives the POST seam with `hooks` (the native rendition of what the binding does).
    pub fn dispatch<H: Hooks>(
        &self,
        original: &Name,
        gate: &Gate<'_>,
        hooks: &mut H,
    ) -> Result<Decision, Failure<H::Error>> {
        let tool = self.tool_id(original);
        let mut redirected_by = None;
        let mut step = self.post_begin();
        loop {
            let yes = match step {
                Step::Match(i) => at(hooks.matches(i), i, Function::Match, Seam::Post)?,
                Step::Guard(i) => at(hooks.guard(i), i, Function::Guard, Seam::Post)?,
                Step::Redirect(i) => {
                    at(hooks.redirect(i), i, Function::ArgsTransform, Seam::Post)?;
                    redirected_by = Some(i);
                    true
                }
                Step::Callback => {
                    hooks.on_dispatch().map_err(Failure::Adopter)?;
                    true
                }
                Step::Gate => break,
                _ => unreachable!("the POST seam asks no model questions"),
            };
            step = self.post_answer(step, yes, tool);
        }
        let target = hooks.current_tool();
        let dropped =
            Self::gate_drops(gate, original, &target, redirected_by.is_some()).then_some(target);
        Ok(Decision {
            redirected_by,
            dropped,
        })
    }
}

/// Why the gate dropped a redirect, in words for the `Dispatch` and the warning.
pub fn dropped_reason(target: &Name, original: &Name) -> Vec<u16> {
    let mut v = crate::names::units("redirect target \"");
    v.extend_from_slice(target);
    v.extend("\" is not in the routed palette; dispatching the original call \"".encode_utf16());
    v.extend_from_slice(original);
    v.extend("\"".encode_utf16());
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::names::units;

    fn policy(name: &str) -> Policy {
        Policy {
            name: units(name),
            when_tool: WhenTool::Any,
            redirect_to: None,
            has_model: false,
            has_transform: false,
            has_guard: false,
        }
    }

    /// Scripted predicates that record every call the core makes.
    #[derive(Default)]
    struct Script {
        matches: Vec<bool>,
        guards: Vec<bool>,
        throws: Option<(Function, usize)>,
        resolver: Option<bool>,
        rewrite_in_callback: Option<&'static str>,
        log: Vec<String>,
        tool: Vec<u16>,
        redirect_targets: Vec<Vec<u16>>,
    }

    impl Hooks for Script {
        type Error = &'static str;
        fn matches(&mut self, i: usize) -> Result<bool, &'static str> {
            self.log.push(format!("match {i}"));
            if self.throws == Some((Function::Match, i)) {
                return Err("boom");
            }
            Ok(self.matches[i])
        }
        fn guard(&mut self, i: usize) -> Result<bool, &'static str> {
            self.log.push(format!("guard {i}"));
            if self.throws == Some((Function::Guard, i)) {
                return Err("boom");
            }
            Ok(self.guards[i])
        }
        fn redirect(&mut self, i: usize) -> Result<(), &'static str> {
            self.log.push(format!("redirect {i}"));
            if self.throws == Some((Function::ArgsTransform, i)) {
                return Err("boom");
            }
            self.tool = self.redirect_targets[i].clone();
            Ok(())
        }
        fn resolve_model(&mut self) -> Result<bool, &'static str> {
            self.log.push("resolver".into());
            self.resolver.ok_or("resolver failed")
        }
        fn on_dispatch(&mut self) -> Result<(), &'static str> {
            self.log.push("callback".into());
            if let Some(t) = self.rewrite_in_callback {
                self.tool = units(t);
            }
            Ok(())
        }
        fn current_tool(&self) -> Vec<u16> {
            self.tool.clone()
        }
    }

    fn set(ps: Vec<Policy>, resolver: bool) -> PolicySet {
        PolicySet::new(ps, resolver, true).unwrap()
    }

    fn redirect(name: &str, to: &str) -> Policy {
        Policy {
            redirect_to: Some(units(to)),
            ..policy(name)
        }
    }

    fn targets(ps: &PolicySet) -> Vec<Vec<u16>> {
        ps.policies()
            .iter()
            .map(|p| p.redirect_to.clone().unwrap_or_default())
            .collect()
    }

    #[test]
    fn duplicate_names_are_rejected_with_the_second_index() {
        let err =
            PolicySet::new(vec![policy("a"), policy("b"), policy("a")], false, false).unwrap_err();
        assert_eq!(err, 2);
        let a1 = Policy {
            name: vec![0x61, 0xD800],
            ..policy("")
        };
        let a2 = Policy {
            name: vec![0x61, 0xDC00],
            ..policy("")
        };
        assert!(PolicySet::new(vec![a1, a2], false, false).is_ok());
    }

    #[test]
    fn first_matching_model_policy_wins_before_the_resolver() {
        let with_model = |n| Policy {
            has_model: true,
            ..policy(n)
        };
        let ps = set(
            vec![policy("plain"), with_model("m1"), with_model("m2")],
            true,
        );
        let mut s = Script {
            matches: vec![true, false, true],
            resolver: Some(true),
            ..Default::default()
        };
        assert_eq!(ps.select_model(&mut s).unwrap(), Selection::Policy(2));
        // A policy without a model is not asked; the resolver is not asked.
        assert_eq!(s.log, ["match 1", "match 2"]);

        let mut s = Script {
            matches: vec![true, false, false],
            resolver: Some(true),
            ..Default::default()
        };
        assert_eq!(ps.select_model(&mut s).unwrap(), Selection::Resolver);
        assert_eq!(s.log, ["match 1", "match 2", "resolver"]);

        let mut s = Script {
            matches: vec![true, false, false],
            resolver: Some(false),
            ..Default::default()
        };
        assert_eq!(ps.select_model(&mut s).unwrap(), Selection::Default);
        let no_resolver = set(vec![with_model("m")], false);
        let mut s = Script {
            matches: vec![false],
            ..Default::default()
        };
        assert_eq!(
            no_resolver.select_model(&mut s).unwrap(),
            Selection::Default
        );
        assert_eq!(s.log, ["match 0"]);
    }

    #[test]
    fn guard_is_never_consulted_for_model_selection() {
        let ps = set(
            vec![Policy {
                has_model: true,
                has_guard: true,
                ..policy("m")
            }],
            false,
        );
        let mut s = Script {
            matches: vec![true],
            guards: vec![false],
            ..Default::default()
        };
        assert_eq!(ps.select_model(&mut s).unwrap(), Selection::Policy(0));
        assert_eq!(s.log, ["match 0"]);
    }

    #[test]
    fn first_redirect_whose_match_tool_and_guard_hold_rewrites() {
        let ps = set(
            vec![
                policy("model-only"),
                Policy {
                    when_tool: WhenTool::One(units("web_search")),
                    ..redirect("wrong-tool", "x")
                },
                Policy {
                    has_guard: true,
                    ..redirect("guarded", "y")
                },
                redirect("winner", "sql_query"),
                redirect("later", "z"),
            ],
            false,
        );
        let mut s = Script {
            matches: vec![true, true, true, true, true],
            guards: vec![false, false, false, false, false],
            tool: units("lookup"),
            redirect_targets: targets(&ps),
            ..Default::default()
        };
        let d = ps.dispatch(&units("lookup"), &Gate::Every, &mut s).unwrap();
        assert_eq!(
            d,
            Decision {
                redirected_by: Some(3),
                dropped: None
            }
        );
        assert_eq!(
            s.log,
            [
                "match 1",
                "match 2",
                "guard 2",
                "match 3",
                "redirect 3",
                "callback"
            ]
        );
        assert_eq!(s.tool, units("sql_query"));
    }

    #[test]
    fn the_adopter_callback_runs_after_the_policy_and_the_gate_runs_last() {
        let ps = set(vec![redirect("r", "sql_query")], false);
        let routed: NameList = ["sql_query", "web_search"].iter().collect();
        let routed = NameSet::new(routed);
        // Policy redirects to a routed tool, then the callback moves it outside: dropped.
        let mut s = Script {
            matches: vec![true],
            tool: units("web_search"),
            redirect_targets: targets(&ps),
            rewrite_in_callback: Some("shell"),
            ..Default::default()
        };
        let d = ps
            .dispatch(&units("web_search"), &Gate::Only(&routed), &mut s)
            .unwrap();
        assert_eq!(d.redirected_by, Some(0));
        assert_eq!(d.dropped, Some(units("shell")));
        assert_eq!(s.log, ["match 0", "redirect 0", "callback"]);

        // The same with every tool allowed: nothing is dropped.
        let mut s = Script {
            matches: vec![true],
            tool: units("web_search"),
            redirect_targets: targets(&ps),
            rewrite_in_callback: Some("shell"),
            ..Default::default()
        };
        let d = ps
            .dispatch(&units("web_search"), &Gate::Every, &mut s)
            .unwrap();
        assert_eq!(d.dropped, None);
    }

    #[test]
    fn the_gate_drops_an_unrouted_target_and_spares_unredirected_calls() {
        let ps = set(vec![redirect("r", "sql_query")], false);
        let routed = NameSet::new(["web_search"].iter().collect());
        let mut s = Script {
            matches: vec![true],
            tool: units("web_search"),
            redirect_targets: targets(&ps),
            ..Default::default()
        };
        let d = ps
            .dispatch(&units("web_search"), &Gate::Only(&routed), &mut s)
            .unwrap();
        assert_eq!(d.redirected_by, Some(0));
        assert_eq!(d.dropped, Some(units("sql_query")));

        // An emitted call that no policy touched is never the gate's business,
        // even when its tool is outside the palette.
        let mut s = Script {
            matches: vec![false],
            tool: units("shell"),
            redirect_targets: targets(&ps),
            ..Default::default()
        };
        let d = ps
            .dispatch(&units("shell"), &Gate::Only(&routed), &mut s)
            .unwrap();
        assert_eq!(
            d,
            Decision {
                redirected_by: None,
                dropped: None
            }
        );
    }

    #[test]
    fn a_failing_function_names_policy_function_and_seam() {
        let ps = set(
            vec![
                Policy {
                    has_guard: true,
                    ..redirect("a", "x")
                },
                Policy {
                    has_model: true,
                    ..policy("b")
                },
            ],
            false,
        );
        for (f, i, seam) in [
            (Function::Match, 1, Seam::Pre),
            (Function::Match, 0, Seam::Post),
            (Function::Guard, 0, Seam::Post),
            (Function::ArgsTransform, 0, Seam::Post),
        ] {
            let mut s = Script {
                matches: vec![true, true],
                guards: vec![true, true],
                throws: Some((f, i)),
                tool: units("t"),
                redirect_targets: targets(&ps),
                ..Default::default()
            };
            let err = match seam {
                Seam::Pre => ps.select_model(&mut s).unwrap_err(),
                Seam::Post => ps.dispatch(&units("t"), &Gate::Every, &mut s).unwrap_err(),
            };
            match err {
                Failure::Policy(e) => {
                    assert_eq!(
                        (e.policy, e.function, e.seam, e.cause),
                        (i, f, seam, "boom")
                    )
                }
                Failure::Adopter(e) => panic!("{e}"),
            }
        }
    }

    #[test]
    fn when_tool_forms() {
        assert!(WhenTool::Any.matches(&units("anything")));
        assert!(WhenTool::One(units("a")).matches(&units("a")));
        assert!(!WhenTool::One(units("a")).matches(&units("A")));
        let set = WhenTool::Set(NameSet::new(["a", "__proto__"].iter().collect()));
        assert!(set.matches(&units("__proto__")));
        assert!(!set.matches(&units("b")));
        assert!(!WhenTool::Set(NameSet::default()).matches(&units("a")));
    }

    #[test]
    fn dropped_reason_names_both_tools() {
        let r = String::from_utf16(&dropped_reason(&units("sql"), &units("web"))).unwrap();
        assert_eq!(
            r,
            "redirect target \"sql\" is not in the routed palette; dispatching the original call \"web\""
        );
    }
}

#[cfg(test)]
mod step_tests {
    use super::*;
    use crate::names::units;

    fn p(name: &str, redirect: bool, model: bool, guard: bool) -> Policy {
        Policy {
            name: units(name),
            when_tool: WhenTool::Any,
            redirect_to: redirect.then(|| units("target")),
            has_model: model,
            has_transform: false,
            has_guard: guard,
        }
    }

    #[test]
    fn steps_survive_their_encoding() {
        for s in [
            Step::Match(0),
            Step::Guard(7),
            Step::Redirect(123_456),
            Step::Resolver,
            Step::Callback,
            Step::Gate,
            Step::Selected(Selection::Policy(3)),
            Step::Selected(Selection::Resolver),
            Step::Selected(Selection::Default),
            Step::Invalid,
        ] {
            assert_eq!(Step::decode(s.encode()), s);
        }
        assert_eq!(Step::decode(15), Step::Invalid);
    }

    #[test]
    fn answers_to_steps_a_seam_never_asks_are_invalid_not_panics() {
        let set = PolicySet::new(vec![p("a", true, false, false)], false, false).unwrap();
        assert_eq!(set.model_answer(Step::Match(0), true), Step::Invalid);
        assert_eq!(set.model_answer(Step::Resolver, true), Step::Invalid);
        assert_eq!(set.post_answer(Step::Guard(0), true, 0), Step::Invalid);
        assert_eq!(set.post_answer(Step::Match(99), true, 0), Step::Invalid);
        assert_eq!(set.post_answer(Step::Callback, true, 0), Step::Invalid);
        assert_eq!(set.post_answer(Step::Gate, true, 0), Step::Invalid);
    }

    #[test]
    fn without_an_adopter_callback_the_gate_follows_the_redirect() {
        let set = PolicySet::new(vec![p("a", true, false, false)], false, false).unwrap();
        assert_eq!(set.post_begin(), Step::Match(0));
        let s = set.post_answer(Step::Match(0), true, UNMENTIONED);
        assert_eq!(s, Step::Redirect(0));
        assert_eq!(set.post_answer(s, true, UNMENTIONED), Step::Gate);
        let empty = PolicySet::new(vec![], false, true).unwrap();
        assert_eq!(empty.post_begin(), Step::Callback);
        assert_eq!(empty.model_begin(), Step::Selected(Selection::Default));
    }

    #[test]
    fn tool_ids_follow_when_tool() {
        let mut only = p("only", true, false, false);
        only.when_tool = WhenTool::Set(NameSet::new(["b", "c"].iter().collect()));
        let mut one = p("one", true, false, false);
        one.when_tool = WhenTool::One(units("a"));
        let set = PolicySet::new(vec![only, one], false, false).unwrap();
        let a = set.tool_id(&units("a"));
        let c = set.tool_id(&units("c"));
        assert_eq!(set.tool_id(&units("zzz")), UNMENTIONED);
        assert_eq!(set.post_answer(Step::Match(0), true, a), Step::Match(1));
        assert_eq!(set.post_answer(Step::Match(0), true, c), Step::Redirect(0));
        assert_eq!(set.post_answer(Step::Match(1), true, a), Step::Redirect(1));
        assert_eq!(
            set.post_answer(Step::Match(1), true, UNMENTIONED),
            Step::Gate
        );
    }

    #[test]
    fn the_gate_spares_calls_nobody_redirected() {
        let routed = NameSet::new(["web"].iter().collect());
        let gate = Gate::Only(&routed);
        let (web, sql, shell) = (units("web"), units("sql"), units("shell"));
        assert!(!PolicySet::gate_drops(&gate, &shell, &shell, false));
        assert!(PolicySet::gate_drops(&gate, &web, &sql, false));
        assert!(PolicySet::gate_drops(&gate, &shell, &shell, true));
        assert!(!PolicySet::gate_drops(&gate, &sql, &web, true));
        assert!(!PolicySet::gate_drops(&Gate::Every, &web, &sql, true));
    }
}

#[cfg(test)]
mod plan_tests {
    use super::*;
    use crate::names::units;

    fn policies(seed: u32) -> PolicySet {
        let mut out = Vec::new();
        for i in 0..8u32 {
            let bits = seed.rotate_left(i * 4) ^ (i * 0x9E37);
            out.push(Policy {
                name: units(&format!("p{i}")),
                when_tool: match bits % 3 {
                    0 => WhenTool::Any,
                    1 => WhenTool::One(units("a")),
                    _ => WhenTool::Set(NameSet::new(["b", "c"].iter().collect())),
                },
                redirect_to: (bits & 4 != 0).then(|| units("t")),
                has_model: bits & 8 != 0,
                has_transform: false,
                has_guard: bits & 16 != 0,
            });
        }
        PolicySet::new(out, seed & 1 != 0, seed & 2 != 0).unwrap()
    }

    /// Runs the PRE plan the way the binding does.
    fn run_model_plan(plan: &ModelPlan, yes: &dyn Fn(usize) -> bool, resolver: bool) -> Selection {
        for &i in &plan.ask {
            if yes(i) {
                return Selection::Policy(i);
            }
        }
        if plan.then_resolver && resolver {
            Selection::Resolver
        } else {
            Selection::Default
        }
    }

    #[test]
    fn plans_decide_exactly_what_the_steps_decide() {
        for seed in 0..400u32 {
            let set = policies(seed.wrapping_mul(2_654_435_761));
            for answers in 0..64u32 {
                let yes = |i: usize| (answers >> (i % 6)) & 1 == 1;
                let resolver = answers & 32 != 0;
                // PRE: the machine against the plan.
                let mut step = set.model_begin();
                let by_steps = loop {
                    step = match step {
                        Step::Match(i) => set.model_answer(step, yes(i)),
                        Step::Resolver => set.model_answer(step, resolver),
                        Step::Selected(s) => break s,
                        other => panic!("{other:?}"),
                    }
                };
                assert_eq!(run_model_plan(&set.model_plan(), &yes, resolver), by_steps);
                // POST: which policy redirects, and whether the callback runs.
                for tool in ["a", "b", "z"] {
                    let id = set.tool_id(&units(tool));
                    let guard_yes = |i: usize| (answers >> ((i + 3) % 6)) & 1 == 1;
                    let mut step = set.post_begin();
                    let mut by_steps = None;
                    let callback_by_steps = loop {
                        step = match step {
                            Step::Match(i) => set.post_answer(step, yes(i), id),
                            Step::Guard(i) => set.post_answer(step, guard_yes(i), id),
                            Step::Redirect(i) => {
                                by_steps = Some(i);
                                set.post_answer(step, true, id)
                            }
                            Step::Callback => break true,
                            Step::Gate => break false,
                            other => panic!("{other:?}"),
                        }
                    };
                    let plan = set.dispatch_plan(id);
                    let by_plan = plan.ask.iter().find_map(|c| {
                        let redirects = yes(c.policy)
                            && match c.then {
                                Then::Skip => false,
                                Then::Guard => guard_yes(c.policy),
                                Then::Redirect => true,
                            };
                        redirects.then_some(c.policy)
                    });
                    assert_eq!(
                        by_plan, by_steps,
                        "seed {seed} answers {answers} tool {tool}"
                    );
                    assert_eq!(plan.then_callback, callback_by_steps);
                }
            }
        }
    }
}

#[cfg(test)]
mod gate_tests {
    use super::*;
    use crate::names::units;

    #[test]
    fn a_listed_palette_gates_like_an_indexed_one() {
        let list: NameList = ["web", "a\u{FFFD}", "__proto__"].iter().collect();
        let set = NameSet::new(list.clone());
        for tool in ["web", "__proto__", "a", "a\u{FFFD}", "sql", ""] {
            let t = units(tool);
            assert_eq!(
                Gate::Listed(list.names()).allows(&t),
                Gate::Only(&set).allows(&t),
                "{tool}"
            );
        }
    }
}
