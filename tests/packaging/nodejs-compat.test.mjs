// Cloudflare Workers with `nodejs_compat` (issue 39, item 13): workerd's `process` has an
// `emitWarning` whose warnings nothing prints (only a `process.on("warning")` listener sees
// them), so the package's warnings went nowhere. The packed tarball in a Worker bundled by
// `wrangler deploy --dry-run` with `compatibility_flags: ["nodejs_compat"]`, run in workerd
// (Miniflare, as `wrangler dev` runs it): a warning reaches console.warn, or the Worker's own
// listener when it has one.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { bin, childEnv, consumer, pack, ROOT, run, workspace } from "./lib/harness.mjs";

// The installed workerd refuses compatibility dates past its own release.
const COMPATIBILITY_DATE = "2026-04-01";
let ws;
let dir;

before(
  async () => {
    ws = workspace();
    const { tarball } = await pack(ws.dir);
    dir = await consumer(ws.dir, "worker-compat", {
      type: "module",
      tarball,
      files: {
        "src/index.js": "worker-compat/index.js",
        "wrangler.jsonc": {
          text: JSON.stringify({ name: "tool-palette-compat", main: "src/index.js", compatibility_date: COMPATIBILITY_DATE, compatibility_flags: ["nodejs_compat"] }, null, 2),
        },
      },
    });
  },
  { timeout: 180_000 },
);
after(() => ws?.remove());

test("a Worker with nodejs_compat: the warning reaches console.warn, or the Worker's process.on(\"warning\") listener", { timeout: 120_000 }, async () => {
  const out = join(dir, "out");
  await run(bin("wrangler"), ["deploy", "--dry-run", "--outdir", out], { cwd: dir, env: childEnv({ WRANGLER_LOG_PATH: join(dir, "wrangler-logs"), CI: "true" }) });
  const files = readdirSync(out);
  const wasm = files.filter((f) => f.endsWith(".wasm"));
  assert.equal(wasm.length, 1, `one wasm module (${files.join(", ")})`);
  const { Miniflare } = createRequire(join(ROOT, "node_modules", "wrangler", "package.json"))("miniflare");
  const mf = new Miniflare({
    modulesRoot: out,
    modules: [
      { type: "ESModule", path: join(out, "index.js") },
      { type: "CompiledWasm", path: join(out, wasm[0]) },
    ],
    compatibilityDate: COMPATIBILITY_DATE,
    compatibilityFlags: ["nodejs_compat"],
  });
  try {
    const ask = async (path) => {
      const response = await mf.dispatchFetch(`http://localhost${path}`);
      const text = await response.text();
      assert.equal(response.status, 200, `${path}: ${text.slice(0, 2000)}`);
      return JSON.parse(text);
    };
    const plain = await ask("/");
    assert.deepEqual(plain, { userAgent: "Cloudflare-Workers", process: "object", emitWarning: "function", printed: ["ToolRoutingUnavailableWarning"], heard: [] });
    const listened = await ask("/listener");
    assert.deepEqual(listened, { userAgent: "Cloudflare-Workers", process: "object", emitWarning: "function", printed: [], heard: ["ToolRoutingUnavailableWarning"] });
  } finally {
    await mf.dispose();
  }
});
