// The JavaScript the wasm binding imports (src/js/host.rs declares every export here).
//
// What only JavaScript can do, and nothing that decides: the result classes and the
// warnings (the binding builds their instances), calling the caller's functions and
// reading the caller's objects, iterables and rows, writing names into wasm memory in one
// batch, one turn's wait (the store's answer, the budget's timer, the abort listener),
// and warning delivery. Which refusal, which order, which policy and the gate are decided
// by the Rust core.
//
// Nothing here throws into the wasm: whatever the caller's code throws comes back as a
// `Thrown` value, so no exception unwinds through the module, and none costs a slot of
// wasm-bindgen's reference table (a `catch` import that throws loses one, measured here).

// ---------------------------------------------------------------- result classes

const isObject = (v) => typeof v === "object" && v !== null;

// The public constructors take any iterable of strings (tests, mocks, other builds);
// the binding builds instances through the factories below from arrays it already checked.
function strings(value, where) {
  let list;
  try {
    if (typeof value === "string" || !isObject(value) || typeof value[Symbol.iterator] !== "function") list = null;
    else list = Array.from(value);
  } catch (cause) {
    throw new TypeError(`${where} could not be read`, { cause });
  }
  if (list === null) throw new TypeError(`${where} must be an iterable of strings`);
  const bad = list.findIndex((s) => typeof s !== "string");
  if (bad >= 0) throw new TypeError(`${where}[${bad}] must be a string, got ${typeof list[bad]}`);
  return Object.freeze(list);
}

const make = (Class, fields) => Object.freeze(Object.assign(Object.create(Class.prototype), fields));

export class Routed {
  constructor(names, unresolved = []) {
    this.kind = "routed";
    this.names = strings(names, "Routed: names");
    // The class invariant the core guarantees for the instances it builds.
    if (this.names.length === 0) throw new TypeError("Routed: names must not be empty (a routed palette is never empty)");
    this.unresolved = strings(unresolved, "Routed: unresolved");
    Object.freeze(this);
  }
}

export class RoutingRefusal {
  constructor(reason, unresolved = []) {
    if (typeof reason !== "string") throw new TypeError(`RoutingRefusal: reason must be a string, got ${typeof reason}`);
    this.kind = "refused";
    this.reason = reason;
    this.unresolved = strings(unresolved, "RoutingRefusal: unresolved");
    Object.freeze(this);
  }
}

export class RoutingUnavailable {
  constructor(missing) {
    this.kind = "unavailable";
    this.missing = strings(missing, "RoutingUnavailable: missing");
    Object.freeze(this);
  }
}

export const routed = (names, unresolved) => make(Routed, { kind: "routed", names, unresolved });
export const refused = (reason, unresolved) => make(RoutingRefusal, { kind: "refused", reason, unresolved });
export const unavailable = (missing) => make(RoutingUnavailable, { kind: "unavailable", missing });

export class ToolRoutingUnavailableWarning extends Error {
  constructor(message, missing) {
    super(message);
    this.name = "ToolRoutingUnavailableWarning";
    this.missing = strings(missing, "ToolRoutingUnavailableWarning: missing");
  }
}

export class ToolRedirectDroppedWarning extends Error {
  constructor(message, details) {
    const where = "ToolRedirectDroppedWarning: details";
    if (!isObject(details)) throw new TypeError(`${where} must be an object { policy, target, original }`);
    let policy, target, original;
    try {
      ({ policy, target, original } = details);
    } catch (cause) {
      throw new TypeError(`${where} could not be read`, { cause });
    }
    super(message);
    this.name = "ToolRedirectDroppedWarning";
    this.policy = policy;
    this.target = target;
    this.original = original;
  }
}

// One delivery for every warning: the caller's `onWarning`, else Node's
// `process.emitWarning` (so --no-warnings and process.on("warning") apply), else
// `console.warn`. `process` is looked up at call time, never at import.
export function deliver(warning, onWarning) {
  if (onWarning) return void onWarning(warning);
  const proc = globalThis.process;
  if (proc && typeof proc.emitWarning === "function") return void proc.emitWarning(warning);
  globalThis.console?.warn?.(`${warning.name}: ${warning.message}`);
}

export const error = (message) => new Error(message);
export const typeError = (message) => new TypeError(message);
export const typeErrorCaused = (message, cause) => new TypeError(message, { cause });
export const rangeError = (message) => new RangeError(message);
export const rangeErrorCaused = (message, cause) => new RangeError(message, { cause });
export const errorCaused = (message, cause) => new Error(message, { cause });

// ---------------------------------------------------------------- the caller's code

export class Thrown {
  constructor(value) {
    this.value = value;
  }
}

// The caller's functions, with the arity the SPEC gives them and `this` undefined.
export function call0(f) {
  try {
    return f();
  } catch (e) {
    return new Thrown(e);
  }
}

export function call1(f, a) {
  try {
    return f(a);
  } catch (e) {
    return new Thrown(e);
  }
}

export function call2(f, a, b) {
  try {
    return f(a, b);
  } catch (e) {
    return new Thrown(e);
  }
}

export function get(value, key) {
  try {
    return value[key];
  } catch (e) {
    return new Thrown(e);
  }
}

// `f`, with what it throws returned as a `Thrown` (for the readers below; the calls above
// are spelled out, being on every seam's path).
const catching =
  (f) =>
  (...args) => {
    try {
      return f(...args);
    } catch (e) {
      return new Thrown(e);
    }
  };

// ---------------------------------------------------------------- reading the caller's values

// A read that threw: which key, and what it threw.
export class Unreadable {
  constructor(index, cause, values) {
    this.index = index;
    this.cause = cause;
    this.values = values;
  }
}

// Reads `keys` of a caller's object into an array, in order, each exactly once: a getter
// or a proxy trap runs here, where its exception is caught, and never inside the wasm.
export function fields(source, keys) {
  const out = new Array(keys.length);
  for (let i = 0; i < keys.length; i++) {
    try {
      out[i] = source[keys[i]];
    } catch (cause) {
      return new Unreadable(i, cause, out);
    }
  }
  return out;
}

// Whether reading `value[Symbol.iterator]` gives a function (Unreadable when it throws).
export function iterable(value) {
  try {
    return typeof value[Symbol.iterator] === "function";
  } catch (cause) {
    return new Unreadable(0, cause);
  }
}

// Whether `Symbol.iterator in value` (Unreadable when a proxy trap throws).
export function hasIterator(value) {
  try {
    return Symbol.iterator in value;
  } catch (cause) {
    return new Unreadable(0, cause);
  }
}

// An iterable as a fresh array (the binding checked that it is one).
export const list = catching((value) => Array.from(value));

// The total length of `strings` in code units, or -(i + 1) when strings[i] is no string.
export function measure(strings) {
  let total = 0;
  for (let i = 0; i < strings.length; i++) {
    const s = strings[i];
    if (typeof s !== "string") return -(i + 1);
    total += s.length;
  }
  return total;
}

export function isArray(value) {
  try {
    return Array.isArray(value);
  } catch {
    return false; // a revoked proxy
  }
}

// A plain object: an object whose prototype is Object.prototype or null, not an array.
export function isPlainObject(value) {
  try {
    if (!isObject(value) || Array.isArray(value)) return false;
    const proto = Object.getPrototypeOf(value);
    return proto === Object.prototype || proto === null;
  } catch {
    return false;
  }
}

export const typeOf = (value) => typeof value;

// ---------------------------------------------------------------- rows

// One turn's rows, read once: a flag per row (0 inactive, 1 active without a candidate,
// 2 active with one), the candidates in order, and their total length. Activity is read
// for every row first, candidates only for active rows, as the routing seed does. The
// readers are the SPEC's (section 2, "Rows") unless the caller gave its own.
export class Batch {
  constructor(flags, names, units) {
    this.rows = flags.length;
    this.flags = flags;
    this.names = names;
    this.units = units;
  }
}

const isRecord = (row) => isObject(row) && !Array.isArray(row);
const defaultActive = (row) => (isRecord(row) ? row.active !== false : true);

function defaultCandidate(row) {
  if (typeof row === "string") return row;
  if (isRecord(row)) {
    const tool = row.tool;
    if (typeof tool === "string") return tool;
    const toolName = row.toolName;
    if (typeof toolName === "string") return toolName;
    const content = row.content;
    if (typeof content === "string") return content;
  }
  return undefined;
}

export const readRows = catching((rows, candidateOf, isActive) => {
  const all = Array.isArray(rows) ? rows : Array.from(rows);
  const n = all.length;
  const flags = new Uint8Array(n);
  const active = isActive ?? defaultActive;
  for (let i = 0; i < n; i++) flags[i] = active(all[i]) ? 1 : 0;
  const candidate = candidateOf ?? defaultCandidate;
  const names = [];
  let units = 0;
  for (let i = 0; i < n; i++) {
    if (flags[i] === 0) continue;
    const c = candidate(all[i]);
    if (typeof c === "string") {
      flags[i] = 2;
      names.push(c);
      units += c.length;
    }
  }
  return new Batch(flags, names, units);
});

// ---------------------------------------------------------------- names into wasm memory

// `ends` and `units` are views of wasm memory the binding allocated for exactly these
// strings; nothing here calls into the wasm while they are in use.
export function writeNames(strings, ends, units) {
  let k = 0;
  for (let i = 0; i < strings.length; i++) {
    const s = strings[i];
    for (let j = 0; j < s.length; j++) units[k++] = s.charCodeAt(j);
    ends[i] = k;
  }
}

export function writeName(name, units) {
  for (let j = 0; j < name.length; j++) units[j] = name.charCodeAt(j);
}

let encoder;

// The same as UTF-8 in one native call (the binding decodes it back into the same code
// units, see src/js/batch.rs): returns the bytes written, or -1 when the text holds an
// unpaired surrogate, which UTF-8 cannot carry.
export function encodeNames(strings, ends, bytes) {
  let text = "";
  let k = 0;
  for (let i = 0; i < strings.length; i++) {
    text += strings[i];
    ends[i] = k += strings[i].length;
  }
  if (!text.isWellFormed?.()) return -1;
  encoder ??= new TextEncoder();
  return encoder.encodeInto(text, bytes).written;
}

// ---------------------------------------------------------------- answers out of wasm

// Whether two arrays hold the same strings in the same order.
export function same(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

// Freezes a decision report the binding built: the report, its arrays and its rows.
export function freezeReport(report) {
  for (const row of report.rows) Object.freeze(row);
  Object.freeze(report.rows);
  Object.freeze(report.hidden);
  return Object.freeze(report);
}

// The caller's own values (strings, tools), by index, as a new array.
export function pick(values, indices) {
  const out = new Array(indices.length);
  for (let i = 0; i < indices.length; i++) out[i] = values[indices[i]];
  return out;
}

// Slices of the caller's own strings: `spans` holds (string, start, end) triples.
export function cut(strings, spans) {
  const out = new Array(spans.length / 3);
  for (let i = 0, k = 0; k < spans.length; i++, k += 3) out[i] = strings[spans[k]].slice(spans[k + 1], spans[k + 2]);
  return out;
}

// The `name` of each of the caller's tools, read once each (Unreadable when one throws).
export function namesOf(items) {
  const out = new Array(items.length);
  for (let i = 0; i < items.length; i++) {
    try {
      out[i] = isObject(items[i]) ? items[i].name : undefined;
    } catch (cause) {
      return new Unreadable(i, cause);
    }
  }
  return out;
}

export const keys = catching((value) => Object.keys(value));

// Code units (from the core) as a string.
export function text(units) {
  let s = "";
  for (let i = 0; i < units.length; i += 8192) s += String.fromCharCode.apply(null, units.subarray(i, i + 8192));
  return s;
}

// A record of the caller's `tools` keeping `keys[i]` for each i in `indices`, with the
// caller's prototype family; defineProperty, so "__proto__" stays an ordinary key.
// `indices` views wasm memory, and the caller's getters may call into the package (and
// grow that memory): it is copied before any of them runs.
export const record = catching((tools, keys, indices) => {
  const kept = Array.from(indices);
  const out = Object.create(Object.getPrototypeOf(tools) === null ? null : Object.prototype);
  for (const i of kept) {
    Object.defineProperty(out, keys[i], { value: tools[keys[i]], enumerable: true, writable: true, configurable: true });
  }
  return out;
});

// ---------------------------------------------------------------- calls

// The rewritten call: a new object with every field of the original and the target's name.
export const rewrite = catching((call, name) => ({ ...call, name }));

// `call.args`, as a shallow copy of the same shape (array, plain or null-prototype object,
// class instance), so that argsTransform never gets the caller's object.
export const copyArgs = catching((call) => {
  const args = call.args;
  if (!isObject(args)) return args;
  if (Array.isArray(args)) return Array.prototype.slice.call(args);
  const proto = Object.getPrototypeOf(args);
  return proto === Object.prototype ? { ...args } : Object.assign(Object.create(proto), args);
});

export function setArgs(call, args) {
  call.args = args;
}

// ---------------------------------------------------------------- one turn's wait

// The first of three events settles it, with a tag the binding reads: [0, rows] or
// [1, error] when the store answers, [2] when the budget's timer fires, [3] on abort.
// The binding decides what each means, and stops the timer and the listener.
export class Wait {
  constructor() {
    this.promise = new Promise((resolve) => (this.settle = resolve));
    this.timer = undefined;
    this.onAbort = undefined;
  }
  follow(value) {
    Promise.resolve(value).then(
      (rows) => this.settle([0, rows]),
      (error) => this.settle([1, error]),
    );
  }
  startTimer(ms) {
    this.timer = setTimeout(() => this.settle([2]), ms);
  }
  stopTimer() {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }
  listen(signal) {
    this.onAbort = () => this.settle([3]);
    signal.addEventListener("abort", this.onAbort, { once: true });
  }
  unlisten(signal) {
    const onAbort = this.onAbort;
    this.onAbort = undefined;
    if (onAbort !== undefined) signal.removeEventListener("abort", onAbort);
  }
}

export const now = () => (globalThis.performance ?? Date).now();

// ---------------------------------------------------------------- tools for ToolIndex

// The texts of a tool set, read once: each tool's name (as given, checked by the binding)
// and description, and the property names, descriptions and string `enum` values of its
// parameter schema (nested properties, `items` and `anyOf`/`oneOf`/`allOf` too), each list
// with the index of the tool it belongs to. Which texts weigh what is the ranking's
// business (src/search/).
export class ToolTexts {
  constructor() {
    this.names = [];
    this.descriptions = [];
    this.paramNames = [];
    this.paramNameOwners = [];
    this.paramDescriptions = [];
    this.paramDescriptionOwners = [];
    this.paramEnums = [];
    this.paramEnumOwners = [];
  }
}

// The JSON schema a tool's parameters are described by: a plain JSON schema
// (`parameters`, `inputSchema`, `schema`), an AI SDK `jsonSchema()`/`zodSchema()` wrapper,
// or a Standard Schema that can give its JSON schema (zod 4 and others), all without
// importing any of them.
function jsonSchemaOf(schema) {
  if (!isObject(schema) && typeof schema !== "function") return undefined;
  const standard = schema["~standard"];
  if (isObject(standard) && isObject(standard.jsonSchema) && typeof standard.jsonSchema.input === "function") {
    return standard.jsonSchema.input({ target: "draft-07" });
  }
  if ("jsonSchema" in schema && "validate" in schema) return schema.jsonSchema;
  return schema;
}

function readSchema(schema, owner, out, depth, seen) {
  if (!isObject(schema) || depth > 8 || seen.has(schema)) return;
  seen.add(schema);
  const properties = schema.properties;
  if (isObject(properties)) {
    for (const key of Object.keys(properties)) {
      out.paramNames.push(key);
      out.paramNameOwners.push(owner);
      const property = properties[key];
      if (!isObject(property)) continue;
      if (typeof property.description === "string") {
        out.paramDescriptions.push(property.description);
        out.paramDescriptionOwners.push(owner);
      }
      if (Array.isArray(property.enum)) {
        for (const value of property.enum) {
          if (typeof value !== "string") continue;
          out.paramEnums.push(value);
          out.paramEnumOwners.push(owner);
        }
      }
      readSchema(property, owner, out, depth + 1, seen);
    }
  }
  readSchema(schema.items, owner, out, depth + 1, seen);
  for (const key of ["anyOf", "oneOf", "allOf"]) {
    if (Array.isArray(schema[key])) for (const part of schema[key]) readSchema(part, owner, out, depth + 1, seen);
  }
}

function readTool(tool, name, out) {
  const owner = out.names.length;
  out.names.push(name);
  const description = isObject(tool) ? tool.description : undefined;
  out.descriptions.push(typeof description === "string" ? description : "");
  if (!isObject(tool)) return;
  const schema = tool.parameters ?? tool.inputSchema ?? tool.schema;
  readSchema(jsonSchemaOf(schema), owner, out, 0, new Set());
}

// An array (or any iterable) of tools: `{ name, description, parameters | inputSchema |
// schema }`, or the Chat Completions shape `{ type: "function", function: { … } }`.
export const readToolList = catching((tools) => {
  const out = new ToolTexts();
  for (const item of Array.from(tools)) {
    const tool = isObject(item) && !("name" in item) && isObject(item.function) ? item.function : item;
    readTool(tool, isObject(tool) ? tool.name : undefined, out);
  }
  return out;
});

// A record of tools keyed by name (an AI SDK `tools` object, an MCP list mapped by name).
export const readToolRecord = catching((tools) => {
  const out = new ToolTexts();
  for (const key of Object.keys(tools)) readTool(tools[key], key, out);
  return out;
});

// Search hits as frozen `{ name, score }` objects, and the rows `{ tool }` of a procedural layer.
export function hits(names, indices, scores) {
  const out = new Array(indices.length);
  for (let i = 0; i < indices.length; i++) out[i] = Object.freeze({ name: names[indices[i]], score: scores[i] });
  return Object.freeze(out);
}

export function rows(names, indices) {
  const out = new Array(indices.length);
  for (let i = 0; i < indices.length; i++) out[i] = Object.freeze({ tool: names[indices[i]] });
  return Object.freeze(out);
}

// ---------------------------------------------------------------- ToolIndex vectors (SPEC 6, hybrid)

const tagOf = (value) => Object.prototype.toString.call(value);
const NUMERIC_VIEW = /^\[object (Float(16|32|64)|U?Int(8|16|32)|Uint8Clamped)Array\]$/;

// One vector as the core reads it: its components as a Float64Array, where a component
// that is not a number becomes NaN (the core refuses it, naming the tool); a value that
// is not array-like comes back as it is. Typed arrays of any realm are judged by their tag.
function vectorOf(value) {
  if (value === null || (typeof value !== "object" && typeof value !== "function")) return value;
  if (NUMERIC_VIEW.test(tagOf(value))) return Float64Array.from(value);
  const n = value.length;
  if (typeof n !== "number" || !Number.isSafeInteger(n) || n < 0) return value;
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const x = value[i];
    out[i] = typeof x === "number" ? x : NaN;
  }
  return out;
}

// `options.vectors`: one flat Float32Array as it is, else each vector through vectorOf.
export const readVectors = catching((vectors) => (tagOf(vectors) === "[object Float32Array]" ? vectors : Array.from(vectors, (v) => vectorOf(v))));
// A query's vector: `options.vector`, or what `embed` answered.
export const readVector = catching(vectorOf);
