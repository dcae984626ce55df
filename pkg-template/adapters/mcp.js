// tool-palette/mcp: the tools of Model Context Protocol servers (clients of the official SDK, or anything with `listTools` and `callTool`), routed,
// searched and policed. This module reads the options; the listing is mcp/listing.js, a run's routing mcp/routing.js, its calls mcp/calling.js.
import { readCache, readOutsidePalette, readToolName } from "./kernel/core.js";
import { attempt, checked, checkFunctions, fail, fields, hasMethod, isObject, warnings } from "./kernel/values.js";
import { createListing } from "./mcp/listing.js";
import { createRouting } from "./mcp/routing.js";
import { createCalling } from "./mcp/calling.js";
import { createSkills, readSkillOptions } from "./mcp/skills.js";

const WHERE = "tool-palette/mcp";
const OPTIONS = ["servers", "policies", "entries", "onDecision", "onWarning", "countTokens", "limit", "listTimeoutMs", "timeoutMs", "outsidePalette", "index", "searchTool", "cache", "skills", "skillIndex", "skillTool"];

function readMcpOptions(options) {
  if (!isObject(options)) throw fail(`${WHERE}: options`, "an object", options);
  const given = fields(options, OPTIONS, `${WHERE}: options`);
  const { servers, policies = null, entries = null, onDecision = null, onWarning = null, countTokens = null } = given;
  const { limit = 5, listTimeoutMs = 10_000, timeoutMs, outsidePalette = "refuse", index: indexOptions } = given;
  const searchName = given.searchTool === undefined ? "search_tools" : given.searchTool;
  const at = `${WHERE}: options.servers`;
  if (!isObject(servers) || attempt(() => Array.isArray(servers), at)) throw fail(at, "a record of MCP clients keyed by server name", servers);
  if (attempt(() => servers instanceof Map, at)) throw new TypeError(`${at} must be a record of MCP clients keyed by server name, got a Map (pass Object.fromEntries(map))`);
  const clients = new Map();
  for (const [name, client] of attempt(() => Object.entries(servers), at)) {
    if (name === "") throw new TypeError(`${at}: a server name must be a non-empty string`);
    const where = `${at}[${JSON.stringify(name)}]`;
    const isClient = isObject(client) && hasMethod(client, "listTools", `${where}.listTools`) && hasMethod(client, "callTool", `${where}.callTool`);
    if (!isClient) throw fail(where, "an MCP client (with listTools and callTool)", client);
    clients.set(name, client);
  }
  if (clients.size === 0) throw new TypeError(`${at} must name at least one server`);
  if (policies !== null && !(isObject(policies) && hasMethod(policies, "dispatch", `${WHERE}: options.policies.dispatch`))) throw fail(`${WHERE}: options.policies`, "a ToolPolicies", policies);
  checkFunctions(`${WHERE}: options`, { entries, onDecision, onWarning, countTokens });
  readToolName(searchName, `${WHERE}: options.searchTool`);
  readOutsidePalette(outsidePalette, WHERE);
  checked(limit, "limit", `${WHERE}: options.limit`);
  const { hasSkills, skillTool, ...skills } = readSkillOptions(given, clients, searchName, WHERE);
  const cache = readCache(given.cache, WHERE) ?? (hasSkills ? "per-turn" : null);
  checked(listTimeoutMs, "wait", `${WHERE}: options.listTimeoutMs`);
  checked(timeoutMs, "wait", `${WHERE}: options.timeoutMs`);
  if (indexOptions !== undefined && !isObject(indexOptions)) throw fail(`${WHERE}: options.index`, "ToolIndex options (an object)", indexOptions);
  const { embed = null, onEmbedError = null } = fields(indexOptions, ["embed", "onEmbedError"], `${WHERE}: options.index`);
  const other = attempt(() => Object.keys(indexOptions ?? {}), `${WHERE}: options.index`).find((key) => key !== "embed" && key !== "onEmbedError");
  if (other !== undefined) throw new TypeError(`${WHERE}: options.index.${other} is not an option here (the palette gives the index its tools, their vectors and the limit; it takes embed and onEmbedError)`);
  checkFunctions(`${WHERE}: options.index`, { embed, onEmbedError });
  return { where: WHERE, clients, policies, entries, onDecision, countTokens, limit, listTimeoutMs, timeoutMs, outsidePalette, searchName, cache, embed, onEmbedError, warn: warnings(WHERE, onWarning), ...(hasSkills && skills), skillTool: hasSkills ? skillTool : null };
}

export function createMcpPalette(options) {
  const o = readMcpOptions(options);
  const listing = createListing(o);
  const skills = o.skills ? createSkills(o, listing) : null;
  return {
    run(runOptions) {
      const { saved, onSaved } = fields(runOptions, ["saved", "onSaved"], `${WHERE}: run(options)`);
      checkFunctions(`${WHERE}: run(options)`, { onSaved });
      const routing = createRouting(o, listing, skills, { saved: saved ?? undefined, onSaved: onSaved ?? undefined });
      return Object.assign(routing.run, createCalling(o, listing, routing));
    },
    ...listing.palette,
  };
}
