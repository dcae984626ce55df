// Faults a hostile pass found in the framework adapters (AI SDK, OpenAI Agents, LangChain),
// each pinned by a test that failed before its fix, against the packed package:
// - a router whose registered list is wider than the framework's tools, routing a turn to
//   names the framework does not have, sent the model NO tools (no warning; the report
//   claimed the routed names were offered): now every tool, NOTHING_OFFERED, offered null;
// - toolSearchFunction(index) cut the whole index's ranking to as many hits as the SDK
//   handed over candidates, so tools that are not deferred took the slots and the search
//   found nothing;
// - palette.wrapTools() assigned an own "__proto__" tool through the prototype setter: the
//   tool was lost and the record's prototype became the tool;
// - the default contexts joined a message's text parts with nothing between them, merging
//   the words at their boundaries.
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { consumer } from "./consumer.mjs";
import { aiToolCall, aiText } from "./fixtures.mjs";

let ai, mock, z, agents, lc, core, aiAdapter, oaAdapter, lcAdapter;
before(async () => {
  const c = await consumer();
  ai = await c.load("ai");
  mock = await c.load("ai/test");
  z = (await c.load("zod")).z;
  agents = await c.load("@openai/agents");
  agents.setTracingDisabled(true);
  lc = await c.load("langchain");
  core = await c.load("tool-palette");
  aiAdapter = await c.load("tool-palette/ai-sdk");
  oaAdapter = await c.load("tool-palette/openai-agents");
  lcAdapter = await c.load("tool-palette/langchain");
});

// ---- AI SDK helpers
const aiCall = aiToolCall;
// What each model call was sent: the tools' names, or "NO TOOLS".
const aiSent = (m) => m.doGenerateCalls.map((call) => (call.tools ? call.tools.map((t) => t.name) : "NO TOOLS"));
const aiTools = (executed, names) =>
  Object.fromEntries(
    names.map((name) => [
      name,
      ai.tool({ description: `tool ${name}`, inputSchema: z.object({ x: z.string() }), execute: async (input) => (executed.push([name, input]), `${name} done`) }),
    ]),
  );

// The router of the hostile pass: it knows a tool the framework was not given.
const wideRouter = (rows) => new core.ToolRouter({ entries: async () => rows, registered: ["a", "b", "legacy_search"] });

// ---- Fault 1: a routed step whose names the framework does not have

test("AI SDK: a step routed only to names wrapTools was not given offers every tool (NOTHING_OFFERED, offered null), never none; the policies' redirects are not held to the routed names", async () => {
  const executed = [], warnings = [], reports = [];
  const policies = new core.ToolPolicies([new core.ToolCallPolicy({ name: "a-to-b", match: () => true, whenTool: "a", redirectTo: "b" })]);
  const palette = aiAdapter.createToolPalette({ router: wideRouter(["legacy_search"]), policies, onWarning: (w) => warnings.push(w.code), onDecision: (r) => reports.push(r) });
  const model = new mock.MockLanguageModelV3({ doGenerate: [aiCall("a", { x: "1" }, "c-1"), aiText("ok")] });
  await ai.generateText({ model, prompt: "hi", stopWhen: ai.stepCountIs(3), tools: palette.wrapTools(aiTools(executed, ["a", "b"])), prepareStep: palette.prepareStep });
  assert.deepEqual(aiSent(model), [["a", "b"], ["a", "b"]]);
  assert.deepEqual(warnings, ["NOTHING_OFFERED"]);
  assert.deepEqual(reports.map((r) => [r.offered, r.hidden, r.routing.rule]), [[null, [], "routed"], [null, [], "routed"]]);
  // Every tool is the palette: the redirect to b is not dropped for lying outside ["legacy_search"].
  assert.deepEqual(executed, [["b", { x: "1" }]]);
  assert.deepEqual([reports[0].dispatches[0].call.name, reports[0].dispatches[0].dropped], ["b", null]);
});

test("AI SDK: a step routed to one of its tools and one it does not have offers and reports that one tool", async () => {
  const warnings = [], reports = [];
  const palette = aiAdapter.createToolPalette({ router: wideRouter(["legacy_search", "a"]), onWarning: (w) => warnings.push(w.code), onDecision: (r) => reports.push(r) });
  const model = new mock.MockLanguageModelV3({ modelId: "m", doGenerate: [aiText("ok")] });
  await ai.generateText({ model, prompt: "hi", tools: palette.wrapTools(aiTools([], ["a", "b"])), prepareStep: palette.prepareStep });
  assert.deepEqual(aiSent(model), [["a"]]);
  assert.deepEqual(warnings, []);
  assert.deepEqual([reports[0].offered, reports[0].hidden], [["a"], ["b"]]);
});

// OpenAI Agents: a fake Model recording the function tools of every request.
function oaModel(script) {
  return {
    sent: [],
    async getResponse(request) {
      this.sent.push(request.tools.map((t) => t.name));
      return { usage: new agents.Usage(), output: script.shift() ?? [{ type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text: "ok" }] }] };
    },
    async *getStreamedResponse() {},
  };
}
const oaTools = (executed, names) =>
  names.map((name) => agents.tool({ name, description: `tool ${name}`, parameters: z.object({ x: z.string() }), execute: async (input) => (executed.push([name, input]), `${name} done`) }));

test("OpenAI Agents: a turn routed only to names the agent does not have offers every function tool (NOTHING_OFFERED, offered null), and a call to one runs", async () => {
  const executed = [], warnings = [], reports = [];
  const palette = oaAdapter.createToolPalette({ router: wideRouter(["legacy_search"]), onWarning: (w) => warnings.push(w.code), onDecision: (r) => reports.push(r) });
  const model = oaModel([[{ type: "function_call", callId: "c-1", name: "a", arguments: JSON.stringify({ x: "1" }), status: "completed" }]]);
  const result = await agents.run(new agents.Agent({ name: "x", tools: palette.tools(oaTools(executed, ["a", "b"])), model: palette.model(model) }), "hi");
  assert.equal(result.finalOutput, "ok");
  assert.deepEqual(model.sent, [["a", "b"], ["a", "b"]]);
  assert.deepEqual(warnings, ["NOTHING_OFFERED"]);
  assert.deepEqual(reports.map((r) => [r.offered, r.hidden]), [[null, []], [null, []]]);
  assert.deepEqual(executed, [["a", { x: "1" }]]);
});

test("OpenAI Agents: a turn routed to one of its tools and one it does not have reports exactly the tool sent as offered", async () => {
  const reports = [];
  const palette = oaAdapter.createToolPalette({ router: wideRouter(["a", "legacy_search"]), onWarning() {}, onDecision: (r) => reports.push(r) });
  const model = oaModel([]);
  await agents.run(new agents.Agent({ name: "x", tools: palette.tools(oaTools([], ["a", "b"])), model: palette.model(model) }), "hi");
  assert.deepEqual(model.sent, [["a"]]);
  assert.deepEqual([reports[0].offered, reports[0].hidden], [["a"], ["b"]]);
});

// LangChain: a middleware after the palette's records the tools each model call is sent.
function lcRun(middleware, answers) {
  const sent = [];
  const spy = lc.createMiddleware({ name: "spy", wrapModelCall: async (req, handler) => (sent.push(req.tools.map((t) => t.name)), handler(req)) });
  const model = new lc.FakeToolCallingModel({ toolCalls: answers });
  const executed = [];
  const tools = ["a", "b"].map((name) => lc.tool(async (input) => (executed.push([name, input]), `${name} done`), { name, description: `tool ${name}`, schema: z.object({ x: z.string() }) }));
  const agent = lc.createAgent({ model, tools, middleware: [middleware, spy] });
  return { sent, executed, invoke: () => agent.invoke({ messages: [new lc.HumanMessage("hi")] }) };
}

test("LangChain: a model call routed only to names the agent does not have offers every tool (NOTHING_OFFERED, offered null), and a call to one runs", async () => {
  const warnings = [], reports = [];
  const run = lcRun(lcAdapter.toolPaletteMiddleware({ router: wideRouter(["legacy_search"]), onWarning: (w) => warnings.push(w.code), onDecision: (r) => reports.push(r) }), [
    [{ name: "b", args: { x: "2" }, id: "c-1" }],
    [],
  ]);
  const result = await run.invoke();
  assert.deepEqual(run.sent, [["a", "b"], ["a", "b"]]);
  assert.deepEqual(warnings, ["NOTHING_OFFERED"]);
  assert.deepEqual(reports.map((r) => [r.offered, r.hidden]), [[null, []], [null, []]]);
  assert.deepEqual(run.executed, [["b", { x: "2" }]]);
  const answer = result.messages.find((m) => m.type === "tool");
  assert.deepEqual([answer.name, answer.content], ["b", "b done"]);
});

test("LangChain: a call outside a palette narrowed to the agent's tools it has names exactly those in its refusal", async () => {
  const reports = [];
  const run = lcRun(lcAdapter.toolPaletteMiddleware({ router: wideRouter(["a", "legacy_search"]), onWarning() {}, onDecision: (r) => reports.push(r) }), [
    [{ name: "b", args: { x: "2" }, id: "c-1" }],
    [],
  ]);
  const result = await run.invoke();
  assert.deepEqual(run.sent, [["a"], ["a"]]);
  assert.deepEqual([reports[0].offered, reports[0].hidden], [["a"], ["b"]]);
  const refusal = result.messages.find((m) => m.type === "tool");
  assert.deepEqual([refusal.status, refusal.content], ["error", "Error: b is not a valid tool, try one of [a]."]);
  assert.deepEqual(run.executed, []);
});

// ---- Fault 2: toolSearchFunction(index) over an index that holds tools the SDK does not pass

test("AI SDK: toolSearchFunction(index) of the README's setup finds the deferred tool, however many undeferred tools outrank it", async () => {
  const mk = (description, deferLoading) => ai.tool({ description, inputSchema: z.object({}), execute: async () => description, deferLoading });
  const tools = {
    weather_now: mk("current weather report"),
    weather_week: mk("weekly weather report"),
    weather_radar: mk("weather radar images", true),
    weather_alerts: mk("weather alerts and warnings", true),
  };
  const index = new core.ToolIndex(tools);
  const fn = aiAdapter.toolSearchFunction(index);
  // Only the candidates the SDK handed over, in the index's rank order.
  assert.deepEqual(await fn({ query: "weather", tools: [{ name: "weather_radar" }] }), ["weather_radar"]);
  const both = index.search("weather radar alerts", { limit: 10 }).map((h) => h.name).filter((n) => n === "weather_radar" || n === "weather_alerts");
  assert.equal(both.length, 2);
  assert.deepEqual(await fn({ query: "weather radar alerts", tools: [{ name: "weather_alerts" }, { name: "weather_radar" }] }), both);
  assert.deepEqual(await fn({ query: "weather", tools: [] }), []);

  // Inside a generation: the search answers weather_radar and the next step shows it.
  const model = new mock.MockLanguageModelV3({ doGenerate: [aiCall("search", { query: "weather" }, "s-1"), aiText("done")] });
  const res = await ai.generateText({ model, prompt: "show me the weather radar", stopWhen: ai.stepCountIs(3), tools: { ...tools, search: ai.toolSearch({ search: fn }) } });
  const names = res.steps[0].toolResults[0].output.tools.map((t) => t.name);
  assert.ok(names.includes("weather_radar"), `found ${JSON.stringify(names)}`);
  assert.ok(!names.includes("weather_now"));
  assert.ok(aiSent(model)[1].includes("weather_radar"));
});

// ---- Fault 3: "__proto__" is an ordinary name in wrapTools

test('AI SDK: wrapTools keeps an own "__proto__" tool as an ordinary key (prototype untouched), and routing to it offers and runs it', async () => {
  const executed = [], reports = [];
  const proto = ai.tool({ description: "the proto tool", inputSchema: z.object({ x: z.string() }), execute: async (input) => (executed.push(["__proto__", input]), "p done") });
  const tools = {};
  Object.defineProperty(tools, "__proto__", { value: proto, enumerable: true, writable: true, configurable: true });
  tools.b = ai.tool({ description: "b", inputSchema: z.object({ x: z.string() }), execute: async () => "b done" });
  const palette = aiAdapter.createToolPalette({ router: new core.ToolRouter({ entries: async () => ["__proto__"], registered: Object.keys(tools) }), onDecision: (r) => reports.push(r) });
  const wrapped = palette.wrapTools(tools);
  assert.deepEqual(Object.keys(wrapped), ["__proto__", "b"]);
  assert.equal(Object.getPrototypeOf(wrapped), Object.prototype);
  assert.equal(Object.getOwnPropertyDescriptor(wrapped, "__proto__").value.description, "the proto tool");
  assert.equal(wrapped.description, undefined, "nothing of the tool leaks onto the record");

  const model = new mock.MockLanguageModelV3({ doGenerate: [aiCall("__proto__", { x: "1" }, "c-1"), aiText("ok")] });
  await ai.generateText({ model, prompt: "hi", stopWhen: ai.stepCountIs(3), tools: wrapped, prepareStep: palette.prepareStep });
  assert.deepEqual(aiSent(model)[0], ["__proto__"]);
  assert.deepEqual(executed, [["__proto__", { x: "1" }]]);
  assert.deepEqual([reports[0].offered, reports[0].hidden, reports[0].outside], [["__proto__"], ["b"], []]);

  // A record without a prototype stays one.
  const bare = Object.create(null);
  bare.constructor = tools.b;
  const wrappedBare = palette.wrapTools(bare);
  assert.equal(Object.getPrototypeOf(wrappedBare), null);
  assert.deepEqual(Object.keys(wrappedBare), ["constructor"]);
});

// ---- Fault 4: a message of several text parts keeps its words apart

test("the three default contexts join a message's text parts with a line break, so a tool search still finds the words at their boundaries", async () => {
  const parts = [{ type: "text", text: "what's the weather" }, { type: "image", image: "x" }, { type: "text", text: "in Paris" }];
  const expected = "what's the weather\nin Paris";
  const fromAi = aiAdapter.defaultContext({ messages: [{ role: "user", content: parts }], stepNumber: 0 }).message;
  const fromLc = lcAdapter.defaultContext({ messages: [new lc.HumanMessage({ content: parts })] }).message;
  const fromOa = oaAdapter.defaultContext({
    request: { input: [{ role: "user", content: [{ type: "input_text", text: "what's the weather" }, { type: "input_image", image: "x" }, { type: "input_text", text: "in Paris" }] }] },
    runContext: undefined,
    agent: {},
  }).message;
  assert.deepEqual([fromAi, fromLc, fromOa], [expected, expected, expected]);
  const index = new core.ToolIndex([{ name: "get_weather", description: "Get the weather" }, { name: "send_email", description: "Send an email" }]);
  assert.deepEqual(index.search(fromAi).map((h) => h.name), ["get_weather"]);
  // One part, or a plain string, is unchanged.
  assert.equal(aiAdapter.defaultContext({ messages: [{ role: "user", content: [{ type: "text", text: "just one" }] }] }).message, "just one");
  assert.equal(lcAdapter.defaultContext({ messages: [new lc.HumanMessage("plain")] }).message, "plain");
});
