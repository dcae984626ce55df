// Two generations run in parallel through one palette; the (mock) model of each emits a call with the same toolCallId "call-1".
import { generateText, tool, stepCountIs, jsonSchema } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { ToolRouter, ToolPolicies } from "tool-palette";
import { createToolPalette } from "tool-palette/ai-sdk";

const ran = [];
let open; const gate = new Promise((r) => (open = r)); setTimeout(() => open(), 30);
const mk = (n) => tool({ description: n, inputSchema: jsonSchema({ type: "object", properties: { q: { type: "string" } } }), execute: async (i) => { ran.push(n); return n + " ran"; } });
const tools = { weather: mk("weather"), sql: mk("sql"), search: mk("search") };
const router = new ToolRouter({ registered: Object.keys(tools), entries: (ctx) => (ctx.message.includes("weather") ? ["weather"] : ["search", "sql"]) });
// A policy that redirects "search" to "sql" only for sales questions.
const policies = new ToolPolicies([{ name: "sales", match: (c) => c.message.includes("sales"), whenTool: "search", redirectTo: "sql" }]);
const reports = [];
const palette = createToolPalette({ router, policies, onDecision: (r) => reports.push(r), onWarning: (w) => reports.push({ warning: w.code }) });
const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
const model = (toolName, delay) => {
  let n = 0;
  return new MockLanguageModelV3({
    doGenerate: async () => {
      await gate;
      if (n++ === 0) return { content: [{ type: "tool-call", toolCallId: "call-1", toolName, input: JSON.stringify({ q: "x" }) }], finishReason: { unified: "tool-calls", raw: undefined }, usage, warnings: [] };
      return { content: [{ type: "text", text: "done" }], finishReason: { unified: "stop", raw: undefined }, usage, warnings: [] };
    },
  });
};
// A: a weather question, model calls weather (offered). B: a sales question, model calls search (offered; redirected to sql).
const [a, b] = await Promise.all([
  generateText({ model: model("weather", 5), prompt: "what is the weather", tools: palette.wrapTools(tools), prepareStep: palette.prepareStep, stopWhen: stepCountIs(3) }),
  generateText({ model: model("search", 20), prompt: "sales of march", tools: palette.wrapTools(tools), prepareStep: palette.prepareStep, stopWhen: stepCountIs(3) }),
]);
const resA = a.steps[0].toolResults.map((r) => [r.toolName, r.output]);
const resB = b.steps[0].toolResults.map((r) => [r.toolName, r.output]);
console.log("A results", JSON.stringify(resA), "errors", JSON.stringify(a.steps[0].content.filter(p=>p.type==="tool-error").map(p=>String(p.error?.message ?? p.error))));
console.log("B results", JSON.stringify(resB), "errors", JSON.stringify(b.steps[0].content.filter(p=>p.type==="tool-error").map(p=>String(p.error?.message ?? p.error))));
console.log("ran", ran);
console.log("reports", reports.map((r) => r.warning ?? `step ${r.step} offered=${r.offered} dispatches=${r.dispatches.map((d) => d.original.name + "->" + d.call.name)}`));
const ok = JSON.stringify(resA) === JSON.stringify([["weather", "weather ran"]]) && JSON.stringify(resB) === JSON.stringify([["search", "sql ran"]]) && reports.filter(r=>!r.warning).length === 4;
console.log(ok ? "PASS" : "FAIL");
