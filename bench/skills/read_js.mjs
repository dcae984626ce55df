// Reads SKILL.md frontmatters with the JavaScript YAML parsers the hosts use; a helper of
// read_hosts.py.  stdin: one JSON object a line, {"id", "fm", "text"}; stdout: one line each,
// {"id", "<parser>": {"value": ..} | {"error": ".."}, ...}.
// Under Node.js: yaml (eemeli), js-yaml 4, gray-matter 4 (js-yaml 3 inside; given the whole
// text, as Mastra gives it).  Under Bun: Bun.YAML.parse (what Claude Code's reports show).
// Module resolution: NODE_PATH, or a node_modules beside the working directory.
import { createRequire } from "node:module";
import { createInterface } from "node:readline";
import path from "node:path";

const require = createRequire(path.join(process.env.SKILLS_JS_MODULES || process.cwd(), "noop.js"));
const isBun = typeof Bun !== "undefined";
const parsers = {};
if (isBun) {
  parsers["bun-yaml"] = (r) => Bun.YAML.parse(r.fm);
} else {
  const YAML = require("yaml");
  const jsyaml4 = require("js-yaml4");
  const matter = require("gray-matter");
  parsers["yaml"] = (r) => YAML.parse(r.fm);
  parsers["js-yaml"] = (r) => jsyaml4.load(r.fm);
  parsers["gray-matter"] = (r) => {
    // gray-matter caches by input string; a fresh copy of the options each call avoids that
    const m = matter(r.text, { engines: { js: () => { throw new Error("js frontmatter refused"); } } });
    return { data: m.data, content: m.content, empty: m.isEmpty === true };
  };
}

function jsonable(v) {
  return JSON.parse(JSON.stringify(v, (k, x) => {
    if (typeof x === "bigint") return Number(x);
    if (x instanceof Map) return Object.fromEntries(x);
    if (x instanceof Set) return [...x];
    if (typeof x === "number" && !Number.isFinite(x)) return String(x);
    return x;
  }) ?? "null");
}

const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of rl) {
  if (!line) continue;
  const r = JSON.parse(line);
  const out = { id: r.id };
  for (const [name, fn] of Object.entries(parsers)) {
    try {
      out[name] = { value: jsonable(fn(r)) };
    } catch (e) {
      out[name] = { error: String(e && e.message || e).split("\n")[0].slice(0, 300) };
    }
  }
  process.stdout.write(JSON.stringify(out) + "\n");
}
