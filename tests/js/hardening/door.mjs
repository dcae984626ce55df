// Issue 19: the faults two hostile passes found at the boundary between the core and the
// caller, one test each. Whatever a store or a caller does comes back through one door as
// a value; nothing unwinds through the module, and the next call runs normally.
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import vm from "node:vm";
import { REASONS } from "./matrix.mjs";

const tick = () => new Promise((r) => setTimeout(r, 0));

// Collects the process's unhandled rejections while `body` runs and a little after.
async function unhandled(body) {
  const seen = [];
  const listener = (reason) => seen.push(reason);
  process.on("unhandledRejection", listener);
  try {
    await body();
    for (let k = 0; k < 5; k++) await tick();
  } finally {
    process.off("unhandledRejection", listener);
  }
  return seen;
}

export function door(tp, label) {
  const { resolvePalette, ToolRouter, ToolPolicies, activeTools, bindPalette, Routed } = tp;
  const exact = async () => {
    const r = await resolvePalette({ entries: async () => ["a", "ghost"], registered: ["a", "b"] });
    assert.deepEqual([...r.names], ["a"]);
    assert.deepEqual([...r.unresolved], ["ghost"]);
    assert.deepEqual(activeTools(r), ["a"]);
    const set = new ToolPolicies([{ name: "p", match: () => true, redirectTo: "b" }]);
    assert.equal(set.dispatch({ name: "a", args: {} }, {}, r).dropped.target, "b");
  };

  describe(`a store's hostile promise (${label})`, () => {
    // A native promise whose own `then` throws when called, or whose `constructor` getter
    // throws (Promise.resolve reads it): adopting the answer throws synchronously.
    const hostile = {
      "own then that throws": () => {
        const p = Promise.resolve(["a"]);
        p.then = () => {
          throw new TypeError("then boom");
        };
        return [p, "TypeError"];
      },
      "constructor getter that throws": () => {
        const p = Promise.resolve(["a"]);
        Object.defineProperty(p, "constructor", {
          get() {
            throw new RangeError("constructor boom");
          },
        });
        return [p, "RangeError"];
      },
      "thenable whose then throws": () => [{ then() { throw new SyntaxError("thenable boom"); } }, "SyntaxError"],
    };
    for (const [what, make] of Object.entries(hostile)) {
      test(`${what}: refusal 2a with its NAME, through resolvePalette and ToolRouter`, async () => {
        const [p, name] = make();
        const r = await resolvePalette({ entries: () => p, registered: ["a"] });
        assert.equal(r.reason, REASONS.failed(name));
        const router = new ToolRouter({ entries: () => make()[0], registered: ["a"] });
        assert.equal((await router.resolve()).reason, REASONS.failed(name));
        await exact();
      });
    }

    test("decided while adopted: no listener stays on the signal, and onDecision is called once", async () => {
      const listeners = new Set();
      const signal = { aborted: false, reason: undefined, addEventListener: (t, l) => listeners.add(l), removeEventListener: (t, l) => listeners.delete(l) };
      const [p] = hostile["own then that throws"]();
      let reports = 0;
      const r = await resolvePalette({ entries: () => p, registered: ["a"], timeoutMs: 60_000, signal, onDecision: () => reports++ });
      assert.equal(r.reason, REASONS.failed("TypeError"));
      assert.equal(listeners.size, 0);
      assert.equal(reports, 1);
    });

    test("3,000 such turns in a row leave the module working (no reference-table slot lost)", async () => {
      const make = hostile["own then that throws"];
      const router = new ToolRouter({ entries: () => make()[0], registered: ["a"] });
      for (let i = 0; i < 3000; i++) {
        const r = i % 2 ? await router.resolve() : await resolvePalette({ entries: () => make()[0], registered: ["a"] });
        assert.equal(r.reason, REASONS.failed("TypeError"));
      }
      await exact();
    });
  });

  describe(`a host's hostile embed promise (${label})`, () => {
    test("embed answering a promise whose then or constructor throws: that turn ranks lexically, onEmbedError gets the error", async () => {
      const tools = [
        { name: "get_weather", description: "Current weather for a city" },
        { name: "send_email", description: "Send an email message" },
      ];
      const errors = [];
      const make = (k) => {
        const p = Promise.resolve([1, 0]);
        if (k) p.then = () => { throw new TypeError("then"); };
        else Object.defineProperty(p, "constructor", { get() { throw new RangeError("constructor"); } });
        return p;
      };
      let k = 0;
      const index = new tp.ToolIndex(tools, { vectors: [[1, 0], [0, 1]], embed: () => make(k++ % 2), onEmbedError: (e) => errors.push(e.name) });
      for (let i = 0; i < 4; i++) {
        const rows = await index.entries("what is the weather in Paris");
        assert.equal(rows[0].tool, "get_weather");
      }
      assert.deepEqual(errors.sort(), ["RangeError", "RangeError", "TypeError", "TypeError"]);
      await exact();
    });
  });

  describe(`a store that settles after its turn did (${label})`, () => {
    test("abort inside entries, then the store rejects: the turn rejects with the reason, the rejection is handled", async () => {
      const seen = await unhandled(async () => {
        const ac = new AbortController();
        let reject;
        const p = resolvePalette({
          entries: () => {
            ac.abort("stop");
            return new Promise((_, r) => (reject = r));
          },
          registered: ["a"],
          signal: ac.signal,
        });
        await assert.rejects(p, (e) => e === "stop");
        reject(new Error("late"));
        const router = new ToolRouter({ entries: () => (ac2.abort("again"), Promise.reject(new Error("at once"))), registered: ["a"] });
        const ac2 = new AbortController();
        await assert.rejects(router.resolve({ signal: ac2.signal }), (e) => e === "again");
      });
      assert.deepEqual(seen, []);
    });

    test("a store that rejects after the budget elapsed or after an abort is handled and ignored", async () => {
      const seen = await unhandled(async () => {
        let reject;
        const slow = () => new Promise((_, r) => (reject = r));
        const r = await resolvePalette({ entries: slow, registered: ["a"], timeoutMs: 1 });
        assert.equal(r.reason, REASONS.timedOut(1));
        reject(new Error("late"));
        const ac = new AbortController();
        const p = resolvePalette({ entries: slow, registered: ["a"], signal: ac.signal });
        ac.abort("bye");
        await assert.rejects(p, (e) => e === "bye");
        reject(new Error("later"));
      });
      assert.deepEqual(seen, []);
    });
  });

  describe(`re-entrant callers (${label})`, () => {
    test("unbounded recursion through a caller's reader settles, and every export works afterwards", async () => {
      const before = new ToolPolicies([{ name: "q", match: () => true, redirectTo: "b", model: "m" }]);
      const router = new ToolRouter({ entries: () => ["a"], registered: ["a", "b"] });
      // Every row's reader starts another turn (a caller bug): the calls fan out, and the
      // stack runs out somewhere inside them.
      let depth = 0;
      const registered = Array.from({ length: 50 }, (_, i) => `t${i}`).concat(["a"]);
      const isActive = () => {
        depth++;
        resolvePalette({ entries: () => ["a", "b", { tool: "c" }], registered, isActive, onDecision: () => {} }).catch(() => {});
        return true;
      };
      const r = await resolvePalette({ entries: () => ["a"], registered, isActive });
      assert.ok(depth > 1, "the reader recursed");
      assert.ok(r.kind === "routed" || r.reason === REASONS.failed("RangeError") || r.reason === REASONS.failed("Error"), String(r.reason));
      await exact();
      assert.deepEqual([...(await router.resolve()).names], ["a"]);
      assert.equal(before.selectModel({}).model, "m");
      assert.equal(before.dispatch({ name: "a" }, {}).call.name, "b");
      assert.deepEqual(bindPalette([{ name: "a" }, { name: "b" }], new Routed(["b"])), [{ name: "b" }]);
    });

    test("a stack overflow at every depth of a call (JS, glue, wasm, trampolines): every export works afterwards", async () => {
      const policies = new ToolPolicies([{ name: "p", match: () => true, redirectTo: "b", argsTransform: (a) => ({ ...a }), model: "m" }]);
      const routed = new Routed(["a"]);
      const pending = [];
      // Recurses until the stack is full, then calls the package at every level on the way
      // back: each call starts with a little more stack than the last, so the overflow lands
      // in every place a call passes through, wasm frames and the door's trampolines included.
      const sweep = () => {
        try {
          sweep();
        } catch {}
        try {
          activeTools(routed);
          policies.dispatch({ name: "a", args: { x: 1 } }, {}, routed);
          policies.selectModel({});
          bindPalette([{ name: "a" }], routed);
          pending.push(resolvePalette({ entries: () => ["a", { tool: "b" }], registered: ["a", "b"], isActive: () => true }).catch(() => {}));
        } catch {}
      };
      for (let k = 0; k < 3; k++) sweep();
      await Promise.all(pending);
      await exact();
      assert.equal(policies.selectModel({}).model, "m");
      assert.equal(policies.dispatch({ name: "a", args: {} }, {}).call.name, "b");
    });

    test("a stack overflow at every depth of a ToolIndex query: the index answers as before afterwards", () => {
      // A query cut short inside the module (the JavaScript stack ran out there) once left
      // the index's scratch borrowed: every later search answered [] and save() trapped.
      const index = new tp.ToolIndex([{ name: "a", description: "alpha" }, { name: "b", description: "beta alpha" }], { explain: true });
      const answers = () => [JSON.stringify(index.search("alpha")), JSON.stringify(index.explain("alpha")), index.save().length];
      const before = answers();
      const sweep = () => {
        try {
          sweep();
        } catch {}
        try {
          index.search("alpha");
          index.entries("alpha");
          index.explain("alpha");
          index.save();
        } catch {}
      };
      for (let k = 0; k < 3; k++) sweep();
      assert.deepEqual(answers(), before);
    });

    test("recursion through a policy's predicate and an onDecision: the next calls run normally", async () => {
      let set;
      const match = () => {
        try {
          set.selectModel({});
        } catch {}
        return true;
      };
      set = new ToolPolicies([{ name: "p", match, model: "m" }]);
      try {
        set.selectModel({});
      } catch {}
      const onDecision = () => {
        resolvePalette({ entries: () => ["a"], registered: ["a"], onDecision }).catch(() => {});
      };
      await resolvePalette({ entries: () => ["a"], registered: ["a"], onDecision }).catch(() => {});
      await exact();
      assert.equal(new ToolPolicies([{ name: "p", match: () => true, model: "m" }]).selectModel({}).model, "m");
    });
  });

  describe(`values from another realm (${label})`, () => {
    test("a plain object made in a vm context is a plain object to argsTransform", () => {
      const foreign = vm.runInNewContext("({ q: 1 })");
      assert.notEqual(Object.getPrototypeOf(foreign), Object.prototype);
      const set = new ToolPolicies([{ name: "t", match: () => true, redirectTo: "b", argsTransform: (a) => vm.runInNewContext("(a) => ({ ...a, r: 2 })")(a) }]);
      const d = set.dispatch({ name: "a", args: foreign, id: 1 }, {});
      assert.equal(d.call.name, "b");
      assert.equal(d.call.args.q, 1);
      assert.equal(d.call.args.r, 2);
      // Still refused: things that are not plain objects, whatever their realm.
      for (const bad of ["[1]", "new Map()", "new (class A {})()", "1"]) {
        const t = new ToolPolicies([{ name: "t", match: () => true, redirectTo: "b", argsTransform: () => vm.runInNewContext(bad) }]);
        assert.throws(() => t.dispatch({ name: "a", args: {} }, {}), /argsTransform/, bad);
      }
    });

    test("rows, registered names and a signal from another realm", async () => {
      const rows = vm.runInNewContext('[{ tool: "a" }, { toolName: "b", active: true }, { content: "c", active: false }]');
      const registered = vm.runInNewContext('["a", "b", "c"]');
      const r = await resolvePalette({ entries: () => rows, registered });
      assert.deepEqual([...r.names], ["a", "b"]);
    });
  });

  describe(`bindPalette keeps unnamed entries (${label})`, () => {
    test("an entry without a string name stays in place on every outcome", () => {
      const provider = { type: "provider-defined", id: "web_search" };
      const sep = null;
      const tools = [{ name: "a" }, provider, { name: "b" }, sep, { name: 3 }, { name: "c" }];
      const routed = bindPalette(tools, new Routed(["c", "a"]));
      assert.deepEqual(routed, [tools[0], provider, sep, tools[4], tools[5]]);
      assert.equal(routed[1], provider);
      assert.equal(bindPalette(tools, new tp.RoutingRefusal("x")), tools);
      assert.equal(bindPalette(tools, new tp.RoutingUnavailable(["procedural-layer"])), tools);
    });
  });
}
