//! ToolIndex (SPEC 6, 8): an index built from the texts the facade read, searched with names
//! through the batch, saved, and loaded from bytes or a stream. Its JavaScript half: index.js.
//! An index is a record of the heap that no query changes (a query's scratch is its own).

use super::batch;
use crate::names::{fits_texts, NameList, NameTable};
use crate::search::snapshot::{self, Incoming, SnapshotError};
use crate::search::vectors::{verdict, Vectors};
use crate::search::{Fusion, Index, LIMIT};
use alloc::{boxed::Box, sync::Arc, task::Wake, vec::Vec};
use core::task::{Context, Poll, Waker};
use core::{future::Future, pin::Pin};
use tool_palette_heap as heap;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

/// An index, how it fuses a query vector in, and the limit its searches default to.
pub(crate) struct Searcher {
    pub(crate) index: Index,
    pub(crate) fusion: Fusion,
    pub(crate) limit: u32,
}

/// A `ToolIndex`'s state: being built (its names, the vectors given so far), then ready.
/// The build happens in the slot's own memory: should it never finish, the facade frees
/// the slot, and all of it with it.
pub(crate) enum Ix {
    Building {
        names: NameList,
        vectors: Option<Vectors>,
        limit: Option<u32>,
        explain: bool,
    },
    Ready(Box<Searcher>),
}

#[wasm_bindgen(raw_module = "./calls.js")]
extern "C" {
    // An explanation as the facade builds it (index.js `Explaining`): the terms, then hits
    // and their parts.
    fn terms(units: &[u16], ends: &[u32]);
    fn hit(tool: u32, score: f64, rank: u32);
    fn lexical(score: f64, rank: u32);
    fn similar(similarity: f64, rank: u32);
    fn fused(lexical: f64, vector: f64);
    /// A field (its place in wire.js `FIELDS`) of the last lexical hit.
    fn field(field: u8, score: f64);
    fn term(term: u32, score: f64, count: u32);
    // A load's answer (index.js `Load`).
    /// The names of the index loaded, back to back, and where each ends.
    fn named(units: &[u16], ends: &[u32]);
    /// Why the bytes are refused: a RangeError (`range`) or a TypeError saying `units`.
    fn refused(range: bool, units: &[u16]);
}

/// An index to be built into `slot`, of the `count` tools named in the batch; the first
/// tool whose name an earlier one has (SPEC 6: a TypeError naming it), if one does
/// (`u32::MAX`: the memory ran out).
#[wasm_bindgen]
pub fn indexer(slot: u32, count: u32, limit: Option<u32>, explain: bool) -> Option<u32> {
    let placed = heap::build(slot, false, || {
        Some(Ix::Building {
            names: batch::names(count),
            vectors: None,
            limit,
            explain,
        })
    });
    if !placed {
        return Some(u32::MAX);
    }
    heap::with(slot, |ix: &Ix| match ix {
        Ix::Building { names, .. } => {
            let mut seen = NameTable::with_capacity(names.len());
            (0..names.len() as u32).find(|&i| !seen.insert(i, |j| names.get(j as usize)))
        }
        Ix::Ready(_) => None,
    })
    .flatten()
}

/// The next tool's vector, kept if it fits (its `vectors::verdict`).
#[wasm_bindgen]
pub fn vector(slot: u32, v: Vec<f64>) -> u32 {
    heap::within(slot, |ix: &mut Ix| match ix {
        Ix::Building { names, vectors, .. } => {
            let found = verdict(&v, vectors.as_ref().map(Vectors::dims));
            if found == 0 {
                let n = names.len();
                vectors
                    .get_or_insert_with(|| Vectors::new(v.len()).reserved(n))
                    .push(&v);
            }
            found
        }
        Ix::Ready(_) => u32::MAX,
    })
    .unwrap_or(u32::MAX)
}

/// Builds the index of the tools' texts (`units` ending at `ends`, four parts per tool
/// ending at `parts`) and per tool the first tool of its namespace (`ns`: `search::NONE`,
/// wire.js `NO_NAMESPACE`, for none; empty: no namespaces). False when the slot was not being built.
#[wasm_bindgen]
pub fn finish(slot: u32, units: Vec<u16>, ends: Vec<u32>, parts: Vec<u32>, ns: Vec<u32>) -> bool {
    finish_with(slot, LIMIT, |names, explain| {
        let texts = NameList::from_parts(units, ends).unwrap_or_default();
        let mut index = Index::of_texts(names, &texts, &parts, explain);
        heap::adopt(&ns);
        index.set_namespaces(ns);
        index
    })
}

/// Puts the index `make` builds (from the names and whether to explain) in the slot being
/// built, with the vectors given meanwhile and the limit (`limit` by default). False when
/// the slot was not being built.
pub(crate) fn finish_with(
    slot: u32,
    limit: u32,
    make: impl FnOnce(&NameList, bool) -> Index,
) -> bool {
    heap::within(slot, |ix: &mut Ix| {
        let Ix::Building {
            names,
            vectors,
            limit: given,
            explain,
        } = ix
        else {
            return false;
        };
        let mut index = make(names, *explain);
        if let Some(vectors) = vectors.take() {
            let _ = index.set_vectors(vectors);
        }
        let limit = given.unwrap_or(limit);
        *ix = Ix::Ready(Box::new(Searcher {
            index,
            fusion: Fusion::default(),
            limit,
        }));
        true
    })
    .unwrap_or(false)
}

/// `f` on the index in `slot`, once built.
pub(crate) fn ready<R>(slot: u32, f: impl FnOnce(&Searcher) -> R) -> Option<R> {
    heap::with(slot, |ix: &Ix| match ix {
        Ix::Ready(s) => Some(f(s)),
        Ix::Building { .. } => None,
    })
    .flatten()
}

/// Whether `count` texts of one part, `units` code units in all, are within what an index reads.
#[wasm_bindgen]
pub fn texts_fit(count: f64, units: f64) -> bool {
    fits_texts(count as usize, units as usize)
}

/// The dimensions of the index's vectors, if it has any.
#[wasm_bindgen]
pub fn dimensions(slot: u32) -> Option<u32> {
    ready(slot, |s| s.index.vectors().map(|v| v.dims() as u32)).flatten()
}

/// Whether `v` fits as a query vector of the index (0), else its `verdict`.
#[wasm_bindgen]
pub fn fitting(slot: u32, v: Vec<f64>) -> u32 {
    ready(slot, |s| verdict(&v, s.index.vectors().map(Vectors::dims))).unwrap_or(0)
}

/// The query vector, if given and the index has vectors, with how to fuse it in.
pub(crate) fn fused_in<'a>(
    s: &'a Searcher,
    vector: &'a Option<Vec<f64>>,
) -> Option<(&'a [f64], &'a Fusion)> {
    vector.as_deref().map(|v| (v, &s.fusion))
}

/// The hits for the query in the batch: tool, score, tool, score…
#[wasm_bindgen]
pub fn search(slot: u32, limit: Option<u32>, vector: Option<Vec<f64>>) -> Vec<f64> {
    let (query, mut out) = (batch::names(1), Vec::new());
    ready(slot, |s| {
        let limit = limit.unwrap_or(s.limit) as usize;
        s.index
            .ranked(query.get(0), fused_in(s, &vector), limit, &mut out);
    });
    out.iter().flat_map(|h| [h.tool.into(), h.score]).collect()
}

/// Whether the message in the batch has a word to rank (else `embed` is not asked).
#[wasm_bindgen]
pub fn has_word() -> bool {
    crate::search::has_word(batch::names(1).get(0))
}

/// The tools of `entries` for the message in the batch (and the history's last after it),
/// with the tools the run's model called (`called`, indices of the index's tools).
#[wasm_bindgen]
pub fn entries(slot: u32, count: u32, vector: Option<Vec<f64>>, called: Vec<u32>) -> Vec<u32> {
    let (texts, mut out) = (batch::names(count), Vec::new());
    let history = (texts.len() > 1).then(|| texts.get(1));
    ready(slot, |s| {
        let limit = s.limit as usize;
        let (query, fused) = (texts.get(0), fused_in(s, &vector));
        s.index
            .entries(query, fused, history, &called, limit, &mut out);
    });
    out
}

/// The hits of `search` explained to index.js (false: the index keeps no counts for it).
#[wasm_bindgen]
pub fn explain(slot: u32, limit: Option<u32>, vector: Option<Vec<f64>>) -> bool {
    let query = batch::names(1);
    ready(slot, |s| {
        let limit = limit.unwrap_or(s.limit) as usize;
        let Some(e) = s.index.explain(query.get(0), fused_in(s, &vector), limit) else {
            return false;
        };
        let mut words = NameList::default();
        e.terms.iter().for_each(|&t| words.push(s.index.term(t)));
        let (units, ends) = words.parts();
        terms(units, ends);
        for h in &e.hits {
            hit(h.tool, h.score, h.rank);
            if let Some(v) = &h.vector {
                similar(v.similarity, v.rank);
            }
            if let Some(f) = &h.fused {
                fused(f.lexical, f.vector);
            }
            if let Some(l) = &h.lexical {
                lexical(l.score, l.rank);
                for part in &l.fields {
                    field(part.field as u8, part.score);
                    part.terms
                        .iter()
                        .for_each(|t| term(t.term, t.score, t.count));
                }
            }
        }
        true
    })
    .unwrap_or(false)
}

/// The snapshot of the index, with the `count` names in the batch.
#[wasm_bindgen]
pub fn save(slot: u32, count: u32) -> Vec<u8> {
    let names = batch::names(count);
    ready(slot, |s| {
        snapshot::save(&s.index, names.iter(), &s.fusion, s.limit)
    })
    .unwrap_or_default()
}

/// Loads into `slot` the index of a snapshot (its names handed to index.js), or tells
/// index.js why not (false).
#[wasm_bindgen]
pub fn load(slot: u32, bytes: Vec<u8>, limit: Option<u32>) -> bool {
    load_into(slot, bytes, limit)
}

fn load_into(slot: u32, bytes: Vec<u8>, limit: Option<u32>) -> bool {
    let mut why = None;
    let placed = heap::build(slot, false, || {
        // (The bytes are the index's: its vectors stay where the snapshot held them.)
        heap::adopt(&bytes);
        let s = snapshot::load(bytes).map_err(|e| why = Some(e)).ok()?;
        named(&s.name_units, &s.name_ends);
        Some(Ix::Ready(Box::new(Searcher {
            index: s.index,
            fusion: s.fusion,
            limit: limit.unwrap_or(s.limit),
        })))
    });
    match why {
        Some(e) => refuse(e),
        None => placed,
    }
}

pub(crate) fn refuse(e: SnapshotError) -> bool {
    refused(e.words().2, &e.units());
    false
}

#[wasm_bindgen]
extern "C" {
    /// A stream's reader, as index.js `Load` holds it.
    pub type Load;
    /// A promise of the next chunk's length (undefined at the end); rejected, the load ends.
    #[wasm_bindgen(method)]
    fn next(this: &Load) -> js_sys::Promise;
    /// Copies the chunk read, from its byte `from`, into `to`.
    #[wasm_bindgen(method)]
    fn copy(this: &Load, from: u32, to: &mut [u8]);
}

/// A load from a stream: the chunks taken in, the read awaited (a `JsFuture`), the limit.
/// It holds JavaScript values, so it is polled only from a settled promise's turn (index.js
/// `streamed`: never on a caller's stack, which could run out inside it), its memory its own.
struct Loading {
    incoming: Incoming,
    read: Option<JsFuture>,
    limit: Option<u32>,
}

/// Nothing to wake: index.js polls once the read awaited settled.
struct Noop;

impl Wake for Noop {
    fn wake(self: Arc<Self>) {}
}

/// A load from a stream into `slot`.
#[wasm_bindgen]
pub fn loading(slot: u32, limit: Option<u32>) -> bool {
    heap::build(slot, true, || {
        Some(Loading {
            incoming: Incoming::default(),
            read: None,
            limit,
        })
    })
}

/// The load in `slot` as far as `to`'s reads go: at the end, the index loaded into
/// `target` (true) or index.js told why not; false meanwhile (a read awaited).
#[wasm_bindgen]
pub fn poll(slot: u32, target: u32, to: Load) -> bool {
    let waker = Waker::from(Arc::new(Noop));
    let finished = heap::within(slot, |l: &mut Loading| loop {
        let next = l.read.get_or_insert_with(|| JsFuture::from(to.next()));
        let Poll::Ready(read) = Pin::new(next).poll(&mut Context::from_waker(&waker)) else {
            return None;
        };
        l.read = None;
        let Some(n) = read.ok()?.as_f64() else {
            return Some(Ok(core::mem::take(&mut l.incoming).bytes()));
        };
        let head = l.incoming.head(n as usize);
        let at = head.len();
        to.copy(0, head);
        match l.incoming.body(n as usize - at) {
            Ok(body) => to.copy(at as u32, body),
            Err(e) => return Some(Err(e)),
        }
    });
    let limit = heap::with(slot, |l: &Loading| l.limit).flatten();
    match finished.flatten() {
        Some(Ok(bytes)) => load_into(target, bytes, limit),
        Some(Err(e)) => refuse(e),
        None => false,
    }
}
