// tool-palette/langchain inside LangChain.js v1's own loop: createAgent with the
// middleware, LangChain's fake chat model (FakeBuiltModel from @langchain/core/testing,
// recording the tools bound at each model call), against the packed package.
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { consumer } from "./consumer.mjs";
import { REGISTERED, SALES, SMALL_TALK, salesPolicies, router, contextRouter, specCases, routerOn, asJson } from "./fixtures.mjs";

let lc, testing, z, flavors;
before(async () => {
  const c = await consumer();
  lc = await c.load("langchain");
  testing = await c.load("@langchain/core/testing");
  z = (await c.load("zod")).z;
  flavors = {
    esm: { core: await c.load("tool-palette"), adapter: await c.load("tool-palette/langchain") },
    cjs: { core: c.require("tool-palette"), adapter: c.require("tool-palette/langchain") },
  };
});

// LangChain's fake chat model, recording the names of the tools bound for each call.
// Messages get explicit ids: two fakes would otherwise both number theirs from "0".
function fakeModel(name, answers) {
  const model = new (class extends testing.FakeBuiltModel {
    bindTools(tools) {
      this.offered.push(tools.map((t) => t.name));
      return super.bindTools(tools);
    }
  })();
  model.label = name;
  model.offered = [];
  answers.forEach((a, i) => {
    const id = `${name}-${i}`;
    const calls = Array.isArray(a) ? a : typeof a === "string" ? null : [a];
    model.respond(
      calls === null
        ? new lc.AIMessage({ content: a, id })
        : new lc.AIMessage({ content: "", id, tool_calls: calls.map((c) => ({ ...c, type: "tool_call" })) }),
    );
  });
  return model;
}

function tools(executed) {
  const make = (name, schema) =>
    lc.tool(
      async (input) => {
        executed.push([name, input]);
        return `${name} result`;
      },
      { name, description: name, schema },
    );
  return [
    make("web_search", z.object({ q: z.string() })),
    make("sql_query", z.object({ query: z.string() })),
    make("calendar", z.object({ day: z.string() })),
    make("send_email", z.object({ to: z.string() })),
  ];
}

const toolMessages = (result) => result.messages.filter((m) => m.type === "tool");

for (const flavor of ["esm", "cjs"]) {
  test(`[${flavor}] sales turn: wrapModelCall narrows the tools and swaps the model, wrapToolCall runs the redirect, each model call reported`, async () => {
    const { core, adapter } = flavors[flavor];
    const defaultModel = fakeModel("default", ["unused"]);
    const salesModel = fakeModel("sales", [{ name: "web_search", args: { q: "2026-03" }, id: "call-1" }, "March sales were 42."]);
    const executed = [], routes = [], dispatches = [], seen = [], reports = [], calls = { n: 0 };
    const agent = lc.createAgent({
      model: defaultModel,
      tools: tools(executed),
      middleware: [
        adapter.toolPaletteMiddleware({
          router: router(core, ["web_search", "sql_query"], calls),
          policies: salesPolicies(core, { model: salesModel, seen }),
          onRoute: (r) => routes.push(r),
          onDispatch: (d) => dispatches.push(d),
          onDecision: (r) => reports.push(r),
        }),
      ],
    });
    const result = await agent.invoke({ messages: [new lc.HumanMessage(SALES)] });

    // Offered at each model call: the routed palette.
    assert.deepEqual(salesModel.offered, [["web_search", "sql_query"], ["web_search", "sql_query"]]);
    // Which model answered: the policy's instance, twice; the agent's own model never.
    assert.equal(salesModel.callCount, 2);
    assert.equal(defaultModel.callCount, 0);
    // Which tool executed: sql_query with the transformed arguments, answering call-1.
    assert.deepEqual(executed, [["sql_query", { query: "SELECT total FROM sales WHERE period = '2026-03'" }]]);
    // The ToolMessage stays the emitted call's: its id and its name.
    const [toolMessage] = toolMessages(result);
    assert.deepEqual([toolMessage.tool_call_id, toolMessage.name, toolMessage.content], ["call-1", "web_search", "sql_query result"]);
    assert.equal(result.messages.at(-1).content, "March sales were 42.");
    assert.equal(calls.n, 2);
    assert.equal(dispatches.length, 1);
    assert.equal(dispatches[0].redirectedBy, "sales-questions-use-sql");
    assert.equal(dispatches[0].call.id, "call-1");
    // The POST seam reused the context object of the model call that emitted the call.
    assert.equal(routes[0].ctx.message, SALES);
    assert.ok(seen.length >= 3 && seen.every((c) => c === routes[0].ctx || c === routes[1].ctx));
    // One report per model call.
    const json = reports.map(asJson);
    assert.deepEqual(json.map((r) => [r.step, r.routing.rule, r.offered, r.hidden, r.selection.policy]), [
      [0, "routed", ["web_search", "sql_query"], ["calendar", "send_email"], "sales-questions-use-sql"],
      [1, "routed", ["web_search", "sql_query"], ["calendar", "send_email"], "sales-questions-use-sql"],
    ]);
    assert.deepEqual(json[0].dispatches.map((d) => [d.original.name, d.call.name, d.call.id]), [["web_search", "sql_query", "call-1"]]);
    assert.deepEqual(json[1].dispatches, []);
    assert.equal(reports[0].dispatches[0], dispatches[0]);
  });

  test(`[${flavor}] refusal: every tool offered, the agent's model answers, the emitted tool runs`, async () => {
    const { core, adapter } = flavors[flavor];
    const defaultModel = fakeModel("default", [{ name: "calendar", args: { day: "friday" }, id: "call-5" }, "Done."]);
    const salesModel = fakeModel("sales", []);
    const executed = [], routes = [], reports = [];
    const agent = lc.createAgent({
      model: defaultModel,
      tools: tools(executed),
      middleware: [
        adapter.toolPaletteMiddleware({
          router: router(core, ["not_a_tool"]), // refusal 5
          policies: salesPolicies(core, { model: salesModel }),
          onRoute: (r) => routes.push(r),
          onDecision: (r) => reports.push(r),
        }),
      ],
    });
    await agent.invoke({ messages: [new lc.HumanMessage(SMALL_TALK)] });
    assert.deepEqual(defaultModel.offered, [REGISTERED, REGISTERED]);
    assert.equal(salesModel.callCount, 0);
    assert.deepEqual(executed, [["calendar", { day: "friday" }]]);
    assert.equal(routes[0].outcome.reason, "no skill resolved to a registered tool; allowing all tools");
    assert.deepEqual(routes[0].outcome.unresolved, ["not_a_tool"]);
    assert.deepEqual(reports.map((r) => [r.step, r.routing.rule, r.offered, r.selection.source]), [
      [0, "5", null, "default"],
      [1, "5", null, "default"],
    ]);
  });
}

test("reports agree with the outcome on every SPEC case (routed, 1, 2a, 2b, 3, 4, 5, unavailable)", async () => {
  const { core, adapter } = flavors.esm;
  for (const c of specCases(core)) {
    const m = fakeModel("default", ["ok"]);
    const reports = [], outcomes = [];
    const agent = lc.createAgent({
      model: m,
      tools: tools([]),
      middleware: [adapter.toolPaletteMiddleware({ router: c.router, onDecision: (r) => reports.push(r), onRoute: (r) => outcomes.push(r.outcome) })],
    });
    await agent.invoke({ messages: [new lc.HumanMessage(SALES)] });
    assert.equal(reports.length, 1, c.rule);
    assert.equal(reports[0].routing.rule, c.rule);
    assert.equal(reports[0].routing.outcome, outcomes[0], c.rule);
    assert.deepEqual(reports[0].offered, c.offered, c.rule);
    assert.deepEqual(reports[0].hidden, c.hidden, c.rule);
    assert.deepEqual(m.offered, [c.offered ?? REGISTERED], c.rule);
  }
});

test("a call outside the palette is answered as an unknown tool is: an error ToolMessage listing the offered tools; the tool never runs", async () => {
  const { core, adapter } = flavors.esm;
  const m = fakeModel("default", [{ name: "send_email", args: { to: "boss" }, id: "call-x" }, "Sorry."]);
  const executed = [], reports = [];
  const agent = lc.createAgent({
    model: m,
    tools: tools(executed),
    middleware: [adapter.toolPaletteMiddleware({ router: router(core, ["calendar"]), onDecision: (r) => reports.push(r) })],
  });
  const result = await agent.invoke({ messages: [new lc.HumanMessage("email my boss")] });
  assert.deepEqual(m.offered, [["calendar"], ["calendar"]]);
  assert.deepEqual(executed, []);
  const [refusal] = toolMessages(result);
  assert.ok(lc.ToolMessage.isInstance(refusal));
  assert.deepEqual([refusal.tool_call_id, refusal.name, refusal.status, refusal.content], ["call-x", "send_email", "error", "Error: send_email is not a valid tool, try one of [calendar]."]);
  assert.deepEqual(reports[0].outside, [{ id: "call-x", name: "send_email", refused: true }]);
  assert.deepEqual(reports.map((r) => r.step), [0, 1]);
});

test('outsidePalette: "allow" lets such a call run, while the model is still offered only the palette', async () => {
  const { core, adapter } = flavors.esm;
  const m = fakeModel("default", [{ name: "send_email", args: { to: "boss" }, id: "call-x" }, "Sent."]);
  const executed = [], reports = [];
  const agent = lc.createAgent({
    model: m,
    tools: tools(executed),
    middleware: [adapter.toolPaletteMiddleware({ router: router(core, ["calendar"]), outsidePalette: "allow", onDecision: (r) => reports.push(r) })],
  });
  const result = await agent.invoke({ messages: [new lc.HumanMessage("email my boss")] });
  assert.deepEqual(m.offered, [["calendar"], ["calendar"]]);
  assert.deepEqual(executed, [["send_email", { to: "boss" }]]);
  assert.equal(toolMessages(result)[0].content, "send_email result");
  assert.deepEqual(reports[0].outside, [{ id: "call-x", name: "send_email", refused: false }]);
});

test("shadow mode offers every tool, runs what the model emitted with the agent's model, and reports what would have been hidden", async () => {
  const { core, adapter } = flavors.esm;
  const defaultModel = fakeModel("default", [
    [
      { name: "web_search", args: { q: "march" }, id: "call-1" },
      { name: "calendar", args: { day: "friday" }, id: "call-2" },
    ],
    "ok",
  ]);
  const salesModel = fakeModel("sales", []);
  const executed = [], reports = [];
  const agent = lc.createAgent({
    model: defaultModel,
    tools: tools(executed),
    middleware: [adapter.toolPaletteMiddleware({ router: router(core, ["web_search", "sql_query"]), policies: salesPolicies(core, { model: salesModel }), mode: "shadow", onDecision: (r) => reports.push(r) })],
  });
  await agent.invoke({ messages: [new lc.HumanMessage(SALES)] });
  assert.deepEqual(defaultModel.offered, [REGISTERED, REGISTERED]);
  assert.equal(salesModel.callCount, 0);
  assert.deepEqual(executed.sort(), [["calendar", { day: "friday" }], ["web_search", { q: "march" }]]);
  const json = reports.map(asJson);
  assert.deepEqual(json.map((r) => [r.step, r.mode, r.offered, r.hidden]), [
    [0, "shadow", ["web_search", "sql_query"], ["calendar", "send_email"]],
    [1, "shadow", ["web_search", "sql_query"], ["calendar", "send_email"]],
  ]);
  assert.deepEqual(json[0].selection, { model: null, source: "policy", policy: "sales-questions-use-sql" });
  assert.deepEqual(json[0].dispatches.map((d) => [d.original.name, d.call.name]).sort(), [["calendar", "calendar"], ["web_search", "sql_query"]]);
  assert.deepEqual(json[0].outside, [{ id: "call-2", name: "calendar", refused: false }]);
});

test("pinned tools (alwaysInclude) are offered on every model call besides the routed palette", async () => {
  const { core, adapter } = flavors.esm;
  const m = fakeModel("default", [{ name: "calendar", args: { day: "friday" }, id: "call-1" }, "ok"]);
  const executed = [], reports = [], outcomes = [];
  const agent = lc.createAgent({
    model: m,
    tools: tools(executed),
    middleware: [adapter.toolPaletteMiddleware({ router: router(core, ["web_search"]), alwaysInclude: ["calendar"], onDecision: (r) => reports.push(r), onRoute: (r) => outcomes.push(r.outcome) })],
  });
  await agent.invoke({ messages: [new lc.HumanMessage("friday?")] });
  assert.deepEqual(m.offered, [["web_search", "calendar"], ["web_search", "calendar"]]);
  assert.deepEqual(executed, [["calendar", { day: "friday" }]]);
  assert.deepEqual(outcomes[0].names, ["web_search"]);
  assert.deepEqual(reports[0].offered, ["web_search", "calendar"]);
  assert.deepEqual(reports[0].outside, []);
});

test("a routed palette naming none of the framework's tools offers every tool (NOTHING_OFFERED), however alwaysInclude pins one", async () => {
  const { core, adapter } = flavors.esm;
  const m = fakeModel("default", ["ok"]);
  const warnings = [];
  const agent = lc.createAgent({ model: m, tools: tools([]), middleware: [adapter.toolPaletteMiddleware({ router: new core.ToolRouter({ registered: [...REGISTERED, "ghost"], entries: async () => ["ghost"] }), alwaysInclude: ["calendar"], onWarning: (w) => warnings.push(w) })] });
  await agent.invoke({ messages: [new lc.HumanMessage("friday?")] });
  assert.deepEqual(m.offered, [["web_search", "sql_query", "calendar", "send_email"]]);
  assert.deepEqual(warnings.map((w) => w.code), ["NOTHING_OFFERED"]);
});

test("callbacks: each step's attributes reach the run's callbacks as the custom event tool_palette_step", async () => {
  const { core, adapter } = flavors.esm;
  const salesModel = fakeModel("sales", [{ name: "web_search", args: { q: "2026-03" }, id: "call-1" }, "ok"]);
  const events = [];
  const agent = lc.createAgent({
    model: fakeModel("default", []),
    tools: tools([]),
    middleware: [adapter.toolPaletteMiddleware({ router: contextRouter(core), policies: salesPolicies(core, { model: salesModel }) })],
  });
  await agent.invoke({ messages: [new lc.HumanMessage(SALES)] }, { callbacks: [{ handleCustomEvent: (name, data, runId) => events.push({ name, data, runId }) }] });
  assert.equal(adapter.CUSTOM_EVENT, "tool_palette_step");
  assert.deepEqual(events.map((e) => e.name), ["tool_palette_step", "tool_palette_step"]);
  assert.ok(events.every((e) => typeof e.runId === "string"));
  const [a, b] = events.map((e) => e.data);
  assert.equal(a["tool_palette.step"], 0);
  assert.equal(a["tool_palette.rule"], "routed");
  assert.deepEqual(a["tool_palette.offered"], ["web_search", "sql_query"]);
  assert.deepEqual(a["tool_palette.dispatches"], ["web_search -> sql_query (sales-questions-use-sql)"]);
  assert.equal(b["tool_palette.step"], 1);
});

test("the message: a runtime context's message wins; none at all warns once per middleware", async () => {
  const { core, adapter } = flavors.esm;
  const m = fakeModel("default", ["ok"]);
  const agent = lc.createAgent({ model: m, tools: tools([]), middleware: [adapter.toolPaletteMiddleware({ router: contextRouter(core) })] });
  await agent.invoke({ messages: [new lc.HumanMessage("hello")] }, { context: { message: "sales figures please" } });
  assert.deepEqual(m.offered, [["web_search", "sql_query"]]);

  const warnings = [];
  const mw = adapter.toolPaletteMiddleware({ router: contextRouter(core), onWarning: (w) => warnings.push(w) });
  for (let i = 0; i < 2; i++) {
    await lc.createAgent({ model: fakeModel("default", ["ok"]), tools: tools([]), middleware: [mw] }).invoke({ messages: [new lc.HumanMessage("  ")] });
  }
  assert.deepEqual(warnings.map((w) => [w.name, w.code]), [["ToolPaletteAdapterWarning", "NO_MESSAGE"]]);
});

test("palette gate: a redirect outside the routed palette is dropped, the emitted tool runs", async () => {
  const { core, adapter } = flavors.esm;
  const salesModel = fakeModel("sales", [{ name: "web_search", args: { q: "march" }, id: "call-2" }, "ok"]);
  const executed = [], warnings = [];
  const agent = lc.createAgent({
    model: fakeModel("default", []),
    tools: tools(executed),
    middleware: [adapter.toolPaletteMiddleware({ router: router(core, ["web_search"]), policies: salesPolicies(core, { model: salesModel, warnings }) })],
  });
  await agent.invoke({ messages: [new lc.HumanMessage(SALES)] });
  assert.deepEqual(salesModel.offered, [["web_search"], ["web_search"]]);
  assert.deepEqual(executed, [["web_search", { q: "march" }]]);
  assert.equal(warnings.length, 1);
  assert.equal(warnings[0].target, "sql_query");
});

test("the agent's runtime context reaches the default context; a custom context function is used at both seams", async () => {
  const { core, adapter } = flavors.esm;
  const m = fakeModel("default", [{ name: "web_search", args: { q: "x" }, id: "call-3" }, "ok"]);
  const executed = [], inputs = [];
  const policies = new core.ToolPolicies([
    { name: "tenant-sql", match: (ctx) => ctx.tenant === "acme", whenTool: "web_search", redirectTo: "sql_query", argsTransform: (a) => ({ query: a.q }) },
  ]);
  const agent = lc.createAgent({
    model: m,
    tools: tools(executed),
    contextSchema: z.object({ tenant: z.string() }),
    middleware: [
      adapter.toolPaletteMiddleware({
        policies,
        context: (request) => {
          inputs.push(Object.keys(request).includes("toolCall") ? "tool" : "model");
          return { tenant: request.runtime.context.tenant };
        },
      }),
    ],
  });
  await agent.invoke({ messages: [new lc.HumanMessage("look it up")] }, { context: { tenant: "acme" } });
  assert.deepEqual(executed, [["sql_query", { query: "x" }]]);
  // Derived once per model call; the tool call reused its model call's context.
  assert.deepEqual(inputs, ["model", "model"]);
  const ctx = adapter.defaultContext({ messages: [new lc.HumanMessage("hi")], runtime: { context: 1 } });
  assert.equal(ctx.message, "hi");
  assert.equal(ctx.runtimeContext, 1);
});

// ---------------------------------------------------------------- runs (options.cache, SPEC 8)

test('cache "append": one middleware is one conversation; each model call is bound what was listed before, then the new tools, in the run\'s order', async () => {
  const { core, adapter } = flavors.esm;
  const reports = [];
  const middleware = adapter.toolPaletteMiddleware({ router: routerOn(core, (message) => (message === SMALL_TALK ? ["calendar"] : ["web_search", "sql_query"])), cache: "append", onDecision: (r) => reports.push(r) });
  const bound = [];
  for (const prompt of [SMALL_TALK, SALES, SALES]) {
    const m = fakeModel("default", ["ok"]);
    await lc.createAgent({ model: m, tools: tools([]), middleware: [middleware] }).invoke({ messages: [new lc.HumanMessage(prompt)] });
    bound.push(...m.offered);
  }
  assert.deepEqual(bound, [["calendar"], ["calendar", "web_search", "sql_query"], ["calendar", "web_search", "sql_query"]]);
  assert.deepEqual(reports.map((r) => [r.listed, r.kept]), [
    [["calendar"], false],
    [["calendar", "web_search", "sql_query"], false],
    [["calendar", "web_search", "sql_query"], true],
  ]);
});

test('cache "fixed": every tool bound on every call; a call outside the palette gets the error ToolMessage naming the offered tools', async () => {
  const { core, adapter } = flavors.esm;
  const m = fakeModel("default", [{ name: "send_email", args: { to: "boss" }, id: "call-x" }, "Sorry."]);
  const executed = [], reports = [];
  const agent = lc.createAgent({ model: m, tools: tools(executed), middleware: [adapter.toolPaletteMiddleware({ router: router(core, ["calendar"]), cache: "fixed", onDecision: (r) => reports.push(r) })] });
  const result = await agent.invoke({ messages: [new lc.HumanMessage("email my boss")] });
  assert.deepEqual(m.offered, [REGISTERED, REGISTERED]);
  assert.deepEqual(executed, []);
  const [refusal] = toolMessages(result);
  assert.deepEqual([refusal.tool_call_id, refusal.status, refusal.content], ["call-x", "error", "Error: send_email is not a valid tool, try one of [calendar]."]);
  assert.deepEqual(reports.map((r) => [r.offered, r.listed, r.kept]), [[["calendar"], REGISTERED, false], [["calendar"], REGISTERED, true]]);
  assert.throws(() => adapter.toolPaletteMiddleware({ cache: "deferred" }), (e) => e instanceof TypeError && /tool-palette\/langchain: options\.cache "deferred"/.test(e.message));
});
