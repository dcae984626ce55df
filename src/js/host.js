// @ts-check
// What every area's facade (routing.js, policies.js, run.js, index.js) shares: the door
// every call into the module passes, the batch names cross in, and the readers of the
// caller's values, which word every error. The module decides (src/js/*.rs).
import { state } from "./state.js";
import { calls } from "./calls.js";
import { close, open, release, room as growBatch } from "./tool_palette.js";
import { attempt, isFunction, isObject, mustBe, tooLarge } from "./values.js";

// ---------------------------------------------------------------- the door

// Every public call runs through `enter`. It opens a call of the module's heap around it
// (src/js/mod.rs `open`, `close`): should anything unwind through a wasm frame (the
// JavaScript stack running out at any depth inside the call, a trap), whatever the call
// allocated is freed, what it borrowed given back, the module's stack pointer put back,
// the receivers of the calls it interrupted restored (calls.js), and a trap becomes an
// Error that says so. Public calls nest at most MAX_DEPTH deep (a runaway recursion is cut).
const MAX_DEPTH = 64;
let depth = 0; // public calls in progress, nested
let entered = 0; // calls through the door in progress (the rest of a call after an await too)
let cutting = false;
// The module's stack pointer when no call is in progress (read at the first call).
let base;
// The instances borrowed by the calls in progress, innermost last (`withRecord`).
const lent = [];

// Throws for a call that a runaway recursion cuts.
function cut() {
  if (depth === 0 || (!cutting && depth < MAX_DEPTH)) return;
  cutting = true;
  throw new Error(`tool-palette: calls into the package nested ${MAX_DEPTH} deep (a reader or callback that calls back into the package without end); this call and the ones nested under the outermost one fail`);
}

// `f.apply(self, args)` through the door: a public call (`counts`), or the rest of one
// after an await (which nests no deeper).
export function enter(f, self, args, counts = true) {
  if (!state.ready) throw notReady();
  if (counts) cut();
  const { wasm } = state;
  const pointer = wasm.__stack_pointer;
  // No call in progress: the stack pointer is put back even if a call's own catch could
  // not do it (the stack had run out there too), as the heap rolls back its call (`open`).
  if (entered === 0) pointer.value = base ??= pointer.value;
  const saved = pointer.value;
  const [to, borrowed] = [calls.to, lent.length];
  const mark = open(entered === 0);
  entered++;
  if (counts) depth++;
  try {
    const result = f.apply(self, args);
    close(mark, false);
    return result;
  } catch (error) {
    // A call that returned leaves the pointer where it was; an unwind through wasm does not.
    if (pointer.value !== saved) pointer.value = saved;
    // What the call allocated and borrowed (a call cut short by the stack running out may
    // fail to do this: the next outermost call does it, `open(true)`).
    try { close(mark, true); } catch {}
    // The room may be lost with a call that did not return: it is asked for again.
    capacity = [0, 0, 0];
    if (!(error instanceof WebAssembly.RuntimeError)) throw error;
    throw new Error(`tool-palette: the WebAssembly module trapped (${error.message}); this call failed, the next one runs normally`, { cause: error });
  } finally {
    if (counts && --depth === 0) cutting = false;
    entered--;
    calls.to = to;
    while (lent.length > borrowed) done(lent.pop());
    if (entered === 0 && limbo.size > 0) limbo.forEach(drop);
  }
}

// A function of the API through the door (`async`: one whose promise rejects with what a
// call made too early throws; a runaway recursion still throws at once).
/** @template {(...args: any[]) => any} F @param {F} f @param {boolean} [async] @returns {F} (its type: the facade's check sees f's) */
export const guard = (f, async) =>
  /** @type {any} */ (
    /** @this {unknown} */
    function (...args) {
      if (!async) return enter(f, this, args);
      if (!state.ready) return Promise.reject(notReady());
      cut();
      try { return enter(f, this, args); } catch (error) { return Promise.reject(error); }
    });

// A class's methods through the door, each [name, async], and its `dispose()`: what the
// instance holds is freed now, or once the calls in flight on it are done.
export function guarded(Class, ...methods) {
  const define = (key, value) => Object.defineProperty(Class.prototype, key, { value, writable: true, configurable: true });
  for (const [name, async] of methods) define(name, guard(Class.prototype[name], async));
  define("dispose", guard(/** @this {unknown} */ function dispose() {
    const record = recordOf(this, Class, "dispose");
    if (!record.disposed && (record.disposed = true) && record.busy === 0) free(record);
  }));
  if (typeof Symbol.dispose === "symbol") define(Symbol.dispose, Class.prototype.dispose);
}

// A call made before the module is instantiated (tool-palette/init, a require() in a
// browser): an Error that says what to await, or why the module could not load.
function notReady() {
  if (state.error === undefined) return new Error("tool-palette: the WebAssembly module is not loaded yet: `await ready` (or `await init()`) before calling tool-palette");
  const reason = state.error instanceof Error ? state.error.message : String(state.error);
  return new Error(`tool-palette: the WebAssembly module failed to load (${reason}); \`ready\` rejected with this error`, { cause: state.error });
}

// ---------------------------------------------------------------- the batch

// Writes `strings` (their code units as they are, and ends) and `codes` (a turn's rows)
// into the module's room (batch.rs); `false` beyond what one call may hold. Under Node.js more
// than 16 strings, or one over 32 units, are one native UTF-16LE write (`state.writer`).
let capacity = [0, 0, 0]; // strings, code units, codes the room holds
let at; // its address
let views; // [bytes, 16-bit words, 32-bit words, the Node writer] (outgrown: detached, empty)
export function writeBatch(strings, codes = NO_CODES) {
  if (!batchHolds(strings, codes)) return false;
  if (views === undefined || views[0].length === 0) {
    const { buffer } = state.wasm.memory;
    views = [new Uint8Array(buffer), new Uint16Array(buffer), new Uint32Array(buffer), state.writer?.(buffer)];
  }
  const [bytes, words, ends, writer] = views;
  const [e, u] = [ends[at >>> 2] >>> 2, ends[(at >>> 2) + 1] >>> 1];
  if (codes.length > 0) bytes.set(codes, ends[(at >>> 2) + 2]);
  // (Measured: 1,000 short names in 24 µs written whole, 34 µs one by one.)
  const whole = writer !== undefined && strings.length > 16;
  if (whole) writer(strings.join(""), 2 * u);
  let k = 0;
  for (let i = 0; i < strings.length; i++) {
    const s = strings[i];
    if (!whole && writer && s.length > 32) writer(s, 2 * (u + k));
    else if (!whole) for (let j = 0; j < s.length; j++) words[u + k + j] = s.charCodeAt(j);
    ends[e + i] = k += s.length;
  }
  return true;
}
const NO_CODES = new Uint8Array(0);

// Whether the batch holds `strings` and `codes`, its room grown if need be (batch.rs `room`
// answers its new address, or 0 beyond what one call may hold).
function batchHolds(strings, codes = NO_CODES) {
  let units = 0;
  for (let i = 0; i < strings.length; i++) units += strings[i].length;
  if (strings.length <= capacity[0] && units <= capacity[1] && codes.length <= capacity[2]) return true;
  const grown = [Math.max(strings.length, capacity[0]), Math.max(units, capacity[1]), Math.max(codes.length, capacity[2])];
  at = growBatch(grown[0], grown[1], grown[2]);
  capacity = at === 0 ? [0, 0, 0] : grown;
  return at !== 0;
}

// Code units (the module's answer) as strings ending at `ends`: decoded natively when long
// and well-formed (else unit by unit, exact), then cut (50,000 names: 4 ms).
let utf16;
export function decodeStrings(units, ends = [units.length]) {
  let all = "";
  try { all = units.length > 8192 ? (utf16 ??= new TextDecoder("utf-16le", { fatal: true, ignoreBOM: true })).decode(units) : ""; } catch {}
  for (let i = all.length; i < units.length; i += 8192) all += String.fromCharCode.apply(null, units.subarray(i, i + 8192));
  const out = new Array(ends.length);
  for (let i = 0, start = 0; i < ends.length; i++) out[i] = all.slice(start, (start = ends[i]));
  return out;
}

// The rows the package's indexes made (`ToolIndex.entries`): their `tool` is a registered
// name as it is, which the core routes untrimmed (routing.rs `EXACT`). One set for the
// ESM and CommonJS builds of one realm (a registered symbol), so that a row crosses builds
// as an outcome does.
/** @type {WeakSet<object>} */
export const exactRows = (() => {
  const [global, key, own] = [/** @type {any} */ (globalThis), Symbol.for("tool-palette.exactRows"), new WeakSet()];
  try {
    if (!(global[key] instanceof WeakSet)) Object.defineProperty(global, key, { value: own });
    return global[key];
  } catch {
    return own; // (a frozen global: each build its own)
  }
})();

// ---------------------------------------------------------------- the caller's values

// The readers of the caller's values and the options' rules are values.js's (import-free,
// so that the framework adapters read values by the same rules and words).
export { isObject, isFunction, describe, mustBe, attempt, fields, checked, strings, allStrings, bounded, signal } from "./values.js";


// Names (and their codes) into the batch, or only room for them (`reserve`), or the
// RangeError naming them (`where`) when they are more than one call may hold.
export function putNames(names, where, codes) {
  if (!writeBatch(names, codes)) throw tooLarge(where);
}
export function reserve(names, where) {
  if (!batchHolds(names)) throw tooLarge(where);
}
// Whether one call may hold `names` (room made for them): a model's words beyond it are answered, not thrown.
export const holds = (names) => batchHolds(names);

// ---------------------------------------------------------------- instances

// The module numbers an instance's state by a slot that JavaScript hands out (slot 0 is
// the batch's room), so that no answer of the module's can lose one. A slot taken is in
// `limbo` until an owner keeps it (`attachRecord`, `keep`): when the outermost call ends, what is
// still there (a call cut short between taking a slot and keeping it) is freed.
const spare = [];
const spared = new Set();
let slots = 1;
const limbo = new Set();
export function slot() {
  const s = spare.length > 0 ? /** @type {number} */ (spare.pop()) : slots++;
  spared.delete(s);
  limbo.add(s);
  return s;
}
export const keep = (s) => void limbo.delete(s);
// Frees the state in `s` and gives the slot back (once: a slot given back twice would be
// handed out twice).
export function drop(s) {
  if (spared.has(s)) return;
  limbo.delete(s);
  release(s);
  spared.add(s);
  spare.push(s);
}

// Each public instance's record: the module's states behind it (`slots`, the instance's
// own), what else it keeps (`more`: its options, its names), the class that made it (a
// method called on anything else is a TypeError), the calls in flight on it (`busy`),
// whether it is disposed, and `free`, which frees its slots (and anything else it holds),
// once. Held by the instance itself, not by a WeakMap: garbage collection then takes both
// at once, and the module's memory comes back sooner.
const RECORD = Symbol("tool-palette");
const collected = typeof FinalizationRegistry === "function" ? new FinalizationRegistry((f) => f()) : undefined;
// `f()` once `token` is garbage-collected (unless `forget(token)` first).
export const whenCollected = (token, f) => collected?.register(token, f, token);
export const forget = (token) => collected?.unregister(token);
export function attachRecord(self, slots, more, free = () => slots.forEach(drop)) {
  slots.forEach(keep);
  const record = { slots, more, Class: self.constructor, busy: 0, disposed: false, free: once(free) };
  Object.defineProperty(self, RECORD, { value: record });
  collected?.register(self, record.free, record);
}
const once = (f) => {
  let done = false;
  return () => { if (!done) { done = true; f(); } };
};
function free(record) {
  collected?.unregister(record);
  record.free();
}
export function recordOf(self, Class, method) {
  let record;
  try {
    record = Object.getOwnPropertyDescriptor(self, RECORD)?.value; // (a Proxy's trap may throw)
  } catch (error) { if (error instanceof RangeError) throw error; } // (the stack ran out: not a wrong object)
  if (record?.Class !== Class) throw new TypeError(`tool-palette: ${Class.name}.prototype.${method} called on an object that is not a ${Class.name}`);
  return record;
}
// Runs `f(slots, more)` on `self`'s record (an Error once disposed), keeping it from
// being freed until `f` (or the promise it returns) is done; the door gives it back should
// `f` never return.
export function withRecord(self, Class, method, f) {
  const record = recordOf(self, Class, method);
  if (record.disposed) throw new Error(`${Class.name}: ${method}() after dispose()`);
  record.busy++;
  lent.push(record);
  const result = f(record.slots, record.more);
  lent.pop();
  if (result instanceof Promise) result.then(() => done(record), () => done(record));
  else done(record);
  return result;
}
function done(record) {
  if (--record.busy === 0 && record.disposed) free(record);
}
