//! A naive model of the SPEC (sections 2, 4 and 5), and runners that feed the same inputs
//! to the core and read its answers back in the model's terms.
//!
//! Shared by the property tests (tests/props.rs), the fixture of the built package
//! (tests/spec_cases.rs, replayed by tests/js/spec-cases.test.mjs) and the fuzz target
//! (fuzz/fuzz_targets/core.rs): all of them assert `model::X(..) == model::core_X(..)`.
//! The model is written from the SPEC, not from the core: vectors and linear scans, no
//! hash tables, its own whitespace table, its own names for answers and calls.
//!
//! Calls are counted the way JavaScript sees them: only real calls of the caller's
//! functions count (`match`, `guard`, `argsTransform` when the policy has one,
//! `modelResolver`, `onToolCallDispatch`), so "throw at call number k" means the same in
//! Rust and in JavaScript. A redirect policy without `argsTransform` calls nothing when it
//! redirects.
#![allow(dead_code)]

use tool_palette::names::{Name, NameList, NameSet};
use tool_palette::policy::gate;
use tool_palette::policy::seams::{Failure, Function, Hooks, Seam, Selection};
use tool_palette::policy::{Policy, PolicySet, WhenTool};
use tool_palette::routing::turn::{self as machine, Activity};
use tool_palette::routing::{self, Fate, Outcome, Retrieval, Row};

pub mod run;

pub type Units = Vec<u16>;

pub fn u(s: &str) -> Units {
    s.encode_utf16().collect()
}

// ------------------------------------------------------------------------- routing

/// One row as the store returns it, before any rule (SPEC 2, "Rows").
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RowSpec {
    /// A string row.
    Text(Units),
    /// An object row: its `active`, `tool`, `toolName` and `content` properties.
    Record {
        active: Field,
        tool: Field,
        tool_name: Field,
        content: Field,
    },
    /// A number, `null`, a boolean or an array (which form: the renderer's choice).
    Other,
}

/// A property of an object row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Field {
    Absent,
    Text(Units),
    False,
    /// A value that is neither a string nor `false` (0, null, true, an object).
    Other,
}

/// A row as the SPEC's readers read it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReadRow {
    Inactive,
    NoCandidate,
    /// Active, with its candidate text, untrimmed.
    Candidate(Units),
}

/// SPEC 2, "Rows", literally: a string row is active and its candidate is the string; an
/// object row is active unless `active` is exactly `false`, and its candidate is the first
/// of `tool`, `toolName`, `content` that is a string; anything else is active with none.
pub fn read_row(row: &RowSpec) -> ReadRow {
    match row {
        RowSpec::Text(t) => ReadRow::Candidate(t.clone()),
        RowSpec::Record {
            active: Field::False,
            ..
        } => ReadRow::Inactive,
        RowSpec::Record {
            tool,
            tool_name,
            content,
            ..
        } => [tool, tool_name, content]
            .into_iter()
            .find_map(|f| match f {
                Field::Text(t) => Some(ReadRow::Candidate(t.clone())),
                _ => None,
            })
            .unwrap_or(ReadRow::NoCandidate),
        RowSpec::Other => ReadRow::NoCandidate,
    }
}

/// What asking the procedural layer came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RetrievalSpec {
    NoLayer,
    /// The NAME of what the store threw.
    Failed(Units),
    /// N as JavaScript prints it.
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

/// SPEC 5: what became of one row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RowFateSpec {
    Routed,
    Duplicate,
    Unresolved,
    Inactive,
    NoCandidate,
}

impl RowFateSpec {
    pub fn as_str(self) -> &'static str {
        match self {
            RowFateSpec::Routed => "routed",
            RowFateSpec::Duplicate => "duplicate",
            RowFateSpec::Unresolved => "unresolved",
            RowFateSpec::Inactive => "inactive",
            RowFateSpec::NoCandidate => "no-candidate",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowReport {
    pub fate: RowFateSpec,
    /// The trimmed candidate; `None` for inactive and no-candidate rows.
    pub candidate: Option<Units>,
}

/// A resolution as the caller sees it: the outcome and the decision report's rule, rows
/// and hidden names (SPEC 5).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision {
    pub answer: Answer,
    pub rule: &'static str,
    pub rows: Vec<RowReport>,
    pub hidden: Vec<Units>,
}

/// `String.prototype.trim`'s whitespace (ECMAScript WhiteSpace and LineTerminator), derived
/// differently from the core: Unicode White_Space (Rust's `char::is_whitespace`) minus
/// U+0085 (NEL, not whitespace to JavaScript), plus U+FEFF (ZWNBSP, which is).
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

/// The SPEC's routing algorithm and decision report, literally.
pub fn resolve(registered: &[Units], retrieval: &RetrievalSpec) -> Decision {
    let refuse = |rule: &'static str, reason: Units| Decision {
        answer: Answer::Refused {
            reason,
            unresolved: vec![],
        },
        rule,
        rows: vec![],
        hidden: vec![],
    };
    let rows = match retrieval {
        RetrievalSpec::NoLayer => {
            return refuse("1", u("no procedural layer registered; allowing all tools"))
        }
        RetrievalSpec::Failed(name) => {
            return refuse(
                "2a",
                around(
                    "procedural retrieval failed (",
                    name,
                    "); allowing all tools",
                ),
            )
        }
        RetrievalSpec::TimedOut(ms) => {
            return refuse(
                "2b",
                around(
                    "procedural retrieval timed out after ",
                    ms,
                    " ms; allowing all tools",
                ),
            )
        }
        RetrievalSpec::RowsNull => {
            return refuse(
                "3",
                u("no skills in the procedural layer; allowing all tools"),
            )
        }
        RetrievalSpec::Rows(rows) if rows.is_empty() => {
            return refuse(
                "3",
                u("no skills in the procedural layer; allowing all tools"),
            )
        }
        RetrievalSpec::Rows(rows) => rows,
    };

    // Every row's fate, in the store's order.
    let mut names: Vec<Units> = vec![];
    let mut unresolved: Vec<Units> = vec![];
    let mut seen: Vec<Units> = vec![];
    let mut reports = vec![];
    let rows: Vec<ReadRow> = rows.iter().map(read_row).collect();
    for row in &rows {
        let (fate, candidate) = match row {
            ReadRow::Inactive => (RowFateSpec::Inactive, None),
            ReadRow::NoCandidate => (RowFateSpec::NoCandidate, None),
            ReadRow::Candidate(text) => {
                let c = js_trim(text).to_vec();
                if c.is_empty() {
                    (RowFateSpec::NoCandidate, None)
                } else if seen.contains(&c) {
                    (RowFateSpec::Duplicate, Some(c))
                } else {
                    seen.push(c.clone());
                    if registered.contains(&c) {
                        names.push(c.clone());
                        (RowFateSpec::Routed, Some(c))
                    } else {
                        unresolved.push(c.clone());
                        (RowFateSpec::Unresolved, Some(c))
                    }
                }
            }
        };
        reports.push(RowReport { fate, candidate });
    }

    if rows.iter().all(|r| *r == ReadRow::Inactive) {
        return Decision {
            rows: reports,
            ..refuse("4", u("every skill is inactive; allowing all tools"))
        };
    }
    if names.is_empty() {
        return Decision {
            answer: Answer::Refused {
                reason: u("no skill resolved to a registered tool; allowing all tools"),
                unresolved,
            },
            rule: "5",
            rows: reports,
            hidden: vec![],
        };
    }
    let mut hidden: Vec<Units> = vec![];
    for n in registered {
        if !names.contains(n) && !hidden.contains(n) {
            hidden.push(n.clone());
        }
    }
    Decision {
        answer: Answer::Routed { names, unresolved },
        rule: "routed",
        rows: reports,
        hidden,
    }
}

/// The same turn through the core, with the structural checks the binding relies on
/// (indices in range and first registrations, spans inside their candidate, the routed
/// palette never empty).
pub fn core_resolve(registered: &[Units], retrieval: &RetrievalSpec) -> Decision {
    let mut list = NameList::default();
    for n in registered {
        list.push(n);
    }
    let registry = NameSet::new(list);
    let read: &[RowSpec] = match retrieval {
        RetrievalSpec::Rows(rows) => rows,
        _ => &[],
    };
    // What the binding reads of the rows, as routing.js `readRows` reads them: every row's
    // activity, then for each row the core calls active its candidate string (a record's
    // first string field; "" for none), the strings a report's spans index.
    let activities: Vec<Activity> = read
        .iter()
        .map(|r| match r {
            RowSpec::Text(_) => Activity::Text,
            RowSpec::Record { active, .. } => Activity::Record {
                off: *active == Field::False,
            },
            RowSpec::Other => Activity::Other,
        })
        .collect();
    let none: Units = vec![];
    let candidates: Vec<&Name> = read
        .iter()
        .zip(&activities)
        .filter(|(_, &a)| machine::is_active(a))
        .map(|(r, _)| match r {
            RowSpec::Text(t) => &t[..],
            RowSpec::Record {
                tool,
                tool_name,
                content,
                ..
            } => [tool, tool_name, content]
                .into_iter()
                .find_map(|f| match f {
                    Field::Text(t) => Some(&t[..]),
                    _ => None,
                })
                .unwrap_or(&none),
            RowSpec::Other => &none,
        })
        .collect();
    let mut next = candidates.iter();
    let rows: Vec<Row> = activities
        .iter()
        .map(|&a| {
            machine::row(
                a,
                machine::is_active(a).then(|| *next.next().unwrap()),
                false,
            )
        })
        .collect();
    let r = match retrieval {
        RetrievalSpec::NoLayer => Retrieval::NoLayer,
        RetrievalSpec::Failed(n) => Retrieval::Failed(n),
        RetrievalSpec::TimedOut(n) => Retrieval::TimedOut(n),
        RetrievalSpec::RowsNull => Retrieval::Rows(None),
        RetrievalSpec::Rows(_) => Retrieval::Rows(Some(&rows)),
    };
    let span = |s: &routing::Span| -> Units {
        let c = candidates
            .get(s.candidate as usize)
            .expect("span names a candidate that exists");
        assert!(
            s.start <= s.end && s.end as usize <= c.len(),
            "span inside its candidate"
        );
        c[s.start as usize..s.end as usize].to_vec()
    };
    let registration = |i: u32| -> Units {
        assert!((i as usize) < registered.len(), "name index in range");
        // The binding maps the index back to the caller's string: it must be the first
        // registration of that name, so that no list repeats one.
        let n = &registered[i as usize];
        assert_eq!(
            registered.iter().position(|m| m == n),
            Some(i as usize),
            "index of the first registration"
        );
        n.clone()
    };

    let turn = routing::resolve(&registry, r);
    let rule = turn.outcome.rule();
    let reports = turn
        .rows
        .iter()
        .map(|f| RowReport {
            fate: match f.fate {
                Fate::Routed => RowFateSpec::Routed,
                Fate::Duplicate => RowFateSpec::Duplicate,
                Fate::Unresolved => RowFateSpec::Unresolved,
                Fate::Inactive => RowFateSpec::Inactive,
                Fate::NoCandidate => RowFateSpec::NoCandidate,
            },
            candidate: f.candidate.as_ref().map(span),
        })
        .collect();
    let (answer, hidden) = match &turn.outcome {
        Outcome::Routed { names, unresolved } => {
            assert!(!names.is_empty(), "a Routed is never empty");
            let hidden = routing::hidden(&registry, names)
                .into_iter()
                .map(registration)
                .collect();
            (
                Answer::Routed {
                    names: names.iter().map(|&i| registration(i)).collect(),
                    unresolved: unresolved.iter().map(span).collect(),
                },
                hidden,
            )
        }
        Outcome::Refused { reason, unresolved } => {
            assert_eq!(reason.rule(), rule);
            (
                Answer::Refused {
                    reason: reason.text(),
                    unresolved: unresolved.iter().map(span).collect(),
                },
                vec![],
            )
        }
    };
    Decision {
        answer,
        rule,
        rows: reports,
        hidden,
    }
}

// ------------------------------------------------------------------------- policies

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WhenSpec {
    /// `whenTool: null`: any tool.
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

/// What the caller's functions answer: `matches[i]`/`guards[i]` per policy, whether the
/// resolver supplies a model, the tool of the call the dispatch callback returns (`None`:
/// it returns nothing), and which call (counting the caller's real calls from 0 within
/// one seam call) throws, if any.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Script {
    pub matches: Vec<bool>,
    pub guards: Vec<bool>,
    pub resolver: bool,
    pub rewrite: Option<Units>,
    pub throw_at: Option<usize>,
}

/// The policy functions, as the seam errors name them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Func {
    Match,
    Guard,
    ArgsTransform,
}

impl Func {
    pub fn as_str(self) -> &'static str {
        match self {
            Func::Match => "match",
            Func::Guard => "guard",
            Func::ArgsTransform => "argsTransform",
        }
    }
}

/// The seams, as the seam errors name them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SeamName {
    Pre,
    Post,
}

impl SeamName {
    pub fn as_str(self) -> &'static str {
        match self {
            SeamName::Pre => "PRE-model seam (selectModel)",
            SeamName::Post => "POST-model seam (dispatch)",
        }
    }
}

/// Where the model of an iteration comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pick {
    Policy(usize),
    Resolver,
    Default,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SeamAnswer {
    Model(Pick),
    Dispatch {
        redirected_by: Option<usize>,
        /// The tool of the call that dispatches (the original's when the gate dropped).
        call: Units,
        /// The refused target, when the gate dropped the redirect.
        dropped: Option<Units>,
    },
    /// A policy's function threw: the seam's error names it; `thrown` is the number of
    /// the call that threw (its cause).
    PolicyError {
        policy: usize,
        function: Func,
        seam: SeamName,
        thrown: usize,
    },
    /// The adopter's resolver or callback threw: it propagates as it is.
    AdopterError {
        thrown: usize,
    },
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

/// `policy.matchesTool(tool)`.
pub fn when_covers(w: &WhenSpec, tool: &[u16]) -> bool {
    match w {
        WhenSpec::Any => true,
        WhenSpec::One(n) => n == tool,
        WhenSpec::Set(ns) => ns.iter().any(|n| n == tool),
    }
}

pub fn log_match(i: usize) -> String {
    format!("match {i}")
}
pub fn log_guard(i: usize) -> String {
    format!("guard {i}")
}
pub fn log_transform(i: usize) -> String {
    format!("argsTransform {i}")
}
pub const LOG_RESOLVER: &str = "modelResolver";
pub const LOG_CALLBACK: &str = "onToolCallDispatch";

/// The caller's functions: answer from the script, log every call, throw on cue.
struct Caller<'a> {
    script: &'a Script,
    calls: usize,
    log: Vec<String>,
}

impl<'a> Caller<'a> {
    fn new(script: &'a Script) -> Self {
        Caller {
            script,
            calls: 0,
            log: vec![],
        }
    }

    /// One real call; `Err(call number)` when it is the one that throws.
    fn call(&mut self, what: String) -> Result<(), usize> {
        self.log.push(what);
        self.calls += 1;
        if self.script.throw_at == Some(self.calls - 1) {
            Err(self.calls - 1)
        } else {
            Ok(())
        }
    }

    fn flag(v: &[bool], i: usize) -> bool {
        v.get(i).copied().unwrap_or(false)
    }
}

/// SPEC 4, PRE-model: the first policy with a model whose match holds; only then the
/// resolver (if there is one); guards are never asked.
pub fn select(
    policies: &[PolicySpec],
    has_resolver: bool,
    script: &Script,
) -> (SeamAnswer, Vec<String>) {
    let mut c = Caller::new(script);
    for (i, p) in policies.iter().enumerate() {
        if !p.has_model {
            continue;
        }
        if let Err(thrown) = c.call(log_match(i)) {
            let e = SeamAnswer::PolicyError {
                policy: i,
                function: Func::Match,
                seam: SeamName::Pre,
                thrown,
            };
            return (e, c.log);
        }
        if Caller::flag(&script.matches, i) {
            return (SeamAnswer::Model(Pick::Policy(i)), c.log);
        }
    }
    if has_resolver {
        if let Err(thrown) = c.call(LOG_RESOLVER.into()) {
            return (SeamAnswer::AdopterError { thrown }, c.log);
        }
        if script.resolver {
            return (SeamAnswer::Model(Pick::Resolver), c.log);
        }
    }
    (SeamAnswer::Model(Pick::Default), c.log)
}

/// SPEC 4, POST-model: the first redirect policy whose match, whenTool and guard hold
/// rewrites the call (its argsTransform runs if it has one); then the callback (if there
/// is one; it may rewrite again); then the palette gate, asked only when a policy
/// redirected or the callback moved the call to another tool (`palette`: the names it
/// admits, `None` = every tool). A dropped redirect dispatches the original call.
pub fn dispatch(
    policies: &[PolicySpec],
    has_callback: bool,
    original: &[u16],
    palette: Option<&[Units]>,
    script: &Script,
) -> (SeamAnswer, Vec<String>) {
    let mut c = Caller::new(script);
    let err = |policy, function, thrown| SeamAnswer::PolicyError {
        policy,
        function,
        seam: SeamName::Post,
        thrown,
    };
    let mut target = original.to_vec();
    let mut by = None;
    for (i, p) in policies.iter().enumerate() {
        let Some(to) = &p.redirect_to else { continue };
        if let Err(t) = c.call(log_match(i)) {
            return (err(i, Func::Match, t), c.log);
        }
        if !Caller::flag(&script.matches, i) || !when_covers(&p.when, original) {
            continue;
        }
        if p.has_guard {
            if let Err(t) = c.call(log_guard(i)) {
                return (err(i, Func::Guard, t), c.log);
            }
            if !Caller::flag(&script.guards, i) {
                continue;
            }
        }
        if p.has_transform {
            if let Err(t) = c.call(log_transform(i)) {
                return (err(i, Func::ArgsTransform, t), c.log);
            }
        }
        target = to.clone();
        by = Some(i);
        break;
    }
    if has_callback {
        if let Err(thrown) = c.call(LOG_CALLBACK.into()) {
            return (SeamAnswer::AdopterError { thrown }, c.log);
        }
        if let Some(t) = &script.rewrite {
            target = t.clone();
        }
    }
    let changed = by.is_some() || target != original;
    let refused = palette.is_some_and(|names| !names.contains(&target));
    let answer = if changed && refused {
        SeamAnswer::Dispatch {
            redirected_by: by,
            call: original.to_vec(),
            dropped: Some(target),
        }
    } else {
        SeamAnswer::Dispatch {
            redirected_by: by,
            call: target,
            dropped: None,
        }
    };
    (answer, c.log)
}

/// The gate on its own: `(drops, whether the palette was asked)`.
pub fn gate_drops(
    original: &[u16],
    target: &[u16],
    by_policy: bool,
    palette: Option<&[Units]>,
) -> (bool, bool) {
    if !by_policy && target == original {
        return (false, false);
    }
    (
        palette.is_some_and(|p| !p.iter().any(|n| n == target)),
        true,
    )
}

/// The core's gate, with the palette as the binding hands it (a scan of the names).
pub fn core_gate_drops(
    original: &[u16],
    target: &[u16],
    by_policy: bool,
    palette: Option<&[Units]>,
) -> (bool, bool) {
    let mut asked = 0;
    let drops = gate::drops::<()>(original, target, by_policy, |t| {
        asked += 1;
        Ok(match palette {
            None => true,
            Some(p) => p.iter().any(|n| n.as_slice() == t),
        })
    })
    .expect("the palette never fails here");
    (drops, asked > 0)
}

/// The core's policies for the specs (what the binding builds from the caller's specs).
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
            has_guard: p.has_guard,
        })
        .collect();
    PolicySet::new(ps, has_resolver, has_callback)
}

/// The core's hooks, backed by the same script, doing what the binding does: a redirect
/// calls `argsTransform` only when the policy has one; the resolver and the callback are
/// called only when the adopter gave them; the gate scans the palette's names.
struct CoreHooks<'a> {
    caller: Caller<'a>,
    specs: &'a [PolicySpec],
    has_resolver: bool,
    has_callback: bool,
    /// The tool of the call as it stands.
    current: Units,
    palette: Option<&'a [Units]>,
    gate_asked: usize,
}

impl<'a> CoreHooks<'a> {
    fn new(
        script: &'a Script,
        specs: &'a [PolicySpec],
        has_resolver: bool,
        has_callback: bool,
    ) -> Self {
        CoreHooks {
            caller: Caller::new(script),
            specs,
            has_resolver,
            has_callback,
            current: vec![],
            palette: None,
            gate_asked: 0,
        }
    }
}

impl Hooks for CoreHooks<'_> {
    type Error = usize;
    fn matches(&mut self, i: usize) -> Result<bool, usize> {
        assert!(i < self.specs.len(), "match of a policy that exists");
        self.caller.call(log_match(i))?;
        Ok(Caller::flag(&self.caller.script.matches, i))
    }
    fn guard(&mut self, i: usize) -> Result<bool, usize> {
        assert!(
            self.specs[i].has_guard,
            "guard asked of a policy without one"
        );
        self.caller.call(log_guard(i))?;
        Ok(Caller::flag(&self.caller.script.guards, i))
    }
    fn redirect(&mut self, i: usize) -> Result<(), usize> {
        let spec = &self.specs[i];
        let to = spec
            .redirect_to
            .clone()
            .expect("only redirect policies are asked to redirect");
        if spec.has_transform {
            self.caller.call(log_transform(i))?;
        }
        self.current = to;
        Ok(())
    }
    fn resolve_model(&mut self) -> Result<bool, usize> {
        assert!(self.has_resolver, "resolver asked without one");
        self.caller.call(LOG_RESOLVER.into())?;
        Ok(self.caller.script.resolver)
    }
    fn on_dispatch(&mut self) -> Result<Option<Vec<u16>>, usize> {
        assert!(self.has_callback, "callback asked without one");
        self.caller.call(LOG_CALLBACK.into())?;
        if let Some(t) = &self.caller.script.rewrite {
            self.current = t.clone();
        }
        Ok(self.caller.script.rewrite.clone())
    }
    fn allows(&mut self, tool: &[u16]) -> Result<bool, usize> {
        self.gate_asked += 1;
        assert_eq!(
            tool,
            self.current.as_slice(),
            "the gate is asked about the final target"
        );
        Ok(match self.palette {
            None => true,
            Some(names) => names.iter().any(|n| n.as_slice() == tool),
        })
    }
}

fn from_failure(f: Failure<usize>) -> SeamAnswer {
    match f {
        Failure::Policy {
            policy,
            function,
            seam,
            cause,
        } => SeamAnswer::PolicyError {
            policy,
            function: match function {
                Function::Match => Func::Match,
                Function::Guard => Func::Guard,
                Function::ArgsTransform => Func::ArgsTransform,
            },
            seam: match seam {
                Seam::Pre => SeamName::Pre,
                Seam::Post => SeamName::Post,
            },
            thrown: cause,
        },
        Failure::Adopter(thrown) => SeamAnswer::AdopterError { thrown },
    }
}

/// The PRE seam through the core (`set` built by [`core_set`] from the same `specs`).
pub fn core_select(
    set: &PolicySet,
    specs: &[PolicySpec],
    has_resolver: bool,
    has_callback: bool,
    script: &Script,
) -> (SeamAnswer, Vec<String>) {
    let mut h = CoreHooks::new(script, specs, has_resolver, has_callback);
    let a = match set.select_model(&mut h) {
        Ok(Selection::Policy(i)) => {
            assert!(i < specs.len(), "selected policy exists");
            SeamAnswer::Model(Pick::Policy(i))
        }
        Ok(Selection::Resolver) => SeamAnswer::Model(Pick::Resolver),
        Ok(Selection::Default) => SeamAnswer::Model(Pick::Default),
        Err(f) => from_failure(f),
    };
    assert_eq!(h.gate_asked, 0, "the PRE seam never asks the gate");
    (a, h.caller.log)
}

/// The POST seam through the core.
pub fn core_dispatch(
    set: &PolicySet,
    specs: &[PolicySpec],
    has_resolver: bool,
    has_callback: bool,
    original: &[u16],
    palette: Option<&[Units]>,
    script: &Script,
) -> (SeamAnswer, Vec<String>) {
    let mut h = CoreHooks::new(script, specs, has_resolver, has_callback);
    h.current = original.to_vec();
    h.palette = palette;
    let a = match set.dispatch(original, &mut h) {
        Ok(d) => {
            let changed = d.redirected_by.is_some() || h.current != original;
            assert_eq!(
                h.gate_asked,
                usize::from(changed),
                "the gate is asked once when the target changed, else never"
            );
            if let Some(i) = d.redirected_by {
                assert!(i < specs.len(), "redirecting policy exists");
            }
            match d.dropped {
                Some(target) => {
                    assert_eq!(target, h.current, "the dropped target is the final one");
                    SeamAnswer::Dispatch {
                        redirected_by: d.redirected_by,
                        call: original.to_vec(),
                        dropped: Some(target),
                    }
                }
                None => SeamAnswer::Dispatch {
                    redirected_by: d.redirected_by,
                    call: h.current.clone(),
                    dropped: None,
                },
            }
        }
        Err(f) => from_failure(f),
    };
    (a, h.caller.log)
}

// ------------------------------------------------------------------------- strategies

/// Generators of inputs, shared by the property tests and the fixture of the built package
/// (integration tests are compiled with `cfg(test)`; the fuzz target, which has no
/// proptest, is not).
///
/// Names are drawn from a small alphabet full of traps (JS whitespace that Rust's trim
/// disagrees with, unpaired surrogates, NUL, `__proto__`), and most names a case uses are
/// picked from a small pool, so that collisions, trims, duplicates, matches and gates
/// happen often; a share of arbitrary code units keeps the rest honest.
///
/// `js`: only inputs a JavaScript caller can give (non-empty policy names and redirect
/// targets, a non-empty NAME for a failed store, a budget printed as JavaScript prints a
/// small integer); the core takes anything.
#[cfg(test)]
pub mod strategies {
    use super::*;
    use proptest::collection::vec;
    use proptest::prelude::*;

    pub const TRAPS: &[u16] = &[
        0x61, 0x62, 0x20, 0x09, 0xFEFF, 0x85, 0xA0, 0x3000, 0x2028, 0x180E, 0x200B, 0xD800, 0xDC00,
        0xD83D, 0xDE00, 0x00, 0x301, 0xFFFD,
    ];

    /// Whitespace to JavaScript, to pad candidates with.
    const PADS: &[u16] = &[0x20, 0x09, 0x0A, 0xFEFF, 0xA0, 0x3000, 0x2028, 0x1680];

    pub fn unit() -> impl Strategy<Value = u16> {
        prop_oneof![
            8 => proptest::sample::select(TRAPS),
            1 => any::<u16>(),
        ]
    }

    pub fn name() -> BoxedStrategy<Units> {
        prop_oneof![
            6 => vec(unit(), 0..5),
            1 => Just(u("__proto__")),
            1 => Just(u("constructor")),
        ]
        .boxed()
    }

    /// A name the caller can give where the SPEC wants a non-empty string.
    pub fn nonempty(n: Units) -> Units {
        if n.is_empty() {
            u("x")
        } else {
            n
        }
    }

    /// Mostly a name of the pool, else a fresh one.
    pub fn pick(pool: &[Units]) -> BoxedStrategy<Units> {
        if pool.is_empty() {
            return name();
        }
        prop_oneof![
            3 => proptest::sample::select(pool.to_vec()),
            1 => name(),
        ]
        .boxed()
    }

    /// A candidate: a name of the pool padded with JavaScript whitespace, or a fresh name.
    pub fn candidate(pool: &[Units]) -> BoxedStrategy<Units> {
        let padded = (
            pick(pool),
            vec(proptest::sample::select(PADS), 0..3),
            vec(proptest::sample::select(PADS), 0..3),
        )
            .prop_map(|(n, before, after)| {
                let mut t = before;
                t.extend_from_slice(&n);
                t.extend_from_slice(&after);
                t
            });
        prop_oneof![3 => padded, 2 => name()].boxed()
    }

    /// A property of an object row: absent, a candidate, `false`, or another value.
    pub fn field(pool: &[Units]) -> BoxedStrategy<Field> {
        prop_oneof![
            3 => Just(Field::Absent),
            3 => candidate(pool).prop_map(Field::Text),
            1 => Just(Field::False),
            1 => Just(Field::Other),
        ]
        .boxed()
    }

    pub fn row(pool: &[Units]) -> BoxedStrategy<RowSpec> {
        let active = prop_oneof![4 => Just(Field::Absent), 2 => Just(Field::False), 1 => Just(Field::Other), 1 => candidate(pool).prop_map(Field::Text)];
        prop_oneof![
            3 => candidate(pool).prop_map(RowSpec::Text),
            6 => (active, field(pool), field(pool), field(pool)).prop_map(|(active, tool, tool_name, content)| RowSpec::Record { active, tool, tool_name, content }),
            1 => Just(RowSpec::Other),
        ]
        .boxed()
    }

    fn off() -> RowSpec {
        RowSpec::Record {
            active: Field::False,
            tool: Field::Absent,
            tool_name: Field::Absent,
            content: Field::Absent,
        }
    }

    pub fn retrieval(pool: &[Units], js: bool, max_rows: usize) -> BoxedStrategy<RetrievalSpec> {
        let failed = if js {
            name().prop_map(nonempty).boxed()
        } else {
            name()
        };
        let budget = if js {
            (0u8..4).prop_map(|n| u(&n.to_string())).boxed()
        } else {
            name()
        };
        prop_oneof![
            1 => Just(RetrievalSpec::NoLayer),
            1 => failed.prop_map(RetrievalSpec::Failed),
            1 => budget.prop_map(RetrievalSpec::TimedOut),
            1 => Just(RetrievalSpec::RowsNull),
            1 => vec(Just(off()), 1..4).prop_map(RetrievalSpec::Rows),
            12 => vec(row(pool), 0..max_rows).prop_map(RetrievalSpec::Rows),
        ]
        .boxed()
    }

    /// A turn: the registered names and what the store answered. Some registries are
    /// long enough to pass 64 names (the core keeps one bit per registered name).
    pub fn routing_case(js: bool, max_rows: usize) -> BoxedStrategy<(Vec<Units>, RetrievalSpec)> {
        prop_oneof![8 => vec(name(), 0..10), 1 => vec(name(), 60..140)]
            .prop_flat_map(move |registered| {
                let r = retrieval(&registered, js, max_rows);
                (Just(registered), r)
            })
            .boxed()
    }

    pub fn when(pool: &[Units]) -> BoxedStrategy<WhenSpec> {
        prop_oneof![
            2 => Just(WhenSpec::Any),
            2 => pick(pool).prop_map(WhenSpec::One),
            2 => vec(pick(pool), 0..4).prop_map(WhenSpec::Set),
        ]
        .boxed()
    }

    pub fn policy(pool: &[Units], js: bool) -> BoxedStrategy<PolicySpec> {
        let target = if js {
            pick(pool).prop_map(nonempty).boxed()
        } else {
            pick(pool)
        };
        (
            name(),
            when(pool),
            proptest::option::weighted(0.7, target),
            any::<bool>(),
            any::<bool>(),
            any::<bool>(),
        )
            .prop_map(
                move |(name, when, redirect_to, has_model, has_transform, has_guard)| PolicySpec {
                    name: if js { nonempty(name) } else { name },
                    when,
                    redirect_to,
                    has_model,
                    has_transform,
                    has_guard,
                },
            )
            .boxed()
    }

    /// Policies, with distinct names on most draws (a duplicate only tests composition).
    pub fn policies(pool: &[Units], js: bool) -> BoxedStrategy<Vec<PolicySpec>> {
        (vec(policy(pool, js), 0..7), 0u8..6)
            .prop_map(|(mut ps, keep)| {
                if keep != 0 {
                    for i in 0..ps.len() {
                        while ps[..i].iter().any(|p| p.name == ps[i].name) {
                            ps[i].name.push(0x30 + i as u16);
                        }
                    }
                }
                ps
            })
            .boxed()
    }

    pub fn script(n: usize, pool: &[Units]) -> BoxedStrategy<Script> {
        (
            vec(any::<bool>(), n),
            vec(any::<bool>(), n),
            any::<bool>(),
            proptest::option::weighted(0.4, pick(pool)),
            proptest::option::weighted(0.35, 0..(2 * n + 3)),
        )
            .prop_map(|(matches, guards, resolver, rewrite, throw_at)| Script {
                matches,
                guards,
                resolver,
                rewrite,
                throw_at,
            })
            .boxed()
    }

    /// One agent iteration: the policies, what the adopter added, the script, the emitted
    /// tool and the palette the dispatch is given (`None`: no palette).
    #[derive(Debug, Clone)]
    pub struct PolicyCase {
        pub policies: Vec<PolicySpec>,
        pub has_resolver: bool,
        pub has_callback: bool,
        pub script: Script,
        pub tool: Units,
        pub palette: Option<Vec<Units>>,
    }

    pub fn policy_case(js: bool) -> BoxedStrategy<PolicyCase> {
        vec(name(), 1..5)
            .prop_flat_map(move |pool| {
                let ps = policies(&pool, js);
                (Just(pool), ps)
            })
            .prop_flat_map(move |(pool, ps)| {
                let n = ps.len();
                (
                    Just(ps),
                    any::<bool>(),
                    any::<bool>(),
                    script(n, &pool),
                    pick(&pool),
                    proptest::option::of(vec(pick(&pool), 0..4)),
                )
            })
            .prop_map(
                |(policies, has_resolver, has_callback, script, tool, palette)| PolicyCase {
                    policies,
                    has_resolver,
                    has_callback,
                    script,
                    tool,
                    palette,
                },
            )
            .boxed()
    }
}
