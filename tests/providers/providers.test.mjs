// tool-palette/providers, from the PACKED package, against the providers' official SDKs:
// each request is built with the shapes, sent by the SDK to a local server (127.0.0.1) that
// records the body and answers in the provider's format, and the body the SDK actually sent
// is asserted. So the shapes are checked through the SDKs' own serialisation, and their
// declarations against the SDKs' types (tsc, last test).
import { test, before, after, describe } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { execFile } from "node:child_process";
import { cpSync, rmSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { consumer, root } from "../frameworks/consumer.mjs";

const TOOLS = [
  { name: "search", description: "Search the tools", parameters: { type: "object", properties: { q: { type: "string" } }, required: ["q"] } },
  { name: "ls", description: "List the files of the directory", parameters: { type: "object", properties: { path: { type: "string" } } } },
  { name: "cd", description: "Change the current directory", parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } },
  { name: "cat", description: "Print a file", inputSchema: { type: "object", properties: { file: { type: "string" } } }, strict: true },
  { name: "sort", description: "Sort a file by line" },
];
const REG = TOOLS.map((t) => t.name);
const EMPTY = { type: "object", properties: {} };
const schema = (t) => t.parameters ?? t.inputSchema ?? EMPTY;
const def = (name) => TOOLS.find((t) => t.name === name);

let c, p, tp, OpenAI, Anthropic, GoogleGenAI, server, base;
const bodies = [];
const CANNED = {
  "/v1/chat/completions": { id: "c1", object: "chat.completion", created: 0, model: "m", choices: [{ index: 0, message: { role: "assistant", content: "ok", refusal: null }, finish_reason: "stop", logprobs: null }] },
  "/v1/responses": { id: "resp_1", object: "response", created_at: 0, status: "completed", model: "m", output: [], parallel_tool_calls: true, tool_choice: "auto", tools: [] },
  "/v1/messages": { id: "msg_1", type: "message", role: "assistant", model: "m", content: [{ type: "text", text: "ok" }], stop_reason: "end_turn", stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } },
  gemini: { candidates: [{ content: { role: "model", parts: [{ text: "ok" }] }, finishReason: "STOP", index: 0 }] },
};

before(async () => {
  c = await consumer();
  p = await c.load("tool-palette/providers");
  tp = await c.load("tool-palette");
  OpenAI = (await c.load("openai")).default;
  Anthropic = (await c.load("@anthropic-ai/sdk")).default;
  GoogleGenAI = (await c.load("@google/genai")).GoogleGenAI;
  server = createServer((req, res) => {
    let text = "";
    req.on("data", (d) => (text += d));
    req.on("end", () => {
      const path = req.url.split("?")[0];
      bodies.push({ path, body: JSON.parse(text) });
      const canned = CANNED[path] ?? (/^\/v1(beta)?\/models\/[^/]+:generateContent$/.test(path) ? CANNED.gemini : null);
      res.writeHead(canned ? 200 : 404, { "content-type": "application/json" });
      res.end(JSON.stringify(canned ?? { error: { message: `no route ${path}` } }));
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${server.address().port}`;
});
after(() => server?.close());

// What the SDK sent for one request.
async function sent(send) {
  const before = bodies.length;
  await send();
  assert.equal(bodies.length, before + 1, "one request reached the server");
  return bodies.at(-1);
}
const openai = () => new OpenAI({ apiKey: "test", baseURL: `${base}/v1`, maxRetries: 0 });
const anthropic = () => new Anthropic({ apiKey: "test", baseURL: base, maxRetries: 0 });
const gemini = () => new GoogleGenAI({ apiKey: "test", httpOptions: { baseUrl: base } });

// A run's steps over the outcomes ["cd","ls"], ["cat"], a refusal, ["sort"].
async function steps(cache, pinned) {
  const run = new tp.PaletteRun({ registered: REG, cache, pinned });
  const out = [];
  for (const names of [["cd", "ls"], ["cat"], null, ["sort"]]) {
    out.push(run.step(await tp.resolvePalette({ registered: REG, entries: () => names ?? [] })));
  }
  return out;
}

describe("OpenAI Chat Completions", () => {
  const chat = (name) => {
    const t = def(name);
    return { type: "function", function: { name, description: t.description, parameters: schema(t), ...(t.strict !== undefined && { strict: t.strict }) } };
  };

  test("per-turn and append: the listed definitions, in order, no tool_choice", async () => {
    for (const cache of ["per-turn", "append"]) {
      for (const step of await steps(cache)) {
        const { body } = await sent(() => openai().chat.completions.create({ model: "m", messages: [{ role: "user", content: "hi" }], ...p.openaiChat(step, TOOLS) }));
        assert.deepEqual(body.tools, step.listed.map(chat), cache);
        assert.equal("tool_choice" in body, false, cache);
      }
    }
  });

  test("fixed: every tool on every step, byte for byte; tool_choice allowed_tools names the offered ones", async () => {
    const sentTools = [];
    for (const step of await steps("fixed", ["search"])) {
      const { path, body } = await sent(() => openai().chat.completions.create({ model: "m", messages: [{ role: "user", content: "hi" }], ...p.openaiChat(step, TOOLS) }));
      assert.equal(path, "/v1/chat/completions");
      sentTools.push(JSON.stringify(body.tools));
      assert.deepEqual(body.tools, REG.map(chat));
      if (step.offered.length === REG.length) assert.equal("tool_choice" in body, false, "a refusal offers every tool: no restriction");
      else {
        assert.deepEqual(body.tool_choice, {
          type: "allowed_tools",
          allowed_tools: { mode: "auto", tools: step.offered.map((name) => ({ type: "function", function: { name } })) },
        });
      }
    }
    assert.equal(new Set(sentTools).size, 1, "the tools prefix is identical on every step");
  });

  test("deferred cannot be expressed: an Error that says so and what to use", async () => {
    const [step] = await steps("deferred", ["search"]);
    assert.throws(() => p.openaiChat(step, TOOLS), { name: "Error", message: /^openaiChat: this step defers tools \(cache "deferred"\), which Chat Completions cannot express.*openaiResponses/ });
  });
});

describe("OpenAI Responses", () => {
  const fn = (name, deferred) => {
    const t = def(name);
    return { type: "function", name, description: t.description, parameters: schema(t), strict: t.strict ?? false, ...(deferred && { defer_loading: true }) };
  };

  test("per-turn, append and fixed: function tools; fixed restricts with tool_choice allowed_tools", async () => {
    for (const cache of ["per-turn", "append", "fixed"]) {
      for (const step of await steps(cache)) {
        const { path, body } = await sent(() => openai().responses.create({ model: "m", input: "hi", ...p.openaiResponses(step, TOOLS) }));
        assert.equal(path, "/v1/responses");
        assert.deepEqual(body.tools, step.listed.map((n) => fn(n, false)), cache);
        if (cache === "fixed" && step.offered.length < REG.length) {
          assert.deepEqual(body.tool_choice, { type: "allowed_tools", mode: "auto", tools: step.offered.map((name) => ({ type: "function", name })) });
        } else assert.equal("tool_choice" in body, false, cache);
      }
    }
  });

  test("deferred: the pinned tools, a client tool_search, the rest with defer_loading; revealed tools load after the history", async () => {
    const all = await steps("deferred", ["search"]);
    const history = [{ role: "user", content: "list the files" }];
    for (const step of all) {
      const shape = p.openaiResponses(step, TOOLS);
      const reveal = p.openaiResponsesReveal(step, TOOLS);
      const { body } = await sent(() => openai().responses.create({ model: "m", input: [...history, ...reveal], ...shape }));
      assert.deepEqual(body.tools, [
        fn("search", false),
        { type: "tool_search", execution: "client", description: body.tools[1].description, parameters: { type: "object", properties: { query: { type: "string", description: "what the tool should do, in a few words" } }, required: ["query"], additionalProperties: false } },
        ...["ls", "cd", "cat", "sort"].map((n) => fn(n, true)),
      ]);
      assert.match(body.tools[1].description, /^Search the tools that are not loaded yet/);
      assert.equal("tool_choice" in body, false);
      if (step.revealed.length === 0) assert.deepEqual(body.input, history);
      else {
        const id = `tool_palette_reveal_${step.step}`;
        assert.deepEqual(body.input.slice(history.length), [
          { type: "tool_search_call", call_id: id, execution: "client", status: "completed", arguments: { query: step.revealed.join(" ") } },
          { type: "tool_search_output", call_id: id, execution: "client", status: "completed", tools: step.revealed.map((n) => fn(n, true)) },
        ]);
      }
    }
    assert.deepEqual(all.map((s) => s.revealed), [["ls", "cd"], ["cat"], [], ["sort"]]);
  });

  test("a tool_search_call the model emits is answered from a ToolIndex: the deferred tools it finds", async () => {
    const [step] = await steps("deferred", ["search"]);
    const index = new tp.ToolIndex(TOOLS);
    const call = { type: "tool_search_call", id: "ts_1", call_id: "call_9", execution: "client", status: "completed", arguments: { query: "sort a file by line" } };
    const output = p.answerOpenaiToolSearch(call, { step, index, tools: TOOLS });
    assert.equal(output.call_id, "call_9");
    assert.deepEqual(output.tools.map((t) => t.name), index.search("sort a file by line").map((h) => h.name).filter((n) => step.deferred.includes(n)));
    assert.equal(output.tools[0].name, "sort");
    assert.ok(output.tools.every((t) => t.defer_loading === true));
    // Arguments as JSON text read the same; the answer goes back as input.
    assert.deepEqual(p.answerOpenaiToolSearch({ ...call, arguments: JSON.stringify(call.arguments) }, { step, index, tools: TOOLS }), output);
    const { body } = await sent(() => openai().responses.create({ model: "m", input: [{ role: "user", content: "sort it" }, call, output], ...p.openaiResponses(step, TOOLS) }));
    assert.deepEqual(body.input.at(-1), output);
    assert.throws(() => p.answerOpenaiToolSearch(call, { step, index: {}, tools: TOOLS }), { name: "TypeError", message: /options\.index must be a ToolIndex/ });
  });
});

describe("Anthropic Messages", () => {
  const tool = (name, deferred) => {
    const t = def(name);
    return { name, description: t.description, input_schema: schema(t), ...(t.strict !== undefined && { strict: t.strict }), ...(deferred && { defer_loading: true }) };
  };
  const create = (extra) => anthropic().messages.create({ model: "m", max_tokens: 16, messages: [{ role: "user", content: "hi" }], ...extra });

  test("per-turn and append: the listed tools, a cache breakpoint on the last", async () => {
    for (const cache of ["per-turn", "append"]) {
      for (const step of await steps(cache)) {
        const { path, body } = await sent(() => create(p.anthropicMessages(step, TOOLS)));
        assert.equal(path, "/v1/messages");
        const expected = step.listed.map((n) => tool(n, false));
        expected.at(-1).cache_control = { type: "ephemeral" };
        assert.deepEqual(body.tools, expected, cache);
      }
    }
  });

  test("fixed cannot be expressed when it restricts: an Error; a step that offers what it lists is sent", async () => {
    const all = await steps("fixed");
    assert.throws(() => p.anthropicMessages(all[0], TOOLS), { name: "Error", message: /^anthropicMessages: this step offers fewer tools than it lists \(cache "fixed"\), which the Messages API cannot express.*"append" or "deferred"/ });
    const { body } = await sent(() => create(p.anthropicMessages(all[2], TOOLS)));
    assert.deepEqual(body.tools.map((t) => t.name), REG);
  });

  test("deferred: the pinned tools and the search tool (cached), the rest deferred; revealed by tool_reference after the history", async () => {
    const all = await steps("deferred", ["search"]);
    const messages = [{ role: "user", content: "list the files" }];
    for (const step of all) {
      const reveal = p.anthropicReveal(step, TOOLS, { search: { name: "find_tools" } });
      const { body } = await sent(() => anthropic().messages.create({ model: "m", max_tokens: 16, messages: [...messages, ...reveal], ...p.anthropicMessages(step, TOOLS, { search: { name: "find_tools" } }) }));
      assert.deepEqual(body.tools.map((t) => [t.name, t.defer_loading ?? false, t.cache_control ?? null]), [
        ["search", false, null],
        ["find_tools", false, { type: "ephemeral" }],
        ["ls", true, null],
        ["cd", true, null],
        ["cat", true, null],
        ["sort", true, null],
      ]);
      assert.deepEqual(body.tools[1].input_schema.required, ["query"]);
      if (step.revealed.length === 0) assert.deepEqual(body.messages, messages);
      else {
        const id = `toolu_palette_reveal_${step.step}`;
        assert.deepEqual(body.messages.slice(messages.length), [
          { role: "assistant", content: [{ type: "tool_use", id, name: "find_tools", input: { query: step.revealed.join(" ") } }] },
          { role: "user", content: [{ type: "tool_result", tool_use_id: id, content: step.revealed.map((tool_name) => ({ type: "tool_reference", tool_name })) }] },
        ]);
      }
    }
  });

  test("the model's search is answered from a ToolIndex with tool_reference blocks; no hit is a text", async () => {
    const [step] = await steps("deferred", ["search"]);
    const index = new tp.ToolIndex(TOOLS);
    const use = { type: "tool_use", id: "toolu_7", name: "tool_search", input: { query: "print a file" } };
    const result = p.answerAnthropicToolSearch(use, { step, index, tools: TOOLS, limit: 1 });
    assert.deepEqual(result, { type: "tool_result", tool_use_id: "toolu_7", content: [{ type: "tool_reference", tool_name: "cat" }] });
    assert.deepEqual(p.answerAnthropicToolSearch({ ...use, input: { query: "zzz" } }, { step, index, tools: TOOLS }).content, [{ type: "text", text: "No tool matches this query; try other words." }]);
    const { body } = await sent(() => create({ messages: [{ role: "user", content: "print it" }, { role: "assistant", content: [use] }, { role: "user", content: [result] }], ...p.anthropicMessages(step, TOOLS) }));
    assert.deepEqual(body.messages.at(-1).content, [result]);
  });

  test("given the run, what the model's search loaded is revealed to it: offered from the next step on, never revealed again", async () => {
    const run = new tp.PaletteRun({ registered: REG, cache: "deferred", pinned: ["search"] });
    const route = (names) => tp.resolvePalette({ registered: REG, entries: () => names });
    const first = run.step(await route(["ls"]));
    assert.ok(!first.offered.includes("cat"));
    const index = new tp.ToolIndex(TOOLS);
    const use = { type: "tool_use", id: "toolu_8", name: "tool_search", input: { query: "print a file" } };
    assert.deepEqual(p.answerAnthropicToolSearch(use, { step: first, index, tools: TOOLS, limit: 1, run }).content, [{ type: "tool_reference", tool_name: "cat" }]);
    const call = { type: "tool_search_call", call_id: "call_2", execution: "client", status: "completed", arguments: { query: "sort a file by line" } };
    assert.equal(p.answerOpenaiToolSearch(call, { step: first, index, tools: TOOLS, limit: 1, run }).tools[0].name, "sort");
    const next = run.step(await route(["cat", "cd"]));
    assert.deepEqual([next.offered, next.revealed], [["search", "ls", "cat", "sort", "cd"], ["cd"]]);
    assert.throws(() => p.answerAnthropicToolSearch(use, { step: first, index, tools: TOOLS, run: {} }), { name: "TypeError", message: /^answerAnthropicToolSearch: options\.run must be the run the step came from/ });
  });

  test("with tool-palette/mcp: a turn is the step, turn.index answers the model's search, and the next route() offers (and callTool runs) what it found", async () => {
    const mcp = await c.load("tool-palette/mcp");
    const calls = [];
    // More than 32 tools: a server of at most 32 (a namespace) is offered whole once one of its tools ranks.
    const listed = [...TOOLS, ...Array.from({ length: 30 }, (_, i) => ({ name: `gauge_${i}`, description: `read gauge number ${i}` }))];
    const client = {
      listTools: async () => ({ tools: listed.map((t) => ({ name: t.name, description: t.description, inputSchema: schema(t) })) }),
      callTool: async (params) => (calls.push(params.name), { content: [{ type: "text", text: `ran ${params.name}` }] }),
    };
    const mcpRun = mcp.createMcpPalette({ servers: { files: client }, cache: "deferred", searchTool: false, limit: 1 }).run();
    const turn = await mcpRun.route("change the current directory");
    assert.ok(turn.index instanceof tp.ToolIndex, "the turn carries its index");
    // The server (35 tools) is larger than 32: its best tools come, those among the first 4 x limit hits.
    assert.deepEqual([...turn.report.offered], ["ls", "cd"]);
    const tools = [...turn.tools, ...turn.deferred];
    const { body } = await sent(() => create({ ...p.anthropicMessages(turn.report, tools), messages: [{ role: "user", content: "cd" }, ...p.anthropicReveal(turn.report, tools)] }));
    assert.deepEqual(body.tools.map((t) => t.name), ["tool_search", ...listed.map((t) => t.name)]);
    const use = { type: "tool_use", id: "toolu_3", name: "tool_search", input: { query: "print a file" } };
    const answer = p.answerAnthropicToolSearch(use, { step: turn.report, index: turn.index, tools, run: mcpRun });
    assert.deepEqual(answer.content, [{ type: "tool_reference", tool_name: "cat" }]);
    // Not in this turn's palette yet: the next route() (the model's next call) offers it, revealed already.
    assert.equal((await mcpRun.callTool({ name: "cat", arguments: {} })).isError, true);
    const next = await mcpRun.route("change the current directory");
    assert.deepEqual([[...next.report.offered], [...next.report.revealed]], [["ls", "cd", "cat"], []]);
    assert.deepEqual((await mcpRun.callTool({ name: "cat", arguments: {} })).content, [{ type: "text", text: "ran cat" }]);
    assert.deepEqual(calls, ["cat"]);
  });

  test("the search tool may not take a tool's name", async () => {
    const [step] = await steps("deferred", ["search"]);
    assert.throws(() => p.anthropicMessages(step, TOOLS, { search: { name: "ls" } }), { name: "TypeError", message: /options\.search\.name \("ls"\) is the name of one of the tools/ });
  });
});

describe("the model's malformed search call", () => {
  // What the model sends is not the caller's mistake: it is answered, as tool-palette/mcp's search_tools answers it.
  const MALFORMED = [{ q: "git" }, "git", { query: 5 }, "{ not json", null, [], { query: "   " }];

  test("is answered as a search that found nothing, in the provider's shape and with search_tools' words (ESM and CommonJS)", async () => {
    const [step] = await steps("deferred", ["search"]);
    const index = new tp.ToolIndex(TOOLS);
    // What tool-palette/mcp's search_tools says to a call without a query.
    const mcp = await c.load("tool-palette/mcp");
    const client = { listTools: async () => ({ tools: TOOLS.map(({ name, description }) => ({ name, description, inputSchema: EMPTY })) }), callTool: async () => ({ content: [] }) };
    const mcpRun = mcp.createMcpPalette({ servers: { s: client } }).run();
    await mcpRun.route("sort a file");
    const said = (await mcpRun.callTool({ name: "search_tools", arguments: { q: "git" } })).content[0].text;
    assert.equal(said, "No tool matches this query; try other words.");
    for (const providers of [p, c.require("tool-palette/providers")]) {
      for (const input of MALFORMED) {
        const use = { type: "tool_use", id: "toolu_1", name: "tool_search", input };
        assert.deepEqual(providers.answerAnthropicToolSearch(use, { step, index, tools: TOOLS }), { type: "tool_result", tool_use_id: "toolu_1", content: [{ type: "text", text: said }] }, JSON.stringify(input));
        const call = { type: "tool_search_call", call_id: "call_1", execution: "client", status: "completed", arguments: input };
        assert.deepEqual(providers.answerOpenaiToolSearch(call, { step, index, tools: TOOLS }), { type: "tool_search_output", call_id: "call_1", execution: "client", status: "completed", tools: [] }, JSON.stringify(input));
      }
    }
    // Both answers go back to the provider as they are.
    const use = { type: "tool_use", id: "toolu_2", name: "tool_search", input: { q: "git" } };
    const result = p.answerAnthropicToolSearch(use, { step, index, tools: TOOLS });
    const { body } = await sent(() => anthropic().messages.create({ model: "m", max_tokens: 16, messages: [{ role: "user", content: "git" }, { role: "assistant", content: [use] }, { role: "user", content: [result] }], ...p.anthropicMessages(step, TOOLS) }));
    assert.deepEqual(body.messages.at(-1).content, [result]);
    const call = { type: "tool_search_call", call_id: "call_3", execution: "client", status: "completed", arguments: "git" };
    const output = p.answerOpenaiToolSearch(call, { step, index, tools: TOOLS });
    const { body: sentBody } = await sent(() => openai().responses.create({ model: "m", input: [{ role: "user", content: "git" }, call, output], ...p.openaiResponses(step, TOOLS) }));
    assert.deepEqual(sentBody.input.at(-1), output);
  });

  test("the caller's own mistakes stay TypeErrors: no options, a wrong index, a call that is no call", async () => {
    const [step] = await steps("deferred", ["search"]);
    const index = new tp.ToolIndex(TOOLS);
    const use = { type: "tool_use", id: "toolu_1", name: "tool_search", input: { query: "git" } };
    const call = { type: "tool_search_call", call_id: "call_1", arguments: { query: "git" } };
    for (const providers of [p, c.require("tool-palette/providers")]) {
      assert.throws(() => providers.answerAnthropicToolSearch(use), { name: "TypeError", message: /^answerAnthropicToolSearch: options must be an object/ });
      assert.throws(() => providers.answerAnthropicToolSearch(use, { step, index: {}, tools: TOOLS }), { name: "TypeError", message: /^answerAnthropicToolSearch: options\.index must be a ToolIndex/ });
      assert.throws(() => providers.answerAnthropicToolSearch("tool_search", { step, index, tools: TOOLS }), { name: "TypeError", message: /^answerAnthropicToolSearch: toolUse must be a "tool_use" content block, got string$/ });
      assert.throws(() => providers.answerOpenaiToolSearch({ ...call, type: "function_call" }, { step, index, tools: TOOLS }), { name: "TypeError", message: /^answerOpenaiToolSearch: call must be a "tool_search_call" output item/ });
      assert.throws(() => providers.answerOpenaiToolSearch({ ...call, call_id: 1 }, { step, index, tools: TOOLS }), { name: "TypeError", message: /^answerOpenaiToolSearch: call\.call_id must be a string, got number$/ });
    }
  });
});

describe("hostile values", () => {
  const boom = () => {
    throw new Error("boom");
  };
  // `value` with `key` a getter that throws.
  const throwing = (value, key) => Object.defineProperty({ ...value }, key, { get: boom, enumerable: true });
  const revoked = () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    return proxy;
  };
  // A TypeError whose message is exactly `message` (a string, or a RegExp) and whose cause is what was thrown.
  const readError = (f, message, label) => {
    const error = (() => {
      try {
        f();
      } catch (e) {
        return e;
      }
      assert.fail(`${label}: did not throw`);
    })();
    assert.equal(error.name, "TypeError", `${label}: ${error.stack}`);
    if (typeof message === "string") assert.equal(error.message, message, label);
    else assert.match(error.message, message, label);
    assert.ok(error.cause instanceof Error || error.cause instanceof TypeError, `${label}: the thrown value is the cause`);
  };

  test("a getter or proxy that throws is a TypeError naming what was read, the thrown value its cause (ESM and CommonJS)", async () => {
    const all = await steps("deferred", ["search"]);
    const step = all[0];
    const index = new tp.ToolIndex(TOOLS);
    const use = { type: "tool_use", id: "toolu_1", name: "tool_search", input: { query: "sort" } };
    const call = { type: "tool_search_call", call_id: "call_1", arguments: { query: "sort" } };
    const plain = { ...step, offered: [...step.offered], listed: [...step.listed], deferred: [...step.deferred], revealed: [...step.revealed] };
    const tools = (i, key) => TOOLS.map((t, j) => (j === i ? throwing(t, key) : t));
    const ownKeys = new Proxy({}, { ownKeys: boom });
    const cases = [
      ["openaiResponses", [throwing(plain, "listed"), TOOLS], "openaiResponses: step.listed could not be read"],
      ["openaiResponses", [{ ...plain, deferred: new Proxy([], { get: boom }) }, TOOLS], "openaiResponses: step.deferred could not be read"],
      ["openaiChat", [revoked(), TOOLS], "openaiChat: step.offered could not be read"],
      ["openaiChat", [(await steps("append"))[0], tools(2, "parameters")], "openaiChat: tools[2].parameters could not be read"],
      ["openaiChat", [(await steps("append"))[0], tools(1, "name")], "openaiChat: tools[1].name could not be read"],
      ["openaiChat", [(await steps("append"))[0], ownKeys], "openaiChat: tools could not be read"],
      ["geminiConfig", [(await steps("append"))[0], { ls: throwing(def("ls"), "description"), cd: def("cd") }], 'geminiConfig: tools["ls"].description could not be read'],
      ["geminiConfig", [(await steps("append"))[0], TOOLS, throwing({}, "mode")], "geminiConfig: options.mode could not be read"],
      ["anthropicMessages", [step, TOOLS, throwing({}, "search")], "anthropicMessages: options.search could not be read"],
      ["anthropicReveal", [all[1], TOOLS, { search: throwing({}, "name") }], "anthropicReveal: options.search.name could not be read"],
      ["answerAnthropicToolSearch", [use, throwing({ step, tools: TOOLS }, "index")], "answerAnthropicToolSearch: options.index could not be read"],
      ["answerAnthropicToolSearch", [use, { step, tools: TOOLS, index: throwing({}, "search") }], "answerAnthropicToolSearch: options.index.search could not be read"],
      ["answerAnthropicToolSearch", [use, { step, tools: TOOLS, index, run: throwing({}, "reveal") }], "answerAnthropicToolSearch: options.run.reveal could not be read"],
      ["answerAnthropicToolSearch", [throwing(use, "input"), { step, tools: TOOLS, index }], "answerAnthropicToolSearch: toolUse.input could not be read"],
      ["answerAnthropicToolSearch", [{ ...use, input: throwing({}, "query") }, { step, tools: TOOLS, index }], "answerAnthropicToolSearch: toolUse.input.query could not be read"],
      ["answerOpenaiToolSearch", [throwing(call, "arguments"), { step, tools: TOOLS, index }], "answerOpenaiToolSearch: call.arguments could not be read"],
      ["answerOpenaiToolSearch", [revoked(), { step, tools: TOOLS, index }], "answerOpenaiToolSearch: call.type could not be read"],
    ];
    for (const providers of [p, c.require("tool-palette/providers")]) {
      for (const [f, args, message] of cases) readError(() => providers[f](...args), message, message);
    }
  });

  test("a cyclic schema is a TypeError naming the tool and its schema, never a request the SDK cannot send", async () => {
    const [step] = await steps("append");
    const cyclic = { type: "object", properties: {} };
    cyclic.properties.self = cyclic;
    const tools = TOOLS.map((t) => (t.name === "cd" ? { ...t, parameters: cyclic } : t));
    const record = Object.fromEntries(tools.map(({ name, ...rest }) => [name, rest]));
    for (const providers of [p, c.require("tool-palette/providers")]) {
      for (const f of ["openaiChat", "openaiResponses", "anthropicMessages", "geminiConfig"]) {
        readError(() => providers[f](step, tools), new RegExp(`^${f}: tools\\[2\\]\\.parameters \\(the schema of "cd"\\) cannot be sent as JSON: .*circular`, "i"), f);
        readError(() => providers[f](step, record), new RegExp(`^${f}: tools\\["cd"\\]\\.parameters \\(the schema of "cd"\\) cannot be sent as JSON`), f);
      }
      // A schema whose toJSON throws, or that holds a BigInt, is the same error.
      readError(() => providers.openaiChat(step, TOOLS.map((t) => (t.name === "ls" ? { ...t, parameters: { type: "object", toJSON: boom } } : t))), /^openaiChat: tools\[1\]\.parameters \(the schema of "ls"\) cannot be sent as JSON: boom$/, "toJSON");
      readError(() => providers.openaiChat(step, TOOLS.map((t) => (t.name === "ls" ? { ...t, parameters: { type: "object", default: 1n } } : t))), /^openaiChat: tools\[1\]\.parameters \(the schema of "ls"\) cannot be sent as JSON: .*BigInt/, "BigInt");
    }
  });
});

describe("Gemini", () => {
  const declaration = (name) => ({ name, description: def(name).description, parametersJsonSchema: schema(def(name)) });
  const generate = (step) => gemini().models.generateContent({ model: "gemini-2.5-flash", contents: "hi", config: { ...p.geminiConfig(step, TOOLS) } });

  test("per-turn and append: the listed declarations; fixed: every one, the offered allowed in mode VALIDATED", async () => {
    for (const cache of ["per-turn", "append", "fixed"]) {
      for (const step of await steps(cache)) {
        const { path, body } = await sent(() => generate(step));
        assert.equal(path, "/v1/models/gemini-2.5-flash:generateContent");
        assert.deepEqual(body.tools, [{ functionDeclarations: step.listed.map(declaration) }], cache);
        if (cache === "fixed" && step.offered.length < REG.length) {
          assert.deepEqual(body.toolConfig, { functionCallingConfig: { mode: "VALIDATED", allowedFunctionNames: step.offered } });
        } else assert.equal("toolConfig" in body, false, cache);
      }
    }
  });

  test('fixed in mode "ANY" (a call is required); another mode is a TypeError', async () => {
    const [step] = await steps("fixed");
    const { body } = await sent(() => gemini().models.generateContent({ model: "gemini-2.5-flash", contents: "hi", config: p.geminiConfig(step, TOOLS, { mode: "ANY" }) }));
    assert.deepEqual(body.toolConfig, { functionCallingConfig: { mode: "ANY", allowedFunctionNames: ["ls", "cd"] } });
    assert.throws(() => p.geminiConfig(step, TOOLS, { mode: "AUTO" }), { name: "TypeError", message: /^geminiConfig: options\.mode must be "VALIDATED" or "ANY" \(the modes that read allowedFunctionNames\), got string$/ });
  });

  test("deferred cannot be expressed: an Error that says so", async () => {
    const [step] = await steps("deferred", ["search"]);
    assert.throws(() => p.geminiConfig(step, TOOLS), { name: "Error", message: /^geminiConfig: this step defers tools \(cache "deferred"\), which the Gemini API cannot express/ });
  });
});

describe("the tools' definitions", () => {
  test("a record keyed by name reads as the array does", async () => {
    const [step] = await steps("fixed");
    const record = Object.fromEntries(TOOLS.map(({ name, ...rest }) => [name, rest]));
    for (const f of ["openaiChat", "openaiResponses", "geminiConfig"]) assert.deepEqual(p[f](step, record), p[f](step, TOOLS), f);
  });

  test("the require() twin gives the same shapes", async () => {
    const cjs = c.require("tool-palette/providers");
    const all = await steps("deferred", ["search"]);
    assert.deepEqual(cjs.openaiResponses(all[0], TOOLS), p.openaiResponses(all[0], TOOLS));
    assert.deepEqual(cjs.anthropicReveal(all[0], TOOLS), p.anthropicReveal(all[0], TOOLS));
    assert.throws(() => cjs.geminiConfig(all[0], TOOLS), { name: "Error" });
  });

  test("the caller's schemas are sent as they are, never changed", async () => {
    const [step] = await steps("append");
    const frozen = TOOLS.map((t) => Object.freeze({ ...t }));
    const shape = p.openaiChat(step, frozen);
    assert.deepEqual(step.listed, ["ls", "cd"]);
    assert.equal(shape.tools[0].function.parameters, TOOLS.find((t) => t.name === "ls").parameters);
    assert.equal(shape.tools[1].function.parameters, TOOLS.find((t) => t.name === "cd").parameters);
  });

  test("a JSON schema from zod 4's z.toJSONSchema() (which carries a hidden \"~standard\") is a JSON schema; a zod schema itself is not", async () => {
    const [step] = await steps("append");
    const { z } = await c.load("zod");
    const json = z.toJSONSchema(z.object({ path: z.string() }));
    assert.ok("~standard" in json, "zod 4 marks its JSON schemas as Standard JSON Schemas");
    const tools = TOOLS.map((t) => (t.name === "cd" ? { ...t, parameters: json } : t));
    const shape = p.openaiChat(step, tools);
    assert.equal(shape.tools.find((t) => t.function.name === "cd").function.parameters, json);
    const zod = TOOLS.map((t) => (t.name === "cd" ? { ...t, parameters: z.object({ path: z.string() }) } : t));
    assert.throws(() => p.openaiChat(step, zod), { name: "TypeError", message: /^openaiChat: tools\[2\]\.parameters must be a JSON schema object \(convert a zod schema with z\.toJSONSchema\(\)\)/ });
  });

  test("bad input is a TypeError naming it", async () => {
    const [step] = await steps("append");
    const cases = [
      [step, TOOLS.slice(0, 2), /^openaiChat: step\.listed\[1\] \("cd"\) has no definition in tools$/],
      [step, "tools", /^openaiChat: tools must be an array of tool definitions or a record of them keyed by name, got string$/],
      [step, [...TOOLS, { name: "ls" }], /^openaiChat: tools\[5\] is a second definition of "ls"$/],
      [step, [{ description: "x" }], /^openaiChat: tools\[0\]\.name must be a string, got undefined$/],
      [step, [{ name: "cd", description: 3 }], /^openaiChat: tools\[0\]\.description must be a string, got number$/],
      [step, [{ name: "cd", parameters: { "~standard": {} } }], /^openaiChat: tools\[0\]\.parameters must be a JSON schema object \(convert a zod schema with z\.toJSONSchema\(\)\)/],
      [step, { cd: { inputSchema: [] } }, /^openaiChat: tools\["cd"\]\.inputSchema must be a JSON schema object/],
      [null, TOOLS, /^openaiChat: step must be a PaletteStep/],
      [{ ...step, offered: ["cd", 1] }, TOOLS, /^openaiChat: step\.offered\[1\] must be a string, got number$/],
    ];
    for (const [s, tools, message] of cases) assert.throws(() => p.openaiChat(s, tools), { name: "TypeError", message });
  });
});

test("the declarations type-check against the SDKs' own request types (tsc, node16, strict)", async () => {
  const dir = join(c.dir, "providers-types");
  rmSync(dir, { recursive: true, force: true });
  cpSync(new URL("./types", import.meta.url).pathname, dir, { recursive: true });
  const tsc = join(root, "node_modules", "typescript", "bin", "tsc");
  const result = await promisify(execFile)(process.execPath, [tsc, "-p", dir], { cwd: c.dir, timeout: 120_000 }).catch((e) => e);
  assert.equal(result.code ?? 0, 0, `tsc failed:\n${result.stdout}${result.stderr}`);
});
