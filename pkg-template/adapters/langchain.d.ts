// Types of tool-palette/langchain, the LangChain.js v1 `createAgent` middleware. Structural: no import of langchain.
import type { AdapterOptions } from "./shared.js";
export type { AdapterOptions, RouteReport, RouterOption, RouterLike, PoliciesLike } from "./shared.js";

/** The default context: the last human message's text, the messages, the agent's runtime context. */
export interface LangChainContext {
  message: string;
  messages: readonly unknown[];
  runtimeContext: unknown;
}

export interface LangChainPaletteOptions<Ctx, Model> extends AdapterOptions<Ctx, Model, any> {
  /** The middleware's name (unique among an agent's middleware). Default "ToolPaletteMiddleware". */
  name?: string;
}

/** A middleware object for `createAgent({ middleware: [...] })`. */
export interface ToolPaletteMiddleware {
  name: string;
  wrapModelCall(request: any, handler: (request: any) => any): Promise<any>;
  wrapToolCall(request: any, handler: (request: any) => any): Promise<any>;
}

/** `request` is the request of `wrapModelCall` or of `wrapToolCall`. */
export declare function defaultContext(request: unknown): LangChainContext;

export declare function toolPaletteMiddleware<Ctx = LangChainContext, Model = any>(
  options?: LangChainPaletteOptions<Ctx, Model>,
): ToolPaletteMiddleware;
