// Types shared by the framework adapters of tool-palette (internal module).
import type { AbortSignalLike, Dispatch, ModelSelection, RouterOutcome, ToolCall } from "../index.js";

/** Anything with a ToolRouter's `resolve()`: a ToolRouter of the ESM or the CommonJS build. */
export interface RouterLike {
  /** Asked every turn with the turn's context, which a ToolRouter hands to `entries(context)`. */
  resolve(options?: { signal?: AbortSignalLike; context?: unknown }): Promise<RouterOutcome>;
}

/**
 * The router option: a `ToolRouter`, asked `resolve({ signal, context })` every turn, or a per-turn
 * resolver given this turn's context, e.g.
 * `(ctx) => resolvePalette({ entries: () => skills.search(ctx.message), registered })`.
 */
export type RouterOption<Ctx> =
  | RouterLike
  | ((ctx: Ctx, options: { signal?: AbortSignalLike }) => RouterOutcome | PromiseLike<RouterOutcome>);

/** Anything with a ToolPolicies' two seams. */
export interface PoliciesLike<Ctx, Model> {
  selectModel(ctx: Ctx): ModelSelection<Model>;
  dispatch(call: any, ctx: Ctx, palette?: Iterable<string> | RouterOutcome | null): Dispatch<any>;
}

/** What `onRoute` receives at the PRE seam of every step or turn. */
export interface RouteReport<Ctx, Model> {
  ctx: Ctx;
  /** `undefined` when no router was given. */
  outcome: RouterOutcome | undefined;
  /** The routed names, or `undefined` for "every tool". */
  activeTools: string[] | undefined;
  /** `null` when no policies were given (and at the OpenAI Agents tool gate, which selects no model). */
  selection?: ModelSelection<Model> | null;
}

/** The options every adapter takes; each adapter adds to what `onRoute` receives. */
export interface AdapterOptions<Ctx, Model, Input, Report = RouteReport<Ctx, Model>> {
  /** No router: no narrowing (every tool, every turn). */
  router?: RouterOption<Ctx> | null;
  /** No policies: the framework's model, and every call dispatched as emitted. */
  policies?: PoliciesLike<Ctx, Model> | null;
  /** Derives the policies' and the router's context from the framework's step input. */
  context?: (input: Input) => Ctx;
  /** Called at the PRE seam with what was routed and selected (logging, metrics). */
  onRoute?: (report: Report) => void;
  /** Called at the POST seam with the dispatch decision. */
  onDispatch?: (dispatch: Dispatch<ToolCall>, ctx: Ctx) => void;
}
