// tool-palette/mcp, listing: every server's tools (within listTimeoutMs), their palette names, the index over them, what is left out and the
// definitions' sizes.
import { ToolIndex } from "tool-palette";
import { errorText, fail, isFunction, isObject, kept, put, timerFor, tryOr, within } from "../kernel/values.js";

const LIST_CHANGED = "notifications/tools/list_changed";
// The largest tool definition (its JSON, in code units) the palette keeps, and the largest server's SKILL.md (bytes) it reads: far beyond what a
// model is sent for one tool or skill, and one server's oversized tool or skill cannot take the index or the conversation down.
export const MAX_DEFINITION = 1_048_576;

// One listed tool, read once, as the JSON a model is sent (a tool that cannot be sent is left out).
function readTool(tool) {
  if (!isObject(tool)) throw new TypeError("it is not an object");
  const name = tool.name;
  if (typeof name !== "string" || name === "") throw new TypeError("its name is not a non-empty string");
  const { description, inputSchema } = tool;
  const json = JSON.stringify({ name, description: typeof description === "string" ? description : "", inputSchema: inputSchema ?? {} });
  if (json.length > MAX_DEFINITION) throw new RangeError(`it is ${json.length} code units long, more than ${MAX_DEFINITION} (too large to send to a model)`);
  return { tool, ...JSON.parse(json) };
}

// What an SDK Client's request() checks an answer with: nothing (a tool the SDK's schema refuses is left out alone, by readTool).
export const UNCHECKED = Object.freeze({ safeParse: (data) => ({ success: true, data }) });

// Every page of a paginated list, all within `ms`. Each request has a signal of its own (the SDK leaves a listener on the signal it is given);
// pages that answer at once never let the timer run, so the time is checked between pages too.
export function pages(page, key, ms, timedOut, what) {
  const deadline = timerFor(ms) === null ? Infinity : Date.now() + ms;
  let current = null;
  const all = async () => {
    const out = [];
    const cursors = new Set();
    for (let n = 0, cursor; ; n++) {
      if (Date.now() > deadline) throw timedOut();
      current = new AbortController();
      const result = await page(cursor === undefined ? undefined : { cursor }, { signal: current.signal });
      if (!isObject(result) || !Array.isArray(result[key])) throw new TypeError(`${what} answered no ${key} array (page ${n})`);
      for (const item of result[key]) out.push(item); // (not push(...): a page of 150,000 items overflows the stack)
      cursor = result.nextCursor;
      if (cursor == null || cursor === "") return out;
      if (cursors.has(cursor)) throw new RangeError(`${what} answered the nextCursor ${JSON.stringify(String(cursor)).slice(0, 80)} twice (page ${n + 1}): its pages loop`);
      cursors.add(cursor);
      if (n >= 10_000) throw new RangeError(`${what} kept answering a nextCursor (10,000 pages)`);
    }
  };
  return within(all(), ms, timedOut, { abort: (error) => current?.abort(error) });
}

// One page of tools/list: listTools() (the SDK Client keeps what it learns, such as output schemas); refused by the SDK's own check, unchecked.
const listPage = (client) => async (params, options) => {
  try {
    return await client.listTools(params, options);
  } catch (error) {
    if (!(isFunction(client.request) && "fallbackNotificationHandler" in client) || options.signal.aborted) throw error;
    return client.request({ method: "tools/list", params }, UNCHECKED, options);
  }
};

export const definition = (name, t) => JSON.stringify({ name, description: t.description, inputSchema: t.inputSchema ?? {} });

const shown = (v) => {
  if (v instanceof Promise || (isObject(v) && isFunction(v.then))) return "a Promise (countTokens must count synchronously)";
  return typeof v === "number" ? String(v) : v === null ? "null" : typeof v === "string" ? `a string (${JSON.stringify(v.slice(0, 20))})` : typeof v;
};

// The listing of the servers: `listed()` answers the current one, `byName` mapping a palette name to its server, the server's tool object and name
// for it, the object under its palette name (`offered`), and its description and input schema as JSON.
export function createListing(o) {
  const { clients, limit, listTimeoutMs, searchName, skillTool, embed, onEmbedError, cache, countTokens, warn } = o;
  const serverOrder = [...clients.keys()];

  // Hybrid ranking embeds each tool's definition as a model is sent it (measured better than name and description alone,
  // bench/tool-search/DESIGN.md), each text once; when embedding fails, ranking is lexical until the next listing.
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
      // Tools too large to index (the index's own RangeError) are no embedding failure: list() leaves out their servers.
      if (building && error instanceof RangeError) throw error;
      vectors.clear();
      warn("EMBED_FAILED", `the tools could not be embedded (${errorText(error)}); routing ranks them lexically until they are listed again.`);
      return { index: new ToolIndex(docs, { limit }), embedding: Object.freeze({ hybrid: false, error: errorText(error) }) };
    }
  }

  let [listing, listing$, last] = [null, null, null]; // the current listing, the one in flight, the latest (even when stale)
  const stale = new Set(clients.keys()); // servers to list again
  const perServer = new Map(serverOrder.map((server) => [server, { tools: [], error: null }])); // server → { tools, error }, in the servers' order
  const listeners = []; // what else a listing reads of the servers (their skills, mcp/skills.js)

  // list_changed marks the server stale, through the SDK's fallback handler, so that a handler of the host's stays in charge of its method.
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

  // Names listed by two servers (or taken by the search or load_skill tool) are <server>__<name>, taken first: a listed name equal to one of them is
  // the one left out. A server that lists one name twice keeps its first tool of it.
  function named(skipped) {
    // A tool left out, named by `name()` (read only then: a tool is read once).
    const unread = (server, name) => (error) => skipped.push({ server, name: name(), reason: `its definition cannot be read: ${errorText(error)}` });
    const nameOf = (tool) => () => tryOr(() => (isObject(tool) && typeof tool.name === "string" ? tool.name : ""), "");
    const read = [...perServer].map(([server, { tools }]) => [server, tools.flatMap((tool) => kept(() => readTool(tool), unread(server, nameOf(tool))))]);
    const listers = new Map(); // name → the servers that list it
    for (const [server, tools] of read) for (const t of tools) (listers.get(t.name) ?? listers.set(t.name, new Set()).get(t.name)).add(server);
    const paletteName = (server, t) => (listers.get(t.name).size > 1 || t.name === searchName || t.name === skillTool ? `${server}__${t.name}` : t.name);
    const claimed = new Map(); // <server>__<name> → that server
    for (const [server, tools] of read) for (const t of tools) if (paletteName(server, t) !== t.name && !claimed.has(paletteName(server, t))) claimed.set(paletteName(server, t), server);
    const byName = new Map();
    for (const [server, tools] of read) {
      for (const t of tools) {
        const name = paletteName(server, t);
        const owner = byName.has(name) ? byName.get(name).server : name === t.name && claimed.has(name) ? claimed.get(name) : null;
        const own = name === searchName ? "the search tool" : name === skillTool ? "the skill tool" : null; // (a <server>__<name> may be)
        if (owner !== null || own !== null) {
          skipped.push({ server, name: t.name, reason: `"${name}" is already the name of ${own ?? `a tool of server "${owner}"`}` });
          continue;
        }
        // The MCP tool object under its palette name (a copy, which may throw).
        const [offered] = kept(() => (t.name === name ? t.tool : { ...t.tool, name }), unread(server, () => t.name));
        if (offered) byName.set(name, { server, tool: t.tool, name: t.name, offered, description: t.description, inputSchema: t.inputSchema });
      }
    }
    return byName;
  }

  // The index over the named tools; too large for one index, each server whose tools make it so is left out. With options.cache each server is its
  // tools' namespace (SPEC 8; measured for runs, bench/tool-search/DESIGN.md "Runs").
  function indexed(byName) {
    const docs = [...byName].map(([name, t]) => ({ name, description: t.description, inputSchema: t.inputSchema, ...(cache === null ? {} : { namespace: t.server }) }));
    return indexOf(docs).catch(async (error) => {
      if (!(error instanceof RangeError)) throw error;
      const fit = [];
      for (const server of serverOrder) {
        const own = docs.filter((d) => byName.get(d.name)?.server === server);
        try {
          if (own.length) new ToolIndex([...fit, ...own], { limit }).dispose();
          fit.push(...own);
        } catch (tooLarge) {
          if (!(tooLarge instanceof RangeError)) throw tooLarge;
          perServer.set(server, { tools: [], error: `its tools are too large to index with the others (${errorText(tooLarge)})` });
          for (const d of own) byName.delete(d.name);
        }
      }
      return indexOf(fit);
    });
  }

  async function list() {
    const names = [...stale];
    stale.clear();
    const timedOut = (server) => () => new Error(`listTools() of server "${server}" timed out after ${listTimeoutMs} ms`);
    const listOne = (server) => pages(listPage(clients.get(server)), "tools", listTimeoutMs, timedOut(server), "listTools()").then((tools) => ({ tools, error: null }));
    await Promise.all(names.map(async (server) => perServer.set(server, await listOne(server).catch((error) => ({ tools: [], error: errorText(error) })))));
    const skipped = [];
    const byName = named(skipped);
    // The previous index is left to the garbage collector: a turn in flight may still search it.
    const { index, embedding } = await indexed(byName);
    const failures = [...perServer].filter(([, s]) => s.error !== null).map(([server, s]) => Object.freeze({ server, error: s.error }));
    for (const f of failures) warn(`LIST_FAILED:${f.server}`, `server "${f.server}" could not be listed (${f.error}); its tools are left out until it lists again.`);
    const sizes = new Map([...byName].map(([name, t]) => [name, definition(name, t)]));
    // The search tool is sent when a turn narrows: its definition counts among those offered (never a listed name).
    if (searchName !== false) sizes.set(searchName, definition(searchName, searchTool()));
    const l = { byName, names: [...byName.keys()], index, embedding, failures, skipped, sizes, tokens: new Map() };
    for (const listen of listeners) await listen(l, names);
    l.skipped = l.skipped.map((x) => Object.freeze(x));
    return (listing = last = l);
  }

  async function listed() {
    if (listing && stale.size === 0) return listing;
    return (listing$ ??= list().finally(() => (listing$ = null)));
  }

  const searchTool = () => ({
    name: searchName,
    description: "Search the tools available to you by what they do, when none of the tools you were given fits. Answers the best matches (name, description, input schema); the tools found can be called from your next step on.",
    inputSchema: { type: "object", properties: { query: { type: "string", description: "what the tool should do, in a few words" } }, required: ["query"] },
  });

  const offeredTool = (l, name) => l.byName.get(name).offered;

  // A definition's tokens, counted once per listing.
  function tokensOf(name, l) {
    if (!l.tokens.has(name)) {
      const tokens = countTokens(l.sizes.get(name));
      if (typeof tokens !== "number" || !Number.isFinite(tokens) || tokens < 0) throw new TypeError(`${o.where}: options.countTokens must return a finite number >= 0, got ${shown(tokens)}`);
      l.tokens.set(name, tokens);
    }
    return l.tokens.get(name);
  }

  const measure = (names, l) =>
    Object.freeze({ chars: names.reduce((n, name) => n + l.sizes.get(name).length, 0), tokens: countTokens ? names.reduce((n, name) => n + tokensOf(name, l), 0) : null });

  // Per server: its tools offered and hidden, and the definitions the model is sent (`listed`: with a run, what it lists) against all of its own.
  function servers(l, offered, listed) {
    const record = {};
    for (const server of clients.keys()) {
      const own = l.names.filter((n) => l.byName.get(n).server === server);
      const mine = own.filter((n) => offered.has(n));
      const definitions = Object.freeze({ offered: measure(own.filter((n) => listed.has(n)), l), all: measure(own, l) });
      put(record, server, Object.freeze({ listed: perServer.get(server).error === null, error: perServer.get(server).error, tools: own.length, offered: mine.length, hidden: own.length - mine.length, definitions }));
    }
    return Object.freeze(record);
  }

  return {
    listed,
    searchTool,
    offeredTool,
    measure,
    servers,
    // `listen(listing, servers)`: at each listing, with the servers it listed again, before it is answered.
    listen: (listen) => listeners.push(listen),
    latest: () => last,
    palette: {
      async refresh(server) {
        if (server !== undefined && !clients.has(server)) throw fail(`${o.where}: refresh(server)`, `one of the servers (${[...clients.keys()].join(", ")})`, server);
        while (listing$) await listing$.catch(() => {});
        for (const name of server === undefined ? clients.keys() : [server]) stale.add(name);
        listing = null;
        const l = await listed();
        return Object.freeze({ tools: l.names.length, failures: l.failures, skipped: Object.freeze(l.skipped), embedding: l.embedding });
      },
      async locate(name) {
        const entry = (await listed()).byName.get(name);
        return entry ? Object.freeze({ server: entry.server, name: entry.name }) : undefined;
      },
      async tools() {
        const l = await listed();
        return l.names.map((name) => offeredTool(l, name));
      },
      dispose() {
        listing?.index.dispose();
        listing = null;
        for (const name of clients.keys()) stale.add(name);
      },
    },
  };
}
