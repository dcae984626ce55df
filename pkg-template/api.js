// The public API of tool-palette, the same behind every runtime entry: the exports of the
// wasm binding (src/js/, where every SPEC rule is decided by the Rust core) and the
// result classes that JavaScript holds (host.js).
import * as wasm from "./tool_palette.js";
import { state } from "./state.js";

export { Routed, RoutingRefusal, RoutingUnavailable, ToolRoutingUnavailableWarning, ToolRedirectDroppedWarning } from "./host.js";

// A trap (a WebAssembly RuntimeError: the module ran out of memory, or a bug) fails the
// call that hit it with an Error that says so, and a promise-returning call rejects
// rather than throws. The module holds no state that a trap could leave half-done (see
// src/js/mod.rs), so the next call runs normally.
function trapped(error) {
  if (!(error instanceof WebAssembly.RuntimeError)) return error;
  return new Error(`tool-palette: the WebAssembly module trapped (${error.message}); this call failed, the next one runs normally`, { cause: error });
}

// Through tool-palette/init (or a require() in a browser) the API can be called before
// the module is instantiated: that call fails with an Error that says what to await,
// or why the module could not load.
function notReady() {
  if (state.error !== undefined) {
    const reason = state.error instanceof Error ? state.error.message : String(state.error);
    return new Error(`tool-palette: the WebAssembly module failed to load (${reason}); \`ready\` rejected with this error`, { cause: state.error });
  }
  return new Error("tool-palette: the WebAssembly module is not loaded yet: `await ready` (or `await init()`) before calling tool-palette");
}

const guarded = (f) =>
  function (...args) {
    if (!state.ready) throw notReady();
    try {
      return f.apply(this, args);
    } catch (error) {
      throw trapped(error);
    }
  };

const guardedAsync = (f) =>
  function (...args) {
    if (!state.ready) return Promise.reject(notReady());
    try {
      return f.apply(this, args);
    } catch (error) {
      return Promise.reject(trapped(error));
    }
  };

// The classes themselves, through a proxy that only guards construction (`instanceof`,
// the prototype and subclassing are the class's own).
const guardedClass = (Class) =>
  new Proxy(Class, {
    construct(target, args, newTarget) {
      if (!state.ready) throw notReady();
      try {
        return Reflect.construct(target, args, newTarget);
      } catch (error) {
        throw trapped(error);
      }
    },
  });

export const resolvePalette = guardedAsync(wasm.resolvePalette);
export const activeTools = guarded(wasm.activeTools);
export const bindPalette = guarded(wasm.bindPalette);
export const ToolRouter = guardedClass(wasm.ToolRouter);
export const ToolPolicies = guardedClass(wasm.ToolPolicies);
export const ToolCallPolicy = guardedClass(wasm.ToolCallPolicy);
export const ToolIndex = guardedClass(wasm.ToolIndex);

const methods = [
  [ToolRouter, ["resolve"], guardedAsync],
  [ToolPolicies, ["selectModel", "dispatch"], guarded],
  [ToolCallPolicy, ["matchesTool"], guarded],
  [ToolIndex, ["search", "entriesFor", "save"], guarded],
];
// `ToolIndex.load(bytes, options?)`: guarded like the constructor.
Object.defineProperty(wasm.ToolIndex, "load", { value: guarded(wasm.ToolIndex.load), writable: true, configurable: true });
// `index.entries`: a function of the index, ready to be a router's procedural layer.
Object.defineProperty(ToolIndex.prototype, "entries", {
  get() {
    return (context) => this.entriesFor(context);
  },
  configurable: true,
});

for (const [Class, names, guard] of methods) {
  for (const name of names) {
    Object.defineProperty(Class.prototype, name, { value: guard(Class.prototype[name]), writable: true, configurable: true });
  }
  // Instances are frozen, so the glue's own free() (which clears a field) cannot run on
  // them; dispose() is the package's, and `using` calls it where the runtime has
  // explicit resource management.
  delete Class.prototype.free;
  if (typeof Symbol.dispose === "symbol") {
    Object.defineProperty(Class.prototype, Symbol.dispose, { value: Class.prototype.dispose, writable: true, configurable: true });
  }
}
