//! `Palette`: a registered palette (or a routed one, for the gate), indexed once.

use wasm_bindgen::prelude::*;

use crate::names::{NameList, NameSet};
use crate::policy::{Gate, PolicySet};
use crate::routing::{self, Outcome, Reason, Retrieval, Row};

#[wasm_bindgen]
pub struct Palette {
    set: NameSet,
}

/// Builds a palette from names back to back (`units`, with each name's end in `ends`);
/// `undefined` when the ends do not fit the units.
#[wasm_bindgen]
pub fn palette(units: Vec<u16>, ends: Vec<u32>) -> Option<Palette> {
    NameList::from_parts(units, ends).map(|list| Palette {
        set: NameSet::new(list),
    })
}

/// What the retrieval came to; the codes the package's JavaScript passes to `route`.
const ROWS: u8 = 0;
const ROWS_NULL: u8 = 1;
const NO_LAYER: u8 = 2;
const FAILED: u8 = 3;
const TIMED_OUT: u8 = 4;

/// Row flags, one per row: inactive, active without a candidate, active with one.
const INACTIVE: u8 = 0;
const NO_CANDIDATE: u8 = 1;

#[wasm_bindgen]
impl Palette {
    /// How many distinct names.
    pub fn distinct(&self) -> u32 {
        self.set.distinct() as u32
    }

    /// Decides a turn. Rows come as `flags` plus the candidates of the rows flagged 2,
    /// back to back. The answer is one array:
    /// `[rule, nNames, ...nameIndices, nSpans, ...(candidate, start, end), ...reasonUnits]`
    /// with `rule` 0 for routed, else the refusal (1, 2 = 2a, 3 = 2b, 4, 5, 6 = rule 5).
    /// An empty array means the batch was malformed (a bug in the package's JavaScript).
    pub fn route(
        &self,
        retrieval: u8,
        detail: &[u16],
        flags: &[u8],
        units: Vec<u16>,
        ends: Vec<u32>,
    ) -> Vec<u32> {
        let Some(candidates) = NameList::from_parts(units, ends) else {
            return Vec::new();
        };
        let mut next = 0;
        let mut rows = Vec::with_capacity(flags.len());
        for &flag in flags {
            rows.push(match flag {
                INACTIVE => Row::Inactive,
                NO_CANDIDATE => Row::NoCandidate,
                _ if next < candidates.len() => {
                    next += 1;
                    Row::Candidate(candidates.get(next - 1))
                }
                _ => return Vec::new(),
            });
        }
        let retrieval = match retrieval {
            ROWS => Retrieval::Rows(Some(&rows)),
            ROWS_NULL => Retrieval::Rows(None),
            NO_LAYER => Retrieval::NoLayer,
            FAILED => Retrieval::Failed(detail),
            TIMED_OUT => Retrieval::TimedOut(detail),
            _ => return Vec::new(),
        };
        encode(routing::resolve(&self.set, retrieval))
    }

    /// The gate: whether a call redirected to `target` must be dropped.
    pub fn gate_drops(&self, original: &[u16], target: &[u16], by_policy: bool) -> bool {
        PolicySet::gate_drops(&Gate::Only(&self.set), original, target, by_policy)
    }

    /// Indices of the `names` (back to back) that are in this palette, in their order.
    pub fn keep(&self, units: Vec<u16>, ends: Vec<u32>) -> Vec<u32> {
        let Some(names) = NameList::from_parts(units, ends) else {
            return Vec::new();
        };
        (0..names.len() as u32)
            .filter(|&i| self.set.contains(names.get(i as usize)))
            .collect()
    }
}

fn encode(outcome: Outcome) -> Vec<u32> {
    let (rule, names, spans, reason) = match outcome {
        Outcome::Routed { names, unresolved } => (0, names, unresolved, Vec::new()),
        Outcome::Refused { reason, unresolved } => {
            let rule = match reason {
                Reason::NoLayer => 1,
                Reason::RetrievalFailed(_) => 2,
                Reason::TimedOut(_) => 3,
                Reason::NoSkills => 4,
                Reason::EveryInactive => 5,
                Reason::NoneResolved => 6,
            };
            (rule, Vec::new(), unresolved, reason.text())
        }
    };
    let mut out = Vec::with_capacity(3 + names.len() + 3 * spans.len() + reason.len());
    out.push(rule);
    out.push(names.len() as u32);
    out.extend_from_slice(&names);
    out.push(spans.len() as u32);
    for s in spans {
        out.extend_from_slice(&[s.candidate, s.start, s.end]);
    }
    out.extend(reason.into_iter().map(u32::from));
    out
}

/// The prerequisites a `ToolRouter` lacks, comma-separated in the SPEC's order
/// (empty when it can serve).
#[wasm_bindgen]
pub fn router_missing(has_layer: bool, registered: u32) -> String {
    let missing = routing::missing(has_layer, registered as usize);
    missing
        .iter()
        .map(|m| m.as_str())
        .collect::<Vec<_>>()
        .join(",")
}

/// The message of the one `ToolRoutingUnavailableWarning` a router issues.
#[wasm_bindgen]
pub fn router_warning(has_layer: bool, registered: u32) -> String {
    routing::unavailable_message(&routing::missing(has_layer, registered as usize))
}
