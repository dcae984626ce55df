// Types of tool-palette/mcp: the tools of MCP servers, routed, searched and policed. Structural: no import of the SDK.
import type { AbortSignalLike, RouterOutcome, RoutingDecision, Skill, SkillIndex, SkillIndexOptions, ToolIndex } from "../index.js";
import type { PoliciesLike, RouterCallOptions, RunLists, SkillSource, ToolPaletteAdapterWarning } from "./shared.js";
export type { ToolPaletteAdapterWarning } from "./shared.js";

/** An MCP tool as tools/list answers it (the fields the palette reads; others are kept). */
export interface McpTool {
  name: string;
  description?: string | undefined;
  inputSchema?: { type?: "object" | undefined; properties?: Record<string, unknown> | undefined; [key: string]: unknown } | undefined;
  [key: string]: unknown;
}

/** A tool call's answer in MCP's shape (CallToolResult). */
export interface McpCallResult {
  content: Array<{ type: string; text?: string; [key: string]: unknown }>;
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
  [key: string]: unknown;
}

/** What the palette needs of a server: the SDK's `Client`, or anything with these two methods. */
export interface McpClientLike {
  listTools(params?: { cursor?: string }, options?: { signal?: AbortSignalLike }): Promise<{ tools: McpTool[]; nextCursor?: string | undefined }>;
  callTool(params: { name: string; arguments?: Record<string, unknown> }, resultSchema?: any, options?: { signal?: AbortSignalLike }): Promise<any>;
}

/** A call in MCP's shape `{ name, arguments }`, or a framework's: `{ name, args }`, `{ toolName, input }`, arguments as JSON text. */
export type McpCallLike =
  | { name: string; arguments?: Record<string, unknown> | string | undefined; id?: string | undefined }
  | { name: string; args?: unknown; id?: string | undefined }
  | { toolName: string; input?: unknown; toolCallId?: string | undefined };

/** Size of tool definitions (`{ name, description, inputSchema }` as JSON): characters, and tokens with `countTokens`. */
export interface DefinitionSize {
  readonly chars: number;
  /** The sum of `countTokens` over the definitions (each a finite number >= 0); `null` without `countTokens`. */
  readonly tokens: number | null;
}

/** Hybrid ranking of the listed tools (`options.index.embed`): `null` without `embed`. */
export interface McpEmbedding {
  /** Whether the tools' vectors were computed at the last listing (the index ranks hybrid); false: it ranks lexically. */
  readonly hybrid: boolean;
  /** Why embedding the tools failed at the last listing (`embed` threw, rejected, timed out or answered vectors the index refused), else `null`. */
  readonly error: string | null;
}

export interface McpServerReport {
  /** Whether its tools are in the palette (false: it failed to list or timed out). */
  readonly listed: boolean;
  readonly error: string | null;
  readonly tools: number;
  readonly offered: number;
  readonly hidden: number;
  readonly definitions: { readonly offered: DefinitionSize; readonly all: DefinitionSize };
}

/** Each turn's report (frozen, JSON-serialisable). */
export interface McpTurnReport extends RunLists {
  /** The turn within the run, from 0. */
  readonly turn: number;
  /** `turn + 1`: the report is a step tool-palette/providers reads as it is. */
  readonly step: number;
  /** The core's decision report (SPEC section 5): outcome, rule, each row's fate, hidden names. */
  readonly routing: RoutingDecision | null;
  /** The palette names offered: the routed names, then the search tool when routing narrowed; every tool on a refusal. With `cache`, the run's `offered`, in its order. */
  readonly offered: readonly string[];
  /** The core's hidden names (routed turns only). */
  readonly hidden: readonly string[];
  /** What search_tools found earlier in the run (these rows follow the index's). */
  readonly found: readonly string[];
  readonly servers: { readonly [server: string]: McpServerReport };
  /** Servers left out of the palette: they failed to list, or timed out. */
  readonly failures: readonly { readonly server: string; readonly error: string }[];
  /**
   * Tools left out: their name was taken (a listed name equal to another's `<server>__<name>`), or their definition
   * cannot be read or sent (not an object, no string name or an empty one, a getter that throws, a cyclic or
   * unserialisable schema, a definition of more than 1,048,576 code units as JSON).
   */
  readonly skipped: readonly { readonly server: string; readonly name: string; readonly reason: string }[];
  /** Hybrid ranking: whether the tools were embedded at the last listing (`null` without `options.index.embed`). */
  readonly embedding: McpEmbedding | null;
  /** The definitions sent in full this turn (`listed`; the search tool's included when sent) against every listed tool's: the tokens routing saved. */
  readonly definitions: { readonly offered: DefinitionSize; readonly all: DefinitionSize };
  /** The names sent in full, in this order (SPEC 8 `listed`): with `cache`, the run's; without, `offered`. */
  readonly listed: readonly string[];
}

export interface McpTurn {
  readonly ctx: unknown;
  readonly outcome: RouterOutcome;
  readonly decision: RoutingDecision | null;
  /** The names offered (as the report's `offered`). */
  readonly names: readonly string[];
  /** The tools to send in full (the report's `listed`), as MCP tool objects under their palette names (without `cache`, the search tool last when offered). */
  readonly tools: readonly McpTool[];
  /** With `cache: "deferred"`: the tools to send as deferred definitions (the report's `deferred`); else `[]`. */
  readonly deferred: readonly McpTool[];
  readonly report: McpTurnReport;
  /**
   * The index over every listed tool (under their palette names) this turn was ranked by: what `tool-palette/providers`'
   * `answerAnthropicToolSearch` / `answerOpenaiToolSearch` search with (`index: turn.index`). It is the palette's until
   * the next listing, and freed by `mcp.dispose()`.
   */
  readonly index: ToolIndex;
  /**
   * Only with skills (SPEC 9): the instructions of the skills new to the run, to give the model after the history, once
   * (a server's skill read as a resource now, checked against its entry; what cannot be read says why instead).
   */
  readonly instructions?: readonly { readonly skill: string; readonly text: string }[];
}

/** One agent run: its turns share what search_tools found. */
export interface McpRun {
  /**
   * Routes a turn (a step) on its message (a string, or a context with `message`). With `cache`, the index reads the run's
   * earlier messages as `history` and the tools the run's `callTool` sent to a server as `called` (`ToolIndex.entries`: each
   * server called in is the turn's), unless the context gives them; both are kept in the saved run.
   */
  route(context: string | { message?: string | undefined; history?: Iterable<string> | null | undefined; called?: Iterable<string> | null | undefined; [key: string]: unknown }, options?: { signal?: AbortSignalLike | undefined }): Promise<McpTurn>;
  /**
   * Dispatches a call through the policies and the gate to its server; never rejects for a server's fault (that is a
   * result with `isError: true`, as is an answer that is no CallToolResult). A hidden tool and an unknown name get the
   * same failed call. When `signal` aborts, rejects at once with `signal.reason`, whether or not the server heeds it.
   */
  callTool(call: McpCallLike, options?: { signal?: AbortSignalLike | undefined }): Promise<McpCallResult>;
  /** The router option of the framework adapters: routes each step of the framework's loop with this run. */
  router(ctx: unknown, options?: Partial<RouterCallOptions>): Promise<RouterOutcome>;
  /**
   * The options of a framework adapter (`createToolPalette({ ...run.adapterOptions })`, `toolPaletteMiddleware(…)`):
   * `router` routes each step with this run, `alwaysInclude` pins the search tool whenever routing narrows.
   */
  readonly adapterOptions: { readonly router: McpRun["router"]; readonly alwaysInclude: readonly string[]; readonly skills?: SkillSource };
  /** With skills: the run's skills as an adapter's `skills` reads them (a skill the model loads there joins this run). */
  readonly skills?: SkillSource;
  /** The run's saved form now (issue 41): `run({ saved })` of a palette over the same servers continues it in another process. */
  save(): string;
  readonly turn: McpTurn | null;
  readonly found: string[];
  /**
   * With `cache: "deferred"`: tools the model loaded itself (a client tool search you answered; or pass this run as
   * `run` to tool-palette/providers' answer functions), offered from the next turn on. The names newly revealed; an
   * Error without "deferred" or before the first `route()`.
   */
  reveal(names: Iterable<string>): readonly string[];
  /** Every listed tool and the search tool as an AI SDK tools record (JSON schemas), each executing through callTool. */
  aiSdkTools(): Promise<Record<string, any>>;
  /** The same as OpenAI Agents function tools (plain JSON schemas, `strict: false`); each passes the run's `signal` on to `callTool`. */
  openaiAgentsTools(): Promise<any[]>;
  /** The same as LangChain tools, made with the `tool` function of "langchain" you pass; each passes `config.signal` on to `callTool`. */
  langchainTools<T>(tool: (func: (input: any, config?: any) => Promise<string>, fields: { name: string; description: string; schema: any }) => T): Promise<T[]>;
}

export interface McpPaletteOptions<Ctx = { message: string }> {
  /**
   * Keep the provider's prompt cache across each run (SPEC 8): a run's turns go through a `PaletteRun` over the listed
   * tools and the search tool (pinned), each turn's `tools` are its `listed` tools (and `deferred` its deferred ones),
   * the gate admits its `offered` names, and the report carries `listed`, `deferred`, `revealed` and `kept`. Each server is
   * then its tools' namespace, and the index reads the run's earlier messages as `history`. Default: no run state.
   */
  cache?: "per-turn" | "append" | "fixed" | "deferred" | null | undefined;
  /** The connected clients, keyed by server name (the `<server>__<name>` prefix of colliding names). */
  servers: Record<string, McpClientLike>;
  /** The POST seam of every call (redirects, and the palette gate). */
  policies?: PoliciesLike<Ctx, any> | null | undefined;
  /** Your own procedural layer instead of the index: `(ctx) => rows`, as a ToolRouter's `entries`. */
  entries?: ((ctx: Ctx) => unknown) | null | undefined;
  /**
   * Hybrid ranking of the listed tools: `embed(text)` embeds each tool's definition as a model is sent it (the JSON of its palette name, description and input schema) when the tools
   * are (re)listed (within `listTimeoutMs`; a text embedded before is not embedded again), and each turn's message
   * (within `timeoutMs` when given). If embedding the tools fails, routing ranks lexically until the next listing (warning
   * `EMBED_FAILED`, the report's `embedding.error`). `search_tools` embeds its query too. `onEmbedError` gets a failed `embed` of a message or a query (that one ranks lexically).
   */
  index?: { embed?: ((text: string) => ArrayLike<number> | PromiseLike<ArrayLike<number>>) | undefined; onEmbedError?: ((error: unknown) => void) | undefined } | undefined;
  /** Tools routed per turn, and answered by search_tools (default 5). */
  limit?: number | undefined;
  /** The budget of the procedural layer per turn (resolvePalette's timeoutMs; Infinity for none, as without it). */
  timeoutMs?: number | undefined;
  /** The time one server's listing may take, all pages (default 10,000 ms; Infinity, or more than 2^31 - 1, for none). */
  listTimeoutMs?: number | undefined;
  /** The search tool's name (default "search_tools"), or false for none. */
  searchTool?: string | false | undefined;
  /** A call to a listed tool the turn did not offer: "refuse" (default: a failed call) or "allow". Unknown names are always failed calls. */
  outsidePalette?: "refuse" | "allow" | undefined;
  /**
   * Counts the tokens of a tool definition (e.g. gpt-tokenizer's `(text) => encode(text).length`), synchronously, once per
   * definition and listing; without it, reports give characters. An answer other than a finite number >= 0 (a Promise,
   * a string, NaN) makes `route()` reject with a TypeError naming `options.countTokens`.
   */
  countTokens?: ((text: string) => number) | null | undefined;
  /** Every turn's report. */
  onDecision?: ((report: McpTurnReport) => void) | null | undefined;
  /**
   * Warnings instead of process.emitWarning / console.warn, each code once: a server that failed to list
   * (`LIST_FAILED:<server>`), tools that could not be embedded (`EMBED_FAILED`), a server whose skills could not be listed
   * (`SKILLS_FAILED:<server>`), a skill entry of a server left out (`SKILL_SKIPPED:<server>`).
   */
  onWarning?: ((warning: ToolPaletteAdapterWarning) => void) | null | undefined;
  /**
   * Skills (SPEC 9): the host's own (`SKILL.md` texts, or skills from `parseSkill`), indexed with those of every server
   * that declares the MCP Skills extension (`io.modelcontextprotocol/skills`). Each turn is routed by the relevant skills'
   * rows first; `turn.instructions` are the new skills'; a `load_skill` tool is pinned. With skills, runs are runs (`cache` "per-turn" unless given).
   * A `SkillIndex` is read as its skills; another run's `run.skills` (a `SkillSource`) is a TypeError naming `options.skills`.
   */
  skills?: SkillIndex | Iterable<Skill | string> | null | undefined;
  /** The skills' index options: `tools` (a skill's tool name → the palette's; a server's skill resolves to its own server's tools first), `disabled`, `limit`. */
  skillIndex?: Pick<SkillIndexOptions, "tools" | "disabled" | "limit"> | null | undefined;
  /** The load_skill tool's name (default "load_skill"), or `false` for none; only with skills. */
  skillTool?: string | false | undefined;
}

export interface McpPalette {
  /** A new run, or (`saved`, from `onSaved` or `run.save()`) one continued; `onSaved` gets its saved form after every turn, load_skill, search_tools find and `run.reveal()`. */
  run(options?: { saved?: string | null | undefined; onSaved?: ((saved: string) => void) | null | undefined }): McpRun;
  /** Lists every server (or the one named) again now, after a listing already in flight. */
  refresh(
    server?: string,
  ): Promise<{ readonly tools: number; readonly failures: McpTurnReport["failures"]; readonly skipped: McpTurnReport["skipped"]; readonly embedding: McpEmbedding | null }>;
  /** Where a palette name goes: the server and the server's own name for the tool. */
  locate(name: string): Promise<{ readonly server: string; readonly name: string } | undefined>;
  /** Every listed tool, as MCP tool objects under their palette names. */
  tools(): Promise<McpTool[]>;
  /** Frees the index now. */
  dispose(): void;
}

export declare function createMcpPalette<Ctx = { message: string }>(options: McpPaletteOptions<Ctx>): McpPalette;
