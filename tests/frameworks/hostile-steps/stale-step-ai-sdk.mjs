// One generation, a mock model that reuses toolCallId "call-1" every step. Step 0 offers only "b"; the model calls "a" (the SDK
// refuses it: not in activeTools), so call-1 stays in the kernel's Recent with step 0. Step 1 offers "a"; the model calls "a" as
// call-1 again. The host's prepareStep returns messages (pruning, as the AI SDK documents), so the SDK hands execute a copy
// and the `also` clue finds nothing: Recent.take falls back to the OLDEST step (step 0), which refuses "a".
import { generateText, stepCountIs, scripted, callResp, textResp, mkTools } from "./ai-h.mjs";
import { createToolPalette } from "tool-palette/ai-sdk";
const ran = [], reports = [];
// step 0: ["b"]; later steps: ["a"] (by the count of messages)
const router = (ctx) => ({ kind: "routed", names: ctx.messages.length <= 1 ? ["b"] : ["a"], unresolved: [] });
const p = createToolPalette({ router, onDecision: (r) => reports.push(r) });
const host = process.argv[2] !== "plain";
const prepareStep = host ? async (input) => ({ ...(await p.prepareStep(input)), messages: input.messages }) : p.prepareStep;
const r = await generateText({
  model: scripted([callResp([["a", { q: "x" }, "call-1"]]), callResp([["a", { q: "y" }, "call-1"]]), textResp()]),
  prompt: "hi", tools: p.wrapTools(mkTools(["a", "b"], ran)), prepareStep, stopWhen: stepCountIs(4),
});
const errs = r.steps.map((s) => s.content.filter((c) => c.type === "tool-error").map((c) => String(c.error?.message ?? c.error).slice(0, 90)));
console.log("host prepareStep returns messages:", host);
console.log("ran", JSON.stringify(ran), "errors per step", JSON.stringify(errs));
console.log("reports", reports.map((x) => `step ${x.step} offered=${x.offered} dispatches=${x.dispatches.map((d) => d.call.name)}`));
console.log(ran.length === 1 && ran[0][1].q === "y" ? "PASS" : "FAIL");
