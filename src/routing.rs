//! Lazy tool routing: narrow the registered palette to the tools this turn's skills name.
//!
//! The binding does the asynchronous part (calling the procedural layer, the timeout,
//! the abort) and reads each row; what the retrieval came to is handed over as a
//! [`Retrieval`], and everything that decides the answer happens here.

use crate::names::{trim_bounds, units, Name, NameList, NameSet, NameTable};
use alloc::{string::String, vec, vec::Vec};

/// The registered palette, validated and indexed once.
pub type Registry = NameSet;

/// One row of the procedural layer, as read by the row readers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Row<'a> {
    /// The row is turned off (`active: false`, or `isActive` said so).
    Inactive,
    /// Active, but it names no candidate (not a string, not an object with one).
    NoCandidate,
    /// Active, with its candidate text as read (untrimmed).
    Candidate(&'a Name),
}

/// What asking the procedural layer came to this turn.
#[derive(Debug, Clone, Copy)]
pub enum Retrieval<'a> {
    /// `entries` was `null`/`undefined`.
    NoLayer,
    /// `entries` threw or rejected, returned a non-iterable, or a row could not be read;
    /// carries the NAME the reason shows.
    Failed(&'a Name),
    /// The budget elapsed first; carries N as JavaScript prints the number.
    TimedOut(&'a Name),
    /// The rows (`None` when the layer answered `null`/`undefined`).
    Rows(Option<&'a [Row<'a>]>),
}

/// Why a turn was not narrowed. Every refusal means "allow every tool".
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reason {
    NoLayer,
    RetrievalFailed(Vec<u16>),
    TimedOut(Vec<u16>),
    NoSkills,
    EveryInactive,
    NoneResolved,
}

impl Reason {
    /// The SPEC's refusal number, stable for dashboards and the demo.
    pub fn rule(&self) -> &'static str {
        match self {
            Reason::NoLayer => "1",
            Reason::RetrievalFailed(_) => "2a",
            Reason::TimedOut(_) => "2b",
            Reason::NoSkills => "3",
            Reason::EveryInactive => "4",
            Reason::NoneResolved => "5",
        }
    }

    /// The exact reason string.
    pub fn text(&self) -> Vec<u16> {
        let around = |before: &str, detail: &[u16], after: &str| {
            let mut v = units(before);
            v.extend_from_slice(detail);
            v.extend(after.encode_utf16());
            v
        };
        match self {
            Reason::NoLayer => units("no procedural layer registered; allowing all tools"),
            Reason::RetrievalFailed(name) => around(
                "procedural retrieval failed (",
                name,
                "); allowing all tools",
            ),
            Reason::TimedOut(ms) => around(
                "procedural retrieval timed out after ",
                ms,
                " ms; allowing all tools",
            ),
            Reason::NoSkills => units("no skills in the procedural layer; allowing all tools"),
            Reason::EveryInactive => units("every skill is inactive; allowing all tools"),
            Reason::NoneResolved => {
                units("no skill resolved to a registered tool; allowing all tools")
            }
        }
    }
}

/// Where an unresolved name lies: candidate number `candidate` (counting only rows that
/// have one), trimmed to `start..end`. The binding slices the caller's own string with
/// it, so the name comes back exactly as given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    pub candidate: u32,
    pub start: u32,
    pub end: u32,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// `names` are indices into the registry (first appearance order), never empty.
    Routed {
        names: Vec<u32>,
        unresolved: Vec<Span>,
    },
    Refused {
        reason: Reason,
        unresolved: Vec<Span>,
    },
}

fn refuse(reason: Reason) -> Outcome {
    Outcome::Refused {
        reason,
        unresolved: Vec::new(),
    }
}

/// Decides the turn. Total: any input gives an answer, none panics.
pub fn resolve(registry: &Registry, retrieval: Retrieval<'_>) -> Outcome {
    let rows = match retrieval {
        Retrieval::NoLayer => return refuse(Reason::NoLayer),
        Retrieval::Failed(name) => return refuse(Reason::RetrievalFailed(name.to_vec())),
        Retrieval::TimedOut(ms) => return refuse(Reason::TimedOut(ms.to_vec())),
        Retrieval::Rows(None) => return refuse(Reason::NoSkills),
        Retrieval::Rows(Some([])) => return refuse(Reason::NoSkills),
        Retrieval::Rows(Some(rows)) => rows,
    };
    if rows.iter().all(|row| *row == Row::Inactive) {
        return refuse(Reason::EveryInactive);
    }

    let mut names = Vec::new();
    // Registry indices already named: one bit each, no hashing.
    let mut named = vec![0u64; registry.list().len().div_ceil(64)];
    let mut unresolved: Vec<Span> = Vec::new();
    let mut unresolved_text: Vec<&Name> = Vec::new();
    let mut seen_unresolved = NameTable::with_capacity(rows.len());
    let mut candidate = 0u32;
    for row in rows {
        let Row::Candidate(text) = *row else { continue };
        let (start, end) = trim_bounds(text);
        let this = candidate;
        candidate += 1;
        if start == end {
            continue;
        }
        let trimmed = &text[start..end];
        if let Some(index) = registry.position(trimmed) {
            let (word, bit) = (index as usize / 64, 1u64 << (index % 64));
            if named[word] & bit == 0 {
                named[word] |= bit;
                names.push(index);
            }
        } else {
            unresolved_text.push(trimmed);
            let fresh = seen_unresolved.insert(unresolved_text.len() as u32 - 1, |j| {
                unresolved_text[j as usize]
            });
            if fresh {
                unresolved.push(Span {
                    candidate: this,
                    start: start as u32,
                    end: end as u32,
                });
            } else {
                unresolved_text.pop();
            }
        }
    }

    if names.is_empty() {
        Outcome::Refused {
            reason: Reason::NoneResolved,
            unresolved,
        }
    } else {
        Outcome::Routed { names, unresolved }
    }
}

/// Builds a registry from names (for the binding and for tests).
pub fn registry(names: NameList) -> Registry {
    NameSet::new(names)
}

/// Why a `ToolRouter` cannot route at all: a composition report, not a refusal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Missing {
    ProceduralLayer,
    NoRegisteredTools,
}

impl Missing {
    pub fn as_str(self) -> &'static str {
        match self {
            Missing::ProceduralLayer => "procedural-layer",
            Missing::NoRegisteredTools => "no-registered-tools",
        }
    }
}

/// The missing prerequisites, in the SPEC's order; empty when the router can serve.
pub fn missing(has_layer: bool, registered: usize) -> Vec<Missing> {
    let mut out = Vec::new();
    if !has_layer {
        out.push(Missing::ProceduralLayer);
    }
    if registered == 0 {
        out.push(Missing::NoRegisteredTools);
    }
    out
}

/// The one warning a router without its prerequisites issues at construction.
/// The advice to compose a serving router only makes sense when there are tools.
pub fn unavailable_message(missing: &[Missing]) -> String {
    let mut msg = String::from("tool routing is unavailable (missing: ");
    for (i, m) in missing.iter().enumerate() {
        if i > 0 {
            msg.push_str(", ");
        }
        msg.push_str(m.as_str());
    }
    msg.push_str("); the full palette is kept on every turn");
    if !missing.contains(&Missing::NoRegisteredTools) {
        msg.push_str(
            ". To narrow it, compose a serving router: register a procedural layer (`entries`)",
        );
    }
    msg
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reg(names: &[&str]) -> Registry {
        registry(names.iter().collect())
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
        let out = resolve(&r, Retrieval::Rows(Some(&rows)));
        let span = |s: &Span| {
            String::from_utf16(&cands[s.candidate as usize][s.start as usize..s.end as usize])
                .unwrap()
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
            text(&resolve(&r, Retrieval::NoLayer)),
            "no procedural layer registered; allowing all tools"
        );
        assert_eq!(
            text(&resolve(&r, Retrieval::Failed(&units("StoreDownError")))),
            "procedural retrieval failed (StoreDownError); allowing all tools"
        );
        assert_eq!(
            text(&resolve(&r, Retrieval::TimedOut(&units("250")))),
            "procedural retrieval timed out after 250 ms; allowing all tools"
        );
        assert_eq!(
            text(&resolve(&r, Retrieval::Rows(None))),
            "no skills in the procedural layer; allowing all tools"
        );
        assert_eq!(
            text(&resolve(&r, Retrieval::Rows(Some(&[])))),
            "no skills in the procedural layer; allowing all tools"
        );
        assert_eq!(
            text(&resolve(
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
        match resolve(&r, Retrieval::Failed(&lone)) {
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
    fn rows_without_candidates_are_active_but_resolve_nothing() {
        let r = reg(&["a"]);
        let out = resolve(
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
    fn the_warning_advises_a_serving_router_only_when_tools_exist() {
        let with_tools = unavailable_message(&missing(false, 2));
        assert!(with_tools.contains("full palette is kept"));
        assert!(with_tools.contains("compose a serving router"));
        for m in [missing(true, 0), missing(false, 0)] {
            let msg = unavailable_message(&m);
            assert!(msg.contains("full palette is kept"));
            assert!(!msg.contains("serving router"), "{msg}");
        }
    }
}
