// @ts-check
// The public API of tool-palette behind every runtime entry: each area's facade, beside its
// Rust half in src/js/, where the core decides every SPEC rule.
export { PaletteRun } from "./run.js";
export { activeTools, bindPalette, resolvePalette, Routed, RoutingRefusal, RoutingUnavailable, ToolRouter, ToolRoutingUnavailableWarning } from "./routing.js";
export { ToolIndex } from "./index.js";
export { parseSkill, SkillIndex } from "./skills.js";
export { ToolCallPolicy, ToolPolicies, ToolRedirectDroppedWarning } from "./policies.js";
