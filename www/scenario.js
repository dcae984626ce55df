// The scenario a page shows: its defaults, the presets, and its round trip through the
// URL hash. Pure data: nothing here touches the DOM or the package.

export const TOOLS = ["search_web", "web_fetch", "calendar", "send_email", "run_sql", "read_file"];

const PROSE = "Use the calendar when the user asks about dates";

// Row shapes the procedural layer can return.
//   string  → "search_web"                     (always active)
//   tool    → { tool: "calendar", active }
//   toolName→ { toolName: "calendar", active }
//   content → { content: "Use the calendar…", active }   (a prose skill)
export const ROW_KINDS = ["string", "tool", "toolName", "content"];

const row = (kind, value, active = true) => ({ kind, value, active });

const ROUTED_ROWS = [
  row("string", "search_web"),
  row("tool", "calendar"),
  row("tool", "send_email", false),
  row("content", PROSE),
  row("string", "weather_lookup"),
  row("tool", "web_fetch"),
];

export const POLICIES = [
  { name: "sql-analyst", keyword: "revenue", whenTool: "search_web", redirectTo: "run_sql", model: "analyst-large", guard: "pass" },
  { name: "docs-first", keyword: "docs", whenTool: "search_web", redirectTo: "web_fetch", model: "", guard: "none" },
  { name: "planner", keyword: "schedule", whenTool: "", redirectTo: "", model: "planner-small", guard: "none" },
];

const ROUTING = {
  api: "resolvePalette",
  registered: TOOLS,
  layer: "on",
  retrieval: "ok",
  errorName: "StoreDownError",
  latencyMs: 80,
  timeoutOn: true,
  timeoutMs: 1000,
  rows: ROUTED_ROWS,
};

const POLICY_SIDE = {
  policies: POLICIES,
  resolverModel: "house-model",
  message: "What was our revenue last quarter?",
  call: { name: "search_web", id: "call_1", args: '{ "query": "revenue last quarter" }' },
};

export const DEFAULT = { ...ROUTING, ...POLICY_SIDE };

// Routing presets: each replaces the routing half of the scenario and keeps the policies.
export const PRESETS = [
  { id: "routed", label: "Routed turn", title: "A routed turn: three tools, two unresolved candidates, one inactive row", routing: {} },
  { id: "rule1", label: "1 no layer", title: "Refusal 1: no procedural layer registered", routing: { layer: "off" } },
  { id: "rule2a", label: "2a store fails", title: "Refusal 2a: retrieval rejects with a StoreDownError", routing: { retrieval: "fail", errorName: "StoreDownError" } },
  { id: "rule2b", label: "2b timed out", title: "Refusal 2b: the store takes 900 ms, the budget is 250 ms", routing: { latencyMs: 900, timeoutOn: true, timeoutMs: 250 } },
  { id: "rule3", label: "3 no skills", title: "Refusal 3: the procedural layer returns no rows", routing: { rows: [] } },
  {
    id: "rule4",
    label: "4 all inactive",
    title: "Refusal 4: every skill is inactive",
    routing: { rows: [row("tool", "search_web", false), row("tool", "calendar", false), row("content", PROSE, false)] },
  },
  {
    id: "rule5",
    label: "5 none registered",
    title: "Refusal 5: no skill names a registered tool (names are compared exactly: Calendar is not calendar)",
    routing: { rows: [row("string", "weather_lookup"), row("tool", "Calendar"), row("content", PROSE)] },
  },
  { id: "unavailable-layer", label: "no layer", title: "ToolRouter without a procedural layer", routing: { api: "ToolRouter", layer: "off" } },
  { id: "unavailable-tools", label: "no tools", title: "ToolRouter without registered tools", routing: { api: "ToolRouter", registered: [] } },
  { id: "unavailable-both", label: "neither", title: "ToolRouter with neither prerequisite", routing: { api: "ToolRouter", layer: "off", registered: [] } },
];

// Policy presets: each replaces the policy half and keeps the routing.
export const POLICY_PRESETS = [
  { id: "dropped", label: "Redirect dropped", title: "Policy model; the redirect to run_sql is outside the routed palette, so the gate drops it", policy: {} },
  {
    id: "redirected",
    label: "Redirect dispatched",
    title: "docs-first redirects search_web to web_fetch, which is routed; the model comes from the resolver",
    policy: { message: "Check the docs for the deploy flag", call: { name: "search_web", id: "call_2", args: '{ "query": "deploy flag" }' } },
  },
  {
    id: "guarded",
    label: "Guard blocks",
    title: "The guard of sql-analyst fails: no redirect, but the policy still picks the model (guards are never asked before the model call)",
    policy: { policies: POLICIES.map((p) => (p.name === "sql-analyst" ? { ...p, guard: "fail" } : p)) },
  },
  {
    id: "default",
    label: "Default model",
    title: "No policy matches and the resolver returns null: the host's default model, the call goes where the model sent it",
    policy: { resolverModel: "", message: "Hello there", call: { name: "calendar", id: "call_3", args: "{}" } },
  },
];

const clone = (v) => JSON.parse(JSON.stringify(v));

export function applyPreset(state, id) {
  const preset = PRESETS.find((p) => p.id === id);
  if (!preset) return state;
  return normalize({ ...state, ...clone(ROUTING), ...clone(preset.routing) });
}

export function applyPolicyPreset(state, id) {
  const preset = POLICY_PRESETS.find((p) => p.id === id);
  if (!preset) return state;
  return normalize({ ...state, ...clone(POLICY_SIDE), ...clone(preset.policy) });
}

// ------------------------------------------------------------------ validation

const str = (v, d) => (typeof v === "string" ? v : d);
const bool = (v, d) => (typeof v === "boolean" ? v : d);
const num = (v, d, max) => (typeof v === "number" && Number.isFinite(v) && v >= 0 ? Math.min(v, max) : d);
const oneOf = (v, list, d) => (list.includes(v) ? v : d);

function normalizeRow(r) {
  if (typeof r === "string") return row("string", r);
  if (!r || typeof r !== "object") return null;
  return { kind: oneOf(r.kind, ROW_KINDS, "string"), value: str(r.value, ""), active: bool(r.active, true) };
}

function normalizePolicy(p) {
  if (!p || typeof p !== "object") return null;
  return {
    name: str(p.name, ""),
    keyword: str(p.keyword, ""),
    whenTool: str(p.whenTool, ""),
    redirectTo: str(p.redirectTo, ""),
    model: str(p.model, ""),
    guard: oneOf(p.guard, ["none", "pass", "fail"], "none"),
  };
}

/** A complete, well-typed scenario from anything (a parsed hash, a preset). */
export function normalize(raw) {
  const s = raw && typeof raw === "object" ? raw : {};
  const d = DEFAULT;
  const call = s.call && typeof s.call === "object" ? s.call : {};
  return {
    api: oneOf(s.api, ["resolvePalette", "ToolRouter"], d.api),
    registered: Array.isArray(s.registered) ? s.registered.filter((n) => typeof n === "string") : [...d.registered],
    layer: oneOf(s.layer, ["on", "off"], d.layer),
    retrieval: oneOf(s.retrieval, ["ok", "fail"], d.retrieval),
    errorName: str(s.errorName, d.errorName),
    latencyMs: num(s.latencyMs, d.latencyMs, 10000),
    timeoutOn: bool(s.timeoutOn, d.timeoutOn),
    timeoutMs: num(s.timeoutMs, d.timeoutMs, 600000),
    rows: Array.isArray(s.rows) ? s.rows.map(normalizeRow).filter(Boolean) : clone(d.rows),
    policies: Array.isArray(s.policies) ? s.policies.map(normalizePolicy).filter(Boolean) : clone(d.policies),
    resolverModel: str(s.resolverModel, d.resolverModel),
    message: str(s.message, d.message),
    call: { name: str(call.name, d.call.name), id: str(call.id, d.call.id), args: str(call.args, d.call.args) },
  };
}

// ------------------------------------------------------------------ the URL hash

/** The hash of a scenario: readable JSON, percent-encoded. */
export function toHash(state) {
  return "#" + encodeURIComponent(JSON.stringify(state));
}

/**
 * The scenario in a hash: `#{json}` (what the page writes) or `#preset=ID`.
 * Returns { state } or { error } (a message for the page), or null for an empty hash.
 */
export function fromHash(hash) {
  const body = hash.replace(/^#/, "");
  if (body === "") return null;
  const preset = /^preset=([\w-]+)$/.exec(body);
  if (preset) {
    if (!PRESETS.some((p) => p.id === preset[1])) return { error: `unknown preset "${preset[1]}"` };
    return { state: applyPreset(normalize(DEFAULT), preset[1]) };
  }
  let text;
  try {
    text = decodeURIComponent(body);
  } catch {
    return { error: "the link's scenario is not valid percent-encoding" };
  }
  let parsed;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { error: "the link's scenario is not valid JSON" };
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) return { error: "the link's scenario is not an object" };
  return { state: normalize(parsed) };
}

/** The JavaScript value the procedural layer returns for one row. */
export function rowValue(r) {
  if (r.kind === "string") return r.value;
  return { [r.kind]: r.value, active: r.active };
}

/** How the page shows a row: as the JavaScript literal. */
export function rowLiteral(r) {
  if (r.kind === "string") return JSON.stringify(r.value);
  return `{ ${r.kind}: ${JSON.stringify(r.value)}, active: ${r.active} }`;
}
