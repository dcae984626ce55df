// tool-palette with LangChain.js v1 (createAgent): a middleware narrows the tools and
// swaps the model before each model call, redirects tool calls after it, and reports each
// model call (logged as one JSON line).
// Offline: the models are LangChain's fake chat models.
//
//   npm install && npm run build && node examples/langchain.mjs
//
// In your project, import from the package instead of ../dist:
//   import { ToolRouter, ToolPolicies } from "tool-palette";   (see scenario.mjs)
//   import { toolPaletteMiddleware } from "tool-palette/langchain";
// and use real chat models (e.g. new ChatOpenAI({ model: "gpt-5" })) in place of the fakes.
import { AIMessage, HumanMessage, createAgent, tool } from "langchain";
import { FakeBuiltModel } from "@langchain/core/testing";
import { z } from "zod";
import { salesRouting } from "./scenario.mjs";
import { toolPaletteMiddleware } from "../dist/adapters/langchain.js";

// A fake chat model answering from a script, printing the tools bound to each call.
function fakeModel(name, script) {
  const model = new (class extends FakeBuiltModel {
    bindTools(tools) {
      console.log(`  model ${name} offered: ${tools.map((t) => t.name).join(", ")}`);
      return super.bindTools(tools);
    }
  })();
  script.forEach((answer, i) =>
    model.respond(typeof answer === "string"
      ? new AIMessage({ content: answer, id: `${name}-${i}` })
      : new AIMessage({ content: "", id: `${name}-${i}`, tool_calls: [{ ...answer, id: `call-${name}-${i}`, type: "tool_call" }] })),
  );
  return model;
}
const generalModel = fakeModel("general-model", [{ name: "calendar", args: { day: "friday" } }, "Friday is free."]);
const analyticsModel = fakeModel("analytics-model", [{ name: "web_search", args: { q: "2026-03" } }, "March sales were 42 units."]);

const logged = (name, schema, run) =>
  tool(async (input) => (console.log(`  executed: ${name} ${JSON.stringify(input)}`), run(input)), { name, description: name, schema });
const tools = [
  logged("web_search", z.object({ q: z.string() }), ({ q }) => `web results for ${q}`),
  logged("sql_query", z.object({ query: z.string() }), ({ query }) => `1 row: total=42 (${query})`),
  logged("calendar", z.object({ day: z.string() }), ({ day }) => `${day}: no meetings`),
  logged("send_email", z.object({ to: z.string() }), ({ to }) => `sent to ${to}`),
];

const { router, policies } = salesRouting(tools.map((t) => t.name), analyticsModel);

// One line per model call: what was routed (and why), what the model was offered, which
// model answered, and where each call went.
const agent = createAgent({
  model: generalModel,
  tools,
  middleware: [toolPaletteMiddleware({
    router,
    policies,
    onDecision: (report) => console.log(`  report: ${JSON.stringify(report)}`),
  })],
});

for (const prompt of ["What were our sales in March?", "Am I free on Friday? Check my calendar."]) {
  console.log(`user: ${prompt}`);
  const result = await agent.invoke({ messages: [new HumanMessage(prompt)] });
  console.log(`  answer: ${result.messages.at(-1).content}\n`);
}
