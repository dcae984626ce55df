// Every ```js / ```ts block of README.md and pkg-template/README.md that imports the
// package ("tool-palette" or a subpath, statically or with import()) compiles with tsc
// under `strict` against the built package's types (dist/, resolved through its exports
// map as a user's project resolves it), exactly as written: each block gets only a
// prelude declaring the free variables it uses (preludes.mjs), never an edit.
import { before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { PRELUDES } from "./preludes.mjs";

const ROOT = new URL("../..", import.meta.url).pathname.replace(/\/$/, "");
const DIST = process.env.TOOL_PALETTE_PACKAGE_DIR || join(ROOT, "dist");
// Inside the workspace, so that the frameworks a prelude imports resolve from its
// node_modules; tool-palette itself is linked to dist/ in the folder's own node_modules.
const WORK = join(ROOT, "target", "readme-blocks");
const READMES = ["README.md", "pkg-template/README.md"];

const IMPORTS_PACKAGE = /(?:from\s+|import\s*\(\s*)"tool-palette(?:\/[\w-]+)?"/;

// The fenced js/ts blocks of a README that import the package, with their line numbers.
function blocks(file) {
  const text = readFileSync(join(ROOT, file), "utf8");
  const found = [];
  for (const match of text.matchAll(/^```(js|ts|javascript|typescript)\n([\s\S]*?)^```$/gm)) {
    const code = match[2];
    if (!IMPORTS_PACKAGE.test(code)) continue;
    const line = text.slice(0, match.index).split("\n").length + 1;
    found.push({ file, line, code, first: code.split("\n").find((l) => l.trim() !== "") });
  }
  return found;
}

const all = READMES.flatMap(blocks);
let diagnostics;

before(() => {
  assert.ok(existsSync(join(DIST, "index.d.ts")), `no built package in ${DIST}: run \`npm run build\` first`);
  rmSync(WORK, { recursive: true, force: true });
  mkdirSync(join(WORK, "node_modules"), { recursive: true });
  symlinkSync(DIST, join(WORK, "node_modules", "tool-palette"), "dir");
  // A module per block: the prelude, then the block as written (its own line numbers
  // follow the prelude's, so errors map back to the README's lines).
  const files = [];
  for (const block of all) {
    const prelude = PRELUDES[block.first];
    if (prelude === undefined) continue;
    const name = `${block.file.replace(/[^\w]+/g, "_")}_${block.line}_${createHash("sha1").update(block.code).digest("hex").slice(0, 6)}.mts`;
    block.name = name;
    block.offset = prelude.split("\n").length + 2;
    writeFileSync(join(WORK, name), `${prelude}\n// ${block.file}:${block.line}\n${block.code}\nexport {};\n`);
    files.push(name);
  }
  // What a TypeScript project declares for the modules a block imports that are not code (the README says so).
  writeFileSync(join(WORK, "modules.d.ts"), 'declare module "*.snapshot" {\n  const bytes: ArrayBuffer;\n  export default bytes;\n}\n');
  files.push("modules.d.ts");
  writeFileSync(
    join(WORK, "tsconfig.json"),
    JSON.stringify(
      {
        compilerOptions: {
          target: "es2022",
          module: "esnext",
          moduleResolution: "bundler",
          lib: ["es2023", "dom"],
          strict: true,
          noEmit: true,
          // The frameworks' own declarations are theirs to check; the package's are
          // checked with skipLibCheck off by the types layer.
          skipLibCheck: true,
          types: [],
        },
        files,
      },
      null,
      2,
    ),
  );
  const tsc = spawnSync(process.execPath, [join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.json", "--pretty", "false"], {
    cwd: WORK,
    encoding: "utf8",
  });
  diagnostics = (tsc.stdout + tsc.stderr).split("\n").filter((l) => l.trim() !== "");
  if (tsc.status !== 0 && !diagnostics.some((l) => /\.mts\(\d+,\d+\): error/.test(l))) {
    throw new Error(`tsc failed without a diagnostic of a block:\n${diagnostics.join("\n")}`);
  }
});

test("the READMEs have code blocks that import the package", () => {
  for (const file of READMES) assert.ok(all.some((b) => b.file === file), `${file} has blocks importing tool-palette`);
});

for (const block of all) {
  test(`${block.file}:${block.line} (${block.first.trim()}) compiles under strict`, () => {
    assert.ok(PRELUDES[block.first] !== undefined, `tests/readme/preludes.mjs has no prelude for the block starting ${JSON.stringify(block.first)}`);
    const errors = diagnostics
      .filter((l) => l.startsWith(`${block.name}(`))
      .map((l) => {
        // file.mts(line,col): error … → README.md:line:col: error …
        const [, line, col, rest] = l.match(/^[^(]+\((\d+),(\d+)\): (.*)$/);
        const at = Number(line) - block.offset;
        return at >= 0 ? `${block.file}:${block.line + at}:${col}: ${rest}` : `prelude line ${line}: ${rest}`;
      });
    assert.deepStrictEqual(errors, [], `tsc --strict on ${relative(ROOT, join(WORK, block.name))}`);
  });
}

test("every prelude belongs to a block", () => {
  const firsts = new Set(all.map((b) => b.first));
  assert.deepStrictEqual(Object.keys(PRELUDES).filter((k) => !firsts.has(k)), [], "preludes of blocks no README has");
});
