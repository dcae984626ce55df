// tool-palette/langchain: the LangChain.js v1 (`langchain` createAgent) adapter.
//
//   const agent = createAgent({ model, tools, middleware: [toolPaletteMiddleware({ router, policies })] });
//
// `wrapModelCall` runs the PRE seam before every model call: the request's tools are
// narrowed to the routed palette (kept whole on a refusal or when routing is
// unavailable) and the model is swapped for the policy's model (the same instance).
// `wrapToolCall` runs the POST seam: the emitted call is dispatched through the
// policies, and a redirect executes the target tool with the rewritten arguments. No
// import of langchain: the middleware is a plain object of the documented shape.
import { readOptions, route, routedNames, selectModel, lastText, Recent, isObject, fail } from "./shared.js";

const WHERE = "tool-palette/langchain";
// The brand createMiddleware() puts on middleware objects (a registered symbol).
const MIDDLEWARE_BRAND = Symbol.for("AgentMiddleware");

const isHuman = (m) => {
  if (m.role === "user") return true;
  try {
    if (typeof m.type === "string") return m.type === "human";
    return typeof m._getType === "function" && m._getType() === "human";
  } catch {
    return false;
  }
};

/**
 * The default context: the text of the last human message, the messages, and the
 * agent's runtime context (`agent.invoke(input, { context })`). `input` is the request of
 * `wrapModelCall` (messages in `request.messages`) or of `wrapToolCall` (in
 * `request.state.messages`).
 */
export function defaultContext(request) {
  const req = isObject(request) ? request : {};
  const messages = Array.isArray(req.messages)
    ? req.messages
    : isObject(req.state) && Array.isArray(req.state.messages)
      ? req.state.messages
      : [];
  return {
    message: lastText(messages, isHuman),
    messages,
    runtimeContext: isObject(req.runtime) ? req.runtime.context : undefined,
  };
}

const toolName = (tool) => (isObject(tool) || typeof tool === "function" ? tool.name : undefined);

export function toolPaletteMiddleware(options) {
  const { router, policies, context, onRoute, onDispatch } = readOptions(options, WHERE, defaultContext);
  const name = isObject(options) && options.name != null ? options.name : "ToolPaletteMiddleware";
  if (typeof name !== "string" || name === "") throw fail(`${WHERE}: options.name`, "a non-empty string", name);
  // Tool call id → the context and outcome of the model call that emitted it, so that
  // the POST seam sees the same context object and palette as its PRE seam.
  const turns = new Recent();
  // The agent's tools by name, as the last model request carried them (before narrowing).
  let toolsByName = new Map();

  async function wrapModelCall(request, handler) {
    const ctx = context(request);
    const signal = isObject(request.runtime) ? request.runtime.signal : undefined;
    const outcome = await route(router, ctx, signal, WHERE);
    const selection = selectModel(policies, ctx);
    const active = routedNames(outcome);
    const all = Array.isArray(request.tools) ? request.tools : [];
    toolsByName = new Map(all.map((tool) => [toolName(tool), tool]));
    const next = { ...request };
    if (active !== undefined) {
      const keep = new Set(active);
      next.tools = all.filter((tool) => keep.has(toolName(tool)));
    }
    if (selection && selection.model != null) next.model = selection.model;
    if (onRoute) onRoute({ ctx, outcome, activeTools: active, selection });
    const response = await handler(next);
    const calls = isObject(response) && Array.isArray(response.tool_calls) ? response.tool_calls : [];
    for (const call of calls) if (isObject(call) && typeof call.id === "string") turns.set(call.id, { ctx, outcome });
    return response;
  }

  async function wrapToolCall(request, handler) {
    if (!policies) return handler(request);
    const call = request.toolCall;
    let turn = isObject(call) && typeof call.id === "string" ? turns.take(call.id) : undefined;
    if (!turn) {
      const ctx = context(request);
      const signal = isObject(request.runtime) ? request.runtime.signal : undefined;
      turn = { ctx, outcome: await route(router, ctx, signal, WHERE) };
    }
    const dispatch = policies.dispatch(call, turn.ctx, turn.outcome);
    if (onDispatch) onDispatch(dispatch, turn.ctx);
    if (dispatch.call === dispatch.original) return handler(request);
    // The agent's tool node runs `tool`, or looks the call's name up among the agent's tools.
    return handler({ ...request, toolCall: dispatch.call, tool: toolsByName.get(dispatch.call.name) });
  }

  return { [MIDDLEWARE_BRAND]: true, name, wrapModelCall, wrapToolCall };
}
