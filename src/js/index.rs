//! ToolIndex (SPEC 6, 8): an index built from the texts the facade read, searched with names
//! through the batch, saved, and loaded from bytes or a stream. Its JavaScript half: index.js.

use super::batch;
use crate::names::{fits_texts, NameList, NameTable};
use crate::search::snapshot::{self, Incoming, SnapshotError};
use crate::search::vectors::{verdict, Vectors};
use crate::search::{Fusion, Index, LIMIT};
use alloc::{sync::Arc, task::Wake, vec::Vec};
use core::task::{Context, Poll, Waker};
use core::{future::Future, pin::Pin};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

/// An index under construction: the tools' names, their vectors, the limit its searches
/// default to and whether it explains.
#[wasm_bindgen]
pub struct Indexer(NameList, Option<Vectors>, Option<u32>, bool);

#[wasm_bindgen]
impl Indexer {
    #[wasm_bindgen(constructor)]
    pub fn new(count: u32, limit: Option<u32>, explain: bool) -> Indexer {
        Indexer(batch::names(count), None, limit, explain)
    }

    /// The first tool whose name an earlier one has (SPEC 6: a TypeError naming it).
    pub fn duplicate(&self) -> Option<u32> {
        let mut seen = NameTable::with_capacity(self.0.len());
        (0..self.0.len() as u32).find(|&i| !seen.insert(i, |j| self.0.get(j as usize)))
    }

    /// The next tool's vector, kept if it fits (its `vectors::verdict`).
    pub fn vector(&mut self, v: &[f64]) -> u32 {
        let (verdict, n) = (verdict(v, self.1.as_ref().map(Vectors::dims)), self.0.len());
        if verdict == 0 {
            let new = || Vectors::new(v.len()).reserved(n);
            self.1.get_or_insert_with(new).push(v);
        }
        verdict
    }

    /// The index of the tools' texts (`units` ending at `ends`) and per tool the first tool
    /// of its namespace (`search::NONE`: none), or none at all.
    pub fn build(self, units: Vec<u16>, ends: Vec<u32>, parts: &[u32], ns: Vec<u32>) -> Searcher {
        let texts = NameList::from_parts(units, ends).unwrap_or_default();
        let mut index = Index::of_texts(&self.0, &texts, parts, self.3);
        index.set_namespaces(ns);
        if let Some(vectors) = self.1 {
            let _ = index.set_vectors(vectors);
        }
        Searcher::new(index, Fusion::default(), self.2.unwrap_or(LIMIT))
    }

    /// Whether `count` texts of one part, `units` code units in all, are within what an index reads.
    pub fn fits(count: f64, units: f64) -> bool {
        fits_texts(count as usize, units as usize)
    }
}

/// An index, how it fuses a query vector in, the default limit, the last query vector.
#[wasm_bindgen]
pub struct Searcher(Index, Fusion, u32, Vec<f64>);

impl Searcher {
    fn new(index: Index, fusion: Fusion, limit: u32) -> Searcher {
        Searcher(index, fusion, limit, Vec::new())
    }

    /// The query vector when `hybrid`, and how to fuse it in.
    fn fused(&self, hybrid: bool) -> Option<(&[f64], &Fusion)> {
        hybrid.then_some((&self.3[..], &self.1))
    }
}

#[wasm_bindgen]
impl Searcher {
    pub fn dimensions(&self) -> Option<u32> {
        self.0.vectors().map(|v| v.dims() as u32)
    }

    /// The query's vector for the next hybrid ranking, kept if it fits (its `verdict`).
    pub fn vector(&mut self, v: &[f64]) -> u32 {
        let verdict = verdict(v, self.0.vectors().map(Vectors::dims));
        if verdict == 0 {
            self.3 = v.to_vec();
        }
        verdict
    }

    /// The hits for the query in the batch: tool, score, tool, score…
    pub fn search(&self, limit: Option<u32>, hybrid: bool) -> Vec<f64> {
        let (query, mut out) = (batch::names(1), Vec::new());
        let limit = limit.unwrap_or(self.2) as usize;
        self.0
            .ranked(query.get(0), self.fused(hybrid), limit, &mut out);
        out.iter().flat_map(|h| [h.tool.into(), h.score]).collect()
    }

    /// Whether the message in the batch has a word to rank (else `embed` is not asked).
    pub fn worded(&self) -> bool {
        self.0.has_word(batch::names(1).get(0))
    }

    /// The tools of `entries` for the message in the batch (and the history's last after it).
    pub fn entries(&self, count: u32, hybrid: bool) -> Vec<u32> {
        let (texts, mut out) = (batch::names(count), Vec::new());
        let history = (texts.len() > 1).then(|| texts.get(1));
        let (vector, limit) = (self.fused(hybrid), self.2 as usize);
        self.0
            .entries(texts.get(0), vector, history, limit, &mut out);
        out
    }

    /// The hits of `search` explained to `to` (false: the index keeps no counts for it).
    pub fn explain(&self, to: &Explaining, limit: Option<u32>, hybrid: bool) -> bool {
        let (query, limit) = (batch::names(1), limit.unwrap_or(self.2) as usize);
        let Some(e) = self.0.explain(query.get(0), self.fused(hybrid), limit) else {
            return false;
        };
        let mut terms = NameList::default();
        e.terms.iter().for_each(|&t| terms.push(self.0.term(t)));
        let (units, ends) = terms.parts();
        to.terms(units, ends);
        for h in &e.hits {
            to.hit(h.tool, h.score, h.rank);
            if let Some(v) = &h.vector {
                to.vector(v.similarity, v.rank);
            }
            if let Some(f) = &h.fused {
                to.fused(f.lexical, f.vector);
            }
            if let Some(l) = &h.lexical {
                to.lexical(l.score, l.rank);
                for field in &l.fields {
                    to.field(field.field as u8, field.score);
                    field
                        .terms
                        .iter()
                        .for_each(|t| to.term(t.term, t.score, t.count));
                }
            }
        }
        true
    }

    /// The snapshot of the index, with the `count` names in the batch.
    pub fn save(&self, count: u32) -> Vec<u8> {
        snapshot::save(&self.0, batch::names(count).iter(), &self.1, self.2)
    }

    /// The index of a snapshot (its names to `to`), or none once `to` was told why not.
    pub fn load(to: &Load, bytes: Vec<u8>, limit: Option<u32>) -> Option<Searcher> {
        let s = snapshot::load(bytes).map_err(|e| refuse(to, e)).ok()?;
        to.named(&s.name_units, &s.name_ends);
        Some(Searcher::new(s.index, s.fusion, limit.unwrap_or(s.limit)))
    }
}

#[wasm_bindgen]
extern "C" {
    /// An explanation as the facade builds it (index.js): the terms, then hits and parts.
    pub type Explaining;
    #[wasm_bindgen(method)]
    fn terms(this: &Explaining, units: &[u16], ends: &[u32]);
    #[wasm_bindgen(method)]
    fn hit(this: &Explaining, tool: u32, score: f64, rank: u32);
    #[wasm_bindgen(method)]
    fn lexical(this: &Explaining, score: f64, rank: u32);
    #[wasm_bindgen(method)]
    fn vector(this: &Explaining, similarity: f64, rank: u32);
    #[wasm_bindgen(method)]
    fn fused(this: &Explaining, lexical: f64, vector: f64);
    /// A field (its place in wire.js `FIELDS`) of the last lexical hit.
    #[wasm_bindgen(method)]
    fn field(this: &Explaining, field: u8, score: f64);
    #[wasm_bindgen(method)]
    fn term(this: &Explaining, term: u32, score: f64, count: u32);

    /// A load's JavaScript half (index.js `Load`).
    #[derive(Clone)]
    pub type Load;
    /// The names of the index loaded, back to back, and where each ends.
    #[wasm_bindgen(method)]
    fn named(this: &Load, units: &[u16], ends: &[u32]);
    /// Why the bytes are refused: a RangeError (`range`) or a TypeError saying `units`.
    #[wasm_bindgen(method)]
    fn refused(this: &Load, range: bool, units: &[u16]);
    /// A promise of the next chunk's length (undefined at the end); rejected, the load ends.
    #[wasm_bindgen(method)]
    fn next(this: &Load) -> js_sys::Promise;
    /// Copies the chunk read, from its byte `from`, into `to`.
    #[wasm_bindgen(method)]
    fn copy(this: &Load, from: u32, to: &mut [u8]);
}

fn refuse(to: &Load, e: SnapshotError) -> Option<Searcher> {
    to.refused(e.words().2, &e.units());
    None
}

/// A load from a stream: the chunks taken in, the read awaited (a `JsFuture`), the limit;
/// polled through the door, it holds no JavaScript value but that future (a stalled load
/// is freed once dropped).
#[wasm_bindgen]
pub struct Loading(Incoming, Option<JsFuture>, Option<u32>);

/// Nothing to wake: index.js polls once the read awaited settled.
struct Noop;

impl Wake for Noop {
    fn wake(self: Arc<Self>) {}
}

#[wasm_bindgen]
impl Loading {
    #[wasm_bindgen(constructor)]
    pub fn new(limit: Option<u32>) -> Loading {
        Loading(Incoming::default(), None, limit)
    }

    /// The load as far as `to`'s reads go: the index at the end, or none (a read awaited, or
    /// `to` told why not).
    pub fn poll(&mut self, to: Load) -> Option<Searcher> {
        let waker = Waker::from(Arc::new(Noop));
        loop {
            let next = self.1.get_or_insert_with(|| JsFuture::from(to.next()));
            let Poll::Ready(read) = Pin::new(next).poll(&mut Context::from_waker(&waker)) else {
                return None;
            };
            self.1 = None;
            let Some(n) = read.ok()?.as_f64() else {
                return Searcher::load(&to, core::mem::take(&mut self.0).bytes(), self.2);
            };
            let head = self.0.head(n as usize);
            let at = head.len();
            to.copy(0, head);
            match self.0.body(n as usize - at) {
                Ok(body) => to.copy(at as u32, body),
                Err(e) => return refuse(&to, e),
            }
        }
    }
}
