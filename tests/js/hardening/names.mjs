// Issue 7, "exact names": names are compared and returned as exact JavaScript strings,
// and trimming is String.prototype.trim, checked over every BMP code unit.
import { test, describe } from "node:test";
import assert from "node:assert/strict";

const REFUSED_5 = "no skill resolved to a registered tool; allowing all tools";

export function names(tp, label) {
  const { resolvePalette, ToolRouter, bindPalette, activeTools, Routed, ToolCallPolicy, ToolPolicies } = tp;

  describe(`exact names (${label})`, () => {
    test("trimming is String.prototype.trim for every BMP code unit (as prefix, suffix and alone)", async () => {
      // One row per code unit c: `c + marker + c`, so every trimmed candidate is distinct
      // and comes back in `unresolved`; plus c alone, which trims to nothing unless c is
      // not whitespace. The package's trim is observable only through those names.
      const rows = [];
      for (let c = 0; c <= 0xffff; c++) {
        const ch = String.fromCharCode(c);
        rows.push(`${ch}#${c.toString(36)}${ch}`);
        rows.push(ch);
      }
      const r = await resolvePalette({ entries: () => rows, registered: ["not-a-row"] });
      assert.equal(r.reason, REFUSED_5);
      const expected = [];
      const seen = new Set();
      for (const row of rows) {
        const t = row.trim();
        if (t !== "" && !seen.has(t)) {
          seen.add(t);
          expected.push(t);
        }
      }
      assert.equal(r.unresolved.length, expected.length);
      const wrong = [];
      for (let i = 0; i < expected.length; i++) {
        if (r.unresolved[i] !== expected[i]) wrong.push(expected[i].charCodeAt(0).toString(16));
      }
      assert.deepEqual(wrong, [], "code units trimmed differently from String.prototype.trim");
      // The two the issue names: BOM is whitespace to JS, NEL is not.
      const trims = await resolvePalette({ entries: () => ["\uFEFFcal\uFEFF", "\u0085cal\u0085"], registered: ["cal"] });
      assert.deepEqual([...trims.names], ["cal"]);
      assert.deepEqual([...trims.unresolved], ["\u0085cal\u0085"]);
    });

    test("a registered name is found through every JS whitespace, and only through it", async () => {
      const ws = [];
      for (let c = 0; c <= 0xffff; c++) if (String.fromCharCode(c).trim() === "") ws.push(String.fromCharCode(c));
      const rows = ws.map((w) => `${w}${w}tool${w}`);
      const r = await resolvePalette({ entries: () => rows, registered: ["tool"] });
      assert.deepEqual([...r.names], ["tool"]);
      assert.deepEqual([...r.unresolved], []);
    });

    test("unpaired surrogates neither collide nor change", async () => {
      const hi = "a\uD800";
      const lo = "a\uDC00";
      const registered = [hi, lo, "a\uFFFD", "\uD83D\uDE00", "\uDE00\uD83D"];
      const r = await resolvePalette({ entries: () => [lo, "a\uDBFF", "\uDE00\uD83D", ` ${hi} `], registered });
      assert.deepEqual([...r.names], [lo, "\uDE00\uD83D", hi]);
      assert.deepEqual([...r.unresolved], ["a\uDBFF"]);
      for (const n of [...r.names, ...r.unresolved]) assert.equal(n.isWellFormed(), n === "\uD83D\uDE00");
      // A lone surrogate is not U+FFFD: no candidate resolves to "a\uFFFD".
      const none = await resolvePalette({ entries: () => [hi, lo], registered: ["a\uFFFD"] });
      assert.equal(none.reason, REFUSED_5);
      assert.deepEqual([...none.unresolved], [hi, lo]);
    });

    test("NUL, emoji, combining marks and lookalikes are ordinary, distinct names", async () => {
      const registered = ["a\0b", "a", "\u{1F4C5}calendar", "caf\u00E9", "cafe\u0301", "\u0000", "Σ", "ς"];
      const rows = ["a\0b", "a\0", "cafe\u0301", "\u{1F4C5}calendar", "\0", "σ", "ς", "CAFÉ"];
      const r = await resolvePalette({ entries: () => rows, registered });
      assert.deepEqual([...r.names], ["a\0b", "cafe\u0301", "\u{1F4C5}calendar", "\0", "ς"]);
      assert.deepEqual([...r.unresolved], ["a\0", "σ", "CAFÉ"]);
    });

    test("100 KB names route, come back unchanged, and differ by their last unit", async () => {
      const base = "n".repeat(100_000);
      const a = `${base}a`;
      const b = `${base}b`;
      const lone = `${base}\uD800`;
      const r = await resolvePalette({ entries: () => [` ${b}\n`, lone, `${base}c`], registered: [a, b, lone] });
      assert.deepEqual([...r.names].map((n) => n.length), [100_001, 100_001]);
      assert.equal(r.names[0], b);
      assert.equal(r.names[1], lone);
      assert.equal(r.unresolved[0], `${base}c`);
      const policy = new ToolCallPolicy({ name: a, match: () => true, whenTool: [b], redirectTo: lone });
      assert.equal(policy.matchesTool(b), true);
      assert.equal(policy.matchesTool(a), false);
      const d = new ToolPolicies([policy]).dispatch({ name: b, args: {} }, {}, new Routed([lone]));
      assert.equal(d.call.name, lone);
      assert.equal(d.redirectedBy, a);
    });

    const PROTO = ["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf", "__defineGetter__", "prototype", "then"];

    test("__proto__ and friends route like any name", async () => {
      const r = await resolvePalette({ entries: () => [...PROTO, "ghost", "__proto__"], registered: PROTO });
      assert.deepEqual([...r.names], PROTO);
      assert.deepEqual([...r.unresolved], ["ghost"]);
      const none = await resolvePalette({ entries: () => PROTO, registered: ["other"] });
      assert.deepEqual([...none.unresolved], PROTO);
      // As row fields too: a row object whose tool is "__proto__".
      const rows = JSON.parse('[{"tool":"__proto__"},{"toolName":"constructor"},{"content":"toString"}]');
      const fromObjects = await resolvePalette({ entries: () => rows, registered: PROTO });
      assert.deepEqual([...fromObjects.names], ["__proto__", "constructor", "toString"]);
      const router = new ToolRouter({ entries: () => ["constructor"], registered: PROTO });
      assert.deepEqual(activeTools(await router.resolve()), ["constructor"]);
    });

    test("__proto__ and friends in bindPalette records and arrays", () => {
      const tools = JSON.parse('{"__proto__":{"id":1},"constructor":{"id":2},"toString":{"id":3},"mail":{"id":4}}');
      assert.equal(Object.keys(tools).length, 4);
      const out = bindPalette(tools, new Routed(["__proto__", "toString"]));
      assert.deepEqual(Object.keys(out), ["__proto__", "toString"]);
      assert.equal(Object.getPrototypeOf(out), Object.prototype, "the record keeps an ordinary prototype");
      assert.equal(Object.getOwnPropertyDescriptor(out, "__proto__").value, tools.__proto__ ?? Object.getOwnPropertyDescriptor(tools, "__proto__").value);
      assert.equal(out.toString, tools.toString);
      const nullProto = Object.assign(Object.create(null), { constructor: 1, valueOf: 2 });
      const out2 = bindPalette(nullProto, new Routed(["valueOf"]));
      assert.equal(Object.getPrototypeOf(out2), null);
      assert.deepEqual(Object.keys(out2), ["valueOf"]);
      const arr = PROTO.map((name) => ({ name }));
      assert.deepEqual(bindPalette(arr, new Routed(["then", "__proto__"])), [arr[0], arr[7]]);
    });

    test("__proto__ and friends as policy names, whenTool, redirectTo and call names", () => {
      const policies = PROTO.map(
        (name, i) => new ToolCallPolicy({ name, match: () => true, whenTool: [PROTO[(i + 1) % PROTO.length]], redirectTo: name, model: { i } }),
      );
      const set = new ToolPolicies(policies, { onWarning: () => {} });
      assert.deepEqual(set.policies.map((p) => p.name), PROTO);
      assert.equal(set.selectModel({}).policy, "__proto__");
      // "constructor" is covered by the policy named "__proto__" (whenTool: ["constructor"]).
      const d = set.dispatch({ name: "constructor", args: {} }, {}, PROTO);
      assert.equal(d.redirectedBy, "__proto__");
      assert.equal(d.call.name, "__proto__");
      assert.equal(policies[0].matchesTool("constructor"), true);
      assert.equal(policies[0].matchesTool("__proto__"), false);
      assert.equal(new ToolCallPolicy({ name: "x", match: () => true, whenTool: "toString" }).matchesTool("toString"), true);
      assert.throws(() => new ToolPolicies([{ name: "__proto__", match: () => true }, { name: "__proto__", match: () => false }]), /policies\[1\] reuses/);
      // Gated: a redirect to "__proto__" outside the palette is dropped.
      const dropped = set.dispatch({ name: "constructor" }, {}, new Routed(["constructor"]));
      assert.equal(dropped.dropped.target, "__proto__");
      assert.equal(dropped.call.name, "constructor");
    });

    test("names in warnings and reasons keep their exact units", async () => {
      const name = "\uD800 StoreDown \u0000";
      const r = await resolvePalette({ entries: () => { throw { name }; }, registered: ["a"] });
      assert.equal(r.reason, `procedural retrieval failed (${name}); allowing all tools`);
      const warnings = [];
      const set = new ToolPolicies([{ name: "p\uDC00", match: () => true, redirectTo: "t\uD800" }], { onWarning: (w) => warnings.push(w) });
      const d = set.dispatch({ name: "o\uDFFF" }, {}, ["t\uDC00"]);
      assert.equal(d.dropped.target, "t\uD800");
      assert.ok(d.dropped.reason.includes('"t\uD800"') && d.dropped.reason.includes('"o\uDFFF"'));
      assert.equal(warnings[0].policy, "p\uDC00");
    });
  });
}
