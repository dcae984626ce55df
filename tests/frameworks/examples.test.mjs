// The examples under examples/ run from the repo root (`node examples/<name>.mjs`, after
// `npm install` and `npm run build`), log each step's report as one JSON line, and show
// which tools were offered and executed.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { join } from "node:path";
import { root } from "./consumer.mjs";

const run = promisify(execFile);
const reportsOf = (text) => [...text.matchAll(/^ {2}report: (.*)$/gm)].map((m) => JSON.parse(m[1]));

for (const name of ["ai-sdk", "openai-agents", "langchain"]) {
  test(`node examples/${name}.mjs routes, selects the model, dispatches, and logs one report line per step`, async () => {
    const { stdout } = await run(process.execPath, [join("examples", `${name}.mjs`)], { cwd: root, timeout: 60_000 });
    const [sales, calendar] = stdout.split("user: ").slice(1);

    // Sales: routed to two tools, the analytics model, web_search redirected to sql_query.
    const salesReports = reportsOf(sales);
    assert.deepEqual(salesReports.map((r) => [r.step, r.mode, r.routing.rule, r.offered, r.hidden]), [
      [0, "enforce", "routed", ["web_search", "sql_query"], ["calendar", "send_email"]],
      [1, "enforce", "routed", ["web_search", "sql_query"], ["calendar", "send_email"]],
    ]);
    assert.ok(salesReports.every((r) => r.selection.source === "policy" && r.selection.policy === "sales-questions-use-sql"));
    assert.deepEqual(salesReports[0].dispatches.map((d) => [d.original.name, d.call.name, d.redirectedBy, d.call.args]), [
      ["web_search", "sql_query", "sales-questions-use-sql", { query: "SELECT SUM(units) FROM sales WHERE month = '2026-03'" }],
    ]);
    assert.deepEqual(salesReports[1].dispatches, []);
    assert.match(sales, /analytics-model/);
    assert.doesNotMatch(sales, /general-model/);
    assert.match(sales, /executed: +sql_query \{"query":"SELECT SUM\(units\) FROM sales WHERE month = '2026-03'"\}/);
    assert.doesNotMatch(sales, /executed: +web_search/);
    assert.match(sales, /March sales were 42 units\./);

    // Calendar: routed to one tool, the default model, dispatched as emitted.
    const calendarReports = reportsOf(calendar);
    assert.deepEqual(calendarReports.map((r) => [r.step, r.offered, r.selection.source]), [
      [0, ["calendar"], "default"],
      [1, ["calendar"], "default"],
    ]);
    assert.deepEqual(calendarReports[0].dispatches.map((d) => [d.original.name, d.call.name, d.redirectedBy]), [["calendar", "calendar", null]]);
    assert.match(calendar, /general-model/);
    assert.doesNotMatch(calendar, /analytics-model/);
    assert.match(calendar, /executed: +calendar \{"day":"friday"\}/);
    assert.match(calendar, /Friday is free\./);
  });
}

test("node examples/mcp.mjs: two MCP servers, routed per step, search_tools finds the missed tool, a refusal and a redirect across servers", async () => {
  const { stdout } = await run(process.execPath, [join("examples", "mcp.mjs")], { cwd: root, timeout: 60_000 });
  const turns = [...stdout.matchAll(/^ {2}turn (\d+): offered (.*); tool-definition tokens (\d+) of (\d+);/gm)].map((m) => ({ turn: Number(m[1]), offered: m[2].split(", "), tokens: Number(m[3]), all: Number(m[4]) }));
  assert.ok(!turns[0].offered.includes("tail_console") && turns[0].offered.includes("search_tools"));
  assert.ok(turns[1].offered.includes("tail_console"));
  assert.ok(turns.every((t) => t.tokens * 4 < t.all), "each turn offers a fraction of the definition tokens");
  assert.match(stdout, /^ {2}ci ran: {2}tail_console \{"target":"nightly"\}$/m);
  assert.match(stdout, /^assistant: The nightly job was killed: out of memory\.$/m);
  assert.match(stdout, /^outside the palette: \{"content":\[\{"type":"text","text":"Tool create_issue is not available in this step\. Available tools: [^"]*search_tools\."\}\],"isError":true\}$/m);
  assert.match(stdout, /^ {2}ci ran: {2}search \{"target":"OOM"\}\ngithub__search answered: search\(OOM\): ok$/m);
});

test("node examples/conversation.mjs: a conversation over three MCP servers; deferred keeps the prefix on every later turn, per-turn does not, every call runs", async () => {
  const { stdout } = await run(process.execPath, [join("examples", "conversation.mjs")], { cwd: root, timeout: 60_000 });
  const [deferred, perTurn] = stdout.split(/^cache: /m).slice(1);
  assert.match(deferred, /^"deferred"/);
  assert.match(perTurn, /^"per-turn"/);
  const kept = (text) => [...text.matchAll(/prefix kept: (yes|no)$/gm)].map((m) => m[1]);
  assert.deepEqual(kept(deferred), ["no", "yes", "yes", "yes", "yes"]);
  assert.match(deferred, /^prefix kept on 4 of 4 later turns$/m);
  assert.ok(kept(perTurn).includes("no", 1), "per-turn changes the tools list on a later turn");
  // The turns that name no tool ("Now sort it", "Move the other report") are routed on the history.
  for (const text of [deferred, perTurn]) {
    for (const [tool, target] of [["read_file", "reports/q3.csv"], ["sort_file", "reports/q3.csv"], ["move_file", "reports/q2.csv"], ["retry_build", "nightly"], ["create_issue", "nightly build failed"]]) {
      assert.ok(text.includes(`  model called ${tool}: ${tool}(${target}): ok`), `${tool} ran`);
    }
  }
  // Deferred: the first turn reveals the files server whole, the fourth the CI's tools.
  const revealed = [...deferred.matchAll(/^ {2}revealed: (.*); deferred definitions sent: (\d+), reveal messages: (\d+)$/gm)].map((m) => [m[1], Number(m[3])]);
  assert.equal(revealed.length, 5);
  assert.ok(revealed[0][0].includes("sort_file") && revealed[0][1] === 2);
  assert.deepEqual(revealed[1], ["(nothing new)", 0]);
  assert.ok(revealed[3][0].includes("retry_build"));
});
