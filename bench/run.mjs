// npm run bench: the built package against the plain-JS baseline (bench/baseline.mjs),
// interleaved in one process, medians and ratios; weights; cold start; memory.
// Writes bench/results.json and regenerates the README's results table from it.
import { Bench } from "tinybench";
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { cpus } from "node:os";
import * as pkg from "../dist/node.mjs";
import * as baseline from "./baseline.mjs";
import { aiSdk, data as bfcl, miniSearch, recall, synthetic } from "./tool-search/compare.mjs";
import { tokenTable, mcpOverhead, markdown as tokenLines } from "./tool-search/tokens.mjs";
import { shortenImports, trapAtPanic, WASM_OPT_ARGS } from "../scripts/wasm-edit.mjs";

const root = new URL("..", import.meta.url);
const quick = process.argv.includes("--quick");
const ROUNDS = quick ? 2 : 5;
const TIME_MS = quick ? 60 : 200;

// ------------------------------------------------------------------ workloads

function workload(tools, rows) {
  const registered = Array.from({ length: tools }, (_, i) => `tool_${i}`);
  const list = Array.from({ length: rows }, (_, i) =>
    i % 5 === 0
      ? `Use skill ${i} when the user asks about it`
      : i % 7 === 0
        ? { tool: `tool_${(i * 13) % tools}`, active: false }
        : { tool: `tool_${(i * 31) % tools}`, content: "prose" },
  );
  return { registered, rows: list };
}

function resolveScenario(tools, rows) {
  const w = workload(tools, rows);
  const entries = () => w.rows;
  return (lib) => () => lib.resolvePalette({ entries, registered: w.registered });
}

// The same, with a registered list that changes every turn: the package's index of the
// last list cannot be reused, so this is the cost of indexing the names on each call.
function freshRegistryScenario(tools, rows) {
  const w = workload(tools, rows);
  const other = [...w.registered.slice(0, -1), "tool_renamed"];
  const entries = () => w.rows;
  return (lib) => {
    let flip = false;
    return () => lib.resolvePalette({ entries, registered: (flip = !flip) ? w.registered : other });
  };
}

function routerScenario(tools, rows) {
  const w = workload(tools, rows);
  const entries = () => w.rows;
  return (lib) => {
    const router = new lib.ToolRouter({ entries, registered: w.registered });
    return () => router.resolve();
  };
}

function policiesOf(lib, onWarning) {
  const specs = Array.from({ length: 20 }, (_, i) => ({
    name: `policy_${i}`,
    match: (ctx) => ctx.intent === `intent_${i}`,
    whenTool: i % 2 ? ["web_search", "lookup"] : "web_search",
    redirectTo: `target_${i}`,
    model: { id: `model_${i}` },
    argsTransform: (args) => ({ query: args.q }),
  }));
  return new lib.ToolPolicies(specs, { modelResolver: () => null, onWarning });
}

const selectScenario = (lib) => {
  const set = policiesOf(lib);
  const ctx = { intent: "intent_19" };
  return () => set.selectModel(ctx);
};

const dispatchScenario = (lib) => {
  const set = policiesOf(lib);
  const ctx = { intent: "intent_19" };
  const palette = new lib.Routed(["web_search", "target_19"]);
  const call = { name: "web_search", args: { q: "x" }, id: "call_1" };
  return () => set.dispatch(call, ctx, palette);
};

const scenarios = [
  ["resolvePalette 20 tools × 8 rows", resolveScenario(20, 8)],
  ["resolvePalette 1,000 × 200", resolveScenario(1000, 200)],
  ["resolvePalette 50,000 × 20,000", resolveScenario(50_000, 20_000)],
  ["resolvePalette 1,000 × 200, new registered list each turn (extra: no index reuse)", freshRegistryScenario(1000, 200)],
  ["ToolRouter.resolve 10,000 × 50", routerScenario(10_000, 50)],
  ["selectModel, 20 policies", selectScenario],
  ["dispatch, 20 policies", dispatchScenario],
];
const scaling = [10, 100, 1000, 10_000, 100_000].map((rows) => [`scaling: 1,000 tools × ${rows.toLocaleString("en")} rows`, resolveScenario(1000, rows), rows]);

// ------------------------------------------------------------------ timing

async function race(list) {
  const medians = new Map(list.map(([name]) => [name, { pkg: [], baseline: [] }]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, make] of list) {
      const bench = new Bench({ time: TIME_MS, warmup: true, warmupTime: 20 });
      // Alternate which one goes first, round by round.
      const order = round % 2 ? [["baseline", baseline], ["pkg", pkg]] : [["pkg", pkg], ["baseline", baseline]];
      for (const [who, lib] of order) bench.add(who, make(lib));
      await bench.run();
      for (const task of bench.tasks) {
        if (task.result.state !== "completed") throw new Error(`${name} (${task.name}): ${task.result.error ?? task.result.state}`);
        medians.get(name)[task.name].push(task.result.latency.p50);
      }
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  return list.map(([name, , extra]) => {
    const m = medians.get(name);
    const p = median(m.pkg) * 1000;
    const b = median(m.baseline) * 1000;
    return { name, packageUs: p, baselineUs: b, ratio: p / b, ...(extra ? { rows: extra } : {}) };
  });
}

// ------------------------------------------------------------------ cold start

function coldStart(runs) {
  const script = (entry) =>
    `import(${JSON.stringify(new URL(entry, root).href)}).then(async (tp) => { const r = await tp.resolvePalette({ entries: () => ["b", "x"], registered: ["a", "b"] }); if (r.names[0] !== "b") process.exit(1); });`;
  const time = (entry) => {
    const t0 = process.hrtime.bigint();
    const r = spawnSync(process.execPath, ["-e", script(entry)], { stdio: "ignore" });
    if (r.status !== 0) throw new Error(`cold start of ${entry} failed`);
    return Number(process.hrtime.bigint() - t0) / 1e6;
  };
  const p = [];
  const b = [];
  for (let i = 0; i < runs; i++) {
    if (i % 2) (b.push(time("bench/baseline.mjs")), p.push(time("dist/node.mjs")));
    else (p.push(time("dist/node.mjs")), b.push(time("bench/baseline.mjs")));
  }
  const median = (xs) => [...xs].sort((x, y) => x - y)[xs.length >> 1];
  return { packageMs: median(p), baselineMs: median(b), ratio: median(p) / median(b), runs };
}

// ------------------------------------------------------------------ workerd
//
// workerd freezes its clocks inside a request, so instantiation cannot be timed from
// within a Worker: this times a cold Worker from outside (workerd started by Miniflare,
// module evaluation with the wasm instantiated, first request answered), the package's
// Worker entry against the same Worker on the baseline.

async function workerdStart(runs) {
  const { createRequire } = await import("node:module");
  const { mkdtempSync, cpSync, rmSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const { join } = await import("node:path");
  const { Miniflare } = createRequire(new URL("node_modules/wrangler/package.json", root))("miniflare");
  const dir = mkdtempSync(join(tmpdir(), "tool-palette-workerd-"));
  const worker = (lib) =>
    `import * as lib from "./${lib}";\nexport default { async fetch() { const r = await lib.resolvePalette({ entries: () => ["b", "x"], registered: ["a", "b"] }); return new Response(r.names.join()); } };\n`;
  writeFileSync(join(dir, "pkg.js"), worker("workerd.js"));
  writeFileSync(join(dir, "base.js"), worker("baseline.mjs"));
  for (const f of ["workerd.js", "tool_palette_bg.wasm"]) cpSync(new URL(`dist/${f}`, root), join(dir, f));
  cpSync(new URL("bench/baseline.mjs", root), join(dir, "baseline.mjs"));
  const start = async (modules) => {
    const t0 = process.hrtime.bigint();
    const mf = new Miniflare({ modulesRoot: dir, modules, compatibilityDate: "2026-04-01" });
    try {
      const text = await (await mf.dispatchFetch("http://localhost/")).text();
      if (text !== "b") throw new Error(`workerd answered ${text}`);
      return Number(process.hrtime.bigint() - t0) / 1e6;
    } finally {
      await mf.dispose();
    }
  };
  const pkgModules = [
    { type: "ESModule", path: join(dir, "pkg.js") },
    { type: "ESModule", path: join(dir, "workerd.js") },
    { type: "CompiledWasm", path: join(dir, "tool_palette_bg.wasm") },
  ];
  const baseModules = [
    { type: "ESModule", path: join(dir, "base.js") },
    { type: "ESModule", path: join(dir, "baseline.mjs") },
  ];
  const p = [];
  const b = [];
  try {
    for (let i = 0; i < runs; i++) {
      if (i % 2) (b.push(await start(baseModules)), p.push(await start(pkgModules)));
      else (p.push(await start(pkgModules)), b.push(await start(baseModules)));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const median = (xs) => [...xs].sort((x, y) => x - y)[xs.length >> 1];
  return { packageMs: median(p), baselineMs: median(b), ratio: median(p) / median(b), runs };
}

// ------------------------------------------------------------------ memory

async function memory(turns) {
  const { initSync } = await import("../dist/tool_palette.js");
  // Already initialised by node.mjs: initSync hands back the same instance's exports.
  const wasm = initSync({ module: readFileSync(new URL("../dist/tool_palette_bg.wasm", import.meta.url)) });
  const w = workload(200, 40);
  const entries = () => w.rows;
  const router = new pkg.ToolRouter({ entries, registered: w.registered });
  let dropped = 0;
  const set = policiesOf(pkg, () => dropped++);
  const gc = globalThis.gc ?? (() => {});
  const turn = async () => {
    const outcome = await router.resolve();
    set.selectModel({ intent: "intent_3" });
    set.dispatch({ name: "web_search", args: { q: 1 } }, { intent: "intent_3" }, outcome);
    return pkg.resolvePalette({ entries, registered: w.registered });
  };
  for (let i = 0; i < 2000; i++) await turn();
  gc();
  const before = { wasm: wasm.memory.buffer.byteLength, heap: process.memoryUsage().heapUsed };
  for (let i = 0; i < turns; i++) await turn();
  gc();
  await new Promise((ok) => setTimeout(ok, 50));
  gc();
  const after = { wasm: wasm.memory.buffer.byteLength, heap: process.memoryUsage().heapUsed };
  return { turns, wasmBytesBefore: before.wasm, wasmBytesAfter: after.wasm, heapBefore: before.heap, heapAfter: after.heap, gcExposed: Boolean(globalThis.gc) };
}

// ------------------------------------------------------------------ tool search (SPEC 6)

// The package's ToolIndex as a ranker of bench/tool-search/compare.mjs, beside what users
// would pick instead (the AI SDK's default toolSearch scorer, MiniSearch's BM25).
const toolIndex = {
  name: "ToolIndex (this package)",
  rank(tools) {
    const index = new pkg.ToolIndex(tools);
    return (query, k) => index.search(query, { limit: k }).map((h) => h.name);
  },
};

function searchTimes(ranker, n, queries) {
  const tools = synthetic(bfcl.tools, n);
  let t0 = performance.now();
  const search = ranker.rank(tools);
  const build = performance.now() - t0;
  for (const q of queries.slice(0, 10)) search(q, 5);
  t0 = performance.now();
  for (const q of queries) search(q, 5);
  return { build, queryUs: ((performance.now() - t0) / queries.length) * 1000 };
}

async function toolSearch() {
  const rankers = [aiSdk, miniSearch, toolIndex];
  const recalls = rankers.map((r) => ({ name: r.name, ...recall(r) }));
  const queries = bfcl.questions.map((q) => q.query);
  const times = [];
  for (const n of quick ? [500, 10_000] : [500, 10_000, 50_000]) {
    for (const r of rankers) {
      // Every question at 500 tools; the first 100 above (the JS rankers scan every tool).
      times.push({ name: r.name, tools: n, ...searchTimes(r, n, n > 500 ? queries.slice(0, 100) : queries) });
    }
  }
  return { tools: bfcl.tools.length, questions: bfcl.questions.length, recalls, times, weight: weightOfToolIndex() };
}

// What ToolIndex adds to the weight a browser loads: the module and its glue built once
// without the `tool-index` feature, against the shipped ones.
function weightOfToolIndex() {
  const dir = new URL("target/without-tool-index/", root).pathname;
  const opts = { cwd: root.pathname, stdio: "ignore" };
  spawnSync("cargo", ["build", "--release", "--target", "wasm32-unknown-unknown", "--no-default-features", "--target-dir", `${dir}cargo`], opts);
  spawnSync("wasm-bindgen", ["--target", "web", "--out-dir", dir, `${dir}cargo/wasm32-unknown-unknown/release/tool_palette.wasm`], opts);
  // The same edits and wasm-opt arguments as scripts/build.mjs.
  writeFileSync(`${dir}tool_palette_bg.wasm`, trapAtPanic(readFileSync(`${dir}tool_palette_bg.wasm`)));
  spawnSync(new URL("node_modules/.bin/wasm-opt", root).pathname, [`${dir}tool_palette_bg.wasm`, ...WASM_OPT_ARGS, "-o", `${dir}o.wasm`], opts);
  const short = shortenImports(readFileSync(`${dir}o.wasm`), readFileSync(`${dir}tool_palette.js`, "utf8"));
  const gz = (bytes) => gzipSync(bytes, { level: 9 }).length;
  const without = { wasm: gz(short.wasm), glue: gz(short.glue) };
  const shipped = { wasm: gz(readFileSync(new URL("dist/tool_palette_bg.wasm", root))), glue: gz(readFileSync(new URL("dist/tool_palette.js", root))) };
  return { wasm: shipped.wasm - without.wasm, glue: shipped.glue - without.glue, total: shipped.wasm + shipped.glue - without.wasm - without.glue };
}

// ------------------------------------------------------------------ report

const fmt = (us) => (us >= 1000 ? `${(us / 1000).toFixed(2)} ms` : `${us.toFixed(2)} µs`);
const machine = `${cpus()[0]?.model ?? "unknown CPU"} (${cpus().length} cores), Node ${process.version}`;
console.log(`tool-palette bench on ${machine}: ${ROUNDS} interleaved rounds of ${TIME_MS} ms per task\n`);

const turns = await race(scenarios);
for (const r of turns) console.log(`${r.name.padEnd(40)} package ${fmt(r.packageUs).padStart(10)}  baseline ${fmt(r.baselineUs).padStart(10)}  ratio ${r.ratio.toFixed(2)}×`);
console.log("");
const series = await race(scaling);
for (const r of series) {
  console.log(`${r.name.padEnd(40)} package ${fmt(r.packageUs).padStart(10)} (${((r.packageUs / r.rows) * 1000).toFixed(1)} ns/row)  baseline ${fmt(r.baselineUs).padStart(10)}  ratio ${r.ratio.toFixed(2)}×`);
}

const weights = JSON.parse(readFileSync(new URL("target/weights.json", root), "utf8"));
// What the baseline weighs shipped the same way (one minified module), for the ratio.
{
  const { build } = await import("esbuild");
  const { gzipSync, brotliCompressSync } = await import("node:zlib");
  const out = await build({ entryPoints: [new URL("bench/baseline.mjs", root).pathname], bundle: true, minify: true, format: "esm", write: false, logLevel: "silent" });
  const bytes = out.outputFiles[0].contents;
  weights["baseline JS (bench/baseline.mjs, minified)"] = { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length, brotli: brotliCompressSync(bytes).length };
}
console.log("\nweights (bytes):");
for (const [what, w] of Object.entries(weights)) console.log(`  ${what.padEnd(42)} gzip ${String(w.gzip).padStart(7)}  brotli ${String(w.brotli).padStart(7)}  raw ${w.raw}`);

const baselineWeight = weights["baseline JS (bench/baseline.mjs, minified)"];
console.log(`package/baseline gzip bytes: ${weights["wasm + browser JS"].gzip} / ${baselineWeight.gzip} = ${(weights["wasm + browser JS"].gzip / baselineWeight.gzip).toFixed(2)}×`);

const cold = coldStart(quick ? 6 : 30);
console.log(`\ncold start (fresh node, import + one resolvePalette), median of ${cold.runs}: package ${cold.packageMs.toFixed(1)} ms, baseline ${cold.baselineMs.toFixed(1)} ms, ratio ${cold.ratio.toFixed(2)}×`);

const workerd = await workerdStart(quick ? 2 : 10);
console.log(`workerd cold Worker (start, evaluate, first answer), median of ${workerd.runs}: package ${workerd.packageMs.toFixed(1)} ms, baseline ${workerd.baselineMs.toFixed(1)} ms, ratio ${workerd.ratio.toFixed(2)}×`);

const mem = await memory(quick ? 10_000 : 100_000);
console.log(
  `memory over ${mem.turns.toLocaleString("en")} turns: wasm ${mem.wasmBytesBefore} → ${mem.wasmBytesAfter} bytes; JS heap ${(mem.heapBefore / 1e6).toFixed(1)} → ${(mem.heapAfter / 1e6).toFixed(1)} MB${mem.gcExposed ? "" : " (run with --expose-gc for a settled heap)"}`,
);
const search = await toolSearch();
console.log(`\ntool search on BFCL live (${search.tools} tools, ${search.questions} questions):`);
for (const r of search.recalls) console.log(`  ${r.name.padEnd(42)} recall@1 ${r["r@1"].toFixed(3)}  @5 ${r["r@5"].toFixed(3)}  @10 ${r["r@10"].toFixed(3)}`);
for (const t of search.times) console.log(`  ${t.name.padEnd(42)} ${String(t.tools).padStart(6)} tools: build ${t.build.toFixed(1)} ms, query ${fmt(t.queryUs)}`);
console.log(`  ToolIndex adds ${search.weight.total} gzip bytes (wasm ${search.weight.wasm}, glue ${search.weight.glue})`);
const tokens = { routing: await tokenTable(), mcp: await mcpOverhead({ runs: quick ? 50 : 300 }) };
console.log(`\n${tokenLines(tokens.routing, tokens.mcp).join("\n")}`);


const results = { machine, date: new Date().toISOString(), rounds: ROUNDS, timeMs: TIME_MS, turns, scaling: series, weights, coldStart: cold, workerd, memory: mem, toolSearch: search, tokens };
if (!quick) {
  writeFileSync(new URL("bench/results.json", root), JSON.stringify(results, null, 2) + "\n");
  const table = [
    `Measured ${results.date.slice(0, 10)} on ${machine} (\`npm run bench\`; medians of ${ROUNDS} interleaved rounds; ratio = package / plain-JS baseline).`,
    "",
    "| figure | package | baseline | ratio |",
    "|---|---:|---:|---:|",
    ...turns.map((r) => `| ${r.name} | ${fmt(r.packageUs)} | ${fmt(r.baselineUs)} | ${r.ratio.toFixed(2)}× |`),
    ...series.map((r) => `| ${r.name} | ${fmt(r.packageUs)} | ${fmt(r.baselineUs)} | ${r.ratio.toFixed(2)}× |`),
    `| cold start (import + one turn, fresh process) | ${cold.packageMs.toFixed(1)} ms | ${cold.baselineMs.toFixed(1)} ms | ${cold.ratio.toFixed(2)}× |`,
    `| cold Worker in workerd (start, evaluate, first answer) | ${workerd.packageMs.toFixed(1)} ms | ${workerd.baselineMs.toFixed(1)} ms | ${workerd.ratio.toFixed(2)}× |`,
    `| gzip bytes, \`.wasm\` + browser entry JS (baseline: its module, minified) | ${weights["wasm + browser JS"].gzip} | ${baselineWeight.gzip} | ${(weights["wasm + browser JS"].gzip / baselineWeight.gzip).toFixed(2)}× |`,
    `| brotli bytes, \`.wasm\` + browser entry JS | ${weights["wasm + browser JS"].brotli} | | |`,
    `| wasm memory over ${mem.turns.toLocaleString("en")} turns | ${mem.wasmBytesBefore} → ${mem.wasmBytesAfter} bytes | | |`,
    `| JS heap over ${mem.turns.toLocaleString("en")} turns | ${(mem.heapBefore / 1e6).toFixed(1)} → ${(mem.heapAfter / 1e6).toFixed(1)} MB | | |`,
    "",
    `Tool search on BFCL live (${search.tools} tools pooled from the four \`live_*\` categories, ${search.questions} questions, each retrieving from the whole pool; bench/tool-search/):`,
    "",
    "| ranker | recall@1 | recall@5 | recall@10 |",
    "|---|---:|---:|---:|",
    ...search.recalls.map((r) => `| ${r.name} | ${r["r@1"].toFixed(3)} | ${r["r@5"].toFixed(3)} | ${r["r@10"].toFixed(3)} |`),
    "",
    "| ranker | tools | build | query (limit 5) |",
    "|---|---:|---:|---:|",
    ...search.times.map((t) => `| ${t.name} | ${t.tools.toLocaleString("en")} | ${t.build.toFixed(1)} ms | ${fmt(t.queryUs)} |`),
    "",
    `ToolIndex adds ${search.weight.total} gzip bytes to what a browser loads (wasm ${search.weight.wasm}, glue ${search.weight.glue}).`,
    "",
    ...tokenLines(tokens.routing, tokens.mcp),
  ].join("\n");
  const readmeUrl = new URL("README.md", root);
  const readme = readFileSync(readmeUrl, "utf8");
  const start = "<!-- bench:start -->";
  const end = "<!-- bench:end -->";
  if (readme.includes(start) && readme.includes(end)) {
    writeFileSync(readmeUrl, readme.slice(0, readme.indexOf(start) + start.length) + "\n" + table + "\n" + readme.slice(readme.indexOf(end)));
    console.log("\nREADME results table regenerated from bench/results.json");
  }
}
