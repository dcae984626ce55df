// Policies (SPEC 4): ToolCallPolicy, ToolPolicies and its two seams, the dropped-redirect
// warning. The facade reads and checks the caller's values; the module (src/js/policies.rs)
// holds the policies in the core's form and runs each seam, asking a `Frame` to call the
// caller's functions as the core goes.
import * as wasm from "./tool_palette.js";
import { bounded, checked, describe, dispose, enter, fields, guarded, isFunction, isObject, mustBe, own, put, putNames, reserve, strings, text, tooLarge, unreadable, use, using } from "./host.js";
import { deliver } from "./deliver.js";

const { Asked, Has, Source } = wasm;

export class ToolRedirectDroppedWarning extends Error {
  constructor(message, details) {
    const where = "ToolRedirectDroppedWarning: details";
    if (!isObject(details)) throw new TypeError(`${where} must be an object { policy, target, original }`);
    let policy, target, original;
    try {
      ({ policy, target, original } = details);
    } catch (cause) {
      throw new TypeError(`${where} could not be read`, { cause });
    }
    super(message);
    Object.assign(this, { name: "ToolRedirectDroppedWarning", policy, target, original });
  }
}

// ---------------------------------------------------------------- ToolCallPolicy

const built = new WeakSet(); // the policies this package made: a set keeps them as they are

/** One declarative per-intent rule (SPEC 4), frozen. */
export class ToolCallPolicy {
  constructor(spec) {
    enter(policy, this, [spec]);
  }

  matchesTool(toolName) {
    return using(this, ToolCallPolicy, "matchesTool", (held) => {
      const where = `ToolCallPolicy "${this.name}".matchesTool: toolName`;
      if (typeof toolName !== "string") throw mustBe(where, "a string", toolName);
      putNames([toolName], where);
      return held.matchesTool();
    });
  }

  dispose() {
    dispose(this, ToolCallPolicy);
  }
}
guarded(ToolCallPolicy, ["matchesTool"], ["dispose"]);

// A spec's fields, read once each in this order and checked; a field that cannot be read
// is named with the policy's name when that was read before it.
const SPEC = ["name", "match", "whenTool", "redirectTo", "model", "argsTransform", "guard"];
function policy(spec) {
  if (!isObject(spec)) throw mustBe("ToolCallPolicy: spec", "an object", spec);
  const values = [];
  for (const key of SPEC) {
    try {
      values.push(spec[key]);
    } catch (cause) {
      throw unreadable(key === "name" ? "ToolCallPolicy: spec.name" : `${named(values[0])}: spec.${key}`, cause);
    }
  }
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
  own(this, new wasm.Policies(write([fields], who), undefined, false, false));
  built.add(Object.freeze(Object.assign(this, fields)));
}

// `ToolCallPolicy "<name>"`, the name checked.
function named(name) {
  checked(name, "name", "ToolCallPolicy: name");
  reserve([name], "ToolCallPolicy: name");
  return `ToolCallPolicy "${name}"`;
}

// Policies into the batch, as src/js/policies.rs `Policies::new` reads them: each one's
// name (its code says what it has), redirect target ("" for none) and whenTool names.
function write(list, where) {
  const strings = [];
  const codes = [];
  for (const p of list) {
    const tools = p.whenTool === null ? [] : typeof p.whenTool === "string" ? [p.whenTool] : p.whenTool;
    strings.push(p.name, p.redirectTo ?? "");
    codes.push(Has.Policy | (p.model !== null && Has.Model) | (p.guard !== null && Has.Guard) | (p.whenTool !== null && Has.Tools), 0);
    for (const tool of tools) strings.push(tool), codes.push(0);
  }
  if (!put(strings, new Uint8Array(codes))) throw tooLarge(where);
  return strings.length;
}

// ---------------------------------------------------------------- ToolPolicies

/** Policies composed in declaration order, applied at the two seams (SPEC 4). Frozen. */
export class ToolPolicies {
  constructor(policies, options) {
    enter(compose, this, [policies, options]);
  }

  /** PRE-model seam: which model reasons this iteration. */
  selectModel(ctx) {
    return using(this, ToolPolicies, "selectModel", (set, more) => {
      const frame = new Frame(this.policies, ctx, more);
      const answer = set.selectModel(frame);
      if (answer === Source.Failed) throw frame.thrown;
      const p = answer >= Source.Policy ? this.policies[answer - Source.Policy] : undefined;
      if (p) return Object.freeze({ model: p.model, source: "policy", policy: p.name });
      const resolver = answer === Source.Resolver;
      return Object.freeze({ model: resolver ? frame.model : null, source: resolver ? "resolver" : "default", policy: null });
    });
  }

  /** POST-model seam: where the emitted call is dispatched. */
  dispatch(call, ctx, palette) {
    return using(this, ToolPolicies, "dispatch", (set, more) => {
      const where = "ToolPolicies.dispatch: call";
      if (!isObject(call)) throw mustBe(where, "an object { name, args, id? }", call);
      let name;
      try {
        name = call.name;
      } catch (cause) {
        throw unreadable(`${where}.name`, cause);
      }
      if (typeof name !== "string") throw mustBe(`${where}.name`, "a string", name);
      const names = paletteOf(palette, "ToolPolicies.dispatch: palette");
      if (!put(names ? [name, ...names] : [name])) throw tooLarge(names && !put(names) ? "ToolPolicies.dispatch: palette" : `${where}.name`);
      const frame = new Frame(this.policies, ctx, more, call, name);
      const answer = set.dispatch(frame, names?.length);
      if (answer === Source.Failed) throw frame.thrown;
      const by = answer >= Source.Policy ? this.policies[answer - Source.Policy].name : null;
      if (frame.drop === null) return Object.freeze({ call: frame.current, original: call, redirectedBy: by, dropped: null });
      const [reason, message] = frame.drop;
      deliver(new ToolRedirectDroppedWarning(message, { policy: by, target: frame.target, original: name }), more.onWarning);
      return Object.freeze({ call, original: call, redirectedBy: by, dropped: Object.freeze({ target: frame.target, reason }) });
    });
  }

  /** Frees the module's side now (and of the policies it made from specs); later seam calls throw. */
  dispose() {
    const held = use(this, ToolPolicies, "dispose");
    if (!held.disposed) for (const p of held.more.made) p.dispose();
    dispose(this, ToolPolicies);
  }
}
guarded(ToolPolicies, ["selectModel"], ["dispatch"], ["dispose"]);

// A new set: the policies (each spec made a ToolCallPolicy), then the options, read once
// each and checked; the module composes them and refuses a name used twice.
function compose(policies, options) {
  const where = "ToolPolicies: policies";
  let items;
  try {
    items = isObject(policies) && isFunction(policies[Symbol.iterator]) ? bounded(policies) : undefined;
  } catch (cause) {
    throw unreadable(where, cause);
  }
  if (items === undefined) throw mustBe(where, "an iterable of ToolCallPolicy", policies);
  const list = items.map((item, i) => {
    if (built.has(item)) return item;
    try {
      return new ToolCallPolicy(item);
    } catch (cause) {
      throw new (cause instanceof RangeError ? RangeError : TypeError)(`${where}[${i}]: ${cause.message}`, { cause });
    }
  });
  const at = "ToolPolicies: options";
  const [resolver, callback, onWarning, registered] = fields(options, ["modelResolver", "onToolCallDispatch", "onWarning", "registered"], at);
  const more = {
    resolver: checked(resolver, "function", `${at}.modelResolver`),
    callback: checked(callback, "function", `${at}.onToolCallDispatch`),
    onWarning: checked(onWarning, "function", `${at}.onWarning`),
    made: list.filter((p, i) => p !== items[i]),
  };
  let known;
  if (registered !== undefined) {
    const names = strings(registered, `${at}.registered`);
    putNames(names, `${at}.registered`);
    known = new wasm.Names(names.length);
  }
  let set;
  try {
    set = new wasm.Policies(write(list, where), known, more.resolver !== undefined, more.callback !== undefined);
  } catch (i) {
    if (typeof i !== "number") throw i;
    throw new TypeError(`${where}[${i}] reuses the name "${list[i].name}"; policy names must be unique`);
  }
  own(this, set, more);
  this.policies = Object.freeze(list);
  Object.freeze(this);
}

// A dispatch's palette, read once: the names it narrows to, or undefined for none, a
// refusal or RoutingUnavailable (judged by `kind`, so that another build's count too).
function paletteOf(palette, where) {
  if (palette == null) return undefined;
  let kind, names;
  try {
    kind = isObject(palette) ? palette.kind : undefined;
  } catch (cause) {
    throw unreadable(where, cause);
  }
  if (kind === "refused" || kind === "unavailable") return undefined;
  if (kind !== "routed") return strings(palette, where);
  try {
    names = palette.names;
  } catch (cause) {
    throw unreadable(`${where}.names`, cause);
  }
  return strings(names, `${where}.names`);
}

// ---------------------------------------------------------------- one seam call

// What the module asks of one seam call (src/js/policies.rs `Frame`): each method calls one
// of the caller's functions, catches all it throws and answers an `Asked`, keeping the
// value of a failure (`thrown`), the call as it stands (`current`) and its target, the
// resolver's model, and a dropped redirect's texts.
class Frame {
  constructor(policies, ctx, more, call, name) {
    this.policies = policies;
    this.ctx = ctx;
    this.more = more;
    this.call = this.current = call;
    this.target = name;
    this.model = this.drop = null;
    this.thrown = undefined;
  }
  fail(asked, thrown) {
    this.thrown = thrown;
    return asked;
  }
  asked(i, guard) {
    const f = guard ? this.policies[i].guard : this.policies[i].match;
    let step = Asked.Threw;
    try {
      const answer = f(this.ctx);
      step = Asked.UnreadableThen;
      return thenable(answer) ? this.fail(Asked.Thenable, answer) : answer ? Asked.Yes : Asked.No;
    } catch (error) {
      return this.fail(step, error);
    }
  }
  // The caller's call, its `args` once, copied for argsTransform (the caller's objects are
  // never handed out); its answer judged: a thenable first, then whether it is plain.
  redirect(i) {
    const { redirectTo, argsTransform } = this.policies[i];
    let step = "call";
    let current, answer;
    try {
      current = { ...this.call, name: redirectTo };
      if (argsTransform !== null) {
        step = "call.args";
        const args = copy(current.args);
        step = Asked.Threw;
        answer = argsTransform(args, this.ctx);
        step = Asked.UnreadableThen;
        if (thenable(answer)) return this.fail(Asked.Thenable, answer);
        if (!isPlainObject(answer)) return put([describe(answer)]), this.fail(Asked.NotPlain, answer);
        current.args = answer;
      }
    } catch (error) {
      return typeof step === "string" ? this.fail(Asked.Raw, unreadable(`ToolPolicies.dispatch: ${step}`, error)) : this.fail(step, error);
    }
    [this.current, this.target] = [current, redirectTo];
    return Asked.Yes;
  }
  resolve() {
    const { resolver } = this.more;
    try {
      this.model = resolver(this.ctx) ?? null;
    } catch (error) {
      return this.fail(Asked.Raw, error);
    }
    return this.model === null ? Asked.No : Asked.Yes;
  }
  // onToolCallDispatch: a call it returns is laid over the call as it stands (a field it
  // leaves out keeps the call's, its `id` above all); its name goes into the batch last.
  callback() {
    const where = "ToolPolicies: onToolCallDispatch's returned call";
    const { callback } = this.more;
    let step, next, name;
    try {
      next = callback(this.current, this.ctx);
      if (next == null) return Asked.No;
      if (!isObject(next)) throw mustBe(where, "an object { name, args, id? }", next);
      step = `${where}.name`;
      name = next.name;
      step = undefined;
      if (typeof name !== "string") throw mustBe(`${where}.name`, "a string", name);
      step = where;
      if (next !== this.current) next = { ...this.current, ...next };
    } catch (error) {
      return this.fail(Asked.Raw, step === undefined ? error : unreadable(step, error));
    }
    if (!put([name])) return this.fail(Asked.Raw, tooLarge(`${where}.name`));
    [this.current, this.target] = [next, name];
    return Asked.Yes;
  }
  dropped(reason, message) {
    this.drop = [text(reason), text(message)];
  }
  failed(message) {
    this.thrown = new Error(text(message), { cause: this.thrown });
  }
}

const thenable = (v) => (isObject(v) || isFunction(v)) && isFunction(v.then);

// A copy of `args` of the same shape (array, plain or null-prototype object, instance).
function copy(args) {
  if (!isObject(args)) return args;
  if (Array.isArray(args)) return Array.prototype.slice.call(args);
  const proto = Object.getPrototypeOf(args);
  return proto === Object.prototype ? { ...args } : Object.assign(Object.create(proto), args);
}

// A plain object, judged by shape so that one of another realm (a `vm` context, an
// iframe) is one too: an ordinary object whose prototype is null or has none.
function isPlainObject(value) {
  try {
    if (!isObject(value) || Array.isArray(value) || Object.prototype.toString.call(value) !== "[object Object]") return false;
    const proto = Object.getPrototypeOf(value);
    return proto === null || Object.getPrototypeOf(proto) === null;
  } catch {
    return false; // a revoked or hostile proxy
  }
}
