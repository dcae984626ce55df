// Builds the publishable package into dist/: the wasm (wasm-pack, then wasm-opt from
// the npm package binaryen), the wasm-bindgen glue, the thin runtime entries from
// pkg-template/ (see the exports map in pkg-template/package.json), the CommonJS bundles
// for require(), the single file for CDNs, and the types. Prints the weights.
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, renameSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync, brotliCompressSync, constants } from "node:zlib";
import { build } from "esbuild";
import { shortenImports, trapAtPanic, WASM_OPT_ARGS } from "./wasm-edit.mjs";
import { checkHeap } from "./heap-check.mjs";

const root = new URL("..", import.meta.url).pathname;
// Assembled in target/ and moved into place at the end, so that dist/ is never half-built.
// The folders are this process's own: two builds at once (two terminals, a test run
// beside a build) cannot delete each other's work; the last to finish wins.
const final = join(root, "dist");
const dist = join(root, "target", `dist-next-${process.pid}`);
const stage = join(root, "target", `wasm-pack-${process.pid}`);
// Whatever happens, this build leaves no folder of its own behind.
process.on("exit", () => {
  for (const dir of [dist, stage]) rmSync(dir, { recursive: true, force: true });
});
const bin = (name) => join(root, "node_modules", ".bin", name);
const run = (cmd, args) => execFileSync(cmd, args, { cwd: root, stdio: "inherit" });

run("wasm-pack", [
  "build", "--target", "web", "--release", "--no-pack",
  "--out-dir", stage, "--out-name", "tool_palette",
]);

// The allocator calls nothing once it has begun to change the heap (scripts/heap-check.mjs).
checkHeap(join(root, "target", "wasm32-unknown-unknown", "release", "tool_palette.wasm"), bin("wasm-dis"));

rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });

// The panic handler traps at once (see scripts/wasm-edit.mjs): the trap panic = "abort"
// ends in anyway, without the message formatting that only it reached.
writeFileSync(join(stage, "tool_palette_bg.wasm"), trapAtPanic(readFileSync(join(stage, "tool_palette_bg.wasm"))));
run(bin("wasm-opt"), [join(stage, "tool_palette_bg.wasm"), ...WASM_OPT_ARGS, "-o", join(dist, "tool_palette_bg.wasm")]);
// The glue, with these changes, each checked so that a new wasm-bindgen cannot slip past:
// - no default wasm URL: every entry hands the module over itself, and the default's
//   `new URL("tool_palette_bg.wasm", import.meta.url)` would make bundlers for Node emit
//   an asset nobody loads, and esbuild warn about import.meta in CommonJS and iife output;
// - the wasm's imports renamed without wasm-bindgen's hashes, in the glue and the wasm
//   at once (scripts/wasm-edit.mjs);
// - initSync takes a compiled module from another realm as one: Next.js runs edge routes
//   in a vm context and hands the `.wasm?module` import over as the outer realm's
//   WebAssembly.Module, which `instanceof` does not recognise (it would be recompiled from
//   "bytes" and fail); WebAssembly.Instance itself accepts it;
// - nothing else: TextDecoder stays the global (the CommonJS builds below get a fallback
//   for environments without it, see pkg-template/text-codec.js).
{
  const glue = readFileSync(join(stage, "tool_palette.js"), "utf8");
  const once = (text, what) => {
    if (glue.split(text).length !== 2) throw new Error(`build: the glue's ${what} was not found once; check scripts/build.mjs against this wasm-bindgen`);
  };
  const defaultUrl = "module_or_path = new URL('tool_palette_bg.wasm', import.meta.url);";
  const moduleCheck = "if (!(module instanceof WebAssembly.Module)) {";
  once(defaultUrl, "default wasm URL");
  once(moduleCheck, "initSync module check");
  const patched = glue
    .replace(defaultUrl, 'throw new TypeError("tool-palette: no WebAssembly module given");')
    .replace(moduleCheck, 'if (!(module instanceof WebAssembly.Module) && Object.prototype.toString.call(module) !== "[object WebAssembly.Module]") {');
  if (patched.includes("import.meta")) throw new Error("build: the glue still uses import.meta");
  // The import names without wasm-bindgen's hashes, in the wasm and the glue at once.
  const short = shortenImports(readFileSync(join(dist, "tool_palette_bg.wasm")), patched);
  writeFileSync(join(dist, "tool_palette_bg.wasm"), short.wasm);
  writeFileSync(join(dist, "tool_palette.js"), short.glue);
}

const template = join(root, "pkg-template");
// Copied as they are (node.mjs is bundled from them below; deliver.js is the adapters' too).
for (const file of ["package.json", "README.md", "LICENSE", "deliver.js", "state.js", "node.mjs"]) {
  cpSync(join(template, file), join(dist, file));
}
// The binding's JavaScript half, beside its Rust half: the facade of each area, what they
// share (host.js) and the tables both halves read (wire.js, generated from wire.rs).
const { readdirSync } = await import("node:fs");
for (const file of readdirSync(join(root, "src", "js")).filter((f) => f.endsWith(".js"))) cpSync(join(root, "src", "js", file), join(dist, file));
// The types: src/js/tool-palette.d.ts, the one declaration of the public API; the build
// fails when it declares other values than api.js exports (the tests hold the classes'
// members to it, and compile typed usage against it).
const own = readFileSync(join(root, "src", "js", "tool-palette.d.ts"), "utf8").trim();
{
  const api = readFileSync(join(root, "src", "js", "api.js"), "utf8");
  const exported = [...api.matchAll(/export \{([^}]*)\}/g)].flatMap((m) => m[1].split(",").map((name) => name.trim())).sort();
  const declared = [...own.matchAll(/^export (?:declare )?(?:function|class|const) (\w+)/gm)].map((m) => m[1]).sort();
  if (exported.join() !== declared.join()) throw new Error(`build: src/js/tool-palette.d.ts declares ${declared.join(", ")}; api.js exports ${exported.join(", ")}`);
}
// Every entry (tool-palette and tool-palette/init alike) exports `ready` and `init`.
const loading = `/**
 * Settles when the WebAssembly module is instantiated. Already settled when the module was
 * loaded on import: in Node.js, Deno, Bun, Workers and edge runtimes, and through the default browser
 * entry (top-level await). Through tool-palette/init in browsers (and require() under the
 * browser condition, and the CDN file), it settles later, and rejects when the module
 * cannot load (a network error, a Content-Security-Policy without 'wasm-unsafe-eval');
 * a call made before it settles throws an Error that says so (the calls that return
 * promises, \`resolvePalette\` and \`router.resolve\`, reject with it).
 */
export declare const ready: Promise<void>;
/** Returns {@link ready}; calling it again starts nothing new. */
export declare function init(): Promise<void>;`;
writeFileSync(join(dist, "index.d.ts"), `${own}\n\n${loading}\n`);
// Framework adapters (subpath exports such as tool-palette/ai-sdk), when there are any.
if (existsSync(join(template, "adapters"))) {
  const adapters = join(dist, "adapters");
  cpSync(join(template, "adapters"), adapters, { recursive: true });
  // Their require() twins: each adapter bundled with its helpers into one .cjs, and its
  // declarations as .d.cts (relative imports pointed at the .cjs/.d.cts siblings).
  await build({
    entryPoints: readdirSync(adapters).filter((f) => f.endsWith(".js")).map((f) => join(adapters, f)),
    outdir: adapters, outExtension: { ".js": ".cjs" }, bundle: true, format: "cjs", platform: "neutral", target: "node20", logLevel: "warning",
    // The adapters reach the package through its own name: require("tool-palette") at run
    // time, the one instance the consumer's require() loads too.
    external: ["tool-palette", "tool-palette/*"],
  });
  for (const f of readdirSync(adapters).filter((f) => f.endsWith(".d.ts"))) {
    const types = readFileSync(join(adapters, f), "utf8").replace(/(from "\.\.?\/[^"]*)\.js"/g, '$1.cjs"');
    writeFileSync(join(adapters, f.replace(/\.d\.ts$/, ".d.cts")), types);
  }
}
// tool-palette/node (pkg-template/node/): what only Node.js does, a folder of skills read
// (readSkills). As an adapter: the package reached through its own name, its require()
// twin bundled with the package external, its declarations as .d.cts.
{
  const node = join(dist, "node");
  cpSync(join(template, "node"), node, { recursive: true });
  await build({
    entryPoints: [join(node, "index.js")],
    outdir: node, outExtension: { ".js": ".cjs" }, bundle: true, format: "cjs", platform: "node", target: "node20", logLevel: "warning",
    external: ["tool-palette", "tool-palette/*"],
  });
  const types = readFileSync(join(node, "index.d.ts"), "utf8").replace(/(from "\.\.?\/[^"]*)\.js"/g, '$1.cjs"');
  writeFileSync(join(node, "index.d.cts"), types);
}
// require() gets the same declarations, as a CommonJS module for moduleResolution node16.
cpSync(join(dist, "index.d.ts"), join(dist, "index.d.cts"));
// The wasm as base64 in a JavaScript module, for the entries that cannot fetch or read a
// file: node.mjs and node.cjs (which bundlers for Node fold into one file), browser.cjs,
// the CDN file, and browser.js/init.js when the bundler did not emit the wasm beside its
// output (esbuild has no `new URL(…, import.meta.url)` asset support); see load.js.
writeFileSync(
  join(dist, "wasm-inline.js"),
  "// tool_palette_bg.wasm as base64, generated by scripts/build.mjs.\n" +
    `const base64 = "${readFileSync(join(dist, "tool_palette_bg.wasm")).toString("base64")}";\n` +
    "export default base64;\n" +
    "// The bytes, with nothing but the language: Uint8Array.fromBase64 where it exists (native),\n" +
    "// else decoded here (no atob, Buffer or TextDecoder: a vm context or a bare realm has none).\n" +
    "export function bytes() {\n" +
    "  if (typeof Uint8Array.fromBase64 === \"function\") return Uint8Array.fromBase64(base64);\n" +
    "  const digit = new Uint8Array(128);\n" +
    "  for (let i = 0; i < 64; i++) digit[\"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/\".charCodeAt(i)] = i;\n" +
    "  const n = base64.length;\n" +
    "  const out = new Uint8Array(((n * 3) >> 2) - (base64.endsWith(\"==\") ? 2 : base64.endsWith(\"=\") ? 1 : 0));\n" +
    "  for (let i = 0, j = 0; i < n; i += 4) {\n" +
    "    const v = (digit[base64.charCodeAt(i)] << 18) | (digit[base64.charCodeAt(i + 1)] << 12) | (digit[base64.charCodeAt(i + 2)] << 6) | digit[base64.charCodeAt(i + 3)];\n" +
    "    out[j++] = v >> 16;\n" +
    "    if (j < out.length) out[j++] = (v >> 8) & 255;\n" +
    "    if (j < out.length) out[j++] = v & 255;\n" +
    "  }\n" +
    "  return out;\n" +
    "}\n",
);

// The exported classes and functions keep their names (classes print as Routed,
// RoutingRefusal, ToolRouter, …) in every bundle, Node's and the browsers': given back by
// `named` rather than by esbuild's keepNames, which names every function of the bundle
// (1.1 KB of gzip). Anonymous ones stay anonymous.
const named = (entry) =>
  readFileSync(join(template, entry), "utf8") +
  '\nimport * as api from "./api.js";\n' +
  'for (const [name, value] of Object.entries({ ...api, init })) if (typeof value === "function" && value.name !== "") Object.defineProperty(value, "name", { value: name });\n';
// The same entry unbundled, for the resource tests only (not in the package): they read
// the wasm memory of the very instance it uses, through the glue module it imports.
cpSync(join(template, "node.mjs"), join(dist, "node-modules.mjs"));
// node.mjs, one ES module (the glue, api.js, host.js and the inline wasm bundled in): Node
// loads one file instead of seven, which takes about 5 ms off a cold start (measured: the
// bench's cold start, 1.22x to 1.15x the baseline's). The framework adapters reach this
// one instance through the package's self-reference.
await build({
  stdin: { contents: named("node.mjs"), resolveDir: dist, sourcefile: "node.mjs" },
  outfile: join(dist, "node.mjs"),
  allowOverwrite: true,
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node20",
  logLevel: "warning",
  logOverride: { "duplicate-object-key": "silent" },
  banner: { js: "// tool-palette node.mjs: generated by scripts/build.mjs from pkg-template/node.mjs, the wasm-bindgen glue, api.js and the inline wasm" },
});

// The CommonJS builds, each one file: node.cjs (require() under Node) and browser.cjs
// (require() under the browser condition: Jest's jsdom environment, webpack). Both carry
// the inline wasm and a TextDecoder fallback that is used only where the
// globals are missing (jsdom has neither).
const codec = join(template, "text-codec.js");
for (const [entry, outfile, platform] of [
  ["node.cjs.mjs", "node.cjs", "node"],
  ["browser.cjs.mjs", "browser.cjs", "neutral"],
]) {
  await build({
    // Resolved inside dist/ so that it bundles the very glue and api.js shipped beside it.
    stdin: { contents: readFileSync(join(template, entry), "utf8"), resolveDir: dist, sourcefile: entry },
    outfile: join(dist, outfile),
    bundle: true,
    format: "cjs",
    platform,
    target: platform === "node" ? "node20" : "es2022",
    inject: [codec],
    logLevel: "warning",
    logOverride: { "duplicate-object-key": "silent" },
    banner: { js: `// tool-palette ${outfile}: generated by scripts/build.mjs from pkg-template/${entry}, the wasm-bindgen glue, api.js and the inline wasm` },
  });
}

// Browsers and Workers load one minified module each (the glue and api.js bundled in):
// fewer bytes over the wire and fewer requests. The wasm (and the inline fallback) stay
// separate files, and each default entry stays a few lines over its tool-palette/init (one
// instance behind both subpaths): browser.js over init.js, browser-asset.js over
// init-asset.js (for bundlers that emit the .wasm as an asset). The browsers' loader is
// bundled in, never shipped on its own.
cpSync(join(template, "load.js"), join(dist, "load.js"));
const over = { "browser.js": "./init.js", "browser-asset.js": "./init-asset.js" };
for (const entry of ["init.js", "init-asset.js", "browser.js", "browser-asset.js", "workerd.js", "edge.js"]) {
  await build({
    // browser.js bundles no api.js of its own: it re-exports init.js's.
    stdin: { contents: over[entry] ? readFileSync(join(template, entry), "utf8") : named(entry), resolveDir: dist, sourcefile: entry },
    outfile: join(dist, entry),
    allowOverwrite: true,
    bundle: true,
    format: "esm",
    platform: "neutral",
    target: "es2022",
    minify: true,
    external: ["./tool_palette_bg.wasm", "./tool_palette_bg.wasm?module", "./wasm-inline.js", ...(over[entry] ? [over[entry]] : [])],
    logLevel: "warning",
    // The glue lists host.js once per import group in the wasm's import object: harmless.
    logOverride: { "duplicate-object-key": "silent" },
    legalComments: "none",
    banner: { js: `// tool-palette ${entry}: generated by scripts/build.mjs from pkg-template/${entry}${over[entry] ? "" : ", the wasm-bindgen glue and api.js"}` },
  });
}

rmSync(join(dist, "load.js"));

// The single file for CDNs: <script src=".../tool-palette.iife.js"> defines the global
// ToolPalette (the API, ToolPalette.ready and ToolPalette.init), wasm inlined.
await build({
  stdin: { contents: named("cdn.js"), resolveDir: dist, sourcefile: "cdn.js" },
  outfile: join(dist, "tool-palette.iife.js"),
  bundle: true,
  format: "iife",
  globalName: "ToolPalette",
  platform: "browser",
  target: "es2022",
  minify: true,
  logLevel: "warning",
  logOverride: { "duplicate-object-key": "silent" },
  legalComments: "none",
  banner: { js: "// tool-palette for <script> tags and CDNs (global ToolPalette; await ToolPalette.ready): generated by scripts/build.mjs" },
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
// The browser entries load the .wasm itself; the others carry it (inline, or as
// wrangler's separate module).
const weights = {
  wasm: weigh(["tool_palette_bg.wasm"]),
  "browser JS (browser.js + init.js)": weigh(["browser.js", "init.js"]),
  "browser JS, tool-palette/init (init.js)": weigh(["init.js"]),
  "asset bundlers JS (browser-asset.js + init-asset.js)": weigh(["browser-asset.js", "init-asset.js"]),
  "workerd JS (workerd.js, bundled)": weigh(["workerd.js"]),
  "edge JS (edge.js, bundled)": weigh(["edge.js"]),
  "node ESM (node.mjs, inline wasm)": weigh(["node.mjs"]),
  "node CJS (node.cjs, inline wasm)": weigh(["node.cjs"]),
  "browser CJS (browser.cjs, inline wasm)": weigh(["browser.cjs"]),
  "CDN file (tool-palette.iife.js, all in)": weigh(["tool-palette.iife.js"]),
};
weights["wasm + browser JS"] = weigh(["tool_palette_bg.wasm", "browser.js", "init.js"]);
weights["wasm + init JS"] = weigh(["tool_palette_bg.wasm", "init.js"]);
mkdirSync(join(root, "target"), { recursive: true });
writeFileSync(join(root, "target", "weights.json"), JSON.stringify(weights, null, 2));
// Swapped in with two renames (dist/ is missing only between them), the old one removed after.
const old = join(root, "target", `dist-old-${process.pid}`);
if (existsSync(final)) renameSync(final, old);
renameSync(dist, final);
rmSync(old, { recursive: true, force: true });
rmSync(stage, { recursive: true, force: true });
console.log("\nbuilt dist/ (tool-palette)\n");
console.log(`  ${"what".padEnd(60)}      raw     gzip   brotli`);
for (const [what, w] of Object.entries(weights)) {
  console.log(`  ${what.padEnd(60)} ${String(w.raw).padStart(8)} ${String(w.gzip).padStart(8)} ${String(w.brotli).padStart(8)}`);
}
