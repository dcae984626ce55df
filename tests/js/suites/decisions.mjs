// Decision reports: SPEC section 5, against whichever build of the package is handed in.
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { REASONS } from "./routing.mjs";

const never = () => new Promise(() => {});

export function decisions(tp) {
  const { resolvePalette, ToolRouter, Routed, RoutingRefusal, RoutingUnavailable } = tp;
  const REG = ["search", "calendar", "mail"];

  // Resolves once and returns [outcome, the reports onDecision received].
  async function decided(options) {
    const reports = [];
    const outcome = await resolvePalette({ registered: REG, ...options, onDecision: (d) => reports.push(d) });
    return [outcome, reports];
  }

  describe("onDecision: one report per resolution, built from what the core decided", () => {
    test("routed: each row's fate with its trimmed candidate, and the hidden names", async () => {
      const [outcome, [d, ...more]] = await decided({
        entries: async () => ["mail", " ghost ", { tool: "search", active: false }, 42, "  ", { toolName: "mail" }, "ghost", { content: "calendar" }],
      });
      assert.equal(more.length, 0);
      assert.equal(d.outcome, outcome, "the very object the call resolves to");
      assert.ok(outcome instanceof Routed);
      assert.equal(d.rule, "routed");
      assert.deepEqual(d.rows, [
        { index: 0, fate: "routed", candidate: "mail" },
        { index: 1, fate: "unresolved", candidate: "ghost" },
        { index: 2, fate: "inactive", candidate: null },
        { index: 3, fate: "no-candidate", candidate: null },
        { index: 4, fate: "no-candidate", candidate: null },
        { index: 5, fate: "duplicate", candidate: "mail" },
        { index: 6, fate: "duplicate", candidate: "ghost" },
        { index: 7, fate: "routed", candidate: "calendar" },
      ]);
      assert.deepEqual(d.hidden, ["search"]);
      assert.equal(typeof d.retrievalMs, "number");
      assert.ok(d.retrievalMs >= 0);
    });

    test("hidden follows registration order, each name once", async () => {
      const [, [d]] = await decided({ registered: ["z", "a", "z", "b", "a"], entries: () => ["b"] });
      assert.deepEqual(d.hidden, ["z", "a"]);
    });

    test("every refusal reports its rule; rows only when rows were read", async () => {
      const cases = [
        [{ entries: null }, "1", REASONS.noLayer, 0],
        [{ entries: () => { throw new RangeError("x"); } }, "2a", REASONS.failed("RangeError"), 0],
        [{ entries: never, timeoutMs: 1 }, "2b", REASONS.timedOut(1), 0],
        [{ entries: async () => null }, "3", REASONS.noSkills, 0],
        [{ entries: async () => [] }, "3", REASONS.noSkills, 0],
        [{ entries: () => [{ tool: "mail", active: false }, { content: "x", active: false }] }, "4", REASONS.inactive, 2],
        [{ entries: () => ["ghost", 7] }, "5", REASONS.unresolved, 2],
      ];
      for (const [options, rule, reason, rows] of cases) {
        const [outcome, [d]] = await decided(options);
        assert.ok(outcome instanceof RoutingRefusal, rule);
        assert.equal(outcome.reason, reason);
        assert.equal(d.rule, rule);
        assert.equal(d.outcome, outcome);
        assert.equal(d.rows.length, rows, rule);
        assert.deepEqual(d.hidden, [], "a refusal hides nothing");
      }
      const [, [five]] = await decided({ entries: () => ["ghost", 7] });
      assert.deepEqual(five.rows, [
        { index: 0, fate: "unresolved", candidate: "ghost" },
        { index: 1, fate: "no-candidate", candidate: null },
      ]);
      const [, [four]] = await decided({ entries: () => [{ tool: "mail", active: false }] });
      assert.deepEqual(four.rows, [{ index: 0, fate: "inactive", candidate: null }]);
    });

    test("retrievalMs: 0 when entries was not called, the store's time otherwise", async () => {
      const [, [none]] = await decided({ entries: null });
      assert.equal(none.retrievalMs, 0);
      const [, [slow]] = await decided({ entries: () => new Promise((ok) => setTimeout(() => ok(["mail"]), 30)) });
      assert.ok(slow.retrievalMs >= 20, `retrievalMs ${slow.retrievalMs}`);
    });

    test("reports are frozen, JSON-serialisable, and their strings are the caller's own", async () => {
      const odd = "mail\uD800";
      const [, [d]] = await decided({ registered: [odd, "x\uDC00"], entries: () => [` ${odd} `, "y\uDBFF"] });
      assert.ok(Object.isFrozen(d) && Object.isFrozen(d.rows) && Object.isFrozen(d.hidden));
      assert.ok(d.rows.every(Object.isFrozen));
      assert.equal(d.rows[0].candidate, odd);
      assert.equal(d.rows[1].candidate, "y\uDBFF");
      assert.deepEqual(d.hidden, ["x\uDC00"]);
      const json = JSON.parse(JSON.stringify(d));
      assert.deepEqual(Object.keys(json), ["outcome", "rule", "rows", "hidden", "retrievalMs"]);
      assert.deepEqual(json.outcome, { kind: "routed", names: [odd], unresolved: ["y\uDBFF"] });
    });

    test("called synchronously just before the promise settles; never for a call that rejects", async () => {
      const order = [];
      await resolvePalette({ entries: async () => ["mail"], registered: REG, onDecision: () => order.push("report") }).then(() => order.push("settled"));
      assert.deepEqual(order, ["report", "settled"]);
      let calls = 0;
      const onDecision = () => calls++;
      await assert.rejects(resolvePalette({ entries: () => [], registered: [1], onDecision }), TypeError);
      await assert.rejects(resolvePalette({ entries: () => [], registered: REG, onDecision, signal: AbortSignal.abort(new Error("stop")) }));
      const ctl = new AbortController();
      const p = resolvePalette({ entries: never, registered: REG, onDecision, signal: ctl.signal });
      ctl.abort(new Error("later"));
      await assert.rejects(p, /later/);
      assert.equal(calls, 0);
    });

    test("its exception rejects the call with that very exception; the module keeps working", async () => {
      const boom = new RangeError("report failed");
      await assert.rejects(resolvePalette({ entries: () => ["mail"], registered: REG, onDecision: () => { throw boom; } }), (e) => e === boom);
      await assert.rejects(resolvePalette({ entries: async () => ["mail"], registered: REG, onDecision: () => { throw boom; } }), (e) => e === boom);
      const [outcome] = await decided({ entries: () => ["mail"] });
      assert.deepEqual(outcome.names, ["mail"]);
    });

    test("onDecision must be a function", async () => {
      await assert.rejects(resolvePalette({ entries: () => [], registered: REG, onDecision: "log" }), /resolvePalette: options\.onDecision/);
      assert.throws(() => new ToolRouter({ registered: REG, onDecision: 5 }), /ToolRouter: options\.onDecision/);
      const router = new ToolRouter({ entries: () => [], registered: REG });
      await assert.rejects(router.resolve({ onDecision: {} }), /ToolRouter\.resolve: options\.onDecision/);
    });
  });

  describe("ToolRouter: onDecision for every resolve()", () => {
    test("the router's, then the call's own, with the same report", async () => {
      const seen = [];
      const router = new ToolRouter({ entries: (ctx) => [ctx.q], registered: REG, onDecision: (d) => seen.push(["router", d]) });
      const outcome = await router.resolve({ context: { q: "calendar" }, onDecision: (d) => seen.push(["call", d]) });
      assert.deepEqual(seen.map(([who]) => who), ["router", "call"]);
      assert.equal(seen[0][1], seen[1][1]);
      assert.equal(seen[0][1].outcome, outcome);
      assert.deepEqual(seen[0][1].hidden, ["search", "mail"]);
      await router.resolve();
      assert.equal(seen.length, 3);
    });

    test("a router that cannot route reports `unavailable` on every turn, reading nothing", async () => {
      const seen = [];
      const router = new ToolRouter({ registered: REG, onWarning: () => {}, onDecision: (d) => seen.push(d) });
      const outcome = await router.resolve();
      assert.ok(outcome instanceof RoutingUnavailable);
      assert.deepEqual(JSON.parse(JSON.stringify(seen[0])), {
        outcome: { kind: "unavailable", missing: ["procedural-layer"] },
        rule: "unavailable",
        rows: [],
        hidden: [],
        retrievalMs: 0,
      });
      assert.equal(seen[0].outcome, router.unavailable);
    });
  });

  describe("rows that name skills (SPEC 9): the relevant skills on the outcome, each row's skill in the report", () => {
    test("the active rows' skills, each once, in order; a disabled skill's never; the report names every row's", async () => {
      const [outcome, [d]] = await decided({
        entries: () => [
          { skill: "pdf", tool: "mail" },
          { skill: "pdf", tool: "ghost" },
          { skill: "notes", active: true },
          { skill: "off", tool: "search", active: false },
          "calendar",
          { skill: 42, tool: "calendar" },
          { skill: " pdf", tool: "mail" },
        ],
      });
      assert.ok(outcome instanceof Routed);
      assert.deepEqual(outcome.names, ["mail", "calendar"]);
      assert.deepEqual(outcome.unresolved, ["ghost"]);
      // Names are exact strings: " pdf" is another skill than "pdf".
      assert.deepEqual(outcome.skills, ["pdf", "notes", " pdf"]);
      assert.ok(Object.isFrozen(outcome.skills));
      assert.deepEqual(d.rows.map((r) => r.skill), ["pdf", "pdf", "notes", "off", undefined, undefined, " pdf"]);
      assert.deepEqual(d.rows[3], { index: 3, fate: "inactive", candidate: null, skill: "off" });
      assert.ok(!("skill" in d.rows[4]), "a row without a skill has no `skill`");
    });

    test("refusals keep their words and still name the relevant skills", async () => {
      const cases = [
        [() => [{ skill: "a", tool: "mail", active: false }, { skill: "b", active: false }], "4", REASONS.inactive, []],
        [() => [{ skill: "prose", active: true }, { skill: "gone", tool: "ghost" }], "5", REASONS.unresolved, ["prose", "gone"]],
      ];
      for (const [entries, rule, reason, skills] of cases) {
        const [outcome, [d]] = await decided({ entries });
        assert.ok(outcome instanceof RoutingRefusal, rule);
        assert.equal(d.rule, rule);
        assert.equal(outcome.reason, reason);
        assert.deepEqual(outcome.skills, skills);
      }
    });

    test("no row names a skill: outcomes and rows are as they were (no `skills`)", async () => {
      const [outcome, [d]] = await decided({ entries: () => ["mail", { tool: "search" }] });
      assert.ok(!("skills" in outcome));
      assert.deepEqual(JSON.parse(JSON.stringify(d.rows)), [
        { index: 0, fate: "routed", candidate: "mail" },
        { index: 1, fate: "routed", candidate: "search" },
      ]);
      const [empty] = await decided({ entries: () => [] });
      assert.ok(!("skills" in empty));
    });

    test("a skill that throws as it is read fails the turn as the store failing (rule 2a)", async () => {
      const row = { tool: "mail", get skill() { throw new SyntaxError("no"); } };
      const [outcome, [d]] = await decided({ entries: () => [row] });
      assert.equal(d.rule, "2a");
      assert.equal(outcome.reason, REASONS.failed("SyntaxError"));
    });

    test("the constructors take skills", () => {
      assert.deepEqual(new Routed(["a"], [], ["s"]).skills, ["s"]);
      assert.ok(!("skills" in new Routed(["a"])));
      assert.deepEqual(new RoutingRefusal("r", [], ["s"]).skills, ["s"]);
      assert.throws(() => new Routed(["a"], [], [1]), TypeError);
    });
  });
}
