// ToolIndex: SPEC section 6, against whichever build of the package is handed in.
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { REASONS } from "./routing.mjs";

export function toolIndex(tp) {
  const { ToolIndex, ToolRouter, resolvePalette, Routed, RoutingRefusal } = tp;
  const TOOLS = [
    { name: "get_weather", description: "Current weather and forecast for a city", parameters: { type: "object", properties: { city: { type: "string", description: "City name" }, unit: { type: "string", enum: ["celsius", "fahrenheit"] } } } },
    { name: "send_email", description: "Send an email message to a recipient", inputSchema: { type: "object", properties: { to: { type: "string", description: "recipient address" }, body: { type: "string" } } } },
    { name: "sqlQuery", description: "Run a SQL query against the sales database" },
    { name: "calendar.create-event", description: "Create a calendar event" },
  ];
  const names = (hits) => hits.map((h) => h.name);

  describe("ToolIndex: search", () => {
    test("ranks by name (split on _ . - and camelCase), description and parameter schema", () => {
      const index = new ToolIndex(TOOLS);
      assert.equal(index.size, 4);
      assert.equal(names(index.search("weather in Paris"))[0], "get_weather");
      assert.equal(names(index.search("email my boss"))[0], "send_email");
      assert.equal(names(index.search("sql sales"))[0], "sqlQuery");
      assert.equal(names(index.search("query"))[0], "sqlQuery", "camelCase splits");
      assert.equal(names(index.search("create event"))[0], "calendar.create-event", ". and - split");
      assert.equal(names(index.search("fahrenheit"))[0], "get_weather", "enum values count");
      assert.equal(names(index.search("recipient address"))[0], "send_email", "parameter descriptions count");
    });

    test("hits are frozen { name, score } with scores above 0, best first, at most limit", () => {
      const index = new ToolIndex(TOOLS);
      const hits = index.search("send weather email calendar sql");
      assert.ok(Object.isFrozen(hits) && hits.every(Object.isFrozen));
      assert.ok(hits.length <= 5);
      for (let i = 1; i < hits.length; i++) assert.ok(hits[i - 1].score >= hits[i].score);
      assert.ok(hits.every((h) => typeof h.score === "number" && h.score > 0));
      assert.equal(index.search("send weather email calendar sql", { limit: 2 }).length, 2);
      assert.equal(new ToolIndex(TOOLS, { limit: 1 }).search("send weather email").length, 1);
      assert.deepEqual(JSON.parse(JSON.stringify(hits[0])), { name: hits[0].name, score: hits[0].score });
    });

    test("equal scores keep registration order", () => {
      const same = ["alpha", "beta", "gamma", "delta"].map((name) => ({ name, description: "shared words here" }));
      assert.deepEqual(names(new ToolIndex(same).search("shared words")), ["alpha", "beta", "gamma", "delta"]);
      assert.deepEqual(names(new ToolIndex([...same].reverse()).search("shared words")), ["delta", "gamma", "beta", "alpha"]);
    });

    test("a blank query or no match gives []", () => {
      const index = new ToolIndex(TOOLS);
      for (const q of ["", "   ", "\n\t", "zzzqqq", "!!!"]) assert.deepEqual([...index.search(q)], [], JSON.stringify(q));
    });

    test("names are the caller's own strings, exactly", () => {
      const odd = ["tool\uD800", "tool\uDC00", "__proto__", "constructor"];
      const index = new ToolIndex(odd.map((name) => ({ name, description: "shared" })));
      const found = names(index.search("shared"));
      assert.deepEqual(found, odd);
      assert.equal(found[0].charCodeAt(4), 0xd800);
    });

    test("a record keyed by name (AI SDK tools) reads descriptions and schemas, zod and jsonSchema() included", async () => {
      const { z } = await import("zod");
      const { jsonSchema } = await import("ai");
      const tools = {
        lookupOrder: { description: "Find an order", inputSchema: z.object({ orderId: z.string().describe("the order number") }) },
        refund: { description: "Refund a payment", inputSchema: jsonSchema({ type: "object", properties: { amount: { type: "number", description: "money back" } } }) },
        __proto__: { description: "a tool named __proto__" },
      };
      const record = JSON.parse('{"__proto__": {"description": "a tool named __proto__"}}');
      Object.assign(record, { lookupOrder: tools.lookupOrder, refund: tools.refund });
      const index = new ToolIndex(record);
      assert.equal(index.size, 3);
      assert.equal(names(index.search("order number"))[0], "lookupOrder");
      assert.equal(names(index.search("money back"))[0], "refund");
      assert.equal(names(index.search("tool named"))[0], "__proto__");
    });

    test("OpenAI Chat Completions tools ({ type, function }) and any iterable", () => {
      const chat = [{ type: "function", function: { name: "lookup", description: "look things up" } }];
      assert.deepEqual(names(new ToolIndex(chat).search("look")), ["lookup"]);
      assert.deepEqual(names(new ToolIndex(new Set(TOOLS)).search("weather")).slice(0, 1), ["get_weather"]);
    });
  });

  describe("ToolIndex: the caller's mistakes", () => {
    test("a duplicate name or a tool without a string name is a TypeError naming its index", () => {
      assert.throws(() => new ToolIndex([{ name: "a" }, { name: "b" }, { name: "a" }]), (e) => e instanceof TypeError && /tools\[2\] reuses the name "a"/.test(e.message));
      assert.throws(() => new ToolIndex([{ name: "a" }, { description: "x" }]), (e) => e instanceof TypeError && /tools\[1\]\.name must be a string/.test(e.message));
      assert.throws(() => new ToolIndex([{ name: "a" }, 5]), /tools\[1\]\.name/);
      // "a\uD800" and "a\uDC00" are two names, not a duplicate.
      assert.doesNotThrow(() => new ToolIndex([{ name: "a\uD800" }, { name: "a\uDC00" }]));
    });

    test("bad arguments are TypeErrors naming them", () => {
      assert.throws(() => new ToolIndex(), /ToolIndex: tools/);
      assert.throws(() => new ToolIndex("tools"), /ToolIndex: tools/);
      assert.throws(() => new ToolIndex(TOOLS, { limit: 0 }), /ToolIndex: options\.limit/);
      assert.throws(() => new ToolIndex(TOOLS, { limit: 1.5 }), /options\.limit/);
      assert.throws(() => new ToolIndex(TOOLS, 5), /ToolIndex: options/);
      const index = new ToolIndex(TOOLS);
      assert.throws(() => index.search(5), /ToolIndex\.search: query must be a string/);
      assert.throws(() => index.search("x", { limit: -1 }), /ToolIndex\.search: options\.limit/);
      const hostile = new Proxy({}, { ownKeys() { throw new Error("no"); } });
      assert.throws(() => new ToolIndex(hostile), (e) => e instanceof TypeError && /ToolIndex: tools could not be read/.test(e.message));
    });

    test("dispose() ends search and entries; a second dispose() does nothing", () => {
      const index = new ToolIndex(TOOLS);
      const { entries } = index;
      index.dispose();
      index.dispose();
      assert.throws(() => index.search("weather"), /search\(\) after dispose/);
      assert.throws(() => entries("weather"), /after dispose/);
      if (typeof Symbol.dispose === "symbol") assert.equal(ToolIndex.prototype[Symbol.dispose], ToolIndex.prototype.dispose);
    });
  });

  describe("ToolIndex: entries, a procedural layer for routing", () => {
    test("rows { tool } of search(message) for a string or { message } context", () => {
      const index = new ToolIndex(TOOLS, { limit: 2 });
      const rows = index.entries({ message: "weather in Paris" });
      assert.ok(Object.isFrozen(rows) && rows.every(Object.isFrozen));
      assert.equal(rows[0].tool, "get_weather");
      assert.ok(rows.length <= 2);
      assert.deepEqual(index.entries("email"), [{ tool: "send_email" }]);
      for (const context of [undefined, null, 5, {}, { message: 7 }]) assert.deepEqual([...index.entries(context)], []);
    });

    test("through a ToolRouter: the turn routes to what the search found; a miss is refusal 3 and every tool stays", async () => {
      const index = new ToolIndex(TOOLS);
      const registered = TOOLS.map((t) => t.name);
      const router = new ToolRouter({ entries: index.entries, registered });
      const hit = await router.resolve({ context: { message: "what's the weather like" } });
      assert.ok(hit instanceof Routed);
      assert.equal(hit.names[0], "get_weather");
      const miss = await router.resolve({ context: { message: "zzzqqq" } });
      assert.ok(miss instanceof RoutingRefusal);
      assert.equal(miss.reason, REASONS.noSkills);
      const direct = await resolvePalette({ entries: () => index.entries("send an email"), registered });
      assert.equal(direct.names[0], "send_email");
    });
  });
}
