// Snapshots for Worker fleets (SPEC 6): the packed tarball bundled for workerd (the
// README's esbuild line), one Miniflare instance builds the index and saves it to KV,
// then a second one (a new workerd process: another isolate, nothing shared but KV's
// persisted store) loads it from KV and ranks exactly as the first, and streams it in from
// workerd's own classes (a KV stream, an R2 object, a Response, a Blob).
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createRequire } from "node:module";
import { bin, consumer, pack, readmeLines, ROOT, run, workspace } from "./lib/harness.mjs";

const COMPATIBILITY_DATE = "2026-04-01";
let ws;
let dir;

before(
  async () => {
    ws = workspace();
    const { tarball } = await pack(ws.dir);
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
