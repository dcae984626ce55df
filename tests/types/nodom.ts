// The published declarations, adapters included, must check with no DOM or Node typings
// (lib ES2022 only, skipLibCheck off): users on plain Node or Workers get no errors.
import { ToolPolicies, ToolRouter, resolvePalette, type AbortSignalLike } from "tool-palette";
import { createToolPalette as aiSdk } from "tool-palette/ai-sdk";
import { createToolPalette as openAiAgents } from "tool-palette/openai-agents";
import { toolPaletteMiddleware } from "tool-palette/langchain";

declare const signal: AbortSignalLike;
const router = new ToolRouter({ registered: ["a"], entries: (ctx: { message: string }) => [ctx.message] });
const policies = new ToolPolicies([], { registered: ["a"] });

export const adapters = [
  aiSdk({ router, policies, onRoute: (report) => report.stepNumber }),
  openAiAgents({ router, policies, onRoute: (report) => report.agent }),
  toolPaletteMiddleware({ router, policies }),
];
export const turn = resolvePalette({ entries: () => ["a"], registered: ["a"], signal });
export const routed = router.resolve({ signal, context: { message: "a" } });
