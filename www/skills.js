// The skills section (SPEC 9): SKILL.md texts → the package's parseSkill and SkillIndex →
// the relevant skills with their scores and tools, the palette (resolvePalette over the
// index's entries, with its decision report), and the instructions a PaletteRun reveals
// (its step's newSkills). Nothing here decides: rows, refusals and new skills are the
// package's answers; the page builds the inputs and shows them.
import { $, group, h, WHY } from "./view.js";

const md = (front, body) => `---\n${front.join("\n")}\n---\n${body}`;

// The skills the section starts with: two with tools, one of prose only, one turned off.
export const SKILLS = [
  md(
    ["name: weather-forecast", "description: Answer questions about the weather in a place (forecasts, temperature, rain and wind).", "allowed-tools: get_weather"],
    "# Weather\n\nCall `get_weather` with the city. Give the temperature in the unit the user wrote,\nand say how sure the forecast is.\n",
  ),
  md(
    ["name: sales-report", "description: Answer questions about sales figures by querying the sales database, and chart them when asked.", "allowed-tools: run_sql bar_chart"],
    "# Sales report\n\n1. Query the `sales` table with `run_sql`; never guess a figure.\n2. Give the total first, then the breakdown asked for.\n3. Chart it with `bar_chart` when the user asks for a chart.\n",
  ),
  md(
    ["name: meeting-notes", "description: Turn a meeting transcript into minutes with the decisions and action items."],
    "# Minutes\n\nThree sections: Decisions, Action items (an owner and a date each), Open questions.\nNever invent an owner.\n",
  ),
  md(
    ["name: deploy-production", "description: Deploy the web site to production once the checks have passed.", "disable-model-invocation: true", "allowed-tools: shell"],
    "# Deploy\n\nOnly when a person asked for it: run `./deploy.sh production` and report the version.\n",
  ),
];
const REGISTERED = ["get_weather", "run_sql", "bar_chart", "shell", "send_email", "web_search"];
const MESSAGE = "Will it rain in Lyon tomorrow?";
const NEW_SKILL = md(["name: new-skill", "description: Say what this skill is for, in the words a user would use."], "The instructions.\n");

let tp = null;
const state = { registered: [...REGISTERED], texts: [...SKILLS], message: MESSAGE };
// The conversation so far: the run's saved form (run.save()) and the messages sent; `note`
// says why the page started it over, until the next turn is sent.
let conversation = { saved: null, history: [], note: null };
let seq = 0;

/** Starts the section once the package (`tp`) is loaded. */
export function mountSkills(pkg) {
  tp = pkg;
  $("#skills-registered").value = state.registered.join("\n");
  $("#skills-message").value = state.message;
  $("#skills-registered").addEventListener("input", (e) => {
    state.registered = e.target.value.split("\n").map((s) => s.trim()).filter((s) => s !== "");
    update();
  });
  $("#skills-message").addEventListener("input", (e) => {
    state.message = e.target.value;
    update();
  });
  $("#add-skill").addEventListener("click", () => {
    state.texts.push(NEW_SKILL);
    renderFiles();
    update();
  });
  $("#skills-send").addEventListener("click", () => update({ send: true }));
  $("#skills-reset").addEventListener("click", () => {
    conversation = { saved: null, history: [], note: null };
    update();
  });
  renderFiles();
  update();
}

// The SKILL.md editors; each one's status (its name and warnings, or why it does not parse)
// is filled in by update().
function renderFiles() {
  $("#skill-files").replaceChildren(
    ...state.texts.map((text, i) =>
      h(
        "li",
        { class: "skill-file", dataset: { skill: String(i) } },
        h(
          "div",
          { class: "skill-head" },
          h("span", { class: "skill-status", dataset: { field: "skill-status" } }, ""),
          h("button", {
            type: "button",
            class: "icon",
            title: "remove this skill",
            "aria-label": `remove skill ${i + 1}`,
            onclick: () => {
              state.texts.splice(i, 1);
              renderFiles();
              update();
            },
          }, "×"),
        ),
        h("textarea", {
          class: "skill-text",
          rows: "7",
          spellcheck: "false",
          autocomplete: "off",
          "aria-label": `SKILL.md ${i + 1}`,
          oninput: (e) => {
            state.texts[i] = e.target.value;
            update();
          },
        }, text),
        h("div", { class: "skill-warnings", dataset: { field: "skill-warnings" } }),
      ),
    ),
  );
}

function showFile(i, parsed) {
  const li = document.querySelector(`#skill-files [data-skill="${i}"]`);
  if (!li) return;
  const status = li.querySelector('[data-field="skill-status"]');
  const warnings = li.querySelector('[data-field="skill-warnings"]');
  if (parsed.error) {
    status.className = "skill-status bad";
    status.textContent = `${parsed.error.name}`;
    warnings.replaceChildren(h("p", { class: "error-text" }, parsed.error.message));
    return;
  }
  const { skill } = parsed;
  const off = skill.frontmatter["disable-model-invocation"] === true;
  status.className = `skill-status${off ? " off" : ""}`;
  status.replaceChildren(
    h("code", {}, skill.name),
    h("span", { class: "muted" }, skill.allowedTools ? `tools: ${skill.allowedTools.map((t) => t.tool).join(", ")}` : "prose only"),
    ...(off ? [h("span", { class: "src" }, "disable-model-invocation: true")] : []),
  );
  warnings.replaceChildren(...skill.warnings.map((w) => h("p", { class: "hint" }, `warning: ${w}`)));
}

// One turn, live: the skills read and indexed, the message routed, a step of the run.
// `send`: the turn is taken (the run keeps it, the message joins the history).
async function update({ send = false } = {}) {
  if (!tp) return;
  const my = ++seq;
  const out = $("#skills-out");
  out.dataset.state = "pending";
  const parsed = state.texts.map((text) => {
    try {
      return { skill: tp.parseSkill(text) };
    } catch (error) {
      return { error };
    }
  });
  parsed.forEach((p, i) => showFile(i, p));
  const registered = [...state.registered];
  const message = state.message;
  const context = { message, history: [...conversation.history] };

  let index, run, outcome, rows, hits, decision, step;
  try {
    index = new tp.SkillIndex(parsed.filter((p) => p.skill).map((p) => p.skill));
    rows = index.entries(context);
    // The message's own scores, for every skill that has one.
    hits = index.search(message, { limit: Math.max(1, index.size) });
    outcome = await tp.resolvePalette({ registered, entries: () => rows, onDecision: (d) => (decision = d) });
    if (my !== seq) return;
    // The run so far; another registered list starts a new one (a run keeps the list it began with).
    if (conversation.saved) {
      try {
        run = tp.PaletteRun.load(conversation.saved, { registered });
      } catch (error) {
        conversation = { saved: null, history: [], note: `A new conversation: ${error.message}` };
      }
    }
    run ??= new tp.PaletteRun({ registered });
    step = run.step(outcome);
    if (send) conversation = { saved: run.save(), history: [...conversation.history, message], note: null };
  } catch (error) {
    if (my !== seq) return;
    out.dataset.state = "error";
    out.replaceChildren(h("p", { class: "error-text", dataset: { field: "skills-error" } }, `${error.name}: ${error.message}`));
    return;
  } finally {
    index?.dispose();
    run?.dispose();
  }
  const turns = conversation.history.length;
  $("#skills-turns").textContent = turns ? `${turns} turn${turns === 1 ? "" : "s"} taken` : "";
  render(out, { skills: parsed.filter((p) => p.skill).map((p) => p.skill), registered, rows, hits, outcome, decision, step, note: conversation.note });
}

function render(out, { skills, registered, rows, hits, outcome, decision, step, note }) {
  const byName = new Map(skills.map((s) => [s.name, s]));
  // The relevant skills, in the rows' order, each with its tools and whether it is active;
  // the score is the message's own (a skill the history brought in may have none).
  const scores = new Map(hits.map((hit) => [hit.name, hit.score]));
  const relevant = [];
  for (const row of rows) {
    let r = relevant.find((x) => x.name === row.skill);
    if (!r) relevant.push((r = { name: row.skill, active: row.active, tools: [] }));
    if (row.tool !== undefined) r.tools.push(row.tool);
  }
  const routed = outcome.kind === "routed";
  const parts = [];
  parts.push(
    h(
      "div",
      { class: `verdict ${routed ? "routed" : outcome.kind === "refused" ? "refused" : "unavailable"}` },
      h("span", { class: "kind", dataset: { field: "skills-kind" } }, routed ? "Routed" : outcome.kind === "refused" ? "RoutingRefusal" : "RoutingUnavailable"),
    ),
  );
  if (outcome.kind === "refused") {
    parts.push(
      h("div", { class: "label" }, "reason"),
      h("p", { class: "reason", dataset: { field: "skills-reason" } }, outcome.reason),
      h("p", { class: "rule" }, "SPEC rule ", h("strong", { dataset: { field: "skills-rule" } }, decision.rule), ": ", WHY[decision.rule]),
    );
  }
  parts.push(h("h4", { class: "dropped-title" }, "Relevant skills"));
  parts.push(
    relevant.length
      ? h(
          "ol",
          { class: "skill-hits", dataset: { field: "skills-relevant" } },
          relevant.map((r) =>
            h(
              "li",
              { dataset: { skill: r.name, active: String(r.active) } },
              h("code", {}, r.name),
              " ",
              h("span", { class: "score" }, scores.has(r.name) ? scores.get(r.name).toFixed(3) : "from the history"),
              " ",
              r.active ? null : h("span", { class: "src" }, "inactive"),
              " ",
              h("span", { class: "skill-tools" }, r.tools.length ? `→ ${r.tools.join(", ")}` : byName.get(r.name)?.allowedTools ? "→ no tool" : "prose only: no tool"),
            ),
          ),
        )
      : h("p", { class: "none", dataset: { field: "skills-relevant" } }, "none: no skill matches the message"),
  );
  parts.push(
    group(
      "Palette",
      "skills-palette",
      routed ? [...outcome.names] : [...new Set(registered)],
      routed ? "ok" : "muted",
      routed ? `the routed names: the model sees ${outcome.names.length} of ${new Set(registered).size} tools` : "a refusal: every registered tool stays available",
    ),
  );
  if (outcome.unresolved?.length) parts.push(group("Unresolved", "skills-unresolved", [...outcome.unresolved], "warn", "tools the relevant skills name that are not registered"));
  const fresh = step.newSkills ?? [];
  parts.push(h("h4", { class: "dropped-title" }, "Instructions the run reveals (step.newSkills)"));
  if (note) parts.push(h("p", { class: "hint", dataset: { field: "skills-note" } }, note));
  parts.push(
    fresh.length
      ? h(
          "div",
          { dataset: { field: "skills-instructions" } },
          fresh.map((name) => h("details", { class: "instructions", open: true, dataset: { skill: name } }, h("summary", {}, h("code", {}, name)), h("pre", {}, byName.get(name)?.body ?? ""))),
        )
      : h("p", { class: "none", dataset: { field: "skills-instructions" } }, step.skills?.length ? "none new: the run has them already" : "none"),
  );
  out.replaceChildren(...parts);
  out.dataset.state = "done";
}
