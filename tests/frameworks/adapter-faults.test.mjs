// Adapters that never fail silently: three faults found by trying the adapters as a new
// user would, each pinned by a test that failed before its fix.
// - AI SDK: the package README's tool-search snippet (routing + the SDK's toolSearch over
//   deferred tools), run as written, offered the model no tool at all;
// - LangChain: a call to a name that is no tool at all was handed to the agent, whose
//   error listed every tool, the hidden ones too;
// - AI SDK: a step whose last call had input the SDK refuses was never reported.
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { consumer } from "./consumer.mjs";
import { router } from "./fixtures.mjs";
import { blocks, runSnippet } from "./snippets.mjs";

let c, modules, ai, mock, z, lc, testing;
before(async () => {
  c = await consumer();
  modules = {};
  for (const name of ["ai", "ai/test", "zod", "langchain", "@langchain/core/testing", "tool-palette", "tool-palette/ai-sdk", "tool-palette/langchain"]) {
    modules[name] = await c.load(name);
  }
  ({ ai, "ai/test": mock, langchain: lc, "@langchain/core/testing": testing } = modules);
  z = modules.zod.z;
});

const usage = { inputTokens: { total: 3, noCache: 3, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 2, text: 2, reasoning: 0 } };
const callOf = (toolName, input, id) => ({
  content: [{ type: "tool-call", toolCallId: id, toolName, input: typeof input === "string" ? input : JSON.stringify(input) }],
  finishReason: { unified: "tool-calls", raw: "tool_calls" },
  usage,
  warnings: [],
});
const text = (t) => ({ content: [{ type: "text", text: t }], finishReason: { unified: "stop", raw: "stop" }, usage, warnings: [] });
const sent = (m) => m.doGenerateCalls.map((call) => (call.tools ?? []).map((t) => t.name));

// The snippet's tools: two deferred (found through toolSearch) and one always there.
function weatherTools(executed) {
  const make = (name, description, deferLoading) =>
    ai.tool({
      description,
      inputSchema: z.object({ city: z.string() }),
      deferLoading,
      execute: async (input) => {
        executed.push([name, input]);
        return `${name}: sunny`;
      },
    });
  return {
    get_weather: make("get_weather", "Current weather conditions for a city", true),
    get_forecast: make("get_forecast", "Weather forecast for the next days in a city", true),
    send_email: make("send_email", "Send an email message to a recipient", false),
  };
}

{
  test(`AI SDK: the packed README's tool-search snippet, run as written, offers the search tool, then what it found; each report lists exactly what the model was sent`, async () => {
    const readme = readFileSync(join(c.dir, "node_modules", "tool-palette", "README.md"), "utf8");
    const code = blocks(readme, "Agent frameworks", "ts").find((b) => b.includes("toolSearch("));
    assert.ok(code, "a tool-search snippet");
    assert.match(code, /import \{[^}]*\btoolSearch\b[^}]*\} from "ai"/, "the snippet says where toolSearch comes from");
    assert.match(readme, /deferLoading: true/, "the README says the deferred tools need deferLoading: true");
    const executed = [];
    const reports = [];
    const model = new mock.MockLanguageModelV3({
      modelId: "m",
      doGenerate: [callOf("search", { query: "weather forecast" }, "s-1"), callOf("get_forecast", { city: "Paris" }, "c-1"), text("Sunny in Paris.")],
    });
    // The snippet's createToolPalette, with a spy on its reports (the snippet itself unchanged).
    const adapter = modules["tool-palette/ai-sdk"];
    const spied = { ...adapter, createToolPalette: (options) => adapter.createToolPalette({ ...options, onDecision: (r) => reports.push(r) }) };
    const declared = await runSnippet(code, { model, prompt: "What's the weather forecast for Paris?", tools: weatherTools(executed) }, { ...modules, "tool-palette/ai-sdk": spied });

    const seen = sent(model);
    assert.equal(seen.length, 3);
    // Never nothing; the search tool on every step; what it found from the next step on.
    for (const names of seen) assert.ok(names.includes("search"), `offered ${names}`);
    assert.deepEqual(seen[0], ["search"]);
    assert.ok(seen[1].includes("get_forecast"));
    assert.ok(!seen[0].includes("send_email"), "routing still hides what the message does not need");
    assert.deepEqual(executed, [["get_forecast", { city: "Paris" }]]);
    assert.equal(declared.result.text, "Sunny in Paris.");
    // One report per step, whose offered names are exactly the tools the model was sent.
    assert.deepEqual(reports.map((r) => r.step), [0, 1, 2]);
    reports.forEach((r, i) => assert.deepEqual([...r.offered].sort(), [...seen[i]].sort(), `step ${i}`));
    assert.ok(reports[0].hidden.includes("send_email"));
    assert.equal(reports[0].routing.rule, "routed");
  });
}

test("AI SDK: routing that names only deferred tools, with no search tool, offers every tool (warned once), never none", async () => {
  const { core, adapter } = { core: modules["tool-palette"], adapter: modules["tool-palette/ai-sdk"] };
  const tools = weatherTools([]);
  const warnings = [], reports = [];
  const palette = adapter.createToolPalette({
    router: new core.ToolRouter({ entries: async () => ["get_weather"], registered: Object.keys(tools) }),
    onWarning: (w) => warnings.push(w),
    onDecision: (r) => reports.push(r),
  });
  const model = new mock.MockLanguageModelV3({ doGenerate: [text("ok"), text("ok")] });
  for (let i = 0; i < 2; i++) await ai.generateText({ model, prompt: "weather?", tools: palette.wrapTools(tools), prepareStep: palette.prepareStep });
  assert.deepEqual(sent(model), [["send_email"], ["send_email"]]); // what the SDK shows of "every tool": the undeferred ones
  assert.deepEqual(reports.map((r) => [r.offered, r.routing.rule]), [[null, "routed"], [null, "routed"]]);
  assert.deepEqual(warnings.map((w) => w.code), ["NOTHING_OFFERED"]);
});

// LangChain's fake chat model, recording the names of the tools bound for each call.
function fakeModel(answers) {
  const model = new (class extends testing.FakeBuiltModel {
    bindTools(tools) {
      this.offered.push(tools.map((t) => t.name));
      return super.bindTools(tools);
    }
  })();
  model.offered = [];
  for (const [i, a] of answers.entries()) {
    model.respond(typeof a === "string" ? new lc.AIMessage({ content: a, id: `m-${i}` }) : new lc.AIMessage({ content: "", id: `m-${i}`, tool_calls: [{ ...a, type: "tool_call" }] }));
  }
  return model;
}

for (const outsidePalette of ["refuse", "allow"]) {
  test(`LangChain (outsidePalette: "${outsidePalette}"): a call to a name that is no tool at all is refused naming only the offered tools`, async () => {
    const core = modules["tool-palette"];
    const executed = [], reports = [];
    const make = (name) => lc.tool(async (input) => executed.push([name, input]), { name, description: name, schema: z.object({ day: z.string() }) });
    const m = fakeModel([{ name: "delete_everything", args: { day: "now" }, id: "call-u" }, "Sorry."]);
    const agent = lc.createAgent({
      model: m,
      tools: ["web_search", "sql_query", "calendar", "send_email"].map(make),
      middleware: [modules["tool-palette/langchain"].toolPaletteMiddleware({ router: router(core, ["calendar"]), outsidePalette, onDecision: (r) => reports.push(r) })],
    });
    const result = await agent.invoke({ messages: [new lc.HumanMessage("clear my calendar")] });
    assert.deepEqual(m.offered, [["calendar"], ["calendar"]]);
    const refusal = result.messages.find((x) => x.type === "tool");
    assert.deepEqual([refusal.tool_call_id, refusal.name, refusal.status, refusal.content], ["call-u", "delete_everything", "error", "Error: delete_everything is not a valid tool, try one of [calendar]."]);
    assert.deepEqual(executed, []);
    assert.deepEqual(reports[0].outside, [{ id: "call-u", name: "delete_everything", refused: true }]);
    assert.deepEqual(reports.map((r) => r.step), [0, 1]);
  });
}

const calendarTools = (executed) => ({
  calendar: ai.tool({ description: "calendar", inputSchema: z.object({ day: z.string() }), execute: async (input) => (executed.push(["calendar", input]), "free") }),
  send_email: ai.tool({ description: "send_email", inputSchema: z.object({ to: z.string() }), execute: async (input) => (executed.push(["send_email", input]), "sent") }),
});

for (const [what, input] of [
  ["malformed JSON", '{"day": "fri'],
  ["a schema mismatch", { day: 5 }],
]) {
  for (const streamed of [false, true]) {
    test(`AI SDK (${streamed ? "streamText" : "generateText"}): a last step whose call has input the SDK refuses (${what}) is reported exactly once`, async () => {
      const core = modules["tool-palette"];
      const executed = [], reports = [];
      const palette = modules["tool-palette/ai-sdk"].createToolPalette({ router: new core.ToolRouter({ entries: async () => ["calendar"], registered: ["calendar", "send_email"] }), onDecision: (r) => reports.push(r) });
      const answer = callOf("calendar", input, "call-bad");
      const model = new mock.MockLanguageModelV3({
        doGenerate: [answer],
        doStream: async () => ({
          stream: mock.convertArrayToReadableStream([{ type: "stream-start", warnings: [] }, ...answer.content, { type: "finish", finishReason: answer.finishReason, usage }]),
        }),
      });
      const options = { model, prompt: "is friday free?", tools: palette.wrapTools(calendarTools(executed)), prepareStep: palette.prepareStep, stopWhen: ai.stepCountIs(1) };
      if (streamed) {
        const r = ai.streamText(options);
        await r.consumeStream();
        await r.steps;
      } else await ai.generateText(options);
      assert.deepEqual(executed, []);
      assert.equal(reports.length, 1, "exactly one report for the step");
      assert.deepEqual([reports[0].step, reports[0].dispatches, reports[0].offered], [0, [], ["calendar"]]);
    });
  }
}

test("AI SDK: a step with one accepted and one refused call is reported as soon as the accepted one is dispatched, not when the next step starts", async () => {
  const core = modules["tool-palette"];
  const log = [];
  const palette = modules["tool-palette/ai-sdk"].createToolPalette({
    router: new core.ToolRouter({ entries: async () => ["calendar", "send_email"], registered: ["calendar", "send_email"] }),
    policies: new core.ToolPolicies([]),
    onDecision: (r) => log.push(["report", r.step, r.dispatches.map((d) => d.call.name)]),
  });
  const both = {
    content: [
      { type: "tool-call", toolCallId: "ok-1", toolName: "calendar", input: JSON.stringify({ day: "friday" }) },
      { type: "tool-call", toolCallId: "bad-1", toolName: "send_email", input: "{oops" },
    ],
    finishReason: { unified: "tool-calls", raw: "tool_calls" },
    usage,
    warnings: [],
  };
  const answers = [both, text("done")];
  const model = new mock.MockLanguageModelV3({
    doGenerate: async () => {
      log.push(["model"]);
      return answers.shift();
    },
  });
  const executed = [];
  const tools = calendarTools(executed);
  const calendar = tools.calendar.execute;
  tools.calendar.execute = async (input, o) => (log.push(["executed", "calendar"]), calendar(input, o));
  await ai.generateText({ model, prompt: "friday, and mail the boss", tools: palette.wrapTools(tools), prepareStep: palette.prepareStep, stopWhen: ai.stepCountIs(3) });
  assert.deepEqual(log, [["model"], ["report", 0, ["calendar"]], ["executed", "calendar"], ["model"], ["report", 1, []]]);
});
