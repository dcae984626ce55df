// ToolCallPolicy, ToolPolicies and the two seams: SPEC section 4.
import { test, describe } from "node:test";
import assert from "node:assert/strict";

const deepFreeze = (o) => {
  Object.values(o).forEach((v) => typeof v === "object" && v !== null && deepFreeze(v));
  return Object.freeze(o);
};

export function policies(tp) {
  const { ToolCallPolicy, ToolPolicies, Routed, RoutingRefusal, RoutingUnavailable, ToolRedirectDroppedWarning } = tp;
  const yes = () => true;
  const no = () => false;
  const mentions = (word) => (ctx) => ctx.message.includes(word);

  describe("ToolCallPolicy", () => {
    test("validates every field with a TypeError naming the policy and the field", () => {
      const bad = [
        [undefined, /ToolCallPolicy: spec/],
        [{ match: yes }, /ToolCallPolicy: name/],
        [{ name: "", match: yes }, /ToolCallPolicy: name/],
        [{ name: 5, match: yes }, /ToolCallPolicy: name/],
        [{ name: "p" }, /ToolCallPolicy "p": match/],
        [{ name: "p", match: "yes" }, /ToolCallPolicy "p": match/],
        [{ name: "p", match: yes, whenTool: 5 }, /ToolCallPolicy "p": whenTool/],
        [{ name: "p", match: yes, whenTool: ["a", 1] }, /ToolCallPolicy "p": whenTool\[1\]/],
        [{ name: "p", match: yes, redirectTo: "" }, /ToolCallPolicy "p": redirectTo/],
        [{ name: "p", match: yes, redirectTo: ["a"] }, /ToolCallPolicy "p": redirectTo/],
        [{ name: "p", match: yes, argsTransform: {} }, /ToolCallPolicy "p": argsTransform/],
        [{ name: "p", match: yes, guard: true }, /ToolCallPolicy "p": guard/],
      ];
      for (const [spec, message] of bad) {
        assert.throws(() => new ToolCallPolicy(spec), (e) => e instanceof TypeError && message.test(e.message), String(message));
      }
    });

    test("instances are frozen and keep what they were given", () => {
      const model = { id: "cheap" };
      const p = new ToolCallPolicy({ name: "p", match: yes, whenTool: new Set(["a", "b"]), redirectTo: "c", model });
      assert.ok(Object.isFrozen(p));
      assert.equal(p.model, model);
      assert.deepEqual(p.whenTool, ["a", "b"]);
      assert.ok(Object.isFrozen(p.whenTool));
      assert.equal(p.redirectTo, "c");
      assert.equal(p.guard, null);
      const bare = new ToolCallPolicy({ name: "q", match: yes });
      assert.deepEqual([bare.whenTool, bare.redirectTo, bare.model, bare.argsTransform], [null, null, null, null]);
    });

    test("matchesTool: a string, an iterable of names, or null for any tool", () => {
      const one = new ToolCallPolicy({ name: "one", match: yes, whenTool: "web_search" });
      const many = new ToolCallPolicy({ name: "many", match: yes, whenTool: ["web_search", "__proto__", "a\uD800"] });
      const any = new ToolCallPolicy({ name: "any", match: yes, whenTool: null });
      const none = new ToolCallPolicy({ name: "none", match: yes, whenTool: [] });
      assert.equal(one.matchesTool("web_search"), true);
      assert.equal(one.matchesTool("Web_search"), false);
      assert.equal(many.matchesTool("__proto__"), true);
      assert.equal(many.matchesTool("constructor"), false);
      assert.equal(many.matchesTool("a\uD800"), true);
      assert.equal(many.matchesTool("a\uDC00"), false);
      assert.equal(any.matchesTool("anything"), true);
      assert.equal(none.matchesTool("anything"), false);
      assert.throws(() => one.matchesTool(5), /toolName/);
    });
  });

  describe("ToolPolicies: construction", () => {
    test("duplicate names are rejected", () => {
      const p = (name) => new ToolCallPolicy({ name, match: yes });
      assert.throws(() => new ToolPolicies([p("a"), p("b"), p("a")]), /policies\[2\].*"a"/);
      assert.doesNotThrow(() => new ToolPolicies([p("a\uD800"), p("a\uDC00")]));
    });

    test("plain specs are accepted and become policies; bad options are TypeErrors", () => {
      const set = new ToolPolicies([{ name: "p", match: yes }]);
      assert.ok(set.policies[0] instanceof ToolCallPolicy);
      assert.ok(Object.isFrozen(set.policies));
      assert.throws(() => new ToolPolicies(5), /ToolPolicies: policies/);
      assert.throws(() => new ToolPolicies([], { modelResolver: 1 }), /options\.modelResolver/);
      assert.throws(() => new ToolPolicies([], { onToolCallDispatch: 1 }), /options\.onToolCallDispatch/);
      assert.throws(() => new ToolPolicies([], { onWarning: 1 }), /options\.onWarning/);
    });
  });

  describe("selectModel (PRE-model seam)", () => {
    const cheap = { id: "cheap" };
    const strong = { id: "strong" };
    const fromResolver = { id: "resolver" };

    test("the first policy with a model whose match holds wins, before the resolver", () => {
      let resolverCalls = 0;
      const set = new ToolPolicies(
        [
          { name: "redirect-only", match: yes, redirectTo: "x" },
          { name: "sql", match: mentions("sql"), model: cheap },
          { name: "any", match: mentions("e"), model: strong },
        ],
        { modelResolver: () => (resolverCalls++, fromResolver) },
      );
      const a = set.selectModel({ message: "run sql please" });
      assert.deepEqual(a, { model: cheap, source: "policy", policy: "sql" });
      assert.equal(a.model, cheap, "the very same object");
      assert.ok(Object.isFrozen(a));
      assert.equal(set.selectModel({ message: "hello" }).policy, "any");
      assert.equal(resolverCalls, 0);
      const r = set.selectModel({ message: "zzz" });
      assert.deepEqual(r, { model: fromResolver, source: "resolver", policy: null });
      assert.equal(r.model, fromResolver);
    });

    test("default when nothing matches and the resolver declines or is absent", () => {
      const set = new ToolPolicies([{ name: "m", match: no, model: cheap }], { modelResolver: () => undefined });
      assert.deepEqual(set.selectModel({}), { model: null, source: "default", policy: null });
      assert.deepEqual(new ToolPolicies([]).selectModel({}), { model: null, source: "default", policy: null });
    });

    test("guard is never consulted here; ctx is passed by identity", () => {
      const ctx = { message: "x" };
      const seen = [];
      const set = new ToolPolicies([
        {
          name: "g",
          match: (c) => (seen.push(c), true),
          guard: () => { throw new Error("guard must not run"); },
          model: cheap,
        },
      ]);
      assert.equal(set.selectModel(ctx).model, cheap);
      assert.equal(seen[0], ctx);
    });

    test("dispose() ends both seams; a second dispose() does nothing", () => {
      const set = new ToolPolicies([{ name: "m", match: yes, model: 1, redirectTo: "t" }]);
      assert.equal(set.selectModel({}).model, 1);
      set.dispose();
      set.dispose();
      assert.throws(() => set.selectModel({}), /selectModel\(\) after dispose/);
      assert.throws(() => set.dispatch({ name: "a" }, {}), /dispatch\(\) after dispose/);
      if (typeof Symbol.dispose === "symbol") assert.equal(set[Symbol.dispose], set.dispose);
    });

    test("a live model instance comes back as the same instance", () => {
      class LiveModel { doGenerate() {} }
      const live = new LiveModel();
      const set = new ToolPolicies([{ name: "live", match: yes, model: live }]);
      assert.equal(set.selectModel({}).model, live);
    });
  });

  describe("dispatch (POST-model seam)", () => {
    const ctx = { message: "show revenue from the sales table" };

    test("a redirect rewrites the call into a new object that keeps every other field", () => {
      const set = new ToolPolicies([
        { name: "model-only", match: yes, model: {} },
        { name: "not-this-tool", match: yes, whenTool: "calendar", redirectTo: "nope" },
        { name: "guarded-out", match: yes, redirectTo: "nope", guard: no },
        {
          name: "sql",
          match: mentions("sales"),
          whenTool: ["web_search", "lookup"],
          redirectTo: "sql_query",
          argsTransform: (args, c) => ({ query: `${args.q} /* ${c.message.length} */` }),
        },
        { name: "later", match: yes, redirectTo: "nope" },
      ]);
      const call = deepFreeze({ name: "web_search", args: { q: "revenue" }, id: "call_1", extra: [1] });
      const d = set.dispatch(call, ctx);
      assert.equal(d.original, call);
      assert.notEqual(d.call, call);
      assert.deepEqual(d.call, { name: "sql_query", args: { query: "revenue /* 33 */" }, id: "call_1", extra: [1] });
      assert.equal(d.call.extra, call.extra);
      assert.equal(d.redirectedBy, "sql");
      assert.equal(d.dropped, null);
      assert.ok(Object.isFrozen(d));
    });

    test("the caller's call and args are never mutated, even by a mutating transform", () => {
      const args = { q: "x" };
      const call = { name: "web_search", args };
      const set = new ToolPolicies([
        { name: "m", match: yes, redirectTo: "sql_query", argsTransform: (a) => { a.q = "changed"; a.more = 1; return a; } },
      ]);
      const d = set.dispatch(call, {});
      assert.deepEqual(call, { name: "web_search", args: { q: "x" } });
      assert.equal(call.args, args);
      assert.deepEqual(d.call.args, { q: "changed", more: 1 });
    });

    test("without argsTransform the args pass through; no match means no rewrite", () => {
      const set = new ToolPolicies([{ name: "r", match: mentions("sales"), redirectTo: "sql_query" }]);
      const call = { name: "web_search", args: { q: 1 } };
      const d = set.dispatch(call, ctx);
      assert.equal(d.call.args, call.args);
      const idle = set.dispatch(call, { message: "weather" });
      assert.equal(idle.call, call);
      assert.deepEqual([idle.redirectedBy, idle.dropped], [null, null]);
    });

    test("the adopter's callback runs after the policy, and may rewrite again", () => {
      const order = [];
      const set = new ToolPolicies([{ name: "r", match: (c) => (order.push("match"), true), redirectTo: "sql_query" }], {
        onToolCallDispatch: (call, c) => {
          order.push(`callback:${call.name}`);
          assert.equal(c, ctx);
          return { ...call, name: "sql_readonly" };
        },
      });
      const d = set.dispatch({ name: "web_search", id: "1" }, ctx);
      assert.deepEqual(order, ["match", "callback:sql_query"]);
      assert.deepEqual(d.call, { name: "sql_readonly", id: "1" });
      assert.equal(d.redirectedBy, "r");
    });

    test("a call onToolCallDispatch returns keeps every field it leaves out (id above all)", () => {
      const set = new ToolPolicies([], { onToolCallDispatch: (call) => ({ name: call.name, args: { ...call.args, safe: true } }) });
      const call = { name: "web_search", args: { q: "x" }, id: "call-1", providerMeta: 1 };
      const d = set.dispatch(call, ctx);
      assert.deepEqual(d.call, { name: "web_search", args: { q: "x", safe: true }, id: "call-1", providerMeta: 1 });
      assert.deepEqual(call, { name: "web_search", args: { q: "x" }, id: "call-1", providerMeta: 1 });
      const moved = new ToolPolicies([], { onToolCallDispatch: () => ({ name: "sql_query", args: {}, id: "own" }) }).dispatch(call, ctx);
      assert.deepEqual(moved.call, { name: "sql_query", args: {}, id: "own", providerMeta: 1 });
      const same = new ToolPolicies([], { onToolCallDispatch: (c) => c }).dispatch(call, ctx);
      assert.equal(same.call, call);
    });

    test("the palette gate runs last: an unrouted target is dropped with a warning", () => {
      const warnings = [];
      const set = new ToolPolicies([{ name: "r", match: yes, redirectTo: "sql_query" }], { onWarning: (w) => warnings.push(w) });
      const call = { name: "web_search", args: {}, id: "7" };
      const d = set.dispatch(call, ctx, new Routed(["web_search", "calendar"]));
      assert.equal(d.call, call);
      assert.equal(d.original, call);
      assert.equal(d.redirectedBy, "r");
      assert.deepEqual(d.dropped, {
        target: "sql_query",
        reason: 'redirect target "sql_query" is not in the routed palette; dispatching the original call "web_search"',
      });
      assert.equal(warnings.length, 1);
      assert.ok(warnings[0] instanceof ToolRedirectDroppedWarning);
      assert.equal(warnings[0].name, "ToolRedirectDroppedWarning");
      assert.deepEqual([warnings[0].policy, warnings[0].target, warnings[0].original], ["r", "sql_query", "web_search"]);
      assert.match(warnings[0].message, /"r".*sql_query/);

      const names = set.dispatch(call, ctx, ["sql_query"]);
      assert.equal(names.call.name, "sql_query");
      assert.equal(names.dropped, null);
    });

    test("a callback's redirect outside the palette is dropped too", () => {
      const warnings = [];
      const set = new ToolPolicies([], { onToolCallDispatch: (call) => ({ ...call, name: "shell" }), onWarning: (w) => warnings.push(w) });
      const call = { name: "web_search" };
      const d = set.dispatch(call, {}, new Routed(["web_search"]));
      assert.equal(d.call, call);
      assert.equal(d.dropped.target, "shell");
      assert.equal(warnings[0].policy, null);
    });

    test("a refusal, RoutingUnavailable or no palette lets every tool pass", () => {
      const set = new ToolPolicies([{ name: "r", match: yes, redirectTo: "sql_query" }], { onWarning: () => assert.fail("no warning") });
      const call = { name: "web_search" };
      for (const palette of [undefined, null, new RoutingRefusal("x"), new RoutingUnavailable(["procedural-layer"])]) {
        const d = set.dispatch(call, {}, palette);
        assert.equal(d.call.name, "sql_query");
        assert.equal(d.dropped, null);
      }
    });

    test("with registered names, a palette that does not narrow lets exactly those pass", () => {
      const warnings = [];
      const set = new ToolPolicies(
        [
          { name: "to-registered", match: (c) => c.to === "sql_query", redirectTo: "sql_query" },
          { name: "to-ghost", match: (c) => c.to === "ghost", redirectTo: "ghost" },
        ],
        { registered: ["web_search", "sql_query"], onWarning: (w) => warnings.push(w) },
      );
      const call = { name: "web_search" };
      for (const palette of [undefined, new RoutingRefusal("x"), new RoutingUnavailable(["procedural-layer"])]) {
        assert.equal(set.dispatch(call, { to: "sql_query" }, palette).call.name, "sql_query");
        const d = set.dispatch(call, { to: "ghost" }, palette);
        assert.equal(d.call, call);
        assert.equal(d.dropped.target, "ghost");
        assert.equal(d.dropped.reason, 'redirect target "ghost" is not a registered tool; dispatching the original call "web_search"');
      }
      assert.equal(warnings.length, 3);
      assert.equal(warnings[0].message, 'ToolCallPolicy "to-ghost": redirect target "ghost" is not a registered tool; dispatching the original call "web_search"');
      // A Routed palette still narrows further.
      const routed = set.dispatch(call, { to: "sql_query" }, new Routed(["web_search"]));
      assert.equal(routed.dropped.reason, 'redirect target "sql_query" is not in the routed palette; dispatching the original call "web_search"');
      assert.throws(() => new ToolPolicies([], { registered: "web_search" }), /options\.registered/);
    });

    test("an emitted tool outside the palette that no policy touched is not the gate's business", () => {
      const set = new ToolPolicies([{ name: "r", match: no, redirectTo: "sql_query" }]);
      const call = { name: "shell" };
      const d = set.dispatch(call, {}, new Routed(["web_search"]));
      assert.equal(d.call, call);
      assert.equal(d.dropped, null);
    });

    test("ctx is the same object at both seams", () => {
      const seen = [];
      const set = new ToolPolicies([{ name: "r", match: (c) => (seen.push(c), true), guard: (c) => (seen.push(c), true), redirectTo: "t", model: 1 }]);
      const ctx2 = {};
      set.selectModel(ctx2);
      set.dispatch({ name: "x" }, ctx2);
      assert.equal(seen.length, 3);
      assert.ok(seen.every((c) => c === ctx2));
    });

    test("bad calls and palettes are TypeErrors naming them", () => {
      const set = new ToolPolicies([]);
      assert.throws(() => set.dispatch(undefined, {}), /dispatch: call/);
      assert.throws(() => set.dispatch({ name: 5 }, {}), /dispatch: call\.name/);
      assert.throws(() => set.dispatch({ name: "a" }, {}, 5), /dispatch: palette/);
      assert.throws(() => set.dispatch({ name: "a" }, {}, [1]), /dispatch: palette\[0\]/);
    });
  });

  describe("errors in the caller's functions", () => {
    const boom = new Error("boom");
    const thrower = () => { throw boom; };
    const cases = [
      ["match at PRE", [{ name: "pm", match: thrower, model: 1 }], (s) => s.selectModel({}), /"pm": match threw at the PRE-model seam/],
      ["match at POST", [{ name: "qm", match: thrower, redirectTo: "t" }], (s) => s.dispatch({ name: "a" }, {}), /"qm": match threw at the POST-model seam/],
      ["guard", [{ name: "g", match: yes, guard: thrower, redirectTo: "t" }], (s) => s.dispatch({ name: "a" }, {}), /"g": guard threw at the POST-model seam/],
      ["argsTransform", [{ name: "t", match: yes, argsTransform: thrower, redirectTo: "t" }], (s) => s.dispatch({ name: "a", args: {} }, {}), /"t": argsTransform threw at the POST-model seam/],
    ];
    for (const [what, specs, seam, message] of cases) {
      test(`${what} that throws: an Error naming policy, function and seam, with cause`, () => {
        const set = new ToolPolicies(specs);
        assert.throws(() => seam(set), (e) => e instanceof Error && message.test(e.message) && e.cause === boom);
      });
    }

    test("a thrown non-Error is the cause as it was", () => {
      const set = new ToolPolicies([{ name: "s", match: () => { throw "text"; }, model: 1 }]);
      assert.throws(() => set.selectModel({}), (e) => e.cause === "text");
    });

    test("a predicate returning a promise or thenable is an error, never truthy", () => {
      const promise = Promise.resolve(true);
      const thenable = { then() {} };
      for (const value of [promise, thenable]) {
        const set = new ToolPolicies([{ name: "async", match: () => value, model: 1, redirectTo: "t" }]);
        assert.throws(() => set.selectModel({}), (e) => /"async": match returned a promise/.test(e.message) && e.cause === value);
        assert.throws(() => set.dispatch({ name: "a" }, {}), (e) => /POST-model/.test(e.message) && e.cause === value);
        const guarded = new ToolPolicies([{ name: "ag", match: yes, guard: () => value, redirectTo: "t" }]);
        assert.throws(() => guarded.dispatch({ name: "a" }, {}), /"ag": guard returned a promise/);
      }
    });

    test("argsTransform must return a plain object", () => {
      for (const out of [undefined, null, "x", [1], Promise.resolve({}), new Map()]) {
        const set = new ToolPolicies([{ name: "t", match: yes, redirectTo: "t", argsTransform: () => out }]);
        assert.throws(() => set.dispatch({ name: "a", args: {} }, {}), (e) => /"t": argsTransform/.test(e.message));
      }
      const ok = new ToolPolicies([{ name: "t", match: yes, redirectTo: "t", argsTransform: () => Object.create(null) }]);
      assert.equal(ok.dispatch({ name: "a" }, {}).call.name, "t");
    });

    test("the adopter's own callback errors pass through unchanged", () => {
      const err = new RangeError("adopter");
      const set = new ToolPolicies([], { onToolCallDispatch: () => { throw err; } });
      assert.throws(() => set.dispatch({ name: "a" }, {}), (e) => e === err);
    });

    test("after an error the seams keep answering", () => {
      const set = new ToolPolicies([
        { name: "flaky", match: (c) => { if (c.fail) throw new Error("x"); return true; }, model: 7, redirectTo: "t" },
      ]);
      assert.throws(() => set.selectModel({ fail: true }));
      assert.throws(() => set.dispatch({ name: "a" }, { fail: true }));
      assert.equal(set.selectModel({}).model, 7);
      assert.equal(set.dispatch({ name: "a" }, {}).call.name, "t");
    });

    test("a predicate may call the seams re-entrantly", () => {
      let inner;
      const set = new ToolPolicies([
        {
          name: "outer",
          match: (c) => {
            if (c.depth < 2) inner = set.dispatch({ name: "a" }, { depth: c.depth + 1 });
            return true;
          },
          redirectTo: "t",
          model: "m",
        },
      ]);
      const d = set.dispatch({ name: "a" }, { depth: 0 });
      assert.equal(d.call.name, "t");
      assert.equal(inner.call.name, "t");
      assert.equal(set.selectModel({ depth: 0 }).model, "m");
    });
  });

  describe("dropped-redirect warnings without onWarning", () => {
    test("go through process.emitWarning", async () => {
      const got = [];
      const listener = (w) => got.push(w);
      process.on("warning", listener);
      try {
        const set = new ToolPolicies([{ name: "r", match: yes, redirectTo: "sql_query" }]);
        set.dispatch({ name: "web_search" }, {}, ["web_search"]);
        await new Promise((ok) => setImmediate(ok));
      } finally {
        process.off("warning", listener);
      }
      const mine = got.filter((w) => w.name === "ToolRedirectDroppedWarning");
      assert.equal(mine.length, 1);
      assert.equal(mine[0].target, "sql_query");
    });
  });
}
