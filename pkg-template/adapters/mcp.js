// tool-palette/mcp: the tools of Model Context Protocol servers, routed, searched and policed.
//
//   const mcp = createMcpPalette({ servers: { github, files }, policies });
//   const run = mcp.run();                        // one agent run
//   const turn = await run.route(message);        // every step: outcome, report, turn.tools (MCP objects)
//   const result = await run.callTool(call);      // { name, arguments } (or a framework's shape) → a CallToolResult
//
// `servers` are connected clients of the official SDK (`Client` from
// @modelcontextprotocol/sdk), or anything with `listTools` and `callTool`: the package
// imports nothing of the SDK. Every server is listed (following `nextCursor`) within
// `listTimeoutMs`; a tool keeps its own name unless two servers list it, and then every tool
// of that name is `<server>__<name>`. A server that fails to list (or hangs) is left out and
// named in each turn's report. Each route() asks the core (resolvePalette) with the rows of
// the index (a ToolIndex over every listed tool) or of your `entries`, followed by the tools
// that `search_tools` found earlier in the run: the rule, the fates and the hidden names are
// the core's. A call goes through the policies (POST seam) and the palette gate, then to its
// server; a call outside the turn's palette, or to no tool at all, is answered as MCP answers a
// failed call (isError: true), naming only the offered tools, and no server is called.
import { resolvePalette, ToolIndex } from "tool-palette";
import { deliver, ToolPaletteAdapterWarning, fail, isObject, isFunction } from "./shared.js";

const WHERE = "tool-palette/mcp";
const SEARCH = "search_tools";
const LIST_CHANGED = "notifications/tools/list_changed";
// The AI SDK's schema brand (a registered symbol): a JSON schema the SDK takes as it is.
const AI_SCHEMA = Symbol.for("vercel.ai.schema");

const errorText = (error) => (error instanceof Error ? error.message : typeof error === "string" ? error : String(error));
const failed = (text) => ({ content: [{ type: "text", text }], isError: true });

// Every tool of one server: the pages of tools/list, all of them within `ms`. When the time is
// up the listing rejects, and the request in flight is cancelled (its signal aborts).
async function listAll(client, ms, server) {
  const controller = new AbortController();
  const pages = async () => {
    const tools = [];
    let cursor;
    for (let page = 0; ; page++) {
      const result = await client.listTools(cursor === undefined ? undefined : { cursor }, { signal: controller.signal });
      if (!isObject(result) || !Array.isArray(result.tools)) throw new TypeError(`listTools() answered no tools array (page ${page})`);
      tools.push(...result.tools);
      cursor = result.nextCursor;
      if (cursor == null || cursor === "") return tools;
      if (page >= 10_000) throw new RangeError("listTools() kept answering a nextCursor (10,000 pages)");
    }
  };
  if (ms === Infinity) return pages();
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => {
      const error = new Error(`listTools() of server "${server}" timed out after ${ms} ms`);
      reject(error);
      controller.abort(error);
    }, ms);
  });
  return Promise.race([pages(), timeout]).finally(() => clearTimeout(timer));
}

function checkNumber(value, name, { integer = false, min = 0 } = {}) {
  if (value === Infinity && !integer) return;
  if (typeof value !== "number" || !Number.isFinite(value) || value < min || (integer && !Number.isInteger(value))) {
    throw fail(`${WHERE}: options.${name}`, integer ? `an integer >= ${min}` : `a finite number >= ${min} (or Infinity)`, value);
  }
}

// The size of a tool's definition as a model receives it: its name, description and input schema.
const definition = (tool) => JSON.stringify({ name: tool.name, description: tool.description ?? "", inputSchema: tool.inputSchema ?? {} });

/** Creates the palette over the servers; see the package README, "MCP servers". */
export function createMcpPalette(options) {
  if (!isObject(options)) throw fail(`${WHERE}: options`, "an object", options);
  const { servers, policies = null, entries = null, onDecision = null, onWarning = null, countTokens = null } = options;
  const { limit = 5, listTimeoutMs = 10_000, timeoutMs, outsidePalette = "refuse", index: indexOptions } = options;
  const searchName = options.searchTool === undefined ? SEARCH : options.searchTool;
  if (!isObject(servers) || Array.isArray(servers)) throw fail(`${WHERE}: options.servers`, "a record of MCP clients keyed by server name", servers);
  const clients = new Map();
  for (const [name, client] of Object.entries(servers)) {
    if (name === "") throw new TypeError(`${WHERE}: options.servers: a server name must be a non-empty string`);
    if (!isObject(client) || !isFunction(client.listTools) || !isFunction(client.callTool)) {
      throw fail(`${WHERE}: options.servers["${name}"]`, "an MCP client (with listTools and callTool)", client);
    }
    clients.set(name, client);
  }
  if (clients.size === 0) throw new TypeError(`${WHERE}: options.servers must name at least one server`);
  if (policies !== null && !(isObject(policies) && isFunction(policies.dispatch))) throw fail(`${WHERE}: options.policies`, "a ToolPolicies", policies);
  for (const [key, value] of [["entries", entries], ["onDecision", onDecision], ["onWarning", onWarning], ["countTokens", countTokens]]) {
    if (value !== null && !isFunction(value)) throw fail(`${WHERE}: options.${key}`, "a function", value);
  }
  if (searchName !== false && (typeof searchName !== "string" || searchName === "")) throw fail(`${WHERE}: options.searchTool`, "a tool name or false", searchName);
  if (outsidePalette !== "refuse" && outsidePalette !== "allow") throw fail(`${WHERE}: options.outsidePalette`, '"refuse" or "allow"', outsidePalette);
  checkNumber(limit, "limit", { integer: true, min: 1 });
  checkNumber(listTimeoutMs, "listTimeoutMs");
  if (timeoutMs !== undefined) checkNumber(timeoutMs, "timeoutMs");
  if (indexOptions !== undefined && !isObject(indexOptions)) throw fail(`${WHERE}: options.index`, "ToolIndex options (an object)", indexOptions);

  const warned = new Set();
  const warn = (code, message) => {
    if (warned.has(code)) return;
    warned.add(code);
    deliver(new ToolPaletteAdapterWarning(`${WHERE}: ${message}`, code), onWarning);
  };

  // The listing: palette name → { server, tool (the server's own object), name (the server's name for it) }.
  let listing = null;
  let listing$ = null;
  const stale = new Set(clients.keys()); // servers to list again
  const perServer = new Map(); // server → { tools, error }

  // notifications/tools/list_changed marks the server for listing again at the next turn.
  // Through the SDK's fallback handler, so a handler of your own stays in charge of its method.
  for (const [name, client] of clients) {
    if (!("fallbackNotificationHandler" in client) && !isFunction(client.setNotificationHandler)) continue;
    const previous = client.fallbackNotificationHandler;
    client.fallbackNotificationHandler = async (notification) => {
      if (isObject(notification) && notification.method === LIST_CHANGED) {
        stale.add(name);
        listing = null;
      }
      if (isFunction(previous)) return previous.call(client, notification);
    };
  }

  async function list() {
    const names = [...stale];
    stale.clear();
    await Promise.all(
      names.map(async (server) => {
        try {
          perServer.set(server, { tools: await listAll(clients.get(server), listTimeoutMs, server), error: null });
        } catch (error) {
          // Left out until it is listed again: refresh(), or its list_changed notification.
          perServer.set(server, { tools: [], error: errorText(error) });
        }
      }),
    );
    // Names listed by two servers (or taken by the search tool) are known as <server>__<name>.
    const count = new Map();
    for (const { tools } of perServer.values()) for (const t of tools) if (isObject(t) && typeof t.name === "string") count.set(t.name, (count.get(t.name) ?? 0) + 1);
    const byName = new Map();
    const skipped = [];
    for (const [server, { tools }] of [...perServer].sort((a, b) => order(a[0]) - order(b[0]))) {
      for (const tool of tools) {
        if (!isObject(tool) || typeof tool.name !== "string") continue;
        const collides = count.get(tool.name) > 1 || tool.name === searchName;
        const name = collides ? `${server}__${tool.name}` : tool.name;
        if (byName.has(name)) {
          skipped.push({ server, name: tool.name, reason: `"${name}" is already the name of a tool of server "${byName.get(name).server}"` });
          continue;
        }
        byName.set(name, { server, tool, name: tool.name });
      }
    }
    const docs = [...byName].map(([name, { tool }]) => ({ name, description: typeof tool.description === "string" ? tool.description : "", inputSchema: tool.inputSchema }));
    // The previous index is left to the garbage collector: a turn in flight may still search it.
    const index = new ToolIndex(docs, { ...(indexOptions ?? {}), limit });
    const failures = [...perServer].filter(([, s]) => s.error !== null).map(([server, s]) => Object.freeze({ server, error: s.error }));
    for (const f of failures) warn(`LIST_FAILED:${f.server}`, `server "${f.server}" could not be listed (${f.error}); its tools are left out until it lists again.`);
    const sizes = new Map([...byName].map(([name, entry]) => [name, definition({ ...entry.tool, name })]));
    listing = { byName, names: [...byName.keys()], index, failures, skipped, sizes };
    return listing;
  }
  const serverOrder = [...clients.keys()];
  const order = (server) => serverOrder.indexOf(server);

  async function listed() {
    if (listing && stale.size === 0) return listing;
    listing$ ??= list().finally(() => {
      listing$ = null;
    });
    return listing$;
  }

  const searchTool = () => ({
    name: searchName,
    description:
      "Search the tools available to you by what they do, when none of the tools you were given fits. " +
      "Answers the best matches (name, description, input schema); the tools found can be called from your next step on.",
    inputSchema: { type: "object", properties: { query: { type: "string", description: "what the tool should do, in a few words" } }, required: ["query"] },
  });

  // The MCP tool object under its palette name (a copy when renamed).
  const asOffered = (name, entry) => (entry.tool.name === name ? entry.tool : { ...entry.tool, name });

  function measure(names, l) {
    const chars = names.reduce((n, name) => n + (l.sizes.get(name)?.length ?? 0), 0);
    const tokens = countTokens ? names.reduce((n, name) => n + countTokens(l.sizes.get(name) ?? ""), 0) : null;
    return { chars, tokens };
  }

  /** One agent run: its turns share what search_tools found. */
  function run() {
    const found = []; // palette names search_tools found, in order
    let turn = null; // the latest turn
    let turns = 0;

    async function route(context, { signal } = {}) {
      const ctx = typeof context === "string" ? { message: context } : isObject(context) ? context : { message: "" };
      const l = await listed();
      let decision = null;
      const rows = async () => {
        const own = entries ? await entries(ctx) : await l.index.entries(ctx);
        const list = own == null ? [] : [...own];
        for (const name of found) list.push({ tool: name });
        return list;
      };
      const outcome = await resolvePalette({
        entries: rows,
        registered: l.names,
        signal,
        ...(timeoutMs === undefined ? {} : { timeoutMs }),
        onDecision: (d) => {
          decision = d;
        },
      });
      const narrowed = outcome.kind === "routed";
      const names = narrowed ? [...outcome.names] : [...l.names];
      const offeredSet = new Set(names);
      const withSearch = narrowed && searchName !== false;
      const tools = names.map((name) => asOffered(name, l.byName.get(name)));
      if (withSearch) tools.push(searchTool());
      // Per server: offered and hidden counts, definitions offered against the whole set.
      const servers = {};
      for (const server of clients.keys()) {
        const state = perServer.get(server);
        const own = l.names.filter((n) => l.byName.get(n).server === server);
        const offered = own.filter((n) => offeredSet.has(n));
        servers[server] = Object.freeze({
          listed: state && state.error === null,
          error: state ? state.error : null,
          tools: own.length,
          offered: offered.length,
          hidden: own.length - offered.length,
          definitions: Object.freeze({ offered: Object.freeze(measure(offered, l)), all: Object.freeze(measure(own, l)) }),
        });
      }
      const report = Object.freeze({
        turn: turns++,
        routing: decision,
        offered: Object.freeze([...names, ...(withSearch ? [searchName] : [])]),
        hidden: Object.freeze(decision && narrowed ? [...decision.hidden] : []),
        found: Object.freeze([...found]),
        servers: Object.freeze(servers),
        failures: l.failures,
        skipped: Object.freeze(l.skipped),
        definitions: Object.freeze({ offered: Object.freeze(measure(names, l)), all: Object.freeze(measure(l.names, l)) }),
      });
      turn = Object.freeze({ ctx, outcome, decision, names: report.offered, tools: Object.freeze(tools), report, palette: narrowed ? names : outcome });
      if (onDecision) onDecision(report);
      return turn;
    }

    // The call in MCP's shape { name, arguments } or a framework's: { name, args }, { toolName, input }, arguments as JSON text.
    function read(call) {
      if (!isObject(call)) throw fail(`${WHERE}: callTool(call)`, "a tool call ({ name, arguments })", call);
      const name = typeof call.name === "string" ? call.name : call.toolName;
      if (typeof name !== "string") throw fail(`${WHERE}: callTool(call).name`, "a string", name);
      let args = "arguments" in call ? call.arguments : "args" in call ? call.args : call.input;
      if (typeof args === "string") args = args.trim() === "" ? {} : JSON.parse(args);
      const id = call.id ?? call.toolCallId ?? call.callId;
      return { name, args: args ?? {}, ...(id === undefined ? {} : { id }) };
    }

    async function search(args, l) {
      const query = isObject(args) && typeof args.query === "string" ? args.query : "";
      const hits = l.index.search(query, { limit });
      const tools = hits.map(({ name }) => {
        const { tool } = l.byName.get(name);
        if (!found.includes(name)) found.push(name);
        return { name, description: tool.description ?? "", inputSchema: tool.inputSchema ?? {} };
      });
      const text = tools.length
        ? `Found ${tools.length} tool${tools.length === 1 ? "" : "s"}; you can call ${tools.length === 1 ? "it" : "them"} from your next step on:\n${JSON.stringify(tools)}`
        : "No tool matches this query; try other words.";
      return { content: [{ type: "text", text }], structuredContent: { tools } };
    }

    async function callTool(call, { signal } = {}) {
      let c;
      try {
        c = read(call);
      } catch (error) {
        if (error instanceof SyntaxError) return failed(`The arguments of ${call.name ?? call.toolName} are not valid JSON: ${error.message}`);
        throw error;
      }
      const l = await listed();
      const offered = turn ? turn.names : null;
      const known = l.byName.has(c.name) || (c.name === searchName && searchName !== false);
      const outside = offered !== null && !offered.includes(c.name);
      if (!known || (outside && outsidePalette === "refuse")) {
        const names = offered ?? [...l.names];
        return failed(`Tool ${c.name} is not available${known ? " in this step" : ""}. Available tools: ${names.join(", ")}.`);
      }
      if (c.name === searchName && searchName !== false) return search(c.args, l);
      const ctx = turn ? turn.ctx : { message: "" };
      const dispatch = policies ? policies.dispatch(c, ctx, turn ? turn.palette : undefined) : null;
      const target = dispatch ? dispatch.call : c;
      const entry = l.byName.get(target.name);
      if (!entry) return failed(`Tool ${c.name} was redirected to ${target.name}, which no server lists.`);
      try {
        const result = await clients.get(entry.server).callTool({ name: entry.name, arguments: target.args ?? {} }, undefined, signal ? { signal } : undefined);
        return result;
      } catch (error) {
        return failed(errorText(error));
      }
    }

    const router = async (ctx, { signal, onDecision: decided } = {}) => {
      const t = await route(ctx, { signal });
      if (decided && t.decision) decided(t.decision);
      return t.outcome;
    };

    // Every listed tool (and the search tool), in a framework's shape, each calling through callTool.
    async function every() {
      const l = await listed();
      const all = l.names.map((name) => asOffered(name, l.byName.get(name)));
      if (searchName !== false) all.push(searchTool());
      return all;
    }
    const text = (result) =>
      (Array.isArray(result.content) ? result.content : []).map((p) => (isObject(p) && p.type === "text" ? p.text : JSON.stringify(p))).join("\n");

    return {
      route,
      callTool,
      router,
      // For the framework adapters: each step routed by this run, the search tool pinned whenever routing narrows.
      adapterOptions: Object.freeze({ router, alwaysInclude: Object.freeze(searchName === false ? [] : [searchName]) }),
      get turn() {
        return turn;
      },
      get found() {
        return [...found];
      },
      async aiSdkTools() {
        const record = {};
        for (const t of await every()) {
          const schema = { [AI_SCHEMA]: true, _type: undefined, jsonSchema: t.inputSchema ?? { type: "object", properties: {} }, validate: undefined };
          record[t.name] = { type: "function", description: t.description ?? "", inputSchema: schema, execute: (input, o) => callTool({ name: t.name, arguments: input, id: o?.toolCallId }, { signal: o?.abortSignal }) };
        }
        return record;
      },
      async openaiAgentsTools() {
        return (await every()).map((t) => ({
          type: "function",
          name: t.name,
          description: t.description ?? "",
          parameters: t.inputSchema ?? { type: "object", properties: {} },
          strict: false,
          needsApproval: async () => false,
          isEnabled: async () => true,
          invoke: async (_runContext, input, details) => text(await callTool({ name: t.name, arguments: input, id: details?.toolCall?.callId })),
        }));
      },
      async langchainTools(tool) {
        if (!isFunction(tool)) throw fail(`${WHERE}: langchainTools(tool)`, 'the tool function of "langchain"', tool);
        return (await every()).map((t) =>
          tool(async (input, config) => text(await callTool({ name: t.name, arguments: input, id: config?.toolCall?.id })), {
            name: t.name,
            description: t.description ?? "",
            schema: t.inputSchema ?? { type: "object", properties: {} },
          }),
        );
      },
    };
  }

  return {
    run,
    /** Lists every server again now (or the one named). */
    async refresh(server) {
      if (server !== undefined && !clients.has(server)) throw fail(`${WHERE}: refresh(server)`, `one of the servers (${[...clients.keys()].join(", ")})`, server);
      for (const name of server === undefined ? clients.keys() : [server]) stale.add(name);
      listing = null;
      return report(await listed());
    },
    /** Where a palette name goes: `{ server, name }`, or `undefined`. */
    async locate(name) {
      const entry = (await listed()).byName.get(name);
      return entry ? Object.freeze({ server: entry.server, name: entry.name }) : undefined;
    },
    /** Every listed tool as MCP tool objects under their palette names. */
    async tools() {
      const l = await listed();
      return l.names.map((name) => asOffered(name, l.byName.get(name)));
    },
    /** Frees the current index now (a later turn lists the servers again). */
    dispose() {
      listing?.index.dispose();
      listing = null;
      for (const name of clients.keys()) stale.add(name);
    },
  };

  function report(l) {
    return Object.freeze({ tools: l.names.length, failures: l.failures, skipped: Object.freeze(l.skipped) });
  }
}
