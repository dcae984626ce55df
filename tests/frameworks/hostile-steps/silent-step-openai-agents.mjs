// OpenAI Agents: palette.tools() without palette.model() (the adapter warns NO_MODEL_SEAM, a "silent" step). The router (reading the
// run context's message) names ["a"]; the model calls "b". On bd73cec the warning was given and "b" ran; now invoke throws on the
// silent step's gate, which was never shown to the model (the model was offered every tool), and the whole run rejects.
import { Agent, run, fakeModel, callTool, say, mkTools } from "./oa-h.mjs";
import { ToolRouter } from "tool-palette";
import { createToolPalette } from "tool-palette/openai-agents";
const ran = [], warnings = [];
const router = new ToolRouter({ registered: ["a", "b"], entries: () => ["a"] });
const p = createToolPalette({ router, onWarning: (w) => warnings.push(w.code) });
let out;
try { out = (await run(new Agent({ name: "x", tools: p.tools(mkTools(["a", "b"], ran)), model: fakeModel("m", [callTool("b", { q: "x" }), say("ok")]) }), "hi")).finalOutput; }
catch (e) { out = "REJECTED: " + e.message.slice(0, 140); }
console.log("warnings", warnings, "ran", JSON.stringify(ran), "run:", out);
console.log(ran.length === 1 ? "PASS" : "FAIL");
