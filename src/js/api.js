// The public API of tool-palette, the same behind every runtime entry: each area's facade
// (its JavaScript half beside its Rust half in src/js/), where every SPEC rule is decided
// by the Rust core.
export { PaletteRun } from "./run.js";
export { activeTools, bindPalette, resolvePalette, Routed, RoutingRefusal, RoutingUnavailable, ToolRouter, ToolRoutingUnavailableWarning } from "./routing.js";
export { ToolIndex } from "./index.js";
export { ToolCallPolicy, ToolPolicies, ToolRedirectDroppedWarning } from "./policies.js";
