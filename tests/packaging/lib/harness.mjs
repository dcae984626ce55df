// Helpers of the packaging tests: pack dist/ once, install the tarball into consumer
// projects in a temporary folder, run tools, serve files, drive Chromium, and read the
// shipped files statically. Not a test file itself (tests/packaging/*.test.mjs are).
import { spawn } from "node:child_process";
import { createServer } from "node:http";
import { builtinModules } from "node:module";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, extname, join, normalize, sep } from "node:path";
import ts from "typescript";

export const ROOT = new URL("../../..", import.meta.url).pathname.replace(/\/$/, "");
// The built package to pack: dist/, or another copy (to try a change without touching dist/).
export const DIST = process.env.TOOL_PALETTE_PACKAGE_DIR || join(ROOT, "dist");
export const FIXTURES = new URL("../fixtures", import.meta.url).pathname;
// Tools come from the workspace's devDependencies, never installed per consumer.
export const bin = (name) => join(ROOT, "node_modules", ".bin", name);

// The environment of every child: no node:test context leaking into consumers, no
// telemetry or update checks reaching for the network.
export function childEnv(extra = {}) {
  const env = { ...process.env, ...extra };
  delete env.NODE_TEST_CONTEXT;
  env.WRANGLER_SEND_METRICS = "false";
  env.NEXT_TELEMETRY_DISABLED = "1";
  // Miniflare (wrangler dev) would fetch the `Request.cf` object from Cloudflare.
  env.CLOUDFLARE_CF_FETCH_ENABLED = "false";
  env.npm_config_update_notifier = "false";
  env.npm_config_fund = "false";
  env.npm_config_audit = "false";
  return env;
}

// Runs a command to completion; rejects with its output unless it exits 0.
export function run(cmd, args, { cwd, env, timeoutMs = 120_000, allowFailure = false } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env: env ?? childEnv(), stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(new Error(`${cmd} could not start: ${error.message}`, { cause: error }));
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      const result = { code, signal, stdout, stderr };
      if (code === 0 || allowFailure) resolve(result);
      else
        reject(
          new Error(
            `${[cmd, ...args].join(" ")} (in ${cwd}) exited ${code ?? signal}\n--- stdout\n${stdout.slice(-4000)}\n--- stderr\n${stderr.slice(-4000)}`,
          ),
        );
    });
  });
}

// ---------------------------------------------------------------- the tarball

export function workspace() {
  const dir = mkdtempSync(join(tmpdir(), "tool-palette-packaging-"));
  return {
    dir,
    remove() {
      if (process.env.TOOL_PALETTE_KEEP_CONSUMERS) console.log(`# consumers kept in ${dir}`);
      else rmSync(dir, { recursive: true, force: true });
    },
  };
}

// One consumer project under target/, inside the workspace, for frameworks whose bundler
// compiles nothing outside the workspace root (Next.js's Turbopack) and that are installed
// there as devDependencies, found by walking up (next, @sveltejs/kit): the tarball packed
// and installed as in consumer(); `remove()` deletes the project and the tarball.
export async function workspaceConsumer(name, { type, files }) {
  const packed = workspace();
  mkdirSync(join(ROOT, "target"), { recursive: true });
  const parent = mkdtempSync(join(ROOT, "target", `packaging-${name}-`));
  const { tarball } = await pack(packed.dir);
  const dir = await consumer(parent, name, { type, tarball, files });
  return {
    dir,
    remove() {
      packed.remove();
      if (process.env.TOOL_PALETTE_KEEP_CONSUMERS) console.log(`# consumer kept in ${dir}`);
      else rmSync(parent, { recursive: true, force: true });
    },
  };
}

// `npm pack` of dist/ exactly as publishing would; returns the tarball and its file list.
export async function pack(into) {
  if (!existsSync(join(DIST, "package.json"))) {
    throw new Error(`no built package in ${DIST}: run \`npm run build\` first`);
  }
  const { stdout } = await run("npm", ["pack", "--json", "--pack-destination", into], { cwd: DIST });
  const [info] = JSON.parse(stdout);
  return { tarball: join(into, info.filename), files: info.files.map((f) => f.path).sort(), info };
}

// A consumer project: a package.json, fixture files copied in, the tarball installed.
// `files` maps a path in the consumer to a fixture path (or { text }).
export async function consumer(root, name, { type, tarball, files = {} }) {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: `consumer-${name}`, private: true, type }, null, 2));
  for (const [to, from] of Object.entries(files)) {
    const target = join(dir, to);
    mkdirSync(dirname(target), { recursive: true });
    if (typeof from === "string") cpSync(join(FIXTURES, from), target);
    else writeFileSync(target, from.text);
  }
  await run("npm", ["install", "--no-audit", "--no-fund", "--no-package-lock", tarball], { cwd: dir });
  const installed = join(dir, "node_modules", "tool-palette", "package.json");
  if (!existsSync(installed)) throw new Error(`tool-palette is not installed in ${dir}`);
  return dir;
}

// ---------------------------------------------------------------- serving and Chromium

// Starts a long-running server command and resolves once it prints a line matching
// `ready` (rejects at once when it prints `failed`); `stop()` ends that one process.
// `env`: variables added to the child's environment.
export function startServer(cmd, args, { cwd, env, ready, failed, timeoutMs = 30_000 }) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env: childEnv(env), stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    let settled = false;
    const stop = () =>
      new Promise((done) => {
        if (child.exitCode !== null || child.signalCode !== null) return done();
        child.once("close", () => done());
        child.kill("SIGTERM");
      });
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`${cmd} ${args.join(" ")} did not become ready:\n${output.slice(-3000)}`));
    }, timeoutMs);
    const onData = (d) => {
      output += d;
      const plain = output.replace(/\x1b\[[0-9;]*m/g, "");
      if (settled) return;
      if (failed?.test(plain)) {
        settled = true;
        clearTimeout(timer);
        // Give the failure's own lines a moment to arrive, then report them.
        setTimeout(() => {
          stop();
          reject(new Error(`${cmd} ${args.join(" ")} failed:\n${output.slice(-3000)}`));
        }, 500);
      } else if (ready.test(plain)) {
        settled = true;
        clearTimeout(timer);
        resolve({ stop, output: () => output });
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      reject(new Error(`${cmd} ${args.join(" ")} exited ${code} before it was ready:\n${output.slice(-3000)}`));
    });
  });
}

// A port that was free a moment ago, for servers that take a fixed one.
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".json": "application/json",
  ".wasm": "application/wasm",
  ".css": "text/css",
};

// A static file server on 127.0.0.1 that records every request and its status; `types`
// overrides the content type by extension (a server that does not know .wasm).
export function serve(dir, { types = {} } = {}) {
  const requests = [];
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url, "http://x").pathname);
    let file = normalize(join(dir, path));
    if (!file.startsWith(dir + sep) && file !== dir) file = null;
    else if (existsSync(file) && statSync(file).isDirectory()) file = join(file, "index.html");
    if (file && existsSync(file) && statSync(file).isFile()) {
      requests.push({ path, status: 200 });
      res.writeHead(200, { "content-type": types[extname(file)] ?? TYPES[extname(file)] ?? "application/octet-stream", "cache-control": "no-store" });
      res.end(readFileSync(file));
    } else {
      requests.push({ path, status: 404 });
      res.writeHead(404, { "content-type": "text/plain" });
      res.end("not found");
    }
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      resolve({
        url: `http://127.0.0.1:${port}`,
        requests,
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}

export const CHROMIUM = process.env.CHROMIUM_PATH || "/usr/bin/chromium";

// Debian's Chromium driven by playwright-core; never a downloaded browser.
export async function launchChromium() {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium is needed for the browser packaging tests and is not at ${CHROMIUM}. ` +
        "Install it with `apt-get install -y chromium` (as root; `bash scripts/setup.sh --browser` does it) or set CHROMIUM_PATH.",
    );
  }
  const { chromium } = await import("playwright-core");
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
}

// Opens a page and waits for the consumer to publish `globalThis.__report`; fails with
// the page's own errors when it never does.
export async function reportFromPage(browser, url, { timeoutMs = 20_000 } = {}) {
  const page = await browser.newPage();
  const problems = [];
  // An uncaught error (a module that fails to load or initialise) ends the wait at once.
  let failed;
  const pageFailed = new Promise((_, reject) => (failed = reject));
  pageFailed.catch(() => {});
  page.on("pageerror", (error) => {
    problems.push(`pageerror: ${error.stack || error.message}`);
    failed(new Error("uncaught error in the page"));
  });
  const onConsole = (message) => {
    if (message.type() === "error") problems.push(`console.error: ${message.text()} (${message.location()?.url ?? "?"})`);
  };
  page.on("console", onConsole);
  page.on("worker", (worker) => worker.on("console", onConsole));
  page.on("requestfailed", (request) => problems.push(`request failed: ${request.url()} ${request.failure()?.errorText}`));
  // A request answered 404 (a .wasm looked for where the bundle has none) is a failed request
  // too, whether the page or one of its workers made it.
  page.context().on("response", (response) => {
    if (response.status() >= 400) problems.push(`request failed: ${response.url()} answered ${response.status()}`);
  });
  try {
    await page.goto(url);
    try {
      await Promise.race([
        page.waitForFunction(() => typeof globalThis.__report === "string", null, { timeout: timeoutMs }),
        pageFailed,
      ]);
    } catch (cause) {
      throw new Error(`${url}: the page never reported.\n${problems.join("\n") || "(no page errors)"}`, { cause });
    }
    return { text: await page.evaluate(() => globalThis.__report), problems, wasmCalls: await page.evaluate(() => globalThis.__wasmCalls ?? null) };
  } finally {
    await page.close();
  }
}

// Installed before any module runs: records reads of Node globals and calls of random
// sources, so the test can tell what importing the package touched.
const TRAP = `
globalThis.__touched = [];
for (const name of ["process", "Buffer", "require", "global", "__dirname", "__filename"]) {
  Object.defineProperty(globalThis, name, { configurable: true, get() { __touched.push(name); return undefined; } });
}
for (const [owner, key, label] of [[Math, "random", "Math.random"], [crypto, "getRandomValues", "crypto.getRandomValues"], [crypto, "randomUUID", "crypto.randomUUID"]]) {
  const original = owner[key];
  owner[key] = function (...args) { __touched.push(label); return original.apply(this, args); };
}
// How the page compiled WebAssembly: streaming (from a Response) or from bytes.
globalThis.__wasmCalls = [];
for (const key of ["instantiateStreaming", "compileStreaming", "instantiate", "compile"]) {
  const original = WebAssembly[key];
  WebAssembly[key] = function (...args) { __wasmCalls.push(key); return original.apply(this, args); };
}`;

// A consumer page: the trap script first, then an optional import map, classic scripts
// (`scripts`, e.g. the CDN file) and the module `script`. With `csp` the page carries
// that Content-Security-Policy, its inline scripts allowed by a nonce (a strict policy:
// no 'unsafe-inline', no 'unsafe-eval').
export const NONCE = "tool-palette-packaging";
export function page({ script, importMap, scripts = [], csp, moduleScript = true }) {
  const nonce = csp ? ` nonce="${NONCE}"` : "";
  return `<!doctype html>
<html>
<head>
<meta charset="utf-8">
${csp ? `<meta http-equiv="Content-Security-Policy" content="${csp}">` : ""}
<title>tool-palette consumer</title>
<link rel="icon" href="data:,">
<script${nonce}>${TRAP}</script>
${importMap ? `<script type="importmap"${nonce}>${JSON.stringify(importMap)}</script>` : ""}
${scripts.map((src) => `<script src="${src}"></script>`).join("\n")}
${script ? `<script${moduleScript ? ' type="module"' : ""} src="${script}"></script>` : ""}
</head>
<body></body>
</html>
`;
}

// A page that runs `script` in a dedicated Web Worker and publishes what it posts back.
export function workerPage({ script, type = "classic" }) {
  return `<!doctype html>
<html>
<head>
<meta charset="utf-8">
<title>tool-palette worker consumer</title>
<link rel="icon" href="data:,">
<script>
const worker = new Worker(${JSON.stringify(script)}, { type: ${JSON.stringify(type)} });
worker.onmessage = (event) => (globalThis.__report = event.data);
worker.onerror = (event) => (globalThis.__report = JSON.stringify({ error: "worker error: " + event.message }));
</script>
</head>
<body></body>
</html>
`;
}

// Strict Content-Security-Policies for the import-map pages: scripts only from the page's
// origin and by nonce; with or without the one WebAssembly allowance.
export const strictCsp = ({ wasm }) =>
  `default-src 'self'; img-src data:; script-src 'self' 'nonce-${NONCE}'${wasm ? " 'wasm-unsafe-eval'" : ""}; object-src 'none'; base-uri 'none'`;

// ---------------------------------------------------------------- the README's lines

// The inline code spans of one row of the package README's "Bundlers and runtimes" table
// (the row whose first cell starts with `setup`): the configuration a setup needs, which
// the tests use as written.
export function readmeLines(readme, setup) {
  const start = readme.indexOf("## Bundlers and runtimes");
  if (start < 0) throw new Error('the package README has no "Bundlers and runtimes" section');
  const end = readme.indexOf("\n## ", start + 1);
  const section = readme.slice(start, end < 0 ? undefined : end);
  const row = section.split("\n").find((line) => line.startsWith(`| ${setup}`));
  if (!row) throw new Error(`the package README's table has no row for ${setup}`);
  const needs = row.split(" | ").slice(1).join(" | ");
  return [...needs.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
}

// ---------------------------------------------------------------- bundles run on their own

// A folder for a bundle to run from: outside every consumer, with no node_modules in it or
// above it, so the bundle can read nothing from an installed package.
export function bareFolder(root, name) {
  const dir = join(root, "bare", name);
  mkdirSync(dir, { recursive: true });
  for (let up = dir; up !== dirname(up); up = dirname(up)) {
    if (existsSync(join(up, "node_modules"))) throw new Error(`${up} has a node_modules folder: ${dir} is not bare`);
  }
  return dir;
}

// Tools a consumer's own files import by name (vitest, a Rollup plugin): linked from the
// workspace's node_modules into the consumer's, never installed per consumer.
export function linkTools(dir, names) {
  for (const name of names) {
    const from = join(ROOT, "node_modules", name);
    if (!existsSync(from)) throw new Error(`${name} is not installed in the workspace: npm install in ${ROOT}`);
    const to = join(dir, "node_modules", name);
    mkdirSync(dirname(to), { recursive: true });
    symlinkSync(from, to, "dir");
  }
}

// scenario.js as a CommonJS module, for consumers that cannot import ESM (Jest without a
// transform): the one `export` becomes module.exports.
export function scenarioCjs() {
  const text = readFileSync(join(FIXTURES, "scenario.js"), "utf8");
  const declaration = "export async function scenario(";
  if (text.split(declaration).length !== 2) throw new Error("scenario.js: its one export was not found");
  return { text: `${text.replace(declaration, "async function scenario(")}\nmodule.exports = { scenario };\n` };
}

// ---------------------------------------------------------------- static checks

const NODE_ONLY_GLOBALS = new Set(["process", "Buffer", "require", "module", "exports", "__dirname", "__filename", "global", "setImmediate"]);

// Names the module binds at top level (imports, declarations): `import module from
// "./x.wasm"` is a local, not CommonJS's `module`.
function topLevelBindings(source) {
  const names = new Set();
  for (const statement of source.statements) {
    const clause = ts.isImportDeclaration(statement) ? statement.importClause : undefined;
    if (clause?.name) names.add(clause.name.text);
    const bindings = clause?.namedBindings;
    if (bindings && ts.isNamespaceImport(bindings)) names.add(bindings.name.text);
    if (bindings && ts.isNamedImports(bindings)) for (const element of bindings.elements) names.add(element.name.text);
    if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        if (ts.isIdentifier(declaration.name)) names.add(declaration.name.text);
      }
    }
    if ((ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement)) && statement.name) names.add(statement.name.text);
  }
  return names;
}
const RANDOM = new Set(["random", "getRandomValues", "randomUUID", "randomBytes", "randomFillSync"]);
const BUILTINS = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);

// What a module does when it is evaluated: its top-level code (function bodies are
// skipped: they run only when called) and its imports. Returns the offending uses.
export function topLevelUses(file) {
  const text = readFileSync(file, "utf8");
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const found = [];
  const local = topLevelBindings(source);
  const where = (node) => `${source.fileName.split("/").pop()}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  const isDeferred = (node) =>
    ts.isFunctionDeclaration(node) ||
    ts.isFunctionExpression(node) ||
    ts.isArrowFunction(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node) ||
    // Instance fields run at construction; static ones at class definition.
    (ts.isPropertyDeclaration(node) && !node.modifiers?.some((m) => m.kind === ts.SyntaxKind.StaticKeyword));
  const visit = (node, topLevel) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      const spec = node.moduleSpecifier.text;
      if (BUILTINS.has(spec)) found.push(`${where(node)} imports ${spec}`);
    }
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [arg] = node.arguments;
      if (arg && ts.isStringLiteralLike(arg) && BUILTINS.has(arg.text)) found.push(`${where(node)} imports ${arg.text}`);
    }
    if (topLevel) {
      if (ts.isIdentifier(node) && NODE_ONLY_GLOBALS.has(node.text) && !local.has(node.text)) {
        const parent = node.parent;
        const isPropertyName = (ts.isPropertyAccessExpression(parent) && parent.name === node) || (ts.isPropertyAssignment(parent) && parent.name === node);
        if (!isPropertyName) found.push(`${where(node)} uses ${node.text}`);
      }
      if (ts.isPropertyAccessExpression(node) && RANDOM.has(node.name.text)) found.push(`${where(node)} calls ${node.getText(source)}`);
      if (ts.isIdentifier(node) && node.text === "crypto" && !(ts.isPropertyAccessExpression(node.parent) && node.parent.name === node)) {
        found.push(`${where(node)} uses crypto`);
      }
    }
    ts.forEachChild(node, (child) => visit(child, topLevel && !isDeferred(node)));
  };
  visit(source, true);
  return found;
}

// The files an entry loads: the entry and every module it imports, statically or
// dynamically, by a relative specifier (the .wasm itself is not JavaScript).
export function moduleGraph(dir, entry) {
  const seen = new Set();
  const walk = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(join(dir, file), "utf8");
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
    const specs = [];
    const visit = (node) => {
      if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) specs.push(node.moduleSpecifier.text);
      if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && ts.isStringLiteralLike(node.arguments[0])) {
        specs.push(node.arguments[0].text);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
    for (const spec of specs) {
      if (!spec.startsWith(".")) continue;
      const target = join(dirname(file), spec);
      if (!/\.wasm(\?module)?$/.test(target)) walk(target);
    }
  };
  walk(entry);
  return [...seen].sort();
}
