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
import { deliver, ToolPaletteAdapterWarning, fail, isObject, isFunction, readCache, runKeeper } from "./shared.js";

const WHERE = "tool-palette/mcp";
const SEARCH = "search_tools";
const LIST_CHANGED = "notifications/tools/list_changed";
// The AI SDK's schema brand (a registered symbol): a JSON schema the SDK takes as it is.
const AI_SCHEMA = Symbol.for("vercel.ai.schema");

// The longest delay a timer keeps (ms): a budget beyond it is no timer at all (setTimeout would fire at once).
const MAX_TIMER = 2 ** 31 - 1;

const errorText = (error) => (error instanceof Error ? error.message : typeof error === "string" ? error : String(error));
const failed = (text) => ({ content: [{ type: "text", text }], isError: true });

// `work` within `ms`: when the time is up, rejects with `timedOut()` and aborts `controller`.
// A budget of Infinity, or beyond a timer's reach, waits as long as it takes.
function within(work, ms, timedOut, controller) {
  if (ms > MAX_TIMER) return work;
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => {
      const error = timedOut();
      reject(error);
      controller?.abort(error);
    }, ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

// Why a signal aborted: its reason (an AbortError when it gives none).
const reasonOf = (signal) => signal.reason ?? new DOMException("This operation was aborted", "AbortError");

// `promise`, or the signal's reason as soon as it aborts (even if the work never heeds it).
function abortable(promise, signal) {
  if (signal == null) return promise;
  if (signal.aborted) return Promise.reject(reasonOf(signal));
  let onAbort;
  const aborted = new Promise((_, reject) => {
    onAbort = () => reject(reasonOf(signal));
    signal.addEventListener("abort", onAbort, { once: true });
  });
  return Promise.race([promise, aborted]).finally(() => signal.removeEventListener("abort", onAbort));
}

function checkSignal(signal, where) {
  if (signal != null && !(isObject(signal) && typeof signal.aborted === "boolean" && isFunction(signal.addEventListener) && isFunction(signal.removeEventListener))) {
    throw fail(where, "an AbortSignal", signal);
  }
}

// The largest tool definition (name, description, input schema as JSON, in code units) the palette keeps:
// far beyond what a model is sent for one tool, and one server's oversized tool cannot take the index down.
const MAX_DEFINITION = 1_048_576;

// One listed tool, read once (a getter runs once; what throws leaves this tool out): its name,
// description and input schema as the JSON a model is sent (a cyclic or unserialisable schema,
// or a definition beyond MAX_DEFINITION, cannot be sent, so the tool is left out).
function readTool(tool) {
  if (!isObject(tool)) throw new TypeError("it is not an object");
  const name = tool.name;
  if (typeof name !== "string" || name === "") throw new TypeError("its name is not a non-empty string");
  const description = tool.description;
  const schema = tool.inputSchema;
  const json = JSON.stringify({ name, description: typeof description === "string" ? description : "", inputSchema: schema ?? {} });
  if (json.length > MAX_DEFINITION) throw new RangeError(`it is ${json.length} code units long, more than ${MAX_DEFINITION} (too large to send to a model)`);
  const { description: text, inputSchema } = JSON.parse(json);
  return { tool, name, description: text, inputSchema };
}

// Every tool of one server: the pages of tools/list, all of them within `ms`. When the time is
// up the listing rejects, and the request in flight is cancelled (its signal aborts). Each request
// gets a signal of its own (the SDK leaves a listener on the signal it is given: one shared signal
// makes Node warn of a leak past 10 pages). A server whose pages answer at once (in-process) never
// lets the timer run: the time is also checked between pages. A cursor answered twice is a loop.
function listAll(client, ms, server) {
  const timedOut = () => new Error(`listTools() of server "${server}" timed out after ${ms} ms`);
  const deadline = ms > MAX_TIMER ? Infinity : Date.now() + ms;
  let current = null; // the controller of the request in flight
  const pages = async () => {
    const tools = [];
    const cursors = new Set();
    let cursor;
    for (let page = 0; ; page++) {
      if (Date.now() > deadline) throw timedOut();
      current = new AbortController();
      const params = cursor === undefined ? undefined : { cursor };
      const result = await listPage(client, params, { signal: current.signal });
      if (!isObject(result) || !Array.isArray(result.tools)) throw new TypeError(`listTools() answered no tools array (page ${page})`);
      for (const tool of result.tools) tools.push(tool); // (not push(...tools): a page of 150,000 tools overflows the stack)
      cursor = result.nextCursor;
      if (cursor == null || cursor === "") return tools;
      if (cursors.has(cursor)) throw new RangeError(`listTools() answered the nextCursor ${JSON.stringify(String(cursor)).slice(0, 80)} twice (page ${page + 1}): its pages loop`);
      cursors.add(cursor);
      if (page >= 10_000) throw new RangeError("listTools() kept answering a nextCursor (10,000 pages)");
    }
  };
  return within(pages(), ms, timedOut, { abort: (error) => current?.abort(error) });
}

// What an SDK Client's request() checks a tools/list answer with (the SDK takes any schema with
// safeParse): nothing, so that one tool the SDK's schema refuses (one without a name) stays
// alone in being left out, by readTool, instead of failing its whole page.
const UNCHECKED = Object.freeze({ safeParse: (data) => ({ success: true, data }) });

// One page of tools/list: the client's listTools() (the SDK Client then keeps what it learns of
// each tool, such as output schemas to check call results against); when the SDK Client's own
// check refuses the page, the page again through its request() with UNCHECKED.
async function listPage(client, params, options) {
  try {
    return await client.listTools(params, options);
  } catch (error) {
    const sdk = isFunction(client.request) && "fallbackNotificationHandler" in client;
    if (!sdk || options.signal.aborted) throw error;
    return client.request({ method: "tools/list", params }, UNCHECKED, options);
  }
}

function checkNumber(value, name, { integer = false, min = 0 } = {}) {
  if (value === Infinity && !integer) return;
  if (typeof value !== "number" || !Number.isFinite(value) || value < min || (integer && !Number.isInteger(value))) {
    throw fail(`${WHERE}: options.${name}`, integer ? `an integer >= ${min}` : `a finite number >= ${min} (or Infinity)`, value);
  }
}

// What a tool's definition looks like to a model: its name, description and input schema as JSON.
const definition = (name, t) => JSON.stringify({ name, description: t.description, inputSchema: t.inputSchema ?? {} });

// An own, enumerable property, whatever the key ("__proto__" included).
const put = (record, key, value) => Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });

const shown = (value) =>
  value instanceof Promise || (isObject(value) && isFunction(value.then))
    ? "a Promise (countTokens must count synchronously)"
    : typeof value === "number"
      ? String(value)
      : value === null
        ? "null"
        : typeof value === "string"
          ? `a string (${JSON.stringify(value.slice(0, 20))})`
          : typeof value;

/** Creates the palette over the servers; see the package README, "MCP servers". */
export function createMcpPalette(options) {
  if (!isObject(options)) throw fail(`${WHERE}: options`, "an object", options);
  const { servers, policies = null, entries = null, onDecision = null, onWarning = null, countTokens = null } = options;
  const { limit = 5, listTimeoutMs = 10_000, timeoutMs, outsidePalette = "refuse", index: indexOptions } = options;
  const searchName = options.searchTool === undefined ? SEARCH : options.searchTool;
  if (!isObject(servers) || Array.isArray(servers)) throw fail(`${WHERE}: options.servers`, "a record of MCP clients keyed by server name", servers);
  if (servers instanceof Map) throw new TypeError(`${WHERE}: options.servers must be a record of MCP clients keyed by server name, got a Map (pass Object.fromEntries(map))`);
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
  // The limit by the core's own rule (a ToolIndex's), under this option's name.
  try {
    new ToolIndex([], { limit }).dispose();
  } catch (error) {
    throw new TypeError(`${WHERE}: options.limit${error.message.slice(error.message.indexOf(" must"))}`);
  }
  const cache = readCache(options.cache, WHERE);
  checkNumber(listTimeoutMs, "listTimeoutMs");
  if (timeoutMs !== undefined) checkNumber(timeoutMs, "timeoutMs");
  if (indexOptions !== undefined && !isObject(indexOptions)) throw fail(`${WHERE}: options.index`, "ToolIndex options (an object)", indexOptions);
  const { embed = null, onEmbedError = null, ...otherIndexOptions } = indexOptions ?? {};
  for (const key of Object.keys(otherIndexOptions)) {
    throw new TypeError(`${WHERE}: options.index.${key} is not an option here (the palette gives the index its tools, their vectors and the limit; it takes embed and onEmbedError)`);
  }
  if (embed !== null && !isFunction(embed)) throw fail(`${WHERE}: options.index.embed`, "a function", embed);
  if (onEmbedError !== null && !isFunction(onEmbedError)) throw fail(`${WHERE}: options.index.onEmbedError`, "a function", onEmbedError);

  const warned = new Set();
  const warn = (code, message) => {
    if (warned.has(code)) return;
    warned.add(code);
    deliver(new ToolPaletteAdapterWarning(`${WHERE}: ${message}`, code), onWarning);
  };

  // Hybrid ranking (options.index.embed): each tool's definition as a model is sent it (its
  // JSON: palette name, description, input schema; measured better than name and description
  // alone, bench/tool-search/DESIGN.md) is embedded when the tools are (re)listed, within
  // listTimeoutMs; a text embedded before is not embedded again. When embedding fails, the
  // index ranks lexically until the next listing.
  const vectors = new Map(); // text → the vector embed answered for it
  async function indexOf(docs) {
    if (embed === null || docs.length === 0) return { index: new ToolIndex(docs, { limit }), embedding: embed === null ? null : Object.freeze({ hybrid: false, error: null }) };
    const texts = docs.map((d) => definition(d.name, d));
    let building = false;
    try {
      const work = Promise.all(texts.map(async (text) => (vectors.has(text) ? vectors.get(text) : embed(text))));
      const answered = await within(work, listTimeoutMs, () => new Error(`embedding the tools timed out after ${listTimeoutMs} ms`));
      building = true;
      const index = new ToolIndex(docs, { limit, vectors: answered, embed, ...(onEmbedError === null ? {} : { onEmbedError }) });
      vectors.clear();
      texts.forEach((text, i) => vectors.set(text, answered[i]));
      return { index, embedding: Object.freeze({ hybrid: true, error: null }) };
    } catch (error) {
      // Tools too large to index (a RangeError of the index itself) are no embedding failure:
      // the listing leaves out the servers that make them so (list()).
      if (building && error instanceof RangeError) throw error;
      vectors.clear();
      const message = errorText(error);
      warn("EMBED_FAILED", `the tools could not be embedded (${message}); routing ranks them lexically until they are listed again.`);
      return { index: new ToolIndex(docs, { limit }), embedding: Object.freeze({ hybrid: false, error: message }) };
    }
  }

  // The listing: palette name → { server, tool (the server's own object), name (the server's name for it), offered
  // (the object under its palette name), description and inputSchema (read once, as JSON) }.
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
    // Each tool read once: one that cannot be read (a throwing getter, a cyclic schema) is left
    // out and listed in `skipped`; its server's other tools and the other servers still serve.
    const skipped = [];
    const readable = new Map(); // server → its tools, read
    for (const [server, { tools }] of perServer) {
      const kept = [];
      for (const tool of tools) {
        try {
          kept.push(readTool(tool));
        } catch (error) {
          let name = "";
          try {
            if (isObject(tool) && typeof tool.name === "string") name = tool.name;
          } catch {}
          skipped.push({ server, name, reason: `its definition cannot be read: ${errorText(error)}` });
        }
      }
      readable.set(server, kept);
    }
    // Names listed by two servers (or taken by the search tool) are known as <server>__<name>. A server
    // that lists one name twice does not make it collide: its first tool of that name keeps it.
    const inOrder = [...readable].sort((a, b) => order(a[0]) - order(b[0]));
    const listers = new Map(); // name → the servers that list it
    for (const [server, tools] of inOrder) for (const t of tools) (listers.get(t.name) ?? listers.set(t.name, new Set()).get(t.name)).add(server);
    const paletteName = (server, t) => (listers.get(t.name).size > 1 || t.name === searchName ? `${server}__${t.name}` : t.name);
    // The <server>__<name> of colliding tools are taken first: a listed name equal to one of them is the one left out.
    const claimed = new Map(); // <server>__<name> → that server
    for (const [server, tools] of inOrder) {
      for (const t of tools) if (paletteName(server, t) !== t.name && !claimed.has(paletteName(server, t))) claimed.set(paletteName(server, t), server);
    }
    const byName = new Map();
    for (const [server, tools] of inOrder) {
      for (const t of tools) {
        const name = paletteName(server, t);
        const owner = byName.has(name) ? byName.get(name).server : name === t.name && claimed.has(name) ? claimed.get(name) : null;
        if (owner !== null) {
          skipped.push({ server, name: t.name, reason: `"${name}" is already the name of a tool of server "${owner}"` });
          continue;
        }
        let offered;
        try {
          offered = t.name === name ? t.tool : { ...t.tool, name }; // the MCP tool object under its palette name
        } catch (error) {
          skipped.push({ server, name: t.name, reason: `its definition cannot be read: ${errorText(error)}` });
          continue;
        }
        byName.set(name, { server, tool: t.tool, name: t.name, offered, description: t.description, inputSchema: t.inputSchema });
      }
    }
    // With options.cache, each server is its tools' namespace (SPEC 8): the index offers a small
    // server whole once the message or the history ranks one of its tools (measured for runs,
    // bench/tool-search/DESIGN.md "Runs"); without a run, routing narrows within servers as before.
    const docs = [...byName].map(([name, t]) => ({ name, description: t.description, inputSchema: t.inputSchema, ...(cache === null ? {} : { namespace: t.server }) }));
    // The previous index is left to the garbage collector: a turn in flight may still search it.
    const { index, embedding } = await indexOf(docs).catch(async (error) => {
      if (!(error instanceof RangeError)) throw error;
      // Too large for one index: each server whose tools make it so is left out, in the servers' order.
      const kept = [];
      for (const server of serverOrder) {
        const own = docs.filter((d) => byName.get(d.name)?.server === server);
        try {
          if (own.length) new ToolIndex([...kept, ...own], { limit }).dispose();
          kept.push(...own);
        } catch (tooLarge) {
          if (!(tooLarge instanceof RangeError)) throw tooLarge;
          perServer.set(server, { tools: [], error: `its tools are too large to index with the others (${errorText(tooLarge)})` });
          for (const d of own) byName.delete(d.name);
        }
      }
      return indexOf(kept);
    });
    const failures = [...perServer].filter(([, s]) => s.error !== null).map(([server, s]) => Object.freeze({ server, error: s.error }));
    for (const f of failures) warn(`LIST_FAILED:${f.server}`, `server "${f.server}" could not be listed (${f.error}); its tools are left out until it lists again.`);
    const sizes = new Map([...byName].map(([name, t]) => [name, definition(name, t)]));
    // The search tool is sent when a turn narrows: its definition counts among those offered (never a listed name).
    if (searchName !== false) sizes.set(searchName, definition(searchName, searchTool()));
    listing = { byName, names: [...byName.keys()], index, embedding, failures, skipped: skipped.map((x) => Object.freeze(x)), sizes, tokens: new Map() };
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

  // The MCP tool object under its palette name (a copy when renamed, made at listing).
  const offeredTool = (l, name) => l.byName.get(name).offered;

  // A definition's tokens, counted once per listing; countTokens must answer a finite number >= 0.
  function tokensOf(name, l) {
    let tokens = l.tokens.get(name);
    if (tokens === undefined) {
      tokens = countTokens(l.sizes.get(name));
      if (typeof tokens !== "number" || !Number.isFinite(tokens) || tokens < 0) {
        throw new TypeError(`${WHERE}: options.countTokens must return a finite number >= 0, got ${shown(tokens)}`);
      }
      l.tokens.set(name, tokens);
    }
    return tokens;
  }

  function measure(names, l) {
    const chars = names.reduce((n, name) => n + l.sizes.get(name).length, 0);
    const tokens = countTokens ? names.reduce((n, name) => n + tokensOf(name, l), 0) : null;
    return { chars, tokens };
  }

  /** One agent run: its turns share what search_tools found. */
  function run() {
    const found = []; // palette names search_tools found, in order
    let turn = null; // the turn of the latest route() started that finished
    let turns = 0; // route() calls started
    const lenient = new WeakSet(); // turns routed for an adapter that lets calls outside the palette run (shadow, "allow")
    const targets = new WeakMap(); // turn → where each name it offered went: a call is gated on (server, tool)
    // With options.cache: the run's PaletteRun over the listed tools and the search tool (pinned),
    // a new one when the listing's names change.
    const messages = []; // the run's user messages, each once in a row
    const earlier = (message) => {
      if (messages[messages.length - 1] !== message) messages.push(message);
      return Object.freeze(messages.slice(0, -1));
    };
    // When the listing changes, what the run showed the model of the tools still listed is
    // carried into the new run: a deferred run's revealed tools stay revealed (the model loaded
    // them), an appending run's listed tools stay listed (nothing is removed).
    const keep = cache === null ? null : runKeeper(cache, () => (searchName === false ? [] : [searchName]));
    let kept = null; // { run, last: its last step, revealed: what it revealed, in order }
    // (A loop, not push(...names): a list of 150,000 names overflows the stack.)
    const remember = (names) => {
      for (const name of names) kept.revealed.push(name);
      return names;
    };
    const stepOf = (l, outcome) => {
      const registered = searchName === false ? l.names : [...l.names, searchName];
      const { run, fresh } = keep(registered);
      let carried = [];
      if (fresh) {
        const still = new Set(registered);
        carried = (cache === "deferred" ? kept?.revealed ?? [] : cache === "append" ? kept?.last?.listed ?? [] : []).filter((n) => still.has(n));
        kept = { run, last: null, revealed: [] };
        if (cache === "deferred") remember(run.reveal(carried));
      }
      const palette = cache === "append" && carried.length && outcome.kind === "routed" ? { kind: "routed", names: [...carried, ...outcome.names], unresolved: [] } : outcome;
      kept.last = kept.run.step(palette);
      remember(kept.last.revealed);
      return kept.last;
    };

    async function route(context, { signal } = {}) {
      return routeTurn(context, signal, false);
    }

    async function routeTurn(context, signal, admitsListed) {
      if (typeof context !== "string" && !isObject(context)) throw fail(`${WHERE}: route(context)`, "the turn's message (a string) or a context object with its message", context);
      const ctx = typeof context === "string" ? { message: context } : context;
      checkSignal(signal, `${WHERE}: route(context, options).signal`);
      const number = turns++;
      const l = await abortable(listed(), signal);
      let decision = null;
      // With a run (options.cache), the index also reads the run's earlier messages (SPEC 8
      // `history`), unless the context brings its own. Read as the rows are: a context that
      // cannot be read fails the procedural layer (refusal 2a), as the index's own reading does.
      const withHistory = () => (cache !== null && typeof ctx.message === "string" && !("history" in ctx) ? { ...ctx, history: earlier(ctx.message) } : ctx);
      const rows = async () => {
        const own = entries ? await entries(ctx) : await l.index.entries(withHistory());
        const list = own == null ? [] : [...own];
        for (const name of found) list.push({ tool: name });
        return list;
      };
      const outcome = await resolvePalette({
        entries: rows,
        registered: l.names,
        signal,
        ...(timeoutMs === undefined || timeoutMs === Infinity ? {} : { timeoutMs }), // Infinity: no budget
        onDecision: (d) => {
          decision = d;
        },
      });
      const narrowed = outcome.kind === "routed";
      // With a run, its step: what is offered (the gate), listed (sent in full) and deferred.
      const step = cache === null ? null : stepOf(l, outcome);
      const toolOf = (name) => (name === searchName && !l.byName.has(name) ? searchTool() : offeredTool(l, name));
      const withSearch = step === null && narrowed && searchName !== false;
      const offeredNames = step ? [...step.offered] : narrowed ? [...outcome.names, ...(withSearch ? [searchName] : [])] : [...l.names];
      const listedNames = step ? [...step.listed] : offeredNames;
      const names = offeredNames.filter((name) => l.byName.has(name)); // the servers' tools offered
      const offeredSet = new Set(names);
      const tools = listedNames.map(toolOf);
      // Per server: offered and hidden counts, definitions offered against the whole set.
      const servers = {};
      for (const server of clients.keys()) {
        const state = perServer.get(server);
        const own = l.names.filter((n) => l.byName.get(n).server === server);
        const offered = own.filter((n) => offeredSet.has(n));
        put(servers, server, Object.freeze({
          listed: state !== undefined && state.error === null,
          error: state ? state.error : null,
          tools: own.length,
          offered: offered.length,
          hidden: own.length - offered.length,
          definitions: Object.freeze({ offered: Object.freeze(measure(offered, l)), all: Object.freeze(measure(own, l)) }),
        }));
      }
      const report = Object.freeze({
        turn: number,
        // The turn from 1: the report is then a step tool-palette/providers reads as it is.
        step: number + 1,
        routing: decision,
        offered: Object.freeze(offeredNames),
        hidden: Object.freeze(decision && narrowed ? [...decision.hidden] : []),
        found: Object.freeze([...found]),
        servers: Object.freeze(servers),
        failures: l.failures,
        skipped: Object.freeze(l.skipped),
        embedding: l.embedding,
        // What the model is sent in full (the search tool included) against every listed tool.
        definitions: Object.freeze({ offered: Object.freeze(measure(listedNames, l)), all: Object.freeze(measure(l.names, l)) }),
        // The run's lists (SPEC 8) with options.cache; without it, what is sent is what is offered.
        listed: step ? step.listed : Object.freeze(listedNames),
        deferred: step ? step.deferred : Object.freeze([]),
        revealed: step ? step.revealed : Object.freeze([]),
        kept: step ? step.kept : null,
      });
      const palette = step || narrowed ? report.offered : outcome;
      const deferred = Object.freeze((step ? step.deferred : []).map(toolOf));
      const t = Object.freeze({ ctx, outcome, decision, names: report.offered, tools: Object.freeze(tools), deferred, report, palette });
      targets.set(t, new Map(names.map((name) => [name, l.byName.get(name)])));
      if (admitsListed) lenient.add(t);
      // A throwing onDecision fails this route() before it becomes the run's turn.
      if (onDecision) onDecision(report);
      // The run gates on its latest step: a route() started earlier that finishes later is not taken.
      if (turn === null || turn.report.turn < number) turn = t;
      return t;
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

    // The best matches of the query: hybrid when the tools were embedded (the query embedded
    // within timeoutMs; if that fails, onEmbedError gets the error and the search is lexical).
    async function search(args, l, signal) {
      const query = isObject(args) && typeof args.query === "string" ? args.query : "";
      let hits = null;
      if (l.embedding?.hybrid && query.trim() !== "") {
        try {
          const embedded = Promise.resolve().then(() => embed(query));
          const vector = await abortable(within(embedded, timeoutMs ?? Infinity, () => new Error(`embedding the query timed out after ${timeoutMs} ms`)), signal);
          hits = l.index.search(query, { limit, vector });
        } catch (error) {
          if (signal?.aborted) throw reasonOf(signal);
          // As an index's own onEmbedError: what it throws is ignored, and the search is lexical.
          try {
            if (onEmbedError !== null) onEmbedError(error);
          } catch {}
        }
      }
      try {
        hits ??= l.index.search(query, { limit });
      } catch (error) {
        // A query the index cannot take (beyond its size limits) is answered, not thrown.
        return failed(`The query could not be searched: ${errorText(error)}`);
      }
      const tools = hits.map(({ name }) => {
        const { description, inputSchema } = l.byName.get(name);
        if (!found.includes(name)) found.push(name);
        return { name, description, inputSchema: inputSchema ?? {} };
      });
      const text = tools.length
        ? `Found ${tools.length} tool${tools.length === 1 ? "" : "s"}; you can call ${tools.length === 1 ? "it" : "them"} from your next step on:\n${JSON.stringify(tools)}`
        : "No tool matches this query; try other words.";
      return { content: [{ type: "text", text }], structuredContent: { tools } };
    }

    // A call the caller aborts rejects with the signal's reason at once, whether or not the server heeds it.
    async function callTool(call, { signal } = {}) {
      checkSignal(signal, `${WHERE}: callTool(call, options).signal`);
      if (signal?.aborted) throw reasonOf(signal);
      let c;
      try {
        c = read(call);
      } catch (error) {
        if (error instanceof SyntaxError) return failed(`The arguments of ${call.name ?? call.toolName} are not valid JSON: ${error.message}`);
        throw error;
      }
      const l = await abortable(listed(), signal);
      // Before the run's first step nothing is offered yet.
      const offered = turn ? turn.names : [];
      const isSearch = c.name === searchName && searchName !== false;
      const known = l.byName.has(c.name) || isSearch;
      // A turn that did not narrow offers every tool: the frameworks' tool sets hold the search tool
      // too, and a search then reveals nothing hidden. A name offered for a tool that now belongs
      // to another server (after list_changed) is not that turn's tool.
      const was = turn ? targets.get(turn).get(c.name) : undefined;
      const now = l.byName.get(c.name);
      const moved = was !== undefined && (was.server !== now?.server || was.name !== now?.name);
      const outside = moved || (!offered.includes(c.name) && !(isSearch && turn !== null && turn.outcome.kind !== "routed"));
      if (!known || (outside && outsidePalette === "refuse" && !(turn !== null && lenient.has(turn)))) {
        // An unknown name is answered as a hidden one: the answer tells the model nothing of what is hidden.
        const available = offered.length ? `Available tools: ${offered.join(", ")}.` : "No tool is offered before the run's first step (route()).";
        return failed(`Tool ${c.name} is not available in this step. ${available}`);
      }
      if (isSearch) return search(c.args, l, signal);
      const ctx = turn ? turn.ctx : { message: "" };
      const dispatch = policies ? policies.dispatch(c, ctx, turn ? turn.palette : undefined) : null;
      const target = dispatch ? dispatch.call : c;
      // A redirect to the search tool (which the turn offers when routing narrows) searches.
      if (target.name === searchName && searchName !== false) return search(target.args, l, signal);
      const entry = l.byName.get(target.name);
      if (!entry) return failed(`Tool ${c.name} was redirected to ${target.name}, which no server lists.`);
      // The server gets a signal of this call's own, aborted with the caller's: the SDK leaves a listener on the
      // signal it is given, so a run's one signal, given to each of its calls, would keep one per call (Node warns past 10).
      const own = signal ? new AbortController() : null;
      const relay = () => own.abort(reasonOf(signal));
      signal?.addEventListener("abort", relay, { once: true });
      try {
        const answer = await abortable(Promise.resolve(clients.get(entry.server).callTool({ name: entry.name, arguments: target.args ?? {} }, undefined, own ? { signal: own.signal } : undefined)), signal);
        // A client that is not the SDK's may answer anything: what is no CallToolResult is a failed call.
        return isObject(answer) ? answer : failed(`Server "${entry.server}" answered the call of ${entry.name} with no CallToolResult (${answer === null ? "null" : typeof answer}).`);
      } catch (error) {
        if (signal?.aborted) throw reasonOf(signal);
        return failed(errorText(error));
      } finally {
        signal?.removeEventListener("abort", relay);
      }
    }

    // An adapter in shadow mode, or with outsidePalette: "allow", lets a call to a tool it did not offer run:
    // so does the run, for the steps it routes for that adapter (the adapter reports such calls in `outside`).
    const router = async (ctx, { signal, onDecision: decided, mode, outsidePalette: adapterOutside } = {}) => {
      const t = await routeTurn(ctx, signal, mode === "shadow" || adapterOutside === "allow");
      if (decided && t.decision) decided(t.decision);
      return t.outcome;
    };

    // Every listed tool (and the search tool), in a framework's shape, each calling through callTool.
    async function every() {
      const l = await listed();
      const all = l.names.map((name) => offeredTool(l, name));
      if (searchName !== false) all.push(searchTool());
      return all;
    }
    const text = (result) =>
      (isObject(result) && Array.isArray(result.content) ? result.content : []).map((p) => (isObject(p) && p.type === "text" ? p.text : JSON.stringify(p))).join("\n");

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
      // With cache "deferred": tools the model loaded itself (a client tool search you answered,
      // e.g. with tool-palette/providers given this run): offered from the next turn on.
      reveal(names) {
        if (cache !== "deferred") throw new Error(`${WHERE}: run.reveal() needs options.cache "deferred" (this palette's is ${cache === null ? "none" : `"${cache}"`})`);
        if (kept === null) throw new Error(`${WHERE}: run.reveal() before the run's first step (route())`);
        return remember(kept.run.reveal(names));
      },
      async aiSdkTools() {
        const record = {};
        for (const t of await every()) {
          // (defined, not assigned: a tool named "__proto__" is an own key like any other)
          const schema = { [AI_SCHEMA]: true, _type: undefined, jsonSchema: t.inputSchema ?? { type: "object", properties: {} }, validate: undefined };
          put(record, t.name, { type: "function", description: t.description ?? "", inputSchema: schema, execute: (input, o) => callTool({ name: t.name, arguments: input, id: o?.toolCallId }, { signal: o?.abortSignal }) });
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
          invoke: async (_runContext, input, details) => text(await callTool({ name: t.name, arguments: input, id: details?.toolCall?.callId }, { signal: details?.signal })),
        }));
      },
      async langchainTools(tool) {
        if (!isFunction(tool)) throw fail(`${WHERE}: langchainTools(tool)`, 'the tool function of "langchain"', tool);
        return (await every()).map((t) =>
          tool(async (input, config) => text(await callTool({ name: t.name, arguments: input, id: config?.toolCall?.id }, { signal: config?.signal })), {
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
      // A listing in flight was asked before this refresh: let it finish, then list again.
      while (listing$) await listing$.catch(() => {});
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
      return l.names.map((name) => offeredTool(l, name));
    },
    /** Frees the current index now (a later turn lists the servers again). */
    dispose() {
      listing?.index.dispose();
      listing = null;
      for (const name of clients.keys()) stale.add(name);
    },
  };

  function report(l) {
    return Object.freeze({ tools: l.names.length, failures: l.failures, skipped: Object.freeze(l.skipped), embedding: l.embedding });
  }
}
