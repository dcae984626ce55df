// The built package against the model of the SPEC: every case of target/spec-cases.json
// (written by `cargo test`, tests/spec_cases.rs, from the naive model in tests/model/) is
// replayed against dist/node.mjs, and every answer must be exactly the model's.
//
// Routing: resolvePalette({ entries, registered, timeoutMs, onDecision }) with the store the
// case describes; the outcome and the decision report (SPEC 5) are compared.
// Policies: new ToolPolicies(specs, { modelResolver, onToolCallDispatch, onWarning }) with
// predicates that answer from the case's script, log each call, and throw a marker at
// call number `throwAt` (counting, per seam call, only real calls of the caller's
// functions, as the model does); selectModel and dispatch are compared, call logs included.
//
// A failing case prints its index, each difference, and the case's JSON.
import { test } from "node:test";
import { existsSync, readFileSync } from "node:fs";
import { isDeepStrictEqual } from "node:util";
import * as tp from "../../dist/node.mjs";

const fixture = new URL("../../target/spec-cases.json", import.meta.url);

if (!existsSync(fixture)) {
  test("spec cases fixture", () => {
    throw new Error(
      `${fixture.pathname} is missing: run cargo test first (tests/spec_cases.rs writes it; npm test runs cargo test before the JS layers)`,
    );
  });
} else {
  const cases = JSON.parse(readFileSync(fixture, "utf8"));
  for (const c of cases.routing) test(`routing case ${c.index}`, () => replay(c, replayRouting));
  for (const c of cases.policies) test(`policy case ${c.index}`, () => replay(c, replayPolicies));
}

// ---------------------------------------------------------------- reporting

const show = (v) => {
  if (v === undefined) return "undefined";
  if (typeof v === "function") return `[function ${v.name}]`;
  try {
    return JSON.stringify(v);
  } catch {
    return String(v);
  }
};

async function replay(c, run) {
  const diffs = [];
  const check = (what, actual, expected) => {
    if (!isDeepStrictEqual(actual, expected)) diffs.push(`  ${what}: got ${show(actual)}, expected ${show(expected)}`);
  };
  try {
    await run(c, check);
  } catch (e) {
    diffs.push(`  threw unexpectedly: ${e?.stack ?? show(e)}`);
  }
  if (diffs.length) {
    throw new Error(`case ${c.index} differs from the model:\n${diffs.join("\n")}\ncase JSON: ${JSON.stringify(c)}`);
  }
}

// ---------------------------------------------------------------- routing

// The store the case describes, delivered in a form picked by the case's index.
function layer(c) {
  const r = c.retrieval;
  const i = c.index;
  switch (r.layer) {
    case "none":
      return { entries: i % 2 ? undefined : null };
    case "throws": {
      const thrown = { name: r.name };
      return {
        entries: i % 2
          ? () => {
              throw thrown;
            }
          : async () => {
              throw thrown;
            },
      };
    }
    case "hangs":
      return { entries: () => new Promise(() => {}), timeoutMs: r.timeoutMs };
    case "rows": {
      const rows = r.rows;
      switch (i % 3) {
        case 0:
          return { entries: () => rows };
        case 1:
          // A budget that does not run out (its timer must be stopped when the rows come).
          return { entries: async () => rows, timeoutMs: 60_000 };
        default:
          return {
            entries: () =>
              rows === null
                ? undefined
                : (function* () {
                    yield* rows;
                  })(),
          };
      }
    }
    default:
      throw new Error(`unknown layer ${r.layer}`);
  }
}

async function replayRouting(c, check) {
  const x = c.expected;
  const { entries, timeoutMs } = layer(c);
  let calls = 0;
  const counted = typeof entries === "function" ? (...a) => (calls++, entries(...a)) : entries;
  const reports = [];
  const outcome = await tp.resolvePalette({
    entries: counted,
    registered: c.registered,
    timeoutMs,
    onDecision: (d) => reports.push(d),
  });

  check("entries calls", calls, typeof entries === "function" ? 1 : 0);
  check("outcome.kind", outcome?.kind, x.kind);
  if (x.kind === "routed") {
    check("outcome instanceof Routed", outcome instanceof tp.Routed, true);
    check("outcome.names", Array.from(outcome?.names ?? []), x.names);
  } else {
    check("outcome instanceof RoutingRefusal", outcome instanceof tp.RoutingRefusal, true);
    check("outcome.reason", outcome?.reason, x.reason);
  }
  check("outcome.unresolved", Array.from(outcome?.unresolved ?? []), x.unresolved);
  check("outcome frozen", Object.isFrozen(outcome), true);

  check("onDecision calls", reports.length, 1);
  const d = reports[0];
  if (d) {
    check("report.outcome is the outcome", d.outcome === outcome, true);
    check("report.rule", d.rule, x.rule);
    check(
      "report.rows",
      Array.from(d.rows ?? [], (r) => ({ index: r.index, fate: r.fate, candidate: r.candidate })),
      x.rows.map((r, index) => ({ index, ...r })),
    );
    check("report.hidden", Array.from(d.hidden ?? []), x.hidden);
    check("report.retrievalMs is a number >= 0", typeof d.retrievalMs === "number" && d.retrievalMs >= 0, true);
    if (c.retrieval.layer === "none") check("report.retrievalMs without a layer", d.retrievalMs, 0);
    check("report frozen", Object.isFrozen(d) && Object.isFrozen(d.rows) && Object.isFrozen(d.hidden), true);
  }
}

// ---------------------------------------------------------------- policies

// Truthy and falsy answers: the seams read predicates as truthy or falsy.
const TRUTHY = [true, 1, "yes", {}, [], -1];
const FALSY = [false, 0, "", null, undefined, NaN];
const answer = (yes, k) => (yes ? TRUTHY : FALSY)[k % TRUTHY.length];

// Sets a key to `value`, or, for "absent" values, either leaves it out or sets `null`.
function put(spec, key, value, absent, k) {
  if (!absent) spec[key] = value;
  else if (k % 2) spec[key] = null;
}

function replayPolicies(c, check) {
  const x = c.expected;
  const i = c.index;
  const s = c.script;
  const ctx = { case: i };
  // One seam call's calls of the caller's functions.
  let state;
  const fresh = () => (state = { n: 0, log: [], marker: undefined, thrownAt: undefined });
  fresh();
  function called(what, receivedCtx, result) {
    const k = state.n++;
    state.log.push(receivedCtx === ctx ? what : `${what} (another ctx)`);
    if (k === s.throwAt) {
      state.marker = new Error(`marker: call ${k} (${what})`);
      state.thrownAt = k;
      throw state.marker;
    }
    return result;
  }

  const models = c.policies.map((p, j) => (p.model ? { model: `policy ${j}` } : null));
  const specs = c.policies.map((p, j) => {
    const spec = {
      name: p.name,
      match: (ctxGiven) => called(`match ${j}`, ctxGiven, answer(s.matches[j], i + j)),
    };
    put(spec, "whenTool", p.whenTool, p.whenTool === null, i + j);
    put(spec, "redirectTo", p.redirectTo, p.redirectTo === null, i + j + 1);
    put(spec, "model", models[j], !p.model, i + j);
    put(spec, "guard", (ctxGiven) => called(`guard ${j}`, ctxGiven, answer(s.guards[j], i + j + 1)), !p.guard, i + j + 1);
    put(
      spec,
      "argsTransform",
      (args, ctxGiven) => called(`argsTransform ${j}`, ctxGiven, { ...args, by: j }),
      !p.argsTransform,
      i + j,
    );
    return spec;
  });
  const resolverModel = { model: "resolver" };
  const options = { onWarning: () => {} };
  if (c.hasResolver) {
    options.modelResolver = (ctxGiven) => called("modelResolver", ctxGiven, s.resolver ? resolverModel : i % 2 ? null : undefined);
  }
  let callbackSaw;
  if (c.hasCallback) {
    options.onToolCallDispatch = (call, ctxGiven) => {
      callbackSaw = call?.name;
      return called(
        "onToolCallDispatch",
        ctxGiven,
        s.rewrite === null ? (i % 2 ? undefined : null) : { ...call, name: s.rewrite },
      );
    };
  }

  // Specs as they are, or built policies.
  const given = i % 2 ? specs.map((spec) => new tp.ToolCallPolicy(spec)) : specs;

  if (x.compose !== null) {
    const name = c.policies[x.compose].name;
    let thrown;
    try {
      new tp.ToolPolicies(given, options);
    } catch (e) {
      thrown = e;
    }
    check("construction throws a TypeError", thrown instanceof TypeError, true);
    check(
      `the error names index [${x.compose}] and the reused name`,
      typeof thrown?.message === "string" && thrown.message.includes(`[${x.compose}]`) && thrown.message.includes(name),
      true,
    );
    if (!(thrown instanceof TypeError)) check("construction error", show(thrown?.message ?? thrown), "a TypeError");
    return;
  }
  const set = new tp.ToolPolicies(given, options);

  // A seam call that fails: the error the model expects.
  function failure(what, e, want) {
    check(`${what}: calls`, state.log, want.log);
    check(`${what}: throwing call`, state.thrownAt, want.thrown);
    if (want.kind === "adopterError") {
      check(`${what}: the adopter's error passes through as it is`, e === state.marker && e !== undefined, true);
      if (e !== state.marker) check(`${what}: error`, e?.message ?? e, state.marker?.message);
    } else {
      const name = c.policies[want.policy].name;
      check(`${what}: an Error`, e instanceof Error, true);
      check(`${what}: message`, e?.message, `ToolCallPolicy "${name}": ${want.function} threw at the ${want.seam}`);
      check(`${what}: cause is the thrown marker`, e?.cause === state.marker && e?.cause !== undefined, true);
    }
  }

  // ---- PRE-model
  fresh();
  {
    const want = x.select;
    let sel, error, threw = false;
    try {
      sel = set.selectModel(ctx);
    } catch (e) {
      threw = true;
      error = e;
    }
    if (want.kind === "policyError" || want.kind === "adopterError") {
      check("selectModel throws", threw, true);
      if (threw) failure("selectModel", error, want);
      else check("selectModel answer", sel, want.kind);
    } else {
      if (threw) throw error;
      const expected =
        want.kind === "policy"
          ? { model: models[want.policy], source: "policy", policy: c.policies[want.policy].name }
          : want.kind === "resolver"
            ? { model: resolverModel, source: "resolver", policy: null }
            : { model: null, source: "default", policy: null };
      check("selectModel", { model: sel?.model, source: sel?.source, policy: sel?.policy }, expected);
      check("selectModel model by identity", sel?.model === expected.model, true);
      check("selectModel calls", state.log, want.log);
    }
  }

  // ---- POST-model
  fresh();
  {
    const want = x.dispatch;
    const args = { q: "question", n: 1 };
    const original = { name: c.tool, args, id: `call-${i}` };
    const before = structuredClone(original);
    let palette;
    if (c.palette === null) palette = [undefined, null, new tp.RoutingRefusal("refused")][i % 3];
    else if (i % 3 === 1) palette = new Set(c.palette);
    else if (i % 3 === 2 && c.palette.length > 0) palette = new tp.Routed(c.palette);
    else palette = c.palette;
    let d, error, threw = false;
    try {
      d = set.dispatch(original, ctx, palette);
    } catch (e) {
      threw = true;
      error = e;
    }
    check("the caller's call and args are not mutated", original, before);
    check("the caller's args object is kept", original.args === args, true);
    if (want.kind === "policyError" || want.kind === "adopterError") {
      check("dispatch throws", threw, true);
      if (threw) failure("dispatch", error, want);
      else check("dispatch answer", { call: d?.call?.name, redirectedBy: d?.redirectedBy }, want.kind);
    } else {
      if (threw) throw error;
      const by = want.redirectedBy === null ? null : c.policies[want.redirectedBy].name;
      check(
        "dispatch",
        { call: d?.call?.name, redirectedBy: d?.redirectedBy, dropped: d?.dropped ? d.dropped.target : null },
        { call: want.call, redirectedBy: by, dropped: want.dropped },
      );
      check("dispatch calls", state.log, want.log);
      check("dispatch.original is the caller's call", d?.original === original, true);
      check("dispatch.call keeps the id", d?.call?.id, original.id);
      if (want.dropped !== null) {
        check("a dropped redirect dispatches the original call", d?.call === original, true);
        check("dropped.reason is a string", typeof d?.dropped?.reason, "string");
      } else {
        // argsTransform applied by the redirecting policy, when it has one.
        const transformed = want.redirectedBy !== null && c.policies[want.redirectedBy].argsTransform;
        check("dispatch.call.args", d?.call?.args, transformed ? { ...args, by: want.redirectedBy } : args);
        if (want.call === c.tool && want.redirectedBy === null && !(c.hasCallback && s.rewrite !== null)) {
          check("an untouched call dispatches as it is", d?.call === original, true);
        }
      }
      if (c.hasCallback) {
        const current = want.redirectedBy === null ? c.tool : c.policies[want.redirectedBy].redirectTo;
        check("onToolCallDispatch sees the call as it stands", callbackSaw, current);
      }
    }
  }
}
