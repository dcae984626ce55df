// What a turn offers on the multi-server MCP sets (sets.mjs: npm always, LiveMCPBench and ETOM
// when local/ has them), each server a `namespace` as tool-palette/mcp gives it: per query set,
// plain `search` at the limit against `index.entries({ message })`, both lexical and, where the
// set's e5-small vectors are there, hybrid (`embed` answering the query's vector). Per turn (one
// query = one turn, no history): the tools offered, their definition tokens (each tool as the
// Chat Completions function JSON, o200k_base, as ../tokens.mjs counts them) and the recall of the
// query's needed tools among them; and plain search offering, for each query, as many tools as
// entries offered on average (the issue's comparison; between the two whole sizes around it, in
// proportion), and as many as entries offered each query ("per query as many").
//
//   node scripts/build.mjs && node bench/tool-search/mcp/entries.mjs [--only npm,livemcpbench,etom]
//   (npm run bench prints it; node bench/run.mjs --mcp runs this section alone)
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import * as pkg from '../../../dist/node.mjs';
import { definition } from '../tokens.mjs';
import { mcpSets } from './sets.mjs';

export const LIMIT = 5;

/** Recall of the needed items (each a list of equivalent names) among `offered`. */
const recallOf = (needed, offered) => {
  const set = new Set(offered);
  return needed.filter((alts) => alts.some((n) => set.has(n))).length / needed.length;
};

/**
 * Per set and query set, per ranking (lexical, hybrid): rows for `search` at `limit`, `entries`,
 * and search at entries' size per query: { tools, tokens, recall } means per turn.
 */
export async function mcpEntries({ lib = pkg, only = null, limit = LIMIT, entries: entriesOf = (index) => index.entries } = {}) {
  const t0 = performance.now();
  const { sets, missing } = mcpSets(only);
  const out = [];
  for (const s of sets) {
    const docs = s.tools.map((t) => ({ name: t.name, description: t.description ?? undefined, inputSchema: t.inputSchema, namespace: t.server }));
    const tokens = new Map(s.tools.map((t) => [t.name, encode(definition({ ...t, parameters: t.inputSchema })).length]));
    const all = [...tokens.values()].reduce((a, b) => a + b, 0);
    const sum = (names) => names.reduce((a, n) => a + tokens.get(n), 0);
    const rankings = [['lexical', null]];
    if (s.vectors) rankings.push(['hybrid', s.vectors]);
    const querySets = [];
    for (const set of s.sets) {
      const bySet = { name: set.name, queries: set.queries.length, rankings: [] };
      for (const [ranking, vectors] of rankings) {
        let vector = null;
        const index = new lib.ToolIndex(docs, { limit, ...(vectors ? { vectors: new Float32Array(vectors.tools.flat), embed: () => vector } : {}) });
        const entries = entriesOf(index, docs, () => vector);
        const rows = { search: blank(), entries: blank(), same: blank(), mean: blank() };
        const ranked = [];
        for (const q of set.queries) {
          vector = vectors ? s.row(set.vectors, q.row) : null;
          const offered = (await entries({ message: q.text })).map((r) => r.tool);
          // Plain search, deep enough for any palette size asked of it below.
          const deep = index.search(q.text, { limit: Math.max(offered.length, 100), ...(vector ? { vector } : {}) }).map((h) => h.name);
          ranked.push(deep);
          for (const [row, names] of [['search', deep.slice(0, limit)], ['entries', offered], ['same', deep.slice(0, offered.length)]]) {
            rows[row].tools += names.length;
            rows[row].tokens += sum(names);
            rows[row].recall += recallOf(q.needed, names);
            rows[row].largest = Math.max(rows[row].largest, names.length);
          }
        }
        index.dispose();
        const n = set.queries.length;
        for (const r of Object.values(rows)) for (const k of ['tools', 'tokens', 'recall']) r[k] /= n;
        // Plain search at entries' mean palette size (the issue's comparison), between the two
        // whole sizes around it, in proportion.
        const at = (k) => set.queries.reduce((a, q, i) => a + recallOf(q.needed, ranked[i].slice(0, k)), 0) / n;
        const low = Math.floor(rows.entries.tools);
        const part = rows.entries.tools - low;
        rows.mean = { tools: rows.entries.tools, recall: (1 - part) * at(low) + part * at(low + 1) };
        bySet.rankings.push({ ranking, ...rows });
      }
      querySets.push(bySet);
    }
    out.push({ key: s.key, title: s.title, tools: s.tools.length, servers: s.servers, allTokens: all, querySets });
  }
  return { limit, sets: out, missing: missing.map((m) => m.key), musts: musts(out, limit), ms: performance.now() - t0 };
}

const blank = () => ({ tools: 0, tokens: 0, recall: 0, largest: 0 });

/** The issue's musts on every query set: entries offers <= 3 x limit tools a turn on average, at plain search's recall or better at the same palette size. */
export function musts(sets, limit) {
  const rows = sets.flatMap((s) => s.querySets.flatMap((q) => q.rankings.map((r) => ({ where: `${q.name}, ${r.ranking}`, ...r }))));
  const size = rows.filter((r) => r.entries.tools > 3 * limit);
  const recall = rows.filter((r) => r.entries.recall < r.mean.recall - 1e-9);
  return [
    { what: `entries offers at most 3 x limit (${3 * limit}) tools a turn on average, every query set`, ok: size.length === 0, got: size.length ? size.map((r) => `${r.where} ${r.entries.tools.toFixed(1)}`).join('; ') : `at most ${Math.max(...rows.map((r) => r.entries.tools)).toFixed(1)}` },
    { what: 'entries recall >= plain search recall at the same palette size (entries\' mean), every query set', ok: recall.length === 0, got: recall.length ? recall.map((r) => `${r.where} ${r.entries.recall.toFixed(3)} < ${r.mean.recall.toFixed(3)}`).join('; ') : `worst margin ${Math.min(...rows.map((r) => r.entries.recall - r.mean.recall)).toFixed(3)}` },
  ];
}

/** The console lines. */
export function lines(m) {
  const out = [`Multi-server MCP sets, servers as namespaces (limit ${m.limit}; a query is one turn; tokens: each offered tool's definition, o200k; "search, same size": plain search offering each query as many tools as entries did; ${(m.ms / 1000).toFixed(1)} s):`];
  for (const s of m.sets) {
    out.push(`  ${s.title} (every tool: ${s.allTokens.toLocaleString('en')} tokens)`);
    for (const q of s.querySets) {
      for (const r of q.rankings) {
        const f = (x) => `${x.recall.toFixed(3)} at ${x.tools.toFixed(1).padStart(4)} tools, ${Math.round(x.tokens).toLocaleString('en').padStart(6)} tokens`;
        out.push(`    ${`${q.name} (${q.queries}), ${r.ranking}`.padEnd(62)} search ${f(r.search)} | entries ${f(r.entries)} (at most ${r.entries.largest}) | search at ${r.mean.tools.toFixed(1)} ${r.mean.recall.toFixed(3)}, per query as many ${r.same.recall.toFixed(3)}`);
      }
    }
  }
  if (m.missing.length) out.push(`  (not there: ${m.missing.join(', ')}; see bench/tool-search/mcp/README.md)`);
  out.push('  musts:');
  for (const x of m.musts) out.push(`    ${x.ok ? 'ok  ' : 'MISS'} ${x.what}: ${x.got}`);
  return out;
}

/** The README lines. */
export function markdown(m) {
  return [
    `Multi-server MCP sets (bench/tool-search/mcp/: the npm set committed; LiveMCPBench and ETOM when \`local/\` holds them), each server a \`namespace\`, limit ${m.limit}, one query a turn: plain \`search\` against \`entries\`, recall of the needed tools, tools and definition tokens per turn, and plain search offering each query as many tools as entries did:`,
    '',
    '| query set | ranking | search: recall / tools / tokens | entries: recall / tools / tokens | search at entries\' mean size: recall | search, per query as many: recall |',
    '|---|---|---:|---:|---:|---:|',
    ...m.sets.flatMap((s) => s.querySets.flatMap((q) => q.rankings.map((r) => `| ${q.name} (${q.queries}) | ${r.ranking} | ${r.search.recall.toFixed(3)} / ${r.search.tools.toFixed(1)} / ${Math.round(r.search.tokens).toLocaleString('en')} | ${r.entries.recall.toFixed(3)} / ${r.entries.tools.toFixed(1)} / ${Math.round(r.entries.tokens).toLocaleString('en')} | ${r.mean.recall.toFixed(3)} | ${r.same.recall.toFixed(3)} |`))),
    '',
    `The issue's musts on this run: ${m.musts.map((x) => `${x.ok ? 'met' : '**missed**'}: ${x.what} (${x.got})`).join('; ')}.`,
  ];
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const at = process.argv.indexOf('--only');
  console.log(lines(await mcpEntries({ only: at > 0 ? process.argv[at + 1].split(',') : null })).join('\n'));
}
