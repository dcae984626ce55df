// The public API of tool-palette, shared by every runtime entry.
//
// This layer owns what only JavaScript can do: check the caller's arguments, call the
// procedural layer and the caller's predicates, race timeouts and aborts, and build
// frozen result objects. Every decision (which refusal, which order, which policy, the
// gate) is made by the Rust core in the wasm module; names cross so that they stay
// exact JavaScript strings (see "the boundary").
import {
  wasm_memory,
  Buffers,
  palette,
  gate_drops,
  keep,
  Policies,
  rule,
  router_missing,
  dropped_because,
} from "./tool_palette.js";

// ---------------------------------------------------------------- helpers

const isObject = (v) => typeof v === "object" && v !== null;
const isFunction = (v) => typeof v === "function";
const describe = (v) =>
  v === null ? "null" : Array.isArray(v) ? "an array" : typeof v === "object" ? "an object" : typeof v;

function fail(where, what, value) {
  return new TypeError(`${where} must be ${what}, got ${describe(value)}`);
}

// Reads `obj[key]`; a throwing getter or a revoked proxy is the caller's mistake.
function read(obj, key, where) {
  try {
    return obj[key];
  } catch (cause) {
    throw new TypeError(`${where}.${key} could not be read`, { cause });
  }
}

// ---------------------------------------------------------------- the boundary
//
// Per-turn calls write their names straight into the wasm module's input buffers and
// read the answer from its output buffer: no copy, no allocation per call. Well-formed
// text crosses as UTF-8 in one native `encodeInto` call, which the module decodes back
// into exactly the same UTF-16 code units; text with unpaired surrogates (which UTF-8
// cannot carry) is written code unit by code unit. Either way names stay exact. Views
// are rebuilt whenever the memory has grown.

let wasmMemory;
let buffers;
let encoder;
let u8 = new Uint8Array(0);
let u16 = new Uint16Array(0);
let u32 = new Uint32Array(0);

// A grown memory detaches the old buffer, and views of a detached buffer have length 0:
// a cheaper test than asking the memory for its buffer on every call.
function views() {
  if (u32.length === 0) {
    wasmMemory ??= wasm_memory();
    u8 = new Uint8Array(wasmMemory.buffer);
    u16 = new Uint16Array(wasmMemory.buffer);
    u32 = new Uint32Array(wasmMemory.buffer);
  }
}

const lengthOf = (strings) => {
  let total = 0;
  for (let i = 0; i < strings.length; i++) total += strings[i].length;
  return total;
};

// The module's one set of boundary buffers, made on first use (never at import).
const io = () => (buffers ??= new Buffers());

// Below this many code units a JavaScript loop beats a native call and a decode.
const UTF8_FROM = 48;

// Writes `groups` of strings back to back as the input's code units. A group is
// [strings, word index or -1]: with a word index, each string's end (counted from the
// group's start) is written to the words from there. Returns the first word index free
// after `words` numbers were made room for.
function put(groups, words = 0) {
  let total = 0;
  for (let g = 0; g < groups.length; g++) total += lengthOf(groups[g][0]);
  const at = io().units_at(total) >>> 1;
  const w = buffers.words_at(words) >>> 2;
  views();
  let text = "";
  const native = total >= UTF8_FROM;
  let k = at;
  for (let g = 0; g < groups.length; g++) {
    const [strings, ends] = groups[g];
    let end = 0;
    for (let i = 0; i < strings.length; i++) {
      const s = strings[i];
      if (native) text += s;
      else for (let j = 0; j < s.length; j++) u16[k++] = s.charCodeAt(j);
      if (ends >= 0) u32[w + ends + i] = end += s.length;
    }
  }
  if (native) {
    let to = at;
    if (text.isWellFormed?.()) {
      encoder ??= new TextEncoder();
      const b = buffers.bytes_at(total * 3);
      views();
      const { written } = encoder.encodeInto(text, u8.subarray(b, b + total * 3));
      if (buffers.decode_bytes(written, total)) return w;
      // Not expected (encodeInto writes UTF-8): write the code units themselves.
      to = buffers.units_at(total) >>> 1;
      views();
    }
    for (let j = 0; j < total; j++) u16[to + j] = text.charCodeAt(j);
  }
  return w;
}

// Reads the answer the last call left in the output buffer: [length, ...numbers].
function answer(address) {
  views();
  const at = address >>> 2;
  return u32.subarray(at + 1, at + u32[at]);
}

function text(units, start = 0, end = units.length) {
  let s = "";
  for (let i = start; i < end; i += 8192) {
    s += String.fromCharCode.apply(null, units.subarray(i, Math.min(end, i + 8192)));
  }
  return s;
}

// An iterable of names, as a fresh array; `where` names the argument in errors.
function names(value, where) {
  if (typeof value === "string" || !isObject(value)) throw fail(where, "an iterable of strings", value);
  let iterator;
  try {
    iterator = value[Symbol.iterator];
  } catch (cause) {
    throw new TypeError(`${where} could not be read`, { cause });
  }
  if (!isFunction(iterator)) throw fail(where, "an iterable of strings", value);
  let list;
  try {
    list = Array.from(value);
  } catch (cause) {
    throw new TypeError(`${where} could not be iterated`, { cause });
  }
  for (let i = 0; i < list.length; i++) {
    if (typeof list[i] !== "string") throw fail(`${where}[${i}]`, "a string", list[i]);
  }
  return list;
}

function newPalette(list) {
  put([[list, 0]], list.length);
  return palette(io(), list.length);
}

// ---------------------------------------------------------------- warnings

// One delivery for every warning: the caller's `onWarning`, else Node's
// `process.emitWarning` (so --no-warnings and process.on("warning") apply), else
// `console.warn`. `process` is looked up at call time, never at import.
function deliver(warning, onWarning) {
  if (onWarning) return void onWarning(warning);
  const proc = globalThis.process;
  if (proc && isFunction(proc.emitWarning)) return void proc.emitWarning(warning);
  globalThis.console?.warn?.(`${warning.name}: ${warning.message}`);
}

function optionalFunction(value, where) {
  if (value !== undefined && !isFunction(value)) throw fail(where, "a function", value);
  return value;
}

export class ToolRoutingUnavailableWarning extends Error {
  constructor(message, missing) {
    super(message);
    this.name = "ToolRoutingUnavailableWarning";
    this.missing = Object.freeze(names(missing, "ToolRoutingUnavailableWarning: missing"));
  }
}

export class ToolRedirectDroppedWarning extends Error {
  constructor(message, details) {
    const where = "ToolRedirectDroppedWarning: details";
    if (!isObject(details)) throw fail(where, "an object { policy, target, original }", details);
    const policy = read(details, "policy", where);
    const target = read(details, "target", where);
    const original = read(details, "original", where);
    super(message);
    this.name = "ToolRedirectDroppedWarning";
    this.policy = policy;
    this.target = target;
    this.original = original;
  }
}

// ---------------------------------------------------------------- outcomes

const frozenNames = (list, where) => Object.freeze(names(list, where));

export class Routed {
  constructor(names, unresolved = []) {
    this.kind = "routed";
    this.names = frozenNames(names, "Routed: names");
    if (this.names.length === 0) throw new TypeError("Routed: names must not be empty (a routed palette is never empty)");
    this.unresolved = frozenNames(unresolved, "Routed: unresolved");
    Object.freeze(this);
  }
}

export class RoutingRefusal {
  constructor(reason, unresolved = []) {
    if (typeof reason !== "string") throw fail("RoutingRefusal: reason", "a string", reason);
    this.kind = "refused";
    this.reason = reason;
    this.unresolved = frozenNames(unresolved, "RoutingRefusal: unresolved");
    Object.freeze(this);
  }
}

export class RoutingUnavailable {
  constructor(missing) {
    this.kind = "unavailable";
    this.missing = frozenNames(missing, "RoutingUnavailable: missing");
    Object.freeze(this);
  }
}

// Builds an outcome the core decided: its arrays are fresh and known to hold strings.
function outcome(Class, fields) {
  const o = Object.create(Class.prototype);
  o.kind = Class === Routed ? "routed" : "refused";
  if (fields.names) o.names = Object.freeze(fields.names);
  if (fields.reason !== undefined) o.reason = fields.reason;
  o.unresolved = Object.freeze(fields.unresolved);
  return Object.freeze(o);
}

function kindOf(outcome, where) {
  return isObject(outcome) ? read(outcome, "kind", where) : undefined;
}

// The names of a Routed (ours, or one of another build of this package, which reads the same).
const routedNames = (outcome, where) => names(read(outcome, "names", where), `${where}.names`);

// ---------------------------------------------------------------- routing

// What the retrieval came to (the codes Palette.route takes).
const ROWS = 0;
const ROWS_NULL = 1;
const NO_LAYER = 2;
const FAILED = 3;
const TIMED_OUT = 4;

// setTimeout fires at once for delays past 2^31-1 ms; such a budget never runs out.
const LONGEST_TIMER = 2147483647;

// NAME in "procedural retrieval failed (NAME)": the thrown value's `name`, else its
// constructor's name, else `typeof`.
function errorName(value) {
  if (isObject(value) || isFunction(value)) {
    try {
      const name = value.name;
      if (typeof name === "string" && name !== "") return name;
    } catch {}
    try {
      const name = value.constructor?.name;
      if (typeof name === "string" && name !== "") return name;
    } catch {}
  }
  return typeof value;
}

function readRoutingOptions(options, where) {
  const entries = read(options, "entries", where);
  if (entries != null && !isFunction(entries)) throw fail(`${where}.entries`, "a function, null or undefined", entries);
  const timeoutMs = read(options, "timeoutMs", where);
  if (timeoutMs !== undefined && !(typeof timeoutMs === "number" && Number.isFinite(timeoutMs) && timeoutMs >= 0)) {
    throw fail(`${where}.timeoutMs`, "a finite number >= 0", timeoutMs);
  }
  const candidateOf = optionalFunction(read(options, "candidateOf", where), `${where}.candidateOf`);
  const isActive = optionalFunction(read(options, "isActive", where), `${where}.isActive`);
  return { entries, timeoutMs, candidateOf, isActive };
}

function checkSignal(signal, where) {
  if (signal === undefined) return undefined;
  let ok = false;
  try {
    ok = isObject(signal) && typeof signal.aborted === "boolean" && isFunction(signal.addEventListener);
  } catch (cause) {
    // A throwing getter, a revoked proxy, or a proxy that fails the platform's brand check.
    throw new TypeError(`${where} could not be read as an AbortSignal`, { cause });
  }
  if (!ok) throw fail(where, "an AbortSignal", signal);
  return signal;
}

const TIMEOUT = Symbol("timeout");

// Waits for the procedural layer's answer, the budget or the caller's abort, whichever
// comes first, and leaves no timer or listener behind.
function settle(value, timeoutMs, signal) {
  return new Promise((resolve, reject) => {
    let timer;
    const done = () => {
      if (timer !== undefined) clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    };
    const onAbort = () => {
      done();
      reject(signal.reason);
    };
    if (timeoutMs !== undefined && timeoutMs <= LONGEST_TIMER) {
      timer = setTimeout(() => {
        done();
        resolve(TIMEOUT);
      }, timeoutMs);
    }
    signal?.addEventListener("abort", onAbort, { once: true });
    Promise.resolve(value).then(
      (rows) => {
        done();
        resolve({ rows });
      },
      (error) => {
        done();
        resolve({ error });
      },
    );
  });
}

const isPlainRow = (row) => isObject(row) && !Array.isArray(row);

function defaultActive(row) {
  return isPlainRow(row) ? row.active !== false : true;
}

function defaultCandidate(row) {
  if (typeof row === "string") return row;
  if (isPlainRow(row)) {
    const tool = row.tool;
    if (typeof tool === "string") return tool;
    const toolName = row.toolName;
    if (typeof toolName === "string") return toolName;
    const content = row.content;
    if (typeof content === "string") return content;
  }
  return undefined;
}

// Reads the rows into one batch: a flag per row (0 inactive, 1 no candidate,
// 2 candidate) and the candidates. Activity is read for every row first; candidates
// only for active rows, as the routing seed does.
function readRows(rows, candidateOf, isActive) {
  const list = Array.isArray(rows) ? rows : Array.from(rows);
  const flags = new Array(list.length);
  const active = isActive ?? defaultActive;
  for (let i = 0; i < list.length; i++) flags[i] = active(list[i]) ? 1 : 0;
  const candidate = candidateOf ?? defaultCandidate;
  const candidates = [];
  for (let i = 0; i < list.length; i++) {
    if (flags[i] === 0) continue;
    const c = candidate(list[i]);
    if (typeof c === "string") {
      flags[i] = 2;
      candidates.push(c);
    }
  }
  return { retrieval: ROWS, detail: "", flags, candidates };
}

// The turn as the core sees it, decided against an indexed registry; indices in the
// answer map back to the caller's own strings, so names come back exactly as given.
function decide(registry, registered, { retrieval, detail = "", flags = NO_FLAGS, candidates = NO_NAMES }) {
  const w = put([[[detail], -1], [candidates, flags.length]], flags.length + candidates.length);
  u32.set(flags, w);
  const out = answer(registry.route(io(), retrieval, detail.length, flags.length, candidates.length));
  if (out.length === 0) throw new Error("tool-palette: internal error: malformed batch");
  let i = 1;
  const routed = [];
  for (let n = out[i++]; n > 0; n--) routed.push(registered[out[i++]]);
  const unresolved = [];
  for (let n = out[i++]; n > 0; n--, i += 3) unresolved.push(candidates[out[i]].slice(out[i + 1], out[i + 2]));
  return out[0] === 0 ? outcome(Routed, { names: routed, unresolved }) : outcome(RoutingRefusal, { reason: text(out, i), unresolved });
}

const NO_FLAGS = new Uint8Array(0);
const NO_NAMES = [];

// Asks the procedural layer (the asynchronous half of a turn) and reads its rows.
async function retrieve({ entries, timeoutMs, candidateOf, isActive }, signal, context) {
  if (signal?.aborted) throw signal.reason;
  if (entries == null) return { retrieval: NO_LAYER };
  const failed = (error) => ({ retrieval: FAILED, detail: errorName(error) });
  let value;
  try {
    value = context === undefined ? entries() : entries(context);
  } catch (error) {
    return failed(error);
  }
  if (signal?.aborted) throw signal.reason;
  let rows;
  if (timeoutMs === undefined && signal === undefined) {
    try {
      rows = await value;
    } catch (error) {
      return failed(error);
    }
  } else {
    const settled = await settle(value, timeoutMs, signal);
    if (settled === TIMEOUT) return { retrieval: TIMED_OUT, detail: String(timeoutMs) };
    if ("error" in settled) return failed(settled.error);
    rows = settled.rows;
  }
  if (rows == null) return { retrieval: ROWS_NULL };
  try {
    if (!isFunction(rows[Symbol.iterator])) throw new TypeError("the procedural layer returned a non-iterable");
    return readRows(rows, candidateOf, isActive);
  } catch (error) {
    return failed(error);
  }
}

export async function resolvePalette(options) {
  const where = "resolvePalette: options";
  if (!isObject(options)) throw fail(where, "an object", options);
  const opts = readRoutingOptions(options, where);
  const registered = names(read(options, "registered", where), `${where}.registered`);
  const signal = checkSignal(read(options, "signal", where), `${where}.signal`);
  const turn = await retrieve(opts, signal);
  // Indexed after the wait, so that turns in flight hold no wasm memory.
  return decide(registryOf(registered), registered, turn);
}

// Agents pass the same registered names turn after turn. The last index built is kept
// and reused when the names are the same strings in the same order (checked name by
// name on every call, so a changed list is always re-indexed); one index at most.
let lastNames = null;
let lastRegistry = null;

function registryOf(list) {
  if (lastNames !== null && lastNames.length === list.length) {
    let same = true;
    for (let i = 0; i < list.length && same; i++) same = lastNames[i] === list[i];
    if (same) return lastRegistry;
  }
  lastRegistry?.free();
  lastRegistry = null;
  lastRegistry = newPalette(list);
  lastNames = list;
  return lastRegistry;
}

export class ToolRouter {
  #registry;
  #registered;
  #options;

  constructor(options = {}) {
    const where = "ToolRouter: options";
    if (!isObject(options)) throw fail(where, "an object", options);
    const opts = readRoutingOptions(options, where);
    const given = read(options, "registered", where);
    const registered = given == null ? [] : names(given, `${where}.registered`);
    const onWarning = optionalFunction(read(options, "onWarning", where), `${where}.onWarning`);
    this.#registry = newPalette(registered);
    this.#registered = Object.freeze(registered);
    this.#options = opts;
    const hasLayer = opts.entries != null;
    // "" when it can serve, else "missing,missing\nthe warning's message".
    const report = text(answer(router_missing(io(), hasLayer, this.#registry.distinct())));
    const newline = report.indexOf("\n");
    this.unavailable = report ? new RoutingUnavailable(report.slice(0, newline).split(",")) : null;
    Object.freeze(this);
    if (this.unavailable) {
      deliver(new ToolRoutingUnavailableWarning(report.slice(newline + 1), this.unavailable.missing), onWarning);
    }
  }

  get registered() {
    return this.#registered;
  }

  // Frees the wasm index now instead of at garbage collection (hosts that build many
  // routers); later resolve() calls reject. Calling it again does nothing.
  dispose() {
    this.#registry?.free();
    this.#registry = null;
  }

  async resolve(options = {}) {
    const where = "ToolRouter.resolve: options";
    if (!isObject(options)) throw fail(where, "an object", options);
    const signal = checkSignal(read(options, "signal", where), `${where}.signal`);
    // The turn's input for the procedural layer: entries(context) when given, else entries().
    const context = read(options, "context", where);
    if (!this.#registry) throw new Error("ToolRouter: resolve() after dispose()");
    if (this.unavailable) return this.unavailable;
    return decide(this.#registry, this.#registered, await retrieve(this.#options, signal, context));
  }
}

function checkOutcome(outcome, where) {
  const kind = kindOf(outcome, where);
  if (kind !== "routed" && kind !== "refused" && kind !== "unavailable") {
    throw fail(where, "a Routed, RoutingRefusal or RoutingUnavailable", outcome);
  }
  return kind === "routed";
}

export function activeTools(outcome) {
  const where = "activeTools: outcome";
  return checkOutcome(outcome, where) ? routedNames(outcome, where) : undefined;
}

// Runs `f`, turning whatever the caller's object throws (a getter, a proxy trap) into a
// TypeError naming the argument.
function reading(where, f) {
  try {
    return f();
  } catch (cause) {
    if (cause instanceof TypeError && cause.message.startsWith(where)) throw cause;
    throw new TypeError(`${where} could not be read`, { cause });
  }
}

export function bindPalette(tools, outcome) {
  const where = "bindPalette: tools";
  const what = "an array of { name } or a record keyed by name";
  if (!isObject(tools)) throw fail(where, what, tools);
  const routed = checkOutcome(outcome, "bindPalette: outcome");
  const isArray = reading(where, () => Array.isArray(tools));
  // A Map or a Set is no record: filtering its (absent) own keys would drop every tool.
  if (!isArray && reading(where, () => Symbol.iterator in tools)) throw fail(where, what, tools);
  if (!routed) return tools;
  const allowed = routedNames(outcome, "bindPalette: outcome");
  // Everything the caller's objects answer is read before the boundary buffers are
  // written, and the answer is copied out before any of it is read again: a getter or
  // proxy trap that itself calls the package cannot overwrite a buffer in use.
  let items, keys;
  if (isArray) {
    items = reading(where, () => Array.from(tools));
    keys = items.map((tool, i) =>
      reading(`${where}[${i}].name`, () => {
        const name = isObject(tool) ? tool.name : undefined;
        if (typeof name !== "string") throw fail(`${where}[${i}].name`, "a string", name);
        return name;
      }),
    );
  } else {
    keys = reading(where, () => Object.keys(tools));
  }
  put([[allowed, 0], [keys, allowed.length]], allowed.length + keys.length);
  const kept = Array.from(answer(keep(io(), allowed.length, keys.length)));
  if (isArray) return kept.map((i) => items[i]);
  const proto = reading(where, () => Object.getPrototypeOf(tools));
  const out = Object.create(proto === null ? null : Object.prototype);
  for (const i of kept) {
    const value = reading(`${where}[${JSON.stringify(keys[i])}]`, () => tools[keys[i]]);
    // defineProperty, not assignment: "__proto__" is an ordinary tool name here.
    Object.defineProperty(out, keys[i], { value, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

// ---------------------------------------------------------------- policies

// What a truthy `match` leads to in a POST plan (see Policies.dispatch_plan).
const THEN_GUARD = 1;

// Dispatch plans are cached per emitted tool name; a model may emit any name, so the
// cache is bounded.
const PLAN_CACHE_LIMIT = 256;

const PRE = "PRE-model seam (selectModel)";
const POST = "POST-model seam (dispatch)";

let ruleOf;

// The length rule() takes for "no redirectTo".
const NO_REDIRECT = 0xffffffff;
let isPolicy;

export class ToolCallPolicy {
  #rule;

  constructor(spec) {
    if (!isObject(spec)) throw fail("ToolCallPolicy: spec", "an object", spec);
    const name = read(spec, "name", "ToolCallPolicy: spec");
    if (typeof name !== "string" || name === "") throw fail("ToolCallPolicy: name", "a non-empty string", name);
    const field = (key) => read(spec, key, `ToolCallPolicy "${name}": spec`);
    const where = (key) => `ToolCallPolicy "${name}": ${key}`;
    const match = field("match");
    if (!isFunction(match)) throw fail(where("match"), "a function", match);
    const whenToolIn = field("whenTool");
    let whenTool = null;
    if (typeof whenToolIn === "string") whenTool = whenToolIn;
    else if (whenToolIn != null) whenTool = Object.freeze(names(whenToolIn, where("whenTool")));
    const redirectTo = field("redirectTo") ?? null;
    if (redirectTo !== null && (typeof redirectTo !== "string" || redirectTo === "")) {
      throw fail(where("redirectTo"), "a non-empty string, null or undefined", redirectTo);
    }
    const argsTransform = field("argsTransform") ?? null;
    if (argsTransform !== null && !isFunction(argsTransform)) throw fail(where("argsTransform"), "a function", argsTransform);
    const guard = field("guard") ?? null;
    if (guard !== null && !isFunction(guard)) throw fail(where("guard"), "a function", guard);
    const model = field("model") ?? null;

    this.name = name;
    this.match = match;
    this.whenTool = whenTool;
    this.redirectTo = redirectTo;
    this.model = model;
    this.argsTransform = argsTransform;
    this.guard = guard;
    const tools = whenTool === null ? [] : typeof whenTool === "string" ? [whenTool] : whenTool;
    const redirect = redirectTo ?? "";
    put([[[name, redirect], -1], [tools, 0]], tools.length);
    this.#rule = rule(
      io(),
      name.length,
      redirectTo === null ? NO_REDIRECT : redirect.length,
      whenTool === null ? 0 : typeof whenTool === "string" ? 1 : 2,
      tools.length,
      model !== null,
      guard !== null,
    );
    Object.freeze(this);
  }

  matchesTool(toolName) {
    if (typeof toolName !== "string") throw fail(`ToolCallPolicy "${this.name}".matchesTool: toolName`, "a string", toolName);
    put([[[toolName], -1]]);
    return this.#rule.matches_tool(io(), toolName.length);
  }

  static {
    ruleOf = (policy) => policy.#rule;
    // A genuine instance, not a proxy of one (a proxy has no private fields: it is read as a spec).
    isPolicy = (value) => isObject(value) && #rule in value;
  }
}

function seamError(policy, fn, seam, what, cause) {
  return new Error(`ToolCallPolicy "${policy.name}": ${fn} ${what} at the ${seam}`, { cause });
}

function isThenable(value) {
  return (isObject(value) || isFunction(value)) && isFunction(value.then);
}

// Runs one of a policy's functions; a throw or a promise is the seam's error.
function run(policy, fn, seam, first, second) {
  let result;
  try {
    result = fn === "argsTransform" ? policy.argsTransform(first, second) : policy[fn](first);
  } catch (cause) {
    throw seamError(policy, fn, seam, "threw", cause);
  }
  let thenable;
  try {
    thenable = isThenable(result);
  } catch (cause) {
    throw seamError(policy, fn, seam, "returned a value whose `then` could not be read", cause);
  }
  if (thenable) throw seamError(policy, fn, seam, "returned a promise or thenable (it must be synchronous)", result);
  return result;
}

function isPlainObject(value) {
  if (!isObject(value) || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function checkCall(call, where) {
  if (!isObject(call)) throw fail(where, "an object { name, args, id? }", call);
  const name = read(call, "name", where);
  if (typeof name !== "string") throw fail(`${where}.name`, "a string", name);
  return name;
}

// The names the gate checks against: undefined when every tool passes.
function gateOf(palette) {
  if (palette == null) return undefined;
  const where = "ToolPolicies.dispatch: palette";
  const kind = kindOf(palette, where);
  if (kind === "refused" || kind === "unavailable") return undefined;
  if (kind === "routed") return routedNames(palette, where);
  return names(palette, where);
}

function gateDrops(allowed, original, target, byPolicy) {
  put([[[original, target], -1], [allowed, 0]], allowed.length);
  return gate_drops(io(), original.length, target.length, allowed.length, byPolicy);
}

export class ToolPolicies {
  #set;
  #modelPlan;
  #plans = new Map();
  #resolver;
  #callback;
  #onWarning;
  #registered;

  constructor(policies, options = {}) {
    const given = "ToolPolicies: policies";
    if (!isObject(policies) || !reading(given, () => isFunction(policies[Symbol.iterator]))) {
      throw fail(given, "an iterable of ToolCallPolicy", policies);
    }
    const items = reading(given, () => Array.from(policies));
    const list = items.map((p, i) => {
      if (isPolicy(p)) return p;
      try {
        return new ToolCallPolicy(p);
      } catch (cause) {
        throw new TypeError(`${given}[${i}]: ${cause?.message}`, { cause });
      }
    });
    const where = "ToolPolicies: options";
    if (!isObject(options)) throw fail(where, "an object", options);
    this.#resolver = optionalFunction(read(options, "modelResolver", where), `${where}.modelResolver`);
    this.#callback = optionalFunction(read(options, "onToolCallDispatch", where), `${where}.onToolCallDispatch`);
    this.#onWarning = optionalFunction(read(options, "onWarning", where), `${where}.onWarning`);
    const registered = read(options, "registered", where);
    this.#registered = registered === undefined ? undefined : Object.freeze(names(registered, `${where}.registered`));
    const set = new Policies();
    for (const p of list) set.add(ruleOf(p));
    const duplicate = set.seal(this.#resolver !== undefined, this.#callback !== undefined);
    if (duplicate >= 0) {
      set.free();
      throw new TypeError(`ToolPolicies: policies[${duplicate}] reuses the name "${list[duplicate].name}"; policy names must be unique`);
    }
    this.#set = set;
    this.#modelPlan = answer(set.model_plan(io())).slice();
    this.policies = Object.freeze(list);
    Object.freeze(this);
  }

  // The seams run the plans the core compiled from its rules (the order, the
  // composition, what each answer leads to); this layer only asks the functions.
  // Frees the wasm side now instead of at garbage collection; later seams throw.
  dispose() {
    this.#set?.free();
    this.#set = null;
  }

  #live(seam) {
    if (!this.#set) throw new Error(`ToolPolicies: ${seam}() after dispose()`);
  }

  selectModel(ctx) {
    this.#live("selectModel");
    const plan = this.#modelPlan;
    for (let k = 1; k < plan.length; k++) {
      const policy = this.policies[plan[k]];
      if (run(policy, "match", PRE, ctx)) return Object.freeze({ model: policy.model, source: "policy", policy: policy.name });
    }
    const model = plan[0] ? (this.#resolver(ctx) ?? null) : null;
    return Object.freeze({ model, source: model === null ? "default" : "resolver", policy: null });
  }

  #planFor(tool) {
    let plan = this.#plans.get(tool);
    if (plan === undefined) {
      put([[[tool], -1]]);
      plan = answer(this.#set.dispatch_plan(io(), tool.length)).slice();
      if (this.#plans.size >= PLAN_CACHE_LIMIT) this.#plans.clear();
      this.#plans.set(tool, plan);
    }
    return plan;
  }

  dispatch(call, ctx, palette) {
    this.#live("dispatch");
    const originalName = checkCall(call, "ToolPolicies.dispatch: call");
    // A palette that does not narrow lets every registered tool pass: the registered
    // names when the host gave them, else every tool.
    const allowed = gateOf(palette) ?? this.#registered;
    const plan = this.#planFor(originalName);
    let current = call;
    // The target as read once (a getter on the caller's call is asked only once).
    let target = originalName;
    let by = null;
    for (let k = 1; k < plan.length; k++) {
      const policy = this.policies[plan[k] >>> 2];
      const then = plan[k] & 3;
      if (!run(policy, "match", POST, ctx) || !then) continue;
      if (then === THEN_GUARD && !run(policy, "guard", POST, ctx)) continue;
      current = redirect(policy, call, ctx);
      target = policy.redirectTo;
      by = policy;
      break;
    }
    if (plan[0]) {
      const next = this.#callback(current, ctx);
      if (next != null) {
        target = checkCall(next, "ToolPolicies: onToolCallDispatch's returned call");
        current = next;
      }
    }
    if (allowed && gateDrops(allowed, originalName, target, by !== null)) {
      put([[[target, originalName], -1]]);
      const reason = text(answer(dropped_because(io(), target.length)));
      const who = by ? `ToolCallPolicy "${by.name}"` : "onToolCallDispatch";
      deliver(
        new ToolRedirectDroppedWarning(`${who}: ${reason}`, { policy: by?.name ?? null, target, original: originalName }),
        this.#onWarning,
      );
      return Object.freeze({ call, original: call, redirectedBy: by?.name ?? null, dropped: Object.freeze({ target, reason }) });
    }
    return Object.freeze({ call: current, original: call, redirectedBy: by?.name ?? null, dropped: null });
  }
}

// The rewritten call: a new object with every field of the original, the target's name
// and, with argsTransform, new args (computed from a shallow copy: the caller's args
// object is never handed out to be mutated).
function redirect(policy, call, ctx) {
  const where = "ToolPolicies.dispatch: call";
  const next = reading(where, () => ({ ...call, name: policy.redirectTo }));
  if (policy.argsTransform) {
    const copy = reading(`${where}.args`, () => {
      const args = call.args;
      return isPlainObject(args) ? { ...args } : args;
    });
    const out = run(policy, "argsTransform", POST, copy, ctx);
    if (!isPlainObject(out)) throw seamError(policy, "argsTransform", POST, `returned ${describe(out)}, not a plain object`, out);
    next.args = out;
  }
  return next;
}

// `using router = new ToolRouter(…)` where the runtime has explicit resource management.
if (typeof Symbol.dispose === "symbol") {
  for (const Class of [ToolRouter, ToolPolicies]) {
    Object.defineProperty(Class.prototype, Symbol.dispose, { value: Class.prototype.dispose, writable: true, configurable: true });
  }
}
