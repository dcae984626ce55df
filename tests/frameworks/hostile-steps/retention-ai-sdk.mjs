// Run with: node --expose-gc r5-ai-recent-retention.mjs
// 40 generations in sequence through one palette; each model (ids reused, as mocks and some local servers do) emits "call-1" to a
// tool the SDK refuses (not offered), then stops. Nothing is executed, so nothing is taken out of Recent. On bd73cec an id kept one
// step (the newest); now each id keeps 16, so 16 generations' contexts (their whole message arrays) stay reachable per reused id.
import { generateText, stepCountIs, scripted, callResp, textResp, mkTools } from "./ai-h.mjs";
import { createToolPalette } from "tool-palette/ai-sdk";
const refs = [];
const p = createToolPalette({ router: () => ({ kind: "routed", names: ["b"], unresolved: [] }), context: (input) => { const ctx = { message: "hi", big: new Array(1e5).fill(0) }; refs.push(new WeakRef(ctx)); return ctx; } });
for (let g = 0; g < 40; g++) await generateText({ model: scripted([callResp([["a", { q: "x" }, "call-1"]]), textResp()]), prompt: "hi " + g, tools: p.wrapTools(mkTools(["a", "b"], [])), prepareStep: p.prepareStep, stopWhen: stepCountIs(3) });
await new Promise((r) => setTimeout(r, 10)); globalThis.gc(); await new Promise((r) => setTimeout(r, 10)); globalThis.gc();
const alive = refs.filter((r) => r.deref() !== undefined).length;
console.log("contexts made", refs.length, "still reachable", alive);
console.log(alive > 2 ? "FAIL" : "PASS");
