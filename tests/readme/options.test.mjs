// The package README's options tables hold exactly the options of the published types: a
// documented option the types lack, or an option of the types no table documents, fails.
// Each table follows a marker `<!-- options: Interface … -->` naming the interfaces it
// documents (in dist/*.d.ts); every entry point's options interface has one.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";

const ROOT = new URL("../..", import.meta.url).pathname;
const DIST = process.env.TOOL_PALETTE_PACKAGE_DIR || join(ROOT, "dist");
const TYPES = ["index.d.ts", "adapters/ai-sdk.d.ts", "adapters/openai-agents.d.ts", "adapters/langchain.d.ts", "adapters/mcp.d.ts"].map((f) => join(DIST, f));
// resolvePalette, ToolRouter (and resolve), a policy and ToolPolicies, ToolIndex (and load),
// PaletteRun, the three adapters and the MCP palette.
const REQUIRED = [
  "ResolvePaletteOptions", "ToolRouterOptions", "ResolveOptions", "ToolCallPolicySpec", "ToolPoliciesOptions", "ToolIndexOptions",
  "PaletteRunOptions", "AiSdkPaletteOptions", "OpenAIAgentsPaletteOptions", "LangChainPaletteOptions", "McpPaletteOptions",
];

/** The tables of a README: for each marker, the interfaces it names and the option names of its rows. */
export function tables(text) {
  const out = [];
  for (const m of text.matchAll(/<!-- options: ([\w ]+) -->\n((?:\|.*\n?)+)/g)) {
    const rows = m[2].split("\n").filter((l) => l.startsWith("| `"));
    out.push({ interfaces: m[1].trim().split(/\s+/), options: rows.map((l) => l.match(/^\| `([^`]+)`/)[1]) });
  }
  return out;
}

/** The property names of each exported interface of the published types. */
function interfaces() {
  const program = ts.createProgram(TYPES, { strict: true, skipLibCheck: true, noEmit: true });
  const checker = program.getTypeChecker();
  const found = new Map();
  for (const file of TYPES) {
    ts.forEachChild(program.getSourceFile(file), (node) => {
      if (ts.isInterfaceDeclaration(node)) found.set(node.name.text, checker.getPropertiesOfType(checker.getTypeAtLocation(node)).map((p) => p.name));
    });
  }
  return found;
}

test("every options table of the package README matches its interfaces, and every entry point has one", () => {
  const readme = readFileSync(join(ROOT, "pkg-template/README.md"), "utf8");
  const found = tables(readme);
  const types = interfaces();
  assert.deepEqual(REQUIRED.filter((i) => !found.some((t) => t.interfaces.includes(i))), [], "entry points without an options table");
  for (const { interfaces: names, options } of found) {
    const all = new Set();
    for (const name of names) {
      assert.ok(types.has(name), `${name}: no such interface in the published types`);
      const props = types.get(name);
      props.forEach((p) => all.add(p));
      assert.deepEqual(props.filter((p) => !options.includes(p)), [], `${name}: options the table does not document`);
    }
    assert.deepEqual(options.filter((o) => !all.has(o)), [], `${names.join(", ")}: documented options the types lack`);
    assert.equal(new Set(options).size, options.length, `${names.join(", ")}: an option documented twice`);
  }
});

test("the check fails on a drift (a row removed, a row added)", () => {
  const readme = readFileSync(join(ROOT, "pkg-template/README.md"), "utf8");
  const [first] = tables(readme);
  const removed = tables(readme.replace(/(<!-- options: ResolvePaletteOptions -->\n(?:\|.*\n){2})\|.*\n/, "$1"));
  assert.equal(removed[0].options.length, first.options.length - 1);
  const types = interfaces();
  assert.ok(types.get("ResolvePaletteOptions").some((p) => !removed[0].options.includes(p)));
});
