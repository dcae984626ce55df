// Skills (SPEC 9) in the adapters: the `skills` option, each step routed by the skills' rows joined with what the router routes, the instructions of
// the skills new to the run placed after the history, and the `load_skill` tool wired to the run. Internal.
import { resolvePalette, SkillIndex } from "tool-palette";
import { errorText, fail, hasMethod, isFunction, isString, items, tryOr } from "./values.js";

/**
 * `options.skills`: a SkillIndex (anything with its `entries`, `get` and `loadSkillTool`, such as tool-palette/mcp's `run.skills`, whose
 * `instructions(name)` reads a server's skill), or an iterable of skills or SKILL.md texts, indexed here; `null` without.
 */
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

/** A skill's instructions as the model is given them: its body in a `skill` element naming it (and the MCP server it came from). */
export const instructions = (name, body, server) => `<skill name=${JSON.stringify(name)}${server ? ` server=${JSON.stringify(server)}` : ""}>\n${body}\n</skill>`;

/** What the model is told of a skill whose instructions could not be read (`error`). */
export const unreadable = (name, error) => `The skill "${name}" could not be read: ${errorText(error)}`;

/**
 * The skills of one adapter instance over `source` (see readSkills), its load_skill tool named `tool` (or none: `false`) wired to `runs`
 * (kernel/runs.js), whose `placed` are the instructions placed in the conversation.
 */
export function createSkills(source, { tool, runs }) {
  const texts = new Map(); // skill → its instructions (or the words saying they could not be read), read once
  const read = async (name) => {
    try {
      return isFunction(source.instructions) ? await source.instructions(name) : instructions(name, source.get(name)?.body ?? "");
    } catch (error) {
      return unreadable(name, error);
    }
  };
  const text = (name) => {
    if (!texts.has(name)) texts.set(name, read(name));
    return texts.get(name);
  };
  const made = tool === false ? null : source.loadSkillTool({ name: tool });
  const def = made && Object.freeze({ name: made.name, description: made.description, inputSchema: made.inputSchema });

  /**
   * One routing with the skills: the skills' rows for `ctx`, best skill first, then what the router routed (`asked`, its names and unresolved
   * candidates as rows), decided in one resolution over `registered`. A router whose outcome already names skills routed by them (a ToolRouter over
   * `skills.entries`, tool-palette/mcp's run): it stands; and when the skills name nothing, the router's own outcome and report stand (its refusal
   * keeps its reason).
   */
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

  /**
   * load_skill's answer to `args` (SPEC 9): the instructions of the skill loaded by name or query, which is then no longer new to the run and whose
   * tools join its later steps; else the core's words (turned off, no match, malformed).
   */
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

  /**
   * The step's messages with the run's skill instructions in place (SPEC 9): each where it entered the conversation, those new to the run after the
   * history now, so that the cached prefix is kept. `said(m)` is a user message's text (to tell the instructions placed apart), `make(text)` a user
   * message. `undefined` when none was placed. `once`: the conversation is kept where it is sent (a server-managed one): the new ones are sent once,
   * at the end.
   */
  async function place(newSkills, messages, { said, make, once = false }) {
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

  /** The host's messages: `messages` without the instructions placed. */
  async function strip(messages, said) {
    const ours = new Set(await Promise.all(runs.placed.map(([skill]) => text(skill))));
    return runs.placed.length ? messages.filter((m) => !ours.has(said(m))) : messages;
  }

  return { def, route, load, place, strip, text, source };
}
