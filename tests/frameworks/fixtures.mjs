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
