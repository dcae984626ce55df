// The TextEncoder/TextDecoder fallback that scripts/build.mjs injects into the CommonJS
// builds (for Jest's jsdom environment, which has neither): the same bytes and strings as
// the platform's own, on well-formed text, unpaired surrogates, malformed UTF-8 and
// buffers too small for encodeInto.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { runInNewContext } from "node:vm";
import { Utf8Decoder, Utf8Encoder } from "../../pkg-template/text-codec.js";
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

test("encode and encodeInto agree with the platform's TextEncoder", () => {
  const rng = random(7);
  const native = new TextEncoder();
  const fallback = new Utf8Encoder();
  for (let i = 0; i < 3000; i++) {
    const s = text(rng, Math.floor(rng.next().value * 24));
    assert.deepStrictEqual(fallback.encode(s), native.encode(s), JSON.stringify(s));
    const size = Math.floor(rng.next().value * (s.length * 3 + 2));
    const a = new Uint8Array(size);
    const b = new Uint8Array(size);
    assert.deepStrictEqual(fallback.encodeInto(s, a), native.encodeInto(s, b), `encodeInto ${JSON.stringify(s)} into ${size}`);
    assert.deepStrictEqual(a, b);
  }
});

test("decode agrees with the platform's TextDecoder on any bytes, with and without ignoreBOM", () => {
  const rng = random(11);
  const interesting = [0x00, 0x41, 0x7f, 0x80, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xa0, 0xed, 0x9f, 0xef, 0xbb, 0xf0, 0x90, 0xf4, 0x8f, 0xf5, 0xff];
  for (const ignoreBOM of [true, false]) {
    const native = new TextDecoder("utf-8", { ignoreBOM });
    const fallback = new Utf8Decoder("utf-8", { ignoreBOM });
    for (let i = 0; i < 5000; i++) {
      const bytes = Uint8Array.from({ length: Math.floor(rng.next().value * 16) }, () =>
        rng.next().value < 0.7 ? interesting[Math.floor(rng.next().value * interesting.length)] : Math.floor(rng.next().value * 256),
      );
      if (i % 7 === 0 && bytes.length >= 3) bytes.set([0xef, 0xbb, 0xbf]);
      assert.equal(fallback.decode(bytes), native.decode(bytes), `${ignoreBOM} ${[...bytes].map((b) => b.toString(16))}`);
    }
    const long = new TextEncoder().encode(text(random(3), 20_000));
    assert.equal(fallback.decode(long), native.decode(long), "a long text, decoded in chunks");
    assert.equal(fallback.decode(), "");
  }
  assert.throws(() => new Utf8Decoder("utf-8", { fatal: true }).decode(Uint8Array.of(0xff)), TypeError);
  assert.throws(() => new Utf8Decoder("latin1"), RangeError);
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
    assert.equal(policy.name, "é-policy \u{1F600}", `${file}: text crosses the module both ways`);
    assert.equal(policy.matchesTool("web_search"), true);
    // Names go in as UTF-8 (encodeInto), reasons come out of the module as text (decode).
    const registered = ["café", "naïve_\u{1F600}", "plain"];
    const routed = await lib.resolvePalette({ entries: () => ["naïve_\u{1F600}", "café"], registered });
    assert.deepStrictEqual([...routed.names], ["naïve_\u{1F600}", "café"], `${file}: non-ASCII names routed`);
    const refused = await lib.resolvePalette({ entries: null, registered });
    assert.equal(refused.reason, "no procedural layer registered; allowing all tools", `${file}: a reason decoded`);
  }
});
