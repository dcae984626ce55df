//! `Palette`: a registered palette indexed once; the turn, the gate and binding.

use wasm_bindgen::prelude::*;

use super::scratch::Buffers;
use crate::names::{Name, NameSet, Names};
use crate::policy::{Gate, PolicySet};
use crate::routing::{self, Outcome, Reason, Retrieval, Row};
use alloc::vec::Vec;

#[wasm_bindgen]
pub struct Palette {
    set: NameSet,
}

/// Splits the input buffers: `count` names whose units start at `units[from..]` and
/// whose ends (relative to `from`) are `words[at..at + count]`.
fn names<'a>(
    units: &'a [u16],
    words: &'a [u32],
    from: usize,
    at: usize,
    count: usize,
) -> Option<Names<'a>> {
    Names::new(units.get(from..)?, words.get(at..at.checked_add(count)?)?)
}

/// Builds a palette from `count` names in the input buffers; `undefined` when the
/// buffers do not hold them.
#[wasm_bindgen]
pub fn palette(b: &Buffers, count: u32) -> Option<Palette> {
    b.read(|units, words| {
        let list = names(units, words, 0, 0, count as usize)?.to_list();
        Some(Palette {
            set: NameSet::new(list),
        })
    })
}

/// What the retrieval came to; the codes the package's JavaScript passes to `route`.
const ROWS: u8 = 0;
const ROWS_NULL: u8 = 1;
const NO_LAYER: u8 = 2;
const FAILED: u8 = 3;
const TIMED_OUT: u8 = 4;

/// Row flags: inactive, active without a candidate, active with one.
const INACTIVE: u32 = 0;
const NO_CANDIDATE: u32 = 1;

#[wasm_bindgen]
impl Palette {
    /// How many distinct names.
    pub fn distinct(&self) -> u32 {
        self.set.distinct() as u32
    }

    /// Decides a turn. Input: units `[detail (detail_len)][candidates]`, words
    /// `[flag per row (rows)][candidate ends (candidates)]`. Answer:
    /// `[len, rule, nNames, ...nameIndices, nSpans, ...(candidate, start, end), ...reasonUnits]`
    /// with `rule` 0 for routed, else the refusal (1, 2 = 2a, 3 = 2b, 4, 5, 6 = rule 5);
    /// `[1]` when the buffers were malformed (a bug in the package's JavaScript).
    pub fn route(
        &self,
        b: &mut Buffers,
        retrieval: u8,
        detail_len: u32,
        rows: u32,
        candidates: u32,
    ) -> u32 {
        b.answer(|units, words, out| {
            let (detail_len, rows, count) =
                (detail_len as usize, rows as usize, candidates as usize);
            let (Some(detail), Some(flags), Some(candidates)) = (
                units.get(..detail_len),
                words.get(..rows),
                names(units, words, detail_len, rows, count),
            ) else {
                return;
            };
            let mut next = 0;
            let mut batch = Vec::with_capacity(rows);
            for &flag in flags {
                batch.push(match flag {
                    INACTIVE => Row::Inactive,
                    NO_CANDIDATE => Row::NoCandidate,
                    _ if next < candidates.len() => {
                        next += 1;
                        Row::Candidate(candidates.get(next - 1))
                    }
                    _ => return,
                });
            }
            let retrieval = match retrieval {
                ROWS => Retrieval::Rows(Some(&batch)),
                ROWS_NULL => Retrieval::Rows(None),
                NO_LAYER => Retrieval::NoLayer,
                FAILED => Retrieval::Failed(detail),
                TIMED_OUT => Retrieval::TimedOut(detail),
                _ => return,
            };
            encode(routing::resolve(&self.set, retrieval), out);
        })
    }
}

fn encode(outcome: Outcome, out: &mut Vec<u32>) {
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
    out.push(rule);
    out.push(names.len() as u32);
    out.extend_from_slice(&names);
    out.push(spans.len() as u32);
    for s in spans {
        out.extend_from_slice(&[s.candidate, s.start, s.end]);
    }
    out.extend(reason.into_iter().map(u32::from));
}

/// The gate. Input: units `[original][target][palette names]`, words: the palette's ends.
/// Whether a call redirected to `target` must be dropped.
#[wasm_bindgen]
pub fn gate_drops(
    b: &Buffers,
    original_len: u32,
    target_len: u32,
    palette: u32,
    by_policy: bool,
) -> bool {
    b.read(|units, words| {
        let (o, t) = (
            original_len as usize,
            original_len as usize + target_len as usize,
        );
        let (Some(original), Some(target), Some(allowed)) = (
            units.get(..o),
            units.get(o..t),
            names(units, words, t, 0, palette as usize),
        ) else {
            return false;
        };
        PolicySet::gate_drops(&Gate::Listed(allowed), original, target, by_policy)
    })
}

/// Binding the palette. Input: units `[palette names][tool names]`, words
/// `[palette ends][tool ends (relative to the tool names)]`. Answer: `[len, ...indices
/// of the tools to keep, in their order]`.
#[wasm_bindgen]
pub fn keep(b: &mut Buffers, palette: u32, tools: u32) -> u32 {
    b.answer(|units, words, out| {
        let (p, t) = (palette as usize, tools as usize);
        let Some(allowed) = names(units, words, 0, 0, p) else {
            return;
        };
        let from = if p == 0 { 0 } else { words[p - 1] as usize };
        let Some(tools) = names(units, words, from, p, t) else {
            return;
        };
        let set = NameSet::new(allowed.to_list());
        out.extend((0..t as u32).filter(|&i| set.contains(tools.get(i as usize))));
    })
}

/// What a `ToolRouter` with or without a procedural layer and with `registered`
/// distinct names lacks. Answer: `[len, ...units]` of nothing when it can serve, else of
/// the missing prerequisites joined by "," then "\n" then the one warning's message.
#[wasm_bindgen]
pub fn router_missing(b: &mut Buffers, has_layer: bool, registered: u32) -> u32 {
    b.answer(|_, _, out| {
        let missing = routing::missing(has_layer, registered as usize);
        if missing.is_empty() {
            return;
        }
        for (i, m) in missing.iter().enumerate() {
            if i > 0 {
                out.push(u32::from(b','));
            }
            out.extend(m.as_str().bytes().map(u32::from));
        }
        out.push(u32::from(b'\n'));
        out.extend(
            routing::unavailable_message(&missing)
                .bytes()
                .map(u32::from),
        );
    })
}

/// Reads one name from the start of the input buffer.
pub(super) fn first_name(units: &[u16], len: u32) -> &Name {
    units.get(..len as usize).unwrap_or(&[])
}
