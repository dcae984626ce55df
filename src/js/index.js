// @ts-check
// ToolIndex (SPEC 6, 8): the facade reads the tools (JSON schemas, zod), vectors and calls'
// values once each and waits; the module (src/js/index.rs) checks, ranks, saves and loads.
import * as wasm from "./tool_palette.js";
import { FIELDS, NONE as NO_NAMESPACE } from "./wire.js";
import { allStrings, attempt, bounded, checked, drop, enter, exactRows, fields, forget, guarded, isFunction, isObject, keep, mustBe, attachRecord, putNames, signal as checkSignal, slot, strings, decodeStrings, recordOf, withRecord, whenCollected } from "./host.js";
import { calls } from "./calls.js";

const OPTIONS = ["limit", "vectors", "embed", "onEmbedError", "explain", "signal"];
const NO_ROWS = /** @type {readonly any[]} */ (Object.freeze([]));
// The module's answer for memory that ran out (index.rs `indexer`).
const NO_ROOM = 0xffffffff;
export const noRoom = (where) => new RangeError(`${where} could not be indexed: the WebAssembly module's memory ran out`);

/** Tool search over the tools' names, descriptions and parameter schemas, in the Rust core. */
export class ToolIndex {
  constructor(tools, options) { enter(build, this, [tools, options]); }

  /** @type {import("./tool-palette.js").ToolIndex["search"]} */
  search(query, options) { return search(this, ToolIndex, query, options); }

  /** @type {import("./tool-palette.js").ToolIndex["explain"]} */
  explain(query, options) {
    return ask(this, ToolIndex, "explain", query, options, (ix, limit, vector, names) => {
      const to = (calls.to = new Explaining(names));
      if (!wasm.explain(ix, limit, vector)) throw new Error("ToolIndex.explain: this index keeps no field counts to explain with; build it with options.explain: true (new ToolIndex(tools, { explain: true })), and its snapshots keep them too");
      const freeze = (v) => (isObject(v) && Object.values(v).forEach(freeze), Object.freeze(v));
      return freeze(to.hits);
    });
  }

  get entries() { return (context) => this.entriesFor(context); }

  /** @type {import("./tool-palette.js").ToolIndex["entriesFor"]} */
  entriesFor(context) { return entriesOf(this, ToolIndex, context, ([ix], more, count, vector, read) => rowsOf(more.names, wasm.entries(ix, count, vector, calledOf(more, read)))); }

  /** The rows naming these tools of the index exactly, as `entries` makes them. */
  /** @type {import("./tool-palette.js").ToolIndex["rows"]} */
  rows(names) {
    return withRecord(this, ToolIndex, "rows", (_, more) => {
      const where = "ToolIndex.rows: names";
      const list = strings(names, where);
      const known = positions(more);
      const bad = list.findIndex((name) => !known.has(name));
      if (bad >= 0) throw new TypeError(`${where}[${bad}] ("${list[bad]}") is not a tool of this index`);
      return rowsOf(list, list.keys());
    });
  }

  get size() { return recordOf(this, ToolIndex, "size").more.names.length; }
  get names() { return recordOf(this, ToolIndex, "names").more.names; }
  get dimensions() { return recordOf(this, ToolIndex, "dimensions").more.dims; }
  save() { return withRecord(this, ToolIndex, "save", ([ix], { names }) => (putNames(names, "ToolIndex.save: the index's names"), wasm.save(ix, names.length))); }
  static load(bytes, options) { return enter(load, undefined, [bytes, options]); }
}
guarded(ToolIndex, ["search"], ["explain"], ["entriesFor"], ["rows"], ["save"]);

// `search` of an index (a ToolIndex's tools, a SkillIndex's skills, by name).
export function search(self, Class, query, options) {
  return ask(self, Class, "search", query, options, (ix, limit, vector, names) => {
    const found = wasm.search(ix, limit, vector);
    const hits = new Array(found.length / 2);
    for (let i = 0; i < hits.length; i++) hits[i] = Object.freeze({ name: names[found[2 * i]], score: found[2 * i + 1] });
    return Object.freeze(hits);
  });
}

// `entries(context)` of an index: `rows(slots, more, count, vector)` over the message and
// the history's last in the batch. With `embed`, a Promise: embed's answer is awaited here
// (not in the module), then ranked.
export function entriesOf(self, Class, context, rows) {
  recordOf(self, Class, "entriesFor");
  return withRecord(self, Class, "entries", (slots, more) => {
    const where = `${Class.name}.entries: context`;
    let read;
    try { if ((read = contextOf(context, where))) putNames(read, where); } catch (error) { if (more.embed) return Promise.reject(error); throw error; }
    if (!more.embed) return read ? rows(slots, more, read.length, undefined, read) : NO_ROWS;
    // (No word to rank in the message, index.rs `has_word`: embed is not asked.)
    if (!read || !wasm.has_word()) return Promise.resolve(NO_ROWS);
    const rank = (failed) => (answer) => enter(embedded, self, [Class, rows, read, failed, answer], false);
    try { return Promise.resolve(more.embed(read[0])).then(rank(false), rank(true)); } catch (error) { return Promise.resolve().then(() => rank(true)(error)); } // (or its then/constructor)
  });
}

/** @this {ToolIndex} */
function build(tools, options) {
  const where = "ToolIndex: tools";
  if (!isObject(tools)) throw mustBe(where, "an iterable of tools or a record of tools keyed by name", tools);
  const read = readTools(tools), names = read.names;
  const values = fields(options, OPTIONS.slice(0, 5), "ToolIndex: options");
  const [limit, embed, onEmbedError, explain] = optionsOf(values, "ToolIndex: options");
  const bad = names.findIndex((name) => typeof name !== "string");
  if (bad >= 0) throw mustBe(`${where}[${bad}].name`, "a string", names[bad]);
  putNames(names, where);
  const ix = slot();
  try {
    const dup = wasm.indexer(ix, names.length, limit, explain === true);
    if (dup === NO_ROOM) throw noRoom(where);
    if (dup !== undefined) throw new TypeError(`${where}[${dup}] reuses the name "${names[dup]}"; tool names must be unique`);
    if (!readVectors(ix, values[1], names.length) && embed) throw new TypeError("ToolIndex: options.embed needs options.vectors (the tools' vectors, to rank its answers against)");
    if (!wasm.finish(ix, ...unitsOf(read, where), Uint32Array.from(read.parts), namespacesOf(read, where))) throw noRoom(where);
  } catch (error) { throw (drop(ix), error); }
  finishIndex(this, ix, names, embed, onEmbedError);
}

// A ToolIndex over the index in slot `ix`, its record attached, frozen.
const finishIndex = (self, ix, names, embed, onEmbedError) => (attachRecord(self, [ix], { names: Object.freeze(names), embed, onEmbedError, dims: wasm.dimensions(ix) ?? null }), Object.freeze(self));

/** @param {unknown[]} values the options read (`fields`) @param {string} where */
export const optionsOf = ([limit, , embed, onEmbedError, explain], where) => [checked(limit, "limit", `${where}.limit`), checked(embed, "function", `${where}.embed`), checked(onEmbedError, "function", `${where}.onEmbedError`), checked(explain, "flag", `${where}.explain`)];

// search or explain: the call read and checked, the query's vector checked, the query put in.
// (An index's ranking is in the last of its slots.)
function ask(self, Class, method, query, options, f) {
  const where = `${Class.name}.${method}: `;
  if (typeof query !== "string") throw mustBe(`${where}query`, "a string", query);
  const [limit, vector] = fields(options, ["limit", "vector"], `${where}options`);
  checked(limit, "limit", `${where}options.limit`);
  return withRecord(self, Class, method, (slots, { names, dims }) => {
    const ix = slots.at(-1);
    const hybrid = dims !== null && vector !== undefined ? checkVector((v) => wasm.fitting(ix, v), vector, `${where}options.vector`, dims) : undefined;
    putNames([query], `${where}query`);
    return f(ix, limit, hybrid, names);
  });
}

// A context's message and the history's last (SPEC 8), or undefined without a message. A
// history given empty (a run's first turn) is "": the core ranks it as a turn of a run. The
// context's `called` (the tools the run's model called) rides along as the array's `called`.
function contextOf(context, where) {
  if (!isObject(context)) return typeof context === "string" ? [context] : undefined;
  const [message, history, called] = fields(context, ["message", "history", "called"], where);
  const last = history == null ? [] : allStrings(history, `${where}.history`).slice(-1);
  if (history != null && last.length === 0) last.push("");
  const calls = called == null ? [] : allStrings(called, `${where}.called`);
  return typeof message === "string" ? Object.assign([message, ...last], { called: calls }) : undefined;
}

// An index's names to their positions, made at the first call that needs it (names are exact keys).
const positions = (more) => (more.positions ??= new Map(more.names.map((name, i) => [name, i])));

// The indices of the context's called names that are the index's tools (others left out).
function calledOf(more, read) {
  const called = read?.called ?? [];
  if (called.length === 0) return new Uint32Array(0);
  const at = positions(more);
  return Uint32Array.from(called.filter((name) => at.has(name)), (name) => at.get(name));
}

// The rows once embed answered (or `failed`): lexical when it failed (onEmbedError gets why).
/** @this {unknown} */
function embedded(Class, rows, read, failed, answer) {
  return withRecord(this, Class, "entries", (slots, more) => {
    let vector;
    try { vector = failed ? undefined : checkVector((v) => wasm.fitting(slots.at(-1), v), answer, `${Class.name}: the vector embed(message) answered`, more.dims); } catch (error) { [failed, answer] = [true, error]; }
    try { if (failed) more.onEmbedError?.(answer); } catch {}
    putNames(read, `${Class.name}.entries: context`);
    return rows(slots, more, read.length, vector, read);
  });
}

// The rows of `entries`, each known to the routing as one the index made (host.js `exactRows`).
const rowsOf = (names, found) => Object.freeze(Array.from(found, (i) => {
  const row = Object.freeze({ tool: names[i] });
  exactRows.add(row);
  return row;
}));

// A typed array of any realm as a plain view of its bytes, read by its internal slots.
const [typedName, typedBuffer, typedOffset, typedLength] = [Symbol.toStringTag, "buffer", "byteOffset", "length"].map((key) => /** @type {(this: unknown) => any} */ (Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Uint8Array.prototype), key)?.get));
/** @returns {Uint8Array | Float32Array | Float64Array | Uint16Array | undefined | false} (any typed array, in fact) */
export const realView = (value) => typedName.call(value) && new /** @type {any} */ (globalThis)[typedName.call(value)](typedBuffer.call(value), typedOffset.call(value), typedLength.call(value));

// A vector read as numbers and checked by the module (`check(v)`, its verdict): the
// vector, or the TypeError why not.
function checkVector(check, value, where, dims) {
  const v = attempt(() => vectorOf(value), where);
  if (!(v instanceof Float32Array || v instanceof Float64Array)) throw mustBe(where, "an array of numbers", value);
  const verdict = check(v);
  if (verdict > 1) throw new TypeError(`${where}[${verdict - 2}] must be a finite number`);
  if (verdict) throw new TypeError(dims == null ? `${where} must hold at least one number, got an empty vector` : `${where} has ${v.length} numbers; the index's vectors have ${dims}`);
  return v;
}

// A vector as a Float32Array or Float64Array (what is no number NaN), or the value itself.
function vectorOf(value) {
  const view = realView(value);
  if (view instanceof Float32Array || view instanceof Float64Array) return view;
  const items = view || value;
  const n = view || isObject(value) || isFunction(value) ? items.length : -1;
  if (!(Number.isSafeInteger(n) && n >= 0)) return value;
  const out = new Float64Array(n);
  for (let i = 0, x; i < n; i++) out[i] = typeof (x = items[i]) === "number" ? x : NaN;
  return out;
}

// options.vectors (per tool, or a flat n × d Float32Array) into the index being built in
// slot `ix`: whether any. (`item`: what each vector is of, a tool or a skill.)
export function readVectors(ix, value, count, where = "ToolIndex: options.vectors", item = "tool") {
  if (value === undefined) return false;
  if (!isObject(value)) throw mustBe(where, "an iterable of vectors or a flat Float32Array", value);
  /** @type {any} */
  let flat;
  let rows = attempt(() => ((flat = realView(value)) instanceof Float32Array ? [] : bounded(value).map(vectorOf)), where);
  const d = flat instanceof Float32Array && flat.length / count;
  if (d !== false && count && !(Number.isInteger(d) && d > 0)) throw new TypeError(`${where}: a flat Float32Array of ${flat.length} numbers is not one vector of one length for each of the ${count} ${item}s`);
  if (d !== false) rows = Array.from({ length: count }, (_, i) => flat.subarray(i * d, i * d + d));
  if (rows.length !== count) throw new TypeError(`${where} holds ${rows.length} vectors for ${count} ${item}s: one per ${item}, in the order the ${item}s are read`);
  rows.forEach((row, i) => checkVector((v) => wasm.vector(ix, v), row, `${where}[${i}]`, i ? rows[0].length : undefined));
  return count > 0;
}

// The tools read once: names, namespaces, and per tool four parts of texts (`parts`: ends).
function readTools(tools) {
  /** @type {{ record: boolean, names: unknown[], namespaces: unknown[], texts: string[], parts: number[], size: Float64Array }} */
  const out = { record: false, names: [], namespaces: [], texts: [], parts: [], size: new Float64Array(8) };
  const items = attempt(() => (isFunction(tools[Symbol.iterator]) ? bounded(tools) : ((out.record = true), Object.keys(tools))), "ToolIndex: tools");
  items.forEach((item, i) => attempt(() => {
    let tool = out.record ? tools[item] : item;
    // A list held by an object (an MCP tools/list result) is no tool named by its key.
    if (out.record && Array.isArray(tool)) throw new TypeError("it is an array, not a tool: pass the list of tools itself (an MCP tools/list result's `tools`), or a record of tools keyed by name");
    const inner = out.record || !isObject(tool) || "name" in tool ? undefined : tool.function;
    if (isObject(inner)) tool = inner; // Chat Completions' { type: "function", function }
    const [parts, ok] = [/** @type {string[][]} */ ([[], [], [], []]), isObject(tool)];
    out.names.push(out.record ? item : ok ? tool.name : undefined);
    const description = ok ? tool.description : undefined;
    if (typeof description === "string" && description !== "") parts[0].push(description);
    out.namespaces.push(ok ? tool.namespace : undefined);
    const schema = ok ? jsonSchemaOf(tool.parameters ?? tool.inputSchema ?? tool.input_schema ?? tool.schema) : undefined;
    readSchema(schema, parts, new Set(), 0, schema);
    parts.forEach((texts, f) => {
      for (const text of texts) out.texts.push(text), out.size[2 * f]++, (out.size[2 * f + 1] += text.length);
      out.parts.push(out.texts.length);
    });
  }, () => `ToolIndex: tools[${out.record ? JSON.stringify(item) : i}]`));
  return out;
}

// A JSON schema, an AI SDK jsonSchema()/zodSchema(), a Standard Schema giving one, or zod 3/4.0/4.1.
function jsonSchemaOf(schema) {
  if (!isObject(schema) && !isFunction(schema)) return undefined;
  const standard = schema["~standard"];
  const json = isObject(standard) ? standard.jsonSchema : undefined;
  const input = isObject(json) ? json.input : undefined;
  if (isFunction(input)) return input.call(json, { target: "draft-07", libraryOptions: { unrepresentable: "any" } }); // z.date() as {}
  if (isObject(standard) && standard.vendor === "zod") return zodJsonSchema(schema, new Map(), 0);
  return "jsonSchema" in schema && "validate" in schema ? schema.jsonSchema : schema;
}

// A zod 3 or 4.0/4.1 schema as a JSON schema; each converted once (a recursion: a cycle).
function zodJsonSchema(schema, memo, depth) {
  if (!isObject(schema) || depth > 16) return undefined;
  if (memo.has(schema)) return memo.get(schema);
  const [json, inner] = [/** @type {Record<string, any>} */ ({}), (s) => zodJsonSchema(s, memo, depth + 1)];
  memo.set(schema, json);
  const { description, shape, element, options } = schema;
  if (typeof description === "string") json.description = description;
  if (isObject(shape)) json.properties = Object.fromEntries(Object.keys(shape).map((key) => [key, inner(shape[key])]));
  if (isObject(element)) json.items = inner(element);
  if (Array.isArray(options)) [json.enum, json.anyOf] = [options.filter((o) => typeof o === "string"), options.filter(isObject).map(inner)];
  else if (isObject(schema.enum)) json.enum = Object.values(schema.enum).filter((v) => typeof v === "string");
  const unwrap = ["unwrap", "removeDefault", "innerType"].find((method) => isFunction(schema[method]));
  const wrapped = unwrap === undefined || isObject(shape) || isObject(element) ? undefined : schema[unwrap]();
  if (isObject(wrapped) && wrapped !== schema) json.allOf = [inner(wrapped)];
  // zod 3 copies a description onto what wraps the described schema: read it once.
  if (json.allOf?.[0]?.description === json.description) delete json.description;
  return json;
}

// A schema's texts into `parts`, and those of schemas it holds (local $refs: pydantic's
// $defs), each once per tool (`seen`), 16 deep; the root's description is the tool's.
function readSchema(schema, parts, seen, depth, root) {
  if (!isObject(schema) || depth > 16) return;
  const { properties, items, prefixItems, additionalProperties, anyOf, oneOf, allOf, $ref } = schema;
  const holds = [properties, items, prefixItems, additionalProperties, anyOf, oneOf, allOf].some(isObject) || typeof $ref === "string";
  if (holds && seen.has(schema)) return;
  if (holds) seen.add(schema);
  if (depth > 0) {
    const { description, enum: values } = schema;
    if (typeof description === "string") parts[2].push(description);
    if (Array.isArray(values)) for (const value of values) if (typeof value === "string") parts[3].push(value);
  }
  if (!holds) return;
  const read = (held) => readSchema(held, parts, seen, depth + 1, root);
  if (isObject(properties)) for (const key of Object.keys(properties)) parts[1].push(key) && read(properties[key]);
  [items, additionalProperties, referenced($ref, root)].forEach(read);
  for (const list of [prefixItems, anyOf, oneOf, allOf]) if (Array.isArray(list)) list.forEach(read);
}

// What a local $ref ("#/$defs/Address": a JSON pointer through own keys) points to.
function referenced(ref, root) {
  if (ref === "#") return root;
  if (typeof ref !== "string" || !ref.startsWith("#/")) return undefined;
  let at = root;
  for (const token of ref.slice(2).split("/")) {
    let key = token.replaceAll("~1", "/").replaceAll("~0", "~");
    try { key = decodeURIComponent(key); } catch {}
    if (!isObject(at) || !Object.prototype.hasOwnProperty.call(at, key)) return undefined;
    at = at[key];
  }
  return at;
}

// The texts' code units and ends; a RangeError past what an index reads of one part.
/** @param {{ texts: string[], size: Float64Array }} read @param {string} where @returns {[Uint16Array, Uint32Array]} */
function unitsOf({ texts, size }, where) {
  for (let f = 0; f < 4; f++) if (!wasm.texts_fit(size[2 * f], size[2 * f + 1])) throw new RangeError(`${where} is too large: a ToolIndex reads at most 1,048,576 texts and 33,554,432 code units of each kind (descriptions, parameter names, …), as memory allows`);
  const [units, ends] = [new Uint16Array(size[1] + size[3] + size[5] + size[7]), new Uint32Array(texts.length)];
  let k = 0;
  texts.forEach((text, i) => {
    for (let j = 0; j < text.length; j++) units[k++] = text.charCodeAt(j);
    ends[i] = k;
  });
  return [units, ends];
}

// Per tool, the first tool of its namespace (NO_NAMESPACE: none), or nothing when none has one.
function namespacesOf({ namespaces, names, record }, where) {
  const [first, seen] = [new Uint32Array(namespaces.length).fill(NO_NAMESPACE), new Map()];
  namespaces.forEach((namespace, i) => {
    if (namespace == null) return;
    if (typeof namespace !== "string") throw mustBe(`${where}[${record ? `"${names[i]}"` : i}].namespace`, "a string", namespace);
    if (!seen.has(namespace)) seen.set(namespace, i);
    first[i] = seen.get(namespace);
  });
  return seen.size ? first : new Uint32Array(0);
}

// ToolIndex.load: the options' faults are thrown for bytes, a rejection for a stream.
function load(bytes, options) {
  const where = "ToolIndex.load: options";
  let source, read;
  try { source = attempt(() => sourceOf(bytes), "ToolIndex.load: source"); } catch (error) { source = error; }
  try {
    const values = fields(options, OPTIONS, where);
    const signal = checkSignal(values[5], `${where}.signal`);
    const [limit, embed, onEmbedError] = optionsOf(values, where);
    const refused = values[1] !== undefined ? "vectors: a snapshot holds its vectors" : values[4] !== undefined ? "explain: a snapshot explains if its index was built with options.explain" : "";
    if (refused) throw new TypeError(`${where}.${refused}; load takes limit, embed, onEmbedError and signal`);
    read = () => [limit, embed, onEmbedError, signal];
  } catch (error) { read = () => { throw error; }; }
  const view = attempt(() => realView(bytes), "ToolIndex.load: bytes");
  if (view instanceof Uint8Array) return loaded(new Load("ToolIndex.load: bytes"), view, read());
  if (ArrayBuffer.isView(bytes)) throw new TypeError("ToolIndex.load: bytes must be a Uint8Array (from index.save()), got a typed array or DataView of another kind: view its bytes as new Uint8Array(view.buffer, view.byteOffset, view.byteLength)");
  if (source instanceof Error) return Promise.reject(source);
  if (source) return streamed(source, read);
  throw mustBe("ToolIndex.load: bytes", "a Uint8Array (from index.save())", bytes);
}

// The index of a snapshot's bytes (`to` gets the names or why not), or the one a stream
// loaded into slot `ix`.
// loaded into slot `ix` (which stays the stream's to free should this throw).
/** @param {Load} to @param {Uint8Array} bytes @param {any[]} options @param {number} [ix] */
function loaded(to, bytes, [limit, embed, onEmbedError], ix) {
  const ours = ix === undefined;
  if (ix === undefined) {
    ix = slot();
    calls.to = to;
    if (!wasm.load(ix, bytes, limit)) throw (drop(ix), to.error ?? noRoom("ToolIndex.load: bytes"));
  }
  if (embed && wasm.dimensions(ix) === undefined) throw ((ours && drop(ix)), new TypeError("ToolIndex.load: options.embed needs a snapshot with vectors (this one has none)"));
  return finishIndex(Object.create(ToolIndex.prototype), ix, to.names, embed, onEmbedError);
}

// A source judged by shape: [a stream], [a Response's body] (USED, or null), [a Blob, true].
const USED = {};
const isStream = (value) => isObject(value) && isFunction(value.getReader);
function sourceOf(source) {
  if (!isObject(source) || ArrayBuffer.isView(source)) return undefined;
  if (isStream(source)) return [source];
  const body = source.body;
  if (body === null) return [null];
  if (isStream(body)) return [source.bodyUsed ? USED : body];
  return isFunction(source.stream) ? [source, true] : undefined;
}

// The index streamed in (src/js/index.rs `loading`, `poll`); whatever fails cancels the
// reader. The module is asked only after an await (on a settled promise's turn, never on
// the caller's stack, which could run out inside the module): the load holds JavaScript
// values. Its slots go with it, or with garbage collection if its promise is dropped.
async function streamed([value, blob], read) {
  await undefined;
  const options = read();
  const signal = options[3];
  if (value === USED) throw new TypeError("ToolIndex.load: source's body was read already (bodyUsed): a body is read once; load from a new Response, or from response.clone() made before reading it");
  if (signal?.read("aborted")) throw signal.read("reason");
  if (value === null) return enter(loaded, undefined, [new Load(BYTES), new Uint8Array(0), options], false);
  let stream, stop, onAbort;
  const reader = attempt(() => isStream((stream = blob ? value.stream() : value)) && stream.getReader(), "ToolIndex.load: source");
  if (!reader) throw mustBe("ToolIndex.load: source.stream()", "a ReadableStream", stream);
  const load = new Load(BYTES, reader);
  const [loading, ix] = enter(begun, undefined, [options[0]], false);
  const ours = { ix };
  const release = freeing(loading, ours);
  const token = {}; // (held by this frame only: a stalled load dropped is collected)
  whenCollected(token, release);
  const aborted = new Promise((_, reject) => (onAbort = () => { try { reject(signal.read("reason")); } catch (error) { reject(error); } }));
  aborted.catch(() => {});
  try {
    if (signal) try { signal.value.addEventListener("abort", onAbort, { once: true }); stop = () => signal.value.removeEventListener("abort", onAbort); } catch (cause) { throw signal.failed(cause); }
    for (;;) {
      const done = enter(polled, undefined, [loading, ix, load], false);
      if (load.error) throw load.error;
      if (done) {
        const index = enter(loaded, undefined, [load, undefined, options, ix], false);
        ours.ix = undefined; // (the index's now)
        return index;
      }
      await Promise.race([load.pending, aborted]);
    }
  } catch (error) {
    try { reader.cancel(error).catch(() => {}); } catch {}
    throw error;
  } finally {
    try { stop?.(); } catch {}
    forget(token);
    release();
  }
}
// What frees a load's slots (made out here: a closure of `streamed` would hold its whole
// scope, and through it the frame the garbage collector is to take).
const freeing = (loading, ours) => () => {
  try { drop(loading); } catch {}
  try { if (ours.ix !== undefined) drop(ours.ix); } catch {}
};
// A load's two slots, kept by it: the load's, and the index's it loads into.
function begun(limit) {
  const [loading, ix] = [slot(), slot()];
  [loading, ix].forEach(keep);
  if (!wasm.loading(loading, limit)) throw (drop(loading), drop(ix), noRoom("ToolIndex.load: source"));
  return [loading, ix];
}
function polled(loading, ix, load) {
  calls.to = load;
  return wasm.poll(loading, ix, load);
}
const BYTES = "ToolIndex.load: source's bytes";

// An explanation as the module hands it over (index.rs `Searcher::explain`) part by part,
// tools and terms by place: a hit, its parts, a lexical hit's fields, a field's terms.
class Explaining {
  /** @param {readonly string[]} names */
  constructor(names) {
    this.names = names;
    /** @type {any[]} */
    this.hits = [];
  }
  terms(units, ends) { this.words = decodeStrings(units, ends); }
  hit(tool, score, rank) { this.hits.push((this.at = /** @type {any} the hit being told */ ({ name: this.names[tool], score, rank, lexical: null, vector: null, fused: null }))); }
  lexical(score, rank) { this.at.lexical = { score, rank, fields: [] }; }
  similar(similarity, rank) { this.at.vector = { similarity, rank }; }
  fused(lexical, vector) { this.at.fused = { lexical, vector }; }
  field(field, score) { this.at.lexical.fields.push({ field: FIELDS[field], score, terms: [] }); }
  term(term, score, count) { this.at.lexical.fields.at(-1).terms.push({ term: /** @type {string[]} */ (this.words)[term], score, count }); }
}

// A load's JavaScript half (src/js/index.rs `Load`, `named`, `refused`): the names, or why the bytes are refused;
// `next`: the next chunk's length, undefined at the end, or the TypeError of a failed read.
class Load {
  /** @param {string} where @param {ReadableStreamDefaultReader} [reader] */
  constructor(where, reader) {
    this.where = where;
    this.reader = reader;
    this.chunks = 0;
  }
  named(units, ends) { this.names = decodeStrings(units, ends); }
  refused(range, units) { this.error = new (range ? RangeError : TypeError)(this.where + decodeStrings(units)[0]); }
  next() { return (this.pending = this.read()); }
  async read() {
    let read, view;
    try { read = await /** @type {ReadableStreamDefaultReader} */ (this.reader).read(); if (read.done) return undefined; read = read.value; } catch (cause) { throw new TypeError("ToolIndex.load: source could not be read", { cause }); }
    try { view = realView(read); } catch {}
    if (!(view instanceof Uint8Array)) throw mustBe(`ToolIndex.load: source's chunk ${this.chunks}`, "a Uint8Array", read);
    this.chunks++;
    return (this.chunk = view).length;
  }
  copy(from, to) { try { to.set(/** @type {Uint8Array} */ (this.chunk).subarray(from, from + to.length)); } catch {} } // (a buffer detached since: the checksum refuses)
}
