// Issue 41 (SPEC 8): a run outlives its process. A run saved here is loaded in a new
// process (through the ESM and the CommonJS entry), which takes the next steps: each is
// exactly the step the unbroken run takes here.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import * as tp from "../../../dist/node.mjs";

const dist = (f) => fileURLToPath(new URL(`../../../dist/${f}`, import.meta.url));
const REG = Array.from({ length: 30 }, (_, i) => `tool_${i}`);
const later = [["tool_3", "tool_9"], null, ["tool_28"], ["tool_1", "tool_3"]];

for (const entry of ["node.mjs", "node.cjs"]) {
  for (const cache of ["append", "deferred", "per-turn", "fixed"]) {
    test(`${cache}: saved here, loaded in a new process (${entry}): its next steps are the unbroken run's`, async () => {
      const outcome = (names) => (names ? tp.resolvePalette({ registered: REG, entries: () => names }) : tp.resolvePalette({ registered: REG, entries: () => [] }));
      const run = new tp.PaletteRun({ registered: REG, cache, pinned: ["tool_0"] });
      for (const names of [["tool_5"], ["tool_7", "tool_5"], null]) run.step(await outcome(names));
      const saved = run.save();
      const expected = [];
      for (const names of later) expected.push(run.step(await outcome(names)));
      const load = entry.endsWith(".cjs") ? `(await import("node:module")).createRequire(import.meta.url)(${JSON.stringify(dist(entry))})` : `await import(${JSON.stringify(dist(entry))})`;
      const code = `
        const tp = ${load};
        const REG = ${JSON.stringify(REG)};
        const run = tp.PaletteRun.load(${JSON.stringify(saved)}, { registered: REG });
        const steps = [];
        for (const names of ${JSON.stringify(later)}) {
          const o = await tp.resolvePalette({ registered: REG, entries: () => names ?? [] });
          steps.push(run.step(o));
        }
        console.log(JSON.stringify(steps));`;
      const r = spawnSync(process.execPath, ["--input-type=module", "-e", code], { encoding: "utf8" });
      assert.equal(r.status, 0, r.stderr);
      assert.deepEqual(JSON.parse(r.stdout), JSON.parse(JSON.stringify(expected)));
    });
  }
}
