// Hostile values the caller hands the subpaths (issue 39, item 8), from the packed package,
// through import and require: a getter or a proxy trap that throws, a revoked proxy, an
// iterator that throws, in the framework adapters' options and in tool-palette/mcp's options,
// route() and callTool(). Each is a TypeError naming what was read (the argument's path),
// with the thrown value as its `cause`; before, the thrown value escaped as it was
// (`Error: boom`), or a TypeError of the language's own words ("Cannot destructure…").
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { consumer } from "./consumer.mjs";

let c, core;
before(async () => {
  c = await consumer();
  core = await c.load("tool-palette");
});

// Both module systems' copies of a subpath.
const both = async (specifier) => [await c.load(specifier), c.require(specifier)];

const BOOM = new Error("boom");
const boom = () => {
  throw BOOM;
};
// `value` (a copy) with `key` a getter that throws.
const throwing = (value, key) => Object.defineProperty({ ...value }, key, { get: boom, enumerable: true });
const revoked = () => {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
};

// `f()` throws (or rejects with) a TypeError whose message is `message` and whose cause is BOOM ("revoked": the
// language's TypeError for a revoked proxy; "none": no cause, a plain wrong value).
async function readError(f, message, cause = BOOM) {
  let error;
  try {
    await f();
  } catch (e) {
    error = e;
  }
  assert.ok(error, `${message}: did not throw`);
  assert.equal(error.name, "TypeError", `${message}: got ${error.stack}`);
  assert.equal(error.message, message);
  if (cause === BOOM) assert.equal(error.cause, BOOM, `${message}: the thrown value is the cause`);
  else if (cause === "revoked") assert.match(String(error.cause), /revoked/, `${message}: the thrown value is the cause`);
}

test("the framework adapters' options (and the AI SDK's wrapTools and toolSearchFunction): a throwing getter, a revoked proxy, a throwing iterator is a TypeError naming what was read", async () => {
  const router = new core.ToolRouter({ entries: async () => ["a"], registered: ["a"] });
  const makers = [
    ["tool-palette/ai-sdk", "createToolPalette"],
    ["tool-palette/openai-agents", "createToolPalette"],
    ["tool-palette/langchain", "toolPaletteMiddleware"],
  ];
  for (const [specifier, make] of makers) {
    for (const adapter of await both(specifier)) {
      const where = specifier;
      await readError(() => adapter[make](throwing({ router }, "router")), `${where}: options.router could not be read`);
      await readError(() => adapter[make](throwing({ router }, "cache")), `${where}: options.cache could not be read`);
      await readError(() => adapter[make]({ router: throwing({}, "resolve") }), `${where}: options.router.resolve could not be read`);
      await readError(() => adapter[make]({ policies: throwing({ selectModel() {} }, "dispatch") }), `${where}: options.policies.dispatch could not be read`);
      const iterable = { [Symbol.iterator]: () => ({ next: boom }) };
      await readError(() => adapter[make]({ router, alwaysInclude: iterable }), `${where}: options.alwaysInclude could not be read`);
      await readError(() => adapter[make](revoked()), `${where}: options.router could not be read`, "revoked");
    }
  }
  for (const adapter of await both("tool-palette/ai-sdk")) {
    const palette = adapter.createToolPalette({ router });
    const tool = { description: "a", execute: async () => "a" };
    await readError(() => palette.wrapTools(throwing({ a: tool }, "b")), 'tool-palette/ai-sdk: wrapTools(tools)["b"] could not be read');
    await readError(() => palette.wrapTools({ a: new Proxy(tool, { get: boom }) }), 'tool-palette/ai-sdk: wrapTools(tools)["a"] could not be read');
    await readError(() => palette.wrapTools(new Proxy({}, { ownKeys: boom })), "tool-palette/ai-sdk: wrapTools(tools) could not be read");
    await readError(() => adapter.toolSearchFunction(throwing({}, "search")), "tool-palette/ai-sdk: toolSearchFunction(index).search could not be read");
  }
  for (const adapter of await both("tool-palette/langchain")) {
    await readError(() => adapter.toolPaletteMiddleware(throwing({ router }, "name")), "tool-palette/langchain: options.name could not be read");
  }
});

// An in-process MCP client listing `tools`.
const client = (tools) => ({
  async listTools() {
    return { tools };
  },
  async callTool(params) {
    return { content: [{ type: "text", text: `ran ${params.name}` }] };
  },
});
const TOOLS = [
  { name: "plot", description: "draw a chart", inputSchema: { type: "object", properties: {} } },
  { name: "send_mail", description: "send an email message", inputSchema: { type: "object", properties: {} } },
];

test("tool-palette/mcp's options: a throwing getter or proxy is a TypeError naming the option", async () => {
  const servers = { s: client(TOOLS) };
  for (const mcp of await both("tool-palette/mcp")) {
    const W = "tool-palette/mcp";
    await readError(() => mcp.createMcpPalette(throwing({ servers }, "servers")), `${W}: options.servers could not be read`);
    await readError(() => mcp.createMcpPalette(throwing({ servers }, "limit")), `${W}: options.limit could not be read`);
    await readError(() => mcp.createMcpPalette({ servers: new Proxy({}, { ownKeys: boom }) }), `${W}: options.servers could not be read`);
    await readError(() => mcp.createMcpPalette({ servers: throwing({ s: client(TOOLS) }, "s") }), `${W}: options.servers could not be read`);
    await readError(() => mcp.createMcpPalette({ servers: { s: throwing(client(TOOLS), "listTools") } }), `${W}: options.servers["s"].listTools could not be read`);
    await readError(() => mcp.createMcpPalette({ servers, policies: throwing({}, "dispatch") }), `${W}: options.policies.dispatch could not be read`);
    await readError(() => mcp.createMcpPalette({ servers, index: throwing({}, "embed") }), `${W}: options.index.embed could not be read`);
    await readError(() => mcp.createMcpPalette(revoked()), `${W}: options.servers could not be read`, "revoked");
  }
});

test("tool-palette/mcp's route() and callTool(): a throwing getter in the call or the options is a TypeError naming it; arguments that are no JSON are still answered", async () => {
  for (const mcp of await both("tool-palette/mcp")) {
    const W = "tool-palette/mcp";
    const run = mcp.createMcpPalette({ servers: { s: client(TOOLS) } }).run();
    await readError(() => run.route("draw a chart", throwing({}, "signal")), `${W}: route(context, options).signal could not be read`);
    await readError(() => run.route("draw a chart", { signal: throwing({}, "aborted") }), `${W}: route(context, options).signal could not be read`);
    await run.route("draw a chart");
    await readError(() => run.callTool(throwing({ arguments: {} }, "name")), `${W}: callTool(call).name could not be read`);
    await readError(() => run.callTool(throwing({ name: "plot" }, "arguments")), `${W}: callTool(call).arguments could not be read`);
    await readError(() => run.callTool({ name: "plot", arguments: {}, get id() { return boom(); } }), `${W}: callTool(call).id could not be read`);
    await readError(() => run.callTool(revoked()), `${W}: callTool(call).name could not be read`, "revoked");
    await readError(() => run.callTool({ name: "plot", arguments: {} }, throwing({}, "signal")), `${W}: callTool(call, options).signal could not be read`);
    await readError(() => run.callTool({ name: "plot", arguments: {} }, null), `${W}: callTool(call, options) must be an object, got null`, "none");
    // The model's arguments that are no JSON: a failed call, as before.
    const answer = await run.callTool({ name: "plot", arguments: "{ nope" });
    assert.equal(answer.isError, true);
    assert.match(answer.content[0].text, /^The arguments of plot are not valid JSON: /);
    assert.equal((await run.callTool({ name: "plot", arguments: {} })).content[0].text, "ran plot");
  }
});
