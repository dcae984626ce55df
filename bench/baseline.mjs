// The plain-JavaScript baseline: the same SPEC written the way a competent user would
// (Sets and Maps, no wasm). The benchmark races the package against it, and it passes
// the package's own JS behaviour suites (bench/baseline.test.mjs), so the race is fair.

const isObject = (v) => typeof v === "object" && v !== null;
const isFunction = (v) => typeof v === "function";
const describe = (v) => (v === null ? "null" : Array.isArray(v) ? "an array" : typeof v === "object" ? "an object" : typeof v);
const fail = (where, what, v) => new TypeError(`${where} must be ${what}, got ${describe(v)}${typeof v === "number" ? ` (${v})` : ""}`);

function read(obj, key, where) {
  try {
    return obj[key];
  } catch (cause) {
    throw new TypeError(`${where}.${key} could not be read`, { cause });
  }
}

function names(value, where) {
  if (typeof value === "string" || !isObject(value)) throw fail(where, "an iterable of strings", value);
  let it;
  try {
    it = value[Symbol.iterator];
  } catch (cause) {
    throw new TypeError(`${where} could not be read`, { cause });
  }
  if (!isFunction(it)) throw fail(where, "an iterable of strings", value);
  let list;
  try {
    list = Array.from(value);
  } catch (cause) {
    throw new TypeError(`${where} could not be iterated`, { cause });
  }
  for (let i = 0; i < list.length; i++) if (typeof list[i] !== "string") throw fail(`${where}[${i}]`, "a string", list[i]);
  return list;
}

function deliver(warning, onWarning) {
  if (onWarning) return void onWarning(warning);
  const proc = globalThis.process;
  if (proc && isFunction(proc.emitWarning)) return void proc.emitWarning(warning);
  globalThis.console?.warn?.(`${warning.name}: ${warning.message}`);
}

export class ToolRoutingUnavailableWarning extends Error {
  constructor(message, missing) {
    super(message);
    this.name = "ToolRoutingUnavailableWarning";
    this.missing = Object.freeze([...missing]);
  }
}

export class ToolRedirectDroppedWarning extends Error {
  constructor(message, { policy, target, original }) {
    super(message);
    this.name = "ToolRedirectDroppedWarning";
    Object.assign(this, { policy, target, original });
  }
}

export class Routed {
  constructor(n, unresolved = []) {
    this.kind = "routed";
    this.names = Object.freeze(names(n, "Routed: names"));
    if (!this.names.length) throw new TypeError("Routed: names must not be empty");
    this.unresolved = Object.freeze(names(unresolved, "Routed: unresolved"));
    Object.freeze(this);
  }
}

export class RoutingRefusal {
  constructor(reason, unresolved = []) {
    if (typeof reason !== "string") throw fail("RoutingRefusal: reason", "a string", reason);
    this.kind = "refused";
    this.reason = reason;
    this.unresolved = Object.freeze(names(unresolved, "RoutingRefusal: unresolved"));
    Object.freeze(this);
  }
}

export class RoutingUnavailable {
  constructor(missing) {
    this.kind = "unavailable";
    this.missing = Object.freeze(names(missing, "RoutingUnavailable: missing"));
    Object.freeze(this);
  }
}

const ALL = "; allowing all tools";
const refuse = (reason, unresolved = []) => new RoutingRefusal(reason + ALL, unresolved);

function errorName(v) {
  if (isObject(v) || isFunction(v)) {
    try {
      if (typeof v.name === "string" && v.name) return v.name;
    } catch {}
    try {
      const n = v.constructor?.name;
      if (typeof n === "string" && n) return n;
    } catch {}
  }
  return typeof v;
}

function options(o, where) {
  const entries = read(o, "entries", where);
  if (entries != null && !isFunction(entries)) throw fail(`${where}.entries`, "a function, null or undefined", entries);
  const timeoutMs = read(o, "timeoutMs", where);
  if (timeoutMs !== undefined && !(typeof timeoutMs === "number" && Number.isFinite(timeoutMs) && timeoutMs >= 0)) {
    throw fail(`${where}.timeoutMs`, "a finite number >= 0", timeoutMs);
  }
  const candidateOf = read(o, "candidateOf", where);
  if (candidateOf !== undefined && !isFunction(candidateOf)) throw fail(`${where}.candidateOf`, "a function", candidateOf);
  const isActive = read(o, "isActive", where);
  if (isActive !== undefined && !isFunction(isActive)) throw fail(`${where}.isActive`, "a function", isActive);
  return { entries, timeoutMs, candidateOf, isActive };
}

function signalOf(s, where) {
  if (s !== undefined && (!isObject(s) || typeof s.aborted !== "boolean" || !isFunction(s.addEventListener))) throw fail(where, "an AbortSignal", s);
  return s;
}

const TIMEOUT = Symbol();
function settle(value, ms, signal) {
  return new Promise((resolve, reject) => {
    let timer;
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    };
    const onAbort = () => (done(), reject(signal.reason));
    if (ms !== undefined && ms <= 2147483647) timer = setTimeout(() => (done(), resolve(TIMEOUT)), ms);
    signal?.addEventListener("abort", onAbort, { once: true });
    Promise.resolve(value).then((rows) => (done(), resolve({ rows })), (error) => (done(), resolve({ error })));
  });
}

const plain = (r) => isObject(r) && !Array.isArray(r);
const active = (r) => (plain(r) ? r.active !== false : true);
function candidate(r) {
  if (typeof r === "string") return r;
  if (plain(r)) {
    if (typeof r.tool === "string") return r.tool;
    if (typeof r.toolName === "string") return r.toolName;
    if (typeof r.content === "string") return r.content;
  }
}

async function route(known, { entries, timeoutMs, candidateOf, isActive }, signal, context) {
  if (signal?.aborted) throw signal.reason;
  if (entries == null) return refuse("no procedural layer registered");
  const failed = (e) => refuse(`procedural retrieval failed (${errorName(e)})`);
  let value;
  try {
    value = context === undefined ? entries() : entries(context);
  } catch (e) {
    return failed(e);
  }
  if (signal?.aborted) throw signal.reason;
  const answer = await settle(value, timeoutMs, signal);
  if (answer === TIMEOUT) return refuse(`procedural retrieval timed out after ${timeoutMs} ms`);
  if ("error" in answer) return failed(answer.error);
  const rows = answer.rows;
  if (rows == null) return refuse("no skills in the procedural layer");
  let list, on;
  try {
    if (!isFunction(rows[Symbol.iterator])) throw new TypeError("non-iterable");
    list = Array.isArray(rows) ? rows : Array.from(rows);
    if (!list.length) return refuse("no skills in the procedural layer");
    on = list.filter(isActive ?? active);
    if (!on.length) return refuse("every skill is inactive");
    const read = candidateOf ?? candidate;
    on = on.map((r) => read(r));
  } catch (e) {
    return failed(e);
  }
  const picked = new Set();
  const unresolved = new Set();
  for (const c of on) {
    if (typeof c !== "string") continue;
    const t = c.trim();
    if (!t) continue;
    if (known.has(t)) picked.add(t);
    else unresolved.add(t);
  }
  if (!picked.size) return refuse("no skill resolved to a registered tool", [...unresolved]);
  return new Routed([...picked], [...unresolved]);
}

export async function resolvePalette(o) {
  const where = "resolvePalette: options";
  if (!isObject(o)) throw fail(where, "an object", o);
  const opts = options(o, where);
  const known = new Set(names(read(o, "registered", where), `${where}.registered`));
  return route(known, opts, signalOf(read(o, "signal", where), `${where}.signal`));
}

export class ToolRouter {
  #known;
  #opts;
  #registered;
  constructor(o = {}) {
    const where = "ToolRouter: options";
    if (!isObject(o)) throw fail(where, "an object", o);
    this.#opts = options(o, where);
    const given = read(o, "registered", where);
    this.#registered = Object.freeze(given == null ? [] : names(given, `${where}.registered`));
    const onWarning = read(o, "onWarning", where);
    if (onWarning !== undefined && !isFunction(onWarning)) throw fail(`${where}.onWarning`, "a function", onWarning);
    this.#known = new Set(this.#registered);
    const missing = [];
    if (this.#opts.entries == null) missing.push("procedural-layer");
    if (!this.#known.size) missing.push("no-registered-tools");
    this.unavailable = missing.length ? new RoutingUnavailable(missing) : null;
    Object.freeze(this);
    if (missing.length) {
      let msg = `tool routing is unavailable (missing: ${missing.join(", ")}); the full palette is kept on every turn`;
      if (this.#known.size) msg += ". To narrow it, compose a serving router: register a procedural layer (`entries`)";
      deliver(new ToolRoutingUnavailableWarning(msg, missing), onWarning);
    }
  }
  get registered() {
    return this.#registered;
  }
  dispose() {
    this.#known = null;
  }
  async resolve(o = {}) {
    const where = "ToolRouter.resolve: options";
    if (!isObject(o)) throw fail(where, "an object", o);
    const signal = signalOf(read(o, "signal", where), `${where}.signal`);
    const context = read(o, "context", where);
    if (!this.#known) throw new Error("ToolRouter: resolve() after dispose()");
    return this.unavailable ?? route(this.#known, this.#opts, signal, context);
  }
}

function isRouted(outcome, where) {
  const kind = isObject(outcome) ? outcome.kind : undefined;
  if (kind !== "routed" && kind !== "refused" && kind !== "unavailable") throw fail(where, "a Routed, RoutingRefusal or RoutingUnavailable", outcome);
  if (kind === "routed" && outcome.names.length === 0) throw new TypeError(`${where}.names must not be empty (a routed palette is never empty)`);
  return kind === "routed";
}

export const activeTools = (outcome) => (isRouted(outcome, "activeTools: outcome") ? [...outcome.names] : undefined);

export function bindPalette(tools, outcome) {
  if (!isRouted(outcome, "bindPalette: outcome")) return tools;
  if (!isObject(tools)) throw fail("bindPalette: tools", "an array of { name } or a record keyed by name", tools);
  const keep = new Set(outcome.names);
  if (Array.isArray(tools)) {
    // An entry without a string name cannot be routed: it stays, in place (SPEC 3).
    const names = tools.map((t, i) => {
      try {
        return isObject(t) ? t.name : undefined;
      } catch (cause) {
        throw new TypeError(`bindPalette: tools[${i}].name could not be read`, { cause });
      }
    });
    return tools.filter((t, i) => typeof names[i] !== "string" || keep.has(names[i]));
  }
  const out = Object.create(Object.getPrototypeOf(tools) === null ? null : Object.prototype);
  for (const k of Object.keys(tools)) {
    if (keep.has(k)) Object.defineProperty(out, k, { value: tools[k], enumerable: true, writable: true, configurable: true });
  }
  return out;
}

export class ToolCallPolicy {
  constructor(spec) {
    if (!isObject(spec)) throw fail("ToolCallPolicy: spec", "an object", spec);
    const f = (k) => read(spec, k, "ToolCallPolicy: spec");
    const name = f("name");
    if (typeof name !== "string" || !name) throw fail("ToolCallPolicy: name", "a non-empty string", name);
    const w = (k) => `ToolCallPolicy "${name}": ${k}`;
    const match = f("match");
    if (!isFunction(match)) throw fail(w("match"), "a function", match);
    const wt = f("whenTool");
    const whenTool = typeof wt === "string" ? wt : wt == null ? null : Object.freeze(names(wt, w("whenTool")));
    const redirectTo = f("redirectTo") ?? null;
    if (redirectTo !== null && (typeof redirectTo !== "string" || !redirectTo)) throw fail(w("redirectTo"), "a non-empty string, null or undefined", redirectTo);
    const argsTransform = f("argsTransform") ?? null;
    if (argsTransform !== null && !isFunction(argsTransform)) throw fail(w("argsTransform"), "a function", argsTransform);
    const guard = f("guard") ?? null;
    if (guard !== null && !isFunction(guard)) throw fail(w("guard"), "a function", guard);
    Object.assign(this, { name, match, whenTool, redirectTo, model: f("model") ?? null, argsTransform, guard });
    this.tools = whenTool === null || typeof whenTool === "string" ? whenTool : new Set(whenTool);
    Object.defineProperty(this, "tools", { enumerable: false });
    Object.freeze(this);
  }
  matchesTool(t) {
    if (typeof t !== "string") throw fail(`ToolCallPolicy "${this.name}".matchesTool: toolName`, "a string", t);
    return this.tools === null || (typeof this.tools === "string" ? this.tools === t : this.tools.has(t));
  }
}

const PRE = "PRE-model seam (selectModel)";
const POST = "POST-model seam (dispatch)";
function ask(p, fn, seam, args) {
  let r;
  try {
    r = p[fn](...args);
  } catch (cause) {
    throw new Error(`ToolCallPolicy "${p.name}": ${fn} threw at the ${seam}`, { cause });
  }
  if ((isObject(r) || isFunction(r)) && isFunction(r.then)) {
    throw new Error(`ToolCallPolicy "${p.name}": ${fn} returned a promise or thenable (it must be synchronous) at the ${seam}`, { cause: r });
  }
  return r;
}
const plainObject = (v) => isObject(v) && !Array.isArray(v) && [Object.prototype, null].includes(Object.getPrototypeOf(v));

export class ToolPolicies {
  #o;
  #registered;
  #disposed = false;
  constructor(policies, o = {}) {
    if (!isObject(policies) || !isFunction(policies[Symbol.iterator])) throw fail("ToolPolicies: policies", "an iterable of ToolCallPolicy", policies);
    const list = [...policies].map((p) => (p instanceof ToolCallPolicy ? p : new ToolCallPolicy(p)));
    if (!isObject(o)) throw fail("ToolPolicies: options", "an object", o);
    const opt = (k) => {
      const v = read(o, k, "ToolPolicies: options");
      if (v !== undefined && !isFunction(v)) throw fail(`ToolPolicies: options.${k}`, "a function", v);
      return v;
    };
    this.#o = { resolver: opt("modelResolver"), callback: opt("onToolCallDispatch"), onWarning: opt("onWarning") };
    const registered = read(o, "registered", "ToolPolicies: options");
    this.#registered = registered === undefined ? undefined : new Set(names(registered, "ToolPolicies: options.registered"));
    const seen = new Set();
    list.forEach((p, i) => {
      if (seen.has(p.name)) throw new TypeError(`ToolPolicies: policies[${i}] reuses the name "${p.name}"; policy names must be unique`);
      seen.add(p.name);
    });
    this.policies = Object.freeze(list);
    Object.freeze(this);
  }
  dispose() {
    this.#disposed = true;
  }
  selectModel(ctx) {
    if (this.#disposed) throw new Error("ToolPolicies: selectModel() after dispose()");
    for (const p of this.policies) {
      if (p.model !== null && ask(p, "match", PRE, [ctx])) return Object.freeze({ model: p.model, source: "policy", policy: p.name });
    }
    const m = this.#o.resolver ? this.#o.resolver(ctx) ?? null : null;
    return Object.freeze({ model: m, source: m === null ? "default" : "resolver", policy: null });
  }
  dispatch(call, ctx, palette) {
    if (this.#disposed) throw new Error("ToolPolicies: dispatch() after dispose()");
    if (!isObject(call)) throw fail("ToolPolicies.dispatch: call", "an object { name, args, id? }", call);
    if (typeof call.name !== "string") throw fail("ToolPolicies.dispatch: call.name", "a string", call.name);
    let gate = this.#registered;
    const narrowed = palette != null && palette.kind !== "refused" && palette.kind !== "unavailable";
    if (narrowed) {
      gate = new Set(palette.kind === "routed" ? palette.names : names(palette, "ToolPolicies.dispatch: palette"));
    }
    let current = call;
    let by = null;
    for (const p of this.policies) {
      if (p.redirectTo === null || !ask(p, "match", POST, [ctx]) || !p.matchesTool(call.name)) continue;
      if (p.guard && !ask(p, "guard", POST, [ctx])) continue;
      current = { ...call, name: p.redirectTo };
      if (p.argsTransform) {
        const out = ask(p, "argsTransform", POST, [plainObject(call.args) ? { ...call.args } : call.args, ctx]);
        if (!plainObject(out)) throw new Error(`ToolCallPolicy "${p.name}": argsTransform returned ${describe(out)}, not a plain object at the ${POST}`, { cause: out });
        current.args = out;
      }
      by = p;
      break;
    }
    if (this.#o.callback) {
      const next = this.#o.callback(current, ctx);
      if (next != null && (!isObject(next) || typeof next.name !== "string")) throw fail("ToolPolicies: onToolCallDispatch's returned call", "an object { name }", next);
      if (next != null) current = next === current ? next : { ...current, ...next };
    }
    const target = current.name;
    if (gate && (by || target !== call.name) && !gate.has(target)) {
      const reason = `redirect target "${target}" is ${narrowed ? "not in the routed palette" : "not a registered tool"}; dispatching the original call "${call.name}"`;
      deliver(new ToolRedirectDroppedWarning(`${by ? `ToolCallPolicy "${by.name}"` : "onToolCallDispatch"}: ${reason}`, { policy: by?.name ?? null, target, original: call.name }), this.#o.onWarning);
      return Object.freeze({ call, original: call, redirectedBy: by?.name ?? null, dropped: Object.freeze({ target, reason }) });
    }
    return Object.freeze({ call: current, original: call, redirectedBy: by?.name ?? null, dropped: null });
  }
}

if (typeof Symbol.dispose === "symbol") {
  for (const Class of [ToolRouter, ToolPolicies]) {
    Object.defineProperty(Class.prototype, Symbol.dispose, { value: Class.prototype.dispose, writable: true, configurable: true });
  }
}
