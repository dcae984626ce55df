// SPEC section 7 in a Worker: tool-palette/mcp and the official SDK (McpServer, Client,
// InMemoryTransport) bundled by esbuild with the package README's Worker line and run in
// workerd (Miniflare, the one wrangler ships), without nodejs_compat.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { copyFileSync, readdirSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { consumer, root } from "./consumer.mjs";

test("in workerd: listed with the collision rule, routed, refused outside the palette, searched, and called on the right server", { timeout: 180_000 }, async () => {
  const c = await consumer();
  const out = join(c.dir, "worker-mcp-out");
  rmSync(out, { recursive: true, force: true });
  copyFileSync(new URL("./mcp-worker.js", import.meta.url), join(c.dir, "worker-mcp.js"));
  execFileSync(join(root, "node_modules", ".bin", "esbuild"), ["worker-mcp.js", "--bundle", "--format=esm", "--conditions=workerd", "--loader:.wasm=copy", `--outdir=${out}`, "--log-level=warning"], { cwd: c.dir });
  assert.ok(readdirSync(out).some((f) => f.endsWith(".wasm")), "the workerd entry: the wasm as a module of its own");
  const { Miniflare } = createRequire(join(root, "node_modules", "wrangler", "package.json"))("miniflare");
  const mf = new Miniflare({
    scriptPath: join(out, "worker-mcp.js"),
    modules: true,
    modulesRules: [{ type: "CompiledWasm", include: ["**/*.wasm"] }],
    compatibilityDate: "2026-04-01",
  });
  try {
    const response = await mf.dispatchFetch("http://localhost/");
    const text = await response.text();
    assert.equal(response.status, 200, text.slice(0, 2000));
    const r = JSON.parse(text);
    assert.deepEqual(r.names, ["create_issue", "close_issue", "github__search", "get_build", "tail_console", "ci__search"]);
    assert.equal(r.rule, "routed");
    assert.deepEqual(r.first, ["close_issue", "create_issue", "search_tools"]);
    assert.deepEqual(r.outside, { content: [{ type: "text", text: "Tool get_build is not available in this step. Available tools: close_issue, create_issue, search_tools." }], isError: true });
    assert.deepEqual(r.found, ["tail_console"]);
    assert.deepEqual(r.next, ["close_issue", "create_issue", "tail_console", "search_tools"]);
    assert.deepEqual(r.called, { content: [{ type: "text", text: "ci/tail_console(nightly)" }] });
    assert.equal(r.reports, 2);
  } finally {
    await mf.dispose();
  }
});
