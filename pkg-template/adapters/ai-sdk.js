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
// the result stays the emitted call's (its id and name).
//
// Each step is reported to `onDecision` once its calls are dispatched (see shared.js). To
// see the calls the model emitted, the step's model is handed back wrapped in a Proxy that
// forwards everything and watches doGenerate/doStream. With `tracing` (default), the step's
// attributes ride in `runtimeContext.toolPalette`, which AI SDK telemetry integrations
// receive when `telemetry.includeRuntimeContext` includes `toolPalette`.
// No import of `ai`: only its documented shapes.
import { ToolIndex } from "tool-palette";
import { createCore, attributes, validateArgs, lastText, Recent, isObject, isFunction, fail } from "./shared.js";

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
  let toolNames = null; // the keys of the last record given to wrapTools
  let executable = new Set(); // …those with an execute

  async function prepareStep(input) {
    const run = isObject(input) && Array.isArray(input.initialMessages) ? input.initialMessages : null;
    if (run && open.has(run)) open.get(run).finish(); // the previous step is over
    const ctx = o.context(input);
    const step = await core.begin({ index: isObject(input) && typeof input.stepNumber === "number" ? input.stepNumber : 0, ctx, tools: toolNames });
    if (run) open.set(run, step);
    if (isObject(input) && Array.isArray(input.messages)) byMessages.set(input.messages, step);

    const result = {};
    const enforce = core.enforce;
    const model = enforce && step.selection && step.selection.model != null ? step.selection.model : isObject(input) ? input.model : undefined;
    // Narrowing: `activeTools` (the SDK refuses what it does not list) or, when calls
    // outside the palette are allowed, only the tools sent to the model.
    const filter = enforce && step.offered && o.outsidePalette === "allow";
    const watched = watch(model, step, filter);
    if (!watched && model != null) {
      core.warnOnce(
        "MODEL_NOT_WATCHED",
        "this step's model is not a model object (a model id string?), so the adapter cannot see the calls it emits: its report comes when the next step starts (none for the last step), " +
          'and outsidePalette: "allow" falls back to activeTools. Give the policies model instances.',
      );
    }
    if (enforce && step.offered && (o.outsidePalette === "refuse" || !watched)) result.activeTools = [...step.offered];
    if (watched) result.model = watched;
    else if (enforce && model !== input?.model) result.model = model;
    if (o.tracing) result.runtimeContext = { ...(isObject(input) && isObject(input.runtimeContext) ? input.runtimeContext : {}), toolPalette: step.attributes };
    if (o.onRoute) {
      o.onRoute({ ctx, outcome: step.outcome, activeTools: step.offered ? [...step.offered] : undefined, selection: step.selection, stepNumber: isObject(input) ? input.stepNumber : undefined });
    }
    return result;
  }

  // The step's model, forwarding everything, so that the step learns the calls the model
  // emitted (and, with `filter`, sends the model only the offered function tools).
  function watch(model, step, filter) {
    if (!isObject(model) || !isFunction(model.doGenerate)) return undefined;
    const narrow = (callOptions) =>
      filter && isObject(callOptions) && Array.isArray(callOptions.tools)
        ? { ...callOptions, tools: callOptions.tools.filter((t) => !isObject(t) || t.type !== "function" || step.offeredSet.has(t.name)) }
        : callOptions;
    const see = (part) => {
      if (typeof part.toolCallId === "string") byCall.set(part.toolCallId, step);
      const outside = step.isOutside(part.toolName);
      // A call reaches a wrapped execute unless the provider ran it, the tool has no
      // execute, or the SDK refuses it (outside the activeTools).
      const runs = !part.providerExecuted && executable.has(part.toolName) && !(outside && step.refuses && o.outsidePalette === "refuse");
      step.call({ id: part.toolCallId, name: part.toolName }, runs);
    };
    return new Proxy(model, {
      get(target, key) {
        if (key === "doGenerate") {
          return async (callOptions) => {
            const response = await target.doGenerate(narrow(callOptions));
            for (const part of toolCallsOf(response && response.content)) see(part);
            step.sealed();
            return response;
          };
        }
        if (key === "doStream" && isFunction(target.doStream)) {
          return async (callOptions) => {
            const response = await target.doStream(narrow(callOptions));
            const stream = response.stream.pipeThrough(
              new TransformStream({
                transform(part, controller) {
                  if (isObject(part) && part.type === "tool-call" && typeof part.toolName === "string") see(part);
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
    const wrapped = {};
    const names = Object.keys(tools);
    toolNames = names;
    executable = new Set(names.filter((n) => isObject(tools[n]) && isFunction(tools[n].execute)));
    for (const name of names) {
      const tool = tools[name];
      wrapped[name] = isObject(tool) && isFunction(tool.execute) ? { ...tool, execute: dispatching(name, tool) } : tool;
    }

    function dispatching(name, tool) {
      return async function execute(input, execOptions) {
        const opts = isObject(execOptions) ? execOptions : {};
        let step = (typeof opts.toolCallId === "string" && byCall.take(opts.toolCallId)) || (Array.isArray(opts.messages) && byMessages.get(opts.messages)) || null;
        if (!step) {
          if (o.router || o.policies) core.warnOnce("NO_PREPARE_STEP", "a tool ran in a step that prepareStep did not see: pass prepareStep: palette.prepareStep to generateText/streamText/ToolLoopAgent, or nothing is routed nor reported.");
          step = await core.begin({ index: -1, ctx: o.context(opts), signal: opts.abortSignal, silent: true });
        }
        const call = { name, args: input };
        if (typeof opts.toolCallId === "string") call.id = opts.toolCallId;
        const dispatch = o.policies ? o.policies.dispatch(call, step.ctx, step.palette) : null;
        step.dispatched(dispatch);
        if (dispatch && o.onDispatch) o.onDispatch(dispatch, step.ctx);
        if (!dispatch || !core.enforce || dispatch.call === dispatch.original) return tool.execute(input, execOptions);
        const targetName = dispatch.call.name;
        const target = Object.prototype.hasOwnProperty.call(tools, targetName) ? tools[targetName] : undefined;
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
 */
export function toolSearchFunction(index) {
  if (index !== undefined && !(isObject(index) && isFunction(index.search))) {
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
    return search.search(typeof query === "string" ? query : "", { limit: Math.max(1, candidates.length) }).map((hit) => hit.name);
  };
}
