// TEMPORARY stand-in for the self-reference `from "tool-palette"` while scripts/build.mjs
// does not yet keep "tool-palette" external in the CommonJS twins. Removed before commit
// of the final adapters.
export function activeTools(outcome) {
  return outcome && outcome.kind === "routed" ? [...outcome.names] : undefined;
}
export function bindPalette(tools, outcome) {
  if (!outcome || outcome.kind !== "routed") return tools;
  const keep = new Set(outcome.names);
  if (Array.isArray(tools)) return tools.filter((t) => keep.has(t.name));
  return Object.fromEntries(Object.entries(tools).filter(([k]) => keep.has(k)));
}
