// The wasm and its glue as the package ships them, from wasm-bindgen's output (scripts/build.mjs;
// bench/run.mjs builds a variant the same way). Every edit is made by a maintained tool on the
// module's or the glue's structure, never on their bytes or their text: binaryen (npm
// `binaryen`, its JavaScript API and its wasm-opt) reads the module, esbuild parses the glue.
// Measured each on its own (gzip of the .wasm plus the browser entry, tool-palette/init,
// bundled and minified; issue 42):
// - `PANIC_ONLY`: the panic handler and what only it reaches trap at once (2,048 gzip bytes).
// - the imports renamed (`renameImports`: 1,038 gzip bytes with the glue's keys).
// - the default wasm URL: wasm-bindgen's own --omit-default-module-path (Cargo.toml).
// - wasm-opt's arguments (`WASM_OPT_ARGS`).
// What the old patcher (scripts/wasm-edit.mjs, retired) did besides: zero every 16 bytes of the
// data that looked like a panic location (983 gzip bytes), by a scan that a false match would
// have corrupted data with; gone: no stable compiler option drops them (`-Zlocation-detail`
// is nightly's).
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import binaryen from "binaryen";
import { transform } from "esbuild";

// Cargo's arguments for the wasm's build: the crates.io sources' folders (CARGO_HOME's
// registry/src/<index>/) left out of the paths compiled in, which panic locations keep for
// their files: the module is the same whatever the machine's CARGO_HOME (rustflags given here
// are added to .cargo/config.toml's).
const registry = join(process.env.CARGO_HOME ?? join(homedir(), ".cargo"), "registry", "src");
export const CARGO_ARGS = [
  "--config",
  `target.wasm32-unknown-unknown.rustflags = ${JSON.stringify((existsSync(registry) ? readdirSync(registry) : []).flatMap((index) => ["--remap-path-prefix", `${join(registry, index)}/=`]))}`,
];

// wasm-opt's arguments after the input. The features rustc emits for wasm32 today: wasm-opt
// must be told it may keep them. -ocimfs 20: a function is inlined into its one caller only
// when it is small (-Oz inlines them whatever their size): measured 2.1 KB of gzip smaller than
// the default, 0.5 KB smaller than no such inlining (-ocimfs 0), which made small turns 5-11%
// slower; this is within 4% of the default's speed. --flatten --rereloop, then -Oz again: the
// control flow rebuilt by binaryen's relooper from the flattened code (what -Oz made of it
// first), which lays out branches more compactly than LLVM's structurizer left them: 505 gzip
// bytes less (wasm 70,213 -> 69,708; raw 157,580 -> 156,364), the small turns unchanged (the
// worst, ToolRouter.resolve 10,000 x 50, 1.82x -> 1.86x the baseline, 9.14 -> 9.03 us; paired
// runs of bench --turns, Intel Xeon 2 cores), wasm-opt 19 s -> 23 s. --converge: repeated until the size stops
// falling. --low-memory-unused: the module's first 1 KB of memory is never used (rustc lays the
// shadow stack out first, growing down from 1 MiB to 0, and the data after it), so an address
// computed as a pointer plus a small constant can fold the constant into the load's or store's
// offset: 206 gzip bytes less, the small turns and ToolIndex unchanged (measured in one process,
// Intel Xeon). The custom sections go: names, producers, and the target features (read by tools
// before wasm-opt, by nothing at run time).
export const WASM_OPT_ARGS = [
  "--low-memory-unused", "-Oz", "--flatten", "--rereloop", "-Oz", "-ocimfs", "20", "--converge", "--strip-debug", "--strip-producers", "--strip-target-features",
  "--enable-bulk-memory", "--enable-nontrapping-float-to-int", "--enable-sign-ext",
  "--enable-reference-types", "--enable-multivalue", "--enable-mutable-globals",
  // SIMD: only ToolIndex's vector search uses it (src/search/vectors.rs, one function with
  // `target_feature(enable = "simd128")`); every runtime the package supports has it.
  "--enable-simd",
];
// The same features for binaryen's JavaScript API (no others: it would write, say, compact
// imports, which engines do not read yet).
const FEATURES = ((F) => F.MutableGlobals | F.NontrappingFPToInt | F.SIMD128 | F.BulkMemory | F.BulkMemoryOpt | F.SignExt | F.ReferenceTypes | F.Multivalue | F.CallIndirectOverlong)(binaryen.Features);

// What panics reach, and nothing else, by the names wasm-bindgen's name section gives them
// (crate hashes left out): the handler, and the methods of the payloads only it builds, which
// stay in the function table through their vtables. With panic = "abort" every panic ends in a
// trap after std has formatted its message for a hook that prints nowhere on
// wasm32-unknown-unknown; trapping at the handler is that trap, and leaves the formatting
// machinery (core::fmt, reached only from these) to wasm-opt to drop. A name missing fails the
// build: a new Rust is checked here before it ships. Measured: 2,048 gzip bytes, 1,849 of them
// the payloads' methods (the handler alone: 199).
export const PANIC_ONLY = [
  "__rustc::rust_begin_unwind",
  ...["FormatStringPayload", "StaticStrPayload"].flatMap((payload) => [
    `<std::panicking::panic_handler::${payload} as core::panic::PanicPayload>::take_box`,
    `<std::panicking::panic_handler::${payload} as core::panic::PanicPayload>::get`,
    `<std::panicking::panic_handler::${payload} as core::fmt::Display>::fmt`,
  ]),
  "<std::panicking::panic_handler::StaticStrPayload as core::panic::PanicPayload>::as_str",
];
// A function's name without the crates' disambiguators (`std[a543996e6e7dbf1e]` is `std`).
const plain = (name) => name.replace(/\[[0-9a-f]{16}\]/g, "");

const fail = (what) => {
  throw new Error(`build: ${what}; check scripts/wasm-finish.mjs against this toolchain`);
};

// Short names for the imports: a, b, …, Z, $, _, aa, ba, …
const ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ$_";
const shortName = (n) => {
  let name = "";
  do name += ALPHABET[n % ALPHABET.length], n = Math.floor(n / ALPHABET.length); while (n > 0);
  return name;
};

/**
 * The module with the functions of `PANIC_ONLY` trapping and the imports from `module` (the
 * glue's) renamed: `{ wasm, names }`, the new name of each old one (the module's too). The
 * functions are found by the name section and replaced through binaryen's API; the imports are
 * removed and added again in their order (their indices stay), each under `short` with a
 * name of one or two characters instead of wasm-bindgen's `__wbg_<name>_<16 hex digits>`,
 * which come twice (the module and the glue) and do not compress.
 */
export function edit(wasm, { module = "./tool_palette_bg.js", short = "w", trap = PANIC_ONLY, rename = true } = {}) {
  const mod = binaryen.readBinary(wasm);
  try {
    mod.setFeatures(FEATURES);
    const imports = [];
    const found = new Map();
    for (let i = 0; i < mod.getNumFunctions(); i++) {
      const ref = mod.getFunctionByIndex(i);
      const info = binaryen.getFunctionInfo(ref);
      if (info.module !== "") imports.push(info);
      else if (trap.includes(plain(info.name))) {
        if (found.has(plain(info.name))) fail(`two functions named ${plain(info.name)}`);
        found.set(plain(info.name), ref);
      }
    }
    for (const name of trap) if (!found.has(name)) fail(`no function named ${name} (the panic machinery: a new Rust?)`);
    for (const ref of found.values()) binaryen.Function.setBody(ref, mod.unreachable());
    const names = { [module]: short };
    let n = 0;
    for (const info of rename ? imports : []) {
      const ours = info.module === module;
      if (ours) names[info.base] = shortName(n++);
      mod.removeFunction(info.name);
      mod.addFunctionImport(info.name, ours ? short : info.module, ours ? names[info.base] : info.base, info.params, info.results);
    }
    if (rename && n === 0) fail(`no import from "${module}"`);
    if (!mod.validate()) fail("the edited module does not validate");
    return { wasm: mod.emitBinary(), names: rename ? names : {} };
  } finally {
    mod.dispose();
  }
}

/** The glue with the keys of its import object renamed by `names` (esbuild's property renaming: the parsed glue's keys, quoted or not, and nothing else). */
export async function renameKeys(glue, names) {
  const escape = (text) => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  const { code } = await transform(glue, {
    format: "esm",
    mangleProps: new RegExp(`^(?:${Object.keys(names).map(escape).join("|")})$`),
    mangleQuoted: true,
    mangleCache: { ...names },
    logLevel: "silent",
  });
  return code;
}

/**
 * wasm-bindgen's module and glue as shipped: edited (`edit`), optimised by wasm-opt
 * (`WASM_OPT_ARGS`), and the glue's import keys renamed the same way. `wasmOpt` is the
 * binary's path; `options` are `edit`'s (bench/run.mjs --edits leaves each edit out to weigh it).
 * (A key and an import that disagree fail at instantiation: every suite.)
 */
export async function finish(wasm, glue, wasmOpt, options = {}) {
  const edited = edit(wasm, options);
  const dir = mkdtempSync(join(tmpdir(), "tool-palette-wasm-"));
  try {
    writeFileSync(join(dir, "in.wasm"), edited.wasm);
    execFileSync(wasmOpt, [join(dir, "in.wasm"), ...WASM_OPT_ARGS, "-o", join(dir, "out.wasm")], { stdio: "inherit" });
    return { wasm: readFileSync(join(dir, "out.wasm")), glue: Object.keys(edited.names).length ? await renameKeys(glue, edited.names) : glue };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
