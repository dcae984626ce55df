//! `ToolIndex`: tool search, a procedural layer built in (SPEC section 6). The ranking is
//! the core's (`crate::search`); this reads the tools once, at construction, and answers
//! queries with the caller's own names.

use super::options::{self, At, Fields};
use super::wire::{kinds_at, Kind};
use super::{batch, frozen, host, must_be, unreadable, JsResult, Message};
use crate::given::{CONTEXT, INDEX, LOAD, SEARCH};
use crate::names::{NameList, NameTable};
use crate::search::snapshot::{self, SnapshotError};
use crate::search::{
    vectors, Field, Fusion, Hit, Index, Params, ToolDoc, VectorError, Vectors, NONE,
};
use alloc::rc::Rc;
use alloc::{vec, vec::Vec};
use core::cell::RefCell;
use js_sys::{Array, Float32Array, Float64Array, Function, Promise, Uint8Array};
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &str = r#"
/**
 * A tool as `ToolIndex` reads it: its name, description and parameter schema; whatever
 * else the tool carries (`strict`, `annotations`, `execute`…) is left alone.
 */
export interface ToolDoc {
  name: string;
  description?: string;
  /** A JSON schema (or an AI SDK `jsonSchema()`/`zodSchema()`, or a zod schema). */
  parameters?: unknown;
  inputSchema?: unknown;
  /** Anthropic's Messages API tools. */
  input_schema?: unknown;
  schema?: unknown;
  /**
   * Its namespace (an MCP server, an API class, an OpenAI namespace): `entries` offers a namespace of at
   * most 32 tools whole once it ranks one of them among the first 2 × limit (SPEC 8).
   */
  namespace?: string | null;
  [other: string]: unknown;
}

/** A turn's context for `entries`: the message, and the run's earlier user messages, oldest first (SPEC 8). */
export type ToolContext = string | { message?: string; history?: Iterable<string> | null };

export type ToolRows = readonly { readonly tool: string }[];

export interface ToolIndexOptions {
  /** Hits per search and rows per turn (default 5). */
  limit?: number;
  /** One vector per tool (the host's embeddings), in the order the tools are read, or one flat n × d Float32Array. */
  vectors?: Iterable<ArrayLike<number>> | Float32Array;
  /** The query's vector, for `entries`: with it `entries` returns a Promise and ranks hybrid. */
  embed?: (text: string) => ArrayLike<number> | PromiseLike<ArrayLike<number>>;
  /** Gets what `embed` threw or rejected with, or the TypeError for a vector of another length; that turn ranks lexically. */
  onEmbedError?: (error: unknown) => void;
  /** Keep what `explain` takes scores apart with (each tool's term counts by field), in memory and in `save()`'s snapshots: a bigger index (a snapshot of 50,000 tools 14.0 → 17.8 MB), which `explain` needs. Default false. */
  explain?: boolean;
}

/** `ToolIndex.load`'s options: the constructor's but `vectors` and `explain` (a snapshot holds its vectors and counts), and a signal for a stream. */
export interface ToolIndexLoadOptions extends Omit<ToolIndexOptions, "vectors" | "explain"> {
  /** Aborts a load from a stream: the reader is cancelled and the promise rejects with `signal.reason`. */
  signal?: AbortSignalLike;
}

/** A `ReadableStream` of a snapshot's bytes as `ToolIndex.load` reads it (declared here so that no DOM or Node typings are required). */
export interface SnapshotStream {
  getReader(): { read(): PromiseLike<{ done: boolean; value?: Uint8Array }>; cancel(reason?: unknown): unknown };
}

/** What `ToolIndex.load` streams a snapshot from, judged by shape: a `ReadableStream`, a `Response` or R2 object (its `body`), a `Blob` (its `stream()`). */
export type SnapshotSource = SnapshotStream | { readonly body: SnapshotStream | null; readonly bodyUsed: boolean } | { stream(): SnapshotStream };

export interface ToolHit {
  readonly name: string;
  readonly score: number;
}

/** Options of `search` and `explain`. */
export interface ToolSearchOptions {
  /** At most this many hits (default: the index's `limit`). */
  limit?: number;
  /** The query's embedding: with an index built with `vectors`, the ranking is hybrid. */
  vector?: ArrayLike<number>;
}

/** Where in a tool's definition a query term was found (each weighted as the ranking weighs it). */
export type ToolField = "name" | "description" | "parameterName" | "parameterDescription" | "parameterEnum";

/** Why `search` picked a tool: its hit, and its score taken apart. */
export interface ToolExplanation {
  readonly name: string;
  /** The hit's score, as `search` gives it. */
  readonly score: number;
  /** Its place among the hits, from 1. */
  readonly rank: number;
  /** The BM25F score and rank of the lexical ranking; `null` when the tool shares no term with the query (hybrid hits only). */
  readonly lexical: {
    readonly score: number;
    readonly rank: number;
    /** The fields where the query's terms are: their scores add up to `score`, each the sum of its terms' shares. */
    readonly fields: readonly {
      readonly field: ToolField;
      readonly score: number;
      /** A term is a query word normalised (lower case, stemmed): `count` times in this field. */
      readonly terms: readonly { readonly term: string; readonly score: number; readonly count: number }[];
    }[];
  } | null;
  /** Hybrid ranking: the tool's cosine with the query's vector and its rank by it among every tool; else `null`. */
  readonly vector: { readonly similarity: number; readonly rank: number } | null;
  /** Hybrid ranking: what each ranking's reciprocal rank added (`lexical + vector` is `score`; 0 past the depth the fusion reads); else `null`. */
  readonly fused: { readonly lexical: number; readonly vector: number } | null;
}

/** Tool search over the tools' names, descriptions and parameter schemas, in the Rust core. */
export declare class ToolIndex {
  /** An iterable of tools, or a record of tools keyed by name (an AI SDK `tools` object). */
  constructor(tools: Iterable<ToolDoc | { type: "function"; function: ToolDoc }> | Record<string, unknown>, options?: ToolIndexOptions);
  /**
   * At most `limit` (default 5, or the constructor's) tools with a score above 0, best first; ties keep registration order.
   * With `vector` (the query's embedding) and an index built with `vectors`: hybrid ranking.
   */
  search(query: string, options?: ToolSearchOptions): readonly ToolHit[];
  /**
   * The hits of `search(query, options)`, in its order, each with how its score came to be: why a tool was picked.
   * Only an index built with `explain: true` (or loaded from its snapshot) explains; any other throws an Error saying so.
   */
  explain(query: string, options?: ToolSearchOptions): readonly ToolExplanation[];
  /**
   * A ready `entries` for `ToolRouter`/`resolvePalette`: the rows `{ tool }` of `search(message)` for the turn's context,
   * then every tool of each small namespace ranked among the first 2 × limit, for the message and for the history's last one.
   * With `embed`, a Promise of them: `embed(message)` is awaited (within the router's `timeoutMs`), then the ranking is hybrid.
   */
  readonly entries: (context?: ToolContext) => ToolRows | Promise<ToolRows>;
  /** What `entries` calls: the rows for one context. */
  entriesFor(context?: ToolContext): ToolRows | Promise<ToolRows>;
  /** How many tools were indexed. */
  readonly size: number;
  /** The length of the tools' vectors, or `null` for an index without them. */
  readonly dimensions: number | null;
  /** The whole index (vectors included) as bytes, for `ToolIndex.load` in another isolate or process. */
  save(): Uint8Array;
  /** An index from the bytes of `save()`: it ranks exactly as the one saved. `embed` and `onEmbedError` are options here, not part of the bytes. */
  static load(bytes: Uint8Array, options?: ToolIndexLoadOptions): ToolIndex;
  /**
   * The same from a `Response` (fetch, an R2 object), a `Blob` or a `ReadableStream` of `Uint8Array` chunks (a KV stream,
   * an R2 object's `body`): the chunks stream into the module, and the Promise settles with the index, or rejects with why
   * (or with `signal.reason`).
   */
  static load(source: SnapshotSource, options?: ToolIndexLoadOptions): Promise<ToolIndex>;
  /** Frees the index now rather than at garbage collection; later searches throw. */
  dispose(): void;
  [Symbol.dispose](): void;
}
"#;

const DEFAULT_LIMIT: u32 = 5;

pub(super) struct Built {
    pub index: Index,
    pub fusion: Fusion,
    /// The tools' names, the caller's own strings.
    pub names: Array,
    embed: Option<Function>,
    on_embed_error: Option<Function>,
}

/// The index until `dispose()`; shared with the `entries` still awaiting `embed`.
type Shared = Rc<RefCell<Option<Rc<Built>>>>;

#[wasm_bindgen(skip_typescript)]
pub struct ToolIndex {
    built: Shared,
    size: u32,
    limit: u32,
    dimensions: Option<u32>,
}

/// A positive whole number of hits (the core's rule for `limit`), or `None` when not given.
fn limit_of(fields: &Fields, place: &dyn Fn() -> Message) -> JsResult<Option<u32>> {
    let limit = fields.checked("limit", At(place, "."))?;
    Ok(limit.and_then(|v| v.as_f64()).map(|n| n as u32))
}

/// The options both the constructor and `load` take (`vectors` is the constructor's).
pub(super) struct Options {
    limit: Option<u32>,
    vectors: JsValue,
    embed: Option<Function>,
    on_embed_error: Option<Function>,
    /// Whether the index keeps what `explain` needs (the constructor's).
    explain: bool,
}

fn options_of(fields: &Fields, place: &dyn Fn() -> Message) -> JsResult<Options> {
    Ok(Options {
        limit: limit_of(fields, place)?,
        vectors: fields.named("vectors"),
        embed: fields.function("embed", At(place, "."))?,
        on_embed_error: fields.function("onEmbedError", At(place, "."))?,
        explain: fields
            .checked("explain", At(place, "."))?
            .is_some_and(|v| v.is_truthy()),
    })
}

/// `load`'s options (those of the constructor but `vectors`, and a `signal` for a stream),
/// as the facade read them (`fields`, the error when they are refused as a whole).
pub(super) fn load_options(fields: JsResult<Fields>) -> JsResult<(Options, Option<JsValue>)> {
    let place = || Message::new("ToolIndex.load: options");
    let fields = fields?;
    let signal = options::signal(&fields, &|| place().add(".signal"))?;
    let options = options_of(&fields, &place)?;
    if !options.vectors.is_undefined() {
        let message =
            ".vectors: a snapshot holds its vectors; load takes limit, embed, onEmbedError and signal";
        return Err(place().add(message).type_error());
    }
    if !fields.is_undefined("explain") {
        let message = ".explain: a snapshot explains if its index was built with options.explain; load takes limit, embed, onEmbedError and signal";
        return Err(place().add(message).type_error());
    }
    Ok((options, signal))
}

/// A list of texts (strings by construction) as names in the core's form.
fn texts(list: &Array, place: &dyn Fn() -> Message) -> JsResult<NameList> {
    let units = host::measure(list).max(0.0) as usize;
    if !batch::fits_texts(list.length() as usize, units) {
        let message = " is too large: a ToolIndex reads at most 1,048,576 texts and 33,554,432 code units of each kind (descriptions, parameter names, …), as memory allows";
        return Err(place().add(message).range_error());
    }
    Ok(batch::write(list, units))
}

/// The tools' namespaces (SPEC 8: a string, or none when left out or null): per tool, the
/// first tool of the same namespace, or `None` when no tool has one.
fn namespaces(given: &Array, names: &Array, as_record: bool) -> JsResult<Option<Vec<u32>>> {
    let (mut tools, strings) = (Vec::new(), Array::new());
    for i in 0..given.length() {
        let value = given.get(i);
        if value.is_string() {
            tools.push(i);
            strings.push(&value);
        } else if !value.is_undefined() && !value.is_null() {
            let place = Message::new("ToolIndex: tools");
            let place = if as_record {
                place.add("[\"").add_js(&names.get(i)).add("\"]")
            } else {
                place.index(i)
            };
            return Err(must_be(place.add(".namespace"), "a string", &value));
        }
    }
    if tools.is_empty() {
        return Ok(None);
    }
    let units = batch::measured(&strings, &|| {
        Message::new("ToolIndex: the tools' namespaces")
    })?;
    let list = batch::write(&strings, units);
    let mut table = NameTable::with_capacity(list.len());
    let mut first = vec![NONE; given.length() as usize];
    for (k, &tool) in tools.iter().enumerate() {
        let name_of = |j: u32| list.get(j as usize);
        first[tool as usize] = match table.find(list.get(k), name_of) {
            Some(j) => tools[j as usize],
            None => {
                table.insert(k as u32, name_of);
                tool
            }
        };
    }
    Ok(Some(first))
}

/// The error for a vector the core refused: `place` names it (`options.vectors[3]`).
fn vector_error(place: Message, error: VectorError, dims: Option<usize>) -> JsValue {
    match error {
        VectorError::NotFinite { at } => place
            .index(at as u32)
            .add(" must be a finite number")
            .type_error(),
        VectorError::Length { got: 0, .. } if dims.is_none() => place
            .add(" must hold at least one number, got an empty vector")
            .type_error(),
        VectorError::Length { expected, got } => place
            .add(" has ")
            .add_js(&JsValue::from(got as u32))
            .add(" numbers; the index's vectors have ")
            .add_js(&JsValue::from(expected as u32))
            .type_error(),
    }
}

/// One vector as `host::read_vector(s)` reads it (a `Float64Array`; the caller's own
/// `Float32Array`, copied here rather than converted in JavaScript; or the caller's value
/// that is not array-like) into `buf`, checked.
fn vector_into(
    read: &JsValue,
    dims: Option<usize>,
    buf: &mut Vec<f64>,
    place: &dyn Fn() -> Message,
) -> JsResult<()> {
    if let Some(array) = read.dyn_ref::<Float32Array>() {
        let mut floats = vec![0f32; array.length() as usize];
        array.copy_to(&mut floats);
        widen(&floats, buf);
    } else if let Some(array) = read.dyn_ref::<Float64Array>() {
        buf.clear();
        buf.resize(array.length() as usize, 0.0);
        array.copy_to(buf);
    } else {
        return Err(must_be(place(), "an array of numbers", read));
    }
    vectors::check(buf, dims).map_err(|e| vector_error(place(), e, dims))
}

/// `floats` as f64 into `buf` (an index loop: at opt-level "z" iterator adapters stay
/// calls, and this runs once per component of every vector).
fn widen(floats: &[f32], buf: &mut Vec<f64>) {
    buf.clear();
    buf.resize(floats.len(), 0.0);
    let out = buf.as_mut_slice();
    let mut i = 0;
    while i < floats.len().min(out.len()) {
        out[i] = f64::from(floats[i]);
        i += 1;
    }
}

/// `options.vectors` into the core's store: one vector per tool, of one length.
fn read_vectors(value: &JsValue, count: usize) -> JsResult<Option<Vectors>> {
    let place = || Message::new("ToolIndex: options.vectors");
    if value.is_undefined() {
        return Ok(None);
    }
    if !value.is_object() {
        let what = "an iterable of vectors or a flat Float32Array";
        return Err(must_be(place(), what, value));
    }
    let read = host::read_vectors(value).map_err(|cause| unreadable(place(), &cause))?;
    let mut buf = Vec::new();
    if host::is_array(&read) {
        let rows: Array = read.unchecked_into();
        if rows.length() as usize != count {
            return Err(count_error(place(), rows.length(), count));
        }
        let mut store: Option<Vectors> = None;
        for i in 0..rows.length() {
            let row = rows.get(i);
            let dims = store.as_ref().map(Vectors::dims);
            vector_into(&row, dims, &mut buf, &|| place().index(i))?;
            let store = store.get_or_insert_with(|| {
                let mut v = Vectors::new(buf.len());
                v.reserve(count);
                v
            });
            store.push(&buf);
        }
        return Ok(store);
    }
    // One flat n × d Float32Array.
    let flat: Float32Array = read.unchecked_into();
    let len = flat.length() as usize;
    if count == 0 {
        return Ok(None);
    }
    if len == 0 || len % count != 0 {
        return Err(place()
            .add(": a flat Float32Array of ")
            .add_js(&JsValue::from(len as u32))
            .add(" numbers is not one vector of one length for each of the ")
            .add_js(&JsValue::from(count as u32))
            .add(" tools")
            .type_error());
    }
    let dims = len / count;
    let mut store = Vectors::new(dims);
    store.reserve(count);
    // Copied out a block of rows at a time: one crossing per block, not per vector.
    let block = (65_536 / dims).max(1);
    let mut rows = Vec::new();
    let mut first = 0;
    while first < count {
        let n = block.min(count - first);
        rows.resize(n * dims, 0f32);
        flat.subarray((first * dims) as u32, ((first + n) * dims) as u32)
            .copy_to(&mut rows);
        for (k, row) in rows.chunks_exact(dims).enumerate() {
            widen(row, &mut buf);
            vectors::check(&buf, Some(dims))
                .map_err(|e| vector_error(place().index((first + k) as u32), e, Some(dims)))?;
            store.push(&buf);
        }
        first += n;
    }
    Ok(Some(store))
}

/// The error for bytes that are not a snapshot this version loads: what is wrong with them,
/// in the core's words.
pub(super) fn snapshot_error(place: Message, error: SnapshotError) -> JsValue {
    let (texts, numbers, range) = error.words();
    let mut message = place.add(texts[0]);
    for (n, text) in numbers.iter().zip(&texts[1..]) {
        if let Some(n) = n {
            message = message.add_js(&JsValue::from(*n as f64));
        }
        message = message.add(text);
    }
    if range {
        message.range_error()
    } else {
        message.type_error()
    }
}

fn count_error(place: Message, got: u32, count: usize) -> JsValue {
    place
        .add(" holds ")
        .add_js(&JsValue::from(got))
        .add(" vectors for ")
        .add_js(&JsValue::from(count as u32))
        .add(" tools: one per tool, in the order the tools are read")
        .type_error()
}

#[wasm_bindgen]
impl ToolIndex {
    /// The facade read the tools (host.js `readTools`: their texts, or why they could not
    /// be read) and then the options (`readFields` by [`INDEX`]).
    #[wasm_bindgen(constructor)]
    pub fn construct(tools: JsValue, read: JsValue, options: host::Fields) -> JsResult<JsValue> {
        let place = || Message::new("ToolIndex: tools");
        if !tools.is_object() {
            let what = "an iterable of tools or a record of tools keyed by name";
            return Err(must_be(place(), what, &tools));
        }
        let read = host::caught(read).map_err(|cause| unreadable(place(), &cause))?;
        let read: host::ToolTexts = match read.dyn_into::<host::Unreadable>() {
            Ok(u) => return Err(unreadable(place().add_js(&u.at()), &u.cause())),
            Err(read) => read.unchecked_into(),
        };
        let as_record = read.record();
        let at = || Message::new("ToolIndex: options");
        let fields = options::read_fields(&options, INDEX, &at)?;
        let options = options_of(&fields, &at)?;

        let names = read.names();
        let measured = host::measure(&names);
        if measured < 0.0 {
            let i = (-measured - 1.0) as u32;
            return Err(must_be(
                place().index(i).add(".name"),
                "a string",
                &names.get(i),
            ));
        }
        let count = names.length() as usize;
        if !batch::fits(count, measured as usize) {
            return Err(batch::too_big(place()));
        }
        let name_list = batch::write(&names, measured as usize);
        let mut seen = NameTable::with_capacity(count);
        for i in 0..count as u32 {
            if !seen.insert(i, |j| name_list.get(j as usize)) {
                let message = place()
                    .index(i)
                    .add(" reuses the name \"")
                    .add_js(&names.get(i));
                return Err(message.add("\"; tool names must be unique").type_error());
            }
        }
        let vectors = read_vectors(&options.vectors, count)?;
        if options.embed.is_some() && vectors.is_none() {
            return Err(Message::new(
                "ToolIndex: options.embed needs options.vectors (the tools' vectors, to rank its answers against)",
            )
            .type_error());
        }

        let descriptions = texts(&read.descriptions(), &place)?;
        let lists = [
            (
                Field::ParamName,
                texts(&read.param_names(), &place)?,
                read.param_name_ends(),
            ),
            (
                Field::ParamDescription,
                texts(&read.param_descriptions(), &place)?,
                read.param_description_ends(),
            ),
            (
                Field::ParamEnum,
                texts(&read.param_enums(), &place)?,
                read.param_enum_ends(),
            ),
        ];
        // Each tool's texts, in one flat list: each list's texts come in tool order, tool
        // i's ending at `ends[i]`.
        let texts = count + lists[0].1.len() + lists[1].1.len() + lists[2].1.len();
        let mut flat: Vec<(Field, &[u16])> = Vec::with_capacity(texts);
        let mut ranges = Vec::with_capacity(count);
        let mut cursors = [0usize; 3];
        for tool in 0..count {
            let start = flat.len();
            let description = descriptions.get(tool);
            if !description.is_empty() {
                flat.push((Field::Description, description));
            }
            for ((field, list, ends), at) in lists.iter().zip(cursors.iter_mut()) {
                let end = ends.get(tool).map_or(0, |&e| e as usize).min(list.len());
                while *at < end {
                    flat.push((*field, list.get(*at)));
                    *at += 1;
                }
            }
            ranges.push(start..flat.len());
        }
        let docs: Vec<ToolDoc> = ranges
            .into_iter()
            .enumerate()
            .map(|(tool, range)| ToolDoc {
                name: name_list.get(tool),
                texts: &flat[range],
            })
            .collect();
        let mut index = Index::build_with(&docs, Params::default(), options.explain);
        if let Some(first) = namespaces(&read.namespaces(), &names, as_record)? {
            // One per tool, each its namespace's first tool or none: set as read.
            let _ = index.set_namespaces(first);
        }
        if let Some(v) = vectors {
            // One per tool: read_vectors counted them.
            let _ = index.set_vectors(v);
        }
        let limit = options.limit.unwrap_or(DEFAULT_LIMIT);
        Ok(Self::made(
            index,
            Fusion::default(),
            frozen(names),
            limit,
            options,
        ))
    }

    fn made(index: Index, fusion: Fusion, names: Array, limit: u32, options: Options) -> JsValue {
        let size = index.len() as u32;
        let dimensions = index.vectors().map(|v| v.dims() as u32);
        let built = Built {
            index,
            fusion,
            names,
            embed: options.embed,
            on_embed_error: options.on_embed_error,
        };
        let index = ToolIndex {
            built: Rc::new(RefCell::new(Some(Rc::new(built)))),
            size,
            limit,
            dimensions,
        };
        frozen(JsValue::from(index))
    }

    #[wasm_bindgen(getter)]
    pub fn size(&self) -> u32 {
        self.size
    }

    #[wasm_bindgen(getter)]
    pub fn dimensions(&self) -> JsValue {
        self.dimensions.map_or(JsValue::NULL, JsValue::from)
    }

    /// The rows for one context (what the `entries` function, made in api.js, calls): the
    /// facade read it (host.js `readFields` by [`CONTEXT`]: its kind, the key whose read
    /// threw, `message` and `history`, and the history's strings, `readStrings`).
    #[wasm_bindgen(js_name = entriesFor)]
    pub fn entries_for(
        &self,
        context: host::Fields,
        names: Option<host::Strings>,
    ) -> JsResult<JsValue> {
        let built = live(&self.built, "entries")?;
        let context = Context {
            read: context,
            names,
        };
        let Some(embed) = built.embed.clone() else {
            return Ok(match message_of(context)? {
                Some((_, query, history)) => rows(&built, &query, None, &history, self.limit),
                None => host::rows(&built.names, &[]),
            });
        };
        // With `embed`, entries returns a Promise: an unreadable context rejects it.
        let message = match message_of(context) {
            Ok(message) => message,
            Err(error) => return Ok(Promise::reject(&error).into()),
        };
        let Some((message, query, history)) = message.filter(|(_, q, _)| built.index.has_word(q))
        else {
            return Ok(Promise::resolve(&host::rows(&built.names, &[])).into());
        };
        match host::call1(&embed, &message) {
            // The answer is awaited in JavaScript (`host.js` `afterEmbed`), which then
            // finishes the ranking through the door (`Embedding::rank`): nothing of the
            // turn waits inside the module, so an `embed` that never settles keeps nothing
            // of it alive.
            Ok(value) => {
                let embedding = Embedding {
                    built: self.built.clone(),
                    limit: self.limit,
                    query,
                    history,
                };
                Ok(after_embed(&value, embedding).into())
            }
            Err(thrown) => {
                let rows = embedded(&built, self.limit, &query, &history, Err(thrown));
                Ok(Promise::resolve(&rows).into())
            }
        }
    }

    /// At most `limit` hits with a score above 0, best first; the facade read the options
    /// (host.js `readFields` by [`SEARCH`]).
    pub fn search(&self, query: JsValue, options: host::Fields) -> JsResult<JsValue> {
        let asked = self.asked("search", &query, &options)?;
        let built = &asked.built;
        let mut found: Vec<Hit> = Vec::new();
        match &asked.vector {
            Some(v) => built
                .index
                .hybrid(&asked.query, v, &built.fusion, asked.limit, &mut found),
            None => built.index.search(&asked.query, asked.limit, &mut found),
        }
        let indices: Vec<u32> = found.iter().map(|h| h.tool).collect();
        let scores: Vec<f64> = found.iter().map(|h| h.score).collect();
        Ok(host::hits(&built.names, &indices, &scores))
    }

    /// The whole index (names, vectors, the ranking's parameters) as bytes for `load`.
    pub fn save(&self) -> JsResult<Uint8Array> {
        let built = live(&self.built, "save")?;
        let units = host::measure(&built.names).max(0.0) as usize;
        let names = batch::write(&built.names, units);
        let bytes = snapshot::save(&built.index, names.iter(), &built.fusion, self.limit);
        Ok(Uint8Array::from(&bytes[..]))
    }

    /// An index from the bytes of `save()`, checked: it ranks as the index saved, or the
    /// bytes are refused with the reason. From a `Response`, a `Blob` or a `ReadableStream`
    /// (`load.rs`), a Promise of it. The facade judged what source `bytes` are (host.js
    /// `sourceOf`, `undefined` for a non-object or a typed array) and read the options
    /// (`readFields` by [`LOAD`]).
    pub fn load(bytes: JsValue, source: JsValue, options: host::Fields) -> JsResult<JsValue> {
        let at = || Message::new("ToolIndex.load: options");
        let fields = options::read_fields(&options, LOAD, &at);
        let place = || Message::new("ToolIndex.load: bytes");
        let view = host::bytes_of(&bytes).map_err(|cause| unreadable(place(), &cause))?;
        let Some(array) = view.dyn_ref::<Uint8Array>() else {
            // (`isView` reads an internal slot: no code of the caller's runs.)
            if js_sys::ArrayBuffer::is_view(&bytes) {
                let message = " must be a Uint8Array (from index.save()), got a typed array or DataView of another kind: view its bytes as new Uint8Array(view.buffer, view.byteOffset, view.byteLength)";
                return Err(place().add(message).type_error());
            }
            if let Some(promise) = super::load::streamed(&source, fields) {
                return Ok(promise.into());
            }
            return Err(must_be(place(), "a Uint8Array (from index.save())", &bytes));
        };
        let (options, _) = load_options(fields)?;
        decode(array.to_vec(), options, &place)
    }

    /// Frees the index now rather than at garbage collection; later searches (and its
    /// `entries`) throw. Calling it again does nothing.
    pub fn dispose(&self) {
        let built = self.built.borrow_mut().take();
        drop(built);
    }
}

/// A query and its options as `search` and `explain` read them (`method` names them in
/// errors): the index, the query's code units, the hits wanted and the query's vector
/// (when given to an index with vectors: then the ranking is hybrid).
pub(super) struct Asked {
    pub built: Rc<Built>,
    pub query: Vec<u16>,
    pub limit: usize,
    pub vector: Option<Vec<f64>>,
}

impl ToolIndex {
    pub(super) fn asked(
        &self,
        method: &str,
        query: &JsValue,
        options: &host::Fields,
    ) -> JsResult<Asked> {
        let named = |what: &str| Message::new("ToolIndex.").add(method).add(what);
        let place = || named(": query");
        if !query.is_string() {
            return Err(must_be(place(), "a string", query));
        }
        let at = || named(": options");
        let fields = options::read_fields(options, SEARCH, &at)?;
        let limit = limit_of(&fields, &at)?.unwrap_or(self.limit);
        let vector = fields.named("vector");
        let built = live(&self.built, method)?;
        let dims = built.index.vectors().map(Vectors::dims);
        let vector = match dims {
            Some(_) if !vector.is_undefined() => {
                let mut buf = Vec::new();
                let place = || at().add(".vector");
                let read =
                    host::read_vector(&vector).map_err(|cause| unreadable(place(), &cause))?;
                vector_into(&read, dims, &mut buf, &place)?;
                Some(buf)
            }
            _ => None,
        };
        let query = batch::name_units(query, &place)?;
        Ok(Asked {
            built,
            query,
            limit: limit as usize,
            vector,
        })
    }
}

/// The index of a snapshot's bytes (`place` names them), with `load`'s options.
pub(super) fn decode(
    bytes: Vec<u8>,
    options: Options,
    place: &dyn Fn() -> Message,
) -> JsResult<JsValue> {
    let loaded = snapshot::load(bytes).map_err(|e| snapshot_error(place(), e))?;
    if options.embed.is_some() && loaded.index.vectors().is_none() {
        let message =
            "ToolIndex.load: options.embed needs a snapshot with vectors (this one has none)";
        return Err(Message::new(message).type_error());
    }
    let text = host::text(&loaded.name_units);
    let mut spans = Vec::with_capacity(3 * loaded.name_ends.len());
    let mut start = 0;
    for &end in &loaded.name_ends {
        spans.extend_from_slice(&[0, start, end]);
        start = end;
    }
    let names = host::cut(&Array::of1(&text), &spans);
    // The saved limit unless the options give one.
    let limit = options.limit.unwrap_or(loaded.limit);
    Ok(ToolIndex::made(
        loaded.index,
        loaded.fusion,
        frozen(names),
        limit,
        options,
    ))
}

/// The code units of the history's last message (a string), if the context has one.
type History = Option<Vec<u16>>;

/// A turn's context as the facade read it (see [`ToolIndex::entries_for`]).
struct Context {
    read: host::Fields,
    names: Option<host::Strings>,
}

/// The turn's message (a string, or an object's `message`) and its code units, and the
/// last of the object's `history` (SPEC 8: the run's earlier user messages, oldest first).
fn message_of(context: Context) -> JsResult<Option<(JsValue, Vec<u16>, History)>> {
    let place = |key: &str| Message::new("ToolIndex.entries: context.").add(key);
    let read = &context.read;
    let (message, history) = match Kind::of(kinds_at(read.kinds(), 0)) {
        Some(Kind::String) => (read.options(), JsValue::UNDEFINED),
        Some(Kind::Object | Kind::Array) => {
            let values = read.values();
            if let Some(i) = read.unread() {
                // (What the read threw stands where its value would.)
                let key = CONTEXT.get(i as usize).copied().unwrap_or("");
                return Err(unreadable(place(key), &values.get(i)));
            }
            (values.get(0), values.get(1))
        }
        _ => return Ok(None),
    };
    let history = match context.names {
        Some(names) if !history.is_undefined() && !history.is_null() => {
            let (list, _) = batch::listed(&names, &|| place("history"))?;
            let last = list.get(list.length().wrapping_sub(1));
            last.is_string().then(|| batch::units_of(&last))
        }
        _ => None,
    };
    if !message.is_string() {
        return Ok(None);
    }
    let query = batch::name_units(&message, &|| Message::new("ToolIndex.entries: context"))?;
    Ok(Some((message, query, history)))
}

/// One turn's rows once `embed` answered: the hybrid ranking; a failure (a throw, a
/// rejection, a vector of another length) goes to `onEmbedError` and that turn ranks
/// lexically.
fn embedded(
    built: &Built,
    limit: u32,
    query: &[u16],
    history: &History,
    answer: JsResult<JsValue>,
) -> JsValue {
    let dims = built.index.vectors().map(Vectors::dims);
    let mut buf = Vec::new();
    let place = || Message::new("ToolIndex: the vector embed(message) answered");
    let checked = answer.and_then(|value| {
        let read = host::read_vector(&value).map_err(|cause| unreadable(place(), &cause))?;
        vector_into(&read, dims, &mut buf, &place)
    });
    if let Err(error) = checked {
        if let Some(report) = &built.on_embed_error {
            // What onEmbedError throws is ignored: the turn goes on, lexically.
            let _ = host::call1(report, &error);
        }
        return rows(built, query, None, history, limit);
    }
    rows(built, query, Some(&buf), history, limit)
}

#[wasm_bindgen(raw_module = "./host.js")]
extern "C" {
    /// Waits for `embed`'s answer, then finishes the turn with `embedding` through the
    /// door: a promise of the rows.
    #[wasm_bindgen(js_name = afterEmbed)]
    fn after_embed(answer: &JsValue, embedding: Embedding) -> Promise;
}

/// The module's half of `entries` with `embed` while JavaScript waits for the answer:
/// the turn's message and the history's last, to rank once it is in.
#[wasm_bindgen(skip_typescript)]
pub struct Embedding {
    built: Shared,
    limit: u32,
    query: Vec<u16>,
    history: History,
}

#[wasm_bindgen]
impl Embedding {
    /// The rows once `embed` answered (`failed` false: `answer` is the vector) or failed
    /// (`answer` what it threw or rejected with).
    pub fn rank(self, failed: bool, answer: JsValue) -> JsResult<JsValue> {
        let built = live(&self.built, "entries")?;
        let answer = if failed { Err(answer) } else { Ok(answer) };
        Ok(embedded(
            &built,
            self.limit,
            &self.query,
            &self.history,
            answer,
        ))
    }
}

fn live(shared: &Shared, what: &str) -> JsResult<Rc<Built>> {
    let built = shared.borrow().clone();
    built.ok_or_else(|| {
        Message::new("ToolIndex: ")
            .add(what)
            .add("() after dispose()")
            .error()
    })
}

/// The rows `{ tool }` of `entries` for a query (hybrid with a vector) and the history's
/// last message, as the core ranks them (`Index::entries`).
fn rows(
    built: &Built,
    query: &[u16],
    vector: Option<&[f64]>,
    history: &History,
    limit: u32,
) -> JsValue {
    let mut found = Vec::new();
    let vector = vector.map(|v| (v, &built.fusion));
    let history = history.as_deref();
    built
        .index
        .entries(query, vector, history, limit as usize, &mut found);
    host::rows(&built.names, &found)
}
