// @ts-check
// PaletteRun (SPEC 8): one conversation's palette across steps, each decided by the module
// (run.rs) and answered as indices into the caller's own registered strings.
import * as wasm from "./tool_palette.js";
import { CACHES } from "./wire.js";
import { attempt, drop, enter, fields, guarded, mustBe, attachRecord, putNames, slot, strings, decodeStrings, recordOf, withRecord } from "./host.js";
import { calls } from "./calls.js";
import { pick, routedNames } from "./routing.js";

// `<where>[i] ("name") is not a registered tool`, for the module's answer `i`.
const unregistered = (where, names, i) => new TypeError(`${where}[${i}] ("${names[i]}") is not a registered tool`);
// The module's answers that are no index (run.rs `MISSING`, `NOT_DEFERRED`).
const [MISSING, NOT_DEFERRED] = [0xffffffff, 0xfffffffe];
const gone = () => new Error("tool-palette: a run's state is gone (a fault of the package's, or its memory ran out)");
// Why a saved form is refused (run.rs `restore`, by the core's `SavedError`).
const SAVED = [
  () => "saved is not a saved PaletteRun (from run.save()), or it was cut short or altered",
  () => "saved is a saved PaletteRun of another version of tool-palette",
  (given, saved) => `options.registered has ${given} names; the run was saved over ${saved}: pass the registered list it was saved with`,
  () => "options.registered is not the list the run was saved with (as many names, but not the same ones in the same order): pass the registered list it was saved with",
];

export class PaletteRun {
  constructor(options) { enter(start, this, [options]); }

  /**
   * The next step, for this turn's outcome (a refusal or RoutingUnavailable: every tool). An outcome that names
   * skills (SPEC 9) gives a step that says which are relevant and which are new to the run.
   */
  /** @type {import("./tool-palette.js").PaletteRun["step"]} */
  step(outcome) {
    return withRecord(this, PaletteRun, "step", ([run, roster], more) => {
      const where = "PaletteRun.step: outcome";
      const names = routedNames(outcome, where);
      const named = attempt(() => /** @type {{ skills?: unknown }} */ (outcome).skills, `${where}.skills`);
      const skills = named === undefined ? undefined : Object.freeze(strings(named, `${where}.skills`));
      putNames([...(names ?? []), ...(skills ?? [])], `${where}.names`);
      /** @type {any} the step and its lists */
      let answer;
      // run.rs `stepped`: the step, four lists of the registered names' indices, kept, and per skill whether it is new.
      const namesOf = (list) => pick(more.names, list);
      calls.to = { stepped: (step, offered, listed, deferred, revealed, kept, fresh) => (answer = [step, namesOf(offered), namesOf(listed), namesOf(deferred), namesOf(revealed), kept, fresh]) };
      const i = wasm.step(run, roster, names !== undefined, names?.length ?? 0, skills?.length ?? 0);
      if (i === MISSING) throw gone();
      if (i !== undefined) throw unregistered(`${where}.names`, names, i);
      const [step, offered, listed, deferred, revealed, kept, fresh] = answer;
      more.size = step;
      if (!skills) return Object.freeze({ step, offered, listed, deferred, revealed, kept });
      return Object.freeze({ step, offered, listed, deferred, revealed, kept, skills, newSkills: Object.freeze(skills.filter((_, k) => fresh[k] === 1)) });
    });
  }

  /**
   * SPEC 9, `load_skill`: the model loaded a skill itself (its instructions are in the conversation now). It is no
   * longer new to the run, and its tools that are registered join the palette of every later step: those that joined.
   */
  /** @type {import("./tool-palette.js").PaletteRun["addSkill"]} */
  addSkill(skill, tools) {
    return withRecord(this, PaletteRun, "addSkill", ([run, roster], more) => {
      if (typeof skill !== "string") throw mustBe("PaletteRun.addSkill: skill", "a string", skill);
      const list = strings(tools, "PaletteRun.addSkill: tools");
      putNames([skill, ...list], "PaletteRun.addSkill: tools");
      let added;
      calls.to = { revealed: (indices) => (added = pick(more.names, indices)) };
      if (!wasm.join(run, roster, list.length)) throw gone();
      return added;
    });
  }

  /** `"deferred"`: tools the model loaded itself join what the run revealed. */
  /** @type {import("./tool-palette.js").PaletteRun["reveal"]} */
  reveal(names) {
    return withRecord(this, PaletteRun, "reveal", ([run, roster], more) => {
      const where = "PaletteRun.reveal: names";
      const list = strings(names, where);
      putNames(list, where);
      let added;
      calls.to = { revealed: (indices) => (added = pick(more.names, indices)) };
      const i = wasm.reveal(run, roster, list.length);
      if (i === NOT_DEFERRED) throw new Error(`PaletteRun.reveal: only a "deferred" run reveals tools (this run is "${more.cache}")`);
      if (i === MISSING) throw gone();
      if (i !== undefined) throw unregistered(where, list, i);
      return added;
    });
  }

  /** Steps taken. */
  get size() { return recordOf(this, PaletteRun, "size").more.size; }

  /** The run's saved form: short, versioned text that `PaletteRun.load` restores in another process. */
  save() {
    return withRecord(this, PaletteRun, "save", ([run, roster]) => {
      let saved;
      calls.to = { text: (units) => (saved = decodeStrings(units)[0]) };
      if (!wasm.saved(run, roster)) throw gone();
      return saved;
    });
  }

  /** The run a saved form holds, over the registered names it was saved with. */
  /** @type {typeof import("./tool-palette.js").PaletteRun["load"]} */
  static load(saved, options) { return enter(restore, undefined, [saved, options]); }

}
guarded(PaletteRun, ["step"], ["reveal"], ["addSkill"], ["save"]);

function restore(saved, options) {
  const where = "PaletteRun.load";
  if (typeof saved !== "string") throw mustBe(`${where}: saved`, "a string (from run.save())", saved);
  if (options == null) throw mustBe(`${where}: options`, "an object with `registered`", options);
  const [registered] = fields(options, ["registered"], `${where}: options`);
  const names = Object.freeze(strings(registered, `${where}: options.registered`));
  putNames([saved, ...names], `${where}: options.registered`);
  const slots = [slot(), slot()];
  const why = wasm.restore(slots[0], slots[1], names.length);
  if (why.length > 0) {
    slots.forEach(drop);
    if (why[0] === 4) throw gone();
    const error = new TypeError(`${where}: ${SAVED[why[0]](why[1], why[2])}`);
    // (run.rs `Count` and `Names`: the form is sound, the registered list is another. A host starts a new run then.)
    throw why[0] >= 2 ? Object.assign(error, { code: "REGISTERED_MISMATCH" }) : error;
  }
  const self = Object.create(PaletteRun.prototype);
  attachRecord(self, slots, { names, cache: CACHES[wasm.strategy(slots[0])], size: wasm.steps(slots[0]) });
  return Object.freeze(self);
}

/** @this {PaletteRun} */
function start(options) {
  const where = "PaletteRun: options";
  if (options == null) throw mustBe(where, "an object with `registered`", options);
  const [registered, cache = "append", pinned] = fields(options, ["registered", "cache", "pinned"], where);
  const names = Object.freeze(strings(registered, `${where}.registered`));
  const expected = `${CACHES.slice(0, -1).map((c) => `"${c}"`).join(", ")} or "${CACHES.at(-1)}"`;
  if (typeof cache !== "string") throw mustBe(`${where}.cache`, expected, cache);
  if (!CACHES.includes(cache)) throw new TypeError(`${where}.cache must be ${expected}, got "${cache}"`);
  const pins = pinned == null ? [] : strings(pinned, `${where}.pinned`);
  putNames([...names, ...pins], `${where}.registered`);
  const slots = [slot(), slot()];
  const i = wasm.run(slots[0], slots[1], CACHES.indexOf(cache), names.length, pins.length);
  if (i !== undefined) {
    slots.forEach(drop);
    throw i === MISSING ? gone() : unregistered(`${where}.pinned`, pins, i);
  }
  attachRecord(this, slots, { names, cache, size: 0 });
  Object.freeze(this);
}
