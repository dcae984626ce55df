// The adapters' CommonJS declarations (require, .d.cts).
import palette = require("tool-palette/langchain");
import agents = require("tool-palette/openai-agents");
import sdk = require("tool-palette/ai-sdk");
import core = require("tool-palette");

const router = new core.ToolRouter({ entries: () => ["a"], registered: ["a"] });
const mw: { name: string } = palette.toolPaletteMiddleware({ router, name: "palette", onDecision: (r) => r.step });
const p = agents.createToolPalette({ router, mode: "shadow" });
const enabled: readonly unknown[] = p.tools([]);
const reports: sdk.StepReport[] = [];
const q = sdk.createToolPalette({ router, alwaysInclude: ["a"], onDecision: (r) => reports.push(r) });
const event: "tool_palette_step" = palette.CUSTOM_EVENT;
void mw;
void enabled;
void q;
void event;
