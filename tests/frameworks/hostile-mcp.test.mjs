// tool-palette/mcp against what a hostile tester found (from the packed package, with
// in-process clients and SDK servers over InMemoryTransport): hybrid ranking through
// `index: { embed }`, a malformed tool, a listing budget beyond a timer's reach, an aborted
// call, a wrong countTokens, "__proto__" names, and a policy redirect to the search tool.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { consumer } from "./consumer.mjs";
import { connect, loadSdk } from "./mcp-servers.mjs";

let c, sdk, mcp, core;
const open = [];
before(async () => {
  c = await consumer();
  sdk = await loadSdk(c.load);
  mcp = await c.load("tool-palette/mcp");
  core = await c.load("tool-palette");
});
after(async () => {
  for (const client of open) await client.close().catch(() => {});
});

// An in-process client ("anything with listTools and callTool") listing `tools`; calls are recorded.
const client = (tools, calls = []) => ({
  async listTools() {
    return { tools };
  },
  async callTool(params) {
    calls.push(params);
    return { content: [{ type: "text", text: `ran ${params.name}` }] };
  },
});
const tool = (name, description) => ({ name, description, inputSchema: { type: "object", properties: {} } });
const TOOLS = [
  tool("plot", "draw a chart"),
  tool("send_mail", "send an email message"),
  tool("read_file", "read a file on the disk"),
  tool("create_issue", "create an issue in a repository"),
];

// A toy embedding model: one axis per concept, so that words a message shares with no
// description still land near the right tool.
const CONCEPTS = [/chart|graph|plot|diagram/, /mail|letter/, /file|disk/, /issue|bug/];
const toyEmbed = (text) => {
  const v = CONCEPTS.map((re) => (re.test(text.toLowerCase()) ? 1 : 0));
  return v.some((x) => x) ? v : [0.1, 0.1, 0.1, 0.1];
};

test("index: { embed } ranks hybrid: the tools are embedded when listed (once per text), the message each turn", async () => {
  const embedded = [];
  const embed = async (text) => {
    embedded.push(text);
    return toyEmbed(text);
  };
  const reports = [];
  const warnings = [];
  const palette = mcp.createMcpPalette({ servers: { s: client(TOOLS) }, limit: 1, index: { embed }, onDecision: (r) => reports.push(r), onWarning: (w) => warnings.push(w) });
  const run = palette.run();
  // "graph" shares no word with "draw a chart": lexically nothing matches; the vectors find plot.
  const turn = await run.route("make a graph of these numbers");
  assert.ok(turn.outcome instanceof core.Routed, turn.outcome.kind);
  assert.deepEqual([...turn.outcome.names], ["plot"]);
  assert.deepEqual(reports[0].embedding, { hybrid: true, error: null });
  // Each tool's definition as a model is sent it.
  const definition = (t) => JSON.stringify({ name: t.name, description: t.description, inputSchema: t.inputSchema ?? {} });
  assert.deepEqual(embedded.slice(0, 4).sort(), TOOLS.map(definition).sort());
  assert.equal(embedded[4], "make a graph of these numbers");
  // The next turn embeds only its message; a refresh re-embeds no text it embedded before.
  await run.route("please write a letter to bob");
  assert.deepEqual(embedded.slice(5), ["please write a letter to bob"]);
  assert.deepEqual([...run.turn.outcome.names], ["send_mail"]);
  const refreshed = await palette.refresh();
  assert.deepEqual(refreshed.embedding, { hybrid: true, error: null });
  assert.equal(embedded.length, 6);
  assert.deepEqual(warnings, []);
  // search_tools embeds its query: "diagram" is in no description; a failed query embedding goes to onEmbedError and is lexical.
  const hit = await run.callTool({ name: "search_tools", arguments: { query: "a diagram please" } });
  assert.deepEqual(hit.structuredContent.tools.map((t) => t.name), ["plot"]);
  const errors = [];
  const failing = mcp.createMcpPalette({ servers: { s: client(TOOLS) }, limit: 1, index: { embed: (t) => (t === "explode" ? Promise.reject(new Error("boom")) : toyEmbed(t)), onEmbedError: (e) => errors.push(e.message) } });
  const failingRun = failing.run();
  await failingRun.route("zzzz qqqq"); // a call runs only once a step offered it
  const lexicalHit = await failingRun.callTool({ name: "search_tools", arguments: { query: "explode" } });
  assert.deepEqual([lexicalHit.structuredContent.tools, errors], [[], ["boom"]]);
  // An onEmbedError that throws changes nothing: the search is lexical, as an index's own is.
  const loud = mcp.createMcpPalette({ servers: { s: client(TOOLS) }, limit: 1, index: { embed: (t) => (t === "send mail" ? Promise.reject(new Error("boom")) : toyEmbed(t)), onEmbedError: () => { throw new Error("loud"); } } });
  const loudRun = loud.run();
  await loudRun.route("zzzz qqqq");
  const loudHit = await loudRun.callTool({ name: "search_tools", arguments: { query: "send mail" } });
  assert.deepEqual(loudHit.structuredContent.tools.map((t) => t.name), ["send_mail"]);
  // Without embed the report says so.
  const lexical = await mcp.createMcpPalette({ servers: { s: client(TOOLS) } }).refresh();
  assert.equal(lexical.embedding, null);
});

test("index: { embed } that fails or hangs on the tools: routing ranks lexically, warned once and reported; other index options are refused", async () => {
  // A tool's text is its JSON definition; a message is not.
  const isTool = (text) => text.startsWith("{");
  for (const [what, embed, error] of [
    ["rejects", async (text) => (isTool(text) ? Promise.reject(new Error("embeddings API down")) : toyEmbed(text)), /embeddings API down/],
    ["throws", (text) => { throw new Error("no model loaded"); }, /no model loaded/],
    ["hangs", (text) => (isTool(text) ? new Promise(() => {}) : toyEmbed(text)), /timed out after 50 ms/],
    ["answers vectors of two lengths", (text) => (text.startsWith('{"name":"plot"') ? [1, 0] : [0, 1, 0]), /vectors/],
  ]) {
    const reports = [];
    const warnings = [];
    const palette = mcp.createMcpPalette({ servers: { s: client(TOOLS) }, listTimeoutMs: 50, index: { embed }, onDecision: (r) => reports.push(r), onWarning: (w) => warnings.push(w) });
    const run = palette.run();
    const turn = await run.route("read the file on the disk");
    assert.ok(turn.outcome instanceof core.Routed, `${what}: ${turn.outcome.kind}`);
    assert.equal(turn.outcome.names[0], "read_file", what);
    await run.route("create an issue");
    assert.equal(reports.length, 2, what);
    for (const r of reports) {
      assert.equal(r.embedding.hybrid, false, what);
      assert.match(r.embedding.error, error, what);
    }
    assert.deepEqual(warnings.map((w) => w.code), ["EMBED_FAILED"], what);
    assert.match(warnings[0].message, error, what);
  }
  assert.throws(() => mcp.createMcpPalette({ servers: { s: client(TOOLS) }, index: { vectors: [[1]] } }), { name: "TypeError", message: /options\.index\.vectors/ });
  assert.throws(() => mcp.createMcpPalette({ servers: { s: client(TOOLS) }, index: { embed: "yes" } }), { name: "TypeError", message: /options\.index\.embed/ });
});

test("a malformed tool (cyclic schema, throwing getter) leaves out that tool only: every server's other tools still serve, every turn", async () => {
  const cyclic = { type: "object", properties: {} };
  cyclic.properties.self = cyclic;
  const bad = [
    { name: "loop", description: "weather loop", inputSchema: cyclic },
    { name: "odd", description: "weather odd", inputSchema: { type: "object", get properties() { throw new Error("lazy schema failed"); } } },
    { get name() { throw new Error("no name today"); } },
    { name: "big", description: "weather", inputSchema: { type: "object", n: 10n } },
    "not a tool",
    tool("radar", "weather radar images"),
  ];
  const calls = [];
  const reports = [];
  const palette = mcp.createMcpPalette({ servers: { good: client([tool("weather", "weather forecast")]), bad: client(bad, calls) }, onDecision: (r) => reports.push(r), onWarning() {} });
  const run = palette.run();
  for (let i = 0; i < 2; i++) {
    const turn = await run.route("weather forecast and radar");
    assert.ok(turn.names.includes("weather") && turn.names.includes("radar"), `${turn.names}`);
    assert.ok(!turn.names.some((n) => ["loop", "odd", "big"].includes(n)), `${turn.names}`);
  }
  const { skipped, servers, failures } = reports[1];
  assert.deepEqual(failures, []);
  assert.deepEqual(skipped.map((s) => [s.server, s.name]), [["bad", "loop"], ["bad", "odd"], ["bad", ""], ["bad", "big"], ["bad", ""]]);
  assert.match(skipped[0].reason, /cannot be read/);
  assert.match(skipped[1].reason, /lazy schema failed/);
  assert.match(skipped[2].reason, /no name today/);
  assert.deepEqual([servers.good.tools, servers.bad.tools, servers.bad.listed], [1, 1, true]);
  // The left-out tool is unknown to calls and to the search; the good one on the bad server runs.
  assert.equal((await run.callTool({ name: "loop", arguments: {} })).isError, true);
  assert.deepEqual(await run.callTool({ name: "radar", arguments: {} }), { content: [{ type: "text", text: "ran radar" }] });
  assert.deepEqual(calls.map((c) => c.name), ["radar"]);
  assert.deepEqual((await palette.tools()).map((t) => t.name), ["weather", "radar"]);
});

test("listTimeoutMs beyond a timer's reach (2^31 ms and more) is no timeout, never 1 ms; timeoutMs: Infinity is no budget", async () => {
  for (const [listTimeoutMs, timeoutMs] of [[2 ** 31, Infinity], [1e300, 1e300], [Infinity, undefined]]) {
    const slow = { ...client([tool("weather", "weather forecast")]), listTools: () => new Promise((r) => setTimeout(() => r({ tools: [tool("weather", "weather forecast")] }), 30)) };
    const reports = [];
    const turn = await mcp.createMcpPalette({ servers: { slow }, listTimeoutMs, timeoutMs, onDecision: (r) => reports.push(r), onWarning() {} }).run().route("weather");
    assert.deepEqual(reports[0].failures, [], `${listTimeoutMs}`);
    assert.ok(turn.names.includes("weather"), `${listTimeoutMs}: ${turn.names}`);
  }
});

test("an aborted callTool rejects with signal.reason, as route() does: an SDK server, a client that ignores the signal, a signal aborted before", { timeout: 10_000 }, async () => {
  const server = new sdk.McpServer({ name: "s", version: "1.0.0" });
  let release;
  const held = new Promise((r) => (release = r));
  server.registerTool("slow", { description: "slow weather tool" }, async () => {
    await held;
    return { content: [{ type: "text", text: "done" }] };
  });
  const sdkClient = await connect(sdk, server, "s");
  open.push(sdkClient);
  const hangs = [];
  const ignoring = { ...client([tool("hang", "hang weather")]), callTool: (params) => (hangs.push(params), new Promise(() => {})) };
  const run = mcp.createMcpPalette({ servers: { s: sdkClient, a: ignoring } }).run();
  await run.route("slow hang weather");
  for (const name of ["slow", "hang"]) {
    const ac = new AbortController();
    const reason = new Error(`user cancel ${name}`);
    const call = run.callTool({ name, arguments: {} }, { signal: ac.signal });
    setTimeout(() => ac.abort(reason), 20);
    await assert.rejects(call, (error) => error === reason);
  }
  release();
  // Aborted before: rejects with the reason, and no server is called.
  const before = hangs.length;
  const reason = new Error("pre");
  await assert.rejects(run.callTool({ name: "hang", arguments: {} }, { signal: AbortSignal.abort(reason) }), (error) => error === reason);
  assert.equal(hangs.length, before);
  await assert.rejects(run.route("hang", { signal: AbortSignal.abort(reason) }), (error) => error === reason);
  // A server's own failure is still a failed call, not a rejection.
  const failing = { ...client([tool("boom", "boom weather")]), callTool: async () => Promise.reject(new Error("crashed")) };
  const run2 = mcp.createMcpPalette({ servers: { f: failing } }).run();
  await run2.route("boom");
  assert.deepEqual(await run2.callTool({ name: "boom", arguments: {} }, { signal: new AbortController().signal }), { content: [{ type: "text", text: "crashed" }], isError: true });
  await assert.rejects(run2.callTool({ name: "boom" }, { signal: "soon" }), { name: "TypeError", message: /signal/ });
});

test("countTokens must answer a finite number >= 0: a Promise, a string, NaN or a negative count is a TypeError naming it", async () => {
  const servers = () => ({ a: client(TOOLS) });
  for (const [countTokens, got] of [
    [async (t) => t.length / 4, /a Promise/],
    [() => "5", /a string/],
    [() => NaN, /NaN/],
    [() => -1, /-1/],
    [() => Infinity, /Infinity/],
  ]) {
    await assert.rejects(mcp.createMcpPalette({ servers: servers(), countTokens }).run().route("send mail"), { name: "TypeError", message: new RegExp(`options\\.countTokens must return a finite number >= 0, got ${got.source}`) });
  }
  const reports = [];
  await mcp.createMcpPalette({ servers: servers(), countTokens: (t) => t.length / 4, onDecision: (r) => reports.push(r) }).run().route("send mail");
  const { definitions, servers: per } = reports[0];
  for (const d of [definitions.offered, definitions.all, per.a.definitions.all]) assert.equal(typeof d.tokens, "number");
  assert.equal(definitions.all.tokens, definitions.all.chars / 4);
});

test('"__proto__" is an ordinary name: a tool in aiSdkTools(), a server in the report', async () => {
  const run = mcp.createMcpPalette({ servers: { a: client([tool("__proto__", "weather proto"), tool("forecast", "weather forecast")]) } }).run();
  await run.route("weather");
  const record = await run.aiSdkTools();
  assert.equal(Object.getPrototypeOf(record), Object.prototype);
  assert.deepEqual(Object.keys(record), ["__proto__", "forecast", "search_tools"]);
  assert.ok(Object.hasOwn(record, "__proto__") && typeof record["__proto__"].execute === "function");
  const reports = [];
  const servers = { b: client([tool("beta", "weather beta")]) };
  Object.defineProperty(servers, "__proto__", { value: client([tool("alpha", "weather alpha")]), enumerable: true });
  const turn = await mcp.createMcpPalette({ servers, onDecision: (r) => reports.push(r) }).run().route("weather");
  assert.ok(turn.names.includes("alpha"));
  assert.deepEqual(Object.keys(reports[0].servers).sort(), ["__proto__", "b"]);
  assert.equal(Object.getPrototypeOf(reports[0].servers), Object.prototype);
  assert.equal(reports[0].servers["__proto__"].tools, 1);
});

test("a policy redirect to the search tool, which the turn offers, is not dropped: it searches", async () => {
  const warnings = [];
  const calls = [];
  const policies = new core.ToolPolicies(
    [{ name: "look-first", match: () => true, whenTool: "create_issue", redirectTo: "search_tools", argsTransform: () => ({ query: "read a file" }) }],
    { onWarning: (w) => warnings.push(w) },
  );
  const run = mcp.createMcpPalette({ servers: { s: client(TOOLS, calls) }, policies }).run();
  const turn = await run.route("create an issue");
  assert.ok(turn.names.includes("search_tools") && !turn.names.includes("read_file"), `${turn.names}`);
  const result = await run.callTool({ name: "create_issue", arguments: {} });
  assert.equal(result.isError, undefined);
  assert.ok(result.structuredContent.tools.some((t) => t.name === "read_file"), JSON.stringify(result));
  assert.ok(run.found.includes("read_file"));
  assert.deepEqual(calls, []);
  assert.deepEqual(warnings, []);
});
