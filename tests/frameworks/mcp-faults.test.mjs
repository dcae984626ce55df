// tool-palette/mcp against a third hostile pass (the packed package, SDK servers over
// InMemoryTransport, the frameworks with mock models): an unknown name answered as a hidden
// one, colliding names whatever the servers' order, the search tool on a refused turn, the
// frameworks' abort signals passed on to the server, refresh() during a listing, a client
// that answers no CallToolResult, and the search tool's definition in the report's sizes.
import { test } from "node:test";
import assert from "node:assert/strict";
import { connect, frameworksSuite } from "./mcp-servers.mjs";

let c, sdk, m;
const open = frameworksSuite((loaded) => ({ c, sdk, m } = loaded));

const def = (name, description = name.replace(/_/g, " ")) => ({ name, description, inputSchema: { type: "object", properties: { q: { type: "string" } } } });
// An in-process client ("anything with listTools and callTool") listing `tools`; `answer(name)` is its call's answer.
const client = (tools, answer = (name) => ({ content: [{ type: "text", text: `ran ${name}` }] })) => ({
  async listTools() {
    return { tools };
  },
  async callTool({ name }) {
    return answer(name);
  },
});
const palette = (servers, options = {}) => m["tool-palette/mcp"].createMcpPalette({ servers, onWarning: () => {}, ...options });
const textOf = (result) => result.content.map((p) => p.text).join("\n");
const THREE = [def("send_email"), def("read_calendar"), def("get_weather")];

test("a name no server lists is answered word for word as a hidden tool: the answer reveals nothing of what is hidden", async () => {
  const run = palette({ s: client(THREE) }).run();
  const turn = await run.route("what is the weather today");
  assert.deepEqual(turn.names, ["get_weather", "search_tools"]);
  const hidden = await run.callTool({ name: "send_email", arguments: {} });
  const unknown = await run.callTool({ name: "no_such_tool", arguments: {} });
  assert.deepEqual(hidden, { content: [{ type: "text", text: "Tool send_email is not available in this step. Available tools: get_weather, search_tools." }], isError: true });
  assert.deepEqual(unknown, { content: [{ type: "text", text: "Tool no_such_tool is not available in this step. Available tools: get_weather, search_tools." }], isError: true });
});

test("colliding names: <server>__<name> whatever the servers' order (a listed name equal to it is left out); one server listing a name twice keeps it", async () => {
  for (const order of [["a", "b"], ["b", "a"]]) {
    const clients = { a: client([def("x", "x of a"), def("b__x", "a literal b__x")]), b: client([def("x", "x of b")]) };
    const p = palette(Object.fromEntries(order.map((name) => [name, clients[name]])));
    const { skipped } = await p.refresh();
    const names = (await p.tools()).map((t) => `${t.name}: ${t.description}`).sort();
    assert.deepEqual(names, ["a__x: x of a", "b__x: x of b"], order.join());
    assert.deepEqual(await p.locate("b__x"), { server: "b", name: "x" }, order.join());
    assert.deepEqual(skipped, [{ server: "a", name: "b__x", reason: '"b__x" is already the name of a tool of server "b"' }], order.join());
  }
  const p = palette({ a: client([def("dup", "first"), def("dup", "second"), def("other")]), b: client([def("z")]) });
  const { skipped } = await p.refresh();
  assert.deepEqual((await p.tools()).map((t) => `${t.name}: ${t.description}`), ["dup: first", "other: other", "z: z"]);
  assert.deepEqual(await p.locate("dup"), { server: "a", name: "dup" });
  assert.deepEqual(skipped, [{ server: "a", name: "dup", reason: '"dup" is already the name of a tool of server "a"' }]);
});

test("a refused turn offers every tool, and the frameworks' tool sets hold the search tool: calling it searches (AI SDK generateText)", async () => {
  const run = palette({ s: client(THREE) }).run();
  const turn = await run.route("zzzz qqqq");
  assert.equal(turn.outcome.kind, "refused");
  const direct = await run.callTool({ name: "search_tools", arguments: { query: "weather" } });
  assert.equal(direct.isError, undefined, textOf(direct));
  assert.deepEqual(direct.structuredContent.tools.map((t) => t.name), ["get_weather"]);

  const { ai } = m;
  const usage = { inputTokens: { total: 3, noCache: 3, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 2, text: 2, reasoning: 0 } };
  const model = new m["ai/test"].MockLanguageModelV3({
    doGenerate: [
      { content: [{ type: "tool-call", toolCallId: "c-1", toolName: "search_tools", input: JSON.stringify({ query: "weather" }) }], finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage, warnings: [] },
      { content: [{ type: "text", text: "done" }], finishReason: { unified: "stop", raw: "stop" }, usage, warnings: [] },
    ],
  });
  const run2 = palette({ s: client(THREE) }).run();
  const adapter = m["tool-palette/ai-sdk"].createToolPalette({ ...run2.adapterOptions, onWarning: () => {} });
  const result = await ai.generateText({ model, prompt: "zzzz qqqq", stopWhen: ai.stepCountIs(3), tools: adapter.wrapTools(await run2.aiSdkTools()), prepareStep: adapter.prepareStep });
  assert.deepEqual(model.doGenerateCalls[0].tools.map((t) => t.name), ["send_email", "read_calendar", "get_weather", "search_tools"]);
  const output = result.steps[0].toolResults[0].output;
  assert.equal(output.isError, undefined, JSON.stringify(output));
  assert.deepEqual(output.structuredContent.tools.map((t) => t.name), ["get_weather"]);
});

// An SDK server whose `slow_job` waits until its request is cancelled (the client's signal aborts it).
async function slowServer() {
  const seen = { started: false, cancelled: false };
  const server = new sdk.McpServer({ name: "slow", version: "1.0.0" });
  server.registerTool("slow_job", { description: "run the slow job", inputSchema: { q: sdk.z.string().optional() } }, async (_args, extra) => {
    seen.started = true;
    await new Promise((resolve) => extra.signal.addEventListener("abort", resolve));
    seen.cancelled = true;
    return { content: [{ type: "text", text: "finished" }] };
  });
  server.registerTool("other_job", { description: "something else" }, async () => ({ content: [{ type: "text", text: "other" }] }));
  const connected = await connect(sdk, server, "slow");
  open.push(connected);
  const controller = new AbortController();
  const poll = setInterval(() => {
    if (seen.started) {
      clearInterval(poll);
      controller.abort(new Error("user cancelled"));
    }
  }, 5);
  return { run: palette({ slow: connected }).run(), seen, signal: controller.signal };
}

test("OpenAI Agents: run(agent, input, { signal }) cancels the MCP call of openaiAgentsTools() on its server (it never waits for it)", { timeout: 10_000 }, async () => {
  const { Agent, run: runAgent, Usage } = m["@openai/agents"];
  const { run, seen, signal } = await slowServer();
  const script = [
    [{ type: "function_call", callId: "c-1", name: "slow_job", arguments: "{}", status: "completed" }],
    [{ type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text: "ok" }] }],
  ];
  const model = {
    async getResponse() {
      return { usage: new Usage({ requests: 1, inputTokens: 1, outputTokens: 1, totalTokens: 2 }), output: script.shift(), responseId: "r" };
    },
    async *getStreamedResponse() {
      throw new Error("not streamed");
    },
  };
  const adapter = m["tool-palette/openai-agents"].createToolPalette({ ...run.adapterOptions, onWarning: () => {} });
  const agent = new Agent({ name: "ops", tools: adapter.tools(await run.openaiAgentsTools()), model: adapter.model(model) });
  await assert.rejects(runAgent(agent, "run the slow job", { signal }), /user cancelled/);
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.deepEqual(seen, { started: true, cancelled: true });
});

test("LangChain: agent.invoke(input, { signal }) cancels the MCP call of langchainTools() on its server", { timeout: 10_000 }, async () => {
  const lc = m.langchain;
  const { run, seen, signal } = await slowServer();
  const model = new m["@langchain/core/testing"].FakeBuiltModel();
  model.respond(new lc.AIMessage({ content: "", id: "a-0", tool_calls: [{ name: "slow_job", args: {}, id: "c-1", type: "tool_call" }] }));
  model.respond(new lc.AIMessage({ content: "ok", id: "a-1" }));
  const agent = lc.createAgent({ model, tools: await run.langchainTools(lc.tool), middleware: [m["tool-palette/langchain"].toolPaletteMiddleware({ ...run.adapterOptions, onWarning: () => {} })] });
  await assert.rejects(agent.invoke({ messages: [new lc.HumanMessage("run the slow job")] }, { signal }), /user cancelled/);
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.deepEqual(seen, { started: true, cancelled: true });
});

test("refresh() asked while a listing is in flight lists the servers again (it never answers the older listing)", async () => {
  let version = 1;
  let listings = 0;
  const slow = {
    async listTools() {
      listings++;
      const v = version;
      await new Promise((resolve) => setTimeout(resolve, 50));
      return { tools: v === 1 ? [def("first")] : [def("first"), def("added")] };
    },
    async callTool() {
      return { content: [] };
    },
  };
  const p = palette({ slow });
  const earlier = p.tools();
  await new Promise((resolve) => setTimeout(resolve, 10));
  version = 2;
  const refreshed = await p.refresh();
  assert.equal(listings, 2);
  assert.equal(refreshed.tools, 2);
  assert.deepEqual((await earlier).map((t) => t.name), ["first"]);
  assert.deepEqual((await p.tools()).map((t) => t.name), ["first", "added"]);
});

test("a client that answers no CallToolResult (undefined, a string) answers a failed call; the frameworks' tools answer its text", async () => {
  const answers = { undefined_answer: undefined, string_answer: "plain" };
  const run = palette({ odd: client([def("undefined_answer"), def("string_answer")], (name) => answers[name]) }).run();
  await run.route("zzzz qqqq"); // refused: every tool offered
  assert.deepEqual(await run.callTool({ name: "undefined_answer", arguments: {} }), {
    content: [{ type: "text", text: 'Server "odd" answered the call of undefined_answer with no CallToolResult (undefined).' }],
    isError: true,
  });
  assert.equal(textOf(await run.callTool({ name: "string_answer", arguments: {} })), 'Server "odd" answered the call of string_answer with no CallToolResult (string).');
  const [langchainTool] = await run.langchainTools((func, fields) => ({ func, ...fields }));
  assert.equal(await langchainTool.func({}, {}), 'Server "odd" answered the call of undefined_answer with no CallToolResult (undefined).');
  const [agentsTool] = await run.openaiAgentsTools();
  assert.equal(await agentsTool.invoke({}, "{}", {}), 'Server "odd" answered the call of undefined_answer with no CallToolResult (undefined).');
});

test("the report's definitions offered count the search tool's definition when the turn offers it (what the model is sent)", async () => {
  const tokens = [];
  const run = palette({ s: client(THREE) }, { countTokens: (text) => (tokens.push(text), text.length) }).run();
  const turn = await run.route("weather today");
  assert.deepEqual(turn.report.offered, ["get_weather", "search_tools"]);
  const sent = turn.tools.map((t) => JSON.stringify({ name: t.name, description: t.description, inputSchema: t.inputSchema ?? {} }));
  const chars = sent.reduce((n, text) => n + text.length, 0);
  assert.deepEqual(turn.report.definitions.offered, { chars, tokens: chars });
  // Per server: only its own tools; the whole set: every listed tool, without the search tool.
  assert.equal(turn.report.servers.s.definitions.offered.chars, sent[0].length);
  assert.equal(turn.report.definitions.all.chars, turn.report.servers.s.definitions.all.chars);
  // A refused turn offers no search tool: offered is the whole set.
  const refused = await run.route("zzzz qqqq");
  assert.deepEqual(refused.report.definitions.offered, refused.report.definitions.all);
});

test("route(context) that is neither a message nor a context object is a TypeError naming it (never a silent empty message)", async () => {
  const run = palette({ s: client(THREE) }).run();
  for (const [bad, got] of [[undefined, "undefined"], [null, "null"], [42, "number"], [true, "boolean"]]) {
    await assert.rejects(run.route(bad), (error) => {
      assert.ok(error instanceof TypeError);
      assert.equal(error.message, `tool-palette/mcp: route(context) must be the turn's message (a string) or a context object with its message, got ${got}`);
      return true;
    });
  }
  assert.equal(run.turn, null);
  assert.equal((await run.route({ message: "weather" })).outcome.kind, "routed");
});

test("an adapter in shadow mode, or with outsidePalette \"allow\", runs what it lets through: the run's callTool follows it (AI SDK)", async () => {
  const { ai } = m;
  const usage = { inputTokens: { total: 3, noCache: 3, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 2, text: 2, reasoning: 0 } };
  for (const options of [{ mode: "shadow" }, { outsidePalette: "allow" }, {}]) {
    const calls = [];
    const run = palette({ s: client(THREE, (name) => (calls.push(name), { content: [{ type: "text", text: `${name} ran` }] })) }).run();
    const reports = [];
    const adapter = m["tool-palette/ai-sdk"].createToolPalette({ ...run.adapterOptions, ...options, onDecision: (r) => reports.push(r), onWarning: () => {} });
    const model = new m["ai/test"].MockLanguageModelV3({
      doGenerate: [
        { content: [{ type: "tool-call", toolCallId: "c-1", toolName: "send_email", input: "{}" }], finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage, warnings: [] },
        { content: [{ type: "text", text: "done" }], finishReason: { unified: "stop", raw: "stop" }, usage, warnings: [] },
      ],
    });
    const result = await ai.generateText({ model, prompt: "what is the weather today", stopWhen: ai.stepCountIs(3), tools: adapter.wrapTools(await run.aiSdkTools()), prepareStep: adapter.prepareStep });
    const label = JSON.stringify(options);
    assert.deepEqual(reports[0].offered, ["get_weather", "search_tools"], label);
    if (options.mode || options.outsidePalette) {
      assert.deepEqual(reports[0].outside, [{ id: "c-1", name: "send_email", refused: false }], label);
      assert.deepEqual(calls, ["send_email"], label);
      assert.deepEqual(result.steps[0].toolResults[0].output, { content: [{ type: "text", text: "send_email ran" }] }, label);
    } else {
      // Enforced: the SDK itself refuses the call (not among activeTools); no server is called.
      assert.deepEqual(reports[0].outside, [{ id: "c-1", name: "send_email", refused: true }], label);
      assert.deepEqual(calls, [], label);
    }
  }
  // route() itself (no adapter) keeps refusing a hidden tool.
  const run = palette({ s: client(THREE) }).run();
  await run.route("what is the weather today");
  assert.equal((await run.callTool({ name: "send_email", arguments: {} })).isError, true);
});

test("one tool too large to send to a model (or with an empty name) is left out alone: the index, the other tools and servers still serve", async () => {
  const p = palette({
    big: client([def("huge", "x".repeat(40_000_000)), def("", "nameless"), def("send_email")]),
    other: client([def("get_weather")]),
  });
  const { skipped, tools } = await p.refresh();
  assert.equal(tools, 2);
  assert.deepEqual(
    skipped.map((s) => [s.server, s.name, s.reason.replace(/\d{8}/, "N")]),
    [
      ["big", "huge", "its definition cannot be read: it is N code units long, more than 1048576 (too large to send to a model)"],
      ["big", "", "its definition cannot be read: its name is not a non-empty string"],
    ],
  );
  const turn = await p.run().route("weather today");
  assert.deepEqual(turn.names, ["get_weather", "search_tools"]);
});

test("a page of 150,000 tools is listed (a server is not left out because its page overflows the stack)", async () => {
  const tools = Array.from({ length: 150_000 }, (_, i) => ({ name: `t${i}`, description: `tool number ${i}` }));
  const p = palette({ many: client(tools) });
  const { tools: listed, failures } = await p.refresh();
  assert.deepEqual([listed, failures], [150_000, []]);
  assert.deepEqual(await p.locate("t149999"), { server: "many", name: "t149999" });
  p.dispose();
});

test("paging: a server of 12 pages lists without Node's MaxListenersExceededWarning; a nextCursor answered twice is a loop, left out at once", async () => {
  const defs = Array.from({ length: 60 }, (_, i) => def(`tool_${i}`));
  const server = new sdk.Server({ name: "paged", version: "1.0.0" }, { capabilities: { tools: {} } });
  let asked = 0;
  server.setRequestHandler(sdk.ListToolsRequestSchema, async (request) => {
    asked++;
    const start = Number(request.params?.cursor ?? 0);
    return { tools: defs.slice(start, start + 5), ...(start + 5 < defs.length ? { nextCursor: String(start + 5) } : {}) };
  });
  const paged = await connect(sdk, server, "paged");
  open.push(paged);
  const warnings = [];
  const onWarning = (w) => warnings.push(w.name);
  process.on("warning", onWarning);
  try {
    const { tools } = await palette({ paged }).refresh();
    await new Promise((resolve) => setTimeout(resolve, 20)); // process warnings are emitted on a later tick
    assert.deepEqual([tools, asked, warnings], [60, 12, []]);
  } finally {
    process.off("warning", onWarning);
  }
  let pages = 0;
  const looping = { ...client([]), async listTools() { pages++; return { tools: [def(`t${pages}`)], nextCursor: "again" }; } };
  const { failures } = await palette({ looping }).refresh();
  assert.deepEqual(failures, [{ server: "looping", error: 'listTools() answered the nextCursor "again" twice (page 2): its pages loop' }]);
  assert.equal(pages, 2);
});

test("listTimeoutMs bounds a server whose pages answer at once (no timer can run between them): the time is checked between pages", async () => {
  const busy = {
    ...client([]),
    async listTools(params) {
      const until = Date.now() + 2;
      while (Date.now() < until); // 2 ms of work a page, answered without a macrotask
      const n = Number(params?.cursor ?? 0);
      return { tools: [def(`t${n}`)], nextCursor: String(n + 1) };
    },
  };
  const started = Date.now();
  const { failures } = await palette({ busy }, { listTimeoutMs: 100 }).refresh();
  assert.ok(Date.now() - started < 2_000, `${Date.now() - started} ms`);
  assert.deepEqual(failures, [{ server: "busy", error: 'listTools() of server "busy" timed out after 100 ms' }]);
});

test("a run's one signal given to 12 calls (as a framework gives each tool call) collects no listener per call: no MaxListenersExceededWarning; an abort still reaches the server", async () => {
  const server = new sdk.McpServer({ name: "pinger", version: "1.0.0" });
  let cancelled = false;
  server.registerTool("ping", { description: "ping" }, async () => ({ content: [{ type: "text", text: "pong" }] }));
  server.registerTool("wait", { description: "wait" }, async (extra) => {
    await new Promise((resolve) => extra.signal.addEventListener("abort", resolve));
    cancelled = true;
    return { content: [] };
  });
  const pinger = await connect(sdk, server, "pinger");
  open.push(pinger);
  const run = palette({ pinger }).run();
  await run.route("zzzz qqqq"); // refused: every tool offered
  const warnings = [];
  const onWarning = (w) => warnings.push(w.name);
  process.on("warning", onWarning);
  const controller = new AbortController();
  try {
    for (let i = 0; i < 12; i++) assert.equal(textOf(await run.callTool({ name: "ping", arguments: {} }, { signal: controller.signal })), "pong");
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.deepEqual(warnings, []);
  } finally {
    process.off("warning", onWarning);
  }
  const waiting = run.callTool({ name: "wait", arguments: {} }, { signal: controller.signal });
  setTimeout(() => controller.abort(new Error("stop")), 20);
  await assert.rejects(waiting, /stop/);
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.equal(cancelled, true);
});

test("servers given as a Map is a TypeError that says so (never \"must name at least one server\")", () => {
  assert.throws(() => m["tool-palette/mcp"].createMcpPalette({ servers: new Map([["s", client(THREE)]]) }), {
    name: "TypeError",
    message: "tool-palette/mcp: options.servers must be a record of MCP clients keyed by server name, got a Map (pass Object.fromEntries(map))",
  });
});
