// tool-palette/ai-sdk, two generations in parallel (one palette): A's model emits the call id c1 twice, B's once; each execute runs through its own
// generation's step (a step keeps its second entry of an id when the first is taken), and both steps are reported.
import * as core from "tool-palette";
import * as ai from "tool-palette/ai-sdk";
const REG = ["web_search", "sql_query", "calendar", "send_email"];
const router = (ctx) => core.resolvePalette({ entries: async () => (/web/.test(ctx.message) ? ["web_search"] : ["sql_query"]), registered: REG });
const reports = [];
const p = ai.createToolPalette({ router, onDecision: (r) => reports.push(`${r.step}:${r.offered}:${r.outside.map((o) => o.name)}`), onWarning: () => {} });
const ran = [];
const tools = p.wrapTools(Object.fromEntries(REG.map((n) => [n, { description: n, inputSchema: {}, execute: async (i) => (ran.push(n), n) }])));
const gen = async (msg, calls) => {
  const messages = [{ role: "user", content: msg }];
  const r = await p.prepareStep({ model: { doGenerate: async () => ({ content: calls.map(([id, name]) => ({ type: "tool-call", toolCallId: id, toolName: name, input: "{}" })) }) }, messages, initialMessages: messages, stepNumber: 0, steps: [] });
  await r.model.doGenerate({ tools: r.activeTools.map((name) => ({ type: "function", name })) });
  return messages;
};
const mA = await gen("search the web", [["c1", "web_search"], ["c1", "web_search"]]);
const mB = await gen("query the db", [["c1", "sql_query"]]);
const out = [];
for (const [name, m] of [["web_search", mA], ["web_search", mA], ["sql_query", mB]]) {
  try { await tools[name].execute({}, { toolCallId: "c1", messages: m }); out.push(`RAN ${name}`); } catch (e) { out.push(`THREW ${name}: ${e.message}`); }
}
const want = ["RAN web_search", "RAN web_search", "RAN sql_query"];
console.log(JSON.stringify(out), JSON.stringify(reports));
console.log(JSON.stringify(out) === JSON.stringify(want) && reports.length === 2 ? "PASS" : "FAIL");
