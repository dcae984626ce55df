// Counts the source of each area: non-blank lines, those that are not only a comment, and
// the characters of the non-blank lines (trimmed), so that joining lines shows as joining.
//
//   node scripts/lines.mjs                 the working tree
//   node scripts/lines.mjs 24dd0d3         a commit (read with git, nothing checked out)
//   node scripts/lines.mjs 24dd0d3 HEAD    both, side by side, with the change
//   node scripts/lines.mjs 24dd0d3 HEAD --with 599e191,9e460b9
//                                          the same features: the first column gains what each named commit (a feature added after it) added
//                                          to each area, measured from its parent to it
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

const root = new URL("..", import.meta.url).pathname;

// The areas: a name, the folder, and which of its files count.
const AREAS = [
  ["adapters (JS)", "pkg-template/adapters", /\.js$/],
  ["adapters (types)", "pkg-template/adapters", /\.d\.ts$/],
  ["binding facade (src/js/*.js)", "src/js", /\.js$/],
  ["core (src/*.rs, src/*/…, not src/js)", "src", /\.rs$/, /^js\//],
];

// The files of `dir` at `rev` (or in the working tree) as [path, text].
function filesOf(dir, rev) {
  if (rev) {
    const names = execFileSync("git", ["ls-tree", "-r", "--name-only", rev, "--", dir], { cwd: root, encoding: "utf8" }).split("\n").filter(Boolean);
    return names.map((path) => [relative(dir, path), execFileSync("git", ["show", `${rev}:${path}`], { cwd: root, encoding: "utf8", maxBuffer: 1 << 26 })]);
  }
  const out = [];
  const walk = (at) => {
    for (const name of readdirSync(join(root, at))) {
      const path = join(at, name);
      if (statSync(join(root, path)).isDirectory()) walk(path);
      else out.push([relative(dir, path), readFileSync(join(root, path), "utf8")]);
    }
  };
  walk(dir);
  return out;
}

// Non-blank lines, lines that hold code (not only a comment), characters of the non-blank lines trimmed.
function count(text) {
  let lines = 0, code = 0, chars = 0, inBlock = false;
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line === "") continue;
    lines++;
    chars += line.length;
    if (inBlock) {
      if (line.includes("*/")) inBlock = false;
      continue;
    }
    if (line.startsWith("//")) continue;
    if (line.startsWith("/*")) {
      inBlock = !line.includes("*/");
      continue;
    }
    code++;
  }
  return { lines, code, chars };
}

function measure(rev) {
  const rows = [];
  for (const [name, dir, pattern, except] of AREAS) {
    const files = filesOf(dir, rev).filter(([path]) => pattern.test(path) && !(except && except.test(path)) && !(pattern.source === "\\.js$" && path.endsWith(".d.ts")));
    const perFile = files.map(([path, text]) => ({ path, ...count(text) }));
    const total = perFile.reduce((t, f) => ({ lines: t.lines + f.lines, code: t.code + f.code, chars: t.chars + f.chars }), { lines: 0, code: 0, chars: 0 });
    rows.push({ name, dir, total, perFile });
  }
  return rows;
}

const args = process.argv.slice(2);
const withAt = args.indexOf("--with");
const features = withAt < 0 ? [] : (args[withAt + 1] ?? "").split(",").filter(Boolean);
if (withAt >= 0 && features.length === 0) throw new Error("--with needs the commits that added features, comma-separated");
const revs = withAt < 0 ? args : [...args.slice(0, withAt), ...args.slice(withAt + 2)];
const label = (rev) => rev ?? "working tree";
const fmt = (n) => n.toLocaleString("en-US");
const change = (a, b) => (a === 0 ? "" : `${b >= a ? "+" : ""}${(((b - a) / a) * 100).toFixed(1)}%`);

if (revs.length < 2) {
  const rev = revs[0];
  console.log(`Source lines at ${label(rev)} (non-blank / code, not only a comment / characters of the non-blank lines)\n`);
  for (const area of measure(rev)) {
    console.log(`${area.name}: ${fmt(area.total.lines)} / ${fmt(area.total.code)} / ${fmt(area.total.chars)}`);
    if (area.dir === "pkg-template/adapters") for (const f of area.perFile) console.log(`  ${f.path.padEnd(28)} ${String(f.lines).padStart(5)} ${String(f.code).padStart(5)} ${String(f.chars).padStart(7)}`);
  }
} else {
  const [a, b] = revs.map((rev) => measure(rev === "." ? undefined : rev));
  for (const commit of features) {
    const [before, after] = [measure(`${commit}^`), measure(commit)];
    a.forEach((area, i) => {
      for (const key of ["lines", "code", "chars"]) area.total[key] += after[i].total[key] - before[i].total[key];
    });
  }
  console.log(`| area | ${[label(revs[0]), ...features].join(" + ")} | ${revs[1] === "." ? "working tree" : revs[1]} | change |`);
  console.log("|---|---:|---:|---:|");
  for (let i = 0; i < a.length; i++) {
    for (const [key, what] of [["lines", "non-blank lines"], ["code", "code lines"], ["chars", "characters"]]) {
      console.log(`| ${a[i].name}, ${what} | ${fmt(a[i].total[key])} | ${fmt(b[i].total[key])} | ${change(a[i].total[key], b[i].total[key])} |`);
    }
  }
}
