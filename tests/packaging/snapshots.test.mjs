// Snapshots for Worker fleets (SPEC 6): the packed tarball bundled for workerd (the
// README's esbuild line), one Miniflare instance builds the index and saves it to KV,
// then a second one (a new workerd process: another isolate, nothing shared but KV's
// persisted store) loads it from KV and ranks exactly as the first, and streams it in from
// workerd's own classes (a KV stream, an R2 object, a Response, a Blob). And the README's
// recipe for shipping a snapshot with a Worker, as written: built in Node before the deploy,
// then a Data module and a static asset (its Response) in `wrangler dev`.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createRequire } from "node:module";
import { bin, consumer, freePort, pack, readmeLines, ROOT, run, startServer, workspace } from "./lib/harness.mjs";

const COMPATIBILITY_DATE = "2026-04-01";
let ws;
let dir;
let tarball;

before(
  async () => {
    ws = workspace();
    ({ tarball } = await pack(ws.dir));
    dir = await consumer(ws.dir, "worker-snapshot", { type: "module", tarball, files: { "src/index.js": "worker-snapshot/index.js" } });
  },
  { timeout: 240_000 },
);
after(() => ws?.remove());

test("a Worker builds the index once, saves it to KV; another workerd loads it from KV and ranks the same", { timeout: 240_000 }, async () => {
  const readme = readFileSync(join(dir, "node_modules", "tool-palette", "README.md"), "utf8");
  const [command, modulesRules] = readmeLines(readme, "Miniflare");
  const [, ...args] = command.split(" ");
  await run(bin("esbuild"), [...args, "--log-level=warning"], { cwd: dir });
  const outdir = args.find((a) => a.startsWith("--outdir=")).slice("--outdir=".length);
  assert.match(modulesRules, /CompiledWasm/);

  const { Miniflare } = createRequire(join(ROOT, "node_modules", "wrangler", "package.json"))("miniflare");
  const kvPersist = mkdtempSync(join(ws.dir, "kv-"));
  const r2Persist = mkdtempSync(join(ws.dir, "r2-"));
  const isolate = () =>
    new Miniflare({
      scriptPath: join(dir, outdir, "index.js"),
      modulesRoot: join(dir, outdir),
      modules: true,
      modulesRules: [{ type: "CompiledWasm", include: ["**/*.wasm"] }],
      compatibilityDate: COMPATIBILITY_DATE,
      kvNamespaces: ["TOOL_INDEX"],
      kvPersist,
      r2Buckets: ["BUCKET"],
      r2Persist,
    });
  const ask = async (mf, path) => {
    const response = await mf.dispatchFetch(`http://localhost${path}`);
    const text = await response.text();
    assert.equal(response.status, 200, `${path}: ${text.slice(0, 2000)}`);
    return JSON.parse(text);
  };

  const builder = isolate();
  let built;
  try {
    built = await ask(builder, "/build");
  } finally {
    await builder.dispose();
  }
  const reader = isolate();
  try {
    const loaded = await ask(reader, "/search");
    assert.equal(loaded.bytes, built.bytes, "KV holds the snapshot, byte for byte");
    assert.deepEqual(loaded, built, "the loaded index ranks exactly as the built one");
    assert.equal(built.size, 4);
    assert.equal(built.dimensions, 4);
    assert.equal(built.hybrid[0].name, "send_email", "the vectors came along");
    assert.deepEqual(built.entries, [{ tool: "send_email" }, { tool: "get_weather" }, { tool: "sql\uD800Query" }], "entries awaited embed: hybrid rows, the saved limit");
    assert.ok(built.lexical.some((h) => h.name === "sql\uD800Query"), "names exact, a lone surrogate included");
    const altered = await ask(reader, "/altered");
    assert.equal(altered.name, "TypeError");
    assert.match(altered.message, /ToolIndex\.load: bytes are altered/);
    const { faults, ...streamed } = await ask(reader, "/streamed");
    for (const [name, answers] of Object.entries(streamed)) assert.deepEqual(answers, built, `streamed from ${name}`);
    assert.deepEqual(Object.keys(streamed), ["kv", "r2", "response", "blob"]);
    assert.match(faults[0], /^TypeError: ToolIndex\.load: source's body was read already \(bodyUsed\)/);
    assert.equal(faults[1], `RangeError: ToolIndex.load: source's bytes are truncated: 100 bytes of the ${built.bytes} the snapshot needs`);
    assert.equal(faults[2], "Error: stop");
  } finally {
    await reader.dispose();
  }
});

// The package README's block that starts with `first`, as written.
function readmeBlock(readme, first) {
  const start = readme.indexOf(first);
  assert.ok(start >= 0 && /```(js|ts)\n$/.test(readme.slice(0, start)), `the README has the block ${first}`);
  return readme.slice(start, readme.indexOf("```", start));
}

test("the README's recipe: a snapshot built in Node before the deploy, shipped as a Data module and as a static asset (a Response), ranks as built", { timeout: 300_000 }, async () => {
  const shipped = await consumer(ws.dir, "worker-shipped", { type: "module", tarball, files: { "src/index.ts": "worker-shipped/index.ts", "tools.mjs": "worker-shipped/tools.mjs" } });
  const readme = readFileSync(join(shipped, "node_modules", "tool-palette", "README.md"), "utf8");
  const build = readmeBlock(readme, "// build-snapshot.mjs: run before `wrangler deploy`");
  const data = readmeBlock(readme, "// A snapshot shipped in the Worker as a Data module; wrangler.jsonc: ");
  const asset = readmeBlock(readme, "// The same snapshot as a static asset, streamed in from its Response; wrangler.jsonc: ");
  // The configuration the blocks' first lines give, as wrangler.jsonc.
  const config = (block) => JSON.parse(`{${block.split("\n")[0].split("wrangler.jsonc: ")[1]}}`);
  writeFileSync(join(shipped, "wrangler.jsonc"), JSON.stringify({ name: "tool-palette-shipped", main: "src/index.ts", compatibility_date: COMPATIBILITY_DATE, ...config(data), ...config(asset) }, null, 2));
  writeFileSync(join(shipped, "src", "data.ts"), data);
  writeFileSync(join(shipped, "src", "asset.ts"), asset);
  // The build step as written (its `tools` are the fixture's), then the same bytes as the static asset.
  writeFileSync(join(shipped, "build-snapshot.mjs"), `import { tools } from "./tools.mjs";\n${build}`);
  await run(process.execPath, ["build-snapshot.mjs"], { cwd: shipped });
  mkdirSync(join(shipped, "public"));
  copyFileSync(join(shipped, "src", "tools.snapshot"), join(shipped, "public", "tools.snapshot"));
  // What the index ranks in Node, where it was built.
  const queries = ["weather in Paris", "send an email", "sales sql query", "create an event in the calendar"];
  const expected = JSON.parse(
    (
      await run(process.execPath, ["--input-type=module", "-e", `import { ToolIndex } from "tool-palette"; import { tools } from "./tools.mjs"; const index = new ToolIndex(tools); console.log(JSON.stringify(${JSON.stringify(queries)}.map((q) => index.search(q))));`], { cwd: shipped })
    ).stdout,
  );
  assert.ok(expected.every((hits) => hits.length > 0), "every query finds a tool");

  const port = await freePort();
  const dev = await startServer(bin("wrangler"), ["dev", "--ip", "127.0.0.1", "--port", String(port), "--show-interactive-dev-session=false"], {
    cwd: shipped,
    ready: /Ready on http:\/\/127\.0\.0\.1:\d+/,
    failed: /✘ \[ERROR\]/,
    timeoutMs: 90_000,
  });
  try {
    for (const path of ["/data", "/asset"]) {
      const answers = [];
      for (const q of queries) {
        const response = await fetch(`http://127.0.0.1:${port}${path}?message=${encodeURIComponent(q)}`);
        const text = await response.text();
        assert.equal(response.status, 200, `${path}: ${text.slice(0, 2000)}`);
        answers.push(JSON.parse(text));
      }
      assert.deepEqual(answers, expected, `${path} ranks as the index built in Node`);
    }
  } finally {
    await dev.stop();
  }
});
