// What the three examples share: a skill store searched with each turn's message (a
// ToolRouter built once; the adapters hand it the turn's context), and one policy: sales
// questions are answered by the analytics model, and their web searches become SQL.
import { ToolRouter, ToolPolicies } from "../dist/node.mjs";

const skills = async ({ message }) =>
  /sales|revenue/i.test(message) ? ["web_search", "sql_query"] : /calendar|free/i.test(message) ? ["calendar"] : [];

export function salesRouting(registered, analyticsModel) {
  const router = new ToolRouter({ entries: skills, registered, timeoutMs: 250 });
  const policies = new ToolPolicies([{
    name: "sales-questions-use-sql",
    match: (ctx) => /sales|revenue/i.test(ctx.message),
    whenTool: "web_search",
    redirectTo: "sql_query",
    argsTransform: (args) => ({ query: `SELECT SUM(units) FROM sales WHERE month = '${args.q}'` }),
    model: analyticsModel,
  }]);
  return { router, policies };
}
