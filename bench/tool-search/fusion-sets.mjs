// Fusion experiments over every set with vectors (not part of `npm run bench`): for each query
// the package's lexical ranking (its first 200 with their BM25F scores, dist/) and every
// tool's cosine (both vectors normalised, f64, as the core's store computes them up to its
// int8 rounding), fused in JavaScript by the variants DESIGN.md ("Hybrid ranking") reports.
// Sets: BFCL live and pooled (committed), SkillsBench (bench/skills/local/, both vector
// texts), the npm MCP set (committed), LiveMCPBench and ETOM (mcp/local/), those present.
//
//   npm run build && node bench/tool-search/fusion-sets.mjs ['<fusion expression>' ...]
//   node bench/tool-search/fusion-sets.mjs --ceiling   (SkillsBench: a linear fusion fitted to it)
//
// The prepared rankings are cached in /tmp (not in the repository: they hold fetched data).
import * as pkg from "../../dist/node.mjs";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { serialize, deserialize } from "node:v8";
import { pathToFileURL } from "node:url";
import { data, pool, vectors as bfclVectors } from "./compare.mjs";
import { mcpSets } from "./mcp/sets.mjs";
import { vectorSets } from "../skills/bench.mjs";

const DEPTH = 200;
// CENTER=tools: each tool's unit vector less the mean of them all (renormalised);
// CENTER=both: the query's too, less the same mean.
const CENTER = process.env.CENTER ?? "";
const CACHE = `/tmp/tool-palette-fusion-sets-2${CENTER ? `-${CENTER}` : ""}.v8`;

const unit = (v) => {
  let n = 0;
  for (const x of v) n += x * x;
  n = Math.sqrt(n) || 1;
  return Float64Array.from(v, (x) => x / n);
};

// One set: { name, n (tools), queries: [{ lexTools, lexScores, cos, order, gold (items, each a
// list of equivalent tool indices) }], ks (the recalls reported) }.
function prepareSet(name, tools, docs, toolVector, queries, ks, Index = pkg.ToolIndex, nameOf = (h) => h.name) {
  const index = new Index(docs);
  const at = new Map(tools.map((t, i) => [t, i]));
  let tv = tools.map((_, i) => unit(toolVector(i)));
  const mean = new Float64Array(tv[0].length);
  for (const v of tv) for (let j = 0; j < v.length; j++) mean[j] += v[j] / tv.length;
  if (CENTER) tv = tv.map((v) => unit(v.map((x, j) => x - mean[j])));
  const out = queries.map((q) => {
    const hits = index.search(q.text, { limit: DEPTH });
    const qv = CENTER === "both" ? unit(unit(q.vector).map((x, j) => x - mean[j])) : unit(q.vector);
    const cos = new Float64Array(tools.length);
    for (let i = 0; i < tools.length; i++) {
      let s = 0;
      const v = tv[i];
      for (let j = 0; j < v.length; j++) s += v[j] * qv[j];
      cos[i] = s;
    }
    const order = Uint32Array.from(cos.keys()).sort((a, b) => cos[b] - cos[a] || a - b);
    return {
      lexTools: Uint32Array.from(hits.map((h) => at.get(nameOf(h)))),
      lexScores: Float64Array.from(hits.map((h) => h.score)),
      cos,
      order: order.subarray(0, Math.min(DEPTH * 2, order.length)).slice(),
      gold: q.gold.map((alts) => alts.map((n) => at.get(n)).filter((i) => i !== undefined)),
      // The query's distinct words (letters or digits, lower-cased).
      words: new Set(q.text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).size,
    };
  });
  index.dispose();
  return { name, n: tools.length, queries: out, ks };
}

function skillsBench() {
  const here = (f) => new URL(`../skills/${f}`, import.meta.url);
  if (!existsSync(here("local/skillsbench-full.json")) || !existsSync(here("local/skillsbench-vectors.bin"))) return [];
  const d = JSON.parse(readFileSync(here("local/skillsbench-full.json"), "utf8"));
  const { sets } = vectorSets(readFileSync(here("local/skillsbench-vectors.bin")), Float64Array);
  // As bench/skills/bench.mjs indexes them (a skill named by its id).
  const texts = d.skills.map((s) => `---\nname: ${JSON.stringify(s.id)}\ndescription: ${JSON.stringify(s.description ?? "")}\n---\n${s.body ?? ""}`);
  const ids = d.skills.map((s) => s.id);
  const queries = (set) => d.tasks.map((t, i) => ({ text: t.query, vector: sets.tasks[i], gold: t.gold.map((g) => [g]) }));
  return [
    ["skills nd", "skills_nd"],
    ["skills ndb", "skills_ndb"],
  ].map(([name, set]) => prepareSet(name, ids, texts, (i) => sets[set][i], queries(set), [3, 5], pkg.SkillIndex));
}

function bfcl() {
  const q = data.questions.map((x) => ({ text: x.query, vector: bfclVectors.question(x), gold: x.expected.map((e) => [e]) }));
  const live = data.tools;
  const pooled = [...data.tools, ...pool.tools];
  return [
    prepareSet("bfcl live", live.map((t) => t.name), live, (i) => bfclVectors.tool(live[i], i), q, [5, 10]),
    prepareSet("bfcl pooled", pooled.map((t) => t.name), pooled, (i) => bfclVectors.tool(pooled[i], i), q, [5, 10]),
  ];
}

function mcp() {
  const out = [];
  for (const s of mcpSets().sets) {
    if (!s.vectors) continue;
    const docs = s.tools.map((t) => ({ name: t.name, description: t.description ?? undefined, inputSchema: t.inputSchema, namespace: t.server }));
    const names = s.tools.map((t) => t.name);
    for (const set of s.sets) {
      const queries = set.queries.map((q) => ({ text: q.text, vector: s.row(set.vectors, q.row), gold: q.needed }));
      out.push(prepareSet(set.name, names, docs, (i) => s.row("tools", i), queries, [5, 10]));
    }
  }
  return out;
}

export function allSets() {
  if (existsSync(CACHE)) return deserialize(readFileSync(CACHE));
  const sets = [...bfcl(), ...skillsBench(), ...mcp()];
  writeFileSync(CACHE, serialize(sets));
  return sets;
}

// Recall@k of a ranking (tool indices best first): the share of the query's items found.
const recallAt = (gold, ranked, k) => {
  const top = new Set(ranked.slice(0, k));
  return gold.filter((alts) => alts.some((t) => top.has(t))).length / gold.length;
};

export function evaluate(set, fuse) {
  const sums = set.ks.map(() => 0);
  for (const x of set.queries) {
    const ranked = fuse(x);
    set.ks.forEach((k, j) => (sums[j] += recallAt(x.gold, ranked, k)));
  }
  return sums.map((s) => s / set.queries.length);
}

// A fused map (tool -> score) to a ranking: best first, ties in tool order.
const rank = (m) => [...m.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([t]) => t);

// ----- the fusions
export const lexical = () => (x) => [...x.lexTools];
export const embedding = () => (x) => [...x.order.subarray(0, 20)];

// The core's default before this work: RRF, the lexical part scaled by score / best.
export const rrfs = ({ k = 30, wl = 1, we = 1, dl = 100, de = 200, p = 1 } = {}) => (x) => {
  const m = new Map();
  const top = x.lexScores[0];
  for (let r = 0; r < Math.min(dl, x.lexTools.length); r++) m.set(x.lexTools[r], (wl * (x.lexScores[r] / top) ** p) / (k + r + 1));
  for (let r = 0; r < de; r++) m.set(x.order[r], (m.get(x.order[r]) ?? 0) + we / (k + r + 1));
  return rank(m);
};

// The family the search below ran over: RRF (`mode: "rrf"`, constant k) or plain scores
// (`mode: "score"`), over the lexical top dl and the embedding top de; the lexical hit counts
// (score − floor) / (best − floor) to the power p (floor: the score at lexical rank lexFloor,
// 0 without), the embedding's hit (with embNorm "mm") (cos − floor) / (best − floor) to the
// power pe (floor: the cosine at embedding rank embFloor), each side weighted wl / we.
// `gen()` is the default before this work; `gen({ embNorm: "mm" })` the embedding's part scaled
// as the lexical one is.
export const gen = ({ k = 30, wl = 1, we = 1, dl = 100, de = 200, mode = "rrf", lexFloor = 0, embFloor = 200, embNorm = "none", p = 1, pe = 1 } = {}) => (x) => {
  const m = new Map();
  const n = Math.min(dl, x.lexTools.length);
  const top = x.lexScores[0];
  const lf = lexFloor ? (x.lexScores[Math.min(lexFloor, x.lexScores.length) - 1] ?? 0) : 0;
  const best = x.cos[x.order[0]];
  // embFloor "mean": the mean cosine over every tool (what an unrelated tool scores).
  const ef = embFloor === "mean" ? x.cos.reduce((a, b) => a + b, 0) / x.cos.length : x.cos[x.order[Math.min(embFloor, x.order.length) - 1]];
  for (let r = 0; r < n; r++) {
    const s = top > lf ? Math.max(0, (x.lexScores[r] - lf) / (top - lf)) ** p : 1;
    m.set(x.lexTools[r], wl * (mode === "rrf" ? s / (k + r + 1) : s));
  }
  for (let r = 0; r < Math.min(de, x.order.length); r++) {
    const t = x.order[r];
    const c = embNorm === "none" ? 1 : best > ef ? Math.max(0, (x.cos[t] - ef) / (best - ef)) ** pe : 1;
    m.set(t, (m.get(t) ?? 0) + we * (mode === "rrf" ? c / (k + r + 1) : c));
  }
  return rank(m);
};

// Mean and standard deviation of a side's scores over all n tools (tools absent score 0).
const stats = (xs, n) => {
  let s = 0, q = 0;
  for (const v of xs) (s += v), (q += v * v);
  const mean = s / n;
  return { mean, sd: Math.sqrt(Math.max(1e-12, q / n - mean * mean)) };
};

// z-score fusion (CombSUM of z-scores): wl · z(lexical score) + we · z(cosine), each over
// every tool, over the lexical top dl ∪ the embedding top de.
export const zf = ({ wl = 1, we = 1, dl = 200, de = 200 } = {}) => (x) => {
  const n = x.cos.length;
  const L = stats(x.lexScores, n), E = stats(x.cos, n);
  const lz = new Map();
  for (let r = 0; r < Math.min(dl, x.lexTools.length); r++) lz.set(x.lexTools[r], (x.lexScores[r] - L.mean) / L.sd);
  const l0 = -L.mean / L.sd;
  const m = new Map();
  for (const t of new Set([...x.lexTools.slice(0, dl), ...x.order.slice(0, de)])) m.set(t, wl * (lz.get(t) ?? l0) + (we * (x.cos[t] - E.mean)) / E.sd);
  return rank(m);
};

// `gen()` with each side weighted per query by its confidence: how far its best (or the mean of
// its first `top`) stands above every tool's mean, in standard deviations, to the power a; the
// two weights normalised to sum 2, mixed with equal weights by `1 − mix`.
export const cf = ({ k = 30, dl = 100, de = 200, a = 1, top = 1, mix = 1 } = {}) => (x) => {
  const n = x.cos.length;
  const L = stats(x.lexScores, n), E = stats(x.cos, n);
  const zl = (x.lexScores.slice(0, top).reduce((s, v) => s + v, 0) / Math.min(top, x.lexScores.length) - L.mean) / L.sd;
  const ze = ([...x.order.slice(0, top)].reduce((s, t) => s + x.cos[t], 0) / top - E.mean) / E.sd;
  const sum = zl ** a + ze ** a;
  return gen({ k, dl, de, wl: 1 - mix + (mix * 2 * zl ** a) / sum, we: 1 - mix + (mix * 2 * ze ** a) / sum })(x);
};

// RRF parts combined as max(l, e) + lam · min(l, e): lam = 1 is `gen()`'s sum; less rewards
// agreement less, so one side's first place is not lost among tools both put 10th–30th.
export const mm = ({ k = 30, lam = 0.7, dl = 100, de = 200 } = {}) => (x) => {
  const L = new Map(), E = new Map();
  const top = x.lexScores[0];
  for (let r = 0; r < Math.min(dl, x.lexTools.length); r++) L.set(x.lexTools[r], x.lexScores[r] / top / (k + r + 1));
  for (let r = 0; r < Math.min(de, x.order.length); r++) E.set(x.order[r], 1 / (k + r + 1));
  const m = new Map();
  for (const t of new Set([...L.keys(), ...E.keys()])) {
    const a = L.get(t) ?? 0, b = E.get(t) ?? 0;
    m.set(t, Math.max(a, b) + lam * Math.min(a, b));
  }
  return rank(m);
};

// `gen()` in which an embedding hit counts only when its cosine's place between the 200th and
// the best, (cos − floor) / (best − floor), is at least theta (a margin from the best).
export const th = ({ k = 30, theta = 0.5 } = {}) => (x) => {
  const m = new Map();
  const top = x.lexScores[0];
  for (let r = 0; r < Math.min(100, x.lexTools.length); r++) m.set(x.lexTools[r], x.lexScores[r] / top / (k + r + 1));
  const best = x.cos[x.order[0]], fl = x.cos[x.order[Math.min(200, x.order.length) - 1]];
  for (let r = 0; r < Math.min(200, x.order.length); r++) {
    const t = x.order[r];
    if ((x.cos[t] - fl) / (best - fl) >= theta) m.set(t, (m.get(t) ?? 0) + 1 / (k + r + 1));
  }
  return rank(m);
};

// `gen(o)` with the embedding's weight falling for long queries: we · min(1, (w0 / words)^a),
// words the query's distinct words: one vector of a long instruction averages its many needs,
// while the lexical ranking matches each need's words.
export const len = ({ w0 = 32, a = 1, ...o } = {}) => (x) => gen({ ...o, we: (o.we ?? 1) * Math.min(1, (w0 / x.words) ** a) })(x);

// What a linear score over per-tool features can reach on one set when its weights are fitted
// to that very set (random search, `iters` draws): the ceiling of every fusion above, none of
// which may fit. Features: lexical score / best and its square, 1 / (5 + lexical rank),
// 1 / (30 + lexical rank), the cosine min-max between the best and the 200th and its square,
// 1 / (5 + embedding rank), 1 / (30 + embedding rank), the cosine's z-score / 4.
export function fittedCeiling(set, k, iters = 4000, seed = 1) {
  let state = seed;
  const random = () => ((state = (state * 1103515245 + 12345) % 2147483648) / 2147483648);
  const F = set.queries.map((x) => {
    const n = x.cos.length;
    const top = x.lexScores[0];
    const lr = new Map([...x.lexTools].map((t, r) => [t, r]));
    const er = new Map([...x.order].map((t, r) => [t, r]));
    const best = x.cos[x.order[0]], fl = x.cos[x.order[Math.min(199, x.order.length - 1)]];
    const E = stats(x.cos, n);
    return Array.from({ length: n }, (_, t) => {
      const r = lr.get(t), e = er.get(t) ?? 1e9;
      const l = r === undefined ? 0 : x.lexScores[r] / top;
      const c = (x.cos[t] - fl) / (best - fl);
      return [l, l * l, r === undefined ? 0 : 1 / (5 + r), r === undefined ? 0 : 1 / (30 + r), c, c * c, 1 / (5 + e), 1 / (30 + e), (x.cos[t] - E.mean) / E.sd / 4];
    });
  });
  const score = (w) => {
    let tot = 0;
    set.queries.forEach((x, i) => {
      const s = F[i].map((f) => f.reduce((a, v, j) => a + v * w[j], 0));
      const ranked = [...s.keys()].sort((a, b) => s[b] - s[a] || a - b);
      tot += recallAt(x.gold, ranked, k);
    });
    return tot / set.queries.length;
  };
  let best = 0, bw = null;
  for (let it = 0; it < iters; it++) {
    const w = bw && random() < 0.7 ? bw.map((v) => v + (random() - 0.5) * 0.3) : Array.from({ length: 9 }, () => random() * 2 - 0.5);
    const v = score(w);
    if (v > best) (best = v), (bw = w);
  }
  return { recall: best, weights: bw };
}

// ----- report
if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const sets = allSets();
  if (process.argv[2] === "--ceiling") {
    for (const s of sets.filter((s) => s.name.startsWith("skills"))) {
      const { recall } = fittedCeiling(s, 3);
      console.log(`${s.name}: a linear fusion fitted to it reaches R@3 ${recall.toFixed(4)}`);
    }
    process.exit(0);
  }
  if (process.argv[2] === "--search") {
    // A seeded random draw of `gen()`'s family (the grid below), every set: per draw, BFCL live
    // r@10, SkillsBench R@3 (both texts), how many set x recall columns fall below the default.
    let state = 7;
    const random = () => ((state = (state * 1103515245 + 12345) % 2147483648) / 2147483648);
    const pick = (a) => a[Math.floor(random() * a.length)];
    const base = sets.map((s) => evaluate(s, rrfs()));
    const seen = new Set();
    const rows = [];
    for (let i = 0; i < +(process.argv[3] ?? 300); i++) {
      const mode = pick(["rrf", "rrf", "score"]);
      const o = mode === "rrf"
        ? { mode, k: pick([5, 10, 20, 30, 45, 60, 100]), wl: pick([0.8, 1, 1.2, 1.5]), p: pick([0.5, 1, 1.5, 2]), embNorm: pick(["none", "mm", "mm"]), pe: pick([0.5, 1, 2, 3]), embFloor: pick([20, 50, 100, 200, "mean"]), lexFloor: pick([0, 0, 50]) }
        : { mode, we: pick([0.3, 0.5, 0.7, 1, 1.4]), p: pick([0.5, 1, 2]), embNorm: "mm", pe: pick([0.5, 1, 2, 4]), embFloor: pick([20, 50, 100, 200, "mean"]), lexFloor: pick([0, 0, 50]) };
      if (o.embNorm === "none") delete o.pe, delete o.embFloor;
      const key = JSON.stringify(o);
      if (seen.has(key)) continue;
      seen.add(key);
      const r = sets.map((s) => evaluate(s, gen(o)));
      const falls = r.flatMap((v, i) => v.filter((x, j) => x < base[i][j] - 1e-9)).length;
      rows.push({ o: key, live: r[0][1], nd: r[2]?.[0], ndb: r[3]?.[0], falls });
    }
    const max = (f) => Math.max(...rows.map(f)).toFixed(4);
    console.log(`${rows.length} distinct draws: BFCL live r@10 at most ${max((r) => r.live)} (${rows.filter((r) => r.live >= 0.961).length} reach 0.961); SkillsBench R@3 at most ${max((r) => r.nd)} (nd), ${max((r) => r.ndb)} (ndb); with no column below the default: ${rows.filter((r) => r.falls === 0).map((r) => r.o).join(" ") || "none"}`);
    for (const r of rows.sort((a, b) => a.falls - b.falls || b.ndb - a.ndb).slice(0, 5)) console.log(`  ${r.o}: live ${r.live.toFixed(4)}, nd ${r.nd.toFixed(3)}, ndb ${r.ndb.toFixed(3)}, falls ${r.falls}`);
    process.exit(0);
  }
  if (process.argv[2] === "--short") {
    // One line per variant: BFCL live r@5/@10, pooled r@10, SkillsBench R@3 (both vector texts),
    // and how many of the other columns (every set's two recalls) fall below the default.
    const base = new Map(sets.map((s) => [s.name, evaluate(s, rrfs())]));
    for (const expr of process.argv.slice(3)) {
      const f = eval(expr);
      const got = new Map(sets.map((s) => [s.name, evaluate(s, f)]));
      const falls = [];
      for (const s of sets) got.get(s.name).forEach((v, j) => { const d = v - base.get(s.name)[j]; if (d < -1e-9) falls.push([d, `${s.name} @${s.ks[j]}`]); });
      falls.sort((a, b) => a[0] - b[0]);
      const g = (n, j) => got.get(n)?.[j]?.toFixed(3) ?? "-";
      console.log(`| \`${expr}\` | ${g("bfcl live", 0)} / ${got.get("bfcl live")?.[1]?.toFixed(4) ?? "-"} | ${g("bfcl pooled", 1)} | ${g("skills nd", 0)} / ${g("skills ndb", 0)} | ${falls.length} | ${falls.length ? `${falls[0][0].toFixed(3)} (${falls[0][1]})` : ""} |`);
    }
    process.exit(0);
  }
  const variants = [["lexical", lexical()], ["embedding", embedding()], ["rrfs() (the default before)", rrfs()], ...process.argv.slice(2).map((s) => [s, eval(s)])];
  const base = new Map(sets.map((s) => [s.name, evaluate(s, rrfs())]));
  console.log(`| fusion | ${sets.map((s) => `${s.name} (${s.ks.map((k) => `@${k}`).join("/")})`).join(" | ")} | falls |`);
  for (const [name, f] of variants) {
    let falls = 0;
    const cells = sets.map((s) => {
      const r = evaluate(s, f);
      const b = base.get(s.name);
      r.forEach((v, j) => (falls += v < b[j] - 1e-9 ? 1 : 0));
      return r.map((v) => v.toFixed(3)).join("/");
    });
    console.log(`| ${name} | ${cells.join(" | ")} | ${falls} |`);
  }
}
