// Packaging test, Next.js 16 (App Router, Turbopack, no configuration): one project with a
// route handler on the Edge Runtime and one on Node.js, built once, then answered by
// `next start` and by `next dev`. The edge route gets the `edge-light` entry, which imports
// the .wasm as a module: no wasm is compiled from bytes, so `next dev` prints no
// DynamicWasmCodeGenerationWarning (a real edge deployment refuses such code).
// The project lives under target/ (inside the workspace): Turbopack compiles nothing outside
// the workspace root, where next, react and react-dom are installed as devDependencies.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { checkReport } from "./lib/expected.mjs";
import { FIXTURES, freePort, launchChromium, reportFromPage, ROOT, run, startServer, workspaceConsumer } from "./lib/harness.mjs";

const NEXT = join(ROOT, "node_modules", "next", "dist", "bin", "next");
let project;
let dir;
let browser;

before(
  async () => {
    const route = readFileSync(join(FIXTURES, "nextjs", "route.js"), "utf8");
    project = await workspaceConsumer("next", {
      type: "module",
      files: {
        "app/scenario.js": "scenario.js",
        "app/report.js": "browser/report.js",
        "app/layout.js": "nextjs/layout.js",
        "app/page.js": "nextjs/page.js",
        "app/api/edge/route.js": { text: route.replace('"RUNTIME"', '"edge"') },
        "app/api/node/route.js": { text: route.replace('"RUNTIME"', '"nodejs"') },
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

// What Next.js must never say about the package: the warning a real edge deployment turns
// into a refusal, webpack's top-level-await complaint, or any error.
const UNWELCOME = /DynamicWasmCodeGeneration|Dynamic WASM code generation|topLevelAwait|top-level await|error/i;

// Starts `next <command>` on a free port, asks both routes for the scenario and opens the
// client page in Chromium; the server must print nothing UNWELCOME meanwhile.
async function answers(command) {
  const port = await freePort();
  const server = await startServer(process.execPath, [NEXT, command, "--hostname", "127.0.0.1", "--port", String(port)], {
    cwd: dir,
    ready: /Ready in/,
    failed: /Error|⨯/,
    timeoutMs: 60_000,
  });
  try {
    for (const runtime of ["edge", "nodejs"]) {
      const response = await fetch(`http://127.0.0.1:${port}/api/${runtime === "edge" ? "edge" : "node"}`);
      const text = await response.text();
      assert.equal(response.status, 200, `next ${command}, ${runtime} route answered 200: ${text.slice(0, 2000)}`);
      const consoleWarnings = runtime === "edge" ? ["ToolRoutingUnavailableWarning"] : [];
      checkReport(`next ${command}, ${runtime} route`, text, { next: { runtime, consoleWarnings } });
    }
    browser ??= await launchChromium();
    const { text, problems } = await reportFromPage(browser, `http://127.0.0.1:${port}/`, { timeoutMs: 60_000 });
    checkReport(`next ${command}, client page in Chromium`, text, {
      next: { runtime: "client" },
      runtime: { touchedAtImport: [], consoleWarnings: ["ToolRoutingUnavailableWarning"] },
    });
    assert.deepStrictEqual(problems, [], `next ${command}: no page errors, console errors or failed requests`);
    assert.doesNotMatch(server.output(), UNWELCOME, `next ${command} printed:\n${server.output()}`);
  } finally {
    await server.stop();
  }
}

test("Next.js 16 `next build` (Turbopack, no configuration): the edge route carries the .wasm as a module, no base64 copy", async () => {
  const built = await run(process.execPath, [NEXT, "build"], { cwd: dir, timeoutMs: 240_000 });
  assert.doesNotMatch(`${built.stdout}\n${built.stderr}`, UNWELCOME, `next build:\n${built.stdout}\n${built.stderr}`);
  const chunks = join(dir, ".next", "server", "edge", "chunks");
  const files = readdirSync(chunks);
  assert.equal(files.filter((f) => f.endsWith(".wasm")).length, 1, `the edge bundle holds the .wasm as a module (${files.join(", ")})`);
  // "AGFzbQ" is "\0asm" in base64: the start of the inline copy the other entries carry.
  for (const f of files.filter((f) => f.endsWith(".js"))) {
    assert.ok(!readFileSync(join(chunks, f), "utf8").includes("AGFzbQ"), `${f} carries no base64 copy of the module`);
  }
});

test("Next.js 16 `next start`: the edge route and the Node.js route answer the scenario, the client page runs it in Chromium", async () => {
  await answers("start");
});

test("Next.js 16 `next dev` (Turbopack): both routes and the client page, with no DynamicWasmCodeGenerationWarning", async () => {
  await answers("dev");
});
