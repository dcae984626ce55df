// The playground: inputs → the real package (dist/browser.js, served at /pkg/) → outcome.
//
// Nothing here decides anything the package decides: routing goes through
// resolvePalette / ToolRouter, policies through ToolPolicies. The page only builds the
// inputs, measures time, and shows the package's answers: the outcome, and the decision
// report (onDecision) that says which rule fired and what became of each row.
import {
  DEFAULT,
  PRESETS,
  POLICY_PRESETS,
  ROW_KINDS,
  applyPreset,
  applyPolicyPreset,
  normalize,
  toHash,
  fromHash,
  rowValue,
  rowLiteral,
} from "./scenario.js";
import { $, group, h, WHY } from "./view.js";
import { mountSkills } from "./skills.js";

// ------------------------------------------------------------------ rows' fates

// How the page shows each row's fate: the badge's style and its label.
const FATES = {
  routed: ["routed", "routed"],
  duplicate: ["duplicate", "duplicate"],
  unresolved: ["unresolved", "unresolved"],
  inactive: ["inactive", "inactive"],
  "no-candidate": ["skipped", "no candidate"],
};

// ------------------------------------------------------------------ state

let tp = null; // the package module
let state = normalize(DEFAULT);
let lastHash = "";

function commit({ route = true } = {}) {
  lastHash = toHash(state);
  history.replaceState(null, "", lastHash);
  if (route) resolveNow();
  else runPolicies();
}

// ------------------------------------------------------------------ inputs ← state

function renderInputs() {
  $("#registered").value = state.registered.join("\n");
  for (const r of document.querySelectorAll('input[name="layer"]')) r.checked = r.value === state.layer;
  for (const r of document.querySelectorAll('input[name="api"]')) r.checked = r.value === state.api;
  $("#retrieval").value = state.retrieval;
  $("#error-name").value = state.errorName;
  $("#latency").value = String(state.latencyMs);
  $("#timeout-on").checked = state.timeoutOn;
  $("#timeout").value = String(state.timeoutMs);
  $("#resolver-model").value = state.resolverModel;
  $("#message").value = state.message;
  $("#call-name").value = state.call.name;
  $("#call-id").value = state.call.id;
  $("#call-args").value = state.call.args;
  renderRows();
  renderPolicies();
  renderDerived();
}

// Bits of the inputs that follow from the state (counts, enabled states, previews).
function renderDerived() {
  const n = state.registered.length;
  $("#registered-count").textContent = n === 0 ? "No tools registered." : `${n} registered tool${n === 1 ? "" : "s"}.`;
  $("#latency-out").textContent = `${state.latencyMs} ms`;
  $("#timeout").disabled = !state.timeoutOn;
  $("#error-name").disabled = state.retrieval !== "fail" || state.layer === "off";
  $("#retrieval").disabled = state.layer === "off";
  $("#rows-box").classList.toggle("off", state.layer === "off");
  $("#rows-preview").textContent = state.layer === "off" ? "entries is null: nothing is called" : previewRows();
  const list = $("#registered-list");
  list.replaceChildren(...state.registered.map((name) => h("option", { value: name })));
}

function previewRows() {
  const body = state.rows.map((r) => "  " + rowLiteral(r)).join(",\n");
  const rows = state.rows.length ? `[\n${body},\n]` : "[]";
  if (state.retrieval === "fail") {
    return `async () => {\n  // after ${state.latencyMs} ms\n  throw Object.assign(new Error("store is down"), { name: ${JSON.stringify(state.errorName)} });\n}`;
  }
  return `async () => /* after ${state.latencyMs} ms */ ${rows}`;
}

const KIND_LABEL = { string: '"string"', tool: "{ tool }", toolName: "{ toolName }", content: "{ content }" };

function renderRows() {
  const body = $("#rows");
  body.replaceChildren(
    ...state.rows.map((r, i) =>
      h(
        "tr",
        { dataset: { row: String(i) }, class: r.kind !== "string" && !r.active ? "inactive" : "" },
        h("td", { class: "idx" }, String(i)),
        h(
          "td",
          {},
          h(
            "select",
            {
              "aria-label": `row ${i} shape`,
              class: "row-kind",
              onchange: (e) => {
                state.rows[i].kind = e.target.value;
                renderRows();
                commit();
              },
            },
            ROW_KINDS.map((k) => h("option", { value: k, selected: k === r.kind }, KIND_LABEL[k])),
          ),
        ),
        h(
          "td",
          { class: "value" },
          h("input", {
            type: "text",
            class: "row-value",
            value: r.value,
            spellcheck: "false",
            autocomplete: "off",
            "aria-label": `row ${i} value`,
            oninput: (e) => {
              state.rows[i].value = e.target.value;
              commit();
            },
          }),
        ),
        h(
          "td",
          { class: "act" },
          h("input", {
            type: "checkbox",
            class: "row-active",
            checked: r.kind === "string" ? true : r.active,
            disabled: r.kind === "string",
            title: r.kind === "string" ? "a string row is always active" : "active",
            "aria-label": `row ${i} active`,
            onchange: (e) => {
              state.rows[i].active = e.target.checked;
              e.target.closest("tr").classList.toggle("inactive", !e.target.checked);
              commit();
            },
          }),
        ),
        h("td", { class: "fate" }, h("span", { class: "badge", dataset: { fate: "" } }, "")),
        h(
          "td",
          {},
          h(
            "button",
            {
              type: "button",
              class: "icon",
              title: "remove row",
              "aria-label": `remove row ${i}`,
              onclick: () => {
                state.rows.splice(i, 1);
                renderRows();
                commit();
              },
            },
            "×",
          ),
        ),
      ),
    ),
  );
  if (state.rows.length === 0) {
    body.append(h("tr", { class: "empty" }, h("td", { colspan: "6" }, "No rows: the procedural layer answers with an empty list.")));
  }
  renderFates();
}

// What became of each row, as the decision report of the shown outcome says.
let shownDecision = null;
let shownRows = null; // the rows the shown outcome was resolved from

function rowFate(i, decision) {
  const row = decision?.rows[i];
  return row ? FATES[row.fate] : ["", "not read"];
}

function renderFates() {
  const stale = shownRows !== JSON.stringify(state.rows);
  document.querySelectorAll("#rows tr[data-row]").forEach((tr) => {
    const badge = tr.querySelector(".badge");
    const [fate, label] = stale ? ["", "…"] : rowFate(Number(tr.dataset.row), shownDecision);
    badge.dataset.fate = fate;
    badge.textContent = label;
  });
}

const GUARDS = [
  ["none", "none"],
  ["pass", "passes"],
  ["fail", "fails"],
];

function renderPolicies() {
  const list = $("#policies");
  const field = (i, key, label, placeholder) =>
    h(
      "label",
      { class: `pfield pf-${key}` },
      h("span", {}, label),
      h("input", {
        type: "text",
        value: state.policies[i][key],
        placeholder,
        spellcheck: "false",
        autocomplete: "off",
        dataset: { key },
        oninput: (e) => {
          state.policies[i][key] = e.target.value;
          commit({ route: false });
        },
      }),
    );
  list.replaceChildren(
    ...state.policies.map((p, i) =>
      h(
        "li",
        { class: "policy", dataset: { policy: String(i) } },
        h("span", { class: "pidx", "aria-hidden": "true" }, String(i + 1)),
        field(i, "name", "name", "required"),
        field(i, "keyword", "match: message contains", "(any message)"),
        h(
          "label",
          { class: "pfield pf-guard" },
          h("span", {}, "guard"),
          h(
            "select",
            {
              dataset: { key: "guard" },
              onchange: (e) => {
                state.policies[i].guard = e.target.value;
                commit({ route: false });
              },
            },
            GUARDS.map(([v, l]) => h("option", { value: v, selected: v === p.guard }, l)),
          ),
        ),
        h(
          "button",
          {
            type: "button",
            class: "icon premove",
            title: "remove policy",
            "aria-label": `remove policy ${p.name || i + 1}`,
            onclick: () => {
              state.policies.splice(i, 1);
              renderPolicies();
              commit({ route: false });
            },
          },
          "×",
        ),
        field(i, "whenTool", "whenTool (comma-separated)", "(any tool)"),
        field(i, "redirectTo", "redirectTo", "(no redirect)"),
        field(i, "model", "model", "(no model)"),
      ),
    ),
  );
  if (state.policies.length === 0) {
    list.append(h("li", { class: "empty" }, "No policies: the resolver or the default model reasons, and every call dispatches as emitted."));
  }
}

// ------------------------------------------------------------------ inputs → state

function wireInputs() {
  const on = (sel, ev, fn, opts) => $(sel).addEventListener(ev, fn, opts);
  on("#registered", "input", (e) => {
    state.registered = e.target.value
      .split("\n")
      .map((s) => s.trim())
      .filter((s) => s !== "");
    renderDerived();
    commit();
  });
  for (const r of document.querySelectorAll('input[name="layer"]')) {
    r.addEventListener("change", () => {
      state.layer = r.value;
      renderDerived();
      commit();
    });
  }
  for (const r of document.querySelectorAll('input[name="api"]')) {
    r.addEventListener("change", () => {
      state.api = r.value;
      commit();
    });
  }
  on("#retrieval", "change", (e) => {
    state.retrieval = e.target.value;
    renderDerived();
    commit();
  });
  on("#error-name", "input", (e) => {
    state.errorName = e.target.value;
    renderDerived();
    commit();
  });
  on("#latency", "input", (e) => {
    state.latencyMs = Number(e.target.value);
    renderDerived();
    commit();
  });
  on("#timeout-on", "change", (e) => {
    state.timeoutOn = e.target.checked;
    renderDerived();
    commit();
  });
  on("#timeout", "input", (e) => {
    const v = e.target.valueAsNumber;
    if (!Number.isFinite(v) || v < 0) return; // half-typed: keep the last valid budget
    state.timeoutMs = v;
    commit();
  });
  for (const b of document.querySelectorAll("[data-add]")) {
    b.addEventListener("click", () => {
      const kind = b.dataset.add;
      const value = kind === "content" ? "Use the search when the user asks about news" : kind === "tool" ? "read_file" : "new_tool";
      state.rows.push({ kind, value, active: true });
      renderRows();
      renderDerived();
      commit();
    });
  }
  on("#add-policy", "click", () => {
    const used = new Set(state.policies.map((p) => p.name));
    let n = state.policies.length + 1;
    while (used.has(`policy-${n}`)) n++;
    state.policies.push({ name: `policy-${n}`, keyword: "", whenTool: "", redirectTo: "", model: "", guard: "none" });
    renderPolicies();
    commit({ route: false });
  });
  on("#resolver-model", "input", (e) => {
    state.resolverModel = e.target.value;
    commit({ route: false });
  });
  on("#message", "input", (e) => {
    state.message = e.target.value;
    commit({ route: false });
  });
  on("#call-name", "input", (e) => {
    state.call.name = e.target.value;
    commit({ route: false });
  });
  on("#call-id", "input", (e) => {
    state.call.id = e.target.value;
    commit({ route: false });
  });
  on("#call-args", "input", (e) => {
    state.call.args = e.target.value;
    commit({ route: false });
  });

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
    if (location.hash === lastHash) return;
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
                state = applyPreset(state, p.id);
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
            state = applyPolicyPreset(state, p.id);
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
    state = normalize(DEFAULT);
  } else {
    state = parsed ? parsed.state : normalize(DEFAULT);
  }
  renderInputs();
  lastHash = toHash(state);
  history.replaceState(null, "", lastHash);
}

// ------------------------------------------------------------------ routing

let seq = 0; // the newest resolution; only its answer may be shown
let inflight = null; // its AbortController
let stale = 0; // answers that arrived after a newer resolution had started

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// The procedural layer of a scenario: a fresh thunk whose answer is built from a copy.
function entriesOf(s) {
  if (s.layer === "off") return null;
  const rows = s.rows.map(rowValue);
  return async () => {
    if (s.latencyMs > 0) await sleep(s.latencyMs);
    if (s.retrieval === "fail") {
      const error = new Error("store is down");
      error.name = s.errorName;
      throw error;
    }
    return rows;
  };
}

async function resolveNow() {
  if (!tp) return; // the package is still loading; main() resolves once it is in
  const my = ++seq;
  inflight?.abort(new DOMException("superseded by a newer scenario", "AbortError"));
  const controller = new AbortController();
  inflight = controller;

  const s = JSON.parse(JSON.stringify(state));
  const el = $("#outcome");
  el.dataset.state = "pending";
  el.classList.add("pending");
  renderFates();

  const timeoutMs = s.timeoutOn ? s.timeoutMs : undefined;
  const warnings = [];
  let outcome = null;
  let decision = null;
  let error = null;
  const onDecision = (d) => (decision = d);
  const t0 = performance.now();
  try {
    const entries = entriesOf(s);
    if (s.api === "ToolRouter") {
      const router = new tp.ToolRouter({ entries, registered: s.registered, timeoutMs, onDecision, onWarning: (w) => warnings.push(w) });
      outcome = await router.resolve({ signal: controller.signal });
    } else {
      outcome = await tp.resolvePalette({ entries, registered: s.registered, timeoutMs, onDecision, signal: controller.signal });
    }
  } catch (e) {
    error = e;
  }
  const ms = performance.now() - t0;
  if (my !== seq) {
    // A newer scenario started while this one was resolving: its answer is stale.
    stale++;
    return;
  }
  inflight = null;
  shownDecision = decision;
  shownRows = JSON.stringify(s.rows);
  renderOutcome(s, { outcome, decision, error, ms, warnings, seq: my });
  renderFates();
  runPolicies();
}

const fmtMs = (ms) => (ms < 10 ? `${ms.toFixed(1)} ms` : `${Math.round(ms)} ms`);

// The rows the report says were inactive, by the text the page gave them.
function inactiveNames(s, decision) {
  return decision.rows.filter((r) => r.fate === "inactive").map((r) => s.rows[r.index].value.trim() || "(empty)");
}

function renderOutcome(s, { outcome, decision, error, ms, warnings, seq: my }) {
  const el = $("#outcome");
  el.classList.remove("pending");
  const api = s.api === "ToolRouter" ? "router.resolve()" : "resolvePalette()";
  const time = h("span", { class: "time", dataset: { field: "time" } }, `${api} answered in ${fmtMs(ms)}`);
  const parts = [];

  if (error) {
    el.dataset.kind = "error";
    parts.push(
      h("div", { class: "verdict error" }, h("span", { class: "kind", dataset: { field: "kind" } }, "Rejected"), time),
      h("p", { class: "reason", dataset: { field: "reason" } }, `${error?.name ?? typeof error}: ${error?.message ?? String(error)}`),
      h("p", { class: "muted" }, "Only the caller's own mistakes reject; this page should never cause one. Please report it."),
    );
  } else if (outcome.kind === "routed") {
    el.dataset.kind = "routed";
    parts.push(
      h("div", { class: "verdict routed" }, h("span", { class: "kind", dataset: { field: "kind" } }, "Routed"), time),
      h(
        "p",
        { class: "summary", dataset: { field: "summary" } },
        `${outcome.names.length} of ${new Set(s.registered).size} registered tools go to the model this turn.`,
      ),
      group("Routed names", "names", [...outcome.names], "ok"),
      h("h4", { class: "dropped-title" }, "Dropped out"),
      group("Unresolved", "unresolved", [...outcome.unresolved], "warn", "active candidates that are not registered tools"),
      group("Inactive", "inactive", inactiveNames(s, decision), "off", "rows with active: false, skipped"),
      group("Not routed", "held", [...decision.hidden], "muted", "registered, but no active row named them"),
    );
  } else if (outcome.kind === "refused") {
    el.dataset.kind = "refused";
    const rule = decision.rule;
    parts.push(
      h("div", { class: "verdict refused" }, h("span", { class: "kind", dataset: { field: "kind" } }, "RoutingRefusal"), time),
      h("p", { class: "summary", dataset: { field: "summary" } }, `Every registered tool is allowed (${new Set(s.registered).size}): a refusal never means “none”.`),
      h("div", { class: "label" }, "reason"),
      h("p", { class: "reason", dataset: { field: "reason" } }, outcome.reason),
      h(
        "p",
        { class: "rule" },
        "SPEC rule ",
        h("strong", { dataset: { field: "rule" } }, rule),
        ": ",
        WHY[rule],
      ),
    );
    if (rule === "4" || rule === "5") {
      parts.push(h("h4", { class: "dropped-title" }, "Dropped out"));
      parts.push(group("Unresolved", "unresolved", [...outcome.unresolved], "warn", "active candidates that are not registered tools"));
      parts.push(group("Inactive", "inactive", inactiveNames(s, decision), "off", "rows with active: false, skipped"));
    } else if (outcome.unresolved.length) {
      parts.push(group("Unresolved", "unresolved", [...outcome.unresolved], "warn"));
    }
  } else if (outcome.kind === "unavailable") {
    el.dataset.kind = "unavailable";
    parts.push(
      h("div", { class: "verdict unavailable" }, h("span", { class: "kind", dataset: { field: "kind" } }, "RoutingUnavailable"), time),
      h(
        "p",
        { class: "summary", dataset: { field: "summary" } },
        "A composition report, not a refusal: this router lacks a prerequisite, so it keeps the full palette on every turn without asking anything.",
      ),
      group("missing", "missing", [...outcome.missing], "warn"),
    );
  }

  if (!error) {
    const active = tp.activeTools(outcome);
    parts.push(
      h(
        "p",
        { class: "active-tools" },
        h("code", {}, "activeTools(outcome)"),
        " → ",
        h("code", { dataset: { field: "active-tools" } }, active === undefined ? "undefined" : JSON.stringify(active)),
        active === undefined ? h("span", { class: "muted" }, " (every tool)") : null,
      ),
    );
  }
  for (const w of warnings) {
    parts.push(
      h(
        "div",
        { class: "warning", dataset: { field: "warning" } },
        h("strong", { dataset: { field: "warning-name" } }, w.name),
        " ",
        h("span", { dataset: { field: "warning-message" } }, w.message),
        h("div", { class: "muted small" }, "delivered once, to onWarning, when the router was constructed"),
      ),
    );
  }
  if (!error) {
    parts.push(h("details", { class: "json" }, h("summary", {}, "JSON.stringify(outcome)"), h("pre", { dataset: { field: "json" } }, JSON.stringify(outcome, null, 2))));
    parts.push(
      h(
        "details",
        { class: "json", open: true },
        h("summary", {}, "the decision report (onDecision)"),
        h("pre", { dataset: { field: "decision" } }, JSON.stringify(decision, null, 2)),
      ),
    );
  }
  parts.push(h("p", { class: "muted small seq" }, `resolution #${my}`, stale ? ` · ${stale} stale answer${stale === 1 ? "" : "s"} discarded` : ""));

  el.replaceChildren(...parts);
  el.dataset.seq = String(my);
  el.dataset.state = "done";
}

// ------------------------------------------------------------------ policies

function listOrOne(text) {
  const names = text
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
  return names.length === 0 ? null : names.length === 1 ? names[0] : names;
}

function specOf(p) {
  const keyword = p.keyword.trim().toLowerCase();
  return {
    name: p.name,
    match: (ctx) => keyword === "" || String(ctx.message).toLowerCase().includes(keyword),
    whenTool: listOrOne(p.whenTool),
    redirectTo: p.redirectTo.trim() || null,
    model: p.model.trim() || null,
    guard: p.guard === "pass" ? () => true : p.guard === "fail" ? () => false : null,
  };
}

function seamHead(title, code) {
  return h("div", { class: "seam-head" }, h("span", { class: "seam-title" }, title), h("code", {}, code));
}

function runPolicies() {
  if (!tp) return;
  const modelEl = $("#model-seam");
  const dispatchEl = $("#dispatch-seam");
  const ctx = { message: state.message };
  const dropWarnings = [];
  let policies;
  try {
    policies = new tp.ToolPolicies(state.policies.map(specOf), {
      modelResolver: () => state.resolverModel.trim() || null,
      onWarning: (w) => dropWarnings.push(w),
      // A turn that did not narrow lets exactly the registered tools pass the gate.
      registered: state.registered,
    });
  } catch (e) {
    const msg = h("p", { class: "error-text", dataset: { field: "policy-error" } }, `${e.name}: ${e.message}`);
    modelEl.replaceChildren(seamHead("Policies rejected", "new ToolPolicies(…)"), msg);
    dispatchEl.replaceChildren();
    return;
  }

  // PRE-model seam
  try {
    const sel = policies.selectModel(ctx);
    const why =
      sel.source === "policy"
        ? `policy “${sel.policy}” matches the message and names a model (the first such policy, in order).`
        : sel.source === "resolver"
          ? "no policy with a model matches the message; the adopter's modelResolver answered."
          : "no policy with a model matches and modelResolver returned null: the host's default model reasons.";
    modelEl.replaceChildren(
      seamHead("Before the model call: which model reasons", "policies.selectModel(ctx)"),
      h(
        "div",
        { class: "seam-result" },
        h("span", { class: "big", dataset: { field: "model" } }, sel.model === null ? "default model" : String(sel.model)),
        h("span", { class: `src src-${sel.source}`, dataset: { field: "model-source" } }, sel.source),
      ),
      h("p", { class: "why", dataset: { field: "model-why" } }, why),
    );
  } catch (e) {
    modelEl.replaceChildren(seamHead("Before the model call", "policies.selectModel(ctx)"), h("p", { class: "error-text" }, e.message));
  }

  // POST-model seam
  let args;
  try {
    args = state.call.args.trim() === "" ? {} : JSON.parse(state.call.args);
  } catch (e) {
    dispatchEl.replaceChildren(
      seamHead("After the model call: where the call goes", "policies.dispatch(call, ctx, palette)"),
      h("p", { class: "error-text", dataset: { field: "dispatch-error" } }, `args is not valid JSON (${e.message})`),
    );
    return;
  }
  const call = { name: state.call.name, args };
  if (state.call.id !== "") call.id = state.call.id;

  // The gate's palette: this turn's outcome (the package lets every registered tool
  // pass when it did not narrow, or before a turn resolved).
  const shownOutcome = shownDecision?.outcome;
  const routed = shownOutcome?.kind === "routed";
  const palette = shownOutcome;
  const paletteNote = routed
    ? `the routed palette above (${shownOutcome.names.join(", ")})`
    : `every registered tool (${state.registered.length}): routing did not narrow this turn`;

  try {
    const d = policies.dispatch(call, ctx, palette);
    const parts = [seamHead("After the model call: where the call goes", "policies.dispatch(call, ctx, palette)")];
    parts.push(
      h(
        "div",
        { class: "seam-result" },
        h("span", { class: "big", dataset: { field: "dispatch-target" } }, d.call.name),
        h(
          "span",
          { class: `src ${d.dropped ? "src-dropped" : d.redirectedBy && d.call !== d.original ? "src-redirect" : "src-original"}`, dataset: { field: "dispatch-kind" } },
          d.dropped ? "redirect dropped" : d.call !== d.original ? "redirected" : "as emitted",
        ),
      ),
    );
    let why;
    if (d.dropped) why = `policy “${d.redirectedBy}” redirected ${call.name} → ${d.dropped.target}, but the gate dropped it: the original call dispatches.`;
    else if (d.redirectedBy) why = `policy “${d.redirectedBy}” matched the message and the tool, and redirected ${call.name} → ${d.call.name}.`;
    else why = "no redirect policy matched (message, whenTool and guard): the call dispatches as the model emitted it.";
    parts.push(h("p", { class: "why", dataset: { field: "dispatch-why" } }, why));
    if (d.dropped) {
      parts.push(
        h("div", { class: "label" }, "dropped.reason"),
        h("p", { class: "reason", dataset: { field: "dropped-reason" } }, d.dropped.reason),
      );
    }
    for (const w of dropWarnings) {
      parts.push(h("div", { class: "warning", dataset: { field: "dispatch-warning" } }, h("strong", { dataset: { field: "dispatch-warning-name" } }, w.name), " ", h("span", { dataset: { field: "dispatch-warning-message" } }, w.message)));
    }
    parts.push(h("p", { class: "muted small", dataset: { field: "gate" } }, `Gate palette: ${paletteNote}.`));
    const shown = { call: d.call, original: d.original === call ? "(the caller's call object)" : d.original, redirectedBy: d.redirectedBy, dropped: d.dropped };
    parts.push(h("details", { class: "json" }, h("summary", {}, "the Dispatch"), h("pre", {}, JSON.stringify(shown, null, 2))));
    dispatchEl.replaceChildren(...parts);
  } catch (e) {
    dispatchEl.replaceChildren(
      seamHead("After the model call", "policies.dispatch(call, ctx, palette)"),
      h("p", { class: "error-text", dataset: { field: "dispatch-error" } }, `${e.name}: ${e.message}`),
    );
  }
}

// ------------------------------------------------------------------ start

// ------------------------------------------------------------------ tool search

// Tool sets to start from; the textarea takes any other.
const TOOLSETS = [
  {
    id: "assistant",
    label: "Assistant tools",
    message: "What's the weather in Lyon tomorrow, in celsius?",
    tools: [
      { name: "get_weather", description: "Current weather and forecast for a city", parameters: { type: "object", properties: { city: { type: "string", description: "City name" }, unit: { type: "string", enum: ["celsius", "fahrenheit"] } } } },
      { name: "send_email", description: "Send an email message to a recipient", parameters: { type: "object", properties: { to: { type: "string", description: "recipient address" }, subject: { type: "string" }, body: { type: "string" } } } },
      { name: "calendar.create-event", description: "Create a calendar event", parameters: { type: "object", properties: { title: { type: "string" }, start: { type: "string", description: "start time, ISO 8601" } } } },
      { name: "sqlQuery", description: "Run a read-only SQL query against the sales database", parameters: { type: "object", properties: { query: { type: "string", description: "the SQL statement" } } } },
      { name: "web_search", description: "Search the web and return the top results", parameters: { type: "object", properties: { q: { type: "string", description: "search terms" } } } },
      { name: "read_file", description: "Read a file from the workspace", parameters: { type: "object", properties: { path: { type: "string", description: "file path" } } } },
      { name: "translate_text", description: "Translate text into another language", parameters: { type: "object", properties: { text: { type: "string" }, target_language: { type: "string", description: "ISO 639-1 code" } } } },
      { name: "create_invoice", description: "Create an invoice for a customer", parameters: { type: "object", properties: { customer_id: { type: "string" }, amount: { type: "number", description: "total in euros" } } } },
    ],
  },
  {
    id: "record",
    label: "AI SDK tools record",
    message: "refund the last payment of order 1234",
    tools: {
      lookupOrder: { description: "Find an order by its number", inputSchema: { type: "object", properties: { orderId: { type: "string", description: "order number" } } } },
      refundPayment: { description: "Refund a payment, fully or in part", inputSchema: { type: "object", properties: { paymentId: { type: "string" }, amount: { type: "number", description: "money back" } } } },
      updateAddress: { description: "Change a customer's shipping address", inputSchema: { type: "object", properties: { customerId: { type: "string" }, address: { type: "string" } } } },
      trackShipment: { description: "Track a parcel's delivery status", inputSchema: { type: "object", properties: { trackingNumber: { type: "string" } } } },
    },
  },
];

const searchState = { toolset: JSON.stringify(TOOLSETS[0].tools, null, 2), message: TOOLSETS[0].message, limit: 3 };
let searchSeq = 0;

function renderToolsets() {
  $("#toolset-presets").replaceChildren(
    ...TOOLSETS.map((t) =>
      h("button", {
        type: "button",
        dataset: { toolset: t.id },
        onclick: () => {
          searchState.toolset = JSON.stringify(t.tools, null, 2);
          searchState.message = t.message;
          $("#toolset").value = searchState.toolset;
          $("#search-message").value = searchState.message;
          searchNow();
        },
      }, t.label),
    ),
  );
  $("#toolset").value = searchState.toolset;
  $("#search-message").value = searchState.message;
  $("#search-limit").value = String(searchState.limit);
  for (const [id, key, read] of [["#toolset", "toolset", (v) => v], ["#search-message", "message", (v) => v], ["#search-limit", "limit", (v) => Number(v)]]) {
    $(id).addEventListener("input", (e) => {
      searchState[key] = read(e.target.value);
      searchNow();
    });
  }
}

// e5-small vectors for the "Assistant tools" and a few messages (bench/tool-search/
// embed_demo.py): the page runs no model, so only these messages have a vector. Another
// message (or tool set) ranks lexically, as a host's failing `embed` would.
let demoVectors = null;
const decode = ([scale, b64]) => Float32Array.from(atob(b64), (c) => ((c.charCodeAt(0) << 24) >> 24) * scale);
const toolVector = (name) => (demoVectors?.tools[name] ? decode(demoVectors.tools[name]) : null);
const messageVector = (text) => (demoVectors?.messages[text.trim()] ? decode(demoVectors.messages[text.trim()]) : null);

// The embedding alone: cosine (the vectors are unit length), best first, ties in tool order.
function embeddingRanks(names, vectors, q, limit) {
  const scores = vectors.map((v) => v.reduce((s, x, i) => s + x * q[i], 0));
  return names.map((name, i) => ({ name, score: scores[i] })).sort((a, b) => b.score - a.score).slice(0, limit);
}

async function searchNow() {
  if (!tp) return;
  const my = ++searchSeq;
  const out = $("#search-out");
  let tools;
  try {
    tools = JSON.parse(searchState.toolset);
  } catch (e) {
    out.dataset.state = "error";
    out.replaceChildren(h("p", { class: "error-text", dataset: { field: "search-error" } }, `the tools are not valid JSON (${e.message})`));
    return;
  }
  const registered = Array.isArray(tools) ? tools.map((t) => t?.name ?? t?.function?.name) : Object.keys(tools);
  const limit = searchState.limit >= 1 ? searchState.limit : 3;
  // Vectors when the demo has one for every tool of the set.
  const vectors = registered.map((name) => (typeof name === "string" ? toolVector(name) : null));
  const hybrid = vectors.length > 0 && vectors.every(Boolean);
  const embed = (text) => messageVector(text) ?? Promise.reject(new Error("the demo has no vector for this message"));
  let index;
  try {
    index = new tp.ToolIndex(tools, hybrid ? { limit, vectors, embed, onEmbedError: () => {} } : { limit });
  } catch (e) {
    out.dataset.state = "error";
    out.replaceChildren(h("p", { class: "error-text", dataset: { field: "search-error" } }, `${e.name}: ${e.message}`));
    return;
  }
  const vector = hybrid ? messageVector(searchState.message) : null;
  const lexical = index.search(searchState.message);
  const hits = vector ? index.search(searchState.message, { vector }) : lexical;
  const embedding = vector ? embeddingRanks(registered, vectors, vector, limit) : null;
  let decision = null;
  const router = new tp.ToolRouter({ entries: index.entries, registered, onDecision: (d) => (decision = d) });
  const outcome = await router.resolve({ context: { message: searchState.message } });
  router.dispose();
  index.dispose();
  if (my !== searchSeq) return;
  out.dataset.state = "done";
  const max = hits.length ? hits[0].score : 1;
  const ranks = (title, field, list) =>
    h("div", { class: "rank" }, h("h4", {}, title), list.length ? h("ol", { dataset: { field } }, list.map((hit) => h("li", { dataset: { name: hit.name } }, h("code", {}, hit.name)))) : h("p", { class: "none", dataset: { field } }, "none"));
  const samples = hybrid
    ? h(
        "p",
        { class: "samples small" },
        vector ? "Side by side for this message (e5-small vectors, precomputed). " : "The demo runs no model: only its sample messages have vectors (this one ranks lexically). Try: ",
        ...(vector ? [] : Object.keys(demoVectors.messages).map((text) => h("button", { type: "button", class: "sample", dataset: { sample: text }, onclick: () => { searchState.message = text; $("#search-message").value = text; searchNow(); } }, text))),
      )
    : null;
  out.replaceChildren(
    h("p", { class: "summary" }, `${index.size} tools indexed; `, h("code", {}, vector ? "index.search(message, { vector })" : "index.search(message)"), ` → ${hits.length} hit${hits.length === 1 ? "" : "s"}`),
    hits.length
      ? h(
          "ol",
          { class: "hits", dataset: { field: "hits" } },
          hits.map((hit) =>
            h("li", { dataset: { name: hit.name } }, h("code", {}, hit.name), " ", h("span", { class: "bar", style: `width:${Math.round((hit.score / max) * 120)}px` }), " ", h("span", { class: "score" }, hit.score.toFixed(3))),
          ),
        )
      : h("p", { class: "none", dataset: { field: "hits" } }, "no tool matches: the router refuses (rule 3) and every tool stays available"),
    ...(samples ? [samples] : []),
    ...(vector ? [h("div", { class: "ranks", dataset: { field: "ranks" } }, ranks("lexical", "rank-lexical", lexical), ranks("embedding (cosine)", "rank-embedding", embedding), ranks("hybrid (fused)", "rank-hybrid", hits))] : []),
    h("p", { class: "rule" }, "routing: ", h("strong", { dataset: { field: "search-rule" } }, decision?.rule ?? "?"), outcome.kind === "routed" ? ` · the model sees ${outcome.names.length} of ${registered.length} tools` : " · every tool stays available"),
    group("Routed palette", "search-palette", outcome.kind === "routed" ? [...outcome.names] : [], "ok"),
    group("Hidden", "search-hidden", decision ? [...decision.hidden] : [], "muted"),
  );
}

async function main() {
  renderPresets();
  loadFromHash();
  wireInputs();
  try {
    tp = await import("./pkg/browser.js");
    demoVectors = (await import("./demo-vectors.js")).default;
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
  mountSkills(tp);
}

main();
