// Packaging tests, other runtimes and test runners: Deno 2 and Bun 1 (from their npm
// packages, run from node_modules/.bin), Jest 30 (jsdom and node environments) and
// Vitest, each in a consumer project of its own with the packed tarball installed.
// Every consumer runs fixtures/scenario.js and answers the report lib/expected.mjs checks.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { checkReport } from "./lib/expected.mjs";
import { bin, childEnv, consumer, linkTools, pack, run, scenarioCjs, workspace } from "./lib/harness.mjs";

let ws;
let dirs = {};

const SETUPS = {
  "deno-esm": { type: "module", files: { "main.mjs": "node-esm/main.mjs", "scenario.js": "scenario.js" } },
  "deno-cjs": { type: "commonjs", files: { "main.cjs": "node-cjs/main.cjs", "scenario.mjs": "scenario.js" } },
  "bun-esm": { type: "module", files: { "main.mjs": "node-esm/main.mjs", "scenario.js": "scenario.js" } },
  "bun-cjs": { type: "commonjs", files: { "main.cjs": "node-cjs/main.cjs", "scenario.mjs": "scenario.js" } },
  jest: {
    type: "commonjs",
    files: {
      "jsdom.test.js": "jest/jsdom.test.js",
      "node.test.js": "jest/node.test.js",
      "scenario.cjs": scenarioCjs(),
      "jest.config.cjs": { text: 'module.exports = { testEnvironment: "jsdom" };\n' },
    },
  },
  vitest: {
    type: "module",
    files: { "node.test.js": "vitest/node.test.js", "jsdom.test.js": "vitest/jsdom.test.js", "scenario.js": "scenario.js" },
    link: ["vitest"],
  },
};

before(
  async () => {
    ws = workspace();
    const { tarball } = await pack(ws.dir);
    const names = Object.keys(SETUPS);
    for (let i = 0; i < names.length; i += 3) {
      await Promise.all(
        names.slice(i, i + 3).map(async (name) => {
          const { type, files, link } = SETUPS[name];
          dirs[name] = await consumer(ws.dir, name, { type, tarball, files });
          if (link) linkTools(dirs[name], link);
        }),
      );
    }
  },
  { timeout: 180_000 },
);

after(() => ws?.remove());

const NODE_ESM = { node: { entry: "node.mjs", processWarnings: ["ToolRoutingUnavailableWarning"] } };
const NODE_CJS = { node: { entry: "node.cjs", processWarnings: ["ToolRoutingUnavailableWarning"], earlyPolicy: "early" } };

// Deno and Bun come from their npm packages; a machine where they did not install fails
// here, loudly (run() names the command that could not start).
test("Deno 2 (npm package `deno`), ESM consumer with node_modules: import, use at once", async () => {
  const { stdout: version } = await run(bin("deno"), ["--version"], { cwd: dirs["deno-esm"] });
  assert.match(version, /^deno 2\./, "Deno 2");
  const { stdout } = await run(bin("deno"), ["run", "--allow-read", "--allow-env", "main.mjs"], { cwd: dirs["deno-esm"] });
  checkReport("Deno ESM", stdout, NODE_ESM);
});

test("Deno 2, CommonJS consumer: require, use at once", async () => {
  const { stdout } = await run(bin("deno"), ["run", "--allow-read", "--allow-env", "main.cjs"], { cwd: dirs["deno-cjs"] });
  checkReport("Deno CommonJS", stdout, NODE_CJS);
});

test("Bun 1 (npm package `bun`), ESM consumer: import, use at once", async () => {
  const { stdout: version } = await run(bin("bun"), ["--version"], { cwd: dirs["bun-esm"] });
  assert.match(version, /^1\./, "Bun 1");
  const { stdout } = await run(bin("bun"), ["main.mjs"], { cwd: dirs["bun-esm"] });
  checkReport("Bun ESM", stdout, NODE_ESM);
});

test("Bun 1, CommonJS consumer: require, use at once", async () => {
  const { stdout } = await run(bin("bun"), ["main.cjs"], { cwd: dirs["bun-cjs"] });
  checkReport("Bun CommonJS", stdout, NODE_CJS);
});

test("Jest 30, jsdom environment (require under the browser condition, no TextEncoder/TextDecoder) and node environment", async () => {
  const dir = dirs.jest;
  const reports = join(dir, "reports");
  mkdirSync(reports, { recursive: true });
  await run(bin("jest"), ["--ci", "--colors=false"], { cwd: dir, env: childEnv({ TOOL_PALETTE_REPORTS: reports }), timeoutMs: 180_000 });
  const jest = (environment, entry, codec) => ({ jest: { environment, textEncoder: codec, textDecoder: codec, entry, earlyPolicy: "early" } });
  checkReport("Jest jsdom", readFileSync(join(reports, "jsdom.json"), "utf8"), jest("jsdom", "browser.cjs", "undefined"));
  checkReport("Jest node", readFileSync(join(reports, "node.json"), "utf8"), jest("node", "node.cjs", "function"));
});

test("Vitest 4, no configuration: node environment and jsdom environment", async () => {
  const dir = dirs.vitest;
  const reports = join(dir, "reports");
  mkdirSync(reports, { recursive: true });
  await run(bin("vitest"), ["run", "--reporter=dot"], { cwd: dir, env: childEnv({ TOOL_PALETTE_REPORTS: reports, CI: "true" }), timeoutMs: 180_000 });
  const vitest = (environment) => ({ vitest: { environment, earlyPolicy: "early" } });
  checkReport("Vitest node", readFileSync(join(reports, "vitest-node.json"), "utf8"), vitest("node"));
  checkReport("Vitest jsdom", readFileSync(join(reports, "vitest-jsdom.json"), "utf8"), vitest("jsdom"));
});
