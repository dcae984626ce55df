// Types of tool-palette/ai-sdk, the Vercel AI SDK (`ai` 7) adapter. Structural: no import of `ai`.
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

/** The default context: the step's message, its messages, and the runtime context of the call. */
export interface AiSdkContext {
  /** `runtimeContext.message` when your runtime context has a string one, else the last user message's text (its text parts joined by "\n"). */
  message: string;
  messages: readonly unknown[];
  runtimeContext: unknown;
}

/** What `context` receives: the options of `prepareStep` (or of a tool's `execute`). */
export interface AiSdkStepInput {
  messages?: readonly unknown[] | undefined;
  stepNumber?: number | undefined;
  runtimeContext?: unknown;
}

export interface AiSdkPaletteOptions<Ctx, Model>
  extends AdapterOptions<Ctx, Model, any, RouteReport<Ctx, Model> & { stepNumber: number | undefined }> {}

export interface AiSdkToolPalette<Model> {
  /**
   * Pass as `generateText({ prepareStep })`/`streamText`/`ToolLoopAgent`: returns the offered names as `activeTools`,
   * the step's model (the policy's, watched), and, with tracing, `runtimeContext.toolPalette`.
   */
  prepareStep(options: AiSdkStepInput): Promise<{ activeTools?: any[]; model?: any; runtimeContext?: any; messages?: any[] }>;
  /**
   * The same tools, each `execute` dispatched through the policies (a redirect runs the target's `execute`), in a new
   * record with the same keys (own data properties: `__proto__` and the like are ordinary names).
   */
  wrapTools<Tools extends Record<string, any>>(tools: Tools): Tools;
  /** The run's saved form now (issue 41: `saved` continues it in another process); `null` without `cache` or `skills`. */
  save(): string | null;
}

export declare function defaultContext(input: AiSdkStepInput): AiSdkContext;

export declare function createToolPalette<Ctx = AiSdkContext, Model = any>(
  options?: AiSdkPaletteOptions<Ctx, Model>,
): AiSdkToolPalette<Model>;

/**
 * A `search` function for `toolSearch({ search })`, ranked by the package's `ToolIndex`: give an index
 * built from your tools (parameter schemas count too), or none to index the candidates the SDK hands over.
 * It answers the candidates the SDK handed over (the deferred tools still to find) that match, best first.
 */
export declare function toolSearchFunction(
  index?: { search(query: string, options?: { limit?: number }): readonly { readonly name: string }[]; readonly size?: number },
): (options: { query: string; tools: Array<{ name: string; description?: string | undefined }> }) => string[];
