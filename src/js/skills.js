// @ts-check
// Skills (SPEC 9): parseSkill and SkillIndex. The facade reads the caller's texts, skills
// and options once each, calls the host's `tools` and `embed`, and waits; the module
// (src/js/skills.rs) parses, resolves, ranks, makes the rows, saves and loads.
import * as wasm from "./tool_palette.js";
// The core's "no index" (wire.js `NONE`) by what it means in each place (skills.rs).
import { NONE as NO_ALLOWED_TOOLS, NONE as NO_TOOL, NONE as OWN_NAME } from "./wire.js";
import { allStrings, attempt, bounded, checked, drop, enter, exactRows, fields, guarded, holds, isFunction, isObject, mustBe, attachRecord, putNames, slot, strings, decodeStrings, recordOf, withRecord } from "./host.js";
import { calls } from "./calls.js";
import { entriesOf, noRoom, optionsOf, readVectors, realView, search } from "./index.js";

// Each skill parseSkill made, and the text (and path) it was read from: a SkillIndex given
// the skill indexes that text.
const read = new WeakMap();

// A frontmatter value as the module made it (a mapping a Map), frozen, a mapping an object
// whose every key is an own property (`__proto__` too).
const plain = (v) => (v instanceof Map ? Object.freeze(Object.fromEntries(Array.from(v, ([k, x]) => [k, plain(x)]))) : Array.isArray(v) ? Object.freeze(v.map(plain)) : v);

// Skills as the module hands them over (skills.rs `hand`), frozen, each body cut from the
// text it was read from (`texts`; a load's come first, as `sources`).
class Skilled {
  /** @param {string[]} [texts] */
  constructor(texts) {
    this.texts = texts;
    /** @type {any[]} */
    this.skills = [];
    /** @type {string[][]} */
    this.lists = [];
  }
  sources(units, ends) { this.lists.push(decodeStrings(units, ends)); }
  fault(units) { this.message = decodeStrings(units)[0]; }
  refused(range, units) { this.error = new (range ? RangeError : TypeError)(`SkillIndex.load: bytes${decodeStrings(units)[0]}`); }
  skill(frontmatter, units, ends, shape) {
    const strs = decodeStrings(units, ends);
    let s = 2;
    const [name, description] = strs;
    const [start, end, tools, warned] = shape;
    let allowedTools = null;
    if (tools !== NO_ALLOWED_TOOLS) {
      allowedTools = new Array(tools);
      for (let i = 0; i < tools; i++) allowedTools[i] = Object.freeze({ tool: strs[s++], scope: shape[4 + i] ? strs[s++] : null });
      Object.freeze(allowedTools);
    }
    const warnings = Object.freeze(strs.slice(s, s + warned));
    const text = (this.texts ?? this.lists[0])[this.skills.length];
    this.skills.push(Object.freeze({ name, description, allowedTools, frontmatter: plain(frontmatter), body: text.slice(start, end), warnings }));
  }
}

/** A SKILL.md read (SPEC 9): its frontmatter's fields, its body and its warnings; a SyntaxError says why not. */
export function parseSkill(text, options) { return enter(parse, undefined, [text, options]); }

function parse(text, options) {
  if (typeof text !== "string") throw mustBe("parseSkill: text", "a string", text);
  const [path = ""] = fields(options, ["path"], "parseSkill: options");
  if (typeof path !== "string") throw mustBe("parseSkill: options.path", "a string", path);
  putNames([text, path], "parseSkill: text");
  const to = (calls.to = new Skilled([text]));
  if (!wasm.parse_skill()) throw new SyntaxError(to.message);
  read.set(to.skills[0], [text, path]);
  return to.skills[0];
}

const OPTIONS = ["limit", "vectors", "embed", "onEmbedError", "tools", "disabled"];

/** The procedural layer as Agent Skills: skills ranked for a turn, resolved to the host's tools. */
export class SkillIndex {
  constructor(skills, options) { enter(build, this, [skills, options]); }
  /** @type {import("./tool-palette.js").SkillIndex["search"]} */
  search(query, options) { return search(this, SkillIndex, query, options); }
  get entries() { return (context) => this.entriesFor(context); }
  /** @type {import("./tool-palette.js").SkillIndex["entriesFor"]} */
  entriesFor(context) { return entriesOf(this, SkillIndex, context, ([table, ix], more, count, vector) => rowsOf(more, wasm.skill_rows(table, ix, count, vector))); }
  /** @type {import("./tool-palette.js").SkillIndex["get"]} */
  get(name) { return recordOf(this, SkillIndex, "get").more.byName.get(name); }
  get size() { return recordOf(this, SkillIndex, "size").more.names.length; }
  get names() { return recordOf(this, SkillIndex, "names").more.names; }
  get dimensions() { return recordOf(this, SkillIndex, "dimensions").more.dims; }
  save() { return withRecord(this, SkillIndex, "save", ([table, ix]) => wasm.skills_save(table, ix)); }
  /** @type {import("./tool-palette.js").SkillIndex["loadSkillTool"]} */
  loadSkillTool(options) { return enter(loadSkillTool, undefined, [this, options]); }
  /** @type {typeof import("./tool-palette.js").SkillIndex["load"]} */
  static load(bytes, options) { return enter(load, undefined, [bytes, options]); }
}
guarded(SkillIndex, ["search"], ["entriesFor"], ["save"]);

// SPEC 9: a `load_skill` tool, for the model to load a skill the routing missed, by name or
// by query. Its answer is the skill's instructions (its body); with a run, the skill's
// tools join the run's later steps (PaletteRun.addSkill). What the model sends that is no
// such call, or finds nothing, is answered in words the model can act on, never thrown.
function loadSkillTool(index, options) {
  const where = "SkillIndex.loadSkillTool: options";
  const [name = "load_skill", run] = fields(options, ["name", "run"], where);
  if (typeof name !== "string" || name === "") throw mustBe(`${where}.name`, "a non-empty string", name);
  if (run !== undefined && !(isObject(run) && isFunction(run.addSkill))) throw mustBe(`${where}.run`, "a PaletteRun", run);
  recordOf(index, SkillIndex, "loadSkillTool");
  const call = (args) => enter(called, undefined, [index, name, run, args]);
  return Object.freeze({
    name,
    description: "Loads a skill: the instructions for a kind of task, by the skill's name or by a query saying what the task needs. Use it when the task needs a procedure you were not given.",
    inputSchema: Object.freeze({
      type: "object",
      properties: Object.freeze({
        name: Object.freeze({ type: "string", description: "The skill's name, if you know it." }),
        query: Object.freeze({ type: "string", description: "What the task needs, in a few words, to find the skill." }),
      }),
      additionalProperties: false,
    }),
    call,
  });
}

function called(index, tool, run, args) {
  let [name, query] = [undefined, undefined];
  try { if (isObject(args)) [name, query] = [args.name, args.query]; } catch {}
  [name, query] = [typeof name === "string" && name !== "" ? name : undefined, typeof query === "string" && query !== "" ? query : undefined];
  if (name === undefined && query === undefined) return `${tool} takes {"name": "<a skill's name>"} or {"query": "<what the task needs>"}.`;
  const asked = [name, query].filter((t) => t !== undefined);
  if (!holds(asked)) {
    const long = [[name, "name"], [query, "query"]].filter(([t]) => t !== undefined && !holds([t])).map(([, what]) => what);
    return `No skill matches: the ${long.length === 1 ? long[0] : "name and query"} ${long.length === 1 ? "is" : "are"} too long to look up; say in a few words what the task needs.`;
  }
  const found = withRecord(index, SkillIndex, "loadSkillTool", ([table, ix], { names, tools }) => {
    putNames(asked, "SkillIndex.loadSkillTool: call");
    const [kind, i, ...at] = wasm.skill_pick(table, ix, name !== undefined, query !== undefined);
    return kind === undefined ? undefined : [kind, names[i], at.map((t) => tools[t])];
  });
  if (found === undefined) return `No skill matches ${JSON.stringify(query ?? name)}.`;
  const [kind, skill, tools] = found;
  if (kind === 1) return `The skill "${skill}" is turned off here.`;
  run?.addSkill(skill, tools);
  return index.get(skill).body;
}

/** @this {SkillIndex} */
function build(skills, options) {
  const where = "SkillIndex: skills";
  const items = attempt(() => (isObject(skills) && isFunction(skills[Symbol.iterator]) ? bounded(skills) : undefined), where);
  if (!items) throw mustBe(where, "an iterable of skills (SKILL.md texts, or skills from parseSkill)", skills);
  const sources = items.map((item, i) => sourceOf(item, `${where}[${i}]`));
  const values = fields(options, OPTIONS, "SkillIndex: options");
  const [limit, embed, onEmbedError] = optionsOf(values.slice(0, 4), "SkillIndex: options");
  const resolve = mapping(values[4], "SkillIndex: options.tools");
  const disabled = values[5] === undefined ? [] : allStrings(values[5], "SkillIndex: options.disabled");
  putNames([...sources.map((s) => s[0]), ...sources.map((s) => s[1])], where);
  const [table, ix] = [slot(), slot()];
  try {
    const to = (calls.to = new Skilled(sources.map((s) => s[0])));
    const [why, i, j] = wasm.skills_read(table, sources.length);
    if (why === 0) throw new SyntaxError(`${where}[${i}]: ${to.message}`);
    if (why === 1) throw new TypeError(`${where}[${i}] reuses the name "${to.message}" of ${where}[${j}]; skill names must be unique`);
    if (why !== undefined) throw noRoom(where);
    sources.forEach((source, i) => source[2] && sameTools(to.skills[i], source[2], `${where}[${i}]`));
    const names = to.skills.map((skill) => skill.name);
    putNames(names, where);
    if (wasm.indexer(ix, names.length, limit, false) !== undefined) throw noRoom(where);
    if (!readVectors(ix, values[1], names.length, "SkillIndex: options.vectors", "skill") && embed) throw new TypeError("SkillIndex: options.embed needs options.vectors (the skills' vectors, to rank its answers against)");
    // Each allowed tool of each skill, in order: the host's names (OWN_NAME: its own).
    const [counts, mapped] = [/** @type {number[]} */ ([]), /** @type {string[]} */ ([])];
    for (const skill of to.skills) for (const { tool } of skill.allowedTools ?? []) {
      const names = resolve(tool, skill);
      counts.push(names === undefined ? OWN_NAME : names.length);
      if (names) mapped.push(...names);
    }
    putNames([...mapped, ...disabled], "SkillIndex: options.tools");
    if (!wasm.skills_finish(table, ix, Uint32Array.from(counts), disabled.length)) throw noRoom(where);
    finishSkillIndex(this, table, ix, to.skills, to.lists[0], embed, onEmbedError);
  } catch (error) {
    throw (drop(table), drop(ix), error);
  }
}

// A SkillIndex over the skills table in slot `table` and their ranking in `ix`, its record attached, frozen.
const finishSkillIndex = (self, table, ix, skills, tools, embed, onEmbedError) => {
  const names = Object.freeze(skills.map((skill) => skill.name));
  const byName = new Map(skills.map((skill) => [skill.name, skill]));
  attachRecord(self, [table, ix], { names, byName, tools, embed, onEmbedError, dims: wasm.dimensions(ix) ?? null });
  return Object.freeze(self);
};

// A skill as its SKILL.md text and path: a text as it is; parseSkill's skill, the text it
// was read from; any other object with the fields of a Skill, written as a SKILL.md whose
// frontmatter is JSON (YAML's flow style): its name, description and allowed tools, then
// its frontmatter's other fields, then its body.
function sourceOf(item, where) {
  if (typeof item === "string") return [item, ""];
  if (!isObject(item)) throw mustBe(where, "a SKILL.md text or a skill", item);
  const known = read.get(item);
  if (known) return known;
  const [name, description, allowedTools, frontmatter, body = ""] = fields(item, ["name", "description", "allowedTools", "frontmatter", "body"], where);
  for (const [key, value] of [["name", name], ["description", description], ["body", body]]) if (typeof value !== "string") throw mustBe(`${where}.${key}`, "a string", value);
  const pairs = [["name", name], ["description", description]];
  /** @type {[string, string | null][] | null} */
  let tools = null;
  if (allowedTools != null) {
    const at = `${where}.allowedTools`;
    const entries = typeof allowedTools === "string" ? undefined : attempt(() => (isObject(allowedTools) && isFunction(allowedTools[Symbol.iterator]) ? bounded(allowedTools) : undefined), at);
    if (!entries) throw mustBe(at, "an array of { tool, scope } (a skill's allowedTools) or null", allowedTools);
    const read = entries.map((entry, i) => {
      if (!isObject(entry)) throw mustBe(`${at}[${i}]`, "{ tool, scope }", entry);
      const [tool, scope] = fields(entry, ["tool", "scope"], `${at}[${i}]`);
      if (typeof tool !== "string" || tool === "") throw mustBe(`${at}[${i}].tool`, "a non-empty string", tool);
      if (scope != null && typeof scope !== "string") throw mustBe(`${at}[${i}].scope`, "a string or null", scope);
      return /** @type {[string, string | null]} */ ([tool, scope ?? null]);
    });
    pairs.push(["allowed-tools", read.map(([tool, scope]) => (scope === null ? tool : `${tool}(${scope})`)).join(" ")]);
    tools = read;
  }
  const given = isObject(frontmatter) ? attempt(() => Object.entries(frontmatter), `${where}.frontmatter`) : [];
  for (const pair of given) if (!["name", "description", "allowed-tools"].includes(pair[0]) && pair[1] !== undefined) pairs.push(pair);
  const json = attempt(() => pairs.map(([key, value]) => `${JSON.stringify(key)}: ${JSON.stringify(value)}`).join(", "), `${where}.frontmatter`);
  return [`---\n{${json}}\n---\n${body}`, "", tools];
}

// A skill object's allowed tools as its SKILL.md read them back (skills.rs): exactly what was given, else the TypeError naming the entry that
// allowed-tools cannot hold (a tool name with white space, a comma or parentheses; a scope whose parentheses do not balance).
function sameTools(skill, tools, where) {
  const read = skill.allowedTools ?? [];
  const i = tools.findIndex(([tool, scope], k) => read[k]?.tool !== tool || read[k]?.scope !== scope);
  if (i < 0 && read.length === tools.length) return;
  const k = i < 0 ? tools.length - 1 : i;
  throw new TypeError(`${where}.allowedTools[${k}] cannot be a SKILL.md's allowed tool: a tool name has no white space, comma or parenthesis, and a scope's parentheses balance`);
}

// options.tools as a function (tool, skill) → the host's names for the tool, or undefined
// for its own name.
function mapping(tools, where) {
  if (checked(tools, "mapping", where) === undefined) return () => undefined;
  const names = (value, at) => (value == null ? undefined : typeof value === "string" ? [value] : strings(value, at));
  if (isFunction(tools)) return (tool, skill) => names(tools(tool, skill), `${where}(${JSON.stringify(tool)})`);
  return (tool) => {
    const at = `${where}[${JSON.stringify(tool)}]`;
    return names(attempt(() => (Object.prototype.hasOwnProperty.call(tools, tool) ? tools[tool] : undefined), at), at);
  };
}

// The rows of `entries` (skills.rs `skill_rows`: skill, tool, active), each known to the
// routing as one the index made (host.js `exactRows`).
function rowsOf({ names, tools }, found) {
  const rows = new Array(found.length / 3);
  for (let i = 0; i < rows.length; i++) {
    const [skill, tool, active] = [names[found[3 * i]], found[3 * i + 1], found[3 * i + 2] === 1];
    rows[i] = Object.freeze(tool === NO_TOOL ? { skill, active } : { skill, tool: tools[tool], active });
    exactRows.add(rows[i]);
  }
  return Object.freeze(rows);
}

// SkillIndex.load: a snapshot's bytes, and the options a snapshot does not hold.
function load(bytes, options) {
  const where = "SkillIndex.load: options";
  const values = fields(options, OPTIONS, where);
  const extra = OPTIONS.findIndex((key, i) => (i === 1 || i > 3) && values[i] !== undefined);
  if (extra >= 0) throw new TypeError(`${where}.${OPTIONS[extra]}: a snapshot holds the skills' vectors, tools and disabled skills; load takes limit, embed and onEmbedError`);
  const [limit, embed, onEmbedError] = optionsOf(values.slice(0, 4), where);
  const view = attempt(() => realView(bytes), "SkillIndex.load: bytes");
  if (!(view instanceof Uint8Array)) throw mustBe("SkillIndex.load: bytes", "a Uint8Array (from skills.save())", bytes);
  const [table, ix] = [slot(), slot()];
  try {
    const to = (calls.to = new Skilled(undefined));
    if (!wasm.skills_load(table, ix, view, limit)) throw to.error ?? noRoom("SkillIndex.load: bytes");
    if (embed && wasm.dimensions(ix) === undefined) throw new TypeError("SkillIndex.load: options.embed needs a snapshot with vectors (this one has none)");
    return finishSkillIndex(Object.create(SkillIndex.prototype), table, ix, to.skills, to.lists[1], embed, onEmbedError);
  } catch (error) {
    throw (drop(table), drop(ix), error);
  }
}
