// tool-palette/langchain: the LangChain.js v1 (`langchain` createAgent) middleware, LangChain's hooks over the kernel. A call outside the palette
// gets, as a call to an unknown tool does, an error ToolMessage. No import of langchain: the middleware is a plain object of the documented shape.
import { attributes, contextOf, createCore } from "./kernel/core.js";
import { userMessage } from "./kernel/skills.js";
import { fail, isFunction, isObject, nameOf, tryOr } from "./kernel/values.js";

const WHERE = "tool-palette/langchain";
// The brand createMiddleware() puts on middleware objects (a registered symbol).
const MIDDLEWARE_BRAND = Symbol.for("AgentMiddleware");
// Where @langchain/core keeps the running config (its AsyncLocalStorage, shared by registered symbols across copies).
const LC_ALS = Symbol.for("ls:tracing_async_local_storage");
const LC_CONFIG = Symbol.for("lc:child_config");
export const CUSTOM_EVENT = "tool_palette_step";

const typeOf = (m) =>
  tryOr(() => {
    if (typeof m.type === "string") return m.type;
    if (typeof m.role === "string") return m.role === "user" ? "human" : m.role === "assistant" ? "ai" : m.role;
    return typeof m._getType === "function" ? m._getType() : undefined;
  });

export function defaultContext(request) {
  const req = isObject(request) ? request : {};
  const messages = Array.isArray(req.messages) ? req.messages : isObject(req.state) && Array.isArray(req.state.messages) ? req.state.messages : [];
  return contextOf(messages, isObject(req.runtime) ? req.runtime.context : undefined, (m) => typeOf(m) === "human");
}

// The step within the turn: the model calls since the last human message.
function stepIndex(messages) {
  let n = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    const type = isObject(messages[i]) ? typeOf(messages[i]) : undefined;
    if (type === "human") break;
    if (type === "ai") n++;
  }
  return n;
}

// Whether the model's answer of `step` is among `messages` (the same message, or one of its id).
const answeredIn = (step, messages) => messages.some((m) => m === step.response || (isObject(step.response) && step.response.id != null && isObject(m) && m.id === step.response.id));

// A custom event to the running LangChain config's callback manager, when there is one.
async function customEvent(data) {
  const config = tryOr(() => globalThis[LC_ALS]?.getStore?.()?.extra?.[LC_CONFIG]);
  const manager = tryOr(() => (isObject(config) ? config.callbacks : undefined));
  if (!isObject(manager) || !isFunction(manager.handleCustomEvent) || !isFunction(manager.getParentRunId)) return;
  const runId = manager.getParentRunId();
  if (runId !== undefined) await manager.handleCustomEvent(CUSTOM_EVENT, data, runId);
}

export function toolPaletteMiddleware(options) {
  const pendingEvents = new WeakMap(); // step → its custom event (awaited by the seam that finished it)
  const core = createCore(options, WHERE, defaultContext, { extra: ["name"], trace: (report, step) => pendingEvents.set(step, customEvent(attributes(report)).catch(() => {})) });
  const { o } = core;
  const name = o.name ?? "ToolPaletteMiddleware";
  if (typeof name !== "string" || name === "") throw fail(`${WHERE}: options.name`, "a non-empty string", name);
  const open = new Set(); // steps waiting for their calls

  // The custom event of a step this seam finished, delivered within the seam's run.
  const delivered = async (step) => {
    const pending = step && pendingEvents.get(step);
    if (pending) await (pendingEvents.delete(step), pending);
  };

  async function wrapModelCall(request, handler) {
    const messages = Array.isArray(request.messages) ? request.messages : [];
    // A step whose answer is in this call's messages is over (its calls ran or never will).
    for (const step of open) {
      if (step.done) open.delete(step);
      else if (answeredIn(step, messages)) {
        open.delete(step);
        step.finish();
        await delivered(step);
      }
    }
    // The load_skill tool (SPEC 9) as an OpenAI-format definition; its name (not sent: not enumerable) keeps it in the run's listed order.
    const def = core.skills?.def;
    const given = Array.isArray(request.tools) ? request.tools : [];
    const skillTool = def && Object.defineProperty({ type: "function", function: { name: def.name, description: def.description, parameters: def.inputSchema } }, "name", { value: def.name });
    const all = def ? [...given.filter((t) => nameOf(t) !== def.name), skillTool] : given;
    const signal = isObject(request.runtime) ? request.runtime.signal : undefined;
    const names = all.map(nameOf).filter((n) => typeof n === "string");
    const step = await core.begin({ index: stepIndex(messages), ctx: o.context(request), signal, tools: names });
    step.byName = new Map(all.map((tool) => [nameOf(tool), tool]));
    const next = all === given ? { ...request } : { ...request, tools: all };
    if (core.enforce) {
      const offered = step.arrange(all);
      if (offered !== all) next.tools = offered;
      if (step.policyModel !== undefined) next.model = step.policyModel;
    }
    // The skills' instructions as human messages of the host's class.
    const Human = messages.find((m) => typeOf(m) === "human")?.constructor;
    const make = (text) => (isFunction(Human) && Human !== Object ? new Human({ content: text }) : userMessage(text));
    const placed = await core.instruct(step, messages, { said: (m) => (isObject(m) && typeOf(m) === "human" && typeof m.content === "string" ? m.content : undefined), make });
    if (placed) next.messages = placed;
    step.visible = (next.tools ?? all).map(nameOf).filter((n) => typeof n === "string");
    const response = await handler(next);
    // The agent's tool node runs every call through wrapToolCall.
    for (const call of isObject(response) && Array.isArray(response.tool_calls) ? response.tool_calls : []) if (isObject(call)) step.call({ id: call.id, name: call.name }, true);
    step.response = response;
    step.sealed();
    if (!step.done) open.add(step);
    await delivered(step);
    return response;
  }

  async function wrapToolCall(request, handler) {
    const call = request.toolCall;
    // Of the steps that emitted this call id (agents in parallel may each), the one whose answer is in this call's state.
    const messages = isObject(request.state) && Array.isArray(request.state.messages) ? request.state.messages : [];
    const owns = (step) => answeredIn(step, messages);
    const step = await core.stepFor(isObject(call) ? call.id : undefined, { owns, ctx: () => o.context(request), signal: isObject(request.runtime) ? request.runtime.signal : undefined });
    const def = core.skills?.def;
    if (def && isObject(call) && call.name === def.name) {
      step.dispatched(null);
      await delivered(step);
      return handler({ ...request, tool: { name: def.name, description: def.description, invoke: (toolCall) => core.skills.load(toolCall?.args) } });
    }
    const sent = isObject(call) ? core.dispatch(step, call) : (step.dispatched(null), {});
    await delivered(step);
    if (sent.refused) return refuse(request, handler, call, step);
    if (!sent.redirected) return handler(request);
    // The agent's tool node runs `tool`, or looks the call's name up among the agent's tools.
    const result = await handler({ ...request, toolCall: sent.call, tool: step.byName ? step.byName.get(sent.call.name) : undefined });
    // The result answers the emitted call: its id (kept by the dispatch) and its name.
    if (isObject(result) && "tool_call_id" in result && result.name !== call.name) result.name = call.name;
    return result;
  }

  async function refuse(request, handler, call, step) {
    const content = `Error: ${call.name} is not a valid tool, try one of [${(step.offered ?? step.visible ?? []).join(", ")}].`;
    const message = await handler({ ...request, tool: { name: call.name, description: "refused by tool-palette", invoke: async () => content } });
    if (isObject(message) && "tool_call_id" in message) message.status = "error";
    return message;
  }

  return { [MIDDLEWARE_BRAND]: true, name, wrapModelCall, wrapToolCall, save: core.save };
}
