// What routing saves, in tokens: on the BFCL live pool (bfcl-live.json, 528 tools, 1,351
// questions), the tool-definition tokens a model is offered per turn (each tool as the
// Chat Completions function definition JSON, counted with gpt-tokenizer's o200k_base
// encoding) by a ToolRouter over a ToolIndex at limits 3, 5 and 10, against offering every
// tool, beside the recall of the needed tools among what was offered; the same for the AI
// SDK's toolSearch default scorer (what its search tool would reveal; nothing on a miss).
// And the MCP adapter's per-turn overhead beside one listTools / callTool round trip of the
// official SDK over InMemoryTransport.
//
//   npm run build && node bench/tool-search/tokens.mjs      (npm run bench prints it too)
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { z } from "zod";
import { pathToFileURL } from "node:url";
import { resolve } from "node:path";
import * as pkg from "../../dist/node.mjs";
import { createMcpPalette } from "../../dist/adapters/mcp.js";
import { aiSdk, data } from "./compare.mjs";

export const LIMITS = [3, 5, 10];
export const definition = (t) => JSON.stringify({ type: "function", function: { name: t.name, description: t.description ?? "", parameters: t.parameters ?? {} } });

/** Tokens offered per turn and recall of the needed tools, per limit, for the router and the AI SDK scorer. */
export async function tokenTable({ tools = data.tools, questions = data.questions } = {}) {
  const cost = new Map(tools.map((t) => [t.name, encode(definition(t)).length]));
  const all = [...cost.values()].reduce((a, b) => a + b, 0);
  const names = tools.map((t) => t.name);
  const index = new pkg.ToolIndex(tools);
  const search = aiSdk.rank(tools);
  const rows = [{ name: "every tool, every turn", limit: null, tokens: all, recall: 1, refused: 0 }];
  for (const limit of LIMITS) {
    // The router: ToolIndex rows for the turn's message; a miss is a refusal (every tool).
    const router = new pkg.ToolRouter({ entries: (ctx) => index.search(ctx.message, { limit }).map((h) => ({ tool: h.name })), registered: names });
    let tokens = 0, recall = 0, refused = 0;
    for (const q of questions) {
      const outcome = await router.resolve({ context: { message: q.query } });
      const offered = outcome.kind === "routed" ? outcome.names : names;
      if (outcome.kind !== "routed") refused++;
      tokens += offered.reduce((s, n) => s + cost.get(n), 0);
      const set = new Set(offered);
      recall += q.expected.filter((n) => set.has(n)).length / q.expected.length;
    }
    rows.push({ name: "ToolRouter over a ToolIndex", limit, tokens: tokens / questions.length, recall: recall / questions.length, refused: refused / questions.length });
    router.dispose();
    // The AI SDK's toolSearch: the model sees what its default scorer found (none on a miss).
    let sdkTokens = 0, sdkRecall = 0, missed = 0;
    for (const q of questions) {
      const found = search(q.query, limit);
      if (found.length === 0) missed++;
      sdkTokens += found.reduce((s, n) => s + cost.get(n), 0);
      const set = new Set(found);
      sdkRecall += q.expected.filter((n) => set.has(n)).length / q.expected.length;
    }
    rows.push({ name: "AI SDK 7 toolSearch (default scorer)", limit, tokens: sdkTokens / questions.length, recall: sdkRecall / questions.length, refused: missed / questions.length });
  }
  index.dispose();
  return { tools: tools.length, questions: questions.length, all, rows };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
async function timeEach(n, fn) {
  for (let i = 0; i < Math.min(20, n); i++) await fn(i); // warm-up
  const out = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn(i);
    out.push((performance.now() - t0) * 1000);
  }
  return median(out);
}

/** The MCP adapter's per-turn overhead (route(), callTool's part) beside SDK round trips over InMemoryTransport. */
export async function mcpOverhead({ runs = 300 } = {}) {
  // Three servers of the BFCL pool's tools (176 each), as in tests/frameworks/mcp.test.mjs.
  const clients = {};
  const pools = [data.tools.slice(0, 176), data.tools.slice(176, 352), data.tools.slice(352)];
  for (const [i, pool] of pools.entries()) {
    const server = new McpServer({ name: `s${i}`, version: "1.0.0" });
    for (const t of pool) server.registerTool(t.name, { description: t.description, inputSchema: { input: z.string().optional() } }, async () => ({ content: [{ type: "text", text: "ok" }] }));
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(b);
    clients[`s${i}`] = new Client({ name: "bench", version: "1.0.0" });
    await clients[`s${i}`].connect(a);
  }
  const palette = createMcpPalette({ servers: clients });
  await palette.refresh();
  const questions = data.questions.map((q) => q.query);
  const run = palette.run();
  const routeUs = await timeEach(runs, (i) => run.route(questions[i % questions.length]));
  const target = (await palette.tools())[0];
  const where = await palette.locate(target.name);
  const first = clients[where.server];
  const listUs = await timeEach(runs, () => first.listTools());
  const all = palette.run();
  await all.route("zzzz qqqq"); // a refusal: every tool offered, so the call passes the gate
  // The SDK's callTool and the palette's, interleaved so that both see the same machine.
  const pairs = [];
  for (let i = 0; i < runs + 20; i++) {
    let t0 = performance.now();
    await first.callTool({ name: where.name, arguments: {} });
    const raw = (performance.now() - t0) * 1000;
    t0 = performance.now();
    await all.callTool({ name: target.name, arguments: {} });
    if (i >= 20) pairs.push([raw, (performance.now() - t0) * 1000]);
  }
  const callUs = median(pairs.map((p) => p[0]));
  const paletteCallUs = median(pairs.map((p) => p[1]));
  palette.dispose();
  for (const c of Object.values(clients)) await c.close();
  return { servers: 3, tools: data.tools.length, routeUs, listUs, callUs, paletteCallUs, callOverheadUs: paletteCallUs - callUs };
}

const us = (x) => (x >= 1000 ? `${(x / 1000).toFixed(2)} ms` : `${x.toFixed(1)} µs`);

/** The README lines of both measurements. */
export function markdown(t, m) {
  return [
    `Tool-definition tokens offered per turn on BFCL live (${t.tools} tools, ${t.questions} questions; each tool as its Chat Completions function JSON, o200k_base tokens via gpt-tokenizer; bench/tool-search/tokens.mjs). A router offers every tool when its search misses (a refusal, "miss" below); the AI SDK's toolSearch then reveals nothing:`,
    "",
    "| what the model is offered | limit | tokens per turn | recall of the needed tools | miss |",
    "|---|---:|---:|---:|---:|",
    ...t.rows.map((r) => `| ${r.name} | ${r.limit ?? "all"} | ${Math.round(r.tokens).toLocaleString("en")} | ${r.recall.toFixed(3)} | ${r.limit === null ? "" : `${(r.refused * 100).toFixed(1)}%`} |`),
    "",
    `MCP adapter over ${m.servers} SDK servers (${m.tools} tools, InMemoryTransport), medians: a turn's \`route()\` ${us(m.routeUs)}; \`callTool\` through the palette ${us(m.paletteCallUs)} against the SDK's own \`callTool\` ${us(m.callUs)} (difference ${m.callOverheadUs >= 0 ? "+" : "-"}${us(Math.abs(m.callOverheadUs))}${Math.abs(m.callOverheadUs) < 0.1 * m.callUs ? ", within the noise" : ""}); one \`listTools\` round trip ${us(m.listUs)}.`,
  ];
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const t = await tokenTable();
  const m = await mcpOverhead();
  console.log(markdown(t, m).join("\n"));
}
