// The same JS suites against the built package's CommonJS entry (dist/node.cjs).
const path = require("node:path");
const tp = require("../../dist/node.cjs");
const { test } = require("node:test");
const assert = require("node:assert/strict");

test("require() gives the whole API, initialised synchronously", () => {
  assert.equal(typeof tp.resolvePalette, "function");
  const p = new tp.ToolCallPolicy({ name: "p", match: () => true, whenTool: "a" });
  assert.equal(p.matchesTool("a"), true);
});

const entry = path.join(__dirname, "../../dist/node.cjs");
module.exports = (async () => {
  const { routing } = await import("./suites/routing.mjs");
  const { router } = await import("./suites/router.mjs");
  const { policies } = await import("./suites/policies.mjs");
  const { decisions } = await import("./suites/decisions.mjs");
  const { toolIndex } = await import("./suites/index.mjs");
  const { streamedLoad } = await import("./suites/load.mjs");
  const { runs } = await import("./suites/runs.mjs");
  const { skills } = await import("./suites/skills.mjs");
  routing(tp);
  router(tp, { entry, format: "cjs" });
  policies(tp);
  decisions(tp);
  toolIndex(tp);
  streamedLoad(tp);
  runs(tp);
  skills(tp);
})();
