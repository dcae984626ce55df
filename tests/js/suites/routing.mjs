// resolvePalette: SPEC section 2, against whichever build of the package is handed in.
import { test, describe } from "node:test";
import assert from "node:assert/strict";

export const REASONS = {
  noLayer: "no procedural layer registered; allowing all tools",
  failed: (name) => `procedural retrieval failed (${name}); allowing all tools`,
  timedOut: (n) => `procedural retrieval timed out after ${n} ms; allowing all tools`,
  noSkills: "no skills in the procedural layer; allowing all tools",
  inactive: "every skill is inactive; allowing all tools",
  unresolved: "no skill resolved to a registered tool; allowing all tools",
};

const never = () => new Promise(() => {});

export function routing(tp) {
  const { resolvePalette, Routed, RoutingRefusal } = tp;
  const REG = ["search", "calendar", "mail"];
  const resolve = (entries, extra = {}) => resolvePalette({ entries, registered: REG, ...extra });

  describe("resolvePalette: the five refusals", () => {
    test("1: no procedural layer (null and undefined)", async () => {
      for (const entries of [null, undefined]) {
        const r = await resolve(entries);
        assert.ok(r instanceof RoutingRefusal);
        assert.equal(r.kind, "refused");
        assert.equal(r.reason, REASONS.noLayer);
        assert.deepEqual(r.unresolved, []);
      }
      const r = await resolvePalette({ registered: REG });
      assert.equal(r.reason, REASONS.noLayer);
    });

    test("2a: the thunk throws, rejects, or returns a non-iterable", async () => {
      class StoreDownError extends Error {
        name = "StoreDownError";
      }
      const cases = [
        [() => { throw new TypeError("x"); }, "TypeError"],
        [async () => { throw new StoreDownError("down"); }, "StoreDownError"],
        [() => Promise.reject(new DOMException("stop", "AbortError")), "AbortError"],
        [() => { throw "plain string"; }, "string"],
        [() => { throw 42; }, "number"],
        [() => { throw undefined; }, "undefined"],
        [() => { throw null; }, "object"],
        [() => { throw Object.create(null); }, "object"],
        [() => { throw { name: "" }; }, "Object"],
        [() => { throw new (class Custom { name = 7; })(); }, "Custom"],
        [() => { throw { get name() { throw new Error("no"); } }; }, "Object"],
        [() => 42, "TypeError"],
        [async () => ({ length: 1, 0: "search" }), "TypeError"],
        [() => ({ then: (ok, ko) => ko(new RangeError("thenable")) }), "RangeError"],
      ];
      for (const [entries, name] of cases) {
        const r = await resolve(entries);
        assert.equal(r.reason, REASONS.failed(name), `for ${entries}`);
        assert.deepEqual(r.unresolved, []);
      }
    });

    test("2a: a row that cannot be read (throwing getter, revoked proxy, throwing iterator, throwing reader)", async () => {
      const { proxy, revoke } = Proxy.revocable({}, {});
      revoke();
      const throwingTool = { active: true, get tool() { throw new SyntaxError("bad row"); } };
      const throwingActive = { get active() { throw new EvalError("bad flag"); } };
      function* broken() { yield "search"; throw new URIError("cursor lost"); }
      assert.equal((await resolve(async () => [throwingTool])).reason, REASONS.failed("SyntaxError"));
      assert.equal((await resolve(async () => [throwingActive])).reason, REASONS.failed("EvalError"));
      assert.equal((await resolve(async () => ["search", proxy])).reason, REASONS.failed("TypeError"));
      assert.equal((await resolve(async () => broken())).reason, REASONS.failed("URIError"));
      const reader = () => { throw new RangeError("reader"); };
      assert.equal((await resolve(async () => ["search"], { candidateOf: reader })).reason, REASONS.failed("RangeError"));
      assert.equal((await resolve(async () => ["search"], { isActive: reader })).reason, REASONS.failed("RangeError"));
    });

    test("2a: NAME keeps unusual names exactly", async () => {
      const name = "Store\uD800Err";
      const r = await resolve(() => { throw { name }; });
      assert.equal(r.reason, REASONS.failed(name));
    });

    test("2b: the budget elapses before the layer settles", async () => {
      assert.equal((await resolve(never, { timeoutMs: 5 })).reason, REASONS.timedOut(5));
      assert.equal((await resolve(never, { timeoutMs: 0 })).reason, REASONS.timedOut(0));
      assert.equal((await resolve(never, { timeoutMs: 1.5 })).reason, REASONS.timedOut(1.5));
    });

    test("2b: a budget the layer meets does not fire, even at 0 ms for synchronous rows", async () => {
      assert.deepEqual((await resolve(() => ["mail"], { timeoutMs: 0 })).names, ["mail"]);
      const slowEnough = () => new Promise((ok) => setTimeout(() => ok(["calendar"]), 5));
      assert.deepEqual((await resolve(slowEnough, { timeoutMs: 5000 })).names, ["calendar"]);
    });

    test("2b: a layer that settles after the timeout does no harm", async () => {
      let settle;
      const late = () => new Promise((ok, ko) => { settle = ko; });
      const r = await resolve(late, { timeoutMs: 1 });
      assert.equal(r.reason, REASONS.timedOut(1));
      settle(new Error("too late")); // must not surface as an unhandled rejection
      await new Promise((ok) => setTimeout(ok, 5));
      assert.deepEqual((await resolve(() => ["mail"])).names, ["mail"]);
    });

    test("3: no rows (null, undefined, empty array, empty iterable)", async () => {
      for (const rows of [null, undefined, [], new Set(), (function* () {})()]) {
        const r = await resolve(async () => rows);
        assert.equal(r.reason, REASONS.noSkills);
        assert.deepEqual(r.unresolved, []);
      }
      assert.equal((await resolve(() => null)).reason, REASONS.noSkills);
    });

    test("4: every row inactive", async () => {
      const r = await resolve(async () => [{ tool: "search", active: false }, { content: "mail", active: false }]);
      assert.equal(r.reason, REASONS.inactive);
      assert.deepEqual(r.unresolved, []);
    });

    test("5: nothing resolves, and the unresolved candidates come along", async () => {
      const r = await resolve(async () => [
        "Use the calendar when the user asks about dates",
        { tool: "ghost" },
        "ghost",
        42,
        null,
        "  ",
      ]);
      assert.equal(r.reason, REASONS.unresolved);
      assert.deepEqual(r.unresolved, ["Use the calendar when the user asks about dates", "ghost"]);
      assert.equal((await resolvePalette({ entries: () => ["a"], registered: [] })).reason, REASONS.unresolved);
    });
  });

  describe("resolvePalette: Routed", () => {
    test("names and unresolved in order of first appearance, once each", async () => {
      const r = await resolve(async () => [
        "mail",
        "prose one",
        { tool: " calendar " },
        { tool: "search", active: false },
        "mail",
        "prose one",
        { toolName: "ghost" },
        { content: "search" },
      ]);
      assert.ok(r instanceof Routed);
      assert.equal(r.kind, "routed");
      assert.deepEqual(r.names, ["mail", "calendar", "search"]);
      assert.deepEqual(r.unresolved, ["prose one", "ghost"]);
    });

    test("row readers: tool before toolName before content; only active: false turns a row off", async () => {
      const rows = [
        { tool: 1, toolName: "calendar", content: "mail" },
        { tool: "", toolName: "mail" },
        { content: "search", active: 0 },
        { tool: "mail", active: null },
        ["search"],
        17,
        true,
      ];
      const r = await resolve(async () => rows);
      assert.deepEqual(r.names, ["calendar", "search", "mail"]);
      assert.deepEqual(r.unresolved, []);
    });

    test("rows that are all non-candidates are active, so refusal 5 (not 4)", async () => {
      assert.equal((await resolve(async () => [17, ["mail"], null])).reason, REASONS.unresolved);
    });

    test("trimming is String.prototype.trim's: BOM is whitespace, U+0085 is not", async () => {
      const r = await resolvePalette({
        entries: () => ["\uFEFF\u3000mail\u2028", "\u0085mail", "\tsearch\n"],
        registered: ["mail", "search", "\u0085mail"],
      });
      assert.deepEqual(r.names, ["mail", "\u0085mail", "search"]);
      const u = await resolvePalette({ entries: () => [" \u0085ghost\u00A0"], registered: ["mail"] });
      assert.deepEqual(u.unresolved, ["\u0085ghost"]);
    });

    test("custom readers replace the defaults and are read the same way", async () => {
      const rows = [{ id: "mail", on: 1 }, { id: "search", on: 0 }, { id: 5, on: true }, { id: "calendar", on: "yes" }];
      const r = await resolve(async () => rows, { candidateOf: (row) => row.id, isActive: (row) => row.on });
      assert.deepEqual(r.names, ["mail", "calendar"]);
    });

    test("names are exact JS strings: unpaired surrogates neither collide nor get replaced", async () => {
      const r = await resolvePalette({
        entries: () => ["a\uD800", "a\uDC00", "a\uFFFD", "\uD83D\uDE00", "e\u0301"],
        registered: ["a\uDC00", "\uD83D\uDE00", "\u00E9"],
      });
      assert.deepEqual(r.names, ["a\uDC00", "\uD83D\uDE00"]);
      assert.deepEqual(r.unresolved, ["a\uD800", "a\uFFFD", "e\u0301"]);
      assert.equal(r.unresolved[0].charCodeAt(1), 0xd800);
    });

    test("__proto__, constructor, toString are ordinary names", async () => {
      const registered = ["__proto__", "constructor", "toString", "hasOwnProperty"];
      const r = await resolvePalette({ entries: () => ["toString", "__proto__", "valueOf", "constructor"], registered });
      assert.deepEqual(r.names, ["toString", "__proto__", "constructor"]);
      assert.deepEqual(r.unresolved, ["valueOf"]);
    });

    test("NUL, long names and many rows pass through unchanged", async () => {
      const long = "x".repeat(100_000);
      const nul = "a\u0000b";
      const r = await resolvePalette({ entries: () => [nul, long, "a"], registered: [long, nul] });
      assert.deepEqual(r.names, [nul, long]);
      assert.deepEqual(r.unresolved, ["a"]);
      const registered = Array.from({ length: 5000 }, (_, i) => `tool_${i}`);
      const rows = Array.from({ length: 3000 }, (_, i) => `tool_${(i * 7) % 6000}`);
      const big = await resolvePalette({ entries: () => rows, registered });
      const expected = [...new Set(rows)].filter((n) => registered.includes(n));
      assert.deepEqual(big.names, expected);
      assert.deepEqual(big.unresolved, [...new Set(rows)].filter((n) => !registered.includes(n)));
    });

    test("registered accepts any iterable of strings", async () => {
      const r = await resolvePalette({ entries: () => ["b"], registered: new Set(["a", "b"]) });
      assert.deepEqual(r.names, ["b"]);
      const g = await resolvePalette({ entries: () => ["b"], registered: (function* () { yield "b"; })() });
      assert.deepEqual(g.names, ["b"]);
    });
  });

  describe("resolvePalette: results", () => {
    test("are frozen, with frozen arrays, and survive JSON.stringify", async () => {
      const routed = await resolve(async () => ["mail", "ghost"]);
      const refused = await resolve(null);
      for (const r of [routed, refused]) {
        assert.ok(Object.isFrozen(r));
        assert.ok(Object.isFrozen(r.unresolved));
      }
      assert.ok(Object.isFrozen(routed.names));
      assert.throws(() => { "use strict"; routed.names.push("x"); }, TypeError);
      assert.equal(JSON.stringify(routed), '{"kind":"routed","names":["mail"],"unresolved":["ghost"]}');
      assert.equal(JSON.stringify(refused), `{"kind":"refused","reason":"${REASONS.noLayer}","unresolved":[]}`);
    });

    test("always a Promise, even for synchronous layers", () => {
      const p = resolve(() => ["mail"]);
      assert.ok(p instanceof Promise);
      return p;
    });
  });

  describe("resolvePalette: the caller's mistakes reject with a TypeError naming the argument", () => {
    const bad = [
      [undefined, /options/],
      [null, /options/],
      ["opts", /options/],
      [{ entries: "rows", registered: [] }, /options\.entries/],
      [{ entries: () => [] }, /options\.registered/],
      [{ entries: () => [], registered: 5 }, /options\.registered/],
      [{ entries: () => [], registered: "mail" }, /options\.registered/],
      [{ entries: () => [], registered: ["a", 2] }, /options\.registered\[1\]/],
      [{ entries: () => [], registered: [null] }, /options\.registered\[0\]/],
      [{ entries: () => [], registered: [], timeoutMs: -1 }, /options\.timeoutMs must be a finite number >= 0, got number \(-1\)/],
      [{ entries: () => [], registered: [], timeoutMs: NaN }, /options\.timeoutMs must be a finite number >= 0, got number \(NaN\)/],
      [{ entries: () => [], registered: [], timeoutMs: Infinity }, /options\.timeoutMs/],
      // The budget is checked by its own value, whatever number another option holds.
      [{ entries: () => [], registered: [], timeoutMs: -1, onDecision: 3 }, /^resolvePalette: options\.timeoutMs must be a finite number >= 0, got number \(-1\)$/],
      [{ entries: () => [], registered: [], timeoutMs: "10" }, /options\.timeoutMs/],
      [{ entries: () => [], registered: [], candidateOf: "tool" }, /options\.candidateOf/],
      [{ entries: () => [], registered: [], isActive: true }, /options\.isActive/],
      [{ entries: () => [], registered: [], signal: {} }, /options\.signal/],
      [{ entries: () => [], get registered() { throw new Error("getter"); } }, /options\.registered/],
    ];
    for (const [options, name] of bad) {
      test(`${name.source}`, async () => {
        let calls = 0;
        if (options && typeof options.entries === "function") {
          const inner = options.entries;
          options.entries = () => (calls++, inner());
        }
        await assert.rejects(resolvePalette(options), (e) => e instanceof TypeError && name.test(e.message));
        assert.equal(calls, 0, "the thunk must not be called when the arguments are wrong");
      });
    }

    test("the thunk is called exactly once on a good call", async () => {
      let calls = 0;
      await resolve(() => (calls++, ["mail"]));
      assert.equal(calls, 1);
    });
  });

  describe("resolvePalette: abort", () => {
    test("an already aborted signal rejects with its reason without calling the thunk", async () => {
      const reason = new Error("user left");
      let calls = 0;
      await assert.rejects(
        resolve(() => (calls++, ["mail"]), { signal: AbortSignal.abort(reason) }),
        (e) => e === reason,
      );
      assert.equal(calls, 0);
    });

    test("aborting while the layer is pending rejects with signal.reason", async () => {
      const ctl = new AbortController();
      const p = resolve(never, { signal: ctl.signal, timeoutMs: 10_000 });
      const reason = { why: "cancel" };
      setTimeout(() => ctl.abort(reason), 2);
      await assert.rejects(p, (e) => e === reason);
    });

    test("an abort after the turn settled changes nothing", async () => {
      const ctl = new AbortController();
      const r = await resolve(() => ["mail"], { signal: ctl.signal });
      ctl.abort();
      assert.deepEqual(r.names, ["mail"]);
    });
  });

  describe("resolvePalette: the module keeps working", () => {
    test("a failing call followed by a correct one, in the same instance", async () => {
      await assert.rejects(resolvePalette({ entries: () => [], registered: [1] }), TypeError);
      await resolve(() => { throw new Error("x"); });
      await resolve(never, { timeoutMs: 0 });
      const r = await resolve(() => ["search", "mail"]);
      assert.deepEqual(r.names, ["search", "mail"]);
    });

    test("many turns in flight never cross wires", async () => {
      const turns = Array.from({ length: 500 }, (_, i) =>
        resolvePalette({
          entries: () => new Promise((ok) => setTimeout(() => ok([`t${i}`, `t${i + 1}`, "x"]), i % 7)),
          registered: [`t${i}`, `t${i + 1}`],
        }),
      );
      const results = await Promise.all(turns);
      results.forEach((r, i) => {
        assert.deepEqual(r.names, [`t${i}`, `t${i + 1}`]);
        assert.deepEqual(r.unresolved, ["x"]);
      });
    });

    test("a thunk that itself resolves a palette", async () => {
      const r = await resolvePalette({
        registered: ["outer"],
        entries: async () => {
          const inner = await resolvePalette({ entries: () => ["inner"], registered: ["inner"] });
          return inner.names.map(() => "outer");
        },
      });
      assert.deepEqual(r.names, ["outer"]);
    });
  });
}
