// LangChain: a (mock) model reusing toolCallId "call-1" every step. Step 0 (palette ["b"]) calls "b" twice (call-0, call-1); a
// toolCallLimitMiddleware blocks the second (an error ToolMessage, the tool node never sees it), so call-1 stays in Recent with step 0.
// Step 1 (palette ["a"]) calls "a" as call-1 again. The `owns` clue (answeredIn: the step's answer is in state.messages) holds for
// BOTH steps (step 0's answer is in the history too) and take() picks the first: step 0, whose palette refuses "a".
import { AIMessage, HumanMessage, createAgent, mkTools } from "./lc-h.mjs";
import { FakeBuiltModel } from "@langchain/core/testing";
import { toolCallLimitMiddleware } from "langchain";
import { toolPaletteMiddleware } from "tool-palette/langchain";
const ran = [], reports = [];
const model = new FakeBuiltModel();
const call = (name, i, extra = []) => new AIMessage({ content: "", id: "m-" + i, tool_calls: [...extra, { name, args: { q: "x" + i }, id: "call-1", type: "tool_call" }] });
model.respond(call("b", 0, [{ name: "b", args: { q: "first" }, id: "call-0", type: "tool_call" }])); model.respond(call("a", 1)); model.respond(new AIMessage({ content: "done", id: "m-2" }));
const router = (ctx) => ({ kind: "routed", names: ctx.messages.length <= 1 ? ["b"] : ["a"], unresolved: [] });
const agent = createAgent({ model, tools: mkTools(["a", "b"], ran), middleware: [toolPaletteMiddleware({ router, onDecision: (r) => reports.push(r) }), toolCallLimitMiddleware({ toolName: "b", runLimit: 1 })] });
const res = await agent.invoke({ messages: [new HumanMessage("hi")] });
const tools = res.messages.filter((m) => m._getType() === "tool").map((m) => `${m.name}:${m.status}:${String(m.content).slice(0, 60)}`);
console.log("ran", JSON.stringify(ran)); console.log("tool messages", tools);
console.log("reports", reports.map((x) => `step ${x.step} offered=${x.offered} dispatches=${x.dispatches.length}`));
console.log(ran.some((r) => r[0] === "a") ? "PASS" : "FAIL");
