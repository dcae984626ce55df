// tool-palette/ai-sdk inside the AI SDK's own loop: generateText with stopWhen, the
// SDK's MockLanguageModelV3 (ai/test), against the packed package in a consumer project.
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { consumer } from "./consumer.mjs";
import { REGISTERED, SALES, SMALL_TALK, salesPolicies, router, messageRouter, contextRouter } from "./fixtures.mjs";

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

const usage = { inputTokens: { total: 3, noCache: 3, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 2, text: 2, reasoning: 0 } };
const toolCall = (toolName, input, id) => ({
  content: [{ type: "tool-call", toolCallId: id, toolName, input: JSON.stringify(input) }],
  finishReason: { unified: "tool-calls", raw: "tool_calls" },
  usage,
  warnings: [],
});
const text = (t) => ({ content: [{ type: "text", text: t }], finishReason: { unified: "stop", raw: "stop" }, usage, warnings: [] });
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
  test(`[${flavor}] sales turn: routed palette offered, the policy's model answers, the redirect runs sql_query`, async () => {
    const { core, adapter } = flavors[flavor];
    const defaultModel = model("default", [text("unused")]);
    const salesModel = model("sales", [toolCall("web_search", { q: "2026-03" }, "call-1"), text("March sales were 42.")]);
    const executed = [], seen = [], routes = [], dispatches = [], calls = { n: 0 };
    const palette = adapter.createToolPalette({
      router: router(core, ["web_search", { tool: "sql_query" }, "a skill about prose"], calls),
      policies: salesPolicies(core, { model: salesModel, seen }),
      onRoute: (r) => routes.push(r),
      onDispatch: (d) => dispatches.push(d),
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
    assert.equal(result.steps[0].toolResults[0].output, "sql_query result");
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
  });

  test(`[${flavor}] refusal: every tool offered, the SDK's model answers, the emitted tool runs`, async () => {
    const { core, adapter } = flavors[flavor];
    const defaultModel = model("default", [toolCall("calendar", { day: "friday" }, "call-9"), text("Done.")]);
    const salesModel = model("sales", [text("unused")]);
    const executed = [], routes = [];
    const palette = adapter.createToolPalette({
      router: router(core, []), // no skills: refusal 3, "allow every tool"
      policies: salesPolicies(core, { model: salesModel }),
      onRoute: (r) => routes.push(r),
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
  });
}

test("palette gate: a redirect to a tool outside the step's palette is dropped, the emitted tool runs", async () => {
  const { core, adapter } = flavors.esm;
  const salesModel = model("sales", [toolCall("web_search", { q: "march" }, "call-2"), text("ok")]);
  const executed = [], warnings = [];
  const palette = adapter.createToolPalette({
    router: router(core, ["web_search"]), // sql_query is not routed this turn
    policies: salesPolicies(core, { model: salesModel, warnings }),
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
});

test("a per-turn resolver as the router, and RoutingUnavailable keeping the full palette", async () => {
  const { core, adapter } = flavors.esm;
  const m1 = model("default", [text("hi")]);
  const calls = { n: 0 };
  const palette = adapter.createToolPalette({ router: messageRouter(core, calls) });
  await ai.generateText({ model: m1, tools: palette.wrapTools(tools([])), prepareStep: palette.prepareStep, prompt: SMALL_TALK });
  assert.deepEqual(offered(m1), [["calendar"]]);
  assert.equal(calls.n, 1);

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

test("wrong options are TypeErrors naming the option", () => {
  const { adapter } = flavors.esm;
  assert.throws(() => adapter.createToolPalette({ router: 42 }), /options\.router must be a ToolRouter/);
  assert.throws(() => adapter.createToolPalette({ policies: {} }), /options\.policies must be a ToolPolicies/);
  assert.throws(() => adapter.createToolPalette({ context: "x" }), /options\.context must be a function/);
  assert.throws(() => adapter.createToolPalette().wrapTools([]), /wrapTools\(tools\) must be a record/);
});
