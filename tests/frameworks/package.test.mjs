// The adapters as the packed package ships them: subpath exports with types first, no
// dependency on any framework nor on a particular entry of the package, require() twins,
// and declarations that type-check against the frameworks' own types.
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { cpSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { consumer, root } from "./consumer.mjs";

const ADAPTERS = ["ai-sdk", "openai-agents", "langchain"];
let c, pkgDir, manifest;
before(async () => {
  c = await consumer();
  pkgDir = join(c.dir, "node_modules", "tool-palette");
  manifest = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8"));
});

test("the packed manifest exports each adapter, types first, and depends on no framework", () => {
  for (const name of ADAPTERS) {
    const entry = manifest.exports[`./${name}`];
    assert.ok(entry, `exports["./${name}"]`);
    assert.equal(Object.keys(entry)[0], "types");
    assert.deepEqual(entry, {
      types: { require: `./adapters/${name}.d.cts`, default: `./adapters/${name}.d.ts` },
      import: `./adapters/${name}.js`,
      require: `./adapters/${name}.cjs`,
    });
    for (const file of [entry.types.require, entry.types.default, entry.import, entry.require]) {
      assert.doesNotThrow(() => readFileSync(join(pkgDir, file)), file);
    }
  }
  for (const field of ["dependencies", "peerDependencies", "optionalDependencies"]) {
    for (const dep of Object.keys(manifest[field] ?? {})) {
      assert.doesNotMatch(dep, /^(ai|@ai-sdk\/.*|@openai\/.*|langchain|@langchain\/.*|zod)$/, `${field} must not name ${dep}`);
    }
  }
});

test("the adapters import nothing but their own helpers (no framework, no package entry, no wasm)", () => {
  const dir = join(pkgDir, "adapters");
  for (const file of readdirSync(dir).filter((f) => /\.(c?js)$/.test(f))) {
    const source = readFileSync(join(dir, file), "utf8");
    const specifiers = [...source.matchAll(/\bfrom\s+"([^"]+)"|\bimport\(\s*"([^"]+)"|\brequire\(\s*"([^"]+)"/g)].map((m) => m[1] ?? m[2] ?? m[3]);
    assert.deepEqual(specifiers.filter((s) => s !== "./shared.js"), [], `${file} imports ${specifiers}`);
  }
});

test("require() twins export the same functions as the ES modules", async () => {
  for (const name of ADAPTERS) {
    const esm = await c.load(`tool-palette/${name}`);
    const cjs = c.require(`tool-palette/${name}`);
    assert.deepEqual(Object.keys(cjs).sort(), Object.keys(esm).sort(), name);
    assert.ok(Object.keys(esm).length >= 2);
  }
});

test("the declarations type-check against the frameworks' types (tsc, node16, strict)", async () => {
  const dir = join(c.dir, "types-check");
  rmSync(dir, { recursive: true, force: true });
  cpSync(new URL("./types", import.meta.url).pathname, dir, { recursive: true });
  const tsc = join(root, "node_modules", "typescript", "bin", "tsc");
  const result = await promisify(execFile)(process.execPath, [tsc, "-p", dir], { cwd: c.dir, timeout: 120_000 }).catch((e) => e);
  assert.equal(result.code ?? 0, 0, `tsc failed:\n${result.stdout}${result.stderr}`);
});
