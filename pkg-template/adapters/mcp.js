// tool-palette/mcp: the tools of Model Context Protocol servers, routed, searched and policed.
//
//   const mcp = createMcpPalette({ servers: { github, files }, policies });
//   const run = mcp.run();                        // one agent run
//   const turn = await run.route(message);        // every step: outcome, report, turn.tools (MCP objects)
//   const result = await run.callTool(call);      // { name, arguments } (or a framework's shape) → a CallToolResult
//
// `servers` are connected clients of the official SDK (`Client` from
// @modelcontextprotocol/sdk), or anything with `listTools` and `callTool`: the package
// imports nothing of the SDK. Its parts: the listing (mcp/listing.js: every server's tools
// within `listTimeoutMs`, their palette names, the index), a run's routing (mcp/routing.js:
// each turn asks the core) and its calls (mcp/calling.js: the policies, the palette gate, the
// servers); this module reads the options and puts them together.
import { ToolIndex } from "tool-palette";
import { attempt, checkFunctions, checkOneOf, fail, fields, isObject, isFunction, read, readCache, warnings } from "./shared.js";
import { createListing } from "./mcp/listing.js";
import { createRouting } from "./mcp/routing.js";
import { createCalling } from "./mcp/calling.js";

const WHERE = "tool-palette/mcp";

// A time budget (ms): a finite number >= 0, or Infinity for none.
function checkBudget(value, name) {
  if (value !== Infinity && !(typeof value === "number" && Number.isFinite(value) && value >= 0)) {
    throw fail(`${WHERE}: options.${name}`, "a finite number >= 0 (or Infinity)", value);
  }
}

// The options, each read once and checked; the servers as a Map of their clients.
const OPTIONS = ["servers", "policies", "entries", "onDecision", "onWarning", "countTokens", "limit", "listTimeoutMs", "timeoutMs", "outsidePalette", "index", "searchTool", "cache"];

function readMcpOptions(options) {
  if (!isObject(options)) throw fail(`${WHERE}: options`, "an object", options);
  const given = fields(options, OPTIONS, `${WHERE}: options`);
  const { servers, policies = null, entries = null, onDecision = null, onWarning = null, countTokens = null } = given;
  const { limit = 5, listTimeoutMs = 10_000, timeoutMs, outsidePalette = "refuse", index: indexOptions } = given;
  const searchName = given.searchTool === undefined ? "search_tools" : given.searchTool;
  if (!isObject(servers) || attempt(() => Array.isArray(servers), `${WHERE}: options.servers`)) throw fail(`${WHERE}: options.servers`, "a record of MCP clients keyed by server name", servers);
  if (attempt(() => servers instanceof Map, `${WHERE}: options.servers`)) throw new TypeError(`${WHERE}: options.servers must be a record of MCP clients keyed by server name, got a Map (pass Object.fromEntries(map))`);
  const clients = new Map();
  for (const [name, client] of attempt(() => Object.entries(servers), `${WHERE}: options.servers`)) {
    if (name === "") throw new TypeError(`${WHERE}: options.servers: a server name must be a non-empty string`);
    const at = `${WHERE}: options.servers[${JSON.stringify(name)}]`;
    if (!isObject(client) || !isFunction(read(client, "listTools", `${at}.listTools`)) || !isFunction(read(client, "callTool", `${at}.callTool`))) {
      throw fail(at, "an MCP client (with listTools and callTool)", client);
    }
    clients.set(name, client);
  }
  if (clients.size === 0) throw new TypeError(`${WHERE}: options.servers must name at least one server`);
  if (policies !== null && !(isObject(policies) && isFunction(read(policies, "dispatch", `${WHERE}: options.policies.dispatch`)))) throw fail(`${WHERE}: options.policies`, "a ToolPolicies", policies);
  checkFunctions(`${WHERE}: options`, { entries, onDecision, onWarning, countTokens });
  if (searchName !== false && (typeof searchName !== "string" || searchName === "")) throw fail(`${WHERE}: options.searchTool`, "a tool name or false", searchName);
  checkOneOf(WHERE, "outsidePalette", outsidePalette, ["refuse", "allow"]);
  // The limit by the core's own rule (a ToolIndex's), under this option's name.
  try {
    new ToolIndex([], { limit }).dispose();
  } catch (error) {
    throw new TypeError(`${WHERE}: options.limit${error.message.slice(error.message.indexOf(" must"))}`);
  }
  const cache = readCache(options.cache, WHERE);
  checkBudget(listTimeoutMs, "listTimeoutMs");
  if (timeoutMs !== undefined) checkBudget(timeoutMs, "timeoutMs");
  if (indexOptions !== undefined && !isObject(indexOptions)) throw fail(`${WHERE}: options.index`, "ToolIndex options (an object)", indexOptions);
  const { embed = null, onEmbedError = null } = indexOptions === undefined ? {} : fields(indexOptions, ["embed", "onEmbedError"], `${WHERE}: options.index`);
  for (const key of attempt(() => Object.keys(indexOptions ?? {}), `${WHERE}: options.index`)) {
    if (key === "embed" || key === "onEmbedError") continue;
    throw new TypeError(`${WHERE}: options.index.${key} is not an option here (the palette gives the index its tools, their vectors and the limit; it takes embed and onEmbedError)`);
  }
  checkFunctions(`${WHERE}: options.index`, { embed, onEmbedError });
  const warn = warnings(WHERE, onWarning);
  return { where: WHERE, clients, policies, entries, onDecision, countTokens, limit, listTimeoutMs, timeoutMs, outsidePalette, searchName, cache, embed, onEmbedError, warn };
}

/** Creates the palette over the servers; see the package README, "MCP servers". */
export function createMcpPalette(options) {
  const o = readMcpOptions(options);
  const listing = createListing(o);
  return {
    /** One agent run: its turns share what search_tools found. */
    run() {
      const routing = createRouting(o, listing);
      return Object.assign(routing.run, createCalling(o, listing, routing));
    },
    ...listing.palette,
  };
}
