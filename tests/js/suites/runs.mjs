// Runs: SPEC section 8, against whichever build of the package is handed in.
import { test, describe } from "node:test";
import assert from "node:assert/strict";

export function runs(tp) {
  const { PaletteRun, resolvePalette, ToolRouter, ToolIndex } = tp;
  const REG = ["search", "ls", "cd", "cat", "sort"];
  // A Routed outcome of these names (a router over every name, so none is left out).
  const routed = (names, registered = REG) => resolvePalette({ registered, entries: () => names });
  const refused = () => resolvePalette({ registered: REG, entries: () => [] });
  const lists = (s) => ({ offered: s.offered, listed: s.listed, deferred: s.deferred, revealed: s.revealed, kept: s.kept });

  // Steps over the same outcomes: ["cd","ls"], ["cat"], a refusal, ["ls"], ["sort"].
  async function walk(cache, pinned) {
    const run = new PaletteRun({ registered: REG, cache, pinned });
    const out = [];
    for (const names of [["cd", "ls"], ["cat"], null, ["ls"], ["sort"]]) {
      out.push(run.step(await (names ? routed(names) : refused())));
    }
    return [run, out];
  }

  describe("PaletteRun: each strategy's lists, exact and in order", () => {
    test("per-turn: listed = offered = the step's palette, in registration order", async () => {
      const [run, steps] = await walk("per-turn", ["search"]);
      assert.deepEqual(steps.map((s) => s.listed), [
        ["search", "ls", "cd"],
        ["search", "cat"],
        REG,
        ["search", "ls"],
        ["search", "sort"],
      ]);
      for (const s of steps) assert.deepEqual(s.offered, s.listed);
      assert.deepEqual(steps.map((s) => s.kept), [false, false, false, false, false]);
      assert.deepEqual(steps.map((s) => s.step), [1, 2, 3, 4, 5]);
      assert.equal(run.size, 5);
    });

    test("append: the previous list, then the palette's new names; nothing removed", async () => {
      const [, steps] = await walk("append");
      assert.deepEqual(steps.map(lists), [
        { offered: ["ls", "cd"], listed: ["ls", "cd"], deferred: [], revealed: [], kept: false },
        { offered: ["ls", "cd", "cat"], listed: ["ls", "cd", "cat"], deferred: [], revealed: [], kept: false },
        { offered: ["ls", "cd", "cat", "search", "sort"], listed: ["ls", "cd", "cat", "search", "sort"], deferred: [], revealed: [], kept: false },
        { offered: ["ls", "cd", "cat", "search", "sort"], listed: ["ls", "cd", "cat", "search", "sort"], deferred: [], revealed: [], kept: true },
        { offered: ["ls", "cd", "cat", "search", "sort"], listed: ["ls", "cd", "cat", "search", "sort"], deferred: [], revealed: [], kept: true },
      ]);
    });

    test("append is the default", async () => {
      const run = new PaletteRun({ registered: REG });
      run.step(await routed(["cat"]));
      assert.deepEqual(run.step(await routed(["cd"])).listed, ["cat", "cd"]);
    });

    test("fixed: every registered name listed, the palette offered", async () => {
      const [, steps] = await walk("fixed", ["search"]);
      assert.deepEqual(steps.map((s) => s.offered), [["search", "ls", "cd"], ["search", "cat"], REG, ["search", "ls"], ["search", "sort"]]);
      for (const s of steps) assert.deepEqual([s.listed, s.deferred, s.revealed], [REG, [], []]);
      assert.deepEqual(steps.map((s) => s.kept), [false, true, true, true, true]);
    });

    test("deferred: pinned listed, the rest deferred, new names revealed once", async () => {
      const [, steps] = await walk("deferred", ["search"]);
      const deferred = ["ls", "cd", "cat", "sort"];
      assert.deepEqual(steps.map(lists), [
        { offered: ["search", "ls", "cd"], listed: ["search"], deferred, revealed: ["ls", "cd"], kept: false },
        { offered: ["search", "ls", "cd", "cat"], listed: ["search"], deferred, revealed: ["cat"], kept: true },
        // A refusal offers every tool and reveals nothing.
        { offered: REG, listed: ["search"], deferred, revealed: [], kept: true },
        { offered: ["search", "ls", "cd", "cat"], listed: ["search"], deferred, revealed: [], kept: true },
        { offered: ["search", "ls", "cd", "cat", "sort"], listed: ["search"], deferred, revealed: ["sort"], kept: true },
      ]);
    });

    test("deferred without pinned names lists nothing and defers every tool", async () => {
      const run = new PaletteRun({ registered: REG, cache: "deferred" });
      const s = run.step(await routed(["sort", "ls"]));
      assert.deepEqual([s.listed, s.deferred, s.revealed, s.offered], [[], REG, ["ls", "sort"], ["ls", "sort"]]);
    });

    test("an unavailable outcome is every tool, like a refusal", async () => {
      const unavailable = await new ToolRouter({ registered: REG }).resolve();
      assert.equal(unavailable.kind, "unavailable");
      const run = new PaletteRun({ registered: REG, cache: "per-turn" });
      assert.deepEqual(run.step(unavailable).offered, REG);
    });
  });

  describe("PaletteRun: names and results", () => {
    test("names are the caller's exact strings, each once", async () => {
      const odd = ["a\uD800", "a\uDC00", "a", "__proto__", "a"];
      const run = new PaletteRun({ registered: odd, cache: "fixed" });
      const s = run.step(await routed(["a\uDC00", "__proto__"], odd));
      assert.deepEqual(s.offered, ["a\uDC00", "__proto__"]);
      assert.deepEqual(s.listed, ["a\uD800", "a\uDC00", "a", "__proto__"]);
    });

    test("a step is frozen, its lists too", async () => {
      const s = new PaletteRun({ registered: REG }).step(await routed(["ls"]));
      assert.ok(Object.isFrozen(s));
      for (const k of ["offered", "listed", "deferred", "revealed"]) assert.ok(Object.isFrozen(s[k]), k);
      assert.deepEqual(Object.keys(s), ["step", "offered", "listed", "deferred", "revealed", "kept"]);
    });

    test("the run is frozen and counts its steps", async () => {
      const run = new PaletteRun({ registered: REG });
      assert.ok(Object.isFrozen(run));
      assert.equal(run.size, 0);
      run.step(await refused());
      assert.equal(run.size, 1);
    });
  });

  describe("PaletteRun: errors name the argument", () => {
    test("an outcome naming a tool that is not registered is a TypeError; the run is as it was", async () => {
      const run = new PaletteRun({ registered: REG, cache: "append" });
      run.step(await routed(["ls"]));
      const foreign = await routed(["ls", "rm"], ["ls", "rm"]);
      assert.throws(() => run.step(foreign), { name: "TypeError", message: 'PaletteRun.step: outcome.names[1] ("rm") is not a registered tool' });
      assert.equal(run.size, 1);
      const s = run.step(await routed(["cd"]));
      assert.deepEqual([s.step, s.listed], [2, ["ls", "cd"]]);
    });

    test("bad options", () => {
      const cases = [
        [undefined, /^PaletteRun: options must be an object/],
        [{}, /^PaletteRun: options\.registered must be an iterable of strings, got undefined$/],
        [{ registered: ["a", 1] }, /^PaletteRun: options\.registered\[1\] must be a string, got number \(1\)$/],
        [{ registered: REG, cache: "always" }, /^PaletteRun: options\.cache must be "per-turn", "append", "fixed" or "deferred", got "always"$/],
        [{ registered: REG, cache: null }, /^PaletteRun: options\.cache must be .*, got null$/],
        [{ registered: REG, pinned: "search" }, /^PaletteRun: options\.pinned must be an iterable of strings, got string$/],
        [{ registered: REG, pinned: ["search", "zz"] }, /^PaletteRun: options\.pinned\[1\] \("zz"\) is not a registered tool$/],
        [{ registered: REG, pinned: 3 }, /^PaletteRun: options\.pinned must be an iterable of strings, got number \(3\)$/],
      ];
      for (const [options, message] of cases) assert.throws(() => new PaletteRun(options), { name: "TypeError", message }, String(options && JSON.stringify(options)));
    });

    test("a step that is not an outcome", () => {
      const run = new PaletteRun({ registered: REG });
      for (const bad of [undefined, null, "routed", { kind: "maybe" }, { kind: "routed", names: [] }]) {
        assert.throws(() => run.step(bad), { name: "TypeError", message: /^PaletteRun\.step: outcome/ });
      }
      assert.equal(run.size, 0);
    });

    test("reveal: tools the model loaded itself are offered from the next step on, and never revealed again", async () => {
      const run = new PaletteRun({ registered: REG, cache: "deferred", pinned: ["search"] });
      const first = run.step(await routed(["ls"]));
      assert.deepEqual(first.offered, ["search", "ls"]);
      // The model searched and loaded cat and ls (ls was revealed already, search is pinned).
      const added = run.reveal(["cat", "ls", "search", "cat"]);
      assert.deepEqual(added, ["cat"]);
      assert.ok(Object.isFrozen(added));
      assert.equal(run.size, 1, "a reveal is no step");
      const next = run.step(await routed(["cat", "sort"]));
      assert.deepEqual(lists(next), { offered: ["search", "ls", "cat", "sort"], listed: ["search"], deferred: ["ls", "cd", "cat", "sort"], revealed: ["sort"], kept: true });
      assert.deepEqual(run.reveal(new Set(["cd"])), ["cd"]);
      assert.deepEqual(run.step(await refused()).revealed, []);
    });

    test("reveal: a name not registered is a TypeError (the run as it was); other strategies and a disposed run are Errors", async () => {
      const run = new PaletteRun({ registered: REG, cache: "deferred" });
      assert.throws(() => run.reveal(["cat", "ghost"]), { name: "TypeError", message: 'PaletteRun.reveal: names[1] ("ghost") is not a registered tool' });
      assert.throws(() => run.reveal("cat"), (e) => e instanceof TypeError && /^PaletteRun\.reveal: names must be/.test(e.message));
      assert.deepEqual(run.step(await routed(["ls"])).offered, ["ls"], "cat was not revealed");
      for (const cache of ["per-turn", "append", "fixed"]) {
        const other = new PaletteRun({ registered: REG, cache });
        assert.throws(() => other.reveal(["cat"]), { name: "Error", message: `PaletteRun.reveal: only a "deferred" run reveals tools (this run is "${cache}")` });
      }
      run.dispose();
      assert.throws(() => run.reveal(["cat"]), { name: "Error", message: "PaletteRun: reveal() after dispose()" });
      assert.throws(() => PaletteRun.prototype.reveal.call({}, ["cat"]), TypeError);
    });

    test("a step after dispose() is an Error; dispose() twice does nothing", async () => {
      const run = new PaletteRun({ registered: REG });
      run.step(await routed(["ls"]));
      run.dispose();
      run.dispose();
      assert.throws(() => run.step(undefined), { name: "Error", message: "PaletteRun: step() after dispose()" });
      assert.equal(run.size, 1);
    });
  });

  // Routing that uses the run (SPEC 8): tools' namespaces, and entries({ message, history }).
  const FS = [
    { name: "cd", description: "Change the current directory", namespace: "files" },
    { name: "ls", description: "List the files of the directory", namespace: "files" },
    { name: "sort", description: "Sort a file by line", namespace: "files" },
    { name: "mean", description: "The mean of a list of numbers", namespace: "math" },
    { name: "add", description: "Add two numbers", namespace: "math" },
    { name: "weather", description: "The weather of a city" },
    { name: "forecast", description: "The weather forecast of a city", namespace: null },
  ];
  const tools = (rows) => rows.map((r) => r.tool);

  describe("PaletteRun: a run outlives its process (save, load)", () => {
    const outcomes = [["cd", "ls"], ["cat"], null, ["ls"], ["sort"], ["search", "cat"]];
    for (const cache of ["per-turn", "append", "fixed", "deferred"]) {
      test(`${cache}: a run saved after any step and loaded takes every next step exactly as the unbroken run`, async () => {
        for (let cut = 0; cut <= outcomes.length; cut++) {
          const whole = new PaletteRun({ registered: REG, cache, pinned: ["search"] });
          const broken = new PaletteRun({ registered: REG, cache, pinned: ["search"] });
          let restored = broken;
          for (const [k, names] of outcomes.entries()) {
            if (k === cut) restored = PaletteRun.load(restored.save(), { registered: [...REG] });
            const outcome = await (names ? routed(names) : refused());
            if (cache === "deferred" && k === 2) (whole.reveal(["sort"]), restored.reveal(["sort"]));
            assert.deepEqual(restored.step(outcome), whole.step(outcome), `${cache}, saved before step ${k + 1}`);
          }
          assert.equal(restored.size, whole.size);
          assert.ok(restored instanceof PaletteRun && Object.isFrozen(restored));
        }
      });
    }

    test("the saved form is short versioned text; another list, another order, or altered text is a TypeError saying which", async () => {
      const run = new PaletteRun({ registered: REG, cache: "deferred" });
      run.step(await routed(["cd"]));
      const saved = run.save();
      assert.match(saved, /^tprun1\.[A-Za-z0-9_-]+$/);
      assert.ok(saved.length < 40, saved);
      assert.equal(PaletteRun.load(saved, { registered: REG }).step(await routed(["ls"])).revealed.join(), "ls");
      const message = (f) => { try { f(); } catch (e) { return [e.constructor.name, e.message]; } return "loaded"; };
      // Another registered list (by count or by names) says so by its code; a form that is no sound saved run has none.
      const code = (f) => { try { f(); } catch (e) { return e.code; } return "loaded"; };
      assert.deepEqual([REG.slice(1), [...REG].reverse()].map((registered) => code(() => PaletteRun.load(saved, { registered }))), ["REGISTERED_MISMATCH", "REGISTERED_MISMATCH"]);
      assert.deepEqual([saved.slice(0, -2), "tprun9.AAAA", 42].map((form) => code(() => PaletteRun.load(form, { registered: REG }))), [undefined, undefined, undefined]);
      assert.equal(code(() => PaletteRun.load(saved, { registered: [...REG, 1] })), undefined);
      assert.deepEqual(message(() => PaletteRun.load(saved, { registered: REG.slice(1) })), ["TypeError", "PaletteRun.load: options.registered has 4 names; the run was saved over 5: pass the registered list it was saved with"]);
      assert.deepEqual(message(() => PaletteRun.load(saved, { registered: [...REG].reverse() })), ["TypeError", "PaletteRun.load: options.registered is not the list the run was saved with (as many names, but not the same ones in the same order): pass the registered list it was saved with"]);
      assert.deepEqual(message(() => PaletteRun.load(saved.slice(0, -2), { registered: REG })), ["TypeError", "PaletteRun.load: saved is not a saved PaletteRun (from run.save()), or it was cut short or altered"]);
      assert.deepEqual(message(() => PaletteRun.load("tprun9.AAAA", { registered: REG })), ["TypeError", "PaletteRun.load: saved is a saved PaletteRun of another version of tool-palette"]);
      assert.deepEqual(message(() => PaletteRun.load(42, { registered: REG })), ["TypeError", "PaletteRun.load: saved must be a string (from run.save()), got number (42)"]);
      assert.deepEqual(message(() => PaletteRun.load(saved)), ["TypeError", "PaletteRun.load: options must be an object with `registered`, got undefined"]);
      assert.throws(() => run.dispose() ?? run.save(), /after dispose/);
    });

    test("exact names: lone surrogates and duplicates in the registered list survive a save and a load", async () => {
      const odd = ["a\uD800", "\uFEFFb ", "a\uD800", "__proto__"];
      const run = new PaletteRun({ registered: odd, cache: "append" });
      const outcome = await resolvePalette({ registered: odd, entries: () => ["x"], candidateOf: () => "__proto__" });
      run.step(outcome);
      const back = PaletteRun.load(run.save(), { registered: odd });
      assert.deepEqual(back.step(outcome), run.step(outcome));
      assert.throws(() => PaletteRun.load(run.save(), { registered: ["a\uDC00", "\uFEFFb ", "a\uD800", "__proto__"] }), /not the list the run was saved with/);
    });
  });

  describe("ToolIndex: namespaces and history (SPEC 8)", () => {
    test("the first hit's namespace comes whole after the hits when it is no larger than the limit, or in a run; else its best tools", () => {
      const index = new ToolIndex(FS, { limit: 1 });
      // One message: files (3 tools) is larger than the limit; of it, sort alone ranks.
      assert.deepEqual(tools(index.entries("sort by line")), ["sort"]);
      assert.deepEqual(tools(new ToolIndex(FS, { limit: 3 }).entries("sort by line")), ["sort", "cd", "ls"]);
      // In a run (a history, even an empty one), whole.
      assert.deepEqual(tools(index.entries({ message: "sort by line", history: ["zzz"] })), ["sort", "cd", "ls"]);
      assert.deepEqual(tools(index.entries({ message: "sort by line", history: [] })), ["sort", "cd", "ls"]);
      assert.deepEqual(tools(index.entries({ message: "forecast" })), ["forecast"]);
      // search stays the ranking alone.
      assert.deepEqual(index.search("sort by line").map((h) => h.name), ["sort"]);
    });

    test("the history's last message brings its namespaces; a miss still gives no rows", () => {
      const index = new ToolIndex(FS, { limit: 1 });
      assert.deepEqual(tools(index.entries({ message: "the mean", history: ["weather", "sort the file"] })), ["mean", "add", "cd", "ls", "sort"]);
      assert.deepEqual(tools(index.entries({ message: "zzz", history: ["sort the file"] })), []);
      // An empty history is a run's first turn: in a run, the namespace comes whole.
      assert.deepEqual(tools(index.entries({ message: "the mean", history: [] })), ["mean", "add"]);
      assert.deepEqual(tools(index.entries({ message: "the mean", history: null })), ["mean"]);
    });

    test("in a run, a namespace the model called in comes whole (context.called, optional); called names are checked", async () => {
      const index = new ToolIndex(FS, { limit: 2 });
      // files ranks one tool for "sort by line": fewer deep hits than the limit, so its best tool alone ...
      assert.deepEqual(tools(index.entries({ message: "sort by line", history: [] })), ["sort"]);
      // ... and whole once the run called one of its tools; names the index lacks, or without a namespace, add nothing.
      assert.deepEqual(tools(index.entries({ message: "sort by line", history: [], called: ["ls"] })), ["sort", "cd", "ls"]);
      assert.deepEqual(tools(index.entries({ message: "sort by line", history: [], called: ["weather", "nope"] })), ["sort"]);
      // called is the run's: without a history it changes nothing.
      assert.deepEqual(tools(index.entries({ message: "sort by line", called: ["ls"] })), ["sort"]);
      // The called namespace comes whole though the message names another; the run stands in it, so the hits
      // without a namespace give way but for the first (none of the turn's namespaces' tools ranks to weigh it against).
      assert.deepEqual(tools(index.entries({ message: "the weather", history: [], called: ["cd"] })), ["weather", "cd", "ls", "sort"]);
      // Without a call, no namespace is the turn's: the hits stay.
      assert.deepEqual(tools(index.entries({ message: "the weather", history: [] })), ["weather", "forecast"]);
      assert.throws(() => index.entries({ message: "sort", history: [], called: "ls" }), { name: "TypeError", message: "ToolIndex.entries: context.called must be an iterable of strings, got string" });
      assert.throws(() => index.entries({ message: "sort", history: [], called: ["ls", 2] }), { name: "TypeError", message: "ToolIndex.entries: context.called[1] must be a string, got number (2)" });
      // Through a router and a run: what the model called in turn 1 comes whole in turn 2.
      const registered = FS.map((t) => t.name);
      const router = new ToolRouter({ registered, entries: index.entries });
      const run = new PaletteRun({ registered, cache: "deferred" });
      const [history, called, steps] = [[], [], []];
      for (const [message, calls] of [["sort the lines", ["sort"]], ["and now the weather", []]]) {
        steps.push(run.step(await router.resolve({ context: { message, history: [...history], called: [...called] } })));
        history.push(message);
        called.push(...calls);
      }
      assert.deepEqual(steps.map((s) => s.revealed), [["sort"], ["cd", "ls", "weather"]]);
    });

    test("a context's history or called longer than a call may hold is a RangeError naming it, never a list cut short", () => {
      const index = new ToolIndex(FS);
      // An iterable that is no array: read one past the most, then refused (a cut list would give a wrong last message, or lose a call).
      const many = function* (last) { for (let i = 0; i < 1 << 20; i++) yield `u${i}`; yield last; };
      const tooLarge = (what) => ({ name: "RangeError", message: `ToolIndex.entries: context.${what} is too large: a call takes at most 1,048,576 names and 8,388,608 code units of names` });
      assert.throws(() => index.entries({ message: "sort by line", history: [], called: many("ls") }), tooLarge("called"));
      assert.throws(() => index.entries({ message: "sort by line", history: many("the weather") }), tooLarge("history"));
      assert.throws(() => index.entries({ message: "sort by line", history: [], called: [...many("ls")] }), tooLarge("called"));
    });

    test("namespaces are exact strings, kept by snapshots", () => {
      const odd = [
        { name: "a", description: "alpha", namespace: "n\uD800" },
        { name: "b", description: "beta", namespace: "n\uDC00" },
        { name: "c", description: "gamma", namespace: "n\uD800" },
      ];
      const index = new ToolIndex(odd);
      assert.deepEqual(tools(index.entries("alpha")), ["a", "c"]);
      assert.deepEqual(tools(ToolIndex.load(index.save()).entries("alpha")), ["a", "c"]);
      // A record of tools reads them too.
      const record = new ToolIndex({ x: { description: "alpha", namespace: "k" }, y: { description: "beta", namespace: "k" } });
      assert.deepEqual(tools(record.entries("alpha")), ["x", "y"]);
    });

    test("a namespace that is not a string, or a history that is not strings, is a TypeError naming it", () => {
      assert.throws(() => new ToolIndex([{ name: "a" }, { name: "b", namespace: 3 }]), { name: "TypeError", message: "ToolIndex: tools[1].namespace must be a string, got number (3)" });
      assert.throws(() => new ToolIndex({ q: { namespace: {} } }), { name: "TypeError", message: 'ToolIndex: tools["q"].namespace must be a string, got an object' });
      const index = new ToolIndex(FS);
      assert.throws(() => index.entries({ message: "sort", history: "sort" }), { name: "TypeError", message: /^ToolIndex\.entries: context\.history must be an iterable of strings/ });
      assert.throws(() => index.entries({ message: "sort", history: ["a", 2] }), { name: "TypeError", message: /^ToolIndex\.entries: context\.history\[1\] must be a string/ });
      const throwing = { message: "sort", get history() { throw new Error("no"); } };
      assert.throws(() => index.entries(throwing), { name: "TypeError", message: "ToolIndex.entries: context.history could not be read" });
    });

    test("with embed, the history is used after the vector is in", async () => {
      const vectors = FS.map((_, i) => [i === 3 ? 1 : 0, i === 3 ? 0 : 1]);
      const index = new ToolIndex(FS, { limit: 1, vectors, embed: async () => [1, 0] });
      assert.deepEqual(tools(await index.entries({ message: "numbers", history: ["sort the file"] })), ["mean", "add", "cd", "ls", "sort"]);
    });

    test("a run over a router over the index: the second turn keeps the first's namespace", async () => {
      const index = new ToolIndex(FS, { limit: 1 });
      const registered = FS.map((t) => t.name);
      const router = new ToolRouter({ registered, entries: index.entries });
      const run = new PaletteRun({ registered, cache: "deferred" });
      const history = [];
      const steps = [];
      for (const message of ["sort the file by line", "and now the mean of it"]) {
        steps.push(run.step(await router.resolve({ context: { message, history: [...history] } })));
        history.push(message);
      }
      assert.deepEqual(steps.map((s) => s.revealed), [["cd", "ls", "sort"], ["mean", "add"]]);
      assert.deepEqual(steps[1].offered, ["cd", "ls", "sort", "mean", "add"]);
      assert.deepEqual(steps.map((s) => s.kept), [false, true]);
    });
  });
}
