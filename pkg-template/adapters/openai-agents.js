// tool-palette/openai-agents: the OpenAI Agents SDK (`@openai/agents`) adapter, the SDK's hooks over the kernel. `palette.model(fallback)` routes
// each turn; a call outside the palette rejects the run before any tool of that answer runs, named as the SDK's error for an unknown tool.
// `palette.tools(list)` copies the function tools: `isEnabled` shows the run context to the model seam. No import of the SDK: its documented shapes,
// and the registered symbols under which it shares its trace context and trace provider across copies.
import { attributes, createCore, isFunctionTool, lastText } from "./kernel/core.js";
import { openaiAgentsTools } from "./kernel/tools.js";
import { fail, isFunction, isObject, NOT_JSON, tryOr } from "./kernel/values.js";

const WHERE = "tool-palette/openai-agents";
const SDK_ALS = Symbol.for("openai.agents.core.asyncLocalStorage");
const SDK_TRACE_PROVIDER = Symbol.for("openai.agents.core.traceProvider");

const traceContext = () =>
  tryOr(() => {
    const store = globalThis[SDK_ALS]?.getStore?.();
    return isObject(store) && store.active !== false && isObject(store.trace) ? store : null;
  }, null);

export class ToolOutsidePaletteError extends Error {
  constructor(message, { toolName, offered }) {
    super(message);
    Object.assign(this, { name: "ModelBehaviorError", toolName, offered });
  }
}

const userText = (items) => (typeof items === "string" ? items : lastText(items, (item) => item.role === "user"));

/** The default context: the run context when it has a string `message`; a string as the message; else a copy with the last user text. */
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
      // Tracing never fails a turn.
      tryOr(() => {
        const span = provider.createSpan({ data: { type: "custom", name: "tool-palette", data: attributes(report) } }, step.traceParent);
        span.start();
        span.end();
      });
    },
  });
  const { o } = core;
  const seen = new WeakMap(); // a run (its trace) → { runContext, agent } as isEnabled saw them
  let lastSeen = null; // the same, for a runtime without the SDK's trace context
  const runs = new WeakMap(); // a run (its trace) → { steps, message, open }
  const fallbackRun = { steps: 0, message: "", open: null };
  const wrapped = new Set(); // names of the function tools palette.tools() wrapped

  function tools(list) {
    if (!Array.isArray(list)) throw fail(`${WHERE}: tools(list)`, "an array of tools", list);
    // With skills, the load_skill tool (SPEC 9) replaces one of the same name (tool-palette/mcp's).
    const def = core.skills?.def;
    if (def) list = [...list.filter((t) => !(isFunctionTool(t) && t.name === def.name)), ...openaiAgentsTools([def], (_, args) => core.skills.load(args))];
    const ours = (t) => isFunctionTool(t) && t.name !== def?.name;
    const byName = new Map(list.filter(ours).map((t) => [t.name, t]));
    const targets = { get: (n) => byName.get(n), kind: "a function tool among the tools given to palette.tools()" };
    for (const name of byName.keys()) wrapped.add(name);
    return list.map((tool) => (ours(tool) ? copy(tool) : tool));

    function copy(tool) {
      const { name, isEnabled: own } = tool;
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
        const warning = ["NO_MODEL_SEAM", "a tool ran in a turn that palette.model() did not serve: routing and model selection happen in the agent's model, so use model: palette.model(yourModel) (or a model provider returning it)."];
        // Of the turns that emitted this call id (runs in parallel may each), the one whose answer holds this very call item.
        const item = isObject(details) ? details.toolCall : undefined;
        const step = await core.stepFor(callId, { owns: (s) => s.items?.includes(item), ctx: () => o.context({ runContext, agent: undefined }), warning });
        const args = tryOr(() => JSON.parse(input), NOT_JSON);
        if (args === NOT_JSON) return step.dispatched(null), tool.invoke(runContext, input, details); // the tool reports its own parse error
        const sent = core.dispatch(step, { name, args, ...(typeof callId === "string" && { id: callId }) }, targets);
        if (sent.refused && !step.silent) throw new Error(`${WHERE}: "${name}" is not offered this turn (offered: ${(step.offered ?? []).join(", ")}); the tool did not run.`);
        if (!sent.redirected) return tool.invoke(runContext, input, details);
        // The target parses the arguments with its own schema; the SDK attributes its output to the emitted call.
        return sent.target.invoke(runContext, JSON.stringify(sent.call.args ?? {}), details);
      }
      return { ...tool, isEnabled, invoke };
    }
  }

  async function turn(request, fallback) {
    const context = traceContext();
    const run = context ? runs.get(context.trace) ?? runs.set(context.trace, { steps: 0, message: "", open: null }).get(context.trace) : fallbackRun;
    if (run.open) run.open.finish(); // the previous turn of this run is over
    const sight = (context ? seen.get(context.trace) : lastSeen) ?? {};
    // A server-managed conversation (previousResponseId, conversationId) sends only new items: the earlier turn's message.
    const req = isObject(request) ? request : {};
    const found = userText(req.input);
    if (!context && found && found !== run.message) run.steps = 0; // no run identity: a new message is a new run
    if (found) run.message = found;
    const ctx = o.context({ request, runContext: sight.runContext, agent: sight.agent, message: found || run.message });
    const functions = Array.isArray(req.tools) ? req.tools.filter(isFunctionTool) : [];
    const step = await core.begin({ index: run.steps++, ctx, signal: req.signal, tools: functions.map((t) => t.name), route: { agent: sight.agent } });
    step.agent = sight.agent;
    step.traceParent = context ? context.span ?? context.trace : undefined;
    run.open = step;
    const chosen = step.policyModel ?? fallback;
    if (!isObject(chosen) || !isFunction(chosen.getResponse)) {
      const policy = step.policyModel !== undefined && step.selection.policy ? ` (policy "${step.selection.policy}")` : "";
      throw fail(`${WHERE}: the model for this turn${policy}`, "a Model instance (with getResponse); model names are not resolved by the adapter", chosen);
    }
    // Only function tools are narrowed (with a run: its listed ones, in its order); hosted tools and handoffs stay.
    let sent = core.enforce && (step.listed || step.offered) ? { ...request, tools: step.arrange(req.tools, isFunctionTool) } : request;
    // A server-managed conversation keeps the skills' instructions itself: sent once, after the turn's input.
    const items = typeof req.input === "string" ? [{ role: "user", content: req.input }] : req.input;
    const placed = await core.instruct(step, items, { once: Boolean(req.previousResponseId || req.conversationId) });
    if (placed) sent = { ...sent, input: placed };
    return { step, chosen, sent, functions: new Set(functions.map((t) => t.name)) };
  }

  function answered({ step, functions }, output) {
    const calls = Array.isArray(output) ? output.filter((item) => isObject(item) && item.type === "function_call") : [];
    step.items = calls;
    let refused = null;
    for (const item of calls) {
      const refuse = step.refusesCall(item.name);
      if (refuse && !refused) refused = item;
      step.call({ id: item.callId, name: item.name }, functions.has(item.name) && wrapped.has(item.name) && !refuse);
    }
    if (refused) {
      step.finish();
      const agent = isObject(step.agent) && typeof step.agent.name === "string" ? step.agent.name : "(unknown)";
      const message = `Tool ${refused.name} not found in agent ${agent}: tool-palette did not offer it this turn (offered: ${(step.offered ?? []).join(", ")}).`;
      throw new ToolOutsidePaletteError(message, { toolName: refused.name, offered: step.offered });
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

  return { tools, model, save: core.save };
}
