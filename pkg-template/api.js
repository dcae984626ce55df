// The public API of tool-palette, the same behind every runtime entry: the exports of the
// wasm binding (src/js/, where every SPEC rule is decided by the Rust core) and the
// result classes that JavaScript holds (host.js).
import { ToolCallPolicy, ToolPolicies, ToolRouter } from "./tool_palette.js";

export { resolvePalette, activeTools, bindPalette, ToolRouter, ToolPolicies, ToolCallPolicy } from "./tool_palette.js";
export { Routed, RoutingRefusal, RoutingUnavailable, ToolRoutingUnavailableWarning, ToolRedirectDroppedWarning } from "./host.js";

// Instances are frozen, so the glue's own free() (which clears a field) cannot run on
// them; dispose() is the package's, and `using` calls it where the runtime has
// explicit resource management.
for (const Class of [ToolRouter, ToolPolicies, ToolCallPolicy]) {
  delete Class.prototype.free;
  if (typeof Symbol.dispose === "symbol") {
    Object.defineProperty(Class.prototype, Symbol.dispose, { value: Class.prototype.dispose, writable: true, configurable: true });
  }
}
