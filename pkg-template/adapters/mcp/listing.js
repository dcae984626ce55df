// tool-palette/mcp, listing: every server's tools (tools/list pages within listTimeoutMs),
// their palette names (a name two servers list is <server>__<name>), the index over them
// (hybrid with options.index.embed), what is left out (a server that fails to list, or whose
// tools are too large to index with the others; a tool that cannot be read) and the
// definitions' sizes the reports give.
import { ToolIndex } from "tool-palette";
import { errorText, fail, isFunction, isObject, put, timerFor, within } from "../kernel/values.js";

const LIST_CHANGED = "notifications/tools/list_changed";

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
  const deadline = timerFor(ms) === null ? Infinity : Date.now() + ms;
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

// What a tool's definition looks like to a model: its name, description and input schema as JSON.
const definition = (name, t) => JSON.stringify({ name, description: t.description, inputSchema: t.inputSchema ?? {} });

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

/**
 * The listing of the servers `o.clients`: `listed()` answers the current one (listing the servers marked
 * stale first), `{ byName, names, index, embedding, failures, skipped, sizes, tokens }`, where `byName` maps a
 * palette name to `{ server, tool (the server's own object), name (the server's name for it), offered (the object
 * under its palette name), description and inputSchema (read once, as JSON) }`.
 */
export function createListing(o) {
  const { clients, limit, listTimeoutMs, searchName, embed, onEmbedError, cache, countTokens, warn } = o;

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

  let listing = null;
  let listing$ = null;
  const stale = new Set(clients.keys()); // servers to list again
  const perServer = new Map(); // server → { tools, error }
  const serverOrder = [...clients.keys()];
  const order = (server) => serverOrder.indexOf(server);

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

  // Each tool read once: one that cannot be read (a throwing getter, a cyclic schema) is left
  // out and listed in `skipped`; its server's other tools and the other servers still serve.
  function readable(skipped) {
    const read = new Map(); // server → its tools, read
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
      read.set(server, kept);
    }
    return read;
  }

  // Names listed by two servers (or taken by the search tool) are known as <server>__<name>. A server
  // that lists one name twice does not make it collide: its first tool of that name keeps it.
  function named(readable, skipped) {
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
    return byName;
  }

  // The index over the named tools. Too large for one index: each server whose tools make it so is
  // left out, in the servers' order (named in the failures).
  function indexed(byName) {
    // With options.cache, each server is its tools' namespace (SPEC 8): the index offers a small
    // server whole once the message or the history ranks one of its tools (measured for runs,
    // bench/tool-search/DESIGN.md "Runs"); without a run, routing narrows within servers as before.
    const docs = [...byName].map(([name, t]) => ({ name, description: t.description, inputSchema: t.inputSchema, ...(cache === null ? {} : { namespace: t.server }) }));
    return indexOf(docs).catch(async (error) => {
      if (!(error instanceof RangeError)) throw error;
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
    const skipped = [];
    const byName = named(readable(skipped), skipped);
    // The previous index is left to the garbage collector: a turn in flight may still search it.
    const { index, embedding } = await indexed(byName);
    const failures = [...perServer].filter(([, s]) => s.error !== null).map(([server, s]) => Object.freeze({ server, error: s.error }));
    for (const f of failures) warn(`LIST_FAILED:${f.server}`, `server "${f.server}" could not be listed (${f.error}); its tools are left out until it lists again.`);
    const sizes = new Map([...byName].map(([name, t]) => [name, definition(name, t)]));
    // The search tool is sent when a turn narrows: its definition counts among those offered (never a listed name).
    if (searchName !== false) sizes.set(searchName, definition(searchName, searchTool()));
    listing = { byName, names: [...byName.keys()], index, embedding, failures, skipped: skipped.map((x) => Object.freeze(x)), sizes, tokens: new Map() };
    return listing;
  }

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
        throw new TypeError(`${o.where}: options.countTokens must return a finite number >= 0, got ${shown(tokens)}`);
      }
      l.tokens.set(name, tokens);
    }
    return tokens;
  }

  // The size of the definitions of `names`: characters, and tokens with countTokens.
  function measure(names, l) {
    const chars = names.reduce((n, name) => n + l.sizes.get(name).length, 0);
    const tokens = countTokens ? names.reduce((n, name) => n + tokensOf(name, l), 0) : null;
    return Object.freeze({ chars, tokens });
  }

  // Per server: whether it is listed, its tools offered (`offered`, a set of palette names) and hidden, and
  // their definitions against all of its tools'.
  function servers(l, offered) {
    const record = {};
    for (const server of clients.keys()) {
      const state = perServer.get(server);
      const own = l.names.filter((n) => l.byName.get(n).server === server);
      const mine = own.filter((n) => offered.has(n));
      put(record, server, Object.freeze({
        listed: state !== undefined && state.error === null,
        error: state ? state.error : null,
        tools: own.length,
        offered: mine.length,
        hidden: own.length - mine.length,
        definitions: Object.freeze({ offered: measure(mine, l), all: measure(own, l) }),
      }));
    }
    return Object.freeze(record);
  }

  const report = (l) => Object.freeze({ tools: l.names.length, failures: l.failures, skipped: Object.freeze(l.skipped), embedding: l.embedding });

  return {
    listed,
    searchTool,
    offeredTool,
    measure,
    servers,
    // The palette's own members.
    palette: {
      /** Lists every server again now (or the one named). */
      async refresh(server) {
        if (server !== undefined && !clients.has(server)) throw fail(`${o.where}: refresh(server)`, `one of the servers (${[...clients.keys()].join(", ")})`, server);
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
    },
  };
}
