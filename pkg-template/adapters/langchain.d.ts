// Types of tool-palette/langchain, the LangChain.js v1 `createAgent` middleware. Structural: no import of langchain.
import type { AdapterOptions } from "./shared.js";
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

/** The default context: the step's message, the messages, the agent's runtime context. */
export interface LangChainContext {
  /** The runtime context's `message` when it has a string one, else the last human message's text (its text parts joined by "\n"). */
  message: string;
  messages: readonly unknown[];
  runtimeContext: unknown;
}

export interface LangChainPaletteOptions<Ctx, Model> extends AdapterOptions<Ctx, Model, any> {
  /** The middleware's name (unique among an agent's middleware). Default "ToolPaletteMiddleware". */
  name?: string | undefined;
}

/** A middleware object for `createAgent({ middleware: [...] })`. */
export interface ToolPaletteMiddleware {
  name: string;
  wrapModelCall(request: any, handler: (request: any) => any): Promise<any>;
  wrapToolCall(request: any, handler: (request: any) => any): Promise<any>;
  /** The run's saved form now (issue 41: `saved` continues it in another process); `null` without `cache` or `skills`. */
  save(): string | null;
}

/** The name of the custom event each step's attributes are dispatched as, to the run's callbacks (`handleCustomEvent`). */
export declare const CUSTOM_EVENT: "tool_palette_step";

/** `request` is the request of `wrapModelCall` or of `wrapToolCall`. */
export declare function defaultContext(request: unknown): LangChainContext;

export declare function toolPaletteMiddleware<Ctx = LangChainContext, Model = any>(
  options?: LangChainPaletteOptions<Ctx, Model>,
): ToolPaletteMiddleware;
