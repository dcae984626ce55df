// Types of tool-palette. The behaviour they describe is in the package README.

/** One hit of the procedural layer: a string, or an object with `tool`/`toolName`/`content` and `active`. */
export type Row = unknown;

/** The procedural layer: called at most once per resolution, usually `async`. */
export type EntriesThunk = () =>
  | Iterable<Row>
  | null
  | undefined
  | PromiseLike<Iterable<Row> | null | undefined>;

export interface ResolvePaletteOptions {
  /** The procedural layer; `null`/`undefined` means none is registered (refusal 1). */
  entries: EntriesThunk | null | undefined;
  /** The registered palette: the only names a turn can route to. */
  registered: Iterable<string>;
  /** Store budget for this turn, in milliseconds (refusal 2b when it elapses). */
  timeoutMs?: number;
  /** Cancels the turn: the promise rejects with `signal.reason`. */
  signal?: AbortSignalLike;
  /** Replaces the candidate reader (a string result is the candidate). */
  candidateOf?: (row: unknown) => unknown;
  /** Replaces the activity reader (a truthy result is active). */
  isActive?: (row: unknown) => unknown;
}

/** The palette a turn resolved to, and what it dropped getting there. Frozen. */
export declare class Routed {
  /** Never empty: at least one name. */
  constructor(names: Iterable<string>, unresolved?: Iterable<string>);
  readonly kind: "routed";
  /** Registered names the active rows named, once each, in order of first appearance. */
  readonly names: readonly string[];
  /** Active candidates that are not registered, once each, in order of first appearance. */
  readonly unresolved: readonly string[];
}

/** Why a turn was not narrowed: every refusal means "allow every tool". Frozen. */
export declare class RoutingRefusal {
  constructor(reason: string, unresolved?: Iterable<string>);
  readonly kind: "refused";
  /** One of the exact reason strings of the refusal table. */
  readonly reason: string;
  readonly unresolved: readonly string[];
}

/** A router missing its prerequisites: a composition report, not a refusal. Frozen. */
export declare class RoutingUnavailable {
  constructor(missing: Iterable<RoutingPrerequisite>);
  readonly kind: "unavailable";
  readonly missing: readonly RoutingPrerequisite[];
}

export type RoutingPrerequisite = "procedural-layer" | "no-registered-tools";

/** What the package needs of an `AbortSignal` (declared here so that no DOM or Node typings are required). */
export interface AbortSignalLike {
  readonly aborted: boolean;
  readonly reason?: unknown;
  addEventListener(type: "abort", listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: "abort", listener: () => void): void;
}

export type RoutingOutcome = Routed | RoutingRefusal;
export type RouterOutcome = Routed | RoutingRefusal | RoutingUnavailable;

/** Narrows `registered` to the tools this turn's skills name. Store faults resolve to refusals. */
export declare function resolvePalette(options: ResolvePaletteOptions): Promise<Routed | RoutingRefusal>;

/** Issued once per `ToolRouter` construction when routing is unavailable. */
export declare class ToolRoutingUnavailableWarning extends Error {
  constructor(message: string, missing: Iterable<RoutingPrerequisite>);
  readonly name: "ToolRoutingUnavailableWarning";
  readonly missing: readonly RoutingPrerequisite[];
}

/** Issued when the palette gate drops a redirect whose target is not routed. */
export declare class ToolRedirectDroppedWarning extends Error {
  constructor(message: string, details: { policy: string | null; target: string; original: string });
  readonly name: "ToolRedirectDroppedWarning";
  /** The policy that redirected, or `null` when `onToolCallDispatch` did. */
  readonly policy: string | null;
  readonly target: string;
  readonly original: string;
}

/** A router's procedural layer: it receives the `context` given to `resolve()`, if any. */
export type RouterEntries<Context = any> = (context: Context) => ReturnType<EntriesThunk>;

export interface ToolRouterOptions {
  entries?: RouterEntries | null;
  registered?: Iterable<string> | null;
  timeoutMs?: number;
  candidateOf?: (row: unknown) => unknown;
  isActive?: (row: unknown) => unknown;
  /** Receives the one `ToolRoutingUnavailableWarning` instead of `process.emitWarning`/`console.warn`. */
  onWarning?: (warning: Error) => void;
}

/** The routing capability an agent host constructs once and asks every turn. */
export declare class ToolRouter {
  constructor(options?: ToolRouterOptions);
  /** Set when a prerequisite is missing; then every `resolve()` returns it. */
  readonly unavailable: RoutingUnavailable | null;
  /** The registered names, as given. */
  readonly registered: readonly string[];
  /**
   * One turn. `context`, when given, is passed to `entries(context)` (the turn's input for
   * the procedural layer, e.g. the user's message); without it `entries()` is called.
   */
  resolve(options?: { signal?: AbortSignalLike; context?: unknown }): Promise<RouterOutcome>;
  /** Frees the router's wasm index now rather than at garbage collection; later `resolve()` calls reject. Also `[Symbol.dispose]`. */
  dispose(): void;
}

/** The routed names, or `undefined` ("every tool", the AI SDK's own meaning). Never `[]`. */
export declare function activeTools(outcome: RouterOutcome): string[] | undefined;

/** Keeps the routed tools of an array of `{ name }` or a record keyed by name; unchanged unless routed. */
export declare function bindPalette<T extends readonly { readonly name: string }[] | Record<string, unknown>>(
  tools: T,
  outcome: RouterOutcome,
): T;

export interface ToolCall {
  name: string;
  args?: unknown;
  id?: string;
  [field: string]: unknown;
}

export interface ToolCallPolicySpec<Ctx = unknown, Model = unknown> {
  /** Required, non-empty, unique within a `ToolPolicies`. */
  name: string;
  /** The intent gate, asked at both seams. Must be synchronous. */
  match: (ctx: Ctx) => unknown;
  /** POST filter on the emitted tool; `null`/absent matches any tool. */
  whenTool?: string | Iterable<string> | null;
  /** Makes it a redirect policy (POST seam). */
  redirectTo?: string | null;
  /** PRE seam model override, handed back by identity. */
  model?: Model | null;
  /** Rewrites the arguments of a redirected call; must return a plain object. */
  argsTransform?: ((args: any, ctx: Ctx) => Record<string, unknown>) | null;
  /** Precondition of the redirect only (never asked for model selection). */
  guard?: ((ctx: Ctx) => unknown) | null;
}

/** A declarative per-intent rule. Frozen. */
export declare class ToolCallPolicy<Ctx = unknown, Model = unknown> {
  constructor(spec: ToolCallPolicySpec<Ctx, Model>);
  readonly name: string;
  readonly match: (ctx: Ctx) => unknown;
  readonly whenTool: string | readonly string[] | null;
  readonly redirectTo: string | null;
  readonly model: Model | null;
  readonly argsTransform: ((args: any, ctx: Ctx) => Record<string, unknown>) | null;
  readonly guard: ((ctx: Ctx) => unknown) | null;
  /** Whether `toolName` satisfies `whenTool`. */
  matchesTool(toolName: string): boolean;
}

export interface ToolPoliciesOptions<Ctx = unknown, Model = unknown, Call extends ToolCall = ToolCall> {
  /** Asked only when no policy supplies a model; `null`/`undefined` means the default. */
  modelResolver?: (ctx: Ctx) => Model | null | undefined;
  /** Runs after the policies, before the gate; may return a rewritten call. */
  onToolCallDispatch?: (call: Call, ctx: Ctx) => Call | null | undefined | void;
  /** Receives `ToolRedirectDroppedWarning`s instead of `process.emitWarning`/`console.warn`. */
  onWarning?: (warning: Error) => void;
  /**
   * The registered tool names. When given, a palette that does not narrow (a refusal,
   * `RoutingUnavailable`, none) lets exactly these pass the gate; without it, every tool.
   */
  registered?: Iterable<string>;
}

export interface ModelSelection<Model = unknown> {
  readonly model: Model | null;
  readonly source: "policy" | "resolver" | "default";
  readonly policy: string | null;
}

export interface Dispatch<Call extends ToolCall = ToolCall> {
  /** What to dispatch: the original, or a new object with the redirect applied. */
  readonly call: Call;
  /** The caller's call object itself. */
  readonly original: Call;
  readonly redirectedBy: string | null;
  readonly dropped: null | { readonly target: string; readonly reason: string };
}

/** Policies composed in declaration order, applied at the two seams. */
export declare class ToolPolicies<Ctx = unknown, Model = unknown, Call extends ToolCall = ToolCall> {
  constructor(
    policies: Iterable<ToolCallPolicy<Ctx, Model> | ToolCallPolicySpec<Ctx, Model>>,
    options?: ToolPoliciesOptions<Ctx, Model, Call>,
  );
  readonly policies: readonly ToolCallPolicy<Ctx, Model>[];
  /** PRE-model seam: which model reasons this iteration. */
  selectModel(ctx: Ctx): ModelSelection<Model>;
  /** POST-model seam: where the emitted call is dispatched. */
  dispatch(call: Call, ctx: Ctx, palette?: Iterable<string> | RouterOutcome | null): Dispatch<Call>;
  /** Frees the wasm side now rather than at garbage collection; later seam calls throw. Also `[Symbol.dispose]`. */
  dispose(): void;
}
