// The official SDKs' own types against ours (the SDKs are devDependencies), under --strict
// and exactOptionalPropertyTypes (tsconfig.json): the tool arrays a user already has go
// into `new ToolIndex(tools)` as they are, and the options accept an explicit `undefined`
// where a value may be missing (`signal: AbortSignal | undefined`), as users write them.
import type Anthropic from "@anthropic-ai/sdk";
import type { FunctionTool } from "openai/resources/responses/responses";
import type { ChatCompletionFunctionTool } from "openai/resources/chat/completions";
import type { Tool as McpSdkTool } from "@modelcontextprotocol/sdk/types.js";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { PaletteRun, ToolIndex, ToolPolicies, ToolRouter, resolvePalette } from "tool-palette";
import { createToolPalette as aiSdk } from "tool-palette/ai-sdk";
import { createToolPalette as openAiAgents } from "tool-palette/openai-agents";
import { toolPaletteMiddleware } from "tool-palette/langchain";
import { createMcpPalette } from "tool-palette/mcp";
import { anthropicMessages, answerAnthropicToolSearch, openaiResponses } from "tool-palette/providers";

declare const anthropicTools: Anthropic.Tool[];
declare const responsesTools: FunctionTool[];
declare const chatTools: ChatCompletionFunctionTool[];
declare const mcpTools: McpSdkTool[];
declare const readonlyTools: readonly Anthropic.Tool[];

// The SDKs' tool arrays, as they are.
export const indexes = [
  new ToolIndex(anthropicTools),
  new ToolIndex(responsesTools),
  new ToolIndex(chatTools),
  new ToolIndex(mcpTools),
  new ToolIndex(readonlyTools),
  // What a tool carries beside what the index reads stays allowed in a literal.
  new ToolIndex([{ name: "a", description: "the a tool", strict: true, execute: () => 1 }]),
];
// @ts-expect-error a tool needs a string name
new ToolIndex([{ description: "no name" }]);

// Options that may be missing, given as an explicit `undefined`.
declare const signal: AbortSignal | undefined;
declare const message: string | undefined;
declare const limit: number | undefined;
declare const timeoutMs: number | undefined;
declare const onWarning: ((warning: Error) => void) | undefined;

const router = new ToolRouter({ registered: ["a"], entries: (ctx: { message: string | undefined }) => [ctx.message ?? "a"], timeoutMs, onWarning, onDecision: undefined });
export const routed = router.resolve({ signal, context: { message } });
export const turn = resolvePalette({ entries: () => ["a"], registered: ["a"], signal, timeoutMs, candidateOf: undefined });
export const index = new ToolIndex(anthropicTools, { limit, embed: undefined, explain: undefined });
export const hits = index.search("a", { limit, vector: undefined });
export const rows = index.entries({ message, history: undefined });
export const loaded = ToolIndex.load(new Uint8Array(), { signal, limit });
export const run = new PaletteRun({ registered: ["a"], cache: undefined, pinned: undefined });
const policies = new ToolPolicies<{ message: string }>([{ name: "p", match: () => true, redirectTo: undefined, whenTool: undefined }], { registered: undefined, onWarning });
export const dispatched = policies.dispatch({ name: "a", args: undefined, id: undefined }, { message: "a" });

export const adapters = [
  aiSdk({ router, policies, mode: undefined, cache: undefined, onWarning: undefined, alwaysInclude: undefined }),
  openAiAgents({ router: undefined, tracing: undefined, outsidePalette: undefined }),
  toolPaletteMiddleware({ name: undefined, router, context: undefined }),
];

// The MCP SDK's Client is a server of the palette as it is; route() and callTool() take an explicit undefined.
declare const client: Client;
declare const use: Anthropic.ToolUseBlock;
const mcp = createMcpPalette({ servers: { github: client }, limit, timeoutMs, searchTool: undefined, cache: "deferred", index: { embed: undefined } });
export async function mcpTurn() {
  const mcpRun = mcp.run();
  const t = await mcpRun.route(message ?? "", { signal });
  await mcpRun.callTool({ name: "a", arguments: undefined, id: undefined }, { signal });
  // The Anthropic request of an MCP turn, and the model's search answered from the turn's index.
  const tools = [...t.tools, ...t.deferred];
  const request: Partial<Anthropic.MessageCreateParamsNonStreaming> = anthropicMessages(t.report, tools, { search: { name: undefined } });
  const answer: Anthropic.ToolResultBlockParam = answerAnthropicToolSearch(use, { step: t.report, index: t.index, tools, run: mcpRun, limit });
  return [request, answer, openaiResponses(t.report, tools, { search: undefined })];
}
