// Types shared by the framework adapters of tool-palette (internal module).
import type { AbortSignalLike, Dispatch, LoadSkillTool, ModelSelection, RouterOutcome, RoutingDecision, Skill, SkillIndex, SkillRows, ToolCall, ToolContext } from "../index.js";

/** Anything with a ToolRouter's `resolve()`: a ToolRouter of the ESM or the CommonJS build. */
export interface RouterLike {
  /** Asked every step with the step's context, which a ToolRouter hands to `entries(context)`. */
  resolve(options?: { signal?: AbortSignalLike | undefined; context?: unknown; onDecision?: ((decision: RoutingDecision) => void) | undefined }): Promise<RouterOutcome>;
}

/** What a function router receives besides the context: pass both on to `resolvePalette` to get the step's decision report. */
export interface RouterCallOptions {
  signal?: AbortSignalLike | undefined;
  onDecision: (decision: RoutingDecision) => void;
  /** The adapter's mode: a router that also gates calls (tool-palette/mcp's run) lets every call run in shadow mode. */
  mode: "enforce" | "shadow";
  /** The adapter's outsidePalette: with "allow", a router that also gates calls lets a call to another listed tool run. */
  outsidePalette: "refuse" | "allow";
}

/**
 * The router option: a `ToolRouter`, asked `resolve({ signal, context, onDecision })` every step, or a per-step
 * resolver given the step's context, e.g.
 * `(ctx, { signal, onDecision }) => resolvePalette({ entries: () => skills.search(ctx.message), registered, signal, onDecision })`.
 */
export type RouterOption<Ctx> =
  | RouterLike
  | ((ctx: Ctx, options: RouterCallOptions) => RouterOutcome | PromiseLike<RouterOutcome>);

/** Anything with a ToolPolicies' two seams. */
export interface PoliciesLike<Ctx, Model> {
  selectModel(ctx: Ctx): ModelSelection<Model>;
  dispatch(call: any, ctx: Ctx, palette?: Iterable<string> | RouterOutcome | null): Dispatch<any>;
}

/** A call the model emitted to a tool the step did not offer. */
export interface OutsideCall {
  readonly id: string | null;
  readonly name: string;
  /** Refused by the adapter (`mode: "enforce"`, `outsidePalette: "refuse"`); `false` when it ran (shadow mode, or allowed). */
  readonly refused: boolean;
}

/**
 * The run's lists of a step (SPEC 8) and its skills (SPEC 9), in the framework adapters' reports and tool-palette/mcp's
 * (declared once, as the kernel writes them once: kernel/runs.js `runLists`); each report says what its `listed` is.
 */
export interface RunLists {
  /** With `cache: "deferred"`: the names to send as deferred definitions (loaded on demand); else `[]` (always `[]` in the framework adapters: none sends deferred definitions). */
  readonly deferred: readonly string[];
  /** With `cache: "deferred"`: the offered names new to the run, to reveal after the history; else `[]`. */
  readonly revealed: readonly string[];
  /** With `cache`: whether `listed` (and `deferred`) are the previous step's (the prompt cache's prefix kept; false at the run's first step). `null` without `cache`. */
  readonly kept: boolean | null;
  /** Only with skills (SPEC 9): the step's relevant skills, best first. */
  readonly skills?: readonly string[];
  /** Only with skills: those new to the run, whose instructions the model is given after the history (tool-palette/mcp: `turn.instructions`). */
  readonly newSkills?: readonly string[];
}

/**
 * What `onDecision` receives once per model step, when the step's calls are dispatched:
 * frozen, JSON-serialisable (log it with `JSON.stringify(report)`).
 */
export interface StepReport extends RunLists {
  /** The model step within the run (the AI SDK's stepNumber; the turn of an Agents run; the model call since the last human message in LangChain), from 0. */
  readonly step: number;
  readonly mode: "enforce" | "shadow";
  /** The router's decision report (SPEC section 5); `null` without a router, or when a function router did not pass `onDecision` on. */
  readonly routing: RoutingDecision | null;
  /**
   * The names offered (in shadow mode: that would have been): the routed names and `alwaysInclude` that are among the
   * framework's tools (with the AI SDK's toolSearch: what the model was sent, the search tool and the deferred tools it
   * found); `null` = every tool, also when routing named none of the framework's tools (never none).
   */
  readonly offered: readonly string[] | null;
  /** The framework's tools the model did not see (in shadow mode: would not have seen). */
  readonly hidden: readonly string[];
  /** `selectModel`'s answer, the model as a label (its id or name); `null` without policies. In shadow mode it was not applied. */
  readonly selection: { readonly model: string | null; readonly source: "policy" | "resolver" | "default"; readonly policy: string | null } | null;
  /** Every dispatch of the step's calls, in the order they were dispatched. In shadow mode none was applied. */
  readonly dispatches: readonly Dispatch<ToolCall>[];
  /** The calls to tools the step did not offer (in shadow mode: would not have offered). */
  readonly outside: readonly OutsideCall[];
  /**
   * The names whose definitions the model was sent, in the order sent (SPEC 8 `listed`): with `cache`, the run's;
   * without, the offered names (`null` = every tool). With "fixed", every tool, of which `offered` may be called.
   */
  readonly listed: readonly string[] | null;
}

/** What `skills` reads a set of skills through: a `SkillIndex`, or tool-palette/mcp's `run.skills` (which reads a server's skill when needed). */
export interface SkillSource {
  readonly entries: (context?: ToolContext) => SkillRows | Promise<SkillRows>;
  get(name: string): Skill | undefined;
  /**
   * The load_skill tool named `name`; with `run`, its `call` records the skill it loads there (`run.addSkill(skill, tools)`): the adapters read
   * which skill was loaded from that call.
   */
  loadSkillTool(options?: { name?: string | undefined; run?: { addSkill(skill: string, tools: readonly string[]): unknown } | undefined }): LoadSkillTool;
  /** A skill's instructions as the model is given them (default: its body in a `<skill name="…">` element). */
  instructions?(name: string): string | Promise<string>;
}

/** What `onRoute` receives at the PRE seam of every step or turn. */
export interface RouteReport<Ctx, Model> {
  ctx: Ctx;
  /** `undefined` when no router was given. */
  outcome: RouterOutcome | undefined;
  /** The offered names (routed and pinned), or `undefined` for "every tool". */
  activeTools: string[] | undefined;
  /** `null` when no policies were given. */
  selection?: ModelSelection<Model> | null;
}

/** A warning of an adapter, delivered once per adapter instance and code. */
export interface ToolPaletteAdapterWarning extends Error {
  readonly name: "ToolPaletteAdapterWarning";
  /**
   * "NO_MESSAGE": no user message for a step; "NO_PREPARE_STEP" / "NO_MODEL_SEAM": a tool ran in a step the adapter's
   * model seam did not serve; "MODEL_NOT_WATCHED" (AI SDK): a step's model is an id string, whose calls the adapter cannot see;
   * "NOTHING_OFFERED": routing named none of the framework's tools it could show the model (names it does not have; with
   * the AI SDK, deferred tools no toolSearch found yet), so every tool was offered;
   * "LIST_FAILED:<server>" (MCP): a server could not be listed.
   */
  readonly code: string;
}

/** The options every adapter takes; each adapter adds to what `onRoute` receives. */
export interface AdapterOptions<Ctx, Model, Input, Report = RouteReport<Ctx, Model>> {
  /** No router: no narrowing (every tool, every step). */
  router?: RouterOption<Ctx> | null | undefined;
  /** No policies: the framework's model, and every call dispatched as emitted. */
  policies?: PoliciesLike<Ctx, Model> | null | undefined;
  /** Derives the policies' and the router's context from the framework's step input (default: the adapter's defaultContext). */
  context?: ((input: Input) => Ctx) | undefined;
  /** Every model step's report, once its calls are dispatched. What it throws propagates from the seam that completed the step. */
  onDecision?: ((report: StepReport) => void) | undefined;
  /** "enforce" (default) narrows, swaps the model and redirects; "shadow" computes and reports all of it and changes nothing. */
  mode?: "enforce" | "shadow" | undefined;
  /** Tool names offered on every step besides the routed ones (when routing narrows). The outcome itself is unchanged. */
  alwaysInclude?: Iterable<string> | undefined;
  /** A call to a tool the step did not offer: "refuse" (default), each framework's way, or "allow" it to run. */
  outsidePalette?: "refuse" | "allow" | undefined;
  /**
   * Keep the provider's prompt cache across the run (SPEC 8): the adapter is one `PaletteRun` over the framework's tools
   * (make one adapter per conversation; a new run starts when the tools change). "append" sends the tools listed so far
   * and adds, never removes; "fixed" sends every tool on every step and refuses calls outside the step's palette;
   * "per-turn" sends the step's palette (as without `cache`, in registration order). "deferred" is a TypeError: the
   * frameworks' tools lists cannot defer (build the request with tool-palette/providers). Default (or `null`): no run,
   * each step narrowed on its own. In shadow mode the reports' `listed` and `kept` say what would have been sent.
   * With a run the router is asked with the run's `history` (its earlier user messages, the last 15) and `called` (the
   * tools that ran on its model's calls, after the policies' redirect), unless the context gives them; the saved run keeps both.
   */
  cache?: "per-turn" | "append" | "fixed" | null | undefined;
  /**
   * Skills (SPEC 9): a `SkillIndex` (or tool-palette/mcp's `run.skills`), or `SKILL.md` texts and skills from `parseSkill`,
   * indexed here. Each step is routed by the relevant skills' rows joined with the router's (one resolution); the
   * instructions of the skills new to the run reach the model once, as a user message after the history, and stay in
   * place; the `load_skill` tool is listed with the pins. With skills the adapter is one run (`cache` "per-turn" unless given).
   */
  skills?: SkillIndex | SkillSource | Iterable<Skill | string> | null | undefined;
  /** The load_skill tool's name (default "load_skill"), or `false` for none; only with `skills`. */
  skillTool?: string | false | undefined;
  /** A saved run (from `onSaved` or `save()`, issue 41) the adapter continues at its first step, over the same tools; needs `cache` or `skills`. */
  saved?: string | null | undefined;
  /** Gets the run's saved form after every step (keep it beside the conversation); needs `cache` or `skills`. */
  onSaved?: ((saved: string) => void) | undefined;
  /** Put each report's facts into the framework's tracing (default true). */
  tracing?: boolean | undefined;
  /** Receives the adapter's warnings instead of process.emitWarning / console.warn. */
  onWarning?: ((warning: ToolPaletteAdapterWarning) => void) | undefined;
  /** Called at the PRE seam with what was routed and selected. */
  onRoute?: ((report: Report) => void) | undefined;
  /** Called at the POST seam with the dispatch decision. */
  onDispatch?: ((dispatch: Dispatch<ToolCall>, ctx: Ctx) => void) | undefined;
}
