// tool-palette/providers: a run's step (SPEC 8) as the tool fields of one request to a provider's API. What a provider cannot carry is an Error,
// never a request that offers something else. No SDK is imported (tests/providers/ checks the shapes against the official SDKs).
import { NO_TOOL_MATCHES } from "./kernel/tools.js";
import { attempt, errorText, fail, fields, isObject, isString, items, read as readField, tryOr } from "./kernel/values.js";

const EMPTY = Object.freeze({ type: "object", properties: {} });
const SEARCH_NAME = "tool_search";
const SEARCH_DESCRIPTION = "Search the tools that are not loaded yet, by what they should do. The tools found are loaded and can be called next.";
const searchSchema = () => ({ type: "object", properties: { query: { type: "string", description: "what the tool should do, in a few words" } }, required: ["query"], additionalProperties: false });

function readStep(step, where) {
  if (!isObject(step)) throw fail(`${where}: step`, "a PaletteStep (run.step(outcome))", step);
  const given = fields(step, ["offered", "listed", "deferred", "revealed", "step"], `${where}: step`);
  const lists = {};
  for (const key of ["offered", "listed", "deferred", "revealed"]) {
    const at = `${where}: step.${key}`;
    if (!attempt(() => Array.isArray(given[key]), at)) throw fail(at, "an array of tool names", given[key]);
    lists[key] = items(given[key], at);
    for (const [i, name] of lists[key].entries()) if (!isString(name)) throw fail(`${at}[${i}]`, "a string", name);
  }
  return { ...lists, step: Number.isSafeInteger(given.step) && given.step > 0 ? given.step : 1 };
}

// A definition's JSON schema (a plain object, or none), sent as it is: JSON the SDK can serialise. A zod schema or an AI SDK jsonSchema() is none;
// z.toJSONSchema()'s answer is one (its "~standard" is not enumerable).
function schemaOf(given, name, where) {
  const key = ["parameters", "inputSchema", "input_schema"].find((k) => given[k] != null);
  if (key === undefined) return EMPTY;
  const [schema, at] = [given[key], `${where}.${key}`];
  const standard = () => "~standard" in schema && (![Object.prototype, null].includes(Object.getPrototypeOf(schema)) || Object.prototype.propertyIsEnumerable.call(schema, "~standard"));
  if (!isObject(schema) || attempt(() => Array.isArray(schema) || standard() || ("jsonSchema" in schema && "validate" in schema), at)) {
    throw fail(at, "a JSON schema object (convert a zod schema with z.toJSONSchema())", schema);
  }
  try {
    JSON.stringify(schema);
  } catch (error) {
    throw new TypeError(`${at} (the schema of ${JSON.stringify(name)}) cannot be sent as JSON: ${errorText(error)}`, { cause: error });
  }
  return schema;
}

function readDefinition(def, name, where) {
  if (!isObject(def)) throw fail(where, "a tool definition { name, description?, parameters? }", def);
  const given = fields(def, ["description", "strict", "parameters", "inputSchema", "input_schema"], where);
  const { description, strict } = given;
  if (description != null && !isString(description)) throw fail(`${where}.description`, "a string", description);
  if (strict != null && typeof strict !== "boolean") throw fail(`${where}.strict`, "a boolean", strict);
  return { name, description: description ?? undefined, schema: schemaOf(given, name, where), strict: strict ?? undefined };
}

function readTools(tools, where) {
  const byName = new Map();
  if (isObject(tools) && attempt(() => Array.isArray(tools), `${where}: tools`)) {
    items(tools, `${where}: tools`).forEach((def, i) => {
      const name = isObject(def) ? readField(def, "name", `${where}: tools[${i}].name`) : undefined;
      if (!isString(name)) throw fail(`${where}: tools[${i}].name`, "a string", name);
      if (byName.has(name)) throw new TypeError(`${where}: tools[${i}] is a second definition of ${JSON.stringify(name)}`);
      byName.set(name, readDefinition(def, name, `${where}: tools[${i}]`));
    });
  } else if (isObject(tools)) {
    for (const name of attempt(() => Object.keys(tools), `${where}: tools`)) {
      const at = `${where}: tools[${JSON.stringify(name)}]`;
      byName.set(name, readDefinition(readField(tools, name, at), name, at));
    }
  } else throw fail(`${where}: tools`, "an array of tool definitions or a record of them keyed by name", tools);
  return byName;
}

function read(step, tools, where) {
  const s = readStep(step, where);
  const defs = readTools(tools, where);
  for (const key of ["listed", "deferred", "offered"]) {
    for (const [i, name] of s[key].entries()) if (!defs.has(name)) throw new TypeError(`${where}: step.${key}[${i}] (${JSON.stringify(name)}) has no definition in tools`);
  }
  const listed = new Set(s.listed);
  return { ...s, defs, restricted: s.offered.length !== s.listed.length || s.offered.some((n) => !listed.has(n)) };
}

function readOptions(options, where) {
  const { search, mode } = fields(options ?? undefined, ["search", "mode"], `${where}: options`);
  if (search != null && !isObject(search)) throw fail(`${where}: options.search`, "an object", search);
  const { name, description } = fields(search ?? undefined, ["name", "description"], `${where}: options.search`);
  return { mode, search: { name: name ?? SEARCH_NAME, description: description ?? SEARCH_DESCRIPTION } };
}
function searchName(o, where, s) {
  const { name } = o.search;
  if (!isString(name) || name === "") throw fail(`${where}: options.search.name`, "a non-empty string", name);
  if (s.defs.has(name)) throw new TypeError(`${where}: options.search.name (${JSON.stringify(name)}) is the name of one of the tools: give the search tool another`);
  return name;
}
function searchDescription(o, where) {
  if (!isString(o.search.description)) throw fail(`${where}: options.search.description`, "a string", o.search.description);
  return o.search.description;
}
const instead = 'Use cache "fixed" or "append" with it, or a provider that loads tools on demand (openaiResponses, anthropicMessages).';
const cannotDefer = (where, api) => new Error(`${where}: this step defers tools (cache "deferred"), which ${api} cannot express: it has no deferred loading. ${instead}`);
const described = (d) => (d.description !== undefined ? { description: d.description } : {});

// ---------------------------------------------------------------- OpenAI Chat Completions

const chatTool = (d) => ({ type: "function", function: { name: d.name, ...described(d), parameters: d.schema, ...(d.strict !== undefined && { strict: d.strict }) } });

export function openaiChat(step, tools) {
  const s = read(step, tools, "openaiChat");
  if (s.deferred.length > 0) throw cannotDefer("openaiChat", "Chat Completions");
  const out = { tools: s.listed.map((n) => chatTool(s.defs.get(n))) };
  if (s.restricted) out.tool_choice = { type: "allowed_tools", allowed_tools: { mode: "auto", tools: s.offered.map((name) => ({ type: "function", function: { name } })) } };
  return out;
}

// ---------------------------------------------------------------- OpenAI Responses

// `strict` is the definition's, else false (the API's default, strict mode, rejects a schema not written for it).
const responsesTool = (d, deferred) => ({ type: "function", name: d.name, ...described(d), parameters: d.schema, strict: d.strict ?? false, ...(deferred && { defer_loading: true }) });

export function openaiResponses(step, tools, options) {
  const where = "openaiResponses";
  const o = readOptions(options, where);
  const s = read(step, tools, where);
  const out = { tools: s.listed.map((n) => responsesTool(s.defs.get(n), false)) };
  if (s.deferred.length > 0) {
    out.tools.push({ type: "tool_search", execution: "client", description: searchDescription(o, where), parameters: searchSchema() });
    for (const n of s.deferred) out.tools.push(responsesTool(s.defs.get(n), true));
  } else if (s.restricted) out.tool_choice = { type: "allowed_tools", mode: "auto", tools: s.offered.map((name) => ({ type: "function", name })) };
  return out;
}

const searchOutput = (callId, names, s) => ({ type: "tool_search_output", call_id: callId, execution: "client", status: "completed", tools: names.map((n) => responsesTool(s.defs.get(n), true)) });

function revealing(s, where) {
  for (const [i, name] of s.revealed.entries()) if (!s.deferred.includes(name)) throw new TypeError(`${where}: step.revealed[${i}] (${JSON.stringify(name)}) is not deferred`);
  return s.revealed.length > 0;
}

export function openaiResponsesReveal(step, tools) {
  const s = read(step, tools, "openaiResponsesReveal");
  if (!revealing(s, "openaiResponsesReveal")) return [];
  const callId = `tool_palette_reveal_${s.step}`;
  return [{ type: "tool_search_call", call_id: callId, execution: "client", status: "completed", arguments: { query: s.revealed.join(" ") } }, searchOutput(callId, s.revealed, s)];
}

// Without a query (the model's) the search finds nothing.
function queryOf(args, where) {
  const value = isString(args) ? tryOr(() => JSON.parse(args)) : args;
  const query = isObject(value) ? readField(value, "query", `${where}.query`) : undefined;
  return isString(query) ? query : "";
}

function found(query, s, { index, limit, run }, where) {
  if (query.trim() === "") return [];
  const deferred = new Set(s.deferred);
  const names = index.search(query, limit === undefined ? undefined : { limit }).map((h) => h.name).filter((n) => deferred.has(n));
  if (run == null || names.length === 0) return names;
  try {
    run.reveal(names);
  } catch (error) {
    throw new TypeError(`${where}: options.run could not take what the search loaded (${errorText(error)})`, { cause: error });
  }
  return names;
}

function searchArgs(options, where) {
  if (!isObject(options)) throw fail(`${where}: options`, "an object { step, index, tools?, limit?, run? }", options);
  const given = fields(options, ["step", "index", "tools", "limit", "run"], `${where}: options`);
  const { index, run } = given;
  if (!isObject(index) || typeof readField(index, "search", `${where}: options.index.search`) !== "function") throw fail(`${where}: options.index`, "a ToolIndex", index);
  if (run != null && !(isObject(run) && typeof readField(run, "reveal", `${where}: options.run.reveal`) === "function")) {
    throw fail(`${where}: options.run`, 'the run the step came from (a "deferred" PaletteRun, or an MCP run)', run);
  }
  return given;
}

export function answerOpenaiToolSearch(call, options) {
  const where = "answerOpenaiToolSearch";
  const args = searchArgs(options, where);
  if (!isObject(call)) throw fail(`${where}: call`, 'a "tool_search_call" output item', call);
  const item = fields(call, ["type", "call_id", "arguments"], `${where}: call`);
  if (item.type !== "tool_search_call") throw fail(`${where}: call`, 'a "tool_search_call" output item', call);
  const s = read(args.step, args.tools, where);
  if (!isString(item.call_id)) throw fail(`${where}: call.call_id`, "a string", item.call_id);
  return searchOutput(item.call_id, found(queryOf(item.arguments, `${where}: call.arguments`), s, args, where), s);
}

// ---------------------------------------------------------------- Anthropic Messages

const anthropicTool = (d, deferred) => ({ name: d.name, ...described(d), input_schema: d.schema, ...(d.strict !== undefined && { strict: d.strict }), ...(deferred && { defer_loading: true }) });

// A cache breakpoint on the last tool loaded up front.
export function anthropicMessages(step, tools, options) {
  const where = "anthropicMessages";
  const o = readOptions(options, where);
  const s = read(step, tools, where);
  if (s.restricted && s.deferred.length === 0) {
    throw new Error(`${where}: this step offers fewer tools than it lists (cache "fixed"), which the Messages API cannot express: its tool_choice has no set of allowed tools. Use cache "append" or "deferred" with it.`);
  }
  const out = s.listed.map((n) => anthropicTool(s.defs.get(n), false));
  if (s.deferred.length > 0) out.push({ name: searchName(o, where, s), description: searchDescription(o, where), input_schema: searchSchema() });
  if (out.length > 0) out[out.length - 1].cache_control = { type: "ephemeral" };
  for (const n of s.deferred) out.push(anthropicTool(s.defs.get(n), true));
  return { tools: out };
}

const references = (names) => names.map((tool_name) => ({ type: "tool_reference", tool_name }));

export function anthropicReveal(step, tools, options) {
  const where = "anthropicReveal";
  const o = readOptions(options, where);
  const s = read(step, tools, where);
  if (!revealing(s, where)) return [];
  const id = `toolu_palette_reveal_${s.step}`;
  return [
    { role: "assistant", content: [{ type: "tool_use", id, name: searchName(o, where, s), input: { query: s.revealed.join(" ") } }] },
    { role: "user", content: [{ type: "tool_result", tool_use_id: id, content: references(s.revealed) }] },
  ];
}

export function answerAnthropicToolSearch(toolUse, options) {
  const where = "answerAnthropicToolSearch";
  const args = searchArgs(options, where);
  const block = isObject(toolUse) ? fields(toolUse, ["type", "id", "input"], `${where}: toolUse`) : {};
  if (block.type !== "tool_use" || !isString(block.id)) throw fail(`${where}: toolUse`, 'a "tool_use" content block', toolUse);
  const s = read(args.step, args.tools, where);
  const names = found(queryOf(block.input, `${where}: toolUse.input`), s, args, where);
  return { type: "tool_result", tool_use_id: block.id, content: names.length > 0 ? references(names) : [{ type: "text", text: NO_TOOL_MATCHES }] };
}

// ---------------------------------------------------------------- Gemini

export function geminiConfig(step, tools, options) {
  const where = "geminiConfig";
  const mode = readOptions(options, where).mode ?? "VALIDATED";
  if (!["VALIDATED", "ANY"].includes(mode)) throw fail(`${where}: options.mode`, '"VALIDATED" or "ANY" (the modes that read allowedFunctionNames)', mode);
  const s = read(step, tools, where);
  if (s.deferred.length > 0) throw cannotDefer(where, "the Gemini API");
  const out = { tools: [{ functionDeclarations: s.listed.map((n) => ({ name: n, ...described(s.defs.get(n)), parametersJsonSchema: s.defs.get(n).schema })) }] };
  if (s.restricted) out.toolConfig = { functionCallingConfig: { mode, allowedFunctionNames: [...s.offered] } };
  return out;
}
