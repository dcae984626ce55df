// Reference rankers on the multi-server MCP sets: recall of the needed tools among the first k,
// per query set, on every set that is present:
//
// - npm (committed, always): npm-servers.json (43 servers from the npm registry, 507 tools,
//   npm-servers.mjs) and npm-tasks.json (97 tasks written in this repository);
// - LiveMCPBench (local/mcp-servers.json: 70 servers, 527 tools, 95 tasks), when it is there;
// - ETOM (local/etom.json: 491 servers, 2,375 tools, 2,075 generated queries), when it is there.
//
// The last two are derived from fetched repositories and are never committed: derive.py and
// derive_etom.py make them in the git-ignored local/ folder (README.md, LICENSE-NOTE.md).
//
//   node scripts/build.mjs                                   # once, for the package's own search (dist/)
//   node bench/tool-search/mcp/baseline.mjs [--only npm,livemcpbench,etom] [--json]
//
// Every query retrieves from the whole of its set's tools. A tool's name is its own unless two
// servers of the set list that name; then each is `<server>__<name>` (as the package's MCP
// adapter names them). Recall@k: the fraction of a query's needed tools among the first k
// results, averaged over the queries (a needed item with several (server, tool) pairs, the
// equivalent tools of one step, is found when any of them is). The query sets and what each needs:
//
// - npm: each task's query; needed, each step of its gold;
// - LiveMCPBench, tasks, annotators' gold: the task's query (95); needed, each tool the
//   annotators listed (`gold[].tools`, any of an item's pairs);
// - LiveMCPBench, tasks, agent's gold: the task's query; needed, the tools the benchmark's agent
//   (Claude Sonnet 4) executed for it (`agent_calls`; 93 tasks, two executed nothing);
// - LiveMCPBench, agent searches: each search the agent wrote (`agent_queries[].query`, exact,
//   with its "<tool_assistant>" wrapper); needed, the tools it executed after that search and
//   before its next one (`agent_queries[].calls`; 144 of the 283 searches were followed by a call);
// - ETOM: each level of 1 to 4 (level 5's queries need no tool and are left out), then levels 1-4
//   together; needed, each step's tools.
//
// Rankers: BM25 over name + description (MiniSearch 7, its BM25 defaults, fields name and
// description, no boost, default tokenizer, OR); the same with the schema's texts and the name
// boosted (as ../compare.mjs runs it on BFCL); the AI SDK's toolSearch scorer (../compare.mjs);
// e5-small cosine, when the set's vectors are there (embed.py: npm-vectors.bin, committed;
// local/mcp-vectors.bin, local/etom-vectors.bin); the package's ToolIndex (dist/node.mjs)
// lexical, with each tool's inputSchema and its server as namespace; and ToolIndex hybrid (the
// same vectors), when dist/ is built.
import { existsSync } from 'node:fs';
import MiniSearch from 'minisearch';
import { aiSdk, paramText } from '../compare.mjs';
import { mcpSets } from './sets.mjs';

const here = new URL('.', import.meta.url);
const K = [5, 10, 15, 60, 75];
const onlyAt = process.argv.indexOf('--only');
const only = onlyAt > 0 ? process.argv[onlyAt + 1].split(',') : null;

const distUrl = new URL('../../../dist/node.mjs', here);
const ToolIndex = existsSync(distUrl) ? (await import(distUrl.href)).ToolIndex : null;
if (!ToolIndex) console.log('(dist/ not built: `node scripts/build.mjs` adds the package\'s own search)\n');

// Each ranker ranks each query once, to the largest k; recall@k reads the first k.
function recalls(rank, set) {
  const sums = K.map(() => 0);
  const kmax = Math.max(...K);
  for (const q of set.queries) {
    const ranked = rank(q, kmax, set);
    K.forEach((k, i) => {
      const hits = new Set(ranked.slice(0, k));
      sums[i] += q.needed.filter((alts) => alts.some((n) => hits.has(n))).length / q.needed.length;
    });
  }
  return sums.map((s) => s / set.queries.length);
}

const results = {};
const { sets: present, missing } = mcpSets(only);
for (const { file, key } of missing) console.log(`## ${key}: ${file} is not there (derive it: README.md), skipped\n`);
for (const spec of present) {
  const { tools, sets, vectors, row } = spec;

  // Rankers: (query, k, set) => names, best first.
  const rankers = [];
  const ms = new MiniSearch({ idField: 'id', fields: ['name', 'description'], storeFields: [] });
  ms.addAll(tools.map((t, id) => ({ id, name: t.name, description: t.description ?? '' })));
  rankers.push({ name: 'BM25 name + description (MiniSearch 7)', rank: (q, k) => ms.search(q.text).slice(0, k).map((r) => tools[r.id].name) });
  // as ../compare.mjs sets it up on BFCL: + the schema's texts (property names, descriptions, enums), name x2
  const msp = new MiniSearch({ idField: 'id', fields: ['name', 'description', 'parameters'], storeFields: [] });
  msp.addAll(tools.map((t, id) => ({ id, name: t.name, description: t.description ?? '', parameters: paramText(t.inputSchema) })));
  rankers.push({ name: 'BM25 + parameters, name x2 (MiniSearch 7, as compare.mjs)', rank: (q, k) => msp.search(q.text, { boost: { name: 2 } }).slice(0, k).map((r) => tools[r.id].name) });
  const ai = aiSdk.rank(tools.map(({ name, description }) => ({ name, description })));
  rankers.push({ name: 'AI SDK 7 toolSearch default scorer', rank: (q, k) => ai(q.text, k) });
  if (vectors) {
    rankers.push({
      name: 'e5-small cosine', rank: (q, k, set) => {
        const v = row(set.vectors, q.row);
        const scored = tools.map((t, i) => {
          const w = row('tools', i);
          let dot = 0;
          for (let j = 0; j < v.length; j++) dot += v[j] * w[j];
          return { i, dot };
        });
        scored.sort((a, b) => b.dot - a.dot || a.i - b.i);
        return scored.slice(0, k).map((s) => tools[s.i].name);
      },
    });
  }
  if (ToolIndex) {
    const docs = tools.map((t) => ({ name: t.name, description: t.description ?? undefined, inputSchema: t.inputSchema, namespace: t.server }));
    const lexical = new ToolIndex(docs);
    rankers.push({ name: 'ToolIndex lexical (the package\'s search)', rank: (q, k) => lexical.search(q.text, { limit: k }).map((h) => h.name) });
    if (vectors) {
      const hybrid = new ToolIndex(docs, { vectors: new Float32Array(vectors.tools.flat) });
      rankers.push({ name: 'ToolIndex hybrid (+ e5-small)', rank: (q, k, set) => hybrid.search(q.text, { limit: k, vector: row(set.vectors, q.row) }).map((h) => h.name) });
    }
  }

  console.log(`## ${spec.title}${vectors ? '' : ` (no ${spec.vectorsFile}: no e5-small rows)`}\n`);
  for (const set of sets) {
    console.log(`### ${set.name} (${set.queries.length} queries)\n`);
    console.log(`| ranker | ${K.map((k) => `recall@${k}`).join(' | ')} |\n|---|${K.map(() => '---|').join('')}`);
    results[set.name] = {};
    for (const r of rankers) {
      const values = recalls(r.rank, set);
      results[set.name][r.name] = Object.fromEntries(K.map((k, i) => [k, +values[i].toFixed(3)]));
      console.log(`| ${r.name} | ${values.map((v) => v.toFixed(3)).join(' | ')} |`);
    }
    console.log('');
  }
}
if (process.argv.includes('--json')) console.log(JSON.stringify(results, null, 1));
