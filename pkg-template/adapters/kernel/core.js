// The adapter kernel the framework adapters share, each keeping only its framework's hooks. Internal. What the package decides it takes from the
// package itself (a self-reference through its exports map). A model step is a `Step`, reported once every call it emitted is dispatched.
import { activeTools, bindPalette } from "tool-palette";
import { CACHES } from "../../wire.js";
import { runLists, Runs } from "./runs.js";
import { createSkills, readSkills } from "./skills.js";
import { checkFunctions, checkOneOf, fail, fields, hasMethod, isFunction, isObject, isString, names, nameOf, tryOr, warnings } from "./values.js";

const OPTIONS = ["router", "policies", "context", "onRoute", "onDispatch", "onDecision", "onWarning", "mode", "outsidePalette", "alwaysInclude", "tracing", "cache", "skills", "skillTool", "saved", "onSaved"];

function readOptions(options, where, defaultContext, extra) {
  const o = fields(options, [...OPTIONS, ...extra], `${where}: options`);
  const { router, policies, context, mode = "enforce", outsidePalette = "refuse", tracing = true } = o;
  const routes = router == null || isFunction(router) || hasMethod(router, "resolve", `${where}: options.router.resolve`);
  if (!routes) throw fail(`${where}: options.router`, "a ToolRouter or a function (ctx, { signal, onDecision }) => outcome", router);
  const seam = (key) => hasMethod(policies, key, `${where}: options.policies.${key}`);
  if (policies != null && !(seam("selectModel") && seam("dispatch"))) throw fail(`${where}: options.policies`, "a ToolPolicies", policies);
  checkFunctions(`${where}: options`, { context, onRoute: o.onRoute, onDispatch: o.onDispatch, onDecision: o.onDecision, onWarning: o.onWarning, onSaved: o.onSaved });
  checkOneOf(where, "mode", mode, ["enforce", "shadow"]);
  readOutsidePalette(outsidePalette, where);
  if (typeof tracing !== "boolean") throw fail(`${where}: options.tracing`, "a boolean", tracing);
  const pins = o.alwaysInclude == null ? [] : names(o.alwaysInclude, `${where}: options.alwaysInclude`);
  // With skills (SPEC 9) the adapter is one run, its load_skill tool pinned; in shadow mode the model sees no load_skill tool (nor instructions).
  const skills = readSkills(o.skills, `${where}: options.skills`);
  const named = readSkillTool(o.skillTool, `${where}: options.skillTool`, skills);
  const skillTool = mode === "shadow" ? false : named;
  if (skills && skillTool !== false && !pins.includes(skillTool)) pins.push(skillTool);
  const cache = readCache(o.cache, where, { deferred: false }) ?? (skills ? "per-turn" : null);
  for (const key of ["saved", "onSaved"]) if (o[key] != null && cache === null) throw new TypeError(`${where}: options.${key} needs options.cache or options.skills: without them the adapter keeps no run to save`);
  return Object.assign(o, { router: router ?? null, policies: policies ?? null, context: context ?? defaultContext, ownContext: context != null, mode, outsidePalette, pins, tracing, cache, skills, skillTool });
}

export function readSkillTool(value, where, skills) {
  if (value == null) return "load_skill";
  if (!skills) throw new TypeError(`${where} needs the skills option`);
  return readToolName(value, where);
}

/** The name of a tool of the adapter's own (search_tools, load_skill), or `false` for none. */
export function readToolName(value, where) {
  if (value !== false && (!isString(value) || value === "")) throw fail(where, "a tool name or false", value);
  return value;
}

export const readOutsidePalette = (value, where) => checkOneOf(where, "outsidePalette", value, ["refuse", "allow"]);

/** `options.cache`: one of the core's strategies (wire.js `CACHES`), or `null`. */
export function readCache(cache, where, { deferred = true } = {}) {
  if (cache == null) return null;
  const instead = 'Use "fixed" (every tool listed, the gate refuses the rest) or "append", or build the provider\'s request with tool-palette/providers.';
  if (!deferred && cache === "deferred") throw new TypeError(`${where}: options.cache "deferred" cannot be sent through this framework: its tools list has no deferred definitions to reveal after the history. ${instead}`);
  return checkOneOf(where, "cache", cache, deferred ? CACHES : CACHES.filter((c) => c !== "deferred"), true);
}

// The last user message's text: its string content, or its text parts joined by line breaks (so that the words at their boundaries stay apart).
export function lastText(messages, isUser) {
  const content = Array.isArray(messages) ? messages.findLast((m) => isObject(m) && isUser(m))?.content : undefined;
  if (!Array.isArray(content)) return typeof content === "string" ? content : "";
  return content.flatMap((part) => (typeof part === "string" ? [part] : isObject(part) && typeof part.text === "string" ? [part.text] : [])).join("\n");
}

/** A default context: the runtime context's string `message`, else the last user message's text. */
export function contextOf(messages, runtimeContext, isUser) {
  const given = isObject(runtimeContext) && typeof runtimeContext.message === "string" ? runtimeContext.message : undefined;
  return { message: given ?? lastText(messages, isUser), messages, runtimeContext };
}

// The open steps of the last 1,024 tool call ids: an id is only a conversation's, so generations in parallel may each emit it (each id's last 16;
// a step leaves when it finishes).
class Recent extends Map {
  add(key, step) {
    const steps = this.get(key) ?? [];
    this.delete(key);
    super.set(key, [...steps.slice(-15), step]);
    if (this.size > 1024) this.delete(this.keys().next().value);
  }
  // The latest step of `key` that is `prefer`'s (the adapter's clue to the call's generation), else the latest; that one entry taken out (a
  // step whose model emitted the id twice keeps the other).
  take(key, prefer) {
    const steps = this.get(key) ?? [];
    const i = steps.findLastIndex(prefer);
    const [step] = steps.splice(i < 0 ? steps.length - 1 : i, 1);
    if (steps.length === 0) this.delete(key);
    return step;
  }
  drop(key, step) {
    const steps = this.get(key)?.filter((s) => s !== step) ?? [];
    if (steps.length === 0) this.delete(key);
    else super.set(key, steps);
  }
}

// A model in a report: a string, or the model's id or name (a getter that throws names nothing).
function modelLabel(model) {
  if (typeof model === "string") return model;
  const keys = isObject(model) || isFunction(model) ? ["modelId", "model", "modelName", "name"] : [];
  return keys.map((key) => tryOr(() => model[key])).find((v) => typeof v === "string" && v !== "") ?? null;
}

const freeze = (list) => Object.freeze([...list]);

/** The report's facts as flat OpenTelemetry attributes. */
export function attributes(report) {
  const a = { "tool_palette.step": report.step, "tool_palette.mode": report.mode };
  const { routing: r, selection: s } = report;
  if (r) Object.assign(a, { "tool_palette.rule": r.rule, "tool_palette.outcome": r.outcome.kind, "tool_palette.retrieval_ms": r.retrievalMs });
  if (report.offered) a["tool_palette.offered"] = [...report.offered];
  if (report.kept !== null) Object.assign(a, { "tool_palette.listed": [...report.listed], "tool_palette.kept": report.kept });
  a["tool_palette.hidden"] = [...report.hidden];
  if (s) a["tool_palette.model.source"] = s.source;
  if (s?.policy != null) a["tool_palette.model.policy"] = s.policy;
  if (s?.model != null) a["tool_palette.model.id"] = s.model;
  a["tool_palette.dispatches"] = report.dispatches.map((d) => `${d.original.name} -> ${d.call.name}${d.redirectedBy ? ` (${d.redirectedBy})` : ""}${d.dropped ? ` [dropped: ${d.dropped.reason}]` : ""}`);
  a["tool_palette.outside"] = report.outside.map((c) => c.name);
  a["tool_palette.outside_refused"] = report.outside.some((c) => c.refused);
  return a;
}

/** A function tool (the OpenAI Agents SDK's, the AI SDK's as sent to the model): the tools narrowed, the others kept. */
export const isFunctionTool = (t) => isObject(t) && t.type === "function";

/** The palette gate of every adapter: a call outside `offered` (`null`: every tool) is refused, unless calls outside are allowed and it names a tool. */
export const refuses = (offered, name, { allow, known }) => offered !== null && !offered.has(name) && (!allow || !known(name));

/** One adapter instance; `trace(report, step)` puts a report into the framework's tracing, `extra` names the adapter's own options. */
export function createCore(options, where, defaultContext, { trace, extra = [] } = {}) {
  const o = readOptions(options, where, defaultContext, extra);
  const warn = warnings(where, o.onWarning);
  // With options.cache (or skills), one run (SPEC 8) over the framework's tools, anew when they change.
  const runs = o.cache ? new Runs(o.cache, (registered) => o.pins.filter((pin) => registered.includes(pin)), { saved: o.saved ?? null, at: `${where}: options.saved` }) : null;
  const skills = o.skills && createSkills(o.skills, { tool: o.skillTool, runs });
  const calls = new Recent(); // a call's id → the step whose model emitted it

  // The step's outcome and the router's report. A function router also gets mode and outsidePalette (tool-palette/mcp's run gates calls too).
  // With a run, the router reads the context with the run's evidence (history, called: kernel/runs.js); the skills and policies read it as given.
  async function route(ctx, signal, tools) {
    if (o.router == null) return skills ? skills.route({ outcome: undefined, decision: null }, ctx, signal, tools ?? []) : { outcome: undefined, decision: null };
    const routed = runs ? tryOr(() => runs.context(ctx), ctx) : ctx;
    let decision = null;
    const onDecision = (d) => void (decision = d);
    const outcome = isFunction(o.router)
      ? await o.router(routed, { signal, onDecision, mode: o.mode, outsidePalette: o.outsidePalette })
      : await o.router.resolve(signal ? { signal, context: routed, onDecision } : { context: routed, onDecision });
    const known = ["routed", "refused", "unavailable"].includes(isObject(outcome) ? outcome.kind : undefined);
    if (!known) throw fail(`${where}: the router's outcome`, "a Routed, RoutingRefusal or RoutingUnavailable", outcome);
    const asked = { outcome, decision: isObject(decision) && decision.outcome === outcome ? decision : null };
    return skills ? skills.route(asked, ctx, signal, tools ?? (Array.isArray(o.router.registered) ? o.router.registered : [])) : asked;
  }

  // Routes one model step. `shape(names)`: the routed names the framework really shows (the AI SDK's deferred tools). A `silent` step (a tool ran
  // where no model seam routed) is neither checked nor reported.
  async function begin({ index, ctx, signal, tools = null, silent = false, shape = null, route: more }) {
    // The default context must carry the turn's message; a context the host builds is the host's business.
    if (!silent && !o.ownContext && !(isObject(ctx) && typeof ctx.message === "string" && ctx.message.trim() !== "")) {
      const fix = "Give the run a user message, or derive the context yourself with options.context(input).";
      warn("NO_MESSAGE", `no user message was found for this step, so the router and the policies see an empty message (every tool may be offered). ${fix}`);
    }
    const { outcome, decision } = await route(ctx, signal, tools);
    const selection = o.policies ? o.policies.selectModel(ctx) : null;
    const step = new Step(core, { index, ctx, outcome, decision, selection, tools, silent, shape });
    const named = outcome?.skills === undefined ? {} : { skills: outcome.skills };
    if (!silent && runs && tools) step.follow(runs.step(tools, step.offered ? { kind: "routed", names: step.offered, unresolved: [], ...named } : { kind: "unavailable", ...named }));
    if (!silent && o.onRoute) o.onRoute({ ctx, outcome, activeTools: step.offered ? [...step.offered] : undefined, selection, ...more });
    return step;
  }

  // Every adapter's pipeline of a call: the gate, the policies (POST seam), onDispatch. `{ refused: true }`, else what runs (`call`); a redirect's
  // target is `tools.get(name)` (`tools.kind`: what it must be among, in the error when there is none), or the framework's to find without `tools`.
  function dispatch(step, call, tools) {
    const d = step.refusesCall(call.name) ? undefined : o.policies ? o.policies.dispatch(call, step.ctx, step.gate) : null;
    const redirected = d != null && core.enforce && d.call !== d.original;
    const sent = redirected ? d.call : call;
    const target = redirected && tools ? tools.get(sent.name) : undefined;
    const lost = redirected && tools && !target;
    // What runs is the run's evidence (called), recorded before the step's report and saved form go out.
    if (d !== undefined && !lost) runs?.call(sent.name);
    step.dispatched(d ?? null);
    if (d === undefined) return { refused: true };
    if (d && o.onDispatch) o.onDispatch(d, step.ctx);
    if (lost) throw new Error(`${where}: "${call.name}" was redirected to "${sent.name}"${d.redirectedBy ? ` by policy "${d.redirectedBy}"` : ""}, which is not ${tools.kind}`);
    return { dispatch: d, redirected, call: sent, target };
  }

  // The step whose model emitted the call `id` (of those that emitted it, `also` or one `owns` says is this call's generation's), else `also`; else
  // a silent one, after the adapter's `warning`.
  async function stepFor(id, { also, owns = () => false, ctx, signal, warning }) {
    const step = (typeof id === "string" && calls.take(id, (s) => s === also || owns(s))) || also || null;
    if (step) return step;
    if (warning && (o.router || o.policies)) warn(...warning);
    return begin({ index: -1, ctx: ctx(), signal, silent: true });
  }

  function emit(step) {
    const report = step.report();
    if (o.tracing && trace) trace(report, step);
    if (o.onDecision) o.onDecision(report);
    if (o.onSaved) o.onSaved(runs.save());
  }

  // The messages with the run's skill instructions in place (SPEC 9), or `undefined`; none in shadow mode.
  const instruct = (step, messages, hooks) => (skills && core.enforce && step.runStep && Array.isArray(messages) ? skills.place(step.runStep.newSkills ?? [], messages, hooks) : undefined);

  const save = () => runs?.save() ?? null;
  const core = { o, where, warn, begin, dispatch, stepFor, emit, calls, skills, instruct, save, enforce: o.mode === "enforce" };
  return core;
}

class Step {
  constructor(core, { index, ctx, outcome, decision, selection, tools, silent, shape }) {
    Object.assign(this, { core, index, ctx, outcome, decision, selection, silent, dispatches: [], outside: [], ids: [], expected: 0, received: 0, seen: false, done: false });
    this.tools = tools ? new Set(tools) : null;
    this.listed = this.runStep = null; // with a run: its step, whose names are sent to the model in this order
    // The names offered (`null`: every tool): the routed names and the pins.
    const routed = outcome === undefined ? undefined : activeTools(outcome);
    if (routed === undefined) {
      this.palette = outcome ?? null;
      return void this.offer(null);
    }
    // Routing must name a tool the framework has: pinned names alone are no palette.
    const named = this.tools ? routed.some((name) => this.tools.has(name)) : routed.length > 0;
    const { pins } = core.o;
    for (const pin of pins) if (!routed.includes(pin)) routed.push(pin);
    this.palette = pins.length ? { kind: "routed", names: routed, unresolved: [] } : outcome;
    // What the model is really shown: the framework's tools among them; never none.
    const shown = (named ? (shape ? shape(routed) : routed) : []).filter((name) => !this.tools || this.tools.has(name));
    if (shown.length === 0) {
      this.palette = null; // every tool, and no palette for the gate to hold a redirect to
      const why = "names it does not have, or deferred tools no toolSearch found yet";
      if (!this.tools || this.tools.size > 0) core.warn("NOTHING_OFFERED", `routing named no tool the framework shows the model this step (${why}), so every tool is offered instead: a step never offers nothing.`);
    }
    this.offer(shown.length ? shown : null);
  }

  follow(step) {
    this.runStep = step;
    this.listed = step.listed;
    this.listedSet = new Set(step.listed);
    this.offer(step.offered.length === this.tools.size ? null : step.offered);
  }

  // The names offered and those hidden: the decision report's (of the framework's tools), then the framework's others.
  offer(offered) {
    this.offered = offered ? [...offered] : null;
    this.offeredSet = offered ? new Set(offered) : null;
    const hidden = new Set();
    for (const name of this.offeredSet ? [...(this.decision?.hidden ?? []).filter((n) => !this.tools || this.tools.has(n)), ...(this.tools ?? [])] : []) if (!this.offeredSet.has(name)) hidden.add(name);
    this.hidden = [...hidden];
    // Live tracing attributes (the AI SDK carries them in runtimeContext): completed in place.
    this.attributes = Object.assign(this.attributes ?? {}, attributes(this.report()));
  }

  // The palette a redirect must land in (SPEC 4): the step's, or, on a step that did not narrow, every tool the framework has (its registered
  // tools: a redirect to another name is dropped with a warning); the outcome itself when the framework's tools are not known.
  get gate() {
    return Array.isArray(this.palette?.names) || !this.tools ? this.palette : [...this.tools];
  }

  isOutside(name) {
    return this.offeredSet !== null && !this.offeredSet.has(name);
  }

  refusesCall(name) {
    return this.core.enforce && refuses(this.offeredSet, name, { allow: this.core.o.outsidePalette === "allow", known: (n) => this.tools === null || this.tools.has(n) });
  }

  // Whether the model was sent the tool (with a run: listed).
  isSent(name) {
    return this.listedSet ? this.listedSet.has(name) : !this.isOutside(name);
  }

  // The tools `mine` narrowed (their named ones): with a run, the listed ones in its order, after the others and the unnamed; else by bindPalette.
  arrange(tools, mine = () => true) {
    if (!Array.isArray(tools) || !(this.listed || this.offeredSet)) return tools;
    const named = (t) => typeof nameOf(t) === "string";
    if (!this.listed) {
      const kept = new Set(bindPalette(tools.filter((t) => mine(t) && named(t)), this.palette));
      return tools.filter((t) => !mine(t) || !named(t) || kept.has(t));
    }
    const byName = new Map();
    for (const t of tools) if (mine(t) && named(t) && !byName.has(nameOf(t))) byName.set(nameOf(t), t);
    return [...tools.filter((t) => !mine(t)), ...tools.filter((t) => mine(t) && !named(t)), ...this.listed.filter((name) => byName.has(name)).map((name) => byName.get(name))];
  }

  // The policies' model for the step, when enforced.
  get policyModel() {
    return this.core.enforce && this.selection?.model != null ? this.selection.model : undefined;
  }

  // One call the model emitted; `dispatches`: whether a dispatch will follow.
  call({ id, name }, dispatches) {
    if (typeof id === "string") this.core.calls.add(id, this), this.ids.push(id);
    if (this.isOutside(name)) this.outside.push(Object.freeze({ id: id ?? null, name, refused: this.refusesCall(name) }));
    if (dispatches) this.expected++;
  }

  sealed() {
    this.seen = true;
    this.dispatched(undefined);
  }

  // One call was dispatched (`null`: nothing was asked of the policies).
  dispatched(dispatch) {
    if (dispatch) this.dispatches.push(dispatch);
    if (dispatch !== undefined) this.received++;
    if (this.seen && this.received >= this.expected) this.finish();
  }

  finish() {
    if (this.done) return;
    this.done = true;
    for (const id of this.ids) this.core.calls.drop(id, this);
    if (!this.silent) this.core.emit(this);
  }

  report() {
    const { selection: s, runStep: run } = this;
    return Object.freeze({
      step: this.index,
      mode: this.core.o.mode,
      routing: this.decision,
      offered: this.offered ? freeze(this.offered) : null,
      hidden: freeze(this.hidden),
      selection: s ? Object.freeze({ model: s.model == null ? null : modelLabel(s.model), source: s.source, policy: s.policy ?? null }) : null,
      dispatches: freeze(this.dispatches),
      outside: freeze(this.outside),
      ...runLists(run, this.offered ? freeze(this.offered) : null, this.core.skills),
    });
  }
}
