// Two agent.invoke() run in parallel through one middleware; each fake model emits a tool call with id "call-0" (the ids of
// LangChain's fake models, unique only within one conversation). Expected: each call is dispatched with its own step's
// palette and context (A: weather, offered; B: search, redirected to sql for a sales question).
import { HumanMessage, createAgent, fakeModel, mkTools } from "./lc-h.mjs";
import { ToolRouter, ToolPolicies } from "tool-palette";
import { toolPaletteMiddleware } from "tool-palette/langchain";
const ran = [], reports = [];
const tools = mkTools(["weather", "search", "sql"], ran);
const router = new ToolRouter({ registered: tools.map((t) => t.name), entries: (ctx) => (ctx.message.includes("weather") ? ["weather"] : ["search", "sql"]) });
const policies = new ToolPolicies([{ name: "sales", match: (c) => c.message.includes("sales"), whenTool: "search", redirectTo: "sql" }]);
const mw = toolPaletteMiddleware({ router, policies, onDecision: (r) => reports.push(r), onWarning: (w) => reports.push({ warning: w.code }) });
const A = createAgent({ model: fakeModel([{ name: "weather", args: { q: "x" } }, "done"]), tools, middleware: [mw] });
const B = createAgent({ model: fakeModel([{ name: "search", args: { q: "x" } }, "done"]), tools, middleware: [mw] });
const [ra, rb] = await Promise.all([A.invoke({ messages: [new HumanMessage("what is the weather")] }), B.invoke({ messages: [new HumanMessage("sales of march")] })]);
const tm = (r) => r.messages.filter((m) => m._getType() === "tool").map((m) => [m.name, m.status, String(m.content).slice(0, 60)]);
console.log("A", JSON.stringify(tm(ra)), "\nB", JSON.stringify(tm(rb)), "\nran", JSON.stringify(ran.map((r) => r[0])));
console.log("reports", reports.map((r) => r.warning ?? `step ${r.step} offered=${r.offered} dispatches=${r.dispatches.map((d) => d.original.name + "->" + d.call.name)}`));
const ok = JSON.stringify(ran.map((r) => r[0]).sort()) === JSON.stringify(["sql", "weather"]);
console.log(ok ? "PASS" : "FAIL");
