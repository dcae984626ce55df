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

// The ESM and CommonJS builds are two instances in one process: a ToolIndex's rows route exactly (untrimmed) whichever build routes them.
test("a ToolIndex's rows cross builds as outcomes do: untrimmed names route either way", async () => {
  const esm = await import("../../dist/node.mjs");
  const tools = [{ name: " get_weather", description: "Get the weather of a city" }, { name: "send_email", description: "Send an email" }];
  for (const [indexing, routing] of [[tp, esm], [esm, tp]]) {
    const index = new indexing.ToolIndex(tools);
    const outcome = await routing.resolvePalette({ entries: () => index.entries({ message: "weather in Paris" }), registered: tools.map((t) => t.name) });
    assert.deepEqual([outcome.kind, outcome.names], ["routed", [" get_weather"]]);
    // A row of the caller's own is trimmed, by either build.
    const own = await routing.resolvePalette({ entries: () => [{ tool: " get_weather" }], registered: ["get_weather"] });
    assert.deepEqual([own.kind, own.names], ["routed", ["get_weather"]]);
    index.dispose();
  }
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
