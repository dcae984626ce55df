// tool-palette with the OpenAI Agents SDK (@openai/agents): each turn the model is offered
// only the routed tools, a policy picks the model, a redirect runs at tool invocation, and
// each turn is reported (logged as one JSON line). Offline: the models are scripted fakes.
//
//   npm install && npm run build && node examples/openai-agents.mjs
//
// In your project, import from the package instead of ../dist:
//   import { ToolRouter, ToolPolicies } from "tool-palette";   (see scenario.mjs)
//   import { createToolPalette } from "tool-palette/openai-agents";
// and wrap a real model, e.g. palette.model(new OpenAIResponsesModel(client, "gpt-5")).
import { Agent, Usage, run, setTracingDisabled, tool } from "@openai/agents";
import { z } from "zod";
import { salesRouting } from "./scenario.mjs";
import { createToolPalette } from "../dist/adapters/openai-agents.js";

setTracingDisabled(true); // offline: no trace export

// A scripted fake Model (the SDK's Model interface: getResponse / getStreamedResponse).
const fakeModel = (name, script) => ({
  name,
  async getResponse(request) {
    console.log(`  model ${name} offered: ${request.tools.map((t) => t.name).join(", ")}`);
    return { usage: new Usage({ requests: 1, inputTokens: 10, outputTokens: 5, totalTokens: 15 }), output: script.shift(), responseId: `${name}-${Date.now()}` };
  },
  async *getStreamedResponse() {
    throw new Error("this example does not stream");
  },
});
const callTool = (name, args) => [{ type: "function_call", callId: `call-${name}`, name, arguments: JSON.stringify(args), status: "completed" }];
const say = (text) => [{ type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text }] }];
const generalModel = fakeModel("general-model", [callTool("calendar", { day: "friday" }), say("Friday is free.")]);
const analyticsModel = fakeModel("analytics-model", [callTool("web_search", { q: "2026-03" }), say("March sales were 42 units.")]);

const logged = (name, parameters, answer) =>
  tool({ name, description: name, parameters, execute: async (input) => (console.log(`  executed: ${name} ${JSON.stringify(input)}`), answer(input)) });
const tools = [
  logged("web_search", z.object({ q: z.string() }), ({ q }) => `web results for ${q}`),
  logged("sql_query", z.object({ query: z.string() }), ({ query }) => `1 row: total=42 (${query})`),
  logged("calendar", z.object({ day: z.string() }), ({ day }) => `${day}: no meetings`),
  logged("send_email", z.object({ to: z.string() }), ({ to }) => `sent to ${to}`),
];

const { router, policies } = salesRouting(tools.map((t) => t.name), analyticsModel);

// One line per turn: what was routed (and why), what the model was offered, which model
// answered, and where each call went.
const palette = createToolPalette({
  router,
  policies,
  onDecision: (report) => console.log(`  report: ${JSON.stringify(report)}`),
});

// The turn's message is found in the run's input: run(agent, prompt) is all it takes.
const agent = new Agent({ name: "assistant", instructions: "Help the user.", tools: palette.tools(tools), model: palette.model(generalModel) });

for (const prompt of ["What were our sales in March?", "Am I free on Friday? Check my calendar."]) {
  console.log(`user: ${prompt}`);
  const result = await run(agent, prompt);
  console.log(`  answer: ${result.finalOutput}\n`);
}
