// Runs (SPEC 8) on BFCL's multi-turn conversations (bfcl-multi-turn.json, derive_multi.py):
// per PaletteRun strategy, the recall of each turn's needed tools in what the run offered, and
// what the run's requests cost with the providers' prompt caching, against listing every tool.
// The cost model is in DESIGN.md, "Multi-turn runs".
//
//   npm run build && node bench/tool-search/multi-turn.mjs      (npm run bench prints it too)
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { resolve } from "node:path";
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import * as pkg from "../../dist/node.mjs";
import { definition } from "./tokens.mjs";

const here = new URL(".", import.meta.url);
export const data = JSON.parse(readFileSync(new URL("bfcl-multi-turn.json", here), "utf8"));
const live = JSON.parse(readFileSync(new URL("bfcl-live.json", here), "utf8"));
/** The pool: the 8 API classes' functions (namespace = class), then the live tools whose names they do not have. */
export function poolOf(classes = data.tools, others = live.tools) {
  const taken = new Set(classes.map((t) => t.name));
  return [...classes, ...others.filter((t) => !taken.has(t.name))];
}

// The cost model's fixed sizes, in o200k tokens (DESIGN.md, "Multi-turn runs").
export const SIZES = { system: 1000, result: 100, answer: 50 };
export const SESSION = 5; // conversations joined into one session
export const LIMIT = 5;
/** The client tool-search tool the "deferred" run lists (pinned); the rest of the pool is deferred. */
export const TOOL_SEARCH = {
  name: "tool_search",
  description: "Search the tools you can use by what you want to do. The matching tools' definitions are loaded into the conversation; call them as usual afterwards.",
  parameters: { type: "object", properties: { query: { type: "string", description: "What the tool should do, in a few words." } }, required: ["query"] },
};
export const STRATEGIES = ["per-turn", "append", "fixed", "deferred"];
export const EVERY = "every tool";

/**
 * The providers' documented caching rules. A request is billed by its prefix shared with the
 * previous request (`shared` tokens): from `min` shared tokens on, the shared tokens rounded down
 * to a multiple of `step` are read at `read`; the rest is billed at `write` (Anthropic: written to
 * the cache by automatic caching at the end of the request, when the request reaches `min`; below
 * that nothing is cached and the request is billed at 1.0).
 */
export const RULES = {
  anthropic: { name: "Anthropic", min: 1024, step: 1, read: 0.1, write: 1.25 },
  openai: { name: "OpenAI", min: 1024, step: 128, read: 0.1, write: 1 },
};

/**
 * One request's price. A request is its segments in order, each [key, tokens] (a key names what
 * a segment holds: a tool's definition, the system prompt, a message); `prev` is the previous
 * request of the run (or null). The cached prefix is the longest run of equal keys from the start.
 */
export function price(prev, cur, rule) {
  let shared = 0;
  let tokens = 0;
  let same = prev !== null;
  for (let i = 0; i < cur.length; i++) {
    tokens += cur[i][1];
    if (same && i < prev.length && prev[i][0] === cur[i][0]) shared += cur[i][1];
    else same = false;
  }
  const cached = shared >= rule.min ? Math.floor(shared / rule.step) * rule.step : 0;
  return { tokens, cached, cost: cached * rule.read + (tokens - cached) * (tokens >= rule.min ? rule.write : 1) };
}

/** A turn's needed tools found in what was offered: { found, needed }. */
export function recallOf(needed, offered) {
  const set = new Set(offered);
  return { found: needed.filter((n) => set.has(n)).length, needed: needed.length };
}

/**
 * The requests of one run, as segment lists: per turn (with its step), the turn's user messages
 * appended to the history (and, for "deferred", the step's revealed definitions after them), then
 * one request per ground-truth call plus one for the answer; each call adds the assistant's call
 * and its result, the answer adds the assistant's answer. `sizes`: { def(name), text(string),
 * system, result, answer }. Yields { segments, defTokens, changed } (changed: the tools list
 * differs from the previous request's).
 */
export function* requestsOf(turns, steps, sizes) {
  const history = [];
  let revealedTokens = 0;
  for (let t = 0; t < turns.length; t++) {
    const turn = turns[t];
    const step = steps[t];
    const tools = step.listed.map((n) => [`tool ${n}`, sizes.def(n)]);
    const listedTokens = tools.reduce((s, x) => s + x[1], 0);
    tools.push(["system", sizes.system]);
    turn.user.forEach((text, i) => history.push([`user ${t}.${i}`, sizes.text(text)]));
    if (step.revealed.length) {
      const r = step.revealed.reduce((s, n) => s + sizes.def(n), 0);
      history.push([`revealed ${t}`, r]);
      revealedTokens += r;
    }
    for (let c = 0; c <= turn.calls.length; c++) {
      if (c > 0) history.push([`call ${t}.${c}`, sizes.text(turn.calls[c - 1])], [`result ${t}.${c}`, sizes.result]);
      yield { segments: [...tools, ...history], defTokens: listedTokens + revealedTokens, changed: c === 0 && t > 0 && !step.kept };
    }
    history.push([`answer ${t}`, sizes.answer]);
  }
}

/** Sums over one run's requests: per rule tokens, cached, cost; requests, definition tokens, list changes. */
export function measure(turns, steps, sizes, into = blank()) {
  const prev = {};
  for (const r of requestsOf(turns, steps, sizes)) {
    into.requests++;
    into.defTokens += r.defTokens;
    if (r.changed) into.changes++;
    for (const [k, rule] of Object.entries(RULES)) {
      const p = price(prev[k] ?? null, r.segments, rule);
      prev[k] = r.segments;
      into[k].tokens += p.tokens;
      into[k].cached += p.cached;
      into[k].cost += p.cost;
    }
  }
  return into;
}

const blank = () => ({
  requests: 0, defTokens: 0, changes: 0, turns: 0, refused: 0, callTurns: 0, recallSum: 0, found: 0, needed: 0,
  ...Object.fromEntries(Object.keys(RULES).map((k) => [k, { tokens: 0, cached: 0, cost: 0 }])),
});

/**
 * The whole measurement: per category, singles and sessions of SESSION conversations, per strategy.
 * `namespaces: false` indexes the tools without their namespaces, `history: false` routes each
 * turn on its message alone, `calls: false` leaves out the context's `called` (the tools called
 * in earlier turns, BFCL's ground truth standing for the model's calls) (the ablations of
 * `--variants`).
 */
export async function multiTurn({ lib = pkg, conversations = data.conversations, tools = poolOf(), namespaces = true, history: withHistory = true, calls = true, entries = (index) => index.entries } = {}) {
  const t0 = performance.now();
  const defTokens = new Map([...tools, TOOL_SEARCH].map((t) => [t.name, encode(definition(t)).length]));
  const textTokens = new Map();
  const sizes = {
    ...SIZES,
    def: (n) => defTokens.get(n),
    text: (s) => textTokens.get(s) ?? (textTokens.set(s, encode(s).length), textTokens.get(s)),
  };
  const names = tools.map((t) => t.name);
  // One index and one router for every run: the pool is the same, and ToolIndex is immutable.
  const index = new lib.ToolIndex(tools.map(({ name, description, parameters, namespace }) => ({ name, description, parameters, namespace: namespaces ? namespace : undefined })), { limit: LIMIT });
  const router = new lib.ToolRouter({ registered: names, entries: entries(index, tools) });
  const everyStep = (i) => ({ listed: names, revealed: [], kept: i > 0 });

  async function runOf(turns, sums) {
    const runs = STRATEGIES.map((cache) =>
      cache === "deferred"
        ? new lib.PaletteRun({ registered: [TOOL_SEARCH.name, ...names], cache, pinned: [TOOL_SEARCH.name] })
        : new lib.PaletteRun({ registered: names, cache }),
    );
    const steps = STRATEGIES.map(() => []);
    const history = [];
    const called = [];
    let context = null;
    for (const turn of turns) {
      // A turn without a user message (miss_func: a function is added) is routed as the previous one.
      if (turn.user.length > 0 || context === null) {
        context = { message: turn.user.join("\n"), history: withHistory ? [...history] : [], ...(calls ? { called: [...called] } : {}) };
        history.push(context.message);
      } else if (calls) context = { ...context, called: [...called] };
      const outcome = await router.resolve({ context });
      runs.forEach((run, i) => steps[i].push(run.step(outcome)));
      for (const [i, s] of STRATEGIES.entries()) {
        const sum = sums[s];
        sum.turns++;
        if (outcome.kind !== "routed") sum.refused++;
        if (turn.names.length) {
          const r = recallOf(turn.names, steps[i].at(-1).offered);
          sum.callTurns++;
          sum.recallSum += r.found / r.needed;
          sum.found += r.found;
          sum.needed += r.needed;
        }
      }
      // What the model called in this turn (BFCL's ground truth), for the next turns' context.
      for (const n of turn.names) if (!called.includes(n)) called.push(n);
      const every = sums[EVERY];
      every.turns++;
      if (turn.names.length) Object.assign(every, { callTurns: every.callTurns + 1, recallSum: every.recallSum + 1, found: every.found + turn.names.length, needed: every.needed + turn.names.length });
    }
    for (const [i, s] of STRATEGIES.entries()) measure(turns, steps[i], sizes, sums[s]);
    measure(turns, turns.map((_, i) => everyStep(i)), sizes, sums[EVERY]);
    for (const run of runs) run.dispose();
  }

  const categories = {};
  for (const c of conversations) (categories[c.category] ??= []).push(c);
  const out = {};
  for (const [category, list] of Object.entries(categories)) {
    out[category] = {};
    const sessions = [];
    for (let i = 0; i < list.length; i += SESSION) sessions.push(list.slice(i, i + SESSION).flatMap((c) => c.turns));
    for (const [mode, runs] of [["singles", list.map((c) => c.turns)], ["sessions", sessions]]) {
      const sums = Object.fromEntries([...STRATEGIES, EVERY].map((s) => [s, blank()]));
      for (const turns of runs) await runOf(turns, sums);
      out[category][mode] = { runs: runs.length, rows: [...STRATEGIES, EVERY].map((s) => row(s, sums[s], sums[EVERY])) };
    }
  }
  router.dispose();
  index.dispose();
  const base = out.multi_turn_base;
  return {
    tools: tools.length,
    toolTokens: names.reduce((s, n) => s + defTokens.get(n), 0),
    toolSearchTokens: defTokens.get(TOOL_SEARCH.name),
    conversations: conversations.length,
    sizes: SIZES,
    limit: LIMIT,
    session: SESSION,
    categories: out,
    musts: base ? musts(base.singles.rows, base.sessions.rows, out) : [],
    ms: performance.now() - t0,
  };
}

/** One table row: the figures of a strategy's sums, costs relative to every tool's under the same rule. */
function row(strategy, s, every) {
  const r = { strategy, recall: s.recallSum / s.callTurns, micro: s.found / s.needed, requests: s.requests, turns: s.turns, refused: s.refused / s.turns, defTokens: s.defTokens / s.requests, changes: s.changes };
  for (const k of Object.keys(RULES)) {
    r[k] = { cost: s[k].cost / every[k].cost, cacheShare: s[k].cached / s[k].tokens, tokens: s[k].tokens, cached: s[k].cached, price: s[k].cost };
  }
  return r;
}

const both = (r, f) => Object.keys(RULES).every((k) => f(r[k].cost));
// Four decimals: the musts' lines are read against 0.05× and 0.035×, where the third rounds across the line.
const costs = (r) => Object.keys(RULES).map((k) => `${RULES[k].name} ${r[k].cost.toFixed(4)}×`).join(", ");

/** The musts and goals: issue 28's on multi_turn_base; issue 41's on every category's single conversations (`categories`). */
export function musts(singles, sessions, categories = {}) {
  const strategies = (rows) => rows.filter((r) => r.strategy !== EVERY);
  const best = (rows, ok) => strategies(rows).filter(ok).map((r) => `${r.strategy} (recall ${r.recall.toFixed(3)}, ${costs(r)})`);
  const line = (what, found, goal = false) => ({ what, goal, ok: found.length > 0, got: found.length ? found.join("; ") : "none" });
  const perTurn = sessions.find((r) => r.strategy === "per-turn");
  const mustA = (r) => r.recall >= 0.9 && both(r, (c) => c <= 0.08);
  const never = (r) => r.changes === 0;
  // Issue 41: one strategy meeting it in every category (single conversations).
  const everywhere = (ok) => {
    const all = Object.values(categories).map((c) => c.singles.rows);
    if (!all.length) return [];
    return strategies(all[0]).filter((r) => all.every((rows) => ok(rows.find((x) => x.strategy === r.strategy)))).map((r) => `${r.strategy} (${Object.entries(categories).map(([c, m]) => { const x = m.singles.rows.find((y) => y.strategy === r.strategy); return `${c.replace("multi_turn_", "")} ${x.recall.toFixed(4)} at ${costs(x)}`; }).join("; ")})`);
  };
  const worst = (name) => Object.entries(categories).map(([c, m]) => { const x = m.singles.rows.find((y) => y.strategy === name); return `${c.replace("multi_turn_", "")} ${x.recall.toFixed(4)} at ${costs(x)}`; }).join("; ");
  const issue41 = everywhere((r) => r.recall >= 0.95 && both(r, (c) => c <= 0.05));
  const goal41 = everywhere((r) => r.recall >= 0.97 && both(r, (c) => c <= 0.035));
  return [
    { what: "issue 41: a strategy with recall >= 0.95 at <= 0.05x every tool cached, both rules, single conversations, in every category", goal: false, ok: issue41.length > 0, got: issue41.length ? issue41.join("; ") : `none (deferred: ${worst("deferred")})` },
    { what: "goal (issue 41): recall >= 0.97 at <= 0.035x, both rules, single conversations, in every category", goal: true, ok: goal41.length > 0, got: goal41.length ? goal41.join("; ") : "none" },
    line("a strategy with recall >= 0.90 at <= 0.08x the cost of every tool cached, both rules, single conversations", best(singles, mustA)),
    line(
      "sessions: a strategy at per-turn's recall or better for <= 0.7x per-turn's cost, both rules",
      strategies(sessions)
        .filter((r) => r.strategy !== "per-turn" && r.recall >= perTurn.recall && Object.keys(RULES).every((k) => r[k].price <= 0.7 * perTurn[k].price))
        .map((r) => `${r.strategy} (recall ${r.recall.toFixed(3)} against ${perTurn.recall.toFixed(3)}, ${Object.keys(RULES).map((k) => `${RULES[k].name} ${(r[k].price / perTurn[k].price).toFixed(2)}×`).join(", ")} of per-turn's cost)`),
    ),
    line("goal: a strategy that never changes the prefix (kept on every step after the first, singles and sessions) and meets the first must", best(singles, (r) => never(r) && mustA(r) && never(sessions.find((x) => x.strategy === r.strategy))), true),
  ];
}

const pct = (x) => `${(x * 100).toFixed(1)}%`;
/** The console lines of one table. */
function tableLines(t) {
  const head = `  ${"strategy".padEnd(11)} ${"recall".padStart(6)} ${"micro".padStart(6)} ${"cost× A".padStart(8)} ${"cost× O".padStart(8)} ${"cache A".padStart(8)} ${"cache O".padStart(8)} ${"defs/req".padStart(8)} ${"list changes".padStart(15)} ${"refused".padStart(7)}`;
  return [
    head,
    ...t.rows.map((r) =>
      `  ${r.strategy.padEnd(11)} ${r.recall.toFixed(3).padStart(6)} ${r.micro.toFixed(3).padStart(6)} ${r.anthropic.cost.toFixed(3).padStart(8)} ${r.openai.cost.toFixed(3).padStart(8)} ${pct(r.anthropic.cacheShare).padStart(8)} ${pct(r.openai.cacheShare).padStart(8)} ${Math.round(r.defTokens).toLocaleString("en").padStart(8)} ${`${r.changes}/${r.requests}`.padStart(15)} ${pct(r.refused).padStart(7)}`,
    ),
  ];
}

/** What the bench prints. */
export function lines(m) {
  const out = [
    `Runs on BFCL multi-turn (${m.conversations} conversations; pool of ${m.tools} tools, ${m.toolTokens.toLocaleString("en")} o200k tokens of definitions; ToolRouter over a ToolIndex, limit ${m.limit}, namespaces = API classes, history = earlier user messages, called = earlier turns' ground-truth calls; system ${m.sizes.system}, tool result ${m.sizes.result}, answer ${m.sizes.answer} tokens; "deferred" pins tool_search, ${m.toolSearchTokens} tokens; cost × = against every tool listed, cached, A = Anthropic, O = OpenAI; ${(m.ms / 1000).toFixed(1)} s):`,
  ];
  for (const [category, modes] of Object.entries(m.categories)) {
    for (const [mode, t] of Object.entries(modes)) {
      out.push(`  ${category}, ${mode === "singles" ? `single conversations (${t.runs})` : `sessions of ${m.session} joined conversations (${t.runs})`}${category === "multi_turn_base" ? "" : " (check, not tuned on)"}:`);
      out.push(...tableLines(t).map((l) => `  ${l}`));
    }
  }
  out.push("  musts (multi_turn_base):");
  for (const x of m.musts) out.push(`    ${x.ok ? "ok  " : x.goal ? "miss" : "MISS"} ${x.what}: ${x.got}`);
  return out;
}

/** The README lines. */
export function markdown(m) {
  const table = (t) => [
    "| strategy | recall | recall (micro) | cost, Anthropic | cost, OpenAI | read from cache, Anthropic / OpenAI | definition tokens per request | tools list changed | refused |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...t.rows.map((r) => `| ${r.strategy} | ${r.recall.toFixed(3)} | ${r.micro.toFixed(3)} | ${r.anthropic.cost.toFixed(3)}× | ${r.openai.cost.toFixed(3)}× | ${pct(r.anthropic.cacheShare)} / ${pct(r.openai.cacheShare)} | ${Math.round(r.defTokens).toLocaleString("en")} | ${r.changes} of ${r.requests.toLocaleString("en")} | ${pct(r.refused)} |`),
  ];
  const base = m.categories.multi_turn_base;
  const others = Object.entries(m.categories).filter(([c]) => c !== "multi_turn_base");
  return [
    `Runs (SPEC 8) on BFCL \`multi_turn_base\` (${base.singles.runs} conversations, ${base.singles.rows[0].turns} turns, ${base.singles.rows[0].requests.toLocaleString("en")} requests; bench/tool-search/multi-turn.mjs, cost model in bench/tool-search/DESIGN.md): a ToolRouter over a ToolIndex (limit ${m.limit}) over ${m.tools} tools (${m.toolTokens.toLocaleString("en")} tokens of definitions), each turn routed on its message, the earlier ones and the tools called in earlier turns (BFCL's ground truth standing for the model's calls); recall of the turn's needed tools in \`offered\`; input cost against listing every tool, with caching on. Single conversations:`,
    "",
    ...table(base.singles),
    "",
    `Sessions of ${m.session} joined conversations (${base.sessions.runs}; one run, the history continuing):`,
    "",
    ...table(base.sessions),
    "",
    "The other categories (checks, not tuned on): recall and cost (Anthropic / OpenAI), single conversations and sessions:",
    "",
    "| category | strategy | recall, singles | cost, singles | recall, sessions | cost, sessions |",
    "|---|---|---:|---:|---:|---:|",
    ...others.flatMap(([c, modes]) =>
      modes.singles.rows.filter((r) => r.strategy !== EVERY).map((r, i) => {
        const t = modes.sessions.rows[i];
        return `| ${c} | ${r.strategy} | ${r.recall.toFixed(3)} | ${r.anthropic.cost.toFixed(3)}× / ${r.openai.cost.toFixed(3)}× | ${t.recall.toFixed(3)} | ${t.anthropic.cost.toFixed(3)}× / ${t.openai.cost.toFixed(3)}× |`;
      }),
    ),
    "",
    `The issue's musts and goals, on this run: ${m.musts.map((x) => `${x.ok ? "met" : x.goal ? "not met" : "**missed**"}: ${x.what} (${x.got})`).join("; ")}.`,
  ];
}

/**
 * Reference points on multi_turn_base (no routing): "deferred" runs revealing, at each turn, only
 * tool_search (nothing), exactly the turn's needed tools, or their whole API classes, each once per
 * run; cost against every tool, per rule. What a router's palette could cost at recall 1.
 */
export function references(conversations = data.conversations.filter((c) => c.category === "multi_turn_base"), tools = poolOf()) {
  const def = new Map([...tools, TOOL_SEARCH].map((t) => [t.name, encode(definition(t)).length]));
  const sizes = { ...SIZES, def: (n) => def.get(n), text: (s) => encode(s).length };
  const names = tools.map((t) => t.name);
  const classOf = new Map(tools.map((t) => [t.name, t.namespace]));
  const once = (reveal) => (turns) => {
    const seen = new Set();
    return turns.map((t, i) => ({ listed: [TOOL_SEARCH.name], revealed: reveal(t).filter((n) => !seen.has(n) && seen.add(n)), kept: i > 0 }));
  };
  const plans = [
    ["every tool", (turns) => turns.map((_, i) => ({ listed: names, revealed: [], kept: i > 0 }))],
    ["tool_search only, nothing revealed (the floor)", once(() => [])],
    ["deferred, revealing exactly the needed tools", once((t) => t.names)],
    ["deferred, revealing the needed tools' whole classes", once((t) => names.filter((n) => t.names.some((x) => classOf.get(x) === classOf.get(n))))],
  ];
  const sessions = [];
  for (let i = 0; i < conversations.length; i += SESSION) sessions.push(conversations.slice(i, i + SESSION).flatMap((c) => c.turns));
  const out = [];
  for (const [mode, runs] of [["singles", conversations.map((c) => c.turns)], ["sessions", sessions]]) {
    const sums = plans.map(([, plan]) => runs.reduce((into, turns) => measure(turns, plan(turns), sizes, into), blank()));
    for (const [i, [what]] of plans.entries()) if (i > 0) out.push({ mode, what, defTokens: sums[i].defTokens / sums[i].requests, ...Object.fromEntries(Object.keys(RULES).map((k) => [k, sums[i][k].cost / sums[0][k].cost])) });
  }
  return out;
}

/**
 * Where `deferred`'s cost goes (`--explain`), per category, single conversations: per rule the
 * total, the floor (the same requests with nothing revealed) and what the revealed definitions
 * add, cost × against every tool; OpenAI's rule also with a 1-token step (what its 128-token
 * step costs); and the revealed tokens by whom they served: tools some turn of the conversation
 * calls, the other tools of the classes it calls, classes it never calls, tools without a namespace.
 */
export async function explain({ lib = pkg, conversations = data.conversations, tools = poolOf() } = {}) {
  const defTokens = new Map([...tools, TOOL_SEARCH].map((t) => [t.name, encode(definition(t)).length]));
  const textTokens = new Map();
  const sizes = { ...SIZES, def: (n) => defTokens.get(n), text: (s) => textTokens.get(s) ?? (textTokens.set(s, encode(s).length), textTokens.get(s)) };
  const names = tools.map((t) => t.name);
  const classOf = new Map(tools.map((t) => [t.name, t.namespace ?? null]));
  const index = new lib.ToolIndex(tools.map(({ name, description, parameters, namespace }) => ({ name, description, parameters, namespace })), { limit: LIMIT });
  const router = new lib.ToolRouter({ registered: names, entries: index.entries });
  const rules = { ...RULES, openaiStep1: { ...RULES.openai, name: "OpenAI, 1-token step", step: 1 } };
  const categories = {};
  for (const c of conversations) (categories[c.category] ??= []).push(c);
  const out = {};
  for (const [category, list] of Object.entries(categories)) {
    const sums = { all: {}, floor: {}, every: {} };
    const kinds = { called: 0, "used class": 0, "unused class": 0, "no namespace": 0 };
    for (const conversation of list) {
      const turns = conversation.turns;
      const run = new lib.PaletteRun({ registered: [TOOL_SEARCH.name, ...names], cache: "deferred", pinned: [TOOL_SEARCH.name] });
      const [history, called, steps] = [[], [], []];
      let context = null;
      for (const turn of turns) {
        if (turn.user.length > 0 || context === null) {
          context = { message: turn.user.join("\n"), history: [...history], called: [...called] };
          history.push(context.message);
        } else context = { ...context, called: [...called] };
        steps.push(run.step(await router.resolve({ context })));
        for (const n of turn.names) if (!called.includes(n)) called.push(n);
      }
      run.dispose();
      const used = new Set(turns.flatMap((t) => t.names));
      const usedClasses = new Set([...used].map((n) => classOf.get(n)));
      for (const s of steps) for (const n of s.revealed) kinds[!classOf.get(n) ? "no namespace" : used.has(n) ? "called" : usedClasses.has(classOf.get(n)) ? "used class" : "unused class"] += defTokens.get(n);
      const plans = { all: steps, floor: steps.map((s) => ({ ...s, revealed: [] })), every: turns.map((_, i) => ({ listed: names, revealed: [], kept: i > 0 })) };
      for (const [k, plan] of Object.entries(plans)) {
        for (const [r, rule] of Object.entries(rules)) {
          let prev = null;
          for (const q of requestsOf(turns, plan, sizes)) {
            sums[k][r] = (sums[k][r] ?? 0) + price(prev, q.segments, rule).cost;
            prev = q.segments;
          }
        }
      }
    }
    const revealed = Object.values(kinds).reduce((a, b) => a + b, 0);
    out[category] = {
      rules: Object.fromEntries(Object.entries(rules).map(([r, rule]) => [r, { name: rule.name, total: sums.all[r] / sums.every[r], floor: sums.floor[r] / sums.every[r] }])),
      revealed,
      shares: Object.fromEntries(Object.entries(kinds).map(([k, v]) => [k, v / revealed])),
    };
  }
  router.dispose();
  index.dispose();
  return out;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  if (process.argv.includes("--explain")) {
    console.log("Where deferred's cost goes (single conversations; cost × against every tool, total = floor (nothing revealed) + reveals):");
    for (const [category, e] of Object.entries(await explain())) {
      console.log(`  ${category}: ${Object.values(e.rules).map((r) => `${r.name} ${r.total.toFixed(4)} = ${r.floor.toFixed(4)} + ${(r.total - r.floor).toFixed(4)}`).join("; ")}`);
      console.log(`    revealed ${e.revealed.toLocaleString("en")} tokens: ${Object.entries(e.shares).map(([k, v]) => `${k} ${pct(v)}`).join(", ")}`);
    }
  } else if (process.argv.includes("--variants")) {
    // Ablations on multi_turn_base: what the history and the namespaces each bring.
    const conversations = data.conversations.filter((c) => c.category === "multi_turn_base");
    for (const [what, options] of [
      ["the message alone, no namespaces", { history: false, namespaces: false, calls: false }],
      ["message and history, no namespaces", { namespaces: false, calls: false }],
      ["the message alone, with namespaces", { history: false, calls: false }],
      ["message and history, with namespaces, no calls", { calls: false }],
      ["message, history and earlier calls, with namespaces (as the bench runs)", {}],
    ]) {
      const m = await multiTurn({ conversations, ...options });
      console.log(`${what}:`);
      for (const [mode, t] of Object.entries(m.categories.multi_turn_base)) console.log(`  ${mode}\n${tableLines(t).map((l) => `  ${l}`).join("\n")}`);
    }
    console.log("reference points (no routing; cost × Anthropic / OpenAI, definition tokens per request):");
    for (const r of references()) console.log(`  ${r.mode.padEnd(9)} ${r.what.padEnd(52)} ${r.anthropic.toFixed(3)} / ${r.openai.toFixed(3)}  ${Math.round(r.defTokens).toLocaleString("en")}`);
  } else {
    console.log(lines(await multiTurn()).join("\n"));
  }
}
