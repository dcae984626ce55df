// Runs that outlive their process (issue 41) through the framework adapters: a conversation's run saved
// after its first turn (onSaved / save()) and restored in a NEW Node.js process (saved-run-child.mjs)
// takes its next turn exactly as the unbroken run does: the same tools in the same order, the same
// messages (the skill instructions where they entered, none again), the same reports; a fresh instance
// without the saved run does not (the test can tell).
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { consumer } from "./consumer.mjs";
import { drivers, loadAll, SALES_SKILL, SCHEDULING_SKILL } from "./skills-fixtures.mjs";
import { OPTIONS, TURNS, facts } from "./saved-runs-scenario.mjs";

let c, play;
before(async () => {
  c = await consumer();
  play = drivers(await loadAll(c.load));
});

const child = async (name, saved) => JSON.parse((await promisify(execFile)(process.execPath, [new URL("./saved-run-child.mjs", import.meta.url).pathname, c.dir, name, saved], { maxBuffer: 1 << 24 })).stdout);

for (const name of ["ai-sdk", "openai-agents", "langchain"]) {
  test(`[${name}] a run saved after its first turn and restored in a new process takes the next turn as the unbroken run does`, async () => {
    const reports = [], saves = [];
    let saved = null;
    const palette = play[name].make({ ...OPTIONS, onDecision: (r) => reports.push(r), onSaved: (s) => saves.push(s) });
    const unbroken = await play[name].play(palette, [{ ...TURNS[0], after: () => (saved = palette.save()) }, TURNS[1]]);
    // onSaved after every step; after the first turn, save() is its last.
    assert.equal(saves.length, reports.length);
    assert.equal(saved, saves[2]);
    const n = unbroken.sent.length - 2; // the second turn's model calls
    const restored = await child(name, saved);

    assert.deepEqual(restored.sent, unbroken.sent.slice(n));
    assert.deepEqual(restored.outputs, unbroken.outputs.slice(1));
    assert.deepEqual(restored.reports, reports.slice(3).map(facts));
    // Both runs end in the same saved form.
    assert.equal(restored.saved, palette.save());
    // What that turn is: the first turn's listed tools kept as the prefix ("append"), the loaded skill not new,
    // the first turn's skill in its place after the first message, no instructions placed again.
    assert.deepEqual(restored.reports.map((r) => [r.kept, r.listed, r.newSkills]), [
      [true, ["sql_query", "load_skill", "calendar", "send_email"], []],
      [true, ["sql_query", "load_skill", "calendar", "send_email"], []],
    ]);
    assert.deepEqual(restored.sent[0].messages[1], ["user", SALES_SKILL]);
    const asUser = (s, text) => s.messages.filter(([role, t]) => role === "user" && t === text).length;
    for (const s of restored.sent) assert.deepEqual([asUser(s, SALES_SKILL), asUser(s, SCHEDULING_SKILL)], [1, 0]);

    // Without the saved run, a new instance takes that turn otherwise: the test can tell the two apart.
    const fresh = await play[name].play(play[name].make(OPTIONS), [TURNS[0], { ...TURNS[1], palette: play[name].make(OPTIONS) }]);
    assert.notDeepEqual(fresh.sent.slice(n), unbroken.sent.slice(n));
  });
}

test("[ai-sdk] a saved run restored over another tool list is refused at its first step, naming options.saved", async () => {
  let saved = null;
  const palette = play["ai-sdk"].make(OPTIONS);
  await play["ai-sdk"].play(palette, [{ ...TURNS[0], after: () => (saved = palette.save()) }]);
  const m = await loadAll(c.load);
  const other = m.aiSdk.createToolPalette({ ...OPTIONS, saved });
  const model = new m.mock.MockLanguageModelV3({ modelId: "m", doGenerate: [] });
  const tools = other.wrapTools({ only_tool: m.ai.tool({ description: "x", inputSchema: m.z.object({}), execute: async () => "" }) });
  await assert.rejects(m.ai.generateText({ model, tools, prepareStep: other.prepareStep, prompt: "hello" }), (e) =>
    [e, e.cause].some((x) => x instanceof TypeError && x.message.startsWith("tool-palette/ai-sdk: options.saved cannot be restored over the tools given now (")),
  );
});

test("a saved run given to an adapter with another cache is refused at once, naming options.saved (never continued under the saved strategy)", async () => {
  let saved = null;
  const palette = play["ai-sdk"].make(OPTIONS);
  await play["ai-sdk"].play(palette, [{ ...TURNS[0], after: () => (saved = palette.save()) }]);
  const m = await loadAll(c.load);
  const cache = JSON.parse(saved).cache;
  assert.equal(cache, OPTIONS.cache);
  const other = cache === "fixed" ? "append" : "fixed";
  assert.throws(() => m.aiSdk.createToolPalette({ ...OPTIONS, cache: other, saved }), {
    name: "TypeError",
    message: `tool-palette/ai-sdk: options.saved is a run of cache ${JSON.stringify(cache)}, not "${other}": continue it with the same cache`,
  });
  // A form saved before runs named their cache still loads.
  const { cache: _, ...older } = JSON.parse(saved);
  assert.doesNotThrow(() => m.aiSdk.createToolPalette({ ...OPTIONS, cache: other, saved: JSON.stringify(older) }));
});
