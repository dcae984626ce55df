// Types of tool-palette/ai-sdk, the Vercel AI SDK (`ai` 7) adapter. Structural: no import of `ai`.
import type { AdapterOptions, RouteReport } from "./shared.js";
export type { AdapterOptions, RouteReport, RouterOption, RouterLike, PoliciesLike } from "./shared.js";

/** The default context: the text of the last user message, and the messages. */
export interface AiSdkContext {
  message: string;
  messages: readonly unknown[];
}

/** What `context` receives: the options of `prepareStep` (or of a tool's `execute`). */
export interface AiSdkStepInput {
  messages?: readonly unknown[];
  stepNumber?: number;
}

export interface AiSdkPaletteOptions<Ctx, Model>
  extends AdapterOptions<Ctx, Model, any, RouteReport<Ctx, Model> & { stepNumber: number | undefined }> {}

export interface AiSdkToolPalette<Model> {
  /** Pass as `generateText({ prepareStep })`/`streamText`/`ToolLoopAgent`: returns `activeTools` (routed) and `model` (the policy's). */
  prepareStep(options: AiSdkStepInput): Promise<{ activeTools?: any[]; model?: Model }>;
  /** The same tools, each `execute` dispatched through the policies (a redirect runs the target's `execute`). */
  wrapTools<Tools extends Record<string, any>>(tools: Tools): Tools;
}

export declare function defaultContext(input: AiSdkStepInput): AiSdkContext;

export declare function createToolPalette<Ctx = AiSdkContext, Model = any>(
  options?: AiSdkPaletteOptions<Ctx, Model>,
): AiSdkToolPalette<Model>;
