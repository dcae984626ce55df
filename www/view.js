// The page's small view helpers, shared by its sections (app.js, skills.js): elements
// built from a tag, attributes and children, and the labelled lists of names ("chips")
// every outcome shows.
export const $ = (sel) => document.querySelector(sel);

// h("span", { class: "x", dataset: { field: "kind" } }, "text", child, …)
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") el.className = v;
    else if (k === "dataset") Object.assign(el.dataset, v);
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k in el && typeof v !== "string") el[k] = v;
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) el.append(c);
  return el;
}

export function chips(field, names, cls) {
  return h(
    "ul",
    { class: `chips ${cls}`, dataset: { field } },
    names.length ? names.map((n) => h("li", { title: n }, n)) : [],
  );
}

export function group(label, field, names, cls, note) {
  return h(
    "div",
    { class: "group" },
    h("div", { class: "group-label" }, label, h("span", { class: "count" }, String(names.length)), note ? h("span", { class: "note" }, note) : null),
    names.length ? chips(field, names, cls) : h("p", { class: "none", dataset: { field } }, "none"),
  );
}

// What each rule the package reports means, in words (the rule itself comes from the
// decision report).
export const WHY = {
  1: "entries is null or undefined: there is no procedural layer to ask.",
  "2a": "entries threw, rejected, returned a non-iterable, or a row could not be read.",
  "2b": "timeoutMs elapsed before entries settled.",
  3: "the rows are null, undefined or empty.",
  4: "every row is inactive.",
  5: "no active row's candidate is a registered name.",
};
