// Builds the publishable package into dist/: the wasm (wasm-pack, then wasm-opt from
// the npm package binaryen), the wasm-bindgen glue, the thin runtime entries from
// pkg-template/, a CommonJS bundle for require(), and the types. Prints the weights.
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync, brotliCompressSync, constants } from "node:zlib";
import { build } from "esbuild";

const root = new URL("..", import.meta.url).pathname;
const dist = join(root, "dist");
const stage = join(root, "target", "wasm-pack");
const bin = (name) => join(root, "node_modules", ".bin", name);
const run = (cmd, args) => execFileSync(cmd, args, { cwd: root, stdio: "inherit" });

run("wasm-pack", [
  "build", "--target", "web", "--release", "--no-pack", "--no-typescript",
  "--out-dir", stage, "--out-name", "tool_palette",
]);

rmSync(dist, { recursive: true, force: true });
mkdirSync(dist);

// The features rustc emits for wasm32 today; wasm-opt must be told it may keep them.
run(bin("wasm-opt"), [
  join(stage, "tool_palette_bg.wasm"), "-Oz", "--strip-debug", "--strip-producers",
  "--enable-bulk-memory", "--enable-nontrapping-float-to-int", "--enable-sign-ext",
  "--enable-reference-types", "--enable-multivalue", "--enable-mutable-globals",
  "-o", join(dist, "tool_palette_bg.wasm"),
]);
cpSync(join(stage, "tool_palette.js"), join(dist, "tool_palette.js"));

const template = join(root, "pkg-template");
for (const file of ["package.json", "README.md", "LICENSE", "index.d.ts", "api.js", "node.mjs", "browser.js", "workerd.js"]) {
  cpSync(join(template, file), join(dist, file));
}
// Framework adapters (subpath exports such as tool-palette/ai-sdk), when there are any.
if (existsSync(join(template, "adapters"))) cpSync(join(template, "adapters"), join(dist, "adapters"), { recursive: true });
// require() gets the same declarations, as a CommonJS module for moduleResolution node16.
cpSync(join(template, "index.d.ts"), join(dist, "index.d.cts"));

await build({
  // Resolved inside dist/ so that it bundles the very glue and api.js shipped beside it.
  stdin: { contents: readFileSync(join(template, "node.cjs.mjs"), "utf8"), resolveDir: dist, sourcefile: "node.cjs.mjs" },
  outfile: join(dist, "node.cjs"),
  bundle: true,
  format: "cjs",
  platform: "node",
  target: "node20",
  logLevel: "warning",
  // The glue's default wasm URL uses import.meta, which CommonJS lacks; node.cjs never uses it.
  logOverride: { "empty-import-meta": "silent" },
  banner: { js: "// tool-palette for Node.js require(): generated from node.mjs by scripts/build.mjs" },
});

// Weights: what each runtime loads, raw, gzip and brotli.
const weigh = (files) => {
  const bytes = Buffer.concat(files.map((f) => readFileSync(join(dist, f))));
  return {
    raw: bytes.length,
    gzip: gzipSync(bytes, { level: 9 }).length,
    brotli: brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  };
};
const weights = {
  wasm: weigh(["tool_palette_bg.wasm"]),
  "browser JS (browser.js + glue + api.js)": weigh(["browser.js", "tool_palette.js", "api.js"]),
  "workerd JS (workerd.js + glue + api.js)": weigh(["workerd.js", "tool_palette.js", "api.js"]),
  "node ESM JS (node.mjs + glue + api.js)": weigh(["node.mjs", "tool_palette.js", "api.js"]),
  "node CJS JS (node.cjs)": weigh(["node.cjs"]),
};
weights["wasm + browser JS"] = weigh(["tool_palette_bg.wasm", "browser.js", "tool_palette.js", "api.js"]);
mkdirSync(join(root, "target"), { recursive: true });
writeFileSync(join(root, "target", "weights.json"), JSON.stringify(weights, null, 2));
console.log("\nbuilt dist/ (tool-palette)\n");
console.log("  what                                         raw     gzip   brotli");
for (const [what, w] of Object.entries(weights)) {
  console.log(`  ${what.padEnd(40)} ${String(w.raw).padStart(8)} ${String(w.gzip).padStart(8)} ${String(w.brotli).padStart(8)}`);
}
statSync(join(dist, "node.cjs"));
