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

    test("a word ends where it ends, whatever its length (the tokenizer reads eight code units at a time)", () => {
      // Runs of 1 to 20 lower-case letters, ending at every place in (and past) an
      // eight-unit window: at a capital (a camelCase split), a digit (no split), a
      // non-ASCII letter (no split), a space and the end of the text.
      const word = (n) => "w" + "x".repeat(n - 1);
      const tools = [];
      for (let n = 1; n <= 20; n++) tools.push({ name: `t${n}`, description: `${word(n)}Kind ${word(n)}9 ${word(n)}é ${word(n)}` });
      const index = new ToolIndex(tools, { limit: 30 });
      for (let n = 1; n <= 20; n++) {
        for (const q of [word(n), `${word(n)}9`, `${word(n)}é`]) assert.deepEqual(names(index.search(q)), [`t${n}`], q);
        assert.deepEqual([...index.search(`${word(n)}kind`)], [], `${word(n)}Kind splits`);
      }
      assert.equal(index.search("kind").length, 20);
    });

    test("contractions and possessives are not words: 's 't 're 've 'll 'd 'm, with ' or ’, and a negation's word", () => {
      const index = new ToolIndex([
        { name: "get_weather", description: "Current weather for a city" },
        { name: "get_profile", description: "The user's profile: what's in it, and what we'd show if it's public" },
        { name: "wait", description: "Waits for a number of s (seconds)" },
      ]);
      for (const q of ["What's the weather?", "What’s the weather?", "what'S the weather", "I'm sure it's the weather we're after, they've said, you'll see, I'd say", "don't, isn’t, can't: the weather"]) {
        assert.deepEqual(names(index.search(q)), ["get_weather"], q);
      }
      assert.deepEqual(names(index.search("the user's profile")), ["get_profile"]);
      assert.deepEqual(names(index.search("s")), ["wait"], "a word on its own is still a word");
      assert.deepEqual([...index.search("What's")], []);
      assert.deepEqual([...index.entries("don't")], [], "no word left: no rows");
      // A snapshot keeps the ranking it was saved with.
      const back = ToolIndex.load(index.save());
      assert.deepEqual(names(back.search("What’s the weather?")), ["get_weather"]);
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

    test("a nested model's texts are read through a local $ref (pydantic/FastMCP $defs, zod 4 definitions), items, anyOf with null, additionalProperties, prefixItems; zod 4's z.date(), z.bigint() do not throw", async () => {
      // As the Python MCP SDK's MCPServer (FastMCP) lists tools taking pydantic models and an Enum.
      const fastmcp = [
        {
          name: "send_package",
          description: "Ship an item.",
          inputSchema: {
            $defs: {
              Address: { properties: { street: { description: "Street and house number", title: "Street", type: "string" } }, required: ["street"], title: "Address", type: "object" },
              Priority: { enum: ["low", "high", "urgent"], title: "Priority", type: "string" },
              Recipient: {
                properties: { address: { anyOf: [{ $ref: "#/$defs/Address" }, { type: "null" }], default: null, description: "Mailing address for parcels" } },
                title: "Recipient",
                type: "object",
              },
            },
            properties: { recipient: { $ref: "#/$defs/Recipient" }, priority: { $ref: "#/$defs/Priority", default: "low" } },
            required: ["recipient"],
            title: "send_packageArguments",
            type: "object",
          },
        },
        {
          name: "file_expense",
          description: "Record a cost.",
          inputSchema: {
            $defs: { Attachment: { properties: { filename: { description: "Name of the attached invoice", type: "string" } }, type: "object" } },
            properties: {
              attachments: { items: { $ref: "#/$defs/Attachment" }, type: "array" },
              currency: { anyOf: [{ enum: ["EUR", "USD"], type: "string" }, { type: "null" }], default: null },
              tags: { type: "object", additionalProperties: { type: "string", description: "cost centre code" } },
              span: { type: "array", prefixItems: [{ type: "string", description: "fiscal quarter" }], items: { type: "string", enum: ["reimbursable"] } },
            },
            type: "object",
          },
        },
        { name: "noise", description: "Something else entirely" },
      ];
      const index = new ToolIndex(fastmcp);
      assert.deepEqual(names(index.search("house number")), ["send_package"], "a property of a $def, through anyOf");
      assert.deepEqual(names(index.search("urgent")), ["send_package"], "an Enum's values, through $ref");
      assert.deepEqual(names(index.search("invoice")), ["file_expense"], "items through $ref");
      assert.deepEqual(names(index.search("USD")), ["file_expense"], "an enum in anyOf with null");
      assert.deepEqual(names(index.search("cost centre")), ["file_expense"], "additionalProperties");
      assert.deepEqual(names(index.search("fiscal quarter")), ["file_expense"], "prefixItems");
      assert.deepEqual(names(index.search("reimbursable")), ["file_expense"], "an enum of items");

      // zod 4: a schema with an id, and a recursive one, come as definitions and $ref.
      const { z } = await import("zod");
      const Address = z.object({ postcode: z.string().describe("postal code of the destination") }).meta({ id: "Address" });
      const Folder = z.object({
        label: z.string(),
        get children() {
          return z.array(Folder).describe("nested subfolders");
        },
      });
      const zodIndex = new ToolIndex({ ship: { description: "Ship goods", inputSchema: z.object({ from: Address, to: Address, tree: Folder.optional() }) }, other: { description: "x" } });
      assert.deepEqual(names(zodIndex.search("postal code")), ["ship"]);
      assert.deepEqual(names(zodIndex.search("subfolders")), ["ship"]);
      // Types a JSON schema cannot say (zod throws for them by default) read as schemas without a type.
      const meeting = z.object({ day: z.date().describe("calendar day"), budget: z.bigint().describe("spending cap"), room: z.custom(() => true).describe("venue") });
      const dated = new ToolIndex({ schedule: { description: "Plan", inputSchema: meeting }, other: { description: "x" } });
      for (const q of ["calendar day", "spending cap", "venue"]) assert.deepEqual(names(dated.search(q)), ["schedule"], q);
    });

    test("zod 3 and zod 4.0 schemas (no JSON schema of their own) are read from their shape: descriptions, enums, optional, default, arrays, unions, recursion", async () => {
      // zod@3.25.76: `zod` is zod 3, `zod/v4` the zod 4.0 that gives no JSON schema.
      for (const { z } of [await import("zod3"), await import("zod3/v4")]) {
        const Folder = z.object({ label: z.string().describe("folder label"), children: z.lazy(() => z.array(Folder)).optional() });
        const tools = {
          findPurchase: { description: "Find a purchase", inputSchema: z.object({ id: z.string().describe("the order number") }) },
          convert: {
            description: "Convert a temperature",
            parameters: z.object({
              unit: z.enum(["celsius", "fahrenheit"]).optional(),
              scale: z.nativeEnum({ K: "kelvin" }).default("kelvin"),
              rounding: z.number().int().describe("decimal places kept").nullable(),
              notes: z.array(z.string().describe("a remark for the archive")).default([]),
              target: z.union([z.string().describe("thermostat identifier"), z.number()]),
            }),
          },
          browse: { description: "Browse things", schema: Folder },
        };
        const index = new ToolIndex(tools);
        assert.deepEqual(names(index.search("order number")), ["findPurchase"]);
        for (const q of ["fahrenheit", "kelvin", "decimal places", "archive remark", "thermostat identifier"]) assert.deepEqual(names(index.search(q)), ["convert"], q);
        assert.deepEqual(names(index.search("folder label")), ["browse"]);
      }
    });

    test("odd and cyclic schemas are read without hanging or throwing: $ref cycles, # , unknown or remote refs, escapes, deep nesting", () => {
      const cyclic = { type: "object", properties: { self: { $ref: "#" }, cycle: { $ref: "#/$defs/A" } }, $defs: { A: { $ref: "#/$defs/B", description: "lasso" }, B: { $ref: "#/$defs/A" } } };
      const odd = {
        type: "object",
        properties: {
          remote: { $ref: "https://example.com/schema.json#/$defs/X" },
          missing: { $ref: "#/$defs/Nope" },
          proto: { $ref: "#/__proto__" },
          length: { $ref: "#/$defs/list/length" },
          esc: { $ref: "#/$defs/a~1b%20c~0d" },
          number: { $ref: 5 },
        },
        $defs: { list: [1, 2], "a/b c~d": { description: "pointer target reached" } },
      };
      const object = { type: "object", properties: {} };
      object.properties.again = object; // a cycle of objects, not of refs
      let deep = { type: "string", description: "buried text" };
      for (let i = 0; i < 10_000; i++) deep = { type: "object", properties: { next: deep } };
      // A zod-like schema that wraps a new one each time it is unwrapped.
      const endless = () => ({ "~standard": { vendor: "zod", version: 1 }, description: "wrapped forever", unwrap: endless });
      const index = new ToolIndex([
        { name: "cyclic", inputSchema: cyclic },
        { name: "odd", inputSchema: odd },
        { name: "object", inputSchema: object },
        { name: "deep", parameters: deep },
        { name: "endless", inputSchema: endless() },
      ]);
      assert.equal(index.size, 5);
      assert.deepEqual(names(index.search("lasso")), ["cyclic"]);
      assert.deepEqual(names(index.search("pointer target")), ["odd"]);
      assert.deepEqual(names(index.search("buried")), [], "past the depth read");
      assert.deepEqual(names(index.search("next")), ["deep"]);
      assert.deepEqual(names(index.search("wrapped forever")), ["endless"]);
    });

    test("OpenAI Chat Completions tools ({ type, function }) and any iterable", () => {
      const chat = [{ type: "function", function: { name: "lookup", description: "look things up" } }];
      assert.deepEqual(names(new ToolIndex(chat).search("look")), ["lookup"]);
      // Anthropic Messages API tools: `input_schema`.
      const anthropic = [{ name: "lookup", description: "look things up", input_schema: { type: "object", properties: { isbn: { type: "string", description: "book identifier" } } } }, { name: "other" }];
      assert.deepEqual(names(new ToolIndex(anthropic).search("book identifier")), ["lookup"]);
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

    test("a tool that cannot be read is named by its place; an endless list is refused past the limit", () => {
      const bad = { name: "b", get description() { throw new Error("boom"); } };
      const named = (pattern) => (e) => e instanceof TypeError && pattern.test(e.message) && e.cause?.message === "boom";
      assert.throws(() => new ToolIndex([{ name: "a" }, bad]), named(/^ToolIndex: tools\[1\] could not be read$/));
      assert.throws(() => new ToolIndex({ a: {}, "odd key": bad }), named(/^ToolIndex: tools\["odd key"\] could not be read$/));
      // An MCP tools/list result as it comes (`{ tools: [...] }`) is not a record of one tool named "tools".
      assert.throws(
        () => new ToolIndex({ tools: [{ name: "read_file" }], nextCursor: "c" }),
        (e) => e instanceof TypeError && /^ToolIndex: tools\["tools"\] could not be read$/.test(e.message) && e.cause instanceof TypeError && /pass the list of tools itself/.test(e.cause.message),
      );
      const boom = () => {
        throw new Error("boom");
      };
      // Getters that throw deep in a schema: in $defs, behind a $ref, in a zod-like shape.
      const defs = { type: "object", properties: { x: { $ref: "#/$defs/X" } }, $defs: { get X() { return boom(); } } };
      assert.throws(() => new ToolIndex([{ name: "a" }, { name: "c", inputSchema: defs }]), named(/^ToolIndex: tools\[1\] could not be read$/));
      const zodLike = { "~standard": { vendor: "zod", version: 1 }, get shape() { return boom(); } };
      assert.throws(() => new ToolIndex({ a: {}, z: { inputSchema: zodLike } }), named(/^ToolIndex: tools\["z"\] could not be read$/));
      let pulled = 0;
      const forever = (f) => (function* () { for (;;) yield f(pulled++); })();
      assert.throws(() => new ToolIndex(forever((i) => ({ name: `t${i}` }))), (e) => e instanceof RangeError && /ToolIndex: tools is too large/.test(e.message));
      assert.equal(pulled, 1_048_577);
      assert.throws(() => new ToolIndex([{ name: "a" }], { vectors: forever(() => [1]) }), /options\.vectors holds 1048577 vectors for 1 tools/);
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

  // Hybrid ranking (SPEC 6): four tools, four directions. A query vector picks a tool
  // whatever its words; the fixture stands in for the host's embeddings.
  const VECTORS = [
    [1, 0, 0, 0], // get_weather
    [0, 1, 0, 0], // send_email
    [0, 0, 1, 0], // sqlQuery
    [0, 0, 0.6, 0.8], // calendar.create-event
  ];
  const EMAIL = [0.1, 1, 0, 0];
  const hybrid = (options) => new ToolIndex(TOOLS, { vectors: VECTORS, ...options });
  const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

  describe("ToolIndex: hybrid ranking with the host's vectors", () => {
    test("without vectors, or without a query vector, the ranking is lexical, exactly", () => {
      const plain = new ToolIndex(TOOLS);
      assert.equal(plain.dimensions, null);
      const index = hybrid();
      assert.equal(index.dimensions, 4);
      for (const q of ["weather in Paris", "send weather email calendar sql", "zzzqqq", ""]) {
        assert.deepEqual(index.search(q), plain.search(q), q);
        assert.deepEqual(plain.search(q, { vector: EMAIL }), plain.search(q), "an index without vectors ignores a query vector");
      }
    });

    test("with a vector: a query sharing no word still finds its tool; both rankings fused", () => {
      const index = hybrid();
      assert.deepEqual([...index.search("zzzqqq")], []);
      const hits = index.search("zzzqqq", { vector: EMAIL });
      assert.equal(hits[0].name, "send_email");
      assert.ok(Object.isFrozen(hits) && hits.every(Object.isFrozen));
      assert.ok(hits.every((h) => h.score > 0));
      for (let i = 1; i < hits.length; i++) assert.ok(hits[i - 1].score >= hits[i].score);
      // Lexically only get_weather; by its vector the calendar: the fused ranking has both first.
      const fused = names(index.search("weather", { vector: [0, 0, 0.6, 0.8], limit: 2 }));
      assert.deepEqual([...fused].sort(), ["calendar.create-event", "get_weather"]);
      assert.equal(index.search("weather", { vector: EMAIL, limit: 1 }).length, 1);
      // A blank query ranks nothing, vector or not; a zero vector says nothing: lexical.
      for (const q of ["", "  ", "?!"]) assert.deepEqual([...index.search(q, { vector: EMAIL })], [], JSON.stringify(q));
      assert.deepEqual(index.search("weather", { vector: [0, 0, 0, 0] }), index.search("weather"));
    });

    test("vectors come as arrays, typed arrays, array-likes, any iterable, or one flat n × d Float32Array; they are copied", () => {
      const reference = names(hybrid().search("zzz", { vector: EMAIL, limit: 4 }));
      const flat = new Float32Array(VECTORS.flat());
      const forms = [
        VECTORS.map((v) => Float64Array.from(v)),
        VECTORS.map((v) => Float32Array.from(v)),
        // Float32Arrays whose own `length` throws: read by their contents, nothing thrown.
        VECTORS.map((v) => Object.defineProperty(Float32Array.from(v), "length", { get: () => { throw new Error("length read"); } })),
        VECTORS.map((v) => Int8Array.from(v.map((x) => x * 100))),
        VECTORS.map((v) => ({ length: v.length, ...v })),
        new Set(VECTORS),
        flat,
      ];
      for (const vectors of forms) {
        const index = new ToolIndex(TOOLS, { vectors });
        assert.equal(index.dimensions, 4);
        assert.deepEqual(names(index.search("zzz", { vector: EMAIL, limit: 4 })), reference);
        assert.deepEqual(names(index.search("zzz", { vector: Float32Array.from(EMAIL), limit: 4 })), reference);
      }
      // A Float32Array copied at once: changing it afterwards changes nothing.
      const rows = VECTORS.map((v) => Float32Array.from(v));
      const copied = new ToolIndex(TOOLS, { vectors: rows });
      for (const row of rows) row.fill(0);
      assert.deepEqual(names(copied.search("zzz", { vector: EMAIL, limit: 4 })), reference);
      const index = new ToolIndex(TOOLS, { vectors: flat });
      flat.fill(0);
      assert.deepEqual(names(index.search("zzz", { vector: EMAIL, limit: 4 })), reference, "changing the caller's array changes nothing");
      // A record of tools: the vectors come in the order of its keys.
      const record = { a: { description: "x" }, b: { description: "y" } };
      assert.equal(new ToolIndex(record, { vectors: [[1, 0], [0, 1]] }).search("zzz", { vector: [0, 1] })[0].name, "b");
    });

    test("a bad vector is a TypeError naming the tool's index; a wrong count names vectors", () => {
      const bad = (vectors, pattern) => assert.throws(() => new ToolIndex(TOOLS, { vectors }), (e) => e instanceof TypeError && pattern.test(e.message), String(pattern));
      bad([VECTORS[0], VECTORS[1], [0, 1], VECTORS[3]], /options\.vectors\[2\] has 2 numbers; the index's vectors have 4/);
      bad([VECTORS[0], [0, NaN, 0, 0], VECTORS[2], VECTORS[3]], /options\.vectors\[1\]\[1\] must be a finite number/);
      bad([VECTORS[0], VECTORS[1], [0, 0, Infinity, 0], VECTORS[3]], /options\.vectors\[2\]\[2\] must be a finite number/);
      bad([VECTORS[0], VECTORS[1], VECTORS[2], [0, "1", 0, 0]], /options\.vectors\[3\]\[1\] must be a finite number/);
      bad([VECTORS[0], 5, VECTORS[2], VECTORS[3]], /options\.vectors\[1\] must be an array of numbers, got number/);
      bad([[], [], [], []], /options\.vectors\[0\] must hold at least one number/);
      bad(VECTORS.slice(0, 3), /options\.vectors holds 3 vectors for 4 tools/);
      bad([...VECTORS, [1, 1, 1, 1]], /options\.vectors holds 5 vectors for 4 tools/);
      bad(new Float32Array(15), /options\.vectors: a flat Float32Array of 15 numbers/);
      bad(new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, NaN, 0]), /options\.vectors\[3\]\[2\] must be a finite number/);
      bad("vectors", /options\.vectors must be an iterable of vectors or a flat Float32Array, got string/);
      const throwing = { *[Symbol.iterator]() { yield VECTORS[0]; throw new Error("boom"); } };
      assert.throws(() => new ToolIndex(TOOLS, { vectors: throwing }), (e) => e instanceof TypeError && /options\.vectors could not be read/.test(e.message) && e.cause.message === "boom");
      assert.throws(() => new ToolIndex(TOOLS, { vectors: VECTORS, embed: 5 }), /options\.embed must be a function/);
      assert.throws(() => new ToolIndex(TOOLS, { vectors: VECTORS, onEmbedError: "x" }), /options\.onEmbedError must be a function/);
      assert.throws(() => new ToolIndex(TOOLS, { embed: () => EMAIL }), (e) => e instanceof TypeError && /options\.embed needs options\.vectors/.test(e.message));
    });

    test("a query vector of another length, or not numbers, is a TypeError naming vector", () => {
      const index = hybrid();
      const bad = (vector, pattern) => assert.throws(() => index.search("weather", { vector }), (e) => e instanceof TypeError && pattern.test(e.message), String(pattern));
      bad([1, 0, 0], /ToolIndex\.search: options\.vector has 3 numbers; the index's vectors have 4/);
      bad([1, 0, 0, NaN], /options\.vector\[3\] must be a finite number/);
      bad(5, /options\.vector must be an array of numbers, got number/);
      bad(null, /options\.vector must be an array of numbers, got null/);
      // The limit is checked by its own value, whatever number the vector is.
      assert.throws(() => index.search("weather", { limit: 0, vector: 5 }), /options\.limit must be a positive integer, got number \(0\)/);
      assert.throws(() => index.search("weather", { vector: new Proxy([], { get() { throw new Error("no"); } }) }), /options\.vector could not be read/);
    });

    test("entries with embed: a Promise of the hybrid rows; embed gets the message; search stays synchronous", async () => {
      const asked = [];
      const index = hybrid({ limit: 1, embed: async (text) => (asked.push(text), EMAIL) });
      assert.ok(Array.isArray(index.search("zzz", { vector: EMAIL })), "search is synchronous");
      const rows = index.entries({ message: "zzzqqq" });
      assert.ok(rows instanceof Promise);
      assert.deepEqual(await rows, [{ tool: "send_email" }]);
      assert.ok(Object.isFrozen(await rows));
      assert.deepEqual(await index.entries("zzzqqq"), [{ tool: "send_email" }]);
      // A synchronous answer (any array-like) is fine too.
      const sync = hybrid({ limit: 1, embed: () => new Float32Array(EMAIL) });
      assert.deepEqual(await sync.entries("zzzqqq"), [{ tool: "send_email" }]);
      assert.deepEqual(asked, ["zzzqqq", "zzzqqq"]);
      // Nothing to embed: no call, no rows (routing refuses and every tool stays).
      for (const context of [undefined, null, 5, {}, { message: 7 }, "", "  "]) assert.deepEqual([...(await index.entries(context))], []);
      assert.equal(asked.length, 2);
      // An unreadable context rejects the Promise (it does not throw).
      const hostile = { get message() { throw new Error("no message"); } };
      const rejected = index.entries(hostile);
      assert.ok(rejected instanceof Promise);
      await assert.rejects(rejected, (e) => e instanceof TypeError && /context\.message could not be read/.test(e.message));
    });

    test("when embed throws, rejects or answers a bad vector, that turn ranks lexically and onEmbedError gets why", async () => {
      const boom = new Error("embeddings API down");
      const answers = [
        [() => { throw boom; }, (e) => e === boom],
        [() => Promise.reject(boom), (e) => e === boom],
        [() => [1, 0], (e) => e instanceof TypeError && /embed\(message\) answered has 2 numbers; the index's vectors have 4/.test(e.message)],
        [() => [1, 0, 0, NaN], (e) => e instanceof TypeError && /\[3\] must be a finite number/.test(e.message)],
        [() => "vector", (e) => e instanceof TypeError && /must be an array of numbers, got string/.test(e.message)],
        [() => ({ then() { throw boom; } }), (e) => e === boom],
      ];
      for (const [embed, why] of answers) {
        const errors = [];
        const index = hybrid({ embed, onEmbedError: (e) => errors.push(e) });
        assert.deepEqual(await index.entries("weather"), [{ tool: "get_weather" }], String(embed));
        assert.equal(errors.length, 1);
        assert.ok(why(errors[0]), String(errors[0]));
        // Without onEmbedError it is ignored; an onEmbedError that throws changes nothing.
        assert.deepEqual(await hybrid({ embed }).entries("weather"), [{ tool: "get_weather" }]);
        const loud = hybrid({ embed, onEmbedError: () => { throw new Error("loud"); } });
        assert.deepEqual(await loud.entries("weather"), [{ tool: "get_weather" }]);
      }
    });

    test("through a router: embed is awaited within timeoutMs; a slow embed is the timeout refusal", async () => {
      const registered = TOOLS.map((t) => t.name);
      const index = hybrid({ embed: async () => EMAIL, limit: 1 });
      const router = new ToolRouter({ entries: index.entries, registered, timeoutMs: 1000 });
      const hit = await router.resolve({ context: { message: "zzzqqq" } });
      assert.ok(hit instanceof Routed);
      assert.deepEqual([...hit.names], ["send_email"]);
      const slow = hybrid({ embed: () => new Promise(() => {}) });
      const late = await new ToolRouter({ entries: slow.entries, registered, timeoutMs: 20 }).resolve({ context: { message: "weather" } });
      assert.ok(late instanceof RoutingRefusal);
      assert.equal(late.reason, REASONS.timedOut(20));
    });

    test("entries with embed is finished by the module, not through a hidden member: the prototype holds no symbol but Symbol.dispose", () => {
      const hidden = Object.getOwnPropertySymbols(ToolIndex.prototype).filter((s) => s !== Symbol.dispose);
      assert.deepEqual(hidden.map(String), []);
    });

    test("dispose() while embed is pending: that entries rejects; later calls throw", async () => {
      let answer;
      const index = hybrid({ embed: () => new Promise((resolve) => (answer = resolve)) });
      const pending = index.entries("weather");
      await tick();
      index.dispose();
      answer(EMAIL);
      await assert.rejects(pending, /entries\(\) after dispose/);
      assert.throws(() => index.entries("weather"), /entries\(\) after dispose/);
      assert.throws(() => index.search("weather", { vector: EMAIL }), /search\(\) after dispose/);
    });
  });

  describe("ToolIndex: snapshots (save, load)", () => {
    const QUERIES = ["weather in Paris", "send weather email calendar sql", "zzzqqq", "query", ""];

    test("load(save()) ranks exactly as the saved index: search, hybrid, entries, size, dimensions, limit", async () => {
      for (const index of [new ToolIndex(TOOLS, { limit: 3 }), hybrid({ limit: 3 })]) {
        const bytes = index.save();
        assert.ok(bytes instanceof Uint8Array);
        const back = ToolIndex.load(bytes);
        assert.ok(back instanceof ToolIndex);
        assert.ok(Object.isFrozen(back));
        assert.equal(back.size, index.size);
        assert.equal(back.dimensions, index.dimensions);
        for (const q of QUERIES) {
          assert.deepEqual(back.search(q), index.search(q), q);
          assert.deepEqual(back.entries(q), index.entries(q), q);
          if (index.dimensions) assert.deepEqual(back.search(q, { vector: EMAIL, limit: 4 }), index.search(q, { vector: EMAIL, limit: 4 }), q);
        }
        assert.equal(back.search("send weather email calendar sql").length, 3, "the saved limit");
        assert.equal(ToolIndex.load(bytes, { limit: 1 }).search("send weather email calendar sql").length, 1, "a limit given to load wins");
        assert.deepEqual([...back.save()], [...bytes], "saved again, the same bytes");
      }
    });

    test("what the index finds is routable exactly: a name that begins or ends with whitespace or U+FEFF is routed from its rows (a caller's row is trimmed, as the SPEC says)", async () => {
      const tools = [{ name: " padded ", description: "weather forecast" }, { name: "\uFEFFbom", description: "email sender" }, { name: "\tlog\n", description: "calendar" }];
      const index = new ToolIndex(tools);
      const registered = index.names;
      for (const [query, name] of [["weather", " padded "], ["email", "\uFEFFbom"], ["calendar", "\tlog\n"]]) {
        let decision;
        const outcome = await resolvePalette({ entries: () => index.entries(query), registered, onDecision: (d) => (decision = d) });
        assert.deepEqual([...outcome.names], [name], query);
        assert.deepEqual(decision.rows, [{ index: 0, fate: "routed", candidate: name }]);
        const router = new ToolRouter({ entries: (m) => index.entries(m), registered });
        assert.deepEqual([...(await router.resolve({ context: query })).names], [name]);
        router.dispose();
      }
      // index.rows(names) makes the same rows for a layer of the caller's own.
      assert.deepEqual([...(await resolvePalette({ entries: () => [...index.rows(["\uFEFFbom"]), "ghost"], registered })).names], ["\uFEFFbom"]);
      assert.throws(() => index.rows(["bom"]), (e) => e instanceof TypeError && e.message === 'ToolIndex.rows: names[0] ("bom") is not a tool of this index');
      // A caller's row naming the same tool is trimmed (SPEC 2) and does not resolve.
      const theirs = await resolvePalette({ entries: () => [{ tool: " padded " }], registered });
      assert.equal(theirs.kind, "refused");
      assert.deepEqual([...theirs.unresolved], ["padded"]);
      // A row copied from the index's is the caller's (only the index's own rows are exact).
      const copied = await resolvePalette({ entries: () => index.entries("weather").map((r) => ({ ...r })), registered });
      assert.equal(copied.kind, "refused");
    });

    test("index.names: the tools' names in the order indexed, frozen; a loaded index has them, so a router over a snapshot needs no other list", async () => {
      const index = new ToolIndex(TOOLS);
      assert.deepEqual(index.names, TOOLS.map((t) => t.name));
      assert.ok(Object.isFrozen(index.names));
      assert.throws(() => index.names.push("x"), TypeError);
      const record = new ToolIndex({ b: { description: "x" }, a: { description: "y" } });
      assert.deepEqual(record.names, ["b", "a"]);
      const back = ToolIndex.load(index.save());
      assert.deepEqual(back.names, index.names);
      const router = new tp.ToolRouter({ entries: back.entries, registered: back.names });
      assert.equal(router.unavailable, null);
      const outcome = await router.resolve({ context: QUERIES[0] });
      assert.deepEqual([...outcome.names], back.entries(QUERIES[0]).map((r) => r.tool));
      router.dispose();
      const odd = ToolIndex.load(new ToolIndex([{ name: " padded\uD800 " }, { name: "\uFEFF" }]).save()).names;
      assert.deepEqual(odd, [" padded\uD800 ", "\uFEFF"]);
    });

    test("names come back exact (lone surrogates, __proto__); a Buffer loads too", () => {
      const odd = ["tool\uD800", "tool\uDC00", "__proto__", "constructor", "", "日本語ツール"];
      const index = new ToolIndex(odd.map((name) => ({ name, description: "shared" })));
      const back = ToolIndex.load(index.save());
      assert.deepEqual(names(back.search("shared", { limit: 10 })), odd);
      assert.equal(names(back.search("shared"))[0].charCodeAt(4), 0xd800);
      if (typeof Buffer === "function") assert.equal(ToolIndex.load(Buffer.from(index.save())).size, odd.length);
      assert.equal(ToolIndex.load(new ToolIndex([]).save()).size, 0);
    });

    test("many names (over 8,192 code units, decoded in one go where they are well-formed) come back exact, a lone surrogate and a leading U+FEFF among them too", () => {
      const many = Array.from({ length: 700 }, (_, i) => `tool_${i}_${"x".repeat(12)}`);
      // (A leading U+FEFF is a name's own unit, not a byte-order mark to drop.)
      for (const list of [many, [...many.slice(0, 350), "tool_\uDBFF_lone", ...many.slice(350)], ["\uFEFFtool_bom", ...many]]) {
        const back = ToolIndex.load(new ToolIndex(list.map((name) => ({ name, description: "shared" }))).save());
        assert.deepEqual(names(back.search("shared", { limit: list.length })), list);
      }
    });

    test("embed and onEmbedError are options of load, not part of the bytes", async () => {
      const errors = [];
      const bytes = hybrid({ embed: () => EMAIL }).save();
      const plain = ToolIndex.load(bytes);
      assert.ok(Array.isArray(plain.entries("zzzqqq")), "no embed: entries stays synchronous");
      const withEmbed = ToolIndex.load(bytes, { embed: async () => EMAIL, limit: 1 });
      assert.deepEqual(await withEmbed.entries("zzzqqq"), [{ tool: "send_email" }]);
      const failing = ToolIndex.load(bytes, { embed: () => [1], onEmbedError: (e) => errors.push(e) });
      assert.deepEqual(await failing.entries("weather"), [{ tool: "get_weather" }]);
      assert.equal(errors.length, 1);
      assert.throws(() => ToolIndex.load(new ToolIndex(TOOLS).save(), { embed: () => EMAIL }), (e) => e instanceof TypeError && /options\.embed needs a snapshot with vectors/.test(e.message));
      assert.throws(() => ToolIndex.load(bytes, { vectors: VECTORS }), (e) => e instanceof TypeError && /ToolIndex\.load: options\.vectors/.test(e.message));
      assert.throws(() => ToolIndex.load(bytes, { limit: 0 }), /ToolIndex\.load: options\.limit/);
    });

    test("foreign, truncated, altered or other-version bytes are a TypeError or RangeError saying which; never a wrong ranking", () => {
      const bytes = hybrid().save();
      const refused = (b, Type, pattern) => assert.throws(() => ToolIndex.load(b), (e) => e instanceof Type && pattern.test(e.message), String(pattern));
      refused("bytes", TypeError, /ToolIndex\.load: bytes must be a Uint8Array/);
      refused(bytes.buffer, TypeError, /must be a Uint8Array/);
      for (const view of [new DataView(bytes.buffer), new Int8Array(bytes.buffer), new Uint16Array(4)]) {
        refused(view, TypeError, /^ToolIndex\.load: bytes must be a Uint8Array \(from index\.save\(\)\), got a typed array or DataView of another kind: view its bytes as new Uint8Array\(view\.buffer, view\.byteOffset, view\.byteLength\)$/);
      }
      refused(new TextEncoder().encode('{"tools":[]}'), TypeError, /bytes are not a ToolIndex snapshot/);
      refused(new Uint8Array(0), RangeError, /bytes are truncated: 0 bytes of the 24/);
      refused(bytes.subarray(0, bytes.length - 1), RangeError, new RegExp(`truncated: ${bytes.length - 1} bytes of the ${bytes.length}`));
      refused(bytes.subarray(0, 30), RangeError, /truncated/);
      const longer = new Uint8Array(bytes.length + 3);
      longer.set(bytes);
      refused(longer, RangeError, new RegExp(`${bytes.length + 3} bytes, more than the ${bytes.length}`));
      const other = bytes.slice();
      other[8] = 9;
      refused(other, TypeError, /a snapshot of format version 9; this tool-palette reads version 4/);
      // Any one byte altered anywhere in the payload: refused.
      for (let at = 24; at < bytes.length; at += 7) {
        const altered = bytes.slice();
        altered[at] ^= 0x41;
        refused(altered, TypeError, /bytes are altered: the snapshot's checksum does not match/);
      }
      // load copies: changing the bytes afterwards changes nothing.
      const copy = bytes.slice();
      const loaded = ToolIndex.load(copy);
      copy.fill(0);
      assert.deepEqual(loaded.search("weather"), hybrid().search("weather"));
    });

    test("save() after dispose() throws", () => {
      const index = new ToolIndex(TOOLS);
      index.dispose();
      assert.throws(() => index.save(), /save\(\) after dispose/);
    });
  });

  // `explain` (why a tool was picked) against `search` for the same query: the same names,
  // scores and order, and parts that add up to the scores.
  const close = (a, b) => Math.abs(a - b) <= 1e-6 * Math.max(Math.abs(a), Math.abs(b));
  const FIELDS = ["name", "description", "parameterName", "parameterDescription", "parameterEnum"];
  const explainsSearch = (index, query, options) => {
    const found = index.search(query, options);
    const explained = index.explain(query, options);
    assert.deepEqual(explained.map((x) => [x.name, x.score]), found.map((h) => [h.name, h.score]), query);
    explained.forEach((x, i) => {
      assert.equal(x.rank, i + 1);
      if (x.lexical) {
        const fields = x.lexical.fields;
        assert.ok(fields.length > 0 && fields.every((f, k) => k === 0 || FIELDS.indexOf(fields[k - 1].field) < FIELDS.indexOf(f.field)), query);
        assert.ok(close(fields.reduce((sum, f) => sum + f.score, 0), x.lexical.score), `${query}: ${x.name}'s fields add up to its lexical score`);
        for (const f of fields) {
          assert.ok(close(f.terms.reduce((sum, t) => sum + t.score, 0), f.score));
          assert.ok(f.terms.every((t) => typeof t.term === "string" && t.score > 0 && Number.isInteger(t.count) && t.count > 0));
        }
      }
      if (x.fused) {
        assert.ok(x.vector && typeof x.vector.similarity === "number" && x.vector.rank >= 1);
        assert.equal(Math.fround(Math.fround(x.fused.lexical) + Math.fround(x.fused.vector)), x.score, `${query}: ${x.name}'s fused parts add up to its score`);
        // The fusion reads the first 100 of the lexical ranking and the first 200 by cosine.
        assert.equal(x.fused.lexical > 0, x.lexical !== null && x.lexical.rank <= 100);
        assert.equal(x.fused.vector > 0, x.vector.rank <= 200);
      } else {
        assert.equal(x.vector, null);
        assert.equal(x.lexical.score, x.score);
        assert.equal(x.lexical.rank, x.rank);
      }
    });
    return explained;
  };

  const EXPLAIN = { explain: true };
  describe("ToolIndex: explain, why a tool was picked", () => {
    test("the hits of search, each with its score taken apart by field and term; frozen all the way down", () => {
      const index = new ToolIndex(TOOLS, EXPLAIN);
      const [weather] = explainsSearch(index, "weather forecasts in fahrenheit for the city");
      assert.deepEqual(
        weather.lexical.fields.map((f) => [f.field, f.terms.map((t) => [t.term, t.count])]),
        [
          ["name", [["weather", 1]]],
          ["description", [["weather", 1], ["forecast", 1], ["city", 1]]],
          ["parameterName", [["city", 1]]],
          ["parameterDescription", [["city", 1]]],
          ["parameterEnum", [["fahrenheit", 1]]],
        ],
      );
      assert.deepEqual(Object.keys(weather), ["name", "score", "rank", "lexical", "vector", "fused"]);
      assert.equal(weather.name, "get_weather");
      const frozen = (v) => typeof v !== "object" || v === null || (Object.isFrozen(v) && Object.values(v).every(frozen));
      assert.ok(frozen(index.explain("send weather email calendar sql")));
      for (const q of ["send weather email calendar sql", "query", "create event", "recipient address"]) explainsSearch(index, q);
      explainsSearch(index, "send weather email calendar sql", { limit: 2 });
      assert.equal(index.explain("send weather email calendar sql", { limit: 2 }).length, 2);
      for (const q of ["", "  ", "zzzqqq"]) assert.deepEqual([...index.explain(q)], [], JSON.stringify(q));
    });

    test("hybrid: the cosine and its rank, and the fused parts; a tool no word matched has no lexical part", () => {
      const index = hybrid(EXPLAIN);
      const explained = explainsSearch(index, "zzz weather", { vector: EMAIL, limit: 4 });
      assert.deepEqual(explained.map((x) => x.name), ["get_weather", "send_email", "sqlQuery", "calendar.create-event"]);
      const [weather, email] = explained;
      assert.equal(weather.lexical.rank, 1);
      assert.equal(email.lexical, null);
      assert.deepEqual([email.vector.rank, email.fused.lexical], [1, 0]);
      assert.ok(email.vector.similarity > 0.99);
      // A zero vector, or an index without vectors: lexical, as search.
      assert.deepEqual(index.explain("weather", { vector: [0, 0, 0, 0] }), index.explain("weather"));
      assert.deepEqual(new ToolIndex(TOOLS, EXPLAIN).explain("weather", { vector: EMAIL }), index.explain("weather"));
    });

    test("names are the caller's own strings, terms exact JavaScript strings", () => {
      const index = new ToolIndex([{ name: "a\uD800b", description: "lone \uDC00x surrogates" }, { name: "plain" }], EXPLAIN);
      const [hit] = index.explain("A\uD800B \uDC00X");
      assert.equal(hit.name, "a\uD800b");
      assert.deepEqual(hit.lexical.fields.map((f) => f.terms.map((t) => t.term)), [["a\uD800b"], ["\uDC00x"]]);
    });

    test("on BFCL live: for every question, lexical and hybrid (the fixture's embeddings), explain is search with parts that add up", async () => {
      const { data, vectors } = await import("../../../bench/tool-search/compare.mjs");
      const lexical = new ToolIndex(data.tools, EXPLAIN);
      const fused = new ToolIndex(data.tools, { vectors: data.tools.map((t, i) => vectors.tool(t, i)), explain: true });
      let hits = 0;
      for (const q of data.questions) {
        hits += explainsSearch(lexical, q.query, { limit: 10 }).length;
        explainsSearch(fused, q.query, { limit: 10, vector: vectors.question(q) });
      }
      assert.equal(data.questions.length, 1351);
      assert.ok(hits > 10_000, `${hits}`);
      // A snapshot explains as the index saved.
      const loaded = ToolIndex.load(fused.save());
      const q = data.questions[7];
      assert.deepEqual(loaded.explain(q.query, { vector: vectors.question(q) }), fused.explain(q.query, { vector: vectors.question(q) }));
    });

    test("bad arguments are the errors search gives, naming explain's", () => {
      const index = hybrid(EXPLAIN);
      assert.throws(() => index.explain(5), (e) => e instanceof TypeError && /^ToolIndex\.explain: query must be a string, got number \(5\)$/.test(e.message));
      assert.throws(() => index.explain("x", 5), (e) => e instanceof TypeError && /^ToolIndex\.explain: options/.test(e.message));
      assert.throws(() => index.explain("x", { limit: -1 }), (e) => e instanceof TypeError && /^ToolIndex\.explain: options\.limit/.test(e.message));
      assert.throws(() => index.explain("x", { vector: [1, 2] }), (e) => e instanceof TypeError && /^ToolIndex\.explain: options\.vector has 2 numbers; the index's vectors have 4$/.test(e.message));
      assert.throws(() => index.explain("x", { vector: [1, 2, NaN, 0] }), /^TypeError: ToolIndex\.explain: options\.vector\[2\] must be a finite number$/);
      for (const [args, pattern] of [[[5], /query/], [["x", { limit: 0 }], /options\.limit/], [["x", { vector: "v" }], /options\.vector/]]) {
        assert.throws(() => index.search(...args), (e) => e instanceof TypeError && new RegExp(`^ToolIndex\\.search: ${pattern.source}`).test(e.message));
        assert.throws(() => index.explain(...args), (e) => e instanceof TypeError && new RegExp(`^ToolIndex\\.explain: ${pattern.source}`).test(e.message));
      }
      index.dispose();
      assert.throws(() => index.explain("weather"), /^Error: ToolIndex: explain\(\) after dispose\(\)$/);
    });

    test("only an index built with options.explain explains (its snapshots too); the others' snapshots are as before", () => {
      const unexplained = /^Error: ToolIndex\.explain: this index keeps no field counts to explain with; build it with options\.explain: true/;
      const plain = new ToolIndex(TOOLS);
      const counted = new ToolIndex(TOOLS, EXPLAIN);
      for (const index of [plain, ToolIndex.load(plain.save()), new ToolIndex(TOOLS, { explain: false }), hybrid()]) {
        assert.throws(() => index.explain("weather"), unexplained);
        assert.ok(index.search("weather").length > 0);
      }
      assert.deepEqual(ToolIndex.load(counted.save()).explain("weather city"), counted.explain("weather city"));
      assert.deepEqual(counted.search("weather city"), plain.search("weather city"));
      // The counts are the last section of a snapshot that has them: the rest is the plain one's but its flags.
      const [bytes, more] = [plain.save(), counted.save()];
      assert.ok(more.length > bytes.length);
      const flags = 24 + 4 + 4 * 10 + 4;
      // (16: contractions are not words, which a snapshot of an older build, without it, keeps.)
      assert.deepEqual([bytes[flags], more[flags]], [7 | 16, 15 | 16]);
      // Format 4 without the counts (what a reader of format 4 reads), 5 with them.
      assert.deepEqual([bytes[8], more[8]], [4, 5]);
      assert.deepEqual(more.slice(flags + 4, bytes.length), bytes.slice(flags + 4));
      for (const explain of [1, "yes", null]) {
        assert.throws(() => new ToolIndex(TOOLS, { explain }), (e) => e instanceof TypeError && /^ToolIndex: options\.explain must be a boolean/.test(e.message), String(explain));
      }
      assert.throws(() => ToolIndex.load(bytes, EXPLAIN), (e) => e instanceof TypeError && /^ToolIndex\.load: options\.explain: a snapshot explains if its index was built with options\.explain/.test(e.message));
    });
  });
}
