//! The routing core against hand-written turns (tests/props.rs covers the rest).
use super::*;
use crate::names::NameSet;
use alloc::string::String;

fn reg(names: &[&str]) -> Registry {
    NameSet::new(names.iter().collect())
}

fn decide(r: &Registry, retrieval: Retrieval<'_>) -> Outcome {
    resolve(r, retrieval).outcome
}

fn text(o: &Outcome) -> String {
    match o {
        Outcome::Refused { reason, .. } => String::from_utf16(&reason.text()).unwrap(),
        Outcome::Routed { .. } => "routed".into(),
    }
}

/// Runs a turn over string rows (`None` = inactive row) and renders names.
fn run(registered: &[&str], rows: &[Option<&str>]) -> (String, Vec<String>, Vec<String>) {
    let r = reg(registered);
    let texts: Vec<Vec<u16>> = rows.iter().map(|c| units(c.unwrap_or(""))).collect();
    let rows: Vec<Row> = rows
        .iter()
        .zip(&texts)
        .map(|(c, t)| match c {
            None => Row::Inactive,
            Some(_) => Row::Candidate(t),
        })
        .collect();
    let cands: Vec<&Vec<u16>> = rows
        .iter()
        .zip(&texts)
        .filter(|(r, _)| matches!(r, Row::Candidate(_)))
        .map(|(_, t)| t)
        .collect();
    let out = decide(&r, Retrieval::Rows(Some(&rows)));
    let span = |s: &Span| {
        String::from_utf16(&cands[s.candidate as usize][s.start as usize..s.end as usize]).unwrap()
    };
    match &out {
        Outcome::Routed { names, unresolved } => (
            "routed".into(),
            names
                .iter()
                .map(|&i| String::from_utf16(r.list().get(i as usize)).unwrap())
                .collect(),
            unresolved.iter().map(span).collect(),
        ),
        Outcome::Refused { unresolved, .. } => {
            (text(&out), vec![], unresolved.iter().map(span).collect())
        }
    }
}

#[test]
fn the_five_refusals_have_their_exact_reasons() {
    let r = reg(&["a"]);
    assert_eq!(
        text(&decide(&r, Retrieval::NoLayer)),
        "no procedural layer registered; allowing all tools"
    );
    assert_eq!(
        text(&decide(&r, Retrieval::Failed(&units("StoreDownError")))),
        "procedural retrieval failed (StoreDownError); allowing all tools"
    );
    assert_eq!(
        text(&decide(&r, Retrieval::TimedOut(&units("250")))),
        "procedural retrieval timed out after 250 ms; allowing all tools"
    );
    assert_eq!(
        text(&decide(&r, Retrieval::Rows(None))),
        "no skills in the procedural layer; allowing all tools"
    );
    assert_eq!(
        text(&decide(&r, Retrieval::Rows(Some(&[])))),
        "no skills in the procedural layer; allowing all tools"
    );
    assert_eq!(
        text(&decide(
            &r,
            Retrieval::Rows(Some(&[Row::Inactive, Row::Inactive]))
        )),
        "every skill is inactive; allowing all tools"
    );
    assert_eq!(
        run(&["a"], &[Some("Use the calendar when asked"), Some("b")]),
        (
            "no skill resolved to a registered tool; allowing all tools".into(),
            vec![],
            vec!["Use the calendar when asked".into(), "b".into()]
        )
    );
}

#[test]
fn refusal_reasons_keep_exact_units() {
    let r = reg(&["a"]);
    let lone = [0x58, 0xD800];
    match decide(&r, Retrieval::Failed(&lone)) {
        Outcome::Refused { reason, unresolved } => {
            let t = reason.text();
            assert_eq!(&t[29..31], &lone);
            assert_eq!(reason.rule(), "2a");
            assert!(unresolved.is_empty());
        }
        o => panic!("{o:?}"),
    }
}

#[test]
fn the_relevant_skills_are_the_active_rows_skills_each_once_in_order() {
    let r = reg(&["read", "grep"]);
    let (read, ghost) = (units("read"), units("ghost"));
    let rows = [
        Row::Exact(&read),
        Row::NoCandidate,
        Row::Inactive,
        Row::Exact(&ghost),
        Row::Exact(&read),
    ];
    let (pdf, off, prose) = (units("pdf"), units("off"), units("prose"));
    let skills = [
        Some(&pdf[..]),
        Some(&prose[..]),
        Some(&off[..]),
        Some(&pdf[..]),
        None,
    ];
    let turn = resolve(&r, Retrieval::Rows(Some(&rows)));
    // The disabled skill's row is inactive; pdf counts once; the row without one adds none.
    assert_eq!(relevant_skills(&turn.rows, &skills), [0, 1]);
    // A turn that reads no rows, or only inactive ones, makes no skill relevant.
    let none = resolve(&r, Retrieval::Rows(Some(&[Row::Inactive])));
    assert_eq!(
        relevant_skills(&none.rows, &[Some(&pdf[..])]),
        Vec::<u32>::new()
    );
    assert_eq!(
        relevant_skills(&resolve(&r, Retrieval::NoLayer).rows, &[]),
        Vec::<u32>::new()
    );
}

#[test]
fn an_exact_row_names_its_tool_untrimmed() {
    // " padded " is registered as it is: a row the index made routes it; a caller's
    // row naming it is trimmed to "padded", which is not registered.
    let padded = units(" padded ");
    let r = reg(&[" padded ", "plain"]);
    let turn = resolve(&r, Retrieval::Rows(Some(&[Row::Exact(&padded)])));
    assert_eq!(
        turn.outcome,
        Outcome::Routed {
            names: vec![0],
            unresolved: vec![]
        }
    );
    assert_eq!(
        turn.rows[0].candidate,
        Some(Span {
            candidate: 0,
            start: 0,
            end: 8
        })
    );
    let turn = resolve(&r, Retrieval::Rows(Some(&[Row::Candidate(&padded)])));
    assert!(matches!(turn.outcome, Outcome::Refused { .. }));
    // An empty name is no candidate, exact or not.
    let empty = units("");
    let turn = resolve(&r, Retrieval::Rows(Some(&[Row::Exact(&empty)])));
    assert_eq!(turn.rows[0].fate, Fate::NoCandidate);
}

#[test]
fn rows_without_candidates_are_active_but_resolve_nothing() {
    let r = reg(&["a"]);
    let out = decide(
        &r,
        Retrieval::Rows(Some(&[Row::NoCandidate, Row::Inactive])),
    );
    assert_eq!(
        text(&out),
        "no skill resolved to a registered tool; allowing all tools"
    );
}

#[test]
fn names_and_unresolved_keep_first_seen_order_once_each() {
    let (kind, names, unresolved) = run(
        &["search", "calendar", "mail"],
        &[
            Some("mail"),
            Some("prose one"),
            Some(" calendar "),
            None,
            Some("mail"),
            Some("prose one"),
            Some("ghost"),
            Some("search"),
            Some("   "),
            Some(""),
        ],
    );
    assert_eq!(kind, "routed");
    assert_eq!(names, ["mail", "calendar", "search"]);
    assert_eq!(unresolved, ["prose one", "ghost"]);
}

#[test]
fn inactive_rows_are_ignored_even_when_they_name_tools() {
    let (kind, names, _) = run(&["a", "b"], &[None, Some("b")]);
    assert_eq!(kind, "routed");
    assert_eq!(names, ["b"]);
}

#[test]
fn duplicate_registered_names_route_once() {
    let (_, names, _) = run(&["a", "a", "b"], &[Some("a"), Some("b"), Some("a")]);
    assert_eq!(names, ["a", "b"]);
}

#[test]
fn comparison_is_by_code_unit_without_folding() {
    let (kind, _, unresolved) = run(
        &["Calendar", "caf\u{e9}"],
        &[Some("calendar"), Some("cafe\u{301}")],
    );
    assert_eq!(
        kind,
        "no skill resolved to a registered tool; allowing all tools"
    );
    assert_eq!(unresolved, ["calendar", "cafe\u{301}"]);
}

#[test]
fn missing_prerequisites_come_in_spec_order() {
    assert_eq!(missing(true, 3), vec![]);
    assert_eq!(missing(false, 3), vec![Missing::ProceduralLayer]);
    assert_eq!(missing(true, 0), vec![Missing::NoRegisteredTools]);
    assert_eq!(
        missing(false, 0),
        vec![Missing::ProceduralLayer, Missing::NoRegisteredTools]
    );
}

#[test]
fn every_row_gets_its_fate_and_the_hidden_names_follow_registration() {
    let r = reg(&["search", "calendar", "mail", "calendar", "web"]);
    let texts: Vec<Vec<u16>> = ["mail", " ghost ", "  ", "mail", "ghost", "calendar"]
        .iter()
        .map(|s| units(s))
        .collect();
    let rows = [
        Row::Candidate(&texts[0]),
        Row::Candidate(&texts[1]),
        Row::Inactive,
        Row::Candidate(&texts[2]),
        Row::NoCandidate,
        Row::Candidate(&texts[3]),
        Row::Candidate(&texts[4]),
        Row::Candidate(&texts[5]),
    ];
    let turn = resolve(&r, Retrieval::Rows(Some(&rows)));
    let fates: Vec<&str> = turn.rows.iter().map(|f| f.fate.as_str()).collect();
    assert_eq!(
        fates,
        [
            "routed",
            "unresolved",
            "inactive",
            "no-candidate",
            "no-candidate",
            "duplicate",
            "duplicate",
            "routed"
        ]
    );
    // Candidates are numbered among candidate rows and trimmed.
    assert_eq!(
        turn.rows[1].candidate,
        Some(Span {
            candidate: 1,
            start: 1,
            end: 6
        })
    );
    assert_eq!(turn.rows[3].candidate, None);
    assert_eq!(turn.rows[7].candidate.map(|s| s.candidate), Some(5));
    assert_eq!(turn.outcome.rule(), "routed");
    let Outcome::Routed { names, .. } = &turn.outcome else {
        panic!("{:?}", turn.outcome)
    };
    assert_eq!(names, &[2, 1]);
    // The second "calendar" registration is the same name: hidden once, or not at all.
    assert_eq!(hidden(&r, names), [0, 4]);
}

#[test]
fn refusals_carry_their_rule_and_rows_only_when_rows_were_read() {
    let r = reg(&["a"]);
    for (retrieval, rule) in [
        (Retrieval::NoLayer, "1"),
        (Retrieval::Failed(&[0x45]), "2a"),
        (Retrieval::TimedOut(&[0x35]), "2b"),
        (Retrieval::Rows(None), "3"),
        (Retrieval::Rows(Some(&[])), "3"),
    ] {
        let turn = resolve(&r, retrieval);
        assert_eq!(turn.outcome.rule(), rule);
        assert!(turn.rows.is_empty());
    }
    let turn = resolve(&r, Retrieval::Rows(Some(&[Row::Inactive, Row::Inactive])));
    assert_eq!(turn.outcome.rule(), "4");
    assert_eq!(turn.rows.len(), 2);
    let b = units("b");
    let turn = resolve(
        &r,
        Retrieval::Rows(Some(&[Row::Inactive, Row::Candidate(&b)])),
    );
    assert_eq!(turn.outcome.rule(), "5");
    assert_eq!(turn.rows[1].fate, Fate::Unresolved);
}
