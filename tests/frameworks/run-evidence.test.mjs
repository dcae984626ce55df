// A run's evidence through the framework adapters (issue 41): with options.cache the adapter keeps the
// run's user messages and the tools its model called (after the policies' redirect), and routes each step
// with them as the context's `history` and `called` (what ToolIndex.entries ranks a run with); a context
// that gives its own keeps them; the saved form carries them to a restored instance; without a run the
// context is as the adapter derived it. Each framework in its own loop, against the packed package. And the
// kernel's one dispatch pipeline: a redirect to no tool of the framework's is its Error, nothing runs.
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { consumer } from "./consumer.mjs";
import { drivers, loadAll, MEETING, SALES, SKILLS, TOOL_NAMES } from "./skills-fixtures.mjs";

let m, play, mcp;
before(async () => {
  const c = await consumer();
  m = await loadAll(c.load);
  mcp = await c.load("tool-palette/mcp");
  play = drivers(m);
});

// A router over every tool that records what each step's routing was asked with.
function recording() {
  const seen = [];
  const router = new m.core.ToolRouter({
    registered: TOOL_NAMES,
    entries: (ctx) => {
      seen.push({ message: ctx.message, history: ctx.history, called: ctx.called });
      return TOOL_NAMES;
    },
  });
  return { router, seen };
}

const LATER = "Anything else on the list for today?";
const TURNS = [
  { message: MEETING, answers: [["calendar", { q: "monday" }], ["send_email", { q: "team" }], "booked"] },
  { message: SALES, answers: [["sql_query", { q: "march" }], "42"] },
  { message: LATER, answers: ["no"] },
];

for (const name of ["ai-sdk", "openai-agents", "langchain"]) {
  test(`[${name}] with a run, each step routes with the run's earlier messages and the tools its model called; saved and restored, the same`, async () => {
    const { router, seen } = recording();
    let saved = null;
    const saves = [];
    const palette = play[name].make({ router, cache: "append", onSaved: (form) => saves.push(JSON.parse(form).called) });
    await play[name].play(palette, [TURNS[0], { ...TURNS[1], after: () => (saved = palette.save()) }, TURNS[2]]);
    const both = ["calendar", "send_email"];
    assert.deepEqual(seen, [
      { message: MEETING, history: [], called: [] },
      { message: MEETING, history: [], called: ["calendar"] },
      { message: MEETING, history: [], called: both },
      { message: SALES, history: [MEETING], called: both },
      { message: SALES, history: [MEETING], called: [...both, "sql_query"] },
      { message: LATER, history: [MEETING, SALES], called: [...both, "sql_query"] },
    ]);
    // The saved form of each step holds the calls it made (saved after they are recorded).
    assert.deepEqual(saves, [["calendar"], both, both, [...both, "sql_query"], [...both, "sql_query"], [...both, "sql_query"]]);
    assert.deepEqual(JSON.parse(saved).called, [...both, "sql_query"]);

    // A new instance from the saved form takes the third turn with the same evidence (its earlier messages too).
    const again = recording();
    const restored = play[name].make({ router: again.router, cache: "append", saved });
    await play[name].play(restored, [TURNS[2]]);
    assert.deepEqual(again.seen, seen.slice(5));
  });
}

test("[ai-sdk] with a run, the router reads the host's context through the evidence: a message on a getter, its other properties; the context itself is untouched", async () => {
  const { router, seen } = recording();
  const given = [];
  class Turn {
    constructor(input) {
      this.input = input;
      given.push(this);
    }
    get message() {
      return m.aiSdk.defaultContext(this.input).message;
    }
  }
  const palette = play["ai-sdk"].make({ router, cache: "append", context: (input) => new Turn(input) });
  await play["ai-sdk"].play(palette, [TURNS[0]]);
  assert.deepEqual(seen.map((s) => [s.message, s.history, s.called]), [[MEETING, [], []], [MEETING, [], ["calendar"]], [MEETING, [], ["calendar", "send_email"]]]);
  assert.ok(given.length >= 3 && given.every((ctx) => Object.keys(ctx).join() === "input"), "the host's contexts gained nothing");
});

test("[ai-sdk] a context that gives its own history and called keeps them; a redirected call counts as its target; without a run the context is the adapter's", async () => {
  const { router, seen } = recording();
  const policies = new m.core.ToolPolicies([{ name: "mail-to-calendar", match: () => true, whenTool: "send_email", redirectTo: "calendar" }]);
  const own = play["ai-sdk"].make({ router, cache: "append", policies, context: (input) => ({ ...m.aiSdk.defaultContext(input), history: ["given"] }) });
  await play["ai-sdk"].play(own, [{ message: MEETING, answers: [["send_email", { q: "team" }], "sent"] }]);
  assert.deepEqual(seen.map((s) => [s.history, s.called]), [[["given"], []], [["given"], ["calendar"]]]);

  const plain = recording();
  await play["ai-sdk"].play(play["ai-sdk"].make({ router: plain.router }), TURNS);
  assert.ok(plain.seen.length === 6 && plain.seen.every((s) => s.history === undefined && s.called === undefined), JSON.stringify(plain.seen));
});

test("[ai-sdk, openai-agents] a redirect to a name that is no tool of theirs is an Error naming the call, the target and the policy, worded by the kernel; nothing runs", async () => {
  const policies = new m.core.ToolPolicies([{ name: "away", match: () => true, whenTool: "calendar", redirectTo: "nowhere" }]);
  const ran = [];
  const ai = m.aiSdk.createToolPalette({ policies, onWarning: () => {} });
  const wrapped = ai.wrapTools({ calendar: { description: "c", execute: async () => ran.push("calendar") }, web_search: { description: "w", execute: async () => ran.push("web_search") } });
  await assert.rejects(wrapped.calendar.execute({ q: 1 }, { toolCallId: "t1", messages: [] }), {
    message: 'tool-palette/ai-sdk: "calendar" was redirected to "nowhere" by policy "away", which is not a tool with an execute function among the tools given to wrapTools',
  });
  const oa = m.openaiAgents.createToolPalette({ policies, onWarning: () => {} });
  const fn = (name) => ({ type: "function", name, description: name, parameters: { type: "object", properties: {} }, strict: false, invoke: async () => (ran.push(name), "ran") });
  const [calendar] = oa.tools([fn("calendar"), fn("web_search")]);
  await assert.rejects(calendar.invoke({ context: {} }, '{"q":1}', { toolCall: { callId: "t2" } }), {
    message: 'tool-palette/openai-agents: "calendar" was redirected to "nowhere" by policy "away", which is not a function tool among the tools given to palette.tools()',
  });
  assert.deepEqual(ran, []);
});

test("[ai-sdk] a redirect to no tool runs nothing and is not a call of the run's; too many names are a RangeError, never a list cut short", async () => {
  const policies = new m.core.ToolPolicies([{ name: "away", match: () => true, whenTool: "calendar", redirectTo: "nowhere" }]);
  const palette = m.aiSdk.createToolPalette({ policies, cache: "append", onWarning: () => {} });
  const wrapped = palette.wrapTools({ calendar: { description: "c", execute: async () => "ran" } });
  await assert.rejects(wrapped.calendar.execute({}, { toolCallId: "t1", messages: [] }), /was redirected to "nowhere"/);
  assert.deepEqual(JSON.parse(palette.save()).called, []);
  // A tool run outside the model's seam (no user message) adds no message to the run's history.
  const { router, seen } = recording();
  const quiet = m.aiSdk.createToolPalette({ router, cache: "append", onWarning: () => {} });
  const tools = quiet.wrapTools({ calendar: { description: "c", execute: async () => "ran" } });
  await tools.calendar.execute({}, { toolCallId: "t2", messages: [] });
  await quiet.prepareStep({ messages: [{ role: "user", content: SALES }], stepNumber: 0 });
  assert.deepEqual(seen.at(-1), { message: SALES, history: [], called: ["calendar"] });
  assert.deepEqual(JSON.parse(quiet.save()).messages, [SALES]);

  function* many() {
    for (let i = 0; i <= 1 << 20; i++) yield "calendar";
    yield "web_search";
  }
  assert.throws(() => m.aiSdk.createToolPalette({ alwaysInclude: many() }), { name: "RangeError", message: /^tool-palette\/ai-sdk: options\.alwaysInclude is too large/ });
  const servers = { s: { listTools: async () => ({ tools: [] }), callTool: async () => ({ content: [] }) } };
  const big = { skills: [SKILLS[0]], skillIndex: { disabled: many() } };
  assert.throws(() => mcp.createMcpPalette({ servers, ...big }), { name: "RangeError", message: /^tool-palette\/mcp: options\.skillIndex\.disabled is too large/ });
});
