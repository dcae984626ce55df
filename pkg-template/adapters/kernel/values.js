// The kernel's readers of the caller's values, its waits and warnings, for every adapter. Internal. A value is read once; what the read throws (a
// getter, a proxy's trap, a revoked proxy) is the TypeError naming what was read, the thrown value its `cause`, by the facade's rules and words
// (src/js/values.js: the stack running out passes on as it is).
import { deliver } from "../../deliver.js";
import { allStrings, attempt, checked, describe, isFunction, isObject, signal } from "../../values.js";
import { LONGEST_TIMER } from "../../wire.js";

export { allStrings, attempt, checked, isFunction, isObject };
export const isString = (v) => typeof v === "string";

/** `<where> must be <what>, got <what it is>`; `exact`: a string or number shown too, as the core words it (src/js/run.js). */
export const fail = (where, what, v, exact = false) =>
  new TypeError(`${where} must be ${what}, got ${exact && isString(v) ? `"${v}"` : describe(v)}${exact && typeof v === "number" ? ` (${v})` : ""}`);

export const read = (value, key, where) => attempt(() => value[key], where);

/** The `keys` of the caller's object `o`, read once each, as a record (all `undefined` when `o` is). */
export function fields(o, keys, where) {
  const out = {};
  if (o !== undefined && !isObject(o)) throw fail(where, "an object", o);
  for (const key of keys) out[key] = o === undefined ? undefined : read(o, key, `${where}.${key}`);
  return out;
}

export const items = (value, where) => attempt(() => [...value], where);

export const hasMethod = (value, key, where) => (isObject(value) || isFunction(value)) && isFunction(read(value, key, where));

/** An iterable of strings (not a string itself), as a list of each once. */
export const names = (value, where, what = "an iterable of tool names") => [...new Set(allStrings(value, where, what))];

export function checkFunctions(at, values) {
  for (const [key, value] of Object.entries(values)) if (value != null && !isFunction(value)) throw fail(`${at}.${key}`, "a function", value);
}

export function checkOneOf(where, key, value, allowed, exact) {
  if (allowed.includes(value)) return value;
  const quoted = allowed.map((a) => JSON.stringify(a));
  throw fail(`${where}: options.${key}`, `${quoted.slice(0, -1).join(", ")} or ${quoted.at(-1)}`, value, exact);
}

/** A signal as the core takes one (or null: none). */
export const checkSignal = (value, where) => void signal(value ?? undefined, where);

export const errorText = (error) => (error instanceof Error ? error.message : String(error));

export const put = (record, key, value) => Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });

/** `f()`, or `otherwise` when it throws (a getter, a proxy's trap, text that is no JSON): what cannot be read is nothing. */
export function tryOr(f, otherwise) {
  try {
    return f();
  } catch {
    return otherwise;
  }
}

export const NOT_JSON = Symbol("not JSON");

/** `[f()]`, or `[]` once `skip(error)` is told why not. */
export function kept(f, skip) {
  try {
    return [f()];
  } catch (error) {
    skip(error);
    return [];
  }
}

/** A tool's `name` (a getter that throws names nothing). */
export const nameOf = (tool) => tryOr(() => (isObject(tool) || isFunction(tool) ? tool.name : undefined));

// The waits the core does not run (listing, embedding, calling a server): a timer past LONGEST_TIMER would fire at once, so such a budget never runs out.

export const timerFor = (ms) => (ms <= LONGEST_TIMER ? ms : null);

/** `work` within `ms`: when the time is up, rejects with `timedOut()` and aborts `controller`. */
export function within(work, ms, timedOut, controller) {
  if (timerFor(ms) === null) return work;
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => {
      const error = timedOut();
      reject(error);
      controller?.abort(error);
    }, ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** Why a signal aborted: its reason (an AbortError when it gives none). */
export const reasonOf = (signal) => signal.reason ?? new DOMException("This operation was aborted", "AbortError");

/** `promise`, or the signal's reason as soon as it aborts (even if the work never heeds it). */
export function abortable(promise, signal) {
  if (signal == null) return promise;
  if (signal.aborted) return Promise.reject(reasonOf(signal));
  let onAbort;
  const aborted = new Promise((_, reject) => {
    onAbort = () => reject(reasonOf(signal));
    signal.addEventListener("abort", onAbort, { once: true });
  });
  return Promise.race([promise, aborted]).finally(() => signal.removeEventListener("abort", onAbort));
}

export class ToolPaletteAdapterWarning extends Error {
  constructor(message, code) {
    super(message);
    Object.assign(this, { name: "ToolPaletteAdapterWarning", code });
  }
}

/** `warn(code, message)`: an adapter's warning, delivered as the core's are, once per code. */
export function warnings(where, onWarning) {
  const warned = new Set();
  return (code, message) => {
    if (warned.has(code)) return;
    warned.add(code);
    deliver(new ToolPaletteAdapterWarning(`${where}: ${message}`, code), onWarning);
  };
}
