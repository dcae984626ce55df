// The single-message rules DESIGN.md weighs ("A single message: near hits keep their places"),
// rebuilt over `index.search` and measured with entries.mjs's harness (servers as namespaces,
// one query a turn, no history): per rule, the query sets where entries finds less than plain
// search at entries' mean palette size, the worst margin, and the largest mean palette. The rule
// `now` is the core's: its rows are checked against `index.entries` on every query.
//
//   node scripts/build.mjs && node bench/tool-search/mcp/single-rules.mjs [--rules now,first,...]
//     [--limit 5] [--share 0.5] [--only npm,livemcpbench,etom] [--sets]
//   node bench/tool-search/mcp/single-rules.mjs --rates   (what a tool offered past the limit finds)
import * as pkg from '../../../dist/node.mjs';
import { mcpEntries } from './entries.mjs';
import { mcpSets } from './sets.mjs';

const arg = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1] : fallback;
};
const LIMIT = Number(arg('limit', 5));
const SHARE = Number(arg('share', 0.5));

// Each rule: how deep namespaces' best tools are taken from (× limit), whether near hits (among
// the first 2 × limit, scoring at least SHARE of the first hit's) join, and whether namespaces do.
export const RULES = {
  first: { about: "issue 41's first rule: namespaces, best tools from the first 4 x limit hits", depth: 4, near: false, namespaces: true },
  window: { about: 'best tools from the first 2 x limit hits only', depth: 2, near: false, namespaces: true },
  near: { about: 'near hits alone, no namespaces', depth: 2, near: true, namespaces: false },
  'near-deep': { about: 'near hits + the first rule (best tools from 4 x limit)', depth: 4, near: true, namespaces: true },
  now: { about: "near hits + namespaces, both from the first 2 x limit hits (the core's)", depth: 2, near: true, namespaces: true },
};

/** A rule's rows for `hits` (the query's ranking, 4 x limit deep, best first). */
function rows(rule, hits, ns, members, limit) {
  const out = hits.slice(0, limit).map((h) => h.name);
  const put = (name) => out.includes(name) || out.push(name);
  if (rule.near) for (const h of hits.slice(limit, 2 * limit)) if (h.score >= SHARE * hits[0].score) put(h.name);
  if (!rule.namespaces) return out;
  const first = hits.slice(0, limit);
  const found = [];
  first.forEach((h, i) => {
    const f = ns.get(h.name);
    if (f !== undefined && !found.includes(f) && (i === 0 || first.filter((x) => ns.get(x.name) === f).length >= 2)) found.push(f);
  });
  const deep = hits.slice(0, rule.depth * limit);
  for (const f of found) {
    if (members.get(f).length <= limit) members.get(f).forEach(put);
    else deep.filter((h) => ns.get(h.name) === f).forEach((h) => put(h.name));
  }
  return out;
}

export async function measure(key, { only = null, limit = LIMIT } = {}) {
  const rule = RULES[key];
  let checked = 0;
  const differ = [];
  const m = await mcpEntries({
    only,
    limit,
    entries: (index, docs, vectorOf) => {
      const ns = new Map(docs.map((d) => [d.name, d.namespace]));
      const members = new Map();
      for (const d of docs) members.set(d.namespace, [...(members.get(d.namespace) ?? []), d.name]);
      return async ({ message }) => {
        const vector = vectorOf();
        const hits = index.search(message, { limit: 4 * limit, ...(vector ? { vector } : {}) });
        const mine = hits.length ? rows(rule, hits, ns, members, limit) : [];
        if (key === 'now' && SHARE === 0.5) {
          const core = (await index.entries({ message })).map((r) => r.tool);
          checked++;
          if (JSON.stringify(core) !== JSON.stringify(mine)) differ.push(message);
        }
        return mine.map((tool) => ({ tool }));
      };
    },
  });
  const sets = m.sets.flatMap((s) => s.querySets.flatMap((q) => q.rankings.map((r) => ({ where: `${q.name}, ${r.ranking}`, entries: r.entries, mean: r.mean }))));
  const misses = sets.filter((r) => r.entries.recall < r.mean.recall - 1e-9);
  return { key, about: rule.about, sets, misses, worst: Math.min(...sets.map((r) => r.entries.recall - r.mean.recall)), most: Math.max(...sets.map((r) => r.entries.tools)), checked, differ };
}

/**
 * Past the first `limit` hits, how often one offered tool holds a needed tool not yet offered,
 * per query set and ranking: plain rank limit + 1; the first hit's server's hits at ranks
 * limit + 1 .. 4 x limit (and those of a server holding 3 of the first `limit`); plain ranks
 * limit + 1 .. limit + 2 when the ranking is flat at the cut (the limit-th hit scoring at least
 * 1 / 1.25 of the first) or steep (under 1 / 1.6 of it).
 */
export function rates({ only = null, limit = LIMIT } = {}) {
  const out = [];
  for (const s of mcpSets(only).sets) {
    const docs = s.tools.map((t) => ({ name: t.name, description: t.description ?? undefined, inputSchema: t.inputSchema, namespace: t.server }));
    const ns = new Map(docs.map((d) => [d.name, d.namespace]));
    for (const set of s.sets) {
      for (const vectors of s.vectors ? [null, s.vectors] : [null]) {
        const index = new pkg.ToolIndex(docs, { limit, ...(vectors ? { vectors: new Float32Array(vectors.tools.flat) } : {}) });
        const acc = { next: [0, 0], server: [0, 0], server3: [0, 0], flat: [0, 0], steep: [0, 0] };
        const count = (k, found) => ((acc[k][0] += found), acc[k][1]++);
        for (const q of set.queries) {
          const vector = vectors ? s.row(set.vectors, q.row) : null;
          const hits = index.search(q.text, { limit: 4 * limit, ...(vector ? { vector } : {}) });
          if (hits.length <= limit) continue;
          const first = hits.slice(0, limit).map((h) => h.name);
          const finds = (name) => (q.needed.some((alts) => !alts.some((n) => first.includes(n)) && alts.includes(name)) ? 1 : 0);
          const f = ns.get(hits[0].name);
          const held = first.filter((n) => ns.get(n) === f).length;
          count('next', finds(hits[limit].name));
          for (const h of hits.slice(limit)) {
            if (ns.get(h.name) !== f) continue;
            count('server', finds(h.name));
            if (held >= 3) count('server3', finds(h.name));
          }
          const cut = hits[limit - 1].score / hits[0].score;
          for (const h of hits.slice(limit, limit + 2)) {
            if (cut >= 1 / 1.25) count('flat', finds(h.name));
            else if (cut < 1 / 1.6) count('steep', finds(h.name));
          }
        }
        index.dispose();
        out.push({ where: `${set.name}, ${vectors ? 'hybrid' : 'lexical'}`, ...Object.fromEntries(Object.entries(acc).map(([k, [found, n]]) => [k, { rate: n ? found / n : null, n }])) });
      }
    }
  }
  return out;
}

if (import.meta.url === `file://${process.argv[1]}` && process.argv.includes('--rates')) {
  const pct = (x) => (x.rate === null ? '   -' : `${(100 * x.rate).toFixed(1)}%`.padStart(5)) + ` of ${String(x.n).padStart(4)}`;
  console.log(`Past the first ${LIMIT} hits, the share of offered tools that hold a needed tool not yet offered:`);
  console.log(`${'query set, ranking'.padEnd(60)} ${['plain next', "first hit's server", '... holding 3 of 5', 'next 2, flat cut', 'next 2, steep cut'].map((h) => h.padEnd(14)).join(' ')}`);
  for (const r of rates({ only: arg('only', null)?.split(',') ?? null })) console.log(`${r.where.padEnd(60)} ${[r.next, r.server, r.server3, r.flat, r.steep].map((x) => pct(x).padEnd(14)).join(' ')}`);
} else if (import.meta.url === `file://${process.argv[1]}`) {
  const only = arg('only', null)?.split(',') ?? null;
  for (const key of arg('rules', Object.keys(RULES).join(',')).split(',')) {
    const r = await measure(key, { only });
    console.log(`${key} (${r.about}; limit ${LIMIT}, near share ${SHARE}): misses ${r.misses.length} of ${r.sets.length}, worst margin ${r.worst.toFixed(3)}, at most ${r.most.toFixed(1)} tools a turn on average`);
    for (const x of r.misses) console.log(`  MISS ${x.where}: ${x.entries.recall.toFixed(3)} at ${x.entries.tools.toFixed(1)} < ${x.mean.recall.toFixed(3)}`);
    if (process.argv.includes('--sets')) for (const x of r.sets) console.log(`  ${x.where.padEnd(60)} ${x.entries.recall.toFixed(3)} at ${x.entries.tools.toFixed(1)} | search at that size ${x.mean.recall.toFixed(3)}`);
    if (r.checked) console.log(`  the core's rows: ${r.checked - r.differ.length} of ${r.checked} queries identical${r.differ.length ? `; differ: ${r.differ.slice(0, 3).join(' | ')}` : ''}`);
    if (r.differ.length) process.exitCode = 1;
  }
}
