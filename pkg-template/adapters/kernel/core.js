// The adapter kernel: what the framework adapters (tool-palette/ai-sdk, /openai-agents,
// /langchain) share, each of which keeps only its framework's hooks. Internal.
//
// What the package decides it takes from the package itself (a self-reference, resolved
// through its own exports map): `activeTools` names a step's palette and `bindPalette`
// narrows a tool list, and a `PaletteRun` keeps a conversation's tools list for the prompt
// cache (options.cache), so the kernel never re-derives a rule.
//
// One model step of any framework is a `Step`: its context, the router's outcome and decision
// report, the model selection, the names offered (the gate), and then the calls the model
// emitted and their dispatches (`dispatch`: the one pipeline of every call). When every call
// of the step is accounted for, the step is reported once: `onDecision(report)`, and the
// framework's tracing when it has one.
import { activeTools, bindPalette, PaletteRun } from "tool-palette";
import { Runs } from "./runs.js";
import { attempt, checkFunctions, checkOneOf, fail, fields, hasMethod, isFunction, isObject, names, nameOf, warnings } from "./values.js";

// ---------------------------------------------------------------- options

// The options every adapter takes (an adapter adds its own: `extra`).
const OPTIONS = ["router", "policies", "context", "onRoute", "onDispatch", "onDecision", "onWarning", "mode", "outsidePalette", "alwaysInclude", "tracing", "cache"];

function readOptions(options, where, defaultContext, extra) {
  const given = fields(options, [...OPTIONS, ...extra], `${where}: options`);
  const { router, policies, context, onRoute, onDispatch, onDecision, onWarning, mode = "enforce", outsidePalette = "refuse", alwaysInclude, tracing = true } = given;
  if (router != null && !isFunction(router) && !hasMethod(router, "resolve", `${where}: options.router.resolve`)) {
    throw fail(`${where}: options.router`, "a ToolRouter or a function (ctx, { signal, onDecision }) => outcome", router);
  }
  const seam = (key) => hasMethod(policies, key, `${where}: options.policies.${key}`);
  if (policies != null && !(seam("selectModel") && seam("dispatch"))) throw fail(`${where}: options.policies`, "a ToolPolicies", policies);
  checkFunctions(`${where}: options`, { context, onRoute, onDispatch, onDecision, onWarning });
  checkOneOf(where, "mode", mode, ["enforce", "shadow"]);
  checkOneOf(where, "outsidePalette", outsidePalette, ["refuse", "allow"]);
  if (typeof tracing !== "boolean") throw fail(`${where}: options.tracing`, "a boolean", tracing);
  const pins = alwaysInclude == null ? [] : names(alwaysInclude, `${where}: options.alwaysInclude`);
  return {
    ...given,
    router: router ?? null,
    policies: policies ?? null,
    context: context ?? defaultContext,
    ownContext: context != null,
    mode,
    outsidePalette,
    pins,
    tracing,
    cache: readCache(given.cache, where, { deferred: false }),
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
  byCore(() => new PaletteRun({ registered: [], cache }).dispose(), `${where}: options.cache`, (given) => `${deferred ? '"per-turn", "append", "fixed" or "deferred"' : '"per-turn", "append" or "fixed"'}${given}`);
  return cache;
}

/**
 * Checks an option by the core's own rule (`check()` throws the core's TypeError): its words for
 * what was given (`, got …`, `must …`) under the option's name (`where`). `expected(given)` words the rest.
 */
export function byCore(check, where, expected) {
  try {
    check();
  } catch (error) {
    const m = error.message;
    throw new TypeError(expected ? `${where} must be ${expected(m.slice(m.lastIndexOf(", got ")))}` : `${where}${m.slice(m.indexOf(" must"))}`);
  }
}

// ---------------------------------------------------------------- the step's context

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

// A small bounded map: remembers the step of the last `limit` tool calls by their id.
class Recent {
  #map = new Map();
  constructor(limit = 1024) {
    this.limit = limit;
  }
  set(key, value) {
    this.#map.delete(key);
    this.#map.set(key, value);
    if (this.#map.size > this.limit) this.#map.delete(this.#map.keys().next().value);
  }
  take(key) {
    const value = this.#map.get(key);
    this.#map.delete(key);
    return value;
  }
}

// ---------------------------------------------------------------- reports

/** A label for a model in a report: a string model, or the model's id or name. */
function modelLabel(model) {
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

/** The report's facts as flat attributes for a tracing backend (OpenTelemetry values: strings, numbers, booleans, arrays of strings). */
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
  const s = report.selection;
  if (s) {
    a["tool_palette.model.source"] = s.source;
    if (s.policy != null) a["tool_palette.model.policy"] = s.policy;
    if (s.model != null) a["tool_palette.model.id"] = s.model;
  }
  a["tool_palette.dispatches"] = report.dispatches.map((d) => `${d.original.name} -> ${d.call.name}${d.redirectedBy ? ` (${d.redirectedBy})` : ""}${d.dropped ? ` [dropped: ${d.dropped.reason}]` : ""}`);
  a["tool_palette.outside"] = report.outside.map((c) => c.name);
  a["tool_palette.outside_refused"] = report.outside.some((c) => c.refused);
  return a;
}

// ---------------------------------------------------------------- the gate

/**
 * The palette gate of every adapter (SPEC 7, 8): a call to `name` outside the `offered` names
 * (`null`: every tool) is refused, unless calls outside are allowed and `name` is a tool.
 */
export const refuses = (offered, name, { allow, known }) => offered !== null && !offered.has(name) && (!allow || !known(name));

// ---------------------------------------------------------------- the kernel

/**
 * One adapter instance: its options, its warnings (each once), routing with the router's
 * decision report, and the steps it reports. `trace(report, step)`, when given, puts the
 * report's facts into the framework's tracing; `extra` names the adapter's own options.
 */
export function createCore(options, where, defaultContext, { trace, extra = [] } = {}) {
  const o = readOptions(options, where, defaultContext, extra);
  const warn = warnings(where, o.onWarning);
  // With options.cache, the adapter is one run (SPEC 8) over the framework's tools: a new run when they change.
  const runs = o.cache ? new Runs(o.cache, (registered) => o.pins.filter((pin) => registered.includes(pin))) : null;

  // This step's outcome, and the router's report of it. A ToolRouter is asked `resolve({ signal, context,
  // onDecision })`; a function router gets `(ctx, { signal, onDecision, mode, outsidePalette })` (tool-palette/mcp's
  // run gates calls too, and follows the adapter's). No router: `undefined` ("every tool") and no report.
  async function route(ctx, signal) {
    if (o.router == null) return { outcome: undefined, decision: null };
    let decision = null;
    const onDecision = (d) => {
      decision = d;
    };
    const outcome = isFunction(o.router)
      ? await o.router(ctx, { signal, onDecision, mode: o.mode, outsidePalette: o.outsidePalette })
      : await o.router.resolve(signal ? { signal, context: ctx, onDecision } : { context: ctx, onDecision });
    const kind = isObject(outcome) ? outcome.kind : undefined;
    if (kind !== "routed" && kind !== "refused" && kind !== "unavailable") {
      throw fail(`${where}: the router's outcome`, "a Routed, RoutingRefusal or RoutingUnavailable", outcome);
    }
    return { outcome, decision: isObject(decision) && decision.outcome === outcome ? decision : null };
  }

  /**
   * Routes one model step: `{ index, ctx, signal, tools }` (`tools`: the framework's tool names this step, if known).
   * `shape(names)`, when given, turns the routed names (with the pins) into the names the framework will really show
   * the model (the AI SDK's deferred tools); an empty answer offers every tool, never none. A `silent` step (a tool
   * ran where no model seam routed) is neither checked nor reported; `route` adds to what `onRoute` receives.
   */
  async function begin({ index, ctx, signal, tools = null, silent = false, shape = null, route: more }) {
    // The default context must carry the turn's message; a context the host builds is the host's business.
    if (!silent && !o.ownContext && !(isObject(ctx) && typeof ctx.message === "string" && ctx.message.trim() !== "")) {
      warn(
        "NO_MESSAGE",
        "no user message was found for this step, so the router and the policies see an empty message " +
          "(every tool may be offered). Give the run a user message, or derive the context yourself with options.context(input).",
      );
    }
    const { outcome, decision } = await route(ctx, signal);
    const selection = o.policies ? o.policies.selectModel(ctx) : null;
    const step = new Step(core, { index, ctx, outcome, decision, selection, tools, silent, shape });
    if (!silent && runs && tools) step.follow(runs.step(tools, step.offered ? { kind: "routed", names: step.offered, unresolved: [] } : { kind: "unavailable" }));
    if (!silent && o.onRoute) o.onRoute({ ctx, outcome, activeTools: step.offered ? [...step.offered] : undefined, selection, ...more });
    return step;
  }

  /**
   * One call of the model's through the seams, the one pipeline of every adapter: the step's gate, then the
   * policies (POST seam), then `onDispatch`. Answers `{ refused: true }` when the step refuses the call (the
   * adapter answers it the framework's way), else `{ dispatch, call }`: `call` is what runs, the emitted call
   * unless an enforced redirect made it another (`redirected`).
   */
  function dispatch(step, call) {
    if (step.refusesCall(call.name)) {
      step.dispatched(null);
      return { refused: true };
    }
    const d = o.policies ? o.policies.dispatch(call, step.ctx, step.palette) : null;
    step.dispatched(d);
    if (d && o.onDispatch) o.onDispatch(d, step.ctx);
    const redirected = d !== null && core.enforce && d.call !== d.original;
    return { dispatch: d, redirected, call: redirected ? d.call : call };
  }

  /**
   * The step whose model emitted the call `id` (or `also`); for a tool that ran where no model seam routed, a silent
   * step on `ctx()`, after the adapter's `warning` ([code, message]) when there is something to route or police.
   */
  async function stepFor(id, { also, ctx, signal, warning }) {
    const step = (typeof id === "string" && calls.take(id)) || also || null;
    if (step) return step;
    if (warning && (o.router || o.policies)) warn(...warning);
    return begin({ index: -1, ctx: ctx(), signal, silent: true });
  }

  function emit(step) {
    if (step.silent) return;
    const report = step.report();
    if (o.tracing && trace) trace(report, step);
    if (o.onDecision) o.onDecision(report);
  }

  const calls = new Recent(); // a call's id → the step whose model emitted it
  const core = { o, where, warn, begin, dispatch, stepFor, emit, calls, enforce: o.mode === "enforce" };
  return core;
}

/** The words of a redirect to a name that is no runnable tool (`kind` says which tools were searched). */
export const noTarget = (where, name, d, kind) =>
  new Error(`${where}: "${name}" was redirected to "${d.call.name}"${d.redirectedBy ? ` by policy "${d.redirectedBy}"` : ""}, which is not ${kind}`);

/**
 * Validates redirected arguments against a Standard Schema (zod 3.25+/4, valibot, arktype…) when
 * the target tool's schema is one; otherwise they pass as they are.
 */
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

/** One model step of one run. */
class Step {
  constructor(core, { index, ctx, outcome, decision, selection, tools, silent, shape }) {
    Object.assign(this, { core, index, ctx, outcome, decision, selection, silent });
    this.tools = tools ? new Set(tools) : null;
    this.dispatches = [];
    this.outside = [];
    this.expected = 0;
    this.received = 0;
    this.seen = false; // the model's calls are known
    this.done = false;
    this.listed = null; // with a run: the names sent to the model, in this order
    this.runStep = null;
    const pins = core.o.pins;
    // The names offered: the routed names (the package's activeTools) and the pinned names;
    // `null` is "every tool" (no router, a refusal, RoutingUnavailable).
    const routed = outcome === undefined ? undefined : activeTools(outcome);
    if (routed === undefined) {
      this.palette = outcome ?? null;
      this.offer(null);
      return;
    }
    // Routing must name a tool the framework has: pinned names alone are no palette.
    const named = this.tools ? routed.some((name) => this.tools.has(name)) : routed.length > 0;
    for (const pin of pins) if (!routed.includes(pin)) routed.push(pin);
    // What bindPalette and the policies' gate read: the routed outcome, or the routed
    // names with the pins (still a routed palette; the outcome itself is unchanged).
    this.palette = pins.length ? { kind: "routed", names: routed, unresolved: [] } : outcome;
    // What the model is really shown: of those names, the framework's tools (when known).
    let shown = named ? (shape ? shape(routed) : routed) : [];
    if (this.tools) shown = shown.filter((name) => this.tools.has(name));
    if (shown.length === 0) {
      // Never none: every tool, and no palette for the policies' gate to hold a redirect to.
      this.palette = null;
      if (!this.tools || this.tools.size > 0) {
        core.warn(
          "NOTHING_OFFERED",
          "routing named no tool the framework shows the model this step (names it does not have, or deferred tools no toolSearch found yet), so every tool is offered instead: a step never offers nothing.",
        );
      }
    }
    this.offer(shown.length ? shown : null);
  }

  /**
   * With a run: the run's step for this palette (the offered names, every tool when none), whose `listed` names
   * are what the model is sent, in that order, and whose `offered` names are what the gate admits.
   */
  follow(step) {
    this.runStep = step;
    this.listed = step.listed;
    this.listedSet = new Set(step.listed);
    this.offer(step.offered.length === this.tools.size ? null : step.offered);
  }

  /**
   * Sets the names the model is offered (`null`: every tool) and what it is not: the hidden names of the core's
   * decision report (those the framework has, when its tools are known), then the framework's other tools not offered.
   */
  offer(offered) {
    this.offered = offered ? [...offered] : null;
    this.offeredSet = offered ? new Set(offered) : null;
    const hidden = new Set();
    if (this.offeredSet) {
      for (const name of this.decision ? this.decision.hidden : []) if (!this.offeredSet.has(name) && (!this.tools || this.tools.has(name))) hidden.add(name);
      for (const name of this.tools ?? []) if (!this.offeredSet.has(name)) hidden.add(name);
    }
    this.hidden = [...hidden];
    // Live tracing attributes (the AI SDK carries them in runtimeContext): completed in place.
    this.attributes = Object.assign(this.attributes ?? {}, attributes(this.report()));
  }

  /** Whether a call names a tool this step did not offer (one of the framework's tools, or no tool at all). */
  isOutside(name) {
    return this.offeredSet !== null && !this.offeredSet.has(name);
  }

  /** Whether this step refuses a call to `name` (the gate, enforced): outside the palette with "refuse", or no tool at all. */
  refusesCall(name) {
    const { core } = this;
    return core.enforce && refuses(this.offeredSet, name, { allow: core.o.outsidePalette === "allow", known: (n) => this.tools === null || this.tools.has(n) });
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
    const kept = new Set(bindPalette(tools.filter((t) => typeof nameOf(t) === "string"), this.palette));
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
    if (typeof id === "string") this.core.calls.set(id, this);
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
    const run = this.runStep;
    return Object.freeze({
      step: this.index,
      mode: this.core.o.mode,
      routing: this.decision,
      offered: this.offered ? freeze(this.offered) : null,
      hidden: freeze(this.hidden),
      selection: s ? Object.freeze({ model: s.model == null ? null : modelLabel(s.model), source: s.source, policy: s.policy ?? null }) : null,
      dispatches: freeze(this.dispatches),
      outside: freeze(this.outside),
      // The run's lists (SPEC 8), with options.cache; without one, what was sent is what was offered.
      listed: run ? run.listed : this.offered ? freeze(this.offered) : null,
      deferred: run ? run.deferred : freeze([]),
      revealed: run ? run.revealed : freeze([]),
      kept: run ? run.kept : null,
    });
  }
}

export { attempt };
