//! A naive model of the SPEC (sections 2 and 4), and runners that feed the same inputs to
//! the core and read its answers back in the model's terms.
//!
//! Shared by the property tests (tests/props.rs) and the fuzz target
//! (fuzz/fuzz_targets/core.rs): both assert `model::X(..) == model::core_X(..)`.
//! The model is written from the SPEC, not from the core: vectors and linear scans,
//! no hash tables, no step machine, its own whitespace table.
#![allow(dead_code)]

use tool_palette::names::{NameList, NameSet};
use tool_palette::policy::{
    Failure, Function, Gate, Hooks, Policy, PolicySet, Seam, Selection, Step, Then, WhenTool,
};
use tool_palette::routing::{self, Outcome, Retrieval, Row};

pub type Units = Vec<u16>;

fn u(s: &str) -> Units {
    s.encode_utf16().collect()
}

// ------------------------------------------------------------------------- routing

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RowSpec {
    Inactive,
    NoCandidate,
    Candidate(Units),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RetrievalSpec {
    NoLayer,
    Failed(Units),
    TimedOut(Units),
    RowsNull,
    Rows(Vec<RowSpec>),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    Routed {
        names: Vec<Units>,
        unresolved: Vec<Units>,
    },
    Refused {
        reason: Units,
        unresolved: Vec<Units>,
    },
}

/// `String.prototype.trim`'s whitespace, derived differently from the core: Unicode
/// White_Space (Rust's `char::is_whitespace`) minus U+0085, plus U+FEFF.
pub fn js_space(unit: u16) -> bool {
    unit == 0xFEFF
        || (unit != 0x85 && char::from_u32(u32::from(unit)).is_some_and(char::is_whitespace))
}

pub fn js_trim(s: &[u16]) -> &[u16] {
    let mut a = 0;
    let mut b = s.len();
    while a < b && js_space(s[a]) {
        a += 1;
    }
    while b > a && js_space(s[b - 1]) {
        b -= 1;
    }
    &s[a..b]
}

fn around(before: &str, detail: &[u16], after: &str) -> Units {
    let mut v = u(before);
    v.extend_from_slice(detail);
    v.extend(u(after));
    v
}

/// The SPEC's routing algorithm, literally.
pub fn resolve(registered: &[Units], retrieval: &RetrievalSpec) -> Answer {
    let refuse = |reason: Units| Answer::Refused {
        reason,
        unresolved: vec![],
    };
    let rows = match retrieval {
        RetrievalSpec::NoLayer => {
            return refuse(u("no procedural layer registered; allowing all tools"))
        }
        RetrievalSpec::Failed(name) => {
            return refuse(around(
                "procedural retrieval failed (",
                name,
                "); allowing all tools",
            ))
        }
        RetrievalSpec::TimedOut(ms) => {
            return refuse(around(
                "procedural retrieval timed out after ",
                ms,
                " ms; allowing all tools",
            ))
        }
        RetrievalSpec::RowsNull => {
            return refuse(u("no skills in the procedural layer; allowing all tools"))
        }
        RetrievalSpec::Rows(rows) if rows.is_empty() => {
            return refuse(u("no skills in the procedural layer; allowing all tools"))
        }
        RetrievalSpec::Rows(rows) => rows,
    };
    if rows.iter().all(|r| *r == RowSpec::Inactive) {
        return refuse(u("every skill is inactive; allowing all tools"));
    }
    let mut names: Vec<Units> = vec![];
    let mut unresolved: Vec<Units> = vec![];
    for row in rows {
        let RowSpec::Candidate(text) = row else {
            continue;
        };
        let c = js_trim(text).to_vec();
        if c.is_empty() {
            continue;
        }
        if registered.contains(&c) {
            if !names.contains(&c) {
                names.push(c);
            }
        } else if !unresolved.contains(&c) {
            unresolved.push(c);
        }
    }
    if names.is_empty() {
        Answer::Refused {
            reason: u("no skill resolved to a registered tool; allowing all tools"),
            unresolved,
        }
    } else {
        Answer::Routed { names, unresolved }
    }
}

/// The same turn through the core, with the structural checks the binding relies on
/// (indices in range, spans inside their candidate, the routed palette never empty).
pub fn core_resolve(registered: &[Units], retrieval: &RetrievalSpec) -> Answer {
    let mut list = NameList::default();
    for n in registered {
        list.push(n);
    }
    let registry = routing::registry(list);
    let rows: Vec<Row> = match retrieval {
        RetrievalSpec::Rows(rows) => rows
            .iter()
            .map(|r| match r {
                RowSpec::Inactive => Row::Inactive,
                RowSpec::NoCandidate => Row::NoCandidate,
                RowSpec::Candidate(t) => Row::Candidate(t),
            })
            .collect(),
        _ => vec![],
    };
    let candidates: Vec<&Units> = match retrieval {
        RetrievalSpec::Rows(rows) => rows
            .iter()
            .filter_map(|r| match r {
                RowSpec::Candidate(t) => Some(t),
                _ => None,
            })
            .collect(),
        _ => vec![],
    };
    let r = match retrieval {
        RetrievalSpec::NoLayer => Retrieval::NoLayer,
        RetrievalSpec::Failed(n) => Retrieval::Failed(n),
        RetrievalSpec::TimedOut(n) => Retrieval::TimedOut(n),
        RetrievalSpec::RowsNull => Retrieval::Rows(None),
        RetrievalSpec::Rows(_) => Retrieval::Rows(Some(&rows)),
    };
    let spans = |spans: &[routing::Span]| -> Vec<Units> {
        spans
            .iter()
            .map(|s| {
                let c = candidates
                    .get(s.candidate as usize)
                    .expect("span names a candidate that exists");
                assert!(
                    s.start <= s.end && s.end as usize <= c.len(),
                    "span inside its candidate"
                );
                c[s.start as usize..s.end as usize].to_vec()
            })
            .collect()
    };
    match routing::resolve(&registry, r) {
        Outcome::Routed { names, unresolved } => {
            assert!(!names.is_empty(), "a Routed is never empty");
            let names = names
                .iter()
                .map(|&i| {
                    assert!((i as usize) < registered.len(), "name index in range");
                    // The binding maps the index back to the caller's string: it must be
                    // the first registration of that name, so `names` never repeats one.
                    let n = &registered[i as usize];
                    assert_eq!(registered.iter().position(|m| m == n), Some(i as usize));
                    n.clone()
                })
                .collect();
            Answer::Routed {
                names,
                unresolved: spans(&unresolved),
            }
        }
        Outcome::Refused { reason, unresolved } => Answer::Refused {
            reason: reason.text(),
            unresolved: spans(&unresolved),
        },
    }
}

// ------------------------------------------------------------------------- policies

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WhenSpec {
    Any,
    One(Units),
    Set(Vec<Units>),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PolicySpec {
    pub name: Units,
    pub when: WhenSpec,
    pub redirect_to: Option<Units>,
    pub has_model: bool,
    pub has_transform: bool,
    pub has_guard: bool,
}

/// What the caller's functions answer: `matches[i]`/`guards[i]` per policy, the
/// resolver's answer, the callback's rewrite, and which hook call (counting every call
/// of any hook from 0) throws, if any.
#[derive(Debug, Clone, Default)]
pub struct Script {
    pub matches: Vec<bool>,
    pub guards: Vec<bool>,
    pub resolver: bool,
    pub rewrite: Option<Units>,
    pub throw_at: Option<usize>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SeamAnswer {
    Model(Selection),
    Dispatch {
        redirected_by: Option<usize>,
        target: Units,
        dropped: Option<Units>,
    },
    PolicyError {
        policy: usize,
        function: Function,
        seam: Seam,
    },
    AdopterError,
}

/// `ToolPolicies` construction: the index of the first policy reusing a name.
pub fn compose(policies: &[PolicySpec]) -> Result<(), usize> {
    for i in 0..policies.len() {
        if policies[..i].iter().any(|p| p.name == policies[i].name) {
            return Err(i);
        }
    }
    Ok(())
}

fn when_covers(w: &WhenSpec, tool: &[u16]) -> bool {
    match w {
        WhenSpec::Any => true,
        WhenSpec::One(n) => n == tool,
        WhenSpec::Set(ns) => ns.iter().any(|n| n == tool),
    }
}

/// The model's caller: answers from the script, logs every call, throws on cue.
struct Caller<'a> {
    script: &'a Script,
    calls: usize,
    log: Vec<String>,
}

impl Caller<'_> {
    fn call(&mut self, what: String) -> Result<(), ()> {
        self.log.push(what);
        self.calls += 1;
        if self.script.throw_at == Some(self.calls - 1) {
            Err(())
        } else {
            Ok(())
        }
    }
    fn flag(v: &[bool], i: usize) -> bool {
        v.get(i).copied().unwrap_or(false)
    }
}

/// SPEC 4, PRE-model: the first policy with a model whose match holds; then the resolver.
pub fn select(
    policies: &[PolicySpec],
    has_resolver: bool,
    script: &Script,
) -> (SeamAnswer, Vec<String>) {
    let mut c = Caller {
        script,
        calls: 0,
        log: vec![],
    };
    for (i, p) in policies.iter().enumerate() {
        if !p.has_model {
            continue;
        }
        if c.call(format!("match {i}")).is_err() {
            return (
                SeamAnswer::PolicyError {
                    policy: i,
                    function: Function::Match,
                    seam: Seam::Pre,
                },
                c.log,
            );
        }
        if Caller::flag(&script.matches, i) {
            return (SeamAnswer::Model(Selection::Policy(i)), c.log);
        }
    }
    if has_resolver {
        if c.call("resolver".into()).is_err() {
            return (SeamAnswer::AdopterError, c.log);
        }
        let s = if script.resolver {
            Selection::Resolver
        } else {
            Selection::Default
        };
        return (SeamAnswer::Model(s), c.log);
    }
    (SeamAnswer::Model(Selection::Default), c.log)
}

/// SPEC 4, POST-model: first redirect whose match, whenTool and guard hold; then the
/// callback; then the palette gate (`gate` = the routed names, `None` = every tool).
pub fn dispatch(
    policies: &[PolicySpec],
    has_callback: bool,
    original: &[u16],
    gate: Option<&[Units]>,
    script: &Script,
) -> (SeamAnswer, Vec<String>) {
    let mut c = Caller {
        script,
        calls: 0,
        log: vec![],
    };
    let mut target = original.to_vec();
    let mut by = None;
    for (i, p) in policies.iter().enumerate() {
        let Some(to) = &p.redirect_to else { continue };
        if c.call(format!("match {i}")).is_err() {
            return (
                SeamAnswer::PolicyError {
                    policy: i,
                    function: Function::Match,
                    seam: Seam::Post,
                },
                c.log,
            );
        }
        if !Caller::flag(&script.matches, i) || !when_covers(&p.when, original) {
            continue;
        }
        if p.has_guard {
            if c.call(format!("guard {i}")).is_err() {
                return (
                    SeamAnswer::PolicyError {
                        policy: i,
                        function: Function::Guard,
                        seam: Seam::Post,
                    },
                    c.log,
                );
            }
            if !Caller::flag(&script.guards, i) {
                continue;
            }
        }
        if c.call(format!("redirect {i}")).is_err() {
            return (
                SeamAnswer::PolicyError {
                    policy: i,
                    function: Function::ArgsTransform,
                    seam: Seam::Post,
                },
                c.log,
            );
        }
        target = to.clone();
        by = Some(i);
        break;
    }
    if has_callback {
        if c.call("callback".into()).is_err() {
            return (SeamAnswer::AdopterError, c.log);
        }
        if let Some(t) = &script.rewrite {
            target = t.clone();
        }
    }
    let redirected = by.is_some() || target != original;
    let outside = gate.is_some_and(|g| !g.contains(&target));
    let dropped = (redirected && outside).then(|| target.clone());
    (
        SeamAnswer::Dispatch {
            redirected_by: by,
            target,
            dropped,
        },
        c.log,
    )
}

/// The core's policies for the specs.
pub fn core_set(
    policies: &[PolicySpec],
    has_resolver: bool,
    has_callback: bool,
) -> Result<PolicySet, usize> {
    let ps = policies
        .iter()
        .map(|p| Policy {
            name: p.name.clone(),
            when_tool: match &p.when {
                WhenSpec::Any => WhenTool::Any,
                WhenSpec::One(n) => WhenTool::One(n.clone()),
                WhenSpec::Set(ns) => {
                    let mut l = NameList::default();
                    ns.iter().for_each(|n| l.push(n));
                    WhenTool::Set(NameSet::new(l))
                }
            },
            redirect_to: p.redirect_to.clone(),
            has_model: p.has_model,
            has_transform: p.has_transform,
            has_guard: p.has_guard,
        })
        .collect();
    PolicySet::new(ps, has_resolver, has_callback)
}

/// The core's hooks, backed by the same script.
struct CoreHooks<'a> {
    caller: Caller<'a>,
    targets: Vec<Option<Units>>,
    tool: Units,
}

impl Hooks for CoreHooks<'_> {
    type Error = ();
    fn matches(&mut self, i: usize) -> Result<bool, ()> {
        self.caller.call(format!("match {i}"))?;
        Ok(Caller::flag(&self.caller.script.matches, i))
    }
    fn guard(&mut self, i: usize) -> Result<bool, ()> {
        self.caller.call(format!("guard {i}"))?;
        Ok(Caller::flag(&self.caller.script.guards, i))
    }
    fn redirect(&mut self, i: usize) -> Result<(), ()> {
        self.caller.call(format!("redirect {i}"))?;
        self.tool = self.targets[i]
            .clone()
            .expect("only redirect policies are asked to redirect");
        Ok(())
    }
    fn resolve_model(&mut self) -> Result<bool, ()> {
        self.caller.call("resolver".into())?;
        Ok(self.caller.script.resolver)
    }
    fn on_dispatch(&mut self) -> Result<(), ()> {
        self.caller.call("callback".into())?;
        if let Some(t) = &self.caller.script.rewrite {
            self.tool = t.clone();
        }
        Ok(())
    }
    fn current_tool(&self) -> Vec<u16> {
        self.tool.clone()
    }
}

fn from_failure(f: Failure<()>) -> SeamAnswer {
    match f {
        Failure::Policy(e) => SeamAnswer::PolicyError {
            policy: e.policy,
            function: e.function,
            seam: e.seam,
        },
        Failure::Adopter(()) => SeamAnswer::AdopterError,
    }
}

pub fn core_select(set: &PolicySet, script: &Script) -> (SeamAnswer, Vec<String>) {
    let mut h = CoreHooks {
        caller: Caller {
            script,
            calls: 0,
            log: vec![],
        },
        targets: set
            .policies()
            .iter()
            .map(|p| p.redirect_to.clone())
            .collect(),
        tool: vec![],
    };
    let a = match set.select_model(&mut h) {
        Ok(s) => SeamAnswer::Model(s),
        Err(f) => from_failure(f),
    };
    (a, h.caller.log)
}

pub fn core_dispatch(
    set: &PolicySet,
    original: &[u16],
    gate: Option<&[Units]>,
    script: &Script,
) -> (SeamAnswer, Vec<String>) {
    let routed = gate.map(|g| {
        let mut l = NameList::default();
        g.iter().for_each(|n| l.push(n));
        NameSet::new(l)
    });
    let gate = match &routed {
        Some(s) => Gate::Only(s),
        None => Gate::Every,
    };
    let mut h = CoreHooks {
        caller: Caller {
            script,
            calls: 0,
            log: vec![],
        },
        targets: set
            .policies()
            .iter()
            .map(|p| p.redirect_to.clone())
            .collect(),
        tool: original.to_vec(),
    };
    let a = match set.dispatch(original, &gate, &mut h) {
        Ok(d) => SeamAnswer::Dispatch {
            redirected_by: d.redirected_by,
            target: h.tool.clone(),
            dropped: d.dropped,
        },
        Err(f) => from_failure(f),
    };
    (a, h.caller.log)
}

/// Drives the seams the way the package's JavaScript does: steps encoded as `u32`
/// across the boundary, answers given per step code. Returns the same as `core_*`.
pub fn wire_select(set: &PolicySet, script: &Script) -> (SeamAnswer, Vec<String>) {
    let mut c = Caller {
        script,
        calls: 0,
        log: vec![],
    };
    let mut code = set.model_begin().encode();
    for _ in 0..=set.policies().len() + 1 {
        let step = Step::decode(code);
        let yes = match step {
            Step::Match(i) => {
                if c.call(format!("match {i}")).is_err() {
                    return (
                        SeamAnswer::PolicyError {
                            policy: i,
                            function: Function::Match,
                            seam: Seam::Pre,
                        },
                        c.log,
                    );
                }
                Caller::flag(&script.matches, i)
            }
            Step::Resolver => {
                if c.call("resolver".into()).is_err() {
                    return (SeamAnswer::AdopterError, c.log);
                }
                script.resolver
            }
            Step::Selected(s) => return (SeamAnswer::Model(s), c.log),
            other => panic!("the PRE seam asked {other:?}"),
        };
        code = set.model_answer(step, yes).encode();
    }
    panic!("the PRE seam did not finish within one step per policy");
}

/// Runs the PRE seam's compiled plan the way the package's JavaScript does.
pub fn plan_select(set: &PolicySet, script: &Script) -> (SeamAnswer, Vec<String>) {
    let mut c = Caller {
        script,
        calls: 0,
        log: vec![],
    };
    let plan = set.model_plan();
    for &i in &plan.ask {
        assert!(i < set.policies().len(), "plan names a policy that exists");
        if c.call(format!("match {i}")).is_err() {
            let e = SeamAnswer::PolicyError {
                policy: i,
                function: Function::Match,
                seam: Seam::Pre,
            };
            return (e, c.log);
        }
        if Caller::flag(&script.matches, i) {
            return (SeamAnswer::Model(Selection::Policy(i)), c.log);
        }
    }
    if plan.then_resolver {
        if c.call("resolver".into()).is_err() {
            return (SeamAnswer::AdopterError, c.log);
        }
        let s = if script.resolver {
            Selection::Resolver
        } else {
            Selection::Default
        };
        return (SeamAnswer::Model(s), c.log);
    }
    (SeamAnswer::Model(Selection::Default), c.log)
}

/// Runs the POST seam's compiled plan for `original` the way the package's JavaScript
/// does, then the gate.
pub fn plan_dispatch(
    set: &PolicySet,
    original: &[u16],
    gate: Option<&[Units]>,
    script: &Script,
) -> (SeamAnswer, Vec<String>) {
    let mut c = Caller {
        script,
        calls: 0,
        log: vec![],
    };
    let plan = set.dispatch_plan(set.tool_id(original));
    let mut target = original.to_vec();
    let mut by = None;
    let err = |policy, function| SeamAnswer::PolicyError {
        policy,
        function,
        seam: Seam::Post,
    };
    for cand in &plan.ask {
        let i = cand.policy;
        assert!(i < set.policies().len(), "plan names a policy that exists");
        if c.call(format!("match {i}")).is_err() {
            return (err(i, Function::Match), c.log);
        }
        if !Caller::flag(&script.matches, i) || cand.then == Then::Skip {
            continue;
        }
        if cand.then == Then::Guard {
            if c.call(format!("guard {i}")).is_err() {
                return (err(i, Function::Guard), c.log);
            }
            if !Caller::flag(&script.guards, i) {
                continue;
            }
        }
        if c.call(format!("redirect {i}")).is_err() {
            return (err(i, Function::ArgsTransform), c.log);
        }
        target = set.policies()[i]
            .redirect_to
            .clone()
            .expect("only redirect policies are in a POST plan");
        by = Some(i);
        break;
    }
    if plan.then_callback {
        if c.call("callback".into()).is_err() {
            return (SeamAnswer::AdopterError, c.log);
        }
        if let Some(t) = &script.rewrite {
            target = t.clone();
        }
    }
    // The binding hands the palette over as a list and the gate scans it.
    let routed = gate.map(|g| {
        let mut l = NameList::default();
        g.iter().for_each(|n| l.push(n));
        l
    });
    let gate = match &routed {
        Some(l) => Gate::Listed(l.names()),
        None => Gate::Every,
    };
    let dropped =
        PolicySet::gate_drops(&gate, original, &target, by.is_some()).then(|| target.clone());
    (
        SeamAnswer::Dispatch {
            redirected_by: by,
            target,
            dropped,
        },
        c.log,
    )
}
