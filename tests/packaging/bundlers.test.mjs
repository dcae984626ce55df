// Packaging tests, bundlers: the packed tarball installed into one consumer project per
// setup, bundled the way each tool's users bundle (no configuration, or the one line
// the package README gives), then run: pages in headless Chromium, Web Workers, and
// bundles for Node run from a folder that has no node_modules. Every consumer runs
// fixtures/scenario.js and answers the report lib/expected.mjs checks field by field.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { checkReport } from "./lib/expected.mjs";
import {
  bareFolder,
  bin,
  consumer,
  freePort,
  launchChromium,
  linkTools,
  pack,
  page,
  readmeLines,
  reportFromPage,
  run,
  serve,
  startServer,
  workerPage,
  workspace,
} from "./lib/harness.mjs";

let ws;
let tarball;
let dirs = {};
let browser;

// The browser consumer's files: the default entry (main.js) or tool-palette/init (init.js).
const browserSources = (into, entry = "main.js") => ({
  [`${into}/${entry}`]: `browser/${entry}`,
  [`${into}/report.js`]: "browser/report.js",
  [`${into}/scenario.js`]: "scenario.js",
});
const nodeSources = (into) => ({ [`${into}/main.js`]: "node-bundle/main.js", [`${into}/scenario.js`]: "scenario.js" });

const SETUPS = {
  "webpack-web": { type: "module", files: { ...browserSources("src"), "out/index.html": { text: page({ script: "./main.js", moduleScript: false }) } } },
  "webpack-webworker": { type: "module", files: { ...browserSources("src", "worker.js"), "out/index.html": { text: workerPage({ script: "./main.js" }) } } },
  "webpack-node": { type: "module", files: nodeSources("src") },
  rollup: { type: "module", files: browserSources("src"), link: ["@rollup/plugin-node-resolve"] },
  "rollup-browser": { type: "module", files: browserSources("src"), link: ["@rollup/plugin-node-resolve", "@web/rollup-plugin-import-meta-assets"] },
  "parcel-build": { type: "module", files: { ...browserSources("src"), "src/index.html": { text: page({ script: "./main.js" }) } } },
  "parcel-serve": { type: "module", files: { ...browserSources("src", "init.js"), "src/index.html": { text: page({ script: "./init.js" }) } } },
  "esbuild-iife": { type: "module", files: { ...browserSources("src", "init.js"), "out/index.html": { text: page({ script: "./init.js", moduleScript: false }) } } },
  "esbuild-cjs-browser": { type: "module", files: { ...browserSources("src", "init.js"), "out/index.html": { text: page({ script: "./init.js", moduleScript: false }) } } },
  "esbuild-node-esm": { type: "module", files: nodeSources("src") },
  "esbuild-node-cjs": { type: "module", files: nodeSources("src") },
  "esbuild-neutral": { type: "module", files: nodeSources("src") },
  "bun-build": { type: "module", files: nodeSources("src") },
  ncc: { type: "module", files: nodeSources("src") },
  // A Vite page running a module Web Worker: through tool-palette/init with no configuration
  // (Vite's default iife worker format), and through the default entry with the README's line.
  ...Object.fromEntries(
    [
      ["vite-worker-init", "browser/worker-init.js"],
      ["vite-worker", "browser/worker.js"],
    ].map(([name, worker]) => [
      name,
      {
        type: "module",
        files: {
          "index.html": { text: page({ script: "/src/page.js" }) },
          "src/page.js": "vite-worker/page.js",
          "src/worker.js": worker,
          "src/report.js": "browser/report.js",
          "src/scenario.js": "scenario.js",
        },
      },
    ]),
  ),
};

before(
  async () => {
    ws = workspace();
    ({ tarball } = await pack(ws.dir));
    // A few installs at a time: each is a local tarball, npm's own start dominates.
    const names = Object.keys(SETUPS);
    for (let i = 0; i < names.length; i += 4) {
      await Promise.all(
        names.slice(i, i + 4).map(async (name) => {
          const { type, files, link } = SETUPS[name];
          dirs[name] = await consumer(ws.dir, name, { type, tarball, files });
          if (link) linkTools(dirs[name], link);
        }),
      );
    }
  },
  { timeout: 300_000 },
);

after(async () => {
  await browser?.close();
  ws?.remove();
});

async function chromium() {
  browser ??= await launchChromium();
  return browser;
}

const BROWSER_RUNTIME = { runtime: { touchedAtImport: [], consoleWarnings: ["ToolRoutingUnavailableWarning"] } };
// fixtures/browser/main.js: the default entry, and tool-palette/init beside it as the same module.
const DEFAULT_ENTRY = { ...BROWSER_RUNTIME, entries: { sameInstance: true } };
const INIT = { init: { readyIsPromise: true, initReturnsReady: true, earlyCallSaysAwaitReady: true } };
const NODE_BUNDLE = { bundle: { processWarnings: ["ToolRoutingUnavailableWarning"], earlyPolicy: "early" } };

// Serves `dir`, opens it in Chromium, checks the report and hands back what was requested.
// Any console error or failed request (a 404 included) fails the setup.
async function pageReport(name, dir, extra, { path = "/" } = {}) {
  const server = await serve(dir);
  try {
    const { text, problems, wasmCalls } = await reportFromPage(await chromium(), `${server.url}${path}`);
    checkReport(name, text, extra);
    assert.deepStrictEqual(problems, [], `${name}: no page errors, console errors or failed requests`);
    assert.deepStrictEqual(server.requests.filter((r) => r.status !== 200), [], `${name}: every request found its file`);
    return { requests: server.requests, wasmCalls };
  } finally {
    await server.close();
  }
}

// Bundlers that emit the .wasm as an asset get the entry without the base64 copy ("AGFzbQ"
// is "\0asm" in base64, the start of that copy): the asset is the bundle's one copy.
function assertOneCopy(name, out) {
  const scripts = readdirSync(out, { recursive: true }).filter((f) => f.endsWith(".js"));
  for (const f of scripts) assert.ok(!readFileSync(join(out, f), "utf8").includes("AGFzbQ"), `${name}: ${f} carries no base64 copy of the module`);
}

// A tool's output with no warning in it (a build that warns is not "unconfigured").
function assertQuiet(name, { stdout, stderr }, pattern = /warn/i) {
  assert.doesNotMatch(`${stdout}\n${stderr}`, pattern, `${name} printed a warning:\n${stdout}\n${stderr}`);
}

// Runs a Node bundle from a bare folder and checks its report.
async function runBare(name, cmd, args, cwd) {
  const { stdout } = await run(cmd, args, { cwd });
  return checkReport(name, stdout, NODE_BUNDLE);
}

test("webpack 5, target web (no configuration) in headless Chromium: the wasm as an asset, streamed", async () => {
  const dir = dirs["webpack-web"];
  const out = join(dir, "out");
  const built = await run(bin("webpack"), ["./src/main.js", "--mode", "production", "--target", "web", "--output-path", out], { cwd: dir });
  assertQuiet("webpack", built, /WARNING|ERROR/);
  const wasm = readdirSync(out).filter((f) => f.endsWith(".wasm"));
  assert.equal(wasm.length, 1, `webpack emitted the wasm as one asset (${readdirSync(out).join(", ")})`);
  assertOneCopy("webpack (web)", out);
  const { requests, wasmCalls } = await pageReport("webpack (web) in Chromium", out, DEFAULT_ENTRY);
  const fetched = requests.filter((r) => r.status === 200).map((r) => r.path);
  assert.deepStrictEqual(fetched.sort(), ["/", "/main.js", `/${wasm[0]}`].sort(), "the page loaded the bundle and the wasm, never the inline chunk");
  assert.deepStrictEqual(wasmCalls, ["instantiateStreaming"], "compiled while downloading");
});

test("webpack 5, target webworker (sets the `worker` condition): the browser build, run in a Web Worker in Chromium", async () => {
  const dir = dirs["webpack-webworker"];
  const out = join(dir, "out");
  const built = await run(bin("webpack"), ["./src/worker.js", "--mode", "production", "--target", "webworker", "--output-path", out], { cwd: dir });
  assertQuiet("webpack", built, /WARNING|ERROR/);
  const bundle = readFileSync(join(out, "main.js"), "utf8");
  assert.doesNotMatch(bundle, /Cloudflare-Workers"\)|from"\.\/tool_palette_bg\.wasm"/, "not the Cloudflare entry");
  assertOneCopy("webpack (webworker)", out);
  const { requests } = await pageReport("webpack (webworker) in a Chromium worker", out, {
    worker: { isWorkerScope: true },
    runtime: { touchedAtImport: [], consoleWarnings: ["ToolRoutingUnavailableWarning"] },
  });
  assert.ok(requests.some((r) => r.path.endsWith(".wasm") && r.status === 200), `the worker fetched the wasm asset (${JSON.stringify(requests)})`);
});

test("webpack 5, target node: the bundle runs from a folder with no node_modules", async () => {
  const dir = dirs["webpack-node"];
  const out = bareFolder(ws.dir, "webpack-node");
  const built = await run(bin("webpack"), ["./src/main.js", "--mode", "production", "--target", "node", "--output-path", out], { cwd: dir });
  assertQuiet("webpack", built, /WARNING|ERROR/);
  await runBare("webpack (node) bundle", process.execPath, ["main.js"], out);
});

test("Rollup 4 with node-resolve and no asset plugin (the README's output.dir line) in headless Chromium: no request for a .wasm it does not have", async () => {
  const dir = dirs.rollup;
  // The package README's one line for Rollup, as written, in the usual config.
  const [output] = readmeLines(readFileSync(join(dir, "node_modules", "tool-palette", "README.md"), "utf8"), "Rollup");
  assert.match(output, /^output: \{ dir: "[\w.-]+"/, `the README's Rollup line: ${output}`);
  writeFileSync(
    join(dir, "rollup.config.mjs"),
    `import { nodeResolve } from "@rollup/plugin-node-resolve";\nexport default { input: "src/main.js", ${output}, plugins: [nodeResolve()] };\n`,
  );
  await run(bin("rollup"), ["-c", "--silent"], { cwd: dir });
  const out = join(dir, output.match(/dir: "([^"]+)"/)[1]);
  writeFileSync(join(out, "index.html"), page({ script: "./main.js" }));
  const { requests } = await pageReport("Rollup in Chromium", out, DEFAULT_ENTRY);
  // Rollup leaves the wasm's URL pointing beside the bundle, where nothing is: the package
  // sees that the URL was not rewritten and takes the inline chunk without asking for it.
  assert.ok(!requests.some((r) => r.path.endsWith(".wasm")), `no request for a .wasm the bundle does not have (${JSON.stringify(requests)})`);
  assert.ok(requests.some((r) => /^\/wasm-inline-[\w-]+\.js$/.test(r.path) && r.status === 200), `the inline chunk was loaded (${JSON.stringify(requests)})`);
});

test("Rollup 4 with nodeResolve({ browser: true }): the README's asset plugin emits the .wasm; without it, ready says what is missing", async () => {
  const dir = dirs["rollup-browser"];
  const line = readmeLines(readFileSync(join(dir, "node_modules", "tool-palette", "README.md"), "utf8"), "Rollup 4 with `nodeResolve({ browser: true })`");
  const [plugin, from] = line;
  const output = line.find((item) => item.startsWith("output: "));
  assert.deepStrictEqual([plugin, from], ["importMetaAssets()", "@web/rollup-plugin-import-meta-assets"], "the README's line");
  const config = (plugins) =>
    `import { nodeResolve } from "@rollup/plugin-node-resolve";\nimport { importMetaAssets } from "${from}";\nexport default { input: "src/main.js", ${output}, plugins: [${plugins}] };\n`;
  const out = join(dir, output.match(/dir: "([^"]+)"/)[1]);
  writeFileSync(join(dir, "rollup.config.mjs"), config(`nodeResolve({ browser: true }), ${plugin}`));
  await run(bin("rollup"), ["-c", "--silent"], { cwd: dir });
  writeFileSync(join(out, "index.html"), page({ script: "./main.js" }));
  assertOneCopy("Rollup with browser: true", out);
  const { requests } = await pageReport("Rollup (browser: true, importMetaAssets) in Chromium", out, DEFAULT_ENTRY);
  assert.ok(requests.some((r) => r.path.endsWith(".wasm") && r.status === 200), `the page fetched the emitted .wasm (${JSON.stringify(requests)})`);
  // Without the plugin: no .wasm is emitted, and the error says what to add.
  rmSync(out, { recursive: true, force: true });
  writeFileSync(join(dir, "rollup.config.mjs"), config("nodeResolve({ browser: true })"));
  await run(bin("rollup"), ["-c", "--silent"], { cwd: dir });
  assert.ok(!readdirSync(out).some((f) => f.endsWith(".wasm")), "no .wasm emitted without the plugin");
  assert.match(readFileSync(join(out, "main.js"), "utf8"), /did not emit tool_palette_bg\.wasm/, "the bundle carries the error that names the missing asset plugin");
});

test("Parcel 2 build (no configuration) in headless Chromium", async () => {
  const dir = dirs["parcel-build"];
  const out = join(dir, "dist");
  const built = await run(bin("parcel"), ["build", "src/index.html", "--dist-dir", out, "--no-autoinstall"], { cwd: dir, timeoutMs: 180_000 });
  assertQuiet("parcel build", built, /warn|⚠/i);
  const wasm = readdirSync(out).filter((f) => f.endsWith(".wasm"));
  assert.equal(wasm.length, 1, `Parcel emitted the wasm as one asset (${readdirSync(out).join(", ")})`);
  // Parcel reads no `exports` map unless told to (packageExports): it takes the `module`
  // field, browser.js, whose base64 copy is a chunk of its own, never downloaded (below).
  const { requests, wasmCalls } = await pageReport("Parcel build in Chromium", out, DEFAULT_ENTRY);
  assert.ok(requests.some((r) => r.path === `/${wasm[0]}` && r.status === 200), "the page fetched the wasm asset");
  assert.ok(!requests.some((r) => r.path.includes("wasm-inline")), "the inline chunk was never downloaded");
  assert.deepStrictEqual(wasmCalls, ["instantiateStreaming"], "compiled while downloading");
});

test("Parcel 2 dev server (`parcel serve`, no top-level await: tool-palette/init) in headless Chromium", async () => {
  const dir = dirs["parcel-serve"];
  const port = await freePort();
  const parcel = await startServer(bin("parcel"), ["serve", "src/index.html", "--port", String(port), "--no-autoinstall", "--no-hmr"], {
    cwd: dir,
    ready: /Server running at/,
    failed: /Build failed|🚨/,
    timeoutMs: 90_000,
  });
  try {
    const { text, problems } = await reportFromPage(await chromium(), `http://127.0.0.1:${port}/`);
    checkReport("Parcel dev server in Chromium", text, { ...BROWSER_RUNTIME, ...INIT });
    assert.deepStrictEqual(problems, [], "no page errors, console errors or failed requests");
  } finally {
    await parcel.stop();
  }
});

test("esbuild --bundle, its default iife format (tool-palette/init) in a classic <script> in headless Chromium", async () => {
  const dir = dirs["esbuild-iife"];
  const built = await run(bin("esbuild"), ["src/init.js", "--bundle", "--outfile=out/init.js", "--log-level=warning"], { cwd: dir });
  assertQuiet("esbuild", built);
  const { requests } = await pageReport("esbuild iife in Chromium", join(dir, "out"), { ...BROWSER_RUNTIME, ...INIT });
  const served = requests.filter((r) => r.status === 200).map((r) => r.path);
  assert.deepStrictEqual([...new Set(served)].sort(), ["/", "/init.js"], "the bundle alone carries the package");
});

test("esbuild --bundle --format=cjs --platform=browser (tool-palette/init) in headless Chromium", async () => {
  const dir = dirs["esbuild-cjs-browser"];
  const built = await run(bin("esbuild"), ["src/init.js", "--bundle", "--format=cjs", "--platform=browser", "--outfile=out/init.js", "--log-level=warning"], { cwd: dir });
  assertQuiet("esbuild", built);
  await pageReport("esbuild CommonJS bundle in Chromium", join(dir, "out"), { ...BROWSER_RUNTIME, ...INIT });
});

test("esbuild --bundle --platform=node --format=esm: the bundle runs from a folder with no node_modules", async () => {
  const out = bareFolder(ws.dir, "esbuild-node-esm");
  const built = await run(bin("esbuild"), ["src/main.js", "--bundle", "--platform=node", "--format=esm", `--outfile=${join(out, "main.mjs")}`, "--log-level=warning"], {
    cwd: dirs["esbuild-node-esm"],
  });
  assertQuiet("esbuild", built);
  await runBare("esbuild node ESM bundle", process.execPath, ["main.mjs"], out);
});

test("esbuild --bundle --platform=node --format=cjs: the bundle runs from a folder with no node_modules", async () => {
  const out = bareFolder(ws.dir, "esbuild-node-cjs");
  const built = await run(bin("esbuild"), ["src/main.js", "--bundle", "--platform=node", "--format=cjs", `--outfile=${join(out, "main.cjs")}`, "--log-level=warning"], {
    cwd: dirs["esbuild-node-cjs"],
  });
  assertQuiet("esbuild", built);
  await runBare("esbuild node CommonJS bundle", process.execPath, ["main.cjs"], out);
});

test("esbuild --bundle --platform=neutral --format=esm (the `default` entry): runs under Node from a folder with no node_modules", async () => {
  const out = bareFolder(ws.dir, "esbuild-neutral");
  const built = await run(bin("esbuild"), ["src/main.js", "--bundle", "--platform=neutral", "--format=esm", `--outfile=${join(out, "main.mjs")}`, "--log-level=warning"], {
    cwd: dirs["esbuild-neutral"],
  });
  assertQuiet("esbuild", built);
  const bundle = readFileSync(join(out, "main.mjs"), "utf8");
  assert.match(bundle, /new URL\("\.\/tool_palette_bg\.wasm", import\.meta\.url\)/, "the browser entry (default condition) was bundled");
  await runBare("esbuild neutral bundle under Node", process.execPath, ["main.mjs"], out);
});

test("bun build --target=bun: the bundle runs in Bun from a folder with no node_modules", async () => {
  const out = bareFolder(ws.dir, "bun-build");
  await run(bin("bun"), ["build", "src/main.js", "--target=bun", `--outfile=${join(out, "main.js")}`], { cwd: dirs["bun-build"] });
  await runBare("bun build bundle in Bun", bin("bun"), ["main.js"], out);
});

test("ncc build: the bundle runs from a folder with no node_modules", async () => {
  const out = bareFolder(ws.dir, "ncc");
  const built = await run(bin("ncc"), ["build", "src/main.js", "-o", out], { cwd: dirs.ncc });
  assertQuiet("ncc", built, /warn/i);
  const entry = ["index.mjs", "index.js", "index.cjs"].find((f) => existsSync(join(out, f)));
  assert.ok(entry, `ncc wrote its entry (${readdirSync(out).join(", ")})`);
  await runBare("ncc bundle", process.execPath, [entry], out);
});

// The Vite worker consumers: built, served, run in Chromium; the worker bundle carries one
// copy of the module (the .wasm asset, fetched), never the base64 copy beside it.
async function viteWorker(name, dir) {
  const built = await run(bin("vite"), ["build", "--logLevel", "warn"], { cwd: dir });
  assertQuiet(`vite build (${name})`, built, /warn|error/i);
  const assets = readdirSync(join(dir, "dist", "assets"));
  const wasm = assets.filter((f) => f.endsWith(".wasm"));
  assert.equal(wasm.length, 1, `one .wasm asset (${assets.join(", ")})`);
  const scripts = assets.filter((f) => f.endsWith(".js"));
  assert.ok(scripts.some((f) => f.startsWith("worker")), `a worker bundle (${assets.join(", ")})`);
  assertOneCopy(name, join(dir, "dist"));
  const { requests } = await pageReport(`${name} in Chromium`, join(dir, "dist"), {
    worker: { isWorkerScope: true },
    runtime: { touchedAtImport: [], consoleWarnings: ["ToolRoutingUnavailableWarning"] },
  });
  assert.ok(requests.some((r) => r.path === `/assets/${wasm[0]}`), `the worker fetched the .wasm asset (${JSON.stringify(requests)})`);
}

test("Vite 8 module Web Worker through tool-palette/init (no configuration: iife worker): one copy of the module", async () => {
  await viteWorker("Vite worker, tool-palette/init", dirs["vite-worker-init"]);
});

test("Vite 8 module Web Worker through the default entry, with the README's `worker` line: one copy of the module", async () => {
  const dir = dirs["vite-worker"];
  const [line] = readmeLines(readFileSync(join(dir, "node_modules", "tool-palette", "README.md"), "utf8"), "Vite 8, a module Web Worker");
  assert.match(line, /^worker: \{ format: "es" \}$/, `the README's Vite worker line: ${line}`);
  writeFileSync(join(dir, "vite.config.js"), `export default { ${line} };\n`);
  await viteWorker("Vite worker, default entry", dir);
});
