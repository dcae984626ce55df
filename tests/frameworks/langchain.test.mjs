// tool-palette/langchain inside LangChain.js v1's own loop: createAgent with the
// middleware, LangChain's fake chat model (FakeBuiltModel from @langchain/core/testing,
// recording the tools bound at each model call), against the packed package.
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { consumer } from "./consumer.mjs";
import { REGISTERED, SALES, SMALL_TALK, salesPolicies, router } from "./fixtures.mjs";

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
    model.respond(
      typeof a === "string"
        ? new lc.AIMessage({ content: a, id })
        : new lc.AIMessage({ content: "", id, tool_calls: [{ ...a, type: "tool_call" }] }),
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

for (const flavor of ["esm", "cjs"]) {
  test(`[${flavor}] sales turn: wrapModelCall narrows the tools and swaps the model, wrapToolCall runs the redirect`, async () => {
    const { core, adapter } = flavors[flavor];
    const defaultModel = fakeModel("default", ["unused"]);
    const salesModel = fakeModel("sales", [{ name: "web_search", args: { q: "2026-03" }, id: "call-1" }, "March sales were 42."]);
    const executed = [], routes = [], dispatches = [], seen = [], calls = { n: 0 };
    const agent = lc.createAgent({
      model: defaultModel,
      tools: tools(executed),
      middleware: [
        adapter.toolPaletteMiddleware({
          router: router(core, ["web_search", "sql_query"], calls),
          policies: salesPolicies(core, { model: salesModel, seen }),
          onRoute: (r) => routes.push(r),
          onDispatch: (d) => dispatches.push(d),
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
    const toolMessage = result.messages.find((m) => m.type === "tool");
    assert.equal(toolMessage.tool_call_id, "call-1");
    assert.equal(toolMessage.content, "sql_query result");
    assert.equal(result.messages.at(-1).content, "March sales were 42.");
    assert.equal(calls.n, 2);
    assert.equal(dispatches.length, 1);
    assert.equal(dispatches[0].redirectedBy, "sales-questions-use-sql");
    assert.equal(dispatches[0].call.id, "call-1");
    // The POST seam reused the context object of the model call that emitted the call.
    assert.equal(routes[0].ctx.message, SALES);
    assert.ok(seen.length >= 3 && seen.every((c) => c === routes[0].ctx || c === routes[1].ctx));
  });

  test(`[${flavor}] refusal: every tool offered, the agent's model answers, the emitted tool runs`, async () => {
    const { core, adapter } = flavors[flavor];
    const defaultModel = fakeModel("default", [{ name: "calendar", args: { day: "friday" }, id: "call-5" }, "Done."]);
    const salesModel = fakeModel("sales", []);
    const executed = [], routes = [];
    const agent = lc.createAgent({
      model: defaultModel,
      tools: tools(executed),
      middleware: [
        adapter.toolPaletteMiddleware({
          router: router(core, ["not_a_tool"]), // refusal 5
          policies: salesPolicies(core, { model: salesModel }),
          onRoute: (r) => routes.push(r),
        }),
      ],
    });
    await agent.invoke({ messages: [new lc.HumanMessage(SMALL_TALK)] });
    assert.deepEqual(defaultModel.offered, [REGISTERED, REGISTERED]);
    assert.equal(salesModel.callCount, 0);
    assert.deepEqual(executed, [["calendar", { day: "friday" }]]);
    assert.equal(routes[0].outcome.reason, "no skill resolved to a registered tool; allowing all tools");
    assert.deepEqual(routes[0].outcome.unresolved, ["not_a_tool"]);
  });
}

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
  assert.equal(adapter.defaultContext({ messages: [new lc.HumanMessage("hi")], runtime: { context: 1 } }).message, "hi");
});
