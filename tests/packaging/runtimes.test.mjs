// Packaging tests: the tarball `npm pack` makes of dist/, installed into small consumer
// projects, works with no configuration in every runtime its users run: Node.js (import
// and require, and tool-palette/init), a Vite build and dev server, native ES modules in
// Chromium (an import map, under a strict Content-Security-Policy too, and
// tool-palette/init), the single CDN file, an esbuild bundle in Chromium, a Cloudflare
// Worker bundled by wrangler (deploy --dry-run, and wrangler dev) or by esbuild with the
// README's line and run in workerd, and TypeScript (moduleResolution bundler and node16).
// Every runtime runs fixtures/scenario.js and answers a report that lib/expected.mjs
// checks field by field. Bundlers are in bundlers.test.mjs; Deno, Bun, Jest and Vitest
// in platforms.test.mjs.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createRequire } from "node:module";
import ts from "typescript";
import { checkReport } from "./lib/expected.mjs";
import {
  bin,
  childEnv,
  consumer,
  freePort,
  launchChromium,
  moduleGraph,
  pack,
  page,
  readmeLines,
  ROOT,
  reportFromPage,
  run,
  serve,
  startServer,
  strictCsp,
  topLevelUses,
  workspace,
} from "./lib/harness.mjs";

// The installed workerd refuses compatibility dates past its own release.
const COMPATIBILITY_DATE = "2026-04-01";

const tsconfig = (compilerOptions, files) => ({
  text: JSON.stringify(
    {
      compilerOptions: {
        target: "es2022",
        lib: ["es2022", "dom"],
        strict: true,
        noEmit: true,
        skipLibCheck: false,
        types: [],
        ...compilerOptions,
      },
      files,
    },
    null,
    2,
  ),
});

let ws;
let packed;
let dirs;
let browser;

before(
  async () => {
    ws = workspace();
    packed = await pack(ws.dir);
    const { tarball } = packed;
    const [nodeEsm, nodeCjs, web, nativeInit, csp, cdn, miniflare, worker, tsNode10] = await Promise.all([
      consumer(ws.dir, "node-esm", {
        type: "module",
        tarball,
        files: {
          "main.mjs": "node-esm/main.mjs",
          "threads.mjs": "threads.mjs",
          "scenario.js": "scenario.js",
          "init.mjs": "node-esm/init.mjs",
          "consumer.ts": "types/consumer.ts",
          "init.ts": "types/init.ts",
          "tsconfig.json": tsconfig({ module: "node16", moduleResolution: "node16" }, ["consumer.ts", "init.ts"]),
        },
      }),
      consumer(ws.dir, "node-cjs", {
        type: "commonjs",
        tarball,
        files: {
          "main.cjs": "node-cjs/main.cjs",
          "threads.mjs": "threads.mjs",
          "scenario.mjs": "scenario.js",
          "init.cjs": "node-cjs/init.cjs",
          "consumer.ts": "types/consumer.ts",
          "tsconfig.json": tsconfig({ module: "node16", moduleResolution: "node16" }, ["consumer.ts"]),
        },
      }),
      consumer(ws.dir, "browser", {
        type: "module",
        tarball,
        files: {
          "src/main.js": "browser/main.js",
          "src/report.js": "browser/report.js",
          "src/scenario.js": "scenario.js",
          "index.html": { text: page({ script: "/src/main.js" }) },
          "esbuild-out/index.html": { text: page({ script: "./main.js" }) },
          "consumer.ts": "types/consumer.ts",
          "init.ts": "types/init.ts",
          "tsconfig.json": tsconfig({ module: "esnext", moduleResolution: "bundler" }, ["consumer.ts", "init.ts"]),
        },
      }),
      // Pages loaded with no bundler: an import map to tool-palette/init; the default
      // entry and /init under strict Content-Security-Policies; the single CDN file.
      consumer(ws.dir, "native-init", {
        type: "module",
        tarball,
        files: { "src/init.js": "browser/init.js", "src/report.js": "browser/report.js", "src/scenario.js": "scenario.js" },
      }),
      consumer(ws.dir, "csp", {
        type: "module",
        tarball,
        files: { "src/main.js": "browser/main.js", "src/csp.js": "browser/csp.js", "src/report.js": "browser/report.js", "src/scenario.js": "scenario.js" },
      }),
      consumer(ws.dir, "cdn", {
        type: "module",
        tarball,
        files: { "src/cdn.js": "browser/cdn.js", "src/report.js": "browser/report.js", "src/scenario.js": "scenario.js" },
      }),
      // A Worker bundled by plain esbuild and run in Miniflare without wrangler.
      consumer(ws.dir, "miniflare", {
        type: "module",
        tarball,
        files: { "src/index.js": "worker/index.js", "src/scenario.js": "scenario.js", "src/report.js": "browser/report.js" },
      }),
      consumer(ws.dir, "worker", {
        type: "module",
        tarball,
        files: {
          "src/index.js": "worker/index.js",
          "src/scenario.js": "scenario.js",
          "src/report.js": "browser/report.js",
          "wrangler.jsonc": {
            text: JSON.stringify({ name: "tool-palette-consumer", main: "src/index.js", compatibility_date: COMPATIBILITY_DATE }, null, 2),
          },
        },
      }),
      // A CommonJS TypeScript project of the older kind: module commonjs, moduleResolution
      // node10 (no `exports` map read: `types` and `typesVersions` for tool-palette/init).
      consumer(ws.dir, "ts-node10", {
        type: "commonjs",
        tarball,
        files: {
          "consumer.ts": "types/consumer.ts",
          "init.ts": "types/init.ts",
          "tsconfig.json": tsconfig({ module: "commonjs", moduleResolution: "node10" }, ["consumer.ts", "init.ts"]),
        },
      }),
    ]);
    dirs = { nodeEsm, nodeCjs, web, worker, nativeInit, csp, cdn, miniflare, tsNode10 };
  },
  { timeout: 180_000 },
);

after(async () => {
  await browser?.close();
  ws?.remove();
});

const installed = (dir) => join(dir, "node_modules", "tool-palette");
const installedManifest = (dir) => JSON.parse(readFileSync(join(installed(dir), "package.json"), "utf8"));

// Every path the exports map can resolve to, for any condition.
function exportTargets(value, out = new Set()) {
  if (typeof value === "string") out.add(value.replace(/^\.\//, ""));
  else if (value && typeof value === "object") for (const v of Object.values(value)) exportTargets(v, out);
  return out;
}

// The ES modules a browser, a bundler or a Worker can load: every target of the exports
// map except those under the node, require and types conditions.
function nonNodeTargets(value, out = new Set()) {
  if (typeof value === "string") out.add(value.replace(/^\.\//, ""));
  else if (value && typeof value === "object") {
    for (const [key, v] of Object.entries(value)) if (!["node", "require", "types"].includes(key)) nonNodeTargets(v, out);
  }
  return out;
}

// The browser entry an import map should point at: what the `browser` condition resolves to.
function browserEntry(manifest) {
  let target = manifest.exports["."].browser;
  while (target && typeof target === "object") target = target.import ?? target.default;
  assert.equal(typeof target, "string", "the exports map has a browser entry");
  return target.replace(/^\.\//, "");
}

// What an import map should point tool-palette/init at: its `browser` target for import.
function initEntry(manifest) {
  const target = manifest.exports["./init"]?.browser?.default;
  assert.equal(typeof target, "string", "the exports map has tool-palette/init for browsers");
  return target.replace(/^\.\//, "");
}

async function chromium() {
  browser ??= await launchChromium();
  return browser;
}

const BROWSER_RUNTIME = { runtime: { touchedAtImport: [], consoleWarnings: ["ToolRoutingUnavailableWarning"] } };
// fixtures/browser/main.js: the default entry, and tool-palette/init beside it as the same module.
const DEFAULT_ENTRY = { ...BROWSER_RUNTIME, entries: { sameInstance: true } };
const WORKER_RUNTIME = {
  runtime: { earlyPolicy: "global-scope", process: "undefined", Buffer: "undefined", consoleWarnings: ["ToolRoutingUnavailableWarning"] },
};

test("the tarball holds the package's files, and every exports target is among them", () => {
  const manifest = installedManifest(dirs.nodeEsm);
  // `files` lists files and folders ("adapters/"); npm adds package.json.
  const listed = [...manifest.files, "package.json"];
  const covered = (file) => listed.some((entry) => (entry.endsWith("/") ? file.startsWith(entry) : file === entry));
  assert.deepStrictEqual(packed.files.filter((file) => !covered(file)), [], "tarball files that `files` does not list");
  for (const entry of listed.filter((e) => !e.endsWith("/"))) assert.ok(packed.files.includes(entry), `${entry} is in the tarball`);
  assert.ok(!packed.files.some((file) => /\.(mjs\.map|map|rs|toml)$|node\.cjs\.mjs$/.test(file)), "no sources or maps in the tarball");
  for (const target of exportTargets(manifest.exports)) {
    assert.ok(packed.files.includes(target), `exports target ${target} is in the tarball`);
  }
  for (const field of ["main", "module", "types"]) {
    assert.ok(packed.files.includes(manifest[field].replace(/^\.\//, "")), `${field} is in the tarball`);
  }
  for (const subpath of [".", "./init"]) {
    const entry = manifest.exports[subpath];
    const conditions = Object.keys(entry);
    assert.equal(conditions[0], "types", `types comes first in exports["${subpath}"]`);
    assert.equal(conditions.at(-1), "default", `default comes last in exports["${subpath}"]`);
    assert.ok(conditions.indexOf("workerd") < conditions.indexOf("browser"), "workerd is matched before browser");
    // Only Cloudflare's own condition reaches the entry that imports the .wasm as a module:
    // browser-worker tools set `worker` (webpack target "webworker") and need the browser build.
    assert.ok(!conditions.includes("worker"), `no \`worker\` condition in exports["${subpath}"]`);
    assert.equal(entry.workerd, "./workerd.js");
    // Next.js/Vercel's Edge Runtime: the .wasm imported as a module, nothing compiled from bytes.
    assert.equal(entry["edge-light"], "./edge.js");
    assert.ok(conditions.indexOf("edge-light") < conditions.indexOf("browser"), "edge-light is matched before browser");
    // Bundlers that emit the .wasm as an asset (they set production/development) get the
    // entry without the base64 copy; the others (esbuild, Rollup) the one with it.
    const asset = subpath === "." ? "./browser-asset.js" : "./init-asset.js";
    assert.deepStrictEqual(Object.keys(entry.browser), ["require", "production", "development", "default"], `exports["${subpath}"].browser`);
    assert.equal(entry.browser.production, asset);
    assert.equal(entry.browser.development, asset);
    assert.deepStrictEqual(entry.node, { import: "./node.mjs", require: "./node.cjs" }, "one Node instance behind both subpaths");
    // Jest's jsdom environment asks browser + require.
    assert.equal(entry.browser.require, "./browser.cjs", `exports["${subpath}"].browser.require`);
  }
  // The default entry waits for the module (top-level await); /init never awaits.
  assert.equal(manifest.exports["."].browser.default, "./browser.js");
  assert.equal(manifest.exports["."].default, "./browser.js");
  assert.equal(manifest.exports["./init"].browser.default, "./init.js");
  assert.equal(manifest.exports["./init"].default, "./init.js");
  assert.equal(manifest.unpkg, "./tool-palette.iife.js", "CDNs serve the single file");
});

test("tool-palette/init never awaits at module level; the default browser entry does (static)", () => {
  const dir = installed(dirs.web);
  const awaits = (file) => {
    const source = ts.createSourceFile(file, readFileSync(join(dir, file), "utf8"), ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
    let found = false;
    const visit = (node) => {
      if (ts.isFunctionLike(node)) return;
      if (ts.isAwaitExpression(node) || (ts.isForOfStatement(node) && node.awaitModifier)) found = true;
      else ts.forEachChild(node, visit);
    };
    visit(source);
    return found;
  };
  for (const file of ["init.js", "init-asset.js", "node.mjs", "workerd.js", "edge.js", "wasm-inline.js"]) {
    assert.equal(awaits(file), false, `${file} awaits at top level`);
  }
  assert.equal(awaits("browser.js"), true, "the check bites: browser.js awaits the module at top level");
  assert.equal(awaits("browser-asset.js"), true, "browser-asset.js awaits the module at top level");
});

test("the browser and Worker entries touch no process, Buffer, fs or random source at top level (static)", () => {
  const dir = installed(dirs.web);
  const manifest = installedManifest(dirs.web);
  const entries = [...nonNodeTargets(manifest.exports)].filter((file) => file.endsWith(".js"));
  // browser.js and workerd.js are single bundles (glue and api.js inside), as is node.mjs.
  const files = [...new Set(entries.flatMap((entry) => moduleGraph(dir, entry)))].sort();
  for (const must of ["browser.js", "workerd.js"]) assert.ok(files.includes(must), `${must} is checked`);
  for (const file of files) assert.deepStrictEqual(topLevelUses(join(dir, file)), [], `top-level uses in ${file}`);
  // The Node entry reads no file either (bundlers for Node fold it into one file).
  assert.deepStrictEqual(topLevelUses(join(dir, "node.mjs")), [], "top-level uses in node.mjs");
  assert.doesNotMatch(readFileSync(join(dir, "node.mjs"), "utf8"), /node:fs|readFileSync/, "node.mjs reads no file");
  // The check bites: a module that reads a file with fs and touches process is flagged.
  const bad = join(ws.dir, "bad.mjs");
  writeFileSync(bad, 'import { readFileSync } from "node:fs";\nexport const bytes = readFileSync(process.argv[1]);\n');
  assert.deepStrictEqual(topLevelUses(bad), ["bad.mjs:1 imports node:fs", "bad.mjs:2 uses process"], "the static check flags fs and process");
});

test("tool-palette/init under Node.js, ESM and require: the same instance as the default entry, ready at import", async () => {
  const expected = (entry) => ({ entry, sameInstance: true, readyIsPromise: true, initReturnsReady: true, readyAtImport: "settled", readyValue: "undefined" });
  const esm = await run(process.execPath, ["init.mjs"], { cwd: dirs.nodeEsm });
  assert.deepStrictEqual(JSON.parse(esm.stdout), expected("node.mjs"));
  const cjs = await run(process.execPath, ["init.cjs"], { cwd: dirs.nodeCjs });
  assert.deepStrictEqual(JSON.parse(cjs.stdout), expected("node.cjs"));
});

test(`Node ${process.versions.node.split(".")[0]} ESM consumer: import, use at once, instanceof, exact refusals and a redirect`, async () => {
  const { stdout } = await run(process.execPath, ["main.mjs"], { cwd: dirs.nodeEsm });
  checkReport("node ESM", stdout, { node: { entry: "node.mjs", processWarnings: ["ToolRoutingUnavailableWarning"] } });
});

test(`Node ${process.versions.node.split(".")[0]} CommonJS consumer: require, use at once, instanceof, exact refusals and a redirect`, async () => {
  const { stdout } = await run(process.execPath, ["main.cjs"], { cwd: dirs.nodeCjs });
  checkReport("node CommonJS", stdout, {
    node: { entry: "node.cjs", processWarnings: ["ToolRoutingUnavailableWarning"], earlyPolicy: "early" },
  });
});

test("worker_threads: the ESM and the CommonJS consumer, each in a worker thread", async () => {
  const esm = await run(process.execPath, ["threads.mjs", "main.mjs"], { cwd: dirs.nodeEsm });
  checkReport("node ESM in a worker thread", esm.stdout, { node: { entry: "node.mjs", processWarnings: ["ToolRoutingUnavailableWarning"] } });
  const cjs = await run(process.execPath, ["threads.mjs", "main.cjs"], { cwd: dirs.nodeCjs });
  checkReport("node CommonJS in a worker thread", cjs.stdout, {
    node: { entry: "node.cjs", processWarnings: ["ToolRoutingUnavailableWarning"], earlyPolicy: "early" },
  });
});

test("Vite 8 build (no wasm plugin) in headless Chromium", async () => {
  const out = join(dirs.web, "dist");
  await run(bin("vite"), ["build", "--logLevel", "warn"], { cwd: dirs.web });
  const assets = readdirSync(join(out, "assets"));
  const wasm = assets.filter((f) => f.endsWith(".wasm"));
  assert.equal(wasm.length, 1, `Vite emitted the wasm as one asset (${assets.join(", ")})`);
  // Vite sets the `production` condition: the entry without the base64 copy ("AGFzbQ").
  for (const f of assets.filter((f) => f.endsWith(".js"))) assert.ok(!readFileSync(join(out, "assets", f), "utf8").includes("AGFzbQ"), `${f} carries no base64 copy`);

  const server = await serve(out);
  try {
    const { text, problems, wasmCalls } = await reportFromPage(await chromium(), `${server.url}/`);
    checkReport("Vite in Chromium", text, DEFAULT_ENTRY);
    assert.deepStrictEqual(wasmCalls, ["instantiateStreaming"], "served as application/wasm: compiled while downloading");
    assert.deepStrictEqual(problems, [], "no page errors, console errors or failed requests");
    assert.ok(
      server.requests.some((r) => r.path === `/assets/${wasm[0]}` && r.status === 200),
      `the page fetched the wasm asset (${JSON.stringify(server.requests)})`,
    );
    assert.ok(!server.requests.some((r) => r.path.includes("wasm-inline")), "the base64 fallback chunk was never downloaded");
  } finally {
    await server.close();
  }
});

test("Vite 8 dev server (dependency pre-bundling, no configuration) in headless Chromium", async () => {
  const port = await freePort();
  const vite = await startServer(bin("vite"), ["--host", "127.0.0.1", "--port", String(port), "--strictPort", "--clearScreen", "false"], {
    cwd: dirs.web,
    ready: /Local:\s+http:\/\/127\.0\.0\.1:\d+/,
  });
  try {
    const { text, problems } = await reportFromPage(await chromium(), `http://127.0.0.1:${port}/`);
    // Vite's own client (/@vite/client) reads `process` when the page starts; the strict
    // import-time check is the build's and the native page's above.
    const report = JSON.parse(text);
    if (report.runtime) report.runtime.touchedAtImport = report.runtime.touchedAtImport.filter((name) => name !== "process");
    checkReport("Vite dev server in Chromium", JSON.stringify(report), DEFAULT_ENTRY);
    assert.deepStrictEqual(problems, [], "no page errors, console errors or failed requests");
  } finally {
    await vite.stop();
  }
});

test("native ES modules in headless Chromium: an import map to the installed browser entry", async () => {
  const entry = browserEntry(installedManifest(dirs.web));
  const importMap = { imports: { "tool-palette": `/node_modules/tool-palette/${entry}`, "tool-palette/init": `/node_modules/tool-palette/${initEntry(installedManifest(dirs.web))}` } };
  writeFileSync(join(dirs.web, "native.html"), page({ script: "/src/main.js", importMap }));

  const server = await serve(dirs.web);
  try {
    const { text, problems, wasmCalls } = await reportFromPage(await chromium(), `${server.url}/native.html`);
    checkReport("native ES modules in Chromium", text, DEFAULT_ENTRY);
    assert.deepStrictEqual(wasmCalls, ["instantiateStreaming"], "served as application/wasm: compiled while downloading");
    assert.deepStrictEqual(problems, [], "no page errors, console errors or failed requests");
    assert.ok(
      server.requests.some((r) => r.path === "/node_modules/tool-palette/tool_palette_bg.wasm" && r.status === 200),
      "the wasm was fetched from beside the browser entry",
    );
    assert.ok(!server.requests.some((r) => r.path.includes("wasm-inline")), "the base64 fallback was never loaded");
    assert.ok(!server.requests.some((r) => r.status !== 200), `every request succeeded (${JSON.stringify(server.requests)})`);
  } finally {
    await server.close();
  }
});

test("native ES modules, a server that does not send application/wasm: the bytes are compiled, no streaming attempt", async () => {
  const entry = browserEntry(installedManifest(dirs.web));
  const imports = { "tool-palette": `/node_modules/tool-palette/${entry}`, "tool-palette/init": `/node_modules/tool-palette/${initEntry(installedManifest(dirs.web))}` };
  writeFileSync(join(dirs.web, "native-octet.html"), page({ script: "/src/main.js", importMap: { imports } }));
  const server = await serve(dirs.web, { types: { ".wasm": "application/octet-stream" } });
  try {
    const { text, problems, wasmCalls } = await reportFromPage(await chromium(), `${server.url}/native-octet.html`);
    checkReport("native ES modules (octet-stream) in Chromium", text, DEFAULT_ENTRY);
    assert.deepStrictEqual(problems, [], "no page errors, console errors (no streaming MIME warning) or failed requests");
    assert.deepStrictEqual(wasmCalls, ["instantiate"], "compiled from the downloaded bytes");
    assert.ok(!server.requests.some((r) => r.path.includes("wasm-inline")), "the base64 fallback was never loaded");
  } finally {
    await server.close();
  }
});

test("<script type=\"module\"> with an import map to tool-palette/init (no top-level await) in headless Chromium", async () => {
  const dir = dirs.nativeInit;
  const manifest = installedManifest(dir);
  const imports = { "tool-palette/init": `/node_modules/tool-palette/${initEntry(manifest)}` };
  writeFileSync(join(dir, "index.html"), page({ script: "/src/init.js", importMap: { imports } }));
  const server = await serve(dir);
  try {
    const { text, problems, wasmCalls } = await reportFromPage(await chromium(), `${server.url}/`);
    checkReport("tool-palette/init in Chromium", text, { ...BROWSER_RUNTIME, init: { readyIsPromise: true, initReturnsReady: true, earlyCallSaysAwaitReady: true } });
    assert.deepStrictEqual(problems, [], "no page errors, console errors or failed requests");
    assert.deepStrictEqual(wasmCalls, ["instantiateStreaming"], "compiled while downloading");
  } finally {
    await server.close();
  }
});

// The import map the package README gives for pages without a bundler, as written.
function readmeImportMap(dir) {
  const [tag] = readmeLines(readFileSync(join(installed(dir), "README.md"), "utf8"), "native ES modules");
  const json = tag.match(/^<script type="importmap">(.*)<\/script>$/)?.[1];
  assert.ok(json, `the README's import map line: ${tag}`);
  return JSON.parse(json);
}

test("native ES modules under a strict Content-Security-Policy with 'wasm-unsafe-eval' (nonces, no unsafe-eval) in headless Chromium", async () => {
  const dir = dirs.csp;
  writeFileSync(join(dir, "allowed.html"), page({ script: "/src/main.js", importMap: readmeImportMap(dir), csp: strictCsp({ wasm: true }) }));
  const server = await serve(dir);
  try {
    const { text, problems } = await reportFromPage(await chromium(), `${server.url}/allowed.html`);
    checkReport("native ES modules under a strict CSP", text, DEFAULT_ENTRY);
    assert.deepStrictEqual(problems, [], "no CSP violation, page error or failed request");
  } finally {
    await server.close();
  }
});

test("the same page without 'wasm-unsafe-eval': import() of the package rejects, tool-palette/init's `ready` rejects, calls say why", async () => {
  const dir = dirs.csp;
  writeFileSync(join(dir, "refused.html"), page({ script: "/src/csp.js", importMap: readmeImportMap(dir), csp: strictCsp({ wasm: false }) }));
  const server = await serve(dir);
  try {
    const { text, problems } = await reportFromPage(await chromium(), `${server.url}/refused.html`);
    const report = JSON.parse(text);
    assert.equal(report.error, undefined, `the page's own code caught everything: ${report.error}`);
    const refusal = /WebAssembly|wasm/i;
    assert.equal(report.defaultEntry.rejected, true, "import(\"tool-palette\") rejected");
    assert.equal(report.defaultEntry.isError, true);
    assert.match(report.defaultEntry.message, refusal);
    assert.equal(report.initEntry.rejected, true, "`ready` rejected");
    assert.match(report.initEntry.message, refusal);
    assert.equal(report.callAfterFailure.isError, true, "a call after the failure throws");
    assert.match(report.callAfterFailure.message, /^tool-palette: the WebAssembly module failed to load \(/);
    // Chromium reports the refused compilation on the console; nothing goes uncaught.
    assert.deepStrictEqual(problems.filter((p) => p.startsWith("pageerror")), [], "no uncaught error");
  } finally {
    await server.close();
  }
});

test("the single CDN file: <script src=\"…/tool-palette.iife.js\"> defines ToolPalette, ToolPalette.ready, in headless Chromium", async () => {
  const dir = dirs.cdn;
  const manifest = installedManifest(dir);
  writeFileSync(join(dir, "index.html"), page({ scripts: [`/node_modules/tool-palette/${manifest.unpkg.replace(/^\.\//, "")}`], script: "/src/cdn.js" }));
  const server = await serve(dir);
  try {
    const { text, problems } = await reportFromPage(await chromium(), `${server.url}/`);
    checkReport("CDN file in Chromium", text, { ...BROWSER_RUNTIME, init: { global: true, readyIsPromise: true, initReturnsReady: true } });
    assert.deepStrictEqual(problems, [], "no page errors, console errors or failed requests");
    const fetched = server.requests.filter((r) => r.path.startsWith("/node_modules/")).map((r) => r.path);
    assert.deepStrictEqual(fetched, ["/node_modules/tool-palette/tool-palette.iife.js"], "one file carries the package");
  } finally {
    await server.close();
  }
});

test("esbuild browser bundle (--platform=browser --format=esm, no configuration) in headless Chromium", async () => {
  const out = join(dirs.web, "esbuild-out");
  await run(bin("esbuild"), ["src/main.js", "--bundle", "--format=esm", "--platform=browser", `--outfile=${join(out, "main.js")}`, "--log-level=warning"], {
    cwd: dirs.web,
  });
  assert.deepStrictEqual(readdirSync(out).sort(), ["index.html", "main.js"], "esbuild needs no asset beside the bundle");

  const server = await serve(out);
  try {
    const { text, problems } = await reportFromPage(await chromium(), `${server.url}/`);
    checkReport("esbuild in Chromium", text, DEFAULT_ENTRY);
    // esbuild leaves `new URL("./tool_palette_bg.wasm", import.meta.url)` pointing beside
    // the bundle, where nothing is: the package sees it was not rewritten and asks for nothing.
    assert.deepStrictEqual(problems, [], "no page errors, console errors or failed requests (no 404 for the .wasm)");
    const served = server.requests.filter((r) => r.status === 200).map((r) => r.path);
    assert.deepStrictEqual([...new Set(served)].sort(), ["/", "/main.js"], "the bundle alone carries the package");
  } finally {
    await server.close();
  }
});

test("Cloudflare Worker: `wrangler deploy --dry-run` bundle run in workerd (Miniflare), without nodejs_compat", async () => {
  const config = JSON.parse(readFileSync(join(dirs.worker, "wrangler.jsonc"), "utf8"));
  assert.equal(config.compatibility_flags, undefined, "no compatibility flags, nodejs_compat least of all");
  const out = join(dirs.worker, "out");
  await run(bin("wrangler"), ["deploy", "--dry-run", "--outdir", out], {
    cwd: dirs.worker,
    env: childEnv({ WRANGLER_LOG_PATH: join(dirs.worker, "wrangler-logs"), CI: "true" }),
  });

  // What a deploy would upload: the bundle and the wasm as a separate module.
  const files = readdirSync(out);
  const wasm = files.filter((f) => f.endsWith(".wasm"));
  assert.ok(files.includes("index.js"), `wrangler wrote index.js (${files.join(", ")})`);
  assert.equal(wasm.length, 1, `one wasm module (${files.join(", ")})`);
  const bundle = readFileSync(join(out, "index.js"), "utf8");
  assert.match(bundle, new RegExp(`from "\\./${wasm[0].replace(/\./g, "\\.")}"`), "the bundle imports the wasm module (the workerd entry)");
  assert.doesNotMatch(bundle, /from "node:|require\("node:/, "the bundle needs no Node built-in");
  assert.doesNotMatch(bundle, /wasm-inline|atob\(/, "the Worker does not carry the base64 fallback");

  // The very Miniflare (and workerd) that this wrangler runs `wrangler dev` with.
  const { Miniflare } = createRequire(join(ROOT, "node_modules", "wrangler", "package.json"))("miniflare");
  const mf = new Miniflare({
    modulesRoot: out,
    modules: [
      { type: "ESModule", path: join(out, "index.js") },
      { type: "CompiledWasm", path: join(out, wasm[0]) },
    ],
    compatibilityDate: COMPATIBILITY_DATE,
    compatibilityFlags: [],
  });
  try {
    const response = await mf.dispatchFetch("http://localhost/");
    const text = await response.text();
    assert.equal(response.status, 200, `the Worker answered 200: ${text.slice(0, 2000)}`);
    assert.match(response.headers.get("content-type") ?? "", /application\/json/);
    checkReport("Worker in workerd", text, WORKER_RUNTIME);
  } finally {
    await mf.dispose();
  }
});

test("Cloudflare Worker: `wrangler dev` (local workerd, no configuration beyond wrangler.jsonc) answers the scenario", async () => {
  const port = await freePort();
  const dev = await startServer(bin("wrangler"), ["dev", "--ip", "127.0.0.1", "--port", String(port), "--show-interactive-dev-session=false"], {
    cwd: dirs.worker,
    ready: /Ready on http:\/\/127\.0\.0\.1:\d+/,
    failed: /✘ \[ERROR\]/,
    timeoutMs: 90_000,
  });
  try {
    const response = await fetch(`http://127.0.0.1:${port}/`);
    const text = await response.text();
    assert.equal(response.status, 200, `the Worker answered 200: ${text.slice(0, 2000)}`);
    checkReport("Worker in wrangler dev", text, WORKER_RUNTIME);
    assert.doesNotMatch(dev.output(), /Top-level await|unsettled|hung/i, "workerd started cleanly");
  } finally {
    await dev.stop();
  }
});

// Miniflare without wrangler, the Worker bundled by esbuild. Unconfigured, esbuild resolves
// the browser build, which workerd cannot load (no fetch and no compiling of wasm bytes at
// global scope): workerd refuses to start with the package's own message, never a hang.
// With the README's line (`--conditions=workerd --loader:.wasm=copy`, and Miniflare told
// that .wasm files are compiled modules) it works.
const miniflareScript = (script, modulesRules) => `
const { createRequire } = require("node:module");
const { Miniflare } = createRequire(${JSON.stringify(join(ROOT, "node_modules", "wrangler", "package.json"))})("miniflare");
const mf = new Miniflare({
  scriptPath: ${JSON.stringify(script)},
  modules: true,
  ${modulesRules},
  compatibilityDate: ${JSON.stringify(COMPATIBILITY_DATE)},
});
mf.dispatchFetch("http://localhost/")
  .then(async (response) => process.stdout.write(JSON.stringify({ status: response.status, text: await response.text() })))
  .catch((error) => process.stdout.write(JSON.stringify({ failed: String(error && error.message) })))
  .finally(() => mf.dispose());
`;

test("Miniflare without wrangler: an unconfigured esbuild bundle fails to start with the package's message; the README's esbuild line works", async () => {
  const dir = dirs.miniflare;
  const env = childEnv();
  // The package README's lines, as written: the esbuild command and Miniflare's rule.
  const [command, modulesRules] = readmeLines(readFileSync(join(installed(dir), "README.md"), "utf8"), "Miniflare");
  assert.match(command, /^esbuild src\/index\.js /, `the README's esbuild line: ${command}`);
  assert.match(modulesRules, /^modulesRules: \[/, `the README's Miniflare option: ${modulesRules}`);
  const [, ...args] = command.split(" ");
  const outdir = args.find((a) => a.startsWith("--outdir=")).slice("--outdir=".length);

  await run(bin("esbuild"), ["src/index.js", "--bundle", "--format=esm", "--outfile=plain/index.js", "--log-level=warning"], { cwd: dir });
  const plain = await run(process.execPath, ["-e", miniflareScript(join(dir, "plain", "index.js"), modulesRules)], { cwd: dir, env, allowFailure: true });
  assert.match(JSON.parse(plain.stdout).failed ?? "", /failed to start/, `workerd refused the browser build: ${plain.stdout}`);
  assert.match(plain.stderr, /tool-palette: Cloudflare Workers need the package's `workerd` export condition/, "and said why");

  await run(bin("esbuild"), [...args, "--log-level=warning"], { cwd: dir });
  const { stdout } = await run(process.execPath, ["-e", miniflareScript(join(dir, outdir, "index.js"), modulesRules)], { cwd: dir, env });
  const { status, text } = JSON.parse(stdout);
  assert.equal(status, 200, `the Worker answered 200: ${String(text).slice(0, 2000)}`);
  checkReport("esbuild-bundled Worker in Miniflare", text, WORKER_RUNTIME);
});

// tsc checks consumer.ts and lists the files it read: the declarations must be the
// package's, the CommonJS flavour for require().
async function typecheck(dir, declarations) {
  const { stdout } = await run(bin("tsc"), ["-p", "tsconfig.json", "--listFiles"], { cwd: dir });
  const prefix = "/node_modules/tool-palette/";
  const read = stdout
    .split("\n")
    .filter((line) => line.includes(prefix))
    .map((line) => line.slice(line.indexOf(prefix) + prefix.length));
  const other = declarations === "index.d.ts" ? "index.d.cts" : "index.d.ts";
  assert.ok(read.includes(declarations), `tsc read ${declarations} (read: ${read.join(", ")})`);
  assert.ok(!read.includes(other), `tsc did not read ${other} (read: ${read.join(", ")})`);
}

test("TypeScript, moduleResolution bundler: tsc --noEmit against the published types", async () => {
  await typecheck(dirs.web, "index.d.ts");
});

test("TypeScript, moduleResolution node16, ESM consumer: tsc --noEmit", async () => {
  await typecheck(dirs.nodeEsm, "index.d.ts");
});

test("TypeScript, moduleResolution node16, CommonJS consumer: tsc --noEmit", async () => {
  await typecheck(dirs.nodeCjs, "index.d.cts");
});

// Miniflare driven by a program of the user's (tests, a custom dev server) on what wrangler
// bundled: Miniflare has no module rule for .wasm of its own, so without the README's line
// it refuses the bundle (naming the rule it misses); with it, the Worker answers.
test("Miniflare used programmatically on a `wrangler deploy --dry-run` bundle: refused without the README's modulesRules line, works with it", async () => {
  const dir = dirs.worker;
  const out = join(dir, "out-programmatic");
  await run(bin("wrangler"), ["deploy", "--dry-run", "--outdir", out], {
    cwd: dir,
    env: childEnv({ WRANGLER_LOG_PATH: join(dir, "wrangler-logs"), CI: "true" }),
  });
  const [modulesRules] = readmeLines(readFileSync(join(installed(dir), "README.md"), "utf8"), "Miniflare used programmatically");
  assert.match(modulesRules, /^modulesRules: \[/, `the README's Miniflare line: ${modulesRules}`);
  const env = childEnv();
  const bare = await run(process.execPath, ["-e", miniflareScript(join(out, "index.js"), "modulesRules: []")], { cwd: dir, env, allowFailure: true });
  assert.match(JSON.parse(bare.stdout).failed ?? "", /no matching module rules/, `refused without the rule: ${bare.stdout}`);
  const { stdout } = await run(process.execPath, ["-e", miniflareScript(join(out, "index.js"), modulesRules)], { cwd: dir, env });
  const { status, text } = JSON.parse(stdout);
  assert.equal(status, 200, `the Worker answered 200: ${String(text).slice(0, 2000)}`);
  checkReport("wrangler bundle in programmatic Miniflare", text, WORKER_RUNTIME);
});

test("TypeScript, module commonjs with moduleResolution node10: tsc --noEmit (types and typesVersions)", async () => {
  await typecheck(dirs.tsNode10, "index.d.ts");
});
