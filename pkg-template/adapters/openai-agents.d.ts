// Types of tool-palette/openai-agents, the OpenAI Agents SDK adapter. Structural: no import of the SDK.
import type { AdapterOptions, RouteReport } from "./shared.js";
export type {
  AdapterOptions,
  RouteReport,
  RouterOption,
  RouterCallOptions,
  RouterLike,
  PoliciesLike,
  StepReport,
  OutsideCall,
  ToolPaletteAdapterWarning,
} from "./shared.js";

/** The default context when your run context has no `message` of its own. */
export interface OpenAIAgentsContext {
  message: string;
}

/**
 * What `context` receives: `{ request, runContext, agent, message }` at the model seam (a ModelRequest, and the run
 * context and agent the SDK showed this run's tools; `message` the turn's last user text, its text parts joined by "\n"), `{ runContext, agent }`
 * at a tool seam the model seam did not serve.
 */
export interface OpenAIAgentsContextInput {
  request?: { input: unknown } | undefined;
  runContext: { context: any } | undefined;
  agent: unknown;
  message?: string | undefined;
}

export interface OpenAIAgentsPaletteOptions<Ctx, Model>
  extends AdapterOptions<Ctx, Model, OpenAIAgentsContextInput, RouteReport<Ctx, Model> & { agent: unknown }> {}

/** The shape of the SDK's Model interface that the adapter delegates to. */
export interface ModelLike {
  getResponse(request: any): Promise<any>;
  getStreamedResponse(request: any): AsyncIterable<any>;
}

export interface OpenAIAgentsToolPalette {
  /** Copies of the function tools: `invoke` dispatched through the policies, `isEnabled` showing the run context to the model seam. */
  tools<Tools extends readonly any[]>(tools: Tools): Tools;
  /** A Model that routes every turn, offers the model only the palette, and answers with the policy's model (a Model instance), else `fallback`. */
  model(fallback?: ModelLike): ModelLike;
  /** The run's saved form now (issue 41: `saved` continues it in another process); `null` without `cache` or `skills`. */
  save(): string | null;
}

/** What a run rejects with when the model calls a function tool the turn did not offer: `name` is "ModelBehaviorError", as the SDK's own. */
export declare class ToolOutsidePaletteError extends Error {
  constructor(message: string, details: { toolName: string; offered: readonly string[] | null });
  readonly name: "ModelBehaviorError";
  readonly toolName: string;
  readonly offered: readonly string[] | null;
}

export declare function defaultContext(input: OpenAIAgentsContextInput): any;

export declare function createToolPalette<Ctx = any, Model = any>(
  options?: OpenAIAgentsPaletteOptions<Ctx, Model>,
): OpenAIAgentsToolPalette;
