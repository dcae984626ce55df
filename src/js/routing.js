// @ts-check
// Routing (SPEC 2, 3, 5): resolvePalette, ToolRouter, outcomes and reports, activeTools,
// bindPalette. The facade reads, calls the store and waits; the module (routing.rs)
// decides each step of the turn and the turn, and hands the answer over in one call.
import * as wasm from "./tool_palette.js";
// Named, not destructured from the namespace (see policies.js).
import { Activity, Event, Next, Retrieved, Returned } from "./tool_palette.js";
import { ACTIVE, EXACT, FATES, SKILL, MISSING, NO_SPAN, REASONS, RULES, UNAVAILABLE } from "./wire.js";
import { attempt, bounded, checked, drop, enter, exactRows, fields, guard, guarded, isFunction, isObject, keep, mustBe, attachRecord, writeBatch, putNames, reserve, signal, slot, strings, withRecord } from "./host.js";
import { calls } from "./calls.js";
import { deliver } from "./deliver.js";

// ---------------------------------------------------------------- outcomes

const frozen = (list) => Object.freeze(Array.from(list));
// `values[i]` for each index, as a new frozen array.
export function pick(values, indices) {
  const out = new Array(indices.length);
  for (let i = 0; i < indices.length; i++) out[i] = values[indices[i]];
  return Object.freeze(out);
}
const make = (Class, fields) => Object.freeze(Object.assign(Object.create(Class.prototype), fields));

// (The turns build instances from what the module answered; the constructors are public.)
// `skills` (SPEC 9): the relevant active skills, on the outcome of a turn whose rows named
// skills (a `SkillIndex`'s); absent otherwise.
export class Routed {
  constructor(names, unresolved = [], skills = undefined) {
    /** @type {"routed"} */
    this.kind = "routed";
    this.names = frozen(strings(names, "Routed: names"));
    if (this.names.length === 0) throw new TypeError("Routed: names must not be empty (a routed palette is never empty)");
    this.unresolved = frozen(strings(unresolved, "Routed: unresolved"));
    if (skills !== undefined) this.skills = frozen(strings(skills, "Routed: skills"));
    Object.freeze(this);
  }
}

export class RoutingRefusal {
  constructor(reason, unresolved = [], skills = undefined) {
    if (typeof reason !== "string") throw mustBe("RoutingRefusal: reason", "a string", reason);
    /** @type {"refused"} */
    this.kind = "refused";
    this.reason = reason;
    this.unresolved = frozen(strings(unresolved, "RoutingRefusal: unresolved"));
    if (skills !== undefined) this.skills = frozen(strings(skills, "RoutingRefusal: skills"));
    Object.freeze(this);
  }
}

export class RoutingUnavailable {
  constructor(missing) {
    /** @type {"unavailable"} */
    this.kind = "unavailable";
    /** @type {readonly import("./tool-palette.js").RoutingPrerequisite[]} (not checked: the module makes them) */
    this.missing = frozen(strings(missing, "RoutingUnavailable: missing"));
    Object.freeze(this);
  }
}

export class ToolRoutingUnavailableWarning extends Error {
  constructor(message, missing) {
    super(message);
    Object.assign(this, { name: "ToolRoutingUnavailableWarning", missing: frozen(strings(missing, "ToolRoutingUnavailableWarning: missing")) });
  }
}

// An outcome's routed names (a fresh array), or undefined for a refusal or
// RoutingUnavailable (every tool); judged by `kind`, so another build's outcomes count.
export function routedNames(outcome, where) {
  const what = "a Routed, RoutingRefusal or RoutingUnavailable";
  if (!isObject(outcome)) throw mustBe(where, what, outcome);
  const kind = attempt(() => outcome.kind, where);
  if (kind === "refused" || kind === "unavailable") return undefined;
  if (kind !== "routed") throw mustBe(where, what, outcome);
  const names = strings(attempt(() => outcome.names, `${where}.names`), `${where}.names`);
  if (names.length === 0) throw new TypeError(`${where}.names must not be empty (a routed palette is never empty)`);
  return names;
}

// ---------------------------------------------------------------- one turn

const EMPTY = /** @type {readonly any[]} */ (Object.freeze([]));

// The answer of one turn, as the module hands it over (src/js/routing.rs `decide`): the
// outcome built from the caller's own strings by index, and the report when asked.
// `skilled`: the rows named skills (the outcome says which are relevant).
class Decided {
  constructor(registered, strings, timeoutMs, skilled) {
    this.registered = registered;
    this.strings = strings;
    this.timeoutMs = timeoutMs;
    this.skilled = skilled;
    this.outcome = this.rule = undefined;
    /** @type {[string | undefined, readonly object[], readonly string[]]} the rule, rows and hidden names (empty until `reported`, which a turn without reports never calls) */
    this.report = /** @type {any} */ ([]);
  }
  cut(spans, k) {
    return this.strings[spans[k]].slice(spans[k + 1], spans[k + 2]);
  }
  decided(rule, detail, names, unresolved, skills) {
    const missed = new Array(unresolved.length / 3);
    for (let i = 0; i < missed.length; i++) missed[i] = this.cut(unresolved, 3 * i);
    Object.freeze(missed);
    this.rule = RULES[rule];
    const relevant = this.skilled ? { skills: pick(this.strings, skills) } : undefined;
    if (rule === 0) this.outcome = make(Routed, { kind: "routed", names: pick(this.registered, names), unresolved: missed, ...relevant });
    else {
      const [before, after] = REASONS[rule - 1];
      const what = this.rule === "2a" ? this.strings[detail] : this.rule === "2b" ? String(this.timeoutMs) : "";
      this.outcome = make(RoutingRefusal, { kind: "refused", reason: before + what + after, unresolved: missed, ...relevant });
    }
  }
  reported(fates, spans, hidden, skills) {
    const rows = new Array(fates.length);
    for (let i = 0; i < rows.length; i++) {
      const row = { index: i, fate: FATES[fates[i]], candidate: spans[3 * i] === NO_SPAN ? null : this.cut(spans, 3 * i) };
      if (skills[i] !== NO_SPAN) row.skill = this.strings[skills[i]];
      rows[i] = Object.freeze(row);
    }
    this.report = [this.rule, Object.freeze(rows), pick(this.registered, hidden)];
  }
}

// The caller's reports, each given the frozen decision (what one throws rejects the call).
function report(reports, outcome, rule, rows = EMPTY, hidden = EMPTY, retrievalMs = 0) {
  if (reports.length === 0) return outcome;
  const decision = Object.freeze({ outcome, rule, rows, hidden, retrievalMs });
  for (const f of reports) f(decision);
  return outcome;
}

// A store's answer read into the batch, each row once: its `Activity`, for the rows the
// core's `ACTIVE` calls active their candidate (a string row, a record's first string of
// `tool`, `toolName`, `content`, candidateOf's string; else ""), then each record's `skill`
// when a string (SPEC 9). What reading throws fails.
function readRows(answer, isActive, candidateOf) {
  if (answer === null || answer === undefined) return [Retrieved.Nothing, []];
  let codes;
  const found = [];
  const skills = [];
  try {
    if (!isFunction(answer[Symbol.iterator])) return failed(new TypeError("the procedural layer returned a non-iterable"));
    const rows = Array.isArray(answer) ? answer : bounded(answer);
    codes = new Uint8Array(rows.length);
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i];
      codes[i] = isActive ? (isActive(row) ? Activity.Yes : Activity.No) : typeof row === "string" ? Activity.Text : isRecord(row) ? (row.active === false ? Activity.Off : Activity.Record) : Activity.Other;
      // A row an index made, read by the facade's own reader: its name is exact.
      if (!candidateOf && exactRows.has(row)) codes[i] |= EXACT;
      const skill = isRecord(row) ? row.skill : undefined;
      if (typeof skill === "string") (codes[i] |= SKILL), skills.push(skill);
    }
    for (let i = 0; i < rows.length; i++) if (ACTIVE[codes[i] & ~(EXACT | SKILL)]) found.push(candidate(rows[i], candidateOf));
  } catch (error) {
    return failed(error);
  }
  const skilled = skills.length > 0;
  for (const skill of skills) found.push(skill);
  if (!writeBatch(found, codes)) return failed(new RangeError("the procedural layer's answer is too large to route"));
  return [Retrieved.Rows, found, codes.length, skilled];
}
const isRecord = (row) => isObject(row) && !Array.isArray(row);
function candidate(row, candidateOf) {
  if (candidateOf) row = candidateOf(row);
  else if (isRecord(row)) {
    const record = row;
    if (typeof (row = record.tool) !== "string" && typeof (row = record.toolName) !== "string") row = record.content;
  }
  return typeof row === "string" ? row : "";
}

// What a store threw, as the facts NAME is picked from (src/routing/turn.rs
// `error_name`): its `name` and its constructor's (each "" unless a string), `typeof` it.
function failed(thrown) {
  const text = (read) => {
    try {
      const value = isObject(thrown) || isFunction(thrown) ? read() : undefined;
      return typeof value === "string" ? value : "";
    } catch {
      return "";
    }
  };
  const facts = [text(() => thrown.name), text(() => thrown.constructor.name), typeof thrown];
  return writeBatch(facts) ? [Retrieved.Failed, facts] : failed(new RangeError());
}

// Decides the turn over the registry [slot, names] and what `read()` put in the batch.
function decide(ask, [registry, names], read) {
  const retrievalMs = ask.reports.length && ask.called ? now() - ask.started : 0;
  const [retrieved, found = [], rows = 0, skilled = false] = read();
  const answer = (calls.to = new Decided(names, found, ask.timeoutMs, skilled));
  if (!wasm.decide(registry, retrieved, found.length, rows, ask.reports.length > 0)) throw new Error("tool-palette: a turn's registered names are gone (a fault of the package's)");
  return report(ask.reports, answer.outcome, ...answer.report, retrievalMs);
}
const now = () => (globalThis.performance ?? Date).now();

// One turn as asked: the outcome, or a rejection for an abort, a failed signal, a report.
async function turn(ask, registry) {
  ask.started = ask.reports.length ? now() : 0;
  const aborted = () => Boolean(ask.signal?.read("aborted"));
  const reason = () => ask.signal?.read("reason");
  const next = wasm.begin(aborted(), ask.entries !== undefined);
  if (next === Next.Reject) throw reason();
  if (next === Next.NoLayer) return decide(ask, registry, () => [Retrieved.NoLayer]);
  ask.called = true;
  let answer, what;
  try {
    answer = ask.context === undefined ? ask.entries() : ask.entries(ask.context);
    what = (isObject(answer) || isFunction(answer)) && isFunction(answer.then) ? Returned.Thenable : Returned.Value;
  } catch (error) {
    [answer, what] = [error, Returned.Threw];
  }
  const step = wasm.returned(what, what !== Returned.Threw && aborted());
  if (step === Next.Reject) {
    ignore(answer);
    throw reason();
  }
  if (step !== Next.Wait) return enter(decided, undefined, [ask, registry, step, answer], false);
  const [event, settledWith] = await wait(answer, wasm.timer(ask.timeoutMs), ask.signal);
  return enter(settled, undefined, [ask, registry, event, settledWith], false);
}

// After the wait: what its first event means, then the turn decided (one door for both).
function settled(ask, registry, event, value) {
  return decided(ask, registry, wasm.settled(event), value);
}

// The turn decided from where it stands: rejected (an abort), the rows read, the store's
// failure, or the budget elapsed.
function decided(ask, registry, step, value) {
  if (step === Next.Reject) throw ask.signal.read("reason");
  const read = step === Next.Read ? () => readRows(value, ask.isActive, ask.candidateOf) : step === Next.Failed ? () => failed(value) : () => [Retrieved.TimedOut];
  return decide(ask, registry, read);
}

// The first of the store's answer, the budget's timer and the abort, as [Event, value], the
// others stopped; nothing waits in the module, so a store that never settles keeps nothing
// once the promise is dropped. A signal refusing its listener, or to let go, fails the turn.
function wait(answer, ms, signal) {
  return new Promise((resolve, reject) => {
    let timer, onAbort;
    let done = false;
    const settle = (event, value) => {
      if (done) return;
      done = true;
      if (timer !== undefined) clearTimeout(timer);
      try {
        if (onAbort) signal.value.removeEventListener("abort", onAbort);
        resolve([event, value]);
      } catch (cause) {
        reject(signal.failed(cause));
      }
    };
    // Adopting the answer runs its code (a promise's own `then`, its `constructor` getter):
    // what that throws is the store failing, like a rejection.
    try {
      Promise.resolve(answer).then((rows) => settle(Event.Answered, rows), (error) => settle(Event.Rejected, error));
    } catch (error) {
      settle(Event.Rejected, error);
    }
    // (A realm without timers cannot enforce a budget; nothing else is lost.)
    if (!done && ms !== undefined && typeof setTimeout === "function") timer = setTimeout(() => settle(Event.Elapsed), ms);
    if (done || signal === undefined) return;
    try {
      onAbort = () => settle(Event.Aborted);
      signal.value.addEventListener("abort", onAbort, { once: true });
    } catch (cause) {
      done = true;
      if (timer !== undefined) clearTimeout(timer);
      ignore(answer);
      reject(signal.failed(cause));
    }
  });
}

// A promise no one waits for any more: adopted, so that its rejection is handled.
const ignore = (value) => void wait(value);

// The layer's options, read once each and checked (`where`: "resolvePalette: options").
const LAYER = ["entries", "timeoutMs", "candidateOf", "isActive", "onDecision", "registered"];
const [ROUTING, ROUTER] = [[...LAYER, "signal"], [...LAYER, "onWarning"]];
/** @param {unknown[]} values the options read (`fields`) @param {string} where */
function layerOf([entries, timeoutMs, candidateOf, isActive, onDecision], where) {
  return {
    entries: checked(entries, "layer", `${where}.entries`),
    timeoutMs: checked(timeoutMs, "budget", `${where}.timeoutMs`),
    candidateOf: checked(candidateOf, "function", `${where}.candidateOf`),
    isActive: checked(isActive, "function", `${where}.isActive`),
    reports: [checked(onDecision, "function", `${where}.onDecision`)].filter(Boolean),
  };
}

// The index of a registered list, shared while the same strings come again in order
// (agents pass the same names every turn; hosts build a router per request): { index (its
// slot), names, users }, freed once no router or turn in flight uses it and another list
// replaced it.
let last;
function indexed(names, where) {
  if (last !== undefined && same(last.names, names)) return last;
  putNames(names, where);
  const index = slot();
  if (!wasm.names(index, names.length)) throw (drop(index), new RangeError(`${where} could not be indexed: the WebAssembly module's memory ran out`));
  const previous = last;
  keep(index);
  last = { index, names, users: 0 };
  release(previous, 0);
  return last;
}
function same(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
const ARRAY = Array.prototype[Symbol.iterator];
function release(entry, users) {
  if (entry && (entry.users += users) === 0 && entry !== last) drop(entry.index);
}

/** Narrows `registered` to the tools this turn's skills name (SPEC 2). */
export const resolvePalette = guard(function resolvePalette(options) {
  const where = "resolvePalette: options";
  const values = fields(options, ROUTING, where, true);
  const ask = layerOf(values, where);
  // The last list indexed, when these are its very strings (checked already; a plain array
  // read once, not copied: agents pass the same names every turn), else a checked copy.
  let known;
  try {
    const given = values[5];
    if (last !== undefined && Array.isArray(given) && given[Symbol.iterator] === ARRAY && same(last.names, given)) known = last;
  } catch {} // (a hostile list: its reading below says so)
  const registered = known?.names ?? strings(values[5], `${where}.registered`);
  if (known === undefined) reserve(registered, `${where}.registered`);
  ask.signal = signal(values[6], `${where}.signal`);
  // The turn keeps its registry until it settles: a reader or store that starts a turn
  // over another list replaces the shared one, but does not free this one.
  const entry = known !== undefined && known === last ? known : indexed(registered, `${where}.registered`);
  entry.users++;
  const settled = () => release(entry, -1);
  const answer = turn(ask, [entry.index, entry.names]);
  answer.then(settled, settled);
  return answer;
}, true);

// ---------------------------------------------------------------- ToolRouter

/** The routing capability an agent host constructs once and asks every turn (SPEC 3). */
/** @template [Context=any] */
export class ToolRouter {
  constructor(options) { enter(router, this, [options]); }

  /** One turn: `entries(context)`, within the router's budget. */
  /** @type {import("./tool-palette.js").ToolRouter<Context>["resolve"]} */
  resolve(options) {
    const where = "ToolRouter.resolve: options";
    const [given, context, onDecision] = fields(options, ["signal", "context", "onDecision"], where);
    const ask = { signal: signal(given, `${where}.signal`), context };
    const mine = checked(onDecision, "function", `${where}.onDecision`);
    return withRecord(this, ToolRouter, "resolve", ([index], layer) => {
      Object.assign(ask, layer, { reports: mine ? [...layer.reports, mine] : layer.reports });
      if (this.unavailable) return Promise.resolve(report(ask.reports, this.unavailable, RULES[UNAVAILABLE]));
      return turn(ask, [index, this.registered]);
    });
  }

}
guarded(ToolRouter, ["resolve", true]);

// A new router's options, read once each and checked; its registered names indexed once.
/** @this {ToolRouter} */
function router(options) {
  const where = "ToolRouter: options";
  const values = fields(options, ROUTER, where);
  const layer = layerOf(values, where);
  const registered = frozen(values[5] == null ? [] : strings(values[5], `${where}.registered`));
  const onWarning = checked(values[6], "function", `${where}.onWarning`);
  const entry = indexed(registered, `${where}.registered`);
  const missing = Object.freeze(Array.from(wasm.missing(layer.entries !== undefined, entry.index), (m) => MISSING[m]));
  const unavailable = missing.length > 0 ? make(RoutingUnavailable, { kind: "unavailable", missing }) : null;
  if (unavailable) {
    const advice = missing.includes("no-registered-tools") ? "" : ". To narrow it, compose a serving router: register a procedural layer (`entries`)";
    deliver(new ToolRoutingUnavailableWarning(`tool routing is unavailable (missing: ${missing.join(", ")}); the full palette is kept on every turn${advice}`, missing), onWarning);
  } else entry.users++;
  attachRecord(this, unavailable ? [] : [entry.index], layer, unavailable ? () => {} : () => release(entry, -1));
  this.registered = registered;
  this.unavailable = unavailable;
  Object.freeze(this);
}

// ---------------------------------------------------------------- at the model call

/** The routed names, or undefined ("every tool", the AI SDK's own meaning). Never []. */
export const activeTools = guard(function activeTools(outcome) {
  return routedNames(outcome, "activeTools: outcome");
});

/**
 * Keeps the routed tools of an array of `{ name }` or a record keyed by name, the caller's
 * own objects in the caller's order; the input itself unless routed. An array's entry
 * without a string name is kept in place (src/routing.rs `keep`).
 */
export const bindPalette = guard(function bindPalette(tools, outcome) {
  const where = "bindPalette: tools";
  const what = "an array of { name } or a record keyed by name";
  if (!isObject(tools)) throw mustBe(where, what, tools);
  const routed = routedNames(outcome, "bindPalette: outcome");
  const array = attempt(() => Array.isArray(tools), where);
  // A Map or a Set is no record: filtering its (absent) own keys would drop every tool.
  if (!array && attempt(() => Symbol.iterator in tools, where)) throw mustBe(where, what, tools);
  if (routed === undefined) return tools;
  const items = attempt(() => (array ? bounded(tools) : Object.keys(tools)), where);
  const named = (tool, i) => attempt(() => (isObject(tool) ? tool.name : undefined), `${where}[${i}].name`);
  const names = array ? items.map(named) : items;
  const codes = Uint8Array.from(names, (name) => (typeof name === "string" ? 1 : 0));
  putNames([...routed, ...names.map((name) => (typeof name === "string" ? name : ""))], where, codes);
  const kept = wasm.keep(routed.length, items.length);
  if (array) return pick(items, kept);
  const out = Object.create(Object.getPrototypeOf(tools) === null ? null : Object.prototype);
  const value = (key) => ({ value: tools[key], enumerable: true, writable: true, configurable: true });
  attempt(() => kept.forEach((i) => Object.defineProperty(out, items[i], value(items[i]))), where);
  return out;
});
