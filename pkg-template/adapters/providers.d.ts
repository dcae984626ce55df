// Types of tool-palette/providers: a run's step as the tool fields of one provider request.
// Structural, so that they are assignable to the official SDKs' own parameter types
// (openai, @anthropic-ai/sdk, @google/genai), which the package does not import.
import type { PaletteStep } from "tool-palette";

/** A JSON schema object. */
export type JsonSchema = { [key: string]: unknown };

/** One tool's definition: its name, description and parameter schema (a JSON schema; `inputSchema` or `input_schema` are read too). A ToolIndex reads it as well. */
export type ToolDefinition = {
  name: string;
  description?: string | undefined;
  parameters?: JsonSchema | undefined;
  inputSchema?: JsonSchema | undefined;
  input_schema?: JsonSchema | undefined;
  /** Passed on to providers that have it (OpenAI, Anthropic); OpenAI Responses gets `false` without it. */
  strict?: boolean | undefined;
};

/** The definitions of every tool a step may name: an array, or a record keyed by name (an MCP tools/list mapped by name…). */
export type ToolDefinitions = readonly ToolDefinition[] | Record<string, Omit<ToolDefinition, "name">>;

/** The step's lists (a `PaletteStep` of `run.step(outcome)`). */
export type StepLists = Pick<PaletteStep, "offered" | "listed" | "deferred" | "revealed"> & { readonly step?: number | undefined };

/** The client tool search tool sent with deferred tools. */
export interface SearchToolOptions {
  /** Anthropic: the search tool's name (default "tool_search"); it must not be one of the tools'. */
  name?: string | undefined;
  /** What the model reads about the search tool. */
  description?: string | undefined;
}

/** What answers a model's tool search: the step it was asked in, a ToolIndex over the tools, and their definitions. */
export interface ToolSearchAnswerOptions {
  step: StepLists;
  /** A `ToolIndex` (anything with its `search(query, { limit })`). */
  index: { search(query: string, options?: { limit?: number }): readonly { readonly name: string }[] };
  tools: ToolDefinitions;
  /** Hits per search (default: the index's own). */
  limit?: number | undefined;
  /** The `PaletteRun` the step came from: what the search loads is revealed to it (`run.reveal`), so its next steps offer those tools and never reveal them again. */
  run?: { reveal(names: Iterable<string>): readonly string[] } | null | undefined;
}

// ---- OpenAI Chat Completions

export interface OpenAIChatFunctionTool {
  type: "function";
  function: { name: string; description?: string; parameters: JsonSchema; strict?: boolean };
}
export interface OpenAIChatAllowedTools {
  type: "allowed_tools";
  allowed_tools: { mode: "auto"; tools: { type: "function"; function: { name: string } }[] };
}
export interface OpenAIChatTools {
  tools: OpenAIChatFunctionTool[];
  /** Set when the step offers fewer tools than it lists (cache "fixed"). */
  tool_choice?: OpenAIChatAllowedTools;
}
/**
 * `{ tools, tool_choice? }` for `client.chat.completions.create({ model, messages, ...openaiChat(step, tools) })`.
 * Throws an Error for a step with deferred tools (Chat Completions has no deferred loading).
 */
export declare function openaiChat(step: StepLists, tools: ToolDefinitions): OpenAIChatTools;

// ---- OpenAI Responses

export interface OpenAIResponsesFunctionTool {
  type: "function";
  name: string;
  description?: string;
  parameters: JsonSchema;
  strict: boolean;
  defer_loading?: true;
}
export interface OpenAIResponsesToolSearchTool {
  type: "tool_search";
  execution: "client";
  description: string;
  parameters: JsonSchema;
}
export interface OpenAIResponsesAllowedTools {
  type: "allowed_tools";
  mode: "auto";
  tools: { type: "function"; name: string }[];
}
export interface OpenAIResponsesTools {
  tools: (OpenAIResponsesFunctionTool | OpenAIResponsesToolSearchTool)[];
  /** Set when the step offers fewer tools than it lists (cache "fixed"). */
  tool_choice?: OpenAIResponsesAllowedTools;
}
export interface OpenAIToolSearchCall {
  type: "tool_search_call";
  call_id: string;
  execution: "client";
  status: "completed";
  arguments: { query: string };
}
export interface OpenAIToolSearchOutput {
  type: "tool_search_output";
  call_id: string;
  execution: "client";
  status: "completed";
  tools: OpenAIResponsesFunctionTool[];
}
/**
 * `{ tools, tool_choice? }` for `client.responses.create({ model, input, ...openaiResponses(step, tools) })`; a step with
 * deferred tools sends them with `defer_loading: true` and a client-executed `tool_search` tool.
 */
export declare function openaiResponses(step: StepLists, tools: ToolDefinitions, options?: { search?: Omit<SearchToolOptions, "name"> | undefined }): OpenAIResponsesTools;
/** The input items to append after the history that load the step's `revealed` tools: `[call, output]`, or `[]`. */
export declare function openaiResponsesReveal(step: StepLists, tools: ToolDefinitions): [] | [OpenAIToolSearchCall, OpenAIToolSearchOutput];
/** The `tool_search_output` item answering a `tool_search_call` the model emitted: the deferred tools `index` finds for its query. */
export declare function answerOpenaiToolSearch(call: { type: "tool_search_call"; call_id: string | null; arguments: unknown }, options: ToolSearchAnswerOptions): OpenAIToolSearchOutput;

// ---- Anthropic Messages

export interface AnthropicTool {
  name: string;
  description?: string;
  input_schema: { type: "object"; [key: string]: unknown };
  strict?: boolean;
  defer_loading?: true;
  cache_control?: { type: "ephemeral" };
}
export interface AnthropicTools {
  tools: AnthropicTool[];
}
export interface AnthropicToolReference {
  type: "tool_reference";
  tool_name: string;
}
export interface AnthropicToolSearchResult {
  type: "tool_result";
  tool_use_id: string;
  content: AnthropicToolReference[] | { type: "text"; text: string }[];
}
export type AnthropicRevealMessages =
  | []
  | [
      { role: "assistant"; content: { type: "tool_use"; id: string; name: string; input: { query: string } }[] },
      { role: "user"; content: { type: "tool_result"; tool_use_id: string; content: AnthropicToolReference[] }[] },
    ];
/**
 * `{ tools }` for `client.messages.create({ model, max_tokens, messages, ...anthropicMessages(step, tools) })`; a step with
 * deferred tools sends them with `defer_loading: true` and a client tool search tool. Throws an Error for a step that offers
 * fewer tools than it lists (cache "fixed": the Messages API cannot restrict the callable tools).
 */
export declare function anthropicMessages(step: StepLists, tools: ToolDefinitions, options?: { search?: SearchToolOptions | undefined }): AnthropicTools;
/** The messages to append after the history that load the step's `revealed` tools (a search's `tool_use` and its `tool_result`), or `[]`. */
export declare function anthropicReveal(step: StepLists, tools: ToolDefinitions, options?: { search?: SearchToolOptions | undefined }): AnthropicRevealMessages;
/** The `tool_result` block answering the model's `tool_use` of the search tool: `tool_reference` blocks of the deferred tools `index` finds. */
export declare function answerAnthropicToolSearch(toolUse: { type: "tool_use"; id: string; input: unknown }, options: ToolSearchAnswerOptions): AnthropicToolSearchResult;

// ---- Gemini

export interface GeminiFunctionDeclaration {
  name: string;
  description?: string;
  parametersJsonSchema: JsonSchema;
}
export interface GeminiTools<Mode extends GeminiMode = "VALIDATED"> {
  tools: { functionDeclarations: GeminiFunctionDeclaration[] }[];
  /** Set when the step offers fewer tools than it lists (cache "fixed"). */
  toolConfig?: { functionCallingConfig: { mode: Mode; allowedFunctionNames: string[] } };
}
/** The function calling modes that read `allowedFunctionNames` (@google/genai's `FunctionCallingConfigMode.VALIDATED` and `.ANY`). */
export type GeminiMode = "VALIDATED" | "ANY";
/**
 * `{ tools, toolConfig? }` for the `config` of `ai.models.generateContent({ model, contents, config: { ...geminiConfig(step, tools) } })`.
 * A restricted step runs in `options.mode`: "VALIDATED" (default; text or a call of an offered tool) or "ANY" (a call of one).
 * With @google/genai's types, pass its enum (`{ mode: FunctionCallingConfigMode.VALIDATED }`): TypeScript does not take a
 * string for an enum. Throws an Error for a step with deferred tools (the Gemini API has no deferred loading).
 */
export declare function geminiConfig<Mode extends GeminiMode = "VALIDATED">(step: StepLists, tools: ToolDefinitions, options?: { mode?: Mode | undefined }): GeminiTools<Mode>;
