// The tool search demo: a tool set and a message → ToolIndex (lexical, and hybrid where the
// demo has vectors) → the hits, and the palette a ToolRouter over index.entries routes.
import { $, group, h } from "./view.js";
import { page } from "./page.js";

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

// The demo's inputs, from the first tool set.
Object.assign(page.search, { toolset: JSON.stringify(TOOLSETS[0].tools, null, 2), message: TOOLSETS[0].message, limit: 3 });

export function renderToolsets() {
  $("#toolset-presets").replaceChildren(
    ...TOOLSETS.map((t) =>
      h("button", {
        type: "button",
        dataset: { toolset: t.id },
        onclick: () => {
          page.search.toolset = JSON.stringify(t.tools, null, 2);
          page.search.message = t.message;
          $("#toolset").value = page.search.toolset;
          $("#search-message").value = page.search.message;
          searchNow();
        },
      }, t.label),
    ),
  );
  $("#toolset").value = page.search.toolset;
  $("#search-message").value = page.search.message;
  $("#search-limit").value = String(page.search.limit);
  for (const [id, key, read] of [["#toolset", "toolset", (v) => v], ["#search-message", "message", (v) => v], ["#search-limit", "limit", (v) => Number(v)]]) {
    $(id).addEventListener("input", (e) => {
      page.search[key] = read(e.target.value);
      searchNow();
    });
  }
}

// e5-small vectors for the "Assistant tools" and a few messages (bench/tool-search/
// embed_demo.py): the page runs no model, so only these messages have a vector. Another
// message (or tool set) ranks lexically, as a host's failing `embed` would.
const decode = ([scale, b64]) => Float32Array.from(atob(b64), (c) => ((c.charCodeAt(0) << 24) >> 24) * scale);
const toolVector = (name) => (page.demoVectors?.tools[name] ? decode(page.demoVectors.tools[name]) : null);
const messageVector = (text) => (page.demoVectors?.messages[text.trim()] ? decode(page.demoVectors.messages[text.trim()]) : null);

// The embedding alone: cosine (the vectors are unit length), best first, ties in tool order.
function embeddingRanks(names, vectors, q, limit) {
  const scores = vectors.map((v) => v.reduce((s, x, i) => s + x * q[i], 0));
  return names.map((name, i) => ({ name, score: scores[i] })).sort((a, b) => b.score - a.score).slice(0, limit);
}

export async function searchNow() {
  if (!page.tp) return;
  const my = ++page.search.seq;
  const out = $("#search-out");
  let tools;
  try {
    tools = JSON.parse(page.search.toolset);
  } catch (e) {
    out.dataset.state = "error";
    out.replaceChildren(h("p", { class: "error-text", dataset: { field: "search-error" } }, `the tools are not valid JSON (${e.message})`));
    return;
  }
  const registered = Array.isArray(tools) ? tools.map((t) => t?.name ?? t?.function?.name) : Object.keys(tools);
  const limit = page.search.limit >= 1 ? page.search.limit : 3;
  // Vectors when the demo has one for every tool of the set.
  const vectors = registered.map((name) => (typeof name === "string" ? toolVector(name) : null));
  const hybrid = vectors.length > 0 && vectors.every(Boolean);
  const embed = (text) => messageVector(text) ?? Promise.reject(new Error("the demo has no vector for this message"));
  let index;
  try {
    index = new page.tp.ToolIndex(tools, hybrid ? { limit, vectors, embed, onEmbedError: () => {} } : { limit });
  } catch (e) {
    out.dataset.state = "error";
    out.replaceChildren(h("p", { class: "error-text", dataset: { field: "search-error" } }, `${e.name}: ${e.message}`));
    return;
  }
  const vector = hybrid ? messageVector(page.search.message) : null;
  const lexical = index.search(page.search.message);
  const hits = vector ? index.search(page.search.message, { vector }) : lexical;
  const embedding = vector ? embeddingRanks(registered, vectors, vector, limit) : null;
  let decision = null;
  const router = new page.tp.ToolRouter({ entries: index.entries, registered, onDecision: (d) => (decision = d) });
  const outcome = await router.resolve({ context: { message: page.search.message } });
  router.dispose();
  index.dispose();
  if (my !== page.search.seq) return;
  out.dataset.state = "done";
  const max = hits.length ? hits[0].score : 1;
  const ranks = (title, field, list) =>
    h("div", { class: "rank" }, h("h4", {}, title), list.length ? h("ol", { dataset: { field } }, list.map((hit) => h("li", { dataset: { name: hit.name } }, h("code", {}, hit.name)))) : h("p", { class: "none", dataset: { field } }, "none"));
  const samples = hybrid
    ? h(
        "p",
        { class: "samples small" },
        vector ? "Side by side for this message (e5-small vectors, precomputed). " : "The demo runs no model: only its sample messages have vectors (this one ranks lexically). Try: ",
        ...(vector ? [] : Object.keys(page.demoVectors.messages).map((text) => h("button", { type: "button", class: "sample", dataset: { sample: text }, onclick: () => { page.search.message = text; $("#search-message").value = text; searchNow(); } }, text))),
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
