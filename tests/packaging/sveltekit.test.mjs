// Packaging test, SvelteKit 2 (Vite 8, @sveltejs/adapter-node, no configuration for the
// package): a server endpoint (the `node` entry) and a page that uses the package in the
// browser (the default entry, hydrated), built with `vite build` and served by the built
// Node server. The project lives under target/, where @sveltejs/kit and its plugins are
// found as the workspace's devDependencies.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { checkReport } from "./lib/expected.mjs";
import { bin, freePort, launchChromium, reportFromPage, run, startServer, workspaceConsumer } from "./lib/harness.mjs";

let project;
let dir;
let browser;

before(
  async () => {
    project = await workspaceConsumer("sveltekit", {
      type: "module",
      files: {
        "svelte.config.js": "sveltekit/svelte.config.js",
        "vite.config.js": "sveltekit/vite.config.js",
        "src/app.html": "sveltekit/app.html",
        "src/routes/+page.svelte": "sveltekit/page.svelte",
        "src/routes/api/+server.js": "sveltekit/server.js",
        "src/lib/scenario.js": "scenario.js",
        "src/lib/report.js": "browser/report.js",
      },
    });
    dir = project.dir;
  },
  { timeout: 120_000 },
);

after(async () => {
  await browser?.close();
  project?.remove();
});

test("SvelteKit 2 (adapter-node) `vite build`, then the built server: the endpoint and the page in Chromium", async () => {
  const built = await run(bin("vite"), ["build", "--logLevel", "warn"], { cwd: dir, timeoutMs: 180_000 });
  assert.doesNotMatch(`${built.stdout}\n${built.stderr}`, /warn|error/i, `vite build:\n${built.stdout}\n${built.stderr}`);
  const port = await freePort();
  const server = await startServer(process.execPath, [join(dir, "build", "index.js")], {
    cwd: dir,
    env: { PORT: String(port), HOST: "127.0.0.1" },
    ready: /Listening on/,
    timeoutMs: 30_000,
  });
  try {
    const response = await fetch(`http://127.0.0.1:${port}/api`);
    const text = await response.text();
    assert.equal(response.status, 200, `the endpoint answered 200: ${text.slice(0, 2000)}`);
    checkReport("SvelteKit endpoint", text, { sveltekit: { side: "server" } });
    browser = await launchChromium();
    const { text: page, problems } = await reportFromPage(browser, `http://127.0.0.1:${port}/`);
    checkReport("SvelteKit page in Chromium", page, {
      sveltekit: { side: "client" },
      runtime: { touchedAtImport: [], consoleWarnings: ["ToolRoutingUnavailableWarning"] },
    });
    assert.deepStrictEqual(problems, [], "no page errors, console errors or failed requests");
  } finally {
    await server.stop();
  }
});
