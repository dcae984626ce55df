// tool-palette/node (SPEC 9, "In Node.js, a folder of skills loads in one call"): the packed
// tarball installed in a consumer, readSkills and readSkillsSync through import and
// require(), on a folder laid out as .claude/skills is, and on hostile ones: a missing
// folder, a file where a folder is expected, symlinks (followed, dangling, looping, to a
// device), a named pipe, bytes that are not UTF-8, a BOM, huge files.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, join } from "node:path";
import { pathToFileURL } from "node:url";
import { bin, consumer, pack, run, workspace } from "./lib/harness.mjs";

let ws;
let dir;
let esm;
let cjs;
let tp;

before(
  async () => {
    ws = workspace();
    const { tarball } = await pack(ws.dir);
    dir = await consumer(ws.dir, "skills-folder", {
      type: "module",
      tarball,
      // import() written inside the consumer resolves there, as the consumer's own code would.
      files: { "load.mjs": { text: "export const load = (specifier) => import(specifier);\n" } },
    });
    const { load } = await import(pathToFileURL(join(dir, "load.mjs")).href);
    esm = await load("tool-palette/node");
    tp = await load("tool-palette");
    cjs = createRequire(join(dir, "package.json"))("tool-palette/node");
  },
  { timeout: 240_000 },
);
after(() => ws?.remove());

const md = (name, description, extra = "", body = `Instructions of ${name}.\n`) => `---\nname: ${name}\ndescription: ${description}\n${extra}---\n${body}`;
// A folder of skills under the workspace, from { "<path>": text | Buffer | { link } | { dir } }.
let folders = 0;
function folder(entries) {
  const root = join(ws.dir, `skills-${++folders}`);
  mkdirSync(root);
  for (const [path, what] of Object.entries(entries)) {
    const at = join(root, path);
    mkdirSync(join(at, ".."), { recursive: true });
    if (typeof what === "string" || Buffer.isBuffer(what)) writeFileSync(at, what);
    else if (what.link) symlinkSync(what.link, at);
    else if (what.dir) mkdirSync(at, { recursive: true });
    else if (what.fifo) execFileSync("mkfifo", [at]);
  }
  return root;
}

// Each way in: import and require(), the promise and the sync call; all four answer alike.
const WAYS = [
  ["import, readSkills", () => esm.readSkills],
  ["import, readSkillsSync", () => esm.readSkillsSync],
  ["require(), readSkills", () => cjs.readSkills],
  ["require(), readSkillsSync", () => cjs.readSkillsSync],
];
// What a call answers, or what it throws, as a promise either way.
const call = async (f, ...args) => f(...args);

test("the packed manifest exports tool-palette/node to Node.js only (the node condition), types first, with a require() twin, and types for node10 resolution", () => {
  const manifest = JSON.parse(readFileSync(join(dir, "node_modules", "tool-palette", "package.json"), "utf8"));
  // Under the node condition alone: a bundler for browsers or Workers finds no such subpath, rather than node:fs.
  assert.deepEqual(manifest.exports["./node"], {
    types: { require: "./node/index.d.cts", default: "./node/index.d.ts" },
    node: { import: "./node/index.js", require: "./node/index.cjs" },
  });
  assert.deepEqual(manifest.typesVersions["*"].node, ["./node/index.d.ts"]);
  for (const file of ["index.js", "index.cjs", "index.d.ts", "index.d.cts"]) readFileSync(join(dir, "node_modules", "tool-palette", "node", file));
  const twin = readFileSync(join(dir, "node_modules", "tool-palette", "node", "index.cjs"), "utf8");
  assert.match(twin, /require\("tool-palette"\)/, "the twin reaches the package by its name");
  assert.doesNotMatch(twin, /WebAssembly|tool_palette_bg/, "and bundles no copy of the core");
  assert.deepEqual(Object.keys(esm).sort(), ["readSkills", "readSkillsSync"]);
  assert.deepEqual(Object.keys(cjs).sort(), ["readSkills", "readSkillsSync"]);
});

test("a bundler for browsers or Workers does not resolve tool-palette/node (no node:fs in their bundles); for Node it does", async () => {
  writeFileSync(join(dir, "entry-node.mjs"), 'import { readSkills } from "tool-palette/node";\nconsole.log(typeof readSkills);\n');
  for (const platform of ["browser", "neutral"]) {
    const r = await run(bin("esbuild"), ["entry-node.mjs", "--bundle", `--platform=${platform}`, "--format=esm", "--outfile=out-skills.js", ...(platform === "neutral" ? ["--conditions=workerd"] : [])], { cwd: dir, allowFailure: true });
    assert.notEqual(r.code, 0, platform);
    assert.match(r.stderr, /Could not resolve "tool-palette\/node"/, platform);
  }
  await run(bin("esbuild"), ["entry-node.mjs", "--bundle", "--platform=node", "--format=esm", "--outfile=out-skills.mjs", "--log-level=warning"], { cwd: dir });
  const { stdout } = await run(process.execPath, ["out-skills.mjs"], { cwd: dir });
  assert.equal(stdout, "function\n");
});

describe("a folder laid out as .claude/skills", () => {
  let root;
  before(() => {
    root = folder({
      "zeta/SKILL.md": md("zeta", "Summarise long documents", "allowed-tools: Read Grep\n"),
      "alpha/SKILL.md": md("alpha", "Query the sales database", "allowed-tools: run_sql\n"),
      "Mixed/SKILL.md": md("Mixed", "A name with a capital"),
      "other/SKILL.md": md("renamed", "Its folder has another name"),
      "README.md": "not a skill\n",
      "empty": { dir: true },
      "assets/logo.txt": "a folder without SKILL.md",
      "nested/deeper/SKILL.md": md("deeper", "Two levels down: not the layout"),
      "linked": { link: "../shared-skill" },
      "dangling": { link: "../nowhere" },
      "../shared-skill/SKILL.md": md("linked", "A skill shared from outside, by a symlink"),
      "bom/SKILL.md": `\uFEFF${md("bom", "Saved with a byte order mark")}`,
      "crlf/SKILL.md": md("crlf", "Saved with CRLF line ends").replace(/\n/g, "\r\n"),
    });
  });

  for (const [way, f] of WAYS) {
    test(`${way}: each SKILL.md one level down, in the code-unit order of the folders, frozen; the rest skipped`, async () => {
      const skills = await call(f(), root);
      assert.deepEqual(skills.map((s) => s.name), ["Mixed", "alpha", "bom", "crlf", "linked", "renamed", "zeta"]);
      assert.ok(Object.isFrozen(skills) && skills.every((s) => Object.isFrozen(s)));
      assert.deepEqual(skills[1].allowedTools, [{ tool: "run_sql", scope: null }]);
      assert.equal(skills[1].body, "Instructions of alpha.\n");
      // parseSkill had the path: the folder is checked against the name.
      assert.match(skills.find((s) => s.name === "renamed").warnings.join("\n"), /differs from the skill's directory "other"/);
      assert.match(skills[0].warnings.join("\n"), /"Mixed" is not a valid name/);
      assert.equal(skills[2].description, "Saved with a byte order mark");
      assert.equal(skills[3].body, "Instructions of crlf.\r\n");
    });
  }

  test("a file: URL, and a path relative to the working folder, read the same folder", async () => {
    const names = (skills) => skills.map((s) => s.name);
    const want = names(esm.readSkillsSync(root));
    assert.deepEqual(names(await esm.readSkills(pathToFileURL(root))), want);
    assert.deepEqual(names(cjs.readSkillsSync(pathToFileURL(root))), want);
    const cwd = process.cwd();
    process.chdir(join(root, ".."));
    try {
      assert.deepEqual(names(await esm.readSkills(basename(root))), want);
      assert.deepEqual(names(cjs.readSkillsSync(`./${basename(root)}/`)), want);
    } finally {
      process.chdir(cwd);
    }
  });

  test("the skills build a SkillIndex that routes a turn to their tools", async () => {
    const skills = await esm.readSkills(root);
    const index = new tp.SkillIndex(skills, { tools: { Read: "read_file", Grep: "grep" } });
    const outcome = await tp.resolvePalette({ registered: ["read_file", "grep", "run_sql"], entries: () => index.entries("summarise this long document") });
    assert.deepEqual(outcome.names, ["read_file", "grep"]);
    assert.deepEqual(outcome.skills, ["zeta"]);
    assert.deepEqual(index.get("zeta"), skills.find((s) => s.name === "zeta"), "the index reads the skills as they were read");
  });

  test("an empty folder, and one of folders without a SKILL.md, give no skills", async () => {
    for (const [, f] of WAYS) {
      assert.deepEqual(await call(f(), folder({})), []);
      assert.deepEqual(await call(f(), folder({ "a/notes.md": "x", "b": { dir: true }, "c.md": md("c", "beside, not inside") })), []);
    }
  });
});

describe("hostile folders", () => {
  for (const [way, f] of WAYS) {
    test(`${way}: a missing folder, or a file where the folder is expected, is node:fs's error`, async () => {
      await assert.rejects(call(f(), join(ws.dir, "no-such-folder")), { code: "ENOENT" });
      const file = join(folder({ "x.md": "x" }), "x.md");
      await assert.rejects(call(f(), file), { code: "ENOTDIR" });
    });

    test(`${way}: a SKILL.md that does not parse throws its SyntaxError with the path; onError skips it and is told`, async () => {
      const root = folder({
        "a/SKILL.md": md("a", "Fine"),
        "b/SKILL.md": "no frontmatter here\n",
        "c/SKILL.md": "---\nname: c\ndescription: see: this\n---\n",
        "d/SKILL.md": md("d", "Fine too"),
      });
      await assert.rejects(call(f(), root), (e) => e instanceof SyntaxError && e.message.startsWith(`${join(root, "b", "SKILL.md")}: line 1: `));
      const told = [];
      const skills = await call(f(), root, { onError: (error, path) => told.push([error.name, path, error.message]) });
      assert.deepEqual(skills.map((s) => s.name), ["a", "d"]);
      assert.deepEqual(told.map(([name, path]) => [name, path]), [["SyntaxError", join(root, "b", "SKILL.md")], ["SyntaxError", join(root, "c", "SKILL.md")]]);
      assert.match(told[1][2], /line 3, field "description": an unquoted value cannot hold ": "/);
      // What onError throws is thrown.
      const stop = new Error("stop");
      await assert.rejects(call(f(), root, { onError: () => { throw stop; } }), (e) => e === stop);
    });

    test(`${way}: symlinks followed: a looping one, one to a device, and a SKILL.md that is a folder are refused, never read`, async () => {
      const root = folder({
        "ok/SKILL.md": md("ok", "Fine"),
        "loop/SKILL.md": { link: "SKILL.md" },
        "device/SKILL.md": { link: "/dev/zero" },
        "folder/SKILL.md": { dir: true },
      });
      const told = [];
      const skills = await call(f(), root, { onError: (error, path) => told.push([path.slice(root.length + 1), error.code ?? error.message]) });
      assert.deepEqual(skills.map((s) => s.name), ["ok"]);
      const notFile = (name) => `${join(root, name, "SKILL.md")} is not a file (a folder, a pipe or a device): a skill's SKILL.md is a file`;
      assert.deepEqual(told, [
        ["device/SKILL.md", notFile("device")],
        ["folder/SKILL.md", notFile("folder")],
        ["loop/SKILL.md", "ELOOP"],
      ]);
      await assert.rejects(call(f(), root), { message: notFile("device") });
    });

    test(`${way}: bytes that are not UTF-8 are a SyntaxError naming the line; a UTF-16 file says so`, async () => {
      const latin1 = Buffer.from(md("cafe", "Caf\u00e9 au lait"), "latin1");
      const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(md("wide", "Saved by a Windows editor"), "utf16le")]);
      const overlong = Buffer.concat([Buffer.from("---\nname: o\ndescription: "), Buffer.from([0xc0, 0xaf]), Buffer.from("\n---\n")]);
      const root = folder({ "cafe/SKILL.md": latin1, "overlong/SKILL.md": overlong, "wide/SKILL.md": utf16 });
      const told = [];
      assert.deepEqual(await call(f(), root, { onError: (e, path) => told.push([e.name, e.message.slice(path.length)]) }), []);
      assert.deepEqual(told, [
        ["SyntaxError", `: line 3: the text is not UTF-8 (byte ${latin1.indexOf(0xe9)} is not)`],
        ["SyntaxError", `: line 3: the text is not UTF-8 (byte ${overlong.indexOf(0xc0)} is not)`],
        ["SyntaxError", ": line 1: the text is not UTF-8 (byte 0 is not; it begins with a UTF-16 byte order mark)"],
      ]);
      // Valid UTF-8 of every length reads: two, three and four bytes, and a lone BOM before the frontmatter.
      const fine = folder({ "fine/SKILL.md": `\uFEFF${md("fine", "caf\u00e9 \u20ac \u{1F600}")}` });
      assert.equal((await call(f(), fine))[0].description, "caf\u00e9 \u20ac \u{1F600}");
    });

    test(`${way}: a huge SKILL.md: over 32 MiB refused unread, under it the core's own limit, each a RangeError with the path`, async () => {
      const root = folder({
        "a/SKILL.md": md("a", "Fine"),
        "huge/SKILL.md": md("huge", "Too large to read", "", "x".repeat(33 * 1024 * 1024)),
        "large/SKILL.md": md("large", "Too large for the core", "", "word ".repeat(2 * 1024 * 1024)),
      });
      const told = [];
      const t0 = performance.now();
      const skills = await call(f(), root, { onError: (e, path) => told.push([e.name, e.message.slice(path.length)]) });
      assert.deepEqual(skills.map((s) => s.name), ["a"]);
      assert.equal(told[0][0], "RangeError");
      assert.match(told[0][1], /^ is \d+ bytes: too large for a SKILL\.md \(refused unread above 33554432 bytes\)$/);
      assert.equal(told[1][0], "RangeError");
      assert.match(told[1][1], /^: parseSkill: text is too large: a call takes at most [\d,]+ names and ([\d,]+) code units of names$/);
      // The bound never refuses a text the core would read: its most code units, at 3 bytes of UTF-8 each, fit under it.
      const units = Number(/([\d,]+) code units/.exec(told[1][1])[1].replace(/,/g, ""));
      assert.ok(3 * units + 3 <= 32 * 1024 * 1024, `${units} code units of UTF-8 fit in 32 MiB`);
      assert.ok(performance.now() - t0 < 5000, "refused quickly");
      await assert.rejects(call(f(), root), { name: "RangeError", message: new RegExp(`^${join(root, "huge", "SKILL.md")} is `) });
    });

    test(`${way}: a folder holding a SKILL.md itself (a skill's folder, not the skills' folder) is a TypeError saying so`, async () => {
      const root = folder({ "SKILL.md": md("one", "A single skill"), "scripts/run.sh": "echo\n" });
      await assert.rejects(call(f(), root), { name: "TypeError", message: `${f().name}: dir (${root}) holds a SKILL.md itself: pass the folder that holds the skills' folders, each <name>/SKILL.md` });
    });

    test(`${way}: bad arguments are TypeErrors naming them`, async () => {
      const name = f().name;
      const root = folder({});
      const cases = [
        [[42], `${name}: dir must be a path (a non-empty string) or a file: URL, got number (42)`],
        [[""], `${name}: dir must be a path (a non-empty string) or a file: URL, got string`],
        [[undefined], `${name}: dir must be a path (a non-empty string) or a file: URL, got undefined`],
        [[new URL("https://example.com/skills")], `${name}: dir must be a path or a file: URL, got the URL https://example.com/skills`],
        [[root, 5], `${name}: options must be an object, got number (5)`],
        [[root, null], `${name}: options must be an object, got null`],
        [[root, { onError: "log" }], `${name}: options.onError must be a function, got string`],
        // A getter or proxy that throws: a TypeError naming what could not be read.
        [[root, { get onError() { throw new Error("boom"); } }], `${name}: options.onError could not be read`],
        [[{ get href() { throw new Error("boom"); } }], `${name}: dir.href could not be read`],
      ];
      for (const [args, message] of cases) await assert.rejects(call(f(), ...args), { name: "TypeError", message }, message);
    });
  }
});

// A SKILL.md that is a named pipe with no writer: opening it for reading would wait for
// one forever (and readSkillsSync would block the process), so each way runs in a child
// that must answer in time.
test("a SKILL.md that is a named pipe is refused at once, by every way in (each in a child process with a deadline)", async () => {
  const root = folder({ "ok/SKILL.md": md("ok", "Fine"), "pipe/SKILL.md": { fifo: true } });
  const script = (module, name) =>
    `const { ${name} } = ${module};\n` +
    `const told = [];\n` +
    `Promise.resolve(${name}(${JSON.stringify(root)}, { onError: (e, path) => told.push([path, e.message]) }))` +
    `.then((skills) => console.log(JSON.stringify({ skills: skills.map((s) => s.name), told })));\n`;
  const ways = [
    ["pipe-esm.mjs", script('await import("tool-palette/node")', "readSkills")],
    ["pipe-esm-sync.mjs", script('await import("tool-palette/node")', "readSkillsSync")],
    ["pipe-cjs.cjs", script('require("tool-palette/node")', "readSkills")],
    ["pipe-cjs-sync.cjs", script('require("tool-palette/node")', "readSkillsSync")],
  ];
  for (const [file, text] of ways) {
    writeFileSync(join(dir, file), text);
    const { stdout } = await run(process.execPath, [file], { cwd: dir, timeoutMs: 20_000 });
    const path = join(root, "pipe", "SKILL.md");
    assert.deepEqual(JSON.parse(stdout), { skills: ["ok"], told: [[path, `${path} is not a file (a folder, a pipe or a device): a skill's SKILL.md is a file`]] }, file);
  }
});

// Deno 2 and Bun 1 (the npm packages `deno` and `bun`) read the folder through their node:fs.
test("Deno and Bun: tool-palette/node reads the folder, skips what is no skill, reports what does not parse", async () => {
  const root = folder({ "b/SKILL.md": md("b", "Second"), "a/SKILL.md": md("a", "First", "allowed-tools: Read\n"), "c/SKILL.md": "not a skill", "notes.md": "x" });
  const body = (load) =>
    `${load}\nconst told = [];\n` +
    `const skills = await readSkills(${JSON.stringify(root)}, { onError: (e, path) => told.push([e.name, path]) });\n` +
    `console.log(JSON.stringify({ names: skills.map((s) => s.name), tools: skills[0].allowedTools, sync: readSkillsSync(${JSON.stringify(root)}, { onError: () => {} }).length, told }));\n`;
  writeFileSync(join(dir, "skills-esm.mjs"), body('import { readSkills, readSkillsSync } from "tool-palette/node";'));
  writeFileSync(join(dir, "skills-cjs.cjs"), `(async () => {\n${body('const { readSkills, readSkillsSync } = require("tool-palette/node");')}})();\n`);
  const want = { names: ["a", "b"], tools: [{ tool: "Read", scope: null }], sync: 2, told: [["SyntaxError", join(root, "c", "SKILL.md")]] };
  for (const [cmd, args] of [
    [bin("deno"), ["run", "--allow-read", "--allow-env", "skills-esm.mjs"]],
    [bin("bun"), ["skills-esm.mjs"]],
    [bin("bun"), ["skills-cjs.cjs"]],
  ]) {
    const { stdout } = await run(cmd, args, { cwd: dir });
    assert.deepEqual(JSON.parse(stdout), want, `${cmd} ${args.join(" ")}`);
  }
});

test("typed usage compiles under node16 resolution, from an ES module and from CommonJS", async () => {
  writeFileSync(join(dir, "usage.mts"), [
    'import { readSkills, readSkillsSync, type ReadSkillsOptions } from "tool-palette/node";',
    'import { SkillIndex, type Skill } from "tool-palette";',
    "const options: ReadSkillsOptions = { onError: (error, path: string) => void [error, path] };",
    'const skills: readonly Skill[] = await readSkills(".claude/skills", options);',
    'const again: readonly Skill[] = readSkillsSync({ href: "file:///skills", protocol: "file:" });',
    "new SkillIndex([...skills, ...again]);",
    "// @ts-expect-error: a path, not a number",
    "readSkillsSync(42);",
    "export {};",
  ].join("\n"));
  writeFileSync(join(dir, "usage.cts"), [
    'import { readSkillsSync } from "tool-palette/node";',
    'import type { Skill } from "tool-palette";',
    'const skills: readonly Skill[] = readSkillsSync("skills");',
    "// @ts-expect-error: onError is a function",
    'readSkillsSync("skills", { onError: 1 });',
    "export = skills;",
  ].join("\n"));
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions: { module: "node16", moduleResolution: "node16", target: "es2022", lib: ["es2022"], types: [], strict: true, noEmit: true, skipLibCheck: false, exactOptionalPropertyTypes: true }, files: ["usage.mts", "usage.cts"] }));
  await run(bin("tsc"), ["-p", "."], { cwd: dir });
});
