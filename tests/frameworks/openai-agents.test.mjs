// tool-palette/openai-agents inside the OpenAI Agents SDK's own loop: Runner.run with a
// fake model provider (Model objects that answer from a script), against the packed
// package in a consumer project. Offline: tracing is disabled and no OpenAI model is built.
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { consumer } from "./consumer.mjs";
import { REGISTERED, SALES, SMALL_TALK, salesPolicies, router } from "./fixtures.mjs";

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
    async *getStreamedResponse() {
      throw new Error("not streamed in these tests");
    },
  };
}
const functionCall = (name, args, callId) => [{ type: "function_call", callId, name, arguments: JSON.stringify(args), status: "completed" }];
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
  test(`[${flavor}] sales run: isEnabled gates each turn to the routed palette, the policy's model answers, the redirect runs sql_query`, async () => {
    const { core, adapter } = flavors[flavor];
    const defaultModel = fakeModel("default", [message("unused")]);
    const salesModel = fakeModel("sales", [functionCall("web_search", { q: "2026-03" }, "call-1"), message("March sales were 42.")]);
    const executed = [], routes = [], dispatches = [], calls = { n: 0 };
    const palette = adapter.createToolPalette({
      router: router(core, ["web_search", "sql_query"], calls),
      policies: salesPolicies(core, { model: salesModel }),
      onRoute: (r) => routes.push(r),
      onDispatch: (d) => dispatches.push(d),
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

    // Offered at each turn: only the routed tools (the others' isEnabled said no).
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
    // The tool seams' context is the run context the caller passed.
    assert.equal(routes[0].ctx.message, SALES);
    // The model saw the tool output of the redirected call under the emitted call's id.
    const second = JSON.stringify(salesModel.requests[1].input);
    assert.match(second, /sql_query result/);
    assert.match(second, /call-1/);
  });

  test(`[${flavor}] refusal: every tool enabled, the fallback model answers, the emitted tool runs`, async () => {
    const { core, adapter } = flavors[flavor];
    const defaultModel = fakeModel("default", [functionCall("calendar", { day: "friday" }, "call-7"), message("Done.")]);
    const salesModel = fakeModel("sales", []);
    const executed = [], routes = [];
    const palette = adapter.createToolPalette({
      router: router(core, [{ tool: "calendar", active: false }]), // refusal 4
      policies: salesPolicies(core, { model: salesModel }),
      onRoute: (r) => routes.push(r),
    });
    const agent = new agents.Agent({ name: "helper", instructions: "Help.", model: palette.model(defaultModel), tools: palette.tools(tools(executed)) });
    await agents.run(agent, SMALL_TALK, { context: { message: SMALL_TALK } });
    assert.deepEqual(offered(defaultModel), [REGISTERED, REGISTERED]);
    assert.equal(salesModel.requests.length, 0);
    assert.deepEqual(executed, [["calendar", { day: "friday" }]]);
    assert.equal(routes[0].outcome.reason, "every skill is inactive; allowing all tools");
  });
}

test("the tool's own isEnabled still applies, and a string run context becomes { message }", async () => {
  const { core, adapter } = flavors.esm;
  const m = fakeModel("default", [message("ok")]);
  const [web, sql, cal, email] = tools([]);
  const disabledSql = { ...sql, isEnabled: async () => false };
  const routes = [];
  const palette = adapter.createToolPalette({ router: router(core, ["web_search", "sql_query"]), onRoute: (r) => routes.push(r) });
  const agent = new agents.Agent({ name: "a", instructions: "x", model: palette.model(m), tools: palette.tools([web, disabledSql, cal, email]) });
  await agents.run(agent, "hello", { context: "hello" });
  assert.deepEqual(offered(m), [["web_search"]]);
  assert.deepEqual(routes[0].ctx, { message: "hello" });
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
