// Issue 39: the JavaScript stack running out at every depth of every public method leaves
// nothing behind. Each method is called at each of the 2,000 deepest depths of a full
// stack (so the RangeError lands in the facade, the glue, the module's functions, its
// allocator and the callbacks it makes), in three rounds; after each round, at the next
// call, the module's stack pointer is where it was, and from the second round on its memory, the blocks its
// heap has in use and wasm-bindgen's reference table stay exactly as they were: nothing
// leaks, no slot is lost, no borrow is stranded. Every instance then answers as before.
// Each method runs in a child process, through the ESM and the CommonJS entry.
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const dist = (f) => fileURLToPath(new URL(`../../../dist/${f}`, import.meta.url));

// The child: `op` names one of `ops`; prints the rounds' figures and the checks' answers.
const child = (entry, op) => `
const captured = [];
const Original = WebAssembly.Instance;
WebAssembly.Instance = function Instance(m, i) { const made = new Original(m, i); captured.push(made.exports); return made; };
WebAssembly.Instance.prototype = Original.prototype;
const tp = ${entry.endsWith(".cjs") ? `(await import("node:module")).createRequire(import.meta.url)(${JSON.stringify(entry)})` : `await import(${JSON.stringify(entry)})`};
const ex = captured[0];
const { resolvePalette, ToolRouter, ToolPolicies, ToolCallPolicy, PaletteRun, ToolIndex, bindPalette, activeTools, Routed, parseSkill, SkillIndex } = tp;
const figures = () => ({ sp: ex.__stack_pointer.value, memory: ex.memory.buffer.byteLength, used: (ex.used?.() ?? 0) >>> 0, table: ex.__wbindgen_externrefs.length });
const sp0 = ex.__stack_pointer.value;

const registered = Array.from({ length: 40 }, (_, i) => "tool_" + i);
const tools = registered.map((name, i) => ({ name, description: "does " + (i % 3 ? "weather" : "email") + " thing " + i, parameters: { type: "object", properties: { city: { type: "string", description: "the city" } } } }));
const vectors = tools.map((_, i) => Array.from({ length: 16 }, (_, j) => Math.sin(i * 3 + j)));
const query = Array.from({ length: 16 }, (_, j) => Math.cos(j));
const index = new ToolIndex(tools, { vectors, explain: true });
const embedded = new ToolIndex(tools, { vectors, embed: async () => query });
const bytes = index.save();
const router = new ToolRouter({ entries: (m) => index.entries(m), registered });
const policies = new ToolPolicies([
  { name: "m", match: () => true, model: "small" },
  { name: "r", match: (c) => c.redirect, whenTool: ["tool_1", "tool_2"], redirectTo: "tool_3", argsTransform: (a) => ({ ...a, r: 1 }) },
], { modelResolver: () => "big", onWarning: () => {} });
const policy = new ToolCallPolicy({ name: "p", match: () => true, whenTool: ["tool_1", "tool_5"] });
const run = new PaletteRun({ registered, cache: "deferred", pinned: ["tool_0"] });
const routed = new Routed(["tool_1", "tool_7"]);
const pending = [];
const later = (p) => pending.push(Promise.resolve(p).catch(() => {}));
const texts = Array.from({ length: 12 }, (_, i) => "---\\nname: skill-" + i + "\\ndescription: does " + (i % 2 ? "weather" : "email") + " work " + i + "\\nallowed-tools: tool_" + i + " Bash(git:*)\\nmetadata:\\n  tags: [a, " + i + ", {deep: [1, 2.5, null]}]\\n---\\n# Skill " + i + "\\nBody text.\\n");
const skills = new SkillIndex(texts, { vectors: vectors.slice(0, 12), tools: (tool) => (tool === "Bash" ? ["tool_30", "tool_31"] : undefined), disabled: ["skill-3"] });
const embeddedSkills = new SkillIndex(texts, { vectors: vectors.slice(0, 12), embed: async () => query });
const skillBytes = skills.save();
const saved = run.save();
const turn = { entries: () => ["tool_1", { tool: "tool_2" }, " tool_3 ", "ghost"], registered, isActive: () => true, onDecision: () => {} };

const ops = {
  resolvePalette: () => later(resolvePalette(turn)),
  "resolvePalette, a new list each call": () => later(resolvePalette({ ...turn, registered: [...registered, "x" + Math.random()] })),
  "ToolRouter.resolve": () => later(router.resolve({ context: "weather in Paris" })),
  "new ToolRouter, dispose": () => new ToolRouter({ entries: () => ["a"], registered: ["a", "b" + Math.random()] }).dispose(),
  selectModel: () => policies.selectModel({}),
  dispatch: () => policies.dispatch({ name: "tool_1", args: { x: 1 } }, { redirect: true }, routed),
  "new ToolPolicies, dispose": () => new ToolPolicies([{ name: "q", match: () => true, redirectTo: "b" }], { registered: ["a", "b"] }).dispose(),
  matchesTool: () => policy.matchesTool("tool_5"),
  "bindPalette, activeTools": () => (bindPalette(tools, routed), activeTools(routed)),
  "PaletteRun.step, reveal": () => (run.step(routed), run.reveal(["tool_9"])),
  "new PaletteRun, dispose": () => new PaletteRun({ registered, cache: "append" }).dispose(),
  "ToolIndex.search": () => index.search("weather email thing 7"),
  "ToolIndex.search, hybrid": () => index.search("weather email thing 7", { vector: query }),
  "ToolIndex.explain": () => index.explain("weather city", { vector: query }),
  "ToolIndex.entries": () => index.entries({ message: "weather", history: ["email"] }),
  "ToolIndex.entries with embed": () => later(embedded.entries("weather")),
  "ToolIndex.save": () => index.save(),
  "ToolIndex.load, dispose": () => ToolIndex.load(bytes).dispose(),
  "ToolIndex.load from a Response": () => later(ToolIndex.load(new Response(bytes)).then((i) => i.dispose())),
  "new ToolIndex, dispose": () => new ToolIndex(tools.slice(0, 12), { vectors: vectors.slice(0, 12) }).dispose(),
  parseSkill: () => parseSkill(texts[5], { path: "skills/skill-5/SKILL.md" }),
  "parseSkill, a SyntaxError": () => { try { parseSkill("---\\nname: x\\ndescription: a: b\\n---\\n"); } catch (e) { if (!(e instanceof SyntaxError)) throw e; } },
  "SkillIndex.entries, search": () => (skills.entries({ message: "weather work", history: ["email"] }), skills.search("email", { vector: query })),
  "SkillIndex.entries with embed": () => later(embeddedSkills.entries("weather")),
  "SkillIndex.save, load, dispose": () => (skills.save(), SkillIndex.load(skillBytes).dispose()),
  "new SkillIndex, dispose": () => new SkillIndex(texts.slice(0, 6), { vectors: vectors.slice(0, 6), tools: { Bash: "tool_9" } }).dispose(),
  "PaletteRun.save, load": () => (run.save(), PaletteRun.load(saved, { registered }).dispose()),
};
const answers = async () => JSON.stringify([
  await resolvePalette(turn), await router.resolve({ context: "weather in Paris" }),
  policies.selectModel({}), policies.dispatch({ name: "tool_1", args: { x: 1 } }, { redirect: true }, routed).call,
  policy.matchesTool("tool_5"), policy.matchesTool("tool_6"), bindPalette(tools, routed).map((t) => t.name),
  index.search("weather email thing 7"), index.search("weather email thing 7", { vector: query }), index.explain("weather city"),
  index.entries({ message: "weather", history: ["email"] }), await embedded.entries("weather"), index.save().length,
  ToolIndex.load(bytes).search("email"), (await ToolIndex.load(new Response(bytes))).search("email"),
  new PaletteRun({ registered, cache: "append" }).step(routed),
  parseSkill(texts[5]), skills.entries({ message: "weather work", history: ["email"] }), skills.search("email", { vector: query }),
  await embeddedSkills.entries("weather"), SkillIndex.load(skillBytes).entries("email work"), skills.save().length,
  PaletteRun.load(saved, { registered }).step(routed),
]);
const before = await answers();
const stepBefore = run.size;

const op = ops[${JSON.stringify(op)}];
let odd;
function sweep(times) {
  let fired = 0;
  const rec = () => {
    try { rec(); } catch {}
    if (fired < times) {
      fired++;
      try { op(); } catch (e) {
        // The stack ran out (a RangeError, or a trap it caused, said so): nothing else. (No
        // regular expression here: V8 compiles one lazily, and at the stack's end that crashes.)
        const message = String(e && e.message);
        if (!(e instanceof RangeError) && !message.includes("Maximum call stack") && !message.includes("trapped")) odd ??= String(e && e.stack);
      }
    }
  };
  rec();
}
const settle = async () => {
  await Promise.all(pending.splice(0));
  for (let i = 0; i < 4; i++) { await new Promise((r) => setTimeout(r, 5)); globalThis.gc?.(); }
};
const rounds = [];
for (let round = 0; round < 3; round++) {
  sweep(2000);
  await settle();
  // The next call (the stack pointer is put back before it, whatever the last call cut
  // short could not do; so is the heap's call rolled back).
  index.search("weather");
  rounds.push(figures());
}
const after = await answers();
// Every instance can still be disposed (none is left borrowed), and answers that it was.
const undisposed = [];
for (const x of [index, embedded, router, policies, policy, run, skills, embeddedSkills]) {
  try { x.dispose(); } catch (e) { undisposed.push(String(e)); }
  try { x.dispose(); } catch (e) { undisposed.push("twice: " + String(e)); }
}
// (The run stepped on: its answers are compared from a run of its own.)
console.log(JSON.stringify({ sp0, rounds, same: before === after, odd, stepped: run.size > stepBefore, undisposed }));
`;

const OPS = [
  "resolvePalette", "resolvePalette, a new list each call", "ToolRouter.resolve", "new ToolRouter, dispose",
  "selectModel", "dispatch", "new ToolPolicies, dispose", "matchesTool", "bindPalette, activeTools",
  "PaletteRun.step, reveal", "new PaletteRun, dispose",
  "ToolIndex.search", "ToolIndex.search, hybrid", "ToolIndex.explain", "ToolIndex.entries", "ToolIndex.entries with embed",
  "ToolIndex.save", "ToolIndex.load, dispose", "ToolIndex.load from a Response", "new ToolIndex, dispose",
  "parseSkill", "parseSkill, a SyntaxError", "SkillIndex.entries, search", "SkillIndex.entries with embed",
  "SkillIndex.save, load, dispose", "new SkillIndex, dispose", "PaletteRun.save, load",
];

for (const entry of ["node-modules.mjs", "node.cjs"]) {
  describe(`the stack running out at every depth of every public method (${entry})`, () => {
    for (const op of OPS) {
      test(`${op}: 3 x 2,000 calls at every depth leave the stack pointer, memory, heap and reference table flat; every instance answers as before`, () => {
        const r = spawnSync(process.execPath, ["--expose-gc", "--input-type=module", "-e", child(dist(entry), op)], {
          encoding: "utf8", timeout: 120_000, cwd: fileURLToPath(new URL(".", import.meta.url)), maxBuffer: 1 << 26,
        });
        const line = r.stdout.trim().split("\n").pop();
        assert.ok(line?.startsWith("{"), `the child printed no result (status ${r.status}): ${r.stderr.slice(-1500)}`);
        const { sp0, rounds, same, odd, stepped, undisposed } = JSON.parse(line);
        assert.equal(odd, undefined, "only RangeErrors (the stack ran out) come out of the calls");
        for (const [k, f] of rounds.entries()) assert.equal(f.sp, sp0, `round ${k + 1}: the stack pointer is where it was`);
        const [, second, third] = rounds;
        assert.equal(third.used, second.used, `the heap's blocks in use stay flat (${second.used} -> ${third.used})`);
        assert.equal(third.memory, second.memory, "wasm memory stays flat");
        assert.equal(third.table, second.table, "the reference table stays flat");
        assert.ok(same, "every instance answers as before");
        assert.deepEqual(undisposed, [], "every instance can be disposed");
        if (op.startsWith("PaletteRun.step")) assert.ok(stepped);
      });
    }
  });
}
