// Agent Skills as the procedural layer (SPEC 9), in Node.js: the skills folder beside this
// file (examples/skills/<name>/SKILL.md, laid out as .claude/skills is) loaded in one call,
// indexed with the host's tool names, and a conversation routed turn by turn. Each turn the
// model sees the tools of the relevant skills only, and a skill's instructions enter the
// conversation once, after the history, when the skill is first relevant (the step's
// newSkills). A skill the routing missed the model loads itself with load_skill.
// The model is a script (offline): each turn says which call it makes, if any.
//
//   npm install && npm run build && node examples/skills-node.mjs
//
// In your project, import from the package instead of ../dist:
//   import { PaletteRun, SkillIndex, ToolRouter } from "tool-palette";
//   import { readSkills } from "tool-palette/node";
import { PaletteRun, SkillIndex, ToolRouter } from "../dist/node.mjs";
import { readSkills } from "../dist/node/index.js";

// The host's tools. A skill names tools as its author knew them (`allowed-tools`); `tools`
// maps those names to the ones registered here.
const registered = ["run_sql", "bar_chart", "line_chart", "read_file", "search_files", "shell", "send_email", "web_search", "load_skill"];
const tools = { sql_query: "run_sql", chart: ["bar_chart", "line_chart"], Read: "read_file", Grep: "search_files", Bash: "shell" };

const skills = await readSkills(new URL("./skills/", import.meta.url), {
  onError: (error, path) => console.error(`skipped ${path}: ${error.message}`),
});
console.log(`skills: ${skills.map((s) => s.name).join(", ")}`);
for (const skill of skills) for (const warning of skill.warnings) console.log(`  warning (${skill.name}): ${warning}`);

const index = new SkillIndex(skills, { tools });
const router = new ToolRouter({ entries: index.entries, registered });
// "per-turn": each step offers exactly its palette (SPEC 8 has the strategies that keep the
// tools list as a cached prefix); load_skill is pinned, offered on every step.
const run = new PaletteRun({ registered, pinned: ["load_skill"], cache: "per-turn" });
const loadSkill = index.loadSkillTool({ run });

// The conversation as the provider gets it: a new skill's instructions are appended after
// the history, so everything sent before stays a cached prefix.
const messages = [];
const reveal = (names) => {
  for (const name of names) messages.push({ role: "user", content: `<skill name="${name}">\n${index.get(name).body}</skill>` });
};

const turns = [
  // A skill turned off (disable-model-invocation: true) is the only relevant one: every tool.
  { message: "Deploy the web site to production now" },
  // A skill of prose only: no tool to narrow to, but its instructions still enter the run.
  { message: "Here is the meeting transcript: write the minutes" },
  { message: "What were our sales in March, by region? A bar chart please." },
  // Names no skill: the history fills in.
  { message: "And the same figures for April" },
  // Routing misses the skill this needs (the history points at sales): the model loads it.
  { message: "Summarise what is new in v2.3 for our customers", calls: { query: "release notes" } },
];

for (const { message, calls } of turns) {
  console.log(`\nuser: ${message}`);
  const history = messages.filter((m) => m.role === "user" && !m.content.startsWith("<skill")).map((m) => m.content);
  messages.push({ role: "user", content: message });
  const outcome = await router.resolve({ context: { message, history } });
  let step = run.step(outcome);
  // (A turn whose outcome names no skill, e.g. a message no skill matches, has neither list.)
  const [turnSkills, newSkills] = [step.skills ?? [], step.newSkills ?? []];
  console.log(`  routing: ${outcome.kind === "routed" ? `routed to ${outcome.names.join(", ")}` : `${outcome.kind}: ${outcome.reason}`}`);
  console.log(`  skills: ${turnSkills.join(", ") || "(none)"}; new to the run: ${newSkills.join(", ") || "(none)"}`);
  console.log(`  offered: ${step.offered.join(", ")}`);
  reveal(newSkills);
  for (const name of newSkills) console.log(`  instructions of ${name} appended after the history (${index.get(name).body.split("\n").length} lines)`);
  if (calls) {
    const answer = loadSkill.call(calls);
    console.log(`  model called load_skill ${JSON.stringify(calls)}: ${answer.split("\n")[0]}`);
    messages.push({ role: "tool", content: answer });
    // The model's next step in the same turn: the loaded skill's tools are in the palette.
    step = run.step(outcome);
    console.log(`  next step offered: ${step.offered.join(", ")}`);
  }
}
console.log(`\nmessages sent: ${messages.length}, of them skill instructions: ${messages.filter((m) => m.content.startsWith("<skill")).length}`);
run.dispose();
router.dispose();
index.dispose();
