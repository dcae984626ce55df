// tool-palette/mcp, skills (SPEC 9): the host's skills and those of every server that declares the MCP Skills extension in one SkillIndex, rebuilt
// at each listing. A server's skill is indexed from its entry (nothing is read ahead of need); its SKILL.md is read when first needed.
import { parseSkill, SkillIndex } from "tool-palette";
import { readSkillTool } from "../kernel/core.js";
import { instructions, readSkills } from "../kernel/skills.js";
import { allStrings, attempt, checked, errorText, fail, fields, isFunction, isObject, isString, kept, tryOr } from "../kernel/values.js";
import { definition, MAX_DEFINITION, pages, UNCHECKED } from "./listing.js";

const EXTENSION = "io.modelcontextprotocol/skills";

const declares = (client) => tryOr(() => isFunction(client.getServerCapabilities) && isObject(client.getServerCapabilities()?.extensions?.[EXTENSION]), false);

// The skills' options: the host's own skills (an index made of an iterable is disposed once read), the SkillIndex options each listing builds with
// (by the facade's rules), the servers that declare skills, and the load_skill tool's name.
export function readSkillOptions(given, clients, searchName, where) {
  const hostSkills = readSkills(given.skills, `${where}: options.skills`);
  if (hostSkills && !attempt(() => Array.isArray(hostSkills.names), `${where}: options.skills.names`)) throw fail(`${where}: options.skills`, "a SkillIndex or an iterable of skills (SKILL.md texts, or skills from parseSkill), not another run's skills", hostSkills);
  const skills = hostSkills ? hostSkills.names.map((name) => hostSkills.get(name)) : [];
  if (hostSkills && hostSkills !== given.skills) hostSkills.dispose();
  const skillIndex = fields(given.skillIndex ?? undefined, ["tools", "disabled", "limit"], `${where}: options.skillIndex`);
  checked(skillIndex.tools, "mapping", `${where}: options.skillIndex.tools`);
  if (skillIndex.disabled !== undefined) skillIndex.disabled = allStrings(skillIndex.disabled, `${where}: options.skillIndex.disabled`);
  checked(skillIndex.limit, "limit", `${where}: options.skillIndex.limit`);
  const skillServers = [...clients].filter(([, client]) => declares(client)).map(([name]) => name);
  const hasSkills = skills.length > 0 || skillServers.length > 0 || given.skills != null;
  const skillTool = readSkillTool(given.skillTool, `${where}: options.skillTool`, hasSkills);
  if (hasSkills && skillTool !== false && skillTool === searchName) {
    const clash = given.skillTool == null ? `options.searchTool is the name of the skill tool ("${skillTool}" unless options.skillTool names another)` : "options.skillTool is the name of the search tool";
    throw new TypeError(`${where}: ${clash}: give them two names`);
  }
  return { hasSkills, skillTool, skills, skillIndex, skillServers };
}

// A frontmatter as YAML's flow style (JSON), the way SKILL.md texts carry any skill the core reads.
const skillText = (frontmatter) => `---\n{${Object.entries(frontmatter).map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`).join(", ")}}\n---\n`;
const canonical = (v) => (Array.isArray(v) ? v.map(canonical) : isObject(v) ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, canonical(v[k])])) : v);
const same = (a, b) => JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
const hex = (buffer) => [...new Uint8Array(buffer)].map((b) => b.toString(16).padStart(2, "0")).join("");

function readEntry(entry) {
  const fm = isObject(entry) ? entry.frontmatter : undefined;
  if (!isObject(entry) || !isString(entry.uri) || !isObject(fm) || !isString(fm.name) || !isString(fm.description)) throw new TypeError("it is not a skill entry { uri, frontmatter: { name, description } }");
  if (entry.resources !== "dynamic" && !Array.isArray(entry.resources)) throw new TypeError(`its resources are neither a list nor "dynamic"`);
  return { uri: entry.uri, frontmatter: fm, resources: entry.resources };
}

export function createSkills(o, listing) {
  const { clients, listTimeoutMs, warn, skills: host, skillIndex: options, skillServers: servers, skillTool } = o;
  const entries = new Map(); // server → its entries
  const hostNames = new Set(host.map((skill) => skill.name));
  const map = (tool, skill) => (isFunction(options.tools) ? options.tools(tool, skill) : isObject(options.tools) && Object.hasOwn(options.tools, tool) ? options.tools[tool] : undefined);

  // A server's skill keeps its name unless another origin has it: then <server>__<name> (<server>__<its path> when one server lists it twice).
  listing.listen(async (l, relisted) => {
    await Promise.all(
      relisted.filter((server) => servers.includes(server)).map(async (server) => {
        const client = clients.get(server);
        const page = (params, opts) => client.request({ method: "skills/list", params: params ?? {} }, UNCHECKED, opts);
        const timedOut = () => new Error(`skills/list of server "${server}" timed out after ${listTimeoutMs} ms`);
        const failed = (error) => {
          warn(`SKILLS_FAILED:${server}`, `the skills of server "${server}" could not be listed (${errorText(error)}); they are left out until it lists again.`);
          return [];
        };
        entries.set(server, await pages(page, "skills", listTimeoutMs, timedOut, "skills/list").catch(failed));
      }),
    );
    const skipped = (server) => (error) => warn(`SKILL_SKIPPED:${server}`, `a skill entry of server "${server}" was left out: ${errorText(error)}.`);
    const read = [...entries].flatMap(([server, list]) => list.flatMap((entry) => kept(() => ({ server, ...readEntry(entry) }), skipped(server))));
    const count = new Map();
    for (const name of [...hostNames, ...read.map((s) => s.frontmatter.name)]) count.set(name, (count.get(name) ?? 0) + 1);
    const taken = new Set(hostNames);
    const byName = new Map(); // a server skill's name here → { server, uri, frontmatter, resources }
    const skills = [...host];
    for (const s of read) {
      let name = count.get(s.frontmatter.name) > 1 ? `${s.server}__${s.frontmatter.name}` : s.frontmatter.name;
      if (taken.has(name)) name = `${s.server}__${s.uri.replace(/^[a-z][a-z0-9+.-]*:\/\//i, "").replace(/\/SKILL\.md$/, "")}`;
      try {
        if (taken.has(name)) throw new TypeError(`"${name}" is already the name of another skill`);
        skills.push(parseSkill(skillText({ ...s.frontmatter, name })));
        taken.add(name);
        byName.set(name, s);
      } catch (error) {
        warn(`SKILL_SKIPPED:${s.server}`, `the skill ${s.uri} of server "${s.server}" was left out: ${errorText(error)}.`);
      }
    }
    // A server's skill's tools: that server's tools first (their palette names), else the host's mapping.
    const own = new Map([...l.byName].map(([name, t]) => [`${t.server}\u0000${t.name}`, name]));
    const tools = (tool, skill) => own.get(`${byName.get(skill.name)?.server}\u0000${tool}`) ?? map(tool, skill);
    const index = new SkillIndex(skills, { tools, ...(options.disabled === undefined ? {} : { disabled: options.disabled }), ...(options.limit === undefined ? {} : { limit: options.limit }) });
    l.skills = { index, byName, texts: new Map() };
    // The load_skill tool is sent with the pinned tools: its definition counts among those offered.
    if (skillTool !== false) l.sizes.set(skillTool, definition(skillTool, index.loadSkillTool({ name: skillTool })));
  });

  // A server skill's SKILL.md, checked against its entry (size and digest when listed, frontmatter always); a mismatch refreshes the entry, once.
  async function read(s, refreshed = false) {
    const client = clients.get(s.server);
    const large = (size) => new RangeError(`the SKILL.md at ${s.uri} is ${size.toLocaleString("en-US")} bytes, more than ${MAX_DEFINITION.toLocaleString("en-US")} (too large to give a model)`);
    const listed = Array.isArray(s.resources) ? s.resources.find((r) => isObject(r) && r.uri === s.uri) : undefined;
    if (listed?.size > MAX_DEFINITION) throw large(listed.size);
    const result = isFunction(client.readResource) ? await client.readResource({ uri: s.uri }) : await client.request({ method: "resources/read", params: { uri: s.uri } }, UNCHECKED);
    const contents = isObject(result) && Array.isArray(result.contents) ? result.contents : [];
    const content = contents.find((c) => isObject(c) && c.uri === s.uri) ?? contents[0];
    // A blob's size and digest are its raw bytes' (a BOM included: parseSkill reads one).
    const raw = !isString(content?.text) && isString(content?.blob) ? Uint8Array.from(atob(content.blob), (c) => c.charCodeAt(0)) : null;
    const text = isString(content?.text) ? content.text : raw ? tryOr(() => new TextDecoder("utf-8", { ignoreBOM: true, fatal: true }).decode(raw), false) : null;
    let why = text === null ? "it has no text" : text === false ? "its blob is not UTF-8 text" : null;
    const bytes = why === null ? raw ?? new TextEncoder().encode(text) : null;
    if (bytes?.length > MAX_DEFINITION) throw large(bytes.length);
    if (why === null && Array.isArray(s.resources)) {
      if (!listed) why = "its entry lists no SKILL.md";
      else if (typeof listed.size === "number" && bytes.length !== listed.size) why = `it is ${bytes.length} bytes, its entry says ${listed.size}`;
      else if (typeof listed.digest === "string" && `sha256:${hex(await globalThis.crypto.subtle.digest("SHA-256", bytes))}` !== listed.digest) why = "its SHA-256 digest is not its entry's";
    }
    const [skill] = why === null ? kept(() => parseSkill(text), (error) => void (why = errorText(error))) : [];
    if (skill && !same(skill.frontmatter, s.frontmatter)) why = "its frontmatter is not its entry's";
    if (why === null) return skill.body;
    if (refreshed) throw new Error(`the SKILL.md at ${s.uri} does not match its entry: ${why}`);
    const got = await client.request({ method: "skills/get", params: { uri: s.uri } }, UNCHECKED);
    return read({ ...s, ...readEntry(isObject(got) ? got.skill : undefined) }, true);
  }

  // Before the first listing: an index of no skill (its load_skill tool's definition is the same).
  let none = null;
  const current = () => listing.latest()?.skills ?? { index: (none ??= new SkillIndex([])), byName: new Map(), texts: new Map() };

  const source = (loaded) => ({
    entries: (ctx) => current().index.entries(ctx),
    get: (name) => current().index.get(name),
    loadSkillTool: (opts) => current().index.loadSkillTool(opts),
    loaded,
    async instructions(name) {
      const { index, byName, texts } = current();
      const s = byName.get(name);
      if (!s) return instructions(name, index.get(name)?.body ?? "");
      if (!texts.has(name)) texts.set(name, read(s).catch((error) => (texts.delete(name), Promise.reject(error))));
      return instructions(name, await texts.get(name), s.server);
    },
  });

  return { source };
}
