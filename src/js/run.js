// PaletteRun (SPEC 8): one conversation's palette across steps, each decided by the module
// (run.rs) and answered as indices into the caller's own registered strings.
import * as wasm from "./tool_palette.js";
import { CACHES } from "./wire.js";
import { enter, fields, guarded, mustBe, own, putNames, strings, use, using } from "./host.js";
import { pick, routedNames } from "./routing.js";

// `<where>[i] ("name") is not a registered tool`, when the module answered `i` (a number).
const unregistered = (where, names) => (i) => (typeof i === "number" ? new TypeError(`${where}[${i}] ("${names[i]}") is not a registered tool`) : i);
// `f()`, its error (`i`, a number the module threw) worded by `word`.
function worded(f, word) {
  try { return f(); } catch (i) { throw word(i); }
}

export class PaletteRun {
  constructor(options) { enter(start, this, [options]); }

  /** The next step, for this turn's outcome (a refusal or RoutingUnavailable: every tool). */
  step(outcome) {
    return using(this, PaletteRun, "step", (run, held) => {
      const where = "PaletteRun.step: outcome";
      const names = routedNames(outcome, where);
      if (names) putNames(names, `${where}.names`);
      let answer;
      const to = { stepped: (step, ...lists) => (answer = [step, ...lists.map((list, i) => (i < 4 ? pick(held.names, list) : list))]) };
      worded(() => run.step(to, names !== undefined, names?.length ?? 0), unregistered(`${where}.names`, names));
      const [step, offered, listed, deferred, revealed, kept] = answer;
      held.size = step;
      return Object.freeze({ step, offered, listed, deferred, revealed, kept });
    });
  }

  /** `"deferred"`: tools the model loaded itself join what the run revealed. */
  reveal(names) {
    return using(this, PaletteRun, "reveal", (run, held) => {
      const where = "PaletteRun.reveal: names";
      const list = strings(names, where);
      putNames(list, where);
      const word = (i) => (i === undefined ? new Error(`PaletteRun.reveal: only a "deferred" run reveals tools (this run is "${held.cache}")`) : unregistered(where, list)(i));
      return pick(held.names, worded(() => run.reveal(list.length), word));
    });
  }

  /** Steps taken. */
  get size() { return use(this, PaletteRun, "size").more.size; }

}
guarded(PaletteRun, ["step"], ["reveal"]);

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
  const run = worded(() => new wasm.Run(CACHES.indexOf(cache), names.length, pins.length), unregistered(`${where}.pinned`, pins));
  own(this, run, { names, cache, size: 0 });
  Object.freeze(this);
}
