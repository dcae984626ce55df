// The scenario every framework test plays: four registered tools, a procedural layer
// that names the tools a turn needs, and one policy: sales questions are answered by a
// dedicated model, and their web searches are redirected to the SQL tool.
export const REGISTERED = ["web_search", "sql_query", "calendar", "send_email"];
export const SALES = "What were our sales in March?";
export const SMALL_TALK = "Tell me a joke about calendars";

/** The policies, built with the package instance `core` (ESM or CommonJS). */
export function salesPolicies(core, { model, warnings = [], seen = [] } = {}) {
  return new core.ToolPolicies(
    [
      new core.ToolCallPolicy({
        name: "sales-questions-use-sql",
        match: (ctx) => {
          seen.push(ctx);
          return /sales|revenue/i.test(ctx.message);
        },
        whenTool: "web_search",
        redirectTo: "sql_query",
        argsTransform: (args) => ({ query: `SELECT total FROM sales WHERE period = '${args.q}'` }),
        model,
      }),
    ],
    { onWarning: (w) => warnings.push(w) },
  );
}

/** A ToolRouter whose store answers `rows` (counting its calls in `calls.n`). */
export function router(core, rows, calls = { n: 0 }) {
  return new core.ToolRouter({
    entries: async () => {
      calls.n++;
      return rows;
    },
    registered: REGISTERED,
  });
}

/** A per-turn resolver: the skills depend on the message (the router option's function form). */
export function messageRouter(core, calls = { n: 0 }) {
  return (ctx) =>
    core.resolvePalette({
      entries: async () => {
        calls.n++;
        return /sales/i.test(ctx.message) ? ["web_search", "sql_query"] : /calendar/i.test(ctx.message) ? ["calendar"] : [];
      },
      registered: REGISTERED,
    });
}

/** A ToolRouter built once whose store searches on the turn's message: entries(ctx). */
export function contextRouter(core, calls = { n: 0 }) {
  return new core.ToolRouter({
    entries: async (ctx) => {
      calls.n++;
      return /sales/i.test(ctx.message) ? ["web_search", "sql_query"] : /calendar/i.test(ctx.message) ? ["calendar"] : [];
    },
    registered: REGISTERED,
  });
}

/**
 * Every SPEC outcome as a router of the package instance `core`: the routed turn, each
 * refusal (1, 2a, 2b, 3, 4, 5) and RoutingUnavailable. `offered` is what the model is
 * offered (`null`: every tool), `hidden` what it is not.
 */
export function specCases(core) {
  const registered = REGISTERED;
  const store = (rows) => new core.ToolRouter({ entries: async () => rows, registered });
  return [
    { rule: "routed", router: store(["web_search", { tool: "sql_query" }, "a skill about prose"]), offered: ["web_search", "sql_query"], hidden: ["calendar", "send_email"] },
    // Refusal 1 is a resolvePalette without a procedural layer: a function router, which
    // passes onDecision on.
    { rule: "1", router: (ctx, { signal, onDecision }) => core.resolvePalette({ entries: null, registered, signal, onDecision }), offered: null, hidden: [] },
    {
      rule: "2a",
      router: new core.ToolRouter({
        entries: async () => {
          throw new TypeError("store down");
        },
        registered,
      }),
      offered: null,
      hidden: [],
    },
    { rule: "2b", router: new core.ToolRouter({ entries: () => new Promise(() => {}), registered, timeoutMs: 5 }), offered: null, hidden: [] },
    { rule: "3", router: store([]), offered: null, hidden: [] },
    { rule: "4", router: store([{ tool: "calendar", active: false }]), offered: null, hidden: [] },
    { rule: "5", router: store(["not_a_tool"]), offered: null, hidden: [] },
    { rule: "unavailable", router: new core.ToolRouter({ registered, onWarning: () => {} }), offered: null, hidden: [] },
  ];
}

/** A ToolRouter whose store names the tools `byMessage(message)` returns: entries(ctx). */
export function routerOn(core, byMessage, calls = { n: 0 }) {
  return new core.ToolRouter({
    entries: async (ctx) => {
      calls.n++;
      return byMessage(ctx?.message ?? "");
    },
    registered: REGISTERED,
  });
}

/** The reports' JSON: one line each, and what JSON.parse gives back. */
export function asJson(report) {
  const line = JSON.stringify(report);
  if (line.includes("\n")) throw new Error("a report must log as one line");
  return JSON.parse(line);
}

// What an AI SDK mock model answers (ai/test, LanguageModelV3): a tool call, or text.
export const aiUsage = { inputTokens: { total: 3, noCache: 3, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 2, text: 2, reasoning: 0 } };
export const aiToolCall = (toolName, input, id) => ({
  content: [{ type: "tool-call", toolCallId: id, toolName, input: JSON.stringify(input) }],
  finishReason: { unified: "tool-calls", raw: "tool_calls" },
  usage: aiUsage,
  warnings: [],
});
export const aiText = (t) => ({ content: [{ type: "text", text: t }], finishReason: { unified: "stop", raw: "stop" }, usage: aiUsage, warnings: [] });
