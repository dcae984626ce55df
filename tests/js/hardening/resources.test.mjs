// Issue 7, "resources": 100,000 turns leave wasm memory and the JS heap flat; a thunk
// that settles after its turn timed out or was aborted does no harm; nothing left behind
// keeps a Node process alive once resolvePalette has settled.
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import * as tp from "../../../dist/node.mjs";

const dist = (f) => fileURLToPath(new URL(`../../../dist/${f}`, import.meta.url));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function node(args, code, timeout = 60_000) {
  const started = Date.now();
  const r = spawnSync(process.execPath, [...args, "-e", code], { encoding: "utf8", timeout, env: { ...process.env, NODE_NO_WARNINGS: "1" } });
  return { ...r, ms: Date.now() - started };
}

describe("resources", () => {
  test("100,000 turns leave wasm memory and the JS heap flat", () => {
    // In a child with --expose-gc. The wasm memory is read from the instance the package
    // itself uses: initSync on the already-initialised glue hands back its exports (the
    // entry unbundled, dist/node-modules.mjs: node.mjs bundles the glue in).
    const code = `
      const tp = await import(${JSON.stringify(dist("node-modules.mjs"))});
      const { initSync } = await import(${JSON.stringify(dist("tool_palette.js"))});
      const memory = initSync({ module: new Uint8Array(0) }).memory;
      const { resolvePalette, ToolRouter, ToolPolicies, bindPalette, activeTools, Routed } = tp;
      const registered = Array.from({ length: 200 }, (_, i) => "tool_" + i);
      const tools = registered.map((name) => ({ name }));
      const record = Object.fromEntries(registered.map((n) => [n, { n }]));
      let router = new ToolRouter({ entries: async () => rowsOf(turn), registered, timeoutMs: 1000 });
      let policies = new ToolPolicies([
        { name: "m", match: (c) => c.i % 3 === 0, model: "small" },
        { name: "r", match: (c) => c.i % 2 === 0, whenTool: ["tool_1", "tool_2"], redirectTo: "tool_3", argsTransform: (a) => ({ ...a, r: 1 }) },
      ], { onWarning: () => {}, modelResolver: () => "big" });
      let turn = 0;
      const rowsOf = (i) => ["tool_" + (i % 200), " tool_" + ((i * 7) % 200) + " ", { tool: "ghost_" + (i % 50) }, { content: "prose", active: false }];
      async function one(i) {
        turn = i;
        const r = await resolvePalette({ entries: async () => rowsOf(i), registered, timeoutMs: 1000 });
        const rr = await router.resolve();
        bindPalette(tools, r); bindPalette(record, rr); activeTools(r);
        policies.selectModel({ i });
        policies.dispatch({ name: "tool_" + (i % 3), args: { i }, id: i }, { i }, r);
        policies.dispatch({ name: "tool_1", args: {} }, { i }, new Routed(["tool_1"]));
        if (i % 5 === 0) await resolvePalette({ entries: () => { throw new Error("x"); }, registered });
      }
      // Routers and policy sets built and dropped: their wasm memory comes back through
      // finalisation (after a GC), so a second round of the same churn reuses the first's.
      function churn() {
        for (let k = 0; k < 5000; k++) {
          new ToolRouter({ entries: async () => [], registered });
          new ToolPolicies([{ name: "r", match: () => true, whenTool: ["tool_1"], redirectTo: "tool_3" }]);
        }
      }
      async function settle() {
        for (let k = 0; k < 4; k++) { gc(); await new Promise((r) => setImmediate(r)); }
        const m = process.memoryUsage();
        return { wasm: memory.buffer.byteLength, heapUsed: m.heapUsed, rss: m.rss, arrayBuffers: m.arrayBuffers };
      }
      for (let i = 0; i < 10000; i++) await one(i);
      const warm = await settle();
      const t0 = Date.now();
      for (let i = 10000; i < 100000; i++) await one(i);
      const end = await settle();
      churn();
      const churned = await settle();
      churn();
      const churnedAgain = await settle();
      console.log(JSON.stringify({ warm, end, ms: Date.now() - t0, churned, churnedAgain }));
    `;
    const r = node(["--expose-gc", "--input-type=module"], code, 120_000);
    assert.equal(r.status, 0, r.stderr);
    const { warm, end, ms, churned, churnedAgain } = JSON.parse(r.stdout.trim().split("\n").pop());
    const mb = (b) => `${(b / 2 ** 20).toFixed(2)} MiB`;
    console.log(`# 10k turns: wasm ${mb(warm.wasm)}, heapUsed ${mb(warm.heapUsed)}, rss ${mb(warm.rss)}, arrayBuffers ${mb(warm.arrayBuffers)}`);
    console.log(`# 100k turns: wasm ${mb(end.wasm)}, heapUsed ${mb(end.heapUsed)}, rss ${mb(end.rss)}, arrayBuffers ${mb(end.arrayBuffers)} (90k turns in ${ms} ms)`);
    // wasm memory never shrinks: any growth after warm-up is a leak.
    assert.equal(end.wasm, warm.wasm, "wasm memory grew between turn 10,000 and turn 100,000");
    assert.ok(end.heapUsed - warm.heapUsed < 4 * 2 ** 20, `JS heap grew by ${mb(end.heapUsed - warm.heapUsed)}`);
    assert.ok(end.arrayBuffers - warm.arrayBuffers < 2 ** 20, `array buffers grew by ${mb(end.arrayBuffers - warm.arrayBuffers)}`);
    console.log(`# 5,000 routers + policy sets dropped: wasm ${mb(churned.wasm)}; 5,000 more: wasm ${mb(churnedAgain.wasm)}`);
    assert.ok(churnedAgain.wasm <= churned.wasm * 1.25, "dropped routers and policy sets are not reclaimed");
  });

  test("a thunk that settles after its turn timed out or was aborted does no harm", async () => {
    const events = [];
    const onEvent = (kind) => (e) => events.push([kind, e]);
    const rejection = onEvent("unhandledRejection");
    const exception = onEvent("uncaughtException");
    process.on("unhandledRejection", rejection);
    process.on("uncaughtException", exception);
    try {
      const late = (ms, rows) => () => sleep(ms).then(() => rows);
      const lateFail = (ms) => () => sleep(ms).then(() => Promise.reject(new Error("late failure")));
      const timedOut = await Promise.all([
        tp.resolvePalette({ entries: late(30, ["a"]), registered: ["a"], timeoutMs: 1 }),
        tp.resolvePalette({ entries: lateFail(30), registered: ["a"], timeoutMs: 1 }),
        new tp.ToolRouter({ entries: late(30, [{ get tool() { throw new Error("read late"); } }]), registered: ["a"], timeoutMs: 1 }).resolve(),
      ]);
      for (const r of timedOut) assert.equal(r.reason, "procedural retrieval timed out after 1 ms; allowing all tools");
      const controller = new AbortController();
      const aborted = [
        tp.resolvePalette({ entries: late(30, ["a"]), registered: ["a"], signal: controller.signal }),
        tp.resolvePalette({ entries: lateFail(30), registered: ["a"], signal: controller.signal }),
      ];
      controller.abort(new Error("stop"));
      for (const p of aborted) await assert.rejects(p, /stop/);
      await sleep(80); // every late thunk has settled by now
      assert.deepEqual(events, []);
      const r = await tp.resolvePalette({ entries: async () => ["a", "b"], registered: ["a"] });
      assert.deepEqual([...r.names], ["a"]);
      assert.deepEqual([...r.unresolved], ["b"]);
    } finally {
      process.off("unhandledRejection", rejection);
      process.off("uncaughtException", exception);
    }
  });

  for (const format of ["esm", "cjs"]) {
    test(`no timer or listener keeps Node alive after resolvePalette settles (${format})`, () => {
      const load = format === "esm" ? `const tp = await import(${JSON.stringify(dist("node.mjs"))});` : `const tp = require(${JSON.stringify(dist("node.cjs"))});`;
      // Ten-minute budgets and a signal that never aborts: anything left armed would
      // keep this child alive far past the 10 s we allow it.
      const body = `
        const signal = new AbortController().signal;
        const long = 600000;
        const a = await tp.resolvePalette({ entries: async () => ["a"], registered: ["a"], timeoutMs: long, signal });
        const b = await tp.resolvePalette({ entries: () => { throw new Error("x"); }, registered: ["a"], timeoutMs: long, signal });
        const c = await tp.resolvePalette({ entries: () => new Promise(() => {}), registered: ["a"], timeoutMs: 5, signal });
        const router = new tp.ToolRouter({ entries: async () => ["a"], registered: ["a"], timeoutMs: long });
        const d = await router.resolve({ signal });
        const ctl = new AbortController();
        const e = tp.resolvePalette({ entries: () => new Promise(() => {}), registered: ["a"], timeoutMs: long, signal: ctl.signal }).catch((x) => x);
        ctl.abort("gone");
        // A store answer whose own then throws decides the turn while it is adopted: no
        // timer or listener may be armed after that (issue 19).
        const hostile = Promise.resolve(["a"]);
        hostile.then = () => { throw new TypeError("then"); };
        const f = await tp.resolvePalette({ entries: () => hostile, registered: ["a"], timeoutMs: long, signal });
        console.log(JSON.stringify([a.kind, b.kind, c.kind, d.kind, await e, f.kind]));
      `;
      const code = format === "esm" ? `${load}\n${body}` : `(async () => { ${load}\n${body} })();`;
      const r = node(format === "esm" ? ["--input-type=module"] : [], code, 10_000);
      assert.equal(r.error, undefined, `the child did not exit by itself within 10 s (${r.ms} ms)`);
      assert.equal(r.status, 0, r.stderr);
      assert.deepEqual(JSON.parse(r.stdout), ["routed", "refused", "refused", "routed", "gone", "refused"]);
      assert.ok(r.ms < 5000, `exited after ${r.ms} ms`);
    });
  }

  test("ToolIndex.load: a load whose stream stalls frees its buffer once aborted, or once dropped (at garbage collection)", () => {
    // Each load reserves the 8 MiB its header announces, then waits for a stream that never
    // answers; four rounds of 16: wasm memory grows for the first round only.
    const code = `
      const { ToolIndex } = await import(${JSON.stringify(dist("node-modules.mjs"))});
      const { initSync } = await import(${JSON.stringify(dist("tool_palette.js"))});
      const memory = initSync({ module: new Uint8Array(0) }).memory;
      const header = new ToolIndex([{ name: "a" }]).save().slice(0, 24);
      new DataView(header.buffer).setUint32(12, 8 << 20, true);
      const stalled = () => new ReadableStream({ start: (c) => c.enqueue(header.slice()), pull: () => new Promise(() => {}) });
      const pause = () => new Promise((r) => setTimeout(r, 20));
      const out = {};
      for (const how of ["aborted", "dropped"]) {
        out[how] = [];
        for (let round = 0; round < 4; round++) {
          const controller = new AbortController();
          const loads = Array.from({ length: 16 }, () => ToolIndex.load(stalled(), how === "aborted" ? { signal: controller.signal } : {}).catch((e) => e));
          await pause();
          if (how === "aborted") {
            controller.abort("stop");
            for (const load of loads) if ((await load) !== "stop") throw new Error("not aborted");
          }
          loads.length = 0;
          for (let i = 0; i < 5; i++) (await pause(), gc());
          out[how].push(memory.buffer.byteLength);
        }
      }
      console.log(JSON.stringify(out));
    `;
    const r = node(["--expose-gc", "--input-type=module"], code, 60_000);
    assert.equal(r.status, 0, r.stderr);
    const { aborted, dropped } = JSON.parse(r.stdout.trim().split("\n").pop());
    const mb = (b) => `${(b / 2 ** 20).toFixed(0)} MiB`;
    console.log(`# wasm memory over four rounds: aborted ${aborted.map(mb).join(", ")}; dropped ${dropped.map(mb).join(", ")}`);
    assert.equal(aborted[3], aborted[0], "aborted loads keep their buffers");
    assert.ok(dropped[3] <= dropped[0] + 16 * 2 ** 20, "dropped loads keep their buffers");
  });
});
