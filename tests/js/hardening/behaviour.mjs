// Issue 7: never poisoned (a failing call, then a correct one, in the same instance, for
// each kind of failure), concurrency and re-entrancy, and large inputs.
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { REASONS, hostile } from "./matrix.mjs";

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const ticks = async (n) => {
  for (let i = 0; i < n; i++) await null;
};
const quiet = () => {};

/** A naive model of SPEC section 2 over already-read rows, for the large-input checks. */
function model(registered, rows) {
  const reg = new Set(registered);
  const names = [];
  const unresolved = [];
  const seen = new Set();
  let active = 0;
  for (const row of rows) {
    const isObj = typeof row === "object" && row !== null && !Array.isArray(row);
    if (isObj && row.active === false) continue;
    active++;
    const c = typeof row === "string" ? row : isObj ? [row.tool, row.toolName, row.content].find((v) => typeof v === "string") : undefined;
    if (c === undefined) continue;
    const t = c.trim();
    if (t === "" || seen.has(t)) continue;
    seen.add(t);
    (reg.has(t) ? names : unresolved).push(t);
  }
  if (rows.length === 0) return { reason: REASONS.noSkills, unresolved: [] };
  if (active === 0) return { reason: REASONS.inactive, unresolved: [] };
  return names.length ? { names, unresolved } : { reason: REASONS.unresolved, unresolved };
}

export function behaviour(tp, label) {
  const { resolvePalette, ToolRouter, activeTools, bindPalette, Routed, RoutingRefusal, ToolCallPolicy, ToolPolicies } = tp;

  // A full, correct cycle through every part of the instance, with exact answers.
  async function probe() {
    const r = await resolvePalette({ entries: async () => [" calendar ", { tool: "ghost" }, "mail"], registered: ["search", "calendar", "mail"], timeoutMs: 1000 });
    assert.ok(r instanceof Routed);
    assert.deepEqual([...r.names], ["calendar", "mail"]);
    assert.deepEqual([...r.unresolved], ["ghost"]);
    const router = new ToolRouter({ entries: () => ["mail", "x\uD800"], registered: ["mail", "search"] });
    const rr = await router.resolve();
    assert.deepEqual([rr.names, rr.unresolved].map((a) => [...a]), [["mail"], ["x\uD800"]]);
    const tools = [{ name: "search" }, { name: "calendar" }, { name: "mail" }];
    assert.deepEqual(bindPalette(tools, r), [tools[1], tools[2]]);
    assert.deepEqual(activeTools(r), ["calendar", "mail"]);
    const set = new ToolPolicies([
      { name: "m", match: (c) => c.cheap, model: "small" },
      { name: "r", match: (c) => c.sales, whenTool: ["web"], redirectTo: "calendar", argsTransform: (a) => ({ q: a.q }) },
    ], { onWarning: quiet });
    assert.deepEqual(set.selectModel({ cheap: true }), { model: "small", source: "policy", policy: "m" });
    const d = set.dispatch({ name: "web", args: { q: 1, z: 2 }, id: "7" }, { sales: true }, r);
    assert.deepEqual(d.call, { name: "calendar", args: { q: 1 }, id: "7" });
    assert.equal(d.dropped, null);
    const gated = set.dispatch({ name: "web", args: {} }, { sales: true }, new Routed(["web"]));
    assert.equal(gated.dropped?.target, "calendar");
  }

  describe(`never poisoned (${label}): a failure, then a correct call, in the same instance`, () => {
    const set = () =>
      new ToolPolicies([{ name: "p", match: (c) => c.go, redirectTo: "sql" }], {
        onWarning: quiet,
      });
    const failures = [
      ["caller TypeError: registered holds a number", () => resolvePalette({ entries: () => [], registered: ["a", 1] }), TypeError],
      ["caller TypeError: registered's iterator throws half way", () => resolvePalette({ entries: () => [], registered: { *[Symbol.iterator]() { yield "a"; throw new Error("x"); } } }), TypeError],
      ["caller TypeError: hostile options", () => resolvePalette(hostile()), TypeError],
      ["refusal 2a: the store throws", async () => assert.equal((await resolvePalette({ entries: () => { throw new Error("down"); }, registered: ["a"] })).reason, REASONS.failed("Error"))],
      ["refusal 2a: a hostile row", async () => assert.equal((await resolvePalette({ entries: () => ["a", hostile()], registered: ["a"] })).reason, REASONS.failed("Error"))],
      ["refusal 2a: candidateOf throws after rows were read", async () => assert.equal((await resolvePalette({ entries: () => ["a", "b"], registered: ["a"], candidateOf: (r) => { if (r === "b") throw new EvalError(); return r; } })).reason, REASONS.failed("EvalError"))],
      ["refusal 2b: timeout", async () => assert.equal((await resolvePalette({ entries: () => sleep(50), registered: ["a"], timeoutMs: 1 })).reason, REASONS.timedOut(1))],
      ["abort: rejects with the reason", () => { const c = new AbortController(); const p = resolvePalette({ entries: () => sleep(50), registered: ["a"], signal: c.signal }); c.abort(new RangeError("stop")); return p; }, RangeError],
      ["ToolRouter: bad option", () => new ToolRouter({ registered: [null] }), TypeError],
      ["ToolRouter.resolve: store rejects", async () => assert.ok((await new ToolRouter({ entries: () => Promise.reject(7), registered: ["a"] }).resolve()) instanceof RoutingRefusal)],
      ["activeTools: forged outcome", () => activeTools({ kind: "routed", names: [1] }), TypeError],
      ["bindPalette: a name getter throws half way", () => bindPalette([{ name: "a" }, { get name() { throw 2; } }], new Routed(["a"])), TypeError],
      ["bindPalette: a record getter throws after the boundary was written", () => bindPalette(Object.defineProperty({ b: 1 }, "a", { get() { throw new Error("g"); }, enumerable: true }), new Routed(["a"])), TypeError],
      ["new Routed: empty", () => new Routed([]), TypeError],
      ["ToolCallPolicy: bad field", () => new ToolCallPolicy({ name: "p", match: () => true, whenTool: [1] }), TypeError],
      ["ToolPolicies: duplicate names", () => new ToolPolicies([{ name: "p", match: quiet }, { name: "p", match: quiet }]), TypeError],
      ["selectModel: match throws", () => new ToolPolicies([{ name: "p", match: () => { throw 1; }, model: 1 }]).selectModel({}), Error],
      ["selectModel: match returns a promise", () => new ToolPolicies([{ name: "p", match: async () => true, model: 1 }]).selectModel({}), Error],
      ["selectModel: the resolver throws", () => new ToolPolicies([], { modelResolver: () => { throw new SyntaxError(); } }).selectModel({}), SyntaxError],
      ["dispatch: guard throws", () => new ToolPolicies([{ name: "p", match: () => true, redirectTo: "x", guard: () => { throw 1; } }]).dispatch({ name: "a" }, {}), Error],
      ["dispatch: argsTransform returns an array", () => new ToolPolicies([{ name: "p", match: () => true, redirectTo: "x", argsTransform: () => [] }]).dispatch({ name: "a", args: {} }, {}), Error],
      ["dispatch: onToolCallDispatch throws", () => new ToolPolicies([], { onToolCallDispatch: () => { throw new URIError(); } }).dispatch({ name: "a" }, {}), URIError],
      ["dispatch: onToolCallDispatch returns garbage", () => new ToolPolicies([], { onToolCallDispatch: () => 5 }).dispatch({ name: "a" }, {}), TypeError],
      ["dispatch: onWarning throws while a redirect is dropped", () => new ToolPolicies([{ name: "p", match: () => true, redirectTo: "x" }], { onWarning: () => { throw new RangeError(); } }).dispatch({ name: "a" }, {}, ["a"]), RangeError],
      ["dispatch: a hostile palette", () => set().dispatch({ name: "a" }, { go: true }, hostile()), TypeError],
      ["dispatch: a throw inside a nested dispatch", () => {
        const outer = new ToolPolicies([{ name: "o", match: () => { inner.dispatch({ name: "a" }, {}); return true; }, redirectTo: "b" }]);
        const inner = new ToolPolicies([{ name: "i", match: () => { throw new Error("inner"); }, redirectTo: "c" }]);
        return outer.dispatch({ name: "a" }, {});
      }, Error],
    ];
    for (const [name, fail, kind] of failures) {
      test(name, async () => {
        let error;
        try {
          await fail();
        } catch (e) {
          error = e;
        }
        if (kind) assert.ok(error instanceof kind, `expected ${kind.name}, got ${error}`);
        else assert.equal(error, undefined);
        await probe();
        // And once more after a second failure of the same kind.
        try {
          await fail();
        } catch {}
        await probe();
      });
    }
  });

  describe(`concurrency and re-entrancy (${label})`, () => {
    test("3,000 resolutions in flight with interleaved awaits, aborts, timeouts and failures never cross wires", async () => {
      const N = 3000;
      const turns = [];
      for (let i = 0; i < N; i++) {
        const kind = i % 13 === 0 ? "abort" : i % 11 === 0 ? "timeout" : i % 7 === 0 ? "fail" : "ok";
        const controller = new AbortController();
        const delay = i % 5;
        const entries = async () => {
          await ticks(i % 17);
          if (delay) await sleep(delay);
          if (kind === "fail") throw new (class extends Error { name = `E${i}`; })();
          if (kind === "timeout") await sleep(40);
          return [` t${i} `, `ghost${i}`, { tool: `u${i}`, active: i % 2 === 0 }, "shared"];
        };
        const registered = [`t${i}`, `u${i}`, `v${i}`];
        const p = resolvePalette({ entries, registered, signal: controller.signal, timeoutMs: kind === "timeout" ? 5 : 1000 });
        if (kind === "abort") setTimeout(() => controller.abort(`stop ${i}`), delay ? delay - 1 : 0);
        turns.push(
          p.then(
            (r) => ({ i, kind, r }),
            (e) => ({ i, kind, e }),
          ),
        );
      }
      const results = await Promise.all(turns);
      for (const { i, kind, r, e } of results) {
        if (kind === "abort") {
          // Aborted before or after the store answered: a rejection with the caller's
          // reason, or the turn's own correct answer. Never another turn's.
          if (e !== undefined) assert.equal(e, `stop ${i}`);
          else assert.deepEqual([...r.names], i % 2 === 0 ? [`t${i}`, `u${i}`] : [`t${i}`]);
          continue;
        }
        assert.equal(e, undefined, `turn ${i}: ${e}`);
        if (kind === "fail") assert.equal(r.reason, REASONS.failed(`E${i}`));
        else if (kind === "timeout") assert.equal(r.reason, REASONS.timedOut(5));
        else {
          assert.deepEqual([...r.names], i % 2 === 0 ? [`t${i}`, `u${i}`] : [`t${i}`], `turn ${i}`);
          assert.deepEqual([...r.unresolved], [`ghost${i}`, "shared"], `turn ${i}`);
        }
      }
      assert.ok(results.some((x) => x.kind === "abort" && x.e !== undefined), "some aborts landed mid-flight");
    });

    test("one ToolRouter serving 2,000 concurrent turns keeps each turn's rows together", async () => {
      let n = 0;
      const router = new ToolRouter({
        entries: async () => {
          const k = n++;
          await ticks(k % 9);
          if (k % 3 === 0) await sleep(1);
          return [`t${k % 100}`, `g${k}`];
        },
        registered: Array.from({ length: 100 }, (_, i) => `t${i}`),
        timeoutMs: 5000,
      });
      const out = await Promise.all(Array.from({ length: 2000 }, () => router.resolve()));
      const ks = out.map((r) => {
        const k = Number(r.unresolved[0].slice(1));
        assert.deepEqual([...r.names], [`t${k % 100}`]);
        return k;
      });
      assert.deepEqual(ks.sort((a, b) => a - b), Array.from({ length: 2000 }, (_, i) => i));
    });

    test("a thunk that itself calls resolvePalette (three levels deep)", async () => {
      const level = (depth) => async () => {
        if (depth === 0) return ["leaf"];
        const inner = await resolvePalette({ entries: level(depth - 1), registered: ["leaf", `l${depth - 1}`] });
        return [...inner.names, `l${depth}`, `ghost${depth}`];
      };
      const r = await resolvePalette({ entries: level(3), registered: ["leaf", "l3"] });
      // Level 3's rows are level 2's routed names ("leaf", "l2") plus "l3" and "ghost3".
      assert.deepEqual([...r.names], ["leaf", "l3"]);
      assert.deepEqual([...r.unresolved], ["l2", "ghost3"]);
      // Many of them at once, interleaved with ordinary turns.
      const all = await Promise.all(
        Array.from({ length: 200 }, (_, i) =>
          i % 2 ? resolvePalette({ entries: level(2), registered: ["leaf", "l2"] }) : resolvePalette({ entries: async () => [`x${i}`], registered: [`x${i}`] }),
        ),
      );
      all.forEach((r, i) => assert.deepEqual([...r.names], i % 2 ? ["leaf", "l2"] : [`x${i}`]));
    });

    test("predicates that call the seams re-entrantly, on the same and other instances", async () => {
      const log = [];
      const inner = new ToolPolicies([{ name: "inner", match: () => true, redirectTo: "deep", model: "m-inner" }]);
      let set;
      set = new ToolPolicies(
        [
          {
            name: "outer",
            match: (ctx) => {
              if (ctx.depth < 3) {
                const d = set.dispatch({ name: "web", args: { d: ctx.depth } }, { depth: ctx.depth + 1 }, new Routed(["sql", "web"]));
                const m = set.selectModel({ depth: 3 });
                const i = inner.dispatch({ name: `n${ctx.depth}` }, {});
                log.push([ctx.depth, d.call.name, d.call.args.d, m.policy, i.call.name]);
              }
              return true;
            },
            whenTool: "web",
            redirectTo: "sql",
            model: "m-outer",
            guard: (ctx) => inner.selectModel(ctx).model === "m-inner",
          },
        ],
        { onToolCallDispatch: (call) => (bindPalette([{ name: call.name }], new Routed([call.name])).length ? undefined : null) },
      );
      const d = set.dispatch({ name: "web", args: { d: 0 } }, { depth: 0 }, ["sql"]);
      assert.equal(d.call.name, "sql");
      assert.deepEqual(d.call.args, { d: 0 });
      // Innermost first; each level saw its own call and context, never a neighbour's.
      assert.deepEqual(log, [
        [2, "sql", 2, "outer", "deep"],
        [1, "sql", 1, "outer", "deep"],
        [0, "sql", 0, "outer", "deep"],
      ]);
      // A predicate that starts a routing turn (async) and a gate check in between.
      const pending = [];
      const async = new ToolPolicies([{ name: "a", match: () => (pending.push(resolvePalette({ entries: async () => ["q"], registered: ["q"] })), true), redirectTo: "q" }]);
      for (let i = 0; i < 50; i++) assert.equal(async.dispatch({ name: "w" }, {}, ["q"]).call.name, "q");
      for (const r of await Promise.all(pending)) assert.deepEqual([...r.names], ["q"]);
    });

    test("caller code that re-enters the package while bindPalette is reading (getters, proxy traps)", () => {
      const routed = new Routed(["a", "c", "e"]);
      const big = Array.from({ length: 20_000 }, (_, i) => ({ name: `big${i}` }));
      const nested = [];
      // Each value read calls bindPalette (and grows wasm memory with a big one) first.
      const record = new Proxy(
        { a: 1, b: 2, c: 3, d: 4, e: 5 },
        {
          get(target, key) {
            nested.push(bindPalette(big, new Routed(["big7", "big19999"])).map((t) => t.name));
            nested.push(Object.keys(bindPalette({ x: 1, [key]: 2 }, new Routed([String(key)]))));
            return target[key];
          },
        },
      );
      const out = bindPalette(record, routed);
      assert.deepEqual(Object.entries(out), [["a", 1], ["c", 3], ["e", 5]]);
      assert.deepEqual(nested, [["big7", "big19999"], ["a"], ["big7", "big19999"], ["c"], ["big7", "big19999"], ["e"]]);
      const arr = [{ name: "a" }, { name: "b" }, { name: "c" }];
      const proxied = new Proxy(arr, {
        get(target, key) {
          if (typeof key === "string" && /^\d+$/.test(key)) bindPalette(big, new Routed(["big1"]));
          return target[key];
        },
      });
      assert.deepEqual(bindPalette(proxied, routed), [arr[0], arr[2]]);
    });
  });

  describe(`large inputs (${label})`, () => {
    test("50,000 registered tools and 20,000 rows resolve exactly as the model says", async () => {
      const registered = Array.from({ length: 50_000 }, (_, i) => (i % 1000 === 0 ? `tool_${i}\uD800` : `tool_${i}`));
      let seed = 7;
      const rand = (n) => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0), (seed >>> 8) % n);
      const rows = Array.from({ length: 20_000 }, (_, i) => {
        const name = i % 3 === 0 ? `ghost_${rand(30_000)}` : registered[rand(50_000)];
        switch (i % 5) {
          case 0: return name;
          case 1: return ` \uFEFF${name}\u3000`;
          case 2: return { tool: name, active: i % 4 !== 1 };
          case 3: return { content: name };
          default: return i % 2 ? 42 : { toolName: `${name}\u0085` };
        }
      });
      const want = model(registered, rows);
      const r = await resolvePalette({ entries: async () => rows, registered });
      assert.deepEqual([...r.names], want.names);
      assert.deepEqual([...r.unresolved], want.unresolved);
      assert.ok(r.names.length > 5_000 && r.unresolved.length > 1_000);
      const router = new ToolRouter({ entries: () => rows, registered });
      assert.deepEqual([...(await router.resolve()).names], want.names);
      // The same palette at the model-call boundary and at the gate.
      const tools = registered.map((name) => ({ name }));
      const bound = bindPalette(tools, r);
      const routedSet = new Set(want.names);
      assert.deepEqual(bound.map((t) => t.name), registered.filter((n) => routedSet.has(n)));
      const record = Object.fromEntries(registered.map((n) => [n, { n }]));
      assert.equal(Object.keys(bindPalette(record, r)).length, want.names.length);
      const set = new ToolPolicies(
        registered.slice(0, 2000).map((n, i) => ({ name: `p${i}`, match: () => i === 1999, whenTool: [n, "web"], redirectTo: registered[49_999 - i] })),
        { onWarning: quiet },
      );
      const d = set.dispatch({ name: "web" }, {}, registered);
      assert.equal(d.redirectedBy, "p1999");
      assert.equal(d.call.name, registered[49_999 - 1999]);
      assert.equal(d.dropped, null);
    });
  });
}
