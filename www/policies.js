// The policies demo: the scenario's policies → ToolPolicies → the model each turn starts
// with (selectModel) and where an emitted call goes (dispatch, gated by the routing demo's
// shown outcome). The page shows the package's answers; it decides nothing.
import { $, h } from "./view.js";
import { commit, page } from "./page.js";

// The policies demo's inputs, as the scenario holds them.
export function renderPolicyInputs() {
  $("#resolver-model").value = page.scenario.resolverModel;
  $("#message").value = page.scenario.message;
  $("#call-name").value = page.scenario.call.name;
  $("#call-id").value = page.scenario.call.id;
  $("#call-args").value = page.scenario.call.args;
  renderPolicies();
}

const GUARDS = [
  ["none", "none"],
  ["pass", "passes"],
  ["fail", "fails"],
];

export function renderPolicies() {
  const list = $("#policies");
  const field = (i, key, label, placeholder) =>
    h(
      "label",
      { class: `pfield pf-${key}` },
      h("span", {}, label),
      h("input", {
        type: "text",
        value: page.scenario.policies[i][key],
        placeholder,
        spellcheck: "false",
        autocomplete: "off",
        dataset: { key },
        oninput: (e) => {
          page.scenario.policies[i][key] = e.target.value;
          commit({ route: false });
        },
      }),
    );
  list.replaceChildren(
    ...page.scenario.policies.map((p, i) =>
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
                page.scenario.policies[i].guard = e.target.value;
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
              page.scenario.policies.splice(i, 1);
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
  if (page.scenario.policies.length === 0) {
    list.append(h("li", { class: "empty" }, "No policies: the resolver or the default model reasons, and every call dispatches as emitted."));
  }
}

// The policies demo's inputs → the scenario (each change runs the policies again).
export function wirePolicies() {
  const on = (sel, ev, fn, opts) => $(sel).addEventListener(ev, fn, opts);
  on("#add-policy", "click", () => {
    const used = new Set(page.scenario.policies.map((p) => p.name));
    let n = page.scenario.policies.length + 1;
    while (used.has(`policy-${n}`)) n++;
    page.scenario.policies.push({ name: `policy-${n}`, keyword: "", whenTool: "", redirectTo: "", model: "", guard: "none" });
    renderPolicies();
    commit({ route: false });
  });
  on("#resolver-model", "input", (e) => {
    page.scenario.resolverModel = e.target.value;
    commit({ route: false });
  });
  on("#message", "input", (e) => {
    page.scenario.message = e.target.value;
    commit({ route: false });
  });
  on("#call-name", "input", (e) => {
    page.scenario.call.name = e.target.value;
    commit({ route: false });
  });
  on("#call-id", "input", (e) => {
    page.scenario.call.id = e.target.value;
    commit({ route: false });
  });
  on("#call-args", "input", (e) => {
    page.scenario.call.args = e.target.value;
    commit({ route: false });
  });
}

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

export function runPolicies() {
  if (!page.tp) return;
  const modelEl = $("#model-seam");
  const dispatchEl = $("#dispatch-seam");
  const ctx = { message: page.scenario.message };
  const dropWarnings = [];
  let policies;
  try {
    policies = new page.tp.ToolPolicies(page.scenario.policies.map(specOf), {
      modelResolver: () => page.scenario.resolverModel.trim() || null,
      onWarning: (w) => dropWarnings.push(w),
      // A turn that did not narrow lets exactly the registered tools pass the gate.
      registered: page.scenario.registered,
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
    args = page.scenario.call.args.trim() === "" ? {} : JSON.parse(page.scenario.call.args);
  } catch (e) {
    dispatchEl.replaceChildren(
      seamHead("After the model call: where the call goes", "policies.dispatch(call, ctx, palette)"),
      h("p", { class: "error-text", dataset: { field: "dispatch-error" } }, `args is not valid JSON (${e.message})`),
    );
    return;
  }
  const call = { name: page.scenario.call.name, args };
  if (page.scenario.call.id !== "") call.id = page.scenario.call.id;

  // The gate's palette: this turn's outcome (the package lets every registered tool
  // pass when it did not narrow, or before a turn resolved).
  const shownOutcome = page.shown.decision?.outcome;
  const routed = shownOutcome?.kind === "routed";
  const palette = shownOutcome;
  const paletteNote = routed
    ? `the routed palette above (${shownOutcome.names.join(", ")})`
    : `every registered tool (${page.scenario.registered.length}): routing did not narrow this turn`;

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
