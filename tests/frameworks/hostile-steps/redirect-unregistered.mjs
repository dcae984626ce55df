// A policy redirects "a" to "ghost", a tool the framework does not have. SPEC 4 (lines 201-206): the palette gate runs last;
// "a refusal or RoutingUnavailable or no palette means every registered tool passes", else "the redirect is dropped with a
// warning and the original call dispatches". On a routed step the adapters do that; on a step whose routing refused
// (every tool), the emitted call fails instead, and the report says it went to "ghost" with dropped: null.
import { generateText, stepCountIs, scripted, callResp, textResp, mkTools } from "./ai-h.mjs";
import { Agent, run, fakeModel, callTool, say, mkTools as oaTools } from "./oa-h.mjs";
import { HumanMessage, createAgent, fakeModel as lcModel, mkTools as lcTools } from "./lc-h.mjs";
import { ToolRouter, ToolPolicies } from "tool-palette";
import * as ai from "tool-palette/ai-sdk";
import * as oa from "tool-palette/openai-agents";
import { toolPaletteMiddleware } from "tool-palette/langchain";

const mkPolicies = (warnings) => new ToolPolicies([{ name: "p", match: () => true, whenTool: "a", redirectTo: "ghost" }], { onWarning: (w) => warnings.push(w.message) });
const results = {};
for (const routeTo of [["a"], []]) {
  const label = routeTo.length ? "routed" : "refused";
  // AI SDK
  { const ran = [], warnings = [], reports = [];
    const router = new ToolRouter({ registered: ["a", "b"], entries: () => routeTo });
    const p = ai.createToolPalette({ router, policies: mkPolicies(warnings), onDecision: (r) => reports.push(r) });
    const r = await generateText({ model: scripted([callResp([["a", { q: "x" }, "id-1"]]), textResp()]), prompt: "hi", tools: p.wrapTools(mkTools(["a", "b"], ran)), prepareStep: p.prepareStep, stopWhen: stepCountIs(3) });
    const err = r.steps[0].content.find((c) => c.type === "tool-error");
    results[`ai-sdk ${label}`] = { ran: ran.map((x) => x[0]), error: err ? String(err.error.message).slice(0, 80) : null, warnings: warnings.length, dropped: reports[0].dispatches[0].dropped?.target ?? null }; }
  // OpenAI Agents
  { const ran = [], warnings = [], reports = [];
    const router = new ToolRouter({ registered: ["a", "b"], entries: () => routeTo });
    const p = oa.createToolPalette({ router, policies: mkPolicies(warnings), onDecision: (r) => reports.push(r) });
    let error = null;
    try { await run(new Agent({ name: "x", tools: p.tools(oaTools(["a", "b"], ran)), model: p.model(fakeModel("m", [callTool("a", { q: "x" }), say("ok")])) }), "hi"); } catch (e) { error = e.message.slice(0, 80); }
    results[`openai-agents ${label}`] = { ran: ran.map((x) => x[0]), error, warnings: warnings.length, dropped: reports[0]?.dispatches[0]?.dropped?.target ?? null }; }
  // LangChain
  { const ran = [], warnings = [], reports = [];
    const router = new ToolRouter({ registered: ["a", "b"], entries: () => routeTo });
    const agent = createAgent({ model: lcModel([{ name: "a", args: { q: "x" } }, "done"]), tools: lcTools(["a", "b"], ran), middleware: [toolPaletteMiddleware({ router, policies: mkPolicies(warnings), onDecision: (r) => reports.push(r) })] });
    const res = await agent.invoke({ messages: [new HumanMessage("hi")] });
    const tm = res.messages.find((m) => m._getType() === "tool");
    results[`langchain ${label}`] = { ran: ran.map((x) => x[0]), error: tm.status === "error" ? String(tm.content).slice(0, 80) : null, warnings: warnings.length, dropped: reports[0].dispatches[0].dropped?.target ?? null }; }
}
for (const [k, v] of Object.entries(results)) console.log(k.padEnd(24), JSON.stringify(v));
const ok = Object.values(results).every((v) => v.ran.join() === "a" && v.error === null && v.warnings === 1 && v.dropped === "ghost");
console.log(ok ? "PASS" : "FAIL");
