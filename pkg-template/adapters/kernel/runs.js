// The run (SPEC 8, 9) of an adapter or an MCP run: a PaletteRun over the tools given, anew when they change, and its saved form. Internal.
import { PaletteRun } from "tool-palette";
import { errorText, fail, isObject, tryOr } from "./values.js";

const VERSION = 1;
const NONE = Object.freeze([]);
// The user messages a run keeps (the turn's and the earlier ones, each once in a row): its routing's `history` is the earlier of them. Bounded,
// so that a run's memory and saved form stay small; ToolIndex.entries ranks the last one.
const KEPT_MESSAGES = 16;

// PaletteRun.load's refusal of the registered list (not of the saved form).
const otherTools = (error) => error instanceof TypeError && error.code === "REGISTERED_MISMATCH";

/** A report's run lists (SPEC 8, 9); without a run, `listed` and none deferred. */
export const runLists = (step, listed, skills) => ({
  listed: step ? step.listed : listed, deferred: step ? step.deferred : NONE, revealed: step ? step.revealed : NONE, kept: step ? step.kept : null,
  ...(skills && { skills: step?.skills ?? NONE, newSkills: step?.newSkills ?? NONE }),
});

// A run kept while the registered names stay the same. With `carry`, a new run keeps what the previous one showed the model (revealed or listed
// tools); the skills met stay met. `saved` is restored at the first step: saved over other tools, a TypeError, or with `carry` a carrying new run.
export class Runs {
  constructor(cache, pinnedOf, { carry = false, saved = null, at = "options.saved", of = "an adapter (from onSaved or save())" } = {}) {
    Object.assign(this, { cache, pinnedOf, carry, at, names: null, run: null, listed: [], revealed: [], met: [], placed: [], messages: [], called: [] });
    const back = (this.pending = saved === null ? null : Runs.parse(saved, at, of, carry));
    // A run saved under another strategy is not this one's (its prefix would not be this cache's); forms saved before they named it load.
    if (back && back.cache !== undefined && back.cache !== cache) throw new TypeError(`${at} is a run of cache ${JSON.stringify(back.cache)}, not ${JSON.stringify(cache)}: continue it with the same cache`);
    if (back) Object.assign(this, { listed: back.listed, revealed: back.revealed, met: back.met, placed: back.placed, messages: back.messages ?? (back.message == null ? [] : [back.message]), called: [...(back.called ?? [])] });
  }

  // The run's evidence for the turn's routing (ToolIndex.entries): its earlier user messages (`history`) and the tools its model called (`called`),
  // unless the context gives them. The context itself is left as it is: the evidence and its message are own properties of an object whose prototype
  // it is (its getters and other properties read through).
  context(ctx) {
    const message = isObject(ctx) ? ctx.message : undefined;
    if (typeof message !== "string") return ctx;
    // (An empty message, a step with no user message such as a tool run outside the model's seam, is none of the run's.)
    if (message.trim() !== "" && this.messages.at(-1) !== message && this.messages.push(message) > KEPT_MESSAGES) this.messages.shift();
    const more = { message, ...(!("history" in ctx) && { history: Object.freeze(this.messages.slice(0, -1)) }), ...(!("called" in ctx) && { called: [...this.called] }) };
    return Object.keys(more).length === 1 ? ctx : Object.create(ctx, Object.fromEntries(Object.entries(more).map(([key, value]) => [key, { value, enumerable: true }])));
  }

  // A tool the run's model called (after the policies' redirect), each once: whether it is new.
  call(name) {
    return !this.called.includes(name) && this.called.push(name) > 0;
  }

  step(registered, outcome) {
    const { cache } = this;
    let carried = [];
    if (!(this.names && this.names.length === registered.length && this.names.every((name, i) => name === registered[i]))) {
      const still = new Set(registered);
      this.run?.dispose();
      this.names = [...registered];
      this.run = this.restored(registered);
      if (this.run === null) {
        if (this.carry) carried = (cache === "deferred" ? this.revealed : cache === "append" ? this.listed : []).filter((n) => still.has(n));
        this.run = new PaletteRun({ registered: this.names, cache, pinned: this.pinnedOf(this.names) });
        this.revealed = [];
        if (cache === "deferred") this.remember(this.run.reveal(carried));
        for (const [skill, tools] of this.met) this.run.addSkill(skill, tools);
      }
    }
    const palette = cache === "append" && carried.length && outcome.kind === "routed" ? { ...outcome, kind: "routed", names: [...carried, ...outcome.names], unresolved: [] } : outcome;
    const step = this.run.step(palette);
    this.listed = step.listed;
    this.remember(step.revealed);
    for (const skill of step.newSkills ?? []) this.meet(skill, []);
    return step;
  }

  // The saved run, over `registered`: `null` when there is none, or (with `carry`) when it was saved over other tools. A saved form cut short or
  // altered is a TypeError, with `carry` too (never a silently different prefix).
  restored(registered) {
    const saved = this.pending;
    this.pending = null;
    if (saved === null || saved.run === null) return null;
    try {
      return PaletteRun.load(saved.run, { registered });
    } catch (error) {
      if (this.carry && otherTools(error)) return null;
      throw new TypeError(`${this.at} cannot be restored over the tools given now (${errorText(error)})`, { cause: error });
    }
  }

  reveal(names) {
    return this.remember(this.run.reveal(names));
  }

  // The model loaded `skill` (SPEC 9): no longer new, its `tools` joining the later steps.
  addSkill(skill, tools) {
    this.meet(skill, [...tools]);
    return this.run ? this.run.addSkill(skill, tools) : [];
  }

  // A skill the run met, once (its tools joined), however often the model loads it: the saved form stays bounded.
  meet(skill, tools) {
    const met = this.met.find(([name]) => name === skill);
    if (met) met[1] = [...new Set([...met[1], ...tools])];
    else this.met.push([skill, tools]);
  }

  // (A loop, not push(...names): a list of 150,000 names overflows the stack.)
  remember(names) {
    for (const name of names) this.revealed.push(name);
    return names;
  }

  // The saved form (issue 41): versioned JSON text; `more` is the adapter's.
  save(more = {}) {
    const run = this.run ? this.run.save() : this.pending?.run ?? null;
    const { listed, revealed, met, placed, messages, called } = this;
    return JSON.stringify({ "tool-palette": "run", version: VERSION, cache: this.cache, run, listed, revealed, met, placed, messages, called, ...more });
  }

  // A saved form read and checked (a TypeError naming `at` says why not).
  static parse(saved, at, of, carry = false) {
    if (typeof saved !== "string") throw fail(at, "a string (a saved run, from onSaved or save())", saved);
    const o = tryOr(() => JSON.parse(saved));
    const lists = (v) => Array.isArray(v) && v.every((x) => typeof x === "string");
    const versioned = isObject(o) && o["tool-palette"] === "run" && typeof o.version === "number";
    if (versioned && o.version !== VERSION) throw new TypeError(`${at} is a saved run of another version of tool-palette`);
    const met = versioned && Array.isArray(o.met) && o.met.every((m) => Array.isArray(m) && typeof m[0] === "string" && lists(m[1]));
    const placed = versioned && Array.isArray(o.placed) && o.placed.every((p) => Array.isArray(p) && typeof p[0] === "string" && Number.isSafeInteger(p[1]) && p[1] >= 0);
    // (`messages` and `called` are absent from a run saved before the run kept them; tool-palette/mcp's kept its last `message`.)
    const evidence = versioned && (o.message == null || typeof o.message === "string") && lists(o.messages ?? []) && lists(o.called ?? []);
    const altered = `${at} is not a saved run of ${of}, or it was cut short or altered`;
    if (!met || !placed || !evidence || (o.run !== null && typeof o.run !== "string") || !lists(o.listed) || !lists(o.revealed)) throw new TypeError(altered);
    // With `carry` (a run that starts anew over other tools), the core's form is checked now, over no tools: only the list it was saved over may
    // refuse it, so that a form cut short or altered is never taken for one saved over other tools. (Without, the first step refuses it.)
    if (carry && o.run !== null) {
      try {
        PaletteRun.load(o.run, { registered: [] }).dispose();
      } catch (error) {
        if (!otherTools(error)) throw new TypeError(`${altered} (${errorText(error)})`, { cause: error });
      }
    }
    return o;
  }
}
