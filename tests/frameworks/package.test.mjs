// The adapters as the packed package ships them: subpath exports with types first, no
// dependency on any framework nor on a particular entry of the package, require() twins,
// and declarations that type-check against the frameworks' own types.
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { cpSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { consumer, root } from "./consumer.mjs";

const ADAPTERS = ["ai-sdk", "openai-agents", "langchain", "mcp", "providers"];
let c, pkgDir, manifest;
before(async () => {
  c = await consumer();
  pkgDir = join(c.dir, "node_modules", "tool-palette");
  manifest = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8"));
});

test("the packed manifest exports each adapter, types first, and depends on no framework", () => {
  for (const name of ADAPTERS) {
    const entry = manifest.exports[`./${name}`];
    assert.ok(entry, `exports["./${name}"]`);
    assert.equal(Object.keys(entry)[0], "types");
    assert.deepEqual(entry, {
      types: { require: `./adapters/${name}.d.cts`, default: `./adapters/${name}.d.ts` },
      import: `./adapters/${name}.js`,
      require: `./adapters/${name}.cjs`,
    });
    for (const file of [entry.types.require, entry.types.default, entry.import, entry.require]) {
      assert.doesNotThrow(() => readFileSync(join(pkgDir, file)), file);
    }
  }
  for (const field of ["dependencies", "peerDependencies", "optionalDependencies"]) {
    for (const dep of Object.keys(manifest[field] ?? {})) {
      assert.doesNotMatch(dep, /^(ai|@ai-sdk\/.*|@openai\/.*|openai|@anthropic-ai\/.*|@google\/genai|langchain|@langchain\/.*|zod|@modelcontextprotocol\/.*)$/, `${field} must not name ${dep}`);
    }
  }
});

test("the adapters import nothing but their own helpers and the package itself (no framework, no wasm), and the CommonJS twins leave the package external", () => {
  const dir = join(pkgDir, "adapters");
  // The adapter kernel (kernel/*.js) and an adapter's own parts (tool-palette/mcp's mcp/*.js) are held to the same imports.
  const parts = ["kernel", "mcp"].flatMap((sub) => readdirSync(join(dir, sub)).map((f) => `${sub}/${f}`));
  assert.ok(parts.some((f) => f.startsWith("mcp/")) && parts.some((f) => f.startsWith("kernel/")), "the kernel and tool-palette/mcp's parts ship");
  for (const file of [...readdirSync(dir), ...parts].filter((f) => /\.(c?js)$/.test(f))) {
    const source = readFileSync(join(dir, file), "utf8");
    const specifiers = [...source.matchAll(/^\s*(?:import|export)\s[^;]*?\bfrom\s+"([^"]+)"|\bimport\(\s*"([^"]+)"|\brequire\(\s*"([^"]+)"/gm)].map((m) => m[1] ?? m[2] ?? m[3]);
    // A self-reference: the host's own instance of the package, through its exports map.
    // ../deliver.js: the one warning delivery, which routing.js and policies.js share (it imports nothing).
    // ../wire.js: the core's generated tables (imports nothing), the option values the kernel reads against.
    // ../values.js: the facade's readers of the caller's values and its options' rules (imports nothing).
    // Relative to adapters/: the kernel's files, deliver.js, wire.js and values.js (the package's) and mcp.js's parts.
    const own = (s) => join("adapters", file, "..", s);
    const allowed = new Set(["deliver.js", "wire.js", "values.js", ...parts.map((f) => `adapters/${f}`)]);
    assert.deepEqual(specifiers.filter((s) => s !== "tool-palette" && !(s.startsWith(".") && allowed.has(own(s)))), [], `${file} imports ${specifiers}`);
    if (file.endsWith(".cjs")) {
      // (tool-palette/providers only shapes a step's lists: it needs nothing of the package.)
      if (file !== "providers.cjs") assert.ok(specifiers.includes("tool-palette"), `${file} requires the package`);
      assert.doesNotMatch(source, /__wbg|tool_palette_bg\.wasm|WebAssembly/, `${file} bundles no copy of the core`);
    }
  }
  for (const f of ["deliver.js", "wire.js", "values.js"]) assert.doesNotMatch(readFileSync(join(pkgDir, f), "utf8"), /^\s*import\b|\bimport\(|\brequire\(/m, `${f} imports nothing`);
  const kernel = readFileSync(join(dir, "kernel", "core.js"), "utf8");
  assert.match(kernel, /^import \{ activeTools, bindPalette \} from "tool-palette";$/m);
  assert.match(kernel, /^import \{ CACHES \} from "\.\.\/\.\.\/wire\.js";$/m, "the cache strategies are the core's table, not a copy");
  assert.match(readFileSync(join(pkgDir, "adapters/kernel/values.js"), "utf8"), /^import \{ LONGEST_TIMER \} from "\.\.\/\.\.\/wire\.js";$/m, "the longest timer is the core's constant, not a copy");
  assert.doesNotMatch(readFileSync(join(pkgDir, "adapters/kernel/values.js"), "utf8"), /2 \*\* 31|2147483647/, "no copy of the timer limit");
});

test("a rule is written once: the core's option rules are not copied into the adapters, and each kernel rule lives in the kernel alone", () => {
  const dir = join(pkgDir, "adapters");
  const files = ["", "kernel", "mcp"].flatMap((sub) => readdirSync(join(dir, sub)).filter((f) => f.endsWith(".js")).map((f) => (sub ? `${sub}/${f}` : f)));
  const source = (f) => readFileSync(join(dir, f), "utf8");
  assert.ok(files.includes("mcp.js") && files.includes("kernel/core.js"), files.join());
  // tool-palette/mcp's limit, waits and skillIndex are checked by the facade's rules (values.js `checked`, `strings`): no copy of their rules or words,
  // and no throwaway SkillIndex built to check options.
  for (const f of files) assert.doesNotMatch(source(f), /0xffffffff|4294967295|2 \*\* 32|a positive integer|a record of tool names or a function|a finite number >= 0 \(or Infinity\)/, `${f} copies an option rule of the core`);
  assert.match(source("mcp.js"), /checked\(limit, "limit",/, "tool-palette/mcp's limit is read by the facade's rule");
  assert.match(source("mcp/skills.js"), /checked\(skillIndex\.tools, "mapping",/, "tool-palette/mcp's skillIndex.tools is read by the facade's rule");
  assert.doesNotMatch(source("mcp.js"), /new SkillIndex\(/, "tool-palette/mcp checks its options without a throwaway SkillIndex");
  const rules = readFileSync(join(pkgDir, "values.js"), "utf8");
  for (const words of ["a positive integer", "a finite number >= 0 (or Infinity)", "a record of tool names or a function", "an iterable of strings"]) assert.equal(rules.split(words).length, 2, `values.js words "${words}" once`);
  // The facade's own readers are values.js's: host.js re-exports them, writing none of its own.
  assert.doesNotMatch(readFileSync(new URL("../../src/js/host.js", import.meta.url), "utf8"), /function describe|const mustBe|RULES = /, "host.js copies values.js's readers");
  // The policies' model of an enforced step is chosen by the kernel's Step (policyModel), not by each adapter.
  for (const f of files.filter((f) => f !== "kernel/core.js")) assert.doesNotMatch(source(f), /selection\??\.model\b/, `${f} picks the policies' model itself`);
  // The user message that carries a skill's instructions is made in kernel/skills.js alone.
  for (const f of files.filter((f) => f !== "kernel/skills.js")) assert.doesNotMatch(source(f), /role: "user", content: text/, `${f} makes its own instructions message`);
  // The rule of a tool name option (search_tools, load_skill) and the values of outsidePalette, in kernel/core.js alone (tool-palette/mcp reads them there).
  for (const [rule, pattern] of [["a tool name option", /a tool name or false/g], ["outsidePalette", /"refuse", "allow"/g]]) {
    const at = files.filter((f) => (source(f).match(pattern) ?? []).length > 0);
    assert.deepEqual(at, ["kernel/core.js"], `the ${rule} rule is written in ${at.join(", ")}`);
    assert.equal(source("kernel/core.js").match(pattern).length, 1, `the ${rule} rule is written once in kernel/core.js`);
  }
});

test("an adapter resolves the package to the host's own instance: node.mjs for import, node.cjs for require", async () => {
  // A probe beside the adapters resolves "tool-palette" as the kernel does.
  const probe = join(pkgDir, "adapters", "__probe.mjs");
  writeFileSync(probe, 'export const url = import.meta.resolve("tool-palette");\n');
  try {
    const { url } = await import(pathToFileURL(probe).href);
    assert.equal(url, pathToFileURL(join(pkgDir, "node.mjs")).href);
  } finally {
    rmSync(probe, { force: true });
  }
  const twin = createRequire(join(pkgDir, "adapters", "langchain.cjs"));
  assert.equal(twin.resolve("tool-palette"), c.require.resolve("tool-palette"));
  assert.equal(c.require.resolve("tool-palette"), join(pkgDir, "node.cjs"));
  // The files a build step copies to self-host (the CDN file, the module) resolve by name.
  for (const file of ["tool-palette.iife.js", "tool_palette_bg.wasm"]) assert.equal(c.require.resolve(`tool-palette/${file}`), join(pkgDir, file));
});

test("require() twins export the same functions as the ES modules", async () => {
  for (const name of ADAPTERS) {
    const esm = await c.load(`tool-palette/${name}`);
    const cjs = c.require(`tool-palette/${name}`);
    assert.deepEqual(Object.keys(cjs).sort(), Object.keys(esm).sort(), name);
    assert.ok(Object.keys(esm).length >= 1, `${name} exports something`);
  }
});

// The READMEs' framework snippets, verbatim, each in a module that declares its free
// variables with the frameworks' own types: strict TypeScript must accept them.
const PREAMBLES = {
  "ai-sdk": `import { generateText, stepCountIs, type LanguageModel, type ToolSet } from "ai";
import { ToolPolicies, ToolRouter } from "tool-palette";
declare const router: ToolRouter;
declare const policies: ToolPolicies<{ message: string }, LanguageModel>;
declare const model: LanguageModel;
declare const prompt: string;
declare const tools: ToolSet;`,
  "openai-agents": `import { Agent, run, type Model, type Tool } from "@openai/agents";
import { ToolPolicies, ToolRouter } from "tool-palette";
declare const router: ToolRouter;
declare const policies: ToolPolicies<{ message: string }, Model>;
declare const defaultModel: Model;
declare const tools: Tool[];
declare const message: string;`,
  langchain: `import { createAgent, HumanMessage, tool } from "langchain";
import { ToolPolicies, ToolRouter } from "tool-palette";
declare const router: ToolRouter;
declare const policies: ToolPolicies<{ message: string }>;
declare const model: string;
declare const tools: ReturnType<typeof tool>[];
declare const message: string;`,
  report: `import { createToolPalette } from "tool-palette/ai-sdk";
import { ToolPolicies, ToolRouter } from "tool-palette";
declare const router: ToolRouter;
declare const policies: ToolPolicies<{ message: string }>;`,
};

function readmeModules() {
  const files = {};
  for (const [which, path] of [["pkg", join(pkgDir, "README.md")], ["repo", join(root, "README.md")]]) {
    const readme = readFileSync(path, "utf8");
    const start = readme.indexOf("## Agent frameworks");
    const end = readme.indexOf("\n## ", start + 1);
    const section = readme.slice(start, end < 0 ? undefined : end);
    for (const [i, m] of [...section.matchAll(/```js\n([\s\S]*?)```/g)].entries()) {
      const code = m[1];
      const kind = code.match(/from "tool-palette\/([a-z-]+)"/)?.[1] ?? (code.includes("onDecision") ? "report" : null);
      assert.ok(kind, `README (${which}) block ${i} is a framework snippet or the report snippet`);
      files[`readme-${which}-${i}-${kind}.mts`] = `${PREAMBLES[kind]}\n${code}\nexport {};\n`;
    }
  }
  return files;
}

test("the declarations type-check against the frameworks' types, and accept the READMEs' snippets (tsc, node16, strict)", async () => {
  const dir = join(c.dir, "types-check");
  rmSync(dir, { recursive: true, force: true });
  cpSync(new URL("./types", import.meta.url).pathname, dir, { recursive: true });
  const snippets = readmeModules();
  assert.ok(Object.keys(snippets).length >= 8);
  for (const [name, source] of Object.entries(snippets)) writeFileSync(join(dir, name), source);
  const tsc = join(root, "node_modules", "typescript", "bin", "tsc");
  const result = await promisify(execFile)(process.execPath, [tsc, "-p", dir], { cwd: c.dir, timeout: 120_000 }).catch((e) => e);
  assert.equal(result.code ?? 0, 0, `tsc failed:\n${result.stdout}${result.stderr}`);
});

test("tool-palette/mcp's own size limit (a tool definition as JSON, a server's SKILL.md) is written once: the types and the README state the code's number", async () => {
  const { MAX_DEFINITION } = await import(pathToFileURL(join(pkgDir, "adapters", "mcp", "listing.js")).href);
  const stated = MAX_DEFINITION.toLocaleString("en-US");
  assert.match(readFileSync(join(pkgDir, "adapters", "mcp.d.ts"), "utf8"), new RegExp(`a definition of more than ${stated} code units as JSON`));
  const readme = readFileSync(join(pkgDir, "README.md"), "utf8").replace(/\s+/g, " ");
  assert.match(readme, new RegExp(`a definition of more than ${stated} code units as JSON`));
  assert.match(readme, new RegExp(`larger than ${stated} bytes`));
});

test("a redirect to no tool is worded once: in the kernel's dispatch, not by each adapter", () => {
  const dir = join(pkgDir, "adapters");
  const files = ["", "kernel", "mcp"].flatMap((sub) => readdirSync(join(dir, sub)).filter((f) => f.endsWith(".js")).map((f) => (sub ? `${sub}/${f}` : f)));
  const at = files.filter((f) => /was redirected to "\$\{/.test(readFileSync(join(dir, f), "utf8")));
  assert.deepEqual(at, ["kernel/core.js"]);
});
