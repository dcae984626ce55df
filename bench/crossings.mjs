// Counts the boundary crossings of one call: every call from JavaScript into the wasm
// module (an export) and from the module into JavaScript (an import of the glue or of
// host.js), for one async resolvePalette and one redirected-then-dropped dispatch.
// Run in a fresh process (it patches WebAssembly.Instance before the package loads):
// `node bench/crossings.mjs` prints one JSON line.
const counts = { exports: 0, imports: 0 };
const Instance = WebAssembly.Instance;
const count = (f, kind) =>
  function (...args) {
    counts[kind]++;
    return f.apply(this, args);
  };
WebAssembly.Instance = function (module, imports) {
  const wrapped = {};
  for (const [space, fields] of Object.entries(imports)) {
    wrapped[space] = {};
    for (const [name, value] of Object.entries(fields)) wrapped[space][name] = typeof value === "function" ? count(value, "imports") : value;
  }
  const instance = new Instance(module, wrapped);
  const exports = {};
  for (const [name, value] of Object.entries(instance.exports)) exports[name] = typeof value === "function" ? count(value, "exports") : value;
  return { exports };
};

const tp = await import("../dist/node.mjs");
WebAssembly.Instance = Instance;

async function measure(f) {
  await f(); // warm: first calls build caches (property keys, the registry index)
  counts.exports = counts.imports = 0;
  await f();
  return { exports: counts.exports, imports: counts.imports, total: counts.exports + counts.imports };
}

const registered = Array.from({ length: 10 }, (_, i) => `tool_${i}`);
const rows = ["tool_1", { tool: "tool_2" }, { tool: "ghost", active: false }, { content: "prose" }];
const resolve = await measure(() => tp.resolvePalette({ entries: async () => rows, registered, timeoutMs: 250 }));
const policies = new tp.ToolPolicies([{ name: "sql", match: () => true, whenTool: "web_search", redirectTo: "sql_query" }], { onWarning: () => {} });
const palette = new tp.Routed(["web_search"]);
const dispatch = await measure(() => policies.dispatch({ name: "web_search", args: { q: "x" }, id: "c1" }, {}, palette));
console.log(JSON.stringify({ resolvePalette: resolve, dispatch }));
