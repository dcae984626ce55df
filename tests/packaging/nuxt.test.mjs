// Packaging test, Nuxt 4 (Nitro) built for Cloudflare Workers (NITRO_PRESET=cloudflare-module):
// a server route that runs the scenario. Unconfigured, `nuxt build` fails (Nitro bundles no
// `.wasm` without experimental.wasm); with the README's one line in nuxt.config.ts it builds,
// and the built Worker, run in workerd as Nitro says (`wrangler dev .output/server/index.mjs`,
// with nodejs_compat, which Nitro's Workers builds need), answers the scenario. The project
// lives under target/, where nuxt is found as the workspace's devDependency.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { checkReport } from "./lib/expected.mjs";
import { bin, childEnv, freePort, readmeLines, run, startServer, workspaceConsumer } from "./lib/harness.mjs";

// The installed workerd refuses compatibility dates past its own release.
const COMPATIBILITY_DATE = "2026-04-01";
let project;
let dir;

before(
  async () => {
    project = await workspaceConsumer("nuxt", {
      type: "module",
      files: {
        "app/app.vue": "nuxt/app.vue",
        "server/api/scenario.js": "nuxt/scenario.js",
        "server/scenario.js": "scenario.js",
        "server/report.js": "browser/report.js",
      },
    });
    dir = project.dir;
  },
  { timeout: 120_000 },
);

after(() => project?.remove());

const config = (line) => `export default defineNuxtConfig({ compatibilityDate: ${JSON.stringify(COMPATIBILITY_DATE)}${line ? `, ${line}` : ""} });\n`;
const build = () =>
  run(bin("nuxt"), ["build"], { cwd: dir, env: childEnv({ NITRO_PRESET: "cloudflare-module", NUXT_TELEMETRY_DISABLED: "1" }), timeoutMs: 240_000, allowFailure: true });

test("Nuxt 4 for Cloudflare Workers: unconfigured `nuxt build` fails on the .wasm; with the README's line it builds and the Worker answers the scenario in workerd", { timeout: 600_000 }, async () => {
  writeFileSync(join(dir, "nuxt.config.ts"), config(""));
  const unconfigured = await build();
  assert.notEqual(unconfigured.code, 0, "unconfigured, nuxt build fails");
  assert.match(`${unconfigured.stdout}\n${unconfigured.stderr}`, /tool_palette_bg\.wasm \(1:0\): Unexpected character/, "on the .wasm, as the README says");

  const readme = readFileSync(join(dir, "node_modules", "tool-palette", "README.md"), "utf8");
  const line = readmeLines(readme, "Nuxt 4").find((l) => l.startsWith("nitro:"));
  assert.equal(line, "nitro: { experimental: { wasm: true } }");
  writeFileSync(join(dir, "nuxt.config.ts"), config(line));
  const built = await build();
  assert.equal(built.code, 0, `nuxt build:\n${built.stdout.slice(-4000)}\n${built.stderr.slice(-4000)}`);
  // The module is a .wasm of the Worker's (a compiled module), not a base64 copy in the code.
  const server = join(dir, ".output", "server");
  assert.equal(readdirSync(join(server, "wasm")).filter((f) => f.endsWith(".wasm")).length, 1, "one .wasm module in the build");
  const route = readdirSync(join(server, "chunks", "routes", "api")).find((f) => f.endsWith(".mjs"));
  assert.doesNotMatch(readFileSync(join(server, "chunks", "routes", "api", route), "utf8"), /AGFzbQ/, "no base64 copy of the module");

  const port = await freePort();
  const dev = await startServer(
    bin("wrangler"),
    ["dev", ".output/server/index.mjs", "--assets", ".output/public", "--compatibility-date", COMPATIBILITY_DATE, "--compatibility-flags", "nodejs_compat",
      "--ip", "127.0.0.1", "--port", String(port), "--show-interactive-dev-session=false"],
    { cwd: dir, ready: /Ready on http:\/\/127\.0\.0\.1:\d+/, failed: /✘ \[ERROR\]/, timeoutMs: 90_000 },
  );
  try {
    const response = await fetch(`http://127.0.0.1:${port}/api/scenario`);
    const text = await response.text();
    assert.equal(response.status, 200, `the Worker answered 200: ${text.slice(0, 2000)}`);
    checkReport("Nuxt 4 on Cloudflare Workers", text, { nuxt: { process: "object", consoleWarnings: ["ToolRoutingUnavailableWarning"] } });
    assert.doesNotMatch(dev.output(), /Import #0|is not an object or function/, "workerd instantiated the module");
  } finally {
    await dev.stop();
  }
});
