// ToolIndex.load from a Response, a Blob or a ReadableStream (SPEC 6, snapshots): a Promise
// of the index, against whichever build of the package is handed in.
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import vm from "node:vm";

export function streamedLoad(tp) {
  const { ToolIndex } = tp;
  const TOOLS = [
    { name: "get_weather", description: "Current weather and forecast for a city", parameters: { type: "object", properties: { city: { type: "string" } } } },
    { name: "send_email", description: "Send an email message to a recipient" },
    { name: "sqlQuery", description: "Run a SQL query against the sales database", namespace: "db" },
    { name: "calendar.create-event", description: "Create a calendar event" },
  ];
  const VECTORS = [[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 0]];
  const QUERIES = ["weather in Paris", "send weather email calendar sql", "zzzqqq", "query", ""];
  const saved = new ToolIndex(TOOLS, { vectors: VECTORS, limit: 3 });
  const BYTES = saved.save();

  // A ReadableStream of `bytes` cut into chunks of `size` bytes, recording what its reader did.
  const chunked = (bytes, size, log = {}) => {
    let at = 0;
    return new ReadableStream({
      pull(controller) {
        if (at >= bytes.length) controller.close();
        else controller.enqueue(bytes.slice(at, (at += size)));
      },
      cancel(reason) {
        log.cancelled = reason;
      },
    });
  };
  // A stream that gives `first` and then never answers another read.
  const stalled = (first, log = {}) =>
    new ReadableStream({
      start(controller) {
        if (first) controller.enqueue(first);
      },
      pull() {
        log.pulled = (log.pulled ?? 0) + 1;
        return new Promise(() => {});
      },
      cancel(reason) {
        log.cancelled = reason;
      },
    });
  const same = (back, index = saved) => {
    assert.ok(back instanceof ToolIndex);
    assert.equal(back.size, index.size);
    assert.equal(back.dimensions, index.dimensions);
    for (const q of QUERIES) {
      assert.deepEqual(back.search(q), index.search(q), q);
      assert.deepEqual(back.entries(q), index.entries(q), q);
      assert.deepEqual(back.search(q, { vector: [0, 1, 0], limit: 4 }), index.search(q, { vector: [0, 1, 0], limit: 4 }), q);
    }
    assert.deepEqual([...back.save()], [...BYTES], "saved again, the same bytes");
  };
  const rejects = async (promise, Type, message) => {
    assert.ok(promise instanceof Promise, "a Promise, not a throw");
    await assert.rejects(promise, (e) => e instanceof Type && (typeof message === "string" ? e.message === message : message.test(e.message)), String(message));
  };

  describe("ToolIndex.load from a Response, Blob or ReadableStream", () => {
    test("a Response, a Blob and a ReadableStream load as the Uint8Array does: a Promise of an index that ranks the same", async () => {
      const sync = ToolIndex.load(BYTES);
      assert.ok(sync instanceof ToolIndex, "a Uint8Array stays synchronous");
      same(sync);
      for (const source of [new Response(BYTES), new Blob([BYTES]), new Response(new Blob([BYTES])), chunked(BYTES, 64)]) {
        const loading = ToolIndex.load(source);
        assert.ok(loading instanceof Promise, source.constructor.name);
        same(await loading);
      }
      assert.equal((await ToolIndex.load(new Response(BYTES), { limit: 1 })).search("send weather email calendar sql").length, 1, "options.limit");
      const embedded = await ToolIndex.load(new Blob([BYTES]), { embed: async () => [0, 1, 0], limit: 1 });
      // The vector ranks what no word matches: its best first (the rows past it are the
      // single message's near hits, as the index built with the same options gives them).
      const rows = await embedded.entries("zzzqqq");
      assert.deepEqual(rows[0], { tool: "send_email" }, "options.embed");
      const built = new ToolIndex(TOOLS, { vectors: VECTORS, embed: async () => [0, 1, 0], limit: 1 });
      assert.deepEqual(rows, await built.entries("zzzqqq"), "options.embed, as constructed");
      built.dispose();
    });

    test("chunks of every size, boundaries inside the 24-byte header and after it, empty chunks among them", async () => {
      for (const size of [1, 2, 5, 7, 8, 12, 23, 24, 25, 100, BYTES.length - 1, BYTES.length]) same(await ToolIndex.load(chunked(BYTES, size)), saved);
      const parts = [BYTES.subarray(0, 3), new Uint8Array(0), BYTES.subarray(3, 30), new Uint8Array(0), BYTES.subarray(30)];
      same(await ToolIndex.load(new ReadableStream({ start: (c) => (parts.forEach((p) => c.enqueue(p)), c.close()) })));
      // Chunks that are views into a larger buffer, and a Buffer.
      const wide = new Uint8Array(BYTES.length + 20);
      wide.set(BYTES, 10);
      const views = [new Uint8Array(wide.buffer, 10, 17), new Uint8Array(wide.buffer, 27, BYTES.length - 17)];
      same(await ToolIndex.load(new ReadableStream({ start: (c) => (views.forEach((v) => c.enqueue(v)), c.close()) })));
      if (typeof Buffer === "function") same(await ToolIndex.load(new ReadableStream({ start: (c) => (c.enqueue(Buffer.from(BYTES)), c.close()) })));
    });

    test("another realm's objects (a vm context): a Response-like, a stream-like, its Uint8Array chunks and promises", async () => {
      const context = vm.createContext({ outer: Array.from(BYTES) });
      const { response, stream, blob } = vm.runInContext(
        `const bytes = new Uint8Array(outer);
         const reader = (size) => { let at = 0; return {
           read: () => Promise.resolve(at >= bytes.length ? { done: true, value: undefined } : { done: false, value: bytes.slice(at, (at += size)) }),
           cancel: () => Promise.resolve(),
         }; };
         ({ response: { bodyUsed: false, body: { getReader: () => reader(9) } }, stream: { getReader: () => reader(4) },
            blob: { size: bytes.length, stream: () => ({ getReader: () => reader(1000) }) } })`,
        context,
      );
      assert.ok(!(vm.runInContext("new Uint8Array(1)", context) instanceof Uint8Array), "the context's classes are its own");
      for (const source of [response, stream, blob]) same(await ToolIndex.load(source));
    });

    test("what is no source stays a synchronous TypeError; a source's faults before the first read reject", async () => {
      for (const value of [{}, { body: "text" }, { body: undefined }, new ArrayBuffer(8), () => {}]) {
        assert.throws(() => ToolIndex.load(value), { name: "TypeError", message: /^ToolIndex\.load: bytes must be a Uint8Array \(from index\.save\(\)\), got / });
      }
      await rejects(ToolIndex.load(new Response(BYTES), { limit: 0 }), TypeError, /^ToolIndex\.load: options\.limit/);
      await rejects(ToolIndex.load(new Response(BYTES), { vectors: VECTORS }), TypeError, /^ToolIndex\.load: options\.vectors: a snapshot holds its vectors/);
      await rejects(ToolIndex.load(new Response(BYTES), { signal: {} }), TypeError, "ToolIndex.load: options.signal must be an AbortSignal, got an object");
      await rejects(ToolIndex.load(new Response(new ToolIndex(TOOLS).save()), { embed: () => [1] }), TypeError, /options\.embed needs a snapshot with vectors/);
      await rejects(ToolIndex.load({ stream: () => "no stream" }), TypeError, "ToolIndex.load: source.stream() must be a ReadableStream, got string");
    });

    test("a Response whose body was read already (bodyUsed) is refused with that, before its body is touched", async () => {
      const used = new Response(BYTES);
      await used.arrayBuffer();
      await rejects(ToolIndex.load(used), TypeError, /^ToolIndex\.load: source's body was read already \(bodyUsed\)/);
      const reading = new Response(BYTES);
      reading.body.getReader();
      await rejects(ToolIndex.load(reading), TypeError, "ToolIndex.load: source could not be read");
      const copy = new Response(BYTES);
      const clone = copy.clone();
      await copy.arrayBuffer();
      same(await ToolIndex.load(clone));
    });

    test("no bytes, truncated, altered, foreign or other-version bytes: the sync load's errors, naming source's bytes", async () => {
      const message = (bytes) => {
        try {
          ToolIndex.load(bytes);
        } catch (error) {
          return [error.constructor, error.message.replace("ToolIndex.load: bytes", "ToolIndex.load: source's bytes")];
        }
        assert.fail("loaded");
      };
      const altered = BYTES.slice();
      altered[40] ^= 1;
      const other = BYTES.slice();
      other[8] = 9;
      const cases = [new Uint8Array(0), BYTES.subarray(0, 10), BYTES.subarray(0, 24), BYTES.subarray(0, BYTES.length - 1), altered, other, new TextEncoder().encode("{\"tools\": [], \"these are\": \"not a snapshot\"}")];
      for (const bytes of cases) {
        const [Type, text] = message(bytes);
        for (const size of [1, 7, 1000]) await rejects(ToolIndex.load(chunked(bytes, size)), Type, text);
        await rejects(ToolIndex.load(new Blob([bytes])), Type, text);
      }
      await rejects(ToolIndex.load(new Response(null)), RangeError, "ToolIndex.load: source's bytes are truncated: 0 bytes of the 24 the snapshot needs");
    });

    test("bytes that are no snapshot, or of another version, are refused at the header: the rest is not read", async () => {
      for (const bytes of [new TextEncoder().encode("x".repeat(24)), Object.assign(BYTES.slice(0, 24), { 8: 9 })]) {
        const log = {};
        await rejects(ToolIndex.load(stalled(bytes, log)), TypeError, /^ToolIndex\.load: source's bytes are (not a ToolIndex snapshot|a snapshot of format version 9)/);
        assert.ok(log.cancelled instanceof TypeError, "the reader is cancelled with the error");
      }
    });

    test("more bytes than the header announces, or a header announcing more than the module holds: a RangeError, the reader cancelled, nothing more read", async () => {
      const more = `ToolIndex.load: source's bytes are more than the ${BYTES.length} of the snapshot they start with`;
      for (const extra of [1, 3, 500]) {
        const longer = new Uint8Array(BYTES.length + extra);
        longer.set(BYTES);
        const log = {};
        await rejects(ToolIndex.load(stalled(longer, log)), RangeError, more);
        assert.ok(log.cancelled instanceof RangeError, "the reader is cancelled");
        await rejects(ToolIndex.load(chunked(longer, 50)), RangeError, more);
      }
      // A stream without end after a whole snapshot ends at the first byte too many.
      let pulls = 0;
      const endless = new ReadableStream({
        start: (c) => c.enqueue(BYTES.slice()),
        pull: (c) => (pulls++, c.enqueue(new Uint8Array(1 << 20))),
      });
      await rejects(ToolIndex.load(endless), RangeError, more);
      assert.ok(pulls <= 3, `pulls: ${pulls}`);
      // A header announcing 4 GiB: refused before anything is allocated.
      for (const length of [0xffffffff, 2 ** 30]) {
        const header = BYTES.slice(0, 24);
        new DataView(header.buffer).setUint32(12, length, true);
        const cut = {};
        await rejects(ToolIndex.load(stalled(header, cut)), RangeError, `ToolIndex.load: source's bytes announce a snapshot of ${24 + length} bytes, more than the module can hold (at most 1073741824, as memory allows)`);
        assert.ok(cut.cancelled instanceof RangeError);
      }
      assert.equal(ToolIndex.load(BYTES).size, 4, "the module serves on");
    });

    test("options.signal: aborted before, the source is not touched; aborted while a read stalls, the reader is cancelled and the promise rejects with signal.reason", async () => {
      const reason = { why: "stop" };
      const untouched = new Response(BYTES);
      await assert.rejects(ToolIndex.load(untouched, { signal: AbortSignal.abort(reason) }), (e) => e === reason);
      assert.equal(untouched.bodyUsed, false);
      assert.equal(untouched.body.locked, false);
      for (const first of [undefined, BYTES.slice(0, 10), BYTES.slice(0, 40)]) {
        const log = {};
        const controller = new AbortController();
        const loading = ToolIndex.load(stalled(first, log), { signal: controller.signal });
        await new Promise((resolve) => setTimeout(resolve, 5));
        assert.ok(log.pulled >= 1, "it was waiting for a read");
        controller.abort(reason);
        await assert.rejects(loading, (e) => e === reason);
        assert.equal(log.cancelled, reason, "the reader is cancelled with the reason");
      }
      // Aborted between two reads; and a signal that is not aborted changes nothing.
      const controller = new AbortController();
      let reads = 0;
      const reader = { read: () => (++reads === 2 && controller.abort(reason), Promise.resolve({ done: false, value: BYTES.slice(0, 1) })), cancel: () => {} };
      await assert.rejects(ToolIndex.load({ getReader: () => reader }, { signal: controller.signal }), (e) => e === reason);
      assert.equal(reads, 2);
      same(await ToolIndex.load(chunked(BYTES, 30), { signal: new AbortController().signal }));
      // A signal whose removeEventListener throws: the load still ends, and a failing one
      // still cancels its reader.
      const odd = { aborted: false, addEventListener: () => {}, removeEventListener: () => { throw new Error("odd"); } };
      same(await ToolIndex.load(chunked(BYTES, 30), { signal: odd }));
      const log = {};
      await rejects(ToolIndex.load(chunked(BYTES.subarray(0, 30), 7, log), { signal: odd }), RangeError, /truncated/);
      const cut = {};
      await rejects(ToolIndex.load(stalled(new Uint8Array(24), cut), { signal: odd }), TypeError, /not a ToolIndex snapshot/);
      assert.ok(cut.cancelled instanceof TypeError, "cancelled though removeEventListener threw");
      // A signal that refuses a listener: a TypeError naming it; the reader is cancelled.
      const refusing = { aborted: false, addEventListener: () => { throw new Error("no"); }, removeEventListener: () => {} };
      const refused = {};
      await rejects(ToolIndex.load(stalled(undefined, refused), { signal: refusing }), TypeError, "ToolIndex.load: options.signal failed as an AbortSignal");
      assert.ok(refused.cancelled instanceof TypeError);
    });

    test("a stream that errors, or a chunk that is not a Uint8Array: a TypeError naming source, the reader cancelled", async () => {
      const boom = new Error("boom");
      await rejects(ToolIndex.load(new ReadableStream({ pull: (c) => c.error(boom) })), TypeError, "ToolIndex.load: source could not be read");
      await assert.rejects(ToolIndex.load(new ReadableStream({ pull: (c) => c.error(boom) })), (e) => e.cause === boom);
      const bad = [["a string", "string"], [new ArrayBuffer(4), "an object"], [new Uint16Array(4), "an object"], [null, "null"], [[1, 2, 3], "an array"]];
      for (const [chunk, got] of bad) {
        const log = {};
        const stream = new ReadableStream({ start: (c) => (c.enqueue(BYTES.slice(0, 5)), c.enqueue(chunk)), cancel: (r) => (log.cancelled = r) });
        await rejects(ToolIndex.load(stream), TypeError, `ToolIndex.load: source's chunk 1 must be a Uint8Array, got ${got}`);
        assert.ok(log.cancelled instanceof TypeError);
      }
    });

    test("the caller's code that throws anywhere (getters, a Proxy, getReader, read, then, cancel) rejects the load; the module serves on", async () => {
      const boom = new Error("boom");
      const thrower = () => {
        throw boom;
      };
      const good = () => chunked(BYTES, 40).getReader();
      const sources = [
        Object.defineProperty({}, "body", { get: thrower }),
        Object.defineProperty({}, "getReader", { get: thrower }),
        { bodyUsed: false, body: { getReader: thrower } },
        new Proxy({}, { get: thrower }),
        new Proxy({}, { has: thrower, get: (t, k) => (k === "getReader" ? thrower : undefined) }),
        { stream: thrower },
        { getReader: () => ({ read: thrower, cancel: thrower }) },
        { getReader: () => ({ read: () => Promise.reject(boom), cancel: () => Promise.reject(boom) }) },
        { getReader: () => ({ read: () => ({ then: thrower }), cancel: thrower }) },
        { getReader: () => ({ read: () => Object.defineProperty({}, "then", { get: thrower }) }) },
        { getReader: () => ({ read: () => Promise.resolve(Object.defineProperty({}, "done", { get: thrower })) }) },
        { getReader: () => ({ read: () => Promise.resolve({ done: false, get value() { throw boom; } }) }) },
        { getReader: () => ({ read: () => Promise.resolve(undefined) }) },
      ];
      for (let round = 0; round < 50; round++) {
        for (const source of sources) {
          const loading = ToolIndex.load(source);
          assert.ok(loading instanceof Promise);
          await assert.rejects(loading, (e) => e instanceof TypeError && e.message === "ToolIndex.load: source could not be read");
        }
      }
      // A reader whose cancel throws or whose reads answer a thenable still loads, or fails as itself.
      const thenable = good();
      same(await ToolIndex.load({ getReader: () => ({ read: () => ({ then: (ok) => thenable.read().then(ok) }), cancel: thrower }) }));
      const log = {};
      await rejects(ToolIndex.load({ getReader: () => ({ read: () => Promise.resolve({ done: false, value: "x" }), cancel: (r) => ((log.cancelled = r), thrower()) }) }), TypeError, /chunk 0 must be a Uint8Array/);
      assert.ok(log.cancelled instanceof TypeError);
      // A read that calls back into the package.
      let nested;
      const reader = good();
      same(await ToolIndex.load({ getReader: () => ({ read: () => ((nested ??= ToolIndex.load(BYTES).search("weather")), reader.read()) }) }));
      assert.deepEqual(nested, saved.search("weather"));
      assert.equal(new ToolIndex(TOOLS).search("weather")[0].name, "get_weather");
    });
  });
}
