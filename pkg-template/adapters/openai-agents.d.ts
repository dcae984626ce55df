// Types of tool-palette/openai-agents, the OpenAI Agents SDK adapter. Structural: no import of the SDK.
import type { AdapterOptions, RouteReport } from "./shared.js";
export type { AdapterOptions, RouteReport, RouterOption, RouterLike, PoliciesLike } from "./shared.js";

/** The default context when `run(agent, input, { context })` was given a string or nothing. */
export interface OpenAIAgentsContext {
  message: string;
}

/**
 * What `context` receives: `{ runContext, agent }` at the tool seams (`isEnabled`,
 * `invoke`), `{ request }` (a ModelRequest) at the model seam.
 */
export type OpenAIAgentsContextInput =
  | { runContext: { context: any } | undefined; agent: unknown; request?: undefined }
  | { request: { input: unknown }; runContext?: undefined; agent?: undefined };

export interface OpenAIAgentsPaletteOptions<Ctx, Model>
  extends AdapterOptions<Ctx, Model, OpenAIAgentsContextInput, RouteReport<Ctx, Model> & { agent: unknown }> {}

/** The shape of the SDK's Model interface that the adapter delegates to. */
export interface ModelLike {
  getResponse(request: any): Promise<any>;
  getStreamedResponse(request: any): AsyncIterable<any>;
}

export interface OpenAIAgentsToolPalette {
  /** Copies of the function tools: `isEnabled` gated by this turn's palette, `invoke` dispatched through the policies. */
  tools<Tools extends readonly any[]>(tools: Tools): Tools;
  /** A Model that serves every turn with the policy's model (a Model instance), else with `fallback`. */
  model(fallback?: ModelLike): ModelLike;
}

export declare function defaultContext(input: OpenAIAgentsContextInput): any;

export declare function createToolPalette<Ctx = any, Model = any>(
  options?: OpenAIAgentsPaletteOptions<Ctx, Model>,
): OpenAIAgentsToolPalette;
