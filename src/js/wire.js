// Generated from src/js/wire.rs by `UPDATE_WIRE=1 cargo test wire`; do not edit.
export const RULES = Object.freeze(["routed", "1", "2a", "2b", "3", "4", "5", "unavailable"]);
export const FATES = Object.freeze(["routed", "duplicate", "unresolved", "inactive", "no-candidate"]);
export const REASONS = Object.freeze([["no procedural layer registered; allowing all tools", ""], ["procedural retrieval failed (", "); allowing all tools"], ["procedural retrieval timed out after ", " ms; allowing all tools"], ["no skills in the procedural layer; allowing all tools", ""], ["every skill is inactive; allowing all tools", ""], ["no skill resolved to a registered tool; allowing all tools", ""]]);
export const MISSING = Object.freeze(["procedural-layer", "no-registered-tools"]);
export const ACTIVE = Object.freeze([true, true, false, true, true, false]);
export const NO_SPAN = 4294967295;
export const UNAVAILABLE = 7;
