// Agent Skills as the procedural layer (SPEC 9) in a Cloudflare Worker: no file system, so
// the skills are texts: the SKILL.md files of ../skills bundled in (wrangler.jsonc's Text
// rule); they could as well come from KV or R2 (`await env.SKILLS.get("sales-report")`).
// Each POST is one turn of a conversation: routed by the skills, stepped in the run the
// client sends back (run.save(), a short string), and answered with the palette, the
// relevant skills and the instructions of those new to the run.
//
//   npm install && npm run build        (at the repository's root)
//   cd examples/skills-worker && npx wrangler dev
//   curl -s localhost:8787 -d '{"message":"What were our sales in March?"}'
//
// In your project, import from the package instead of ../../dist:
//   import { PaletteRun, SkillIndex, ToolRouter } from "tool-palette";
import { PaletteRun, SkillIndex, ToolRouter } from "../../dist/workerd.js";
import deployProduction from "../skills/deploy-production/SKILL.md";
import meetingNotes from "../skills/meeting-notes/SKILL.md";
import releaseNotes from "../skills/release-notes/SKILL.md";
import salesReport from "../skills/sales-report/SKILL.md";

// The host's tools, and its names for the tools the skills' authors named.
const registered = ["run_sql", "bar_chart", "line_chart", "read_file", "search_files", "shell", "send_email", "web_search", "load_skill"];
const tools = { sql_query: "run_sql", chart: ["bar_chart", "line_chart"], Read: "read_file", Grep: "search_files", Bash: "shell" };

// Built once per isolate, at global scope, and shared by every request it serves.
const index = new SkillIndex([deployProduction, meetingNotes, releaseNotes, salesReport], { tools });
const router = new ToolRouter({ entries: index.entries, registered });

const json = (body, status = 200) => new Response(JSON.stringify(body, null, 2), { status, headers: { "content-type": "application/json" } });

export default {
  async fetch(request) {
    if (request.method !== "POST") {
      return json({ skills: index.names, usage: 'POST {"message": "…", "history": ["earlier messages"], "run": "<the run field of the last answer>", "loadSkill": {"query": "…"}}' });
    }
    let turn;
    try {
      turn = await request.json();
      if (typeof turn?.message !== "string") throw new TypeError("message must be a string");
    } catch (error) {
      return json({ error: `the body is not a turn: ${error.message}` }, 400);
    }
    let run;
    try {
      run = turn.run ? PaletteRun.load(turn.run, { registered }) : new PaletteRun({ registered, pinned: ["load_skill"], cache: "per-turn" });
    } catch (error) {
      return json({ error: error.message }, 400);
    }
    try {
      const outcome = await router.resolve({ context: { message: turn.message, history: turn.history ?? [] } });
      let step = run.step(outcome);
      // (A turn whose outcome names no skill, e.g. a message no skill matches, has neither list.)
      const newSkills = step.newSkills ?? [];
      const answer = {
        routing: outcome.kind === "routed" ? { routed: outcome.names } : { refused: outcome.reason },
        skills: step.skills ?? [],
        newSkills,
        // What the host appends after the history this turn: the new skills' instructions.
        instructions: Object.fromEntries(newSkills.map((name) => [name, index.get(name).body])),
        offered: step.offered,
      };
      // The model called load_skill: its answer, and the next step's palette with the skill's tools.
      if (turn.loadSkill !== undefined) {
        answer.loadSkill = index.loadSkillTool({ run }).call(turn.loadSkill);
        step = run.step(outcome);
        answer.nextOffered = step.offered;
      }
      answer.run = run.save();
      return json(answer);
    } finally {
      run.dispose(); // the run lives on in its saved form, carried by the client
    }
  },
};
