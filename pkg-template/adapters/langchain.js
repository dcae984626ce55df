// tool-palette/langchain: the LangChain.js v1 (`langchain` createAgent) adapter.
//
//   const agent = createAgent({ model, tools, middleware: [toolPaletteMiddleware({ router, policies })] });
//
// `wrapModelCall` runs before every model call: it routes on the call's context (by
// default the last human message), narrows the request's tools with the package's
// bindPalette and swaps in the policy's model (the same instance). `wrapToolCall` runs
// every emitted call: a call outside the palette is answered, as the agent answers a call
// to an unknown tool, by an error ToolMessage listing the tools the model was offered; any
// other call is dispatched through the policies, and a redirect executes the target tool
// while the ToolMessage stays the emitted call's (its id and name).
//
// Each model call is reported to `onDecision` once its calls are dispatched (see
// shared.js), and, with `tracing` (default), to the run's LangChain callbacks as a custom
// event "tool_palette_step" (`handleCustomEvent`; LangSmith records it on the run). No
// import of langchain: the middleware is a plain object of the documented shape.
import { createCore, attributes, lastText, Recent, isObject, isFunction, fail, nameOf, read } from "./shared.js";

const WHERE = "tool-palette/langchain";
// The brand createMiddleware() puts on middleware objects (a registered symbol).
const MIDDLEWARE_BRAND = Symbol.for("AgentMiddleware");
// Where @langchain/core keeps the running config (its AsyncLocalStorage, shared through
// registered symbols so that several copies of the library agree).
const LC_ALS = Symbol.for("ls:tracing_async_local_storage");
const LC_CONFIG = Symbol.for("lc:child_config");
export const CUSTOM_EVENT = "tool_palette_step";

const typeOf = (m) => {
  try {
    if (typeof m.type === "string") return m.type;
    if (typeof m.role === "string") return m.role === "user" ? "human" : m.role === "assistant" ? "ai" : m.role;
    return typeof m._getType === "function" ? m._getType() : undefined;
  } catch {
    return undefined;
  }
};
const isHuman = (m) => typeOf(m) === "human";

/**
 * The default context: `{ message, messages, runtimeContext }`. `message` is the
 * runtime context's `message` when the agent was invoked with one
 * (`agent.invoke(input, { context: { message } })`), else the text of the last human
 * message. `request` is the request of `wrapModelCall` (messages in `request.messages`) or
 * of `wrapToolCall` (in `request.state.messages`).
 */
export function defaultContext(request) {
  const req = isObject(request) ? request : {};
  const messages = Array.isArray(req.messages)
    ? req.messages
    : isObject(req.state) && Array.isArray(req.state.messages)
      ? req.state.messages
      : [];
  const runtimeContext = isObject(req.runtime) ? req.runtime.context : undefined;
  const given = isObject(runtimeContext) && typeof runtimeContext.message === "string" ? runtimeContext.message : undefined;
  return { message: given ?? lastText(messages, isHuman), messages, runtimeContext };
}

// The step within the turn: the model calls since the last human message.
function stepIndex(messages) {
  let n = 0;
  if (!Array.isArray(messages)) return n;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (!isObject(m)) continue;
    const type = typeOf(m);
    if (type === "human") break;
    if (type === "ai") n++;
  }
  return n;
}

// The running LangChain config's callback manager, when there is one.
async function customEvent(data) {
  let manager;
  try {
    const config = globalThis[LC_ALS]?.getStore?.()?.extra?.[LC_CONFIG];
    manager = isObject(config) ? config.callbacks : undefined;
  } catch {
    return;
  }
  if (!isObject(manager) || !isFunction(manager.handleCustomEvent) || !isFunction(manager.getParentRunId)) return;
  const runId = manager.getParentRunId();
  if (runId !== undefined) await manager.handleCustomEvent(CUSTOM_EVENT, data, runId);
}

export function toolPaletteMiddleware(options) {
  const pendingEvents = new WeakMap(); // step → its custom event (awaited by the seam that finished it)
  const core = createCore(options, WHERE, defaultContext, {
    trace: (report, step) => pendingEvents.set(step, customEvent(attributes(report)).catch(() => {})),
  });
  const { o } = core;
  const name = (options === undefined ? undefined : read(options, "name", `${WHERE}: options.name`)) ?? "ToolPaletteMiddleware";
  if (typeof name !== "string" || name === "") throw fail(`${WHERE}: options.name`, "a non-empty string", name);
  const byCall = new Recent(); // tool call id → step
  const open = new Set(); // steps waiting for their calls

  // The custom event of a step this seam finished, delivered within the seam's run.
  const delivered = async (step) => {
    const pending = step && pendingEvents.get(step);
    if (pending) {
      pendingEvents.delete(step);
      await pending;
    }
  };

  async function wrapModelCall(request, handler) {
    const messages = Array.isArray(request.messages) ? request.messages : [];
    // A step whose answer is in this call's messages is over (its calls ran or never will).
    for (const step of open) {
      if (step.done) open.delete(step);
      else if (messages.some((m) => m === step.response || (step.response && step.response.id != null && isObject(m) && m.id === step.response.id))) {
        open.delete(step);
        step.finish();
        await delivered(step);
      }
    }
    const ctx = o.context(request);
    const signal = isObject(request.runtime) ? request.runtime.signal : undefined;
    const all = Array.isArray(request.tools) ? request.tools : [];
    const names = all.map(nameOf).filter((n) => typeof n === "string");
    const step = await core.begin({ index: stepIndex(messages), ctx, signal, tools: names });
    step.byName = new Map(all.map((tool) => [nameOf(tool), tool]));
    const next = { ...request };
    if (core.enforce) {
      const offered = step.narrow(all);
      if (offered !== all) next.tools = offered;
      if (step.selection && step.selection.model != null) next.model = step.selection.model;
    }
    step.visible = (next.tools ?? all).map(nameOf).filter((n) => typeof n === "string");
    if (o.onRoute) o.onRoute({ ctx, outcome: step.outcome, activeTools: step.offered ? [...step.offered] : undefined, selection: step.selection });
    const response = await handler(next);
    const calls = isObject(response) && Array.isArray(response.tool_calls) ? response.tool_calls : [];
    for (const call of calls) {
      if (!isObject(call)) continue;
      if (typeof call.id === "string") byCall.set(call.id, step);
      // The agent's tool node runs every call through wrapToolCall.
      step.call({ id: call.id, name: call.name }, true);
    }
    step.response = response;
    step.sealed();
    if (!step.done) open.add(step);
    await delivered(step);
    return response;
  }

  async function wrapToolCall(request, handler) {
    const call = request.toolCall;
    let step = isObject(call) && typeof call.id === "string" ? byCall.take(call.id) : undefined;
    if (!step) {
      const signal = isObject(request.runtime) ? request.runtime.signal : undefined;
      step = await core.begin({ index: -1, ctx: o.context(request), signal, silent: true });
    }
    // A call outside the palette, or to a name that is no tool at all, is refused naming the offered tools only.
    if (isObject(call) && step.refusesCall(call.name)) {
      step.dispatched(null);
      await delivered(step);
      return refuse(request, handler, call, step);
    }
    if (!o.policies) {
      step.dispatched(null);
      await delivered(step);
      return handler(request);
    }
    const dispatch = o.policies.dispatch(call, step.ctx, step.palette);
    step.dispatched(dispatch);
    await delivered(step);
    if (o.onDispatch) o.onDispatch(dispatch, step.ctx);
    if (!core.enforce || dispatch.call === dispatch.original) return handler(request);
    // The agent's tool node runs `tool`, or looks the call's name up among the agent's tools.
    const result = await handler({ ...request, toolCall: dispatch.call, tool: step.byName ? step.byName.get(dispatch.call.name) : undefined });
    // The result answers the emitted call: its id (kept by the dispatch) and its name.
    if (isObject(result) && "tool_call_id" in result && result.name !== call.name) result.name = call.name;
    return result;
  }

  // As the agent answers a call to an unknown tool: an error ToolMessage listing the tools
  // the model was offered. The framework builds the message (a tool that answers with it).
  async function refuse(request, handler, call, step) {
    const offered = step.offered ?? step.visible ?? [];
    const content = `Error: ${call.name} is not a valid tool, try one of [${offered.join(", ")}].`;
    const answer = { name: call.name, description: "refused by tool-palette", invoke: async () => content };
    const message = await handler({ ...request, tool: answer });
    if (isObject(message) && "tool_call_id" in message) message.status = "error";
    return message;
  }

  return { [MIDDLEWARE_BRAND]: true, name, wrapModelCall, wrapToolCall };
}
