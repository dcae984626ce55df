// tool-palette/mcp against what users hit (the packed package, SDK servers over
// InMemoryTransport): a call before the first step, a nameless tool behind the SDK's own
// schema check, a server too large to index, a name that moved to another server, two
// concurrent routes, a search the index cannot take, a limit the core refuses, and an
// onDecision that throws, the SDK Client's own listing kept, a too-large server beside
// embedding. Each test failed before its fix.
import { test } from "node:test";
import assert from "node:assert/strict";
import { connect, frameworksSuite, pagedServer } from "./mcp-servers.mjs";

let sdk, m;
const open = frameworksSuite((loaded) => ({ sdk, m } = loaded));

const def = (name, description = name.replace(/_/g, " ")) => ({ name, description, inputSchema: { type: "object", properties: { q: { type: "string" } } } });
// An in-process client listing `tools` (what `tools()` answers now); every call is recorded.
const client = (tools, calls = [], server = "s") => ({
  tools,
  async listTools() {
    return { tools: typeof this.tools === "function" ? this.tools() : this.tools };
  },
  async callTool({ name }) {
    calls.push([server, name]);
    return { content: [{ type: "text", text: `${server} ran ${name}` }] };
  },
});
const palette = (servers, options = {}) => m["tool-palette/mcp"].createMcpPalette({ servers, onWarning: () => {}, ...options });
const textOf = (result) => result.content.map((p) => p.text).join("\n");
const THREE = [def("cancel_workflow_run"), def("read_calendar"), def("get_weather")];

test("a call before the run's first route() runs nothing: answered as outside the palette, unless the host allows it", async () => {
  const calls = [];
  const run = palette({ s: client(THREE, calls) }).run();
  const answer = await run.callTool({ name: "cancel_workflow_run", arguments: {} });
  assert.deepEqual(answer, { content: [{ type: "text", text: "Tool cancel_workflow_run is not available in this step. No tool is offered before the run's first step (route())." }], isError: true });
  assert.equal((await run.callTool({ name: "search_tools", arguments: { query: "weather" } })).isError, true);
  assert.deepEqual(calls, []);
  const allowed = palette({ s: client(THREE, calls) }, { outsidePalette: "allow" }).run();
  assert.equal(textOf(await allowed.callTool({ name: "cancel_workflow_run", arguments: {} })), "s ran cancel_workflow_run");
  assert.deepEqual(calls, [["s", "cancel_workflow_run"]]);
});

test("an SDK server listing a tool without a name: that tool alone is left out, its server serves", async () => {
  const server = pagedServer(sdk, "files", [["read_file", "Read a file on the local disk"], ["write_file", "Write a file on the local disk"]], []);
  // The page answers one tool the SDK's ListToolsResultSchema refuses (no name).
  const handlers = server._requestHandlers;
  const list = handlers.get("tools/list");
  handlers.set("tools/list", async (...args) => {
    const page = await list(...args);
    return { ...page, tools: [{ description: "nameless", inputSchema: { type: "object" } }, ...page.tools] };
  });
  const files = await connect(sdk, server, "files");
  open.push(files);
  await assert.rejects(files.listTools(), "the SDK's own listTools refuses the whole page");
  const p = palette({ files });
  const { tools, failures, skipped } = await p.refresh();
  assert.deepEqual([tools, failures], [2, []]);
  assert.deepEqual(skipped.map((s) => [s.server, s.name, s.reason]), [["files", "", "its definition cannot be read: its name is not a non-empty string"]]);
  const turn = await p.run().route("read the file");
  assert.ok(turn.names.includes("read_file"), `${turn.names}`);
});

test("a server whose tools are too large to index with the others is left out (reported); the others serve", async () => {
  const huge = Array.from({ length: 9 }, (_, i) => def(`${String.fromCharCode(97 + i)}${"x".repeat(1_000_000)}`, ""));
  const calls = [];
  const p = palette({ big: client(huge, calls, "big"), s: client(THREE, calls) });
  const { failures } = await p.refresh();
  assert.deepEqual(failures.map((f) => f.server), ["big"]);
  assert.match(failures[0].error, /^its tools are too large to index with the others \(ToolIndex: tools is too large/);
  const run = p.run();
  const turn = await run.route("what is the weather today");
  assert.deepEqual(turn.names, ["get_weather", "search_tools"]);
  assert.equal(turn.report.servers.big.listed, false);
  assert.equal(textOf(await run.callTool({ name: "get_weather", arguments: {} })), "s ran get_weather");
  const many = palette({ many: client(Array.from({ length: 1_100_000 }, (_, i) => ({ name: `t${i}` })), calls, "many"), s: client(THREE, calls) });
  assert.deepEqual((await many.refresh()).failures.map((f) => f.server), ["many"]);
  assert.deepEqual((await many.run().route("weather today")).names, ["get_weather", "search_tools"]);
});

test("after list_changed, a name the step offered that now belongs to another server is not called there", async () => {
  const calls = [];
  const staging = client([def("deploy", "deploy the service"), def("status")], calls, "staging");
  const prod = client([def("rollback")], calls, "prod");
  const p = palette({ staging, prod });
  const run = p.run();
  const turn = await run.route("deploy the service");
  assert.ok(turn.names.includes("deploy"));
  // staging drops deploy, prod adds its own: the palette name "deploy" now means prod's.
  staging.tools = [def("status")];
  prod.tools = [def("rollback"), def("deploy", "deploy the service")];
  await p.refresh();
  assert.deepEqual(await p.locate("deploy"), { server: "prod", name: "deploy" });
  const answer = await run.callTool({ name: "deploy", arguments: {} });
  assert.equal(answer.isError, true, textOf(answer));
  assert.deepEqual(calls, []);
  // Routed again, the name is prod's tool, offered, and runs there.
  await run.route("deploy the service");
  assert.equal(textOf(await run.callTool({ name: "deploy", arguments: {} })), "prod ran deploy");
});

test("two concurrent route() calls: the run gates on the one started last, whichever finishes last", async () => {
  const calls = [];
  let release;
  const slow = new Promise((r) => (release = r));
  const p = palette(
    { s: client(THREE, calls) },
    { entries: async (ctx) => (ctx.message === "first" ? (await slow, ["cancel_workflow_run"]) : ["get_weather"]) },
  );
  const run = p.run();
  const first = run.route("first");
  const second = await run.route("second");
  release();
  await first;
  assert.equal(run.turn, second);
  assert.equal((await run.callTool({ name: "cancel_workflow_run", arguments: {} })).isError, true);
  assert.deepEqual(calls, []);
});

test("search_tools with a query beyond the index's limits is answered as a failed call, not thrown", async () => {
  const run = palette({ s: client(THREE) }).run();
  await run.route("what is the weather today");
  const answer = await run.callTool({ name: "search_tools", arguments: { query: "x".repeat(9_000_000) } });
  assert.equal(answer.isError, true);
  assert.match(textOf(answer), /^The query could not be searched: .*too large/);
});

test("options.limit beyond the core's rule is a TypeError naming it, at construction", () => {
  for (const limit of [2 ** 32, 0, 1.5, "5"]) {
    assert.throws(() => palette({ s: client(THREE) }, { limit }), { name: "TypeError", message: /^tool-palette\/mcp: options\.limit must be a positive integer, got / }, String(limit));
  }
});

test("an onDecision that throws fails its route() before it becomes the run's turn", async () => {
  let fail = false;
  const run = palette({ s: client(THREE) }, { onDecision: () => { if (fail) throw new Error("report sink down"); } }).run();
  const ok = await run.route("what is the weather today");
  fail = true;
  await assert.rejects(run.route("read my calendar"), /report sink down/);
  assert.equal(run.turn, ok);
});

test("an SDK server whose listing passes the SDK's check is listed by its listTools(): the Client keeps its tools' output schemas and checks results", async () => {
  // A low-level Server: it checks nothing of its own answers (an McpServer would refuse this one itself).
  const server = new sdk.Server({ name: "stats", version: "1.0.0" }, { capabilities: { tools: {} } });
  const mean = { name: "mean", description: "The mean of numbers", inputSchema: { type: "object", properties: { xs: { type: "array" } } }, outputSchema: { type: "object", properties: { mean: { type: "number" } }, required: ["mean"] } };
  server.setRequestHandler(sdk.ListToolsRequestSchema, async () => ({ tools: [mean] }));
  // An answer that breaks the tool's own output schema: the SDK Client refuses it, if it knows the schema.
  server.setRequestHandler(sdk.CallToolRequestSchema, async () => ({ content: [{ type: "text", text: "NaN" }], structuredContent: { mean: "not a number" } }));
  const stats = await connect(sdk, server, "stats");
  open.push(stats);
  const run = palette({ stats }).run();
  await run.route("the mean of numbers");
  const answer = await run.callTool({ name: "mean", arguments: { xs: [1, 2] } });
  assert.equal(answer.isError, true, JSON.stringify(answer));
  assert.match(textOf(answer), /output schema/i);
});

test("with index.embed, a server too large to index is left out as such: no EMBED_FAILED, the others ranked hybrid", async () => {
  const huge = Array.from({ length: 9 }, (_, i) => def(`${String.fromCharCode(97 + i)}${"x".repeat(1_000_000)}`, ""));
  const warnings = [];
  const embed = (text) => [text.length % 7, 1, (text.length % 3) + 1];
  const p = palette({ big: client(huge, [], "big"), s: client(THREE) }, { index: { embed }, onWarning: (w) => warnings.push(w.code) });
  const { failures, embedding } = await p.refresh();
  assert.deepEqual(failures.map((f) => f.server), ["big"]);
  assert.deepEqual(embedding, { hybrid: true, error: null });
  assert.deepEqual(warnings, ["LIST_FAILED:big"]);
});
