// An agent loop over MCP servers in each framework (mock models), through tool-palette/mcp
// and the framework's adapter: the first routing misses the tool the question needs,
// the model calls search_tools, which finds it, and the next step offers and runs it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { frameworksSuite, threeServers } from "./mcp-servers.mjs";

const QUESTION = "Why did the nightly build fail?";
const QUERY = { query: "console output lines of a job" };
let c, sdk, m;
const open = frameworksSuite((loaded) => ({ c, sdk, m } = loaded));

async function setup() {
  const s = await threeServers(sdk);
  open.push(...Object.values(s.servers));
  const reports = [];
  const mcp = m["tool-palette/mcp"].createMcpPalette({ servers: s.servers, limit: 3, onDecision: (r) => reports.push(r) });
  return { ...s, run: mcp.run(), reports };
}

// What every framework must show: step 0 misses tail_console but offers search_tools; the
// search finds it; step 1 offers it; it runs on the ci server; the answer comes.
function check({ offered, calls, reports, run, answer }) {
  assert.equal(offered.length, 3, `${offered.length} model calls`);
  assert.ok(!offered[0].includes("tail_console"), `step 0 misses it: ${offered[0]}`);
  assert.ok(offered[0].includes("search_tools"), `step 0 offers the search: ${offered[0]}`);
  assert.ok(offered[1].includes("tail_console"), `step 1 offers what the search found: ${offered[1]}`);
  // limit 3: three routed tools and the search; then up to three found besides.
  assert.ok(offered[0].length <= 4 && offered[1].length <= 7, `routing keeps the palette small: ${offered[1]}`);
  assert.deepEqual(calls, [["ci", "tail_console", { target: "nightly" }]]);
  assert.ok(run.found.includes("tail_console"));
  assert.ok(reports.length >= 2 && reports.at(-1).offered.includes("tail_console"));
  assert.equal(answer, "The nightly job ran out of memory.");
}

test("AI SDK: generateText over MCP tools; search_tools finds what routing missed", async () => {
  const { ai } = m;
  const { run, calls, reports } = await setup();
  const usage = { inputTokens: { total: 3, noCache: 3, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 2, text: 2, reasoning: 0 } };
  const call = (toolName, input, id) => ({ content: [{ type: "tool-call", toolCallId: id, toolName, input: JSON.stringify(input) }], finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage, warnings: [] });
  const model = new m["ai/test"].MockLanguageModelV3({
    doGenerate: [
      call("search_tools", QUERY, "c-1"),
      call("tail_console", { target: "nightly" }, "c-2"),
      { content: [{ type: "text", text: "The nightly job ran out of memory." }], finishReason: { unified: "stop", raw: "stop" }, usage, warnings: [] },
    ],
  });
  const palette = m["tool-palette/ai-sdk"].createToolPalette({ ...run.adapterOptions });
  const result = await ai.generateText({ model, prompt: QUESTION, stopWhen: ai.stepCountIs(5), tools: palette.wrapTools(await run.aiSdkTools()), prepareStep: palette.prepareStep });
  check({ offered: model.doGenerateCalls.map((x) => x.tools.map((t) => t.name)), calls, reports, run, answer: result.text });
  // The search's answer reached the model as the tool's result.
  assert.match(JSON.stringify(result.steps[0].toolResults[0].output), /tail_console/);
});

test("OpenAI Agents: run() over MCP tools; search_tools finds what routing missed", async () => {
  const { Agent, run: runAgent, Usage } = m["@openai/agents"];
  const { run, calls, reports } = await setup();
  const requests = [];
  const script = [
    [{ type: "function_call", callId: "c-1", name: "search_tools", arguments: JSON.stringify(QUERY), status: "completed" }],
    [{ type: "function_call", callId: "c-2", name: "tail_console", arguments: JSON.stringify({ target: "nightly" }), status: "completed" }],
    [{ type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text: "The nightly job ran out of memory." }] }],
  ];
  const model = {
    async getResponse(request) {
      requests.push(request);
      return { usage: new Usage({ requests: 1, inputTokens: 3, outputTokens: 2, totalTokens: 5 }), output: script.shift(), responseId: `r-${requests.length}` };
    },
    async *getStreamedResponse() {
      throw new Error("not streamed");
    },
  };
  const palette = m["tool-palette/openai-agents"].createToolPalette({ ...run.adapterOptions });
  const agent = new Agent({ name: "ops", tools: palette.tools(await run.openaiAgentsTools()), model: palette.model(model) });
  const result = await runAgent(agent, QUESTION);
  check({ offered: requests.map((r) => r.tools.map((t) => t.name)), calls, reports, run, answer: result.finalOutput });
});

test("LangChain: createAgent over MCP tools; search_tools finds what routing missed", async () => {
  const lc = m.langchain;
  const { run, calls, reports } = await setup();
  const offered = [];
  const model = new (class extends m["@langchain/core/testing"].FakeBuiltModel {
    bindTools(tools) {
      offered.push(tools.map((t) => t.name));
      return super.bindTools(tools);
    }
  })();
  model.respond(new lc.AIMessage({ content: "", id: "a-0", tool_calls: [{ name: "search_tools", args: QUERY, id: "c-1", type: "tool_call" }] }));
  model.respond(new lc.AIMessage({ content: "", id: "a-1", tool_calls: [{ name: "tail_console", args: { target: "nightly" }, id: "c-2", type: "tool_call" }] }));
  model.respond(new lc.AIMessage({ content: "The nightly job ran out of memory.", id: "a-2" }));
  const agent = lc.createAgent({ model, tools: await run.langchainTools(lc.tool), middleware: [m["tool-palette/langchain"].toolPaletteMiddleware({ ...run.adapterOptions })] });
  const result = await agent.invoke({ messages: [new lc.HumanMessage(QUESTION)] });
  check({ offered, calls, reports, run, answer: result.messages.at(-1).content });
});

// The package README's "MCP servers" snippets, run as written (their imports bound to the
// consumer's modules) against two of the servers: each routes the step, offers a few tools
// and the search, and the model's call runs on the github server.
const MESSAGE = "Close the milestone of the GitHub repository";
async function snippets() {
  const { readFileSync } = await import("node:fs");
  const { join } = await import("node:path");
  const { blocks } = await import("./snippets.mjs");
  const readme = readFileSync(join(c.dir, "node_modules", "tool-palette", "README.md"), "utf8");
  return blocks(readme, "MCP servers");
}
const modulesFor = () => m;

test("the package README's MCP snippets run as written: without a framework, and in each framework", async () => {
  const { runSnippet } = await import("./snippets.mjs");
  const found = await snippets();
  assert.equal(found.length, 4);
  const core = await c.load("tool-palette");
  const policies = () => new core.ToolPolicies([{ name: "no-op", match: () => false, whenTool: "delete_issue", redirectTo: "close_issue" }]);
  for (const code of found) {
    const { servers, calls } = await setup();
    const scope = { github: servers.github, files: servers.files, policies: policies(), message: MESSAGE };
    let offered;
    if (code.includes("tool-palette/ai-sdk")) {
      const usage = { inputTokens: { total: 3, noCache: 3, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 2, text: 2, reasoning: 0 } };
      const model = new m["ai/test"].MockLanguageModelV3({
        doGenerate: [
          { content: [{ type: "tool-call", toolCallId: "c", toolName: "close_milestone", input: '{"target":"v1"}' }], finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage, warnings: [] },
          { content: [{ type: "text", text: "done" }], finishReason: { unified: "stop", raw: "stop" }, usage, warnings: [] },
        ],
      });
      await runSnippet(code, { ...scope, generateText: m.ai.generateText, stepCountIs: m.ai.stepCountIs, model, prompt: MESSAGE }, modulesFor());
      offered = model.doGenerateCalls.map((x) => x.tools.map((t) => t.name));
    } else if (code.includes("tool-palette/openai-agents")) {
      const { Agent, run, Usage } = m["@openai/agents"];
      const requests = [];
      const script = [
        [{ type: "function_call", callId: "c", name: "close_milestone", arguments: '{"target":"v1"}', status: "completed" }],
        [{ type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text: "done" }] }],
      ];
      const defaultModel = { async getResponse(r) { requests.push(r); return { usage: new Usage({ requests: 1 }), output: script.shift(), responseId: `r${requests.length}` }; }, async *getStreamedResponse() {} };
      await runSnippet(code, { ...scope, Agent, run, defaultModel }, modulesFor());
      offered = requests.map((r) => r.tools.map((t) => t.name));
    } else if (code.includes("tool-palette/langchain")) {
      const lc = m.langchain;
      offered = [];
      const model = new (class extends m["@langchain/core/testing"].FakeBuiltModel {
        bindTools(tools) {
          offered.push(tools.map((t) => t.name));
          return super.bindTools(tools);
        }
      })();
      model.respond(new lc.AIMessage({ content: "", id: "a0", tool_calls: [{ name: "close_milestone", args: { target: "v1" }, id: "c", type: "tool_call" }] }));
      model.respond(new lc.AIMessage({ content: "done", id: "a1" }));
      await runSnippet(code, { ...scope, createAgent: lc.createAgent, tool: lc.tool, HumanMessage: lc.HumanMessage, model }, modulesFor());
    } else {
      const declared = await runSnippet(code, { ...scope, toolCall: { name: "close_milestone", arguments: { target: "v1" } } }, modulesFor());
      offered = [declared.turn.tools.map((t) => t.name)];
      assert.equal(declared.result.content[0].text, "close_milestone done");
    }
    assert.ok(offered[0].includes("close_milestone") && offered[0].includes("search_tools") && offered[0].length <= 6, `${offered[0]}`);
    assert.deepEqual(calls, [["github", "close_milestone", { target: "v1" }]], code.split("\n")[0]);
  }
});
