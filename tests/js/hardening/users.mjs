// Issue 30: the faults a hostile pass on the newest code found, one test each (each failed
// before its fix).
import { test, describe } from "node:test";
import assert from "node:assert/strict";

export function users(tp, label) {
  const { ToolIndex, ToolRouter, ToolPolicies, PaletteRun, resolvePalette } = tp;
  const TOOLS = [{ name: "a", description: "alpha" }, { name: "b", description: "beta" }];
  const VECTORS = [[1, 0, 0, 0, 0, 0], [0, 1, 0, 0, 0, 0]];
  class Lying extends Float32Array {
    get length() {
      return 3;
    }
  }
  class LyingBytes extends Uint8Array {
    get length() {
      return 3;
    }
  }

  describe(`typed arrays are read by what they hold, not by their getters (${label})`, () => {
    test("a vector whose length getter lies, as search's vector, a flat vectors array, or embed's answer", async () => {
      const index = new ToolIndex(TOOLS, { vectors: VECTORS });
      const v = new Lying(6);
      v[1] = 1;
      assert.deepEqual(index.search("zzz", { vector: v }).map((h) => h.name)[0], "b");
      assert.throws(() => index.search("alpha", { vector: new Lying(4) }), { name: "TypeError", message: "ToolIndex.search: options.vector has 4 numbers; the index's vectors have 6" });
      const flat = new Lying(12);
      flat[0] = 1;
      flat[7] = 1;
      assert.equal(new ToolIndex(TOOLS, { vectors: flat }).dimensions, 6);
      const errors = [];
      const embedded = new ToolIndex(TOOLS, { vectors: VECTORS, embed: () => new Lying(4), onEmbedError: (e) => errors.push(e.message) });
      assert.deepEqual(await embedded.entries("alpha"), [{ tool: "a" }]);
      assert.deepEqual(errors, ["ToolIndex: the vector embed(message) answered has 4 numbers; the index's vectors have 6"]);
    });

    test("ToolIndex.load: lying, detached and forged Uint8Arrays, and a length field of 0xFFFFFFFF", () => {
      const bytes = new ToolIndex(TOOLS).save();
      const lying = new LyingBytes(bytes.length);
      lying.set(bytes);
      assert.equal(ToolIndex.load(lying).size, 2);
      assert.throws(() => ToolIndex.load(Object.create(Uint8Array.prototype)), { name: "TypeError", message: "ToolIndex.load: bytes must be a Uint8Array (from index.save()), got an object" });
      const detached = new Uint8Array(8);
      structuredClone(detached.buffer, { transfer: [detached.buffer] });
      assert.throws(() => ToolIndex.load(detached), { name: "TypeError", message: "ToolIndex.load: bytes could not be read" });
      const forged = bytes.slice();
      new DataView(forged.buffer).setUint32(12, 0xffffffff, true);
      assert.throws(() => ToolIndex.load(forged), { name: "RangeError", message: `ToolIndex.load: bytes are truncated: ${forged.length} bytes of the ${24 + 0xffffffff} the snapshot needs` });
    });
  });

  test(`tools' vectors scaled by 1e-309 rank by their directions (${label})`, () => {
    const tiny = VECTORS.map((v) => v.map((x) => x * 1e-309));
    const index = new ToolIndex(TOOLS, { vectors: tiny });
    assert.equal(index.search("zzz", { vector: [0, 1, 0, 0, 0, 0] })[0].name, "b");
    assert.equal(index.search("zzz", { vector: [1, 0, 0, 0, 0, 0] })[0].name, "a");
  });

  test(`a row reader that grows the module's memory: activity is read first, the turn routes (${label})`, async () => {
    const grow = () => {
      const big = new ToolIndex(Array.from({ length: 20_000 }, (_, i) => ({ name: `t${i}`, description: `tool number ${i} ${"word ".repeat(20)}` })));
      big.dispose();
    };
    const seen = [];
    const outcome = await resolvePalette({
      registered: ["a", "b"],
      entries: () => [{ tool: "a", on: true }, { tool: "b", on: false }],
      isActive: (row) => (grow(), row.on),
      candidateOf: (row) => (seen.push(row.tool), row.tool),
    });
    assert.equal(outcome.kind, "routed");
    assert.deepEqual(outcome.names, ["a"]);
    assert.deepEqual(seen, ["a"], "candidates only for active rows");
  });

  test(`dispose(), size and dimensions on another object: a TypeError, 20,000 times, and the module serves on (${label})`, () => {
    const policies = new ToolPolicies([]);
    const index = new ToolIndex(TOOLS);
    const size = Object.getOwnPropertyDescriptor(ToolIndex.prototype, "size").get;
    const dimensions = Object.getOwnPropertyDescriptor(ToolIndex.prototype, "dimensions").get;
    for (let i = 0; i < 20_000; i++) {
      assert.throws(() => ToolRouter.prototype.dispose.call(policies), { name: "TypeError", message: "tool-palette: ToolRouter.prototype.dispose called on an object that is not a ToolRouter" });
      assert.throws(() => size.call(policies), TypeError);
      assert.throws(() => dimensions.call({}), TypeError);
      assert.throws(() => PaletteRun.prototype.step.call(index, undefined), TypeError);
    }
    // explain, like search, goes through the door.
    assert.throws(() => ToolIndex.prototype.explain.call(policies, "alpha"), { name: "TypeError", message: "tool-palette: ToolIndex.prototype.explain called on an object that is not a ToolIndex" });
    assert.equal(index.size, 2);
    assert.equal(ToolIndex.load(index.save()).size, 2);
    assert.deepEqual(index.search("alpha").map((h) => h.name), ["a"]);
    assert.equal(policies.selectModel({}).source, "default");
  });
}
