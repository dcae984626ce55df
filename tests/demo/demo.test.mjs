// The demo page, end to end in Chromium: served by the same `serve()` that `npm start`
// runs, driving the real package build (dist/ at /pkg/).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { request } from "node:http";
import { mkdirSync, copyFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { serve } from "../../scripts/serve.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const PROSE = "Use the calendar when the user asks about dates";
const TOOLS = ["search_web", "web_fetch", "calendar", "send_email", "run_sql", "read_file"];

let server;
let browser;
let context;
let page;
const consoleErrors = [];
const consoleWarnings = [];
const pageErrors = [];
const foreign = [];
const failed = [];

function watch(p) {
  p.on("console", (m) => {
    if (m.type() === "error") consoleErrors.push(m.text());
    if (m.type() === "warning") consoleWarnings.push(m.text());
  });
  p.on("pageerror", (e) => pageErrors.push(String(e)));
  p.on("request", (r) => {
    const url = r.url();
    if (new URL(url).origin !== new URL(server.url).origin) foreign.push(url);
  });
  p.on("requestfailed", (r) => failed.push(`${r.url()} ${r.failure()?.errorText}`));
  p.on("response", (r) => {
    if (r.status() >= 400) failed.push(`${r.url()} ${r.status()}`);
  });
  return p;
}

before(async () => {
  server = await serve({ port: 0, host: "127.0.0.1" });
  browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
  context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  page = watch(await context.newPage());
  await page.goto(server.url);
  await done(page);
});

after(async () => {
  await browser?.close();
  await server?.close();
});

// ------------------------------------------------------------------ helpers

async function done(p) {
  await p.waitForSelector('#outcome[data-state="done"]', { timeout: 10000 });
}

async function readOutcome(p = page) {
  await done(p);
  return p.evaluate(() => {
    const el = document.querySelector("#outcome");
    const node = (f) => el.querySelector(`[data-field="${f}"]`);
    const text = (f) => node(f)?.textContent ?? null;
    const list = (f) => (node(f) ? [...node(f).querySelectorAll("li")].map((li) => li.textContent) : null);
    return {
      kind: text("kind"),
      summary: text("summary"),
      reason: text("reason"),
      rule: text("rule"),
      time: text("time"),
      names: list("names"),
      unresolved: list("unresolved"),
      inactive: list("inactive"),
      held: list("held"),
      missing: list("missing"),
      activeTools: text("active-tools"),
      warnings: [...el.querySelectorAll('[data-field="warning"]')].map((w) => ({
        name: w.querySelector('[data-field="warning-name"]').textContent,
        message: w.querySelector('[data-field="warning-message"]').textContent,
      })),
      json: text("json"),
      seq: el.dataset.seq,
      fates: [...document.querySelectorAll("#rows tr[data-row] .badge")].map((b) => b.textContent),
    };
  });
}

async function readSeams(p = page) {
  return p.evaluate(() => {
    const text = (f) => document.querySelector(`#seams [data-field="${f}"]`)?.textContent ?? null;
    return {
      model: text("model"),
      source: text("model-source"),
      modelWhy: text("model-why"),
      target: text("dispatch-target"),
      dispatchKind: text("dispatch-kind"),
      droppedReason: text("dropped-reason"),
      warningName: text("dispatch-warning-name"),
      warningMessage: text("dispatch-warning-message"),
      gate: text("gate"),
      error: text("policy-error") ?? text("dispatch-error"),
    };
  });
}

async function preset(id, p = page) {
  await p.click(`[data-preset="${id}"]`);
  return readOutcome(p);
}

// A range input takes its value through the DOM, as a drag would set it.
async function setRange(selector, value, p = page) {
  await p.$eval(
    selector,
    (el, v) => {
      el.value = String(v);
      el.dispatchEvent(new Event("input", { bubbles: true }));
    },
    value,
  );
}

const msOf = (time) => Number(/answered in ([\d.]+) ms$/.exec(time)?.[1] ?? NaN);

function rawGet(path) {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, path, method: "GET" }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode, type: res.headers["content-type"] }));
    });
    req.on("error", reject);
    req.end();
  });
}

// ------------------------------------------------------------------ the server

test("server: serves www/ at / and dist/ at /pkg/ with the right content types", async () => {
  assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+\/$/);
  const cases = [
    ["/", 200, "text/html; charset=utf-8"],
    ["/app.js", 200, "text/javascript; charset=utf-8"],
    ["/skills.js", 200, "text/javascript; charset=utf-8"],
    ["/view.js", 200, "text/javascript; charset=utf-8"],
    ["/style.css", 200, "text/css; charset=utf-8"],
    ["/pkg/browser.js", 200, "text/javascript; charset=utf-8"],
    ["/pkg/tool_palette.js", 200, "text/javascript; charset=utf-8"],
    ["/pkg/tool_palette_bg.wasm", 200, "application/wasm"],
    ["/nope.js", 404, undefined],
    ["/pkg/%2e%2e/package.json", 404, undefined],
    ["/..%2fpackage.json", 404, undefined],
    ["/%2e%2e/scripts/serve.mjs", 404, undefined],
  ];
  for (const [path, status, type] of cases) {
    const r = await rawGet(path);
    assert.equal(r.status, status, path);
    if (type) assert.equal(r.type, type, path);
  }
});

// ------------------------------------------------------------------ routing presets

const ALL_ALLOWED = `Every registered tool is allowed (${TOOLS.length}): a refusal never means “none”.`;

const PRESETS = {
  routed: {
    kind: "Routed",
    summary: "3 of 6 registered tools go to the model this turn.",
    reason: null,
    rule: null,
    names: ["search_web", "calendar", "web_fetch"],
    unresolved: [PROSE, "weather_lookup"],
    inactive: ["send_email"],
    held: ["send_email", "run_sql", "read_file"],
    missing: null,
    activeTools: '["search_web","calendar","web_fetch"]',
    fates: ["routed", "routed", "inactive", "unresolved", "unresolved", "routed"],
  },
  rule1: {
    kind: "RoutingRefusal",
    summary: ALL_ALLOWED,
    reason: "no procedural layer registered; allowing all tools",
    rule: "1",
    names: null,
    unresolved: null,
    inactive: null,
    activeTools: "undefined",
    fates: Array(6).fill("not read"),
  },
  rule2a: {
    kind: "RoutingRefusal",
    summary: ALL_ALLOWED,
    reason: "procedural retrieval failed (StoreDownError); allowing all tools",
    rule: "2a",
    names: null,
    unresolved: null,
    activeTools: "undefined",
    fates: Array(6).fill("not read"),
  },
  rule2b: {
    kind: "RoutingRefusal",
    summary: ALL_ALLOWED,
    reason: "procedural retrieval timed out after 250 ms; allowing all tools",
    rule: "2b",
    names: null,
    unresolved: null,
    activeTools: "undefined",
    fates: Array(6).fill("not read"),
  },
  rule3: {
    kind: "RoutingRefusal",
    summary: ALL_ALLOWED,
    reason: "no skills in the procedural layer; allowing all tools",
    rule: "3",
    names: null,
    unresolved: null,
    activeTools: "undefined",
    fates: [],
  },
  rule4: {
    kind: "RoutingRefusal",
    summary: ALL_ALLOWED,
    reason: "every skill is inactive; allowing all tools",
    rule: "4",
    names: null,
    unresolved: [],
    inactive: ["search_web", "calendar", PROSE],
    activeTools: "undefined",
    fates: ["inactive", "inactive", "inactive"],
  },
  rule5: {
    kind: "RoutingRefusal",
    summary: ALL_ALLOWED,
    reason: "no skill resolved to a registered tool; allowing all tools",
    rule: "5",
    names: null,
    unresolved: ["weather_lookup", "Calendar", PROSE],
    inactive: [],
    activeTools: "undefined",
    fates: ["unresolved", "unresolved", "unresolved"],
  },
  "unavailable-layer": {
    kind: "RoutingUnavailable",
    reason: null,
    rule: null,
    missing: ["procedural-layer"],
    activeTools: "undefined",
    warnings: [
      {
        name: "ToolRoutingUnavailableWarning",
        message:
          "tool routing is unavailable (missing: procedural-layer); the full palette is kept on every turn. To narrow it, compose a serving router: register a procedural layer (`entries`)",
      },
    ],
  },
  "unavailable-tools": {
    kind: "RoutingUnavailable",
    reason: null,
    rule: null,
    missing: ["no-registered-tools"],
    activeTools: "undefined",
    warnings: [
      {
        name: "ToolRoutingUnavailableWarning",
        message: "tool routing is unavailable (missing: no-registered-tools); the full palette is kept on every turn",
      },
    ],
  },
  "unavailable-both": {
    kind: "RoutingUnavailable",
    reason: null,
    rule: null,
    missing: ["procedural-layer", "no-registered-tools"],
    activeTools: "undefined",
    warnings: [
      {
        name: "ToolRoutingUnavailableWarning",
        message: "tool routing is unavailable (missing: procedural-layer, no-registered-tools); the full palette is kept on every turn",
      },
    ],
  },
};

test("the page loads the default scenario as a routed turn", async () => {
  const o = await readOutcome();
  assert.equal(o.kind, "Routed");
  assert.deepEqual(o.names, PRESETS.routed.names);
  assert.equal(await page.title(), "tool-palette playground");
  assert.equal(await page.getAttribute("html", "data-ready"), "true");
});

for (const [id, want] of Object.entries(PRESETS)) {
  test(`preset ${id}: exact outcome`, async () => {
    const o = await preset(id);
    for (const [key, value] of Object.entries(want)) {
      assert.deepEqual(o[key], value, `${id}: ${key}`);
    }
    if (!want.warnings) assert.deepEqual(o.warnings, [], `${id}: no warning outside RoutingUnavailable`);
    assert.match(o.time, /^(resolvePalette|router\.resolve)\(\) answered in [\d.]+ ms$/);
    if (id.startsWith("unavailable")) assert.match(o.time, /^router\.resolve\(\)/, "the unavailable cases go through ToolRouter");
    else assert.match(o.time, /^resolvePalette\(\)/);
    if (id === "rule2b") {
      const ms = msOf(o.time);
      assert.ok(ms >= 240 && ms < 900, `2b took ${ms} ms: the 250 ms budget, not the 900 ms store`);
    }
    // The outcome JSON is the package's own object, stringified.
    const json = JSON.parse(o.json);
    assert.equal(json.kind, { Routed: "routed", RoutingRefusal: "refused", RoutingUnavailable: "unavailable" }[want.kind]);
    if (want.reason) assert.equal(json.reason, want.reason);
    // The hash now holds the preset's scenario.
    const hashState = JSON.parse(decodeURIComponent(new URL(page.url()).hash.slice(1)));
    assert.equal(hashState.api, id.startsWith("unavailable") ? "ToolRouter" : "resolvePalette");
  });
}

// ------------------------------------------------------------------ editing

test("editing a row, toggling active and changing the registered tools change the outcome live", async () => {
  await preset("routed");
  // Row 4 "weather_lookup" → "run_sql": a registered tool now.
  await page.fill('#rows tr[data-row="4"] .row-value', "run_sql");
  let o = await readOutcome();
  assert.equal(o.kind, "Routed");
  assert.deepEqual(o.names, ["search_web", "calendar", "run_sql", "web_fetch"]);
  assert.deepEqual(o.unresolved, [PROSE]);
  assert.deepEqual(o.fates, ["routed", "routed", "inactive", "unresolved", "routed", "routed"]);
  assert.match(decodeURIComponent(page.url()), /"value":"run_sql"/);

  // Row 2 { tool: "send_email", active: false } → active.
  await page.check('#rows tr[data-row="2"] .row-active');
  o = await readOutcome();
  assert.deepEqual(o.names, ["search_web", "calendar", "send_email", "run_sql", "web_fetch"]);
  assert.deepEqual(o.inactive, []);

  // Unregister calendar: its row becomes unresolved.
  await page.fill("#registered", TOOLS.filter((t) => t !== "calendar").join("\n"));
  o = await readOutcome();
  assert.deepEqual(o.names, ["search_web", "send_email", "run_sql", "web_fetch"]);
  assert.deepEqual(o.unresolved, ["calendar", PROSE]);

  // Add a string row naming read_file.
  await page.click('[data-add="string"]');
  await page.fill('#rows tr[data-row="6"] .row-value', "read_file");
  o = await readOutcome();
  assert.deepEqual(o.names, ["search_web", "send_email", "run_sql", "web_fetch", "read_file"]);

  // Remove every row but the inactive-able ones: deactivate all object rows, drop the strings.
  await preset("routed");
  await page.selectOption('#rows tr[data-row="0"] .row-kind', "tool");
  await page.uncheck('#rows tr[data-row="0"] .row-active');
  o = await readOutcome();
  assert.deepEqual(o.names, ["calendar", "web_fetch"]);
  assert.deepEqual(o.inactive, ["search_web", "send_email"]);
});

test("switching the layer off, failing retrieval with a chosen name, and the latency/timeout controls", async () => {
  await preset("routed");
  await page.check('input[name="layer"][value="off"]');
  let o = await readOutcome();
  assert.equal(o.reason, "no procedural layer registered; allowing all tools");
  assert.equal(o.rule, "1");

  await page.check('input[name="api"][value="ToolRouter"]');
  o = await readOutcome();
  assert.equal(o.kind, "RoutingUnavailable");
  assert.deepEqual(o.missing, ["procedural-layer"]);
  await page.check('input[name="api"][value="resolvePalette"]');
  await page.check('input[name="layer"][value="on"]');
  o = await readOutcome();
  assert.equal(o.kind, "Routed");

  await page.selectOption("#retrieval", "fail");
  await page.fill("#error-name", "QuotaExceededError");
  o = await readOutcome();
  assert.equal(o.reason, "procedural retrieval failed (QuotaExceededError); allowing all tools");
  assert.equal(o.rule, "2a");
  // An empty name falls back to the constructor's name, as the SPEC says.
  await page.fill("#error-name", "");
  o = await readOutcome();
  assert.equal(o.reason, "procedural retrieval failed (Error); allowing all tools");
  await page.selectOption("#retrieval", "ok");

  await setRange("#latency", 400);
  await page.fill("#timeout", "150");
  o = await readOutcome();
  assert.equal(o.reason, "procedural retrieval timed out after 150 ms; allowing all tools");
  assert.equal(o.rule, "2b");
  await page.uncheck("#timeout-on");
  o = await readOutcome();
  assert.equal(o.kind, "Routed");
  assert.ok(msOf(o.time) >= 390, `no budget: waited for the 400 ms store (${o.time})`);
});

test("a stale, slower resolution never overwrites a newer outcome", async () => {
  await preset("routed");
  await page.uncheck("#timeout-on");
  await setRange("#latency", 1200); // a slow routed turn starts…
  assert.equal(await page.getAttribute("#outcome", "data-state"), "pending");
  await page.click('[data-preset="rule1"]'); // …and a fast refusal overtakes it
  const o = await readOutcome();
  assert.equal(o.reason, "no procedural layer registered; allowing all tools");
  const seq = o.seq;
  await page.waitForTimeout(1500); // past the slow store's answer
  const later = await readOutcome();
  assert.equal(later.seq, seq);
  assert.equal(later.kind, "RoutingRefusal");
  assert.equal(later.reason, "no procedural layer registered; allowing all tools");

  // The same when only the latency changes: the last slider position wins.
  await preset("routed");
  await setRange("#latency", 1000);
  await setRange("#latency", 0);
  const fast = await readOutcome();
  await page.waitForTimeout(1300);
  const after = await readOutcome();
  assert.equal(after.seq, fast.seq);
  assert.ok(msOf(after.time) < 500, `the 0 ms resolution is the one shown (${after.time})`);
});

// ------------------------------------------------------------------ policies

test("policy presets: both seams, including a redirect the palette gate drops with its warning", async () => {
  await preset("routed");

  await page.click('[data-policy-preset="dropped"]');
  let s = await readSeams();
  assert.equal(s.model, "analyst-large");
  assert.equal(s.source, "policy");
  assert.equal(s.modelWhy, "policy “sql-analyst” matches the message and names a model (the first such policy, in order).");
  assert.equal(s.target, "search_web");
  assert.equal(s.dispatchKind, "redirect dropped");
  assert.equal(s.droppedReason, 'redirect target "run_sql" is not in the routed palette; dispatching the original call "search_web"');
  assert.equal(s.warningName, "ToolRedirectDroppedWarning");
  assert.equal(
    s.warningMessage,
    'ToolCallPolicy "sql-analyst": redirect target "run_sql" is not in the routed palette; dispatching the original call "search_web"',
  );
  assert.equal(s.gate, "Gate palette: the routed palette above (search_web, calendar, web_fetch).");

  await page.click('[data-policy-preset="redirected"]');
  s = await readSeams();
  assert.equal(s.model, "house-model");
  assert.equal(s.source, "resolver");
  assert.equal(s.target, "web_fetch");
  assert.equal(s.dispatchKind, "redirected");
  assert.equal(s.droppedReason, null);
  assert.equal(s.warningName, null);

  await page.click('[data-policy-preset="guarded"]');
  s = await readSeams();
  assert.equal(s.model, "analyst-large", "guards are never asked at the PRE-model seam");
  assert.equal(s.source, "policy");
  assert.equal(s.target, "search_web");
  assert.equal(s.dispatchKind, "as emitted");

  await page.click('[data-policy-preset="default"]');
  s = await readSeams();
  assert.equal(s.model, "default model");
  assert.equal(s.source, "default");
  assert.equal(s.target, "calendar");
  assert.equal(s.dispatchKind, "as emitted");

  // A refusal narrows nothing: the same redirect now passes the gate.
  await page.click('[data-policy-preset="dropped"]');
  await preset("rule1");
  s = await readSeams();
  assert.equal(s.target, "run_sql");
  assert.equal(s.dispatchKind, "redirected");
  assert.equal(s.gate, "Gate palette: every registered tool (6): routing did not narrow this turn.");

  // Routing that includes run_sql lets the redirect through too.
  await preset("routed");
  await page.fill('#rows tr[data-row="4"] .row-value', "run_sql");
  await readOutcome();
  s = await readSeams();
  assert.equal(s.target, "run_sql");
  assert.equal(s.dispatchKind, "redirected");
});

test("editing policies: message, emitted call, policy fields, and the package's own validation errors", async () => {
  await preset("routed");
  await page.click('[data-policy-preset="dropped"]');
  await page.fill("#message", "please schedule a call");
  let s = await readSeams();
  assert.equal(s.model, "planner-small");
  assert.equal(s.source, "policy");
  assert.equal(s.target, "search_web");
  assert.equal(s.dispatchKind, "as emitted");

  await page.fill("#message", "docs please");
  s = await readSeams();
  assert.equal(s.target, "web_fetch");

  await page.fill("#call-name", "calendar"); // docs-first only redirects search_web
  s = await readSeams();
  assert.equal(s.target, "calendar");
  assert.equal(s.dispatchKind, "as emitted");

  await page.fill('#policies li[data-policy="1"] input[data-key="whenTool"]', "search_web, calendar");
  s = await readSeams();
  assert.equal(s.target, "web_fetch");
  assert.equal(s.dispatchKind, "redirected");

  await page.fill('#policies li[data-policy="1"] input[data-key="name"]', "sql-analyst");
  s = await readSeams();
  assert.equal(s.error, 'TypeError: ToolPolicies: policies[1] reuses the name "sql-analyst"; policy names must be unique');

  await page.fill('#policies li[data-policy="1"] input[data-key="name"]', "docs-first");
  await page.fill("#call-args", "{ not json");
  s = await readSeams();
  assert.match(s.error, /^args is not valid JSON/);
  await page.click('[data-policy-preset="dropped"]');
  s = await readSeams();
  assert.equal(s.error, null);
});

// ------------------------------------------------------------------ the URL hash

test("a scenario loads from the URL hash, and a copied link reproduces the outcome", async () => {
  const scenario = {
    api: "resolvePalette",
    registered: ["alpha", "beta", "__proto__"],
    layer: "on",
    retrieval: "ok",
    latencyMs: 0,
    timeoutOn: false,
    rows: [
      { kind: "string", value: "  beta  " },
      { kind: "tool", value: "gamma", active: true },
      { kind: "toolName", value: "__proto__", active: true },
      { kind: "tool", value: "alpha", active: false },
    ],
    message: "hello",
    call: { name: "beta", id: "c9", args: "{}" },
    policies: [],
  };
  const fresh = watch(await context.newPage());
  await fresh.goto(server.url + "#" + encodeURIComponent(JSON.stringify(scenario)));
  let o = await readOutcome(fresh);
  assert.equal(o.kind, "Routed");
  assert.deepEqual(o.names, ["beta", "__proto__"]);
  assert.deepEqual(o.unresolved, ["gamma"]);
  assert.deepEqual(o.inactive, ["alpha"]);
  assert.equal(await fresh.inputValue("#registered"), "alpha\nbeta\n__proto__");
  assert.equal(await fresh.inputValue("#message"), "hello");
  const s = await readSeams(fresh);
  assert.equal(s.model, "house-model"); // the resolver default, not in the link
  assert.equal(s.target, "beta");

  // A hash change on an open page loads the new scenario.
  await fresh.goto(server.url + "#preset=rule4");
  await fresh.waitForFunction(() => document.querySelector('#outcome [data-field="rule"]')?.textContent === "4");
  o = await readOutcome(fresh);
  assert.equal(o.reason, "every skill is inactive; allowing all tools");

  // The page's own link, opened elsewhere, reproduces the same outcome.
  await preset("rule2b");
  const link = page.url();
  const other = watch(await context.newPage());
  await other.goto(link);
  o = await readOutcome(other);
  assert.equal(o.reason, "procedural retrieval timed out after 250 ms; allowing all tools");
  assert.equal(o.rule, "2b");

  // A broken link says so and falls back to the default scenario, without a console error.
  await other.goto(server.url + "#%7Bnot-json");
  await other.waitForSelector("#hash-note:not([hidden])");
  o = await readOutcome(other);
  assert.equal(o.kind, "Routed");
  assert.equal(
    await other.textContent("#hash-note"),
    "This link's scenario could not be loaded (the link's scenario is not valid JSON); showing the default scenario instead.",
  );
  await other.close();
  await fresh.close();
});

// ------------------------------------------------------------------ layout and hygiene

test("tool search: a tool set and a message give ranked tools with scores and the routed palette", async () => {
  const searchOut = async () => {
    await page.waitForSelector('#search-out[data-state="done"], #search-out[data-state="error"]');
    return page.evaluate(() => {
      const out = document.querySelector("#search-out");
      const list = (f) => [...out.querySelectorAll(`[data-field="${f}"] li`)].map((li) => li.textContent.trim());
      return {
        hits: [...out.querySelectorAll('[data-field="hits"] li')].map((li) => [li.dataset.name, Number(li.querySelector(".score").textContent)]),
        rule: out.querySelector('[data-field="search-rule"]')?.textContent ?? null,
        palette: list("search-palette"),
        hidden: list("search-hidden"),
        error: out.querySelector('[data-field="search-error"]')?.textContent ?? null,
      };
    });
  };
  let o = await searchOut();
  assert.equal(o.hits[0][0], "get_weather");
  assert.ok(o.hits.every(([, score], i) => score > 0 && (i === 0 || o.hits[i - 1][1] >= score)));
  assert.equal(o.rule, "routed");
  assert.equal(o.palette[0], "get_weather");
  assert.ok(o.hidden.includes("send_email"));

  await page.fill("#search-message", "email the invoice to the customer");
  await page.waitForFunction(() => document.querySelector('#search-out [data-field="hits"] li')?.dataset.name !== "get_weather");
  o = await searchOut();
  assert.ok(["send_email", "create_invoice"].includes(o.hits[0][0]), JSON.stringify(o.hits));

  // A message nothing matches: no rows, refusal 3, every tool stays.
  await page.fill("#search-message", "zzzqqq");
  await page.waitForFunction(() => document.querySelector('#search-out [data-field="search-rule"]')?.textContent === "3");
  o = await searchOut();
  assert.deepEqual(o.hits, []);
  assert.deepEqual(o.palette, []);

  // The AI SDK record preset, then the package's own validation error for a duplicate name.
  await page.click('[data-toolset="record"]');
  await page.waitForFunction(() => document.querySelector('#search-out [data-field="hits"] li')?.dataset.name === "refundPayment");
  await page.fill("#toolset", '[{"name":"a"},{"name":"a"}]');
  await page.waitForSelector('#search-out[data-state="error"]');
  o = await searchOut();
  assert.match(o.error, /TypeError: ToolIndex: tools\[1\] reuses the name "a"/);
  await page.click('[data-toolset="assistant"]');
  await page.waitForFunction(() => document.querySelector('#search-out[data-state="done"] [data-field="hits"] li')?.dataset.name === "get_weather");
});

test("tool search: lexical, embedding and hybrid ranks side by side for a sample message", async () => {
  const ranks = () =>
    page.evaluate(() => {
      const out = document.querySelector("#search-out");
      const list = (f) => [...out.querySelectorAll(`[data-field="${f}"] li`)].map((li) => li.dataset.name);
      return { lexical: list("rank-lexical"), embedding: list("rank-embedding"), hybrid: list("rank-hybrid"), hits: list("hits"), rule: out.querySelector('[data-field="search-rule"]')?.textContent, palette: [...out.querySelectorAll('[data-field="search-palette"] li')].map((li) => li.textContent.trim()), samples: out.querySelectorAll("[data-sample]").length };
    });
  // A message with no vector: lexical only, the sample messages offered.
  await page.fill("#search-message", "email the invoice to the customer");
  await page.waitForFunction(() => document.querySelectorAll("#search-out [data-sample]").length > 0);
  let r = await ranks();
  assert.deepEqual([r.lexical, r.embedding, r.hybrid], [[], [], []]);
  assert.ok(r.samples >= 5);
  // A sample that shares no word with get_weather: the lexical ranking misses it, the
  // embedding finds it, the hybrid keeps it first, and routing gives the model that tool.
  await page.click('[data-sample="Will I need an umbrella in Lyon tomorrow?"]');
  await page.waitForSelector('#search-out [data-field="rank-hybrid"] li');
  r = await ranks();
  assert.equal(r.lexical.length, 0, JSON.stringify(r));
  assert.equal(r.embedding[0], "get_weather");
  assert.equal(r.hybrid[0], "get_weather");
  assert.deepEqual(r.hits, r.hybrid, "the ranked list is the hybrid one");
  assert.equal(r.rule, "routed");
  assert.equal(r.palette[0], "get_weather", "entries awaited embed: routed to the hybrid ranking");
  // A sample both rankings see: the hybrid holds the tool each ranks first.
  await page.click('[data-toolset="assistant"]');
  await page.waitForSelector('#search-out [data-field="rank-hybrid"] li');
  r = await ranks();
  assert.equal(r.lexical[0], "get_weather");
  assert.equal(r.hybrid[0], "get_weather");
  assert.equal(r.samples, 0);
});

// ------------------------------------------------------------------ skills (www/skills.js)

const SKILLS_ALL = ["get_weather", "run_sql", "bar_chart", "shell", "send_email", "web_search"];

// A fresh page for each skills test: the section's state is its own.
async function skillsPage() {
  const p = watch(await context.newPage());
  await p.goto(server.url);
  await p.waitForSelector('#skills-out[data-state="done"]');
  return p;
}

async function readSkillsOut(p) {
  await p.waitForSelector('#skills-out[data-state="done"], #skills-out[data-state="error"]');
  return p.evaluate(() => {
    const out = document.querySelector("#skills-out");
    const text = (f) => out.querySelector(`[data-field="${f}"]`)?.textContent ?? null;
    return {
      kind: text("skills-kind"),
      reason: text("skills-reason"),
      rule: text("skills-rule"),
      relevant: [...out.querySelectorAll('[data-field="skills-relevant"] li')].map((li) => ({
        name: li.dataset.skill,
        active: li.dataset.active === "true",
        score: li.querySelector(".score").textContent,
        tools: li.querySelector(".skill-tools").textContent,
      })),
      palette: [...out.querySelectorAll('[data-field="skills-palette"] li')].map((li) => li.textContent),
      unresolved: [...out.querySelectorAll('[data-field="skills-unresolved"] li')].map((li) => li.textContent),
      instructions: Object.fromEntries([...out.querySelectorAll('[data-field="skills-instructions"] details')].map((d) => [d.dataset.skill, d.querySelector("pre").textContent])),
      instructionsNote: out.querySelector('p[data-field="skills-instructions"]')?.textContent ?? null,
      note: text("skills-note"),
      error: text("skills-error"),
      files: [...document.querySelectorAll('#skill-files [data-field="skill-status"]')].map((el) => el.textContent),
    };
  });
}

// Types into the message and waits for the answer to that message.
async function skillsMessage(p, message) {
  await p.fill("#skills-message", message);
  await p.waitForFunction((m) => document.querySelector("#skills-message").value === m && document.querySelector("#skills-out").dataset.state !== "pending", message);
  return readSkillsOut(p);
}

const skillText = (p, i) => p.$eval(`#skill-files [data-skill="${i}"] textarea`, (el) => el.value);
async function editSkill(p, i, text) {
  await p.fill(`#skill-files [data-skill="${i}"] textarea`, text);
  await p.waitForFunction(() => document.querySelector("#skills-out").dataset.state !== "pending");
  return readSkillsOut(p);
}

test("skills: four SKILL.md files read by parseSkill, the message routed to the relevant skill's tools, its instructions revealed", async () => {
  const p = await skillsPage();
  const o = await readSkillsOut(p);
  assert.equal(o.files.length, 4);
  assert.deepEqual(o.files.slice(0, 3), ["weather-forecasttools: get_weather", "sales-reporttools: run_sql, bar_chart", "meeting-notesprose only"]);
  assert.equal(o.files[3], "deploy-productiontools: shelldisable-model-invocation: true");
  const warnings = await p.$$eval('#skill-files [data-skill="3"] [data-field="skill-warnings"] p', (els) => els.map((el) => el.textContent));
  assert.match(warnings.join("\n"), /^warning: line 4, field "disable-model-invocation"/);
  assert.equal(o.kind, "Routed");
  assert.deepEqual(o.relevant.map((r) => [r.name, r.active, r.tools]), [["weather-forecast", true, "→ get_weather"]]);
  assert.ok(Number(o.relevant[0].score) > 0, o.relevant[0].score);
  assert.deepEqual(o.palette, ["get_weather"]);
  assert.deepEqual(Object.keys(o.instructions), ["weather-forecast"]);
  assert.match(o.instructions["weather-forecast"], /^# Weather\n\nCall `get_weather` with the city\./);
  assert.equal(o.reason, null);
  await p.close();
});

test("skills: editing a SKILL.md changes the palette live; an edit that does not parse is shown as its SyntaxError and the skill drops out", async () => {
  const p = await skillsPage();
  const original = await skillText(p, 0);
  let o = await editSkill(p, 0, original.replace("allowed-tools: get_weather", "allowed-tools: web_search send_email"));
  assert.deepEqual(o.palette, ["web_search", "send_email"]);
  assert.deepEqual(o.relevant.map((r) => r.tools), ["→ web_search, send_email"]);
  assert.equal(o.files[0], "weather-forecasttools: web_search, send_email");
  // A tool the host lacks: rule 5, the name unresolved.
  o = await editSkill(p, 0, original.replace("allowed-tools: get_weather", "allowed-tools: forecast_api"));
  assert.equal(o.kind, "RoutingRefusal");
  assert.equal(o.reason, "no skill resolved to a registered tool; allowing all tools");
  assert.deepEqual(o.unresolved, ["forecast_api"]);
  assert.deepEqual(o.palette, SKILLS_ALL);
  // Unreadable YAML: the package's SyntaxError on the file, and no skill left for the message (rule 3).
  o = await editSkill(p, 0, original.replace("description: Answer", "description: Weather: answer"));
  assert.equal(o.files[0], "SyntaxError");
  const error = await p.$eval('#skill-files [data-skill="0"] .error-text', (el) => el.textContent);
  assert.match(error, /^line 3, field "description": an unquoted value cannot hold ": "/);
  assert.equal(o.reason, "no skills in the procedural layer; allowing all tools");
  assert.equal(o.rule, "3");
  assert.deepEqual(o.relevant, []);
  o = await editSkill(p, 0, original);
  assert.deepEqual(o.palette, ["get_weather"]);
  await p.close();
});

test("skills: the disabled skill, the only relevant one, refuses with rule 4 and reveals nothing; the prose-only skill refuses with rule 5 and reveals its instructions", async () => {
  const p = await skillsPage();
  let o = await skillsMessage(p, "Deploy the web site to production");
  assert.equal(o.kind, "RoutingRefusal");
  assert.equal(o.reason, "every skill is inactive; allowing all tools");
  assert.equal(o.rule, "4");
  assert.deepEqual(o.relevant.map((r) => [r.name, r.active, r.tools]), [["deploy-production", false, "→ shell"]]);
  assert.deepEqual(o.palette, SKILLS_ALL);
  assert.deepEqual(o.instructions, {});
  assert.equal(o.instructionsNote, "none");

  o = await skillsMessage(p, "Write the minutes of the meeting");
  assert.equal(o.kind, "RoutingRefusal");
  assert.equal(o.reason, "no skill resolved to a registered tool; allowing all tools");
  assert.equal(o.rule, "5");
  assert.deepEqual(o.relevant.map((r) => [r.name, r.active, r.tools]), [["meeting-notes", true, "prose only: no tool"]]);
  assert.deepEqual(o.palette, SKILLS_ALL);
  assert.deepEqual(Object.keys(o.instructions), ["meeting-notes"]);
  assert.match(o.instructions["meeting-notes"], /^# Minutes\n/);

  // Turned on (the field removed), the same skill routes.
  const deploy = await skillText(p, 3);
  await editSkill(p, 3, deploy.replace("disable-model-invocation: true\n", ""));
  o = await skillsMessage(p, "Deploy the web site to production");
  assert.equal(o.kind, "Routed");
  assert.deepEqual(o.palette, ["shell"]);
  assert.deepEqual(Object.keys(o.instructions), ["deploy-production"]);
  await p.close();
});

test("skills: a conversation: a sent turn's skills are not new again, a new one is; another tool list or New conversation starts over; a name twice is the package's TypeError", async () => {
  const p = await skillsPage();
  let o = await skillsMessage(p, "What were the sales figures in March?");
  assert.deepEqual(Object.keys(o.instructions), ["sales-report"]);
  await p.click("#skills-send");
  await p.waitForFunction(() => document.querySelector("#skills-turns").textContent === "1 turn taken");
  o = await skillsMessage(p, "And the sales figures for April?");
  assert.deepEqual(o.palette, ["run_sql", "bar_chart"]);
  assert.deepEqual(o.instructions, {});
  assert.equal(o.instructionsNote, "none new: the run has them already");
  o = await skillsMessage(p, "Will it rain in Lyon tomorrow?");
  assert.deepEqual(Object.keys(o.instructions), ["weather-forecast"]);
  // Another registered list: a run keeps the list it began with, so the page starts a new one, saying why.
  await p.fill("#skills-registered", SKILLS_ALL.slice(0, 5).join("\n"));
  await p.waitForSelector('#skills-out [data-field="skills-note"]');
  o = await readSkillsOut(p);
  assert.match(o.note, /^A new conversation: PaletteRun\.load: options\.registered has 5 names; the run was saved over 6/);
  await p.fill("#skills-registered", SKILLS_ALL.join("\n"));
  await p.click("#skills-send");
  await p.waitForFunction(() => document.querySelector("#skills-turns").textContent === "1 turn taken");
  await p.click("#skills-reset");
  await p.waitForFunction(() => document.querySelector("#skills-turns").textContent === "");
  o = await skillsMessage(p, "What were the sales figures in March?");
  assert.deepEqual(Object.keys(o.instructions), ["sales-report"]);
  // A fifth skill with the name of the first: the SkillIndex refuses it, naming both.
  await p.click("#add-skill");
  await p.waitForSelector('#skill-files [data-skill="4"]');
  o = await editSkill(p, 4, await skillText(p, 0));
  assert.equal(o.error, 'TypeError: SkillIndex: skills[4] reuses the name "weather-forecast" of SkillIndex: skills[0]; skill names must be unique');
  await p.click('#skill-files [data-skill="4"] button');
  await p.waitForFunction(() => document.querySelectorAll("#skill-files [data-skill]").length === 4 && document.querySelector("#skills-out").dataset.state === "done");
  o = await readSkillsOut(p);
  assert.deepEqual(o.palette, ["run_sql", "bar_chart"]);
  await p.close();
});

test("layout: two columns at 1280×800, one column without horizontal scrolling at phone width; screenshots", async () => {
  const p = watch(await context.newPage());
  await p.goto(server.url);
  await readOutcome(p);
  await p.click('[data-policy-preset="dropped"]');
  const cols = await p.$$eval(".columns", (els) => els.map((el) => getComputedStyle(el).gridTemplateColumns.split(" ").length));
  assert.deepEqual(cols, [2, 2, 2, 2]);
  const box = await p.$eval("#outcome", (el) => el.getBoundingClientRect().toJSON());
  assert.ok(box.left > 600 && box.top < 800, `the outcome sits in the right column, above the fold (${JSON.stringify(box)})`);
  assert.ok(await p.$eval("html", (el) => el.scrollWidth <= 1280));

  mkdirSync(join(root, "test-output"), { recursive: true });
  mkdirSync(join(root, "docs"), { recursive: true });
  const shot = join(root, "test-output", "demo.png");
  await p.screenshot({ path: shot, fullPage: true });
  copyFileSync(shot, join(root, "docs", "demo.png"));
  await p.screenshot({ path: join(root, "test-output", "demo-1280x800.png") });

  await p.setViewportSize({ width: 390, height: 844 });
  const phoneCols = await p.$$eval(".columns", (els) => els.map((el) => getComputedStyle(el).gridTemplateColumns.split(" ").length));
  assert.deepEqual(phoneCols, [1, 1, 1, 1]);
  assert.ok(await p.$eval("html", (el) => el.scrollWidth <= 390), "no horizontal scrolling at 390 px");
  await p.click('[data-preset="rule5"]');
  const o = await readOutcome(p);
  assert.equal(o.rule, "5");
  await p.screenshot({ path: join(root, "test-output", "demo-phone.png"), fullPage: true });
  await p.close();
});

test("no console errors or warnings, no page errors, no failed requests, no request to another origin", () => {
  assert.deepEqual(pageErrors, []);
  assert.deepEqual(consoleErrors, []);
  assert.deepEqual(consoleWarnings, []);
  assert.deepEqual(failed, []);
  assert.deepEqual(foreign, []);
});
