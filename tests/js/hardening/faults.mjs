// Issue 13: the faults a hostile caller or store found, one test each (the heavy scenarios,
// each in a child process, are in tests/resources/).
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { REASONS } from "./matrix.mjs";

const MAX_NAMES = 1_048_576;
const MAX_UNITS = 8_388_608;
const never = () => new Promise(() => {});

// An object that behaves like an AbortSignal, with hooks to break each part of it.
function signalLike({ aborted = false, reason = "stop", add, remove } = {}) {
  const listeners = new Set();
  const s = {
    aborted,
    get reason() {
      if (typeof reason === "function") return reason();
      return reason;
    },
    addEventListener(type, listener) {
      if (add) add();
      listeners.add(listener);
    },
    removeEventListener(type, listener) {
      listeners.delete(listener);
      if (remove) remove();
    },
    fire() {
      s.aborted = true;
      for (const l of listeners) l();
    },
    listeners,
  };
  return s;
}

export function faults(tp, label) {
  const { resolvePalette, ToolRouter, ToolPolicies, ToolCallPolicy, Routed } = tp;
  const ok = async () => {
    const r = await resolvePalette({ entries: () => ["a", "ghost"], registered: ["a", "b"] });
    assert.deepEqual([...r.names], ["a"]);
    assert.deepEqual([...r.unresolved], ["ghost"]);
  };

  describe(`limits (${label})`, () => {
    test("a store answer too large to route is refusal 2a (RangeError), and the next turn is exact", async () => {
      const huge = "x".repeat(1e6);
      const r = await resolvePalette({ entries: () => Array(1100).fill(huge), registered: ["a"] });
      assert.equal(r.reason, REASONS.failed("RangeError"));
      const router = new ToolRouter({ entries: async () => Array(MAX_NAMES + 1).fill("a"), registered: ["a"] });
      assert.equal((await router.resolve()).reason, REASONS.failed("RangeError"));
      await ok();
    });

    test("an endless iterable is read one item past the limit, then refused as too large", async () => {
      let pulled = 0;
      const forever = (f) => (function* () { for (;;) yield f(pulled++); })();
      await assert.rejects(resolvePalette({ entries: () => [], registered: forever((i) => `t${i}`) }), (e) => e instanceof RangeError && /options\.registered is too large/.test(e.message));
      assert.equal(pulled, MAX_NAMES + 1);
      pulled = 0;
      assert.equal((await resolvePalette({ entries: () => forever(() => "a"), registered: ["a"] })).reason, REASONS.failed("RangeError"));
      assert.equal(pulled, MAX_NAMES + 1);
      assert.throws(() => new ToolPolicies([{ name: "p", match: () => true, whenTool: forever(() => "x") }]), (e) => e instanceof RangeError && /whenTool is too large/.test(e.message));
      await ok();
    });

    test("the limits hold exactly: 1,048,576 names and 8,388,608 code units pass, one more does not", async () => {
      const names = Array(MAX_NAMES).fill("a");
      assert.deepEqual([...(await resolvePalette({ entries: () => names, registered: ["a"] })).names], ["a"]);
      names.push("a");
      assert.equal((await resolvePalette({ entries: () => names, registered: ["a"] })).reason, REASONS.failed("RangeError"));
      const long = "y".repeat(MAX_UNITS);
      const r = await resolvePalette({ entries: () => [long], registered: ["a"] });
      assert.equal(r.unresolved[0].length, MAX_UNITS);
      assert.equal((await resolvePalette({ entries: () => [long, "z"], registered: ["a"] })).reason, REASONS.failed("RangeError"));
      // A thrown name too large to carry is the same kind of store answer.
      const named = await resolvePalette({ entries: () => { throw { name: long + long }; }, registered: ["a"] });
      assert.equal(named.reason, REASONS.failed("RangeError"));
    });

    test("property: around the limits, a turn is refused (2a) exactly when it is over one", async () => {
      // A seeded walk over row counts and name lengths on both sides of both limits.
      let seed = 12345;
      const rand = (n) => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0), (seed >>> 8) % n);
      for (let k = 0; k < 16; k++) {
        const count = MAX_NAMES - 3 + rand(7);
        const long = k % 2 === 0; // half the cases probe the units limit instead
        const rows = long ? ["a", "b".repeat(MAX_UNITS - 4 + rand(7))] : Array(count).fill("a");
        const units = long ? 1 + rows[1].length : count;
        const over = (long ? 2 : count) > MAX_NAMES || units > MAX_UNITS;
        const r = await resolvePalette({ entries: () => rows, registered: ["a"] });
        if (over) assert.equal(r.reason, REASONS.failed("RangeError"), `count ${rows.length}, units ${units}`);
        else assert.equal(r.kind, "routed", `count ${rows.length}, units ${units}`);
      }
      await ok();
    });

    test("a caller's argument beyond the limits is a RangeError naming it", async () => {
      const tooMany = Array(MAX_NAMES + 1).fill("t");
      await assert.rejects(resolvePalette({ entries: () => [], registered: tooMany }), (e) => e instanceof RangeError && /resolvePalette: options\.registered is too large/.test(e.message));
      assert.throws(() => new ToolRouter({ entries: () => [], registered: tooMany }), (e) => e instanceof RangeError && /ToolRouter: options\.registered/.test(e.message));
      const tooLong = "n".repeat(MAX_UNITS + 1);
      assert.throws(() => new ToolCallPolicy({ name: tooLong, match: () => true }), (e) => e instanceof RangeError && /ToolCallPolicy: name/.test(e.message));
      assert.throws(() => new ToolCallPolicy({ name: "p", match: () => true, redirectTo: tooLong }), (e) => e instanceof RangeError && /"p": redirectTo/.test(e.message));
      const set = new ToolPolicies([{ name: "p", match: () => true, redirectTo: "b" }]);
      assert.throws(() => set.dispatch({ name: tooLong }, {}), (e) => e instanceof RangeError && /dispatch: call\.name/.test(e.message));
      assert.throws(() => set.dispatch({ name: "a" }, {}, tooMany), (e) => e instanceof RangeError && /dispatch: palette/.test(e.message));
      assert.throws(() => tp.bindPalette(tooMany.map((name) => ({ name })), new Routed(["t"])), (e) => e instanceof RangeError && /bindPalette: tools/.test(e.message));
      await ok();
    });

    test("a registered list too large to index leaves the last index working", async () => {
      const list = ["a", "b"];
      assert.deepEqual([...(await resolvePalette({ entries: () => ["a"], registered: list })).names], ["a"]);
      await assert.rejects(resolvePalette({ entries: () => ["a"], registered: Array(MAX_NAMES + 1).fill("a") }), RangeError);
      assert.deepEqual([...(await resolvePalette({ entries: () => ["b"], registered: list })).names], ["b"]);
    });
  });

  describe(`signals checked as the platform would (${label})`, () => {
    test("a signal-like object lacking part of AbortSignal is a TypeError up front, before entries", async () => {
      let calls = 0;
      const entries = () => (calls++, ["a"]);
      const partial = [
        { aborted: false, addEventListener() {} },
        { aborted: false, removeEventListener() {} },
        { aborted: "no", addEventListener() {}, removeEventListener() {} },
        { addEventListener() {}, removeEventListener() {} },
      ];
      for (const signal of partial) {
        await assert.rejects(resolvePalette({ entries, registered: ["a"], signal }), (e) => e instanceof TypeError && /options\.signal/.test(e.message));
        const router = new ToolRouter({ entries, registered: ["a"] });
        await assert.rejects(router.resolve({ signal }), (e) => e instanceof TypeError && /options\.signal/.test(e.message));
      }
      assert.equal(calls, 0);
    });

    test("a complete signal-like object works: abort rejects with its reason, settling removes the listener", async () => {
      const s = signalLike({ reason: "user left" });
      const p = resolvePalette({ entries: never, registered: ["a"], signal: s });
      assert.equal(s.listeners.size, 1);
      s.fire();
      await assert.rejects(p, (e) => e === "user left");
      assert.equal(s.listeners.size, 0);
      const quiet = signalLike();
      assert.deepEqual([...(await resolvePalette({ entries: async () => ["a"], registered: ["a"], signal: quiet })).names], ["a"]);
      assert.equal(quiet.listeners.size, 0);
    });

    test("whatever the signal throws later, the turn settles with a TypeError whose cause is what it threw", async () => {
      const boom = new Error("reason getter");
      // Aborted before the call, with a reason that cannot be read.
      const early = signalLike({ aborted: true, reason: () => { throw boom; } });
      await assert.rejects(resolvePalette({ entries: () => ["a"], registered: ["a"], signal: early }), (e) => e instanceof TypeError && e.cause === boom);
      // Aborted while the store is pending, with a reason that cannot be read.
      const late = signalLike({ reason: () => { throw boom; } });
      const p = resolvePalette({ entries: never, registered: ["a"], timeoutMs: 60_000, signal: late });
      late.fire();
      await assert.rejects(p, (e) => e instanceof TypeError && e.cause === boom);
      // addEventListener throws: nothing is left armed (the budget's timer is stopped).
      const addBoom = new Error("add");
      await assert.rejects(
        resolvePalette({ entries: never, registered: ["a"], timeoutMs: 60_000, signal: signalLike({ add: () => { throw addBoom; } }) }),
        (e) => e instanceof TypeError && e.cause === addBoom,
      );
      // removeEventListener throws once the store answered.
      const removeBoom = new Error("remove");
      await assert.rejects(
        resolvePalette({ entries: async () => ["a"], registered: ["a"], signal: signalLike({ remove: () => { throw removeBoom; } }) }),
        (e) => e instanceof TypeError && e.cause === removeBoom,
      );
      await ok();
    });
  });

  describe(`memory comes back on dispose() (${label})`, () => {
    test("ToolCallPolicy has dispose() and [Symbol.dispose]; matchesTool after dispose() throws, its fields stay", () => {
      const p = new ToolCallPolicy({ name: "p", match: () => true, whenTool: ["a", "b"] });
      assert.equal(p.matchesTool("a"), true);
      p.dispose();
      p.dispose();
      assert.throws(() => p.matchesTool("a"), /matchesTool\(\) after dispose\(\)/);
      assert.deepEqual([...p.whenTool], ["a", "b"]);
      if (typeof Symbol.dispose === "symbol") {
        for (const C of [ToolCallPolicy, ToolPolicies, ToolRouter]) assert.equal(C.prototype[Symbol.dispose], C.prototype.dispose);
      }
      assert.equal(ToolRouter.prototype.free, undefined, "no free() that a frozen instance cannot run");
    });
  });

  describe(`the caller's objects are never changed (${label})`, () => {
    test("argsTransform receives a copy of args of the same shape, whatever that shape", () => {
      class Query {
        constructor(q) {
          this.q = q;
        }
      }
      const shapes = [
        ["plain", () => ({ q: 1 })],
        ["null prototype", () => Object.assign(Object.create(null), { q: 1 })],
        ["array", () => [1, 2]],
        ["class instance", () => new Query(1)],
      ];
      for (const [what, make] of shapes) {
        const args = make();
        const before = JSON.stringify(args);
        const proto = Object.getPrototypeOf(args);
        let seen;
        const set = new ToolPolicies([
          {
            name: "t",
            match: () => true,
            redirectTo: "b",
            argsTransform: (a) => {
              seen = a;
              if (Array.isArray(a)) a.push(3);
              else a.q = "changed";
              return { ok: true };
            },
          },
        ]);
        set.dispatch({ name: "a", args }, {});
        assert.notEqual(seen, args, what);
        assert.equal(Object.getPrototypeOf(seen), proto, `${what}: the copy keeps the prototype`);
        assert.equal(JSON.stringify(args), before, `${what}: the caller's args are unchanged`);
      }
    });
  });

  describe(`argsTransform's answer, judged in the core's order (${label})`, () => {
    test("argsTransform's answer: a thenable (an object's or a function's `then`) or a `then` that throws is an error before its shape is judged; a non-function `then` is plain data", () => {
      const dispatch = (answer) => new ToolPolicies([{ name: "t", match: () => true, redirectTo: "b", argsTransform: () => answer }]).dispatch({ name: "a", args: { q: 1 } }, {});
      const boom = new SyntaxError("then boom");
      let judged = 0;
      const thenable = new Proxy({ then() {} }, { getPrototypeOf: (t) => (judged++, Object.getPrototypeOf(t)) });
      for (const value of [thenable, Object.assign(() => {}, { then() {} }), Promise.resolve({})]) {
        assert.throws(() => dispatch(value), (e) => /"t": argsTransform returned a promise or thenable/.test(e.message) && e.cause === value);
      }
      assert.equal(judged, 0, "a thenable's shape is never asked for");
      const unreadable = { get then() { throw boom; } };
      assert.throws(() => dispatch(unreadable), (e) => /"t": argsTransform returned a value whose `then` could not be read/.test(e.message) && e.cause === boom);
      assert.throws(() => dispatch(new (class Args {})()), (e) => /"t": argsTransform returned an object, not a plain object/.test(e.message));
      assert.deepEqual(dispatch({ q: 2, then: 5 }).call, { name: "b", args: { q: 2, then: 5 } });
    });
  });

  describe(`dispose() during a turn (${label})`, () => {
    test("a router disposed by its own entries, or by another caller, lets the turn in flight finish", async () => {
      let router;
      router = new ToolRouter({ entries: () => (router.dispose(), ["a"]), registered: ["a"] });
      assert.deepEqual([...(await router.resolve()).names], ["a"]);
      await assert.rejects(router.resolve(), /ToolRouter: resolve\(\) after dispose\(\)/);
      let release;
      const slow = new ToolRouter({ entries: () => new Promise((ok) => (release = ok)), registered: ["b"] });
      const pending = slow.resolve();
      slow.dispose();
      release(["b"]);
      assert.deepEqual([...(await pending).names], ["b"]);
      await assert.rejects(slow.resolve(), /after dispose/);
    });

    test("policies disposed by their own predicate finish the seam in progress", () => {
      let set;
      set = new ToolPolicies([{ name: "p", match: () => (set.dispose(), true), redirectTo: "b", model: "m" }]);
      assert.equal(set.dispatch({ name: "a" }, {}).call.name, "b");
      assert.throws(() => set.selectModel({}), /selectModel\(\) after dispose\(\)/);
      let other;
      other = new ToolPolicies([{ name: "q", match: () => (other.dispose(), true), model: "m" }]);
      assert.equal(other.selectModel({}).model, "m");
    });
  });
}
