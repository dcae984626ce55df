// The checks npm authors trust, on the packed tarball: publint (the package.json against
// the files it points to) and @arethetypeswrong/cli --profile strict (every entry point's
// types as TypeScript resolves them). Any finding fails. The two subpaths that are files,
// not modules (the CDN script build, which defines a global, and the .wasm for bundlers
// that emit it as an asset), are left out of attw's entry points: TypeScript resolves
// neither as a module, by design.
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { pack } from "./lib/harness.mjs";

const ROOT = new URL("../..", import.meta.url).pathname;
const bin = (name) => join(ROOT, "node_modules", ".bin", name);
let tarball;
before(async () => {
  ({ tarball } = await pack(mkdtempSync(join(tmpdir(), "tp-lint-"))));
});

test("publint: no error, warning or suggestion", () => {
  const r = spawnSync(bin("publint"), ["run", tarball, "--level", "suggestion", "--strict"], { encoding: "utf8" });
  const out = r.stdout + r.stderr;
  assert.equal(r.status, 0, out);
  assert.doesNotMatch(out, /Errors:|Warnings:|Suggestions:/, out);
});

test("attw --profile strict: every entry point resolves with its types, under every resolution", () => {
  const r = spawnSync(bin("attw"), [tarball, "--profile", "strict", "--format", "ascii", "--exclude-entrypoints", "./tool-palette.iife.js", "./tool_palette_bg.wasm"], { encoding: "utf8" });
  const out = r.stdout + r.stderr;
  assert.equal(r.status, 0, out);
  assert.match(out, /No problems found/, out);
});

// Every file the main entry points resolve to starts the module when it is evaluated (a
// top-level await, or a synchronous instantiation): a bundler told that such a file has no
// side effects may drop that start (Turbopack drops the top-level await). The adapters and
// the CDN's inline bytes are free of side effects and may be shaken out.
test("package.json sideEffects lists every file the main entry points resolve to, and nothing else", () => {
  const manifest = JSON.parse(readFileSync(join(ROOT, "dist", "package.json"), "utf8"));
  const targets = new Set([manifest.main, manifest.module, manifest.unpkg]);
  const walk = (value) => (typeof value === "string" ? targets.add(value) : Object.values(value).forEach(walk));
  for (const subpath of [".", "./init", "./tool-palette.iife.js"]) walk(manifest.exports[subpath]);
  const modules = [...targets].filter((file) => /\.[cm]?js$/.test(file)).sort();
  assert.deepEqual([...manifest.sideEffects].sort(), modules);
});
