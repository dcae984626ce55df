// Skills (SPEC 9) through the three framework adapters, each in its framework's own loop (the AI SDK's
// generateText with MockLanguageModelV3, the OpenAI Agents SDK's run with a scripted Model, LangChain's
// createAgent with FakeBuiltModel), against the packed package: the skills route each step's tools, the
// instructions of the skills new to the run reach the model once, as a user message after the history
// (the prefix the model saw is kept), load_skill answers a skill's instructions and its tools join the
// run; and the new options refuse what they cannot use, naming the option.
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { consumer } from "./consumer.mjs";
import { drivers, loadAll, MEETING, SALES, SALES_SKILL, SCHEDULING_SKILL, SKILLS, instructionsOf } from "./skills-fixtures.mjs";

let m, play, cjs;
before(async () => {
  const c = await consumer();
  m = await loadAll(c.load);
  play = drivers(m);
  cjs = { "ai-sdk": c.require("tool-palette/ai-sdk"), "openai-agents": c.require("tool-palette/openai-agents"), langchain: c.require("tool-palette/langchain") };
});

const STYLE = "How should answers about invoices be worded?";
const STYLE_SKILL = instructionsOf("house-style", "Quote invoice numbers in full.\n");
const count = (messages, text) => messages.filter(([role, t]) => role === "user" && t === text).length;

for (const name of ["ai-sdk", "openai-agents", "langchain"]) {
  test(`[${name}] skills route each step; a new skill's instructions reach the model once, after the history, the prefix kept; load_skill answers and its tools join`, async () => {
    const reports = [];
    const saved = [];
    const palette = play[name].make({ skills: SKILLS, onDecision: (r) => reports.push(r), onSaved: (s) => saved.push(s) });
    const { sent, outputs, executed } = await play[name].play(palette, [
      { message: SALES, answers: [["load_skill", { name: "scheduling" }], ["calendar", { q: "monday" }], "done"] },
      { message: STYLE, answers: ["fine"] },
      { message: SALES, answers: [["sql_query", { q: "march" }], "42"] },
    ]);
    assert.equal(sent.length, 6);
    assert.equal(reports.length, 6);

    // Routed by the skills: the sales question's skill names sql_query; load_skill is listed with it (a pin).
    assert.deepEqual(reports.map((r) => [r.routing.rule, r.skills, r.newSkills]), [
      ["routed", ["sales-report"], ["sales-report"]],
      ["routed", ["sales-report"], []],
      ["routed", ["sales-report"], []],
      // A skill of prose only: rule 5 (every tool offered), its instructions still new to the run.
      ["5", ["house-style"], ["house-style"]],
      ["routed", ["sales-report"], []],
      ["routed", ["sales-report"], []],
    ]);
    // What the model was sent is what the step lists, in that order; the loaded skill's tools joined from the next step on.
    assert.deepEqual(sent.map((s) => s.tools), reports.map((r) => [...r.listed]));
    assert.deepEqual(sent[0].tools, ["sql_query", "load_skill"]);
    assert.deepEqual(sent[1].tools, ["sql_query", "calendar", "send_email", "load_skill"]);
    assert.deepEqual(sent[3].tools, ["web_search", "sql_query", "calendar", "send_email", "load_skill"]);

    // The new skill's instructions: a user message right after the turn's message, before anything the model answered.
    assert.deepEqual(sent[0].messages, [["user", SALES], ["user", SALES_SKILL]]);
    // The skill of a later turn: after that turn's message, at the end of the history.
    assert.deepEqual(sent[3].messages.slice(-2), [["user", STYLE], ["user", STYLE_SKILL]]);
    for (const [i, s] of sent.entries()) {
      // Each once, from the step it entered on; the loaded skill's are load_skill's answer, never a user message.
      assert.equal(count(s.messages, SALES_SKILL), 1, `call ${i}`);
      assert.equal(count(s.messages, STYLE_SKILL), i >= 3 ? 1 : 0, `call ${i}`);
      assert.equal(count(s.messages, SCHEDULING_SKILL), 0, `call ${i}`);
      // The prefix kept: every model call starts with what the previous one was sent.
      if (i > 0) assert.deepEqual(s.messages.slice(0, sent[i - 1].messages.length), sent[i - 1].messages, `call ${i} keeps call ${i - 1}'s messages`);
    }
    // load_skill answered the skill's instructions; calendar (the loaded skill's tool) and sql_query ran.
    assert.deepEqual(outputs[0][0], ["load_skill", SCHEDULING_SKILL]);
    assert.deepEqual(executed.map(([tool]) => tool), ["calendar", "sql_query"]);
    // onSaved after every step, the adapter's save() the latest.
    assert.equal(saved.length, 6);
    assert.equal(palette.save(), saved.at(-1));
  });

  test(`[${name}] load_skill by query, a skill that does not exist and malformed arguments: answered in words, never thrown; load_skill renamed or turned off; in shadow mode no instructions nor load_skill`, async () => {
    const reports = [];
    const palette = play[name].make({ skills: SKILLS, skillTool: "read_skill", onDecision: (r) => reports.push(r) });
    const { sent, outputs } = await play[name].play(palette, [
      { message: MEETING, answers: [["read_skill", { query: "monthly sales figures revenue" }], ["read_skill", { name: "no-such-skill" }], ["read_skill", { nope: 1 }], "done"] },
    ]);
    assert.deepEqual(sent[0].tools, ["calendar", "send_email", "read_skill"]);
    assert.deepEqual(sent[0].messages, [["user", MEETING], ["user", SCHEDULING_SKILL]]);
    const [byQuery, missing, malformed] = outputs[0];
    assert.deepEqual(byQuery, ["read_skill", SALES_SKILL]);
    // The loaded skill's tool joins the next step; its instructions are not placed again.
    assert.deepEqual(sent[1].tools, ["sql_query", "calendar", "send_email", "read_skill"]);
    assert.equal(count(sent[3].messages, SALES_SKILL), 0);
    for (const [tool, text] of [missing, malformed]) {
      assert.equal(tool, "read_skill");
      assert.equal(typeof text, "string");
      assert.ok(!text.startsWith("<skill"), text);
    }
    assert.match(missing[1], /no-such-skill/);

    // Shadow mode: nothing the model sees changes (no instructions, no load_skill: what it is sent without skills); the skills are reported.
    const shadowReports = [];
    const turns = [{ message: SALES, answers: ["ok"] }];
    const shadow = await play[name].play(play[name].make({ skills: SKILLS, mode: "shadow", onDecision: (r) => shadowReports.push(r) }), turns);
    const plain = await play[name].play(play[name].make({ mode: "shadow" }), turns);
    assert.deepEqual(shadow.sent, plain.sent);
    assert.ok(!shadow.sent[0].tools.includes("load_skill"), shadow.sent[0].tools.join());
    assert.equal(count(shadow.sent[0].messages, SALES_SKILL), 0);
    assert.deepEqual(shadowReports.map((r) => [r.skills, r.newSkills]), [[["sales-report"], ["sales-report"]]]);

    // skillTool: false lists none.
    const none = await play[name].play(play[name].make({ skills: SKILLS, skillTool: false }), [{ message: SALES, answers: ["ok"] }]);
    assert.deepEqual(none.sent[0].tools, ["sql_query"]);
    assert.deepEqual(none.sent[0].messages, [["user", SALES], ["user", SALES_SKILL]]);
  });

  test(`[${name}] hostile values for skills, skillTool, saved and onSaved: a TypeError (a SyntaxError for a SKILL.md that is none) naming the option`, () => {
    for (const make of [(o) => play[name].make(o), (o) => (name === "langchain" ? cjs[name].toolPaletteMiddleware(o) : cjs[name].createToolPalette(o))]) {
      const where = `tool-palette/${name}: options`;
      const refuses = (options, kind, pattern) => assert.throws(() => make(options), (e) => e instanceof kind && pattern.test(e.message), JSON.stringify(Object.keys(options)));
      const exactly = (text) => new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`);
      refuses({ skills: 42 }, TypeError, exactly(`${where}.skills must be a SkillIndex or an iterable of skills`));
      refuses({ skills: SKILLS[0] }, TypeError, exactly(`${where}.skills must be a SkillIndex or an iterable of skills`));
      refuses({ skills: ["no frontmatter here"] }, SyntaxError, exactly(`${where}.skills[0]: line 1: `));
      refuses({ skills: [SKILLS[0], SKILLS[0]] }, TypeError, exactly(`${where}.skills[1] reuses the name "sales-report" of ${where}.skills[0]`));
      refuses({ skills: [42] }, TypeError, exactly(`${where}.skills[0] must be a SKILL.md text or a skill, got number`));
      refuses({ skills: { [Symbol.iterator]: () => { throw new Error("boom"); } } }, TypeError, exactly(`${where}.skills could not be read`));
      refuses({ skillTool: "load" }, TypeError, exactly(`${where}.skillTool needs the skills option`));
      refuses({ skills: SKILLS, skillTool: 3 }, TypeError, exactly(`${where}.skillTool must be a tool name or false, got number`));
      refuses({ skills: SKILLS, skillTool: "" }, TypeError, exactly(`${where}.skillTool must be a tool name or false, got string`));
      refuses({ skills: SKILLS, cache: "deferred" }, TypeError, exactly(`tool-palette/${name}: options.cache "deferred" cannot be sent through this framework`));
      refuses({ saved: "x" }, TypeError, exactly(`${where}.saved needs options.cache or options.skills`));
      refuses({ onSaved: () => {} }, TypeError, exactly(`${where}.onSaved needs options.cache or options.skills`));
      refuses({ skills: SKILLS, onSaved: "log" }, TypeError, exactly(`${where}.onSaved must be a function, got string`));
      refuses({ skills: SKILLS, saved: 42 }, TypeError, exactly(`${where}.saved must be a string (a saved run, from onSaved or save()), got number`));
      refuses({ skills: SKILLS, saved: "{}" }, TypeError, exactly(`${where}.saved is not a saved run of an adapter`));
      refuses({ skills: SKILLS, saved: JSON.stringify({ "tool-palette": "run", version: 99 }) }, TypeError, exactly(`${where}.saved is a saved run of another version of tool-palette`));
      refuses({ skills: SKILLS, saved: JSON.stringify({ "tool-palette": "run", version: 1, run: 5, listed: [], revealed: [], met: [], placed: [] }) }, TypeError, exactly(`${where}.saved is not a saved run of an adapter`));
    }
  });
}

test("[ai-sdk] a run saved over other tools: its first step is a TypeError naming options.saved, with the core's reason", async () => {
  const first = play["ai-sdk"].make({ skills: SKILLS });
  await play["ai-sdk"].play(first, [{ message: SALES, answers: ["ok"] }]);
  const saved = first.save();
  const ai = m.ai;
  const palette = m.aiSdk.createToolPalette({ skills: SKILLS, saved });
  const model = new m.mock.MockLanguageModelV3({ modelId: "m", doGenerate: [] });
  const tools = palette.wrapTools({ web_search: ai.tool({ description: "w", inputSchema: m.z.object({}), execute: async () => "" }) });
  await assert.rejects(
    ai.generateText({ model, tools, prepareStep: palette.prepareStep, prompt: SALES }),
    (e) => /tool-palette\/ai-sdk: options\.saved cannot be restored over the tools given now \(/.test(e.message) || /tool-palette\/ai-sdk: options\.saved cannot be restored over the tools given now \(/.test(e.cause?.message ?? ""),
  );
});

test("[openai-agents] a server-managed conversation (previousResponseId) sends only new items: a new skill's instructions go once, after the turn's input, never again", async () => {
  const { agents, z, openaiAgents } = m;
  const requests = [];
  const call = (name, callId) => [{ type: "function_call", callId, name, arguments: JSON.stringify({ q: "x" }), status: "completed" }];
  const say = (text) => [{ type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text }] }];
  const script = [call("sql_query", "c1"), say("42"), call("calendar", "c2"), say("booked")];
  const model = {
    async getResponse(request) {
      requests.push(request);
      return { usage: new agents.Usage({ requests: 1, inputTokens: 1, outputTokens: 1, totalTokens: 2 }), output: script.shift(), responseId: `resp-${requests.length}` };
    },
  };
  const palette = openaiAgents.createToolPalette({ skills: SKILLS });
  const tool = (name) => agents.tool({ name, description: name, parameters: z.object({ q: z.string() }), execute: async () => `${name} result` });
  const agent = new agents.Agent({ name: "analyst", instructions: "Answer.", model: palette.model(model), tools: palette.tools(["web_search", "sql_query", "calendar", "send_email"].map(tool)) });
  const first = await agents.run(agent, SALES);
  await agents.run(agent, MEETING, { previousResponseId: first.lastResponseId });
  const inputs = requests.map((r) => [r.previousResponseId ?? null, (typeof r.input === "string" ? [{ role: "user", content: r.input }] : r.input).map((i) => (i.role ? [i.role, i.content] : [i.type]))]);
  assert.deepEqual(inputs, [
    [null, [["user", SALES], ["user", SALES_SKILL]]],
    [null, [["user", SALES], ["user", SALES_SKILL], ["function_call"], ["function_call_result"]]],
    // The server keeps the conversation: the new skill once, after the turn's message; the next step sends only the call's result.
    ["resp-2", [["user", MEETING], ["user", SCHEDULING_SKILL]]],
    ["resp-3", [["function_call_result"]]],
  ]);
});

test("[ai-sdk] a skill loaded again and again is met once in the saved run (its size stays bounded)", async () => {
  const palette = play["ai-sdk"].make({ skills: SKILLS });
  const again = ["load_skill", { name: "scheduling" }];
  await play["ai-sdk"].play(palette, [{ message: SALES, answers: [again, again, again, "ok"] }]);
  const { met } = JSON.parse(palette.save());
  assert.deepEqual(met, [["sales-report", []], ["scheduling", ["calendar", "send_email"]]]);
});
