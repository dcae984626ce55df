// The types of tool-palette's public API (src/js/*.js implements it; scripts/build.mjs
// checks the implementation against them). The behaviour they describe is in the README.

/**
 * A tool as `ToolIndex` reads it: its name, description and parameter schema; whatever
 * else the tool carries (`strict`, `annotations`, `execute`…) is left alone (`ToolLike`).
 * No index signature: the SDKs' own tool interfaces (`Anthropic.Tool`, OpenAI's
 * `FunctionTool`, the MCP SDK's `Tool`) are ToolDocs as they are.
 */
export interface ToolDoc {
    name: string;
    description?: string | null | undefined;
    /** A JSON schema (or an AI SDK `jsonSchema()`/`zodSchema()`, or a zod schema). */
    parameters?: unknown;
    inputSchema?: unknown;
    /** Anthropic's Messages API tools. */
    input_schema?: unknown;
    schema?: unknown;
    /**
     * Its namespace (an MCP server, an API class, an OpenAI namespace): `entries` offers a namespace of at
     * most 32 tools whole once it ranks one of them among the first 2 × limit (SPEC 8).
     */
    namespace?: string | null | undefined;
}

/**
 * What `new ToolIndex(tools)` takes of each tool: a `ToolDoc` (with whatever else it carries), or the Chat
 * Completions shape `{ type: "function", function: ToolDoc }`.
 */
export type ToolLike = ToolDoc | (ToolDoc & { readonly [other: string]: unknown }) | { type: "function"; function: ToolDoc };

/**
 * A turn's context for `entries`: the message, the run's earlier user messages, oldest first (SPEC 8), and optionally the
 * tools the run's model has called so far (names; any not in the index are left out). `called` is read by `ToolIndex.entries`
 * in a run (with a `history`): each namespace the run called in is the turn's, every turn, offered whole when it has at most
 * 32 tools. Without a `history` it changes nothing; `SkillIndex.entries` checks it and ranks without it. A `history` or
 * `called` longer than 1,048,576 items is a RangeError naming it.
 */
export type ToolContext = string | { message?: string | undefined; history?: Iterable<string> | null | undefined; called?: Iterable<string> | null | undefined };

export type ToolRows = readonly { readonly tool: string }[];

export interface ToolIndexOptions {
    /** Hits per search and rows per turn (default 5). */
    limit?: number | undefined;
    /** One vector per tool (the host's embeddings), in the order the tools are read, or one flat n × d Float32Array. */
    vectors?: Iterable<ArrayLike<number>> | Float32Array | undefined;
    /** The query's vector, for `entries`: with it `entries` returns a Promise and ranks hybrid. */
    embed?: ((text: string) => ArrayLike<number> | PromiseLike<ArrayLike<number>>) | undefined;
    /** Gets what `embed` threw or rejected with, or the TypeError for a vector of another length; that turn ranks lexically. */
    onEmbedError?: ((error: unknown) => void) | undefined;
    /** Keep what `explain` takes scores apart with (each tool's term counts by field), in memory and in `save()`'s snapshots: a bigger index (a snapshot of 50,000 tools 14.0 → 17.8 MB), which `explain` needs. Default false. */
    explain?: boolean | undefined;
}

/** `ToolIndex.load`'s options: the constructor's but `vectors` and `explain` (a snapshot holds its vectors and counts), and a signal for a stream. */
export interface ToolIndexLoadOptions extends Omit<ToolIndexOptions, "vectors" | "explain"> {
    /** Aborts a load from a stream: the reader is cancelled and the promise rejects with `signal.reason`. */
    signal?: AbortSignalLike | undefined;
}

/** A `ReadableStream` of a snapshot's bytes as `ToolIndex.load` reads it (declared here so that no DOM or Node typings are required). */
export interface SnapshotStream {
    getReader(): { read(): PromiseLike<{ done: boolean; value?: Uint8Array | undefined }>; cancel(reason?: unknown): unknown };
}

/** What `ToolIndex.load` streams a snapshot from, judged by shape: a `ReadableStream`, a `Response` or R2 object (its `body`), a `Blob` (its `stream()`). */
export type SnapshotSource = SnapshotStream | { readonly body: SnapshotStream | null; readonly bodyUsed: boolean } | { stream(): SnapshotStream };

export interface ToolHit {
    readonly name: string;
    readonly score: number;
}

/** Options of `search` and `explain`. */
export interface ToolSearchOptions {
    /** At most this many hits (default: the index's `limit`). */
    limit?: number | undefined;
    /** The query's embedding: with an index built with `vectors`, the ranking is hybrid. */
    vector?: ArrayLike<number> | undefined;
}

/** Where in a tool's definition a query term was found (each weighted as the ranking weighs it). */
export type ToolField = "name" | "description" | "parameterName" | "parameterDescription" | "parameterEnum";

/** Why `search` picked a tool: its hit, and its score taken apart. */
export interface ToolExplanation {
    readonly name: string;
    /** The hit's score, as `search` gives it. */
    readonly score: number;
    /** Its place among the hits, from 1. */
    readonly rank: number;
    /** The BM25F score and rank of the lexical ranking; `null` when the tool shares no term with the query (hybrid hits only). */
    readonly lexical: {
        readonly score: number;
        readonly rank: number;
        /** The fields where the query's terms are: their scores add up to `score`, each the sum of its terms' shares. */
        readonly fields: readonly {
            readonly field: ToolField;
            readonly score: number;
            /** A term is a query word normalised (lower case, stemmed): `count` times in this field. */
            readonly terms: readonly { readonly term: string; readonly score: number; readonly count: number }[];
        }[];
    } | null;
    /** Hybrid ranking: the tool's cosine with the query's vector and its rank by it among every tool; else `null`. */
    readonly vector: { readonly similarity: number; readonly rank: number } | null;
    /** Hybrid ranking: what each ranking's reciprocal rank added (`lexical + vector` is `score`; 0 past the depth the fusion reads); else `null`. */
    readonly fused: { readonly lexical: number; readonly vector: number } | null;
}

/** Tool search over the tools' names, descriptions and parameter schemas, in the Rust core. */
export declare class ToolIndex {
    /** An iterable of tools, or a record of tools keyed by name (an AI SDK `tools` object). */
    constructor(tools: Iterable<ToolLike> | Record<string, unknown>, options?: ToolIndexOptions);
    /**
     * At most `limit` (default 5, or the constructor's) tools with a score above 0, best first; ties keep registration order.
     * With `vector` (the query's embedding) and an index built with `vectors`: hybrid ranking.
     */
    search(query: string, options?: ToolSearchOptions): readonly ToolHit[];
    /**
     * The hits of `search(query, options)`, in its order, each with how its score came to be: why a tool was picked.
     * Only an index built with `explain: true` (or loaded from its snapshot) explains; any other throws an Error saying so.
     */
    explain(query: string, options?: ToolSearchOptions): readonly ToolExplanation[];
    /**
     * A ready `entries` for `ToolRouter`/`resolvePalette`: the rows `{ tool }` of `search(message)` for the turn's context
     * (for a single message with namespaces, also the next hits up to 2 × limit scoring at least half the first's), then the
     * namespaces the ranking (of the message, and of the history's last one) and the run's `called` tools name the turn's:
     * whole when small, or in a run when called in or ranked strongly, else their best tools. In a run standing in a
     * namespace (the ranking's or the run's calls), the hits without a namespace give way, but for the message's first hit when
     * it scores more than twice the best of the turn's namespaces' tools among the deep hits, none of them ranks, or the
     * ranking is hybrid
     * (bench/tool-search/DESIGN.md, "Namespaces by evidence").
     * With `embed`, a Promise of them: `embed(message)` is awaited (within the router's `timeoutMs`), then the ranking is hybrid.
     */
    readonly entries: (context?: ToolContext) => ToolRows | Promise<ToolRows>;
    /** What `entries` calls: the rows for one context. */
    entriesFor(context?: ToolContext): ToolRows | Promise<ToolRows>;
    /**
     * The rows naming these tools of the index (each one of `names`, else a TypeError naming its index), as `entries`
     * makes them: routing reads their names exactly (a row of yours is trimmed; the index's never), so a layer of your
     * own can join the index's finds to the turn's rows (the tools a model's search found, say).
     */
    rows(names: Iterable<string>): ToolRows;
    /** How many tools were indexed. */
    readonly size: number;
    /**
     * The tools' names, in the order they were indexed (frozen): an index loaded from a snapshot knows them too, so a
     * router over it needs no `registered` from elsewhere (`new ToolRouter({ entries: index.entries, registered: index.names })`).
     */
    readonly names: readonly string[];
    /** The length of the tools' vectors, or `null` for an index without them. */
    readonly dimensions: number | null;
    /** The whole index (vectors included) as bytes, for `ToolIndex.load` in another isolate or process. */
    save(): Uint8Array;
    /** An index from the bytes of `save()`: it ranks exactly as the one saved. `embed` and `onEmbedError` are options here, not part of the bytes. */
    static load(bytes: Uint8Array, options?: ToolIndexLoadOptions): ToolIndex;
    /**
     * The same from a `Response` (fetch, an R2 object), a `Blob` or a `ReadableStream` of `Uint8Array` chunks (a KV stream,
     * an R2 object's `body`): the chunks stream into the module, and the Promise settles with the index, or rejects with why
     * (or with `signal.reason`).
     */
    static load(source: SnapshotSource, options?: ToolIndexLoadOptions): Promise<ToolIndex>;
    /** Frees the index now rather than at garbage collection; later searches throw. */
    dispose(): void;
    [Symbol.dispose](): void;
}

/** An Agent Skill as `parseSkill` reads a `SKILL.md` (SPEC 9). Frozen, its frontmatter too. */
export interface Skill {
    readonly name: string;
    readonly description: string;
    /** `allowed-tools`, each `Tool(scope)` or a bare `Tool` (scope `null`); `null` when the field is absent. */
    readonly allowedTools: readonly { readonly tool: string; readonly scope: string | null }[] | null;
    /** Every field, as JSON values (YAML 1.2's core schema: numbers, booleans and null as such), verbatim, in the text's order. */
    readonly frontmatter: Readonly<Record<string, unknown>>;
    /** The markdown after the frontmatter, exactly. */
    readonly body: string;
    /** Each departure from the specification that hosts still accept (a name with capitals, an unknown field…), with its line. */
    readonly warnings: readonly string[];
}

/**
 * Reads a `SKILL.md`: YAML frontmatter between two lines `---`, then markdown. A text without frontmatter, YAML it cannot
 * read (anchors, aliases, tags, a second document, a tab indentation…) or a missing or non-string `name` or `description`
 * is a `SyntaxError` whose message gives the line, the field at fault, and `options.path` first when given. The path's
 * last folder is the skill's directory, which its name should match (else a warning).
 */
export declare function parseSkill(text: string, options?: { path?: string | undefined }): Skill;

/** A turn's rows from a `SkillIndex` (SPEC 9): one per tool of each relevant skill, or one without a tool for a skill without any. */
export type SkillRows = readonly ({ readonly skill: string; readonly tool: string; readonly active: boolean } | { readonly skill: string; readonly active: boolean })[];

export interface SkillIndexOptions {
    /** Skills per turn, and hits per search (default 3). */
    limit?: number | undefined;
    /**
     * A skill's tool (from its `allowed-tools`) → the host's registered name(s): a record, or a function of the tool and the skill.
     * `null` or `undefined` (or a tool the record lacks): the same name; `[]`: none. Each skill's tools are kept once each.
     */
    tools?: Readonly<Record<string, string | readonly string[]>> | ((tool: string, skill: Skill) => string | readonly string[] | null | undefined) | undefined;
    /** Skills the deployment turned off (by name): their rows are inactive, as those of a skill with `disable-model-invocation: true`. */
    disabled?: Iterable<string> | undefined;
    /** One vector per skill (the host's embeddings), in the order the skills are given, or one flat n × d Float32Array. */
    vectors?: Iterable<ArrayLike<number>> | Float32Array | undefined;
    /** The message's vector, for `entries`: with it `entries` returns a Promise and ranks hybrid. */
    embed?: ((text: string) => ArrayLike<number> | PromiseLike<ArrayLike<number>>) | undefined;
    /** Gets what `embed` threw or rejected with, or the TypeError for a vector of another length; that turn ranks lexically. */
    onEmbedError?: ((error: unknown) => void) | undefined;
}

/** The `load_skill` tool of a `SkillIndex`: its definition (MCP's shape: `inputSchema`), and what calling it answers. Frozen. */
export interface LoadSkillTool {
    readonly name: string;
    readonly description: string;
    readonly inputSchema: {
        readonly type: "object";
        readonly properties: { readonly name: { readonly type: "string"; readonly description: string }; readonly query: { readonly type: "string"; readonly description: string } };
        readonly additionalProperties: false;
    };
    /** The model's call, as it sent its arguments: the text to answer it with. */
    call(args: unknown): string;
}

/** Routing by skills (SPEC 9): the skills ranked for a turn in the Rust core, resolved to the host's tools. */
export declare class SkillIndex {
    /**
     * `SKILL.md` texts, or skills from `parseSkill` (or objects with a Skill's fields). A text that is no skill is a
     * `SyntaxError`, a name twice a `TypeError`, each naming the skill's index.
     */
    constructor(skills: Iterable<Skill | string>, options?: SkillIndexOptions);
    /** At most `limit` skills with a score above 0, best first (over name, description and body); hybrid with `vector`. */
    search(query: string, options?: ToolSearchOptions): readonly ToolHit[];
    /**
     * A procedural layer for `ToolRouter`/`resolvePalette`: for the turn's message (and the history's last, filling what the
     * message leaves), the relevant skills' rows, best skill first. No relevant skill: no rows (rule 3); every relevant skill
     * disabled: rule 4; no relevant skill's tool registered: rule 5. The outcome names the relevant active skills (`skills`).
     */
    readonly entries: (context?: ToolContext) => SkillRows | Promise<SkillRows>;
    /** What `entries` calls: the rows for one context. */
    entriesFor(context?: ToolContext): SkillRows | Promise<SkillRows>;
    /** The skill of this name, as the index read it. */
    get(name: string): Skill | undefined;
    /** How many skills were indexed. */
    readonly size: number;
    /** The skills' names, in order (frozen). */
    readonly names: readonly string[];
    /** The length of the skills' vectors, or `null` without them. */
    readonly dimensions: number | null;
    /** The whole index as bytes (the skills' texts, their resolved tools, disabled skills, vectors), for `SkillIndex.load`. */
    save(): Uint8Array;
    /**
     * A `load_skill` tool (SPEC 9), to list with the pinned tools: the model loads a skill the routing missed, by name
     * or by query. `call(args)` answers the skill's instructions (its body); with `run`, the skill is no longer new to the
     * run and its tools join the run's later steps (`run.addSkill`). Arguments that are no such call, a skill turned
     * off, or nothing found are answered in words the model can act on, never thrown.
     */
    loadSkillTool(options?: { name?: string | undefined; run?: PaletteRun | undefined }): LoadSkillTool;
    /** An index from the bytes of `save()`: it ranks and resolves exactly as the one saved. */
    static load(bytes: Uint8Array, options?: { limit?: number | undefined; embed?: SkillIndexOptions["embed"]; onEmbedError?: SkillIndexOptions["onEmbedError"] }): SkillIndex;
    /** Frees the index now rather than at garbage collection; later calls throw. */
    dispose(): void;
    [Symbol.dispose](): void;
}

/**
 * Keeps the routed tools of an array of `{ name }` or a record keyed by name; unchanged unless
 * routed. An array entry without a string name (a provider-defined tool, a separator) is kept in place.
 */
export declare function bindPalette<T extends readonly unknown[] | Record<string, unknown>>(
tools: T,
outcome: RouterOutcome,
): T;

/**
 * The routed names, or `undefined` ("every tool", the AI SDK's own meaning). Never `[]`.
 */
export function activeTools(outcome: RouterOutcome): string[] | undefined;

/** A router's procedural layer: it receives the `context` given to `resolve()`, if any. */
export type RouterEntries<Context = any> = (context: Context) => ReturnType<EntriesThunk>;

export interface ToolRouterOptions<Context = any> {
    entries?: RouterEntries<Context> | null | undefined;
    registered?: Iterable<string> | null | undefined;
    timeoutMs?: number | undefined;
    candidateOf?: ((row: unknown) => unknown) | undefined;
    isActive?: ((row: unknown) => unknown) | undefined;
    /** Receives every turn's decision report (`RoutingUnavailable` turns included). */
    onDecision?: ((decision: RoutingDecision) => void) | undefined;
    /** Receives the one `ToolRoutingUnavailableWarning` instead of `process.emitWarning`/`console.warn`. */
    onWarning?: ((warning: Error) => void) | undefined;
}

export interface ResolveOptions<Context = any> {
    signal?: AbortSignalLike | undefined;
    /** The turn's input for the procedural layer: `entries(context)` (without it, `entries()`). */
    context?: Context | undefined;
    /** Receives this turn's decision report (after the router's own `onDecision`). */
    onDecision?: ((decision: RoutingDecision) => void) | undefined;
}

/** The routing capability an agent host constructs once and asks every turn. Frozen. */
export declare class ToolRouter<Context = any> {
    constructor(options?: ToolRouterOptions<Context>);
    /** Set when a prerequisite is missing; then every `resolve()` returns it. */
    readonly unavailable: RoutingUnavailable | null;
    /** The registered names, as given. */
    readonly registered: readonly string[];
    /** One turn. A router whose `entries` reads a context (a `Context` that is not `undefined`) must be given one. */
    resolve(...options: undefined extends Context ? [options?: ResolveOptions<Context>] : [options: ResolveOptions<Context> & { context: Context }]): Promise<RouterOutcome>;
    /** Frees the router's wasm index now rather than at garbage collection; later `resolve()` calls reject, a turn in flight finishes. */
    dispose(): void;
    [Symbol.dispose](): void;
}

/** Issued once per `ToolRouter` construction when routing is unavailable. */
export declare class ToolRoutingUnavailableWarning extends Error {
    constructor(message: string, missing: Iterable<RoutingPrerequisite>);
    readonly name: "ToolRoutingUnavailableWarning";
    readonly missing: readonly RoutingPrerequisite[];
}

/** How a run keeps the request's prefix (SPEC 8). */
export type PaletteCache = "per-turn" | "append" | "fixed" | "deferred";

export interface PaletteRunOptions {
    /** Every tool, in the order their definitions are sent (a name given twice counts once). */
    registered: Iterable<string>;
    /** Default `"append"`. */
    cache?: PaletteCache | undefined;
    /** Registered names listed and offered on every step (e.g. a search tool of your own; the one `tool-palette/providers` adds is neither registered nor pinned). */
    pinned?: Iterable<string> | undefined;
}

/** One step of a run: what the model may call, and what the request carries. Frozen. */
export interface PaletteStep {
    /** 1, 2, … in the run. */
    readonly step: number;
    /** What the model may call at this step: the palette the gate admits. */
    readonly offered: readonly string[];
    /** Whose full definitions the request's tools list carries, in this order. */
    readonly listed: readonly string[];
    /** `"deferred"`: sent as deferred definitions (loaded on demand); else `[]`. */
    readonly deferred: readonly string[];
    /** `"deferred"`: offered names new to the run, to reveal after the history; else `[]`. */
    readonly revealed: readonly string[];
    /** `listed` and `deferred` are the previous step's (false at step 1). */
    readonly kept: boolean;
    /** Only when the outcome names skills (SPEC 9): the relevant skills, as the outcome names them. */
    readonly skills?: readonly string[];
    /**
     * Only with `skills`: those new to the run, whose instructions the host gives the model now, after the history (the
     * cached prefix is kept); a skill the run met before (or the model loaded, `addSkill`) is not new again.
     */
    readonly newSkills?: readonly string[];
}

/** One conversation or agent loop: each step's palette, kept so the prompt cache holds. Frozen. */
export declare class PaletteRun {
    constructor(options: PaletteRunOptions);
    /** The next step, for this turn's outcome (a refusal or `RoutingUnavailable` means every tool). */
    step(outcome: RouterOutcome): PaletteStep;
    /**
     * `"deferred"`: tools the model loaded itself (a tool search you answered, e.g. with tool-palette/providers'
     * `answerAnthropicToolSearch`). Each joins what the run revealed: offered from the next step on, never revealed
     * again. Answers the names newly revealed (frozen). A TypeError for a name not registered, an Error for a run of
     * another strategy (nothing is deferred there) or after `dispose()`.
     */
    reveal(names: Iterable<string>): readonly string[];
    /**
     * SPEC 9, `load_skill`: the model loaded this skill itself. It is no longer new to the run, and its `tools` that are
     * registered join the palette of every later step (a name not registered is passed over). Answers the tools that
     * joined now (frozen). The run's saved form keeps both.
     */
    addSkill(skill: string, tools: Iterable<string>): readonly string[];
    /** Steps taken. */
    readonly size: number;
    /**
     * The run's saved form (SPEC 8: a run outlives its process): short, versioned text (`tprun1.…`, base64url) to keep
     * beside the conversation (a Durable Object's storage, KV, a database), restored by `PaletteRun.load`.
     */
    save(): string;
    /**
     * The run a saved form holds, restored over the registered names it was saved with (their number and order are
     * checked: another list is a TypeError saying so, never a silently different prefix). It takes its next step exactly
     * as the unbroken run would have. A TypeError for another registered list has `code: "REGISTERED_MISMATCH"` (the form
     * is sound: start a new run over the tools given); one for a form cut short, altered or of another version has none.
     */
    static load(saved: string, options: { registered: Iterable<string> }): PaletteRun;
    /** Frees the run now rather than at garbage collection; a later `step()` throws. */
    dispose(): void;
    [Symbol.dispose](): void;
}

/** One hit of the procedural layer: a string, or an object with `tool`/`toolName`/`content` and `active`. */
export type Row = unknown;

/** The procedural layer: called at most once per resolution, usually `async`. */
export type EntriesThunk = () =>
| Iterable<Row>
| null
| undefined
| PromiseLike<Iterable<Row> | null | undefined>;

/** The palette a turn resolved to, and what it dropped getting there. Frozen. */
export declare class Routed {
    /** Never empty: at least one name. */
    constructor(names: Iterable<string>, unresolved?: Iterable<string>, skills?: Iterable<string>);
    readonly kind: "routed";
    /** Registered names the active rows named, once each, in order of first appearance. */
    readonly names: readonly string[];
    /** Active candidates that are not registered, once each, in order of first appearance. */
    readonly unresolved: readonly string[];
    /**
     * Only when the rows named skills (a `SkillIndex`'s, SPEC 9): the relevant active skills, best first, each once:
     * the skills whose instructions the host gives the model this turn.
     */
    readonly skills?: readonly string[];
}

/** Why a turn was not narrowed: every refusal means "allow every tool". Frozen. */
export declare class RoutingRefusal {
    constructor(reason: string, unresolved?: Iterable<string>, skills?: Iterable<string>);
    readonly kind: "refused";
    /** One of the exact reason strings of the refusal table. */
    readonly reason: string;
    readonly unresolved: readonly string[];
    /** As `Routed.skills`: a refusal offers every tool, and a relevant skill of prose only still has instructions. */
    readonly skills?: readonly string[];
}

/** A router missing its prerequisites: a composition report, not a refusal. Frozen. */
export declare class RoutingUnavailable {
    constructor(missing: Iterable<RoutingPrerequisite>);
    readonly kind: "unavailable";
    readonly missing: readonly RoutingPrerequisite[];
}

export type RoutingPrerequisite = "procedural-layer" | "no-registered-tools";
export type RoutingOutcome = Routed | RoutingRefusal;
export type RouterOutcome = Routed | RoutingRefusal | RoutingUnavailable;

/** Why the model sees what it sees: one report per resolution (SPEC section 5). Frozen, JSON-serialisable. */
export interface RoutingDecision {
    /** The very object the call resolves to. */
    readonly outcome: RouterOutcome;
    readonly rule: "routed" | "1" | "2a" | "2b" | "3" | "4" | "5" | "unavailable";
    /** One per row the store returned, in its order; `[]` when no rows were read. */
    readonly rows: readonly RowFate[];
    /** Registered names the model will not see (routed turns only), registration order, each once. */
    readonly hidden: readonly string[];
    /** From calling `entries` to its settling; 0 when `entries` was not called. */
    readonly retrievalMs: number;
}

export interface RowFate {
    readonly index: number;
    readonly fate: "routed" | "duplicate" | "unresolved" | "inactive" | "no-candidate";
    /** The trimmed candidate; `null` for inactive and no-candidate rows. */
    readonly candidate: string | null;
    /** The row's `skill` (SPEC 9), for a row that named one. */
    readonly skill?: string;
}

/** What the package needs of an `AbortSignal` (declared here so that no DOM or Node typings are required). */
export interface AbortSignalLike {
    readonly aborted: boolean;
    readonly reason?: unknown;
    addEventListener(type: "abort", listener: () => void, options?: { once?: boolean }): void;
    removeEventListener(type: "abort", listener: () => void): void;
}

declare global {
    // `using x = new ToolRouter(…)`: the symbol ES2022's lib does not declare yet.
    interface SymbolConstructor {
        readonly dispose: unique symbol;
    }
}

export interface ResolvePaletteOptions {
    /** The procedural layer; `null`/`undefined` means none is registered (refusal 1). */
    entries: EntriesThunk | null | undefined;
    /**
     * The registered palette: the only names a turn can route to. At most 1,048,576 names and
     * 8,388,608 code units of names (a RangeError naming it beyond; the same limits hold for every
     * list of names a call is given, and for a store's rows, which beyond them are refusal 2a).
     */
    registered: Iterable<string>;
    /** Store budget for this turn, in milliseconds (refusal 2b when it elapses). */
    timeoutMs?: number | undefined;
    /** Cancels the turn: the promise rejects with `signal.reason`. */
    signal?: AbortSignalLike | undefined;
    /** Replaces the candidate reader (a string result is the candidate). */
    candidateOf?: ((row: unknown) => unknown) | undefined;
    /** Replaces the activity reader (a truthy result is active). */
    isActive?: ((row: unknown) => unknown) | undefined;
    /** Receives the decision report, synchronously, just before the promise settles. */
    onDecision?: ((decision: RoutingDecision) => void) | undefined;
}

/**
 * Narrows `registered` to the tools this turn's skills name. Store faults resolve to refusals
 * (rows beyond 1,048,576, or beyond 8,388,608 code units of candidates, are refusal 2a with
 * `RangeError`); only the caller's mistakes and an abort reject.
 */
export declare function resolvePalette(options: ResolvePaletteOptions): Promise<Routed | RoutingRefusal>;

export interface ToolCall {
    name: string;
    args?: unknown;
    id?: string | undefined;
    [field: string]: unknown;
}

export interface ToolCallPolicySpec<Ctx = unknown, Model = unknown> {
    /** Required, non-empty, unique within a `ToolPolicies`. */
    name: string;
    /** The intent gate, asked at both seams. Must be synchronous. */
    match: (ctx: Ctx) => unknown;
    /** POST filter on the emitted tool; `null`/absent matches any tool. */
    whenTool?: string | Iterable<string> | null | undefined;
    /** Makes it a redirect policy (POST seam). */
    redirectTo?: string | null | undefined;
    /** PRE seam model override, handed back by identity. */
    model?: Model | null | undefined;
    /** Rewrites the arguments of a redirected call (it receives a copy); must return a plain object. */
    argsTransform?: ((args: any, ctx: Ctx) => Record<string, unknown>) | null | undefined;
    /** Precondition of the redirect only (never asked for model selection). */
    guard?: ((ctx: Ctx) => unknown) | null | undefined;
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
    /** Frees what `matchesTool` built; later `matchesTool` calls throw. */
    dispose(): void;
    [Symbol.dispose](): void;
}

export interface ToolPoliciesOptions<Ctx = unknown, Model = unknown, Call extends ToolCall = ToolCall> {
    /** Asked only when no policy supplies a model; `null`/`undefined` means the default. */
    modelResolver?: ((ctx: Ctx) => Model | null | undefined) | undefined;
    /** Runs after the policies, before the gate; may return a rewritten call (its fields over the call's: `id` is kept unless it sets one). */
    onToolCallDispatch?: ((call: Call, ctx: Ctx) => Call | null | undefined | void) | undefined;
    /** Receives `ToolRedirectDroppedWarning`s instead of `process.emitWarning`/`console.warn`. */
    onWarning?: ((warning: Error) => void) | undefined;
    /**
     * The registered tool names. When given, a palette that does not narrow (a refusal,
     * `RoutingUnavailable`, none) lets exactly these pass the gate; without it, every tool.
     */
    registered?: Iterable<string> | undefined;
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

/** Policies composed in declaration order, applied at the two seams. Frozen. */
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
    /** Frees the wasm side now rather than at garbage collection; later seam calls throw. */
    dispose(): void;
    [Symbol.dispose](): void;
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
