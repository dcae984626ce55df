// tool-palette/ai-sdk: the Vercel AI SDK (`ai` 7) adapter, the AI SDK's hooks over the kernel. `prepareStep` returns the offered names as
// `activeTools`, so the SDK itself refuses a call outside them, and the model in a Proxy that watches the calls it emits; `wrapTools` sends every
// `execute` through the kernel's dispatch. No import of `ai`: its documented shapes.
import { ToolIndex } from "tool-palette";
import { attributes, contextOf, createCore, isFunctionTool } from "./kernel/core.js";
import { AI_SCHEMA, aiSdkTools } from "./kernel/tools.js";
import { attempt, fail, isFunction, isObject, NOT_JSON, put, tryOr } from "./kernel/values.js";

const WHERE = "tool-palette/ai-sdk";
// The AI SDK's toolSearch() tool carries this registered symbol (ai 7); its schemas, kernel/tools.js AI_SCHEMA.
const TOOL_SEARCH = Symbol.for("vercel.ai.toolSearch");

export const defaultContext = (input) =>
  contextOf(isObject(input) && Array.isArray(input.messages) ? input.messages : [], isObject(input) ? input.runtimeContext : undefined, (m) => m.role === "user");

// The names the generation's toolSearch tools found (their results `{ tools: [{ name }] }`): the SDK shows those deferred tools.
function discoveredBy(input, searchers) {
  const found = new Set();
  if (!searchers.size || !isObject(input) || !Array.isArray(input.steps)) return found;
  for (const step of input.steps) {
    for (const r of isObject(step) && Array.isArray(step.toolResults) ? step.toolResults : []) {
      if (!isObject(r) || !searchers.has(r.toolName) || !isObject(r.output) || !Array.isArray(r.output.tools)) continue;
      for (const t of r.output.tools) if (isObject(t) && typeof t.name === "string") found.add(t.name);
    }
  }
  return found;
}

// A call's input as the SDK checks it before running a tool (a Standard Schema: zod 3.25+/4, valibot…; or a jsonSchema() with validate): `{ value }`,
// or `{ issues }` (their messages). Any other schema takes the input as it is.
async function validated(schema, value) {
  const standard = isObject(schema) || isFunction(schema) ? schema["~standard"] : undefined;
  if (isObject(standard) && isFunction(standard.validate)) {
    const result = await standard.validate(value);
    return result?.issues ? { issues: result.issues.map((i) => i?.message).filter(Boolean) } : { value: result ? result.value : value };
  }
  if (!(isObject(schema) && schema[AI_SCHEMA] === true && isFunction(schema.validate))) return { value };
  const result = await schema.validate(value);
  return result?.success === false ? { issues: [result.error?.message].filter(Boolean) } : { value: result?.success ? result.value : value };
}

// Whether the SDK accepts a call's input before running a tool (a refused input gets a tool error; nothing runs).
async function accepted(tool, input) {
  if (typeof input !== "string") return true;
  const value = tryOr(() => (input.trim() === "" ? {} : JSON.parse(input)), NOT_JSON);
  if (value === NOT_JSON) return false;
  return validated(isObject(tool) ? tool.inputSchema : undefined, value).then((r) => !r.issues, () => false);
}

const toolCallsOf = (content) => (Array.isArray(content) ? content.filter((p) => isObject(p) && p.type === "tool-call" && typeof p.toolName === "string") : []);

export function createToolPalette(options) {
  // The attributes object already rides in the step's runtimeContext: tracing completes it.
  const core = createCore(options, WHERE, defaultContext, { trace: (report, step) => Object.assign(step.attributes, attributes(report)) });
  const { o } = core;
  const byMessages = new WeakMap(); // the step's messages array → step
  const open = new WeakMap(); // a generation (its initialMessages array) → its last step
  // The last record given to wrapTools.
  let known = { names: null, tools: new Map(), executable: new Set(), searchers: new Set(), deferred: new Set() };

  async function prepareStep(input) {
    const generation = isObject(input) && Array.isArray(input.initialMessages) ? input.initialMessages : null;
    if (generation && open.has(generation)) open.get(generation).finish(); // the previous step is over
    const { searchers, deferred } = known;
    // With the SDK's tool search, a deferred tool shows once found (for the rest of the generation); the search tool stays.
    const found = discoveredBy(input, searchers);
    const shape = searchers.size || deferred.size ? (routed) => [...new Set([...routed, ...searchers, ...found])].filter((n) => !deferred.has(n) || found.has(n)) : null;
    const stepNumber = isObject(input) ? input.stepNumber : undefined;
    // The skills' instructions placed before (ai 7 carries a step's messages forward) are not the host's: the context reads without them.
    const messages = isObject(input) && Array.isArray(input.messages) ? input.messages : null;
    const host = core.skills && messages ? await core.skills.strip(messages) : messages;
    const ctx = o.context(host === messages ? input : { ...input, messages: host });
    const step = await core.begin({ index: typeof stepNumber === "number" ? stepNumber : 0, ctx, tools: known.names, shape, route: { stepNumber } });
    if (generation) open.set(generation, step);
    if (messages) byMessages.set(messages, step);

    const { enforce } = core;
    const result = {};
    const model = step.policyModel ?? (isObject(input) ? input.model : undefined);
    // Narrowing: `activeTools` or, when calls outside the palette are allowed (or with a run), the tools the watched model is sent.
    const watched = watch(model, step, enforce && (step.listed || (step.offered && o.outsidePalette === "allow")));
    if (!watched && model != null) {
      const then = 'its report comes when the next step starts (none for the last step), and outsidePalette: "allow" falls back to activeTools. Give the policies model instances.';
      core.warn("MODEL_NOT_WATCHED", `this step's model is not a model object (a model id string?), so the adapter cannot see the calls it emits: ${then}`);
    }
    // The deferred tools stay active (the SDK hides them until found): the candidates of the search.
    const active = step.listed ?? step.offered;
    if (enforce && active && (o.outsidePalette === "refuse" || !watched)) result.activeTools = [...new Set([...active, ...deferred])];
    if (watched) result.model = watched;
    else if (enforce && model !== input?.model) result.model = model;
    if (o.tracing) result.runtimeContext = { ...(isObject(input) && isObject(input.runtimeContext) ? input.runtimeContext : {}), toolPalette: step.attributes };
    const placed = await core.instruct(step, messages);
    if (placed) byMessages.set((result.messages = placed), step);
    return result;
  }

  // The step's model, forwarding everything: the step learns the tools sent and the calls emitted.
  function watch(model, step, filter) {
    if (!isObject(model) || !isFunction(model.doGenerate)) return undefined;
    const send = (callOptions) => {
      const tools = isObject(callOptions) && Array.isArray(callOptions.tools) ? callOptions.tools : null;
      const sent = filter && tools ? { ...callOptions, tools: step.listed ? step.arrange(tools, isFunctionTool) : tools.filter((t) => !isFunctionTool(t) || step.offeredSet.has(t.name)) } : callOptions;
      // The report says what the model saw: the names the SDK really sent (in shadow mode: would have).
      if (core.enforce && step.offered && !step.listed && isObject(sent) && Array.isArray(sent.tools)) {
        const names = sent.tools.map((t) => (isObject(t) ? t.name : undefined)).filter((n) => typeof n === "string");
        if (names.length !== step.offered.length || names.some((n) => !step.offeredSet.has(n))) step.offer(names.length ? names : null);
      }
      return sent;
    };
    const see = async (part) => {
      // A call reaches a wrapped execute unless the provider ran it, the tool has none, or the SDK refuses it or its input (not sent: not among the
      // activeTools, or not listed; "fixed" refuses the rest in the execute).
      const sdkRefuses = step.refusesCall(part.toolName) && !step.isSent(part.toolName);
      const runs = !part.providerExecuted && known.executable.has(part.toolName) && !sdkRefuses && (await accepted(known.tools.get(part.toolName), part.input));
      step.call({ id: part.toolCallId, name: part.toolName }, runs);
    };
    const generate = async (target, callOptions) => {
      const response = await target.doGenerate(send(callOptions));
      for (const part of toolCallsOf(response && response.content)) await see(part);
      step.sealed();
      return response;
    };
    const stream = async (target, callOptions) => {
      const response = await target.doStream(send(callOptions));
      const transform = async (part, controller) => {
        if (isObject(part) && part.type === "tool-call" && typeof part.toolName === "string") await see(part);
        controller.enqueue(part);
      };
      return { ...response, stream: response.stream.pipeThrough(new TransformStream({ transform, flush: () => step.sealed() })) };
    };
    return new Proxy(model, {
      get(target, key) {
        if (key === "doGenerate") return (callOptions) => generate(target, callOptions);
        if (key === "doStream" && isFunction(target.doStream)) return (callOptions) => stream(target, callOptions);
        const value = Reflect.get(target, key, target);
        return isFunction(value) ? value.bind(target) : value;
      },
    });
  }

  function wrapTools(tools) {
    const at = `${WHERE}: wrapTools(tools)`;
    if (!isObject(tools) || Array.isArray(tools)) throw fail(at, "a record of tools keyed by name", tools);
    // Keyed as the core's records are: `__proto__` and the like are ordinary names.
    const wrapped = Object.create(attempt(() => Object.getPrototypeOf(tools), at) === null ? null : Object.prototype);
    const names = attempt(() => Object.keys(tools), at);
    const read = new Map(
      names.map((n) => {
        const where = `${at}[${JSON.stringify(n)}]`;
        const tool = attempt(() => tools[n], where);
        return [n, { tool, ...attempt(() => ({ search: isObject(tool) && tool[TOOL_SEARCH] === true, deferred: isObject(tool) && !!tool.deferLoading, runs: isObject(tool) && isFunction(tool.execute) }), where) }];
      }),
    );
    const searchers = new Set(names.filter((n) => read.get(n).search));
    // A redirect's target, as read when wrapped.
    const targets = { get: (n) => (read.get(n)?.runs ? read.get(n).tool : undefined), kind: "a tool with an execute function among the tools given to wrapTools" };
    // The SDK binds a toolSearch's execute itself: only the others are dispatched.
    const others = (key) => new Set(names.filter((n) => read.get(n)[key] && !searchers.has(n)));
    known = { names, tools: new Map(names.map((n) => [n, read.get(n).tool])), searchers, deferred: others("deferred"), executable: others("runs") };
    for (const name of names) {
      const { tool } = read.get(name);
      put(wrapped, name, known.executable.has(name) ? { ...tool, execute: (input, execOptions) => execute(name, tool, input, execOptions) } : tool);
    }
    // With skills: the load_skill tool (SPEC 9), replacing one of the same name (tool-palette/mcp's).
    const def = core.skills?.def;
    if (def) {
      put(wrapped, def.name, aiSdkTools([def], (_, args) => core.skills.load(args))[def.name]);
      if (!names.includes(def.name)) known.names = [...names, def.name];
      known.executable.delete(def.name);
    }
    return wrapped;

    async function execute(name, tool, input, execOptions) {
      const opts = isObject(execOptions) ? execOptions : {};
      const warning = ["NO_PREPARE_STEP", "a tool ran in a step that prepareStep did not see: pass prepareStep: palette.prepareStep to generateText/streamText/ToolLoopAgent, or nothing is routed nor reported."];
      const step = await core.stepFor(opts.toolCallId, { also: Array.isArray(opts.messages) && byMessages.get(opts.messages), ctx: () => o.context(opts), signal: opts.abortSignal, warning });
      const call = { name, args: input, ...(typeof opts.toolCallId === "string" && { id: opts.toolCallId }) };
      const sent = core.dispatch(step, call, targets);
      // Listed but not offered ("fixed"): a tool error, nothing runs. A redirect's result stays the emitted call's.
      if (sent.refused) throw new Error(`${WHERE}: "${name}" is not offered this step (offered: ${(step.offered ?? []).join(", ")}); the tool did not run.`);
      if (!sent.redirected) return tool.execute(input, execOptions);
      const { value, issues } = await validated(sent.target.inputSchema, sent.call.args);
      if (issues) throw new TypeError(`${WHERE}: the redirected arguments do not match the input schema of "${sent.call.name}"${issues.length ? `: ${issues.join("; ")}` : ""}`);
      return sent.target.execute(value, execOptions);
    }
  }

  return { prepareStep, wrapTools, save: core.save };
}

/** A `search` for the AI SDK's `toolSearch({ search })`, ranked by a `ToolIndex` (without one: of the candidates, once per set). */
export function toolSearchFunction(index) {
  const searches = index === undefined || (isObject(index) && isFunction(attempt(() => index.search, `${WHERE}: toolSearchFunction(index).search`)));
  if (!searches) throw fail(`${WHERE}: toolSearchFunction(index)`, "a ToolIndex or undefined", index);
  let [names, own] = [null, null]; // without an index: the candidates' names, and the index of them
  return ({ query, tools }) => {
    const candidates = Array.isArray(tools) ? tools : [];
    const text = typeof query === "string" ? query : "";
    if (index === undefined) {
      if (!(names !== null && names.length === candidates.length && candidates.every((t, i) => t.name === names[i]))) {
        own?.dispose();
        own = new ToolIndex(candidates);
        names = candidates.map((t) => t.name);
      }
      return own.search(text, { limit: Math.max(1, candidates.length) }).map((hit) => hit.name);
    }
    // The index holds other tools too (those not deferred, or already found): rank them all, keep the candidates.
    const wanted = new Set(candidates.map((t) => (isObject(t) ? t.name : undefined)));
    const depth = typeof index.size === "number" && index.size > 0 ? index.size : undefined;
    return index.search(text, depth === undefined ? undefined : { limit: depth }).flatMap((hit) => (wanted.has(hit.name) ? [hit.name] : []));
  };
}
