// Runs every test layer in order against the built package and fails if any fails.
// Each layer's counts are read from its runner's own summary; a layer that runs no
// test counts as failed, never as passed.
import { spawnSync } from "node:child_process";
import { readdirSync, existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { NODES } from "./node-versions/nodes.mjs";

const root = new URL("..", import.meta.url).pathname;
const only = process.argv.slice(2);

function files(dir, pattern) {
  const full = join(root, dir);
  if (!existsSync(full)) return [];
  return readdirSync(full, { recursive: true })
    .filter((f) => pattern.test(f) && !f.includes("node_modules"))
    .map((f) => join(dir, f))
    .sort();
}

// `node`: one of NODES. The layer runs on it, and so does every tool the tests start with
// `#!/usr/bin/env node` (its folder leads PATH). `except`: test files left to another layer.
const nodeTest = (dir, pattern, { node = process.execPath, except } = {}) => () => {
  const list = files(dir, pattern).filter((f) => !except?.test(f));
  if (!existsSync(node)) return { missing: `${node} is not installed: run bash scripts/setup.sh` };
  const env = { ...process.env, PATH: `${dirname(node)}:${process.env.PATH}` };
  return { cmd: node, args: ["--test", "--test-reporter=spec", ...list], env, empty: list.length === 0 };
};

// The JS layers run on every supported Node line; so does the packaging layer, but for the
// Next.js project (the heaviest setup: built once, on the Node that runs this script).
const [main, ...otherNodes] = NODES;
const layers = [
  { name: "rust core (cargo test)", plan: () => ({ cmd: "cargo", args: ["test", "--quiet"] }), parse: "cargo" },
  { name: "heap (the allocator as this process's, against a model)", plan: () => ({ cmd: "cargo", args: ["test", "--quiet", "--release", "-p", "tool-palette-heap", "--features", "global"] }), parse: "cargo" },
  ...NODES.flatMap((node) => [
    { name: `JS, ESM (dist/node.mjs), Node ${node.major}`, plan: nodeTest("tests/js", /\.test\.mjs$/, { node: node.path }), parse: "node" },
    { name: `JS, CommonJS (dist/node.cjs), Node ${node.major}`, plan: nodeTest("tests/js", /\.test\.cjs$/, { node: node.path }), parse: "node" },
  ]),
  { name: "resources (heavy scenarios, each in a child process)", plan: nodeTest("tests/resources", /\.test\.mjs$/), parse: "node" },
  { name: "types (tsc --noEmit, with DOM)", plan: () => ({ cmd: join(root, "node_modules/.bin/tsc"), args: ["-p", "tests/types"] }), parse: "tsc" },
  { name: "types (tsc --noEmit, ES2022 only, adapters)", plan: () => ({ cmd: join(root, "node_modules/.bin/tsc"), args: ["-p", "tests/types/tsconfig.nodom.json"] }), parse: "tsc" },
  { name: "types (tsc --noEmit, checkJs: the facade src/js/*.js against src/js/tool-palette.d.ts)", plan: () => ({ cmd: join(root, "node_modules/.bin/tsc"), args: ["-p", "tests/types/tsconfig.facade.json"] }), parse: "tsc" },
  { name: "README code blocks (tsc --strict against dist/ types)", plan: nodeTest("tests/readme", /\.test\.mjs$/), parse: "node" },
  { name: `packaging (packed tarball in each runtime), Node ${main.major}`, plan: nodeTest("tests/packaging", /\.test\.mjs$/), parse: "node" },
  ...otherNodes.map((node) => ({
    name: `packaging (packed tarball in each runtime; all but Next.js), Node ${node.major}`,
    plan: nodeTest("tests/packaging", /\.test\.mjs$/, { node: node.path, except: /nextjs\.test\.mjs$/ }),
    parse: "node",
  })),
  { name: "frameworks (AI SDK, OpenAI Agents, LangChain.js; packed)", plan: nodeTest("tests/frameworks", /\.test\.mjs$/), parse: "node" },
  { name: "providers (OpenAI, Anthropic, Gemini SDKs against a local server; packed)", plan: nodeTest("tests/providers", /\.test\.mjs$/), parse: "node" },
  { name: "bench baseline (passes the same JS suites)", plan: () => ({ cmd: process.execPath, args: ["--test", "--test-reporter=spec", "bench/baseline.test.mjs"] }), parse: "node" },
  { name: "bench multi-turn harness (its cost model and recall against hand-computed figures)", plan: () => ({ cmd: process.execPath, args: ["--test", "--test-reporter=spec", "bench/tool-search/multi-turn.test.mjs"] }), parse: "node" },
  { name: "demo page (Chromium)", plan: nodeTest("tests/demo", /\.test\.mjs$/), parse: "node" },
];

function count(kind, out, status) {
  if (kind === "cargo") {
    let passed = 0, failed = 0, seen = false;
    for (const m of out.matchAll(/test result: \w+\. (\d+) passed; (\d+) failed/g)) {
      passed += Number(m[1]);
      failed += Number(m[2]);
      seen = true;
    }
    return seen ? { passed, failed } : null;
  }
  if (kind === "node") {
    const pass = out.match(/^ℹ pass (\d+)$/m);
    const fail = out.match(/^ℹ fail (\d+)$/m);
    return pass && fail ? { passed: Number(pass[1]), failed: Number(fail[1]) } : null;
  }
  // tsc prints nothing on success: one check of the whole typed usage.
  return status === 0 ? { passed: 1, failed: 0 } : { passed: 0, failed: 1 };
}

const results = [];
for (const layer of layers) {
  if (only.length && !only.some((o) => layer.name.toLowerCase().includes(o.toLowerCase()))) continue;
  console.log(`\n=== ${layer.name}`);
  const plan = layer.plan();
  if (plan.missing) {
    console.log(`${plan.missing}: this layer fails`);
    results.push({ name: layer.name, passed: 0, failed: 1, note: "not installed" });
    continue;
  }
  if (plan.empty) {
    console.log("no test files found: this layer fails");
    results.push({ name: layer.name, passed: 0, failed: 1, note: "no tests" });
    continue;
  }
  const r = spawnSync(plan.cmd, plan.args, { cwd: root, encoding: "utf8", maxBuffer: 1 << 28, env: plan.env ?? process.env });
  const out = (r.stdout ?? "") + (r.stderr ?? "");
  process.stdout.write(out);
  const c = count(layer.parse, out, r.status);
  if (!c) results.push({ name: layer.name, passed: 0, failed: 1, note: `no summary (exit ${r.status})` });
  else results.push({ name: layer.name, ...c, failed: c.failed || (r.status === 0 ? 0 : 1), note: r.status === 0 ? "" : `exit ${r.status}` });
}

console.log("\n=== summary");
let passed = 0, failed = 0;
for (const r of results) {
  passed += r.passed;
  failed += r.failed;
  console.log(`${r.failed ? "FAIL" : "ok  "}  ${r.name}: ${r.passed} passed, ${r.failed} failed${r.note ? ` (${r.note})` : ""}`);
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed || results.length === 0 ? 1 : 0);
