// tool-palette/mcp (SPEC section 7) against the official MCP TypeScript SDK: real
// McpServers and a low-level Server (paged tools/list) connected to real Clients over
// InMemoryTransport, one server in a child process over stdio, from the packed package
// (ESM and CommonJS).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { consumer } from "./consumer.mjs";
import { CI, FILES, GITHUB, connect, loadSdk, mcpServer, pagedServer, threeServers } from "./mcp-servers.mjs";

let c, sdk, flavors;
const open = [];
before(async () => {
  c = await consumer();
  sdk = await loadSdk(c.load);
  flavors = {
    esm: { core: await c.load("tool-palette"), mcp: await c.load("tool-palette/mcp") },
    cjs: { core: c.require("tool-palette"), mcp: c.require("tool-palette/mcp") },
  };
});
after(async () => {
  for (const client of open) await client.close().catch(() => {});
});

async function scenario(options) {
  const s = await threeServers(sdk, options);
  open.push(...Object.values(s.servers));
  return s;
}
const TOTAL = GITHUB.length + FILES.length + CI.length;
const textOf = (result) => result.content.map((p) => p.text).join("\n");

for (const flavor of ["esm", "cjs"]) {
  test(`[${flavor}] one palette over three servers: every page listed, exact names, <server>__<name> only on a collision, mapped back exactly`, async () => {
    const { mcp } = flavors[flavor];
    const { servers } = await scenario();
    const palette = mcp.createMcpPalette({ servers });
    const listed = await palette.refresh();
    assert.equal(TOTAL, 111);
    assert.deepEqual([listed.tools, listed.failures, listed.skipped], [TOTAL, [], []]);
    const names = (await palette.tools()).map((t) => t.name);
    assert.equal(new Set(names).size, TOTAL);
    assert.ok(names.includes("github__search") && names.includes("files__search") && !names.includes("search"));
    // Only the colliding name is prefixed; the 37 tools of the paged server are all there (4 pages).
    assert.equal(names.filter((n) => n.includes("__")).length, 2);
    for (const [name] of FILES.filter(([n]) => n !== "search")) assert.ok(names.includes(name), name);
    assert.deepEqual(await palette.locate("github__search"), { server: "github", name: "search" });
    assert.deepEqual(await palette.locate("files__search"), { server: "files", name: "search" });
    assert.deepEqual(await palette.locate("tail_console"), { server: "ci", name: "tail_console" });
    assert.equal(await palette.locate("search"), undefined);
    palette.dispose();
  });

  test(`[${flavor}] a turn is routed by the index: the core's outcome and report, the tools to offer, the report per server with the definitions' size`, async () => {
    const { mcp, core } = flavors[flavor];
    const { servers } = await scenario();
    const reports = [];
    const palette = mcp.createMcpPalette({ servers, countTokens: (text) => encode(text).length, onDecision: (r) => reports.push(r) });
    const turn = await palette.run().route("Please close the milestone of the GitHub repository");
    assert.ok(turn.outcome instanceof core.Routed);
    assert.equal(turn.decision.outcome, turn.outcome);
    assert.equal(turn.decision.rule, "routed");
    assert.ok(turn.outcome.names.includes("close_milestone"), `${turn.outcome.names}`);
    // The tools to offer: the routed MCP tool objects, then the search tool.
    assert.deepEqual(turn.tools.map((t) => t.name), [...turn.outcome.names, "search_tools"]);
    assert.ok(turn.tools.every((t) => typeof t.description === "string" && typeof t.inputSchema === "object"));
    const [report] = reports;
    assert.equal(report, turn.report);
    assert.deepEqual(report.offered, turn.tools.map((t) => t.name));
    assert.deepEqual(report.hidden, turn.decision.hidden);
    assert.equal(report.hidden.length + turn.outcome.names.length, TOTAL);
    // Per server: offered + hidden = its tools; the definitions offered against the whole set.
    let offered = 0;
    for (const [name, s] of Object.entries(report.servers)) {
      assert.equal(s.offered + s.hidden, s.tools, name);
      assert.ok(s.definitions.offered.chars <= s.definitions.all.chars);
      assert.ok(s.definitions.all.tokens > 0 && s.definitions.offered.tokens <= s.definitions.all.tokens);
      offered += s.offered;
    }
    assert.equal(offered, turn.outcome.names.length);
    assert.deepEqual([report.servers.github.tools, report.servers.files.tools, report.servers.ci.tools], [43, 37, 31]);
    assert.ok(report.definitions.offered.tokens * 5 < report.definitions.all.tokens, "routing offers a fraction of the tokens");
    assert.ok(Object.isFrozen(report));
    assert.doesNotThrow(() => JSON.stringify(report));
  });

  test(`[${flavor}] calls in MCP's shape and the frameworks' go to the right server; outside the palette and unknown names are failed calls naming only the offered tools, no server called`, async () => {
    const { mcp } = flavors[flavor];
    const { servers, calls } = await scenario();
    const run = mcp.createMcpPalette({ servers }).run();
    const turn = await run.route("copy the backup file and read the archive");
    const offered = turn.report.offered;
    assert.ok(offered.includes("copy_backup") && offered.includes("read_archive"), `${offered}`);
    assert.equal(textOf(await run.callTool({ name: "copy_backup", arguments: { target: "a" } })), "copy_backup done");
    assert.equal(textOf(await run.callTool({ name: "read_archive", args: { target: "b" }, id: "x" })), "read_archive done"); // policies' shape
    assert.equal(textOf(await run.callTool({ toolName: "copy_backup", input: { target: "c" } })), "copy_backup done"); // AI SDK's
    assert.equal(textOf(await run.callTool({ name: "copy_backup", arguments: '{"target":"d"}' })), "copy_backup done"); // OpenAI's JSON text
    assert.deepEqual(calls, [
      ["files", "copy_backup", { target: "a" }],
      ["files", "read_archive", { target: "b" }],
      ["files", "copy_backup", { target: "c" }],
      ["files", "copy_backup", { target: "d" }],
    ]);
    for (const name of ["create_issue", "no_such_tool", "search"]) {
      const answer = await run.callTool({ name, arguments: {} });
      assert.equal(answer.isError, true, name);
      const text = textOf(answer);
      assert.match(text, new RegExp(`^Tool ${name} is not available`));
      const listedNames = text.slice(text.indexOf("Available tools: ") + 17, -1).split(", ");
      assert.deepEqual(listedNames, [...offered], name);
    }
    assert.equal(calls.length, 4, "no server was called for them");
    assert.equal(textOf(await run.callTool({ name: "github__search", arguments: {} })).startsWith("Tool github__search is not available in this step"), true);
  });
}

test('outsidePalette: "allow" runs a call outside the palette on its server; unknown names stay failed calls', async () => {
  const { mcp } = flavors.esm;
  const { servers, calls } = await scenario();
  const run = mcp.createMcpPalette({ servers, outsidePalette: "allow" }).run();
  await run.route("read the archive");
  assert.equal(textOf(await run.callTool({ name: "create_issue", arguments: { target: "bug" } })), "create_issue done");
  assert.deepEqual(calls, [["github", "create_issue", { target: "bug" }]]);
  assert.equal((await run.callTool({ name: "nope", arguments: {} })).isError, true);
});

test("calls go through ToolPolicies and the gate: a redirect reaches another server's tool; one to a tool outside the palette is dropped", async () => {
  const { mcp, core } = flavors.esm;
  const { servers, calls } = await scenario();
  const warnings = [];
  const policies = new core.ToolPolicies(
    [
      { name: "code-search-is-local", match: () => true, whenTool: "github__search", redirectTo: "files__search", argsTransform: (a) => ({ target: `local:${a.target}` }) },
      { name: "no-deletes", match: () => true, whenTool: "delete_file", redirectTo: "delete_backup" },
    ],
    { onWarning: (w) => warnings.push(w) },
  );
  const run = mcp.createMcpPalette({ servers, policies }).run();
  const turn = await run.route("search code across repositories, search file contents, delete a file");
  assert.ok(["github__search", "files__search", "delete_file"].every((n) => turn.report.offered.includes(n)), `${turn.report.offered}`);
  assert.ok(!turn.report.offered.includes("delete_backup"));
  assert.equal(textOf(await run.callTool({ name: "github__search", arguments: { target: "fn" } })), "search done");
  assert.equal(textOf(await run.callTool({ name: "delete_file", arguments: { target: "x" } })), "delete_file done");
  assert.deepEqual(calls, [
    ["files", "search", { target: "local:fn" }],
    ["files", "delete_file", { target: "x" }],
  ]);
  assert.deepEqual(warnings.map((w) => w.name), ["ToolRedirectDroppedWarning"]);
});

test("search_tools: its finds join the palette for the rest of the run (rows the core decides), never another run's", async () => {
  const { mcp } = flavors.esm;
  const { servers, calls } = await scenario();
  const palette = mcp.createMcpPalette({ servers, limit: 3 });
  const run = palette.run();
  const first = await run.route("Why did the nightly build fail?");
  assert.ok(!first.report.offered.includes("tail_console"), `the first routing misses it: ${first.report.offered}`);
  assert.equal((await run.callTool({ name: "tail_console", arguments: {} })).isError, true);
  const found = await run.callTool({ name: "search_tools", arguments: { query: "console output lines of a job" } });
  assert.equal(found.isError, undefined);
  assert.equal(found.structuredContent.tools[0].name, "tail_console");
  assert.deepEqual(Object.keys(found.structuredContent.tools[0]), ["name", "description", "inputSchema"]);
  const second = await run.route("Why did the nightly build fail?");
  assert.ok(second.report.offered.includes("tail_console"));
  assert.deepEqual(second.report.found, run.found);
  const fate = second.decision.rows.find((r) => r.candidate === "tail_console");
  assert.equal(fate.fate, "routed");
  assert.equal(textOf(await run.callTool({ name: "tail_console", arguments: { target: "nightly" } })), "tail_console done");
  assert.deepEqual(calls, [["ci", "tail_console", { target: "nightly" }]]);
  // Another run starts from routing alone.
  assert.ok(!(await palette.run().route("Why did the nightly build fail?")).report.offered.includes("tail_console"));
});

test("search_tools finds a tool whose name begins or ends with whitespace or U+FEFF: offered at the next step and callable, exactly", async () => {
  const { mcp } = flavors.esm;
  const calls = [];
  const odd = [[" tail_console ", "Tail the console output lines of a CI job"], ["\uFEFFrotate_keys", "Rotate the deploy keys"], ["list_jobs", "List the CI jobs"]];
  const client = await connect(sdk, pagedServer(sdk, "ci", odd, calls), "ci");
  open.push(client);
  const run = mcp.createMcpPalette({ servers: { ci: client }, limit: 1 }).run();
  const first = await run.route("which jobs are there");
  assert.ok(!first.report.offered.includes(" tail_console "), `${first.report.offered}`);
  for (const [name, query] of [[" tail_console ", "console output lines"], ["\uFEFFrotate_keys", "rotate deploy keys"]]) {
    const found = await run.callTool({ name: "search_tools", arguments: { query } });
    assert.equal(found.structuredContent.tools[0].name, name);
    const next = await run.route("which jobs are there");
    assert.ok(next.report.offered.includes(name), `${name} offered: ${JSON.stringify(next.report.offered)}`);
    const answer = await run.callTool({ name, arguments: { target: "nightly" } });
    assert.equal(answer.isError, undefined, textOf(answer));
  }
  assert.deepEqual(calls.map((c) => c[1]), [" tail_console ", "\uFEFFrotate_keys"]);
  // Routed from the index's own rows, too: a turn whose search ranks it first offers it.
  const turn = await mcp.createMcpPalette({ servers: { ci: client }, limit: 1 }).run().route("tail the console output lines");
  assert.ok(turn.report.offered.includes(" tail_console "), `${turn.report.offered}`);
});

test("a refusal offers every tool (never none) and no search tool; the report hides nothing", async () => {
  const { mcp } = flavors.esm;
  const { servers } = await scenario();
  const turn = await mcp.createMcpPalette({ servers }).run().route("zzz qqq");
  assert.equal(turn.outcome.kind, "refused");
  assert.equal(turn.decision.rule, "3");
  assert.equal(turn.tools.length, TOTAL);
  assert.deepEqual(turn.report.hidden, []);
  assert.equal(turn.report.definitions.offered.chars, turn.report.definitions.all.chars);
});

test("faults: a server that fails to list and one that hangs are left out and named; the others serve; a failed call is an isError answer", async () => {
  const { mcp } = flavors.esm;
  const { servers, calls } = await scenario({ files: { failCall: "read_file" } });
  const broken = await connect(sdk, pagedServer(sdk, "broken", [["fix_me", "A tool never listed"]], calls, { failList: true }), "broken");
  const slow = await connect(sdk, pagedServer(sdk, "slow", [["later", "A tool never listed"]], calls, { hangList: true }), "slow");
  open.push(broken, slow);
  const warnings = [];
  const palette = mcp.createMcpPalette({ servers: { ...servers, broken, slow }, listTimeoutMs: 300, onWarning: (w) => warnings.push(w) });
  const started = Date.now();
  const run = palette.run();
  const turn = await run.route("read the file");
  assert.ok(Date.now() - started < 5_000);
  assert.deepEqual(turn.report.failures.map((f) => f.server), ["broken", "slow"]);
  assert.match(turn.report.failures[0].error, /broken cannot list its tools/);
  assert.match(turn.report.failures[1].error, /listTools\(\) of server "slow" timed out after 300 ms/);
  assert.deepEqual([turn.report.servers.broken.listed, turn.report.servers.slow.listed, turn.report.servers.files.listed], [false, false, true]);
  assert.equal((await palette.tools()).length, TOTAL);
  assert.deepEqual(warnings.map((w) => [w.name, w.code]), [["ToolPaletteAdapterWarning", "LIST_FAILED:broken"], ["ToolPaletteAdapterWarning", "LIST_FAILED:slow"]]);
  // The failing call answers with the server's error; the next call still runs.
  const answer = await run.callTool({ name: "read_file", arguments: { target: "x" } });
  assert.equal(answer.isError, true);
  assert.match(textOf(answer), /read_file crashed on files/);
  assert.equal(textOf(await run.callTool({ name: "read_directory", arguments: { target: "x" } })), "read_directory done");
  // A second turn does not wait for the hanging server again.
  const again = Date.now();
  await run.route("read the file");
  assert.ok(Date.now() - again < 250);
});

test("notifications/tools/list_changed: a tool a server adds is listed at the next turn", async () => {
  const { mcp } = flavors.esm;
  const calls = [];
  const server = mcpServer(sdk, "ci", CI.slice(0, 5), calls);
  const client = await connect(sdk, server, "ci");
  open.push(client);
  const palette = mcp.createMcpPalette({ servers: { ci: client } });
  const run = palette.run();
  assert.ok(!(await palette.tools()).some((t) => t.name === "rotate_secrets"));
  server.registerTool("rotate_secrets", { description: "Rotate the secrets of the deploy keys", inputSchema: { target: sdk.z.string() } }, async () => ({ content: [{ type: "text", text: "rotated" }] }));
  // The server sends notifications/tools/list_changed; it arrives asynchronously.
  for (let i = 0; i < 50 && !(await palette.tools()).some((t) => t.name === "rotate_secrets"); i++) await new Promise((r) => setTimeout(r, 10));
  const turn = await run.route("rotate the secrets of the deploy keys");
  assert.ok(turn.report.offered.includes("rotate_secrets"), `${turn.report.offered}`);
  assert.equal(textOf(await run.callTool({ name: "rotate_secrets", arguments: { target: "prod" } })), "rotated");
});

test("a server in a child process over stdio: listed, routed and called", async () => {
  const { mcp } = flavors.esm;
  const { Client } = await c.load("@modelcontextprotocol/sdk/client/index.js");
  const { StdioClientTransport } = await c.load("@modelcontextprotocol/sdk/client/stdio.js");
  const client = new Client({ name: "stdio-test", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [join(import.meta.dirname, "mcp-stdio-server.mjs")], cwd: c.dir }));
  open.push(client);
  const run = mcp.createMcpPalette({ servers: { weather: client } }).run();
  const turn = await run.route("what is the weather forecast in Paris");
  assert.equal(turn.report.servers.weather.tools, 3);
  assert.ok(turn.report.offered.includes("get_forecast"));
  const answer = await run.callTool({ name: "get_forecast", arguments: { city: "Paris" } });
  const [, pid] = textOf(answer).match(/^forecast for Paris from process (\d+)$/);
  assert.notEqual(Number(pid), process.pid);
});

test("bad options are TypeErrors naming the option", () => {
  const { mcp } = flavors.esm;
  const client = { listTools: async () => ({ tools: [] }), callTool: async () => ({ content: [] }) };
  assert.throws(() => mcp.createMcpPalette(), /tool-palette\/mcp: options must be an object/);
  assert.throws(() => mcp.createMcpPalette({ servers: [] }), /options\.servers must be a record/);
  assert.throws(() => mcp.createMcpPalette({ servers: {} }), /options\.servers must name at least one server/);
  assert.throws(() => mcp.createMcpPalette({ servers: { a: {} } }), /options\.servers\["a"\] must be an MCP client/);
  assert.throws(() => mcp.createMcpPalette({ servers: { a: client }, listTimeoutMs: -1 }), /options\.listTimeoutMs/);
  assert.throws(() => mcp.createMcpPalette({ servers: { a: client }, searchTool: "" }), /options\.searchTool/);
  assert.throws(() => mcp.createMcpPalette({ servers: { a: client }, policies: {} }), /options\.policies/);
});
