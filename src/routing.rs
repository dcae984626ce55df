//! Lazy tool routing: narrow the registered palette to the tools this turn's skills name.
//!
//! The binding does the asynchronous part (calling the procedural layer, the timeout,
//! the abort) and reads each row; what the retrieval came to is handed over as a
//! [`Retrieval`], and everything that decides the answer happens here.

use crate::names::{trim_bounds, units, Name, NameSet, NameTable};
use alloc::{vec, vec::Vec};

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
    /// Active, naming a tool exactly: a row the package's own index made (`ToolIndex`'s
    /// `entries`), whose candidate is a registered name as it is, never trimmed (a name
    /// that begins or ends with whitespace is found by the index and routed alike).
    Exact(&'a Name),
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
        RULES[self.rule_at()]
    }

    /// Where [`Reason::rule`] is in [`RULES`]: after `routed`, in [`REASONS`]' order.
    pub fn rule_at(&self) -> usize {
        self.parts().0 + 1
    }

    /// Where the reason is in [`REASONS`], and the detail its text holds between the
    /// two parts (a NAME, an N; empty for the others).
    pub fn parts(&self) -> (usize, &[u16]) {
        match self {
            Reason::NoLayer => (0, &[]),
            Reason::RetrievalFailed(name) => (1, name),
            Reason::TimedOut(ms) => (2, ms),
            Reason::NoSkills => (3, &[]),
            Reason::EveryInactive => (4, &[]),
            Reason::NoneResolved => (5, &[]),
        }
    }

    /// The exact reason string: its [`REASONS`] parts around its detail.
    pub fn text(&self) -> Vec<u16> {
        let (at, detail) = self.parts();
        let (before, after) = REASONS[at];
        let mut v = units(before);
        v.extend_from_slice(detail);
        v.extend(after.encode_utf16());
        v
    }
}

/// The SPEC's exact reason strings, by [`Reason::parts`]: the text before the detail and
/// after it (the binding's JavaScript half holds a copy generated from this table, so
/// that a refusal's text does not cross the boundary on every turn).
pub const REASONS: [(&str, &str); 6] = [
    ("no procedural layer registered; allowing all tools", ""),
    ("procedural retrieval failed (", "); allowing all tools"),
    (
        "procedural retrieval timed out after ",
        " ms; allowing all tools",
    ),
    ("no skills in the procedural layer; allowing all tools", ""),
    ("every skill is inactive; allowing all tools", ""),
    (
        "no skill resolved to a registered tool; allowing all tools",
        "",
    ),
];

/// Where a trimmed candidate lies: candidate number `candidate` (counting only rows that
/// have one), trimmed to `start..end`. The binding slices the caller's own string with
/// it, so the name comes back exactly as given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    pub candidate: u32,
    pub start: u32,
    pub end: u32,
}

/// What became of one row (SPEC section 5).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fate {
    /// The first active row naming a registered name.
    Routed,
    /// An active row whose candidate an earlier row already named.
    Duplicate,
    /// The first active row naming a candidate that is not registered.
    Unresolved,
    Inactive,
    /// Active, but no candidate, or one that is empty once trimmed.
    NoCandidate,
}

impl Fate {
    pub fn as_str(self) -> &'static str {
        FATES[self as usize]
    }
}

/// A row's fate as the decision report names it, by [`Fate`] (the binding's JavaScript
/// half holds a copy generated from this table).
pub const FATES: [&str; 5] = [
    "routed",
    "duplicate",
    "unresolved",
    "inactive",
    "no-candidate",
];

/// A decision report's `rule`, by [`Outcome::rule_at`]: a routed turn, each refusal by
/// its [`Reason::parts`] plus one, and a router that cannot route (the binding's
/// JavaScript half holds a copy generated from this table).
pub const RULES: [&str; 8] = ["routed", "1", "2a", "2b", "3", "4", "5", "unavailable"];
/// Where a router that cannot route is in [`RULES`].
pub const UNAVAILABLE: usize = 7;

/// One row's fate, with its trimmed candidate (none for inactive and no-candidate rows).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RowFate {
    pub fate: Fate,
    pub candidate: Option<Span>,
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

impl Outcome {
    /// "routed", or the refusal's number.
    pub fn rule(&self) -> &'static str {
        RULES[self.rule_at()]
    }

    /// Where [`Outcome::rule`] is in [`RULES`].
    pub fn rule_at(&self) -> usize {
        match self {
            Outcome::Routed { .. } => 0,
            Outcome::Refused { reason, .. } => reason.rule_at(),
        }
    }
}

/// A decided turn: the outcome and, for the decision report, each row's fate in the
/// store's order (empty when no rows were read).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Turn {
    pub outcome: Outcome,
    pub rows: Vec<RowFate>,
}

fn refuse(reason: Reason) -> Turn {
    Turn {
        outcome: Outcome::Refused {
            reason,
            unresolved: Vec::new(),
        },
        rows: Vec::new(),
    }
}

/// Decides the turn. Total: any input gives an answer, none panics.
pub fn resolve(registry: &Registry, retrieval: Retrieval<'_>) -> Turn {
    let rows = match retrieval {
        Retrieval::NoLayer => return refuse(Reason::NoLayer),
        Retrieval::Failed(name) => return refuse(Reason::RetrievalFailed(name.to_vec())),
        Retrieval::TimedOut(ms) => return refuse(Reason::TimedOut(ms.to_vec())),
        Retrieval::Rows(None) => return refuse(Reason::NoSkills),
        Retrieval::Rows(Some([])) => return refuse(Reason::NoSkills),
        Retrieval::Rows(Some(rows)) => rows,
    };

    let mut fates = Vec::with_capacity(rows.len());
    let mut names = Vec::new();
    // Registry indices already named: one bit each, no hashing.
    let mut named = vec![0u64; registry.list().len().div_ceil(64)];
    let mut unresolved: Vec<Span> = Vec::new();
    let mut unresolved_text: Vec<&Name> = Vec::new();
    let mut seen_unresolved = NameTable::with_capacity(rows.len());
    let mut candidate = 0u32;
    for row in rows {
        let text = match *row {
            Row::Inactive => {
                fates.push(RowFate {
                    fate: Fate::Inactive,
                    candidate: None,
                });
                continue;
            }
            Row::NoCandidate => {
                fates.push(RowFate {
                    fate: Fate::NoCandidate,
                    candidate: None,
                });
                continue;
            }
            Row::Candidate(text) => (text, trim_bounds(text)),
            Row::Exact(text) => (text, (0, text.len())),
        };
        let (text, (start, end)) = text;
        let span = Span {
            candidate,
            start: start as u32,
            end: end as u32,
        };
        candidate += 1;
        if start == end {
            fates.push(RowFate {
                fate: Fate::NoCandidate,
                candidate: None,
            });
            continue;
        }
        let trimmed = &text[start..end];
        let fate = if let Some(index) = registry.position(trimmed) {
            let (word, bit) = (index as usize / 64, 1u64 << (index % 64));
            if named[word] & bit == 0 {
                named[word] |= bit;
                names.push(index);
                Fate::Routed
            } else {
                Fate::Duplicate
            }
        } else {
            unresolved_text.push(trimmed);
            let fresh = seen_unresolved.insert(unresolved_text.len() as u32 - 1, |j| {
                unresolved_text[j as usize]
            });
            if fresh {
                unresolved.push(span);
                Fate::Unresolved
            } else {
                unresolved_text.pop();
                Fate::Duplicate
            }
        };
        fates.push(RowFate {
            fate,
            candidate: Some(span),
        });
    }

    let outcome = if fates.iter().all(|f| f.fate == Fate::Inactive) {
        Outcome::Refused {
            reason: Reason::EveryInactive,
            unresolved: Vec::new(),
        }
    } else if names.is_empty() {
        Outcome::Refused {
            reason: Reason::NoneResolved,
            unresolved,
        }
    } else {
        Outcome::Routed { names, unresolved }
    };
    Turn {
        outcome,
        rows: fates,
    }
}

/// SPEC 9: the skills a turn's rows make relevant, for the host to give the model their
/// instructions: the skill of each active row that names one (`skills[i]`, the row's
/// `skill`), each once, in the order they first appear (a `SkillIndex` answers the best
/// skill first). An inactive row's skill (a disabled one) is never relevant; a turn that
/// read no rows has none. Answers the rows that name them.
pub fn relevant_skills(rows: &[RowFate], skills: &[Option<&Name>]) -> Vec<u32> {
    let mut seen: Vec<&Name> = Vec::new();
    let mut out = Vec::new();
    for (i, (fate, skill)) in rows.iter().zip(skills).enumerate() {
        if let (true, Some(name)) = (fate.fate != Fate::Inactive, skill) {
            if !seen.contains(name) {
                seen.push(name);
                out.push(i as u32);
            }
        }
    }
    out
}

/// The registered names a routed turn hides from the model: registry indices in
/// registration order, each name once (its first registration).
pub fn hidden(registry: &Registry, routed: &[u32]) -> Vec<u32> {
    let list = registry.list();
    let mut shown = vec![0u64; list.len().div_ceil(64)];
    for &i in routed {
        shown[i as usize / 64] |= 1u64 << (i % 64);
    }
    (0..list.len() as u32)
        .filter(|&i| {
            shown[i as usize / 64] & (1u64 << (i % 64)) == 0
                && registry.position(list.get(i as usize)) == Some(i)
        })
        .collect()
}

/// Binding a routed palette to the caller's tools, each by its name (`None`: it has no
/// string name): the positions kept, in the caller's order. A tool without a string name
/// (a provider-defined tool, a separator) cannot be routed and is kept in place (SPEC 3).
pub fn keep<'a>(palette: &NameSet, tools: impl Iterator<Item = Option<&'a Name>>) -> Vec<u32> {
    let kept = tools
        .enumerate()
        .filter(|(_, name)| name.map_or(true, |n| palette.contains(n)));
    kept.map(|(i, _)| i as u32).collect()
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

pub mod turn;

#[cfg(test)]
mod tests;
