// tool-palette/mcp with options.cache (SPEC 8): a run's turns go through a PaletteRun over the
// listed tools and the search tool (pinned); each server is its tools' namespace; the index
// reads the run's earlier messages. Real SDK servers over InMemoryTransport, the packed package.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { consumer } from "./consumer.mjs";
import { GITHUB, connect, loadSdk, mcpServer } from "./mcp-servers.mjs";

let sdk, mcp;
const open = [];
before(async () => {
  const c = await consumer();
  sdk = await loadSdk(c.load);
  mcp = await c.load("tool-palette/mcp");
});
after(async () => {
  for (const client of open) await client.close().catch(() => {});
});

// A small server (its 5 tools are one namespace, offered whole) and a large one (43 tools: routed within).
const NOTES = [
  ["add_note", "Add a note to the notebook"],
  ["list_notes", "List the notes of the notebook"],
  ["delete_note", "Delete a note from the notebook"],
  ["tag_note", "Tag a note with a label"],
  ["export_notes", "Export the notebook as markdown"],
];
const NOTE_NAMES = NOTES.map(([name]) => name);

async function servers() {
  const calls = [];
  const out = {};
  for (const [name, tools] of [["notes", NOTES], ["github", GITHUB]]) {
    out[name] = await connect(sdk, mcpServer(sdk, name, tools, calls), name);
    open.push(out[name]);
  }
  return { servers: out, calls };
}
const ALL = [...NOTE_NAMES, ...GITHUB.map(([name]) => name)];
const facts = (t) => ({ offered: t.report.offered, listed: t.report.listed, sent: t.tools.map((x) => x.name), kept: t.report.kept });

test('cache "append": a small server offered whole, each turn sends what was listed before and adds; the gate admits what is listed', async () => {
  const { servers: s, calls } = await servers();
  const run = mcp.createMcpPalette({ servers: s, cache: "append" }).run();
  const first = await run.route("add a note about lunch");
  // The notes server is one namespace of 5 tools: offered whole once add_note ranks; search_tools pinned.
  assert.deepEqual(new Set(first.report.offered), new Set([...NOTE_NAMES, "search_tools"]));
  assert.deepEqual(first.tools.map((x) => x.name), first.report.listed);
  assert.equal(first.report.kept, false);
  const second = await run.route("close the pull request");
  assert.deepEqual(second.report.listed.slice(0, first.report.listed.length), first.report.listed);
  assert.ok(second.report.listed.includes("close_pull_request"));
  assert.ok(second.report.listed.length < ALL.length + 1, "github (43 tools) is routed within, not offered whole");
  assert.equal(second.report.kept, false);
  const third = await run.route("close the pull request");
  assert.deepEqual(facts(third), { ...facts(second), kept: true });
  assert.deepEqual(third.report.deferred, []);
  assert.deepEqual(third.deferred, []);
  // What was listed earlier is still callable; what never was is refused, and no server is called.
  assert.equal((await run.callTool({ name: "tag_note", arguments: { target: "lunch" } })).isError, undefined);
  const refused = await run.callTool({ name: "delete_release", arguments: { target: "v1" } });
  assert.equal(refused.isError, true);
  assert.deepEqual(calls, [["notes", "tag_note", { target: "lunch" }]]);
});

test('cache "fixed": every tool and the search tool sent on every turn, the prefix kept; a listed tool outside the turn\'s palette is refused', async () => {
  const { servers: s, calls } = await servers();
  const run = mcp.createMcpPalette({ servers: s, cache: "fixed" }).run();
  const first = await run.route("add a note about lunch");
  const second = await run.route("close the pull request");
  for (const t of [first, second]) assert.deepEqual(t.tools.map((x) => x.name), [...ALL, "search_tools"]);
  assert.deepEqual([first.report.kept, second.report.kept], [false, true]);
  assert.ok(second.report.offered.includes("close_pull_request") && !second.report.offered.includes("delete_milestone"));
  assert.equal((await run.callTool({ name: "delete_milestone", arguments: { target: "x" } })).isError, true);
  assert.equal((await run.callTool({ name: "close_pull_request", arguments: { target: "#7" } })).isError, undefined);
  assert.deepEqual(calls, [["github", "close_pull_request", { target: "#7" }]]);
  // The definitions sent in full are every tool's (and the search tool's), more than all the listed tools'.
  assert.ok(second.report.definitions.offered.chars > second.report.definitions.all.chars);
});

test('cache "deferred": only the search tool is sent in full, every other tool deferred; each turn reveals what is new, and the prefix is kept', async () => {
  const { servers: s } = await servers();
  const run = mcp.createMcpPalette({ servers: s, cache: "deferred" }).run();
  const first = await run.route("add a note about lunch");
  assert.deepEqual(first.tools.map((x) => x.name), ["search_tools"]);
  assert.deepEqual(first.deferred.map((x) => x.name), ALL);
  assert.deepEqual(new Set(first.report.revealed), new Set(NOTE_NAMES));
  const second = await run.route("close the pull request");
  assert.equal(second.report.kept, true);
  assert.ok(second.report.revealed.includes("close_pull_request"));
  assert.ok(!second.report.revealed.some((name) => NOTE_NAMES.includes(name)), "nothing is revealed twice");
  // What earlier turns revealed stays offered (the model has loaded it).
  assert.ok(NOTE_NAMES.every((name) => second.report.offered.includes(name)));
  assert.equal((await run.callTool({ name: "add_note", arguments: { target: "dinner" } })).isError, undefined);
});

test("with cache, the index reads the run's earlier messages: the namespace an earlier turn was in stays offered", async () => {
  const { servers: s } = await servers();
  const plain = mcp.createMcpPalette({ servers: s }).run();
  await plain.route("add a note about lunch");
  const alone = await plain.route("now create one for the release");
  assert.ok(alone.report.offered.includes("create_release"));
  assert.ok(!alone.report.offered.includes("add_note"), "routed on its own message, the turn forgets the notes");
  const run = mcp.createMcpPalette({ servers: s, cache: "per-turn" }).run();
  await run.route("add a note about lunch");
  const next = await run.route("now create one for the release");
  assert.ok(next.report.offered.includes("create_release"));
  assert.ok(NOTE_NAMES.every((name) => next.report.offered.includes(name)), "the previous message's namespace is offered whole");
  // A context's own history wins.
  const own = await run.route({ message: "now create one for the release", history: ["close the pull request"] });
  assert.ok(own.report.offered.includes("create_release") && !own.report.offered.includes("add_note"));
  // A context's called (the tools the model called): the server called in is the turn's, whole (the notes' 5 tools).
  const called = await run.route({ message: "now create one for the release", history: ["close the pull request"], called: ["tag_note"] });
  assert.ok(called.report.offered.includes("create_release"));
  assert.ok(NOTE_NAMES.every((name) => called.report.offered.includes(name)), `${called.report.offered}`);
});

test("cache: the tools the run's callTool sent to a server are the index's called, kept in the saved run", async () => {
  const { servers: s, calls } = await servers();
  const saves = [];
  const run = mcp.createMcpPalette({ servers: s, cache: "per-turn" }).run({ onSaved: (saved) => saves.push(saved) });
  const context = { message: "now create one for the release", history: ["close the pull request"] };
  const before = await run.route(context);
  assert.ok(!before.report.offered.includes("add_note"), "no call yet: the notes are not the turn's");
  await run.route("add a note about lunch");
  assert.equal((await run.callTool({ name: "add_note", arguments: { target: "lunch" } })).isError, undefined);
  assert.deepEqual(calls.at(-1), ["notes", "add_note", { target: "lunch" }]);
  const after = await run.route(context);
  assert.ok(NOTE_NAMES.every((name) => after.report.offered.includes(name)), `${after.report.offered}`);
  // A context's own called wins; the saved run keeps the calls.
  assert.ok(!(await run.route({ ...context, called: [] })).report.offered.includes("add_note"));
  const restored = mcp.createMcpPalette({ servers: s, cache: "per-turn" }).run({ saved: saves.at(-1) });
  assert.deepEqual((await restored.route(context)).report.offered, after.report.offered);
});

test('cache "deferred": what the model loads through a client tool search is revealed to the MCP run (providers given the run), and stays callable', async () => {
  const { servers: s, calls } = await servers();
  const providers = await (await consumer()).load("tool-palette/providers");
  const { ToolIndex } = await (await consumer()).load("tool-palette");
  const run = mcp.createMcpPalette({ servers: s, cache: "deferred", searchTool: false }).run();
  assert.throws(() => run.reveal(["add_note"]), { name: "Error", message: "tool-palette/mcp: run.reveal() before the run's first step (route())" });
  const first = await run.route("add a note about lunch");
  assert.equal(first.report.step, 1);
  const definitions = [...first.tools, ...first.deferred];
  // The report is a step the providers read as it is; the request has one search tool, the providers'.
  assert.deepEqual(providers.anthropicMessages(first.report, definitions).tools.filter((t) => !t.defer_loading).map((t) => t.name), ["tool_search"]);
  assert.ok(!first.report.offered.includes("close_pull_request"));
  const use = { type: "tool_use", id: "toolu_1", name: "tool_search", input: { query: "close a pull request" } };
  const answer = providers.answerAnthropicToolSearch(use, { step: first.report, index: new ToolIndex(definitions), tools: definitions, limit: 1, run });
  assert.deepEqual(answer.content, [{ type: "tool_reference", tool_name: "close_pull_request" }]);
  const second = await run.route("close it now");
  assert.equal(second.report.step, 2);
  assert.ok(second.report.offered.includes("close_pull_request") && !second.report.revealed.includes("close_pull_request"));
  assert.equal((await run.callTool({ name: "close_pull_request", arguments: { target: "#3" } })).isError, undefined);
  assert.deepEqual(calls, [["github", "close_pull_request", { target: "#3" }]]);
  assert.deepEqual(run.reveal(["close_pull_request"]), []);
  const plain = mcp.createMcpPalette({ servers: s, cache: "append" }).run();
  await plain.route("x");
  assert.throws(() => plain.reveal(["add_note"]), { name: "Error", message: 'tool-palette/mcp: run.reveal() needs options.cache "deferred" (this palette\'s is "append")' });
});

test("when a server's tools change mid-run, the new run keeps what the model was shown of the tools still listed", async () => {
  for (const cache of ["deferred", "append"]) {
    const calls = [];
    const notes = mcpServer(sdk, "notes", NOTES, calls);
    const clients = { notes: await connect(sdk, notes, "notes"), github: await connect(sdk, mcpServer(sdk, "github", GITHUB, calls), "github") };
    open.push(...Object.values(clients));
    const palette = mcp.createMcpPalette({ servers: clients, cache });
    const run = palette.run();
    const first = await run.route("add a note about lunch");
    assert.ok(first.report.offered.includes("add_note"));
    notes.registerTool("archive_note", { description: "Archive a note", inputSchema: { target: sdk.z.string() } }, async () => ({ content: [{ type: "text", text: "archived" }] }));
    await palette.refresh();
    const second = await run.route("close the pull request");
    assert.equal(second.report.kept, false, `${cache}: the tools changed`);
    assert.ok(second.report.offered.includes("add_note"), `${cache}: the notes shown before stay offered`);
    assert.ok(!second.report.revealed.includes("add_note"), `${cache}: and are not revealed again`);
    if (cache === "append") assert.ok(first.report.listed.every((name) => second.report.listed.includes(name)), "nothing listed is removed");
    assert.equal((await run.callTool({ name: "add_note", arguments: { target: "x" } })).isError, undefined, cache);
  }
});

test("options.cache is checked by the core's rule, under its own name", async () => {
  const { servers: s } = await servers();
  for (const [bad, got] of [["sometimes", 'got "sometimes"'], [3, "got number (3)"], [{}, "got an object"]]) {
    assert.throws(() => mcp.createMcpPalette({ servers: s, cache: bad }), { name: "TypeError", message: `tool-palette/mcp: options.cache must be "per-turn", "append", "fixed" or "deferred", ${got}` });
  }
});

test("with cache, a context whose reading throws fails the procedural layer (refusal 2a), as without cache; the run goes on", async () => {
  const { servers: s } = await servers();
  const run = mcp.createMcpPalette({ servers: s, cache: "append" }).run();
  const hostile = new Proxy({ message: "add a note about lunch" }, { has() { throw new Error("has trap"); } });
  const turn = await run.route(hostile);
  assert.deepEqual([turn.outcome.kind, turn.decision.rule], ["refused", "2a"]);
  assert.ok((await run.route("add a note about lunch")).report.offered.includes("add_note"));
});

// A serverless agent loop: the run is saved after a turn, the process ends, and the model's call arrives in a new one.
test("a restored run gates the saved turn's calls as the unbroken run does (with and without cache), the policies reading its message", async () => {
  for (const cache of [undefined, "per-turn"]) {
    const { servers: s, calls } = await servers();
    const seen = [];
    const policies = { dispatch: (call, ctx, palette) => (seen.push([ctx.message, Array.isArray(palette) ? [...palette] : palette]), { call, original: call, redirectedBy: null, dropped: null }) };
    const options = { servers: s, policies, ...(cache && { cache }) };
    const run = mcp.createMcpPalette(options).run();
    const turn = await run.route("add a note about lunch");
    assert.ok(turn.names.includes("add_note") && !turn.names.includes("close_pull_request"), `${turn.names}`);
    // The unbroken run and the restored one (saved again after two calls) answer each call alike.
    let restored = mcp.createMcpPalette(options).run({ saved: run.save() });
    const steps = [
      { name: "add_note", arguments: { target: "lunch" } },
      { name: "search_tools", arguments: { query: "close a pull request" } },
      { name: "close_pull_request", arguments: { target: "1" } }, // not offered this turn: refused by both
      { name: "add_note", arguments: { target: "tea" } },
    ];
    for (const [i, call] of steps.entries()) {
      if (i === 2) restored = mcp.createMcpPalette(options).run({ saved: restored.save() });
      const [was, now] = [await run.callTool(call), await restored.callTool(call)];
      assert.deepEqual(now, was, `${cache}: ${call.name}`);
      assert.equal(now.isError, call.name === "close_pull_request" ? true : undefined, `${cache}: ${call.name}`);
    }
    assert.deepEqual(calls.filter(([, name]) => name === "add_note").length, 4);
    // The policies read the saved turn's message and palette, as the unbroken run's.
    const [unbroken, after] = [seen.filter((_, i) => i % 2 === 0), seen.filter((_, i) => i % 2 === 1)];
    assert.deepEqual(after, unbroken);
    assert.deepEqual(unbroken[0], ["add a note about lunch", [...turn.names]]);
    // Its next turn routes as the unbroken run's.
    const [next, nextRestored] = [await run.route("now list the notes"), await restored.route("now list the notes")];
    assert.deepEqual(nextRestored.report.offered, next.report.offered);
  }
});

test("a restored run whose saved turn did not narrow (a refusal) gates as the unbroken one: every tool listed, the search tool too", async () => {
  for (const cache of [undefined, "append"]) {
    const { servers: s } = await servers();
    const warned = [];
    // A redirect to a tool no server lists is dropped with a warning in both (the policies' palette: every tool listed, and the run's own).
    const policies = { dispatch: (call, ctx, palette) => (call.name === "add_note" && !palette.includes("ghost") && warned.push(palette.length), { call, original: call, redirectedBy: null, dropped: null }) };
    const options = { servers: s, entries: () => [], policies, ...(cache && { cache }) };
    const run = mcp.createMcpPalette(options).run();
    const turn = await run.route("hello");
    assert.equal(turn.outcome.kind, "refused");
    const restored = mcp.createMcpPalette(options).run({ saved: run.save() });
    for (const call of [{ name: "close_pull_request", arguments: { target: "1" } }, { name: "add_note", arguments: { target: "1" } }, { name: "search_tools", arguments: { query: "notes" } }, { name: "nope", arguments: { target: "1" } }]) {
      const [was, now] = [await run.callTool(call), await restored.callTool(call)];
      assert.deepEqual(now, was, `${cache}: ${call.name}`);
      assert.equal(now.isError, call.name === "nope" ? true : undefined, `${cache}: ${call.name}`);
    }
    assert.deepEqual(warned, [ALL.length + 1, ALL.length + 1], `${cache}`);
  }
  // A gate saved before any turn is no saved run.
  const { servers: s } = await servers();
  const forged = JSON.stringify({ ...JSON.parse(mcp.createMcpPalette({ servers: s }).run().save()), gate: { names: ["add_note"], kind: "routed", message: "", targets: [], lenient: true } });
  assert.throws(() => mcp.createMcpPalette({ servers: s }).run({ saved: forged }), { name: "TypeError", message: "tool-palette/mcp: run(options).saved is not a saved run of tool-palette/mcp (from onSaved or run.save())" });
});

test("a saved run whose core form was cut short or altered is a TypeError naming run(options).saved, never a new run (cache or not)", async () => {
  const { servers: s } = await servers();
  const run = mcp.createMcpPalette({ servers: s, cache: "append" }).run();
  await run.route("add a note about lunch");
  const saved = JSON.parse(run.save());
  const at = "tool-palette/mcp: run(options).saved";
  for (const core of [saved.run.slice(0, -3), `${saved.run.slice(0, 12)}${saved.run[12] === "A" ? "B" : "A"}${saved.run.slice(13)}`, "tprun1.garbage", ""]) {
    const altered = JSON.stringify({ ...saved, run: core });
    assert.throws(() => mcp.createMcpPalette({ servers: s, cache: "append" }).run({ saved: altered }), (e) => e instanceof TypeError && e.message.startsWith(`${at} is not a saved run of tool-palette/mcp (from onSaved or run.save()), or it was cut short or altered (PaletteRun.load: saved `));
  }
  // Over other tools it is a new run that carries what the saved one listed (as documented).
  const other = mcp.createMcpPalette({ servers: { notes: s.notes }, cache: "append" }).run({ saved: run.save() });
  assert.ok((await other.route("list the notes")).report.listed.includes("add_note"));
});

test("a tool whose <server>__<name> is the search tool's name is left out (skipped), never a second tool of that name", async () => {
  const tools = [["x", "Does x"], ["y", "Does y"]];
  const a = await connect(sdk, mcpServer(sdk, "a", tools, []), "a");
  const b = await connect(sdk, mcpServer(sdk, "b", tools, []), "b");
  open.push(a, b);
  const palette = mcp.createMcpPalette({ servers: { a, b }, searchTool: "a__x" });
  const refreshed = await palette.refresh();
  assert.deepEqual(refreshed.skipped, [{ server: "a", name: "x", reason: '"a__x" is already the name of the search tool' }]);
  assert.deepEqual((await palette.tools()).map((t) => t.name), ["a__y", "b__x", "b__y"]);
  const run = palette.run();
  const turn = await run.route("does x");
  assert.equal(new Set(turn.names).size, turn.names.length, `${turn.names}`);
  assert.equal(await palette.locate("a__x"), undefined);
  assert.equal((await run.callTool({ name: "a__x", arguments: { query: "x" } })).structuredContent !== undefined, true, "a__x is the search tool");
});

test("the servers' definitions offered add up to the turn's (what the model is sent), under every cache", async () => {
  const rests = new Set(); // what the turn's definitions hold beyond the servers': the search tool's, when listed
  for (const cache of [undefined, "fixed", "append", "per-turn", "deferred"]) {
    const { servers: s } = await servers();
    const run = mcp.createMcpPalette({ servers: s, ...(cache && { cache }) }).run();
    for (const message of ["add a note about lunch", "close the pull request"]) {
      const { report } = await run.route(message);
      const sum = Object.values(report.servers).reduce((n, server) => n + server.definitions.offered.chars, 0);
      const rest = report.definitions.offered.chars - sum;
      assert.deepEqual(report.listed.filter((name) => !ALL.includes(name)), rest === 0 ? [] : ["search_tools"], `${cache}: ${message}`);
      if (rest !== 0) rests.add(rest);
    }
  }
  assert.equal(rests.size, 1, `${[...rests]}`);
  assert.ok([...rests][0] > 100);
});
