// ToolIndex (SPEC 6 and 8): tool search, a procedural layer built in. The facade reads the
// tools (their names, descriptions and parameter schemas: JSON schema or zod), the vectors
// and each call's values once each, waits for `embed` and a snapshot's stream, and builds
// the hits and rows from the module's indices and scores; the module (src/js/index.rs)
// checks, ranks, saves and loads.
import * as wasm from "./tool_palette.js";
import { bounded, checked, dispose, enter, fields, guarded, isFunction, isObject, mustBe, ofSignal, own, putNames, signal as checkSignal, strings, text, unreadable, use, using } from "./host.js";

const { Refused } = wasm;
const INDEX = ["limit", "vectors", "embed", "onEmbedError", "explain"];
const NO_ROWS = Object.freeze([]);
const NONE = 0xffffffff; // search::NONE: a tool without a namespace

/** Tool search over the tools' names, descriptions and parameter schemas, in the Rust core. */
export class ToolIndex {
  constructor(tools, options) {
    enter(build, this, [tools, options]);
  }

  search(query, options) {
    return ask(this, "search", query, options, (searcher, limit, hybrid, names) => {
      const found = searcher.search(limit, hybrid);
      const hits = new Array(found.length / 2);
      for (let i = 0; i < hits.length; i++) hits[i] = Object.freeze({ name: names[found[2 * i]], score: found[2 * i + 1] });
      return Object.freeze(hits);
    });
  }

  explain(query, options) {
    return ask(this, "explain", query, options, (searcher, limit, hybrid, names) => {
      const why = searcher.explain(limit, hybrid);
      if (why === undefined) throw new Error("ToolIndex.explain: this index keeps no field counts to explain with; build it with options.explain: true (new ToolIndex(tools, { explain: true })), and its snapshots keep them too");
      // serde-wasm-bindgen's records, each `name` and `term` a place until here.
      const terms = why.terms.map((units) => String.fromCharCode(...units));
      for (const hit of why.hits) {
        hit.name = names[hit.name];
        for (const field of hit.lexical?.fields ?? []) for (const part of field.terms) part.term = terms[part.term];
      }
      const freeze = (v) => (isObject(v) && Object.values(v).forEach(freeze), Object.freeze(v));
      return freeze(why.hits);
    });
  }

  /** A ready `entries` for ToolRouter and resolvePalette. */
  get entries() {
    return (context) => this.entriesFor(context);
  }

  // The rows for a context (a string, or `{ message, history }`); with `embed`, a Promise
  // of them (what fails before embed is called rejects it).
  entriesFor(context) {
    let rows;
    using(this, ToolIndex, "entries", (searcher, { names, embed }) => {
      let read;
      try {
        read = contextOf(context);
      } catch (error) {
        if (!embed) throw error;
        return (rows = Promise.reject(error));
      }
      if (read !== undefined) putNames(read, "ToolIndex.entries: context");
      if (!embed) return (rows = read === undefined ? NO_ROWS : rowsOf(names, searcher.entries(read.length, false)));
      if (read === undefined || !searcher.worded()) return (rows = Promise.resolve(NO_ROWS));
      // The answer is awaited here, then ranked through the door: nothing of the turn waits
      // in the module, so an embed that never settles keeps nothing of it alive.
      const rank = (failed) => (answer) => enter(embedded, this, [read, failed, answer]);
      try {
        rows = Promise.resolve(embed(read[0])).then(rank(false), rank(true));
      } catch (error) {
        // (Adopting the answer runs its code: a `then` or `constructor` that throws fails it.)
        rows = Promise.resolve().then(() => rank(true)(error));
      }
    });
    return rows;
  }

  get size() {
    return use(this, ToolIndex, "size").more.names.length;
  }

  get dimensions() {
    return use(this, ToolIndex, "dimensions").more.dims;
  }

  save() {
    return using(this, ToolIndex, "save", (searcher, { names }) => {
      putNames(names, "ToolIndex.save: the index's names");
      return searcher.save(names.length);
    });
  }

  /** An index from the bytes of save(), or a Promise of it from a Response, Blob or ReadableStream. */
  static load(bytes, options) {
    return enter(load, undefined, [bytes, options]);
  }

  dispose() {
    dispose(this, ToolIndex);
  }
}
guarded(ToolIndex, ["search"], ["explain"], ["entriesFor"], ["save"], ["dispose"]);

// The index as the caller asked it: the tools read, then the options, checked in the order
// the old binding checked them.
function build(tools, options) {
  const where = "ToolIndex: tools";
  if (!isObject(tools)) throw mustBe(where, "an iterable of tools or a record of tools keyed by name", tools);
  const read = readTools(tools);
  const values = fields(options, INDEX, "ToolIndex: options");
  const [limit, embed, onEmbedError, explain] = optionsOf(values, "ToolIndex: options");
  const { names } = read;
  const bad = names.findIndex((name) => typeof name !== "string");
  if (bad >= 0) throw mustBe(`${where}[${bad}].name`, "a string", names[bad]);
  putNames(names, where);
  const indexer = new wasm.Indexer(names.length);
  let texts;
  try {
    const dup = indexer.duplicate();
    if (dup !== undefined) throw new TypeError(`${where}[${dup}] reuses the name "${names[dup]}"; tool names must be unique`);
    if (!readVectors(indexer, values[1], names.length) && embed) throw new TypeError("ToolIndex: options.embed needs options.vectors (the tools' vectors, to rank its answers against)");
    texts = [...unitsOf(read, where), Uint8Array.from(read.fields), Uint32Array.from(read.ends), namespacesOf(read, where)];
  } catch (error) {
    indexer.free();
    throw error;
  }
  made(this, indexer.build(...texts, limit, explain === true), names, embed, onEmbedError);
}

// `this` holding `searcher` (the module's index) with the caller's names, frozen.
function made(self, searcher, names, embed, onEmbedError) {
  own(self, searcher, { names, embed, onEmbedError, dims: searcher.dimensions() ?? null });
  return Object.freeze(self);
}

// The options both the constructor and load take, checked: limit, embed, onEmbedError, explain.
const optionsOf = ([limit, , embed, onEmbedError, explain], where) => [checked(limit, "limit", `${where}.limit`), checked(embed, "function", `${where}.embed`), checked(onEmbedError, "function", `${where}.onEmbedError`), checked(explain, "flag", `${where}.explain`)];

// A search or an explain: the query and options read and checked, the query's vector (if
// the index has vectors) and the query put into the module, then `f`.
function ask(self, method, query, options, f) {
  const where = `ToolIndex.${method}: `;
  if (typeof query !== "string") throw mustBe(`${where}query`, "a string", query);
  const [limit, vector] = fields(options, ["limit", "vector"], `${where}options`);
  checked(limit, "limit", `${where}options.limit`);
  return using(self, ToolIndex, method, (searcher, more) => {
    const hybrid = more.dims !== null && vector !== undefined && setVector(searcher, vector, `${where}options.vector`, more.dims);
    putNames([query], `${where}query`);
    return f(searcher, limit, hybrid, more.names);
  });
}

// A turn's message and the history's last (SPEC 8), or undefined when it has no message.
function contextOf(context) {
  if (!isObject(context)) return typeof context === "string" ? [context] : undefined;
  const where = "ToolIndex.entries: context";
  const [message, history] = fields(context, ["message", "history"], where);
  const last = history == null ? [] : strings(history, `${where}.history`).slice(-1);
  return typeof message === "string" ? [message, ...last] : undefined;
}

// The rows once `embed` answered (`failed`: it threw or rejected with `answer`): hybrid, or
// lexical when it failed or answered no vector of the index's length (onEmbedError gets why).
function embedded(read, failed, answer) {
  return using(this, ToolIndex, "entries", (searcher, { names, dims, onEmbedError }) => {
    let hybrid = false;
    try {
      hybrid = !failed && setVector(searcher, answer, "ToolIndex: the vector embed(message) answered", dims);
    } catch (error) {
      [failed, answer] = [true, error];
    }
    try {
      if (failed) onEmbedError?.(answer);
    } catch {}
    putNames(read, "ToolIndex.entries: context");
    return rowsOf(names, searcher.entries(read.length, hybrid));
  });
}

const rowsOf = (names, found) => Object.freeze(Array.from(found, (i) => Object.freeze({ tool: names[i] })));

// ---------------------------------------------------------------- vectors

// A typed array (of any realm) as a plain view of this realm over its own bytes, read by its
// internal slots, whatever its own getters say; undefined for anything else; a detached one throws.
const TYPED = Object.getPrototypeOf(Uint8Array.prototype);
const [typedName, typedBuffer, typedOffset, typedLength] = [Symbol.toStringTag, "buffer", "byteOffset", "length"].map((key) => Object.getOwnPropertyDescriptor(TYPED, key).get);
function realView(value) {
  const name = typedName.call(value);
  return name && new globalThis[name](typedBuffer.call(value), typedOffset.call(value), typedLength.call(value));
}

// One vector as the module takes it: a Float32Array or Float64Array, a component that is
// no number NaN (the module refuses it); a value that is not array-like as it is.
function vectorOf(value) {
  if (!isObject(value) && !isFunction(value)) return value;
  const view = realView(value);
  if (view instanceof Float32Array || view instanceof Float64Array) return view;
  if (view && !(view instanceof BigInt64Array || view instanceof BigUint64Array)) return new Float64Array(view);
  const n = value.length;
  if (!Number.isSafeInteger(n) || n < 0) return value;
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const x = value[i];
    out[i] = typeof x === "number" ? x : NaN;
  }
  return out;
}

// Reads a vector (`where` names it) into `to` (an Indexer's or a Searcher's `vector`), which
// checks it against the index's `dims`: true, or the TypeError that says why not.
function setVector(to, value, where, dims) {
  let v;
  try {
    v = vectorOf(value);
  } catch (cause) {
    throw unreadable(where, cause);
  }
  if (!(v instanceof Float32Array || v instanceof Float64Array)) throw mustBe(where, "an array of numbers", value);
  const verdict = to.vector(v);
  if (verdict > 1) throw new TypeError(`${where}[${verdict - 2}] must be a finite number`);
  if (verdict === 1) throw new TypeError(dims == null ? `${where} must hold at least one number, got an empty vector` : `${where} has ${v.length} numbers; the index's vectors have ${dims}`);
  return true;
}

// `options.vectors` into the indexer, one per tool in the order the tools are read (or one
// flat n × d Float32Array): whether there were any.
function readVectors(indexer, value, count) {
  const where = "ToolIndex: options.vectors";
  if (value === undefined) return false;
  if (!isObject(value)) throw mustBe(where, "an iterable of vectors or a flat Float32Array", value);
  let flat, rows;
  try {
    flat = realView(value);
    if (!(flat instanceof Float32Array)) rows = bounded(value).map(vectorOf);
  } catch (cause) {
    throw unreadable(where, cause);
  }
  const d = rows ? 0 : flat.length / count;
  if (rows ? rows.length !== count : count && !(d >= 1 && Number.isInteger(d))) {
    throw new TypeError(rows ? `${where} holds ${rows.length} vectors for ${count} tools: one per tool, in the order the tools are read` : `${where}: a flat Float32Array of ${flat.length} numbers is not one vector of one length for each of the ${count} tools`);
  }
  let dims;
  for (let i = 0; i < count; i++) {
    setVector(indexer, rows ? rows[i] : flat.subarray(i * d, i * d + d), `${where}[${i}]`, dims);
    dims ??= rows ? rows[0].length : d;
  }
  return count > 0;
}

// ---------------------------------------------------------------- tools

// The texts of a tool set, read once: each tool's name and namespace as given (checked
// later), and its texts in the order the ranking reads them: its description, then its
// parameter schema's property names, descriptions and string `enum` values (nested ones
// too), each with its field (`search::Field`), and where each tool's texts end. Which
// texts weigh what is the ranking's business (src/search/).
function readTools(tools) {
  const out = { record: false, names: [], namespaces: [], texts: [], fields: [], ends: [] };
  let items;
  try {
    items = isFunction(tools[Symbol.iterator]) ? bounded(tools) : ((out.record = true), Object.keys(tools));
  } catch (cause) {
    throw unreadable("ToolIndex: tools", cause);
  }
  for (let i = 0; i < items.length; i++) {
    try {
      let tool = out.record ? tools[items[i]] : items[i];
      // A list held by an object (an MCP tools/list result) is no tool named by its key.
      if (out.record && Array.isArray(tool)) throw new TypeError("it is an array, not a tool: pass the list of tools itself (an MCP tools/list result's `tools`), or a record of tools keyed by name");
      // Chat Completions' `{ type: "function", function: { … } }`.
      if (!out.record && isObject(tool) && !("name" in tool) && isObject(tool.function)) tool = tool.function;
      readTool(tool, out.record ? items[i] : isObject(tool) ? tool.name : undefined, out);
    } catch (cause) {
      throw unreadable(`ToolIndex: tools[${out.record ? JSON.stringify(items[i]) : i}]`, cause);
    }
  }
  return out;
}

function readTool(tool, name, out) {
  out.names.push(name);
  const parts = [[], [], [], []]; // by field - 1
  if (isObject(tool)) {
    const description = tool.description;
    if (typeof description === "string" && description !== "") parts[0].push(description);
    out.namespaces.push(tool.namespace);
    const schema = jsonSchemaOf(tool.parameters ?? tool.inputSchema ?? tool.input_schema ?? tool.schema);
    readSchema(schema, parts, new Set(), 0, schema);
  } else out.namespaces.push(undefined);
  parts.forEach((texts, f) => texts.forEach((text) => out.texts.push(text) && out.fields.push(f + 1)));
  out.ends.push(out.texts.length);
}

// The JSON schema a tool's parameters are described by: a plain JSON schema, an AI SDK
// `jsonSchema()`/`zodSchema()` wrapper, a Standard Schema that gives its JSON schema (zod
// 4.2 and later, and others), or a zod schema that cannot (zod 3, 4.0, 4.1), importing none.
function jsonSchemaOf(schema) {
  if (!isObject(schema) && !isFunction(schema)) return undefined;
  const standard = schema["~standard"];
  const json = isObject(standard) ? standard.jsonSchema : undefined;
  const input = isObject(json) ? json.input : undefined;
  // A type JSON schema cannot say (zod's z.date(), z.bigint()…) is read as `{}`, not thrown.
  if (isFunction(input)) return input.call(json, { target: "draft-07", libraryOptions: { unrepresentable: "any" } });
  if (isObject(standard) && standard.vendor === "zod") return zodJsonSchema(schema, new Map(), 0);
  return "jsonSchema" in schema && "validate" in schema ? schema.jsonSchema : schema;
}

// A zod 3 or zod 4.0/4.1 schema as a JSON schema, from the API both share: an object's
// `shape`, `description`, an array's `element`, an enum's or a union's `options`, a native
// enum's `enum`, and what `unwrap()` (optional, nullable, lazy…), `removeDefault()` or
// `innerType()` (zod 3 refinements) wrap. Each converted once (`memo`: a recursive schema
// becomes a cycle, which readSchema stops), no deeper than readSchema reads.
function zodJsonSchema(schema, memo, depth) {
  if (!isObject(schema) || depth > 16) return undefined;
  if (memo.has(schema)) return memo.get(schema);
  const json = {};
  const inner = (s) => zodJsonSchema(s, memo, depth + 1);
  memo.set(schema, json);
  const { description, shape, element, options } = schema;
  if (typeof description === "string") json.description = description;
  if (isObject(shape)) json.properties = Object.fromEntries(Object.keys(shape).map((key) => [key, inner(shape[key])]));
  if (isObject(element)) json.items = inner(element);
  if (Array.isArray(options)) [json.enum, json.anyOf] = [options.filter((o) => typeof o === "string"), options.filter(isObject).map(inner)];
  else if (isObject(schema.enum)) json.enum = Object.values(schema.enum).filter((v) => typeof v === "string");
  const unwrap = ["unwrap", "removeDefault", "innerType"].find((method) => isFunction(schema[method]));
  const held = unwrap === undefined || isObject(shape) || isObject(element) ? undefined : schema[unwrap]();
  if (isObject(held) && held !== schema) {
    json.allOf = [inner(held)];
    // zod 3 copies a description onto what wraps the described schema: read it once.
    if (json.allOf[0]?.description === json.description) delete json.description;
  }
  return json;
}

// The schema a local `$ref` points to in the tool's schema `root` ("#", "#/$defs/Address":
// a JSON pointer through own keys), or undefined.
function referenced(ref, root) {
  if (ref === "#") return root;
  if (typeof ref !== "string" || !ref.startsWith("#/")) return undefined;
  let at = root;
  for (const token of ref.slice(2).split("/")) {
    let key = token.replaceAll("~1", "/").replaceAll("~0", "~");
    try {
      key = decodeURIComponent(key);
    } catch {}
    if (!isObject(at) || !Object.prototype.hasOwnProperty.call(at, key)) return undefined;
    at = at[key];
  }
  return at;
}

// A schema's texts into `parts`, and those of the schemas it holds (a property's, `items`,
// `prefixItems`, `additionalProperties`, `anyOf`/`oneOf`/`allOf`, what a local `$ref`
// points to: pydantic's `$defs`): its properties' names, and each held schema's description
// and string `enum` values (the tool's schema itself gives none: those are the tool's). A
// schema holding others is read once per tool (`seen`: a cycle stops), at most 16 deep.
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

// The texts' code units and ends for the module; a RangeError past what an index reads of
// each kind (field).
function unitsOf({ texts, fields }, where) {
  const size = new Float64Array(10);
  texts.forEach((text, i) => (size[2 * fields[i]]++, (size[2 * fields[i] + 1] += text.length)));
  for (let f = 1; f < 5; f++) if (!wasm.textsFit(size[2 * f], size[2 * f + 1])) throw new RangeError(`${where} is too large: a ToolIndex reads at most 1,048,576 texts and 33,554,432 code units of each kind (descriptions, parameter names, …), as memory allows`);
  const units = new Uint16Array(size[3] + size[5] + size[7] + size[9]);
  const ends = new Uint32Array(texts.length);
  let k = 0;
  texts.forEach((text, i) => {
    for (let j = 0; j < text.length; j++) units[k++] = text.charCodeAt(j);
    ends[i] = k;
  });
  return [units, ends];
}

// Per tool, the first tool of its namespace (NONE for none), or nothing when no tool has
// one; a namespace that is no string is a TypeError naming its tool.
function namespacesOf({ namespaces, names, record }, where) {
  const first = new Uint32Array(namespaces.length).fill(NONE);
  const seen = new Map();
  namespaces.forEach((namespace, i) => {
    if (namespace == null) return;
    if (typeof namespace !== "string") throw mustBe(`${where}[${record ? `"${names[i]}"` : i}].namespace`, "a string", namespace);
    if (!seen.has(namespace)) seen.set(namespace, i);
    first[i] = seen.get(namespace);
  });
  return seen.size ? first : new Uint32Array(0);
}

// ---------------------------------------------------------------- snapshots

// `ToolIndex.load(bytes | source, options)`: the source judged and the options read first
// (their faults thrown for bytes, a rejection for a stream), then the bytes.
function load(bytes, options) {
  let source, read;
  try {
    source = sourceOf(bytes);
  } catch (cause) {
    source = unreadable("ToolIndex.load: source", cause);
  }
  try {
    const checked = loadOptions(options);
    read = () => checked;
  } catch (error) {
    read = () => {
      throw error;
    };
  }
  let view;
  try {
    view = realView(bytes);
  } catch (cause) {
    throw unreadable("ToolIndex.load: bytes", cause);
  }
  if (view instanceof Uint8Array) return loaded(new Load("ToolIndex.load: bytes"), view, read());
  if (ArrayBuffer.isView(bytes)) throw new TypeError("ToolIndex.load: bytes must be a Uint8Array (from index.save()), got a typed array or DataView of another kind: view its bytes as new Uint8Array(view.buffer, view.byteOffset, view.byteLength)");
  if (source instanceof Error) return Promise.reject(source);
  if (source) return streamed(source, read);
  throw mustBe("ToolIndex.load: bytes", "a Uint8Array (from index.save())", bytes);
}

// load's options: the constructor's but vectors and explain, and a signal; as
// [limit, signal, embed, onEmbedError].
function loadOptions(options) {
  const where = "ToolIndex.load: options";
  const values = fields(options, [...INDEX, "signal"], where);
  const signal = checkSignal(values[5], SIGNAL);
  const [limit, embed, onEmbedError] = optionsOf(values, where);
  const refused = values[1] !== undefined ? "vectors: a snapshot holds its vectors" : values[4] !== undefined ? "explain: a snapshot explains if its index was built with options.explain" : "";
  if (refused) throw new TypeError(`${where}.${refused}; load takes limit, embed, onEmbedError and signal`);
  return [limit, signal, embed, onEmbedError];
}
const SIGNAL = "ToolIndex.load: options.signal";

// The index of a snapshot's bytes (`to` names them and gets the names, or why not).
function loaded(to, bytes, options) {
  const searcher = wasm.Searcher.load(to, bytes, options[0]);
  if (!searcher) throw to.error;
  return loadedIndex(searcher, to.names, options);
}
function loadedIndex(searcher, names, [, , embed, onEmbedError]) {
  if (embed && searcher.dimensions() === undefined) {
    searcher.free();
    throw new TypeError("ToolIndex.load: options.embed needs a snapshot with vectors (this one has none)");
  }
  return made(Object.create(ToolIndex.prototype), searcher, names, embed, onEmbedError);
}

// A load's JavaScript half (src/js/index.rs `Load`): it gets the names, or why the bytes
// (`where`) were refused.
class Load {
  constructor(where) {
    this.where = where;
  }
  named(units, ends) {
    const all = text(units);
    this.names = Array.from(ends, (end, i) => all.slice(i ? ends[i - 1] : 0, end));
  }
  refused(why, n, units) {
    const where = this.where;
    if (why === Refused.Announced) this.error = new RangeError(`${where} announce a snapshot of ${n} bytes, more than the module can hold (at most 1073741824, as memory allows)`);
    else if (why === Refused.Longer) this.error = new RangeError(`${where} are more than the ${n} of the snapshot they start with`);
    else this.error = new (why === Refused.Range ? RangeError : TypeError)(where + text(units));
  }
}

// ---------------------------------------------------------------- a snapshot streamed

// What a source is, judged by shape (so that another realm's classes and workerd's count
// too), as [kind, the stream or Blob]: a ReadableStream (`getReader`), or a Response's or R2
// object's `body`; a body read already; a null body (no bytes); a Blob (`stream()`);
// undefined for anything else. Only reads: nothing is opened yet.
const [STREAM, BLOB, USED, EMPTY] = [0, 1, 2, 3];
const isStream = (value) => isObject(value) && isFunction(value.getReader);
function sourceOf(source) {
  if (!isObject(source) || ArrayBuffer.isView(source)) return undefined;
  if (isStream(source)) return [STREAM, source];
  const body = source.body;
  if (body === null) return [EMPTY];
  if (isStream(body)) return source.bodyUsed ? [USED] : [STREAM, body];
  return isFunction(source.stream) ? [BLOB, source] : undefined;
}

// A Promise of the index streamed from `value`; whatever fails rejects it, before the first
// read too. The chunks go into the module (src/js/index.rs `Loading`) as they come.
async function streamed([kind, value], read) {
  const options = read();
  const [limit, signal] = options;
  if (kind === USED) throw new TypeError("ToolIndex.load: source's body was read already (bodyUsed): a body is read once; load from a new Response, or from response.clone() made before reading it");
  if (signal && ofSignal(signal, "aborted", SIGNAL)) throw ofSignal(signal, "reason", SIGNAL);
  if (kind === EMPTY) return loaded(new Load("ToolIndex.load: source's bytes"), new Uint8Array(0), options);
  let stream, reader;
  try {
    stream = kind === BLOB ? value.stream() : value;
    reader = isStream(stream) && stream.getReader();
  } catch (cause) {
    throw unreadable("ToolIndex.load: source", cause);
  }
  if (reader === false) throw mustBe("ToolIndex.load: source.stream()", "a ReadableStream", stream);
  const reading = new Reading(reader);
  if (signal) {
    const onAbort = () => {
      try {
        reading.finish(true, ofSignal(signal, "reason", SIGNAL));
      } catch (error) {
        reading.finish(true, error);
      }
    };
    try {
      signal.addEventListener("abort", onAbort, { once: true });
      reading.stop = () => signal.removeEventListener("abort", onAbort);
    } catch (cause) {
      reading.finish(true, new TypeError(`${SIGNAL} failed as an AbortSignal`, { cause }));
    }
  }
  reading.step(new wasm.Loading(limit));
  const searcher = await reading.done;
  return enter(loadedIndex, undefined, [searcher, reading.names, options]);
}

// The caller's reader, read by the module's future one chunk at a time.
class Reading extends Load {
  constructor(reader) {
    super("ToolIndex.load: source's bytes");
    Object.assign(this, { reader, chunks: 0, over: false });
    this.done = new Promise((resolve, reject) => (this.settle = [resolve, reject]));
  }
  // Polls the load through the door, at once and each time the read it waits for settled.
  step(loading) {
    if (this.over) return;
    let searcher;
    try {
      searcher = enter(loading.poll, loading, [this]);
    } catch (error) {
      return this.finish(true, error);
    }
    if (searcher || this.error) this.finish(!searcher, searcher ?? this.error);
    else this.pending.then(() => this.step(loading));
  }
  // Ends the load with the index, or `failed` with an error (the reader cancelled with
  // it); the listener goes either way (what either throws or rejects with is ignored).
  finish(failed, value) {
    if (this.over) return;
    this.over = true;
    try {
      this.stop?.();
    } catch {}
    try {
      if (failed) Promise.resolve(this.reader.cancel(value)).catch(() => {});
    } catch {}
    this.settle[failed ? 1 : 0](value);
  }
  // The next chunk's length (undefined at the end); a read that fails (it throws or
  // rejects, answers no `{ done, value }`, or a chunk that is no Uint8Array) ends the load.
  next() {
    return (this.pending = new Promise((resolve) => {
      const failed = (cause) => this.finish(true, unreadable("ToolIndex.load: source", cause));
      try {
        Promise.resolve(this.reader.read()).then((result) => {
          let chunk;
          try {
            if (result.done) return resolve();
            chunk = result.value;
          } catch (cause) {
            return failed(cause);
          }
          let view;
          try {
            view = realView(chunk);
          } catch {}
          if (!(view instanceof Uint8Array)) return this.finish(true, mustBe(`ToolIndex.load: source's chunk ${this.chunks}`, "a Uint8Array", chunk));
          this.chunks++;
          resolve((this.chunk = view).length);
        }, failed);
      } catch (cause) {
        failed(cause);
      }
    }));
  }
  copy(from, to) {
    to.set(this.chunk.subarray(from, from + to.length));
  }
}
