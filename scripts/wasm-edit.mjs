// The edits of the wasm that scripts/build.mjs makes, byte for byte, each checked so that a
// new Rust or wasm-bindgen that changes what they rely on fails the build instead of
// shipping a module that does something else:
// - `trapAtPanic`: the panic handler traps at once. With panic = "abort" every panic ends
//   in a trap after std formats its message for a hook that prints nowhere on
//   wasm32-unknown-unknown; trapping at the handler's first instruction is the same trap,
//   and lets wasm-opt drop the formatting machinery that only the message reached
//   (`PANIC_ONLY` below). Then the panic locations go blank (`blankPanicLocations`):
//   the source file, line and column of each place that can panic, which only the
//   handler's message read, are zeros (955 gzip bytes less, measured).
// - `shortenImports`: wasm-bindgen names each import `__wbg_<name>_<16 hex digits>` under
//   the module "./tool_palette_bg.js"; the digits are incompressible and come twice (the
//   wasm's import section and the glue's import object). They become `<name>` (`<name>2`,
//   … when two share a name) under the module "w", in the wasm and in the glue at once.

// wasm-opt's arguments after the input (scripts/build.mjs; bench/run.mjs builds a variant
// the same way). The features rustc emits for wasm32 today: wasm-opt must be told it may
// keep them. -ocimfs 20: a function is inlined into its one caller only when it is small
// (-Oz inlines them whatever their size): measured 2.1 KB of gzip smaller than the default,
// 0.5 KB smaller than no such inlining (-ocimfs 0), which made small turns 5-11% slower;
// this is within 4% of the default's speed. --converge: repeated until the size stops
// falling. --low-memory-unused: the module's first 1 KB of memory is never used (rustc lays
// the shadow stack out first, growing down from 1 MiB to 0, and the data after it), so an
// address computed as a pointer plus a small constant can fold the constant into the
// load's or store's offset: 206 gzip bytes less, the small turns and ToolIndex unchanged
// (measured in one process, Intel Xeon). The custom sections go: names, producers, and
// the target features (read by tools before wasm-opt, by nothing at run time).
export const WASM_OPT_ARGS = [
  "--low-memory-unused", "-Oz", "-ocimfs", "20", "--converge", "--strip-debug", "--strip-producers", "--strip-target-features",
  "--enable-bulk-memory", "--enable-nontrapping-float-to-int", "--enable-sign-ext",
  "--enable-reference-types", "--enable-multivalue", "--enable-mutable-globals",
  // SIMD: only ToolIndex's vector search uses it (src/search/vectors.rs, one function with
  // `target_feature(enable = "simd128")`); every runtime the package supports has it.
  "--enable-simd",
];

const fail = (what) => {
  throw new Error(`build: ${what}; check scripts/wasm-edit.mjs against this toolchain`);
};

function leb(bytes, at) {
  let value = 0;
  let shift = 0;
  for (;;) {
    const b = bytes[at++];
    value += (b & 0x7f) * 2 ** shift;
    shift += 7;
    if (b < 0x80) return [value, at];
  }
}

function encodeLeb(value) {
  const out = [];
  do {
    let b = value % 128;
    value = Math.floor(value / 128);
    if (value > 0) b |= 0x80;
    out.push(b);
  } while (value > 0);
  return out;
}

const utf8 = new TextDecoder("utf-8", { fatal: true });
const encodeName = (name) => {
  const bytes = [...new TextEncoder().encode(name)];
  return [...encodeLeb(bytes.length), ...bytes];
};

// A cursor over `bytes`.
const reader = (bytes, at) => ({
  at,
  leb() {
    let value;
    [value, this.at] = leb(bytes, this.at);
    return value;
  },
  name() {
    const length = this.leb();
    const text = utf8.decode(bytes.subarray(this.at, this.at + length));
    this.at += length;
    return text;
  },
});

// The module's sections: { id, start (of the id byte), body, end }.
function sections(wasm) {
  if (wasm[0] !== 0 || wasm[1] !== 0x61 || wasm[2] !== 0x73 || wasm[3] !== 0x6d) fail("not a wasm module");
  const out = [];
  for (let at = 8; at < wasm.length; ) {
    const [size, body] = leb(wasm, at + 1);
    out.push({ id: wasm[at], start: at, body, end: body + size });
    at = body + size;
  }
  return out;
}

// The import section's entries: { module, field, desc (the bytes after the names) }.
function readImports(wasm, section) {
  const r = reader(wasm, section.body);
  const limits = () => {
    const flags = wasm[r.at++];
    r.leb();
    if (flags & 1) r.leb();
  };
  const entries = [];
  for (let count = r.leb(); count > 0; count--) {
    const module = r.name();
    const field = r.name();
    const from = r.at;
    const kind = wasm[r.at++];
    if (kind === 0) r.leb(); // a function: its type
    else if (kind === 1) (r.at++, limits()); // a table: its element type, its limits
    else if (kind === 2) limits(); // a memory
    else if (kind === 3) r.at += 2; // a global: its value type (one byte for numbers and references), mutability
    else if (kind === 4) (r.at++, r.leb()); // a tag
    else fail(`unknown import kind ${kind}`);
    entries.push({ module, field, desc: wasm.subarray(from, r.at) });
  }
  if (r.at !== section.end) fail("the import section was not read to its end");
  return entries;
}

const splice = (wasm, section, id, content) =>
  new Uint8Array([...wasm.subarray(0, section.start), id, ...encodeLeb(content.length), ...content, ...wasm.subarray(section.end)]);

// What panics reach once the handler traps, and nothing else: the handler itself, the
// vtable methods of the payloads only it builds, and the Display/Debug impls that only
// panic messages format (a thread-local accessed after its destruction). They stay in the
// function table through their vtables; as traps, the formatting machinery behind them
// (core::fmt) is left unreachable and wasm-opt drops it.
// Names as the name section spells them: legacy (`::h<hash>`) and v0 (`core[<hash>]`) alike.
export const PANIC_ONLY = [
  /(?:^|::)rust_begin_unwind(?:::h[0-9a-f]{16})?$/,
  /::(?:begin_)?panic_handler::FormatStringPayload as core(?:\[\w+\])?::panic::PanicPayload>::take_box(?:::h[0-9a-f]{16})?$/,
  /::(?:begin_)?panic_handler::FormatStringPayload as core(?:\[\w+\])?::panic::PanicPayload>::get(?:::h[0-9a-f]{16})?$/,
  /::(?:begin_)?panic_handler::FormatStringPayload as core(?:\[\w+\])?::fmt::Display>::fmt(?:::h[0-9a-f]{16})?$/,
  /::(?:begin_)?panic_handler::StaticStrPayload as core(?:\[\w+\])?::panic::PanicPayload>::take_box(?:::h[0-9a-f]{16})?$/,
  /::(?:begin_)?panic_handler::StaticStrPayload as core(?:\[\w+\])?::panic::PanicPayload>::get(?:::h[0-9a-f]{16})?$/,
  /::(?:begin_)?panic_handler::StaticStrPayload as core(?:\[\w+\])?::panic::PanicPayload>::as_str(?:::h[0-9a-f]{16})?$/,
  /::(?:begin_)?panic_handler::StaticStrPayload as core(?:\[\w+\])?::fmt::Display>::fmt(?:::h[0-9a-f]{16})?$/,
  /<std(?:\[\w+\])?::thread::local::AccessError as core(?:\[\w+\])?::fmt::Debug>::fmt(?:::h[0-9a-f]{16})?$/,
];

/** The wasm with the body of each function named like one of `patterns` replaced by a trap (needs the name section; the first pattern must name exactly one function, each other one at most one). */
export function trapAtPanic(wasm, patterns = PANIC_ONLY) {
  const all = sections(wasm);
  const imports = all.find((s) => s.id === 2);
  const importedFunctions = imports ? readImports(wasm, imports).filter((e) => e.desc[0] === 0).length : 0;
  // The "name" custom section, subsection 1: the functions' names by index.
  const found = patterns.map(() => []);
  for (const s of all.filter((s) => s.id === 0)) {
    const r = reader(wasm, s.body);
    if (r.name() !== "name") continue;
    while (r.at < s.end) {
      const sub = wasm[r.at++];
      const end = r.leb() + r.at;
      if (sub === 1) {
        for (let count = r.leb(); count > 0; count--) {
          const index = r.leb();
          const name = r.name();
          patterns.forEach((p, i) => p.test(name) && found[i].push(index));
        }
      }
      r.at = end;
    }
  }
  // The handler must be there; a method a new Rust renamed only costs weight (said here).
  patterns.forEach((p, i) => {
    if (found[i].length > 1 || (found[i].length === 0 && i === 0)) fail(`${found[i].length} functions named like ${p}, not one`);
    if (found[i].length === 0) console.warn(`build: no function named like ${p} to trap (a new Rust?): the wasm keeps what it reaches`);
  });
  const local = new Set(found.flat().map((index) => index - importedFunctions));
  if ([...local].some((i) => i < 0)) fail("a function to trap is an import");
  const code = all.find((s) => s.id === 10) ?? fail("no code section");
  const r = reader(wasm, code.body);
  const count = r.leb();
  const content = [...wasm.subarray(code.body, r.at)];
  for (let i = 0; i < count; i++) {
    const from = r.at;
    const size = r.leb();
    r.at += size;
    // No locals, `unreachable`, `end`: valid whatever the function's type.
    if (local.has(i)) content.push(3, 0, 0x00, 0x0b);
    else for (let at = from; at < r.at; at++) content.push(wasm[at]);
  }
  if (r.at !== code.end) fail("the code section was not read to its end");
  return blankPanicLocations(splice(wasm, code, 10, content));
}

/**
 * The wasm with every panic location blank: each `core::panic::Location` in the data
 * (`{ file: &str, line: u32, col: u32 }`, 16 bytes: the file's address and length, then a
 * line and a column that are not 0) and the file names they point at, zeroed. Only the
 * panic handler reads them, and it traps at once (`trapAtPanic`); wasm-opt then drops the
 * zero runs from the data. The data must be active segments at constant offsets, as rustc
 * writes them for wasm32.
 */
export function blankPanicLocations(wasm) {
  const section = sections(wasm).find((s) => s.id === 11);
  if (!section) return wasm;
  const out = new Uint8Array(wasm);
  const r = reader(wasm, section.body);
  const segments = [];
  for (let count = r.leb(); count > 0; count--) {
    if (wasm[r.at++] !== 0 || wasm[r.at++] !== 0x41) fail("a data segment that is not active at an i32.const offset");
    const address = r.leb();
    if (address >= 2 ** 31 || wasm[r.at++] !== 0x0b) fail("a data segment offset that is not a small constant");
    const length = r.leb();
    segments.push({ address, at: r.at, length });
    r.at += length;
  }
  if (r.at !== section.end) fail("the data section was not read to its end");
  // Where `length` bytes at `address` are in the file, or -1.
  const inFile = (address, length) => {
    const s = segments.find((s) => address >= s.address && address + length <= s.address + s.length);
    return s ? s.at + address - s.address : -1;
  };
  const view = new DataView(out.buffer);
  const files = [];
  for (const s of segments) {
    for (let address = Math.ceil(s.address / 4) * 4; address + 16 <= s.address + s.length; address += 4) {
      const at = s.at + address - s.address;
      const [file, length, line, col] = [0, 4, 8, 12].map((k) => view.getUint32(at + k, true));
      if (length < 4 || length > 512 || line === 0 || line > 1e6 || col === 0 || col > 1e4) continue;
      const name = inFile(file, length);
      if (name < 0 || !/^[\x20-\x7e]+\.rs$/.test(String.fromCharCode(...wasm.subarray(name, name + length)))) continue;
      out.fill(0, at, at + 16);
      files.push([name, length]);
    }
  }
  if (files.length === 0) fail("no panic location found in the data");
  for (const [name, length] of files) out.fill(0, name, name + length);
  return out;
}

/** The wasm and the glue with the glue's imports renamed consistently: { wasm, glue, count }. */
export function shortenImports(wasm, glue, module = "./tool_palette_bg.js", short = "w") {
  const section = sections(wasm).find((s) => s.id === 2) ?? fail("the wasm has no import section");
  const renamed = new Map();
  const taken = new Set();
  const entries = readImports(wasm, section).map((e) => {
    if (e.module !== module) return e;
    const base = e.field.replace(/^__wbg_(.+)_[0-9a-f]{16}$/, "$1").replace(/^__wbindgen_/, "");
    let field = base;
    for (let n = 2; taken.has(field); n++) field = `${base}${n}`;
    taken.add(field);
    renamed.set(e.field, field);
    return { module: short, field, desc: e.desc };
  });
  if (renamed.size === 0) fail(`no import from "${module}"`);
  // The glue: the import object's key for the module, and each function's key, once each.
  let out = glue;
  const once = (from, to) => {
    const parts = out.split(from);
    if (parts.length !== 2) fail(`the glue has ${parts.length - 1} occurrences of ${JSON.stringify(from)}, not one`);
    out = parts.join(to);
  };
  once(`"${module}": import0,`, `"${short}": import0,`);
  for (const [from, to] of renamed) once(`        ${from}: function(`, `        ${JSON.stringify(to)}: function(`);
  if (out.includes(module)) fail(`the glue still names "${module}"`);
  if (/__wbg_\w+_[0-9a-f]{16}\b/.test(out)) fail("the glue still has a hashed import name");
  const content = [...encodeLeb(entries.length)];
  for (const e of entries) content.push(...encodeName(e.module), ...encodeName(e.field), ...e.desc); // each a few bytes
  return { wasm: splice(wasm, section, 2, content), glue: out, count: renamed.size };
}
