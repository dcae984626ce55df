// Issue 40's measurements (SPEC 9), for `npm run bench` (and `--skills` alone):
// - parsing: parseSkill against what each host reads (bench/skills/readings-*.json: the
//   hosts' own YAML readers run on every file, HOSTS.md), the share reproduced and the
//   share of YAML rejections that are a SyntaxError, and files per millisecond;
// - retrieval on SkillsBench (bench/skills/local/, built by its scripts: not committed, see
//   README.md there), lexical, embedding alone and hybrid, against BM25;
// - tokens per turn: every skill's name and description listed (the hosts' way) against the
//   routed skills' instructions;
// - a turn's `entries` over 200 skills.
import { existsSync, readFileSync } from "node:fs";
import { encode } from "gpt-tokenizer/encoding/o200k_base";

const here = (f) => new URL(f, import.meta.url);
const json = (f) => JSON.parse(readFileSync(here(f), "utf8"));
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

// ---------------------------------------------------------------- parsing

const YAML_ERROR = /yaml|gray-matter/i;

// One corpus (texts and readings): per host, what it reads (name and description, its YAML
// read) and what it refuses for YAML that is not YAML 1.2 (npm yaml refuses it too), against
// parseSkill. A refusal by a host's own rules (a name format, strictyaml's flow style…) is
// counted apart.
function agreement(tp, corpus, readings) {
  const texts = new Map(corpus.map((f) => [f.id, f]));
  const hosts = {};
  let other = 0;
  const failures = [];
  const ours = new Map();
  for (const r of readings.files) {
    const file = texts.get(r.id);
    if (!file) continue;
    let skill, error;
    try {
      skill = tp.parseSkill(file.text, { path: file.path });
    } catch (e) {
      error = e;
      if (!(e instanceof SyntaxError)) other++, failures.push(`${r.id}: ${e}`);
    }
    ours.set(r.id, skill);
    // (The file has no name or description, or one that is not a string: hosts that name
    // the skill after its folder, or make a string of it, load it; SPEC 9 refuses it.)
    const nameless = error instanceof SyntaxError && / field "(name|description)": (the frontmatter lacks this field|this field must be a string)/.test(error.message);
    for (const [host, h] of Object.entries(r.hosts)) {
      const s = (hosts[host] ??= { read: 0, same: 0, rejected: 0, refused: 0, policy: 0, nameless: 0, differs: [] });
      if (h.loads && !h.note && nameless) s.nameless++;
      else if (h.loads && !h.note) {
        s.read++;
        // What the host reads, as it presents it (trimmed; Codex collapses white space); a
        // host that reports neither is compared on loading alone.
        const shown = host === "codex" ? (t) => t.split(/\s+/).filter(Boolean).join(" ") : (t) => t.trim();
        const same = !("name" in h) ? skill !== undefined : skill && shown(skill.name) === shown(String(h.name)) && shown(skill.description) === shown(String(h.description));
        if (same) s.same++;
        else if (s.differs.length < 3) s.differs.push(r.id);
      } else if (YAML_ERROR.test(h.why ?? h.note ?? "") && r.parsers?.yaml?.error !== undefined) {
        s.rejected++;
        if (error instanceof SyntaxError) s.refused++;
      } else s.policy++;
    }
  }
  // The whole frontmatter against npm yaml's reading (Cloudflare's parser), where it reads one.
  let yamlRead = 0, yamlSame = 0;
  for (const r of readings.files) {
    const value = r.parsers?.yaml?.value;
    const skill = ours.get(r.id);
    if (value === undefined || typeof value !== "object" || value === null || !("name" in value)) continue;
    if (typeof value.name !== "string" || typeof value.description !== "string") continue;
    yamlRead++;
    if (skill && JSON.stringify(skill.frontmatter) === JSON.stringify(value)) yamlSame++;
  }
  return { files: readings.files.length, hosts, other, failures, yamlRead, yamlSame };
}

function speed(tp, texts) {
  const rounds = [];
  for (let r = 0; r < 5; r++) {
    const t = performance.now();
    for (const text of texts) try { tp.parseSkill(text); } catch {}
    rounds.push(texts.length / (performance.now() - t));
  }
  return median(rounds);
}

export function parsing(tp) {
  const corpora = [["registry (npm, PyPI; committed)", "corpus-registry.json", "readings-registry.json"]];
  if (existsSync(here("local/corpus-github.json"))) corpora.push(["GitHub (local/)", "local/corpus-github.json", "local/readings-github.json"]);
  const edge = json("edge-cases.json");
  const sets = corpora.map(([name, corpus, readings]) => {
    const c = json(corpus);
    const rows = Array.isArray(c) ? c : c.files;
    return { name, ...agreement(tp, rows, json(readings)), perMs: speed(tp, rows.map((f) => f.text)) };
  });
  const edgeRows = Array.isArray(edge) ? edge : edge.files ?? edge.cases;
  sets.push({ name: "40 edge cases (hand-written)", ...agreement(tp, edgeRows, json("readings-edge-cases.json")) });
  return sets;
}

// ---------------------------------------------------------------- SkillsBench

// bench/tool-search/embed.py's format: a JSON header line, then per set its scales and int8 rows,
// each row as a `Vector` (fusion-sets.mjs reads them as Float64Array).
export function vectorSets(bytes, Vector = Float32Array) {
  const nl = bytes.indexOf(10);
  const head = JSON.parse(bytes.subarray(0, nl).toString("utf8"));
  let at = nl + 1;
  const sets = {};
  for (const s of head.sets) {
    const scales = new Float32Array(bytes.buffer.slice(bytes.byteOffset + at, bytes.byteOffset + at + 4 * s.count));
    at += 4 * s.count;
    sets[s.name] = Array.from({ length: s.count }, (_, i) => {
      const v = new Vector(head.dims);
      for (let j = 0; j < head.dims; j++) v[j] = ((bytes[at + i * head.dims + j] << 24) >> 24) * scales[i];
      return v;
    });
    at += s.count * head.dims;
  }
  return { dims: head.dims, model: head.model, sets };
}

// The share of a task's gold skills among the first k, averaged (the anchors' definition),
// and NDCG@10.
function metrics(tasks, rank) {
  let r3 = 0, r5 = 0, ndcg = 0;
  for (const task of tasks) {
    const top = rank(task);
    const gold = new Set(task.gold);
    const share = (k) => top.slice(0, k).filter((id) => gold.has(id)).length / gold.size;
    r3 += share(3), r5 += share(5);
    const dcg = top.slice(0, 10).reduce((s, id, i) => s + (gold.has(id) ? 1 / Math.log2(i + 2) : 0), 0);
    const ideal = [...Array(Math.min(gold.size, 10)).keys()].reduce((s, i) => s + 1 / Math.log2(i + 2), 0);
    ndcg += dcg / ideal;
  }
  const n = tasks.length;
  return { "r@3": r3 / n, "r@5": r5 / n, "ndcg@10": ndcg / n };
}

// BM25Okapi as rank_bm25 0.2.2 (k1 1.5, b 0.75, its idf floor), over lower-cased [a-z0-9]+
// words minus agentskills-retrieval's 35 stop words: the anchors' recipe (anchors.py).
const STOP = new Set("a an and are as at be by for from how in into is it of on or that the this to use used using was what when where which who why with you your".split(" "));
const words = (text) => (text.toLowerCase().match(/[a-z0-9]+/g) ?? []).filter((w) => !STOP.has(w));
function bm25(docs) {
  const toks = docs.map(words);
  const avg = toks.reduce((s, t) => s + t.length, 0) / toks.length;
  const df = new Map();
  const tfs = toks.map((t) => {
    const tf = new Map();
    for (const w of t) tf.set(w, (tf.get(w) ?? 0) + 1);
    for (const w of tf.keys()) df.set(w, (df.get(w) ?? 0) + 1);
    return tf;
  });
  const n = docs.length;
  const idf = new Map();
  let sum = 0, negatives = [];
  for (const [w, d] of df) {
    const v = Math.log(n - d + 0.5) - Math.log(d + 0.5);
    idf.set(w, v), (sum += v);
    if (v < 0) negatives.push(w);
  }
  const eps = 0.25 * (sum / idf.size);
  for (const w of negatives) idf.set(w, eps);
  return (query) => {
    const q = words(query);
    return tfs.map((tf, i) => q.reduce((s, w) => {
      const f = tf.get(w) ?? 0;
      return s + (idf.get(w) ?? 0) * (f * 2.5) / (f + 1.5 * (0.25 + 0.75 * toks[i].length / avg));
    }, 0));
  };
}

const ranked = (scores, ids) => scores.map((s, i) => [s, i]).sort((a, b) => b[0] - a[0] || a[1] - b[1]).slice(0, 10).map(([, i]) => ids[i]);
const dot = (a, b) => { let s = 0; for (let i = 0; i < a.length; i++) s += a[i] * b[i]; return s; };

export async function skillsBench(tp) {
  const file = here("local/skillsbench-full.json");
  if (!existsSync(file) || !existsSync(here("local/skillsbench-vectors.bin"))) return { missing: "bench/skills/local/skillsbench-full.json and skillsbench-vectors.bin (built by bench/skills/derive_skillsbench.py and embed_skills.py from a copy of SkillsBench: see bench/skills/README.md; fetched data is not committed)" };
  const d = JSON.parse(readFileSync(file, "utf8"));
  const { sets, model } = vectorSets(readFileSync(here("local/skillsbench-vectors.bin")));
  const skills = d.skills.map((s) => `---\nname: ${JSON.stringify(s.name)}\ndescription: ${JSON.stringify(s.description ?? "")}\n---\n${s.body ?? ""}`);
  const ids = d.skills.map((s) => s.id);
  // (Skills of one name with different texts carry ids -1, -2: indexed by id.)
  const texts = d.skills.map((s, i) => skills[i].replace(/^---\nname: [^\n]*/, `---\nname: ${JSON.stringify(s.id)}`));
  const lexical = new tp.SkillIndex(texts);
  const rows = [];
  const query = (t, i) => t.query;
  rows.push({ name: "SkillIndex, lexical (name, description, body)", ...metrics(d.tasks, (t) => lexical.search(query(t), { limit: 10 }).map((h) => h.name)) });
  const plain = bm25(d.skills.map((s) => `${s.name} ${s.description ?? ""} ${s.body ?? ""}`));
  rows.push({ name: "BM25 over name + description + body (the issue's anchor)", ...metrics(d.tasks, (t) => ranked(plain(t.query), ids)) });
  const short = bm25(d.skills.map((s) => `${s.name} ${s.description ?? ""}`));
  rows.push({ name: "BM25 over name + description", ...metrics(d.tasks, (t) => ranked(short(t.query), ids)) });
  const taskVectors = new Map(d.tasks.map((t, i) => [t, sets.tasks[i]]));
  for (const [set, label] of [["skills_nd", "name: description"], ["skills_ndb", "name: description + body"]]) {
    const v = sets[set];
    rows.push({ name: `${model.split(" ")[0]} alone (cosine; ${label})`, ...metrics(d.tasks, (t) => ranked(v.map((x) => dot(x, taskVectors.get(t))), ids)) });
    const hybrid = new tp.SkillIndex(texts, { vectors: v });
    rows.push({ name: `SkillIndex, hybrid (${label} vectors)`, ...metrics(d.tasks, (t) => hybrid.search(t.query, { limit: 10, vector: taskVectors.get(t) }).map((h) => h.name)) });
    // What no fusion can pass by choosing: per task the better first three of the lexical
    // ranking and the embedding's (an oracle that knows the gold).
    rows.push({ name: `oracle: the better of lexical and ${label} cosine per task`, ...metrics(d.tasks, (t) => {
      const gold = new Set(t.gold);
      const [l, e] = [lexical.search(t.query, { limit: 10 }).map((h) => h.name), ranked(v.map((x) => dot(x, taskVectors.get(t))), ids)];
      const hits = (r) => r.slice(0, 3).filter((id) => gold.has(id)).length;
      return hits(e) > hits(l) ? e : l;
    }) });
    hybrid.dispose();
  }
  // Tokens per turn: every skill listed as hosts list them (name and description, one line
  // each), against the instructions (bodies) of the skills a turn routes (entries, limit 3).
  const listing = d.skills.map((s) => `- ${s.name}: ${s.description ?? ""}`).join("\n");
  const listed = encode(listing).length;
  const bodies = new Map(d.skills.map((s) => [s.id, encode(s.body ?? "").length]));
  const routed = d.tasks.map((t) => [...new Set(lexical.entries(t.query).map((r) => r.skill))].reduce((s, id) => s + bodies.get(id), 0));
  const routedSkills = d.tasks.map((t) => new Set(lexical.entries(t.query).map((r) => r.skill)).size);
  lexical.dispose();
  return { skills: d.skills.length, tasks: d.tasks.length, withheld: d.skills.filter((s) => s.withheld).length, model, rows, tokens: { listed, routedMean: routed.reduce((a, b) => a + b, 0) / routed.length, routedMedian: median(routed), skillsPerTurn: routedSkills.reduce((a, b) => a + b, 0) / routedSkills.length } };
}

// A turn's entries over 200 of the registry corpus's skills, for queries made of other
// skills' descriptions: the median time, in ms.
export function entriesTime(tp) {
  const corpus = json("corpus-registry.json");
  const rows = Array.isArray(corpus) ? corpus : corpus.files;
  const texts = [], names = new Set();
  for (const f of rows) {
    try {
      const s = tp.parseSkill(f.text);
      if (!names.has(s.name)) names.add(s.name), texts.push(f.text);
    } catch {}
    if (texts.length === 200) break;
  }
  const index = new tp.SkillIndex(texts);
  const queries = rows.slice(-100).map((f) => f.text.slice(0, 400));
  for (const q of queries) index.entries(q);
  const times = [];
  for (let r = 0; r < 5; r++) {
    const t = performance.now();
    for (const q of queries) index.entries(q);
    times.push((performance.now() - t) / queries.length);
  }
  index.dispose();
  return { skills: texts.length, ms: median(times) };
}

// parseSkill on hostile frontmatters of many fields (top level, nested, one flow mapping):
// the median of 3 times at 20,000 and 200,000 fields, and their ratio (linear: about 10).
export function fieldsScaling(tp) {
  const text = (n, mode) => {
    const fields = Array.from({ length: n }, (_, i) => `${mode === "nested" ? "  " : ""}k${i}: v`);
    const body = mode === "flow" ? `metadata: {${fields.join(", ")}}` : `${mode === "nested" ? "metadata:\n" : ""}${fields.join("\n")}`;
    return `---\nname: x\ndescription: d\n${body}\n---\n`;
  };
  const time = (t) => median([0, 1, 2].map(() => ((t0) => (tp.parseSkill(t), performance.now() - t0))(performance.now())));
  return ["top", "nested", "flow"].map((mode) => {
    const [small, large] = [20_000, 200_000].map((n) => time(text(n, mode)));
    return { mode, small, large, ratio: large / small };
  });
}

export function lines({ parsing, bench, entries, fields = [] }) {
  const out = ["Skills (SPEC 9): parseSkill against the hosts' readings (bench/skills/HOSTS.md; each host's own YAML reader run on each file):"];
  for (const s of parsing) {
    out.push(`  ${s.name}: ${s.files} files${s.perMs ? `, ${s.perMs.toFixed(0)} files/ms` : ""}; errors other than SyntaxError: ${s.other}; whole frontmatter equal to npm yaml's on ${s.yamlSame}/${s.yamlRead}`);
    for (const [host, h] of Object.entries(s.hosts)) out.push(`    ${host.padEnd(18)} reads ${String(h.read).padStart(4)}, reproduced ${h.read ? ((100 * h.same) / h.read).toFixed(1) : "-"}%${h.differs.length ? ` (differ: ${h.differs.join(", ")})` : ""}; refuses ${h.rejected} for its YAML, SyntaxError on ${h.refused}; refuses ${h.policy} by its own rules${h.nameless ? `; reads ${h.nameless} without a string name or description its own way (a folder's name, a string made of a list; SPEC 9: a SyntaxError)` : ""}`);
  }
  if (bench.missing) out.push(`  SkillsBench: not run: ${bench.missing}`);
  else {
    out.push(`  SkillsBench (${bench.tasks} tasks, ${bench.skills} skills; the task's instruction is the query):`);
    for (const r of bench.rows) out.push(`    ${r.name.padEnd(58)} R@3 ${r["r@3"].toFixed(3)}  R@5 ${r["r@5"].toFixed(3)}  NDCG@10 ${r["ndcg@10"].toFixed(3)}`);
    out.push(`    tokens per turn: every skill listed ${bench.tokens.listed}; the routed skills' instructions ${bench.tokens.routedMean.toFixed(0)} on average (median ${bench.tokens.routedMedian}, ${bench.tokens.skillsPerTurn.toFixed(2)} skills a turn)`);
  }
  out.push(`  a turn's entries over ${entries.skills} skills: ${entries.ms.toFixed(3)} ms`);
  for (const f of fields) out.push(`  parseSkill, ${f.mode} fields: 20,000 in ${f.small.toFixed(0)} ms, 200,000 in ${f.large.toFixed(0)} ms (${f.ratio.toFixed(1)}x for 10x the fields)`);
  return out;
}

// The issue's musts on this run.
export function musts({ parsing, bench, entries, fields = [] }) {
  const list = [];
  for (const s of parsing.filter((s) => !s.name.startsWith("40"))) {
    const worst = Math.min(...Object.values(s.hosts).filter((h) => h.read > 0).map((h) => h.same / h.read));
    list.push([worst >= 0.99, `${s.name}: every host's readings reproduced on >= 99%`, `${(100 * worst).toFixed(1)}%`]);
    const refused = Object.values(s.hosts).every((h) => h.refused === h.rejected);
    list.push([refused && s.other === 0, `${s.name}: a SyntaxError for each file a host refuses for its YAML, no other error`, `${s.other} other errors`]);
  }
  if (!bench.missing) {
    const r3 = (name) => bench.rows.find((r) => r.name.startsWith(name))["r@3"];
    const lexical = r3("SkillIndex, lexical");
    list.push([lexical >= 0.704, "SkillsBench lexical R@3 >= 0.704", lexical.toFixed(3)]);
    for (const label of ["name: description", "name: description + body"]) {
      const hybrid = r3(`SkillIndex, hybrid (${label}`);
      const alone = bench.rows.find((r) => r.name.includes(`alone (cosine; ${label})`))["r@3"];
      const need = Math.max(lexical, alone) + 0.03;
      list.push([hybrid >= need, `SkillsBench hybrid R@3 (${label} vectors) >= best alone + 0.03 (${need.toFixed(3)})`, hybrid.toFixed(3)]);
    }
  }
  list.push([entries.ms <= 1, `a turn's entries on ${entries.skills} skills <= 1 ms`, `${entries.ms.toFixed(3)} ms`]);
  // A hostile SKILL.md of many fields stays linear (it was quadratic: 32,000 fields took 8 s).
  for (const f of fields) list.push([f.ratio <= 20, `parseSkill linear in ${f.mode} fields (200,000 vs 20,000: <= 20x)`, `${f.ratio.toFixed(1)}x`]);
  return list.map(([ok, what, got]) => ({ ok, what, got }));
}

// The README's section (between the bench markers).
export function markdown(r) {
  const out = [
    "Skills (SPEC 9; bench/skills/). `parseSkill` against what each host reads: each host's own YAML reader and loading rules run on every file (bench/skills/HOSTS.md, readings-*.json): of the files a host reads, the share whose name and description parseSkill reads as the host does; of those it refuses for YAML that is not YAML 1.2 (npm yaml refuses it too), the share that is a SyntaxError here:",
    "",
    "| corpus | host | reads | reproduced | refuses (YAML) | SyntaxError | refuses by its own rules | reads its own way (SPEC 9: a SyntaxError) |",
    "|---|---|---:|---:|---:|---:|---:|---:|",
  ];
  for (const s of r.parsing) for (const [host, h] of Object.entries(s.hosts)) out.push(`| ${s.name} | ${host} | ${h.read} | ${h.read ? ((100 * h.same) / h.read).toFixed(1) + "%" : "-"} | ${h.rejected} | ${h.refused} | ${h.policy} | ${h.nameless} |`);
  out.push("", `Whole frontmatters equal to npm yaml's reading: ${r.parsing.map((s) => `${s.name} ${s.yamlSame}/${s.yamlRead}`).join("; ")}. Errors other than SyntaxError: ${r.parsing.reduce((n, s) => n + s.other, 0)}. Files parsed per millisecond: ${r.parsing.filter((s) => s.perMs).map((s) => `${s.name} ${s.perMs.toFixed(0)}`).join("; ")}.`, "");
  if (r.bench.missing) out.push(`SkillsBench: not run here (${r.bench.missing}).`);
  else {
    out.push(`Retrieval on SkillsBench (${r.bench.tasks} tasks, ${r.bench.skills} skills; the task's instruction is the query; R@k the share of a task's gold skills among the first k):`, "", "| ranker | R@3 | R@5 | NDCG@10 |", "|---|---:|---:|---:|");
    for (const x of r.bench.rows) out.push(`| ${x.name} | ${x["r@3"].toFixed(3)} | ${x["r@5"].toFixed(3)} | ${x["ndcg@10"].toFixed(3)} |`);
    out.push("", `Tokens per turn (o200k_base): every skill's name and description listed, as hosts do, ${r.bench.tokens.listed}; the instructions of the skills a turn routes (entries, ${r.bench.tokens.skillsPerTurn.toFixed(2)} skills a turn) ${r.bench.tokens.routedMean.toFixed(0)} on average.`);
  }
  out.push("", `A turn's entries over ${r.entries.skills} skills: ${r.entries.ms.toFixed(3)} ms. The issue's musts, on this run: ${r.musts.map((m) => `${m.ok ? "met" : "**missed**"}: ${m.what} (${m.got})`).join("; ")}.`);
  return out;
}
