//! ToolIndex (SPEC 6 and 8): an index built from the texts the facade read, searched with
//! names through the batch, saved and loaded; a snapshot streamed in chunk by chunk. The
//! JavaScript half is index.js.

use super::batch;
use crate::names::{NameList, NameTable};
use crate::search::snapshot::{self, SnapshotError, HEADER};
use crate::search::{vectors, Field, Fusion, Index, Params, ToolDoc, VectorError, Vectors, LIMIT};
use alloc::{boxed::Box, rc::Rc, sync::Arc, task::Wake, vec::Vec};
use core::{cell::RefCell, future::Future, pin::Pin, task};
use js_sys::Promise;
use serde::Serialize;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

/// What `vectors::check` says of a vector, as the facade words it: 0 it fits, 1 its length
/// is wrong, 2 + i its component i is not a finite number.
fn verdict(v: &[f64], dims: Option<usize>) -> u32 {
    match vectors::check(v, dims) {
        Ok(()) => 0,
        Err(VectorError::Length { .. }) => 1,
        Err(VectorError::NotFinite { at }) => 2 + at as u32,
    }
}

/// A ToolIndex under construction: the tools' names (from the batch) and their vectors.
#[wasm_bindgen]
pub struct Indexer {
    names: NameList,
    vectors: Option<Vectors>,
}

#[wasm_bindgen]
impl Indexer {
    #[wasm_bindgen(constructor)]
    pub fn new(count: u32) -> Indexer {
        Indexer {
            names: batch::names(count),
            vectors: None,
        }
    }

    /// The first tool whose name an earlier tool has (a TypeError naming it), if any.
    pub fn duplicate(&self) -> Option<u32> {
        let mut seen = NameTable::with_capacity(self.names.len());
        (0..self.names.len() as u32).find(|&i| !seen.insert(i, |j| self.names.get(j as usize)))
    }

    /// The next tool's vector, kept if it fits (its [`verdict`]).
    pub fn vector(&mut self, v: &[f64]) -> u32 {
        let verdict = verdict(v, self.vectors.as_ref().map(Vectors::dims));
        if verdict == 0 {
            let count = self.names.len();
            let store = self.vectors.get_or_insert_with(|| {
                let mut store = Vectors::new(v.len());
                store.reserve(count);
                store
            });
            store.push(v);
        }
        verdict
    }

    /// The index: `units` and `ends` are the tools' texts back to back, each of the field
    /// coded in `fields` (`Field as u8`), tool i's ending at `tools[i]`; `namespaces` holds
    /// per tool the first tool of its namespace (`search::NONE` for none), or nothing.
    #[allow(clippy::too_many_arguments)]
    pub fn build(
        self,
        units: Vec<u16>,
        ends: Vec<u32>,
        fields: &[u8],
        tools: &[u32],
        namespaces: Vec<u32>,
        limit: Option<u32>,
        explain: bool,
    ) -> Searcher {
        let texts = NameList::from_parts(units, ends).unwrap_or_default();
        let field = |f: &u8| Field::ALL[usize::from(*f) % Field::ALL.len()];
        let flat: Vec<(Field, &[u16])> = fields.iter().map(field).zip(texts.iter()).collect();
        let mut start = 0;
        let docs: Vec<ToolDoc> = self
            .names
            .iter()
            .zip(tools)
            .map(|(name, &end)| {
                let end = (end as usize).clamp(start, flat.len());
                let texts = &flat[core::mem::replace(&mut start, end)..end];
                ToolDoc { name, texts }
            })
            .collect();
        let mut index = Index::build_with(&docs, Params::default(), explain);
        index.set_namespaces(namespaces);
        if let Some(v) = self.vectors {
            let _ = index.set_vectors(v);
        }
        Searcher::new(index, Fusion::default(), limit.unwrap_or(LIMIT))
    }
}

/// Whether `count` texts of one kind, of `units` code units in all, fit what an index reads.
#[wasm_bindgen(js_name = textsFit)]
pub fn texts_fit(count: f64, units: f64) -> bool {
    crate::names::fits_texts(count as usize, units as usize)
}

/// A ToolIndex: the ranking, the limit its searches default to, and the query's vector of
/// the last [`Searcher::vector`] that fit (what a hybrid ranking ranks with).
#[wasm_bindgen]
pub struct Searcher {
    index: Index,
    fusion: Fusion,
    limit: u32,
    query: Vec<f64>,
}

/// What `explain` answers: the hits explained, their terms by place as code units.
#[derive(Serialize)]
struct Why<'a> {
    hits: &'a [crate::search::Explained],
    terms: Vec<&'a [u16]>,
}

impl Searcher {
    fn new(index: Index, fusion: Fusion, limit: u32) -> Searcher {
        Searcher {
            index,
            fusion,
            limit,
            query: Vec::new(),
        }
    }

    /// The vector a ranking fuses in (`hybrid`: the last that fit), if any.
    fn fused(&self, hybrid: bool) -> Option<(&[f64], &Fusion)> {
        hybrid.then_some((&self.query[..], &self.fusion))
    }
}

#[wasm_bindgen]
impl Searcher {
    /// The length of the tools' vectors, if they have any.
    pub fn dimensions(&self) -> Option<u32> {
        self.index.vectors().map(|v| v.dims() as u32)
    }

    /// The query's vector for the next hybrid ranking, kept if it fits (its [`verdict`]).
    pub fn vector(&mut self, v: &[f64]) -> u32 {
        let verdict = verdict(v, self.index.vectors().map(Vectors::dims));
        if verdict == 0 {
            self.query.clear();
            self.query.extend_from_slice(v);
        }
        verdict
    }

    /// The hits for the query in the batch: tool, score, tool, score…
    pub fn search(&self, limit: Option<u32>, hybrid: bool) -> Vec<f64> {
        let (query, limit) = (batch::names(1), limit.unwrap_or(self.limit) as usize);
        let mut found = Vec::new();
        match self.fused(hybrid) {
            Some((v, fusion)) => self
                .index
                .hybrid(query.get(0), v, fusion, limit, &mut found),
            None => self.index.search(query.get(0), limit, &mut found),
        }
        found
            .iter()
            .flat_map(|h| [f64::from(h.tool), h.score])
            .collect()
    }

    /// Whether the message in the batch has a word to rank (else `embed` is not called).
    pub fn worded(&self) -> bool {
        self.index.has_word(batch::names(1).get(0))
    }

    /// The tools of `entries` for the message in the batch (and the history's last after it).
    pub fn entries(&self, count: u32, hybrid: bool) -> Vec<u32> {
        let texts = batch::names(count);
        let history = (texts.len() > 1).then(|| texts.get(1));
        let mut out = Vec::new();
        let (vector, limit) = (self.fused(hybrid), self.limit as usize);
        self.index
            .entries(texts.get(0), vector, history, limit, &mut out);
        out
    }

    /// The hits of `search` explained (serde-wasm-bindgen: a structured value off the
    /// turn's path), names and terms by place; undefined for an index that keeps no counts.
    pub fn explain(&self, limit: Option<u32>, hybrid: bool) -> JsValue {
        let limit = limit.unwrap_or(self.limit) as usize;
        let query = batch::names(1);
        let Some(e) = self.index.explain(query.get(0), self.fused(hybrid), limit) else {
            return JsValue::UNDEFINED;
        };
        let terms = e.terms.iter().map(|&t| self.index.term(t)).collect();
        let serializer = serde_wasm_bindgen::Serializer::new().serialize_missing_as_null(true);
        let why = Why {
            hits: &e.hits,
            terms,
        }
        .serialize(&serializer);
        why.unwrap_or(JsValue::UNDEFINED)
    }

    /// The snapshot of the index, with the `count` names in the batch.
    pub fn save(&self, count: u32) -> Vec<u8> {
        snapshot::save(
            &self.index,
            batch::names(count).iter(),
            &self.fusion,
            self.limit,
        )
    }

    /// The index of a snapshot's bytes (its names handed to `to`), or none when `to` was
    /// told why not; `limit` instead of the saved one if given.
    pub fn load(to: &Load, bytes: Vec<u8>, limit: Option<u32>) -> Option<Searcher> {
        match snapshot::load(bytes) {
            Ok(s) => {
                to.named(&s.name_units, &s.name_ends);
                Some(Searcher::new(s.index, s.fusion, limit.unwrap_or(s.limit)))
            }
            Err(e) => refuse(to, e),
        }
    }
}

/// Why a load was refused (`Load.refused`).
#[wasm_bindgen]
#[derive(Clone, Copy)]
pub enum Refused {
    /// Not a snapshot of this version, whole and unaltered (a TypeError or RangeError).
    Type,
    Range,
    /// A streamed snapshot announces more bytes than the module can hold.
    Announced,
    /// A stream holds more bytes than the snapshot they start with.
    Longer,
}

#[wasm_bindgen]
extern "C" {
    /// A load's JavaScript half (index.js `Load`, and `Reading` for a stream).
    #[derive(Clone)]
    pub type Load;
    /// The loaded index's names back to back, and where each ends.
    #[wasm_bindgen(method)]
    fn named(this: &Load, units: &[u16], ends: &[u32]);
    /// The bytes were refused: a stream's announced or actual length `n`, or the words of a
    /// snapshot's fault (`SnapshotError::words`).
    #[wasm_bindgen(method)]
    fn refused(this: &Load, why: Refused, n: f64, units: &[u16]);
    /// A promise of the next chunk's length (undefined at the end); never rejects: what
    /// fails ends the load in JavaScript, and this promise never settles.
    #[wasm_bindgen(method)]
    fn next(this: &Load) -> Promise;
    /// Copies the chunk from byte `from` into `to`.
    #[wasm_bindgen(method)]
    fn copy(this: &Load, from: u32, to: &mut [u8]);
}

/// Tells `to` why a snapshot is refused, in the core's words (the numbers in decimal).
fn refuse(to: &Load, e: SnapshotError) -> Option<Searcher> {
    fn decimal(n: u64, out: &mut Vec<u16>) {
        if n >= 10 {
            decimal(n / 10, out);
        }
        out.push(u16::from(b'0') + (n % 10) as u16);
    }
    let (texts, numbers, range) = e.words();
    let mut units = Vec::new();
    for (i, text) in texts.iter().enumerate() {
        units.extend(text.encode_utf16());
        if let Some(Some(n)) = numbers.get(i) {
            decimal(*n, &mut units);
        }
    }
    to.refused(
        if range { Refused::Range } else { Refused::Type },
        0.0,
        &units,
    );
    None
}

/// The most a streamed snapshot may announce (1 GiB): decoding it needs about as much again,
/// within the 4 GiB a wasm32 module may grow to.
const MOST: u64 = 1 << 30;

/// A load from a stream under way: a future that awaits each read (a wasm-bindgen-futures
/// `JsFuture`), polled by index.js through the door at once and each time the read it
/// waits for settled. The stream's `Reading` is lent for the length of a poll only: held
/// between polls (a root of the module's), it would keep the whole load alive through its
/// own promises, so a load whose stream stalls and is dropped is freed at garbage collection.
#[wasm_bindgen]
pub struct Loading {
    future: Pin<Box<dyn Future<Output = Option<Searcher>>>>,
    lent: Rc<RefCell<Option<Load>>>,
}

/// Nothing to wake: index.js polls again once the read awaited settled.
struct Noop;

impl Wake for Noop {
    fn wake(self: Arc<Self>) {}
}

#[wasm_bindgen]
impl Loading {
    #[wasm_bindgen(constructor)]
    pub fn new(limit: Option<u32>) -> Loading {
        let lent = Rc::default();
        let future = Box::pin(read_all(Rc::clone(&lent), limit));
        Loading { future, lent }
    }

    /// Runs the load as far as it goes: the index, or none while a read is awaited or once
    /// `reading` was told why not.
    pub fn poll(&mut self, reading: Load) -> Option<Searcher> {
        *self.lent.borrow_mut() = Some(reading);
        let waker = task::Waker::from(Arc::new(Noop));
        let polled = self
            .future
            .as_mut()
            .poll(&mut task::Context::from_waker(&waker));
        self.lent.borrow_mut().take();
        match polled {
            task::Poll::Ready(index) => index,
            task::Poll::Pending => None,
        }
    }
}

/// Reads every chunk into one buffer and decodes it: the first [`HEADER`] bytes, then the
/// whole length they announce, reserved at once (within [`MOST`] and what memory allows),
/// and never more.
async fn read_all(lent: Rc<RefCell<Option<Load>>>, limit: Option<u32>) -> Option<Searcher> {
    let to = || {
        lent.borrow()
            .clone()
            .unwrap_or_else(|| JsValue::UNDEFINED.unchecked_into())
    };
    let mut head = [0u8; HEADER];
    let (mut got, mut total, mut bytes) = (0, 0, Vec::new());
    loop {
        // (A statement of its own: no `Load` is held across the await.)
        let next = JsFuture::from(to().next());
        let Some(n) = next.await.ok()?.as_f64() else {
            break;
        };
        let (n, mut at) = (n as usize, 0);
        if got < HEADER {
            at = (HEADER - got).min(n);
            to().copy(0, &mut head[got..got + at]);
            got += at;
            if got < HEADER {
                continue;
            }
            let announced = match snapshot::declared(&head) {
                Ok(announced) => announced,
                Err(e) => return refuse(&to(), e),
            };
            total = announced.min(MOST) as usize;
            if announced > MOST || bytes.try_reserve_exact(total).is_err() {
                to().refused(Refused::Announced, announced as f64, &[]);
                return None;
            }
            bytes.extend_from_slice(&head);
        }
        let len = bytes.len();
        if n - at > total - len {
            to().refused(Refused::Longer, total as f64, &[]);
            return None;
        }
        // Within the room reserved: no reallocation, no second copy.
        bytes.resize(len + n - at, 0);
        to().copy(at as u32, &mut bytes[len..]);
    }
    if got < HEADER {
        bytes.extend_from_slice(&head[..got]);
    }
    Searcher::load(&to(), bytes, limit)
}
