// The checks npm authors trust, on the packed tarball: publint (the package.json against
// the files it points to) and @arethetypeswrong/cli --profile strict (every entry point's
// types as TypeScript resolves them). Any finding fails. The two subpaths that are files,
// not modules (FILES: the CDN script build, which defines a global when a <script> tag runs
// it, and the .wasm for bundlers that emit it as an asset) are left out of attw's entry
// points: no types can be true of them as modules (the script imported as an ES module
// defines no global, and require() of it is require() of ESM, CJSResolvesToESM, whatever
// its types; the .wasm is a URL, bytes or an instance, by bundler). They are exported so that
// a build step finds them by name, which the last test checks.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { DIST, bin, consumer, pack, run, workspace } from "./lib/harness.mjs";

const FILES = ["./tool-palette.iife.js", "./tool_palette_bg.wasm"];
let tarball;
let space;
before(async () => {
  space = workspace();
  ({ tarball } = await pack(mkdtempSync(join(space.dir, "tarball-"))));
});
after(() => space?.remove());

test("publint: no error, warning or suggestion", () => {
  const r = spawnSync(bin("publint"), ["run", tarball, "--level", "suggestion", "--strict"], { encoding: "utf8" });
  const out = r.stdout + r.stderr;
  assert.equal(r.status, 0, out);
  assert.doesNotMatch(out, /Errors:|Warnings:|Suggestions:/, out);
});

test("attw --profile strict: every entry point resolves with its types, under every resolution", () => {
  const r = spawnSync(bin("attw"), [tarball, "--profile", "strict", "--format", "ascii", "--exclude-entrypoints", ...FILES], { encoding: "utf8" });
  const out = r.stdout + r.stderr;
  assert.equal(r.status, 0, out);
  assert.match(out, /No problems found/, out);
});

// Every file the main entry points resolve to starts the module when it is evaluated (a
// top-level await, or a synchronous instantiation): a bundler told that such a file has no
// side effects may drop that start (Turbopack drops the top-level await). The adapters and
// the CDN's inline bytes are free of side effects and may be shaken out.
test("package.json sideEffects lists every file the main entry points resolve to, and nothing else", () => {
  const manifest = JSON.parse(readFileSync(join(DIST, "package.json"), "utf8"));
  const targets = new Set([manifest.main, manifest.module, manifest.unpkg]);
  const walk = (value) => (typeof value === "string" ? targets.add(value) : Object.values(value).forEach(walk));
  for (const subpath of [".", "./init", "./tool-palette.iife.js"]) walk(manifest.exports[subpath]);
  const modules = [...targets].filter((file) => /\.[cm]?js$/.test(file)).sort();
  assert.deepEqual([...manifest.sideEffects].sort(), modules);
});

test("the subpaths attw leaves out are files, exported as such and found by name (require.resolve, import.meta.resolve)", async () => {
  const { exports } = JSON.parse(readFileSync(join(DIST, "package.json"), "utf8"));
  // A plain target: no conditions, so no types condition either; every other subpath but
  // ./package.json is a module that attw checks.
  assert.deepEqual(Object.keys(exports).filter((k) => typeof exports[k] === "string" && k !== "./package.json"), FILES);
  for (const f of FILES) assert.equal(exports[f], f);
  const dir = await consumer(space.dir, "files", { type: "module", tarball });
  const names = JSON.stringify(FILES.map((f) => `tool-palette/${f.slice(2)}`));
  const script = `import { createRequire } from "node:module";
const require = createRequire(import.meta.url);
console.log(JSON.stringify(${names}.map((n) => [require.resolve(n), new URL(import.meta.resolve(n)).pathname])));`;
  const { stdout } = await run(process.execPath, ["--input-type=module", "-e", script], { cwd: dir });
  const installed = join(dir, "node_modules", "tool-palette");
  assert.deepEqual(JSON.parse(stdout), FILES.map((f) => [join(installed, f), join(installed, f)]));
  for (const f of FILES) assert.ok(readFileSync(join(installed, f)).equals(readFileSync(join(DIST, f))), `${f}: the shipped file`);
});
