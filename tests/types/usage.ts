// Typed usage of the published declarations (dist/index.d.ts). `@ts-expect-error` lines
// prove that the types reject what they must: if one stops erroring, tsc fails.
import {
  activeTools,
  bindPalette,
  resolvePalette,
  Routed,
  RoutingRefusal,
  RoutingUnavailable,
  ToolCallPolicy,
  ToolPolicies,
  ToolIndex,
  ToolRouter,
  ToolRoutingUnavailableWarning,
  type Dispatch,
  type ModelSelection,
  type RouterOutcome,
} from "tool-palette";

interface MyCtx {
  message: string;
  scope: { tenant: string };
}
interface MyModel {
  id: string;
}

async function routing(signal: AbortSignal) {
  const outcome = await resolvePalette({
    entries: async () => [{ tool: "web_search" }, "calendar"],
    registered: new Set(["web_search", "calendar"]),
    timeoutMs: 250,
    signal,
  });
  if (outcome.kind === "routed") {
    const names: readonly string[] = outcome.names;
    // @ts-expect-error a Routed has no reason
    outcome.reason;
    return names;
  }
  const reason: string = outcome.reason;
  // @ts-expect-error registered must hold strings
  await resolvePalette({ entries: null, registered: [1, 2] });
  return reason;
}

async function router() {
  const r = new ToolRouter({ entries: () => ["a"], registered: ["a"], onWarning: (w) => console.log(w.message) });
  const outcome: RouterOutcome = await r.resolve({ signal: new AbortController().signal });
  switch (outcome.kind) {
    case "routed":
      return outcome.names;
    case "refused":
      return outcome.reason;
    case "unavailable": {
      const m: readonly ("procedural-layer" | "no-registered-tools")[] = outcome.missing;
      return m;
    }
  }
}

function binding(outcome: RouterOutcome) {
  const list: string[] | undefined = activeTools(outcome);
  const arr = bindPalette([{ name: "a", run: () => 1 }], outcome);
  arr[0].run();
  const rec = bindPalette({ a: { description: "x" } }, outcome);
  rec.a.description.toUpperCase();
  const w = new ToolRoutingUnavailableWarning("m", ["procedural-layer"]);
  const isErr: Error = w;
  const u = new RoutingUnavailable(["no-registered-tools"]);
  const refused = new RoutingRefusal("r");
  const routed = new Routed(["a"]);
  return [list, isErr, u, refused, routed];
}

function policies() {
  const cheap: MyModel = { id: "cheap" };
  const sql = new ToolCallPolicy<MyCtx, MyModel>({
    name: "sql",
    match: (ctx) => ctx.message.includes("sales"),
    whenTool: ["web_search"],
    redirectTo: "sql_query",
    model: cheap,
    argsTransform: (args, ctx) => ({ query: String(args.q), tenant: ctx.scope.tenant }),
    guard: (ctx) => ctx.scope.tenant !== "",
  });
  const set = new ToolPolicies<MyCtx, MyModel>([sql], {
    modelResolver: (ctx) => (ctx.message ? cheap : null),
    onToolCallDispatch: (call) => call,
  });
  const ctx: MyCtx = { message: "sales", scope: { tenant: "t" } };
  const sel: ModelSelection<MyModel> = set.selectModel(ctx);
  const id: string | undefined = sel.model?.id;
  const d: Dispatch = set.dispatch({ name: "web_search", args: { q: 1 }, id: "c1" }, ctx, ["sql_query"]);
  const dropped: string | undefined = d.dropped?.target;
  // @ts-expect-error the context type is checked
  set.selectModel({ message: 1 });
  new ToolCallPolicy<MyCtx>({
    name: "typed",
    // @ts-expect-error match receives MyCtx, which has no `nope`
    match: (ctx) => ctx.nope,
  });
  return [id, dropped];
}

export { routing, router, binding, policies };

// A router whose procedural layer takes the turn's context; gates with registered names.
async function contextual() {
  const router = new ToolRouter({ entries: async (ctx: { message: string }) => [ctx.message], registered: ["a"] });
  await router.resolve({ context: { message: "a" } });
  const set = new ToolPolicies([], { registered: ["a", "b"] });
  set.dispatch({ name: "a" }, {}, await router.resolve({ context: { message: "a" } }));
  // Its entries read a context: a turn without one (entries(undefined), refusal 2a) is a type error.
  // @ts-expect-error
  await router.resolve();
  // @ts-expect-error
  await router.resolve({ signal: undefined });
  const signal = new AbortController().signal;
  await resolvePalette({ entries: null, registered: [], signal });
}
export { contextual };

// ToolIndex takes the tool shapes of the APIs as they are written inline, with whatever
// else they carry (excess properties are not errors): MCP tools/list items, OpenAI
// Responses and Chat Completions tools, Anthropic Messages tools.
function toolShapes() {
  new ToolIndex([{ name: "read_file", title: "Read", inputSchema: { type: "object" }, outputSchema: { type: "object" }, annotations: { readOnlyHint: true } }]);
  new ToolIndex([{ type: "function", name: "get_weather", description: "Weather", parameters: { type: "object" }, strict: true }]);
  new ToolIndex([{ type: "function", function: { name: "get_weather", parameters: { type: "object" }, strict: true } }]);
  new ToolIndex([{ name: "get_weather", description: "Weather", input_schema: { type: "object", properties: {} }, cache_control: { type: "ephemeral" } }]);
  // @ts-expect-error a tool needs a string name
  new ToolIndex([{ name: 5, description: "x" }]);
  const index = new ToolIndex([{ name: "a" }], { limit: 3 });
  const hits: readonly { name: string; score: number }[] = index.search("a", { limit: 2 });
  return hits;
}
export { toolShapes };

// explain takes search's query and options; its records say where the score came from.
function explanations(index: ToolIndex, bytes: Uint8Array) {
  const explaining: ToolIndex = new ToolIndex([{ name: "a" }], { explain: true });
  // @ts-expect-error explain is a boolean
  new ToolIndex([{ name: "a" }], { explain: 1 });
  // @ts-expect-error a snapshot holds its counts
  ToolIndex.load(bytes, { explain: true });
  const [why] = index.explain("a", { limit: 2, vector: [0, 1] });
  const field: "name" | "description" | "parameterName" | "parameterDescription" | "parameterEnum" | undefined = why?.lexical?.fields[0]?.field;
  const parts: number | undefined = why?.fused ? why.fused.lexical + why.fused.vector : why?.lexical?.score;
  const terms: string[] | undefined = why?.lexical?.fields.flatMap((f) => f.terms.map((t) => `${t.term} ×${t.count}: ${t.score}`));
  // @ts-expect-error the records are read-only
  if (why) why.score = 0;
  // @ts-expect-error a field is one of five
  const wrong: "params" | undefined = why?.lexical?.fields[0]?.field;
  // @ts-expect-error explain's options are search's
  index.explain("a", { depth: 3 });
  return [explaining, field, parts, terms, wrong, why?.vector?.similarity, why?.rank];
}
export { explanations };

// ToolIndex.load: a Uint8Array loads at once; a Response, a Blob or a ReadableStream gives a Promise.
async function snapshots(bytes: Uint8Array, response: Response, blob: Blob, stream: ReadableStream<Uint8Array>, signal: AbortSignal) {
  const now: ToolIndex = ToolIndex.load(bytes, { limit: 3 });
  const later: Promise<ToolIndex>[] = [ToolIndex.load(response, { signal }), ToolIndex.load(blob), ToolIndex.load(stream, { limit: 3 })];
  // @ts-expect-error a load from a stream is a Promise
  const wrong: ToolIndex = ToolIndex.load(response);
  // @ts-expect-error a snapshot holds its vectors
  ToolIndex.load(bytes, { vectors: [[1]] });
  // @ts-expect-error a string is no source
  ToolIndex.load("bytes");
  return [now, wrong, ...(await Promise.all(later))];
}
export { snapshots };
