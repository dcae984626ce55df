//! The fixture that tests what ships: routing and policy cases drawn with a fixed seed from
//! the property tests' generators, answered by the naive model of the SPEC (tests/model/),
//! checked against the core, and written as JSON to `target/spec-cases.json`.
//! tests/js/spec-cases.test.mjs replays every case against the built package
//! (`dist/node.mjs`) and asserts the same answers, so the binding between the core and
//! the caller is held to the model too.
//!
//! Strings are JavaScript strings (UTF-16 code units): every unit outside printable
//! ASCII, and `"` and `\`, is written as `\uXXXX`, which `JSON.parse` turns back into
//! exactly that code unit, unpaired surrogates included.

mod model;

use model::strategies::{policy_case, routing_case, PolicyCase};
use model::{Answer, Decision, Field, Pick, RetrievalSpec, RowSpec, SeamAnswer, Units};
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use std::collections::BTreeSet;

const ROUTING_CASES: usize = 300;
const POLICY_CASES: usize = 300;
const SEED: [u8; 32] = *b"tool-palette/spec-cases/seed-001";
const OUT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/target/spec-cases.json");

// ------------------------------------------------------------------------- JSON

/// A JSON value, written by hand (no serde_json): keys are ASCII, strings code units.
enum J {
    Null,
    Bool(bool),
    Num(i64),
    Str(Units),
    Arr(Vec<J>),
    Obj(Vec<(&'static str, J)>),
}

fn s(text: &str) -> J {
    J::Str(model::u(text))
}

fn st(units: &[u16]) -> J {
    J::Str(units.to_vec())
}

fn strs(list: &[Units]) -> J {
    J::Arr(list.iter().map(|n| st(n)).collect())
}

fn opt<T>(v: Option<T>, f: impl FnOnce(T) -> J) -> J {
    v.map_or(J::Null, f)
}

fn log(entries: &[String]) -> J {
    J::Arr(entries.iter().map(|e| s(e)).collect())
}

impl J {
    fn write(&self, out: &mut String) {
        match self {
            J::Null => out.push_str("null"),
            J::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            J::Num(n) => out.push_str(&n.to_string()),
            J::Str(units) => {
                out.push('"');
                for &unit in units {
                    match unit {
                        0x22 | 0x5C => out.push_str(&format!("\\u{unit:04x}")),
                        0x20..=0x7E => out.push(char::from(unit as u8)),
                        _ => out.push_str(&format!("\\u{unit:04x}")),
                    }
                }
                out.push('"');
            }
            J::Arr(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    item.write(out);
                }
                out.push(']');
            }
            J::Obj(fields) => {
                out.push('{');
                for (i, (key, value)) in fields.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    out.push('"');
                    out.push_str(key);
                    out.push_str("\":");
                    value.write(out);
                }
                out.push('}');
            }
        }
    }
}

// ------------------------------------------------------------------------- routing cases

/// A row as the store returns it, rendered from the model's raw row; the forms of values
/// that are neither strings nor `false` vary with the row's position (`k`, counted from
/// the case's own index so that every form meets every kind of row).
fn render_row(row: &RowSpec, k: usize, registered: &[Units]) -> J {
    let some_name = || {
        registered
            .get(k % registered.len().max(1))
            .map_or_else(|| s("x"), |n| st(n))
    };
    let other = |j: usize| match (k + j) % 5 {
        0 => J::Num(0),
        1 => J::Null,
        2 => J::Bool(true),
        3 => J::Obj(vec![]),
        _ => J::Arr(vec![some_name()]),
    };
    match row {
        RowSpec::Text(text) => st(text),
        RowSpec::Record {
            active,
            tool,
            tool_name,
            content,
        } => {
            let mut fields = vec![];
            for (j, (key, field)) in [
                ("active", active),
                ("tool", tool),
                ("toolName", tool_name),
                ("content", content),
            ]
            .into_iter()
            .enumerate()
            {
                match field {
                    Field::Absent => {}
                    Field::Text(t) => fields.push((key, st(t))),
                    Field::False => fields.push((key, J::Bool(false))),
                    Field::Other => fields.push((key, other(j))),
                }
            }
            J::Obj(fields)
        }
        // An array is not an object row, even when it holds a name.
        RowSpec::Other => match k % 4 {
            0 => J::Num(7),
            1 => J::Null,
            2 => J::Arr(vec![some_name()]),
            _ => J::Bool(true),
        },
    }
}

fn routing_json(index: usize, registered: &[Units], retrieval: &RetrievalSpec, d: &Decision) -> J {
    let retrieval = match retrieval {
        RetrievalSpec::NoLayer => J::Obj(vec![("layer", s("none"))]),
        RetrievalSpec::Failed(name) => J::Obj(vec![("layer", s("throws")), ("name", st(name))]),
        RetrievalSpec::TimedOut(ms) => {
            let n: i64 = String::from_utf16(ms)
                .ok()
                .and_then(|t| t.parse().ok())
                .expect("a budget printed as a small integer");
            J::Obj(vec![("layer", s("hangs")), ("timeoutMs", J::Num(n))])
        }
        RetrievalSpec::RowsNull => J::Obj(vec![("layer", s("rows")), ("rows", J::Null)]),
        RetrievalSpec::Rows(rows) => J::Obj(vec![
            ("layer", s("rows")),
            (
                "rows",
                J::Arr(
                    rows.iter()
                        .enumerate()
                        .map(|(k, r)| render_row(r, index + k, registered))
                        .collect(),
                ),
            ),
        ]),
    };
    let (kind, names, reason, unresolved) = match &d.answer {
        Answer::Routed { names, unresolved } => ("routed", strs(names), J::Null, unresolved),
        Answer::Refused { reason, unresolved } => ("refused", J::Null, st(reason), unresolved),
    };
    let rows = d
        .rows
        .iter()
        .map(|r| {
            J::Obj(vec![
                ("fate", s(r.fate.as_str())),
                ("candidate", opt(r.candidate.as_ref(), |c| st(c))),
            ])
        })
        .collect();
    J::Obj(vec![
        ("index", J::Num(index as i64)),
        ("registered", strs(registered)),
        ("retrieval", retrieval),
        (
            "expected",
            J::Obj(vec![
                ("kind", s(kind)),
                ("names", names),
                ("unresolved", strs(unresolved)),
                ("reason", reason),
                ("rule", s(d.rule)),
                ("rows", J::Arr(rows)),
                ("hidden", strs(&d.hidden)),
            ]),
        ),
    ])
}

// ------------------------------------------------------------------------- policy cases

fn seam_json(answer: &SeamAnswer, entries: &[String]) -> J {
    let mut fields = match answer {
        SeamAnswer::Model(Pick::Policy(i)) => {
            vec![("kind", s("policy")), ("policy", J::Num(*i as i64))]
        }
        SeamAnswer::Model(Pick::Resolver) => vec![("kind", s("resolver"))],
        SeamAnswer::Model(Pick::Default) => vec![("kind", s("default"))],
        SeamAnswer::Dispatch {
            redirected_by,
            call,
            dropped,
        } => vec![
            ("kind", s("dispatch")),
            ("redirectedBy", opt(*redirected_by, |i| J::Num(i as i64))),
            ("call", st(call)),
            ("dropped", opt(dropped.as_ref(), |t| st(t))),
        ],
        SeamAnswer::PolicyError {
            policy,
            function,
            seam,
            thrown,
        } => vec![
            ("kind", s("policyError")),
            ("policy", J::Num(*policy as i64)),
            ("function", s(function.as_str())),
            ("seam", s(seam.as_str())),
            ("thrown", J::Num(*thrown as i64)),
        ],
        SeamAnswer::AdopterError { thrown } => vec![
            ("kind", s("adopterError")),
            ("thrown", J::Num(*thrown as i64)),
        ],
    };
    fields.push(("log", log(entries)));
    J::Obj(fields)
}

type Seams = Option<((SeamAnswer, Vec<String>), (SeamAnswer, Vec<String>))>;

fn policy_json(index: usize, c: &PolicyCase, compose: Result<(), usize>, seams: &Seams) -> J {
    let policies = c
        .policies
        .iter()
        .map(|p| {
            J::Obj(vec![
                ("name", st(&p.name)),
                (
                    "whenTool",
                    match &p.when {
                        model::WhenSpec::Any => J::Null,
                        model::WhenSpec::One(n) => st(n),
                        model::WhenSpec::Set(ns) => strs(ns),
                    },
                ),
                ("redirectTo", opt(p.redirect_to.as_ref(), |t| st(t))),
                ("model", J::Bool(p.has_model)),
                ("guard", J::Bool(p.has_guard)),
                ("argsTransform", J::Bool(p.has_transform)),
            ])
        })
        .collect();
    let bools = |v: &[bool]| J::Arr(v.iter().map(|&b| J::Bool(b)).collect());
    let script = J::Obj(vec![
        ("matches", bools(&c.script.matches)),
        ("guards", bools(&c.script.guards)),
        ("resolver", J::Bool(c.script.resolver)),
        ("rewrite", opt(c.script.rewrite.as_ref(), |t| st(t))),
        ("throwAt", opt(c.script.throw_at, |k| J::Num(k as i64))),
    ]);
    let (select, dispatch) = match seams {
        Some(((sa, sl), (da, dl))) => (seam_json(sa, sl), seam_json(da, dl)),
        None => (J::Null, J::Null),
    };
    J::Obj(vec![
        ("index", J::Num(index as i64)),
        ("policies", J::Arr(policies)),
        ("hasResolver", J::Bool(c.has_resolver)),
        ("hasCallback", J::Bool(c.has_callback)),
        ("script", script),
        ("tool", st(&c.tool)),
        ("palette", opt(c.palette.as_ref(), |p| strs(p))),
        (
            "expected",
            J::Obj(vec![
                ("compose", opt(compose.err(), |i| J::Num(i as i64))),
                ("select", select),
                ("dispatch", dispatch),
            ]),
        ),
    ])
}

/// A short label of an answer, to check that the fixture covers every kind.
fn label(a: &SeamAnswer) -> String {
    match a {
        SeamAnswer::Model(Pick::Policy(_)) => "select:policy".into(),
        SeamAnswer::Model(Pick::Resolver) => "select:resolver".into(),
        SeamAnswer::Model(Pick::Default) => "select:default".into(),
        SeamAnswer::Dispatch {
            redirected_by,
            dropped,
            call,
        } => match (redirected_by, dropped) {
            (_, Some(_)) => "dispatch:dropped".into(),
            (Some(_), None) => "dispatch:redirected".into(),
            (None, None) => format!("dispatch:kept-or-callback:{}", call.is_empty()),
        },
        SeamAnswer::PolicyError { function, seam, .. } => {
            format!("error:{}:{}", function.as_str(), seam.as_str())
        }
        SeamAnswer::AdopterError { .. } => "error:adopter".into(),
    }
}

// ------------------------------------------------------------------------- the fixture

#[test]
fn writes_the_spec_cases_fixture() {
    let mut runner = TestRunner::new_with_rng(
        Config::default(),
        TestRng::from_seed(RngAlgorithm::ChaCha, &SEED),
    );

    let mut rules = BTreeSet::new();
    let mut fates = BTreeSet::new();
    let routing_strategy = routing_case(true, 10);
    let mut routing = Vec::with_capacity(ROUTING_CASES);
    for index in 0..ROUTING_CASES {
        let (registered, retrieval) = routing_strategy
            .new_tree(&mut runner)
            .expect("a routing case")
            .current();
        let d = model::resolve(&registered, &retrieval);
        assert_eq!(
            model::core_resolve(&registered, &retrieval),
            d,
            "routing case {index}: the core differs from the model: {registered:?} {retrieval:?}"
        );
        rules.insert(d.rule);
        fates.extend(d.rows.iter().map(|r| r.fate.as_str()));
        routing.push(routing_json(index, &registered, &retrieval, &d));
    }
    assert_eq!(rules.len(), 7, "the fixture covers every rule: {rules:?}");
    assert_eq!(fates.len(), 5, "the fixture covers every fate: {fates:?}");

    let mut answers = BTreeSet::new();
    let policy_strategy = policy_case(true);
    let mut policies = Vec::with_capacity(POLICY_CASES);
    for index in 0..POLICY_CASES {
        let c = policy_strategy
            .new_tree(&mut runner)
            .expect("a policy case")
            .current();
        let compose = model::compose(&c.policies);
        let core = model::core_set(&c.policies, c.has_resolver, c.has_callback);
        assert_eq!(core.as_ref().map(|_| ()).map_err(|&i| i), compose);
        let seams = core.ok().map(|set| {
            let palette = c.palette.as_deref();
            let select = model::select(&c.policies, c.has_resolver, &c.script);
            let dispatch =
                model::dispatch(&c.policies, c.has_callback, &c.tool, palette, &c.script);
            let (h, k) = (c.has_resolver, c.has_callback);
            assert_eq!(
                model::core_select(&set, &c.policies, h, k, &c.script),
                select,
                "policy case {index}, PRE seam: the core differs from the model: {c:?}"
            );
            assert_eq!(
                model::core_dispatch(&set, &c.policies, h, k, &c.tool, palette, &c.script),
                dispatch,
                "policy case {index}, POST seam: the core differs from the model: {c:?}"
            );
            answers.insert(label(&select.0));
            answers.insert(label(&dispatch.0));
            (select, dispatch)
        });
        if seams.is_none() {
            answers.insert("compose:duplicate".into());
        }
        policies.push(policy_json(index, &c, compose, &seams));
    }
    for want in [
        "compose:duplicate",
        "select:policy",
        "select:resolver",
        "select:default",
        "dispatch:dropped",
        "dispatch:redirected",
        "error:match:PRE-model seam (selectModel)",
        "error:match:POST-model seam (dispatch)",
        "error:guard:POST-model seam (dispatch)",
        "error:argsTransform:POST-model seam (dispatch)",
        "error:adopter",
    ] {
        assert!(
            answers.contains(want),
            "the fixture covers {want}: {answers:?}"
        );
    }

    let mut out = String::new();
    out.push_str("{\"about\":\"tests/spec_cases.rs: cases drawn with a fixed seed, answered by the model of the SPEC (tests/model/); replayed by tests/js/spec-cases.test.mjs\",\n\"routing\":[\n");
    for (i, case) in routing.iter().enumerate() {
        if i > 0 {
            out.push_str(",\n");
        }
        case.write(&mut out);
    }
    out.push_str("\n],\n\"policies\":[\n");
    for (i, case) in policies.iter().enumerate() {
        if i > 0 {
            out.push_str(",\n");
        }
        case.write(&mut out);
    }
    out.push_str("\n]}\n");
    let path = std::path::Path::new(OUT);
    std::fs::create_dir_all(path.parent().expect("target/")).expect("create target/");
    std::fs::write(path, out).expect("write target/spec-cases.json");
}

#[test]
fn json_strings_keep_every_code_unit() {
    let mut out = String::new();
    J::Str(vec![0x61, 0x22, 0x5C, 0xD800, 0x0A, 0x7F, 0x7E, 0x20]).write(&mut out);
    assert_eq!(out, "\"a\\u0022\\u005c\\ud800\\u000a\\u007f~ \"");
}
