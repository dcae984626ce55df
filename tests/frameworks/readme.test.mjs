// The READMEs' "Agent frameworks" snippets, run literally in each framework's own loop
// (mock models), against the packed package: the shortest usage routes and redirects as
// documented, and the logged report is what the README shows. The snippets are read from
// the README shipped in the tarball and from the repository's README; their `import`
// lines are bound to the consumer's modules, every other line runs as written.
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { consumer, root } from "./consumer.mjs";
import { REGISTERED, SALES } from "./fixtures.mjs";
import { blocks as sectionBlocks, runSnippet as runSnippetIn } from "./snippets.mjs";

let c, modules, readmes;
before(async () => {
  c = await consumer();
  modules = {};
  for (const name of ["ai", "ai/test", "@openai/agents", "langchain", "@langchain/core/testing", "zod", "tool-palette", "tool-palette/ai-sdk", "tool-palette/openai-agents", "tool-palette/langchain"]) {
    modules[name] = await c.load(name);
  }
  modules["@openai/agents"].setTracingDisabled(true);
  readmes = {
    "the packed README": readFileSync(join(c.dir, "node_modules", "tool-palette", "README.md"), "utf8"),
    "the repository README": readFileSync(join(root, "README.md"), "utf8"),
  };
});

const blocks = (readme, lang = "js") => sectionBlocks(readme, "Agent frameworks", lang);
const runSnippet = (code, scope) => runSnippetIn(code, scope, modules);

const adapterOf = (code) => code.match(/from "tool-palette\/([a-z-]+)"/)?.[1];

// The scenario of the READMEs: four tools, a store that names the tools of each message,
// and the policy of the sales questions (its own model; web_search becomes SQL).
function scenario(executed) {
  const core = modules["tool-palette"];
  const router = new core.ToolRouter({
    entries: async ({ message }) => (/sales/i.test(message) ? ["web_search", "sql_query"] : /calendar/i.test(message) ? ["calendar"] : []),
    registered: REGISTERED,
  });
  const policies = (model) =>
    new core.ToolPolicies([
      {
        name: "sales-questions-use-sql",
        match: (ctx) => /sales/i.test(ctx.message),
        whenTool: "web_search",
        redirectTo: "sql_query",
        argsTransform: (args) => ({ query: `SELECT SUM(units) FROM sales WHERE month = '${args.q}'` }),
        model,
      },
    ]);
  const record = (name) => async (input) => {
    executed.push([name, input]);
    return `${name} result`;
  };
  return { router, policies, record };
}
const SQL = { query: "SELECT SUM(units) FROM sales WHERE month = '2026-03'" };

// Each framework: the free variables of its snippet, and what to check after it ran.
const frameworks = {
  "ai-sdk": () => {
    const { generateText, stepCountIs, tool } = modules.ai;
    const { MockLanguageModelV3 } = modules["ai/test"];
    const { z } = modules.zod;
    const executed = [];
    const { router, policies, record } = scenario(executed);
    const usage = { inputTokens: { total: 3, noCache: 3, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 2, text: 2, reasoning: 0 } };
    const analytics = new MockLanguageModelV3({
      modelId: "analytics-model",
      doGenerate: [
        { content: [{ type: "tool-call", toolCallId: "call-1", toolName: "web_search", input: JSON.stringify({ q: "2026-03" }) }], finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage, warnings: [] },
        { content: [{ type: "text", text: "March sales were 42 units." }], finishReason: { unified: "stop", raw: "stop" }, usage, warnings: [] },
      ],
    });
    const model = new MockLanguageModelV3({ modelId: "general-model", doGenerate: [] });
    const make = (name, schema) => tool({ description: name, inputSchema: schema, execute: record(name) });
    const tools = {
      web_search: make("web_search", z.object({ q: z.string() })),
      sql_query: make("sql_query", z.object({ query: z.string() })),
      calendar: make("calendar", z.object({ day: z.string() })),
      send_email: make("send_email", z.object({ to: z.string() })),
    };
    return {
      scope: { generateText, stepCountIs, model, prompt: SALES, tools, router, policies: policies(analytics) },
      offered: () => analytics.doGenerateCalls.map((call) => call.tools.map((t) => t.name)),
      executed,
      answer: (declared) => declared.result.text,
      attribution: (declared) => {
        const r = declared.result.steps[0].toolResults[0];
        return [r.toolCallId, r.toolName];
      },
    };
  },
  "openai-agents": () => {
    const { Agent, run, tool, Usage } = modules["@openai/agents"];
    const { z } = modules.zod;
    const executed = [];
    const { router, policies, record } = scenario(executed);
    const requests = [];
    const script = [
      [{ type: "function_call", callId: "call-1", name: "web_search", arguments: JSON.stringify({ q: "2026-03" }), status: "completed" }],
      [{ type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text: "March sales were 42 units." }] }],
    ];
    const analytics = {
      name: "analytics-model",
      async getResponse(request) {
        requests.push(request);
        return { usage: new Usage({ requests: 1, inputTokens: 3, outputTokens: 2, totalTokens: 5 }), output: script.shift(), responseId: `r-${requests.length}` };
      },
      async *getStreamedResponse() {
        throw new Error("not streamed");
      },
    };
    const defaultModel = { name: "general-model", getResponse: async () => assert.fail("the default model answered"), async *getStreamedResponse() {} };
    const make = (name, parameters) => tool({ name, description: name, parameters, execute: record(name) });
    const tools = [
      make("web_search", z.object({ q: z.string() })),
      make("sql_query", z.object({ query: z.string() })),
      make("calendar", z.object({ day: z.string() })),
      make("send_email", z.object({ to: z.string() })),
    ];
    return {
      scope: { Agent, run, tools, defaultModel, message: SALES, router, policies: policies(analytics) },
      offered: () => requests.map((r) => r.tools.map((t) => t.name)),
      executed,
      answer: (declared) => declared.result.finalOutput,
      attribution: () => {
        const output = requests[1].input.find((item) => item.type === "function_call_result");
        return [output.callId, output.name];
      },
    };
  },
  langchain: () => {
    const { createAgent, HumanMessage, AIMessage, tool } = modules.langchain;
    const { FakeBuiltModel } = modules["@langchain/core/testing"];
    const { z } = modules.zod;
    const executed = [];
    const { router, policies, record } = scenario(executed);
    const offered = [];
    const fake = (answers, seen) => {
      const m = new (class extends FakeBuiltModel {
        bindTools(tools) {
          seen?.push(tools.map((t) => t.name));
          return super.bindTools(tools);
        }
      })();
      for (const a of answers) m.respond(a);
      return m;
    };
    const analytics = fake(
      [
        new AIMessage({ content: "", id: "a-0", tool_calls: [{ name: "web_search", args: { q: "2026-03" }, id: "call-1", type: "tool_call" }] }),
        new AIMessage({ content: "March sales were 42 units.", id: "a-1" }),
      ],
      offered,
    );
    const model = fake([]);
    const make = (name, schema) => tool(record(name), { name, description: name, schema });
    const tools = [
      make("web_search", z.object({ q: z.string() })),
      make("sql_query", z.object({ query: z.string() })),
      make("calendar", z.object({ day: z.string() })),
      make("send_email", z.object({ to: z.string() })),
    ];
    return {
      scope: { createAgent, HumanMessage, model, tools, message: SALES, router, policies: policies(analytics) },
      offered: () => offered,
      executed,
      answer: (declared) => declared.result.messages.at(-1).content,
      attribution: (declared) => {
        const m = declared.result.messages.find((x) => x.type === "tool");
        return [m.tool_call_id, m.name];
      },
    };
  },
};

test("each README shows one shortest snippet per framework", () => {
  for (const [which, readme] of Object.entries(readmes)) {
    const adapters = blocks(readme).map(adapterOf).filter(Boolean);
    assert.deepEqual(adapters.sort(), ["ai-sdk", "langchain", "openai-agents"], which);
  }
});

for (const name of Object.keys(frameworks)) {
  test(`the READMEs' ${name} snippet, as written: routed palette offered, the policy's model answers, the redirect runs, the result stays the emitted call's`, async () => {
    for (const [which, readme] of Object.entries(readmes)) {
      const code = blocks(readme).find((b) => adapterOf(b) === name);
      const f = frameworks[name]();
      const declared = await runSnippet(code, f.scope);
      assert.deepEqual(f.offered(), [["web_search", "sql_query"], ["web_search", "sql_query"]], which);
      assert.deepEqual(f.executed, [["sql_query", SQL]], which);
      assert.equal(f.answer(declared), "March sales were 42 units.", which);
      assert.deepEqual(f.attribution(declared), ["call-1", "web_search"], which);
    }
  });
}

test("the READMEs' onDecision snippet logs one JSON line per step, the line the package README shows", async () => {
  const shown = JSON.parse(blocks(readmes["the packed README"], "json")[0]);
  for (const [which, readme] of Object.entries(readmes)) {
    const code = blocks(readme).find((b) => b.includes("onDecision") && !adapterOf(b));
    assert.ok(code, `${which}: an onDecision snippet`);
    const f = frameworks["ai-sdk"]();
    const lines = [];
    const console = { log: (line) => lines.push(line) };
    const { palette } = await runSnippet(code, { createToolPalette: modules["tool-palette/ai-sdk"].createToolPalette, router: f.scope.router, policies: f.scope.policies, console });
    await modules.ai.generateText({ ...f.scope, tools: palette.wrapTools(f.scope.tools), prepareStep: palette.prepareStep, stopWhen: modules.ai.stepCountIs(5) });
    assert.equal(lines.length, 2, which);
    assert.ok(lines.every((l) => typeof l === "string" && !l.includes("\n")), which);
    const first = JSON.parse(lines[0]);
    // The README's line, up to the measured retrieval time.
    first.routing.retrievalMs = shown.routing.retrievalMs;
    assert.deepEqual(first, shown, which);
  }
});
