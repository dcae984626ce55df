// tool-palette/ai-sdk: the Vercel AI SDK (`ai` 7) adapter.
//
//   const palette = createToolPalette({ router, policies });
//   await generateText({ model, prompt, stopWhen, tools: palette.wrapTools(tools), prepareStep: palette.prepareStep });
//
// `prepareStep` runs before every step: it routes on the step's context (by default the
// last user message of the step's messages) and returns the offered names as
// `activeTools` (omitted when every tool is offered, which the AI SDK reads as "every
// tool"), so the SDK itself refuses a call outside them (NoSuchToolError, sent back to
// the model as a tool error). It returns the policy's model as `model`. `wrapTools` sends
// every `execute` through the policies: a redirect runs the target tool's `execute`, and
// the result stays the emitted call's (its id and name). With the SDK's toolSearch, a step
// that routing narrows keeps the search tool offered and the deferred tools within its
// reach (the SDK shows one only once a search found it), and what it found joins the
// offered names for the rest of the generation.
//
// Each step is reported to `onDecision` once its calls are dispatched (see shared.js); a call
// whose input the SDK refuses is not waited for. To see the calls the model emitted, the step's model is handed back wrapped in a Proxy that
// forwards everything and watches doGenerate/doStream. With `tracing` (default), the step's
// attributes ride in `runtimeContext.toolPalette`, which AI SDK telemetry integrations
// receive when `telemetry.includeRuntimeContext` includes `toolPalette`.
// No import of `ai`: only its documented shapes.
import { ToolIndex } from "tool-palette";
import { createCore, attributes, attempt, validateArgs, lastText, Recent, isObject, isFunction, fail, put } from "./shared.js";

const WHERE = "tool-palette/ai-sdk";

/**
 * The default context: `{ message, messages, runtimeContext }`. `message` is
 * `runtimeContext.message` when your runtime context has one, else the text of the last
 * user message of the step's messages.
 */
export function defaultContext(input) {
  const messages = isObject(input) && Array.isArray(input.messages) ? input.messages : [];
  const runtimeContext = isObject(input) ? input.runtimeContext : undefined;
  const given = isObject(runtimeContext) && typeof runtimeContext.message === "string" ? runtimeContext.message : undefined;
  return { message: given ?? lastText(messages, (m) => m.role === "user"), messages, runtimeContext };
}

// The AI SDK's toolSearch() tool carries this registered symbol (ai 7).
const TOOL_SEARCH = Symbol.for("vercel.ai.toolSearch");
const isToolSearch = (tool) => isObject(tool) && tool[TOOL_SEARCH] === true;
// …and its schemas (jsonSchema(), zodSchema()) this one.
const AI_SCHEMA = Symbol.for("vercel.ai.schema");

// The names the generation's toolSearch tools found in its earlier steps (their results
// `{ tools: [{ name }] }`): the SDK shows those deferred tools from the next step on.
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

// Whether the SDK accepts a call's input, as it checks it before running a tool: the text
// parsed as JSON (blank is {}), then validated by the tool's input schema (an AI SDK
// Standard Schema such as zod's, or an AI SDK Schema's validate). A refused input is answered by
// the SDK with a tool error, and the tool does not run.
async function accepted(tool, input) {
  if (typeof input !== "string") return true;
  let value;
  if (input.trim() === "") value = {};
  else {
    try {
      value = JSON.parse(input);
    } catch {
      return false;
    }
  }
  const schema = isObject(tool) ? tool.inputSchema : undefined;
  try {
    const standard = isObject(schema) || isFunction(schema) ? schema["~standard"] : undefined;
    if (isObject(standard) && isFunction(standard.validate)) return !(await standard.validate(value))?.issues;
    if (isObject(schema) && schema[AI_SCHEMA] === true && isFunction(schema.validate)) return (await schema.validate(value))?.success !== false;
  } catch {
    return false;
  }
  return true;
}

const toolCallsOf = (content) =>
  Array.isArray(content) ? content.filter((p) => isObject(p) && p.type === "tool-call" && typeof p.toolName === "string") : [];

export function createToolPalette(options) {
  const core = createCore(options, WHERE, defaultContext, {
    // The attributes object is already in the step's runtimeContext: complete it.
    trace: (report, step) => Object.assign(step.attributes, attributes(report)),
  });
  const { o } = core;
  const byCall = new Recent(); // toolCallId → step
  const byMessages = new WeakMap(); // the step's messages array → step
  const open = new WeakMap(); // a generation (its initialMessages array) → its last step
  // What the last record given to wrapTools holds: its names, the tools (by name), those
  // whose execute the adapter dispatches, the SDK's toolSearch tools, and the deferred tools.
  let known = { names: null, tools: new Map(), executable: new Set(), searchers: new Set(), deferred: new Set() };

  async function prepareStep(input) {
    const run = isObject(input) && Array.isArray(input.initialMessages) ? input.initialMessages : null;
    if (run && open.has(run)) open.get(run).finish(); // the previous step is over
    const ctx = o.context(input);
    const { searchers, deferred } = known;
    // With the SDK's tool search, what routing names is not all the model sees: a deferred
    // tool shows once a toolSearch found it (then for the rest of the generation), and the
    // search tool itself must stay offered, or the deferred tools can never be found.
    const found = discoveredBy(input, searchers);
    const shape =
      searchers.size || deferred.size
        ? (routed) => [...new Set([...routed, ...searchers, ...found])].filter((n) => !deferred.has(n) || found.has(n))
        : null;
    const step = await core.begin({ index: isObject(input) && typeof input.stepNumber === "number" ? input.stepNumber : 0, ctx, tools: known.names, shape });
    if (run) open.set(run, step);
    if (isObject(input) && Array.isArray(input.messages)) byMessages.set(input.messages, step);

    const result = {};
    const enforce = core.enforce;
    const model = enforce && step.selection && step.selection.model != null ? step.selection.model : isObject(input) ? input.model : undefined;
    // Narrowing: `activeTools` (the SDK refuses what it does not list) or, when calls
    // outside the palette are allowed, only the tools sent to the model.
    // With a run (options.cache), the tools sent are its listed ones, in its order.
    const filter = enforce && (step.listed || (step.offered && o.outsidePalette === "allow"));
    const watched = watch(model, step, filter);
    if (!watched && model != null) {
      core.warnOnce(
        "MODEL_NOT_WATCHED",
        "this step's model is not a model object (a model id string?), so the adapter cannot see the calls it emits: its report comes when the next step starts (none for the last step), " +
          'and outsidePalette: "allow" falls back to activeTools. Give the policies model instances.',
      );
    }
    // The deferred tools stay active (the SDK hides them until found): the candidates of the search.
    const active = step.listed ?? step.offered;
    if (enforce && active && (o.outsidePalette === "refuse" || !watched)) result.activeTools = [...new Set([...active, ...deferred])];
    if (watched) result.model = watched;
    else if (enforce && model !== input?.model) result.model = model;
    if (o.tracing) result.runtimeContext = { ...(isObject(input) && isObject(input.runtimeContext) ? input.runtimeContext : {}), toolPalette: step.attributes };
    if (o.onRoute) {
      o.onRoute({ ctx, outcome: step.outcome, activeTools: step.offered ? [...step.offered] : undefined, selection: step.selection, stepNumber: isObject(input) ? input.stepNumber : undefined });
    }
    return result;
  }

  // The step's model, forwarding everything, so that the step learns the tools the model
  // was sent and the calls it emitted (and, with `filter`, sends the model only the offered
  // function tools).
  function watch(model, step, filter) {
    if (!isObject(model) || !isFunction(model.doGenerate)) return undefined;
    const send = (callOptions) => {
      const isFunctionTool = (t) => isObject(t) && t.type === "function";
      const tools = isObject(callOptions) && Array.isArray(callOptions.tools) ? callOptions.tools : null;
      const sent =
        filter && tools
          ? { ...callOptions, tools: step.listed ? step.arrange(tools, isFunctionTool) : tools.filter((t) => !isFunctionTool(t) || step.offeredSet.has(t.name)) }
          : callOptions;
      // The report says what the model saw: should the SDK have sent other tools than the step
      // expected, the step's offered names are the ones sent (in shadow mode: what would have been).
      if (core.enforce && step.offered && !step.listed && isObject(sent) && Array.isArray(sent.tools)) {
        const names = sent.tools.map((t) => (isObject(t) ? t.name : undefined)).filter((n) => typeof n === "string");
        if (names.length !== step.offered.length || names.some((n) => !step.offeredSet.has(n))) step.offer(names.length ? names : null);
      }
      return sent;
    };
    const see = async (part) => {
      if (typeof part.toolCallId === "string") byCall.set(part.toolCallId, step);
      // A call reaches a wrapped execute unless the provider ran it, the tool has no
      // execute, the step refuses it (the SDK does: not among the activeTools), or the SDK
      // refuses its input (it answers that call with a tool error and runs nothing).
      // (With a run, the SDK refuses what is not listed; a listed tool not offered, "fixed", is refused by its execute.)
      const sdkRefuses = step.refusesCall(part.toolName) && !step.isSent(part.toolName);
      const runs = !part.providerExecuted && known.executable.has(part.toolName) && !sdkRefuses && (await accepted(known.tools.get(part.toolName), part.input));
      step.call({ id: part.toolCallId, name: part.toolName }, runs);
    };
    return new Proxy(model, {
      get(target, key) {
        if (key === "doGenerate") {
          return async (callOptions) => {
            const response = await target.doGenerate(send(callOptions));
            for (const part of toolCallsOf(response && response.content)) await see(part);
            step.sealed();
            return response;
          };
        }
        if (key === "doStream" && isFunction(target.doStream)) {
          return async (callOptions) => {
            const response = await target.doStream(send(callOptions));
            const stream = response.stream.pipeThrough(
              new TransformStream({
                async transform(part, controller) {
                  if (isObject(part) && part.type === "tool-call" && typeof part.toolName === "string") await see(part);
                  controller.enqueue(part);
                },
                flush() {
                  step.sealed();
                },
              }),
            );
            return { ...response, stream };
          };
        }
        const value = Reflect.get(target, key, target);
        return isFunction(value) ? value.bind(target) : value;
      },
    });
  }

  function wrapTools(tools) {
    if (!isObject(tools) || Array.isArray(tools)) throw fail(`${WHERE}: wrapTools(tools)`, "a record of tools keyed by name", tools);
    // Keyed as the core's records are: `__proto__` and the like are ordinary names (own data properties).
    const at = `${WHERE}: wrapTools(tools)`;
    const wrapped = Object.create(attempt(() => Object.getPrototypeOf(tools), at) === null ? null : Object.prototype);
    const names = attempt(() => Object.keys(tools), at);
    // Each tool and what the adapter reads of it, once (a getter or proxy that throws is a TypeError naming the tool).
    const read = new Map(
      names.map((n) => {
        const where = `${at}[${JSON.stringify(n)}]`;
        const tool = attempt(() => tools[n], where);
        const facts = attempt(() => ({ search: isToolSearch(tool), deferred: isObject(tool) && !!tool.deferLoading, runs: isObject(tool) && isFunction(tool.execute) }), where);
        return [n, { tool, ...facts }];
      }),
    );
    const searchers = new Set(names.filter((n) => read.get(n).search));
    known = {
      names,
      tools: new Map(names.map((n) => [n, read.get(n).tool])),
      searchers,
      deferred: new Set(names.filter((n) => read.get(n).deferred && !searchers.has(n))),
      // The SDK binds a toolSearch's execute itself: only the others are dispatched.
      executable: new Set(names.filter((n) => read.get(n).runs && !searchers.has(n))),
    };
    for (const name of names) {
      const tool = read.get(name).tool;
      const value = known.executable.has(name) ? { ...tool, execute: dispatching(name, tool) } : tool;
      put(wrapped, name, value);
    }

    function dispatching(name, tool) {
      return async function execute(input, execOptions) {
        const opts = isObject(execOptions) ? execOptions : {};
        let step = (typeof opts.toolCallId === "string" && byCall.take(opts.toolCallId)) || (Array.isArray(opts.messages) && byMessages.get(opts.messages)) || null;
        if (!step) {
          if (o.router || o.policies) core.warnOnce("NO_PREPARE_STEP", "a tool ran in a step that prepareStep did not see: pass prepareStep: palette.prepareStep to generateText/streamText/ToolLoopAgent, or nothing is routed nor reported.");
          step = await core.begin({ index: -1, ctx: o.context(opts), signal: opts.abortSignal, silent: true });
        }
        if (step.refusesCall(name)) {
          // Listed but not offered (options.cache "fixed"): answered as a tool error, nothing runs.
          step.dispatched(null);
          throw new Error(`${WHERE}: "${name}" is not offered this step (offered: ${(step.offered ?? []).join(", ")}); the tool did not run.`);
        }
        const call = { name, args: input };
        if (typeof opts.toolCallId === "string") call.id = opts.toolCallId;
        const dispatch = o.policies ? o.policies.dispatch(call, step.ctx, step.palette) : null;
        step.dispatched(dispatch);
        if (dispatch && o.onDispatch) o.onDispatch(dispatch, step.ctx);
        if (!dispatch || !core.enforce || dispatch.call === dispatch.original) return tool.execute(input, execOptions);
        const targetName = dispatch.call.name;
        const target = read.get(targetName)?.tool; // as read when wrapped
        if (!isObject(target) || !isFunction(target.execute)) {
          throw new Error(
            `${WHERE}: "${name}" was redirected to "${targetName}"${dispatch.redirectedBy ? ` by policy "${dispatch.redirectedBy}"` : ""}, ` +
              "which is not a tool with an execute function among the tools given to wrapTools",
          );
        }
        const args = await validateArgs(target.inputSchema, dispatch.call.args, targetName, WHERE);
        // The SDK attributes the result to the emitted call: its id and its name.
        return target.execute(args, execOptions);
      };
    }
    return wrapped;
  }

  return { prepareStep, wrapTools };
}

/**
 * A `search` function for the AI SDK's `toolSearch({ search })`, ranked by the package's
 * tool search (`ToolIndex`, BM25F in the Rust core) instead of the SDK's keyword scorer.
 * Give it an index built from your tools (their parameter schemas count too), or none: then
 * the candidates the SDK hands over (names and descriptions) are indexed, once per set.
 * Either way the answer is the candidates the SDK handed over (the deferred tools still to
 * find) that match the query, best first: a given index ranks all its tools, and only
 * those candidates are kept.
 */
export function toolSearchFunction(index) {
  if (index !== undefined && !(isObject(index) && isFunction(attempt(() => index.search, `${WHERE}: toolSearchFunction(index).search`)))) {
    throw fail(`${WHERE}: toolSearchFunction(index)`, "a ToolIndex or undefined", index);
  }
  let names = null;
  let own = null;
  return ({ query, tools }) => {
    const candidates = Array.isArray(tools) ? tools : [];
    let search = index;
    if (search === undefined) {
      const same = names !== null && names.length === candidates.length && candidates.every((t, i) => t.name === names[i]);
      if (!same) {
        own?.dispose();
        own = new ToolIndex(candidates);
        names = candidates.map((t) => t.name);
      }
      search = own;
    }
    const text = typeof query === "string" ? query : "";
    if (search === own) return search.search(text, { limit: Math.max(1, candidates.length) }).map((hit) => hit.name);
    // The index holds other tools too (those not deferred, or already found): rank them all, keep the candidates.
    const wanted = new Set(candidates.map((t) => (isObject(t) ? t.name : undefined)));
    const depth = typeof search.size === "number" && search.size > 0 ? search.size : undefined;
    return search
      .search(text, depth === undefined ? undefined : { limit: depth })
      .map((hit) => hit.name)
      .filter((name) => wanted.has(name));
  };
}
