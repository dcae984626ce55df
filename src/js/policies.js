// @ts-check
// Policies (SPEC 4): ToolCallPolicy, ToolPolicies, ToolRedirectDroppedWarning. The module
// (policies.rs) holds them in the core's form and runs each seam, asking a `Frame`.
import * as wasm from "./tool_palette.js";
// Named, not destructured from the namespace: a destructured namespace keeps every export of
// the glue in the browser bundle (esbuild then builds the namespace object), 427 gzip bytes.
import { Palette } from "./tool_palette.js";
import { FUNCTIONS, SEAMS } from "./wire.js";
import { attempt as read, bounded, checked, describe, drop, enter, fields, guarded, isFunction, isObject, keep, mustBe, attachRecord, putNames, reserve, slot, strings, withRecord } from "./host.js";
import { calls } from "./calls.js";
import { deliver } from "./deliver.js";

export class ToolRedirectDroppedWarning extends Error {
  constructor(message, details) {
    const [policy, target, original] = fields(details, ["policy", "target", "original"], "ToolRedirectDroppedWarning: details", true);
    super(message);
    Object.assign(this, { name: "ToolRedirectDroppedWarning", policy, target, original });
  }
}

const checkedPolicies = new WeakSet(); // the ToolCallPolicy instances made here, which a ToolPolicies keeps as they are

/** @template [Ctx=unknown] @template [Model=unknown] */
export class ToolCallPolicy {
  constructor(spec) { enter(policy, this, [spec]); }

  // (The policy in the core's form is made when first asked: a set's policies need none.)
  /** @type {import("./tool-palette.js").ToolCallPolicy<Ctx, Model>["matchesTool"]} */
  matchesTool(toolName) {
    return withRecord(this, ToolCallPolicy, "matchesTool", (slots) => {
      const where = `ToolCallPolicy "${this.name}".matchesTool: toolName`;
      if (typeof toolName !== "string") throw mustBe(where, "a string", toolName);
      if (slots.length === 0) keep(slots[slots.push(composed([this], undefined, false, false)) - 1]);
      return putNames([toolName], where), wasm.matchesTool(slots[0], 0);
    });
  }
}
guarded(ToolCallPolicy, ["matchesTool"]);

// A spec's fields, read once each in order, then checked (one that throws is named with the policy).
const SPEC = ["name", "match", "whenTool", "redirectTo", "model", "argsTransform", "guard"];
/** @this {ToolCallPolicy} */
function policy(spec) {
  if (!isObject(spec)) throw mustBe("ToolCallPolicy: spec", "an object", spec);
  const values = [];
  for (const key of SPEC) values.push(read(() => spec[key], () => (key === "name" ? "ToolCallPolicy: spec.name" : `${named(values[0])}: spec.${key}`)));
  const [name, match, whenTool, redirectTo, model, argsTransform, guard] = values;
  const who = named(name);
  checked(match, "required", `${who}: match`);
  const tools = whenTool == null || typeof whenTool === "string" ? whenTool ?? null : Object.freeze(strings(whenTool, `${who}: whenTool`));
  if (tools !== null) reserve(typeof tools === "string" ? [tools] : tools, `${who}: whenTool`);
  const target = checked(redirectTo, "target", `${who}: redirectTo`) ?? null;
  if (target !== null) reserve([target], `${who}: redirectTo`);
  const fields = { name, match, whenTool: tools, redirectTo: target, model: model ?? null };
  fields.argsTransform = checked(argsTransform, "nullableFunction", `${who}: argsTransform`) ?? null;
  fields.guard = checked(guard, "nullableFunction", `${who}: guard`) ?? null;
  // (Its slot, when `matchesTool` first needs one.)
  attachRecord(this, []);
  checkedPolicies.add(Object.freeze(Object.assign(this, fields)));
}

// `ToolCallPolicy "<name>"`, the name checked.
function named(name) {
  checked(name, "name", "ToolCallPolicy: name");
  reserve([name], "ToolCallPolicy: name");
  return `ToolCallPolicy "${name}"`;
}

// Policies in the core's form (src/js/policies.rs `policies`): their slot, or the index of
// a name used twice; `gate`: the slot of the registered names.
function composed(list, gate, resolver, hook) {
  const names = [];
  const shape = new Uint32Array(3 * list.length);
  list.forEach((p, i) => {
    const tools = p.whenTool === null ? [] : typeof p.whenTool === "string" ? [p.whenTool] : p.whenTool;
    names.push(p.name, p.redirectTo ?? "", ...tools);
    shape.set([p.whenTool === null ? ANY : tools.length, p.model !== null ? 1 : 0, p.guard !== null ? 1 : 0], 3 * i);
  });
  putNames(names, "ToolPolicies: policies");
  const at = slot();
  const twice = wasm.policies(at, gate, resolver, hook, shape);
  if (twice === undefined) return at;
  drop(at);
  if (twice === ANY) throw new RangeError("ToolPolicies: policies could not be composed: the WebAssembly module's memory ran out");
  return { twice };
}
const ANY = 0xffffffff;

/** @template [Ctx=unknown] @template [Model=unknown] @template {import("./tool-palette.js").ToolCall} [Call=import("./tool-palette.js").ToolCall] */
export class ToolPolicies {
  constructor(policies, options) { enter(compose, this, [policies, options]); }

  /** @type {import("./tool-palette.js").ToolPolicies<Ctx, Model, Call>["selectModel"]} */
  selectModel(ctx) {
    return withRecord(this, ToolPolicies, "selectModel", ([set], more) => {
      const frame = (calls.to = new Frame(this.policies, ctx, more));
      const i = wasm.selectModel(set);
      if (frame.failure !== null) throw frame.thrown;
      const p = i === undefined ? undefined : this.policies[i];
      return Object.freeze(p ? { model: p.model, source: "policy", policy: p.name } : { model: frame.model, source: frame.model === null ? "default" : "resolver", policy: null });
    });
  }

  /** @type {import("./tool-palette.js").ToolPolicies<Ctx, Model, Call>["dispatch"]} */
  dispatch(call, ctx, palette) {
    return withRecord(this, ToolPolicies, "dispatch", ([set], more) => {
      const where = "ToolPolicies.dispatch: call";
      if (!isObject(call)) throw mustBe(where, "an object { name, args, id? }", call);
      const name = read(() => call.name, `${where}.name`);
      if (typeof name !== "string") throw mustBe(`${where}.name`, "a string", name);
      const [handed, names = []] = paletteOf(palette, "ToolPolicies.dispatch: palette");
      reserve([name], `${where}.name`);
      putNames(names.length > 0 ? [name, ...names] : [name], "ToolPolicies.dispatch: palette");
      const frame = (calls.to = new Frame(this.policies, ctx, more, call, name));
      const i = wasm.dispatch(set, handed, names.length);
      if (frame.failure !== null) throw frame.thrown;
      const by = i === undefined ? null : this.policies[i].name;
      if (frame.drop === null) return Object.freeze({ call: frame.current, original: call, redirectedBy: by, dropped: null });
      const reason = `redirect target "${frame.target}" is ${frame.drop}; dispatching the original call "${name}"`;
      const warning = new ToolRedirectDroppedWarning(`${by === null ? "onToolCallDispatch" : `ToolCallPolicy "${by}"`}: ${reason}`, { policy: by, target: frame.target, original: name });
      deliver(warning, more.onWarning);
      return Object.freeze({ call, original: call, redirectedBy: by, dropped: Object.freeze({ target: frame.target, reason }) });
    });
  }

}
guarded(ToolPolicies, ["selectModel"], ["dispatch"]);

// A new set: its policies (a spec becomes a ToolCallPolicy), then its options, checked.
/** @this {ToolPolicies} */
function compose(policies, options) {
  const where = "ToolPolicies: policies";
  const items = read(() => (isObject(policies) && isFunction(policies[Symbol.iterator]) ? bounded(policies) : undefined), where);
  if (items === undefined) throw mustBe(where, "an iterable of ToolCallPolicy", policies);
  const fromSpecs = []; // the policies this set made of specs (it disposes of them)
  const list = items.map((item, i) => {
    try {
      if (checkedPolicies.has(item)) return item;
      const policy = new ToolCallPolicy(item);
      fromSpecs.push(policy);
      return policy;
    } catch (cause) {
      throw new (cause instanceof RangeError ? RangeError : TypeError)(`${where}[${i}]: ${/** @type {Error} */ (cause).message}`, { cause });
    }
  });
  const at = "ToolPolicies: options";
  const [resolver, hook, onWarning, registered] = fields(options, ["modelResolver", "onToolCallDispatch", "onWarning", "registered"], at);
  const more = { resolver: checked(resolver, "function", `${at}.modelResolver`), hook: checked(hook, "function", `${at}.onToolCallDispatch`) };
  more.onWarning = checked(onWarning, "function", `${at}.onWarning`);
  const names = registered === undefined ? undefined : strings(registered, `${at}.registered`);
  let known;
  if (names) {
    putNames(names, `${at}.registered`);
    known = slot();
    if (!wasm.names(known, names.length)) throw (drop(known), new RangeError(`${at}.registered could not be indexed: the WebAssembly module's memory ran out`));
  }
  let set;
  try { set = composed(list, known, more.resolver !== undefined, more.hook !== undefined); } catch (error) { throw (known !== undefined && drop(known), error); }
  if (typeof set !== "number") {
    if (known !== undefined) drop(known);
    throw new TypeError(`${where}[${set.twice}] reuses the name "${list[set.twice].name}"; policy names must be unique`);
  }
  // (The policies it made of specs go with it; the caller's own stay theirs.)
  const slots = known === undefined ? [set] : [set, known];
  attachRecord(this, slots, more, () => (slots.forEach(drop), fromSpecs.forEach((p) => p.dispose())));
  this.policies = Object.freeze(list);
  Object.freeze(this);
}

// A dispatch's palette, read once: what it is (policies.rs `Palette`: who the gate admits is
// the core's to decide) and the names it holds (judged by `kind`, so that another build's
// outcomes count too).
/** @returns {[Palette] | [Palette, string[]]} */
function paletteOf(palette, where) {
  if (palette == null) return [Palette.Nothing];
  const kind = read(() => (isObject(palette) ? palette.kind : undefined), where);
  if (kind === "refused" || kind === "unavailable") return [Palette.NotRouted];
  if (kind === "routed") return [Palette.Routed, strings(read(() => palette.names, `${where}.names`), `${where}.names`)];
  return [Palette.Names, strings(palette, where)];
}

// What the module asks of one seam call (policies.rs `Frame`): each method calls the
// caller's code, catches all it throws and answers nothing for a failure, keeping why
// (`failure`; RAW: thrown as it is) and what; and the call, its target, the model, a drop.
class Frame {
  constructor(policies, ctx, more, call, name) {
    this.policies = policies;
    this.ctx = ctx;
    this.more = more;
    this.call = this.current = call;
    this.target = name;
    this.model = this.drop = this.failure = null;
  }
  fail(failure, thrown) {
    [this.failure, this.thrown] = [failure, thrown];
  }
  // A predicate's (or argsTransform's, given `args`) answer, or FAILED.
  answer(f, args) {
    let failure = "threw";
    try {
      const answer = args === NO_ARGS ? f(this.ctx) : f(args, this.ctx);
      failure = "returned a value whose `then` could not be read";
      if (!thenable(answer)) return answer;
      this.fail("returned a promise or thenable (it must be synchronous)", answer);
    } catch (error) {
      this.fail(failure, error);
    }
    return FAILED;
  }
  asked(i, guard) {
    const answer = this.answer(guard ? this.policies[i].guard : this.policies[i].match, NO_ARGS);
    return answer === FAILED ? undefined : Boolean(answer);
  }
  // The call rewritten; argsTransform gets a copy of its args and must answer a plain object.
  redirect(i) {
    const { redirectTo, argsTransform } = this.policies[i];
    let call, args;
    try {
      call = read(() => ({ ...this.call, name: redirectTo }), "ToolPolicies.dispatch: call");
      args = argsTransform && read(() => copy(call.args), "ToolPolicies.dispatch: call.args");
    } catch (error) {
      return this.fail(RAW, error);
    }
    if (argsTransform !== null) {
      const answer = this.answer(argsTransform, args);
      if (answer === FAILED) return undefined;
      if (!isPlainObject(answer)) return this.fail(`returned ${describe(answer)}, not a plain object`, answer);
      call.args = answer;
    }
    [this.current, this.target] = [call, redirectTo];
    return true;
  }
  resolve() {
    try { return (this.model = Reflect.apply(this.more.resolver, undefined, [this.ctx]) ?? null) !== null; } catch (error) { return this.fail(RAW, error); }
  }
  // A call onToolCallDispatch returns keeps the fields it leaves out (`id` above all).
  callback() {
    const where = "ToolPolicies: onToolCallDispatch's returned call";
    try {
      let next = Reflect.apply(this.more.hook, undefined, [this.current, this.ctx]);
      if (next == null) return false;
      if (!isObject(next)) throw mustBe(where, "an object { name, args, id? }", next);
      const name = read(() => next.name, `${where}.name`);
      if (typeof name !== "string") throw mustBe(`${where}.name`, "a string", name);
      if (next !== this.current) next = read(() => ({ ...this.current, ...next }), where);
      putNames([name], `${where}.name`);
      [this.current, this.target] = [next, name];
      return true;
    } catch (error) {
      return this.fail(RAW, error);
    }
  }
  dropped(registered) {
    this.drop = registered ? "not a registered tool" : "not in the routed palette";
  }
  // SPEC 4: a policy's function that failed is named, with the policy and the seam.
  failed(i, f, seam) {
    if (this.failure === RAW) return;
    this.thrown = new Error(`ToolCallPolicy "${this.policies[i].name}": ${FUNCTIONS[f]} ${this.failure} at the ${SEAMS[seam]}`, { cause: this.thrown });
  }
}
const [NO_ARGS, FAILED, RAW] = [Symbol("none"), Symbol("failed"), Symbol("raw")];
const thenable = (v) => (isObject(v) || isFunction(v)) && isFunction(v.then);

// A copy of `args` of the same shape (array, plain or null-prototype object, instance).
function copy(args) {
  if (!isObject(args)) return args;
  if (Array.isArray(args)) return Array.prototype.slice.call(args);
  const proto = Object.getPrototypeOf(args);
  return proto === Object.prototype ? { ...args } : Object.assign(Object.create(proto), args);
}

// A plain object of any realm, judged by shape: its prototype is null or has none.
function isPlainObject(value) {
  try {
    if (!isObject(value) || Array.isArray(value) || Object.prototype.toString.call(value) !== "[object Object]") return false;
    const proto = Object.getPrototypeOf(value);
    return proto === null || Object.getPrototypeOf(proto) === null;
  } catch {
    return false; // a revoked or hostile proxy
  }
}
