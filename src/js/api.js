// The public API of tool-palette, the same behind every runtime entry: the exports of the
// wasm binding (src/js/, where every SPEC rule is decided by the Rust core) and the
// result classes that JavaScript holds (host.js).
import * as wasm from "./tool_palette.js";
import { state } from "./state.js";
import { enter, runaway, Binding, Frame, readDispatch, readFields, readOutcome, readStrings, readTools, sourceOf, Wait } from "./host.js";
import { CONTEXT, INDEX, LOAD, POLICIES, POLICY, RESOLVE, ROUTER, ROUTING, RUN, SEARCH } from "./wire.js";

export { Routed, RoutingRefusal, RoutingUnavailable, ToolRoutingUnavailableWarning, ToolRedirectDroppedWarning } from "./host.js";

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

// Each export through the door (host.js `enter`): a trap or an exception that unwound
// through the module fails this call only, with the module's state put back.
const guarded = (f) =>
  function (...args) {
    if (!state.ready) throw notReady();
    return enter(f, this, args);
  };

// A runaway recursion is cut synchronously, even for calls that return promises (as a
// stack overflow would be), so that the caller's code that recursed fails at once.
const guardedAsync = (f) =>
  function (...args) {
    if (!state.ready) return Promise.reject(notReady());
    const nested = runaway();
    if (nested !== undefined) throw nested;
    try {
      return enter(f, this, args);
    } catch (error) {
      return Promise.reject(error);
    }
  };

// The classes themselves, through a proxy that only guards construction (`instanceof`,
// the prototype and subclassing are the class's own).
// Each instance is known by the class that made it (`made`: its prototype), noted where the
// glue wraps every instance the module makes (constructors, ToolIndex.load, a set's
// policies): a method or getter called on anything else (another class's instance, which
// the glue would read as this one's) is a TypeError before the module is entered.
const made = new WeakMap();
for (const Class of [wasm.ToolRouter, wasm.ToolPolicies, wasm.ToolCallPolicy, wasm.ToolIndex, wasm.PaletteRun]) {
  const wrap = Class.__wrap;
  Class.__wrap = (ptr) => {
    const value = wrap(ptr);
    made.set(value, Class.prototype);
    return value;
  };
}
// (`read`: what the facade reads of the arguments, through the door, for the constructor.)
const construct = (target, newTarget, read) =>
  function (...args) {
    return Reflect.construct(target, read(...args), newTarget);
  };
const guardedClass = (Class, read) =>
  new Proxy(Class, {
    construct(target, args, newTarget) {
      if (!state.ready) throw notReady();
      if (read !== undefined) return enter(construct(target, newTarget, read), undefined, args);
      return enter(Reflect.construct, undefined, [target, args, newTarget]);
    },
  });
const own = (Class, name, f) =>
  function (...args) {
    if (made.get(this) !== Class.prototype) throw new TypeError(`tool-palette: ${Class.name}.prototype.${name} called on an object that is not a ${Class.name}`);
    return f.apply(this, args);
  };

// A turn: the facade reads the options once each (and the registered names), the module
// runs the turn over its JavaScript half (host.js `Wait`), whose promise settles with it.
export const resolvePalette = guardedAsync(function resolvePalette(options) {
  const turn = new Wait();
  const { values, kinds, number, unread } = readFields(options, ROUTING);
  const names = unread === undefined ? readStrings(values[ROUTING.indexOf("registered")]) : readStrings(undefined);
  wasm.resolvePalette(turn, options, kinds, number, unread, ...values, names, names.list, names.listed, names.count, names.units);
  return turn.promise;
});
// An outcome at the model-call boundary: the facade reads it (and the tools) once each,
// the module decides (src/js/palette.rs).
export const activeTools = guarded(function activeTools(outcome) {
  return wasm.activeTools(outcome, ...readOutcome(outcome));
});
export const bindPalette = guarded(function bindPalette(tools, outcome) {
  return wasm.bindPalette(tools, outcome, new Binding(tools, outcome));
});
// Policy specs (a ToolCallPolicy's, or each of a ToolPolicies' list), read once each, into
// one list: per spec, the spec, the kinds of it and its fields (readFields of POLICY), how
// many of its fields were read before one threw (all: POLICY.length), its `whenTool` list
// (readStrings; none after a field that threw), then its fields' values. The module checks
// them (src/js/policy.rs `Specs`).
function readSpecs(specs) {
  const out = [];
  for (const spec of specs) {
    const { values, kinds, unread } = readFields(spec, POLICY);
    out.push(spec, kinds, unread ?? POLICY.length, unread === undefined ? readStrings(values[WHEN_TOOL]) : undefined, ...values);
  }
  return out;
}
const WHEN_TOOL = POLICY.indexOf("whenTool");

// The constructors: the facade reads the options (and the specs) once each, and the lists
// of names in them; the module checks them and builds the instance.
export const ToolRouter = guardedClass(wasm.ToolRouter, (options) => {
  const { values, kinds, number, unread } = readFields(options, ROUTER);
  return [options, kinds, number, unread, values, readStrings(unread === undefined ? values[ROUTER.indexOf("registered")] : undefined)];
});
export const ToolPolicies = guardedClass(wasm.ToolPolicies, (policies, options) => {
  const list = readStrings(policies, false);
  const specs = readSpecs(list.list);
  const { values, kinds, unread } = readFields(options, POLICIES);
  const names = readStrings(unread === undefined ? values[POLICIES.indexOf("registered")] : undefined);
  return [list, list.listed, specs, options, kinds, unread, values, names];
});
export const ToolCallPolicy = guardedClass(wasm.ToolCallPolicy, (spec) => [readSpecs([spec])]);
// A ToolIndex: the facade reads the tools, then the options, once each (src/js/index.rs).
export const ToolIndex = guardedClass(wasm.ToolIndex, (tools, options) => {
  const read = readTools(tools);
  return [tools, read, readFields(options, INDEX)];
});
export const PaletteRun = guardedClass(wasm.PaletteRun, (options) => {
  const { values, kinds, unread } = readFields(options, RUN);
  const list = (key) => readStrings(unread === undefined ? values[RUN.indexOf(key)] : undefined);
  return [options, kinds, unread, values, list("registered"), list("pinned")];
});

const { resolve } = wasm.ToolRouter.prototype;
wasm.ToolRouter.prototype.resolve = function (options) {
  const turn = new Wait();
  const { values, kinds, unread } = readFields(options, RESOLVE);
  resolve.call(this, turn, options, kinds, unread, ...values);
  return turn.promise;
};

// The seams: the facade reads the caller's values into the call's frame, the module
// decides (src/js/policies.rs), the record is built from the frame and the answer.
const { dispatch, selectModel } = wasm.ToolPolicies.prototype;
Object.assign(wasm.ToolPolicies.prototype, {
  selectModel(ctx) {
    const frame = new Frame();
    return frame.selected(this.policies, selectModel.call(this, frame, ctx));
  },
  dispatch(call, ctx, palette) {
    const frame = readDispatch(call, palette);
    const { names } = frame;
    return frame.dispatched(this.policies, dispatch.call(this, frame, call, ctx, frame.name, frame.units, frame.palette, names, names.listed, names.count, names.units));
  },
});

// ToolIndex: the facade reads the options of a search (or an explain) and a turn's
// context (its `message`, `history` and the history's strings), once each; the module
// checks and ranks.
const { search, explain, entriesFor } = wasm.ToolIndex.prototype;
Object.assign(wasm.ToolIndex.prototype, {
  search(query, options) {
    return search.call(this, query, readFields(options, SEARCH));
  },
  explain(query, options) {
    return explain.call(this, query, readFields(options, SEARCH));
  },
  entriesFor(context) {
    const read = readFields(context, CONTEXT);
    const history = read.values[CONTEXT.indexOf("history")];
    return entriesFor.call(this, read, read.unread !== undefined || history == null ? undefined : readStrings(history));
  },
});

const { step } = wasm.PaletteRun.prototype;
wasm.PaletteRun.prototype.step = function (outcome) {
  return step.call(this, outcome, ...readOutcome(outcome));
};

const methods = [
  [ToolRouter, ["resolve"], guardedAsync],
  [ToolRouter, ["dispose"], guarded],
  [ToolPolicies, ["selectModel", "dispatch", "dispose"], guarded],
  [ToolCallPolicy, ["matchesTool", "dispose"], guarded],
  [ToolIndex, ["search", "explain", "entriesFor", "save", "dispose"], guarded],
  [PaletteRun, ["step", "reveal", "dispose"], guarded],
];
// The getters through the door too: one called on another object traps no more than a method.
for (const [Class, names] of [[ToolIndex, ["size", "dimensions"]], [PaletteRun, ["size"]]]) {
  for (const name of names) {
    const { get } = Object.getOwnPropertyDescriptor(Class.prototype, name);
    Object.defineProperty(Class.prototype, name, { get: own(Class, name, guarded(get)), configurable: true });
  }
}
// `ToolIndex.load(bytes, options?)`: guarded like the constructor. From a Response, Blob or
// ReadableStream it answers a Promise as it is (src/js/load.rs), which the module rejects for
// whatever fails, before the first read too; it settles through the door (host.js `drive`).
// The facade judges what source the bytes are (host.js `sourceOf`), then reads the options.
const loadFrom = wasm.ToolIndex.load;
function load(bytes, options) {
  const source = sourceOf(bytes);
  return loadFrom(bytes, source, readFields(options, LOAD));
}
Object.defineProperty(wasm.ToolIndex, "load", { value: guarded(load), writable: true, configurable: true });
// `index.entries`: a function of the index, ready to be a router's procedural layer.
Object.defineProperty(ToolIndex.prototype, "entries", {
  get() {
    return (context) => this.entriesFor(context);
  },
  configurable: true,
});

for (const [Class, names, guard] of methods) {
  for (const name of names) {
    Object.defineProperty(Class.prototype, name, { value: own(Class, name, guard(Class.prototype[name])), writable: true, configurable: true });
  }
  // Instances are frozen, so the glue's own free() (which clears a field) cannot run on
  // them; dispose() is the package's, and `using` calls it where the runtime has
  // explicit resource management.
  delete Class.prototype.free;
  delete Class.prototype.__destroy_into_raw;
  if (typeof Symbol.dispose === "symbol") {
    Object.defineProperty(Class.prototype, Symbol.dispose, { value: Class.prototype.dispose, writable: true, configurable: true });
  }
}
