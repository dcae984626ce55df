// The TextDecoder fallback that scripts/build.mjs injects into the CommonJS builds (for
// Jest's jsdom environment, which has none): the same strings as the platform's own on the
// well-formed UTF-8 the module sends, and the builds working where the globals are missing.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { runInNewContext } from "node:vm";
import { Utf8Decoder } from "../../pkg-template/text-codec.js";
import { DIST } from "./lib/harness.mjs";

// A small deterministic generator (no Math.random: failures must replay).
function* random(seed) {
  let x = seed >>> 0;
  for (;;) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    yield (x >>> 0) / 2 ** 32;
  }
}

const UNITS = [0x41, 0x7f, 0x80, 0xe9, 0x7ff, 0x800, 0x20ac, 0xd7ff, 0xd800, 0xdbff, 0xdc00, 0xdfff, 0xe000, 0xfeff, 0xfffd, 0xffff, 0];

function text(rng, length) {
  let s = "";
  for (let i = 0; i < length; i++) {
    const r = rng.next().value;
    if (r < 0.5) s += String.fromCharCode(UNITS[Math.floor(rng.next().value * UNITS.length)]);
    else if (r < 0.7) s += String.fromCodePoint(0x10000 + Math.floor(rng.next().value * 0xfffff));
    else s += String.fromCharCode(Math.floor(rng.next().value * 0x10000));
  }
  return s;
}

test("decode agrees with the platform's TextDecoder on well-formed UTF-8 (what the module sends)", () => {
  const native = new TextDecoder("utf-8", { ignoreBOM: true });
  const fallback = new Utf8Decoder();
  for (let i = 0; i < 3000; i++) {
    const s = text(random(i), i % 40).toWellFormed();
    const bytes = new TextEncoder().encode(s);
    assert.equal(fallback.decode(bytes), native.decode(bytes), JSON.stringify(s));
  }
  assert.equal(fallback.decode(), "");
});

test("the CommonJS builds use the fallback where the globals are missing (a context without TextEncoder/TextDecoder)", async () => {
  for (const file of ["browser.cjs", "node.cjs"]) {
    if (!existsSync(join(DIST, file))) assert.fail(`${file} is not in the package`);
    const source = readFileSync(join(DIST, file), "utf8");
    const module = { exports: {} };
    // A context like jsdom's: the JavaScript built-ins (WebAssembly among them), atob, no
    // TextEncoder, TextDecoder, Buffer or process.
    const context = { module, exports: module.exports, require: () => assert.fail(`${file} requires a module`), atob, console, setTimeout, clearTimeout };
    runInNewContext(`${source}\n;globalThis.__codec = [typeof TextEncoder, typeof TextDecoder];`, context, { filename: file });
    assert.deepStrictEqual([...context.__codec], ["undefined", "undefined"], "the context really lacks them");
    const lib = module.exports;
    const policy = new lib.ToolCallPolicy({ name: "é-policy \u{1F600}", match: () => true, whenTool: ["web_search"] });
    assert.equal(policy.name, "é-policy \u{1F600}", `${file}: the caller's strings stay theirs`);
    assert.equal(policy.matchesTool("web_search"), true);
    // Names cross as UTF-16 and come back as the caller's own strings; a reason and an
    // explanation are built from the module's answers.
    const registered = ["café", "naïve_\u{1F600}", "plain"];
    const routed = await lib.resolvePalette({ entries: () => ["naïve_\u{1F600}", "café"], registered });
    assert.deepStrictEqual([...routed.names], ["naïve_\u{1F600}", "café"], `${file}: non-ASCII names routed`);
    const refused = await lib.resolvePalette({ entries: null, registered });
    assert.equal(refused.reason, "no procedural layer registered; allowing all tools", `${file}: a reason`);
    const index = new lib.ToolIndex([{ name: "get_weather", description: "weather in a city" }], { explain: true });
    assert.deepEqual(Array.from(index.explain("weather")[0].lexical.fields, (f) => f.field), ["name", "description"], `${file}: explain works`);
    // A snapshot's names over 8,192 code units: decoded in one go by the realm's decoder,
    // never by the UTF-8 stand-in (which would read "é" and what follows as one character).
    const many = Array.from({ length: 700 }, (_, i) => `tool_${i}_é_${"x".repeat(10)}`);
    const back = lib.ToolIndex.load(new lib.ToolIndex(many.map((name) => ({ name, description: "shared" }))).save());
    assert.deepStrictEqual(Array.from(back.search("shared", { limit: many.length }), (hit) => hit.name), many, `${file}: a snapshot's names come back exact`);
  }
});
