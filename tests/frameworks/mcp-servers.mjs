// Real MCP servers for the tests of tool-palette/mcp, built with the official SDK
// (@modelcontextprotocol/sdk) and connected to real SDK Clients over InMemoryTransport:
// - "github" (McpServer): 43 tools, one of them `search`;
// - "files" (a low-level Server that pages tools/list by 10 with nextCursor): 37 tools,
//   one of them `search` too, so both are known as <server>__search;
// - "ci" (McpServer): 31 tools, among them `tail_console`, which a build question's words miss.
// Every call a server answers is recorded in `calls` as [server, tool, arguments].
import { before, after } from "node:test";
import { consumer } from "./consumer.mjs";

const words = (name) => name.replace(/_/g, " ");
const cross = (verbs, nouns, describe) => verbs.flatMap((v) => nouns.map((n) => [`${v}_${n}`, describe(v, n)]));

export const GITHUB = [
  ...cross(["create", "list", "get", "update", "delete", "close"], ["issue", "pull_request", "branch", "release", "label", "milestone", "comment"], (v, n) => `${v[0].toUpperCase()}${v.slice(1)} a ${words(n)} in a GitHub repository`),
  ["search", "Search code across GitHub repositories"],
];
export const FILES = [
  ...cross(["read", "write", "move", "copy", "delete", "stat"], ["file", "directory", "symlink", "archive", "permission", "backup"], (v, n) => `${v[0].toUpperCase()}${v.slice(1)} a ${words(n)} on the local disk`),
  ["search", "Search file contents on the local disk"],
];
export const CI = [
  ...cross(["trigger", "cancel", "retry", "get", "list"], ["pipeline", "job", "build", "deployment", "artifact", "runner"], (v, n) => `${v[0].toUpperCase()}${v.slice(1)} a CI ${words(n)}`),
  ["tail_console", "Stream the console output lines of a finished job, to see why it stopped"],
];

/** Connects a Client to `server` over a linked pair of in-memory transports. */
export async function connect(sdk, server, name) {
  const [clientSide, serverSide] = sdk.InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new sdk.Client({ name: `test-client-${name}`, version: "1.0.0" });
  await client.connect(clientSide);
  return client;
}

/** An McpServer with `tools` ([name, description]), each answering `<name> done` and recording the call. */
export function mcpServer(sdk, name, tools, calls) {
  const server = new sdk.McpServer({ name, version: "1.0.0" });
  for (const [tool, description] of tools) {
    server.registerTool(tool, { description, inputSchema: { target: sdk.z.string().describe("what to act on") } }, async (args) => {
      calls.push([name, tool, args]);
      return { content: [{ type: "text", text: `${tool} done` }] };
    });
  }
  return server;
}

/** A low-level Server that pages tools/list by `pageSize` (nextCursor), and can fail calls or listing. */
export function pagedServer(sdk, name, tools, calls, { pageSize = 10, failCall = null, failList = false, hangList = false } = {}) {
  const server = new sdk.Server({ name, version: "1.0.0" }, { capabilities: { tools: { listChanged: true } } });
  const defs = tools.map(([tool, description]) => ({ name: tool, description, inputSchema: { type: "object", properties: { target: { type: "string" } } } }));
  server.setRequestHandler(sdk.ListToolsRequestSchema, async (request) => {
    if (failList) throw new sdk.McpError(sdk.ErrorCode.InternalError, `${name} cannot list its tools`);
    if (hangList) return new Promise(() => {});
    const start = request.params?.cursor ? Number(request.params.cursor) : 0;
    const next = start + pageSize;
    return { tools: defs.slice(start, next), ...(next < defs.length ? { nextCursor: String(next) } : {}) };
  });
  server.setRequestHandler(sdk.CallToolRequestSchema, async (request) => {
    const { name: tool, arguments: args } = request.params;
    calls.push([name, tool, args]);
    if (tool === failCall) throw new sdk.McpError(sdk.ErrorCode.InternalError, `${tool} crashed on ${name}`);
    return { content: [{ type: "text", text: `${tool} done` }] };
  });
  return server;
}

/** The frameworks (mock models included) and the package's adapters, loaded in the consumer project, by specifier. */
export async function loadFrameworks(load) {
  const m = {};
  for (const name of ["ai", "ai/test", "@openai/agents", "langchain", "@langchain/core/testing", "tool-palette/mcp", "tool-palette/ai-sdk", "tool-palette/openai-agents", "tool-palette/langchain"]) {
    m[name] = await load(name);
  }
  m["@openai/agents"].setTracingDisabled(true);
  return m;
}

/**
 * A test file's set-up: before its tests, the consumer project with the packed package,
 * the SDK and the frameworks, handed to `set({ c, sdk, m })`; after them, the clients the
 * tests pushed to the returned list are closed.
 */
export function frameworksSuite(set) {
  const open = [];
  before(async () => {
    const c = await consumer();
    const sdk = await loadSdk(c.load);
    set({ c, sdk, m: await loadFrameworks(c.load) });
  });
  after(async () => {
    for (const client of open) await client.close().catch(() => {});
  });
  return open;
}

/** The SDK modules the servers need, loaded in the consumer project. */
export async function loadSdk(load) {
  const [mcp, server, client, memory, types, zod] = await Promise.all([
    load("@modelcontextprotocol/sdk/server/mcp.js"),
    load("@modelcontextprotocol/sdk/server/index.js"),
    load("@modelcontextprotocol/sdk/client/index.js"),
    load("@modelcontextprotocol/sdk/inMemory.js"),
    load("@modelcontextprotocol/sdk/types.js"),
    load("zod"),
  ]);
  return {
    McpServer: mcp.McpServer,
    Server: server.Server,
    Client: client.Client,
    InMemoryTransport: memory.InMemoryTransport,
    ListToolsRequestSchema: types.ListToolsRequestSchema,
    CallToolRequestSchema: types.CallToolRequestSchema,
    ReadResourceRequestSchema: types.ReadResourceRequestSchema,
    McpError: types.McpError,
    ErrorCode: types.ErrorCode,
    z: zod.z,
  };
}

/** The three servers of the scenario, connected: { servers: { github, files, ci }, calls, raw }. */
export async function threeServers(sdk, options = {}) {
  const calls = [];
  const raw = {
    github: mcpServer(sdk, "github", GITHUB, calls),
    files: pagedServer(sdk, "files", FILES, calls, options.files),
    ci: mcpServer(sdk, "ci", CI, calls),
  };
  const servers = {};
  for (const [name, server] of Object.entries(raw)) servers[name] = await connect(sdk, server, name);
  return { servers, calls, raw };
}
