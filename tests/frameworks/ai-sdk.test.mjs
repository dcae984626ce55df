// tool-palette/ai-sdk inside the AI SDK's own loop: generateText/streamText with stopWhen,
// the SDK's MockLanguageModelV3 (ai/test), against the packed package in a consumer project.
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { consumer } from "./consumer.mjs";
import { REGISTERED, SALES, SMALL_TALK, salesPolicies, router, messageRouter, contextRouter, specCases, routerOn, asJson, aiToolCall, aiText, aiUsage } from "./fixtures.mjs";

let ai, mock, z, flavors;
before(async () => {
  const c = await consumer();
  ai = await c.load("ai");
  mock = await c.load("ai/test");
  z = (await c.load("zod")).z;
  flavors = {
    esm: { core: await c.load("tool-palette"), adapter: await c.load("tool-palette/ai-sdk") },
    cjs: { core: c.require("tool-palette"), adapter: c.require("tool-palette/ai-sdk") },
  };
});

const toolCall = aiToolCall;
const text = aiText;
const model = (modelId, results) => new mock.MockLanguageModelV3({ modelId, doGenerate: results });
const offered = (m) => m.doGenerateCalls.map((call) => (call.tools ?? []).map((t) => t.name));

// The four tools; `executed` records which execute ran, with which input.
function tools(executed) {
  const make = (name, schema) =>
    ai.tool({
      description: name,
      inputSchema: schema,
      execute: async (input) => {
        executed.push([name, input]);
        return `${name} result`;
      },
    });
  return {
    web_search: make("web_search", z.object({ q: z.string() })),
    sql_query: make("sql_query", z.object({ query: z.string() })),
    calendar: make("calendar", z.object({ day: z.string() })),
    send_email: make("send_email", z.object({ to: z.string() })),
  };
}

for (const flavor of ["esm", "cjs"]) {
  test(`[${flavor}] sales turn: routed palette offered, the policy's model answers, the redirect runs sql_query, each step reported`, async () => {
    const { core, adapter } = flavors[flavor];
    const defaultModel = model("default", [text("unused")]);
    const salesModel = model("sales", [toolCall("web_search", { q: "2026-03" }, "call-1"), text("March sales were 42.")]);
    const executed = [], seen = [], routes = [], dispatches = [], reports = [], calls = { n: 0 };
    const palette = adapter.createToolPalette({
      router: router(core, ["web_search", { tool: "sql_query" }, "a skill about prose"], calls),
      policies: salesPolicies(core, { model: salesModel, seen }),
      onRoute: (r) => routes.push(r),
      onDispatch: (d) => dispatches.push(d),
      onDecision: (r) => reports.push(r),
    });
    const result = await ai.generateText({
      model: defaultModel,
      tools: palette.wrapTools(tools(executed)),
      prepareStep: palette.prepareStep,
      prompt: SALES,
      stopWhen: ai.stepCountIs(5),
    });

    // Offered at each step: the routed palette, in the registered order the SDK keeps.
    assert.deepEqual(offered(salesModel), [["web_search", "sql_query"], ["web_search", "sql_query"]]);
    // Which model answered: the policy's instance, every step; the default never.
    assert.equal(salesModel.doGenerateCalls.length, 2);
    assert.equal(defaultModel.doGenerateCalls.length, 0);
    assert.deepEqual(result.steps.map((s) => s.model?.modelId ?? s.response.modelId), ["sales", "sales"]);
    // Which tool executed: sql_query with the transformed arguments; web_search never.
    assert.deepEqual(executed, [["sql_query", { query: "SELECT total FROM sales WHERE period = '2026-03'" }]]);
    // The result stays the emitted call's: its id and its name.
    const [toolResult] = result.steps[0].toolResults;
    assert.deepEqual([toolResult.toolCallId, toolResult.toolName, toolResult.output], ["call-1", "web_search", "sql_query result"]);
    assert.equal(result.text, "March sales were 42.");
    // The seams' reports, and one store query per step.
    assert.deepEqual(routes.map((r) => [r.stepNumber, r.outcome.kind, r.activeTools, r.selection.source]), [
      [0, "routed", ["web_search", "sql_query"], "policy"],
      [1, "routed", ["web_search", "sql_query"], "policy"],
    ]);
    assert.equal(calls.n, 2);
    assert.equal(dispatches.length, 1);
    assert.equal(dispatches[0].redirectedBy, "sales-questions-use-sql");
    assert.equal(dispatches[0].original.id, "call-1");
    assert.equal(dispatches[0].call.id, "call-1");
    // The POST seam saw the very context object of its step's PRE seam.
    assert.equal(routes[0].ctx.message, SALES);
    assert.ok(seen.includes(routes[0].ctx));
    assert.equal(seen.filter((c) => c !== routes[0].ctx && c !== routes[1].ctx).length, 0);

    // One report per step, in order, JSON-serialisable on one line.
    assert.deepEqual(reports.map((r) => r.step), [0, 1]);
    const [first, second] = reports.map(asJson);
    assert.equal(first.mode, "enforce");
    assert.equal(first.routing.rule, "routed");
    assert.deepEqual(first.routing.outcome, { kind: "routed", names: ["web_search", "sql_query"], unresolved: ["a skill about prose"] });
    assert.deepEqual(first.routing.rows.map((r) => r.fate), ["routed", "routed", "unresolved"]);
    assert.deepEqual(first.offered, ["web_search", "sql_query"]);
    assert.deepEqual(first.hidden, ["calendar", "send_email"]);
    assert.deepEqual(first.selection, { model: "sales", source: "policy", policy: "sales-questions-use-sql" });
    assert.deepEqual(first.dispatches, [
      {
        call: { name: "sql_query", args: { query: "SELECT total FROM sales WHERE period = '2026-03'" }, id: "call-1" },
        original: { name: "web_search", args: { q: "2026-03" }, id: "call-1" },
        redirectedBy: "sales-questions-use-sql",
        dropped: null,
      },
    ]);
    assert.deepEqual(first.outside, []);
    assert.equal(reports[0].dispatches[0], dispatches[0]); // the very Dispatch of the policies
    assert.equal(reports[0].routing.outcome, routes[0].outcome); // the very outcome of the router
    assert.deepEqual(second.dispatches, []);
    assert.ok(Object.isFrozen(reports[0]));
  });

  test(`[${flavor}] refusal: every tool offered, the SDK's model answers, the emitted tool runs`, async () => {
    const { core, adapter } = flavors[flavor];
    const defaultModel = model("default", [toolCall("calendar", { day: "friday" }, "call-9"), text("Done.")]);
    const salesModel = model("sales", [text("unused")]);
    const executed = [], routes = [], reports = [];
    const palette = adapter.createToolPalette({
      router: router(core, []), // no skills: refusal 3, "allow every tool"
      policies: salesPolicies(core, { model: salesModel }),
      onRoute: (r) => routes.push(r),
      onDecision: (r) => reports.push(r),
    });
    await ai.generateText({
      model: defaultModel,
      tools: palette.wrapTools(tools(executed)),
      prepareStep: palette.prepareStep,
      prompt: SMALL_TALK,
      stopWhen: ai.stepCountIs(5),
    });
    assert.deepEqual(offered(defaultModel), [REGISTERED, REGISTERED]);
    assert.equal(salesModel.doGenerateCalls.length, 0);
    assert.deepEqual(executed, [["calendar", { day: "friday" }]]);
    assert.equal(routes[0].outcome.reason, "no skills in the procedural layer; allowing all tools");
    assert.equal(routes[0].activeTools, undefined);
    assert.equal(routes[0].selection.source, "default");
    assert.deepEqual(reports.map((r) => [r.step, r.routing.rule, r.offered, r.hidden, r.dispatches.map((d) => d.call.name)]), [
      [0, "3", null, [], ["calendar"]],
      [1, "3", null, [], []],
    ]);
  });
}

test("reports agree with the outcome on every SPEC case (routed, 1, 2a, 2b, 3, 4, 5, unavailable)", async () => {
  const { core, adapter } = flavors.esm;
  for (const c of specCases(core)) {
    const m = model("default", [text("ok")]);
    const reports = [], outcomes = [];
    const palette = adapter.createToolPalette({ router: c.router, onDecision: (r) => reports.push(r), onRoute: (r) => outcomes.push(r.outcome) });
    await ai.generateText({ model: m, tools: palette.wrapTools(tools([])), prepareStep: palette.prepareStep, prompt: SALES });
    assert.equal(reports.length, 1, c.rule);
    const [report] = reports;
    assert.equal(report.routing.rule, c.rule);
    assert.equal(report.routing.outcome, outcomes[0], c.rule);
    assert.deepEqual(report.offered, c.offered, c.rule);
    assert.deepEqual(report.hidden, c.hidden, c.rule);
    assert.deepEqual(offered(m), [c.offered ?? REGISTERED], c.rule);
    assert.equal(report.selection, null);
    assert.deepEqual(asJson(report).routing.outcome, JSON.parse(JSON.stringify(outcomes[0])));
  }
});

test("a call outside the palette is refused as the SDK refuses it (NoSuchToolError to the model); the tool never runs", async () => {
  const { core, adapter } = flavors.esm;
  const m = model("default", [toolCall("send_email", { to: "boss" }, "call-x"), text("Sorry.")]);
  const executed = [], reports = [];
  const palette = adapter.createToolPalette({ router: router(core, ["calendar"]), onDecision: (r) => reports.push(r) });
  const result = await ai.generateText({ model: m, tools: palette.wrapTools(tools(executed)), prepareStep: palette.prepareStep, prompt: "email my boss", stopWhen: ai.stepCountIs(3) });
  assert.deepEqual(offered(m), [["calendar"], ["calendar"]]);
  assert.deepEqual(executed, []);
  const error = result.steps[0].content.find((p) => p.type === "tool-error");
  assert.equal(error.toolName, "send_email");
  // The SDK's own refusal, as the model reads it (the tool-error of the step).
  assert.equal(String(error.error), "AI_NoSuchToolError: Model tried to call unavailable tool 'send_email'. Available tools: calendar.");
  assert.deepEqual(reports[0].outside, [{ id: "call-x", name: "send_email", refused: true }]);
  assert.deepEqual(reports.map((r) => r.step), [0, 1]);
});

test('outsidePalette: "allow" lets such a call run, while the model is still offered only the palette', async () => {
  const { core, adapter } = flavors.esm;
  const m = model("default", [toolCall("send_email", { to: "boss" }, "call-x"), text("Sent.")]);
  const executed = [], reports = [];
  const palette = adapter.createToolPalette({ router: router(core, ["calendar"]), outsidePalette: "allow", onDecision: (r) => reports.push(r) });
  await ai.generateText({ model: m, tools: palette.wrapTools(tools(executed)), prepareStep: palette.prepareStep, prompt: "email my boss", stopWhen: ai.stepCountIs(3) });
  assert.deepEqual(offered(m), [["calendar"], ["calendar"]]);
  assert.deepEqual(executed, [["send_email", { to: "boss" }]]);
  assert.deepEqual(reports[0].outside, [{ id: "call-x", name: "send_email", refused: false }]);
});

test("shadow mode offers every tool, runs what the model emitted with the SDK's model, and reports what would have been hidden", async () => {
  const { core, adapter } = flavors.esm;
  const defaultModel = model("default", [toolCall("web_search", { q: "march" }, "call-1"), toolCall("calendar", { day: "friday" }, "call-2"), text("ok")]);
  const salesModel = model("sales", []);
  const executed = [], reports = [];
  const palette = adapter.createToolPalette({
    router: router(core, ["web_search", "sql_query"]),
    policies: salesPolicies(core, { model: salesModel }),
    mode: "shadow",
    onDecision: (r) => reports.push(r),
  });
  await ai.generateText({ model: defaultModel, tools: palette.wrapTools(tools(executed)), prepareStep: palette.prepareStep, prompt: SALES, stopWhen: ai.stepCountIs(5) });
  assert.deepEqual(offered(defaultModel), [REGISTERED, REGISTERED, REGISTERED]);
  assert.equal(salesModel.doGenerateCalls.length, 0);
  assert.deepEqual(executed, [["web_search", { q: "march" }], ["calendar", { day: "friday" }]]);
  const json = reports.map(asJson);
  assert.deepEqual(json.map((r) => [r.step, r.mode, r.offered, r.hidden]), [
    [0, "shadow", ["web_search", "sql_query"], ["calendar", "send_email"]],
    [1, "shadow", ["web_search", "sql_query"], ["calendar", "send_email"]],
    [2, "shadow", ["web_search", "sql_query"], ["calendar", "send_email"]],
  ]);
  assert.deepEqual(json[0].selection, { model: "sales", source: "policy", policy: "sales-questions-use-sql" });
  // What the redirect would have done, and the call that would have been refused.
  assert.deepEqual(json[0].dispatches.map((d) => [d.original.name, d.call.name, d.redirectedBy]), [["web_search", "sql_query", "sales-questions-use-sql"]]);
  assert.deepEqual(json[0].outside, []);
  assert.deepEqual(json[1].outside, [{ id: "call-2", name: "calendar", refused: false }]);
});

test("pinned tools (alwaysInclude) are offered on every step besides the routed palette, and pass the gate", async () => {
  const { core, adapter } = flavors.esm;
  const m = model("default", [toolCall("calendar", { day: "friday" }, "call-1"), text("ok")]);
  const executed = [], reports = [], outcomes = [];
  const palette = adapter.createToolPalette({
    router: router(core, ["web_search"]),
    alwaysInclude: ["calendar"],
    onDecision: (r) => reports.push(r),
    onRoute: (r) => outcomes.push(r.outcome),
  });
  await ai.generateText({ model: m, tools: palette.wrapTools(tools(executed)), prepareStep: palette.prepareStep, prompt: "friday?", stopWhen: ai.stepCountIs(3) });
  assert.deepEqual(offered(m), [["web_search", "calendar"], ["web_search", "calendar"]]);
  assert.deepEqual(executed, [["calendar", { day: "friday" }]]);
  assert.deepEqual(outcomes[0].names, ["web_search"]); // the Routed itself is unchanged
  assert.deepEqual(reports[0].offered, ["web_search", "calendar"]);
  assert.deepEqual(reports[0].hidden, ["sql_query", "send_email"]);
  assert.deepEqual(reports[0].outside, []);
});

test("a routed palette naming none of the framework's tools offers every tool (NOTHING_OFFERED), however alwaysInclude pins one", async () => {
  const { core, adapter } = flavors.esm;
  const m = model("default", [text("ok")]);
  const warnings = [];
  const palette = adapter.createToolPalette({ router: new core.ToolRouter({ registered: [...REGISTERED, "ghost"], entries: async () => ["ghost"] }), alwaysInclude: ["calendar"], onWarning: (w) => warnings.push(w) });
  await ai.generateText({ model: m, tools: palette.wrapTools(tools([])), prepareStep: palette.prepareStep, prompt: "friday?" });
  assert.deepEqual(offered(m), [["web_search", "sql_query", "calendar", "send_email"]]);
  assert.deepEqual(warnings.map((w) => w.code), ["NOTHING_OFFERED"]);
});

test("streamText: the same routing, redirect and reports through doStream", async () => {
  const { core, adapter } = flavors.esm;
  const chunks = (parts) => mock.convertArrayToReadableStream ? mock.convertArrayToReadableStream(parts) : ai.simulateReadableStream({ chunks: parts });
  const finish = (unified) => ({ type: "finish", finishReason: { unified, raw: unified }, usage: aiUsage });
  const script = [
    [{ type: "stream-start", warnings: [] }, { type: "tool-call", toolCallId: "call-1", toolName: "web_search", input: JSON.stringify({ q: "2026-03" }) }, finish("tool-calls")],
    [{ type: "stream-start", warnings: [] }, { type: "text-start", id: "t" }, { type: "text-delta", id: "t", delta: "42." }, { type: "text-end", id: "t" }, finish("stop")],
  ];
  const salesModel = new mock.MockLanguageModelV3({ modelId: "sales", doStream: async () => ({ stream: chunks(script.shift()) }) });
  const executed = [], reports = [];
  const palette = adapter.createToolPalette({ router: contextRouter(core), policies: salesPolicies(core, { model: salesModel }), onDecision: (r) => reports.push(r) });
  const result = ai.streamText({ model: model("default", []), tools: palette.wrapTools(tools(executed)), prepareStep: palette.prepareStep, prompt: SALES, stopWhen: ai.stepCountIs(3) });
  assert.equal(await result.text, "42.");
  assert.deepEqual(salesModel.doStreamCalls.map((c) => c.tools.map((t) => t.name)), [["web_search", "sql_query"], ["web_search", "sql_query"]]);
  assert.deepEqual(executed, [["sql_query", { query: "SELECT total FROM sales WHERE period = '2026-03'" }]]);
  assert.deepEqual(reports.map((r) => [r.step, r.dispatches.map((d) => d.call.name)]), [[0, ["sql_query"]], [1, []]]);
});

test("telemetry: each step's attributes ride in runtimeContext.toolPalette, for integrations that include it", async () => {
  const { core, adapter } = flavors.esm;
  const salesModel = model("sales", [toolCall("web_search", { q: "2026-03" }, "call-1"), text("ok")]);
  const events = [];
  const integration = { onStepStart: (e) => events.push(["start", e.runtimeContext]), onStepEnd: (e) => events.push(["end", e.runtimeContext]) };
  const palette = adapter.createToolPalette({ router: contextRouter(core), policies: salesPolicies(core, { model: salesModel }) });
  await ai.generateText({
    model: model("default", []),
    tools: palette.wrapTools(tools([])),
    prepareStep: palette.prepareStep,
    prompt: SALES,
    stopWhen: ai.stepCountIs(3),
    runtimeContext: { requestId: "r-1" },
    telemetry: { integrations: [integration], includeRuntimeContext: { toolPalette: true } },
  });
  const ends = events.filter(([kind]) => kind === "end").map(([, rc]) => rc);
  assert.equal(ends.length, 2);
  assert.equal(ends[0].requestId, undefined); // filtered by includeRuntimeContext
  const a = ends[0].toolPalette;
  assert.equal(a["tool_palette.step"], 0);
  assert.equal(a["tool_palette.rule"], "routed");
  assert.deepEqual(a["tool_palette.offered"], ["web_search", "sql_query"]);
  assert.deepEqual(a["tool_palette.hidden"], ["calendar", "send_email"]);
  assert.equal(a["tool_palette.model.policy"], "sales-questions-use-sql");
  assert.deepEqual(a["tool_palette.dispatches"], ["web_search -> sql_query (sales-questions-use-sql)"]);
  assert.equal(ends[1].toolPalette["tool_palette.step"], 1);
  // Off when asked: nothing added to the runtime context.
  const quiet = adapter.createToolPalette({ router: contextRouter(core), tracing: false });
  const seen = [];
  await ai.generateText({ model: model("default", [text("ok")]), tools: quiet.wrapTools(tools([])), prepareStep: quiet.prepareStep, prompt: SALES, onStepEnd: (e) => seen.push(e.runtimeContext) });
  assert.equal(seen[0].toolPalette, undefined);
});

test("the message comes from runtimeContext.message when the host gives one; no message at all warns once per palette", async () => {
  const { core, adapter } = flavors.esm;
  const asked = [];
  const palette = adapter.createToolPalette({ router: routerOn(core, (m) => (asked.push(m), /sales/.test(m) ? ["sql_query"] : [])) });
  const m1 = model("default", [text("ok")]);
  await ai.generateText({ model: m1, tools: palette.wrapTools(tools([])), prepareStep: palette.prepareStep, prompt: "hello", runtimeContext: { message: "sales please" } });
  assert.deepEqual(asked, ["sales please"]);
  assert.deepEqual(offered(m1), [["sql_query"]]);

  const warnings = [];
  const silent = adapter.createToolPalette({ router: routerOn(core, () => []), onWarning: (w) => warnings.push(w) });
  for (let i = 0; i < 2; i++) {
    await ai.generateText({ model: model("default", [text("ok")]), tools: silent.wrapTools(tools([])), prepareStep: silent.prepareStep, prompt: "   " });
  }
  assert.equal(warnings.length, 1);
  assert.equal(warnings[0].name, "ToolPaletteAdapterWarning");
  assert.equal(warnings[0].code, "NO_MESSAGE");
  assert.match(warnings[0].message, /^tool-palette\/ai-sdk: no user message/);
});

test("a policy model given as an id string: the adapter says it cannot watch it, and still reports the step when the next one starts", async () => {
  const { core, adapter } = flavors.esm;
  const byId = model("by-id", [toolCall("calendar", { day: "friday" }, "call-1"), text("ok")]);
  globalThis.AI_SDK_DEFAULT_PROVIDER = { languageModel: () => byId, specificationVersion: "v3" };
  try {
    const warnings = [], reports = [];
    const policies = new core.ToolPolicies([{ name: "by-id", match: () => true, model: "mock:by-id" }]);
    const palette = adapter.createToolPalette({ router: router(core, ["calendar"]), policies, onDecision: (r) => reports.push(r), onWarning: (w) => warnings.push(w) });
    await ai.generateText({ model: model("default", []), tools: palette.wrapTools(tools([])), prepareStep: palette.prepareStep, prompt: "friday?", stopWhen: ai.stepCountIs(3) });
    assert.equal(byId.doGenerateCalls.length, 2);
    assert.deepEqual(warnings.map((w) => w.code), ["MODEL_NOT_WATCHED"]);
    assert.deepEqual(reports.map((r) => [r.step, r.selection.model, r.dispatches.map((d) => d.call.name)]), [[0, "mock:by-id", ["calendar"]]]);
  } finally {
    delete globalThis.AI_SDK_DEFAULT_PROVIDER;
  }
});

test("palette gate: a redirect to a tool outside the step's palette is dropped, the emitted tool runs", async () => {
  const { core, adapter } = flavors.esm;
  const salesModel = model("sales", [toolCall("web_search", { q: "march" }, "call-2"), text("ok")]);
  const executed = [], warnings = [], reports = [];
  const palette = adapter.createToolPalette({
    router: router(core, ["web_search"]), // sql_query is not routed this turn
    policies: salesPolicies(core, { model: salesModel, warnings }),
    onDecision: (r) => reports.push(r),
  });
  await ai.generateText({
    model: model("default", []),
    tools: palette.wrapTools(tools(executed)),
    prepareStep: palette.prepareStep,
    prompt: SALES,
    stopWhen: ai.stepCountIs(3),
  });
  assert.deepEqual(offered(salesModel), [["web_search"], ["web_search"]]);
  assert.deepEqual(executed, [["web_search", { q: "march" }]]);
  assert.equal(warnings.length, 1);
  assert.equal(warnings[0].name, "ToolRedirectDroppedWarning");
  assert.equal(warnings[0].target, "sql_query");
  assert.deepEqual(reports[0].dispatches[0].dropped?.target, "sql_query");
});

test("a per-step resolver as the router (its report when it passes onDecision on), and RoutingUnavailable keeping the full palette", async () => {
  const { core, adapter } = flavors.esm;
  const m1 = model("default", [text("hi")]);
  const calls = { n: 0 }, reports = [];
  const palette = adapter.createToolPalette({ router: messageRouter(core, calls), onDecision: (r) => reports.push(r) });
  await ai.generateText({ model: m1, tools: palette.wrapTools(tools([])), prepareStep: palette.prepareStep, prompt: SMALL_TALK });
  assert.deepEqual(offered(m1), [["calendar"]]);
  assert.equal(calls.n, 1);
  assert.equal(reports[0].routing, null); // messageRouter does not pass onDecision on
  assert.deepEqual(reports[0].offered, ["calendar"]);

  const m2 = model("default", [text("hi")]);
  const warned = [];
  const unavailable = new core.ToolRouter({ registered: REGISTERED, onWarning: (w) => warned.push(w) });
  const p2 = adapter.createToolPalette({ router: unavailable });
  await ai.generateText({ model: m2, tools: p2.wrapTools(tools([])), prepareStep: p2.prepareStep, prompt: SALES });
  assert.deepEqual(offered(m2), [REGISTERED]);
  assert.equal(warned.length, 1);
});

test("a ToolRouter built once routes on each turn's message: its entries receive the context", async () => {
  const { core, adapter } = flavors.esm;
  const calls = { n: 0 };
  const palette = adapter.createToolPalette({ router: contextRouter(core, calls) });
  const m1 = model("default", [text("hi")]);
  await ai.generateText({ model: m1, tools: palette.wrapTools(tools([])), prepareStep: palette.prepareStep, prompt: SMALL_TALK });
  const m2 = model("default", [text("hi")]);
  await ai.generateText({ model: m2, tools: palette.wrapTools(tools([])), prepareStep: palette.prepareStep, prompt: SALES });
  assert.deepEqual(offered(m1), [["calendar"]]);
  assert.deepEqual(offered(m2), [["web_search", "sql_query"]]);
  assert.equal(calls.n, 2);
});

test("a redirect whose arguments fail the target's schema is an error, not a silent call", async () => {
  const { core, adapter } = flavors.esm;
  const policies = new core.ToolPolicies([
    { name: "bad", match: () => true, whenTool: "web_search", redirectTo: "sql_query", argsTransform: () => ({ wrong: 1 }) },
  ]);
  const executed = [];
  const palette = adapter.createToolPalette({ policies });
  const result = await ai.generateText({
    model: model("default", [toolCall("web_search", { q: "x" }, "call-3"), text("ok")]),
    tools: palette.wrapTools(tools(executed)),
    prepareStep: palette.prepareStep,
    prompt: SALES,
    stopWhen: ai.stepCountIs(3),
  });
  assert.deepEqual(executed, []);
  const error = result.steps[0].content.find((p) => p.type === "tool-error");
  assert.match(String(error?.error?.message ?? error?.error), /do not match the input schema of "sql_query"/);
});

test("a redirect to a tool whose schema is a jsonSchema() with validate is checked by it, as the SDK checks a call: a refusal is an error, an accepted value is the one passed", async () => {
  const { core, adapter } = flavors.esm;
  const ran = [];
  const validate = (value) => (typeof value?.q === "string" ? { success: true, value: { q: value.q.toUpperCase() } } : { success: false, error: new Error("q must be a string") });
  const target = { description: "sql", inputSchema: ai.jsonSchema({ type: "object", properties: { q: { type: "string" } } }, { validate }), execute: async (input) => (ran.push(input), "ok") };
  for (const [args, expected] of [[{ q: "march" }, [{ q: "MARCH" }]], [{ q: 3 }, []]]) {
    ran.length = 0;
    const policies = new core.ToolPolicies([{ name: "to-sql", match: () => true, whenTool: "web_search", redirectTo: "sql_query", argsTransform: () => args }]);
    const palette = adapter.createToolPalette({ policies });
    const wrapped = palette.wrapTools({ web_search: { description: "web", execute: async () => "web" }, sql_query: target });
    const run = wrapped.web_search.execute({ q: "x" }, { toolCallId: "c1", messages: [] });
    if (expected.length) assert.equal(await run, "ok");
    else await assert.rejects(run, { name: "TypeError", message: 'tool-palette/ai-sdk: the redirected arguments do not match the input schema of "sql_query": q must be a string' });
    assert.deepEqual(ran, expected);
  }
});

test("wrong options are TypeErrors naming the option", () => {
  const { adapter } = flavors.esm;
  assert.throws(() => adapter.createToolPalette({ router: 42 }), /options\.router must be a ToolRouter/);
  assert.throws(() => adapter.createToolPalette({ policies: {} }), /options\.policies must be a ToolPolicies/);
  assert.throws(() => adapter.createToolPalette({ context: "x" }), /options\.context must be a function/);
  assert.throws(() => adapter.createToolPalette({ onDecision: 1 }), /options\.onDecision must be a function/);
  assert.throws(() => adapter.createToolPalette({ mode: "dry-run" }), /options\.mode must be "enforce" or "shadow"/);
  assert.throws(() => adapter.createToolPalette({ outsidePalette: "ignore" }), /options\.outsidePalette must be "refuse" or "allow"/);
  assert.throws(() => adapter.createToolPalette({ alwaysInclude: "calendar" }), /options\.alwaysInclude must be an iterable of tool names/);
  assert.throws(() => adapter.createToolPalette({ alwaysInclude: ["a", 1] }), /options\.alwaysInclude\[1\] must be a string/);
  assert.throws(() => adapter.createToolPalette().wrapTools([]), /wrapTools\(tools\) must be a record/);
});

for (const flavor of ["esm", "cjs"]) {
  test(`[${flavor}] toolSearch({ search: toolSearchFunction(index) }): deferred tools are found by the package's tool search`, async () => {
    const { core, adapter } = flavors[flavor];
    const make = (description, schema) => ai.tool({ description, inputSchema: schema, deferLoading: true, execute: async () => "ok" });
    const deferred = {
      get_weather: make("Current weather for a city", z.object({ city: z.string().describe("city name") })),
      send_email: make("Send an email message", z.object({ to: z.string().describe("recipient address") })),
      sql_query: make("Run SQL against the sales database", z.object({ query: z.string() })),
    };
    const searchModel = model("search", [toolCall("search", { query: "recipient address" }, "s-1"), text("found it")]);
    const withIndex = adapter.toolSearchFunction(new core.ToolIndex(deferred));
    const result = await ai.generateText({
      model: searchModel,
      prompt: "mail my boss",
      stopWhen: ai.stepCountIs(3),
      tools: { ...deferred, search: ai.toolSearch({ search: withIndex }) },
    });
    const found = result.steps[0].toolResults[0].output.tools.map((t) => t.name);
    // "recipient address" is only in send_email's parameter schema: the index read it.
    assert.equal(found[0], "send_email");
    // Without an index, the candidates the SDK hands over (names, descriptions) are indexed.
    const own = adapter.toolSearchFunction();
    assert.deepEqual(own({ query: "weather", tools: [{ name: "get_weather", description: "Current weather" }, { name: "x", description: "y" }] }), ["get_weather"]);
    assert.deepEqual(own({ query: "zzz", tools: [{ name: "a" }] }), []);
    assert.throws(() => adapter.toolSearchFunction(5), /toolSearchFunction\(index\)/);
  });
}

// ---------------------------------------------------------------- runs (options.cache, SPEC 8)

test('cache "append": one palette is one conversation; each turn is sent what was listed before, then the new tools, in the run\'s order', async () => {
  const { core, adapter } = flavors.esm;
  const reports = [];
  const palette = adapter.createToolPalette({ router: messageRouter(core), cache: "append", onDecision: (r) => reports.push(r) });
  const wrapped = palette.wrapTools(tools([]));
  const sent = [];
  for (const prompt of [SMALL_TALK, SALES, SALES]) {
    const m = model("default", [text("ok")]);
    await ai.generateText({ model: m, tools: wrapped, prepareStep: palette.prepareStep, prompt });
    sent.push(...offered(m));
  }
  // The SDK would send its record's order (web_search, sql_query, calendar): the run's keeps calendar first.
  assert.deepEqual(sent, [["calendar"], ["calendar", "web_search", "sql_query"], ["calendar", "web_search", "sql_query"]]);
  assert.deepEqual(reports.map((r) => [r.listed, r.offered, r.kept]), [
    [["calendar"], ["calendar"], false],
    [["calendar", "web_search", "sql_query"], ["calendar", "web_search", "sql_query"], false],
    [["calendar", "web_search", "sql_query"], ["calendar", "web_search", "sql_query"], true],
  ]);
  assert.deepEqual(reports.map((r) => [r.deferred, r.revealed]), [[[], []], [[], []], [[], []]]);
});

test('cache "fixed": every tool is sent on every step; a call outside the palette reaches no tool (a tool error) and the prefix is kept', async () => {
  const { core, adapter } = flavors.esm;
  const m = model("default", [toolCall("send_email", { to: "boss" }, "call-x"), text("Sorry.")]);
  const executed = [], reports = [];
  const palette = adapter.createToolPalette({ router: router(core, ["calendar"]), cache: "fixed", onDecision: (r) => reports.push(r) });
  const result = await ai.generateText({ model: m, tools: palette.wrapTools(tools(executed)), prepareStep: palette.prepareStep, prompt: "email my boss", stopWhen: ai.stepCountIs(3) });
  assert.deepEqual(offered(m), [REGISTERED, REGISTERED]);
  assert.deepEqual(executed, []);
  const error = result.steps[0].content.find((p) => p.type === "tool-error");
  assert.equal(error.toolName, "send_email");
  assert.match(String(error.error), /"send_email" is not offered this step \(offered: calendar\); the tool did not run/);
  assert.deepEqual(reports.map((r) => [r.offered, r.listed, r.kept]), [
    [["calendar"], REGISTERED, false],
    [["calendar"], REGISTERED, true],
  ]);
  assert.deepEqual(reports[0].outside, [{ id: "call-x", name: "send_email", refused: true }]);
  // A call the step offers runs as before.
  const ok = model("default", [toolCall("calendar", { day: "monday" }, "call-y"), text("Done.")]);
  await ai.generateText({ model: ok, tools: palette.wrapTools(tools(executed)), prepareStep: palette.prepareStep, prompt: "my calendar", stopWhen: ai.stepCountIs(3) });
  assert.deepEqual(executed, [["calendar", { day: "monday" }]]);
});

test('cache: "deferred" and unknown strategies are TypeErrors naming options.cache; new tools start a new run', async () => {
  const { core, adapter } = flavors.esm;
  assert.throws(() => adapter.createToolPalette({ cache: "deferred" }), (e) => e instanceof TypeError && /options\.cache "deferred" cannot be sent through this framework/.test(e.message));
  for (const [bad, got] of [["sometimes", 'got "sometimes"'], [1, "got number (1)"], [{}, "got an object"]]) {
    assert.throws(() => adapter.createToolPalette({ cache: bad }), { name: "TypeError", message: `tool-palette/ai-sdk: options.cache must be "per-turn", "append" or "fixed", ${got}` });
  }
  // null is no run, as leaving it out.
  assert.equal(typeof adapter.createToolPalette({ cache: null }).prepareStep, "function");
  const reports = [];
  const palette = adapter.createToolPalette({ router: router(core, ["calendar"]), cache: "append", onDecision: (r) => reports.push(r) });
  await ai.generateText({ model: model("a", [text("ok")]), tools: palette.wrapTools(tools([])), prepareStep: palette.prepareStep, prompt: "x" });
  const { calendar, web_search } = tools([]);
  await ai.generateText({ model: model("b", [text("ok")]), tools: palette.wrapTools({ web_search, calendar }), prepareStep: palette.prepareStep, prompt: "x" });
  assert.deepEqual(reports.map((r) => [r.listed, r.kept]), [[["calendar"], false], [["calendar"], false]]);
});
