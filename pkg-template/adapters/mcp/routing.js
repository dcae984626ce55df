// tool-palette/mcp, routing: one run's turns. Each route() asks the core (resolvePalette) with the rows of the skills (SPEC 9), of the index (or
// options.entries), then of the tools search_tools found earlier in the run; with options.cache (or skills), the run (SPEC 8) says what is offered.
import { resolvePalette } from "tool-palette";
import { runLists, Runs } from "../kernel/runs.js";
import { createSkills } from "../kernel/skills.js";
import { abortable, checkSignal, fail, fields, isObject, isString, tryOr } from "../kernel/values.js";

export function createRouting(o, listing, palette, { saved, onSaved }) {
  const { cache, searchName, skillTool, entries, timeoutMs, onDecision, where } = o;
  // The search tool and the load_skill tool are pinned: offered whenever routing narrows.
  const pins = [...(searchName === false ? [] : [searchName]), ...(palette && skillTool !== false ? [skillTool] : [])];
  const of = "tool-palette/mcp (from onSaved or run.save())";
  const runs = new Runs(cache, () => pins, { carry: true, saved: saved ?? null, at: `${where}: run(options).saved`, of });
  const back = runs.pending ?? { turns: 0, found: [], gate: null };
  if (!Number.isSafeInteger(back.turns) || back.turns < 0 || !Array.isArray(back.found) || !back.found.every(isString) || !(back.gate == null || (back.turns > 0 && isGate(back.gate)))) {
    throw new TypeError(`${where}: run(options).saved is not a saved run of ${of}`);
  }
  const found = [...back.found];
  // The latest route() started that finished. Its `gate` is what the run's calls are gated on until the next one: the names offered (`null`: every
  // tool listed), where each went (a call is gated on (server, tool)), the context and palette the policies read; a restored run's is the saved one.
  let current = null;
  const restored = back.gate == null ? null : gateOf(back.gate);
  let turns = back.turns; // route() calls started
  const skills = palette && createSkills(palette.source(), { tool: skillTool, runs });
  const save = () => runs.save({ turns, found, gate: savedGate(current?.gate ?? restored) });
  const changed = () => onSaved?.(save());
  // The servers' tools the run's calls went to: the index reads them as `called` (ToolIndex.entries).
  const called = (name) => runs.call(name) && changed();
  // Every tool of the run (those listed, then its own, pinned), and each one's definition.
  const all = (l) => [...l.names, ...pins];
  const toolOf = (l, name) => (l.byName.has(name) ? listing.offeredTool(l, name) : name === searchName ? listing.searchTool() : skills.def);

  async function routeTurn(context, signal, lenient) {
    if (typeof context !== "string" && !isObject(context)) throw fail(`${where}: route(context)`, "the turn's message (a string) or a context object with its message", context);
    const ctx = typeof context === "string" ? { message: context } : context;
    checkSignal(signal, `${where}: route(context, options).signal`);
    const number = turns++;
    const l = await abortable(listing.listed(), signal);
    let decision = null;
    // With a run, the rows also read its evidence (kernel/runs.js), read as the rows are (a context that cannot be read is refusal 2a).
    let evidence;
    const withHistory = () => (evidence ??= cache === null ? ctx : runs.context(ctx));
    const rows = async () => {
      const list = skills ? [...(await skills.source.entries(withHistory()))] : [];
      const own = entries ? await entries(ctx) : await l.index.entries(withHistory());
      if (own != null) list.push(...own);
      const known = found.filter((name) => l.byName.has(name));
      if (known.length > 0) list.push(...l.index.rows(known));
      return list;
    };
    const budget = timeoutMs === undefined || timeoutMs === Infinity ? {} : { timeoutMs }; // Infinity: no budget
    const outcome = await resolvePalette({ entries: rows, registered: l.names, signal, ...budget, onDecision: (d) => void (decision = d) });
    const narrowed = outcome.kind === "routed";
    const step = cache === null ? null : runs.step(all(l), outcome);
    const withSearch = step === null && narrowed && searchName !== false;
    const offeredNames = step ? [...step.offered] : narrowed ? [...outcome.names, ...(withSearch ? [searchName] : [])] : [...l.names];
    const listedNames = step ? [...step.listed] : offeredNames;
    const names = offeredNames.filter((name) => l.byName.has(name)); // the servers' tools offered
    const newSkills = step?.newSkills ?? [];
    const report = Object.freeze({
      turn: number,
      step: number + 1, // the turn from 1: a step tool-palette/providers reads as it is
      routing: decision,
      offered: Object.freeze(offeredNames),
      hidden: Object.freeze(decision && narrowed ? [...decision.hidden] : []),
      found: Object.freeze([...found]),
      servers: listing.servers(l, new Set(names), new Set(listedNames)), failures: l.failures, skipped: Object.freeze(l.skipped), embedding: l.embedding,
      definitions: Object.freeze({ offered: listing.measure(listedNames, l), all: listing.measure(l.names, l) }),
      ...runLists(step, Object.freeze(listedNames), skills),
    });
    const instructions = async (skill) => Object.freeze({ skill, text: await skills.text(skill) });
    const [tools, deferred] = [listedNames, step ? step.deferred : []].map((names) => Object.freeze(names.map((name) => toolOf(l, name))));
    const placed = skills && { instructions: Object.freeze(await Promise.all(newSkills.map(instructions))) };
    const turn = Object.freeze({ ctx, outcome, decision, names: report.offered, tools, deferred, report, index: l.index, palette: step || narrowed ? report.offered : outcome, ...placed });
    // A throwing onDecision fails this route() before it is the run's turn; a route() started earlier that finishes later is not.
    if (onDecision) onDecision(report);
    if (current === null || current.turn.report.turn < number) {
      const targets = new Map(names.map((name) => [name, l.byName.get(name)]));
      current = { turn, gate: { names: report.offered, kind: outcome.kind, ctx, palette: turn.palette, targets, lenient } };
    }
    changed();
    return turn;
  }

  // An adapter in shadow mode or with outsidePalette "allow" lets a call outside the palette run: so does the run, for its steps.
  const router = async (ctx, { signal, onDecision: decided, mode, outsidePalette: adapterOutside } = {}) => {
    const turn = await routeTurn(ctx, signal, mode === "shadow" || adapterOutside === "allow");
    if (decided && turn.decision) decided(turn.decision);
    return turn.outcome;
  };
  // A skill the model loaded through a framework adapter joins this run too.
  const shared = palette &&
    palette.source((skill, tools) => {
      runs.addSkill(skill, tools);
      changed();
    });

  return {
    found,
    called,
    skills,
    changed,
    get gate() {
      return current?.gate ?? restored;
    },
    all,
    toolOf,
    // What a turn that did not narrow offered: every tool listed, and with a run its own tools.
    every: (l) => (cache === null ? l.names : all(l)),
    run: {
      route: async (context, options) => routeTurn(context, fields(options, ["signal"], `${where}: route(context, options)`).signal, false),
      router,
      adapterOptions: Object.freeze({ router, alwaysInclude: Object.freeze([...pins]), ...(shared && { skills: shared }) }),
      skills: shared,
      get turn() {
        return current?.turn ?? null;
      },
      get found() {
        return [...found];
      },
      reveal(names) {
        if (cache !== "deferred") throw new Error(`${where}: run.reveal() needs options.cache "deferred" (this palette's is ${cache === null ? "none" : `"${cache}"`})`);
        if (runs.run === null) throw new Error(`${where}: run.reveal() before the run's first step (route())`);
        const revealed = runs.reveal(names);
        changed();
        return revealed;
      },
      save,
    },
  };
}

// A turn's gate in the saved form (SPEC 8: a restored run's next call is gated as the unbroken run's): JSON, its targets as [name, server, tool]; a
// turn that did not narrow offered every tool (`names` null: those listed then, and the run's own tools).
function savedGate(gate) {
  if (gate === null) return null;
  const { kind, ctx, lenient } = gate;
  const message = isObject(ctx) && tryOr(() => ctx.message);
  const [names, targets] = kind === "routed" ? [gate.names, [...gate.targets].map(([name, t]) => [name, t.server, t.name])] : [null, []];
  return { names, kind, message: isString(message) ? message : "", targets, lenient };
}

const isGate = (g) =>
  isObject(g) && (g.names === null || (Array.isArray(g.names) && g.names.every(isString))) && ["routed", "refused", "unavailable"].includes(g.kind) && isString(g.message) &&
  typeof g.lenient === "boolean" && Array.isArray(g.targets) && g.targets.every((t) => Array.isArray(t) && t.length === 3 && t.every(isString));

// A saved gate as a turn's: the policies read the saved message and the palette (the names offered, or a turn that did not narrow).
function gateOf({ names, kind, message, targets, lenient }) {
  const palette = names === null ? { kind } : names;
  return { names, kind, ctx: { message }, palette, targets: new Map(targets.map(([name, server, tool]) => [name, { server, name: tool }])), lenient };
}
