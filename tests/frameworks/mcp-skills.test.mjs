// tool-palette/mcp and the MCP Skills extension (SPEC 9): servers built on the official SDK's low-level
// Server (skill-servers.mjs) that declare io.modelcontextprotocol/skills have their skills listed
// (skills/list), indexed with the host's own, read as resources only when first needed (checked against
// their entry: size, SHA-256 digest, frontmatter; refreshed once with skills/get), and resolved to their own
// server's tools first; a server without the extension is never asked. Hostile servers' skills are left out
// or answered in words; the new options refuse what they cannot use. Real SDK Clients, the packed package.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { consumer } from "./consumer.mjs";
import { loadSdk } from "./mcp-servers.mjs";
import { BILLING_TOOLS, CRM_SKILLS, HOST_SKILL, crmAndBilling, skillOptions, skillServer, skillText } from "./skill-servers.mjs";

let sdk, z, mcp, load;
const open = [];
before(async () => {
  const c = await consumer();
  load = c.load;
  sdk = await loadSdk(c.load);
  z = (await c.load("zod")).z;
  mcp = await c.load("tool-palette/mcp");
});
after(async () => {
  for (const client of open) await client.close().catch(() => {});
});

const sha256 = (bytes) => createHash("sha256").update(bytes).digest("hex");
const LOOKUP = "Look up the customer account Acme in the CRM";

async function servers(crmOptions = {}) {
  const made = await crmAndBilling(sdk, z, crmOptions);
  open.push(made.crm.client, made.billing.client);
  return made;
}
const options = (servers, more = {}) => ({ ...skillOptions(servers), ...more });
const methods = (server) => server.requests.map(([method]) => method);
const isInstructions = (text, name, body, server) => text.startsWith(`<skill name="${name}"${server ? ` server="${server}"` : ""}>\n${body}`) && text.endsWith("\n</skill>");

test("skills of a server that declares the extension: listed, indexed with the host's, resolved to that server's tools first, read once when first relevant; a server without it is not asked", async () => {
  const { crm, billing, servers: s } = await servers();
  const run = mcp.createMcpPalette(options(s)).run();
  const first = await run.route(LOOKUP);
  // customer-lookup's find_customer is crm's (crm__find_customer), not billing's of the same name.
  assert.deepEqual(first.report.skills, ["customer-lookup"]);
  assert.deepEqual(first.report.newSkills, ["customer-lookup"]);
  assert.deepEqual(first.report.offered, ["crm__find_customer", "search_tools", "load_skill"]);
  assert.deepEqual(first.tools.map((t) => t.name), first.report.listed);
  assert.equal(first.instructions.length, 1);
  assert.equal(first.instructions[0].skill, "customer-lookup");
  assert.ok(isInstructions(first.instructions[0].text, "customer-lookup", CRM_SKILLS[0].body, "crm"), first.instructions[0].text);
  // Listed once, the relevant skill's SKILL.md read once (the other one never), the server without the extension never asked.
  assert.deepEqual(methods(crm), ["tools/list", "skills/list", "resources/read"]);
  assert.deepEqual(crm.requests[2][1], { uri: "skill://customer-lookup/SKILL.md" });
  assert.deepEqual(methods(billing), ["tools/list"]);
  // The call goes to crm.
  assert.equal((await run.callTool({ name: "crm__find_customer", arguments: { target: "Acme" } })).content[0].text, "find_customer done on crm");

  // Relevant again: not new, nothing read again.
  const again = await run.route(LOOKUP);
  assert.deepEqual([again.report.newSkills, again.instructions], [[], []]);
  // The host's own skill: its instructions without a server.
  const invoice = await run.route("Create and send the invoice to the customer");
  assert.deepEqual(invoice.report.skills, ["invoicing"]);
  assert.ok(invoice.report.offered.includes("create_invoice"));
  assert.ok(isInstructions(invoice.instructions[0].text, "invoicing", "Always attach the PDF.", null), invoice.instructions[0].text);

  // load_skill (callTool): a server skill the routing missed: its instructions (read now), its tools join the next turn.
  const loaded = await run.callTool({ name: "load_skill", arguments: { name: "quarterly-export" } });
  assert.ok(isInstructions(loaded.content[0].text, "quarterly-export", CRM_SKILLS[1].body, "crm"), loaded.content[0].text);
  assert.deepEqual(crm.requests.at(-1), ["resources/read", { uri: "skill://quarterly-export/SKILL.md" }]);
  const next = await run.route(LOOKUP);
  assert.ok(next.report.offered.includes("export_report"), next.report.offered.join());
  assert.deepEqual(next.report.newSkills, []);
  assert.equal(methods(crm).filter((m) => m === "skills/get").length, 0);
});

test("hostile skills of a server: a SKILL.md that does not match its entry (size, digest, frontmatter) is refreshed once with skills/get, then refused in words; a read that fails, a text that is no SKILL.md, a SKILL.md too large: refused in words; the body never reaches the model", async () => {
  const make = (name, body) => ({ name, description: `The ${name} procedure for customer accounts.`, tools: ["update_customer"], body });
  const skills = ["bad-digest", "bad-size", "bad-frontmatter", "read-fails", "not-a-skill", "stale-entry", "huge", "huge-lie", "bare-entry"].map((name) => make(name, `SECRET body of ${name}.`));
  const hostile = (s, entry, text) => {
    const lie = { ...entry, resources: [{ ...entry.resources[0] }] };
    if (s.name === "bad-digest") lie.resources[0].digest = `sha256:${"0".repeat(64)}`;
    if (s.name === "bad-size") lie.resources[0].size += 1;
    if (s.name === "stale-entry") lie.resources[0].digest = `sha256:${"1".repeat(64)}`;
    if (s.name === "bad-frontmatter") {
      const other = skillText({ ...s, description: "Something else entirely." });
      const bytes = Buffer.from(other);
      return { text: other, entry: { ...entry, resources: [{ ...entry.resources[0], size: bytes.length, digest: `sha256:${sha256(bytes)}` }] }, get: { ...entry, resources: [{ ...entry.resources[0], size: bytes.length, digest: `sha256:${sha256(bytes)}` }] } };
    }
    if (s.name === "not-a-skill") {
      const bytes = Buffer.from(s.body);
      const fitted = { ...entry, resources: [{ ...entry.resources[0], size: bytes.length, digest: `sha256:${sha256(bytes)}` }] };
      return { text: s.body, entry: fitted, get: fitted };
    }
    if (s.name === "huge") {
      const big = `${text}${"x".repeat(1_100_000)}\n`;
      const bytes = Buffer.from(big);
      const fitted = { ...entry, resources: [{ ...entry.resources[0], size: bytes.length, digest: `sha256:${sha256(bytes)}` }] };
      return { text: big, entry: fitted, get: fitted };
    }
    if (s.name === "huge-lie") return { text: `${text}${"x".repeat(1_100_000)}\n` }; // its entry says the small size
    if (s.name === "read-fails") return { failRead: true };
    if (s.name === "bare-entry") {
      // Its entry lists the SKILL.md without its size and digest: nothing to compare them with.
      const bare = { ...entry, resources: [{ uri: entry.resources[0].uri }] };
      return { entry: bare, get: bare };
    }
    return { entry: lie, get: s.name === "stale-entry" ? entry : lie };
  };
  const { crm, servers: s } = await servers({ skills, hostile });
  const run = mcp.createMcpPalette(options(s)).run();
  await run.route("hello");
  const load = async (name) => (await run.callTool({ name: "load_skill", arguments: { name } })).content[0].text;
  const refused = async (name, why) => {
    const text = await load(name);
    assert.ok(text.startsWith(`The skill "${name}" could not be read: `), text);
    assert.match(text, why);
    assert.ok(!text.includes("SECRET"), text);
  };
  await refused("bad-digest", /^The skill "bad-digest" could not be read: the SKILL\.md at skill:\/\/bad-digest\/SKILL\.md does not match its entry: its SHA-256 digest is not its entry's$/);
  await refused("bad-size", /: it is \d+ bytes, its entry says \d+$/);
  await refused("bad-frontmatter", /does not match its entry: its frontmatter is not its entry's$/);
  await refused("read-fails", /cannot be read/);
  await refused("not-a-skill", /does not match its entry: line 1: a SKILL\.md begins with a line "---"/);
  await refused("huge", /^The skill "huge" could not be read: the SKILL\.md at skill:\/\/huge\/SKILL\.md is 1,100,\d{3} bytes, more than 1,048,576 \(too large to give a model\)$/);
  await refused("huge-lie", /^The skill "huge-lie" could not be read: the SKILL\.md at skill:\/\/huge-lie\/SKILL\.md is 1,100,\d{3} bytes, more than 1,048,576 \(too large to give a model\)$/);
  // A SKILL.md whose entry says it is too large is not read at all.
  assert.ok(!crm.requests.some(([m, p]) => m === "resources/read" && p.uri === "skill://huge/SKILL.md"));
  // Each mismatch asked skills/get once; a skill whose entry was stale reads right after its refresh.
  const gets = crm.requests.filter(([m]) => m === "skills/get").map(([, p]) => p.uri);
  assert.deepEqual(gets, ["skill://bad-digest/SKILL.md", "skill://bad-size/SKILL.md", "skill://bad-frontmatter/SKILL.md", "skill://not-a-skill/SKILL.md"]);
  assert.ok(isInstructions(await load("stale-entry"), "stale-entry", "SECRET body of stale-entry.", "crm"));
  assert.deepEqual(crm.requests.filter(([m]) => m === "skills/get").length, 5);
  // An entry that lists the SKILL.md without size or digest: read as it is (its frontmatter still checked), no skills/get.
  assert.ok(isInstructions(await load("bare-entry"), "bare-entry", "SECRET body of bare-entry.", "crm"));
  assert.deepEqual(crm.requests.filter(([m]) => m === "skills/get").length, 5);
});


test("a SKILL.md served as a blob is checked by its raw bytes (a leading BOM included: the size and digest of its entry) and read", async () => {
  const hostile = (skill, entry, text) => {
    if (skill.name !== "customer-lookup") return {};
    const blob = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, "utf8")]);
    return { blob, entry: { ...entry, resources: [{ uri: entry.uri, size: blob.length, digest: `sha256:${sha256(blob)}` }] } };
  };
  const { crm, servers: s } = await servers({ hostile });
  const run = mcp.createMcpPalette(options(s)).run();
  const first = await run.route(LOOKUP);
  assert.ok(isInstructions(first.instructions[0].text, "customer-lookup", CRM_SKILLS[0].body, "crm"), first.instructions[0].text);
  assert.equal(methods(crm).filter((m) => m === "skills/get").length, 0);
});

test("a SKILL.md blob that is not UTF-8 (its entry's size and digest right) is refused in words, never read with replacement characters", async () => {
  const hostile = (skill, entry, text) => {
    if (skill.name !== "customer-lookup") return {};
    const blob = Buffer.concat([Buffer.from(text, "utf8"), Buffer.from([0xff, 0xfe])]);
    return { blob, entry: { ...entry, resources: [{ uri: entry.uri, size: blob.length, digest: `sha256:${sha256(blob)}` }] } };
  };
  const { servers: s } = await servers({ hostile });
  const first = await mcp.createMcpPalette(options(s)).run().route(LOOKUP);
  assert.equal(first.instructions[0].text, 'The skill "customer-lookup" could not be read: the SKILL.md at skill://customer-lookup/SKILL.md does not match its entry: its blob is not UTF-8 text');
});

test("a server whose skills/list fails, or lists entries that are no skills: those are left out with a warning each; its tools, the other entries and the host's skills serve", async () => {
  const warnings = [];
  const failing = await servers({ failList: true });
  const run = mcp.createMcpPalette(options(failing.servers, { onWarning: (w) => warnings.push(w) })).run();
  const turn = await run.route("Create and send the invoice to the customer");
  assert.deepEqual(turn.report.skills, ["invoicing"]);
  assert.equal(warnings.length, 1);
  assert.match(warnings[0].message, /the skills of server "crm" could not be listed \(.*crm cannot list its skills.*\); they are left out until it lists again\./);
  assert.ok((await run.route(LOOKUP)).report.offered.length > 0);
  assert.deepEqual(await (async () => (await run.callTool({ name: "crm__find_customer", arguments: {} })).isError)(), true); // not offered: no skill named it
  // Entries that are no skills (no uri, no frontmatter name, resources neither a list nor "dynamic").
  const odd = await servers({
    hostile: (s, entry) => (s.name === "quarterly-export" ? { entry: { ...entry, uri: 42 } } : {}),
  });
  const seen = [];
  const run2 = mcp.createMcpPalette(options(odd.servers, { onWarning: (w) => seen.push(w.message) })).run();
  const lookup = await run2.route(LOOKUP);
  assert.deepEqual(lookup.report.skills, ["customer-lookup"]);
  assert.deepEqual(seen, ['tool-palette/mcp: a skill entry of server "crm" was left out: it is not a skill entry { uri, frontmatter: { name, description } }.']);
  assert.equal((await run2.callTool({ name: "load_skill", arguments: { name: "quarterly-export" } })).content[0].text.startsWith("<skill"), false);
});

test("hostile values for the skills options of tool-palette/mcp and run(): a TypeError (a SyntaxError for a SKILL.md that is none) naming the option", async () => {
  const { servers: s } = await servers();
  const where = "tool-palette/mcp: options";
  const refuses = (o, kind, start) => assert.throws(() => mcp.createMcpPalette({ servers: s, ...o }), (e) => e instanceof kind && e.message.startsWith(start), start);
  refuses({ skills: 42 }, TypeError, `${where}.skills must be a SkillIndex or an iterable of skills`);
  // Another run's skills (a SkillSource: entries, get, loadSkillTool, no names) are not the host's own skills.
  const other = mcp.createMcpPalette({ servers: s, skills: [HOST_SKILL] }).run();
  refuses({ skills: other.skills }, TypeError, `${where}.skills must be a SkillIndex or an iterable of skills (SKILL.md texts, or skills from parseSkill), not another run's skills, got `);
  // Each option is read once: options.cache too.
  let reads = 0;
  mcp.createMcpPalette({ servers: s, skills: [HOST_SKILL], get cache() {
    reads++;
    return "append";
  } });
  assert.equal(reads, 1);
  refuses({ skills: HOST_SKILL }, TypeError, `${where}.skills must be a SkillIndex or an iterable of skills`);
  refuses({ skills: [HOST_SKILL, HOST_SKILL] }, TypeError, `${where}.skills[1] reuses the name "invoicing" of ${where}.skills[0]`);
  refuses({ skills: ["no frontmatter"] }, SyntaxError, `${where}.skills[0]: line 1: `);
  refuses({ skills: [42] }, TypeError, `${where}.skills[0] must be a SKILL.md text or a skill, got number`);
  refuses({ skillTool: 5 }, TypeError, `${where}.skillTool must be a tool name or false, got number`);
  refuses({ skillTool: "search_tools" }, TypeError, `${where}.skillTool is the name of the search tool: give them two names`);
  refuses({ searchTool: "load_skill" }, TypeError, `${where}.searchTool is the name of the skill tool ("load_skill" unless options.skillTool names another): give them two names`);
  refuses({ skillIndex: 3 }, TypeError, `${where}.skillIndex must be an object, got number`);
  refuses({ skillIndex: { limit: -1 } }, TypeError, `${where}.skillIndex.limit`);
  refuses({ skillIndex: { disabled: 7 } }, TypeError, `${where}.skillIndex.disabled`);
  refuses({ cache: "sometimes" }, TypeError, `${where}.cache must be "per-turn", "append", "fixed" or "deferred", got "sometimes"`);
  // Without any skill (no host skills, no server with the extension), skillTool has nothing to load.
  const plain = await skillServer(sdk, z, "plain", { extension: false, tools: BILLING_TOOLS });
  open.push(plain.client);
  assert.throws(() => mcp.createMcpPalette({ servers: { plain: plain.client }, skillTool: "x" }), (e) => e instanceof TypeError && e.message === `${where}.skillTool needs the skills option`);
  // ... and no skill tool: the search tool may take its default name.
  const searched = mcp.createMcpPalette({ servers: { plain: plain.client }, searchTool: "load_skill" }).run();
  assert.ok((await searched.route("invoice")).names.includes("load_skill"));
  const palette = mcp.createMcpPalette({ servers: s, skills: [HOST_SKILL] });
  const at = "tool-palette/mcp: run(options)";
  for (const [o, start] of [
    [7, `${at} must be an object, got number`],
    [{ saved: 42 }, `${at}.saved must be a string (a saved run, from onSaved or save()), got number`],
    [{ saved: "tprun1.x" }, `${at}.saved is not a saved run of tool-palette/mcp (from onSaved or run.save()), or it was cut short or altered`],
    [{ onSaved: "log" }, `${at}.onSaved must be a function, got string`],
  ]) {
    assert.throws(() => palette.run(o), (e) => e instanceof TypeError && e.message.startsWith(start), start);
  }
  // A framework adapter's saved run is not one of tool-palette/mcp.
  const adapterSaved = JSON.stringify({ "tool-palette": "run", version: 1, run: null, listed: [], revealed: [], met: [], placed: [] });
  assert.throws(() => palette.run({ saved: adapterSaved }), (e) => e instanceof TypeError && e.message === `${at}.saved is not a saved run of tool-palette/mcp (from onSaved or run.save())`);
});

test('a run of tool-palette/mcp with skills, saved mid-conversation (cache "append") and restored in a new process, takes its next turn as the unbroken run does', async () => {
  const { servers: s } = await servers();
  const saves = [];
  const run = mcp.createMcpPalette({ ...options(s), cache: "append" }).run({ onSaved: (x) => saves.push(x) });
  await run.route(LOOKUP);
  await run.callTool({ name: "load_skill", arguments: { name: "quarterly-export" } });
  const saved = run.save();
  // onSaved after each turn and after load_skill; the last is save()'s.
  assert.deepEqual([saves.length, saves.at(-1)], [2, saved]);
  const INVOICE = "Create and send the invoice to the customer";
  const unbroken = await run.route(INVOICE);
  const { stdout } = await promisify(execFile)(process.execPath, [new URL("./mcp-saved-run-child.mjs", import.meta.url).pathname, (await consumer()).dir, INVOICE, saved]);
  const restored = JSON.parse(stdout);
  const { routing, servers: _servers, definitions, ...report } = unbroken.report;
  assert.deepEqual(restored.report, JSON.parse(JSON.stringify(report)));
  assert.deepEqual(restored.tools, unbroken.tools.map((t) => t.name));
  assert.deepEqual(restored.instructions, JSON.parse(JSON.stringify(unbroken.instructions)));
  assert.equal(restored.saved, run.save());
  // What that turn is: the first turn's listed tools kept first, the loaded skill's tool joined, the host's skill new.
  assert.deepEqual(restored.report.listed.slice(0, 3), ["crm__find_customer", "search_tools", "load_skill"]);
  assert.ok(restored.report.listed.includes("export_report") && restored.report.listed.includes("create_invoice"));
  assert.deepEqual([restored.report.turn, restored.report.newSkills, restored.instructions.map((i) => i.skill)], [1, ["invoicing"], ["invoicing"]]);
  // A run without the saved form takes that turn otherwise.
  const fresh = await mcp.createMcpPalette({ ...options(s), cache: "append" }).run().route(INVOICE);
  assert.notDeepEqual(fresh.report.listed, restored.report.listed);
});

// A framework adapter given the run's skills (run.adapterOptions.skills), in the AI SDK's generateText with a scripted model.
async function aiSdkLoop(run, answers, more = {}) {
  const ai = await load("ai");
  const { MockLanguageModelV3 } = await load("ai/test");
  const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
  const model = new MockLanguageModelV3({
    doGenerate: answers.map((a, i) =>
      typeof a === "string"
        ? { content: [{ type: "text", text: a }], finishReason: { unified: "stop", raw: "stop" }, usage, warnings: [] }
        : { content: [{ type: "tool-call", toolCallId: `c-${i}`, toolName: a[0], input: JSON.stringify(a[1]) }], finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage, warnings: [] },
    ),
  });
  const palette = (await load("tool-palette/ai-sdk")).createToolPalette({ ...run.adapterOptions, onWarning: () => {}, ...more });
  await ai.generateText({ model, prompt: LOOKUP, stopWhen: ai.stepCountIs(answers.length), tools: palette.wrapTools(await run.aiSdkTools()), prepareStep: palette.prepareStep });
  const userTexts = (call) => call.prompt.filter((m) => m.role === "user").flatMap((m) => m.content.filter((c) => c.type === "text").map((c) => c.text));
  return { sent: model.doGenerateCalls.map(userTexts) };
}

test("a server skill that cannot be read, given to a framework adapter (run.adapterOptions.skills): the model is told so in words, its read not retried at every step, and the steps go on", async () => {
  const { crm, servers: s } = await servers({ hostile: (skill) => (skill.name === "customer-lookup" ? { failRead: true } : {}) });
  const run = mcp.createMcpPalette(options(s)).run();
  const reads = () => crm.requests.filter(([m, p]) => m === "resources/read" && p.uri === "skill://customer-lookup/SKILL.md").length;
  const { sent } = await aiSdkLoop(run, [["crm__find_customer", { target: "Acme" }], ["crm__find_customer", { target: "Acme Ltd" }], "done"]);
  assert.equal(sent.length, 3);
  const told = sent[0].filter((t) => t.startsWith('The skill "customer-lookup" could not be read: '));
  assert.equal(told.length, 1, sent[0].join("\n"));
  assert.match(told[0], /cannot be read/);
  // The same words, once, in every later step (the prefix kept).
  for (const texts of sent) assert.equal(texts.filter((t) => t === told[0]).length, 1, texts.join("\n"));
  // Read twice: for the turn of the run's first route() (turn.instructions) and by the adapter at its first step; not again at its later steps.
  const afterRun = reads();
  assert.equal(afterRun, 2);
  await run.route(LOOKUP);
  assert.equal(reads(), afterRun, "a later route() of the run reads nothing new (the skill is no longer new to it)");
});

test("load_skill through a framework adapter (run.adapterOptions.skills): the skill joins the run and onSaved gets the run's saved form with it", async () => {
  const { servers: s } = await servers();
  const saved = [];
  const run = mcp.createMcpPalette(options(s)).run({ onSaved: (x) => saved.push(x) });
  // The model's one step loads a skill: nothing is routed after it, so only the load can have saved it.
  await aiSdkLoop(run, [["load_skill", { name: "quarterly-export" }]]);
  assert.ok(JSON.parse(run.save()).met.some(([skill]) => skill === "quarterly-export"), run.save());
  assert.equal(saved.at(-1), run.save());
});

test("a ToolPolicies redirect to the run's load_skill loads the skill, as a call of load_skill does (it was answered as a tool no server lists)", async () => {
  const { crm, servers: s } = await servers();
  const core = await load("tool-palette");
  const policies = new core.ToolPolicies([new core.ToolCallPolicy({ name: "exports-by-skill", match: () => true, whenTool: "crm__find_customer", redirectTo: "load_skill", argsTransform: () => ({ name: "quarterly-export" }) })]);
  const run = mcp.createMcpPalette(options(s, { policies })).run();
  assert.ok((await run.route(LOOKUP)).report.offered.includes("load_skill"));
  const answer = await run.callTool({ name: "crm__find_customer", arguments: { target: "Acme" } });
  assert.ok(!answer.isError && isInstructions(answer.content[0].text, "quarterly-export", CRM_SKILLS[1].body, "crm"), JSON.stringify(answer));
  assert.deepEqual(crm.requests.at(-1), ["resources/read", { uri: "skill://quarterly-export/SKILL.md" }]);
  // The skill joined the run: its tools come at the next turn.
  assert.ok((await run.route(LOOKUP)).report.offered.includes("export_report"));
});
