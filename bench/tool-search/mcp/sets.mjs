// The multi-server MCP sets (README.md): the npm set (committed, always there), LiveMCPBench and
// ETOM (derived into the git-ignored local/ folder, when they are there), each with its tools
// named as the package's MCP adapter names them, its query sets and their needed tools, and its
// e5-small vectors when the set's vectors file is there. Read by baseline.mjs (reference
// rankers) and entries.mjs (search against entries, servers as namespaces).
import { existsSync, readFileSync } from 'node:fs';

const here = new URL('.', import.meta.url);
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
export function loadVectors(file, toolIds, ids) {
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

export const MAKERS = [['npm', npmSet, 'npm-servers.json'], ['livemcpbench', liveSet, 'local/mcp-servers.json'], ['etom', etomSet, 'local/etom.json']];

/**
 * Every set present (or those `only` names): { key, title, tools ({ name, description,
 * inputSchema, server }, named as the MCP adapter names them), sets (query sets, queries without
 * a needed tool left out), vectors (or null), row(set, i) (query or tool i's vector) }, and the
 * files not found: `missing`.
 */
export function mcpSets(only = null) {
  const out = [];
  const missing = [];
  for (const [key, make, file] of MAKERS) {
    if (only && !only.includes(key)) continue;
    if (!existsSync(new URL(file, here))) {
      missing.push({ key, file });
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
    out.push({ key, title: spec.title(tools.length), servers: data.servers.length, vectorsFile: spec.vectorsFile, tools, sets, vectors, row });
  }
  return { sets: out, missing };
}
