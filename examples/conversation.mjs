// A multi-turn conversation over MCP servers, kept for the provider's prompt cache (SPEC 8).
// Three servers of the official SDK (@modelcontextprotocol/sdk) over InMemoryTransport, one
// palette over their tools with `cache`; each user turn is routed with the run's history,
// and the request to Anthropic's Messages API is built from the step with
// tool-palette/providers. The model is a script (offline): it calls the tool each turn needs.
// Printed per turn: what was offered, what was revealed, and whether the request's prefix
// (its tools) was kept, for the "deferred" strategy and, to compare, "per-turn".
//
//   npm install && npm run build && node examples/conversation.mjs
//
// In your project: import { createMcpPalette } from "tool-palette/mcp" and
// { anthropicMessages, anthropicReveal } from "tool-palette/providers".
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { createMcpPalette } from "../dist/adapters/mcp.js";
import { anthropicMessages, anthropicReveal } from "../dist/adapters/providers.js";
import { cross, server } from "./servers.mjs";

const ok = (tool, target) => `${tool}(${target}): ok`;
const servers = {
  files: await server("files", cross(["read", "write", "move", "sort", "delete"], ["file", "directory"], "on the local disk"), ok),
  github: await server("github", cross(["create", "list", "get", "close", "merge"], ["issue", "pull_request", "branch", "release", "label", "milestone", "comment"], "in a GitHub repository"), ok),
  ci: await server("ci", cross(["trigger", "cancel", "get", "retry"], ["pipeline", "job", "build"], "on the CI"), ok),
};

// The conversation: each user turn, and the call the scripted model makes in it.
const conversation = [
  ["Read the file reports/q3.csv", "read_file", "reports/q3.csv"],
  ["Now sort it by the second column", "sort_file", "reports/q3.csv"],
  ["Move the other report there as well", "move_file", "reports/q2.csv"],
  ["The nightly build failed: retry the build", "retry_build", "nightly"],
  ["And open an issue about the failure", "create_issue", "nightly build failed"],
];

async function converse(cache) {
  console.log(`\ncache: "${cache}"`);
  const mcp = createMcpPalette({ servers, cache, searchTool: false, limit: 3, countTokens: (text) => encode(text).length });
  const run = mcp.run();
  let kept = 0;
  for (const [message, tool, target] of conversation) {
    const turn = await run.route(message);
    const r = turn.report;
    // The request's tools (what the prompt cache keys on first) and, for "deferred", the
    // messages that load the revealed tools after the history (tool_reference blocks).
    const definitions = [...turn.tools, ...turn.deferred];
    const { tools } = anthropicMessages(r, definitions);
    const reveal = anthropicReveal(r, definitions);
    if (r.kept) kept++;
    console.log(`user: ${message}`);
    const perServer = Object.entries(r.servers).filter(([, x]) => x.offered > 0).map(([name, x]) => `${name} ${x.offered}/${x.tools}`);
    console.log(`  offered ${r.offered.length} (${perServer.join(", ")})`);
    if (cache === "deferred") console.log(`  revealed: ${r.revealed.join(", ") || "(nothing new)"}; deferred definitions sent: ${r.deferred.length}, reveal messages: ${reveal.length}`);
    console.log(`  tools list: ${tools.length} entries, ${r.definitions.offered.tokens} tokens in full; prefix kept: ${r.kept ? "yes" : "no"}`);
    const result = await run.callTool({ name: tool, arguments: { target } });
    console.log(`  model called ${tool}: ${result.isError ? "refused: " : ""}${result.content[0].text}`);
  }
  console.log(`prefix kept on ${kept} of ${conversation.length - 1} later turns`);
}

await converse("deferred");
await converse("per-turn");
for (const client of Object.values(servers)) await client.close();
