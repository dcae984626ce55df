// tool-palette/mcp, routing: one run's turns. Each route() asks the core (resolvePalette) with the rows
// of the index (or of options.entries), then the tools search_tools found earlier in the run; with
// options.cache, the run (SPEC 8) says what is offered, listed and deferred.
import { resolvePalette } from "tool-palette";
import { Runs } from "../kernel/runs.js";
import { abortable, checkSignal, fail, fields, isObject } from "../kernel/values.js";

/** One run's routing: its members (`run`), `found` (what search_tools found, in order) and `current` (its latest turn, or null). */
export function createRouting(o, listing) {
  const { cache, searchName, entries, timeoutMs, onDecision, where } = o;
  const found = [];
  // The latest route() started that finished: { turn, targets (where each offered name went: a call is gated on
  // (server, tool)), lenient (routed for an adapter that lets calls outside the palette run) }.
  let current = null;
  let turns = 0; // route() calls started
  const messages = []; // the run's user messages, each once in a row
  const earlier = (message) => {
    if (messages[messages.length - 1] !== message) messages.push(message);
    return Object.freeze(messages.slice(0, -1));
  };
  // With options.cache: a run over the listed tools and the search tool (pinned), anew (carrying what the model was shown) when they change.
  const runs = cache === null ? null : new Runs(cache, () => (searchName === false ? [] : [searchName]), { carry: true });
  async function routeTurn(context, signal, lenient) {
    if (typeof context !== "string" && !isObject(context)) throw fail(`${where}: route(context)`, "the turn's message (a string) or a context object with its message", context);
    const ctx = typeof context === "string" ? { message: context } : context;
    checkSignal(signal, `${where}: route(context, options).signal`);
    const number = turns++;
    const l = await abortable(listing.listed(), signal);
    let decision = null;
    // With a run, the index also reads the run's earlier messages (SPEC 8 `history`) unless the context has its own;
    // read as the rows are (a context that cannot be read is refusal 2a).
    const withHistory = () => (cache !== null && typeof ctx.message === "string" && !("history" in ctx) ? { ...ctx, history: earlier(ctx.message) } : ctx);
    const rows = async () => {
      const own = entries ? await entries(ctx) : await l.index.entries(withHistory());
      const list = own == null ? [] : [...own];
      const known = found.filter((name) => l.byName.has(name));
      if (known.length > 0) list.push(...l.index.rows(known));
      return list;
    };
    const outcome = await resolvePalette({
      entries: rows,
      registered: l.names,
      signal,
      ...(timeoutMs === undefined || timeoutMs === Infinity ? {} : { timeoutMs }), // Infinity: no budget
      onDecision: (d) => void (decision = d),
    });
    const narrowed = outcome.kind === "routed";
    const step = runs && runs.step(searchName === false ? l.names : [...l.names, searchName], outcome);
    const toolOf = (name) => (name === searchName && !l.byName.has(name) ? listing.searchTool() : listing.offeredTool(l, name));
    const withSearch = step === null && narrowed && searchName !== false;
    const offeredNames = step ? [...step.offered] : narrowed ? [...outcome.names, ...(withSearch ? [searchName] : [])] : [...l.names];
    const listedNames = step ? [...step.listed] : offeredNames;
    const names = offeredNames.filter((name) => l.byName.has(name)); // the servers' tools offered
    const tools = listedNames.map(toolOf);
    const servers = listing.servers(l, new Set(names));
    const report = Object.freeze({
      turn: number,
      // The turn from 1: a step tool-palette/providers reads as it is.
      step: number + 1,
      routing: decision,
      offered: Object.freeze(offeredNames),
      hidden: Object.freeze(decision && narrowed ? [...decision.hidden] : []),
      found: Object.freeze([...found]),
      servers,
      failures: l.failures,
      skipped: Object.freeze(l.skipped),
      embedding: l.embedding,
      definitions: Object.freeze({ offered: listing.measure(listedNames, l), all: listing.measure(l.names, l) }),
      // The run's lists (SPEC 8) with options.cache; without it, what is sent is what is offered.
      listed: step ? step.listed : Object.freeze(listedNames),
      deferred: step ? step.deferred : Object.freeze([]),
      revealed: step ? step.revealed : Object.freeze([]),
      kept: step ? step.kept : null,
    });
    const palette = step || narrowed ? report.offered : outcome;
    const deferred = Object.freeze((step ? step.deferred : []).map(toolOf));
    const turn = Object.freeze({ ctx, outcome, decision, names: report.offered, tools: Object.freeze(tools), deferred, report, index: l.index, palette });
    const targets = new Map(names.map((name) => [name, l.byName.get(name)]));
    // A throwing onDecision fails this route() before it is the run's turn; a route() started earlier that finishes later is not.
    if (onDecision) onDecision(report);
    if (current === null || current.turn.report.turn < number) current = { turn, targets, lenient };
    return turn;
  }

  // An adapter in shadow mode or with outsidePalette "allow" lets a call outside the palette run: so does the run, for its steps.
  const router = async (ctx, { signal, onDecision: decided, mode, outsidePalette: adapterOutside } = {}) => {
    const turn = await routeTurn(ctx, signal, mode === "shadow" || adapterOutside === "allow");
    if (decided && turn.decision) decided(turn.decision);
    return turn.outcome;
  };

  return {
    found,
    get current() {
      return current;
    },
    // The run's routing members (calling adds its own).
    run: {
      route: async (context, options) => routeTurn(context, fields(options, ["signal"], `${where}: route(context, options)`).signal, false),
      router,
      adapterOptions: Object.freeze({ router, alwaysInclude: Object.freeze(searchName === false ? [] : [searchName]) }),
      get turn() {
        return current?.turn ?? null;
      },
      get found() {
        return [...found];
      },
      // With cache "deferred": tools the model loaded itself (a client tool search you answered), offered from the next turn on.
      reveal(names) {
        if (cache !== "deferred") throw new Error(`${where}: run.reveal() needs options.cache "deferred" (this palette's is ${cache === null ? "none" : `"${cache}"`})`);
        if (runs.run === null) throw new Error(`${where}: run.reveal() before the run's first step (route())`);
        return runs.reveal(names);
      },
    },
  };
}
