// What the framework adapters (tool-palette/ai-sdk, /openai-agents, /langchain) share.
// Internal: not a subpath export.
//
// The adapters import no framework: they read and produce the frameworks' documented
// shapes. What the package decides they take from the package itself (a self-reference,
// resolved through its own exports map): `activeTools` names a step's palette and
// `bindPalette` narrows a tool list, and a `PaletteRun` keeps a conversation's tools list
// for the prompt cache (options.cache), so an adapter never re-derives a rule.
//
// One model step of any framework is a `Step` here: its context, the router's outcome and
// decision report, the model selection, the names offered, and then the calls the model
// emitted and their dispatches. When every call of the step is accounted for, the step
// is reported once: `onDecision(report)`, and the framework's tracing when it has one.
import { activeTools, bindPalette, PaletteRun } from "tool-palette";

const isObject = (v) => typeof v === "object" && v !== null;
const isFunction = (v) => typeof v === "function";
const describe = (v) => {
  if (v === null) return "null";
  if (typeof v !== "object") return typeof v;
  try {
    return Array.isArray(v) ? "an array" : "an object";
  } catch {
    return "an object"; // a revoked proxy
  }
};

export function fail(where, what, value) {
  return new TypeError(`${where} must be ${what}, got ${describe(value)}`);
}

/**
 * `f()`, reading a value of the caller's: what it throws (a getter, a proxy's trap, a revoked
 * proxy) is the TypeError saying that `where` could not be read, the thrown value its `cause`
 * (the core's words for the same fault, src/js/host.js).
 */
export function attempt(f, where) {
  try {
    return f();
  } catch (cause) {
    throw new TypeError(`${where} could not be read`, { cause });
  }
}

/** `value[key]`, read once; `where` names it. */
export const read = (value, key, where) => attempt(() => value[key], where);

/**
 * The `keys` of the caller's object `o` (named `where`), read once each, in order, as a record
 * (every key `undefined` when `o` is `undefined`); a TypeError when `o` is no object or a read throws.
 */
export function fields(o, keys, where) {
  const out = {};
  if (o === undefined) {
    for (const key of keys) out[key] = undefined;
    return out;
  }
  if (!isObject(o)) throw fail(where, "an object", o);
  for (const key of keys) out[key] = read(o, key, `${where}.${key}`);
  return out;
}

/** The items of the caller's iterable `value` (named `where`) as an array; what the iteration throws is a TypeError naming it. */
export const items = (value, where) => attempt(() => [...value], where);

/** A warning of an adapter (name "ToolPaletteAdapterWarning", with a `code`). */
export class ToolPaletteAdapterWarning extends Error {
  constructor(message, code) {
    super(message);
    this.name = "ToolPaletteAdapterWarning";
    this.code = code;
  }
}

// Warnings go out as the core's do (deliver.js, shared with host.js).
export { deliver } from "../deliver.js";
import { deliver } from "../deliver.js";

/** `warn(code, message)`: an adapter's warning (`${where}: message`), delivered once per code. */
export function warnings(where, onWarning) {
  const warned = new Set();
  return (code, message) => {
    if (warned.has(code)) return;
    warned.add(code);
    deliver(new ToolPaletteAdapterWarning(`${where}: ${message}`, code), onWarning);
  };
}

/** What a tool search that found nothing answers the model (tool-palette/mcp's search_tools, tool-palette/providers' answers). */
export const NO_TOOL_MATCHES = "No tool matches this query; try other words.";

/** The message of a thrown value (the value itself as text when it is no Error). */
export const errorText = (error) => (error instanceof Error ? error.message : String(error));

/** Defines an own, enumerable property, whatever the key ("__proto__" included). */
export const put = (record, key, value) => Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });

// ---------------------------------------------------------------- waiting (tool-palette/mcp's parts)

// What the core decides for a turn's budget and signal (src/routing/turn.rs `timer`,
// src/js/options.rs `signal`), for the waits it does not run itself: listing the servers,
// embedding, calling a server.

/** The timer to set for a budget of `ms`, or `null`: setTimeout fires at once past 2^31 - 1 ms, so such a budget never runs out. */
export const timerFor = (ms) => (ms <= 2 ** 31 - 1 ? ms : null);

/** `work` within `ms`: when the time is up, rejects with `timedOut()` and aborts `controller`. A budget with no timer waits as long as it takes. */
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

/** A signal as the core takes one: `undefined`/`null`, or an object with `aborted`, `addEventListener` and `removeEventListener`. */
export function checkSignal(signal, where) {
  if (signal == null) return;
  const fits = () => typeof signal.aborted === "boolean" && isFunction(signal.addEventListener) && isFunction(signal.removeEventListener);
  if (!isObject(signal) || !attempt(fits, where)) throw fail(where, "an AbortSignal", signal);
}

const MODES = ["enforce", "shadow"];
const OUTSIDE = ["refuse", "allow"];

/** Each of `values` (option name → value), when given (not null or undefined), a function; `at` names their record ("…: options"). */
export function checkFunctions(at, values) {
  for (const [key, value] of Object.entries(values)) {
    if (value != null && !isFunction(value)) throw fail(`${at}.${key}`, "a function", value);
  }
}

/** `options[key]`'s `value`, one of the strings `allowed`. */
export function checkOneOf(where, key, value, allowed) {
  if (allowed.includes(value)) return;
  const named = allowed.map((a) => JSON.stringify(a));
  throw fail(`${where}: options.${key}`, `${named.slice(0, -1).join(", ")} or ${named.at(-1)}`, value);
}

// The options every adapter takes.
const ADAPTER_OPTIONS = ["router", "policies", "context", "onRoute", "onDispatch", "onDecision", "onWarning", "mode", "outsidePalette", "alwaysInclude", "tracing", "cache"];

// The options every adapter takes, each read once.
export function readOptions(options, where, defaultContext) {
  const given = fields(options, ADAPTER_OPTIONS, `${where}: options`);
  const { router, policies, context, onRoute, onDispatch, onDecision, onWarning } = given;
  const { mode = "enforce", outsidePalette = "refuse", alwaysInclude, tracing = true, cache } = given;
  // Whether the caller's `value` has a method `key` (`label` names it).
  const has = (value, key, label) => (isObject(value) || isFunction(value)) && isFunction(attempt(() => value[key], label));
  if (router != null && !isFunction(router) && !has(router, "resolve", `${where}: options.router.resolve`)) {
    throw fail(`${where}: options.router`, "a ToolRouter or a function (ctx, { signal, onDecision }) => outcome", router);
  }
  if (policies != null && !(has(policies, "selectModel", `${where}: options.policies.selectModel`) && has(policies, "dispatch", `${where}: options.policies.dispatch`))) {
    throw fail(`${where}: options.policies`, "a ToolPolicies", policies);
  }
  checkFunctions(`${where}: options`, { context, onRoute, onDispatch, onDecision, onWarning });
  checkOneOf(where, "mode", mode, MODES);
  checkOneOf(where, "outsidePalette", outsidePalette, OUTSIDE);
  if (typeof tracing !== "boolean") throw fail(`${where}: options.tracing`, "a boolean", tracing);
  const pins = [];
  if (alwaysInclude != null) {
    if (typeof alwaysInclude === "string" || !has(alwaysInclude, Symbol.iterator, `${where}: options.alwaysInclude[Symbol.iterator]`)) {
      throw fail(`${where}: options.alwaysInclude`, "an iterable of tool names", alwaysInclude);
    }
    for (const [i, name] of items(alwaysInclude, `${where}: options.alwaysInclude`).entries()) {
      if (typeof name !== "string") throw fail(`${where}: options.alwaysInclude[${i}]`, "a string", name);
      if (!pins.includes(name)) pins.push(name);
    }
  }
  return {
    router: router ?? null,
    policies: policies ?? null,
    context: context ?? defaultContext,
    ownContext: context != null,
    onRoute: onRoute ?? null,
    onDispatch: onDispatch ?? null,
    onDecision: onDecision ?? null,
    onWarning: onWarning ?? null,
    mode,
    outsidePalette,
    pins,
    tracing,
    cache: readCache(cache, where, { deferred: false }),
  };
}

/**
 * `options.cache`, checked by the core's rule (a PaletteRun's) under the caller's name for it;
 * `null` when not given. `deferred: false` where the tools list cannot defer (the frameworks).
 */
export function readCache(cache, where, { deferred = true } = {}) {
  if (cache == null) return null;
  if (!deferred && cache === "deferred") {
    throw new TypeError(
      `${where}: options.cache "deferred" cannot be sent through this framework: its tools list has no deferred ` +
        "definitions to reveal after the history. Use \"fixed\" (every tool listed, the gate refuses the rest) or \"append\", " +
        "or build the provider's request with tool-palette/providers.",
    );
  }
  try {
    new PaletteRun({ registered: [], cache }).dispose();
  } catch (error) {
    // The core's words for what was given (`got "sometimes"`), under this option's name.
    const given = error.message.slice(error.message.lastIndexOf(", got "));
    const expected = deferred ? '"per-turn", "append", "fixed" or "deferred"' : '"per-turn", "append" or "fixed"';
    throw new TypeError(`${where}: options.cache must be ${expected}${given}`);
  }
  return cache;
}

/**
 * A run (SPEC 8) over the registered names, kept while they stay the same: `keep(names)`
 * answers `{ run, fresh }`, a new run (the previous one disposed) when the names changed.
 */
export function runKeeper(cache, pinnedOf) {
  let names = null;
  let run = null;
  return (registered) => {
    if (names && names.length === registered.length && names.every((name, i) => name === registered[i])) return { run, fresh: false };
    run?.dispose();
    names = [...registered];
    run = new PaletteRun({ registered: names, cache, pinned: pinnedOf(names) });
    return { run, fresh: true };
  };
}

// The text of a message whose content is a string or an array of text parts, the parts
// joined by a line break so that the words at their boundaries stay apart.
export function textOf(content) {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const texts = [];
  for (const part of content) {
    if (typeof part === "string") texts.push(part);
    else if (isObject(part) && typeof part.text === "string") texts.push(part.text);
  }
  return texts.join("\n");
}

// The text of the last message for which `isUser` holds, or "".
export function lastText(messages, isUser, contentOf = (m) => m.content) {
  if (!Array.isArray(messages)) return "";
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (isObject(m) && isUser(m)) return textOf(contentOf(m));
  }
  return "";
}

// Validates redirected arguments against a Standard Schema (zod 3.25+/4, valibot, arktype…)
// when the target tool's schema is one; otherwise they pass as they are.
export async function validateArgs(schema, args, toolName, where) {
  const standard = isObject(schema) || isFunction(schema) ? schema["~standard"] : undefined;
  if (!isObject(standard) || !isFunction(standard.validate)) return args;
  const result = await standard.validate(args);
  if (result && result.issues) {
    const detail = result.issues.map((i) => i && i.message).filter(Boolean).join("; ");
    throw new TypeError(`${where}: the redirected arguments do not match the input schema of "${toolName}"${detail ? `: ${detail}` : ""}`);
  }
  return result ? result.value : args;
}

// A small bounded map: remembers the step of the last `limit` tool calls by their id.
export class Recent {
  #map = new Map();
  #limit;
  constructor(limit = 1024) {
    this.#limit = limit;
  }
  set(key, value) {
    this.#map.delete(key);
    this.#map.set(key, value);
    if (this.#map.size > this.#limit) this.#map.delete(this.#map.keys().next().value);
  }
  take(key) {
    const value = this.#map.get(key);
    this.#map.delete(key);
    return value;
  }
}

/** A label for a model in a report: a string model, or the model's id or name. */
export function modelLabel(model) {
  if (model == null) return null;
  if (typeof model === "string") return model;
  if (!isObject(model) && !isFunction(model)) return null;
  for (const key of ["modelId", "model", "modelName", "name"]) {
    try {
      const value = model[key];
      if (typeof value === "string" && value !== "") return value;
    } catch {
      // a getter that throws names nothing
    }
  }
  return null;
}

const freeze = (list) => Object.freeze([...list]);

/**
 * The report's facts as flat attributes for a tracing backend (OpenTelemetry attribute
 * values: strings, numbers, booleans and arrays of strings).
 */
export function attributes(report) {
  const a = { "tool_palette.step": report.step, "tool_palette.mode": report.mode };
  if (report.routing) {
    a["tool_palette.rule"] = report.routing.rule;
    a["tool_palette.outcome"] = report.routing.outcome.kind;
    a["tool_palette.retrieval_ms"] = report.routing.retrievalMs;
  }
  if (report.offered) a["tool_palette.offered"] = [...report.offered];
  if (report.kept !== null) {
    a["tool_palette.listed"] = [...report.listed];
    a["tool_palette.kept"] = report.kept;
  }
  a["tool_palette.hidden"] = [...report.hidden];
  if (report.selection) {
    a["tool_palette.model.source"] = report.selection.source;
    if (report.selection.policy != null) a["tool_palette.model.policy"] = report.selection.policy;
    if (report.selection.model != null) a["tool_palette.model.id"] = report.selection.model;
  }
  a["tool_palette.dispatches"] = report.dispatches.map(
    (d) =>
      `${d.original.name} -> ${d.call.name}` +
      (d.redirectedBy ? ` (${d.redirectedBy})` : "") +
      (d.dropped ? ` [dropped: ${d.dropped.reason}]` : ""),
  );
  a["tool_palette.outside"] = report.outside.map((c) => c.name);
  a["tool_palette.outside_refused"] = report.outside.some((c) => c.refused);
  return a;
}

/**
 * The machinery of one adapter instance: its options, its warnings (each once), routing
 * with the router's decision report, and the steps it reports.
 *
 * `trace(report, step)`, when given, puts the report's facts into the framework's tracing.
 */
export function createCore(options, where, defaultContext, { trace } = {}) {
  const o = readOptions(options, where, defaultContext);
  const warnOnce = warnings(where, o.onWarning);
  // With options.cache, the adapter is one run (SPEC 8) over the framework's tools: a new
  // run when they change.
  const keep = o.cache ? runKeeper(o.cache, (names) => o.pins.filter((pin) => names.includes(pin))) : null;

  // This step's outcome, and the router's report of it. A ToolRouter is asked
  // `resolve({ signal, context, onDecision })`; a function router gets `(ctx, { signal,
  // onDecision })` and may pass `onDecision` on to resolvePalette. No router: `undefined`
  // ("every tool") and no report.
  async function route(ctx, signal) {
    if (o.router == null) return { outcome: undefined, decision: null };
    let decision = null;
    const onDecision = (d) => {
      decision = d;
    };
    // A function router also learns how the adapter treats calls (tool-palette/mcp's run gates calls too, and follows it).
    const outcome = isFunction(o.router)
      ? await o.router(ctx, { signal, onDecision, mode: o.mode, outsidePalette: o.outsidePalette })
      : await o.router.resolve(signal ? { signal, context: ctx, onDecision } : { context: ctx, onDecision });
    const kind = isObject(outcome) ? outcome.kind : undefined;
    if (kind !== "routed" && kind !== "refused" && kind !== "unavailable") {
      throw fail(`${where}: the router's outcome`, "a Routed, RoutingRefusal or RoutingUnavailable", outcome);
    }
    return { outcome, decision: isObject(decision) && decision.outcome === outcome ? decision : null };
  }

  // The default context must carry the turn's message; a context the host builds
  // (`context(input)`) is the host's business.
  function checkMessage(ctx) {
    if (o.ownContext) return;
    if (isObject(ctx) && typeof ctx.message === "string" && ctx.message.trim() !== "") return;
    warnOnce(
      "NO_MESSAGE",
      "no user message was found for this step, so the router and the policies see an empty message " +
        "(every tool may be offered). Give the run a user message, or derive the context yourself with options.context(input).",
    );
  }

  /**
   * Routes one model step: `{ index, ctx, signal, tools }` (`tools`: the framework's tool names this step, if known).
   * `shape(names)`, when given, turns the routed names (with the pins) into the names the framework will really show
   * the model (the AI SDK's deferred tools); an empty answer offers every tool, never none.
   */
  async function begin({ index, ctx, signal, tools = null, silent = false, shape = null }) {
    if (!silent) checkMessage(ctx);
    const { outcome, decision } = await route(ctx, signal);
    const selection = o.policies ? o.policies.selectModel(ctx) : null;
    return new Step(core, { index, ctx, outcome, decision, selection, tools, silent, shape, run: silent || !keep || !tools ? null : keep(tools).run });
  }

  function emit(step) {
    if (step.silent) return;
    const report = step.report();
    if (o.tracing && trace) trace(report, step);
    if (o.onDecision) o.onDecision(report);
  }

  const core = { o, where, warnOnce, begin, emit, enforce: o.mode === "enforce" };
  return core;
}

const nameOf = (tool) => {
  try {
    return isObject(tool) || isFunction(tool) ? tool.name : undefined;
  } catch {
    return undefined;
  }
};

/** One model step of one run. */
export class Step {
  constructor(core, { index, ctx, outcome, decision, selection, tools, silent, shape, run }) {
    const o = core.o;
    this.core = core;
    this.index = index;
    this.ctx = ctx;
    this.outcome = outcome;
    this.decision = decision;
    this.selection = selection;
    this.silent = silent;
    this.tools = tools ? new Set(tools) : null;
    this.dispatches = [];
    this.outside = [];
    this.expected = 0;
    this.received = 0;
    this.seen = false; // the model's calls are known
    this.done = false;
    this.listed = null; // with a run: the names sent to the model, in this order
    this.runStep = null;
    // The names offered: the routed names (the package's activeTools) and the pinned
    // names; `null` is "every tool" (no router, a refusal, RoutingUnavailable).
    const routed = outcome === undefined ? undefined : activeTools(outcome);
    if (routed === undefined) {
      this.palette = outcome ?? null;
      this.offer(null);
    } else {
      // Routing must name a tool the framework has: pinned names alone are no palette.
      const named = this.tools ? routed.some((name) => this.tools.has(name)) : routed.length > 0;
      for (const pin of o.pins) if (!routed.includes(pin)) routed.push(pin);
      // What bindPalette and the policies' gate read: the routed outcome, or the routed
      // names with the pins (still a routed palette; the outcome itself is unchanged).
      this.palette = o.pins.length ? { kind: "routed", names: routed, unresolved: [] } : outcome;
      // What the model is really shown: of those names, the framework's tools (when known).
      let shown = named ? (shape ? shape(routed) : routed) : [];
      if (this.tools) shown = shown.filter((name) => this.tools.has(name));
      if (shown.length === 0) {
        // Never none: every tool, and no palette for the policies' gate to hold a redirect to.
        this.palette = null;
        if (!this.tools || this.tools.size > 0) {
          core.warnOnce(
            "NOTHING_OFFERED",
            "routing named no tool the framework shows the model this step (names it does not have, or deferred tools no toolSearch found yet), so every tool is offered instead: a step never offers nothing.",
          );
        }
      }
      this.offer(shown.length ? shown : null);
    }
    if (run) this.follow(run);
  }

  /**
   * With a run: the run's step for this palette (the offered names, every tool when none),
   * whose `listed` names are what the model is sent, in that order, and whose `offered`
   * names are what the gate admits.
   */
  follow(run) {
    const step = run.step(this.offered ? { kind: "routed", names: this.offered, unresolved: [] } : { kind: "unavailable" });
    this.runStep = step;
    this.listed = step.listed;
    this.listedSet = new Set(step.listed);
    this.offer(step.offered.length === this.tools.size ? null : step.offered);
  }

  /**
   * Sets the names the model is offered (`null`: every tool) and what it is not: the hidden names of the core's
   * decision report (those the framework has, when its tools are known), then the framework's other tools not offered.
   */
  offer(names) {
    this.offered = names ? [...names] : null;
    this.offeredSet = names ? new Set(names) : null;
    if (!this.offeredSet) this.hidden = [];
    else {
      const hidden = new Set();
      for (const name of this.decision ? this.decision.hidden : []) {
        if (!this.offeredSet.has(name) && (!this.tools || this.tools.has(name))) hidden.add(name);
      }
      for (const name of this.tools ?? []) if (!this.offeredSet.has(name)) hidden.add(name);
      this.hidden = [...hidden];
    }
    // Live tracing attributes (the AI SDK carries them in runtimeContext): completed in place.
    if (this.attributes) Object.assign(this.attributes, attributes(this.report()));
    else this.attributes = attributes(this.report());
  }

  /** Whether a call names a tool this step did not offer (one of the framework's tools, or no tool at all). */
  isOutside(name) {
    return this.offeredSet !== null && !this.offeredSet.has(name);
  }

  /** Whether this step refuses a call to `name`: outside the palette with "refuse", or (enforced) no tool at all. */
  refusesCall(name) {
    if (!this.isOutside(name) || !this.core.enforce) return false;
    return this.core.o.outsidePalette === "refuse" || (this.tools !== null && !this.tools.has(name));
  }

  /** Whether the model is sent `name` (with a run: it is listed; else: it is offered). */
  isSent(name) {
    return this.listedSet ? this.listedSet.has(name) : !this.isOutside(name);
  }

  /**
   * The tools to hand the model: with a run, the listed ones in the run's order (entries without a string name
   * first, as they were); else `tools` narrowed by bindPalette (entries without a string name kept).
   */
  narrow(tools) {
    if (this.listed && Array.isArray(tools)) {
      const byName = new Map();
      for (const t of tools) if (typeof nameOf(t) === "string" && !byName.has(nameOf(t))) byName.set(nameOf(t), t);
      const unnamed = tools.filter((t) => typeof nameOf(t) !== "string");
      return [...unnamed, ...this.listed.filter((name) => byName.has(name)).map((name) => byName.get(name))];
    }
    if (!this.offeredSet || !Array.isArray(tools)) return tools;
    const named = tools.filter((t) => typeof nameOf(t) === "string");
    const kept = new Set(bindPalette(named, this.palette));
    return tools.filter((t) => typeof nameOf(t) !== "string" || kept.has(t));
  }

  /**
   * With a run, the tools the model is sent: those `narrowed` picks (the framework's function tools) as `narrow`
   * answers, after the others as they were (hosted tools, handoffs); `tools` as it is without a run.
   */
  arrange(tools, narrowed) {
    if (!this.listed || !Array.isArray(tools)) return tools;
    return [...tools.filter((t) => !narrowed(t)), ...this.narrow(tools.filter(narrowed))];
  }

  /** One call the model emitted: recorded if outside the palette; `dispatches` tells whether a dispatch will follow. */
  call({ id, name }, dispatches) {
    if (this.isOutside(name)) this.outside.push(Object.freeze({ id: id ?? null, name, refused: this.refusesCall(name) }));
    if (dispatches) this.expected++;
  }

  /** Every call of the model's answer is known: the step is over once they are dispatched. */
  sealed() {
    this.seen = true;
    this.settle();
  }

  /** One call was dispatched (`dispatch`, or `null` when nothing was asked of the policies). */
  dispatched(dispatch) {
    if (dispatch) this.dispatches.push(dispatch);
    this.received++;
    this.settle();
  }

  settle() {
    if (this.seen && this.received >= this.expected) this.finish();
  }

  /** Reports the step now (once), whatever is still outstanding. */
  finish() {
    if (this.done) return;
    this.done = true;
    this.core.emit(this);
  }

  report() {
    const s = this.selection;
    const report = {
      step: this.index,
      mode: this.core.o.mode,
      routing: this.decision,
      offered: this.offered ? freeze(this.offered) : null,
      hidden: freeze(this.hidden),
      selection: s ? Object.freeze({ model: modelLabel(s.model), source: s.source, policy: s.policy ?? null }) : null,
      dispatches: freeze(this.dispatches),
      outside: freeze(this.outside),
      // The run's lists (SPEC 8), with options.cache; without one, what was sent is what was offered.
      listed: this.runStep ? this.runStep.listed : this.offered ? freeze(this.offered) : null,
      deferred: this.runStep ? this.runStep.deferred : freeze([]),
      revealed: this.runStep ? this.runStep.revealed : freeze([]),
      kept: this.runStep ? this.runStep.kept : null,
    };
    return Object.freeze(report);
  }
}

export { isObject, isFunction, nameOf };
