// The multi-turn harness's cost model and recall against figures computed by hand.
//   node --test bench/tool-search/multi-turn.test.mjs      (after npm run build)
import { test } from "node:test";
import assert from "node:assert/strict";
import { EVERY, RULES, measure, multiTurn, price, recallOf, requestsOf } from "./multi-turn.mjs";

const close = (a, b, what) => assert.ok(Math.abs(a - b) < 1e-9, `${what}: ${a} against ${b}`);

test("price: two requests, the second extending the first", () => {
  const first = [["tool a", 1000], ["system", 500], ["user 0", 20]];
  const second = [...first, ["call 1", 30], ["result 1", 100]];
  // Nothing before: all written (Anthropic 1.25×, the request is over 1,024 tokens), OpenAI 1.0×.
  assert.deepEqual(price(null, first, RULES.anthropic), { tokens: 1520, cached: 0, cost: 1900 });
  assert.deepEqual(price(null, first, RULES.openai), { tokens: 1520, cached: 0, cost: 1520 });
  // Anthropic reads the whole shared 1,520 at 0.1 and writes 130 at 1.25: 152 + 162.5.
  const a = price(first, second, RULES.anthropic);
  assert.deepEqual([a.tokens, a.cached], [1650, 1520]);
  close(a.cost, 314.5, "Anthropic");
  // OpenAI reads 1,408 (11 × 128 of the 1,520 shared) at 0.1, the other 242 at 1.0: 140.8 + 242.
  const o = price(first, second, RULES.openai);
  assert.deepEqual([o.tokens, o.cached], [1650, 1408]);
  close(o.cost, 382.8, "OpenAI");
});

test("price: a changed tool ends the shared prefix; below 1,024 shared tokens nothing is read", () => {
  const prev = [["tool a", 1100], ["tool b", 200], ["system", 500]];
  const cur = [["tool a", 1100], ["tool c", 200], ["system", 500]];
  assert.equal(price(prev, cur, RULES.anthropic).cached, 1100);
  assert.equal(price(prev, cur, RULES.openai).cached, 1024);
  const other = [["tool c", 1100], ["tool b", 200], ["system", 500]];
  assert.deepEqual(price(prev, other, RULES.anthropic), { tokens: 1800, cached: 0, cost: 2250 });
  // Short requests: under Anthropic's minimum nothing is written (1.0×), nor read.
  const short = [["system", 500], ["user 0", 20]];
  assert.deepEqual(price(null, short, RULES.anthropic), { tokens: 520, cached: 0, cost: 520 });
  assert.deepEqual(price(short, [...short, ["call 1", 600]], RULES.anthropic), { tokens: 1120, cached: 0, cost: 1400 });
  assert.deepEqual(price(short, [...short, ["call 1", 600]], RULES.openai), { tokens: 1120, cached: 0, cost: 1120 });
});

test("recallOf: the needed tools found among the offered", () => {
  assert.deepEqual(recallOf(["cd", "ls"], ["ls", "mv", "cat"]), { found: 1, needed: 2 });
  assert.deepEqual(recallOf(["cd"], []), { found: 0, needed: 1 });
});

// Two turns: "hello" calls a() once, "again" calls nothing. Text tokens = its length here.
const turns = [{ user: ["hello"], calls: ["a()"], names: ["a"] }, { user: ["again"], calls: [], names: [] }];
const defs = { a: 2000, b: 300, tool_search: 80 };
const sizes = { system: 1000, result: 100, answer: 50, def: (n) => defs[n], text: (s) => s.length };

test("requestsOf and measure, per-turn: the tools list changes at the second turn", () => {
  const steps = [{ listed: ["a"], revealed: [], kept: false }, { listed: ["b"], revealed: [], kept: false }];
  const rs = [...requestsOf(turns, steps, sizes)];
  assert.deepEqual(rs.map((r) => r.segments.reduce((s, x) => s + x[1], 0)), [3005, 3108, 1463]);
  assert.deepEqual(rs[2].segments.map((x) => x[0]), ["tool b", "system", "user 0.0", "call 0.1", "result 0.1", "answer 0", "user 1.0"]);
  const m = measure(turns, steps, sizes);
  assert.deepEqual([m.requests, m.defTokens, m.changes], [3, 4300, 1]);
  // Anthropic: 3005 × 1.25; 300.5 + 103 × 1.25; 1463 × 1.25.
  close(m.anthropic.cost, 3756.25 + 429.25 + 1828.75, "Anthropic");
  assert.equal(m.anthropic.cached, 3005);
  // OpenAI: 3005; 2944 × 0.1 + 164; 1463.
  close(m.openai.cost, 3005 + 458.4 + 1463, "OpenAI");
  assert.equal(m.openai.cached, 2944);
});

test("requestsOf and measure, deferred: revealed definitions after the turn's message, the prefix kept", () => {
  const steps = [{ listed: ["tool_search"], revealed: ["a"], kept: false }, { listed: ["tool_search"], revealed: ["b"], kept: true }];
  const rs = [...requestsOf(turns, steps, sizes)];
  assert.deepEqual(rs.map((r) => r.segments.reduce((s, x) => s + x[1], 0)), [3085, 3188, 3543]);
  assert.deepEqual(rs[2].segments.map((x) => x[0]), ["tool tool_search", "system", "user 0.0", "revealed 0", "call 0.1", "result 0.1", "answer 0", "user 1.0", "revealed 1"]);
  const m = measure(turns, steps, sizes);
  assert.deepEqual([m.requests, m.defTokens, m.changes], [3, 2080 + 2080 + 2380, 0]);
  // The third request shares the second's 3,188 (its answer is new): Anthropic 3085 × 1.25;
  // 308.5 + 103 × 1.25; 318.8 + 355 × 1.25.
  close(m.anthropic.cost, 3856.25 + 437.25 + 762.55, "Anthropic");
  // OpenAI: 3085; 3072 × 0.1 + 116; 3072 × 0.1 + 471.
  close(m.openai.cost, 3085 + 423.2 + 778.2, "OpenAI");
});

test("multiTurn on one conversation: every tool is the unit, fixed costs as much, recall as routed", async () => {
  const tools = [
    { name: "cd", description: "Change the working directory to a folder.", parameters: { type: "object", properties: { folder: { type: "string" } } }, namespace: "Files" },
    { name: "ls", description: "List the files of the current directory.", parameters: { type: "object", properties: {} }, namespace: "Files" },
    { name: "send_message", description: "Send a message to a user.", parameters: { type: "object", properties: { to: { type: "string" } } } },
  ];
  const conversation = { id: "c", category: "multi_turn_base", classes: ["Files"], turns: [
    { user: ["go to the folder documents"], calls: ["cd(folder='documents')"], names: ["cd"] },
    { user: ["send a message to Bob"], calls: ["send_message(to='Bob')"], names: ["send_message"] },
  ] };
  const m = await multiTurn({ conversations: [conversation], tools });
  const rows = Object.fromEntries(m.categories.multi_turn_base.singles.rows.map((r) => [r.strategy, r]));
  for (const k of Object.keys(RULES)) {
    assert.equal(rows[EVERY][k].cost, 1);
    assert.equal(rows.fixed[k].cost, 1);
  }
  assert.equal(rows[EVERY].recall, 1);
  for (const s of ["per-turn", "append", "deferred"]) assert.equal(rows[s].recall, 1, s);
  assert.equal(rows.deferred.changes, 0);
  assert.equal(rows.fixed.changes, 0);
  assert.equal(rows["per-turn"].requests, 4);
});
