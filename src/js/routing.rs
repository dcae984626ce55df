//! Routing (SPEC 2, 3, 5): a turn's steps and its decision over the rows routing.js read, a
//! registry indexed once, a router's missing prerequisites and `bindPalette`'s filter.

use super::batch;
use crate::names::NameSet;
use crate::routing::turn::{self, Activity as Read};
use crate::routing::{self, Retrieval};
use alloc::vec::Vec;
use tool_palette_heap as heap;
use wasm_bindgen::prelude::*;

/// Indexes the `count` names in the batch once, into `slot`: a registered palette (a
/// router's, the turns'), a `ToolPolicies`' gate. False when the memory ran out.
#[wasm_bindgen]
pub fn names(slot: u32, count: u32) -> bool {
    heap::build(slot, false, || Some(NameSet::new(batch::names(count))))
}

/// A row's activity as the facade read it (a record `Off`: its `active` is exactly
/// `false`; `Yes`, `No`: what the caller's `isActive` answered), a byte of the batch.
#[wasm_bindgen]
#[derive(Clone, Copy)]
pub enum Activity {
    Text,
    Record,
    Off,
    Other,
    Yes,
    No,
}

/// A row's byte with this bit: the row is one the package's index made, and its candidate
/// was read by the facade's own reader (wire.js `EXACT`): the core does not trim it.
pub(crate) const EXACT: u8 = 0x80;
/// A row's byte with this bit: the row names a skill (its `skill`, a string: wire.js
/// `SKILL`), whose name follows the candidates in the batch.
pub(crate) const SKILL: u8 = 0x40;

/// The core's activity (`routing::turn::Activity`) of each byte (without `EXACT`).
const ACTIVITIES: [Read; 6] = [
    Read::Text,
    Read::Record { off: false },
    Read::Record { off: true },
    Read::Other,
    Read::Said(true),
    Read::Said(false),
];

/// Which activities are active (wire.js `ACTIVE`): the facade reads candidates of those only.
#[cfg(test)]
pub(crate) fn active_table() -> [bool; 6] {
    ACTIVITIES.map(turn::is_active)
}

/// A wasm-bindgen enum with the variants of a fieldless core enum, converted both ways.
macro_rules! mirror {
    ($(#[$m:meta])* $name:ident = $core:ident { $($v:ident),* }) => {
        $(#[$m])*
        #[wasm_bindgen]
        #[derive(Clone, Copy, PartialEq, Eq, Debug)]
        pub enum $name { $($v),* }
        impl From<turn::$core> for $name {
            fn from(c: turn::$core) -> Self {
                match c { $(turn::$core::$v => $name::$v),* }
            }
        }
        impl From<$name> for turn::$core {
            fn from(c: $name) -> Self {
                match c { $($name::$v => turn::$core::$v),* }
            }
        }
    };
}

mirror!(
    /// Where a turn goes next (`routing::turn::Next`).
    Next = Next { Reject, NoLayer, Call, Read, Failed, Wait, TimedOut }
);
mirror!(
    /// What `entries` did (`routing::turn::Returned`).
    Returned = Returned { Threw, Value, Thenable }
);
mirror!(
    /// The first event of a wait (`routing::turn::Event`).
    Event = Event { Answered, Rejected, Elapsed, Aborted }
);

/// The first step: an aborted signal rejects, then a missing layer is refusal 1.
#[wasm_bindgen]
pub fn begin(aborted: bool, has_layer: bool) -> Next {
    turn::begin(aborted, has_layer).into()
}

/// After `entries` returned (and whether the signal is aborted now).
#[wasm_bindgen]
pub fn returned(what: Returned, aborted: bool) -> Next {
    turn::returned(what.into(), aborted).into()
}

/// What a wait's first event means.
#[wasm_bindgen]
pub fn settled(event: Event) -> Next {
    turn::settled(event.into()).into()
}

/// The timer a wait sets for the budget `timeoutMs`, if any.
#[wasm_bindgen]
pub fn timer(timeout_ms: Option<f64>) -> Option<f64> {
    turn::timer(timeout_ms)
}

/// What the store's answer came to. `Failed`: the batch holds what was thrown's `name`, its
/// constructor's `name` (`""` unless strings), `typeof` it; `Rows`: a code per row (an
/// [`Activity`]) and per active row its candidate (`""`: none); `Nothing`: null, undefined.
#[wasm_bindgen]
#[derive(Clone, Copy)]
pub enum Retrieved {
    NoLayer,
    Failed,
    TimedOut,
    Rows,
    Nothing,
}

#[wasm_bindgen(raw_module = "./calls.js")]
extern "C" {
    /// The turn decided (to routing.js `Decided`): `rule`, its place in `routing::RULES`;
    /// `detail`, which of the batch's strings NAME is (2a); the routed names as indices
    /// into the registered list; the unresolved as (string, start, end) triples over the
    /// batch's strings; the relevant skills (SPEC 9), as indices into the batch's strings.
    fn decided(rule: u32, detail: u32, names: &[u32], unresolved: &[u32], skills: &[u32]);
    /// Its report: each row's fate (`routing::FATES`) and candidate triple (`NO_SPAN` for
    /// none), the hidden names' indices, and each row's skill (an index into the batch's
    /// strings, `NO_SPAN` for none).
    fn reported(fates: &[u8], spans: &[u32], hidden: &[u32], skills: &[u32]);
}

/// A row without a candidate, in a report's triples (wire.js `NO_SPAN`).
pub(crate) const NO_SPAN: u32 = u32::MAX;

/// Decides a turn over the registry in slot `registry`: `count` strings (and `rows` codes)
/// in the batch, as `retrieved` says; hands the answer over, with the report when
/// `report`. False when the slot holds no registry.
#[wasm_bindgen]
pub fn decide(registry: u32, retrieved: Retrieved, count: u32, rows: u32, report: bool) -> bool {
    let (strings, codes) = batch::take(count, rows);
    heap::with(registry, |registry: &NameSet| {
        decide_over(registry, retrieved, strings, codes, report)
    })
    .is_some()
}

fn decide_over(
    registry: &NameSet,
    retrieved: Retrieved,
    strings: crate::names::NameList,
    codes: Vec<u8>,
    report: bool,
) {
    let mut detail = 0;
    let mut read = Vec::with_capacity(codes.len());
    // Each row's skill (the batch's strings after the candidates), and where it is.
    let mut skills: Vec<Option<&crate::names::Name>> = Vec::new();
    let mut skill_at: Vec<u32> = Vec::new();
    let retrieval = match retrieved {
        Retrieved::NoLayer => Retrieval::NoLayer,
        Retrieved::TimedOut => Retrieval::TimedOut(&[]),
        Retrieved::Nothing => Retrieval::Rows(None),
        Retrieved::Failed if strings.len() == 3 => {
            detail = turn::error_name([0, 1, 2].map(|i| strings.get(i)));
            Retrieval::Failed(strings.get(detail))
        }
        Retrieved::Failed => Retrieval::Failed(&[]),
        Retrieved::Rows => {
            let activity = |code: u8| {
                ACTIVITIES
                    .get((code & !(EXACT | SKILL)) as usize)
                    .copied()
                    .unwrap_or(Read::Other)
            };
            let mut next = 0;
            for &code in &codes {
                let activity = activity(code);
                let candidate = (turn::is_active(activity) && next < strings.len()).then(|| {
                    next += 1;
                    strings.get(next - 1)
                });
                read.push(turn::row(activity, candidate, code & EXACT != 0));
            }
            for &code in &codes {
                let named = code & SKILL != 0 && next < strings.len();
                skill_at.push(if named { next as u32 } else { NO_SPAN });
                skills.push(named.then(|| {
                    next += 1;
                    strings.get(next - 1)
                }));
            }
            Retrieval::Rows(Some(&read))
        }
    };
    let decided = routing::resolve(registry, retrieval);
    let (names, unresolved) = match &decided.outcome {
        routing::Outcome::Routed { names, unresolved } => (&names[..], unresolved),
        routing::Outcome::Refused { unresolved, .. } => (&[][..], unresolved),
    };
    let triples = |spans: &mut dyn Iterator<Item = Option<routing::Span>>| -> Vec<u32> {
        let triple =
            |s: Option<routing::Span>| s.map_or([NO_SPAN; 3], |s| [s.candidate, s.start, s.end]);
        spans.flat_map(triple).collect()
    };
    let unresolved = triples(&mut unresolved.iter().map(|s| Some(*s)));
    let relevant: Vec<u32> = routing::relevant_skills(&decided.rows, &skills)
        .iter()
        .map(|&row| skill_at[row as usize])
        .collect();
    self::decided(
        decided.outcome.rule_at() as u32,
        detail as u32,
        names,
        &unresolved,
        &relevant,
    );
    if report {
        let fates: Vec<u8> = decided.rows.iter().map(|r| r.fate as u8).collect();
        let spans = triples(&mut decided.rows.iter().map(|r| r.candidate));
        let routed = matches!(decided.outcome, routing::Outcome::Routed { .. });
        let hidden = if routed {
            routing::hidden(registry, names)
        } else {
            Vec::new()
        };
        self::reported(&fates, &spans, &hidden, &skill_at);
    }
}

/// A router's missing prerequisites (SPEC 3) over the registry in slot `registered`, by
/// their place in wire.js `MISSING`.
#[wasm_bindgen]
pub fn missing(has_layer: bool, registered: u32) -> Vec<u8> {
    let distinct = heap::with(registered, NameSet::distinct).unwrap_or(0);
    routing::missing(has_layer, distinct)
        .iter()
        .map(|&m| m as u8)
        .collect()
}

/// `bindPalette`: the positions of the tools kept. The batch holds the routed names, then
/// per tool its name (`""`) and a code: whether it has one.
#[wasm_bindgen]
pub fn keep(palette: u32, tools: u32) -> Vec<u32> {
    let (names, named) = batch::take(palette + tools, tools);
    let (routed, names) = names.split(palette as usize);
    let names = names
        .iter()
        .zip(named)
        .map(|(name, has)| (has != 0).then_some(name));
    routing::keep(&NameSet::new(routed), names)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_activities_are_the_cores_in_order() {
        let all = [
            Activity::Text,
            Activity::Record,
            Activity::Off,
            Activity::Other,
            Activity::Yes,
            Activity::No,
        ];
        for (i, a) in all.iter().enumerate() {
            assert_eq!(*a as usize, i);
        }
        assert_eq!(active_table(), [true, true, false, true, true, false]);
    }
}
