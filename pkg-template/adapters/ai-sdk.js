// tool-palette/ai-sdk: the Vercel AI SDK (`ai` 7) adapter.
//
//   const palette = createToolPalette({ router, policies });
//   await generateText({ model, tools: palette.wrapTools(tools), prepareStep: palette.prepareStep, stopWhen });
//
// `prepareStep` runs the PRE seam before every step: it asks the router for this step's
// palette (returned as `activeTools`; omitted on a refusal or when routing is
// unavailable, which the AI SDK reads as "every tool") and asks the policies which model
// reasons (returned as `model`, the policy's own instance; omitted for the default).
// `wrapTools` runs the POST seam around every `execute`: the emitted call is dispatched
// through the policies, and a redirect runs the target tool's `execute` with the
// rewritten arguments. No import of `ai`: only its documented shapes.
import { readOptions, route, routedNames, selectModel, validateArgs, lastText, isObject, isFunction, fail } from "./shared.js";

const WHERE = "tool-palette/ai-sdk";

/**
 * The default context: the text of the last user message, and the messages.
 * `input` is the options of `prepareStep` (or, for a tool call whose step was not seen,
 * the options of `execute`); both carry `messages` (ModelMessage[]).
 */
export function defaultContext(input) {
  const messages = isObject(input) && Array.isArray(input.messages) ? input.messages : [];
  return { message: lastText(messages, (m) => m.role === "user"), messages };
}

export function createToolPalette(options) {
  const { router, policies, context, onRoute, onDispatch } = readOptions(options, WHERE, defaultContext);
  // The messages array of a step → the context and outcome of that step. The AI SDK
  // hands `execute` the very messages the step sent to the model, so the POST seam sees
  // the same context object and palette as the PRE seam of its step.
  const steps = new WeakMap();

  async function prepareStep(input) {
    const ctx = context(input);
    const outcome = await route(router, ctx, undefined, WHERE);
    const selection = selectModel(policies, ctx);
    if (isObject(input) && Array.isArray(input.messages)) steps.set(input.messages, { ctx, outcome });
    const active = routedNames(outcome);
    const result = {};
    if (active !== undefined) result.activeTools = active;
    if (selection && selection.model != null) result.model = selection.model;
    if (onRoute) {
      onRoute({ ctx, outcome, activeTools: active, selection, stepNumber: isObject(input) ? input.stepNumber : undefined });
    }
    return result;
  }

  function wrapTools(tools) {
    if (!isObject(tools) || Array.isArray(tools)) throw fail(`${WHERE}: wrapTools(tools)`, "a record of tools keyed by name", tools);
    const wrapped = {};
    for (const name of Object.keys(tools)) {
      const tool = tools[name];
      wrapped[name] = isObject(tool) && isFunction(tool.execute) ? { ...tool, execute: dispatching(name, tool) } : tool;
    }

    function dispatching(name, tool) {
      return async function execute(input, execOptions) {
        const opts = isObject(execOptions) ? execOptions : {};
        let step = Array.isArray(opts.messages) ? steps.get(opts.messages) : undefined;
        if (!step) {
          const ctx = context(opts);
          step = { ctx, outcome: await route(router, ctx, opts.abortSignal, WHERE) };
        }
        if (!policies) return tool.execute(input, execOptions);
        const call = { name, args: input };
        if (typeof opts.toolCallId === "string") call.id = opts.toolCallId;
        const dispatch = policies.dispatch(call, step.ctx, step.outcome);
        if (onDispatch) onDispatch(dispatch, step.ctx);
        if (dispatch.call === dispatch.original) return tool.execute(input, execOptions);
        const targetName = dispatch.call.name;
        const target = Object.prototype.hasOwnProperty.call(tools, targetName) ? tools[targetName] : undefined;
        if (!isObject(target) || !isFunction(target.execute)) {
          throw new Error(
            `${WHERE}: "${name}" was redirected to "${targetName}"${dispatch.redirectedBy ? ` by policy "${dispatch.redirectedBy}"` : ""}, ` +
              "which is not a tool with an execute function among the tools given to wrapTools",
          );
        }
        const args = await validateArgs(target.inputSchema, dispatch.call.args, targetName, WHERE);
        return target.execute(args, execOptions);
      };
    }
    return wrapped;
  }

  return { prepareStep, wrapTools };
}
