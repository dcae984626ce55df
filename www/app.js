// The playground: inputs → the real package (dist/browser.js, served at /pkg/) → outcome.
//
// Nothing here decides anything the package decides: routing goes through
// resolvePalette / ToolRouter, policies through ToolPolicies. The page only builds the
// inputs, measures time, and shows the package's answers: the outcome, and the decision
// report (onDecision) that says which rule fired and what became of each row.
//
// Each demo is its own module: routing.js, policies.js, search.js and skills.js, over
// view.js (elements, chips) and page.js (the one state object). This file loads the package,
// wires the scenario (presets, URL hash) and starts them.
import { DEFAULT, PRESETS, POLICY_PRESETS, applyPreset, applyPolicyPreset, normalize, toHash, fromHash } from "./scenario.js";
import { $, h } from "./view.js";
import { commit, page } from "./page.js";
import { renderRoutingInputs, resolveNow, wireRouting } from "./routing.js";
import { renderPolicyInputs, runPolicies, wirePolicies } from "./policies.js";
import { renderToolsets, searchNow } from "./search.js";
import { mountSkills } from "./skills.js";

page.rerun = (route) => (route ? resolveNow() : runPolicies());

function renderInputs() {
  renderRoutingInputs();
  renderPolicyInputs();
}

// The page's own controls: the copy-link button, and a scenario pasted into the address bar.
function wirePage() {
  const on = (sel, ev, fn, opts) => $(sel).addEventListener(ev, fn, opts);
  on("#copy-link", "click", async () => {
    const status = $("#copy-status");
    try {
      await navigator.clipboard.writeText(location.href);
      status.textContent = "Link copied.";
    } catch {
      status.textContent = "Copy the address bar: it holds the scenario.";
    }
    setTimeout(() => (status.textContent = ""), 2500);
  });

  window.addEventListener("hashchange", () => {
    if (location.hash === page.lastHash) return;
    loadFromHash();
    resolveNow();
  });
}

const PRESET_GROUPS = [
  { name: "routed", test: (id) => id === "routed", cls: "routed" },
  { name: "refusals", test: (id) => id.startsWith("rule"), cls: "refusal" },
  { name: "unavailable", test: (id) => id.startsWith("unavailable"), cls: "unavailable" },
];

function renderPresets() {
  $("#presets").replaceChildren(
    ...PRESET_GROUPS.map((g) =>
      h(
        "span",
        { class: "preset-group" },
        h("span", { class: "group-name" }, g.name),
        PRESETS.filter((p) => g.test(p.id)).map((p) =>
          h(
            "button",
            {
              type: "button",
              class: `preset ${g.cls}`,
              dataset: { preset: p.id },
              title: p.title,
              onclick: () => {
                page.scenario = applyPreset(page.scenario, p.id);
                renderInputs();
                commit();
              },
            },
            p.label,
          ),
        ),
      ),
    ),
  );
  $("#policy-presets").replaceChildren(
    h("span", { class: "preset-group" }, h("span", { class: "group-name" }, "presets")),
    ...POLICY_PRESETS.map((p) =>
      h(
        "button",
        {
          type: "button",
          class: "preset for-policy",
          dataset: { policyPreset: p.id },
          title: p.title,
          onclick: () => {
            page.scenario = applyPolicyPreset(page.scenario, p.id);
            renderInputs();
            commit({ route: false });
          },
        },
        p.label,
      ),
    ),
  );
}

function loadFromHash() {
  const note = $("#hash-note");
  const parsed = fromHash(location.hash);
  note.hidden = true;
  if (parsed?.error) {
    note.textContent = `This link's scenario could not be loaded (${parsed.error}); showing the default scenario instead.`;
    note.hidden = false;
    page.scenario = normalize(DEFAULT);
  } else {
    page.scenario = parsed ? parsed.state : normalize(DEFAULT);
  }
  renderInputs();
  page.lastHash = toHash(page.scenario);
  history.replaceState(null, "", page.lastHash);
}

async function main() {
  renderPresets();
  loadFromHash();
  wireRouting();
  wirePolicies();
  wirePage();
  try {
    page.tp = await import("./pkg/browser.js");
    page.demoVectors = (await import("./demo-vectors.js")).default;
  } catch (e) {
    const banner = $("#load-error");
    banner.textContent = `The package could not be loaded from /pkg/browser.js (${e.message}). Build it first: npm run build.`;
    banner.hidden = false;
    $("#outcome").dataset.state = "error";
    return;
  }
  document.documentElement.dataset.ready = "true";
  resolveNow();
  renderToolsets();
  searchNow();
  mountSkills(page.tp);
}

main();
