// The conversation of saved-runs.test.mjs, shared with its child process: skills, cache "append" (the tools
// list only grows, so the provider's cached prefix holds), a first turn that loads a skill (its tools join)
// and a second turn that a run without the first turn's state would take differently.
import { MEETING, SALES, SKILLS } from "./skills-fixtures.mjs";

export const OPTIONS = { skills: SKILLS, cache: "append" };
export const TURNS = [
  { message: SALES, answers: [["sql_query", { q: "march" }], ["load_skill", { name: "scheduling" }], "done"] },
  { message: MEETING, answers: [["calendar", { q: "monday" }], "booked"] },
];
/** A step's report, without its timings. */
export const facts = (r) => ({ step: r.step, rule: r.routing?.rule ?? null, offered: r.offered, listed: r.listed, kept: r.kept, skills: r.skills, newSkills: r.newSkills });
