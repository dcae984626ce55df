// ToolRouter, RoutingUnavailable, the warning, activeTools and bindPalette: SPEC section 3.
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { REASONS } from "./routing.mjs";

// Runs `body` in a fresh Node process that loaded the package as `tp`.
function child(entry, format, body, { args = [], env = {} } = {}) {
  const load =
    format === "esm"
      ? `const tp = await import(${JSON.stringify(entry)});`
      : `const tp = require(${JSON.stringify(entry)});`;
  const code = format === "esm" ? `${load}\n${body}` : `(async () => { ${load}\n${body} })();`;
  const r = spawnSync(process.execPath, [...args, ...(format === "esm" ? ["--input-type=module"] : []), "-e", code], {
    encoding: "utf8",
    env: { ...process.env, NODE_NO_WARNINGS: "", ...env },
    timeout: 20_000,
  });
  assert.equal(r.status, 0, r.stderr);
  return r;
}

const countWarnings = (stderr) => (stderr.match(/ToolRoutingUnavailableWarning/g) ?? []).length;

export function router(tp, { entry, format }) {
  const { ToolRouter, RoutingUnavailable, RoutingRefusal, Routed, ToolRoutingUnavailableWarning, activeTools, bindPalette } = tp;

  describe("ToolRouter: serving", () => {
    test("indexes once and resolves every turn", async () => {
      const turns = [["mail"], ["search", "ghost"], []];
      let call = 0;
      const seen = [];
      const router = new ToolRouter({
        entries: async () => turns[call++],
        registered: ["search", "mail"],
        onWarning: (w) => seen.push(w),
      });
      assert.equal(router.unavailable, null);
      assert.deepEqual(seen, []);
      const a = await router.resolve();
      const b = await router.resolve({});
      const c = await router.resolve();
      assert.ok(a instanceof Routed);
      assert.deepEqual(a.names, ["mail"]);
      assert.deepEqual([b.names, b.unresolved], [["search"], ["ghost"]]);
      // Router declines stay refusals; they never turn into RoutingUnavailable.
      assert.ok(c instanceof RoutingRefusal);
      assert.equal(c.reason, REASONS.noSkills);
      assert.equal(call, 3);
    });

    test("resolve({ context }) hands the turn's context to entries; without it entries gets no argument", async () => {
      const seen = [];
      const router = new ToolRouter({
        entries: (...args) => (seen.push(args), args.length ? [args[0].message] : ["mail"]),
        registered: ["search", "mail"],
      });
      const ctx = { message: "search" };
      assert.deepEqual((await router.resolve({ context: ctx })).names, ["search"]);
      assert.deepEqual((await router.resolve()).names, ["mail"]);
      assert.equal(seen[0][0], ctx);
      assert.equal(seen[1].length, 0);
    });

    test("dispose() frees the router; later turns reject, a second dispose() does nothing", async () => {
      const router = new ToolRouter({ entries: () => ["a"], registered: ["a"] });
      assert.deepEqual((await router.resolve()).names, ["a"]);
      router.dispose();
      router.dispose();
      await assert.rejects(router.resolve(), /after dispose/);
      if (typeof Symbol.dispose === "symbol") assert.equal(router[Symbol.dispose], router.dispose);
      // Other routers are untouched.
      const other = new ToolRouter({ entries: () => ["b"], registered: ["b"] });
      assert.deepEqual((await other.resolve()).names, ["b"]);
    });

    test("registered is exposed frozen, as given", () => {
      const router = new ToolRouter({ entries: () => [], registered: new Set(["b", "a"]) });
      assert.deepEqual(router.registered, ["b", "a"]);
      assert.ok(Object.isFrozen(router.registered));
      assert.ok(Object.isFrozen(router));
    });

    test("the refusals of section 2 come through: failure, timeout, abort", async () => {
      const failing = new ToolRouter({ entries: () => { throw new RangeError("x"); }, registered: ["a"] });
      assert.equal((await failing.resolve()).reason, REASONS.failed("RangeError"));
      const slow = new ToolRouter({ entries: () => new Promise(() => {}), registered: ["a"], timeoutMs: 3 });
      assert.equal((await slow.resolve()).reason, REASONS.timedOut(3));
      const reason = new Error("stop");
      await assert.rejects(slow.resolve({ signal: AbortSignal.abort(reason) }), (e) => e === reason);
    });

    test("bad arguments throw TypeErrors naming them", () => {
      assert.throws(() => new ToolRouter(5), /ToolRouter: options/);
      assert.throws(() => new ToolRouter({ entries: 1 }), /options\.entries/);
      assert.throws(() => new ToolRouter({ registered: ["a", 1] }), /options\.registered\[1\]/);
      assert.throws(() => new ToolRouter({ registered: ["a"], timeoutMs: -5 }), /options\.timeoutMs/);
      assert.throws(() => new ToolRouter({ registered: ["a"], onWarning: "log" }), /options\.onWarning/);
      const router = new ToolRouter({ entries: () => [], registered: ["a"] });
      return assert.rejects(router.resolve({ signal: "no" }), /options\.signal/);
    });
  });

  describe("ToolRouter: RoutingUnavailable", () => {
    const cases = [
      [{ registered: ["a", "b"] }, ["procedural-layer"]],
      [{ entries: () => ["a"] }, ["no-registered-tools"]],
      [{ entries: () => ["a"], registered: [] }, ["no-registered-tools"]],
      [{}, ["procedural-layer", "no-registered-tools"]],
      [{ entries: null, registered: null }, ["procedural-layer", "no-registered-tools"]],
    ];
    for (const [options, missing] of cases) {
      test(`missing ${missing.join(" + ")} (${Object.keys(options).join(", ") || "no options"})`, async () => {
        const seen = [];
        let probes = 0;
        const opts = { ...options, onWarning: (w) => seen.push(w) };
        if (typeof opts.entries === "function") {
          const inner = opts.entries;
          opts.entries = () => (probes++, inner());
        }
        const router = new ToolRouter(opts);
        assert.ok(router.unavailable instanceof RoutingUnavailable);
        assert.equal(router.unavailable.kind, "unavailable");
        assert.deepEqual(router.unavailable.missing, missing);
        assert.ok(Object.isFrozen(router.unavailable) && Object.isFrozen(router.unavailable.missing));
        assert.equal(JSON.stringify(router.unavailable), JSON.stringify({ kind: "unavailable", missing }));
        for (let i = 0; i < 3; i++) assert.equal(await router.resolve(), router.unavailable);
        assert.equal(probes, 0, "no probing when unavailable");
        assert.equal(seen.length, 1, "exactly one warning per construction");
        const [w] = seen;
        assert.ok(w instanceof ToolRoutingUnavailableWarning && w instanceof Error);
        assert.equal(w.name, "ToolRoutingUnavailableWarning");
        assert.deepEqual(w.missing, missing);
        assert.match(w.message, /full palette is kept/);
        const advises = /serving router/.test(w.message);
        assert.equal(advises, !missing.includes("no-registered-tools"), w.message);
      });
    }

    test("one warning per construction, never per turn", async () => {
      const seen = [];
      const a = new ToolRouter({ registered: ["a"], onWarning: (w) => seen.push(w) });
      const b = new ToolRouter({ registered: ["a"], onWarning: (w) => seen.push(w) });
      await Promise.all([a.resolve(), a.resolve(), b.resolve()]);
      assert.equal(seen.length, 2);
    });
  });

  describe("ToolRouter: warning delivery without onWarning", () => {
    test("process.emitWarning: process.on('warning') receives the warning object", () => {
      const r = child(entry, format, `
        const got = [];
        process.on("warning", (w) => got.push(w));
        new tp.ToolRouter({ registered: ["a"] });
        new tp.ToolRouter({ entries: () => [], registered: ["a"] });
        await new Promise((ok) => setImmediate(ok));
        console.log(JSON.stringify(got.map((w) => [w instanceof tp.ToolRoutingUnavailableWarning, w.name, w.missing])));
      `);
      assert.deepEqual(JSON.parse(r.stdout), [[true, "ToolRoutingUnavailableWarning", ["procedural-layer"]]]);
      assert.equal(countWarnings(r.stderr), 1, r.stderr);
    });

    test("--no-warnings and NODE_NO_WARNINGS=1 silence it", () => {
      const body = `new tp.ToolRouter({ registered: ["a"] }); await new Promise((ok) => setImmediate(ok));`;
      assert.equal(countWarnings(child(entry, format, body).stderr), 1);
      assert.equal(countWarnings(child(entry, format, body, { args: ["--no-warnings"] }).stderr), 0);
      assert.equal(countWarnings(child(entry, format, body, { env: { NODE_NO_WARNINGS: "1" } }).stderr), 0);
    });

    test("console.warn where there is no process.emitWarning", () => {
      const r = child(entry, format, `
        const lines = [];
        console.warn = (...a) => lines.push(a.join(" "));
        globalThis.process = undefined;
        new tp.ToolRouter({ registered: ["a"] });
        console.log(JSON.stringify(lines));
      `);
      const lines = JSON.parse(r.stdout);
      assert.equal(lines.length, 1);
      assert.match(lines[0], /^ToolRoutingUnavailableWarning: .*full palette is kept/);
    });
  });

  describe("activeTools", () => {
    test("routed names, or undefined for every tool", async () => {
      const routed = new Routed(["b", "a"]);
      const names = activeTools(routed);
      assert.deepEqual(names, ["b", "a"]);
      assert.ok(Array.isArray(names) && !Object.isFrozen(names));
      assert.equal(activeTools(new RoutingRefusal(REASONS.noLayer)), undefined);
      assert.equal(activeTools(new RoutingUnavailable(["procedural-layer"])), undefined);
      assert.throws(() => activeTools(undefined), /activeTools: outcome/);
      assert.throws(() => activeTools(["a"]), /activeTools: outcome/);
    });

    test("never [] (a Routed cannot be empty, nor an outcome that crossed as one)", () => {
      assert.throws(() => new Routed([]), TypeError);
      const crossed = { kind: "routed", names: [], unresolved: [] };
      assert.throws(() => activeTools(crossed), (e) => e instanceof TypeError && /activeTools: outcome\.names must not be empty/.test(e.message));
      assert.throws(() => bindPalette([{ name: "a" }], crossed), (e) => e instanceof TypeError && /outcome\.names must not be empty/.test(e.message));
    });
  });

  describe("bindPalette", () => {
    const web = { name: "web_search" };
    const sql = { name: "sql_query" };
    const cal = { name: "calendar" };

    test("an array keeps the caller's objects and order", () => {
      const tools = [web, sql, cal];
      const out = bindPalette(tools, new Routed(["calendar", "web_search"]));
      assert.deepEqual(out, [web, cal]);
      assert.equal(out[0], web);
      assert.equal(out[1], cal);
      assert.deepEqual(tools, [web, sql, cal], "the input is not changed");
    });

    test("a record keyed by name keeps the caller's objects and key order", () => {
      const tools = { web_search: web, sql_query: sql, calendar: cal };
      const out = bindPalette(tools, new Routed(["calendar", "web_search"]));
      assert.deepEqual(Object.keys(out), ["web_search", "calendar"]);
      assert.equal(out.web_search, web);
      assert.equal(out.calendar, cal);
    });

    test("__proto__ and friends survive binding a record", () => {
      // JSON.parse makes "__proto__" an own property, as a tool registry built from data would.
      const tools = JSON.parse('{"__proto__": 1, "constructor": 2, "toString": 3, "other": 4}');
      const out = bindPalette(tools, new Routed(["__proto__", "toString"]));
      assert.deepEqual(Object.keys(out), ["__proto__", "toString"]);
      assert.ok(Object.prototype.hasOwnProperty.call(out, "__proto__"));
      assert.equal(Object.getPrototypeOf(out), Object.prototype);
      assert.equal(out.toString, 3);
      assert.equal(Object.getOwnPropertyDescriptor(out, "__proto__").value, 1);
    });

    test("refusals and RoutingUnavailable return the input itself", () => {
      const arr = [web];
      const rec = { web_search: web };
      for (const outcome of [new RoutingRefusal(REASONS.noSkills), new RoutingUnavailable(["no-registered-tools"])]) {
        assert.equal(bindPalette(arr, outcome), arr);
        assert.equal(bindPalette(rec, outcome), rec);
      }
    });

    test("exact names: unpaired surrogates do not match their neighbours", () => {
      const a = { name: "t\uD800" };
      const b = { name: "t\uDC00" };
      assert.deepEqual(bindPalette([a, b], new Routed(["t\uDC00"])), [b]);
    });

    test("bad tools are TypeErrors naming them", () => {
      const routed = new Routed(["a"]);
      const unreadable = { get name() { throw new Error("getter"); } };
      assert.throws(() => bindPalette([{ name: "a" }, unreadable], routed), (e) => e instanceof TypeError && /tools\[1\]\.name/.test(e.message));
      assert.throws(() => bindPalette("a", routed), /bindPalette: tools/);
      assert.throws(() => bindPalette([web], { kind: "other" }), /bindPalette: outcome/);
    });
  });
}
