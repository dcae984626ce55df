// The routing demo: a scenario's procedural layer and registered tools → resolvePalette or
// ToolRouter → the outcome and the decision report (onDecision), with each row's fate.
// Nothing here decides anything the package decides: the page builds the inputs, measures
// time and shows the package's answers.
import { ROW_KINDS, rowValue, rowLiteral } from "./scenario.js";
import { $, group, h, WHY } from "./view.js";
import { commit, page } from "./page.js";
import { runPolicies } from "./policies.js";

// ------------------------------------------------------------------ rows' fates

// How the page shows each row's fate: the badge's style and its label.
const FATES = {
  routed: ["routed", "routed"],
  duplicate: ["duplicate", "duplicate"],
  unresolved: ["unresolved", "unresolved"],
  inactive: ["inactive", "inactive"],
  "no-candidate": ["skipped", "no candidate"],
};

// The routing demo's inputs, as the scenario holds them.
export function renderRoutingInputs() {
  $("#registered").value = page.scenario.registered.join("\n");
  for (const r of document.querySelectorAll('input[name="layer"]')) r.checked = r.value === page.scenario.layer;
  for (const r of document.querySelectorAll('input[name="api"]')) r.checked = r.value === page.scenario.api;
  $("#retrieval").value = page.scenario.retrieval;
  $("#error-name").value = page.scenario.errorName;
  $("#latency").value = String(page.scenario.latencyMs);
  $("#timeout-on").checked = page.scenario.timeoutOn;
  $("#timeout").value = String(page.scenario.timeoutMs);
  renderRows();
  renderDerived();
}

// Bits of the inputs that follow from the scenario (counts, enabled states, previews).
export function renderDerived() {
  const n = page.scenario.registered.length;
  $("#registered-count").textContent = n === 0 ? "No tools registered." : `${n} registered tool${n === 1 ? "" : "s"}.`;
  $("#latency-out").textContent = `${page.scenario.latencyMs} ms`;
  $("#timeout").disabled = !page.scenario.timeoutOn;
  $("#error-name").disabled = page.scenario.retrieval !== "fail" || page.scenario.layer === "off";
  $("#retrieval").disabled = page.scenario.layer === "off";
  $("#rows-box").classList.toggle("off", page.scenario.layer === "off");
  $("#rows-preview").textContent = page.scenario.layer === "off" ? "entries is null: nothing is called" : previewRows();
  const list = $("#registered-list");
  list.replaceChildren(...page.scenario.registered.map((name) => h("option", { value: name })));
}

function previewRows() {
  const body = page.scenario.rows.map((r) => "  " + rowLiteral(r)).join(",\n");
  const rows = page.scenario.rows.length ? `[\n${body},\n]` : "[]";
  if (page.scenario.retrieval === "fail") {
    return `async () => {\n  // after ${page.scenario.latencyMs} ms\n  throw Object.assign(new Error("store is down"), { name: ${JSON.stringify(page.scenario.errorName)} });\n}`;
  }
  return `async () => /* after ${page.scenario.latencyMs} ms */ ${rows}`;
}

const KIND_LABEL = { string: '"string"', tool: "{ tool }", toolName: "{ toolName }", content: "{ content }" };

export function renderRows() {
  const body = $("#rows");
  body.replaceChildren(
    ...page.scenario.rows.map((r, i) =>
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
                page.scenario.rows[i].kind = e.target.value;
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
              page.scenario.rows[i].value = e.target.value;
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
              page.scenario.rows[i].active = e.target.checked;
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
                page.scenario.rows.splice(i, 1);
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
  if (page.scenario.rows.length === 0) {
    body.append(h("tr", { class: "empty" }, h("td", { colspan: "6" }, "No rows: the procedural layer answers with an empty list.")));
  }
  renderFates();
}

// What became of each row, as the decision report of the shown outcome says (page.shown).

function rowFate(i, decision) {
  const row = decision?.rows[i];
  return row ? FATES[row.fate] : ["", "not read"];
}

export function renderFates() {
  const outdated = page.shown.rows !== JSON.stringify(page.scenario.rows);
  document.querySelectorAll("#rows tr[data-row]").forEach((tr) => {
    const badge = tr.querySelector(".badge");
    const [fate, label] = outdated ? ["", "…"] : rowFate(Number(tr.dataset.row), page.shown.decision);
    badge.dataset.fate = fate;
    badge.textContent = label;
  });
}

// The routing demo's inputs → the scenario (each change re-resolves).
export function wireRouting() {
  const on = (sel, ev, fn, opts) => $(sel).addEventListener(ev, fn, opts);
  on("#registered", "input", (e) => {
    page.scenario.registered = e.target.value
      .split("\n")
      .map((s) => s.trim())
      .filter((s) => s !== "");
    renderDerived();
    commit();
  });
  for (const r of document.querySelectorAll('input[name="layer"]')) {
    r.addEventListener("change", () => {
      page.scenario.layer = r.value;
      renderDerived();
      commit();
    });
  }
  for (const r of document.querySelectorAll('input[name="api"]')) {
    r.addEventListener("change", () => {
      page.scenario.api = r.value;
      commit();
    });
  }
  // An input that sets one field of the scenario, read from its element.
  const field = (sel, ev, key, read) =>
    on(sel, ev, (e) => {
      page.scenario[key] = read(e.target);
      renderDerived();
      commit();
    });
  field("#retrieval", "change", "retrieval", (t) => t.value);
  field("#error-name", "input", "errorName", (t) => t.value);
  field("#latency", "input", "latencyMs", (t) => Number(t.value));
  field("#timeout-on", "change", "timeoutOn", (t) => t.checked);
  on("#timeout", "input", (e) => {
    const v = e.target.valueAsNumber;
    if (!Number.isFinite(v) || v < 0) return; // half-typed: keep the last valid budget
    page.scenario.timeoutMs = v;
    commit();
  });
  for (const b of document.querySelectorAll("[data-add]")) {
    b.addEventListener("click", () => {
      const kind = b.dataset.add;
      const value = kind === "content" ? "Use the search when the user asks about news" : kind === "tool" ? "read_file" : "new_tool";
      page.scenario.rows.push({ kind, value, active: true });
      renderRows();
      renderDerived();
      commit();
    });
  }
}

// ------------------------------------------------------------------ one turn

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

export async function resolveNow() {
  if (!page.tp) return; // the package is still loading; main() resolves once it is in
  const my = ++page.turns.seq;
  page.turns.inflight?.abort(new DOMException("superseded by a newer scenario", "AbortError"));
  const controller = new AbortController();
  page.turns.inflight = controller;

  const s = JSON.parse(JSON.stringify(page.scenario));
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
      const router = new page.tp.ToolRouter({ entries, registered: s.registered, timeoutMs, onDecision, onWarning: (w) => warnings.push(w) });
      outcome = await router.resolve({ signal: controller.signal });
    } else {
      outcome = await page.tp.resolvePalette({ entries, registered: s.registered, timeoutMs, onDecision, signal: controller.signal });
    }
  } catch (e) {
    error = e;
  }
  const ms = performance.now() - t0;
  if (my !== page.turns.seq) {
    // A newer scenario started while this one was resolving: its answer is stale.
    page.turns.stale++;
    return;
  }
  page.turns.inflight = null;
  page.shown.decision = decision;
  page.shown.rows = JSON.stringify(s.rows);
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
    const active = page.tp.activeTools(outcome);
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
  parts.push(h("p", { class: "muted small seq" }, `resolution #${my}`, page.turns.stale ? ` · ${page.turns.stale} stale answer${page.turns.stale === 1 ? "" : "s"} discarded` : ""));

  el.replaceChildren(...parts);
  el.dataset.seq = String(my);
  el.dataset.state = "done";
}
