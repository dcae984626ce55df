// The package README's tables hold exactly what the published types declare: a documented
// name the types lack, or a name of the types no table documents, fails. Each checked table
// follows a marker naming the interfaces it documents (in dist/*.d.ts):
//   <!-- options: A B … -->   an options table (option | type | default | what it does, every
//                             cell filled); its rows are the union of the interfaces' options
//   <!-- fields: A -->        a table whose first column is A's fields
//   <!-- members: x=A y=B --> a table of calls such as `await x.name(…)` and `y.name`: A's
//                             members are the `x.` rows, B's the `y.` rows
// Every entry point's options interface (REQUIRED) has an options table.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";

const ROOT = new URL("../..", import.meta.url).pathname;
const DIST = process.env.TOOL_PALETTE_PACKAGE_DIR || join(ROOT, "dist");
const README = join(ROOT, "pkg-template/README.md");
const TYPES = ["index.d.ts", "adapters/ai-sdk.d.ts", "adapters/openai-agents.d.ts", "adapters/langchain.d.ts", "adapters/mcp.d.ts"].map((f) => join(DIST, f));
// The entry points' options, each with the call it configures: resolvePalette, ToolRouter
// (and resolve), a policy and ToolPolicies, ToolIndex (and load), PaletteRun, the three
// adapters and the MCP palette. A new entry point adds its interface here.
export const REQUIRED = {
  ResolvePaletteOptions: "resolvePalette(options)",
  ToolRouterOptions: "new ToolRouter(options)",
  ResolveOptions: "router.resolve(options)",
  ToolCallPolicySpec: "new ToolCallPolicy(spec)",
  ToolPoliciesOptions: "new ToolPolicies(policies, options)",
  ToolIndexOptions: "new ToolIndex(tools, options)",
  ToolIndexLoadOptions: "ToolIndex.load(bytes or source, options)",
  PaletteRunOptions: "new PaletteRun(options)",
  SkillIndexOptions: "new SkillIndex(skills, options)",
  AiSdkPaletteOptions: "createToolPalette(options) of tool-palette/ai-sdk",
  OpenAIAgentsPaletteOptions: "createToolPalette(options) of tool-palette/openai-agents",
  LangChainPaletteOptions: "toolPaletteMiddleware(options) of tool-palette/langchain",
  McpPaletteOptions: "createMcpPalette(options) of tool-palette/mcp",
};

const cells = (row) => row.split(/(?<!\\)\|/).slice(1, -1).map((c) => c.trim());

/** The checked tables of a README: kind, line, groups of { interfaces, names } and rows. */
export function tables(text) {
  const out = [];
  for (const m of text.matchAll(/<!-- (options|fields|members): ([\w= ]+) -->\n((?:\|.*\n?)+)/g)) {
    const [, kind, list] = m;
    const rows = m[3].split("\n").filter((l) => l.startsWith("|")).slice(2);
    const first = rows.map((r) => cells(r)[0] ?? "");
    const line = text.slice(0, m.index).split("\n").length;
    let groups;
    if (kind === "members") {
      groups = list.trim().split(/\s+/).map((pair) => {
        const [prefix, name] = pair.split("=");
        const names = first.flatMap((c) => [...c.matchAll(new RegExp(`^\`(?:await )?${prefix}\\.(\\w+)`, "g"))].map((x) => x[1]));
        return { interfaces: [name], names };
      });
    } else {
      groups = [{ interfaces: list.trim().split(/\s+/), names: first.map((c) => c.match(/^`([^`]+)`$/)?.[1] ?? c) }];
    }
    out.push({ kind, line, groups, rows });
  }
  return out;
}

/** The property names of each exported interface of the published types. */
export function interfaces() {
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

/** What a README's tables and the types disagree on, one line each ([] when they agree). */
export function findings(text, types) {
  const out = [];
  const found = tables(text);
  for (const [name, call] of Object.entries(REQUIRED)) {
    if (!found.some((t) => t.kind === "options" && t.groups.some((g) => g.interfaces.includes(name)))) out.push(`${name} (${call}): no options table`);
  }
  for (const { kind, line, groups, rows } of found) {
    const where = `README line ${line}`;
    if (kind === "options") {
      for (const row of rows) {
        const c = cells(row);
        if (c.length !== 4 || c.some((x) => x === "")) out.push(`${where}: a row without its four cells (option, type, default, what it does): ${row}`);
      }
    }
    for (const { interfaces: names, names: documented } of groups) {
      const all = new Set();
      for (const name of names) {
        if (!types.has(name)) {
          out.push(`${where}: ${name}: no such interface in the published types`);
          continue;
        }
        const props = types.get(name);
        props.forEach((p) => all.add(p));
        const missing = props.filter((p) => !documented.includes(p));
        if (missing.length) out.push(`${where}: ${name}: not documented: ${missing.join(", ")}`);
      }
      const extra = documented.filter((o) => !all.has(o));
      if (extra.length) out.push(`${where}: ${names.join(", ")}: documented, but not in the types: ${extra.join(", ")}`);
      const twice = documented.filter((o, i) => documented.indexOf(o) !== i);
      if (twice.length) out.push(`${where}: ${names.join(", ")}: documented twice: ${twice.join(", ")}`);
    }
  }
  return out;
}

test("every table of the package README matches its interfaces, and every entry point has an options table", () => {
  const readme = readFileSync(README, "utf8");
  assert.ok(tables(readme).length >= Object.keys(REQUIRED).length - 2, "the README's checked tables were not found");
  assert.deepEqual(findings(readme, interfaces()), []);
});

test("the check fails on a drift: a row removed, a row the types lack, an empty cell, a member or a table gone", () => {
  const readme = readFileSync(README, "utf8");
  const types = interfaces();
  const drift = (from, to) => {
    assert.ok(readme.includes(from), `the README no longer has ${from}`);
    return findings(readme.replace(from, to), types);
  };
  // Exactly these findings, in order.
  const one = (list, ...patterns) => assert.ok(list.length === patterns.length && patterns.every((p, i) => p.test(list[i])), list.join("\n"));
  one(drift(/\n\| `countTokens` \|.*/.exec(readme)[0], ""), /McpPaletteOptions: not documented: countTokens$/);
  one(drift("| `limit` | `number` | 5 | Tools routed", "| `limits` | `number` | 5 | Tools routed"), /McpPaletteOptions: not documented: limit$/, /McpPaletteOptions: documented, but not in the types: limits$/);
  const row = "\n| `bogus` | `number` | none | Nothing. |";
  one(drift("<!-- options: PaletteRunOptions -->\n| option | type | default | what it does |\n|---|---|---|---|", `<!-- options: PaletteRunOptions -->\n| option | type | default | what it does |\n|---|---|---|---|${row}`), /PaletteRunOptions: documented, but not in the types: bogus$/);
  one(drift(/\| `timeoutMs` \| `number` \| no budget \| [^|]+\|/.exec(readme)[0], "| `timeoutMs` | `number` | no budget |  |"), /a row without its four cells/);
  one(drift(/\n\| `run\.found` \|.*/.exec(readme)[0], ""), /McpRun: not documented: found$/);
  one(drift(/\n\| `ctx` \|.*/.exec(readme)[0], ""), /McpTurn: not documented: ctx$/);
  one(drift("<!-- options: ToolPoliciesOptions -->", ""), /^ToolPoliciesOptions \(new ToolPolicies\(policies, options\)\): no options table$/);
});
