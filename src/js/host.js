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

import { state } from "./state.js";
import { ACTIVE, Answer, CANDIDATE_FIELDS, Event, FATES, Fault, Kind, KIND_BITS, Listed, NO_SPAN, Palette, REASONS, Returned, ROW, RULES, Source, sources, Stream, Transformed, Verdict } from "./wire.js";
import { deliver } from "./deliver.js";

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

const routed = (names, unresolved) => make(Routed, { kind: "routed", names, unresolved });
const refused = (reason, unresolved) => make(RoutingRefusal, { kind: "refused", reason, unresolved });
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

// Warning delivery (the adapters' too) is deliver.js's.
export { deliver };

// The binding's errors, by a wire.js `Fault`: with `cause` or without (a thrown
// `undefined` is a cause too, so it is no marker of "none").
const ERRORS = [Error, TypeError, RangeError];
export const fault = (kind, message, cause) => (kind < Fault.ErrorCaused ? new ERRORS[kind](message) : new ERRORS[kind - Fault.ErrorCaused](message, { cause }));

// ---------------------------------------------------------------- the door

// Every call into the module goes through `enter` (api.js wraps each export with it,
// `Wait` the second half of a turn). What the caller's code does comes back as a value
// (see `call1` below), so nothing unwinds through a wasm frame; should something still
// (a stack overflow, memory running out: a trap), the module's stack pointer is put back
// before anything else runs, and the call fails with an Error that says so.
//
// A caller's code that calls back into the package (a reader calling resolvePalette, a
// predicate calling a seam) nests calls; MAX_DEPTH nested calls mean a runaway recursion
// (a caller bug), which is cut as a whole before the stack runs out inside the module:
// that call and every call nested under the outermost one throw at once, synchronously
// (as a stack overflow would), until the outermost call returns.

const MAX_DEPTH = 64;
let depth = 0;
let cutting = false;
let stackPointer; // the module's exported `__stack_pointer` global
let module; // the module's exports: its memory, and `room` for the batch

export function attach(exports) {
  module = exports;
  stackPointer = exports.__stack_pointer;
}

// The Error for a call that a runaway recursion cut, or undefined.
export function runaway() {
  if (depth === 0 || (!cutting && depth < MAX_DEPTH)) return undefined;
  cutting = true;
  return new Error(`tool-palette: calls into the package nested ${MAX_DEPTH} deep (a reader or callback that calls back into the package without end); this call and the ones nested under the outermost call fail`);
}

function trapped(error) {
  // The module may have lost the batch's room with a call that did not return (a stack
  // overflow, a trap: src/js/batch.rs ROOM): it is asked for again.
  room = 0;
  if (!(error instanceof WebAssembly.RuntimeError)) return error;
  return new Error(`tool-palette: the WebAssembly module trapped (${error.message}); this call failed, the next one runs normally`, { cause: error });
}

// `f.apply(self, args)` through the door.
export function enter(f, self, args) {
  const nested = runaway();
  if (nested !== undefined) throw nested;
  const saved = stackPointer?.value;
  depth++;
  try {
    return f.apply(self, args);
  } catch (error) {
    // A thrown Result leaves the pointer where it was; an unwind through wasm frames does not.
    if (stackPointer !== undefined && stackPointer.value !== saved) stackPointer.value = saved;
    throw trapped(error);
  } finally {
    if (--depth === 0) cutting = false;
  }
}

// ---------------------------------------------------------------- the caller's code

export class Thrown {
  constructor(value) {
    this.value = value;
  }
}

// The caller's functions, with the arity the SPEC gives them and `this` undefined.
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

// A predicate, whose usual answer (a boolean) crosses as a number; anything else, or
// what it threw, waits in `held` for `answered()`, which the binding calls at once.
let held;

export function verdict(f, a) {
  let answer;
  try {
    answer = f(a);
  } catch (e) {
    answer = new Thrown(e);
  }
  if (answer === true) return Verdict.Yes;
  if (answer === false) return Verdict.No;
  held = answer;
  return Verdict.Other;
}

export function answered() {
  const answer = held;
  held = undefined;
  return answer;
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
  constructor(index, cause, at = "") {
    this.index = index;
    this.cause = cause;
    this.at = at; // where it is, for a message: `[3]`, `["weather"]`
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
      return new Unreadable(i, cause);
    }
  }
  return out;
}

// An iterable as a fresh array, read no further than one item past the most a call may
// hold (src/names.rs MAX_NAMES): a longer one is then refused by its length (a
// RangeError, or refusal 2a for a store's rows), and an endless one is never drained.
const MOST = 1 << 20;
const arrayValues = Array.prototype[Symbol.iterator];
function bounded(value) {
  if (Array.isArray(value) && value[Symbol.iterator] === arrayValues) return Array.from(value);
  const out = [];
  for (const item of value) if (out.push(item) > MOST) break;
  return out;
}

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

// What kind of value the caller gave (a wire.js `Kind`), in one crossing, for the core's
// rules (src/given.rs, read by src/js/mod.rs `given`).
const KINDS = { undefined: Kind.Undefined, boolean: Kind.Boolean, number: Kind.Number, string: Kind.String, function: Kind.Function, bigint: Kind.BigInt, symbol: Kind.Symbol };
export const kindOfValue = (value) => (value === null ? Kind.Null : typeof value === "object" ? (isArray(value) ? Kind.Array : Kind.Object) : KINDS[typeof value]);

// A plain object, judged by shape so that one made in another realm (a `vm` context, an
// iframe) is one too: an ordinary object (not an array, a Map, a class instance) whose
// prototype is null or a realm's Object.prototype (itself without a prototype).
function isPlainObject(value) {
  try {
    if (!isObject(value) || Array.isArray(value)) return false;
    if (Object.prototype.toString.call(value) !== "[object Object]") return false;
    const proto = Object.getPrototypeOf(value);
    return proto === null || Object.getPrototypeOf(proto) === null;
  } catch {
    return false;
  }
}

// Read-only own properties of an object the binding built (a policy's fields, a router's
// `registered`): held by the object, not by the module, so that dispose() frees all the
// module holds at once.
export function ownFields(target, keys, values) {
  for (let i = 0; i < keys.length; i++) {
    Object.defineProperty(target, keys[i], { value: values[i], enumerable: true });
  }
}

// ToolIndex.entries with `embed`: the host's answer awaited here, then the ranking
// finished by the module's half of the turn (src/js/index.rs `Embedding`) through the door.
// Adopting the answer runs its code (a promise's own `constructor` getter): what that
// throws is `embed` failing, like a rejection.
export function afterEmbed(answer, embedding) {
  const rank = (failed) => (value) => enter(embedding.rank, embedding, [failed, value]);
  try {
    return Promise.resolve(answer).then(rank(false), rank(true));
  } catch (error) {
    return Promise.resolve().then(() => rank(true)(error));
  }
}

// ---------------------------------------------------------------- rows

// A turn's rows are read in two passes, and the core (src/routing/turn.rs) applies the
// SPEC's rules (section 2, "Rows") to what they read: first every row's activity, then,
// for the rows the core's table `active` says are active, what their candidate can come
// from. Nothing here decides which row is active or which string is the candidate.
//
// `codes` holds two bytes per row. The first is the row's activity: 0 a string, 1 an
// object (not an array), 2 an object whose `active` is exactly false, 3 anything else;
// with the caller's isActive, 4 or 5 for a truthy or falsy answer. The second is its
// candidacy: 0 a string row (its string), 3 nothing to read, 4 / 5 the caller's
// candidateOf answered a string (it) / something else, or for an object 8 plus a bit for
// each of `tool`, `toolName`, `content` read that is a string (those strings, in that
// order); 255 for a row the core's table says is inactive (not read): the core's
// `routing::turn::code`, which reads them back. `strings` holds the strings in row order,
// `units` their total length.
class Rows {
  constructor(codes, strings, units) {
    this.count = codes.length / 2;
    this.codes = codes;
    this.strings = strings;
    this.units = units;
  }
}

const isRecord = (row) => isObject(row) && !Array.isArray(row);

function readRows(rows, isActive, candidateOf) {
  const active = ACTIVE;
  const all = Array.isArray(rows) ? rows : bounded(rows);
  const n = all.length;
  const codes = new Uint8Array(2 * n);
  for (let i = 0; i < n; i++) {
    const row = all[i];
    if (isActive) codes[2 * i] = isActive(row) ? ROW.SAID_YES : ROW.SAID_NO;
    else if (typeof row === "string") codes[2 * i] = ROW.TEXT;
    else if (isRecord(row)) codes[2 * i] = row.active === false ? ROW.RECORD_OFF : ROW.RECORD_ON;
    else codes[2 * i] = ROW.OTHER;
  }
  const strings = [];
  let units = 0;
  const keep = (s) => {
    strings.push(s);
    units += s.length;
  };
  for (let i = 0; i < n; i++) {
    if (active[codes[2 * i]] === 0) {
      codes[2 * i + 1] = ROW.NOT_READ;
      continue;
    }
    const row = all[i];
    let code = ROW.OTHER;
    if (candidateOf) {
      const c = candidateOf(row);
      if (typeof c === "string") (code = ROW.SAID_TEXT), keep(c);
      else code = ROW.SAID_OTHER;
    } else if (typeof row === "string") (code = ROW.TEXT), keep(row);
    else if (isRecord(row)) {
      // The fields in the core's order, up to the first string: the core takes the first
      // string, so a field after it would never count (and its getter is not run).
      code = ROW.RECORD;
      for (let k = 0; k < CANDIDATE_FIELDS.length; k++) {
        const field = row[CANDIDATE_FIELDS[k]];
        if (typeof field === "string") {
          (code |= 1 << k), keep(field);
          break;
        }
      }
    }
    codes[2 * i + 1] = code;
  }
  return new Rows(codes, strings, units);
}

// ---------------------------------------------------------------- names into wasm memory

// `ends` and `units` are views of wasm memory the binding allocated for exactly these
// strings, or of all of it (then `base` is where the strings' units start); nothing here
// calls into the wasm while they are in use. Under Node.js (its entry sets
// `state.writer`) a string over 32 units is copied by one native UTF-16LE write, its code
// units exactly as they are (lone surrogates too): a third less time over the 22 million
// units of 50,000 tools (bench/tool-search/DESIGN.md). The writer is made once per memory
// buffer (the memory's growth replaces it), not once per call.
// (`at`, `k`: the first end and unit to write, when `strings` follow others.)
let writer; // [the memory's buffer, its writer]
export function writeNames(strings, ends, units, at = 0, k = 0, base = 0) {
  for (let i = 0; i < strings.length; i++) {
    const s = strings[i];
    if (s.length > 32 && state.writer) {
      if (writer?.[0] !== units.buffer) writer = [units.buffer, state.writer(units.buffer)];
      writer[1](s, units.byteOffset + 2 * (base + k));
    } else for (let j = 0, u = base + k; j < s.length; j++) units[u + j] = s.charCodeAt(j);
    ends[at + i] = k += s.length;
  }
}

// The batch: room in the module's memory (src/js/batch.rs `room`) where a call's names,
// and a turn's row codes, are written before the module is entered: `at`, the address
// of the three places, and how much each holds. It grows when a call needs more. Views
// of the whole memory are kept for the buffer they were made for (any call into the
// module may grow the memory, which replaces it).
let room = 0;
const roomFor = [0, 0, 0]; // codes, names, code units
let views; // [buffer, its bytes, its 16-bit and its 32-bit words]

// Writes `codes` (a turn's row codes), then the ends and code units of `first` (when
// given) and `rest`, `units` code units in all, into the batch (src/js/batch.rs
// `take_rows`); nothing when the module has no room for them (it then refuses them by
// their length).
function writeBatch(codes, first, rest, units) {
  const count = rest.length + (first === undefined ? 0 : 1);
  if (codes.length > roomFor[0] || count > roomFor[1] || units > roomFor[2] || room === 0) {
    let at = 0;
    try {
      at = Math.max(units, count) <= 0xffffffff ? module.room(codes.length, count, units) : 0;
    } catch (error) {
      throw trapped(error);
    }
    if (at === 0) return;
    const wanted = [codes.length, count, units];
    for (let i = 0; i < 3; i++) roomFor[i] = room === 0 ? wanted[i] : Math.max(roomFor[i], wanted[i]);
    room = at;
  }
  const { buffer } = module.memory;
  if (views?.[0] !== buffer) views = [buffer, new Uint8Array(buffer), new Uint16Array(buffer), new Uint32Array(buffer)];
  const [, bytes, words, ends] = views;
  const [c, e, u] = [ends[room >>> 2], ends[(room >>> 2) + 1] >>> 2, ends[(room >>> 2) + 2] >>> 1];
  if (codes.length > 0) bytes.set(codes, c);
  if (first !== undefined) writeNames([first], ends, words, e, 0, u);
  writeNames(rest, ends, words, e + count - rest.length, first?.length ?? 0, u);
}

export function writeName(name, units) {
  for (let j = 0; j < name.length; j++) units[j] = name.charCodeAt(j);
}

// ---------------------------------------------------------------- answers out of wasm

// Whether two arrays hold the same strings in the same order.
export function same(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

// The records the binding returns, in the SPEC's key order, frozen (but the details a
// ToolRedirectDroppedWarning copies). The decision report freezes its arrays too.
// The report's rule and each row's fate come as their places in the core's tables
// (wire.js RULES, FATES), each row's candidate as a (string, start, end) triple of `spans`.
export function report(outcome, rule, fates, candidates, spans, hidden, retrievalMs) {
  const rows = new Array(fates.length);
  for (let i = 0, k = 0; i < fates.length; i++, k += 3) {
    const candidate = spans[k] === NO_SPAN ? null : candidates[spans[k]].slice(spans[k + 1], spans[k + 2]);
    rows[i] = Object.freeze({ index: i, fate: FATES[fates[i]], candidate });
  }
  return Object.freeze({ outcome, rule: RULES[rule], rows: Object.freeze(rows), hidden: Object.freeze(hidden), retrievalMs });
}

// A result's `kind`, as a wire.js `Palette` (no string copied into wasm).
const kindOf = (kind) => (kind === "routed" ? Palette.Routed : kind === "refused" || kind === "unavailable" ? Palette.NotRouted : Palette.Names);

// A turn's outcome, in one crossing: the routed names picked from `registered` by index
// (no `reason`), or the refusal: its reason's text (wire.js REASONS, by the core's
// table) around its `detail` (code units); the unresolved names sliced out of the turn's
// `candidates` by (string, start, end) `spans`.
export function outcome(registered, indices, reason, detail, candidates, spans) {
  const unresolved = Object.freeze(cut(candidates, spans));
  if (reason === undefined) return routed(Object.freeze(pick(registered, indices)), unresolved);
  const [before, after] = REASONS[reason];
  return refused(before + text(detail) + after, unresolved);
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

// The string `name`s of the caller's tools, read once each, and the positions of the
// tools that have one (Unreadable when a read throws).
class Named {
  constructor() {
    this.names = [];
    this.at = [];
  }
}

function namesOf(items) {
  const out = new Named();
  for (let i = 0; i < items.length; i++) {
    let name;
    try {
      name = isObject(items[i]) ? items[i].name : undefined;
    } catch (cause) {
      return new Unreadable(i, cause);
    }
    if (typeof name === "string") {
      out.names.push(name);
      out.at.push(i);
    }
  }
  return out;
}

let utf16;

// Code units (from the core) as a string. Long ones (a snapshot's names) in one native
// decode where the realm has one and the units are well-formed UTF-16 (`fatal`: a lone
// surrogate throws, and is kept by the loop below instead of becoming U+FFFD).
export function text(units) {
  if (units.length > 8192) {
    try {
      utf16 ??= new TextDecoder("utf-16le", { fatal: true });
      return utf16.decode(units);
    } catch {}
  }
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

// The call `onToolCallDispatch` returned, over the call it was given: a field it leaves
// out keeps the call's (its `id` above all, SPEC 4); the call itself when it returned it.
export const overlay = catching((call, next) => (next === call ? next : { ...call, ...next }));

// `call.args`, as a shallow copy of the same shape (array, plain or null-prototype object,
// class instance), so that argsTransform never gets the caller's object.
// A copy of a call's `args` for argsTransform, so that the caller's object is never
// handed out.
function argsOf(call) {
  const args = call.args;
  if (!isObject(args)) return args;
  if (Array.isArray(args)) return Array.prototype.slice.call(args);
  const proto = Object.getPrototypeOf(args);
  return proto === Object.prototype ? { ...args } : Object.assign(Object.create(proto), args);
}

// ---------------------------------------------------------------- the seams

// A list of strings of the caller's, read once (any iterable of strings): how the reading
// ended (a wire.js `Listed`), the items as a fresh array, their count and code units, the
// first item that is no string (`at`), what a read threw (`cause`). The module checks it
// (src/js/batch.rs `checked_strings`).
class Strings {
  constructor(listed, value, list = [], units = 0, at = 0, cause = undefined) {
    this.listed = listed;
    this.value = value;
    this.list = list;
    this.count = list.length;
    this.units = units;
    this.at = at;
    this.cause = cause;
  }
}

// (`strings` false: any list, its items not measured; a ToolPolicies' policies.)
export function readStrings(value, strings = true) {
  if (!isObject(value)) return new Strings(Listed.NotIterable, value);
  let iterator;
  try {
    iterator = value[Symbol.iterator];
  } catch (cause) {
    return new Strings(Listed.IteratorUnreadable, value, [], 0, 0, cause);
  }
  if (typeof iterator !== "function") return new Strings(Listed.NotIterable, value);
  let list;
  try {
    list = bounded(value);
  } catch (cause) {
    return new Strings(Listed.NotIterated, value, [], 0, 0, cause);
  }
  const units = strings ? measure(list) : 0;
  return units < 0 ? new Strings(Listed.NotString, value, list, 0, -units - 1) : new Strings(Listed.Strings, value, list, units);
}

const NO_NAMES = new Strings(Listed.Strings, undefined);
const NO_CODES = new Uint8Array(0);
const unread = (cause) => new Strings(Listed.Unreadable, undefined, [], 0, 0, cause);

// An outcome of the caller's, read once: what its `kind` says (a wire.js `Palette`;
// `Nothing` for a value that is no object) and a routed one's `names`.
export function readOutcome(outcome) {
  if (!isObject(outcome)) return [Palette.Nothing, NO_NAMES];
  let kind;
  try {
    kind = outcome.kind;
  } catch (cause) {
    return [Palette.Unreadable, unread(cause)];
  }
  const handed = kindOf(kind);
  if (handed !== Palette.Routed) return [handed, NO_NAMES];
  try {
    return [handed, readStrings(outcome.names)];
  } catch (cause) {
    return [handed, unread(cause)];
  }
}

// A dispatch's palette, read once: an outcome, or a list of names.
function readPalette(palette) {
  if (palette === null || palette === undefined) return [Palette.Nothing, NO_NAMES];
  if (!isObject(palette)) return [Palette.Names, readStrings(palette)];
  const read = readOutcome(palette);
  return read[0] === Palette.Names ? [Palette.Names, readStrings(palette)] : read;
}

// What bindPalette reads of its arguments (src/js/palette.rs checks it), once each, in
// the order the module checks them, and nothing for tools that are no object: the outcome
// (`readOutcome`: `kind`, `names`); whether the tools are an array, else whether they are
// iterable (a Map, a Set); and, for a routed outcome, the tools' names: an array's items
// (a fresh list), their string `name`s and where they are, or a record's keys. `fault`:
// the Unreadable of a read that threw (`index` -1: the tools themselves; i: tools[i].name).
export class Binding {
  constructor(tools, outcome) {
    this.kind = Palette.Nothing;
    this.outcome = NO_NAMES;
    this.array = false;
    this.iterable = false;
    this.items = this.names = this.at = this.fault = undefined;
    if (isObject(tools)) this.read(tools, outcome);
  }
  read(tools, outcome) {
    [this.kind, this.outcome] = readOutcome(outcome);
    this.array = isArray(tools);
    try {
      if (!this.array) this.iterable = Symbol.iterator in tools;
      if (this.kind !== Palette.Routed || this.iterable) return;
      if (!this.array) return void (this.names = Object.keys(tools));
      this.items = bounded(tools);
      const named = namesOf(this.items);
      if (named instanceof Unreadable) this.fault = named;
      else (this.names = named.names), (this.at = named.at);
    } catch (cause) {
      this.fault = new Unreadable(-1, cause);
    }
  }
}

// One seam call's JavaScript half: a dispatch's call as it stands (the module redirects
// it, a transform sets its args, onToolCallDispatch replaces it), the redirect the gate
// dropped, or a selection's model; the facade (api.js) builds the record from it and the
// module's answer.
export class Frame {
  constructor(call, name) {
    this.call = call;
    this.name = name;
    this.current = call;
    this.model = null;
    this.dropped = null;
    this.thrown = undefined;
  }
  redirect(name) {
    try {
      this.current = { ...this.call, name };
      return false;
    } catch (error) {
      this.thrown = error;
      return true;
    }
  }
  // argsTransform on a copy of the caller's args (`argsOf`), with `ctx`: what came of
  // it, a wire.js `Transformed`, each fact asked only when the ones before it did not
  // settle the core's rule (src/js/policies.rs); the answer, or what was thrown, in
  // `thrown`, for the module, which decides (and `adopt`s a plain answer).
  transform(f, ctx) {
    let step = Transformed.ArgsUnreadable;
    try {
      const args = argsOf(this.call);
      step = Transformed.Threw;
      const answer = (this.thrown = f(args, ctx));
      step = Transformed.ThenUnreadable;
      if ((isObject(answer) || typeof answer === "function") && typeof answer.then === "function") return Transformed.Thenable;
      return isPlainObject(answer) ? Transformed.Plain : Transformed.Other;
    } catch (error) {
      this.thrown = error;
      return step;
    }
  }
  adopt() {
    this.current.args = this.thrown;
  }
  drop(message, reason, policy, target, onWarning) {
    const warning = new ToolRedirectDroppedWarning(text(message), { policy, target, original: this.name });
    this.dropped = Object.freeze({ target, reason: text(reason) });
    try {
      deliver(warning, onWarning);
      return false;
    } catch (error) {
      this.thrown = error;
      return true;
    }
  }
  // The `Dispatch`, by the module's answer: the redirecting policy's index + 1, or 0.
  dispatched(policies, by) {
    const redirectedBy = by === 0 ? null : policies[by - 1].name;
    return Object.freeze({ call: this.dropped ? this.call : this.current, original: this.call, redirectedBy, dropped: this.dropped });
  }
  // The `ModelSelection`, by the module's answer: a wire.js `Source` (a policy's plus its index).
  selected(policies, answer) {
    const source = Math.min(answer, Source.Policy);
    const policy = source === Source.Policy ? policies[answer - Source.Policy] : undefined;
    const model = policy ? policy.model : source === Source.Resolver ? this.model : null;
    return Object.freeze({ model, source: sources[source], policy: policy ? policy.name : null });
  }
}

// A dispatch's reading of the caller's values, once each, into its frame: the call's
// `name` and, when it is a string, the palette, their strings written into the batch.
// What they are is the module's to judge (src/js/policies.rs `dispatch`).
export function readDispatch(call, palette) {
  const name = isObject(call) ? get(call, "name") : undefined;
  const frame = new Frame(call, name);
  frame.units = typeof name === "string" ? name.length : undefined;
  [frame.palette, frame.names] = typeof name === "string" ? readPalette(palette) : [Palette.Nothing, NO_NAMES];
  if (frame.names.listed === Listed.Strings && typeof name === "string") writeBatch(NO_CODES, name, frame.names.list, name.length + frame.names.units);
  return frame;
}

// ---------------------------------------------------------------- one turn's wait

// A turn's JavaScript half (the facade makes one per turn; src/js/turn.rs drives it):
// its promise, the store's answer, and its wait. The first of three events (the store's
// answer, the budget's timer, the abort) stops the other two and goes to the module's
// half of the turn (`Pending.finish`), with the answer's rows read and written into the
// batch; the module decides what the event means, and its answer settles `promise`.
// Nothing here waits inside the module, so a turn whose store never settles is garbage
// once the caller drops its promise.
export class Wait {
  constructor() {
    this.promise = new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
    this.pending = undefined;
    this.answer = undefined;
    this.timer = undefined;
    this.signal = undefined;
    this.onAbort = undefined;
    this.thrown = undefined;
    this.count = 0;
    this.strings = [];
    this.found = 0;
    this.units = 0;
  }
  // The store's `entries`, called with the turn's context, or with no argument when there
  // is none: what it did, a wire.js `Returned` (a thenable is an object or function whose
  // `then` is a function; reading `then` that throws is a throw, the answer what it threw).
  ask(entries, context) {
    try {
      this.answer = context === undefined ? entries() : entries(context);
      const answer = this.answer;
      return (isObject(answer) || typeof answer === "function") && typeof answer.then === "function" ? Returned.Thenable : Returned.Value;
    } catch (error) {
      this.answer = error;
      return Returned.Threw;
    }
  }
  // The answer's rows, read (a wire.js `Answer`): their codes and strings into the batch.
  rows(isActive, candidateOf) {
    const value = this.answer;
    if (value === null || value === undefined) return Answer.None;
    let read;
    try {
      if (typeof value[Symbol.iterator] !== "function") return Answer.NotIterable;
      read = readRows(value, isActive, candidateOf);
    } catch (error) {
      this.answer = error;
      return Answer.Threw;
    }
    (this.count = read.count), (this.strings = read.strings), (this.found = read.strings.length), (this.units = read.units);
    writeBatch(read.codes, undefined, read.strings, read.units);
    return Answer.Rows;
  }
  // Adopting the store's answer runs its code (a promise's own `then`, its `constructor`
  // getter): what that throws is the store failing, like a rejection. The timer and the
  // listener are armed only while the turn is undecided (adopting the answer may have
  // decided it already: a `then` that threw), so none outlives it. `true` when the signal
  // refused a listener: then nothing of the turn runs later, whatever the store does.
  wait(pending, ms, signal, isActive, candidateOf) {
    (this.pending = pending), (this.isActive = isActive), (this.candidateOf = candidateOf);
    try {
      Promise.resolve(this.answer).then(
        (rows) => this.settle(Event.Answered, rows),
        (error) => this.settle(Event.Rejected, error),
      );
    } catch (error) {
      this.settle(Event.Rejected, error);
    }
    // (A realm without timers cannot enforce a budget; nothing else is lost.)
    if (this.pending !== undefined && ms === ms && typeof setTimeout === "function") this.timer = setTimeout(() => this.settle(Event.Elapsed), ms);
    if (this.pending === undefined || signal === undefined) return false;
    try {
      this.onAbort = () => this.settle(Event.Aborted);
      signal.addEventListener("abort", this.onAbort, { once: true });
      this.signal = signal;
      return false;
    } catch (error) {
      this.thrown = error;
      const pending = this.pending;
      this.pending = undefined;
      this.stopTimer();
      pending.free();
      return true;
    }
  }
  stopTimer() {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }
  // A store's answer that the turn no longer waits for (the turn was aborted while
  // `entries` ran).
  ignore() {
    ignore(this.answer);
  }
  settle(kind, value) {
    const pending = this.pending;
    if (pending === undefined) return; // a later event: the turn is decided
    this.pending = undefined;
    this.stopTimer();
    const { signal, onAbort } = this;
    this.signal = this.onAbort = undefined;
    if (signal !== undefined) {
      try {
        signal.removeEventListener("abort", onAbort);
      } catch (cause) {
        (kind = Event.SignalFailed), (value = cause);
      }
    }
    try {
      let rows = Answer.None;
      if (kind === Event.Answered) {
        this.answer = value;
        rows = enter(this.rows, this, [this.isActive, this.candidateOf]);
        if (rows === Answer.Threw) value = this.answer;
      }
      this.resolve(enter(pending.finish, pending, [kind, value, signal, rows, this.count, this.strings, this.found, this.units]));
    } catch (error) {
      this.reject(error);
    } finally {
      pending.free();
    }
  }
}

// A promise whose answer no one waits for: its rejection is handled and ignored, never an
// unhandled rejection.
function ignore(value) {
  try {
    Promise.resolve(value).then(undefined, () => {});
  } catch {
    // Its `then` or `constructor` threw: there is nothing left to handle.
  }
}

// What the facade reads of an options object by `keys`, once each: the values in the keys'
// order, their kinds and the object's (a word of wire.js `Kind`s, the object's first), the
// first number among them (NaN without: the core checks keys in order, and a list has one
// key a number may stand for), and the key whose read threw (its value what it threw).
// The module takes it whole (src/js/options.rs `read_fields`) or as parameters.
class Fields {
  constructor(options, values, kinds, number, unread) {
    this.options = options;
    this.values = values;
    this.kinds = kinds;
    this.number = number;
    this.unread = unread;
  }
}

export function readFields(options, keys) {
  const values = new Array(keys.length);
  let kinds = kindOfValue(options);
  let number = NaN;
  let numbered = false;
  let unread;
  if (isObject(options)) {
    for (let i = 0; i < keys.length; i++) {
      try {
        values[i] = options[keys[i]];
      } catch (cause) {
        values[i] = cause;
        unread = i;
        break;
      }
      const kind = kindOfValue(values[i]);
      if (kind === Kind.Number && !numbered) (number = values[i]), (numbered = true);
      kinds |= kind << (KIND_BITS * (i + 1));
    }
  }
  return new Fields(options, values, kinds >>> 0, number, unread);
}

export const now = () => (globalThis.performance ?? Date).now();

// ---------------------------------------------------------------- tools for ToolIndex

// The texts of a tool set, read once: each tool's name (as given, checked by the binding)
// and description, and the property names, descriptions and string `enum` values of its
// parameter schema (nested properties, `items` and `anyOf`/`oneOf`/`allOf` too), each list
// with the index of the tool it belongs to. Which texts weigh what is the ranking's
// business (src/search/).
class ToolTexts {
  constructor(record) {
    this.record = record; // a record keyed by name, not an iterable
    this.names = [];
    this.descriptions = [];
    this.paramNames = [];
    this.paramDescriptions = [];
    this.paramEnums = [];
    // Where each tool's texts end in the lists above.
    this.paramNameEnds = [];
    this.paramDescriptionEnds = [];
    this.paramEnumEnds = [];
    // Each tool's \`namespace\` as it is (SPEC 8).
    this.namespaces = [];
    // The schemas holding schemas read so far, each with the tool it was read for.
    this.seen = new Map();
  }
}

// The JSON schema a tool's parameters are described by: a plain JSON schema
// (`parameters`, `inputSchema`, `input_schema`, `schema`), an AI SDK `jsonSchema()`/`zodSchema()` wrapper,
// a Standard Schema that can give its JSON schema (zod 4.2 and later, and others), or a
// zod schema that cannot (zod 3, zod 4.0 and 4.1), all without importing any of them.
function jsonSchemaOf(schema) {
  if (!isObject(schema) && typeof schema !== "function") return undefined;
  const standard = schema["~standard"];
  if (isObject(standard) && isObject(standard.jsonSchema) && typeof standard.jsonSchema.input === "function") {
    // A type JSON schema cannot say (zod's z.date(), z.bigint()…) is read as `{}`, not thrown.
    return standard.jsonSchema.input({ target: "draft-07", libraryOptions: { unrepresentable: "any" } });
  }
  if (isObject(standard) && standard.vendor === "zod") return zodJsonSchema(schema, new Map());
  if ("jsonSchema" in schema && "validate" in schema) return schema.jsonSchema;
  return schema;
}

// What ToolIndex reads of a zod 3 or zod 4.0/4.1 schema, as a JSON schema, from the API
// both share: an object's `shape`, `description`, an array's `element`, an enum's or a
// union's `options`, a native enum's `enum`, and what `unwrap()` (optional, nullable,
// lazy…; not an array's: that is its `element`), `removeDefault()` or `innerType()` (zod 3
// refinements) wrap. Each zod schema is
// converted once (`memo`): a recursive schema becomes a cycle, which readSchema stops; no
// deeper than readSchema reads.
function zodJsonSchema(schema, memo, depth = 0) {
  if (!isObject(schema) || depth > 16) return undefined;
  if (memo.has(schema)) return memo.get(schema);
  const json = {};
  memo.set(schema, json);
  if (typeof schema.description === "string") json.description = schema.description;
  const { shape, element, options } = schema;
  if (isObject(shape)) {
    json.properties = {};
    for (const key of Object.keys(shape)) json.properties[key] = zodJsonSchema(shape[key], memo, depth + 1);
  }
  if (isObject(element)) json.items = zodJsonSchema(element, memo, depth + 1);
  if (Array.isArray(options)) {
    json.enum = options.filter((option) => typeof option === "string");
    json.anyOf = options.filter(isObject).map((option) => zodJsonSchema(option, memo, depth + 1));
  } else if (isObject(schema.enum)) {
    json.enum = Object.values(schema.enum).filter((value) => typeof value === "string");
  }
  const unwrap = ["unwrap", "removeDefault", "innerType"].find((method) => typeof schema[method] === "function");
  const inner = unwrap === undefined || isObject(shape) || isObject(element) ? undefined : schema[unwrap]();
  if (isObject(inner) && inner !== schema) {
    const held = zodJsonSchema(inner, memo, depth + 1);
    // zod 3 copies a description onto what wraps the described schema: read it once.
    if (held?.description === json.description) delete json.description;
    json.allOf = [held];
  }
  return json;
}

// The schema a local `$ref` points to in the tool's schema `root` ("#", "#/$defs/Address",
// "#/definitions/…": a JSON pointer through own keys), or undefined.
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

// A schema's texts, and those of the schemas it holds: the names of its properties, and the
// description and string `enum` values of each schema it holds (a property's, `items`,
// `prefixItems`, `additionalProperties`, `anyOf`/`oneOf`/`allOf`, and what a local `$ref`
// points to in the tool's schema `root`: pydantic's `$defs`), read through. The tool's
// schema itself (depth 0) gives no description or enum: those are the tool's. A schema
// holding others is read once per tool (`out.seen`, which stops a cycle), at most 16 deep
// (a `$ref` or an `anyOf` is one level); one holding none (most properties' schemas) is
// not remembered.
function readSchema(schema, owner, out, depth, root) {
  if (!isObject(schema) || depth > 16) return;
  const { properties, items, prefixItems, additionalProperties, anyOf, oneOf, allOf, $ref } = schema;
  const holds = isObject(properties) || isObject(items) || isObject(prefixItems) || isObject(additionalProperties) || isObject(anyOf) || isObject(oneOf) || isObject(allOf) || typeof $ref === "string";
  if (holds) {
    if (out.seen.get(schema) === owner) return;
    out.seen.set(schema, owner);
  }
  if (depth > 0) {
    if (typeof schema.description === "string") out.paramDescriptions.push(schema.description);
    if (Array.isArray(schema.enum)) for (const value of schema.enum) if (typeof value === "string") out.paramEnums.push(value);
  }
  if (!holds) return;
  if (isObject(properties)) {
    for (const key of Object.keys(properties)) {
      out.paramNames.push(key);
      readSchema(properties[key], owner, out, depth + 1, root);
    }
  }
  for (const held of [items, additionalProperties, referenced($ref, root)]) readSchema(held, owner, out, depth + 1, root);
  for (const parts of [prefixItems, anyOf, oneOf, allOf]) if (Array.isArray(parts)) for (const part of parts) readSchema(part, owner, out, depth + 1, root);
}

function readTool(tool, name, out) {
  const owner = out.names.length;
  out.names.push(name);
  const description = isObject(tool) ? tool.description : undefined;
  out.descriptions.push(typeof description === "string" ? description : "");
  out.namespaces.push(isObject(tool) ? tool.namespace : undefined);
  if (isObject(tool)) {
    const schema = jsonSchemaOf(tool.parameters ?? tool.inputSchema ?? tool.input_schema ?? tool.schema);
    readSchema(schema, owner, out, 0, schema);
  }
  out.paramNameEnds.push(out.paramNames.length);
  out.paramDescriptionEnds.push(out.paramDescriptions.length);
  out.paramEnumEnds.push(out.paramEnums.length);
}

// An array (or any iterable) of tools: `{ name, description, parameters | inputSchema |
// input_schema | schema }`, or the Chat Completions shape `{ type: "function", function: { … } }`.
// A tool that cannot be read is an Unreadable that says which (`[3]`, `["weather"]`).
const readToolList = catching((tools) => {
  const out = new ToolTexts(false);
  const all = bounded(tools);
  for (let i = 0; i < all.length; i++) {
    try {
      const item = all[i];
      const tool = isObject(item) && !("name" in item) && isObject(item.function) ? item.function : item;
      readTool(tool, isObject(tool) ? tool.name : undefined, out);
    } catch (cause) {
      return new Unreadable(i, cause, `[${i}]`);
    }
  }
  return out;
});

// A record of tools keyed by name (an AI SDK `tools` object, an MCP list mapped by name).
const readToolRecord = catching((tools) => {
  const out = new ToolTexts(true);
  for (const key of Object.keys(tools)) {
    try {
      const tool = tools[key];
      // A list held by an object (an MCP tools/list result) is no tool named by its key.
      if (Array.isArray(tool)) throw new TypeError("it is an array, not a tool: pass the list of tools itself (an MCP tools/list result's `tools`), or a record of tools keyed by name");
      readTool(tool, key, out);
    } catch (cause) {
      return new Unreadable(0, cause, `[${JSON.stringify(key)}]`);
    }
  }
  return out;
});

// A ToolIndex's tools, read once (src/js/index.rs checks them): nothing for a value that
// is no object, the texts of an iterable of tools or of a record keyed by name, an
// Unreadable naming the tool that could not be read, or a Thrown.
export function readTools(tools) {
  if (!isObject(tools)) return undefined;
  let iterable;
  try {
    iterable = typeof tools[Symbol.iterator] === "function";
  } catch (cause) {
    return new Thrown(cause);
  }
  return iterable ? readToolList(tools) : readToolRecord(tools);
}

// Search hits as frozen `{ name, score }` objects, and the rows `{ tool }` of a procedural layer.
export function hits(names, indices, scores) {
  const out = new Array(indices.length);
  for (let i = 0; i < indices.length; i++) out[i] = Object.freeze({ name: names[indices[i]], score: scores[i] });
  return Object.freeze(out);
}

// `index.explain`'s records as serde-wasm-bindgen made them, each `name` and `term` an index
// into the caller's `names` and the query's `terms` until here; then frozen, all the way down.
export function explained(names, terms, list) {
  const freeze = (value) => {
    if (typeof value === "object" && value !== null) {
      for (const key in value) freeze(value[key]);
      Object.freeze(value);
    }
    return value;
  };
  for (const hit of list) {
    hit.name = names[hit.name];
    for (const field of hit.lexical?.fields ?? []) for (const part of field.terms) part.term = terms[part.term];
  }
  return freeze(list);
}

export function rows(names, indices) {
  const out = new Array(indices.length);
  for (let i = 0; i < indices.length; i++) out[i] = Object.freeze({ tool: names[indices[i]] });
  return Object.freeze(out);
}

// A run's step (SPEC 8), its lists the caller's own registered strings by index.
export const paletteStep = (names, step, offered, listed, deferred, revealed, kept) =>
  Object.freeze({
    step,
    offered: Object.freeze(pick(names, offered)),
    listed: Object.freeze(pick(names, listed)),
    deferred: Object.freeze(pick(names, deferred)),
    revealed: Object.freeze(pick(names, revealed)),
    kept,
  });

// ---------------------------------------------------------------- ToolIndex vectors (SPEC 6, hybrid)

// A typed array (of any realm) as a plain view of this realm over its own bytes, read by its
// internal slots (the intrinsic getters): whatever its own getters say (a subclass whose
// `length` lies). `undefined` for anything else; a detached one throws (the view cannot be made).
const TYPED = Object.getPrototypeOf(Uint8Array.prototype);
const [typedName, typedBuffer, typedOffset, typedLength] = [Symbol.toStringTag, "buffer", "byteOffset", "length"].map((key) => Object.getOwnPropertyDescriptor(TYPED, key).get);
function realView(value) {
  const name = typedName.call(value);
  if (name === undefined) return undefined;
  return new globalThis[name](typedBuffer.call(value), typedOffset.call(value), typedLength.call(value));
}

// One vector as the core reads it: its components as a Float32Array or Float64Array, where a
// component that is not a number becomes NaN (the core refuses it, naming the tool); a value
// that is not array-like comes back as it is. A typed array is read by its internal slots.
function vectorOf(value) {
  if (value === null || (typeof value !== "object" && typeof value !== "function")) return value;
  const view = realView(value);
  // A Float32Array as a plain view (the binding copies it at once, no caller code running);
  // another numeric one converted natively (`from` would iterate it). BigInt arrays are no numbers.
  if (view instanceof Float32Array) return view;
  if (view !== undefined && !(view instanceof BigInt64Array || view instanceof BigUint64Array)) return new Float64Array(view);
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
export const readVectors = catching((vectors) => {
  const flat = realView(vectors);
  return flat instanceof Float32Array ? flat : bounded(vectors).map((v) => vectorOf(v));
});
// A query's vector: `options.vector`, or what `embed` answered.
export const readVector = catching(vectorOf);
// `ToolIndex.load`'s bytes: a Uint8Array as a plain view of its own bytes, else undefined.
export const bytesOf = catching((bytes) => {
  const view = realView(bytes);
  return view instanceof Uint8Array ? view : undefined;
});

// ---------------------------------------------------------------- ToolIndex.load from a stream (src/js/load.rs)

// A source judged by shape, so that another realm's classes and workerd's count too, as
// [a wire.js `Stream`, the stream or Blob]: a ReadableStream (`getReader`), or a
// Response's or R2 object's `body`; a body read already (`bodyUsed`); a null body (no
// bytes); a Blob (`stream()`); none of these; nothing for a value that is no object, or a
// typed array or DataView (`load` reads those as bytes). Only reads: nothing is opened yet.
const isStream = (value) => isObject(value) && typeof value.getReader === "function";
export const sourceOf = catching((source) => {
  if (!isObject(source) || ArrayBuffer.isView(source)) return undefined;
  if (isStream(source)) return [Stream.Readable, source];
  const body = source.body;
  if (body === null) return [Stream.NullBody];
  if (isStream(body)) return source.bodyUsed ? [Stream.BodyUsed] : [Stream.Readable, body];
  return typeof source.stream === "function" ? [Stream.Blob, source] : [Stream.None];
});

// The Reading of a stream (of a Blob's `stream()` when `blob`), or what `stream()` gave instead.
export const openSource = catching((value, blob) => {
  const stream = blob ? value.stream() : value;
  return isStream(stream) ? new Reading(stream.getReader()) : stream;
});

// The caller's reader, read by the module's future one chunk at a time: `next()` is a
// promise that never rejects, of [0, chunk], [1] at the end, [2, error] when the read
// failed (`read` threw or rejected, or answered no `{ done, value }`), or [3, signal] once
// the signal aborted, which also settles a read still pending (a stalled stream ends too);
// `pending` is the last of them.
export class Reading {
  constructor(reader) {
    this.reader = reader;
    this.aborted = undefined; // the signal, once it aborted
    this.wake = this.stop = this.pending = undefined;
  }
  listen(signal) {
    const onAbort = () => {
      this.aborted = signal;
      this.wake?.([3, signal]);
    };
    signal.addEventListener("abort", onAbort, { once: true });
    this.stop = () => signal.removeEventListener("abort", onAbort);
  }
  next() {
    return (this.pending = new Promise((resolve) => {
      if (this.aborted) return resolve([3, this.aborted]);
      this.wake = resolve;
      try {
        Promise.resolve(this.reader.read()).then(
          (result) => {
            try {
              resolve(result.done ? [1] : [0, result.value]);
            } catch (error) {
              resolve([2, error]);
            }
          },
          (error) => resolve([2, error]),
        );
      } catch (error) {
        resolve([2, error]);
      }
    }));
  }
  // Done with the source: the listener goes, and on a failure the reader is cancelled
  // with it (what either throws or rejects with is ignored).
  end(cancel, reason) {
    try {
      this.stop?.();
    } catch {}
    try {
      if (cancel) ignore(this.reader.cancel(reason));
    } catch {}
  }
}

// A load from a stream (src/js/load.rs `Loading`), polled through the door at once and
// again each time the read it awaits settles (after the module's own callback), until it
// answers the index or fails.
export const drive = (loading, reading) =>
  new Promise((resolve, reject) => {
    const step = () => {
      try {
        const index = enter(loading.poll, loading, [reading]);
        if (index === undefined) reading.pending.then(step);
        else resolve(index);
      } catch (error) {
        reject(error);
      }
    };
    step();
  });
