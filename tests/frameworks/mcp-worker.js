// A Worker that runs tool-palette/mcp over two SDK servers connected by InMemoryTransport, inside
// workerd (tests/frameworks/mcp-worker.test.mjs bundles it with esbuild from the framework consumer).
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { z } from "zod";
import { createMcpPalette } from "tool-palette/mcp";

async function connect(name, tools) {
  const server = new McpServer({ name, version: "1.0.0" });
  for (const [tool, description] of tools) {
    server.registerTool(tool, { description, inputSchema: { target: z.string() } }, async ({ target }) => ({ content: [{ type: "text", text: `${name}/${tool}(${target})` }] }));
  }
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(b);
  const client = new Client({ name: "worker", version: "1.0.0" });
  await client.connect(a);
  return client;
}

export default {
  async fetch() {
    const github = await connect("github", [["create_issue", "Create an issue in a repository"], ["close_issue", "Close an issue"], ["search", "Search code"]]);
    const ci = await connect("ci", [["get_build", "Get a CI build"], ["tail_console", "Stream the console output lines of a finished job"], ["search", "Search CI logs"]]);
    const reports = [];
    const palette = createMcpPalette({ servers: { github, ci }, limit: 2, onDecision: (r) => reports.push(r) });
    const run = palette.run();
    const turn = await run.route("close the issue");
    const outside = await run.callTool({ name: "get_build", arguments: { target: "1" } });
    const found = await run.callTool({ name: "search_tools", arguments: { query: "console output lines" } });
    const next = await run.route("close the issue");
    const called = await run.callTool({ name: "tail_console", arguments: { target: "nightly" } });
    const names = (await palette.tools()).map((t) => t.name);
    await Promise.all([github.close(), ci.close()]);
    return Response.json({ names, first: turn.report.offered, outside, found: found.structuredContent.tools.map((t) => t.name), next: next.report.offered, called, reports: reports.length, rule: turn.decision.rule });
  },
};
