// Issue 7, "every argument, every wrong type": a table of every public function,
// constructor and option against missing, null, wrong primitive, wrong object, a Proxy,
// a getter that throws, a frozen object and a huge value. Caller mistakes are TypeErrors
// naming the argument (and index); store-side faults are the documented refusals.
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { setMaxListeners } from "node:events";

export const REASONS = {
  noLayer: "no procedural layer registered; allowing all tools",
  failed: (name) => `procedural retrieval failed (${name}); allowing all tools`,
  timedOut: (n) => `procedural retrieval timed out after ${n} ms; allowing all tools`,
  noSkills: "no skills in the procedural layer; allowing all tools",
  inactive: "every skill is inactive; allowing all tools",
  unresolved: "no skill resolved to a registered tool; allowing all tools",
};

// ------------------------------------------------------------------ hostile values

const boom = () => new Error("caller boom");
/** An object whose every trap throws: reading anything from it fails. */
export const hostile = () =>
  new Proxy(
    {},
    Object.fromEntries(
      ["get", "has", "ownKeys", "getOwnPropertyDescriptor", "getPrototypeOf", "apply", "construct", "set", "defineProperty"].map((t) => [
        t,
        () => {
          throw boom();
        },
      ]),
    ),
  );
export const revoked = () => {
  const r = Proxy.revocable({}, {});
  r.revoke();
  return r.proxy;
};
/** `base` with `key` as a getter that throws. */
const throwing = (base, key) =>
  Object.defineProperty({ ...base }, key, {
    get() {
      throw boom();
    },
    enumerable: true,
  });
const manyKeys = (base) => {
  const o = { ...base };
  for (let i = 0; i < 100_000; i++) o[`extra${i}`] = i;
  return o;
};
const BIG = "x".repeat(100_000); // a 100 KB name
const OMIT = Symbol("omit"); // the option is not there at all

// ------------------------------------------------------------------ expectations

const ok = (check = () => {}) => ({ ok: check });
const typeError = (re) => ({ typeError: re });
// Whether this runtime lets a frozen AbortSignal take a listener (Node 20 and 22 do, 24 not).
const frozenSignalListens = () => {
  try {
    Object.freeze(new AbortController().signal).addEventListener("abort", () => {});
    return true;
  } catch {
    return false;
  }
};
const refused = (reason) => ({ ok: (r) => assert.equal(r.reason, reason) });
const rejectsWith = (pred) => ({ rejects: pred });

async function outcomeOf(call) {
  try {
    return { value: await call() };
  } catch (error) {
    return { error };
  }
}

async function check(call, expect, label) {
  const { value, error } = await outcomeOf(call);
  if (expect.typeError) {
    assert.ok(error, `${label}: expected a TypeError, got ${value === undefined ? "undefined" : typeof value}`);
    assert.ok(error instanceof TypeError, `${label}: expected a TypeError, got ${error?.name}: ${error?.message}`);
    assert.match(error.message, expect.typeError, `${label}: the message must name the argument`);
  } else if (expect.rejects) {
    assert.ok(error, `${label}: expected a rejection`);
    assert.ok(expect.rejects(error), `${label}: unexpected error ${error?.message}`);
  } else {
    if (error) throw new assert.AssertionError({ message: `${label}: unexpected ${error.name}: ${error.message}` });
    expect.ok(value);
  }
}

// ------------------------------------------------------------------ the table

export function buildMatrix(tp) {
  const { resolvePalette, ToolRouter, activeTools, bindPalette, ToolCallPolicy, ToolPolicies } = tp;
  const { Routed, RoutingRefusal, RoutingUnavailable, ToolRoutingUnavailableWarning, ToolRedirectDroppedWarning } = tp;
  const REG = ["search", "calendar", "mail"];
  const entries = async () => ["calendar", "ghost"];
  const routedOk = ok((r) => {
    assert.equal(r.kind, "routed");
    assert.deepEqual([...r.names], ["calendar"]);
  });
  const quiet = () => {};
  const cases = [];
  // Adds one row per (label, value, expectation) for the slot `arg` of `target`.
  const slot = (target, arg, call, rows) => {
    for (const [label, value, expect] of rows) cases.push({ target, arg, label, call: () => call(value()), expect });
  };
  const withOpt = (base, key, v) => {
    if (v === OMIT) {
      const o = { ...base };
      delete o[key];
      return o;
    }
    return { ...base, [key]: v };
  };

  // ---------------------------------------------------------- resolvePalette
  const rpBase = { entries, registered: REG };
  slot("resolvePalette", "options", (v) => (v === OMIT ? resolvePalette() : resolvePalette(v)), [
    ["missing", () => OMIT, typeError(/resolvePalette: options/)],
    ["undefined", () => undefined, typeError(/resolvePalette: options/)],
    ["null", () => null, typeError(/resolvePalette: options/)],
    ["number", () => 42, typeError(/resolvePalette: options/)],
    ["string", () => "calendar", typeError(/resolvePalette: options/)],
    ["symbol", () => Symbol("o"), typeError(/resolvePalette: options/)],
    ["wrong object: array", () => [], typeError(/resolvePalette: options\.registered/)],
    ["wrong object: function", () => () => rpBase, typeError(/resolvePalette: options/)],
    ["Proxy of valid options", () => new Proxy(rpBase, {}), routedOk],
    ["hostile Proxy", hostile, typeError(/resolvePalette: options\.entries/)],
    ["revoked Proxy", revoked, typeError(/resolvePalette: options/)],
    ["getter throws (registered)", () => throwing(rpBase, "registered"), typeError(/resolvePalette: options\.registered/)],
    ["frozen", () => Object.freeze({ ...rpBase }), routedOk],
    ["huge: 100,000 extra keys", () => manyKeys(rpBase), routedOk],
  ]);
  const rpOpt = (key, rows) => slot("resolvePalette", `options.${key}`, (v) => resolvePalette(withOpt(rpBase, key, v)), rows);
  rpOpt("entries", [
    ["missing", () => OMIT, refused(REASONS.noLayer)],
    ["null", () => null, refused(REASONS.noLayer)],
    ["number", () => 1, typeError(/resolvePalette: options\.entries/)],
    ["string", () => "calendar", typeError(/resolvePalette: options\.entries/)],
    ["wrong object: the rows themselves", () => ["calendar"], typeError(/resolvePalette: options\.entries/)],
    ["Proxy of a function", () => new Proxy(entries, {}), routedOk],
    ["hostile Proxy (not callable)", hostile, typeError(/resolvePalette: options\.entries/)],
    ["getter throws", () => OMIT, null], // replaced below
    ["frozen function", () => Object.freeze(async () => ["calendar", "ghost"]), routedOk],
    ["huge: 20,000 rows", () => async () => Array.from({ length: 20_000 }, (_, i) => (i % 2 ? "calendar" : `g${i}`)), ok((r) => {
      assert.deepEqual([...r.names], ["calendar"]);
      assert.equal(r.unresolved.length, 10_000);
    })],
    // Store-side faults: refusals, never rejections.
    ["store: throws", () => () => { throw new RangeError("down"); }, refused(REASONS.failed("RangeError"))],
    ["store: rejects", () => async () => { throw new (class StoreDownError extends Error { name = "StoreDownError"; })(); }, refused(REASONS.failed("StoreDownError"))],
    ["store: returns a number", () => () => 42, refused(REASONS.failed("TypeError"))],
    ["store: returns a hostile Proxy", () => () => hostile(), refused(REASONS.failed("Error"))],
    ["store: returns a revoked Proxy", () => () => revoked(), refused(REASONS.failed("TypeError"))],
    ["store: a row with a throwing getter", () => () => [throwing({}, "active")], refused(REASONS.failed("Error"))],
    ["store: a revoked-Proxy row", () => () => [revoked()], refused(REASONS.failed("TypeError"))],
    ["store: an iterator that throws", () => () => ({ *[Symbol.iterator]() { yield "calendar"; throw new URIError("x"); } }), refused(REASONS.failed("URIError"))],
    ["store: frozen rows", () => () => Object.freeze(["calendar", Object.freeze({ tool: "ghost" })]), routedOk],
    ["store: rows null", () => async () => null, refused(REASONS.noSkills)],
    ["store: rejects with a hostile Proxy", () => () => Promise.reject(hostile()), refused(REASONS.failed("object"))],
  ]);
  cases.splice(cases.findIndex((c) => c.arg === "options.entries" && c.label === "getter throws"), 1, {
    target: "resolvePalette",
    arg: "options.entries",
    label: "getter throws",
    call: () => resolvePalette(throwing(rpBase, "entries")),
    expect: typeError(/resolvePalette: options\.entries/),
  });
  const bigRegistered = Array.from({ length: 50_000 }, (_, i) => `tool_${i}`).concat(["calendar"]);
  rpOpt("registered", [
    ["missing", () => OMIT, typeError(/resolvePalette: options\.registered/)],
    ["null", () => null, typeError(/resolvePalette: options\.registered/)],
    ["number", () => 3, typeError(/resolvePalette: options\.registered/)],
    ["string (one name, not a list)", () => "calendar", typeError(/resolvePalette: options\.registered/)],
    ["wrong object: a plain object", () => ({ calendar: {} }), typeError(/resolvePalette: options\.registered/)],
    ["a non-string at index 2", () => ["search", "calendar", 7], typeError(/resolvePalette: options\.registered\[2\]/)],
    ["a String object at index 0", () => [new String("calendar")], typeError(/resolvePalette: options\.registered\[0\]/)],
    ["Proxy of an array", () => new Proxy([...REG], {}), routedOk],
    ["hostile Proxy", hostile, typeError(/resolvePalette: options\.registered/)],
    ["iterator that throws", () => ({ *[Symbol.iterator]() { yield "a"; throw boom(); } }), typeError(/resolvePalette: options\.registered/)],
    ["getter throws (Symbol.iterator)", () => throwing({}, Symbol.iterator), typeError(/resolvePalette: options\.registered/)],
    ["frozen", () => Object.freeze([...REG]), routedOk],
    ["a Set", () => new Set(REG), routedOk],
    ["huge: 50,001 names", () => bigRegistered, routedOk],
  ]);
  rpOpt("timeoutMs", [
    ["missing", () => OMIT, routedOk],
    ["null", () => null, typeError(/resolvePalette: options\.timeoutMs/)],
    ["string", () => "5", typeError(/resolvePalette: options\.timeoutMs/)],
    ["NaN", () => NaN, typeError(/resolvePalette: options\.timeoutMs/)],
    ["negative", () => -1, typeError(/resolvePalette: options\.timeoutMs/)],
    ["Infinity", () => Infinity, typeError(/resolvePalette: options\.timeoutMs/)],
    ["bigint", () => 5n, typeError(/resolvePalette: options\.timeoutMs/)],
    ["wrong object: Number object", () => new Number(5), typeError(/resolvePalette: options\.timeoutMs/)],
    ["Proxy", () => new Proxy({}, {}), typeError(/resolvePalette: options\.timeoutMs/)],
    ["getter throws", () => OMIT, null],
    ["frozen object", () => Object.freeze({}), typeError(/resolvePalette: options\.timeoutMs/)],
    ["huge: Number.MAX_VALUE", () => Number.MAX_VALUE, routedOk],
    ["huge: 2^31 (past setTimeout's range)", () => 2 ** 31, routedOk],
    ["zero, with a store that answers at once", () => 0, routedOk],
  ]);
  cases.splice(cases.findIndex((c) => c.arg === "options.timeoutMs" && c.label === "getter throws"), 1, {
    target: "resolvePalette",
    arg: "options.timeoutMs",
    label: "getter throws",
    call: () => resolvePalette(throwing(rpBase, "timeoutMs")),
    expect: typeError(/resolvePalette: options\.timeoutMs/),
  });
  const abortReason = new Error("caller stopped");
  rpOpt("signal", [
    ["missing", () => OMIT, routedOk],
    ["null", () => null, typeError(/resolvePalette: options\.signal/)],
    ["string", () => "abort", typeError(/resolvePalette: options\.signal/)],
    ["wrong object: an AbortController", () => new AbortController(), typeError(/resolvePalette: options\.signal/)],
    // Node's AbortSignal works through a Proxy (a browser's would fail its brand check,
    // which the package reports as a TypeError naming the signal).
    ["Proxy of an AbortSignal", () => new Proxy(new AbortController().signal, {}), routedOk],
    ["Proxy of an aborted AbortSignal", () => new Proxy(AbortSignal.abort(abortReason), {}), rejectsWith((e) => e === abortReason)],
    ["hostile Proxy", hostile, typeError(/resolvePalette: options\.signal/)],
    ["getter throws (aborted)", () => throwing({ addEventListener() {}, removeEventListener() {} }, "aborted"), typeError(/resolvePalette: options\.signal/)],
    // Node 24 keeps an AbortSignal's listeners in a property it adds on first use, so a
    // frozen one cannot take a listener there: the turn settles as SPEC'd for a signal
    // that fails, with a TypeError naming it (and its cause). Earlier lines accept it.
    ["frozen AbortSignal", () => Object.freeze(new AbortController().signal), frozenSignalListens() ? routedOk : typeError(/resolvePalette: options\.signal failed as an AbortSignal/)],
    ["already aborted: rejects with its reason", () => AbortSignal.abort(abortReason), rejectsWith((e) => e === abortReason)],
    ["huge: a signal with 1,000 other listeners", () => {
      const s = new AbortController().signal;
      setMaxListeners(2000, s);
      for (let i = 0; i < 1000; i++) s.addEventListener("abort", () => {});
      return s;
    }, routedOk],
  ]);
  for (const key of ["candidateOf", "isActive"]) {
    const good = key === "candidateOf" ? (row) => row : () => true;
    rpOpt(key, [
      ["missing", () => OMIT, routedOk],
      ["null", () => null, typeError(new RegExp(`resolvePalette: options\\.${key}`))],
      ["string", () => "tool", typeError(new RegExp(`resolvePalette: options\\.${key}`))],
      ["wrong object", () => ({ tool: true }), typeError(new RegExp(`resolvePalette: options\\.${key}`))],
      ["Proxy of a function", () => new Proxy(good, {}), routedOk],
      ["hostile Proxy (not callable)", hostile, typeError(new RegExp(`resolvePalette: options\\.${key}`))],
      ["frozen function", () => Object.freeze(good), routedOk],
      ["store-side: it throws", () => () => { throw new SyntaxError("x"); }, refused(REASONS.failed("SyntaxError"))],
      ...(key === "candidateOf"
        ? [["huge: a 100 KB candidate", () => () => ` ${BIG} `, ok((r) => assert.deepEqual([...r.unresolved], [BIG]))]]
        : [["huge: a truthy object", () => () => ({}), routedOk]]),
    ]);
    cases.push({
      target: "resolvePalette",
      arg: `options.${key}`,
      label: "getter throws",
      call: () => resolvePalette(throwing(rpBase, key)),
      expect: typeError(new RegExp(`resolvePalette: options\\.${key}`)),
    });
  }

  // ---------------------------------------------------------- ToolRouter
  const trBase = { entries, registered: REG, onWarning: quiet };
  const servingOk = ok((r) => assert.equal(r.unavailable, null));
  slot("ToolRouter", "options", (v) => (v === OMIT ? new ToolRouter() : new ToolRouter(v)), [
    // new ToolRouter() is legal: unavailable, with one warning (delivered by Node here).
    ["null", () => null, typeError(/ToolRouter: options/)],
    ["number", () => 1, typeError(/ToolRouter: options/)],
    ["string", () => "x", typeError(/ToolRouter: options/)],
    ["Proxy of valid options", () => new Proxy(trBase, {}), servingOk],
    ["hostile Proxy", hostile, typeError(/ToolRouter: options\.entries/)],
    ["getter throws (onWarning)", () => throwing(trBase, "onWarning"), typeError(/ToolRouter: options\.onWarning/)],
    ["frozen", () => Object.freeze({ ...trBase }), servingOk],
    ["huge: 100,000 extra keys", () => manyKeys(trBase), servingOk],
  ]);
  const trOpt = (key, rows) => slot("ToolRouter", `options.${key}`, (v) => new ToolRouter(withOpt(trBase, key, v)), rows);
  trOpt("entries", [
    ["missing", () => OMIT, ok((r) => assert.deepEqual([...r.unavailable.missing], ["procedural-layer"]))],
    ["null", () => null, ok((r) => assert.deepEqual([...r.unavailable.missing], ["procedural-layer"]))],
    ["number", () => 3, typeError(/ToolRouter: options\.entries/)],
    ["wrong object", () => ({}), typeError(/ToolRouter: options\.entries/)],
    ["Proxy of a function", () => new Proxy(entries, {}), servingOk],
  ]);
  trOpt("registered", [
    ["missing", () => OMIT, ok((r) => assert.deepEqual([...r.unavailable.missing], ["no-registered-tools"]))],
    ["null (absent)", () => null, ok((r) => assert.deepEqual([...r.unavailable.missing], ["no-registered-tools"]))],
    ["string", () => "calendar", typeError(/ToolRouter: options\.registered/)],
    ["non-string at index 1", () => ["a", {}], typeError(/ToolRouter: options\.registered\[1\]/)],
    ["hostile Proxy", hostile, typeError(/ToolRouter: options\.registered/)],
    ["frozen", () => Object.freeze([...REG]), servingOk],
    ["huge: 50,001 names", () => bigRegistered, ok((r) => assert.equal(r.registered.length, 50_001))],
  ]);
  trOpt("timeoutMs", [
    ["null", () => null, typeError(/ToolRouter: options\.timeoutMs/)],
    ["NaN", () => NaN, typeError(/ToolRouter: options\.timeoutMs/)],
    ["huge", () => 1e300, servingOk],
  ]);
  trOpt("onWarning", [
    ["null", () => null, typeError(/ToolRouter: options\.onWarning/)],
    ["string", () => "console", typeError(/ToolRouter: options\.onWarning/)],
    ["wrong object", () => console, typeError(/ToolRouter: options\.onWarning/)],
    ["Proxy of a function", () => new Proxy(quiet, {}), servingOk],
  ]);
  for (const key of ["candidateOf", "isActive"]) {
    trOpt(key, [
      ["null", () => null, typeError(new RegExp(`ToolRouter: options\\.${key}`))],
      ["number", () => 0, typeError(new RegExp(`ToolRouter: options\\.${key}`))],
    ]);
  }
  const router = () => new ToolRouter(trBase);
  slot("ToolRouter.resolve", "options", (v) => (v === OMIT ? router().resolve() : router().resolve(v)), [
    ["missing", () => OMIT, routedOk],
    ["null", () => null, typeError(/ToolRouter\.resolve: options/)],
    ["number", () => 1, typeError(/ToolRouter\.resolve: options/)],
    ["Proxy", () => new Proxy({}, {}), routedOk],
    ["hostile Proxy", hostile, typeError(/ToolRouter\.resolve: options\.signal/)],
    ["frozen", () => Object.freeze({}), routedOk],
  ]);
  slot("ToolRouter.resolve", "options.signal", (v) => router().resolve({ signal: v }), [
    ["null", () => null, typeError(/ToolRouter\.resolve: options\.signal/)],
    ["wrong object", () => ({}), typeError(/ToolRouter\.resolve: options\.signal/)],
    ["Proxy of an AbortSignal", () => new Proxy(new AbortController().signal, {}), routedOk],
    ["getter throws", () => throwing({ addEventListener() {} }, "aborted"), typeError(/ToolRouter\.resolve: options\.signal/)],
    ["aborted", () => AbortSignal.abort(abortReason), rejectsWith((e) => e === abortReason)],
  ]);

  // ---------------------------------------------------------- activeTools / bindPalette
  const routed = () => new Routed(["calendar", "mail"]);
  const refusal = () => new RoutingRefusal(REASONS.noSkills);
  slot("activeTools", "outcome", (v) => (v === OMIT ? activeTools() : activeTools(v)), [
    ["missing", () => OMIT, typeError(/activeTools: outcome/)],
    ["null", () => null, typeError(/activeTools: outcome/)],
    ["string", () => "routed", typeError(/activeTools: outcome/)],
    ["wrong object", () => ({ names: ["a"] }), typeError(/activeTools: outcome/)],
    ["forged routed without names", () => ({ kind: "routed" }), typeError(/activeTools: outcome\.names/)],
    ["forged routed with a non-string name", () => ({ kind: "routed", names: ["a", 1] }), typeError(/activeTools: outcome\.names\[1\]/)],
    ["Proxy of a Routed", () => new Proxy(routed(), {}), ok((r) => assert.deepEqual(r, ["calendar", "mail"]))],
    ["hostile Proxy", hostile, typeError(/activeTools: outcome/)],
    ["getter throws (kind)", () => throwing({}, "kind"), typeError(/activeTools: outcome/)],
    ["frozen refusal", refusal, ok((r) => assert.equal(r, undefined))],
    ["plain routed-like object (another build)", () => ({ kind: "routed", names: ["x"], unresolved: [] }), ok((r) => assert.deepEqual(r, ["x"]))],
    ["huge: 50,001 names", () => new Routed(bigRegistered), ok((r) => assert.equal(r.length, 50_001))],
  ]);
  const toolsArr = () => [{ name: "search" }, { name: "calendar" }, { name: "mail" }];
  const toolsRec = () => ({ search: { a: 1 }, calendar: { b: 2 }, mail: { c: 3 } });
  slot("bindPalette", "tools", (v) => (v === OMIT ? bindPalette(undefined, routed()) : bindPalette(v, routed())), [
    ["missing", () => OMIT, typeError(/bindPalette: tools/)],
    ["null", () => null, typeError(/bindPalette: tools/)],
    ["string", () => "calendar", typeError(/bindPalette: tools/)],
    ["wrong object: a Map", () => new Map([["calendar", {}]]), typeError(/bindPalette: tools/)],
    // SPEC 3: an entry without a string name cannot be routed and stays in place.
    ["array element null (kept in place)", () => [{ name: "calendar" }, null], ok((r) => assert.deepEqual(r, [{ name: "calendar" }, null]))],
    ["array element name not a string (kept in place)", () => [{ name: 5 }, { name: "search" }], ok((r) => assert.deepEqual(r, [{ name: 5 }]))],
    ["Proxy of an array", () => new Proxy(toolsArr(), {}), ok((r) => assert.deepEqual(r.map((t) => t.name), ["calendar", "mail"]))],
    ["Proxy of a record", () => new Proxy(toolsRec(), {}), ok((r) => assert.deepEqual(Object.keys(r), ["calendar", "mail"]))],
    ["hostile Proxy", hostile, typeError(/bindPalette: tools/)],
    ["array element whose name getter throws", () => [throwing({}, "name")], typeError(/bindPalette: tools\[0\]\.name/)],
    ["record whose kept value getter throws", () => throwing({ search: {} }, "calendar"), typeError(/bindPalette: tools/)],
    ["frozen array", () => Object.freeze(toolsArr()), ok((r) => assert.equal(r.length, 2))],
    ["frozen record", () => Object.freeze(toolsRec()), ok((r) => assert.deepEqual(Object.keys(r), ["calendar", "mail"]))],
    ["huge: 50,001 tools", () => bigRegistered.map((name) => ({ name })), ok((r) => assert.deepEqual(r.map((t) => t.name), ["calendar"]))],
  ]);
  slot("bindPalette", "tools (refusal)", (v) => bindPalette(v, refusal()), [
    ["null with a refusal", () => null, typeError(/bindPalette: tools/)],
    ["number with a refusal", () => 3, typeError(/bindPalette: tools/)],
    ["valid with a refusal: the input itself", () => (cases.sameTools = toolsArr()), ok((r) => assert.equal(r, cases.sameTools))],
  ]);
  slot("bindPalette", "outcome", (v) => (v === OMIT ? bindPalette(toolsArr()) : bindPalette(toolsArr(), v)), [
    ["missing", () => OMIT, typeError(/bindPalette: outcome/)],
    ["null", () => null, typeError(/bindPalette: outcome/)],
    ["number", () => 0, typeError(/bindPalette: outcome/)],
    ["wrong object", () => ({ kind: "maybe" }), typeError(/bindPalette: outcome/)],
    ["forged routed with non-iterable names", () => ({ kind: "routed", names: 3 }), typeError(/bindPalette: outcome\.names/)],
    ["Proxy of a Routed", () => new Proxy(routed(), {}), ok((r) => assert.equal(r.length, 2))],
    ["hostile Proxy", hostile, typeError(/bindPalette: outcome/)],
    ["getter throws (names)", () => throwing({ kind: "routed" }, "names"), typeError(/bindPalette: outcome\.names/)],
    ["frozen RoutingUnavailable", () => new RoutingUnavailable(["procedural-layer"]), ok((r) => assert.equal(r.length, 3))],
    ["huge Routed", () => new Routed(bigRegistered), ok((r) => assert.equal(r.length, 1))],
  ]);

  // ---------------------------------------------------------- outcome and warning classes
  slot("new Routed", "names", (v) => (v === OMIT ? new Routed() : new Routed(v)), [
    ["missing", () => OMIT, typeError(/Routed: names/)],
    ["null", () => null, typeError(/Routed: names/)],
    ["string", () => "a", typeError(/Routed: names/)],
    ["empty (a routed palette is never empty)", () => [], typeError(/Routed: names/)],
    ["non-string at index 1", () => ["a", null], typeError(/Routed: names\[1\]/)],
    ["hostile Proxy", hostile, typeError(/Routed: names/)],
    ["Proxy of an array", () => new Proxy(["a"], {}), ok((r) => assert.ok(Object.isFrozen(r.names)))],
    ["frozen", () => Object.freeze(["a"]), ok((r) => assert.equal(r.kind, "routed"))],
    ["huge", () => bigRegistered, ok((r) => assert.equal(r.names.length, 50_001))],
  ]);
  slot("new Routed", "unresolved", (v) => new Routed(["a"], v), [
    ["null", () => null, typeError(/Routed: unresolved/)],
    ["number", () => 1, typeError(/Routed: unresolved/)],
    ["non-string at index 0", () => [1], typeError(/Routed: unresolved\[0\]/)],
  ]);
  slot("new RoutingRefusal", "reason", (v) => (v === OMIT ? new RoutingRefusal() : new RoutingRefusal(v)), [
    ["missing", () => OMIT, typeError(/RoutingRefusal: reason/)],
    ["null", () => null, typeError(/RoutingRefusal: reason/)],
    ["wrong object", () => new String("x"), typeError(/RoutingRefusal: reason/)],
    ["huge", () => BIG, ok((r) => assert.equal(r.reason, BIG))],
  ]);
  slot("new RoutingRefusal", "unresolved", (v) => new RoutingRefusal("r", v), [
    ["null", () => null, typeError(/RoutingRefusal: unresolved/)],
    ["non-string at index 0", () => [{}], typeError(/RoutingRefusal: unresolved\[0\]/)],
  ]);
  slot("new RoutingUnavailable", "missing", (v) => (v === OMIT ? new RoutingUnavailable() : new RoutingUnavailable(v)), [
    ["missing", () => OMIT, typeError(/RoutingUnavailable: missing/)],
    ["null", () => null, typeError(/RoutingUnavailable: missing/)],
    ["non-string at index 0", () => [1], typeError(/RoutingUnavailable: missing\[0\]/)],
    ["hostile Proxy", hostile, typeError(/RoutingUnavailable: missing/)],
  ]);
  slot("new ToolRoutingUnavailableWarning", "missing", (v) => new ToolRoutingUnavailableWarning("m", v), [
    ["undefined", () => undefined, typeError(/ToolRoutingUnavailableWarning: missing/)],
    ["number", () => 1, typeError(/ToolRoutingUnavailableWarning: missing/)],
    ["valid", () => ["procedural-layer"], ok((w) => assert.deepEqual([...w.missing], ["procedural-layer"]))],
  ]);
  slot("new ToolRedirectDroppedWarning", "details", (v) => new ToolRedirectDroppedWarning("m", v), [
    ["undefined", () => undefined, typeError(/ToolRedirectDroppedWarning: details/)],
    ["number", () => 1, typeError(/ToolRedirectDroppedWarning: details/)],
    ["hostile Proxy", hostile, typeError(/ToolRedirectDroppedWarning: details/)],
    ["valid", () => ({ policy: null, target: "t", original: "o" }), ok((w) => assert.equal(w.target, "t"))],
  ]);

  // ---------------------------------------------------------- ToolCallPolicy
  const yes = () => true;
  const spec = { name: "p", match: yes, whenTool: ["web"], redirectTo: "sql", argsTransform: (a) => ({ ...a }), guard: yes, model: { id: "m" } };
  const policyOk = ok((p) => assert.ok(Object.isFrozen(p)));
  slot("new ToolCallPolicy", "spec", (v) => (v === OMIT ? new ToolCallPolicy() : new ToolCallPolicy(v)), [
    ["missing", () => OMIT, typeError(/ToolCallPolicy: spec/)],
    ["null", () => null, typeError(/ToolCallPolicy: spec/)],
    ["string", () => "p", typeError(/ToolCallPolicy: spec/)],
    ["wrong object: array", () => [], typeError(/ToolCallPolicy: name/)],
    ["Proxy of a valid spec", () => new Proxy(spec, {}), policyOk],
    ["hostile Proxy", hostile, typeError(/ToolCallPolicy: spec\.name/)],
    ["frozen", () => Object.freeze({ ...spec }), policyOk],
    ["huge: 100,000 extra keys", () => manyKeys(spec), policyOk],
  ]);
  const tcpField = (key, rows) => {
    slot("new ToolCallPolicy", key, (v) => new ToolCallPolicy(withOpt(spec, key, v)), rows);
    // A getter that throws names the policy (when known) and the field.
    cases.push({
      target: "new ToolCallPolicy",
      arg: key,
      label: "getter throws",
      call: () => new ToolCallPolicy(throwing(spec, key)),
      expect: typeError(key === "name" ? /ToolCallPolicy: spec\.name/ : new RegExp(`ToolCallPolicy "p": spec\\.${key}`)),
    });
  };
  tcpField("name", [
    ["missing", () => OMIT, typeError(/ToolCallPolicy: name/)],
    ["null", () => null, typeError(/ToolCallPolicy: name/)],
    ["empty", () => "", typeError(/ToolCallPolicy: name/)],
    ["number", () => 1, typeError(/ToolCallPolicy: name/)],
    ["wrong object", () => new String("p"), typeError(/ToolCallPolicy: name/)],
    ["huge: 100 KB", () => BIG, ok((p) => assert.equal(p.name, BIG))],
  ]);
  tcpField("match", [
    ["missing", () => OMIT, typeError(/ToolCallPolicy "p": match/)],
    ["null", () => null, typeError(/ToolCallPolicy "p": match/)],
    ["boolean", () => true, typeError(/ToolCallPolicy "p": match/)],
    ["wrong object: RegExp", () => /sales/, typeError(/ToolCallPolicy "p": match/)],
    ["Proxy of a function", () => new Proxy(yes, {}), policyOk],
    ["frozen function", () => Object.freeze(() => false), policyOk],
  ]);
  tcpField("whenTool", [
    ["missing (any tool)", () => OMIT, ok((p) => assert.equal(p.matchesTool("anything"), true))],
    ["null (any tool)", () => null, ok((p) => assert.equal(p.matchesTool("anything"), true))],
    ["number", () => 3, typeError(/ToolCallPolicy "p": whenTool/)],
    ["wrong object", () => ({ web: true }), typeError(/ToolCallPolicy "p": whenTool/)],
    ["non-string at index 1", () => ["web", 2], typeError(/ToolCallPolicy "p": whenTool\[1\]/)],
    ["Proxy of an array", () => new Proxy(["web"], {}), ok((p) => assert.equal(p.matchesTool("web"), true))],
    ["hostile Proxy", hostile, typeError(/ToolCallPolicy "p": whenTool/)],
    ["frozen", () => Object.freeze(["web"]), ok((p) => assert.equal(p.matchesTool("web"), true))],
    ["huge: 50,001 names", () => bigRegistered, ok((p) => assert.equal(p.matchesTool("tool_49999"), true))],
  ]);
  tcpField("redirectTo", [
    ["missing", () => OMIT, policyOk],
    ["null", () => null, policyOk],
    ["empty", () => "", typeError(/ToolCallPolicy "p": redirectTo/)],
    ["number", () => 1, typeError(/ToolCallPolicy "p": redirectTo/)],
    ["wrong object", () => ["sql"], typeError(/ToolCallPolicy "p": redirectTo/)],
    ["huge", () => BIG, ok((p) => assert.equal(p.redirectTo, BIG))],
  ]);
  for (const key of ["argsTransform", "guard"]) {
    tcpField(key, [
      ["missing", () => OMIT, policyOk],
      ["null", () => null, policyOk],
      ["string", () => "x", typeError(new RegExp(`ToolCallPolicy "p": ${key}`))],
      ["wrong object", () => ({}), typeError(new RegExp(`ToolCallPolicy "p": ${key}`))],
      ["Proxy of a function", () => new Proxy(yes, {}), policyOk],
    ]);
  }
  const model = { id: "m" };
  tcpField("model", [
    ["missing", () => OMIT, ok((p) => assert.equal(p.model, null))],
    ["a Proxy, by identity", () => (cases.modelProxy = new Proxy(model, {})), ok((p) => assert.equal(p.model, cases.modelProxy))],
    ["a hostile Proxy, by identity", () => (cases.modelHostile = hostile()), ok((p) => assert.equal(p.model, cases.modelHostile))],
    ["frozen, by identity", () => Object.freeze(model), ok((p) => assert.equal(p.model, model))],
  ]);
  const policy = () => new ToolCallPolicy(spec);
  slot("ToolCallPolicy.matchesTool", "toolName", (v) => (v === OMIT ? policy().matchesTool() : policy().matchesTool(v)), [
    ["missing", () => OMIT, typeError(/matchesTool: toolName/)],
    ["null", () => null, typeError(/matchesTool: toolName/)],
    ["number", () => 1, typeError(/matchesTool: toolName/)],
    ["wrong object", () => ["web"], typeError(/matchesTool: toolName/)],
    ["hostile Proxy", hostile, typeError(/matchesTool: toolName/)],
    ["huge", () => BIG, ok((r) => assert.equal(r, false))],
  ]);

  // ---------------------------------------------------------- ToolPolicies
  const tpOk = ok((s) => assert.ok(Object.isFrozen(s)));
  slot("new ToolPolicies", "policies", (v) => (v === OMIT ? new ToolPolicies() : new ToolPolicies(v)), [
    ["missing", () => OMIT, typeError(/ToolPolicies: policies/)],
    ["null", () => null, typeError(/ToolPolicies: policies/)],
    ["string", () => "p", typeError(/ToolPolicies: policies/)],
    ["wrong object", () => ({ p: spec }), typeError(/ToolPolicies: policies/)],
    ["a number at index 1", () => [spec, 3], typeError(/ToolPolicies: policies\[1\]/)],
    ["an invalid spec at index 1", () => [spec, { name: "q" }], typeError(/ToolPolicies: policies\[1\]/)],
    ["duplicate names", () => [spec, { ...spec }], typeError(/ToolPolicies: policies\[1\] reuses/)],
    ["Proxy of an array", () => new Proxy([spec], {}), tpOk],
    ["a Proxy of a ToolCallPolicy", () => [new Proxy(policy(), {})], ok((s) => assert.equal(s.policies[0].name, "p"))],
    ["a hostile Proxy at index 0", () => [hostile()], typeError(/ToolPolicies: policies\[0\]/)],
    ["hostile Proxy", hostile, typeError(/ToolPolicies: policies/)],
    ["iterator that throws", () => ({ *[Symbol.iterator]() { yield spec; throw boom(); } }), typeError(/ToolPolicies: policies/)],
    ["frozen", () => Object.freeze([policy()]), tpOk],
    ["huge: 5,000 policies", () => Array.from({ length: 5000 }, (_, i) => ({ name: `p${i}`, match: yes, redirectTo: "x" })), ok((s) => assert.equal(s.policies.length, 5000))],
  ]);
  slot("new ToolPolicies", "options", (v) => new ToolPolicies([spec], v), [
    ["undefined", () => undefined, tpOk],
    ["null", () => null, typeError(/ToolPolicies: options/)],
    ["number", () => 2, typeError(/ToolPolicies: options/)],
    ["Proxy", () => new Proxy({}, {}), tpOk],
    ["hostile Proxy", hostile, typeError(/ToolPolicies: options\.modelResolver/)],
    ["frozen", () => Object.freeze({ onWarning: quiet }), tpOk],
  ]);
  for (const key of ["modelResolver", "onToolCallDispatch", "onWarning"]) {
    slot("new ToolPolicies", `options.${key}`, (v) => new ToolPolicies([spec], withOpt({}, key, v)), [
      ["missing", () => OMIT, tpOk],
      ["null", () => null, typeError(new RegExp(`ToolPolicies: options\\.${key}`))],
      ["string", () => "f", typeError(new RegExp(`ToolPolicies: options\\.${key}`))],
      ["wrong object", () => ({}), typeError(new RegExp(`ToolPolicies: options\\.${key}`))],
      ["Proxy of a function", () => new Proxy(quiet, {}), tpOk],
    ]);
    cases.push({
      target: "new ToolPolicies",
      arg: `options.${key}`,
      label: "getter throws",
      call: () => new ToolPolicies([spec], throwing({}, key)),
      expect: typeError(new RegExp(`ToolPolicies: options\\.${key}`)),
    });
  }
  const policies = () => new ToolPolicies([spec], { onWarning: quiet });
  const ctxs = [
    ["missing", () => undefined],
    ["null", () => null],
    ["number", () => 1],
    ["Proxy", () => new Proxy({}, {})],
    ["hostile Proxy (handed through untouched)", hostile],
    ["frozen", () => Object.freeze({})],
  ];
  slot("ToolPolicies.selectModel", "ctx", (v) => {
    let seen;
    const set = new ToolPolicies([{ ...spec, match: (c) => ((seen = c), true) }]);
    const r = set.selectModel(v);
    assert.equal(seen, v, "ctx passed as given");
    return r;
  }, ctxs.map(([label, v]) => [label, v, ok((r) => assert.equal(r.source, "policy"))]));
  const call = () => ({ name: "web", args: { q: 1 }, id: "c1" });
  const dispatched = (name) => ok((d) => assert.equal(d.call.name, name));
  slot("ToolPolicies.dispatch", "call", (v) => (v === OMIT ? policies().dispatch() : policies().dispatch(v, {})), [
    ["missing", () => OMIT, typeError(/ToolPolicies\.dispatch: call/)],
    ["null", () => null, typeError(/ToolPolicies\.dispatch: call/)],
    ["string", () => "web", typeError(/ToolPolicies\.dispatch: call/)],
    ["wrong object: no name", () => ({ args: {} }), typeError(/ToolPolicies\.dispatch: call\.name/)],
    ["name not a string", () => ({ name: 1 }), typeError(/ToolPolicies\.dispatch: call\.name/)],
    ["Proxy of a call", () => new Proxy(call(), {}), dispatched("sql")],
    ["hostile Proxy", hostile, typeError(/ToolPolicies\.dispatch: call/)],
    ["getter throws (name)", () => throwing({ args: {} }, "name"), typeError(/ToolPolicies\.dispatch: call\.name/)],
    ["getter throws (args, read when redirecting)", () => throwing({ name: "web" }, "args"), typeError(/ToolPolicies\.dispatch: call/)],
    ["frozen (never mutated)", () => Object.freeze({ name: "web", args: Object.freeze({ q: 1 }) }), dispatched("sql")],
    ["huge args", () => ({ name: "web", args: manyKeys({}) }), ok((d) => assert.equal(Object.keys(d.call.args).length, 100_000))],
    ["huge name (not redirected)", () => ({ name: BIG }), dispatched(BIG)],
  ]);
  slot("ToolPolicies.dispatch", "ctx", (v) => {
    let seen;
    const set = new ToolPolicies([{ ...spec, match: (c) => ((seen = c), true) }]);
    const r = set.dispatch(call(), v);
    assert.equal(seen, v, "ctx passed as given");
    return r;
  }, ctxs.map(([label, v]) => [label, v, dispatched("sql")]));
  slot("ToolPolicies.dispatch", "palette", (v) => policies().dispatch(call(), {}, v), [
    ["missing", () => undefined, dispatched("sql")],
    ["null", () => null, dispatched("sql")],
    ["number", () => 1, typeError(/ToolPolicies\.dispatch: palette/)],
    ["string", () => "sql", typeError(/ToolPolicies\.dispatch: palette/)],
    ["wrong object", () => ({ sql: true }), typeError(/ToolPolicies\.dispatch: palette/)],
    ["non-string at index 1", () => ["sql", 2], typeError(/ToolPolicies\.dispatch: palette\[1\]/)],
    ["Proxy of a Routed", () => new Proxy(new Routed(["sql"]), {}), dispatched("sql")],
    ["hostile Proxy", hostile, typeError(/ToolPolicies\.dispatch: palette/)],
    ["getter throws (kind)", () => throwing({}, "kind"), typeError(/ToolPolicies\.dispatch: palette/)],
    ["forged routed without names", () => ({ kind: "routed" }), typeError(/ToolPolicies\.dispatch: palette\.names/)],
    ["frozen names without sql: dropped", () => Object.freeze(["web"]), ok((d) => assert.equal(d.dropped.target, "sql"))],
    ["huge: 50,001 names", () => bigRegistered, ok((d) => assert.equal(d.dropped.target, "sql"))],
  ]);
  return cases;
}

export function matrix(tp, label) {
  const cases = buildMatrix(tp);
  describe(`hardening matrix (${label}): ${cases.length} cases`, () => {
    const targets = [...new Set(cases.map((c) => c.target))];
    for (const target of targets) {
      test(target, async () => {
        const failures = [];
        for (const c of cases.filter((x) => x.target === target)) {
          try {
            await check(c.call, c.expect, `${c.target} ${c.arg}: ${c.label}`);
          } catch (e) {
            failures.push(e.message);
          }
        }
        assert.deepEqual(failures, []);
      });
    }
  });
  return cases.length;
}
