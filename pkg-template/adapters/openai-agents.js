// tool-palette/openai-agents: the OpenAI Agents SDK (`@openai/agents`) adapter.
//
//   const palette = createToolPalette({ router, policies });
//   const agent = new Agent({ name, tools: palette.tools(tools), model: palette.model(defaultModel) });
//   await run(agent, message);
//
// Each turn is decided where the turn's input is: `palette.model(fallback)` is the
// agent's Model, and before every model call it routes on the turn's context (by default
// the last user item of the request's input; a run context you pass as
// `run(agent, input, { context })` is used too, and its own `message` wins), sends the
// model only the offered function tools, and lets the policy's model (a Model instance)
// answer, else `fallback`. A call the model makes to a function tool it was not offered is
// refused as the SDK refuses a tool it does not know: the run rejects with an error named
// "ModelBehaviorError" ("Tool … not found in agent …"), before any tool of that answer runs.
// `palette.tools(list)` returns copies of the function tools whose `invoke` runs the policies
// (a redirect invokes the target; the SDK attributes the output to the emitted call, its id
// and name) and whose `isEnabled` lets the model seam see the run context.
//
// Each turn is reported to `onDecision` once its calls are dispatched (see shared.js), and,
// with `tracing` (default), as a custom span "tool-palette" in the run's trace. No import of
// the SDK: only its documented shapes (FunctionTool, RunContext, Model) and the registered
// symbols under which it shares its trace context and trace provider across copies.
import { createCore, attributes, lastText, Recent, isObject, isFunction, fail } from "./shared.js";

const WHERE = "tool-palette/openai-agents";
const SDK_ALS = Symbol.for("openai.agents.core.asyncLocalStorage");
const SDK_TRACE_PROVIDER = Symbol.for("openai.agents.core.traceProvider");

// The SDK's current trace context: `{ trace, span }` of the run being served, if any.
function traceContext() {
  try {
    const store = globalThis[SDK_ALS]?.getStore?.();
    return isObject(store) && store.active !== false && isObject(store.trace) ? store : null;
  } catch {
    return null;
  }
}

/** Raised for a call to a function tool the turn did not offer; named as the SDK's error. */
export class ToolOutsidePaletteError extends Error {
  constructor(message, { toolName, offered }) {
    super(message);
    this.name = "ModelBehaviorError";
    this.toolName = toolName;
    this.offered = offered;
  }
}

const userText = (items) => (typeof items === "string" ? items : lastText(items, (item) => item.role === "user"));

/**
 * The default context. `input` is `{ request, runContext, agent, message }` at the model
 * seam (the run context and agent as the SDK last showed them to the tools of this run;
 * `message` the last user text of the request's input, or of an earlier turn of the run
 * when a server-managed conversation sends only new items) and `{ runContext, agent }` at a
 * tool seam the model seam did not serve.
 * - your run context, when it has a string `message`, is the context (you win);
 * - a string run context is the message: `{ message }`;
 * - otherwise `message` is the text of the last user item of the request's input, added
 *   to a copy of your run context object (the SDK's default run context is `{}`).
 */
export function defaultContext(input) {
  const given = isObject(input) && isObject(input.runContext) ? input.runContext.context : undefined;
  if (isObject(given) && typeof given.message === "string") return given;
  if (typeof given === "string") return { message: given };
  const request = isObject(input) ? input.request : undefined;
  const message = isObject(input) && typeof input.message === "string" ? input.message : isObject(request) ? userText(request.input) : "";
  return isObject(given) ? { ...given, message } : { message };
}

export function createToolPalette(options) {
  const core = createCore(options, WHERE, defaultContext, {
    // A custom span in the run's trace, under the span that was current at the model seam.
    trace(report, step) {
      const provider = globalThis[SDK_TRACE_PROVIDER];
      if (!isObject(provider) || !isFunction(provider.createSpan)) return;
      try {
        const span = provider.createSpan({ data: { type: "custom", name: "tool-palette", data: attributes(report) } }, step.traceParent);
        span.start();
        span.end();
      } catch {
        // tracing never fails a turn
      }
    },
  });
  const { o } = core;
  const seen = new WeakMap(); // a run (its trace) → { runContext, agent } as isEnabled saw them
  let lastSeen = null; // the same, for a runtime without the SDK's trace context
  const runs = new WeakMap(); // a run (its trace) → { steps, message, open }
  const fallbackRun = { steps: 0, message: "", open: null };
  const byCall = new Recent(); // callId → step
  const wrapped = new Set(); // names of the function tools palette.tools() wrapped

  function tools(list) {
    if (!Array.isArray(list)) throw fail(`${WHERE}: tools(list)`, "an array of tools", list);
    const byName = new Map();
    for (const tool of list) if (isObject(tool) && tool.type === "function") byName.set(tool.name, tool);
    for (const name of byName.keys()) wrapped.add(name);
    return list.map((tool) => (isObject(tool) && tool.type === "function" ? copy(tool) : tool));

    function copy(tool) {
      const name = tool.name;
      const own = tool.isEnabled;
      async function isEnabled(runContext, agent) {
        const sight = { runContext, agent };
        const context = traceContext();
        if (context) seen.set(context.trace, sight);
        lastSeen = sight;
        if (own === false) return false;
        return isFunction(own) ? Boolean(await own(runContext, agent)) : true;
      }
      async function invoke(runContext, input, details) {
        const callId = isObject(details) && isObject(details.toolCall) ? details.toolCall.callId : undefined;
        let step = typeof callId === "string" ? byCall.take(callId) : undefined;
        if (!step) {
          if (o.router || o.policies) {
            core.warnOnce("NO_MODEL_SEAM", "a tool ran in a turn that palette.model() did not serve: routing and model selection happen in the agent's model, so use model: palette.model(yourModel) (or a model provider returning it).");
          }
          step = await core.begin({ index: -1, ctx: o.context({ runContext, agent: undefined }), silent: true });
        }
        let args;
        try {
          args = JSON.parse(input);
        } catch {
          step.dispatched(null);
          return tool.invoke(runContext, input, details); // the tool reports its own parse error
        }
        const call = { name, args };
        if (typeof callId === "string") call.id = callId;
        const dispatch = o.policies ? o.policies.dispatch(call, step.ctx, step.palette) : null;
        step.dispatched(dispatch);
        if (dispatch && o.onDispatch) o.onDispatch(dispatch, step.ctx);
        if (!dispatch || !core.enforce || dispatch.call === dispatch.original) return tool.invoke(runContext, input, details);
        const target = byName.get(dispatch.call.name);
        if (!target) {
          throw new Error(
            `${WHERE}: "${name}" was redirected to "${dispatch.call.name}"${dispatch.redirectedBy ? ` by policy "${dispatch.redirectedBy}"` : ""}, ` +
              "which is not a function tool among the tools given to palette.tools()",
          );
        }
        // The target parses and validates the arguments with its own schema; the SDK
        // attributes its output to the emitted call (its callId and name).
        return target.invoke(runContext, JSON.stringify(dispatch.call.args ?? {}), details);
      }
      return { ...tool, isEnabled, invoke };
    }
  }

  // Routes the turn of `request` and picks its model.
  async function turn(request, fallback) {
    const context = traceContext();
    const run = context ? runs.get(context.trace) ?? runs.set(context.trace, { steps: 0, message: "", open: null }).get(context.trace) : fallbackRun;
    if (run.open) run.open.finish(); // the previous turn of this run is over
    const sight = (context ? seen.get(context.trace) : lastSeen) ?? {};
    // A server-managed conversation (previousResponseId, conversationId) sends only the
    // new items: the run's message is then the one of its earlier turn.
    const req = isObject(request) ? request : {};
    const found = userText(req.input);
    if (!context && found && found !== run.message) run.steps = 0; // no run identity: a new message is a new run
    if (found) run.message = found;
    const ctx = o.context({ request, runContext: sight.runContext, agent: sight.agent, message: found || run.message });
    const functions = Array.isArray(req.tools) ? req.tools.filter((t) => isObject(t) && t.type === "function") : [];
    const step = await core.begin({ index: run.steps++, ctx, signal: req.signal, tools: functions.map((t) => t.name) });
    step.agent = sight.agent;
    step.traceParent = context ? context.span ?? context.trace : undefined;
    run.open = step;
    if (o.onRoute) o.onRoute({ ctx, outcome: step.outcome, activeTools: step.offered ? [...step.offered] : undefined, selection: step.selection, agent: sight.agent });
    const policyModel = core.enforce && step.selection && step.selection.model != null ? step.selection.model : undefined;
    const chosen = policyModel ?? fallback;
    if (!isObject(chosen) || !isFunction(chosen.getResponse)) {
      throw fail(
        `${WHERE}: the model for this turn${policyModel !== undefined && step.selection.policy ? ` (policy "${step.selection.policy}")` : ""}`,
        "a Model instance (with getResponse); model names are not resolved by the adapter",
        chosen,
      );
    }
    // Only function tools are narrowed: hosted tools and handoffs stay as the agent has them.
    let sent = request;
    if (core.enforce && step.listed) {
      // A run's listed tools, in its order (options.cache).
      sent = { ...request, tools: step.arrange(req.tools, (t) => isObject(t) && t.type === "function") };
    } else if (core.enforce && step.offered) {
      const kept = new Set(step.narrow(functions));
      sent = { ...request, tools: req.tools.filter((t) => !isObject(t) || t.type !== "function" || kept.has(t)) };
    }
    return { step, chosen, sent, functions: new Set(functions.map((t) => t.name)) };
  }

  // The calls of the model's answer: recorded, and a call outside the palette refused.
  function answered({ step, functions }, output) {
    const calls = Array.isArray(output) ? output.filter((item) => isObject(item) && item.type === "function_call") : [];
    let refused = null;
    for (const item of calls) {
      if (typeof item.callId === "string") byCall.set(item.callId, step);
      const refuse = step.refusesCall(item.name);
      if (refuse && !refused) refused = item;
      step.call({ id: item.callId, name: item.name }, functions.has(item.name) && wrapped.has(item.name) && !refuse);
    }
    if (refused) {
      step.finish();
      const agent = isObject(step.agent) && typeof step.agent.name === "string" ? step.agent.name : "(unknown)";
      throw new ToolOutsidePaletteError(
        `Tool ${refused.name} not found in agent ${agent}: tool-palette did not offer it this turn (offered: ${(step.offered ?? []).join(", ")}).`,
        { toolName: refused.name, offered: step.offered },
      );
    }
    step.sealed();
  }

  function model(fallback) {
    return {
      async getResponse(request) {
        const t = await turn(request, fallback);
        const response = await t.chosen.getResponse(t.sent);
        answered(t, isObject(response) ? response.output : undefined);
        return response;
      },
      async *getStreamedResponse(request) {
        const t = await turn(request, fallback);
        for await (const event of t.chosen.getStreamedResponse(t.sent)) {
          if (isObject(event) && event.type === "response_done") answered(t, isObject(event.response) ? event.response.output : undefined);
          yield event;
        }
      },
    };
  }

  return { tools, model };
}
