// tool-palette with MCP servers: two servers of the official SDK (@modelcontextprotocol/sdk),
// connected over InMemoryTransport, one palette over their tools; each step is routed on
// the message, the model is offered a handful of tools (and search_tools), a call goes through
// the policies and the gate to its server, and every turn reports, per server, the tools and
// the definition tokens offered against the whole set (o200k, gpt-tokenizer).
// Offline: the model is the AI SDK's mock.
//
//   npm install && npm run build && node examples/mcp.mjs
//
// In your project: import { createMcpPalette } from "tool-palette/mcp" (and createToolPalette
// from "tool-palette/ai-sdk"), with the Clients you already connected.
import { generateText, stepCountIs } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { ToolPolicies } from "../dist/node.mjs";
import { createMcpPalette } from "../dist/adapters/mcp.js";
import { createToolPalette } from "../dist/adapters/ai-sdk.js";
import { cross, server } from "./servers.mjs";

// Two MCP servers: a code host and a CI, 39 tools in all, both with a tool named `search`.
const answer = (name) => (tool, target) => {
  console.log(`  ${name} ran:  ${tool} ${JSON.stringify({ target })}`);
  return `${tool}(${target}): ${tool === "tail_console" ? "exit 137, out of memory" : "ok"}`;
};
const github = await server("github", [...cross(["create", "list", "get", "close"], ["issue", "pull_request", "branch", "release", "label"], "in a GitHub repository"), ["search", "Search code across repositories"]], answer("github"));
const ci = await server("ci", [...cross(["trigger", "cancel", "get"], ["pipeline", "job", "build", "deployment"], "on the CI"), ["tail_console", "Stream the console output lines of a finished job"], ["search", "Search the CI logs"]], answer("ci"));

// One palette over both; a policy sends code searches to the CI's log search.
const policies = new ToolPolicies([
  { name: "ci-search-is-log-search", match: () => true, whenTool: "github__search", redirectTo: "ci__search" },
]);
const mcp = createMcpPalette({
  servers: { github, ci },
  policies,
  limit: 3,
  countTokens: (text) => encode(text).length,
  onDecision: (r) => console.log(`  turn ${r.turn}: offered ${r.offered.join(", ")}; tool-definition tokens ${r.definitions.offered.tokens} of ${r.definitions.all.tokens}; ` +
    Object.entries(r.servers).map(([s, x]) => `${s} ${x.offered}/${x.tools}`).join(", ")),
});

// The agent: the AI SDK, routed by the MCP run, the model a mock that searches first.
const usage = { inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 5, text: 5, reasoning: 0 } };
const call = (toolName, input) => ({
  content: [{ type: "tool-call", toolCallId: `call-${toolName}`, toolName, input: JSON.stringify(input) }],
  finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage, warnings: [],
});
const model = new MockLanguageModelV3({
  modelId: "ops-model",
  doGenerate: [
    call("search_tools", { query: "console output lines of a finished job" }),
    call("tail_console", { target: "nightly" }),
    { content: [{ type: "text", text: "The nightly job was killed: out of memory." }], finishReason: { unified: "stop", raw: "stop" }, usage, warnings: [] },
  ],
});

const message = "Why did the nightly build fail?";
console.log(`user: ${message}`);
const run = mcp.run(); // one agent run: what search_tools finds joins its palette
const palette = createToolPalette({ ...run.adapterOptions });
const result = await generateText({ model, prompt: message, stopWhen: stepCountIs(5),
  tools: palette.wrapTools(await run.aiSdkTools()), prepareStep: palette.prepareStep });
console.log(`  model saw:  ${model.doGenerateCalls.map((c) => `[${c.tools.map((t) => t.name).join(", ")}]`).join(" then ")}`);
console.log(`assistant: ${result.text}`);

// Without a framework: a call outside the turn's palette is a failed MCP call (no server called),
// and a call goes through the policies, here redirected to the other server's search.
const refused = await run.callTool({ name: "create_issue", arguments: { target: "x" } });
console.log(`outside the palette: ${JSON.stringify(refused)}`);
const other = mcp.run();
console.log("user: search the code and the CI logs for OOM");
await other.route("search the code and the CI logs for OOM");
const redirected = await other.callTool({ name: "github__search", arguments: { target: "OOM" } });
console.log(`github__search answered: ${redirected.content[0].text}`);
await Promise.all([github.close(), ci.close()]);
