// Tool-search benchmark: recall@1/5/10 on BFCL live (bfcl-live.json) of the rankers users
// would otherwise pick, side by side, plus build and query times on synthetic tool sets.
//
//   node bench/tool-search/compare.mjs                 recall table
//   node bench/tool-search/compare.mjs --timing        and build/query times at 500, 10,000, 50,000 tools
//   node bench/tool-search/compare.mjs --ranker ./x.mjs   adds a ranker from a module exporting
//                                                      `name` and `rank` (see below)
//
// A ranker is one function: rank(tools) => (query, k) => names[] (best first, at most k).
// `tools` are { name, description, parameters } as in bfcl-live.json; build everything in
// rank(tools), answer queries in the returned function. The package's ToolIndex plugs in as
//   rank: (tools) => { const index = new ToolIndex(tools); return (q, k) => index.search(q, { limit: k }).map((h) => h.name); }

import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import MiniSearch from 'minisearch';

const here = new URL('.', import.meta.url);
export const data = JSON.parse(readFileSync(new URL('bfcl-live.json', here), 'utf8'));

// ---------------------------------------------------------------------------------------
// Parameter text: what a ranker is given of a JSON schema. Property names, their
// descriptions and string enum values, recursively through nested `properties` and `items`.
export function paramParts(schema, out = { names: [], descriptions: [], enums: [] }) {
  if (schema == null || typeof schema !== 'object') return out;
  const props = schema.properties;
  if (props && typeof props === 'object') {
    for (const [key, p] of Object.entries(props)) {
      out.names.push(key);
      if (p && typeof p === 'object') {
        if (typeof p.description === 'string') out.descriptions.push(p.description);
        if (Array.isArray(p.enum)) for (const e of p.enum) if (typeof e === 'string') out.enums.push(e);
        paramParts(p, out);
      }
    }
  }
  if (schema.items && typeof schema.items === 'object') paramParts(schema.items, out);
  return out;
}
export const paramText = (schema) => {
  const p = paramParts(schema);
  return [...p.names, ...p.descriptions, ...p.enums].join(' ');
};

// ---------------------------------------------------------------------------------------
// (a) The AI SDK 7 toolSearch default scorer, reproduced exactly from ai@7.0.173
// (dist/index.js, createToolSearchState and tokenize; neither is exported): query terms are
// deduplicated; a tool scores 2 per term found among its name's tokens and 1 per term found
// among its description's tokens; score > 0, stable sort by score descending, first k.
function aiTokenize(text) {
  return text.replace(/([a-z\d])([A-Z])/g, '$1 $2').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}
export const aiSdk = {
  name: 'AI SDK 7 toolSearch (default scorer)',
  rank(tools) {
    const available = tools.map(({ name, description }) => ({ name, description }));
    return (query, k) => {
      const terms = [...new Set(aiTokenize(query))];
      return available
        .map(({ name, description }) => {
          const nameTerms = aiTokenize(name);
          const descriptionTerms = aiTokenize(description ?? '');
          return {
            name,
            score: terms.reduce((s, t) => s + (nameTerms.includes(t) ? 2 : 0) + (descriptionTerms.includes(t) ? 1 : 0), 0),
          };
        })
        .filter((m) => m.score > 0)
        .sort((a, b) => b.score - a.score)
        .map((m) => m.name)
        .slice(0, k);
    };
  },
};

// (b) MiniSearch 7: BM25 (its defaults k=1.2, b=0.7, d=0.5), default tokenizer (splits on
// spaces and punctuation, lowercases), fields name/description/parameters, name boosted 2x.
// Default search options otherwise (OR, no prefix, no fuzzy): see --variants for others.
export function miniSearchWith(searchOptions = {}) {
  return (tools) => {
    const ms = new MiniSearch({ idField: 'id', fields: ['name', 'description', 'parameters'], storeFields: [] });
    ms.addAll(tools.map((t, id) => ({ id, name: t.name, description: t.description ?? '', parameters: paramText(t.parameters) })));
    return (query, k) => ms.search(query, { boost: { name: 2 }, ...searchOptions }).slice(0, k).map((r) => tools[r.id].name);
  };
}
export const miniSearch = { name: 'MiniSearch 7 (BM25, name x2)', rank: miniSearchWith() };

// ---------------------------------------------------------------------------------------
// Recall@k, averaged over the questions: the fraction of a question's expected tools in the
// first k. A ranker's search gets the question too (its id finds its vector).
export function recall(ranker, tools = data.tools, questions = data.questions, ks = [1, 5, 10]) {
  const search = ranker.rank(tools);
  const kmax = Math.max(...ks);
  const sums = ks.map(() => 0);
  for (const q of questions) {
    const got = search(q.query, kmax, q);
    ks.forEach((k, i) => {
      const top = new Set(got.slice(0, k));
      sums[i] += q.expected.filter((n) => top.has(n)).length / q.expected.length;
    });
  }
  search.dispose?.();
  return Object.fromEntries(ks.map((k, i) => [`r@${k}`, sums[i] / questions.length]));
}

// The BFCL live category of a question ("live_parallel_multiple_3-2-1" -> "parallel_multiple").
export const categoryOf = (q) => q.id.replace(/^live_/, '').replace(/_\d[^_]*$/, '');

// Recall per category, and overall: { all: {...}, simple: {...}, ... }.
export function recalls(ranker, tools = data.tools, questions = data.questions) {
  const out = { all: recall(ranker, tools, questions) };
  for (const c of [...new Set(questions.map(categoryOf))]) out[c] = recall(ranker, tools, questions.filter((q) => categoryOf(q) === c));
  return out;
}

// ---------------------------------------------------------------------------------------
// The embeddings (bfcl-vectors.bin, made by embed.py with multilingual-e5-small; never
// computed in CI): one flat Float32Array per set, vector i = int8 row i × scale i.
export const pool = JSON.parse(readFileSync(new URL('bfcl-pool.json', here), 'utf8'));
export const vectors = (() => {
  const bytes = readFileSync(new URL('bfcl-vectors.bin', here));
  const nl = bytes.indexOf(10);
  const header = JSON.parse(bytes.subarray(0, nl).toString('utf8'));
  const d = header.dims;
  const sets = {};
  let at = nl + 1;
  for (const { name, count, first, last } of header.sets) {
    const scales = new Float32Array(bytes.buffer.slice(bytes.byteOffset + at, bytes.byteOffset + at + 4 * count));
    at += 4 * count;
    const q = new Int8Array(bytes.buffer.slice(bytes.byteOffset + at, bytes.byteOffset + at + count * d));
    at += count * d;
    const flat = new Float32Array(count * d);
    for (let i = 0; i < count * d; i++) flat[i] = q[i] * scales[Math.floor(i / d)];
    sets[name] = { flat, first, last, count };
  }
  if (at !== bytes.length) throw new Error('bfcl-vectors.bin: size does not match its header');
  const check = (set, items, key) => {
    if (set.count !== items.length || set.first !== items[0][key] || set.last !== items.at(-1)[key]) throw new Error('bfcl-vectors.bin does not match the JSON files: run embed.py again');
  };
  check(sets.tools, data.tools, 'name');
  check(sets.questions, data.questions, 'id');
  check(sets.pool, pool.tools, 'name');
  const row = (set, i) => set.flat.subarray(i * d, (i + 1) * d);
  const byName = new Map();
  data.tools.forEach((t, i) => byName.set(t.name, row(sets.tools, i)));
  pool.tools.forEach((t, i) => byName.set(t.name, row(sets.pool, i)));
  const byQuestion = new Map(data.questions.map((q, i) => [q.id, row(sets.questions, i)]));
  // A synthetic copy (compare.mjs's synthetic(), name `${name}_${c}`) has its original's vector.
  const tool = (t, i) => byName.get(t.name) ?? byName.get(data.tools[i % data.tools.length].name);
  return { dims: d, model: header.model, tool, question: (q) => byQuestion.get(q.id) };
})();

// The embedding alone: cosine similarity (the fixture's vectors are unit length), exact,
// in JS; ties keep tool order.
// cosines(tools)(q): every tool's cosine with question q, and the tools best first (ties
// in tool order).
export function cosines(tools) {
  const d = vectors.dims;
  const flat = new Float32Array(tools.length * d);
  tools.forEach((t, i) => flat.set(vectors.tool(t, i), i * d));
  return (q) => {
    const v = vectors.question(q);
    const scores = new Float64Array(tools.length);
    for (let i = 0; i < tools.length; i++) {
      let s = 0;
      for (let j = 0; j < d; j++) s += flat[i * d + j] * v[j];
      scores[i] = s;
    }
    return { scores, order: [...scores.keys()].sort((a, b) => scores[b] - scores[a] || a - b) };
  };
}
export const embeddingAlone = {
  name: 'embedding alone (cosine, e5-small)',
  rank(tools) {
    const of = cosines(tools);
    return (query, k, q) => of(q).order.slice(0, k).map((i) => tools[i].name);
  },
};

// The package's ToolIndex, lexical and hybrid (the fixture's vectors; each question's own).
export function toolIndexRankers(pkg) {
  return [
    {
      name: 'ToolIndex, lexical (this package)',
      rank(tools) {
        const index = new pkg.ToolIndex(tools);
        const search = (query, k) => index.search(query, { limit: k }).map((h) => h.name);
        return Object.assign(search, { dispose: () => index.dispose() });
      },
    },
    {
      name: 'ToolIndex, hybrid (this package + e5-small vectors)',
      rank(tools) {
        const index = new pkg.ToolIndex(tools, { vectors: tools.map((t, i) => vectors.tool(t, i)) });
        const search = (query, k, q) => index.search(query, { limit: k, vector: vectors.question(q) }).map((h) => h.name);
        return Object.assign(search, { dispose: () => index.dispose() });
      },
    },
  ];
}

// Synthetic tool sets: tool i of n is pool[i % pool.length]; copy c = floor(i / pool.length)
// > 0 gets the name `${name}_${c}` and its description's words (split on ' ') shuffled by
// Fisher-Yates with xorshift32 seeded from i (same generator as the Rust bench).
export function synthetic(pool, n) {
  const out = [];
  for (let i = 0; i < n; i++) {
    const t = pool[i % pool.length];
    const c = Math.floor(i / pool.length);
    if (c === 0) { out.push(t); continue; }
    let s = (Math.imul(i + 1, 0x9e3779b9) | 1) >>> 0;
    const next = () => { s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0; return s; };
    const words = (t.description ?? '').split(' ');
    for (let j = words.length - 1; j > 0; j--) {
      const r = next() % (j + 1);
      [words[j], words[r]] = [words[r], words[j]];
    }
    out.push({ name: `${t.name}_${c}`, description: words.join(' '), parameters: t.parameters });
  }
  return out;
}

function time(ranker, n, queries) {
  const tools = synthetic(data.tools, n);
  let t0 = performance.now();
  const search = ranker.rank(tools);
  const build = performance.now() - t0;
  for (const q of queries.slice(0, 10)) search(q, 5); // warm-up
  t0 = performance.now();
  for (const q of queries) search(q, 5);
  const query = (performance.now() - t0) / queries.length;
  return { build, query };
}

const fmt = (x) => x.toFixed(3);
const ms = (x) => (x < 1 ? x.toFixed(3) : x < 100 ? x.toFixed(2) : x.toFixed(0));

async function main(argv) {
  const rankers = [aiSdk, miniSearch];
  const at = argv.indexOf('--ranker');
  if (at >= 0) {
    const mod = await import(pathToFileURL(resolve(argv[at + 1])).href);
    rankers.push({ name: mod.name ?? argv[at + 1], rank: mod.rank });
  }
  if (argv.includes('--variants')) {
    rankers.push({ name: 'MiniSearch 7, name not boosted', rank: miniSearchWith({ boost: { name: 1 } }) });
    rankers.push({ name: 'MiniSearch 7, prefix', rank: miniSearchWith({ prefix: true }) });
    rankers.push({ name: 'MiniSearch 7, prefix + fuzzy 0.2', rank: miniSearchWith({ prefix: true, fuzzy: 0.2 }) });
  }
  console.log(`BFCL live: ${data.tools.length} tools, ${data.questions.length} questions\n`);
  console.log('| ranker | recall@1 | recall@5 | recall@10 |\n|---|---|---|---|');
  for (const r of rankers) {
    const s = recall(r);
    console.log(`| ${r.name} | ${fmt(s['r@1'])} | ${fmt(s['r@5'])} | ${fmt(s['r@10'])} |`);
  }
  if (argv.includes('--timing')) {
    // All questions at 500 tools; the first 100 at 10,000 and 50,000 (the JS rankers take
    // up to half a second per query there).
    const queries = data.questions.map((q) => q.query);
    console.log(`\nNode ${process.version}; build ms; query ms (mean over the questions, limit 5)\n`);
    console.log('| ranker | tools | build ms | query ms |\n|---|---|---|---|');
    for (const r of rankers) {
      for (const n of [500, 10000, 50000]) {
        const { build, query } = time(r, n, n > 500 ? queries.slice(0, 100) : queries);
        console.log(`| ${r.name} | ${n} | ${ms(build)} | ${ms(query)} |`);
      }
    }
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) await main(process.argv.slice(2));
