// The resource layer (issue 13): heavy scenarios against the built package, each in a
// child process of its own, so that a failure (a trap, a crash, memory running out)
// cannot take the suite down. Each child prints one JSON line that the test checks; the
// wasm memory is read from the very instance the package uses (the Node entry unbundled,
// dist/node-modules.mjs, whose glue module hands it over; node.mjs bundles the same code).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const dist = (f) => fileURLToPath(new URL(`../../dist/${f}`, import.meta.url));
const MB = 2 ** 20;

// Runs `body` in `node --expose-gc` with `tp` (the package), `memory` (its wasm memory),
// `settle()` (GCs and lets finalizers run) and `REFUSED` in scope; returns its last JSON line.
function scenario(body, timeout = 240_000) {
  const code = `
    const tp = await import(${JSON.stringify(dist("node-modules.mjs"))});
    const { initSync } = await import(${JSON.stringify(dist("tool_palette.js"))});
    const memory = initSync({ module: new Uint8Array(0) }).memory;
    const wasm = () => memory.buffer.byteLength;
    const settle = async () => { for (let k = 0; k < 4; k++) { gc(); await new Promise((r) => setTimeout(r, 0)); } return wasm(); };
    const REFUSED = "procedural retrieval failed (RangeError); allowing all tools";
    const exact = async () => {
      const r = await tp.resolvePalette({ entries: async () => ["a", "ghost"], registered: ["a", "b"] });
      return r.kind === "routed" && r.names.join() === "a" && r.unresolved.join() === "ghost";
    };
    ${body}
  `;
  const r = spawnSync(process.execPath, ["--expose-gc", "--max-old-space-size=6144", "--input-type=module", "-e", code], {
    encoding: "utf8",
    timeout,
    env: { ...process.env, NODE_NO_WARNINGS: "1" },
  });
  assert.equal(r.error, undefined, `the child did not finish: ${r.error}`);
  assert.equal(r.status, 0, `the child failed (${r.signal ?? r.status}):\n${r.stderr.slice(-3000)}`);
  return JSON.parse(r.stdout.trim().split("\n").pop());
}

test("oversize store answers and growing turns are refused, memory stays flat, the next turn is exact", () => {
  const out = scenario(`
    const before = await settle();
    const huge = "x".repeat(1e6);
    const answers = [];
    answers.push((await tp.resolvePalette({ entries: () => Array(1100).fill(huge), registered: ["a"] })).reason);
    for (let n = 100; n <= 500; n += 100) {
      answers.push((await tp.resolvePalette({ entries: async () => Array(n).fill(huge), registered: ["a"] })).reason);
      answers.push((await new tp.ToolRouter({ entries: () => Array(n).fill(huge), registered: ["a"] }).resolve()).reason);
    }
    console.log(JSON.stringify({ answers, before, after: await settle(), exact: await exact() }));
  `);
  assert.ok(out.answers.every((a) => a === "procedural retrieval failed (RangeError); allowing all tools"), JSON.stringify(out.answers));
  assert.ok(out.after - out.before <= 4 * MB, `wasm memory grew ${out.before} → ${out.after}`);
  assert.equal(out.exact, true);
});

test("turns near the limits come and go: memory comes back for the next one", () => {
  const out = scenario(`
    const rows = Array.from({ length: 1_000_000 }, (_, i) => "t" + (i % 5000));
    const registered = Array.from({ length: 5000 }, (_, i) => "t" + i);
    const sizes = [];
    for (let k = 0; k < 4; k++) {
      const r = await tp.resolvePalette({ entries: async () => rows, registered });
      sizes.push([r.names.length, await settle()]);
    }
    console.log(JSON.stringify({ sizes, exact: await exact() }));
  `);
  assert.ok(out.sizes.every(([n]) => n === 5000));
  const [, first] = out.sizes[0];
  assert.ok(out.sizes.every(([, w]) => w === first), `wasm memory kept growing: ${JSON.stringify(out.sizes)}`);
  assert.equal(out.exact, true);
});

test("oversize registries are RangeErrors naming the argument; the largest accepted one works", () => {
  const out = scenario(`
    const errors = [];
    const tooMany = Array(1_048_577).fill("t");
    for (const f of [
      () => tp.resolvePalette({ entries: () => [], registered: tooMany }),
      async () => new tp.ToolRouter({ entries: () => [], registered: tooMany }),
      async () => new tp.ToolPolicies([], { registered: tooMany }),
      async () => new tp.ToolPolicies([{ name: "p", match: () => true, whenTool: tooMany }]),
    ]) {
      try { await f(); errors.push(null); } catch (e) { errors.push([e.name, e.message.split(" is too large")[0]]); }
    }
    const largest = Array.from({ length: 1_048_576 }, (_, i) => "t" + i.toString(36));
    const router = new tp.ToolRouter({ entries: () => ["t" + (1_048_575).toString(36), "t0"], registered: largest });
    const names = [...(await router.resolve()).names];
    router.dispose();
    console.log(JSON.stringify({ errors, names, exact: await exact() }));
  `);
  assert.deepEqual(out.errors, [
    ["RangeError", "resolvePalette: options.registered"],
    ["RangeError", "ToolRouter: options.registered"],
    ["RangeError", "ToolPolicies: options.registered"],
    ["RangeError", 'ToolPolicies: policies[0]: ToolCallPolicy "p": whenTool'],
  ]);
  assert.deepEqual(out.names, ["t" + (1_048_575).toString(36), "t0"]);
  assert.equal(out.exact, true);
});

test("100,000 routers and policy sets built and disposed: wasm memory plateaus", () => {
  const out = scenario(`
    const registered = Array.from({ length: 200 }, (_, i) => "tool_" + i);
    const whenTool = Array.from({ length: 1000 }, (_, i) => "w" + i);
    const round = async (n) => {
      for (let k = 0; k < n; k++) {
        // A host's event loop turns, and its garbage collector runs now and then.
        if (k % 1000 === 0) await new Promise((r) => setImmediate(r));
        if (k % 10_000 === 0) gc();
        const router = new tp.ToolRouter({ entries: () => ["tool_1"], registered: k % 2 ? registered : [...registered, "x" + k] });
        const set = new tp.ToolPolicies([{ name: "r", match: () => true, whenTool, redirectTo: "tool_3" }]);
        set.policies[0].matchesTool("w7");
        set.dispose();
        router.dispose();
      }
      return settle();
    };
    const first = await round(10_000);
    const later = await round(90_000);
    console.log(JSON.stringify({ first, later, exact: await exact() }));
  `);
  assert.ok(out.later <= out.first + 4 * MB, `wasm memory grew from ${out.first} to ${out.later}`);
  assert.equal(out.exact, true);
});

test("per-request routers in a server loop, never disposed, plateau", () => {
  const out = scenario(`
    const registered = Array.from({ length: 300 }, (_, i) => "tool_" + i);
    const serve = async (i) => {
      const router = new tp.ToolRouter({ entries: async (ctx) => [ctx.q], registered });
      const policies = new tp.ToolPolicies([{ name: "p", match: (c) => c.q === "tool_1", redirectTo: "tool_2", whenTool: ["tool_1"] }]);
      const outcome = await router.resolve({ context: { q: "tool_" + (i % 300) } });
      policies.dispatch({ name: "tool_1" }, { q: "tool_1" }, outcome);
    };
    // Requests arrive through the event loop: it turns between them (here, every 100),
    // and the garbage collector runs now and then.
    const tick = (i) => (i % 10_000 === 0 && gc(), i % 100 === 0 ? new Promise((r) => setImmediate(r)) : null);
    for (let i = 0; i < 20_000; i++) { await tick(i); await serve(i); }
    const warm = await settle();
    for (let i = 0; i < 80_000; i++) { await tick(i); await serve(i); }
    const end = await settle();
    // 65,000 routers in one synchronous loop (no chance to collect in between).
    const kept = [];
    for (let i = 0; i < 65_000; i++) kept.push(new tp.ToolRouter({ entries: () => [], registered }));
    const synchronous = wasm();
    console.log(JSON.stringify({ warm, end, synchronous, exact: await exact() }));
  `);
  assert.ok(out.end <= out.warm + 2 * MB, `wasm memory grew from ${out.warm} to ${out.end}`);
  assert.ok(out.synchronous < 256 * MB, `65,000 live routers took ${(out.synchronous / MB).toFixed(0)} MiB of wasm memory`);
  assert.equal(out.exact, true);
});

test("a forced trap fails its own call with an Error that says so; the next calls work", () => {
  const out = scenario(`
    const policies = new tp.ToolPolicies([{ name: "p", match: () => true, redirectTo: "b", model: "m" }]);
    const router = new tp.ToolRouter({ entries: () => ["a"], registered: ["a"] });
    // The allocator may not grow the memory any more: what is free inside it is all
    // there is. Fill it with routers until not even a one-name registry fits.
    memory.grow(65536 - wasm() / 65536);
    // A call refused up front is a RangeError; one that runs out of memory half-way
    // traps, and that is what this test is after.
    const hogs = [];
    let trapped = null;
    const record = (e) => {
      if (e instanceof RangeError) return;
      trapped ??= { name: e.name, message: e.message, cause: e.cause?.constructor?.name };
    };
    for (let size = 65536; size >= 1 && !trapped; size = Math.floor(size / 2)) {
      for (;;) {
        try { hogs.push(new tp.ToolRouter({ entries: () => [], registered: Array.from({ length: size }, (_, i) => size + "_" + hogs.length + "_" + i) })); }
        catch (e) { record(e); break; }
      }
    }
    // Input is checked against the room left before it is copied in (a RangeError); what
    // a call allocates for itself is not, and finds none.
    for (let k = 0; k < 1000 && !trapped; k++) {
      try { new tp.ToolPolicies([]); await tp.resolvePalette({ entries: () => ["a" + k], registered: ["a" + k, "b" + k] }); }
      catch (e) { record(e); }
    }
    for (const h of hogs) h.dispose();
    hogs.length = 0;
    await settle();
    const after = {
      exact: await exact(),
      router: [...(await router.resolve()).names],
      dispatch: policies.dispatch({ name: "a" }, {}).call.name,
      select: policies.selectModel({}).model,
    };
    console.log(JSON.stringify({ trapped, after }));
  `);
  assert.ok(out.trapped, "no call trapped");
  assert.equal(out.trapped.name, "Error");
  assert.match(out.trapped.message, /^tool-palette: the WebAssembly module trapped/);
  assert.equal(out.trapped.cause, "RuntimeError");
  assert.deepEqual(out.after, { exact: true, router: ["a"], dispatch: "b", select: "m" });
});

// Issue 19. The reference table's size is read from the very instance the package uses.
const TABLE = `const table = initSync({ module: new Uint8Array(0) }).__wbindgen_externrefs;`;

test("dropped turns whose store never settles keep nothing alive: contexts, table slots and memory come back", () => {
  const out = scenario(`
    ${TABLE}
    const collected = { n: 0 };
    const registry = new FinalizationRegistry(() => collected.n++);
    const registered = Array.from({ length: 50 }, (_, i) => "t" + i);
    const router = new tp.ToolRouter({ entries: () => new Promise(() => {}), registered });
    const thenable = { then() {} }; // a thenable that never calls back
    const round = (n) => {
      for (let i = 0; i < n; i++) {
        const context = { message: "turn " + i, payload: new Array(64).fill(i) };
        registry.register(context, i);
        if (i % 3 === 0) router.resolve({ context });
        else if (i % 3 === 1) tp.resolvePalette({ entries: () => (context, new Promise(() => {})), registered, onDecision: () => context });
        else tp.resolvePalette({ entries: () => thenable, registered, candidateOf: () => context.message });
      }
    };
    // The table never shrinks: it holds what the largest round held alive at once. A
    // second round as large must fit in it (slots came back), and every context of both
    // rounds must have been collected.
    round(20_000);
    const m0 = await settle();
    const t0 = table.length;
    const heap0 = process.memoryUsage().heapUsed;
    round(20_000);
    const m1 = await settle();
    const heap1 = process.memoryUsage().heapUsed;
    console.log(JSON.stringify({ collected: collected.n, t0, t1: table.length, m0, m1, heap0, heap1, exact: await exact() }));
  `);
  assert.ok(out.collected >= 39_900, `only ${out.collected} of 40,000 contexts were collected`);
  assert.ok(out.t1 <= out.t0 + 1024, `the reference table grew from ${out.t0} to ${out.t1}`);
  assert.ok(out.m1 <= out.m0 + 2 * MB, `wasm memory grew from ${out.m0} to ${out.m1}`);
  assert.ok(out.heap1 <= out.heap0 + 8 * MB, `the JS heap grew from ${out.heap0} to ${out.heap1}`);
  assert.equal(out.exact, true);
});

test("dispose() releases at once: 10,000 policy sets and routers built and disposed leave no table slots behind", () => {
  const out = scenario(`
    ${TABLE}
    const live = () => table.length - 0; // grows only when every slot is taken
    await settle();
    const t0 = table.length;
    const whenTool = Array.from({ length: 50 }, (_, i) => "w" + i);
    for (let k = 0; k < 10_000; k++) {
      const set = new tp.ToolPolicies([
        { name: "a", match: () => true, whenTool, redirectTo: "b", model: { k }, argsTransform: (x) => ({ ...x }), guard: () => true },
        { name: "c", match: () => false, model: "m" },
      ], { modelResolver: () => null, onToolCallDispatch: () => undefined, onWarning: () => {}, registered: ["a", "b"] });
      set.selectModel({});
      set.dispatch({ name: "w1", args: {} }, {});
      set.dispose();
      const router = new tp.ToolRouter({ entries: () => ["a"], registered: ["a", "b" + k], onDecision: () => {} });
      router.dispose();
    }
    // No garbage collection in between: what dispose() released is free already.
    const t1 = table.length;
    console.log(JSON.stringify({ t0, t1, exact: await exact() }));
  `);
  assert.ok(out.t1 <= out.t0 + 1024, `10,000 disposed sets left the reference table at ${out.t1} slots (from ${out.t0})`);
  assert.equal(out.exact, true);
});

test("a store-promise storm (then and constructor that throw) and a stack overflow, then a correct turn", () => {
  const out = scenario(`
    ${TABLE}
    await settle();
    const t0 = table.length;
    const hostile = () => {
      const p = Promise.resolve(["a"]);
      if (Math.random() < 0.5) p.then = () => { throw new TypeError("then"); };
      else Object.defineProperty(p, "constructor", { get() { throw new TypeError("constructor"); } });
      return p;
    };
    const router = new tp.ToolRouter({ entries: hostile, registered: ["a"] });
    let refused = 0;
    for (let i = 0; i < 20_000; i++) {
      const r = i % 2 ? await router.resolve() : await tp.resolvePalette({ entries: hostile, registered: ["a"] });
      if (r.reason === "procedural retrieval failed (TypeError); allowing all tools") refused++;
    }
    await settle();
    const t1 = table.length;
    // The stack runs out at every depth of a call, wasm frames included.
    const policies = new tp.ToolPolicies([{ name: "p", match: () => true, redirectTo: "b", argsTransform: (a) => ({ ...a }) }]);
    const routed = new tp.Routed(["a"]);
    const sweep = () => {
      try { sweep(); } catch {}
      try {
        policies.dispatch({ name: "a", args: { x: 1 } }, {}, routed);
        tp.bindPalette([{ name: "a" }, { name: "b" }], routed);
        tp.resolvePalette({ entries: () => ["a"], registered: ["a", "b"], isActive: () => true }).catch(() => {});
      } catch {}
    };
    for (let k = 0; k < 5; k++) sweep();
    await settle();
    console.log(JSON.stringify({ refused, t0, t1, exact: await exact(), dispatch: policies.dispatch({ name: "a", args: {} }, {}).call.name }));
  `);
  assert.equal(out.refused, 20_000);
  assert.ok(out.t1 <= out.t0 + 1024, `the storm left the reference table at ${out.t1} slots (from ${out.t0})`);
  assert.equal(out.exact, true);
  assert.equal(out.dispatch, "b");
});

test("ToolIndex entries whose embed never settles keep nothing alive once dropped", () => {
  const out = scenario(`
    ${TABLE}
    const collected = { n: 0 };
    const registry = new FinalizationRegistry(() => collected.n++);
    const tools = [{ name: "get_weather", description: "weather for a city" }, { name: "send_email", description: "send an email" }];
    const index = new tp.ToolIndex(tools, { vectors: [[1, 0], [0, 1]], embed: () => new Promise(() => {}) });
    const router = new tp.ToolRouter({ entries: index.entries, registered: ["get_weather", "send_email"], timeoutMs: 1 });
    const round = async (n) => {
      for (let i = 0; i < n; i++) {
        const context = { message: "weather in Paris " + i, payload: new Array(64).fill(i) };
        registry.register(context, i);
        if (i % 2) index.entries(context);
        else await router.resolve({ context }); // refused (2b) after 1 ms; the embed call stays pending
      }
    };
    await round(2_000);
    const m0 = await settle();
    const t0 = table.length;
    await round(2_000);
    const m1 = await settle();
    console.log(JSON.stringify({ collected: collected.n, t0, t1: table.length, m0, m1, exact: await exact() }));
  `);
  assert.ok(out.collected >= 3_990, `only ${out.collected} of 4,000 contexts were collected`);
  assert.ok(out.t1 <= out.t0 + 1024, `the reference table grew from ${out.t0} to ${out.t1}`);
  assert.ok(out.m1 <= out.m0 + 2 * MB, `wasm memory grew from ${out.m0} to ${out.m1}`);
  assert.equal(out.exact, true);
});
