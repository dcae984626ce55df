// LangChain middleware, cache "append": one model answer emits two calls with the same id (a model may). Each runs through that step: both tools
// were sent to the model, neither is refused, the router is asked once per model call (no silent step), and the step is reported once both ran.
import * as core from "tool-palette";
import { toolPaletteMiddleware } from "tool-palette/langchain";
const REG = ["web_search", "sql_query", "calendar", "send_email"];
let routerCalls = 0;
const reports = [];
const router = (ctx) => (routerCalls++, core.resolvePalette({ entries: async () => (/web/.test(ctx.message) ? ["web_search"] : ["sql_query"]), registered: REG }));
const mw = toolPaletteMiddleware({ router, cache: "append", onWarning: () => {}, onDecision: (r) => reports.push(r) });
const tool = (name) => ({ name, description: name });
const h1 = { type: "human", content: "search the web" };
const r1 = { type: "ai", id: "r1", content: "hi" };
await mw.wrapModelCall({ messages: [h1], tools: REG.map(tool) }, async () => r1);
const h2 = { type: "human", content: "query the database" };
const r2 = { type: "ai", id: "r2", content: "", tool_calls: [{ id: "c1", name: "sql_query", args: {} }, { id: "c1", name: "web_search", args: {} }] };
let sent = null;
await mw.wrapModelCall({ messages: [h1, r1, h2], tools: REG.map(tool) }, async (req) => ((sent = req.tools.map((t) => t.name)), r2));
const out = [];
for (const call of r2.tool_calls) {
  const r = await mw.wrapToolCall({ toolCall: call, state: { messages: [h1, r1, h2, r2] } }, async (req) => ({ tool_call_id: call.id, content: req.tool?.description === "refused by tool-palette" ? `REFUSED ${call.name}` : `RAN ${call.name}` }));
  out.push(r.content);
}
const second = reports.find((r) => r.step === 0 && r.listed.length === 2);
const got = { sent, out, routerCalls, reported: second !== undefined };
const want = { sent: ["web_search", "sql_query"], out: ["RAN sql_query", "RAN web_search"], routerCalls: 2, reported: true };
console.log(JSON.stringify(got));
console.log(JSON.stringify(got) === JSON.stringify(want) ? "PASS" : "FAIL");
