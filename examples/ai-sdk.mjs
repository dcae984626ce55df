// tool-palette with the Vercel AI SDK (ai 7): routed tools and a policy model per step,
// a redirect at tool execution, and one report per step (logged as one JSON line).
// Offline: the models are the SDK's own mocks.
//
//   npm install && npm run build && node examples/ai-sdk.mjs
//
// In your project, import from the package instead of ../dist:
//   import { ToolRouter, ToolPolicies } from "tool-palette";   (see scenario.mjs)
//   import { createToolPalette } from "tool-palette/ai-sdk";
// and use real models (e.g. openai("gpt-5") from @ai-sdk/openai) in place of the mocks.
import { generateText, stepCountIs, tool } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { z } from "zod";
import { salesRouting } from "./scenario.mjs";
import { createToolPalette } from "../dist/adapters/ai-sdk.js";

// Mock models: each answers from a script (a tool call, then text).
const usage = { inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 5, text: 5, reasoning: 0 } };
const callTool = (toolName, input) => ({
  content: [{ type: "tool-call", toolCallId: `call-${toolName}`, toolName, input: JSON.stringify(input) }],
  finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage, warnings: [],
});
const say = (text) => ({ content: [{ type: "text", text }], finishReason: { unified: "stop", raw: "stop" }, usage, warnings: [] });
const generalModel = new MockLanguageModelV3({ modelId: "general-model", doGenerate: [callTool("calendar", { day: "friday" }), say("Friday is free.")] });
const analyticsModel = new MockLanguageModelV3({ modelId: "analytics-model", doGenerate: [callTool("web_search", { q: "2026-03" }), say("March sales were 42 units.")] });

// The registered tools.
const tools = {
  web_search: tool({ description: "Search the web", inputSchema: z.object({ q: z.string() }), execute: async ({ q }) => `web results for ${q}` }),
  sql_query: tool({ description: "Query the sales database", inputSchema: z.object({ query: z.string() }), execute: async ({ query }) => `1 row: total=42 (${query})` }),
  calendar: tool({ description: "Read the calendar", inputSchema: z.object({ day: z.string() }), execute: async ({ day }) => `${day}: no meetings` }),
  send_email: tool({ description: "Send an email", inputSchema: z.object({ to: z.string() }), execute: async ({ to }) => `sent to ${to}` }),
};
for (const [name, t] of Object.entries(tools)) {
  const run = t.execute;
  t.execute = async (input, options) => (console.log(`  executed:   ${name} ${JSON.stringify(input)}`), run(input, options));
}

const { router, policies } = salesRouting(Object.keys(tools), analyticsModel);

// One line per model step: what was routed (and why), what the model was offered, which
// model answered, and where each call went.
const palette = createToolPalette({
  router,
  policies,
  onDecision: (report) => console.log(`  report: ${JSON.stringify(report)}`),
});

for (const prompt of ["What were our sales in March?", "Am I free on Friday? Check my calendar."]) {
  console.log(`user: ${prompt}`);
  const result = await generateText({
    model: generalModel,
    prompt,
    stopWhen: stepCountIs(5),
    tools: palette.wrapTools(tools),
    prepareStep: palette.prepareStep,
  });
  console.log(`  answered by: ${[...new Set(result.steps.map((s) => s.model?.modelId ?? s.response.modelId))].join(", ")}`);
  console.log(`  answer:     ${result.text}\n`);
}
