// The adapters' declarations against the frameworks' own types (import, node16 resolution).
import { generateText, stepCountIs, tool, type LanguageModel } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { Agent, Runner, run, tool as agentTool, type Model } from "@openai/agents";
import { createAgent, tool as lcTool } from "langchain";
import { z } from "zod";
import { ToolPolicies, ToolRouter, resolvePalette, type RouterOutcome } from "tool-palette";
import { createToolPalette, type AiSdkContext } from "tool-palette/ai-sdk";
import { createToolPalette as agentsPalette, ToolOutsidePaletteError } from "tool-palette/openai-agents";
import { toolPaletteMiddleware, type LangChainContext } from "tool-palette/langchain";

const registered = ["web_search", "sql_query"];
const router = new ToolRouter({ entries: async () => ["web_search"], registered });
const model = new MockLanguageModelV3();
const policies = new ToolPolicies<AiSdkContext, LanguageModel>([
  { name: "p", match: (ctx) => ctx.message.includes("sales"), redirectTo: "sql_query", model },
]);

// AI SDK
const tools = {
  web_search: tool({ inputSchema: z.object({ q: z.string() }), execute: async ({ q }) => q }),
  sql_query: tool({ inputSchema: z.object({ query: z.string() }), execute: async ({ query }) => query }),
};
const palette = createToolPalette({
  router,
  policies,
  onRoute: (r) => r.stepNumber,
  onDecision: (report) => console.log(JSON.stringify(report), report.routing?.rows.map((row) => row.fate), report.outside.map((c) => c.refused)),
  mode: "shadow",
  alwaysInclude: ["web_search"],
  outsidePalette: "allow",
  tracing: true,
  onWarning: (w) => console.warn(w.code),
});
const wrapped: typeof tools = palette.wrapTools(tools);
await generateText({ model, tools: wrapped, prepareStep: palette.prepareStep, stopWhen: stepCountIs(3), prompt: "x" });
const perTurn = createToolPalette({
  router: (ctx: AiSdkContext, { signal, onDecision }): Promise<RouterOutcome> =>
    resolvePalette({ entries: async () => [ctx.message], registered, signal, onDecision }),
});
void perTurn;

// OpenAI Agents
declare const fallback: Model;
const agents = agentsPalette({ router, policies: new ToolPolicies<{ message: string }, Model>([]) });
const agent = new Agent({
  name: "a",
  model: agents.model(fallback),
  tools: agents.tools([agentTool({ name: "web_search", description: "d", parameters: z.object({ q: z.string() }), execute: async () => "r" })]),
});
await new Runner({ modelProvider: { getModel: () => agents.model(fallback) } }).run(agent, "x", { context: { message: "x" } });
await run(agent, "x");
try {
  await run(agent, "y");
} catch (e) {
  if (e instanceof ToolOutsidePaletteError) console.log(e.name, e.toolName, e.offered);
}

// LangChain
const middleware = toolPaletteMiddleware<LangChainContext>({
  router,
  policies: new ToolPolicies<LangChainContext>([]),
  onDecision: (report) => report.dispatches.forEach((d) => d.redirectedBy),
});
createAgent({
  model: "openai:gpt-5",
  tools: [lcTool(async () => "r", { name: "web_search", description: "d", schema: z.object({ q: z.string() }) })],
  middleware: [middleware],
});
