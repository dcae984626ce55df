// The examples under examples/ run from the repo root (`node examples/<name>.mjs`, after
// `npm install` and `npm run build`), log each step's report as one JSON line, and show
// which tools were offered and executed.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { root } from "./consumer.mjs";
import { bin, freePort, startServer } from "../packaging/lib/harness.mjs";

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

// ------------------------------------------------------------------ skills (SPEC 9)

// examples/skills/: the SKILL.md files both skills examples read, their bodies as written.
const skillBody = (name) => readFileSync(join(root, "examples", "skills", name, "SKILL.md"), "utf8").split(/^---\n/m)[2];
const ALL = ["run_sql", "bar_chart", "line_chart", "read_file", "search_files", "shell", "send_email", "web_search", "load_skill"];
const REFUSED = { noSkill: "no skills in the procedural layer; allowing all tools", inactive: "every skill is inactive; allowing all tools", unresolved: "no skill resolved to a registered tool; allowing all tools" };

test("node examples/skills-node.mjs: the skills folder read in one call, a turn per message routed by skills, the new skills' instructions once, load_skill", async () => {
  const { stdout, stderr } = await run(process.execPath, [join("examples", "skills-node.mjs")], { cwd: root, timeout: 60_000 });
  assert.equal(stderr, "", "no skill skipped");
  assert.match(stdout, /^skills: deploy-production, meeting-notes, release-notes, sales-report$/m);
  assert.match(stdout, /^ {2}warning \(deploy-production\): line 4, field "disable-model-invocation": /m);
  const turns = stdout.split(/^user: /m).slice(1).map((text) => {
    const line = (label) => new RegExp(`^ {2}${label}: (.*)$`, "m").exec(text)?.[1];
    return { text, routing: line("routing"), skills: line("skills"), offered: line("offered")?.split(", "), next: line("next step offered")?.split(", ") };
  });
  assert.equal(turns.length, 5);
  const [deploy, meeting, sales, april, release] = turns;
  // The one relevant skill is turned off: every tool, no instructions.
  assert.equal(deploy.routing, `refused: ${REFUSED.inactive}`);
  assert.equal(deploy.skills, "(none); new to the run: (none)");
  assert.deepEqual(deploy.offered, ALL);
  // Prose only: every tool, and its instructions enter the run.
  assert.equal(meeting.routing, `refused: ${REFUSED.unresolved}`);
  assert.equal(meeting.skills, "meeting-notes; new to the run: meeting-notes");
  assert.match(meeting.text, /instructions of meeting-notes appended after the history \(10 lines\)/);
  // Routed to the skill's tools as the host names them; only sales-report is new.
  assert.equal(sales.routing, "routed to run_sql, bar_chart, line_chart");
  assert.equal(sales.skills, "sales-report, meeting-notes; new to the run: sales-report");
  assert.deepEqual(sales.offered, ["run_sql", "bar_chart", "line_chart", "load_skill"]);
  assert.equal(april.skills, "sales-report; new to the run: (none)");
  assert.doesNotMatch(april.text, /instructions of/);
  // load_skill answers the instructions, and the skill's tools join the next step.
  assert.match(release.text, /model called load_skill \{"query":"release notes"\}: # Release notes$/m);
  assert.deepEqual(release.offered, ["run_sql", "bar_chart", "line_chart", "load_skill"]);
  assert.deepEqual(release.next, ["run_sql", "bar_chart", "line_chart", "read_file", "search_files", "load_skill"]);
  assert.match(stdout, /^messages sent: 8, of them skill instructions: 2$/m);
});

test("examples/skills-worker in `wrangler dev` (local workerd): the SKILL.md texts bundled in, a conversation of POSTs carrying the run's saved form", { timeout: 180_000 }, async () => {
  const cwd = join(root, "examples", "skills-worker");
  const config = readFileSync(join(cwd, "wrangler.jsonc"), "utf8");
  const date = /"compatibility_date": "(\d{4}-\d{2}-\d{2})"/.exec(config)[1];
  assert.ok(date <= "2026-05-31", `compatibility_date ${date} is one the installed workerd accepts`);
  assert.doesNotMatch(config, /nodejs_compat/);
  const port = await freePort();
  const logs = mkdtempSync(join(tmpdir(), "skills-worker-"));
  const dev = await startServer(bin("wrangler"), ["dev", "--ip", "127.0.0.1", "--port", String(port), "--show-interactive-dev-session=false", "--persist-to", logs], {
    cwd,
    env: { WRANGLER_LOG_PATH: logs, CI: "true" },
    ready: /Ready on http:\/\/127\.0\.0\.1:\d+/,
    failed: /✘ \[ERROR\]/,
    timeoutMs: 90_000,
  });
  const url = `http://127.0.0.1:${port}/`;
  try {
    const listed = await (await fetch(url)).json();
    assert.deepEqual(listed.skills, ["deploy-production", "meeting-notes", "release-notes", "sales-report"]);
    const history = [];
    let saved;
    const turn = async (message, extra = {}) => {
      const response = await fetch(url, { method: "POST", body: JSON.stringify({ message, history, run: saved, ...extra }) });
      const answer = await response.json();
      assert.equal(response.status, 200, JSON.stringify(answer));
      history.push(message);
      saved = answer.run;
      return answer;
    };
    const deploy = await turn("Deploy the web site to production now");
    assert.deepEqual([deploy.routing, deploy.skills, deploy.newSkills, deploy.offered], [{ refused: REFUSED.inactive }, [], [], ALL]);
    const meeting = await turn("Here is the meeting transcript: write the minutes");
    assert.deepEqual(meeting.routing, { refused: REFUSED.unresolved });
    assert.deepEqual(meeting.instructions, { "meeting-notes": skillBody("meeting-notes") });
    const sales = await turn("What were our sales in March, by region? A bar chart please.");
    assert.deepEqual([sales.routing, sales.newSkills, sales.offered], [{ routed: ["run_sql", "bar_chart", "line_chart"] }, ["sales-report"], ["run_sql", "bar_chart", "line_chart", "load_skill"]]);
    assert.deepEqual(sales.instructions, { "sales-report": skillBody("sales-report") });
    // The run came back through the client: sales-report is not new again.
    const april = await turn("And the same figures for April");
    assert.deepEqual([april.skills, april.newSkills, april.instructions], [["sales-report"], [], {}]);
    const release = await turn("Summarise what is new in v2.3 for our customers", { loadSkill: { query: "release notes" } });
    assert.equal(release.loadSkill, skillBody("release-notes"));
    assert.deepEqual(release.nextOffered, ["run_sql", "bar_chart", "line_chart", "read_file", "search_files", "load_skill"]);
    // A message no skill matches (and no history): every tool, no skill, no error.
    const none = await fetch(url, { method: "POST", body: JSON.stringify({ message: "xyzzy plugh" }) });
    assert.equal(none.status, 200);
    const noneAnswer = await none.json();
    assert.deepEqual([noneAnswer.routing, noneAnswer.skills, noneAnswer.newSkills, noneAnswer.instructions], [{ refused: REFUSED.noSkill }, [], [], {}]);
    // What is no turn, or no run of these tools, is a 400 that says why.
    const bad = await fetch(url, { method: "POST", body: JSON.stringify({ message: "hi", run: "tprun1.garbage" }) });
    assert.equal(bad.status, 400);
    assert.match((await bad.json()).error, /^PaletteRun\.load: saved is not a saved PaletteRun/);
    assert.equal((await fetch(url, { method: "POST", body: "{" })).status, 400);
  } finally {
    await dev.stop();
    rmSync(logs, { recursive: true, force: true });
  }
});
