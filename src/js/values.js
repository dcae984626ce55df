// @ts-check
// The readers of the caller's values and the options' rules, which word every error: the
// facade's (through host.js) and the framework adapters' (pkg-template/adapters/kernel),
// so each rule and its words are written once. Imports nothing: an adapter may load it
// beside any entry of the package.

export const isObject = (v) => typeof v === "object" && v !== null;
export const isFunction = (v) => typeof v === "function";

// How a message names what was given ("…, got an object").
export function describe(v) {
  if (v === null) return "null";
  if (typeof v !== "object") return typeof v;
  try { return Array.isArray(v) ? "an array" : "an object"; } catch { return "an object"; } // a revoked proxy
}

// `<where> must be <what>, got <what it is>` (a number shown too).
export const mustBe = (where, what, v) => new TypeError(`${where} must be ${what}, got ${describe(v)}${typeof v === "number" ? ` (${v})` : ""}`);

// `f()`, reading the caller's values: what it throws (a getter, a proxy's trap) becomes the
// TypeError saying that `where` (or what `where()` says) could not be read.
export function attempt(f, where) {
  try { return f(); } catch (cause) { throw unread(cause, where); }
}
// The TypeError saying that `where` could not be read, unless the JavaScript stack ran out
// while it was read: that RangeError is the caller's deep recursion, not its value's fault,
// and passes on as it is.
function unread(cause, where) {
  if (cause instanceof RangeError && String(cause.message).includes("call stack")) return cause;
  return new TypeError(`${typeof where === "function" ? where() : where} could not be read`, { cause });
}

// `keys` of the options object `o` (named `where`), read once each, in order (undefined
// when `o` is); a TypeError when `o` is no object or a read throws.
export function fields(o, keys, where, required = false) {
  const values = new Array(keys.length);
  if (o === undefined && !required) return values;
  if (!isObject(o)) throw mustBe(where, "an object", o);
  let i = 0;
  try {
    for (; i < keys.length; i++) values[i] = o[keys[i]];
  } catch (cause) {
    throw unread(cause, `${where}.${keys[i]}`);
  }
  return values;
}

// What an option may be: left out (undefined, or null where that means none), or a TypeError.
const OPTIONAL = (v) => v === undefined;
const NULLABLE = (v) => v == null;
const RULES = {
  function: [isFunction, "a function", OPTIONAL],
  nullableFunction: [isFunction, "a function", NULLABLE],
  layer: [isFunction, "a function, null or undefined", NULLABLE],
  required: [isFunction, "a function", () => false],
  budget: [(v) => typeof v === "number" && Number.isFinite(v) && v >= 0, "a finite number >= 0", OPTIONAL],
  // A wait of the adapters' own (tool-palette/mcp's listing and turns): Infinity is none.
  wait: [(v) => v === Infinity || (typeof v === "number" && Number.isFinite(v) && v >= 0), "a finite number >= 0 (or Infinity)", OPTIONAL],
  limit: [(v) => Number.isInteger(v) && v >= 1 && v <= 0xffffffff, "a positive integer", OPTIONAL],
  flag: [(v) => typeof v === "boolean", "a boolean", OPTIONAL],
  name: [(v) => typeof v === "string" && v !== "", "a non-empty string", () => false],
  target: [(v) => typeof v === "string" && v !== "", "a non-empty string, null or undefined", NULLABLE],
  // A skill's tool names in the host's (SkillIndex options.tools, tool-palette/mcp's skillIndex.tools).
  mapping: [(v) => isFunction(v) || isObject(v), "a record of tool names or a function", OPTIONAL],
};
export function checked(v, rule, where) {
  const [valid, what, absent] = RULES[rule];
  if (absent(v)) return undefined;
  if (!valid(v)) throw mustBe(where, what, v);
  return v;
}

// An iterable of strings (`where` names it) as a fresh array, read no further than one
// item past the most a call may hold (`bounded`: a longer one is refused by its length).
export const MOST = 1 << 20;
const arrayValues = Array.prototype[Symbol.iterator];
export function strings(value, where, what = "an iterable of strings") {
  const iterator = attempt(() => (isObject(value) ? value[Symbol.iterator] : undefined), where);
  if (!isFunction(iterator)) throw mustBe(where, what, value);
  const list = attempt(() => (Array.isArray(value) && iterator === arrayValues ? Array.from(value) : bounded(value)), where);
  const bad = list.findIndex((s) => typeof s !== "string");
  if (bad >= 0) throw mustBe(`${where}[${bad}]`, "a string", list[bad]);
  return list;
}
// `strings` for a list read whole where nothing else would count it (a context's history
// and called): more than a call may hold is the RangeError naming it, never a list cut short.
export function allStrings(value, where, what) {
  const list = strings(value, where, what);
  if (list.length > MOST) throw tooLarge(where);
  return list;
}
export const tooLarge = (where) => new RangeError(`${where} is too large: a call takes at most 1,048,576 names and 8,388,608 code units of names`);
export function bounded(value) {
  const out = [];
  for (const item of value) if (out.push(item) > MOST) break;
  return out;
}

// A signal checked as the platform would use it (`aborted`, `addEventListener`,
// `removeEventListener`); `read(key)` later: what it throws is a TypeError that it failed.
export function signal(value, where) {
  if (value === undefined) return undefined;
  if (!isObject(value)) throw mustBe(where, "an AbortSignal", value);
  const read = attempt(() => [value.aborted, value.addEventListener, value.removeEventListener], where);
  if (typeof read[0] !== "boolean" || !isFunction(read[1]) || !isFunction(read[2])) throw mustBe(where, "an AbortSignal", value);
  const failed = (cause) => new TypeError(`${where} failed as an AbortSignal`, { cause });
  return {
    value,
    failed,
    read(key) {
      try { return value[key]; } catch (cause) { throw failed(cause); }
    },
  };
}
