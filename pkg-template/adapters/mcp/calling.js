// tool-palette/mcp, calling: one run's calls, through the kernel's gate and the policies (POST seam) to their server. A call outside the turn's
// palette is a failed call (isError: true) naming only the offered tools.
import { refuses } from "../kernel/core.js";
import { aiSdkTools, langchainTools, NO_TOOL_MATCHES, openaiAgentsTools, resultText } from "../kernel/tools.js";
import { abortable, attempt, checkSignal, errorText, fail, fields, isFunction, isObject, read, reasonOf, tryOr, within } from "../kernel/values.js";

const failed = (text) => ({ content: [{ type: "text", text }], isError: true });

// A call in MCP's shape or a framework's. Arguments that are no JSON are the model's: answered (`invalid`), not thrown.
function readCall(call, where) {
  const at = `${where}: callTool(call)`;
  if (!isObject(call)) throw fail(at, "a tool call ({ name, arguments })", call);
  const own = read(call, "name", `${at}.name`);
  const name = typeof own === "string" ? own : read(call, "toolName", `${at}.toolName`);
  if (typeof name !== "string") throw fail(`${at}.name`, "a string", name);
  const key = ["arguments", "args"].find((k) => attempt(() => k in call, `${at}.${k}`)) ?? "input";
  let args = read(call, key, `${at}.${key}`);
  if (typeof args === "string") {
    try {
      args = args.trim() === "" ? {} : JSON.parse(args);
    } catch (error) {
      return { name, invalid: `The arguments of ${name} are not valid JSON: ${error.message}` };
    }
  }
  let id;
  for (const k of ["id", "toolCallId", "callId"]) if ((id = read(call, k, `${at}.${k}`)) != null) break;
  return { name, args: args ?? {}, ...(id == null ? {} : { id }) };
}

export function createCalling(o, listing, routing) {
  const { clients, policies, searchName, skillTool, outsidePalette, limit, embed, onEmbedError, timeoutMs, where } = o;
  const { found, called, skills, changed } = routing;
  const isSkillTool = (name) => skills !== null && skills.def !== null && name === skillTool;
  const isSearchTool = (name) => searchName !== false && name === searchName;
  const isOwn = (name) => isSearchTool(name) || isSkillTool(name); // the run's own tools, answered here

  // Hybrid when the tools were embedded (else, or when the query's embedding fails, lexical).
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
        if (onEmbedError !== null) tryOr(() => onEmbedError(error));
      }
    }
    try {
      hits ??= l.index.search(query, { limit });
    } catch (error) {
      return failed(`The query could not be searched: ${errorText(error)}`);
    }
    const before = found.length;
    const tools = hits.map(({ name }) => {
      const { description, inputSchema } = l.byName.get(name);
      if (!found.includes(name)) found.push(name);
      return { name, description, inputSchema: inputSchema ?? {} };
    });
    if (found.length > before) changed();
    const n = tools.length;
    const answer = n ? `Found ${n} tool${n === 1 ? "" : "s"}; you can call ${n === 1 ? "it" : "them"} from your next step on:\n${JSON.stringify(tools)}` : NO_TOOL_MATCHES;
    return { content: [{ type: "text", text: answer }], structuredContent: { tools } };
  }

  // The call to its server, with a signal of its own (the SDK leaves a listener on the signal it is given: a run's one signal would keep one per call).
  async function dispatch(entry, args, signal) {
    const own = signal ? new AbortController() : null;
    const relay = () => own.abort(reasonOf(signal));
    signal?.addEventListener("abort", relay, { once: true });
    try {
      const answer = await abortable(Promise.resolve(clients.get(entry.server).callTool({ name: entry.name, arguments: args ?? {} }, undefined, own ? { signal: own.signal } : undefined)), signal);
      return isObject(answer) ? answer : failed(`Server "${entry.server}" answered the call of ${entry.name} with no CallToolResult (${answer === null ? "null" : typeof answer}).`);
    } catch (error) {
      if (signal?.aborted) throw reasonOf(signal);
      return failed(errorText(error));
    } finally {
      signal?.removeEventListener("abort", relay);
    }
  }

  async function callTool(call, options) {
    const { signal } = fields(options, ["signal"], `${where}: callTool(call, options)`);
    checkSignal(signal, `${where}: callTool(call, options).signal`);
    if (signal?.aborted) throw reasonOf(signal);
    const c = readCall(call, where);
    if (c.invalid) return failed(c.invalid);
    const l = await abortable(listing.listed(), signal);
    const turn = routing.gate; // the latest turn's gate (a restored run's: the saved one)
    const offered = turn === null ? [] : turn.names ?? routing.every(l);
    // A turn that did not narrow offers the run's own tools too (the search reveals nothing hidden); a name now another server's (after
    // list_changed) is not that turn's tool; an unknown name is answered as a hidden one (nothing hidden shows).
    const was = turn ? turn.targets.get(c.name) : undefined;
    const now = l.byName.get(c.name);
    const moved = was !== undefined && (was.server !== now?.server || was.name !== now?.name);
    const gate = new Set(moved ? [] : offered);
    if (isOwn(c.name) && turn !== null && turn.kind !== "routed") gate.add(c.name);
    const known = (name) => l.byName.has(name) || isOwn(name);
    if (!known(c.name) || refuses(gate, c.name, { allow: outsidePalette === "allow" || (turn !== null && turn.lenient), known })) {
      const available = offered.length ? `Available tools: ${offered.join(", ")}.` : "No tool is offered before the run's first step (route()).";
      return failed(`Tool ${c.name} is not available in this step. ${available}`);
    }
    // The run's own tool called, or redirected to.
    const own = async ({ name, args }) => {
      if (isSearchTool(name)) return search(args, l, signal);
      const text = await skills.load(args);
      changed();
      return { content: [{ type: "text", text }] };
    };
    if (isOwn(c.name)) return own(c);
    // A redirect lands in the turn's palette; a turn that did not narrow offers every tool listed (and the run's own), as the policies' gate reads.
    const narrowed = turn && (Array.isArray(turn.palette) || turn.kind === "routed");
    const palette = narrowed ? turn.palette : routing.all(l);
    const dispatched = policies ? policies.dispatch(c, turn ? turn.ctx : { message: "" }, palette) : null;
    const target = dispatched ? dispatched.call : c;
    if (isOwn(target.name)) return own(target);
    const entry = l.byName.get(target.name);
    if (!entry) return failed(`Tool ${c.name} was redirected to ${target.name}, which no server lists.`);
    called(target.name);
    return dispatch(entry, target.args, signal);
  }

  const every = async () => {
    const l = await listing.listed();
    return routing.all(l).map((name) => routing.toolOf(l, name));
  };
  const run = (name, args, { id, signal }) => callTool({ name, arguments: args, id }, { signal });

  return {
    callTool,
    aiSdkTools: async () => aiSdkTools(await every(), run),
    openaiAgentsTools: async () => openaiAgentsTools(await every(), run, resultText),
    async langchainTools(tool) {
      if (!isFunction(tool)) throw fail(`${where}: langchainTools(tool)`, 'the tool function of "langchain"', tool);
      return langchainTools(await every(), run, tool, resultText);
    },
  };
}
