// Skills: SPEC section 9 (parsing, routing by skills), against whichever build is handed in.
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { REASONS } from "./routing.mjs";

const md = (front, body = "") => `---\n${front}\n---\n${body}`;

export function skills(tp) {
  const { parseSkill, SkillIndex, resolvePalette, ToolRouter, Routed, RoutingRefusal } = tp;

  describe("parseSkill: a SKILL.md's frontmatter and body (SPEC 9)", () => {
    test("every field as JSON values, in order; allowed-tools read into tools and scopes; the body exactly", () => {
      const text = md(
        [
          "name: pdf-tools",
          "description: Extract text and tables from PDF files. Use when the user mentions PDFs.",
          "license: Apache-2.0",
          "allowed-tools: Read Grep Bash(git status:*) Bash(pdftotext:*)",
          "metadata:",
          "  author: someone",
          "  version: \"1.0\"",
          "compatibility: needs poppler",
        ].join("\n"),
        "# PDF\n\nUse `pdftotext`.\n",
      );
      const skill = parseSkill(text);
      assert.deepEqual(Object.keys(skill), ["name", "description", "allowedTools", "frontmatter", "body", "warnings"]);
      assert.equal(skill.name, "pdf-tools");
      assert.equal(skill.description, "Extract text and tables from PDF files. Use when the user mentions PDFs.");
      assert.deepEqual(skill.allowedTools, [
        { tool: "Read", scope: null },
        { tool: "Grep", scope: null },
        { tool: "Bash", scope: "git status:*" },
        { tool: "Bash", scope: "pdftotext:*" },
      ]);
      assert.deepEqual(Object.keys(skill.frontmatter), ["name", "description", "license", "allowed-tools", "metadata", "compatibility"]);
      assert.deepEqual(skill.frontmatter.metadata, { author: "someone", version: "1.0" });
      assert.equal(skill.body, "# PDF\n\nUse `pdftotext`.\n");
      assert.deepEqual(skill.warnings, []);
      assert.ok(Object.isFrozen(skill) && Object.isFrozen(skill.frontmatter) && Object.isFrozen(skill.frontmatter.metadata) && Object.isFrozen(skill.allowedTools));
    });

    test("YAML as SKILL.md files use it: block and flow collections, quoted and block scalars, numbers, booleans, null, comments", () => {
      const skill = parseSkill(md([
        "name: x # a comment",
        "description: >",
        "  Folded",
        "  text.",
        "n: 12",
        "f: -1.5e3",
        "h: 0x1F",
        "t: true",
        "z: null",
        "e:",
        "list: [a, 'b c', \"d\\te\"]",
        "map: {k: v, n: 1}",
        "block: |",
        "  line 1",
        "  line 2",
        "items:",
        "  - one",
        "  - two: 2",
        "date: 2025-01-01",
        "yes: yes",
      ].join("\n")));
      const f = skill.frontmatter;
      assert.equal(skill.description, "Folded text.\n");
      assert.deepEqual([f.n, f.f, f.h, f.t, f.z, f.e], [12, -1500, 31, true, null, null]);
      assert.deepEqual(f.list, ["a", "b c", "d\te"]);
      assert.deepEqual(f.map, { k: "v", n: 1 });
      assert.equal(f.block, "line 1\nline 2\n");
      assert.deepEqual(f.items, ["one", { two: 2 }]);
      // YAML 1.2's core schema: a date and "yes" stay strings.
      assert.deepEqual([f.date, f.yes], ["2025-01-01", "yes"]);
    });

    test("CRLF, a leading BOM, and exact strings (a lone surrogate, a key __proto__ as an own field)", () => {
      const skill = parseSkill("\uFEFF---\r\nname: crlf\r\ndescription: \"a \\ud800 b\"\r\nmetadata:\r\n  __proto__: kept\r\n---\r\nbody\r\n");
      assert.equal(skill.name, "crlf");
      assert.equal(skill.description, "a \ud800 b");
      assert.equal(skill.body, "body\r\n");
      assert.ok(Object.hasOwn(skill.frontmatter.metadata, "__proto__"));
      assert.equal(skill.frontmatter.metadata.__proto__, "kept");
      assert.equal(Object.getPrototypeOf(skill.frontmatter.metadata), Object.prototype);
    });

    test("departures hosts accept parse, with a warning each (line and field)", () => {
      const long = "x".repeat(1100);
      const skill = parseSkill(md(`name: My Skill\ndescription: ${long}\nwhen_to_use: often\ndisable-model-invocation: true`), { path: "skills/other/SKILL.md" });
      assert.equal(skill.warnings.length, 5);
      assert.match(skill.warnings[0], /^line 2, field "name": "My Skill" is not a valid name/);
      assert.match(skill.warnings[1], /^line 2, field "name": differs from the skill's directory "other"/);
      assert.match(skill.warnings[2], /^line 3, field "description": is 1100 characters long/);
      assert.match(skill.warnings[3], /^line 4, field "when_to_use": is not a field of the Agent Skills specification/);
      assert.match(skill.warnings[4], /^line 5, field "disable-model-invocation"/);
    });

    test("allowed-tools as a list is read too (with a warning); absent, it is null", () => {
      const listed = parseSkill(md("name: a\ndescription: d\nallowed-tools:\n  - Read\n  - Bash(npm run *)"));
      assert.deepEqual(listed.allowedTools, [{ tool: "Read", scope: null }, { tool: "Bash", scope: "npm run *" }]);
      assert.equal(listed.warnings.length, 1);
      assert.equal(parseSkill(md("name: a\ndescription: d")).allowedTools, null);
    });

    test("a SyntaxError says the line, the field at fault and the path", () => {
      const cases = [
        ["no frontmatter", /^line 1: a SKILL\.md begins with a line "---"/],
        [md("description: d"), /^line 1, field "name": the frontmatter lacks this field/],
        [md("name: 42\ndescription: d"), /^line 2, field "name": this field must be a string/],
        [md("name: a\ndescription: see: this"), /^line 3, field "description": an unquoted value cannot hold ": "/],
        [md("name: a\ndescription: &x d"), /^line 3, field "description": "&" begins a YAML anchor/],
        [md("name: a\ndescription: !!str d"), /^line 3, field "description": "!" begins a YAML tag/],
        [md("name: a\ndescription: d\n\tindent: x"), /^line 4: a tab in indentation/],
        [md("name: a\ndescription: d\nname: b"), /^line 4, field "name": the field appears twice/],
        ["---\nname: a\ndescription: d\n", /^line 1: the frontmatter begun here is never closed/],
      ];
      for (const [text, message] of cases) {
        assert.throws(() => parseSkill(text), (e) => e instanceof SyntaxError && message.test(e.message), text);
      }
      assert.throws(() => parseSkill("x", { path: "a/b/SKILL.md" }), (e) => e instanceof SyntaxError && e.message.startsWith("a/b/SKILL.md: line 1: "));
    });

    test("bad arguments are TypeErrors naming them", () => {
      assert.throws(() => parseSkill(42), { name: "TypeError", message: "parseSkill: text must be a string, got number (42)" });
      assert.throws(() => parseSkill("", { path: 1 }), { name: "TypeError", message: "parseSkill: options.path must be a string, got number (1)" });
      assert.throws(() => parseSkill("", 5), { name: "TypeError", message: "parseSkill: options must be an object, got number (5)" });
    });
  });

  const SKILLS = [
    md("name: pdf\ndescription: Extract text and tables from PDF files\nallowed-tools: Read Bash(pdftotext:*)", "Run pdftotext on the file."),
    md("name: notes\ndescription: Write meeting notes in markdown", "Headings, then bullets."),
    md("name: deploy\ndescription: Deploy the website to production\ndisable-model-invocation: true\nallowed-tools: Bash", ""),
    md("name: charts\ndescription: Draw line and bar charts from CSV data\nallowed-tools: Plot", ""),
    md("name: github\ndescription: Open pull requests and review issues on GitHub\nallowed-tools: gh_pr gh_issue", ""),
  ];
  const REG = ["Read", "Bash", "line_chart", "bar_chart", "gh_pr", "search"];

  describe("SkillIndex: routing by skills (SPEC 9)", () => {
    const index = new SkillIndex(SKILLS, { tools: { Plot: ["line_chart", "bar_chart"] }, disabled: ["github"] });

    test("entries: one row per tool of each relevant skill, best skill first, exact and frozen", () => {
      assert.deepEqual(index.entries("extract the tables of this PDF"), [
        { skill: "pdf", tool: "Read", active: true },
        { skill: "pdf", tool: "Bash", active: true },
      ]);
      assert.deepEqual(index.entries({ message: "draw a bar chart of this csv" }), [
        { skill: "charts", tool: "line_chart", active: true },
        { skill: "charts", tool: "bar_chart", active: true },
      ]);
      // A skill of prose only: one row without a tool.
      assert.deepEqual(index.entries("meeting notes please"), [{ skill: "notes", active: true }]);
      assert.ok(Object.isFrozen(index.entries("pdf")) && Object.isFrozen(index.entries("pdf")[0]));
      assert.deepEqual(index.entries("zebra crossing"), []);
      assert.deepEqual(index.entries(""), []);
      assert.deepEqual(index.entries(undefined), []);
    });

    test("a turn names the relevant active skills; the refusals keep the seed's words (rules 3, 4, 5)", async () => {
      const reports = [];
      const turn = (message) => resolvePalette({ registered: REG, entries: () => index.entries(message), onDecision: (d) => reports.push(d) });
      const routed = await turn("extract the tables of this PDF");
      assert.ok(routed instanceof Routed);
      assert.deepEqual(routed.names, ["Read", "Bash"]);
      assert.deepEqual(routed.skills, ["pdf"]);
      assert.deepEqual(reports.at(-1).rows.map((r) => [r.skill, r.fate]), [["pdf", "routed"], ["pdf", "routed"]]);
      const none = await turn("zebra crossing");
      assert.equal(none.reason, REASONS.noSkills);
      // Every relevant skill disabled: deploy (its author) and github (the deployment).
      const off = await resolvePalette({ registered: REG, entries: () => index.entries("deploy the website to production") .filter((r) => r.skill === "deploy") });
      assert.ok(off instanceof RoutingRefusal);
      assert.equal(off.reason, REASONS.inactive);
      assert.deepEqual(off.skills, []);
      const github = await turn("open a pull request on GitHub");
      assert.equal(github.reason, REASONS.inactive);
      // Prose only, or tools the host lacks: rule 5, the skill still relevant.
      const prose = await turn("meeting notes please");
      assert.equal(prose.reason, REASONS.unresolved);
      assert.deepEqual(prose.skills, ["notes"]);
      const lacking = await resolvePalette({ registered: ["search"], entries: () => index.entries("draw a chart from csv") });
      assert.equal(lacking.reason, REASONS.unresolved);
      assert.deepEqual(lacking.unresolved, ["line_chart", "bar_chart"]);
    });

    test("a router over the index, and the history filling what the message leaves", async () => {
      const router = new ToolRouter({ entries: index.entries, registered: REG });
      const outcome = await router.resolve({ context: { message: "now the same again", history: ["extract the tables of this PDF"] } });
      assert.deepEqual(outcome.names, ["Read", "Bash"]);
      assert.deepEqual(outcome.skills, ["pdf"]);
    });

    test("search, get, size, names", () => {
      assert.deepEqual(index.search("pdf tables").map((h) => h.name), ["pdf"]);
      assert.ok(index.search("pdf tables")[0].score > 0);
      assert.equal(index.size, 5);
      assert.deepEqual(index.names, ["pdf", "notes", "deploy", "charts", "github"]);
      assert.equal(index.get("pdf").body, "Run pdftotext on the file.");
      assert.equal(index.get("PDF"), undefined);
    });

    test("options.tools as a function of the tool and the skill; [] drops a tool; default its own name", () => {
      const seen = [];
      const ix = new SkillIndex(SKILLS, {
        tools: (tool, skill) => {
          seen.push(`${skill.name}:${tool}`);
          return tool === "Read" ? "read_file" : tool === "Bash" ? [] : undefined;
        },
      });
      assert.deepEqual(seen, ["pdf:Read", "pdf:Bash", "deploy:Bash", "charts:Plot", "github:gh_pr", "github:gh_issue"]);
      assert.deepEqual(ix.entries("extract pdf tables"), [{ skill: "pdf", tool: "read_file", active: true }]);
      // Every tool dropped: the skill's one row without a tool.
      assert.deepEqual(ix.entries("deploy the website"), [{ skill: "deploy", active: false }]);
      assert.throws(() => new SkillIndex(SKILLS, { tools: () => 42 }), { name: "TypeError", message: 'SkillIndex: options.tools("Read") must be an iterable of strings, got number (42)' });
      assert.throws(() => new SkillIndex(SKILLS, { tools: 1 }), { name: "TypeError", message: "SkillIndex: options.tools must be a record of tool names or a function, got number (1)" });
    });

    test("skills from parseSkill, texts, and objects with a Skill's fields", () => {
      const parsed = parseSkill(SKILLS[0], { path: "skills/pdf/SKILL.md" });
      const own = { name: "maps", description: "Show places on a map", allowedTools: [{ tool: "map", scope: "world" }], body: "Zoom in.", frontmatter: { when_to_use: "places" } };
      const ix = new SkillIndex([parsed, SKILLS[1], own]);
      assert.equal(ix.get("pdf"), ix.get("pdf"));
      assert.deepEqual(ix.get("pdf"), parsed);
      assert.deepEqual(ix.entries("show this place on a map"), [{ skill: "maps", tool: "map", active: true }]);
      assert.equal(ix.get("maps").body, "Zoom in.");
      assert.deepEqual(ix.get("maps").allowedTools, [{ tool: "map", scope: "world" }]);
      assert.equal(ix.get("maps").frontmatter.when_to_use, "places");
      // An object's allowed tools are exactly its own, or the TypeError naming the entry: never split, nor made strings.
      const at = "SkillIndex: skills[0].allowedTools";
      const with_ = (allowedTools) => () => new SkillIndex([{ ...own, allowedTools }]);
      assert.deepEqual(with_([{ tool: "map", scope: null }, { tool: "route", scope: "a b, c" }])().get("maps").allowedTools, [{ tool: "map", scope: null }, { tool: "route", scope: "a b, c" }]);
      assert.deepEqual(with_([])().get("maps").allowedTools, []);
      assert.throws(with_("Read Grep"), { name: "TypeError", message: `${at} must be an array of { tool, scope } (a skill's allowedTools) or null, got string` });
      assert.throws(with_(["Read"]), { name: "TypeError", message: `${at}[0] must be { tool, scope }, got string` });
      assert.throws(with_([{ tool: 5 }]), { name: "TypeError", message: `${at}[0].tool must be a non-empty string, got number (5)` });
      assert.throws(with_([{}]), { name: "TypeError", message: `${at}[0].tool must be a non-empty string, got undefined` });
      assert.throws(with_([{ tool: "map", scope: 1 }]), { name: "TypeError", message: `${at}[0].scope must be a string or null, got number (1)` });
      const unwritable = "cannot be a SKILL.md's allowed tool: a tool name has no white space, comma or parenthesis, and a scope's parentheses balance";
      for (const [tools, k] of [[[{ tool: "my tool" }], 0], [[{ tool: "map" }, { tool: "a,b" }], 1], [[{ tool: "f(x)" }], 0], [[{ tool: "map", scope: "a)" }], 0]]) {
        assert.throws(with_(tools), { name: "TypeError", message: `${at}[${k}] ${unwritable}` }, JSON.stringify(tools));
      }
    });

    test("refused: a text that is no skill, a name twice, a bad argument, each naming it", () => {
      assert.throws(() => new SkillIndex([SKILLS[0], "nope"]), (e) => e instanceof SyntaxError && e.message.startsWith("SkillIndex: skills[1]: line 1: "));
      assert.throws(() => new SkillIndex([SKILLS[0], SKILLS[1], SKILLS[0]]), { name: "TypeError", message: 'SkillIndex: skills[2] reuses the name "pdf" of SkillIndex: skills[0]; skill names must be unique' });
      assert.throws(() => new SkillIndex(5), { name: "TypeError", message: /^SkillIndex: skills must be an iterable of skills/ });
      assert.throws(() => new SkillIndex([5]), { name: "TypeError", message: "SkillIndex: skills[0] must be a SKILL.md text or a skill, got number (5)" });
      assert.throws(() => new SkillIndex([{ name: "a" }]), { name: "TypeError", message: "SkillIndex: skills[0].description must be a string, got undefined" });
      assert.throws(() => new SkillIndex(SKILLS, { disabled: "pdf" }), { name: "TypeError" });
      // More names than a call holds: the RangeError names options.disabled, never a list cut short.
      const many = { *[Symbol.iterator]() { for (let i = 0; i <= 1 << 20; i++) yield "pdf"; } };
      assert.throws(() => new SkillIndex(SKILLS, { disabled: many }), { name: "RangeError", message: /^SkillIndex: options\.disabled is too large/ });
      assert.throws(() => new SkillIndex(SKILLS, { limit: 0 }), { name: "TypeError", message: "SkillIndex: options.limit must be a positive integer, got number (0)" });
    });

    test("limit: skills per turn (default 3)", () => {
      const many = Array.from({ length: 6 }, (_, i) => md(`name: s${i}\ndescription: common word ${i}`));
      assert.equal(new Set(new SkillIndex(many).entries("common word").map((r) => r.skill)).size, 3);
      assert.equal(new Set(new SkillIndex(many, { limit: 5 }).entries("common word").map((r) => r.skill)).size, 5);
      assert.equal(new SkillIndex(many).search("common", { limit: 4 }).length, 4);
    });

    test("save and load: the same rows, skills and tools; bad bytes refused saying why", () => {
      const bytes = index.save();
      assert.ok(bytes instanceof Uint8Array);
      const loaded = SkillIndex.load(bytes);
      for (const q of ["extract pdf tables", "bar chart csv", "meeting notes", "deploy", "github pull request", "zebra"]) {
        assert.deepEqual(loaded.entries(q), index.entries(q), q);
      }
      assert.deepEqual(loaded.names, index.names);
      assert.deepEqual(loaded.get("charts"), index.get("charts"));
      assert.equal(SkillIndex.load(bytes, { limit: 1 }).search("pdf chart notes").length, 1);
      const altered = bytes.slice();
      altered[altered.length - 1] ^= 1;
      assert.throws(() => SkillIndex.load(altered), { name: "TypeError", message: "SkillIndex.load: bytes are altered: the snapshot's checksum does not match its content" });
      assert.throws(() => SkillIndex.load(bytes.subarray(0, 30)), { name: "RangeError" });
      assert.throws(() => SkillIndex.load(new Uint8Array(40)), { name: "TypeError", message: "SkillIndex.load: bytes are not a SkillIndex snapshot (made by skills.save())" });
      assert.throws(() => SkillIndex.load(new tp.ToolIndex([{ name: "a" }]).save()), { name: "TypeError", message: "SkillIndex.load: bytes are not a SkillIndex snapshot (made by skills.save())" });
      assert.throws(() => SkillIndex.load("x"), { name: "TypeError", message: "SkillIndex.load: bytes must be a Uint8Array (from skills.save()), got string" });
      assert.throws(() => SkillIndex.load(bytes, { tools: {} }), { name: "TypeError", message: /^SkillIndex\.load: options\.tools: a snapshot holds/ });
    });

    test("vectors and embed: hybrid ranking, and lexical when embed fails", async () => {
      // Two dimensions: pdf and notes point one way, the rest the other.
      const vectors = [[1, 0], [0.9, 0.1], [0, 1], [0, 1], [0.1, 0.9]];
      const errors = [];
      const ix = new SkillIndex(SKILLS, { vectors, embed: (text) => (text === "boom" ? Promise.reject(new Error("down")) : [1, 0]), onEmbedError: (e) => errors.push(e.message) });
      assert.equal(ix.dimensions, 2);
      const rows = await ix.entries("do the thing");
      assert.deepEqual([...new Set(rows.map((r) => r.skill))].slice(0, 2), ["pdf", "notes"]);
      assert.deepEqual(await ix.entries("boom"), []);
      assert.deepEqual(errors, ["down"]);
      assert.deepEqual(ix.search("charts", { vector: [0, 1] })[0].name, "charts");
      assert.throws(() => new SkillIndex(SKILLS, { vectors: [[1, 0]] }), { name: "TypeError", message: "SkillIndex: options.vectors holds 1 vectors for 5 skills: one per skill, in the order the skills are read" });
      assert.throws(() => new SkillIndex(SKILLS, { embed: () => [1] }), { name: "TypeError", message: /^SkillIndex: options\.embed needs options\.vectors/ });
      const loaded = SkillIndex.load(ix.save(), { embed: () => [0, 1] });
      assert.equal((await loaded.entries("anything"))[0].skill, "deploy");
    });

    test("dispose: later calls throw", () => {
      const ix = new SkillIndex(SKILLS.slice(0, 2));
      ix.dispose();
      assert.throws(() => ix.entries("pdf"), { name: "Error", message: "SkillIndex: entries() after dispose()" });
      assert.throws(() => SkillIndex.prototype.search.call({}, "x"), { name: "TypeError" });
    });
  });

  describe("skills in a run, and load_skill (SPEC 9)", () => {
    const { PaletteRun } = tp;
    const index = new SkillIndex(SKILLS, { tools: { Plot: ["line_chart", "bar_chart"] }, disabled: ["github"] });
    const registered = [...REG, "load_skill"];
    const turn = (message) => resolvePalette({ registered, entries: () => index.entries(message) });

    test("a step says the relevant skills and those new to the run; a skill met before is not new again; saved and loaded too", async () => {
      const run = new PaletteRun({ registered, pinned: ["load_skill"] });
      const first = run.step(await turn("extract the tables of this PDF"));
      assert.deepEqual([first.skills, first.newSkills], [["pdf"], ["pdf"]]);
      assert.deepEqual(first.offered, ["Read", "Bash", "load_skill"]);
      const second = run.step(await turn("now a bar chart of the pdf tables"));
      assert.deepEqual([...second.skills].sort(), ["charts", "pdf"]);
      assert.deepEqual(second.newSkills, ["charts"]);
      const again = PaletteRun.load(run.save(), { registered });
      const third = again.step(await turn("the pdf once more"));
      assert.deepEqual([third.skills, third.newSkills], [["pdf"], []]);
      // A refusal that still names a skill (prose only) brings it in once.
      const fourth = again.step(await turn("meeting notes please"));
      assert.deepEqual([fourth.skills, fourth.newSkills], [["notes"], ["notes"]]);
      assert.ok(Object.isFrozen(fourth.newSkills));
      // An outcome without skills gives a step as SPEC 8 has it.
      assert.deepEqual(Object.keys(again.step(new Routed(["Read"]))), ["step", "offered", "listed", "deferred", "revealed", "kept"]);
      assert.throws(() => again.step({ kind: "routed", names: ["Read"], skills: [1] }), { name: "TypeError", message: "PaletteRun.step: outcome.skills[0] must be a string, got number (1)" });
    });

    test("addSkill: the skill is no longer new, its registered tools join every later step", async () => {
      for (const cache of ["per-turn", "append", "fixed", "deferred"]) {
        const run = new PaletteRun({ registered, pinned: ["load_skill"], cache });
        assert.deepEqual(run.addSkill("charts", ["line_chart", "bar_chart", "not_registered", "load_skill"]), ["line_chart", "bar_chart"], cache);
        assert.deepEqual(run.addSkill("charts", ["line_chart"]), [], cache);
        const step = run.step(await turn("extract the tables of this PDF"));
        assert.ok(step.offered.includes("line_chart") && step.offered.includes("bar_chart") && step.offered.includes("Read"), cache);
        const after = run.step(await turn("draw a chart of it"));
        assert.deepEqual(after.newSkills, [], cache);
        // Kept across a save and a load.
        const loaded = PaletteRun.load(run.save(), { registered });
        assert.ok(loaded.step(new Routed(["Read"])).offered.includes("bar_chart"), cache);
      }
      const run = new PaletteRun({ registered });
      assert.throws(() => run.addSkill(1, []), { name: "TypeError", message: "PaletteRun.addSkill: skill must be a string, got number (1)" });
      assert.throws(() => run.addSkill("a", "b"), { name: "TypeError" });
    });

    test("load_skill: the instructions by name or query; its tools join the run; anything else answered in words", async () => {
      const run = new PaletteRun({ registered, pinned: ["load_skill"], cache: "deferred" });
      const tool = index.loadSkillTool({ run });
      assert.equal(tool.name, "load_skill");
      assert.equal(tool.inputSchema.type, "object");
      assert.deepEqual(Object.keys(tool.inputSchema.properties), ["name", "query"]);
      assert.equal(tool.call({ name: "charts" }), index.get("charts").body);
      assert.equal(tool.call({ query: "extract text from a pdf" }), "Run pdftotext on the file.");
      const step = run.step(await turn("zebra crossing"));
      // A refusal offers every tool in a deferred run; the loaded skills' tools are revealed once routed turns come.
      assert.equal(step.step, 1);
      const next = run.step(new Routed(["search"]));
      assert.deepEqual(next.revealed, ["Read", "Bash", "line_chart", "bar_chart", "search"]);
      assert.equal(tool.call({ name: "github" }), 'The skill "github" is turned off here.');
      assert.equal(tool.call({ name: "deploy" }), 'The skill "deploy" is turned off here.');
      assert.equal(tool.call({ query: "zebra" }), 'No skill matches "zebra".');
      for (const bad of [undefined, null, 5, "pdf", {}, { name: 5 }, { name: "" }]) assert.match(tool.call(bad), /^load_skill takes \{"name"/);
      // Words beyond what one call holds (a model's runaway argument) are answered too, and the index still answers.
      const long = "x".repeat((1 << 23) + 1);
      assert.equal(tool.call({ query: long }), "No skill matches: the query is too long to look up; say in a few words what the task needs.");
      assert.equal(tool.call({ name: long }), "No skill matches: the name is too long to look up; say in a few words what the task needs.");
      assert.equal(tool.call({ name: long, query: "charts" }), "No skill matches: the name is too long to look up; say in a few words what the task needs.");
      const half = "y".repeat(1 << 22);
      assert.equal(tool.call({ name: half, query: half + "z" }), "No skill matches: the name and query are too long to look up; say in a few words what the task needs.");
      assert.equal(tool.call({ name: "charts" }), index.get("charts").body);
      const named = index.loadSkillTool({ name: "skill" });
      assert.equal(named.name, "skill");
      assert.equal(named.call({ name: "notes" }), "Headings, then bullets.");
      assert.throws(() => index.loadSkillTool({ name: "" }), { name: "TypeError" });
      assert.throws(() => index.loadSkillTool({ run: {} }), { name: "TypeError", message: "SkillIndex.loadSkillTool: options.run must be a PaletteRun, got an object" });
    });
  });
}
