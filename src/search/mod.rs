//! Tool search: ranks tools against a query with BM25F over identifier-aware tokens.
//!
//! Pure computation: no I/O, no bindings. Texts are UTF-16 code units, as JavaScript
//! strings are (unpaired surrogates included). The index is built once; a query
//! accumulates scores over the postings of its terms only, in scratch of its own.
//! See `bench/tool-search/DESIGN.md` for the design and what each part measured.

mod explain;
mod math;
pub mod snapshot;
mod stem;
mod terms;
mod tokenize;
pub mod vectors;

use crate::names::NameList;
use alloc::{vec, vec::Vec};
pub use explain::{Explained, Explanation, FieldParts, Fused, Lexical, Similarity, TermPart};
use terms::Terms;
pub use vectors::{VectorError, Vectors};

/// Where a text comes from in a tool's definition (serialized as an explanation names it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    /// The tool's name (`ToolDoc::name` is indexed as this field; more name texts may be added).
    Name = 0,
    Description = 1,
    /// A property name of the parameter schema (nested ones too).
    ParamName = 2,
    /// A property's description.
    ParamDescription = 3,
    /// A property's string `enum` values.
    ParamEnum = 4,
}

pub const FIELDS: usize = 5;

/// Whether `query` holds a word (a letter or a digit): a blank query ranks nothing.
pub fn has_word(query: &[u16]) -> bool {
    tokenize::has_word(query)
}

impl Field {
    /// The fields, by `Field as usize`.
    pub const ALL: [Field; FIELDS] = [
        Field::Name,
        Field::Description,
        Field::ParamName,
        Field::ParamDescription,
        Field::ParamEnum,
    ];
}

/// One tool as the index reads it. A field may come in several texts (one per parameter,
/// say): they count as one text of the summed length.
#[derive(Debug, Clone, Copy)]
pub struct ToolDoc<'a> {
    pub name: &'a [u16],
    pub texts: &'a [(Field, &'a [u16])],
}

/// A ranked tool: its index in the slice given to `Index::build`, and its score (> 0).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Hit {
    pub tool: u32,
    pub score: f64,
}

/// The ranking's parameters. `Params::default()` is the measured choice (DESIGN.md).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Params {
    /// BM25F field weights, by `Field as usize`.
    pub weight: [f32; FIELDS],
    /// BM25F length normalisation per field (0 = none, 1 = full).
    pub b: [f32; FIELDS],
    /// BM25 term-frequency saturation.
    pub k1: f32,
    /// Stem ASCII tokens (`stem.rs`: the light stemmer, or Porter at compile time).
    pub stem: bool,
    /// Drop English function words.
    pub stop: bool,
    /// Split camelCase.
    pub camel: bool,
    /// Drop the parts of contractions and possessives (`what's` → what, `don't` → nothing):
    /// off in snapshots of builds before it (format 4 without flag 16), which rank as saved.
    pub elide: bool,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            // name, description, parameter names, parameter descriptions, enum values
            weight: [2.0, 1.0, 1.0, 0.5, 1.0],
            b: [0.75; FIELDS],
            k1: 1.2,
            stem: true,
            stop: true,
            camel: true,
            elide: true,
        }
    }
}

/// Hits per search, and rows per turn of `entries`, when the caller gives no limit (SPEC 6).
pub const LIMIT: u32 = 5;

/// No term (surface tokens that are stop words, or unknown in a query); no namespace.
pub const NONE: u32 = u32::MAX;

/// Field term frequencies, packed 6 bits each (saturating at 63) in a u32.
const TF_BITS: u32 = 6;
const TF_MAX: u32 = (1 << TF_BITS) - 1;

/// A posting's field frequencies when one is over 7: see `Index::wide`.
const WIDE: u16 = u16::MAX;

/// Packed frequencies `tfs` in 3 bits a field, or `WIDE`.
fn narrow(tfs: u32) -> u16 {
    let mut c = 0;
    for f in 0..FIELDS {
        let n = tf_of(tfs, f);
        if n > 7 {
            return WIDE;
        }
        c |= (n as u16) << (3 * f);
    }
    c
}

/// Field `f`'s term frequency in packed frequencies `tfs`.
#[inline(always)]
fn tf_of(tfs: u32, f: usize) -> u32 {
    (tfs >> (TF_BITS * f as u32)) & TF_MAX
}

/// Per field, the average length over the tools (1 for a field no tool has), from the
/// tools' lengths (`FIELDS` per tool): the same sums in the same order at build and at load.
fn averages(lens: &[u32]) -> [f32; FIELDS] {
    let mut avg = [0f32; FIELDS];
    for len in lens.chunks_exact(FIELDS) {
        for f in 0..FIELDS {
            avg[f] += len[f] as f32;
        }
    }
    let n = (lens.len() / FIELDS) as f32;
    for a in &mut avg {
        *a = if *a > 0.0 { *a / n } else { 1.0 };
    }
    avg
}

/// A tool's BM25F field factors, weight / (1 - b + b * length / average length): a term's
/// pseudo-frequency in the tool is the sum over fields of frequency × factor.
#[inline(always)]
fn norms(p: &Params, len: &[u32], avg: &[f32; FIELDS]) -> [f32; FIELDS] {
    let mut norm = [0f32; FIELDS];
    for f in 0..FIELDS {
        norm[f] = p.weight[f] / (1.0 - p.b[f] + p.b[f] * len[f] as f32 / avg[f]);
    }
    norm
}

/// Each posting's field frequencies and each tool's field lengths: what BM25F summed into
/// the posting scores, which `explain` shares out among the fields.
struct Counts {
    /// The term's field frequencies in the tool, by posting: 3 bits a field (not 0), or
    /// `WIDE` when one is over 7 (a posting in a thousand), its packed frequencies
    /// (`tf_of`) then in `wide`, in posting order, beside the posting's index.
    post_tf: Vec<u16>,
    wide: Vec<u32>,
    /// The wide postings (their indices), ascending.
    wide_at: Vec<u32>,
    /// Tokens per tool and field (tool i's `FIELDS` from `FIELDS * i`), and their
    /// averages (`averages`).
    lens: Vec<u32>,
    avg: [f32; FIELDS],
}

impl Counts {
    /// The counts of packed frequencies `tfs` (by posting) and lengths `lens`, whose
    /// averages are `avg`.
    fn new(tfs: &[u32], lens: Vec<u32>, avg: [f32; FIELDS]) -> Counts {
        let mut post_tf = vec![0u16; tfs.len()];
        let (mut wide, mut wide_at) = (Vec::new(), Vec::new());
        for (p, (c, &tfs)) in post_tf.iter_mut().zip(tfs).enumerate() {
            *c = narrow(tfs);
            if *c == WIDE {
                wide.push(tfs);
                wide_at.push(p as u32);
            }
        }
        Counts {
            post_tf,
            wide,
            wide_at,
            lens,
            avg,
        }
    }

    fn heap_bytes(&self) -> usize {
        2 * self.post_tf.capacity()
            + 4 * (self.wide.capacity() + self.wide_at.capacity())
            + 4 * self.lens.capacity()
    }
}

pub struct Index {
    tools: u32,
    params: Params,
    /// The terms (stems); a term's id is its index here. A query's tokens are normalised
    /// (stop word, stem) and looked up here; the build's cache of normalised tokens
    /// (`Builder::surface`) is not kept, so a snapshot neither saves nor rebuilds it.
    terms: Terms,
    /// The postings of term `t` are `[offsets[t], offsets[t+1])` of `post_tool` and
    /// `post_score`, in tool order.
    offsets: Vec<u32>,
    post_tool: Vec<u32>,
    /// The term's whole BM25F contribution to the tool's score, idf included; > 0.
    post_score: Vec<f32>,
    /// What `explain` takes the lexical scores apart with, when the index was built to
    /// explain (`Index::build_with`): not kept otherwise, nor saved.
    counts: Option<Counts>,
    /// The tools' vectors, for hybrid ranking (`Index::hybrid`).
    vectors: Option<Vectors>,
    /// The tools' namespaces (`Index::entries`).
    namespaces: Namespaces,
}

/// A query's working memory, made for it and dropped after it: an index holds nothing a
/// query changes, so a query cut short anywhere (the JavaScript stack running out inside
/// it) leaves the index as it was, and its scratch goes with the call's memory.
#[derive(Default)]
struct Scratch {
    tokens: tokenize::Tokenizer,
    stem: Vec<u16>,
    /// Score per tool; 0 outside a query.
    acc: Vec<f32>,
    /// The tools with a score in the current query, then a heap of (score, tool).
    touched: Vec<u32>,
    heap: Vec<(f32, u32)>,
    /// The current query's terms, each once (`Index::query_terms`).
    terms: Vec<u32>,
    /// Hybrid queries: the cosines, the candidates.
    cosines: Vec<f32>,
    query: vectors::QueryScratch,
}

/// Adds `score` to `tool`'s, noting the tool the first time it scores.
#[inline(always)]
fn add(acc: &mut [f32], touched: &mut Vec<u32>, tool: u32, score: f32) {
    let a = &mut acc[tool as usize];
    if *a == 0.0 {
        touched.push(tool);
    }
    *a += score;
}

impl Scratch {
    /// The touched tools and their scores into `heap`, the scores back to 0.
    fn gather(&mut self) {
        self.heap.clear();
        for &tool in &self.touched {
            self.heap.push((self.acc[tool as usize], tool));
            self.acc[tool as usize] = 0.0;
        }
    }
}

/// The index under construction.
struct Builder {
    p: Params,
    /// Every distinct folded token of the tools, and its term id (or `NONE`): a token is
    /// normalised (stop word, stem) once, not at each occurrence.
    surface: Terms,
    surface_term: Vec<u32>,
    terms: Terms,
    /// (term, packed field frequencies) per tool and term, tool after tool: tool i's are
    /// `entries[starts[i]..starts[i+1]]`.
    entries: Vec<(u32, u32)>,
    starts: Vec<u32>,
    /// Per term: its latest entry + 1 (one of the current tool if > the tool's start),
    /// and its document frequency.
    last: Vec<u32>,
    df: Vec<u32>,
    /// Tokens per tool and field.
    lens: Vec<[u32; FIELDS]>,
    /// Whether the index keeps its `Counts`.
    counts: bool,
    tokens: tokenize::Tokenizer,
    /// A new surface token, normalised in place.
    stem: Vec<u16>,
}

impl Builder {
    /// Adds a text of the current tool (the last in `lens`).
    #[inline(never)]
    fn text(&mut self, field: Field, text: &[u16]) {
        let f = field as usize;
        let weight = self.p.weight[f];
        if weight.is_nan() || weight <= 0.0 {
            return;
        }
        let first = self.starts[self.starts.len() - 1] as usize;
        let shift = TF_BITS * f as u32;
        let Builder {
            p,
            surface,
            surface_term,
            terms,
            entries,
            last,
            df,
            lens,
            tokens,
            stem,
            ..
        } = self;
        // Each token interned as the tokenizer finds it. Index loops over slices: at
        // opt-level "z" `Vec`'s own `Index` stays a call, and this runs once per token of
        // every tool.
        let mut count = 0;
        tokens.start();
        while let Some(tok) = tokens.next(text, p.camel, p.elide) {
            let s = match surface.id_of(tok) {
                Some(s) => s,
                None => surface.intern(tok),
            } as usize;
            if s == surface_term.len() {
                // A new surface token: normalised once, in a copy.
                stem.clear();
                stem.extend_from_slice(tok);
                let t = match tokenize::normalize(stem, p.stop, p.stem) {
                    None => NONE,
                    Some(n) => terms.intern(&stem[..n]),
                };
                surface_term.push(t);
                if t as usize == last.len() {
                    last.push(0);
                    df.push(0);
                }
            }
            let t = surface_term.as_slice()[s] as usize;
            if t == NONE as usize {
                continue;
            }
            count += 1;
            let e = last.as_slice()[t] as usize;
            if e > first {
                let tf = &mut entries.as_mut_slice()[e - 1].1;
                if (*tf >> shift) & TF_MAX < TF_MAX {
                    *tf += 1 << shift;
                }
            } else {
                entries.push((t as u32, 1 << shift));
                last.as_mut_slice()[t] = entries.len() as u32;
                df.as_mut_slice()[t] += 1;
            }
        }
        if let Some(len) = lens.last_mut() {
            len[f] += count;
        }
    }

    #[inline(never)]
    fn finish(mut self) -> Index {
        let n = self.lens.len();
        self.starts.push(self.entries.len() as u32);
        let p = &self.p;
        let mut offsets = Vec::with_capacity(self.df.len() + 1);
        let mut sum = 0u32;
        offsets.push(0);
        for (t, &d) in self.df.iter().enumerate() {
            // From here on `last` is where the term's next posting goes.
            self.last[t] = sum;
            sum += d;
            offsets.push(sum);
        }
        // From here on `df` holds the terms' idf (as f32 bits).
        for d in &mut self.df {
            let df = f64::from(*d);
            *d = (math::ln(1.0 + (n as f64 - df + 0.5) / (df + 0.5)) as f32).to_bits();
        }
        let mut post_tool = vec![0u32; self.entries.len()];
        let mut post_score = vec![0f32; self.entries.len()];
        // Every posting's packed frequencies, for the index's `Counts` (if it keeps them).
        let mut post_tf = vec![0u32; if self.counts { self.entries.len() } else { 0 }];
        let avg = averages(self.lens.as_flattened());
        // Slices indexed in loops: at opt-level "z" `Vec`'s `Index`, iterator adapters and
        // `f32::max` (a call to `fmaxf`) stay calls, and this runs once per posting.
        let (last, df) = (self.last.as_mut_slice(), self.df.as_slice());
        let (entries, starts) = (self.entries.as_slice(), self.starts.as_slice());
        let (tools, scores) = (post_tool.as_mut_slice(), post_score.as_mut_slice());
        let freqs = post_tf.as_mut_slice();
        for (tool, len) in self.lens.iter().enumerate() {
            let norm = norms(p, len, &avg);
            let mut e = starts[tool] as usize;
            while e < starts[tool + 1] as usize {
                let (t, tfs) = entries[e];
                e += 1;
                let mut tf = 0f32;
                let mut f = 0;
                while f < FIELDS {
                    tf += tf_of(tfs, f) as f32 * norm[f];
                    f += 1;
                }
                let at = last[t as usize] as usize;
                last[t as usize] += 1;
                tools[at] = tool as u32;
                if let Some(c) = freqs.get_mut(at) {
                    *c = tfs;
                }
                // Positive whatever the parameters (NaN included): a query counts on it
                // (`acc == 0`).
                let score = f32::from_bits(df[t as usize]) * tf / (p.k1 + tf);
                scores[at] = if score > f32::MIN_POSITIVE {
                    score
                } else {
                    f32::MIN_POSITIVE
                };
            }
        }
        let counts = self
            .counts
            .then(|| Counts::new(&post_tf, self.lens.into_flattened(), avg));
        Index {
            tools: n as u32,
            params: self.p,
            terms: self.terms,
            offsets,
            post_tool,
            post_score,
            counts,
            vectors: None,
            namespaces: Namespaces::default(),
        }
    }
}

impl Index {
    pub fn build(docs: &[ToolDoc<'_>]) -> Index {
        Self::build_with(docs, Params::default(), false)
    }

    /// The index of `docs` ranked by `params`; with `explain`, one that keeps the counts
    /// `Index::explain` takes its scores apart with (in memory and in its snapshots).
    pub fn build_with(docs: &[ToolDoc<'_>], params: Params, explain: bool) -> Index {
        let mut b = Builder {
            p: params,
            surface: Terms::default(),
            surface_term: Vec::new(),
            terms: Terms::default(),
            entries: Vec::new(),
            starts: Vec::with_capacity(docs.len() + 1),
            last: Vec::new(),
            df: Vec::new(),
            lens: Vec::with_capacity(docs.len()),
            counts: explain,
            tokens: tokenize::Tokenizer::default(),
            stem: Vec::new(),
        };
        for doc in docs {
            b.starts.push(b.entries.len() as u32);
            b.lens.push([0; FIELDS]);
            b.text(Field::Name, doc.name);
            for &(field, text) in doc.texts {
                b.text(field, text);
            }
        }
        b.finish()
    }

    /// The index of tools as the binding reads them: their `names`, and their `texts` back to
    /// back, four parts per tool (its description, parameter names, parameter descriptions
    /// and `enum` values) whose ends are `parts`.
    pub fn of_texts(names: &NameList, texts: &NameList, parts: &[u32], explain: bool) -> Index {
        let (mut flat, mut tools, mut start) = (Vec::with_capacity(texts.len()), Vec::new(), 0);
        for (i, &end) in parts.iter().enumerate() {
            let end = (end as usize).clamp(start, texts.len());
            flat.extend((start..end).map(|t| (Field::ALL[1 + i % 4], texts.get(t))));
            if i % 4 == 3 {
                tools.push(flat.len());
            }
            start = end;
        }
        let mut start = 0;
        let docs: Vec<ToolDoc> = (names.iter().zip(tools))
            .map(|(name, end)| ToolDoc {
                name,
                texts: &flat[core::mem::replace(&mut start, end)..end],
            })
            .collect();
        Index::build_with(&docs, Params::default(), explain)
    }

    /// How many tools were indexed.
    pub fn len(&self) -> usize {
        self.tools as usize
    }

    pub fn is_empty(&self) -> bool {
        self.tools == 0
    }

    /// About how many bytes the index holds on the heap (its arrays' capacities).
    pub fn heap_bytes(&self) -> usize {
        self.vectors.as_ref().map_or(0, Vectors::heap_bytes)
            + self.terms.heap_bytes()
            + 4 * (self.offsets.capacity() + self.post_tool.capacity())
            + self.counts.as_ref().map_or(0, Counts::heap_bytes)
            + 4 * self.post_score.capacity()
    }

    /// A query's scratch: a score per tool (zeroed), room for every tool's hit.
    fn scratch(&self) -> Scratch {
        let n = self.len();
        Scratch {
            acc: vec![0.0; n],
            touched: Vec::with_capacity(n),
            heap: Vec::with_capacity(n),
            ..Scratch::default()
        }
    }

    /// Puts into `out` (cleared first) at most `limit` hits with score > 0, best first;
    /// equal scores keep registration (index) order. A blank query, or one no tool
    /// matches, gives none.
    pub fn search(&self, query: &[u16], limit: usize, out: &mut Vec<Hit>) {
        self.search_in(&mut self.scratch(), query, limit, out);
    }

    /// `search` in the scratch `s` (left with every score back at 0).
    fn search_in(&self, s: &mut Scratch, query: &[u16], limit: usize, out: &mut Vec<Hit>) {
        out.clear();
        s.touched.clear();
        self.query_terms(s, query);
        let Scratch {
            terms,
            acc,
            touched,
            ..
        } = s;
        for &t in terms.iter() {
            let (a, b) = self.postings(t);
            for (&tool, &score) in self.post_tool[a..b].iter().zip(&self.post_score[a..b]) {
                add(acc, touched, tool, score);
            }
        }
        // A heap of the touched tools, the best at the root; then the best `limit` out.
        s.gather();
        let h = &mut s.heap[..];
        for i in (0..h.len() / 2).rev() {
            sift_down(h, i);
        }
        let mut end = h.len();
        while end > 0 && out.len() < limit {
            let (score, tool) = h[0];
            out.push(Hit {
                tool,
                score: f64::from(score),
            });
            end -= 1;
            h.swap(0, end);
            sift_down(&mut h[..end], 0);
        }
    }
}

impl Index {
    /// The query's terms (its tokens normalised, those the index has), each once, in the
    /// order they come, into `s.terms`: what `search` sums the postings of.
    fn query_terms(&self, s: &mut Scratch, query: &[u16]) {
        s.terms.clear();
        s.tokens.start();
        while let Some(tok) = s.tokens.next(query, self.params.camel, self.params.elide) {
            s.stem.clear();
            s.stem.extend_from_slice(tok);
            let t = match tokenize::normalize(&mut s.stem, self.params.stop, self.params.stem) {
                Some(n) => self.terms.find(&s.stem[..n]).unwrap_or(NONE),
                None => NONE,
            } as usize;
            // (A query has few terms: a scan finds one seen already.)
            if t == NONE as usize || s.terms.contains(&(t as u32)) {
                continue;
            }
            s.terms.push(t as u32);
        }
    }

    /// Term `t`'s postings: `[a, b)` of `post_tool`, `post_score` and `Counts::post_tf`.
    fn postings(&self, t: u32) -> (usize, usize) {
        let t = t as usize;
        (self.offsets[t] as usize, self.offsets[t + 1] as usize)
    }
}

/// How hybrid ranking fuses the lexical and the embedding rankings: reciprocal rank
/// fusion over the first `depth` of the lexical ranking and the first `embedding_depth`
/// of the embedding's, each lexical hit counting in proportion to its score against the
/// query's best. `Fusion::default()` is the measured choice (bench/tool-search/DESIGN.md,
/// "Hybrid ranking").
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Fusion {
    /// RRF's constant: a tool at rank r (from 1) of the embedding's ranking adds
    /// `embedding / (k + r)`; at rank r of the lexical one, `lexical · (score / best
    /// score) / (k + r)`.
    pub k: f32,
    pub lexical: f32,
    pub embedding: f32,
    /// How many of the lexical ranking take part.
    pub depth: usize,
    /// How many of the embedding's ranking take part (every tool has a cosine: it may go
    /// deeper than the lexical ranking, which holds only the tools sharing a word).
    pub embedding_depth: usize,
}

impl Default for Fusion {
    fn default() -> Self {
        // Measured on BFCL live and on its tools pooled with BFCL's others (DESIGN.md,
        // "Hybrid ranking"): the lexical score ratio keeps an exact-term first place first
        // and lets a hit on one common word count little; no weight is set by hand.
        Fusion {
            k: 30.0,
            lexical: 1.0,
            embedding: 1.0,
            depth: 100,
            embedding_depth: 200,
        }
    }
}

impl Fusion {
    /// How deep a fusion for `limit` hits looks into the lexical and the embedding rankings.
    fn depths(&self, limit: usize) -> (usize, usize) {
        (self.depth.max(limit), self.embedding_depth.max(limit))
    }

    /// What the lexical hit at `rank` (from 0) with `score` adds, `best` being the first
    /// hit's: in proportion to it, so a hit on one common word of the query counts little
    /// and an exact-term first place fully.
    fn lexical_part(&self, score: f64, best: f64, rank: usize) -> f32 {
        let weight = self.lexical * (score / best) as f32;
        (weight / (self.k + rank as f32 + 1.0)).max(f32::MIN_POSITIVE)
    }

    /// What the embedding's hit at `rank` (from 0) adds.
    fn embedding_part(&self, rank: usize) -> f32 {
        self.embedding / (self.k + rank as f32 + 1.0)
    }
}

impl Index {
    /// Gives the index its tools' vectors (one per tool, in tool order); `Err` with the
    /// number of vectors if it is not the number of tools.
    pub fn set_vectors(&mut self, vectors: Vectors) -> Result<(), usize> {
        if vectors.len() != self.len() {
            return Err(vectors.len());
        }
        self.vectors = Some(vectors);
        Ok(())
    }

    /// `hybrid` with a query vector (and how to fuse it in), else `search`.
    pub fn ranked(
        &self,
        query: &[u16],
        vector: Option<(&[f64], &Fusion)>,
        limit: usize,
        out: &mut Vec<Hit>,
    ) {
        match vector {
            Some((v, fusion)) => self.hybrid(query, v, fusion, limit, out),
            None => self.search(query, limit, out),
        }
    }

    /// Whether `query` holds a word (a letter or a digit): a blank query ranks nothing.
    pub fn has_word(&self, query: &[u16]) -> bool {
        tokenize::has_word(query)
    }

    pub fn vectors(&self) -> Option<&Vectors> {
        self.vectors.as_ref()
    }

    /// Hybrid ranking: like `search`, with the query's vector `vector` (its `dims`
    /// components checked by the caller with `vectors::check`) fused in as `fusion` says.
    /// Without vectors, or with a zero query vector, it is `search`. A blank query gives
    /// nothing, as in `search`; a query no tool shares a term with still ranks by its vector.
    pub fn hybrid(
        &self,
        query: &[u16],
        vector: &[f64],
        fusion: &Fusion,
        limit: usize,
        out: &mut Vec<Hit>,
    ) {
        let Some(vectors) = &self.vectors else {
            return self.search(query, limit, out);
        };
        out.clear();
        if limit == 0 || !tokenize::has_word(query) {
            return;
        }
        let (depth, embedding_depth) = fusion.depths(limit);
        let mut s = self.scratch();
        if !vectors.cosines(vector, &mut s.query, &mut s.cosines) {
            // A zero vector has no direction: the embedding says nothing.
            return self.search_in(&mut s, query, limit, out);
        }
        let mut lexical = Vec::new();
        self.search_in(&mut s, query, depth, &mut lexical);
        // The candidates, in `heap` as (fused score, tool): the lexical hits first, then
        // the embedding's first `embedding_depth` (the best of every tool's cosine, by a heap).
        s.heap.clear();
        s.touched.clear();
        let best = lexical.first().map_or(1.0, |hit| hit.score);
        for (rank, hit) in lexical.iter().enumerate() {
            s.acc[hit.tool as usize] = fusion.lexical_part(hit.score, best, rank);
            s.touched.push(hit.tool);
        }
        // The embedding's first `embedding_depth`: a heap of the best so far whose root is the worst
        // of them, so that most tools cost one comparison; then best first.
        let n = s.cosines.len();
        let kept = embedding_depth.min(n);
        for t in 0..kept {
            s.heap.push((s.cosines[t], t as u32));
        }
        for i in (0..kept / 2).rev() {
            sift_down_worst(&mut s.heap, i);
        }
        for t in kept..n {
            let item = (s.cosines[t], t as u32);
            if better(item, s.heap[0]) {
                s.heap[0] = item;
                sift_down_worst(&mut s.heap, 0);
            }
        }
        sort_best_first(&mut s.heap);
        for rank in 0..s.heap.len() {
            let tool = s.heap[rank].1;
            add(
                &mut s.acc,
                &mut s.touched,
                tool,
                fusion.embedding_part(rank),
            );
        }
        s.gather();
        sort_best_first(&mut s.heap);
        out.extend(s.heap.iter().take(limit).map(|&(score, tool)| Hit {
            tool,
            score: f64::from(score),
        }));
    }
}

/// Sorts hits best first (`better`), by heapsort over `sift_down`: no generic sort is
/// compiled in for a hundred hits (std's quicksort weighs ~2 KB of wasm).
fn sort_best_first(h: &mut [(f32, u32)]) {
    for i in (0..h.len() / 2).rev() {
        sift_down(h, i);
    }
    // Popping the best to the end gives worst first; then reversed.
    for end in (1..h.len()).rev() {
        h.swap(0, end);
        sift_down(&mut h[..end], 0);
    }
    h.reverse();
}

/// `sift_down` for a heap whose root is the worst hit.
fn sift_down_worst(h: &mut [(f32, u32)], i: usize) {
    sift(h, i, |a, b| better(b, a));
}

/// Whether hit `a` ranks above hit `b`: a higher score, or an equal one and an earlier tool.
fn better(a: (f32, u32), b: (f32, u32)) -> bool {
    a.0 > b.0 || (a.0 == b.0 && a.1 < b.1)
}

/// Moves `h[i]` down until no child is better: `h` is a heap again if it was one below `i`.
fn sift_down(h: &mut [(f32, u32)], i: usize) {
    sift(h, i, better);
}

/// Moves `h[i]` down until no child goes `above` it.
#[inline(never)]
fn sift(h: &mut [(f32, u32)], mut i: usize, above: fn((f32, u32), (f32, u32)) -> bool) {
    loop {
        let (left, right) = (2 * i + 1, 2 * i + 2);
        let mut top = i;
        if left < h.len() && above(h[left], h[top]) {
            top = left;
        }
        if right < h.len() && above(h[right], h[top]) {
            top = right;
        }
        if top == i {
            return;
        }
        h.swap(i, top);
        i = top;
    }
}

/// A namespace of at most this many tools may be offered whole by `Index::entries` in a run
/// (a turn with history); a larger one (a big MCP server) only ever brings its best tools.
pub const WHOLE_NAMESPACE: u32 = 32;

/// How deep `Index::entries` ranks: the first `NAMESPACE_DEPTH × limit` tools, where a
/// namespace's best tools are taken from (bench/tool-search/DESIGN.md, "Namespaces by evidence").
pub const NAMESPACE_DEPTH: usize = 4;

/// A single message (no run): a namespace with at least this many of the first `limit` hits
/// is the turn's, as is the first hit's (DESIGN.md, "Namespaces by evidence").
pub const CONCENTRATION: usize = 2;

/// A single message (no run): `Index::entries` takes its rows from the first `SINGLE_DEPTH ×
/// limit` hits only (DESIGN.md, "A single message: near hits keep their places").
pub const SINGLE_DEPTH: usize = 2;

/// A single message: a hit among the first `SINGLE_DEPTH × limit` scoring at least this share
/// of the first hit's score is offered (DESIGN.md, "A single message: near hits keep their
/// places").
pub const NEAR_TIE: f64 = 0.5;

/// In a run: a namespace with at least this many of the first `NAMESPACE_DEPTH × limit` hits
/// is the turn's, as is the lead namespace (that of the best-ranked of the first `limit` hits
/// that has one) and each the run called in (DESIGN.md, "Namespaces by evidence in a run").
pub const RUN_CONCENTRATION: usize = 3;

/// In a run standing in a namespace, the message's first hit without a namespace stays only
/// when it scores more than this many times the best deep hit of the turn's namespaces: its
/// own evidence, not a near tie with where the run stands (DESIGN.md, "What a deferred run
/// pays for"). Lexical scores only: with a query vector (fused scores) the first hit stays.
pub const FIRST_HIT_MARGIN: f64 = 2.0;

/// Which tools share a namespace: per tool, the first tool of its namespace (`NONE`: it
/// has none), the next tool of the same namespace (`NONE` after the last), and per first
/// tool the namespace's size.
#[derive(Debug, Clone, Default)]
struct Namespaces {
    first: Vec<u32>,
    next: Vec<u32>,
    size: Vec<u32>,
}

impl Namespaces {
    /// From each tool's first tool of its namespace; `None` unless each is `NONE` or a tool
    /// at or before it that is its own first.
    fn new(first: Vec<u32>) -> Option<Namespaces> {
        let n = first.len();
        let (mut next, mut size, mut last) = (vec![NONE; n], vec![0u32; n], vec![NONE; n]);
        for (i, &f) in first.iter().enumerate() {
            if f == NONE {
                continue;
            }
            let f = f as usize;
            if f > i || first[f] as usize != f {
                return None;
            }
            if last[f] != NONE {
                next[last[f] as usize] = i as u32;
            }
            last[f] = i as u32;
            size[f] += 1;
        }
        Some(Namespaces { first, next, size })
    }
}

impl Index {
    /// Gives the index its tools' namespaces: per tool, the first tool (by index) of the
    /// same namespace, or `NONE`. `false` (and nothing set) unless there is one per tool
    /// and each is `NONE` or a tool at or before it that is its own first.
    pub fn set_namespaces(&mut self, first: Vec<u32>) -> bool {
        if first.len() != self.len() {
            return false;
        }
        match Namespaces::new(first) {
            Some(ns) => {
                self.namespaces = ns;
                true
            }
            None => false,
        }
    }

    /// Per tool, the first tool of its namespace (`NONE`: none), as `set_namespaces` took it;
    /// empty when no namespaces were set.
    pub fn namespaces(&self) -> &[u32] {
        &self.namespaces.first
    }

    /// The rows of `entries` (SPEC 6 and 8), into `out` (cleared first), from the ranking's
    /// evidence (bench/tool-search/DESIGN.md, "Namespaces by evidence"). The query is ranked
    /// `NAMESPACE_DEPTH × limit` deep (hybrid with `vector`); a namespace's best tools are its
    /// tools among those deep hits.
    ///
    /// A single message (`history` `None`): from the first `SINGLE_DEPTH × limit` hits only,
    /// the first `limit`, each later one scoring at least `NEAR_TIE` of the first hit's, and
    /// for the first hit's namespace and each holding `CONCENTRATION` of the first `limit`
    /// hits, the namespace whole when it is no larger than `limit`, else its tools among
    /// those hits.
    ///
    /// In a run (`history` given, empty on a run's first turn; `called`: the tools the run's
    /// model called, by index, any order): the turn's namespaces are the lead (that of the
    /// best-ranked of the first `limit` hits that has a namespace), each holding
    /// `RUN_CONCENTRATION` of the deep hits, and each the run called in; each is offered
    /// whole when it is no larger than `limit`, or no larger than `WHOLE_NAMESPACE` and
    /// called in or holding `limit` of the deep hits; else its best tools. When the turn
    /// has namespaces (it stands in one), the first `limit` hits without a namespace are left
    /// out, but for the first hit when it scores more than `FIRST_HIT_MARGIN` times the best
    /// deep hit of the turn's namespaces, when none of them ranks, or when the ranking is
    /// hybrid. Then the same evidence from `history` (the run's last earlier message, ranked
    /// lexically).
    ///
    /// Each tool once. A ranking brings at most `1 + NAMESPACE_DEPTH × limit /
    /// RUN_CONCENTRATION` namespaces, each at most `WHOLE_NAMESPACE` tools whole or its deep
    /// hits; the run's called namespaces come on top. A single message offers at most
    /// `SINGLE_DEPTH × limit` hits and `1 + limit / CONCENTRATION` namespaces of at most
    /// `limit` tools whole. A query that ranks nothing gives nothing (a search miss never
    /// hides the palette); without namespaces this is `search`.
    pub fn entries(
        &self,
        query: &[u16],
        vector: Option<(&[f64], &Fusion)>,
        history: Option<&[u16]>,
        called: &[u32],
        limit: usize,
        out: &mut Vec<u32>,
    ) {
        out.clear();
        let ns = &self.namespaces;
        let depth = if ns.first.is_empty() {
            limit
        } else {
            limit.saturating_mul(NAMESPACE_DEPTH)
        };
        let mut hits = Vec::new();
        self.ranked(query, vector, depth, &mut hits);
        if ns.first.is_empty() || hits.is_empty() {
            out.extend(hits.iter().take(limit).map(|h| h.tool));
            return;
        }
        let Some(history) = history else {
            self.entries_single(&hits, limit, out);
            return;
        };
        // The namespaces the run called in, by their first tools (unknown tools left out).
        let mut calls: Vec<u32> = Vec::new();
        for &t in called {
            let f = ns.first.get(t as usize).copied().unwrap_or(NONE);
            if f != NONE && !calls.contains(&f) {
                calls.push(f);
            }
        }
        let mut found = Vec::new();
        self.evident(&hits, limit, RUN_CONCENTRATION, &calls, &mut found);
        // The hits without a namespace give way when the turn stands in one (the ranking's
        // evidence or the run's calls), but for the message's first hit when it clearly
        // outscores the turn's namespaces (the first of their deep hits is their best). The
        // margin is read on lexical scores: fused ones are sums of reciprocal ranks, whose
        // ratios say little (1/31 against 1/50 is 0.62), so with a vector the first hit stays.
        let lexical = vector.is_none() || self.vectors.is_none();
        let first_stays = match hits
            .iter()
            .find(|h| found.contains(&ns.first[h.tool as usize]))
        {
            Some(best) => !lexical || hits[0].score > FIRST_HIT_MARGIN * best.score,
            None => true,
        };
        for (rank, h) in hits.iter().take(limit).enumerate() {
            if ns.first[h.tool as usize] != NONE || found.is_empty() || (rank == 0 && first_stays) {
                put(h.tool, out);
            }
        }
        self.offer_in_run(&found, &calls, &hits, limit, out);
        if !history.is_empty() {
            self.search(history, depth, &mut hits);
            if !hits.is_empty() {
                self.evident(&hits, limit, RUN_CONCENTRATION, &calls, &mut found);
                self.offer_in_run(&found, &calls, &hits, limit, out);
            }
        }
    }

    /// A single message's rows (no run), from `hits` (its ranking, best first, not empty):
    /// only the first `SINGLE_DEPTH × limit` hits take part. The first `limit` hits; then
    /// each later one of them scoring at least `NEAR_TIE` of the first hit's score (the
    /// ranking cannot tell it from the offered ones: other servers' hits keep their places);
    /// then, for the first hit's namespace and each holding `CONCENTRATION` of the first
    /// `limit` hits, the namespace whole when it is no larger than `limit`, else its tools
    /// among those hits (bench/tool-search/DESIGN.md, "A single message: near hits keep their
    /// places").
    fn entries_single(&self, hits: &[Hit], limit: usize, out: &mut Vec<u32>) {
        let near = &hits[..hits.len().min(limit.saturating_mul(SINGLE_DEPTH))];
        let Some(best) = near.first() else {
            return;
        };
        let first = &near[..limit.min(near.len())];
        out.extend(first.iter().map(|h| h.tool));
        let bar = best.score * NEAR_TIE;
        for h in &near[first.len()..] {
            if h.score >= bar {
                put(h.tool, out);
            }
        }
        let mut found = Vec::new();
        self.evident(first, 1, CONCENTRATION, &[], &mut found);
        for f in found {
            let whole = self.namespaces.size[f as usize] <= limit as u32;
            self.offer(f, whole, near, out);
        }
    }

    /// The namespaces `hits` (a ranking, best first) give evidence for, by their first tools,
    /// into `into` (cleared first): the lead (the namespace of the best-ranked of the first
    /// `lead` hits that has one), each holding `concentration` of `hits`, then each of
    /// `calls` (the run's called namespaces).
    fn evident(
        &self,
        hits: &[Hit],
        lead: usize,
        concentration: usize,
        calls: &[u32],
        into: &mut Vec<u32>,
    ) {
        into.clear();
        let first = &self.namespaces.first;
        let lead = hits
            .iter()
            .take(lead)
            .position(|h| first[h.tool as usize] != NONE);
        for (i, hit) in hits.iter().enumerate() {
            let f = first[hit.tool as usize];
            if f == NONE || into.contains(&f) {
                continue;
            }
            if Some(i) == lead || self.count(f, hits) >= concentration {
                into.push(f);
            }
        }
        for &f in calls {
            if !into.contains(&f) {
                into.push(f);
            }
        }
    }

    /// How many of `hits` are of the namespace whose first tool is `f`.
    fn count(&self, f: u32, hits: &[Hit]) -> usize {
        let first = &self.namespaces.first;
        hits.iter().filter(|h| first[h.tool as usize] == f).count()
    }

    /// In a run, each of `found` (namespaces by their first tools): whole when no larger than
    /// `limit`, or no larger than `WHOLE_NAMESPACE` and called in (`calls`) or holding `limit`
    /// of `hits` (as many as a turn has rows); else its tools among `hits`.
    fn offer_in_run(
        &self,
        found: &[u32],
        calls: &[u32],
        hits: &[Hit],
        limit: usize,
        out: &mut Vec<u32>,
    ) {
        for &f in found {
            let size = self.namespaces.size[f as usize];
            let evidence = calls.contains(&f) || self.count(f, hits) >= limit;
            let whole = size <= limit as u32 || (size <= WHOLE_NAMESPACE && evidence);
            self.offer(f, whole, hits, out);
        }
    }

    /// The namespace whose first tool is `f`: every tool (`whole`), else its tools among `hits`.
    fn offer(&self, f: u32, whole: bool, hits: &[Hit], out: &mut Vec<u32>) {
        let ns = &self.namespaces;
        if whole {
            let mut t = f;
            while t != NONE {
                put(t, out);
                t = ns.next[t as usize];
            }
        } else {
            for hit in hits.iter().filter(|h| ns.first[h.tool as usize] == f) {
                put(hit.tool, out);
            }
        }
    }
}

/// `t` at the end of `out` unless it is there already.
fn put(t: u32, out: &mut Vec<u32>) {
    if !out.contains(&t) {
        out.push(t);
    }
}

#[cfg(test)]
mod tests;
