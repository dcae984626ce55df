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
import { existsSync, readFileSync } from 'node:fs';
import MiniSearch from 'minisearch';
import { aiSdk, paramText } from '../compare.mjs';

const here = new URL('.', import.meta.url);
const K = [5, 10, 15, 60, 75];
const onlyAt = process.argv.indexOf('--only');
const only = onlyAt > 0 ? process.argv[onlyAt + 1].split(',') : null;
const readJson = (file) => JSON.parse(readFileSync(new URL(file, here), 'utf8'));

// Each set: { key, title, data (servers), vectorsFile, ids (the vectors file's sets: name -> ids),
// sets: [{ name, vectors (the vectors file's set), queries: [{ text, row, needed }] }] }.
function npmSet() {
  const data = readJson('npm-servers.json');
  const { tasks } = readJson('npm-tasks.json');
  return {
    key: 'npm', data, vectorsFile: 'npm-vectors.bin',
    title: (tools) => `npm: ${data.servers.length} servers, ${tools} tools, ${tasks.length} tasks written here`,
    ids: { tasks: tasks.map((t) => t.id) },
    sets: (items) => [{ name: 'npm, tasks written here', vectors: 'tasks', queries: tasks.map((t, row) => ({ text: t.query, row, needed: items(t.gold) })) }],
  };
}

function liveSet() {
  const data = readJson('local/mcp-servers.json');
  const agentRows = data.tasks.flatMap((t) => t.agent_queries);
  return {
    key: 'livemcpbench', data, vectorsFile: 'local/mcp-vectors.bin',
    title: (tools) => `LiveMCPBench (local/): ${data.servers.length} servers, ${tools} tools, ${data.tasks.length} tasks`,
    ids: { tasks: data.tasks.map((t) => t.id), agent_queries: data.tasks.flatMap((t) => t.agent_queries.map((_, i) => `${t.id}#${i}`)) },
    sets: (items) => [
      { name: 'LiveMCPBench, tasks, annotators\' gold', vectors: 'tasks',
        queries: data.tasks.map((t, row) => ({ text: t.query, row, needed: items(t.gold.map((g) => g.tools)) })) },
      { name: 'LiveMCPBench, tasks, agent\'s gold', vectors: 'tasks',
        queries: data.tasks.map((t, row) => ({ text: t.query, row, needed: items(t.agent_calls.map((p) => [p])) })) },
      { name: 'LiveMCPBench, agent searches, next calls', vectors: 'agent_queries',
        queries: agentRows.map((q, row) => ({ text: q.query, row, needed: items(q.calls.map((p) => [p])) })) },
    ],
  };
}

function etomSet() {
  const data = readJson('local/etom.json');
  return {
    key: 'etom', data, vectorsFile: 'local/etom-vectors.bin',
    title: (tools) => `ETOM (local/): ${data.servers.length} servers, ${tools} tools, ${data.queries.length} queries`,
    ids: { queries: data.queries.map((q) => q.id) },
    sets: (items) => {
      const all = data.queries.map((q, row) => ({ text: q.query, row, level: q.level, needed: items(q.gold) }));
      const names = { 1: 'single tool', 2: 'equivalent tools', 3: 'steps on one server', 4: 'steps across servers' };
      const sets = [1, 2, 3, 4].map((level) => ({ name: `ETOM, level ${level}, ${names[level]}`, vectors: 'queries', queries: all.filter((q) => q.level === level) }));
      sets.push({ name: 'ETOM, levels 1-4', vectors: 'queries', queries: all.filter((q) => q.level <= 4) });
      return sets;
    },
  };
}

// The embeddings: one flat Float32Array per set of the file, vector i = int8 row i × scale i;
// null when the file is not there. Checked against the set's ids.
function loadVectors(file, toolIds, ids) {
  const url = new URL(file, here);
  if (!existsSync(url)) return null;
  const bytes = readFileSync(url);
  const nl = bytes.indexOf(10);
  const header = JSON.parse(bytes.subarray(0, nl).toString('utf8'));
  const d = header.dims;
  const out = { dims: d };
  let at = nl + 1;
  for (const set of header.sets) {
    const scales = new Float32Array(bytes.buffer.slice(bytes.byteOffset + at, bytes.byteOffset + at + set.count * 4));
    at += set.count * 4;
    const q = new Int8Array(bytes.buffer.slice(bytes.byteOffset + at, bytes.byteOffset + at + set.count * d));
    at += set.count * d;
    const flat = new Float32Array(set.count * d);
    for (let i = 0; i < set.count * d; i++) flat[i] = q[i] * scales[Math.floor(i / d)];
    out[set.name] = { ...set, flat };
  }
  if (at !== bytes.length) throw new Error(`${file}: size does not match its header`);
  for (const [name, list] of Object.entries({ tools: toolIds, ...ids })) {
    const s = out[name];
    if (!s || s.count !== list.length || s.first !== list[0] || s.last !== list.at(-1)) throw new Error(`${file} does not match the JSON (${name}): run embed.py again`);
  }
  return out;
}

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

const makers = [['npm', npmSet, 'npm-servers.json'], ['livemcpbench', liveSet, 'local/mcp-servers.json'], ['etom', etomSet, 'local/etom.json']];
const results = {};
for (const [key, make, file] of makers) {
  if (only && !only.includes(key)) continue;
  if (!existsSync(new URL(file, here))) {
    console.log(`## ${key}: ${file} is not there (derive it: README.md), skipped\n`);
    continue;
  }
  const spec = make();
  const { data } = spec;

  // The tools, named as the MCP adapter names them.
  const count = new Map();
  for (const s of data.servers) for (const t of s.tools) count.set(t.name, (count.get(t.name) ?? 0) + 1);
  const named = (server, tool) => (count.get(tool) > 1 ? `${server}__${tool}` : tool);
  const tools = data.servers.flatMap((s) => s.tools.map((t) => ({ ...t, name: named(s.name, t.name), server: s.name })));
  const items = (gold) => gold.map((alternatives) => alternatives.map(([s, n]) => named(s, n)));
  const sets = spec.sets(items).map((set) => ({ ...set, queries: set.queries.filter((q) => q.needed.length) }));
  const vectors = loadVectors(spec.vectorsFile, data.servers.flatMap((s) => s.tools.map((t) => `${s.name}/${t.name}`)), spec.ids);
  const row = (set, i) => vectors[set].flat.subarray(i * vectors.dims, (i + 1) * vectors.dims);

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

  console.log(`## ${spec.title(tools.length)}${vectors ? '' : ` (no ${spec.vectorsFile}: no e5-small rows)`}\n`);
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
