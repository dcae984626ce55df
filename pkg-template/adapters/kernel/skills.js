// Skills (SPEC 9) in the adapters: the `skills` option, the skills' rows joined with what the router routes, their instructions placed after the
// history, and the load_skill tool. Internal.
import { resolvePalette, SkillIndex } from "tool-palette";
import { errorText, fail, hasMethod, isFunction, isObject, isString, items, tryOr } from "./values.js";

/** `options.skills`: anything with a SkillIndex's `entries`, `get` and `loadSkillTool` (tool-palette/mcp's `run.skills`), or an iterable of skills. */
export function readSkills(value, where) {
  if (value == null) return null;
  if (["entries", "get", "loadSkillTool"].every((key) => hasMethod(value, key, `${where}.${key}`))) return value;
  if (isString(value) || !hasMethod(value, Symbol.iterator, `${where}[Symbol.iterator]`)) throw fail(where, "a SkillIndex or an iterable of skills (SKILL.md texts, or skills from parseSkill)", value);
  const skills = items(value, where);
  try {
    return new SkillIndex(skills);
  } catch (error) {
    throw new (error instanceof SyntaxError ? SyntaxError : TypeError)(errorText(error).replaceAll("SkillIndex: skills", where), { cause: error });
  }
}

export const instructions = (name, body, server) => `<skill name=${JSON.stringify(name)}${server ? ` server=${JSON.stringify(server)}` : ""}>\n${body}\n</skill>`;

// A user message's text and a user message of the instructions, unless a framework has its own (`said`, `make`).
const userSaid = (m) => (isObject(m) && m.role === "user" && typeof m.content === "string" ? m.content : undefined);
export const userMessage = (text) => ({ role: "user", content: text });

export function createSkills(source, { tool, runs }) {
  const texts = new Map(); // skill → its instructions (or the words saying they could not be read), read once
  const read = async (name) => {
    try {
      return isFunction(source.instructions) ? await source.instructions(name) : instructions(name, source.get(name)?.body ?? "");
    } catch (error) {
      return `The skill "${name}" could not be read: ${errorText(error)}`;
    }
  };
  const text = (name) => {
    if (!texts.has(name)) texts.set(name, read(name));
    return texts.get(name);
  };
  const loadTool = tool === false ? null : source.loadSkillTool({ name: tool });
  const def = loadTool && Object.freeze({ name: loadTool.name, description: loadTool.description, inputSchema: loadTool.inputSchema });

  // The skills' rows, best first, then what the router routed, in one resolution. An outcome that already names skills stands; and when the skills
  // name nothing, the router's own outcome and report stand (its refusal keeps its reason).
  async function route(asked, ctx, signal, registered) {
    const given = asked.outcome;
    if (given?.skills !== undefined) return asked;
    let decision = null;
    let mine = [];
    const theirs = given?.kind === "routed" ? [...given.names, ...given.unresolved] : given?.unresolved ?? [];
    const entries = async () => [...(mine = [...((await source.entries(ctx)) ?? [])]), ...theirs.map((name) => ({ tool: name }))];
    const outcome = await resolvePalette({ entries, registered, signal, onDecision: (d) => void (decision = d) });
    return mine.length === 0 && given !== undefined ? asked : { outcome, decision };
  }

  // load_skill's answer: the loaded skill's instructions, else the core's words (turned off, no match, malformed).
  async function load(args) {
    if (isString(args)) args = tryOr(() => JSON.parse(args));
    let picked = null;
    const run = { addSkill: (skill, tools) => (picked = [skill, tools]) };
    const answer = source.loadSkillTool({ name: def.name, run }).call(args);
    if (picked === null) return answer;
    runs.addSkill(...picked);
    source.loaded?.(...picked);
    return text(picked[0]);
  }

  // The messages with the instructions in place, each where it entered the conversation, so that the cached prefix is kept (`undefined`: none).
  // `once`: the conversation is kept where it is sent: the new ones are sent once, at the end.
  async function place(newSkills, messages, { said = userSaid, make = userMessage, once = false } = {}) {
    if (once) return newSkills.length ? [...messages, ...(await Promise.all(newSkills.map(text))).map(make)] : undefined;
    const host = await strip(messages, said);
    await Promise.all(newSkills.map(text)); // read before they are recorded as placed
    for (const skill of newSkills) runs.placed.push([skill, host.length]);
    if (runs.placed.length === 0) return undefined;
    const out = [];
    let next = 0;
    for (let i = 0; i <= host.length; i++) {
      while (next < runs.placed.length && (runs.placed[next][1] <= i || i === host.length)) out.push(make(await text(runs.placed[next++][0])));
      if (i < host.length) out.push(host[i]);
    }
    return out;
  }

  async function strip(messages, said = userSaid) {
    const ours = new Set(await Promise.all(runs.placed.map(([skill]) => text(skill))));
    return runs.placed.length ? messages.filter((m) => !ours.has(said(m))) : messages;
  }

  return { def, route, load, place, strip, text, source };
}
