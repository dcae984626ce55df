// tool-palette/openai-agents inside the OpenAI Agents SDK's own loop: run/Runner.run with
// fake Model objects that answer from a script, against the packed package in a consumer
// project. Offline: tracing is disabled (one test collects spans with its own processor)
// and no OpenAI model is built.
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { consumer } from "./consumer.mjs";
import { REGISTERED, SALES, SMALL_TALK, salesPolicies, router, contextRouter, specCases, routerOn, asJson } from "./fixtures.mjs";

let agents, z, flavors;
before(async () => {
  const c = await consumer();
  agents = await c.load("@openai/agents");
  z = (await c.load("zod")).z;
  agents.setTracingDisabled(true);
  flavors = {
    esm: { core: await c.load("tool-palette"), adapter: await c.load("tool-palette/openai-agents") },
    cjs: { core: c.require("tool-palette"), adapter: c.require("tool-palette/openai-agents") },
  };
});

// A fake Model: answers each turn from `script`, records every request.
function fakeModel(name, script) {
  return {
    name,
    requests: [],
    async getResponse(request) {
      this.requests.push(request);
      const output = script.shift();
      if (!output) throw new Error(`fake model ${name}: no answer left`);
      return { usage: new agents.Usage({ requests: 1, inputTokens: 3, outputTokens: 2, totalTokens: 5 }), output, responseId: `${name}-${this.requests.length}` };
    },
    async *getStreamedResponse(request) {
      const response = await this.getResponse(request);
      yield { type: "response_started" };
      yield { type: "response_done", response: { id: response.responseId, usage: { requests: 1, inputTokens: 3, outputTokens: 2, totalTokens: 5, inputTokensDetails: [], outputTokensDetails: [] }, output: response.output } };
    },
  };
}
const functionCall = (name, args, callId) => ({ type: "function_call", callId, name, arguments: JSON.stringify(args), status: "completed" });
const message = (text) => [{ type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text }] }];
const offered = (m) => m.requests.map((r) => r.tools.map((t) => t.name));

function tools(executed) {
  const make = (name, parameters) =>
    agents.tool({
      name,
      description: name,
      parameters,
      execute: async (input) => {
        executed.push([name, input]);
        return `${name} result`;
      },
    });
  return [
    make("web_search", z.object({ q: z.string() })),
    make("sql_query", z.object({ query: z.string() })),
    make("calendar", z.object({ day: z.string() })),
    make("send_email", z.object({ to: z.string() })),
  ];
}

for (const flavor of ["esm", "cjs"]) {
  test(`[${flavor}] sales run: each turn offers the routed palette, the policy's model answers, the redirect runs sql_query, each turn reported`, async () => {
    const { core, adapter } = flavors[flavor];
    const defaultModel = fakeModel("default", [message("unused")]);
    const salesModel = fakeModel("sales", [[functionCall("web_search", { q: "2026-03" }, "call-1")], message("March sales were 42.")]);
    const executed = [], routes = [], dispatches = [], reports = [], calls = { n: 0 };
    const palette = adapter.createToolPalette({
      router: router(core, ["web_search", "sql_query"], calls),
      policies: salesPolicies(core, { model: salesModel }),
      onRoute: (r) => routes.push(r),
      onDispatch: (d) => dispatches.push(d),
      onDecision: (r) => reports.push(r),
    });
    const provided = [];
    const runner = new agents.Runner({
      tracingDisabled: true,
      modelProvider: {
        getModel(name) {
          provided.push(name);
          return palette.model(defaultModel);
        },
      },
    });
    const agent = new agents.Agent({ name: "analyst", instructions: "Answer.", model: "house-model", tools: palette.tools(tools(executed)) });
    const result = await runner.run(agent, SALES, { context: { message: SALES } });

    // Offered at each turn: only the routed tools.
    assert.deepEqual(offered(salesModel), [["web_search", "sql_query"], ["web_search", "sql_query"]]);
    // Which model answered: the policy's instance both turns, through the fake provider.
    assert.equal(salesModel.requests.length, 2);
    assert.equal(defaultModel.requests.length, 0);
    assert.ok(provided.length >= 1 && provided.every((n) => n === "house-model"));
    // Which tool executed: sql_query with the transformed arguments.
    assert.deepEqual(executed, [["sql_query", { query: "SELECT total FROM sales WHERE period = '2026-03'" }]]);
    assert.equal(result.finalOutput, "March sales were 42.");
    // One store query per turn, not one per tool.
    assert.equal(calls.n, 2);
    assert.deepEqual(routes.map((r) => [r.outcome.kind, r.activeTools]), [
      ["routed", ["web_search", "sql_query"]],
      ["routed", ["web_search", "sql_query"]],
    ]);
    assert.equal(dispatches.length, 1);
    assert.equal(dispatches[0].redirectedBy, "sales-questions-use-sql");
    assert.equal(dispatches[0].call.id, "call-1");
    // The context is the run context the caller passed (it has a message: it wins).
    assert.equal(routes[0].ctx.message, SALES);
    assert.equal(routes[0].ctx, result.state._context.context);
    assert.equal(routes[0].agent, agent);
    // The model saw the output of the redirected call as the emitted call's: its callId and name.
    const output = salesModel.requests[1].input.find((item) => item.type === "function_call_result");
    assert.deepEqual([output.callId, output.name], ["call-1", "web_search"]);
    assert.match(JSON.stringify(output.output), /sql_query result/);
    // One report per turn.
    const json = reports.map(asJson);
    assert.deepEqual(json.map((r) => [r.step, r.routing.rule, r.offered, r.hidden, r.selection.model, r.dispatches.length]), [
      [0, "routed", ["web_search", "sql_query"], ["calendar", "send_email"], "sales", 1],
      [1, "routed", ["web_search", "sql_query"], ["calendar", "send_email"], "sales", 0],
    ]);
    assert.equal(reports[0].dispatches[0], dispatches[0]);
  });

  test(`[${flavor}] refusal: every tool offered, the fallback model answers, the emitted tool runs`, async () => {
    const { core, adapter } = flavors[flavor];
    const defaultModel = fakeModel("default", [[functionCall("calendar", { day: "friday" }, "call-7")], message("Done.")]);
    const salesModel = fakeModel("sales", []);
    const executed = [], routes = [], reports = [];
    const palette = adapter.createToolPalette({
      router: router(core, [{ tool: "calendar", active: false }]), // refusal 4
      policies: salesPolicies(core, { model: salesModel }),
      onRoute: (r) => routes.push(r),
      onDecision: (r) => reports.push(r),
    });
    const agent = new agents.Agent({ name: "helper", instructions: "Help.", model: palette.model(defaultModel), tools: palette.tools(tools(executed)) });
    await agents.run(agent, SMALL_TALK);
    assert.deepEqual(offered(defaultModel), [REGISTERED, REGISTERED]);
    assert.equal(salesModel.requests.length, 0);
    assert.deepEqual(executed, [["calendar", { day: "friday" }]]);
    assert.equal(routes[0].outcome.reason, "every skill is inactive; allowing all tools");
    assert.deepEqual(reports.map((r) => [r.step, r.routing.rule, r.offered, r.dispatches.map((d) => d.call.name)]), [
      [0, "4", null, ["calendar"]],
      [1, "4", null, []],
    ]);
  });
}

test("run(agent, message) with no run context routes on the input's last user message, and redirects", async () => {
  const { core, adapter } = flavors.esm;
  const salesModel = fakeModel("sales", [[functionCall("web_search", { q: "2026-03" }, "call-1")], message("42.")]);
  const executed = [], routes = [];
  const palette = adapter.createToolPalette({ router: contextRouter(core), policies: salesPolicies(core, { model: salesModel }), onRoute: (r) => routes.push(r) });
  const agent = new agents.Agent({ name: "assistant", tools: palette.tools(tools(executed)), model: palette.model(fakeModel("default", [])) });
  await agents.run(agent, SALES);
  assert.deepEqual(offered(salesModel), [["web_search", "sql_query"], ["web_search", "sql_query"]]);
  assert.deepEqual(executed, [["sql_query", { query: "SELECT total FROM sales WHERE period = '2026-03'" }]]);
  assert.deepEqual(routes[0].ctx, { message: SALES }); // the SDK's default run context {} and the message

  // A run context without a message keeps its fields and gains the message; input items work too.
  const m = fakeModel("default", [message("ok")]);
  const seen = [];
  const p2 = adapter.createToolPalette({ router: contextRouter(core), onRoute: (r) => seen.push(r.ctx) });
  await agents.run(new agents.Agent({ name: "a", tools: p2.tools(tools([])), model: p2.model(m) }), [{ role: "user", content: "check my calendar" }], { context: { tenant: "acme" } });
  assert.deepEqual(seen[0], { tenant: "acme", message: "check my calendar" });
  assert.deepEqual(offered(m), [["calendar"]]);
});

test("concurrent runs on one palette each route on their own message and run context", async () => {
  const { core, adapter } = flavors.esm;
  const seen = [];
  const slowRouter = new core.ToolRouter({
    entries: async (ctx) => {
      await new Promise((r) => setTimeout(r, /sales/i.test(ctx.message) ? 15 : 1));
      return /sales/i.test(ctx.message) ? ["web_search", "sql_query"] : ["calendar"];
    },
    registered: REGISTERED,
  });
  const palette = adapter.createToolPalette({ router: slowRouter, onRoute: (r) => seen.push(r.ctx) });
  const a = fakeModel("a", [message("ok")]);
  const b = fakeModel("b", [message("ok")]);
  await Promise.all([
    agents.run(new agents.Agent({ name: "a", tools: palette.tools(tools([])), model: palette.model(a) }), SALES, { context: { tenant: "acme" } }),
    agents.run(new agents.Agent({ name: "b", tools: palette.tools(tools([])), model: palette.model(b) }), "check my calendar", { context: { tenant: "globex" } }),
  ]);
  assert.deepEqual(offered(a), [["web_search", "sql_query"]]);
  assert.deepEqual(offered(b), [["calendar"]]);
  assert.deepEqual(seen.map((c) => [c.tenant, c.message]).sort(), [["acme", SALES], ["globex", "check my calendar"]].sort());
});

test("reports agree with the outcome on every SPEC case (routed, 1, 2a, 2b, 3, 4, 5, unavailable)", async () => {
  const { core, adapter } = flavors.esm;
  for (const c of specCases(core)) {
    const m = fakeModel("default", [message("ok")]);
    const reports = [], outcomes = [];
    const palette = adapter.createToolPalette({ router: c.router, onDecision: (r) => reports.push(r), onRoute: (r) => outcomes.push(r.outcome) });
    await agents.run(new agents.Agent({ name: "a", tools: palette.tools(tools([])), model: palette.model(m) }), SALES);
    assert.equal(reports.length, 1, c.rule);
    assert.equal(reports[0].routing.rule, c.rule);
    assert.equal(reports[0].routing.outcome, outcomes[0], c.rule);
    assert.deepEqual(reports[0].offered, c.offered, c.rule);
    assert.deepEqual(reports[0].hidden, c.hidden, c.rule);
    assert.deepEqual(offered(m), [c.offered ?? REGISTERED], c.rule);
  }
});

test("a call outside the palette is refused as the SDK refuses an unknown tool: the run rejects with a ModelBehaviorError, nothing runs", async () => {
  const { core, adapter } = flavors.esm;
  const m = fakeModel("default", [[functionCall("calendar", { day: "friday" }, "call-ok"), functionCall("send_email", { to: "boss" }, "call-x")]]);
  const executed = [], reports = [];
  const palette = adapter.createToolPalette({ router: router(core, ["calendar"]), onDecision: (r) => reports.push(r) });
  const agent = new agents.Agent({ name: "assistant", tools: palette.tools(tools(executed)), model: palette.model(m) });
  await assert.rejects(agents.run(agent, "email my boss"), (e) => {
    assert.equal(e.name, "ModelBehaviorError");
    assert.ok(e instanceof adapter.ToolOutsidePaletteError);
    assert.equal(e.message, "Tool send_email not found in agent assistant: tool-palette did not offer it this turn (offered: calendar).");
    assert.equal(e.toolName, "send_email");
    return true;
  });
  assert.deepEqual(offered(m), [["calendar"]]);
  assert.deepEqual(executed, []);
  assert.deepEqual(reports.map((r) => [r.step, r.outside]), [[0, [{ id: "call-x", name: "send_email", refused: true }]]]);
  // The SDK's own refusal of a tool it does not know, for comparison: the same name and wording.
  const bare = new agents.Agent({ name: "assistant", tools: tools([]), model: fakeModel("bare", [[functionCall("nope", {}, "c")]]) });
  await assert.rejects(agents.run(bare, "x"), (e) => e instanceof agents.ModelBehaviorError && e.message === "Tool nope not found in agent assistant.");
});

test('outsidePalette: "allow" lets such a call run, while the model is still offered only the palette', async () => {
  const { core, adapter } = flavors.esm;
  const m = fakeModel("default", [[functionCall("send_email", { to: "boss" }, "call-x")], message("Sent.")]);
  const executed = [], reports = [];
  const palette = adapter.createToolPalette({ router: router(core, ["calendar"]), outsidePalette: "allow", onDecision: (r) => reports.push(r) });
  await agents.run(new agents.Agent({ name: "a", tools: palette.tools(tools(executed)), model: palette.model(m) }), "email my boss");
  assert.deepEqual(offered(m), [["calendar"], ["calendar"]]);
  assert.deepEqual(executed, [["send_email", { to: "boss" }]]);
  assert.deepEqual(reports[0].outside, [{ id: "call-x", name: "send_email", refused: false }]);
});

test("shadow mode offers every tool, runs what the model emitted with the fallback model, and reports what would have been hidden", async () => {
  const { core, adapter } = flavors.esm;
  const defaultModel = fakeModel("default", [[functionCall("web_search", { q: "march" }, "call-1"), functionCall("calendar", { day: "friday" }, "call-2")], message("ok")]);
  const salesModel = fakeModel("sales", []);
  const executed = [], reports = [];
  const palette = adapter.createToolPalette({ router: router(core, ["web_search", "sql_query"]), policies: salesPolicies(core, { model: salesModel }), mode: "shadow", onDecision: (r) => reports.push(r) });
  await agents.run(new agents.Agent({ name: "a", tools: palette.tools(tools(executed)), model: palette.model(defaultModel) }), SALES);
  assert.deepEqual(offered(defaultModel), [REGISTERED, REGISTERED]);
  assert.equal(salesModel.requests.length, 0);
  assert.deepEqual(executed.sort(), [["calendar", { day: "friday" }], ["web_search", { q: "march" }]]);
  const json = reports.map(asJson);
  assert.deepEqual(json.map((r) => [r.step, r.mode, r.offered, r.hidden]), [
    [0, "shadow", ["web_search", "sql_query"], ["calendar", "send_email"]],
    [1, "shadow", ["web_search", "sql_query"], ["calendar", "send_email"]],
  ]);
  assert.deepEqual(json[0].selection, { model: "sales", source: "policy", policy: "sales-questions-use-sql" });
  assert.deepEqual(json[0].dispatches.map((d) => [d.original.name, d.call.name]).sort(), [["calendar", "calendar"], ["web_search", "sql_query"]]);
  assert.deepEqual(json[0].outside, [{ id: "call-2", name: "calendar", refused: false }]);
});

test("pinned tools (alwaysInclude) are offered every turn besides the routed palette", async () => {
  const { core, adapter } = flavors.esm;
  const m = fakeModel("default", [[functionCall("calendar", { day: "friday" }, "call-1")], message("ok")]);
  const executed = [], reports = [];
  const palette = adapter.createToolPalette({ router: router(core, ["web_search"]), alwaysInclude: ["calendar"], onDecision: (r) => reports.push(r) });
  await agents.run(new agents.Agent({ name: "a", tools: palette.tools(tools(executed)), model: palette.model(m) }), "friday?");
  assert.deepEqual(offered(m), [["web_search", "calendar"], ["web_search", "calendar"]]);
  assert.deepEqual(executed, [["calendar", { day: "friday" }]]);
  assert.deepEqual(reports[0].offered, ["web_search", "calendar"]);
  assert.deepEqual(reports[0].outside, []);
});

test("a routed palette naming none of the framework's tools offers every tool (NOTHING_OFFERED), however alwaysInclude pins one", async () => {
  const { core, adapter } = flavors.esm;
  const m = fakeModel("default", [message("ok")]);
  const warnings = [];
  const palette = adapter.createToolPalette({ router: new core.ToolRouter({ registered: [...REGISTERED, "ghost"], entries: async () => ["ghost"] }), alwaysInclude: ["calendar"], onWarning: (w) => warnings.push(w) });
  await agents.run(new agents.Agent({ name: "a", tools: palette.tools(tools([])), model: palette.model(m) }), "friday?");
  assert.deepEqual(offered(m), [["web_search", "sql_query", "calendar", "send_email"]]);
  assert.deepEqual(warnings.map((w) => w.code), ["NOTHING_OFFERED"]);
});

test("hosted tools are not function tools: they stay offered whatever the routing", async () => {
  const { core, adapter } = flavors.esm;
  const m = fakeModel("default", [message("ok")]);
  const palette = adapter.createToolPalette({ router: router(core, ["calendar"]) });
  const hosted = agents.codeInterpreterTool();
  await agents.run(new agents.Agent({ name: "a", tools: [...palette.tools(tools([])), hosted], model: palette.model(m) }), "friday?");
  assert.deepEqual(offered(m), [["calendar", hosted.name]]);
});

test("streamed runs: the same routing, redirect and reports through getStreamedResponse", async () => {
  const { core, adapter } = flavors.esm;
  const salesModel = fakeModel("sales", [[functionCall("web_search", { q: "2026-03" }, "call-1")], message("42.")]);
  const executed = [], reports = [];
  const palette = adapter.createToolPalette({ router: contextRouter(core), policies: salesPolicies(core, { model: salesModel }), onDecision: (r) => reports.push(r) });
  const agent = new agents.Agent({ name: "a", tools: palette.tools(tools(executed)), model: palette.model(fakeModel("default", [])) });
  const result = await agents.run(agent, SALES, { stream: true });
  for await (const _ of result) void _;
  await result.completed;
  assert.equal(result.finalOutput, "42.");
  assert.deepEqual(offered(salesModel), [["web_search", "sql_query"], ["web_search", "sql_query"]]);
  assert.deepEqual(executed, [["sql_query", { query: "SELECT total FROM sales WHERE period = '2026-03'" }]]);
  assert.deepEqual(reports.map((r) => [r.step, r.dispatches.map((d) => d.call.name)]), [[0, ["sql_query"]], [1, []]]);
});

test("tracing: each turn is a custom span tool-palette in the run's trace, with the report's attributes", async () => {
  const { core, adapter } = flavors.esm;
  const spans = [];
  const collector = {
    async onTraceStart() {},
    async onTraceEnd() {},
    async onSpanStart() {},
    async onSpanEnd(span) {
      spans.push(span.toJSON());
    },
    async shutdown() {},
    async forceFlush() {},
  };
  agents.setTraceProcessors([collector]);
  agents.setTracingDisabled(false);
  try {
    const salesModel = fakeModel("sales", [[functionCall("web_search", { q: "2026-03" }, "call-1")], message("42.")]);
    const palette = adapter.createToolPalette({ router: contextRouter(core), policies: salesPolicies(core, { model: salesModel }) });
    await agents.run(new agents.Agent({ name: "a", tools: palette.tools(tools([])), model: palette.model(fakeModel("default", [])) }), SALES);
  } finally {
    agents.setTracingDisabled(true);
    agents.setTraceProcessors([]);
  }
  const ours = spans.filter((s) => s.span_data?.type === "custom" && s.span_data.name === "tool-palette");
  assert.equal(ours.length, 2);
  const [a, b] = ours.map((s) => s.span_data.data);
  assert.equal(a["tool_palette.step"], 0);
  assert.equal(a["tool_palette.rule"], "routed");
  assert.deepEqual(a["tool_palette.offered"], ["web_search", "sql_query"]);
  assert.deepEqual(a["tool_palette.dispatches"], ["web_search -> sql_query (sales-questions-use-sql)"]);
  assert.equal(b["tool_palette.step"], 1);
  const agentSpan = spans.find((s) => s.span_data?.type === "agent");
  assert.ok(ours.every((s) => s.trace_id === agentSpan.trace_id && s.parent_id));
});

test("no message at all warns once per palette; palette.tools() without palette.model() warns that nothing is routed", async () => {
  const { core, adapter } = flavors.esm;
  const warnings = [];
  const palette = adapter.createToolPalette({ router: routerOn(core, () => []), onWarning: (w) => warnings.push(w) });
  for (let i = 0; i < 2; i++) {
    await agents.run(new agents.Agent({ name: "a", tools: palette.tools(tools([])), model: palette.model(fakeModel("default", [message("ok")])) }), "   ");
  }
  assert.deepEqual(warnings.map((w) => [w.name, w.code]), [["ToolPaletteAdapterWarning", "NO_MESSAGE"]]);

  const w2 = [];
  const p2 = adapter.createToolPalette({ router: routerOn(core, () => ["calendar"]), onWarning: (w) => w2.push(w) });
  const executed = [];
  const bare = fakeModel("bare", [[functionCall("send_email", { to: "x" }, "c1")], message("ok")]);
  await agents.run(new agents.Agent({ name: "a", tools: p2.tools(tools(executed)), model: bare }), "hello");
  assert.deepEqual(w2.map((w) => w.code), ["NO_MODEL_SEAM"]);
  assert.match(w2[0].message, /palette\.model\(yourModel\)/);
  assert.deepEqual(executed, [["send_email", { to: "x" }]]);
});

test("the tool's own isEnabled still applies, and a string run context is the message", async () => {
  const { core, adapter } = flavors.esm;
  const m = fakeModel("default", [message("ok")]);
  const [web, sql, cal, email] = tools([]);
  const disabledSql = { ...sql, isEnabled: async () => false };
  const routes = [];
  const palette = adapter.createToolPalette({ router: router(core, ["web_search", "sql_query"]), onRoute: (r) => routes.push(r) });
  const agent = new agents.Agent({ name: "a", instructions: "x", model: palette.model(m), tools: palette.tools([web, disabledSql, cal, email]) });
  await agents.run(agent, "hello", { context: "hello there" });
  assert.deepEqual(offered(m), [["web_search"]]);
  assert.deepEqual(routes[0].ctx, { message: "hello there" });
});

test("a policy model that is not a Model instance is a clear error", async () => {
  const { core, adapter } = flavors.esm;
  const policies = new core.ToolPolicies([{ name: "by-name", match: () => true, model: "gpt-5-mini" }]);
  const palette = adapter.createToolPalette({ policies });
  const model = palette.model(fakeModel("default", [message("ok")]));
  await assert.rejects(
    agents.run(new agents.Agent({ name: "a", instructions: "x", model }), "hi"),
    /policy "by-name".*must be a Model instance/,
  );
});

// ---------------------------------------------------------------- runs (options.cache, SPEC 8)

test('cache "append": one palette is one conversation; each turn is sent what was listed before, then the new function tools, in the run\'s order', async () => {
  const { core, adapter } = flavors.esm;
  const reports = [];
  const palette = adapter.createToolPalette({ router: routerOn(core, (message) => (message === SMALL_TALK ? ["calendar"] : ["web_search", "sql_query"])), cache: "append", onDecision: (r) => reports.push(r) });
  const list = palette.tools(tools([]));
  const sent = [];
  for (const prompt of [SMALL_TALK, SALES, SALES]) {
    const m = fakeModel("default", [message("ok")]);
    await agents.run(new agents.Agent({ name: "assistant", tools: list, model: palette.model(m) }), prompt);
    sent.push(...offered(m));
  }
  assert.deepEqual(sent, [["calendar"], ["calendar", "web_search", "sql_query"], ["calendar", "web_search", "sql_query"]]);
  assert.deepEqual(reports.map((r) => [r.listed, r.kept]), [
    [["calendar"], false],
    [["calendar", "web_search", "sql_query"], false],
    [["calendar", "web_search", "sql_query"], true],
  ]);
});

test('cache "fixed": every function tool sent on every turn; a call outside the palette is still refused (ModelBehaviorError), nothing runs', async () => {
  const { core, adapter } = flavors.esm;
  const m = fakeModel("default", [[functionCall("send_email", { to: "boss" }, "call-x")]]);
  const executed = [], reports = [];
  const palette = adapter.createToolPalette({ router: router(core, ["calendar"]), cache: "fixed", onDecision: (r) => reports.push(r) });
  const agent = new agents.Agent({ name: "assistant", tools: palette.tools(tools(executed)), model: palette.model(m) });
  await assert.rejects(agents.run(agent, "email my boss"), (e) => e.name === "ModelBehaviorError" && /offered: calendar/.test(e.message));
  assert.deepEqual(offered(m), [REGISTERED]);
  assert.deepEqual(executed, []);
  assert.deepEqual(reports.map((r) => [r.offered, r.listed, r.kept, r.outside]), [[["calendar"], REGISTERED, false, [{ id: "call-x", name: "send_email", refused: true }]]]);
  assert.throws(() => adapter.createToolPalette({ cache: "deferred" }), (e) => e instanceof TypeError && /tool-palette\/openai-agents: options\.cache "deferred"/.test(e.message));
});
