// The adapters' CommonJS declarations (require, .d.cts).
import palette = require("tool-palette/langchain");
import agents = require("tool-palette/openai-agents");
import core = require("tool-palette");

const router = new core.ToolRouter({ entries: () => ["a"], registered: ["a"] });
const mw: { name: string } = palette.toolPaletteMiddleware({ router, name: "palette" });
const p = agents.createToolPalette({ router });
const enabled: readonly unknown[] = p.tools([]);
void mw;
void enabled;
