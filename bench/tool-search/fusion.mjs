// Fusion experiments (not part of `npm run bench`): the package's lexical ranking (top 200
// with BM25F scores) and the fixture's cosines, fused in JavaScript by the variants that
// DESIGN.md ("Hybrid ranking") reports, on BFCL live (528 tools), the pooled set (1,853),
// per category and on the even / odd questions. fusion-sets.mjs runs the fusions over every set
// with vectors (SkillsBench and the MCP sets too).
//
//   npm run build && node bench/tool-search/fusion.mjs
import * as pkg from "../../dist/node.mjs";
import { pathToFileURL } from "node:url";
import { categoryOf, cosines, data, pool } from "./compare.mjs";

const DEPTH = 200;

// Per question: the lexical top DEPTH (tool indices, scores) and every tool's cosine.
export function prepare(tools) {
  const index = new pkg.ToolIndex(tools);
  const at = new Map(tools.map((t, i) => [t.name, i]));
  const of = cosines(tools);
  const out = data.questions.map((q) => {
    const hits = index.search(q.query, { limit: DEPTH });
    const { scores: cos, order } = of(q);
    return { q, lexTools: hits.map((h) => at.get(h.name)), lexScores: hits.map((h) => h.score), cos, order, cat: categoryOf(q) };
  });
  index.dispose();
  return { tools, questions: out };
}

// Recall@1/5/10 of a fusion (question data -> Map tool -> fused score) over some questions.
export function evaluate(set, fuse, filter = () => true) {
  const sums = [0, 0, 0];
  let n = 0;
  set.questions.forEach((x, i) => {
    if (!filter(x, i)) return;
    n++;
    const scores = fuse(x);
    const ranked = [...scores.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([t]) => set.tools[t].name);
    [1, 5, 10].forEach((k, j) => {
      const top = new Set(ranked.slice(0, k));
      sums[j] += x.q.expected.filter((e) => top.has(e)).length / x.q.expected.length;
    });
  });
  return sums.map((s) => s / n);
}

// ----- the fusions
const lexicalOnly = () => (x) => new Map(x.lexTools.map((t, r) => [t, -r]));
const embeddingOnly = () => (x) => new Map(x.order.slice(0, 10).map((t, r) => [t, -r]));

// Weighted RRF: `wl / (k + rank)` over the lexical top dl, `we / (k + rank)` over the embedding top de.
export const rrf = ({ k = 10, wl = 1.2, we = 1, dl = 100, de = 100 } = {}) => (x) => {
  const m = new Map();
  x.lexTools.slice(0, dl).forEach((t, r) => m.set(t, wl / (k + r + 1)));
  x.order.slice(0, de).forEach((t, r) => m.set(t, (m.get(t) ?? 0) + we / (k + r + 1)));
  return m;
};

// RRF whose lexical contributions are scaled by the lexical evidence (`scale`: "top" = score / the
// query's best score) and whose ranks may count ties as one rank (`ties`: equal scores share the
// better rank).
export const rrfs = ({ k = 10, wl = 1, we = 1, dl = 100, de = 100, scale = "top", ties = false, p = 1 } = {}) => (x) => {
  const m = new Map();
  const top = x.lexScores[0];
  let rank = 0;
  x.lexTools.slice(0, dl).forEach((t, r) => {
    if (!ties || r === 0 || x.lexScores[r] !== x.lexScores[r - 1]) rank = r;
    const c = scale === "top" ? (x.lexScores[r] / top) ** p : 1;
    m.set(t, (wl * c) / (k + rank + 1));
  });
  x.order.slice(0, de).forEach((t, r) => m.set(t, (m.get(t) ?? 0) + we / (k + r + 1)));
  return m;
};

// Both rankings' contributions scaled by their evidence: lexical score / the best, and the
// cosine's z-score (over every tool) / the best z-score, each to the power p.
export const rrf2 = ({ k = 10, wl = 1, we = 1, dl = 100, de = 100, p = 1, pe = p } = {}) => (x) => {
  const m = new Map();
  const top = x.lexScores[0];
  x.lexTools.slice(0, dl).forEach((t, r) => m.set(t, (wl * (x.lexScores[r] / top) ** p) / (k + r + 1)));
  const { mean } = stats([...x.cos]);
  const zt = x.cos[x.order[0]] - mean;
  x.order.slice(0, de).forEach((t, r) => m.set(t, (m.get(t) ?? 0) + (we * Math.max(0, (x.cos[t] - mean) / zt) ** pe) / (k + r + 1)));
  return m;
};

// Convex score fusion: a·lex' + (1−a)·cos' over the candidates (lexical top dl ∪ embedding top de),
// each normalised per query as `norm` says; a tool without a lexical score gets lex' = 0 (or its floor).
const stats = (xs) => {
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  const sd = Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / xs.length) || 1;
  return { mean, sd, min: Math.min(...xs), max: Math.max(...xs) };
};
export const score = ({ a = 0.5, lex = "max", cos = "minmax", dl = 100, de = 100 } = {}) => (x) => {
  const lt = x.lexTools.slice(0, dl);
  const ls = x.lexScores.slice(0, dl);
  const cands = new Set([...lt, ...x.order.slice(0, de)]);
  const lstat = ls.length ? stats(ls) : null;
  const topCos = x.order.slice(0, de).map((t) => x.cos[t]);
  const cstat = cos === "zall" ? stats([...x.cos]) : stats(topCos);
  const lmap = new Map(lt.map((t, i) => [t, ls[i]]));
  const ln = (s) => {
    if (!lstat) return 0;
    if (s === undefined) return lex === "z" ? (0 - lstat.mean) / lstat.sd / 3 : 0;
    if (lex === "max") return s / lstat.max;
    if (lex === "minmax") return lstat.max > lstat.min ? (s - lstat.min) / (lstat.max - lstat.min) : 1;
    return (s - lstat.mean) / lstat.sd / 3;
  };
  const cn = (c) => {
    if (cos === "minmax") return cstat.max > cstat.min ? Math.max(0, (c - cstat.min) / (cstat.max - cstat.min)) : 1;
    return (c - cstat.mean) / cstat.sd / 3;
  };
  const m = new Map();
  for (const t of cands) m.set(t, a * ln(lmap.get(t)) + (1 - a) * cn(x.cos[t]));
  return m;
};

// ----- report
if (import.meta.url === pathToFileURL(process.argv[1]).href) report();
function report() {
const sets = { live: prepare(data.tools), pooled: prepare([...data.tools, ...pool.tools]) };
const cats = [...new Set(sets.live.questions.map((x) => x.cat))];
const f3 = (r) => r.map((v) => v.toFixed(3)).join("/");
const base = evaluate(sets.live, lexicalOnly());
const baseCat = Object.fromEntries(cats.map((c) => [c, evaluate(sets.live, lexicalOnly(), (x) => x.cat === c)]));
function row(name, fuse) {
  const live = evaluate(sets.live, fuse);
  const pooled = evaluate(sets.pooled, fuse);
  const even = evaluate(sets.live, fuse, (_, i) => i % 2 === 0);
  const odd = evaluate(sets.live, fuse, (_, i) => i % 2 === 1);
  const worst = Math.min(...cats.flatMap((c) => {
    const h = evaluate(sets.live, fuse, (x) => x.cat === c);
    return [h[1] - baseCat[c][1], h[2] - baseCat[c][2]];
  }));
  let lost = 0;
  set1: for (const x of sets.live.questions) {
    const lexTop = x.lexTools[0];
    if (lexTop === undefined || !x.q.expected.includes(sets.live.tools[lexTop].name)) continue;
    const m = fuse(x);
    const best = [...m.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0][0];
    if (best !== lexTop) lost++;
  }
  console.log(`| ${name} | ${f3(live)} | ${f3(pooled)} | ${even[1].toFixed(3)} / ${odd[1].toFixed(3)} | ${(live[1] - base[1]).toFixed(3)} / ${(live[2] - base[2]).toFixed(3)} | ${worst.toFixed(3)} | ${lost} |`);
}
console.log("| fusion | live r@1/5/10 | pooled r@1/5/10 | r@5 even / odd | live Δr@5 / Δr@10 vs lexical | worst category Δ (@5, @10) | lexical #1 hits lost |\n|---|---|---|---|---|---|---|");
row("lexical alone", lexicalOnly());
row("embedding alone", embeddingOnly());
const variants = process.argv.slice(2).length ? process.argv.slice(2).map((s) => [s, eval(s)]) : [
  ["rrf k=60 w=1", rrf({ k: 60, wl: 1 })],
  ["rrf k=10 wl=1.2 d=100 (main)", rrf()],
  ["rrf k=10 wl=1.2 dl=100 de=200", rrf({ de: 200 })],
  ["rrf k=10 wl=1 ", rrf({ wl: 1 })],
  ["score max/minmax a=0.5", score({ a: 0.5 })],
  ["score max/minmax a=0.6", score({ a: 0.6 })],
  ["score max/zall a=0.5", score({ a: 0.5, cos: "zall" })],
  ["score max/ztop a=0.5", score({ a: 0.5, cos: "ztop" })],
  ["score z/z a=0.5", score({ a: 0.5, lex: "z", cos: "ztop" })],
];
for (const [name, f] of variants) row(name, f);
}
