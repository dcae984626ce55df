// The public instances' own fields that the constructors' helpers set (routing.js `router`,
// policies.js `policy`, `compose`: `Object.assign(this, …)` or `this.x =` outside the
// class body, where the type checker cannot see them), declared as the published types
// declare them (tool-palette.d.ts), so that what the helpers assign is checked against
// those. For the type check only (tests/types/tsconfig.facade.json); not in the package.
import type * as published from "./tool-palette.js";

// `dispose()` and `[Symbol.dispose]()`, which host.js `guarded` defines on each class.
interface Disposes {
  dispose(): void;
  [Symbol.dispose](): void;
}

// Assigned once by the helper, then frozen with the instance.
type Set<T, K extends keyof T> = { -readonly [P in K]: T[P] };

declare module "./routing.js" {
  interface ToolRouter<Context = any> extends Disposes, Set<published.ToolRouter<Context>, "registered" | "unavailable"> {}
  interface ToolRoutingUnavailableWarning {
    name: published.ToolRoutingUnavailableWarning["name"];
    missing: published.ToolRoutingUnavailableWarning["missing"];
  }
}
declare module "./policies.js" {
  interface ToolCallPolicy<Ctx = unknown, Model = unknown> extends Disposes, Set<published.ToolCallPolicy<Ctx, Model>, "name" | "match" | "whenTool" | "redirectTo" | "model" | "argsTransform" | "guard"> {}
  interface ToolPolicies<Ctx = unknown, Model = unknown, Call extends published.ToolCall = published.ToolCall> extends Disposes, Set<published.ToolPolicies<Ctx, Model, Call>, "policies"> {}
  interface ToolRedirectDroppedWarning extends Set<published.ToolRedirectDroppedWarning, "policy" | "target" | "original"> {
    name: published.ToolRedirectDroppedWarning["name"];
  }
}
declare module "./index.js" {
  interface ToolIndex extends Disposes {}
}
declare module "./skills.js" {
  interface SkillIndex extends Disposes {}
}
declare module "./run.js" {
  interface PaletteRun extends Disposes {}
}
