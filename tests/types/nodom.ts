// The published declarations, adapters included, must check with no DOM or Node typings
// (lib ES2022 only, skipLibCheck off): users on plain Node or Workers get no errors.
import { ToolIndex, ToolPolicies, ToolRouter, resolvePalette, type AbortSignalLike } from "tool-palette";
import { createToolPalette as aiSdk, type StepReport } from "tool-palette/ai-sdk";
import { createToolPalette as openAiAgents, ToolOutsidePaletteError } from "tool-palette/openai-agents";
import { toolPaletteMiddleware, CUSTOM_EVENT } from "tool-palette/langchain";
import { createMcpPalette, type McpTurnReport } from "tool-palette/mcp";
import { anthropicMessages, geminiConfig, openaiChat, openaiResponses, type ToolDefinitions } from "tool-palette/providers";

declare const signal: AbortSignalLike;
const router = new ToolRouter({ registered: ["a"], entries: (ctx: { message: string }) => [ctx.message] });
const policies = new ToolPolicies<{ message: string }>([], { registered: ["a"] });

const log = (report: StepReport): string =>
  `${report.step} ${report.mode} ${report.routing?.rule ?? "-"} ${report.offered?.join(",") ?? "*"} ${report.hidden.length} ` +
  `${report.selection?.policy ?? ""} ${report.dispatches.map((d) => d.call.name).join(",")} ${report.outside.filter((c) => c.refused).length}`;

export const adapters = [
  aiSdk({ router, policies, onRoute: (report) => report.stepNumber, onDecision: (report) => void log(report) }),
  openAiAgents({ router, policies, onRoute: (report) => report.agent, mode: "shadow", alwaysInclude: new Set(["a"]) }),
  toolPaletteMiddleware({
    router: (ctx: { message: string }, { signal, onDecision }) => resolvePalette({ entries: () => [ctx.message], registered: ["a"], signal, onDecision }),
    policies,
    outsidePalette: "allow",
    tracing: false,
    onWarning: (warning) => void warning.code,
  }),
];
export const names: [string, string] = [CUSTOM_EVENT, new ToolOutsidePaletteError("m", { toolName: "a", offered: null }).name];
export const turn = resolvePalette({ entries: () => ["a"], registered: ["a"], signal });
export const routed = router.resolve({ signal, context: { message: "a" } });

const client = { listTools: async () => ({ tools: [{ name: "a", inputSchema: { type: "object" as const } }] }), callTool: async () => ({ content: [] }) };
const mcpRun = createMcpPalette({ servers: { one: client }, policies, countTokens: (t) => t.length, onDecision: (r: McpTurnReport) => void r.servers.one.definitions.offered.tokens }).run();
export const mcp = [aiSdk({ ...mcpRun.adapterOptions }), mcpRun.route("a", { signal }), mcpRun.callTool({ name: "a", arguments: {} }, { signal })];

// tool-palette/providers: a run's step as provider request fields.
import { PaletteRun } from "tool-palette";
const defs: ToolDefinitions = { a: { description: "the a tool", parameters: { type: "object" } } };
const providerStep = new PaletteRun({ registered: ["a"], cache: "fixed" }).step(await router.resolve({ context: { message: "a" } }));
export const shapes = [openaiChat(providerStep, defs).tool_choice?.allowed_tools.tools, openaiResponses(providerStep, defs).tools, anthropicMessages(providerStep, defs).tools[0]?.cache_control, geminiConfig(providerStep, defs, { mode: "ANY" }).toolConfig?.functionCallingConfig.mode];

// ToolIndex.load from a stream, with no DOM types: any object of the shape.
declare const chunks: { getReader(): { read(): Promise<{ done: false; value: Uint8Array } | { done: true; value?: undefined }>; cancel(reason?: unknown): Promise<void> } };
export const streamed: Promise<ToolIndex> = ToolIndex.load(chunks, { signal });
export const object: Promise<ToolIndex> = ToolIndex.load({ body: chunks, bodyUsed: false });
