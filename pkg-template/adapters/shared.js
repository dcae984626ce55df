// Helpers shared by the framework adapters (tool-palette/ai-sdk, /openai-agents,
// /langchain). Internal: not a subpath export.
//
// The adapters never import tool-palette itself nor any framework. They read the
// documented shapes only: an outcome's `kind` and `names`, a router's `resolve()`, a
// policy set's `selectModel()` and `dispatch()`. So they work with the ESM and the
// CommonJS instances of the package alike, and with any framework version that keeps
// those shapes.

const isObject = (v) => typeof v === "object" && v !== null;
const isFunction = (v) => typeof v === "function";
const describe = (v) =>
  v === null ? "null" : Array.isArray(v) ? "an array" : typeof v === "object" ? "an object" : typeof v;

export function fail(where, what, value) {
  return new TypeError(`${where} must be ${what}, got ${describe(value)}`);
}

// The options every adapter takes: router, policies, context, onRoute, onDispatch.
export function readOptions(options, where, defaultContext) {
  if (options === undefined) options = {};
  if (!isObject(options)) throw fail(`${where}: options`, "an object", options);
  const { router, policies, context, onRoute, onDispatch } = options;
  if (router != null && !isFunction(router) && !(isObject(router) && isFunction(router.resolve))) {
    throw fail(`${where}: options.router`, "a ToolRouter or a function (ctx, { signal }) => outcome", router);
  }
  if (policies != null && !(isObject(policies) && isFunction(policies.selectModel) && isFunction(policies.dispatch))) {
    throw fail(`${where}: options.policies`, "a ToolPolicies", policies);
  }
  for (const [key, value] of [["context", context], ["onRoute", onRoute], ["onDispatch", onDispatch]]) {
    if (value != null && !isFunction(value)) throw fail(`${where}: options.${key}`, "a function", value);
  }
  return {
    router: router ?? null,
    policies: policies ?? null,
    context: context ?? defaultContext,
    onRoute: onRoute ?? null,
    onDispatch: onDispatch ?? null,
  };
}

// This turn's outcome: a ToolRouter is asked `resolve({ signal, context })`; a function is a
// per-turn resolver given the context (for stores that search on the user's message).
// No router means no routing: `undefined`, which every seam reads as "every tool".
export async function route(router, ctx, signal, where) {
  if (router == null) return undefined;
  // A ToolRouter's procedural layer receives the turn's context: entries(ctx).
  const outcome = isFunction(router) ? await router(ctx, { signal }) : await router.resolve(signal ? { signal, context: ctx } : { context: ctx });
  const kind = isObject(outcome) ? outcome.kind : undefined;
  if (kind !== "routed" && kind !== "refused" && kind !== "unavailable") {
    throw fail(`${where}: the router's outcome`, "a Routed, RoutingRefusal or RoutingUnavailable", outcome);
  }
  return outcome;
}

// The routed names (a new array), or `undefined` for "every tool", as activeTools() does.
export function routedNames(outcome) {
  return outcome !== undefined && outcome.kind === "routed" ? [...outcome.names] : undefined;
}

// The PRE seam: { model, source, policy }, or null without policies.
export function selectModel(policies, ctx) {
  return policies ? policies.selectModel(ctx) : null;
}

// Validates redirected arguments against a Standard Schema (zod 3.25+/4, valibot, arktype…)
// when the target tool's schema is one; otherwise they pass as they are.
export async function validateArgs(schema, args, toolName, where) {
  const standard = isObject(schema) || isFunction(schema) ? schema["~standard"] : undefined;
  if (!isObject(standard) || !isFunction(standard.validate)) return args;
  const result = await standard.validate(args);
  if (result && result.issues) {
    const detail = result.issues.map((i) => i && i.message).filter(Boolean).join("; ");
    throw new TypeError(`${where}: the redirected arguments do not match the input schema of "${toolName}"${detail ? `: ${detail}` : ""}`);
  }
  return result ? result.value : args;
}

// The text of a message whose content is a string or an array of text parts.
export function textOf(content) {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  let text = "";
  for (const part of content) {
    if (typeof part === "string") text += part;
    else if (isObject(part) && typeof part.text === "string") text += part.text;
  }
  return text;
}

// The text of the last message for which `isUser` holds, or "".
export function lastText(messages, isUser, contentOf = (m) => m.content) {
  if (!Array.isArray(messages)) return "";
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (isObject(m) && isUser(m)) return textOf(contentOf(m));
  }
  return "";
}

// A small bounded map: remembers the turn of the last `limit` tool calls by their id.
export class Recent {
  #map = new Map();
  #limit;
  constructor(limit = 1024) {
    this.#limit = limit;
  }
  set(key, value) {
    this.#map.delete(key);
    this.#map.set(key, value);
    if (this.#map.size > this.#limit) this.#map.delete(this.#map.keys().next().value);
  }
  take(key) {
    const value = this.#map.get(key);
    this.#map.delete(key);
    return value;
  }
}

export { isObject, isFunction };
