// tool-palette/openai-agents: the OpenAI Agents SDK (`@openai/agents`) adapter.
//
//   const palette = createToolPalette({ router, policies });
//   const agent = new Agent({ name, instructions, tools: palette.tools([search, sql]) });
//   await run(agent, message, { context: { message } });
//
// `tools(list)` returns copies of the function tools whose `isEnabled` is gated by the
// routed palette (resolved once per turn and run, when the SDK asks the first tool of
// the turn) and whose `invoke` runs the POST seam: a redirect invokes the target tool
// with the rewritten arguments. `model(fallback)` is a Model whose every turn is served
// by the policy's model, or by `fallback`. No import of the SDK: only its documented
// shapes (FunctionTool, RunContext, Model).
import { readOptions, route, routedNames, selectModel, lastText, isObject, isFunction, fail } from "./shared.js";

const WHERE = "tool-palette/openai-agents";

/**
 * The default context. At the tool seams (`isEnabled`, `invoke`) the SDK gives the
 * adapter `{ runContext, agent }`: the context is the object you passed as
 * `run(agent, input, { context })` (so pass `{ message }` there), or `{ message }` when you
 * passed a string. At the model seam the SDK gives `{ request }` (a ModelRequest and no
 * run context): the context is `{ message }`, the text of the last user item of
 * `request.input`.
 */
export function defaultContext(input) {
  if (isObject(input) && input.runContext !== undefined) {
    const given = isObject(input.runContext) ? input.runContext.context : undefined;
    if (isObject(given)) return given;
    return { message: typeof given === "string" ? given : "" };
  }
  const request = isObject(input) ? input.request : undefined;
  const items = isObject(request) ? request.input : undefined;
  if (typeof items === "string") return { message: items };
  return { message: lastText(items, (item) => item.role === "user") };
}

export function createToolPalette(options) {
  const { router, policies, context, onRoute, onDispatch } = readOptions(options, WHERE, defaultContext);
  // Per run (its RunContext) and agent: the current turn. The SDK asks every function
  // tool's isEnabled once per turn, so a tool asked a second time means a new turn.
  const runs = new WeakMap();
  const fallbackRun = {};

  function turnOf(runContext, agent, toolName) {
    const key = isObject(runContext) ? runContext : fallbackRun;
    let run = runs.get(key);
    if (!run) runs.set(key, (run = { agents: new Map(), last: null }));
    let turn = run.agents.get(agent);
    if (!turn || turn.asked.has(toolName)) {
      const ctx = context({ runContext, agent });
      turn = { ctx, asked: new Set(), outcome: undefined, ready: null };
      turn.ready = route(router, ctx, undefined, WHERE).then((outcome) => {
        turn.outcome = outcome;
        const active = routedNames(outcome);
        turn.names = active === undefined ? null : new Set(active);
        if (onRoute) onRoute({ ctx, outcome, activeTools: active, agent });
        return turn;
      });
      run.agents.set(agent, turn);
    }
    turn.asked.add(toolName);
    run.last = turn;
    return turn.ready;
  }

  function tools(list) {
    if (!Array.isArray(list)) throw fail(`${WHERE}: tools(list)`, "an array of tools", list);
    const byName = new Map();
    for (const tool of list) if (isObject(tool) && tool.type === "function") byName.set(tool.name, tool);
    return list.map((tool) => (isObject(tool) && tool.type === "function" ? gated(tool) : tool));

    function gated(tool) {
      const name = tool.name;
      const own = tool.isEnabled;
      async function isEnabled(runContext, agent) {
        if (isFunction(own) && !(await own(runContext, agent))) return false;
        if (own === false) return false;
        const turn = await turnOf(runContext, agent, name);
        return turn.names === null || turn.names.has(name);
      }
      async function invoke(runContext, input, details) {
        if (!policies) return tool.invoke(runContext, input, details);
        const run = runs.get(isObject(runContext) ? runContext : fallbackRun);
        let ctx, outcome;
        if (run && run.last) {
          ({ ctx, outcome } = await run.last.ready);
        } else {
          ctx = context({ runContext, agent: undefined });
          outcome = await route(router, ctx, undefined, WHERE);
        }
        let args;
        try {
          args = JSON.parse(input);
        } catch {
          return tool.invoke(runContext, input, details); // the tool reports its own parse error
        }
        const call = { name, args };
        const callId = isObject(details) && isObject(details.toolCall) ? details.toolCall.callId : undefined;
        if (typeof callId === "string") call.id = callId;
        const dispatch = policies.dispatch(call, ctx, outcome);
        if (onDispatch) onDispatch(dispatch, ctx);
        if (dispatch.call === dispatch.original) return tool.invoke(runContext, input, details);
        const target = byName.get(dispatch.call.name);
        if (!target) {
          throw new Error(
            `${WHERE}: "${name}" was redirected to "${dispatch.call.name}"${dispatch.redirectedBy ? ` by policy "${dispatch.redirectedBy}"` : ""}, ` +
              "which is not a function tool among the tools given to palette.tools()",
          );
        }
        // The target parses and validates the arguments with its own schema.
        return target.invoke(runContext, JSON.stringify(dispatch.call.args ?? {}), details);
      }
      return { ...tool, isEnabled, invoke };
    }
  }

  function model(fallback) {
    const pick = (request) => {
      const ctx = context({ request });
      const selection = selectModel(policies, ctx);
      const chosen = selection && selection.model != null ? selection.model : fallback;
      if (!isObject(chosen) || !isFunction(chosen.getResponse)) {
        throw fail(
          `${WHERE}: the model for this turn${selection && selection.policy ? ` (policy "${selection.policy}")` : ""}`,
          "a Model instance (with getResponse); model names are not resolved by the adapter",
          chosen,
        );
      }
      return chosen;
    };
    return {
      getResponse(request) {
        return pick(request).getResponse(request);
      },
      getStreamedResponse(request) {
        return pick(request).getStreamedResponse(request);
      },
    };
  }

  return { tools, model };
}
