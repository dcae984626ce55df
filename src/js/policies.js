// Policies (SPEC 4): ToolCallPolicy, ToolPolicies, ToolRedirectDroppedWarning. The module
// (policies.rs) holds them in the core's form and runs each seam, asking a `Frame`.
import * as wasm from "./tool_palette.js";
import { FUNCTIONS, SEAMS } from "./wire.js";
import { attempt as read, bounded, checked, describe, enter, fields, guarded, isFunction, isObject, mustBe, own, putNames, reserve, strings, using } from "./host.js";
import { deliver } from "./deliver.js";

export class ToolRedirectDroppedWarning extends Error {
  constructor(message, details) {
    const [policy, target, original] = fields(details, ["policy", "target", "original"], "ToolRedirectDroppedWarning: details", true);
    super(message);
    Object.assign(this, { name: "ToolRedirectDroppedWarning", policy, target, original });
  }
}

const built = new WeakSet(); // the policies made here, which a ToolPolicies keeps as they are

export class ToolCallPolicy {
  constructor(spec) { enter(policy, this, [spec]); }

  // (The policy in the core's form is made when first asked: a set's policies need none.)
  matchesTool(toolName) {
    return using(this, ToolCallPolicy, "matchesTool", (held) => {
      const where = `ToolCallPolicy "${this.name}".matchesTool: toolName`;
      if (typeof toolName !== "string") throw mustBe(where, "a string", toolName);
      held.set ??= composed([this], undefined, false, false);
      return putNames([toolName], where), held.set.matchesTool(0);
    });
  }
}
guarded(ToolCallPolicy, ["matchesTool"]);

// A spec's fields, read once each in order, then checked (one that throws is named with the policy).
const SPEC = ["name", "match", "whenTool", "redirectTo", "model", "argsTransform", "guard"];
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
  const held = { set: undefined, free: () => held.set?.free() };
  own(this, held);
  built.add(Object.freeze(Object.assign(this, fields)));
}

// `ToolCallPolicy "<name>"`, the name checked.
function named(name) {
  checked(name, "name", "ToolCallPolicy: name");
  reserve([name], "ToolCallPolicy: name");
  return `ToolCallPolicy "${name}"`;
}

// Policies in the core's form (src/js/policies.rs `Policies`), or the index of a name
// used twice; `gate`: the registered names (a Names).
function composed(list, gate, resolver, hook) {
  const set = new wasm.Policies(gate, resolver, hook);
  for (const p of list) {
    const tools = p.whenTool === null ? [] : typeof p.whenTool === "string" ? [p.whenTool] : p.whenTool;
    putNames([p.name, p.redirectTo ?? "", ...tools], `ToolCallPolicy "${p.name}"`);
    set.add(p.whenTool === null ? undefined : tools.length, p.model !== null, p.guard !== null);
  }
  const twice = set.compose();
  return twice === undefined ? set : (set.free(), twice);
}

export class ToolPolicies {
  constructor(policies, options) { enter(compose, this, [policies, options]); }

  selectModel(ctx) {
    return using(this, ToolPolicies, "selectModel", ({ set }, more) => {
      const frame = new Frame(this.policies, ctx, more);
      const i = set.selectModel(frame);
      if (frame.misstep !== null) throw frame.thrown;
      const p = i === undefined ? undefined : this.policies[i];
      return Object.freeze(p ? { model: p.model, source: "policy", policy: p.name } : { model: frame.model, source: frame.model === null ? "default" : "resolver", policy: null });
    });
  }

  dispatch(call, ctx, palette) {
    return using(this, ToolPolicies, "dispatch", ({ set }, more) => {
      const where = "ToolPolicies.dispatch: call";
      if (!isObject(call)) throw mustBe(where, "an object { name, args, id? }", call);
      const name = read(() => call.name, `${where}.name`);
      if (typeof name !== "string") throw mustBe(`${where}.name`, "a string", name);
      const names = paletteOf(palette, "ToolPolicies.dispatch: palette");
      reserve([name], `${where}.name`);
      putNames(names ? [name, ...names] : [name], "ToolPolicies.dispatch: palette");
      const frame = new Frame(this.policies, ctx, more, call, name);
      const i = set.dispatch(frame, names?.length);
      if (frame.misstep !== null) throw frame.thrown;
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
function compose(policies, options) {
  const where = "ToolPolicies: policies";
  const items = read(() => (isObject(policies) && isFunction(policies[Symbol.iterator]) ? bounded(policies) : undefined), where);
  if (items === undefined) throw mustBe(where, "an iterable of ToolCallPolicy", policies);
  const made = [];
  const list = items.map((item, i) => {
    try {
      if (built.has(item)) return item;
      const policy = new ToolCallPolicy(item);
      made.push(policy);
      return policy;
    } catch (cause) {
      throw new (cause instanceof RangeError ? RangeError : TypeError)(`${where}[${i}]: ${cause.message}`, { cause });
    }
  });
  const at = "ToolPolicies: options";
  const [resolver, hook, onWarning, registered] = fields(options, ["modelResolver", "onToolCallDispatch", "onWarning", "registered"], at);
  const more = { made, resolver: checked(resolver, "function", `${at}.modelResolver`), hook: checked(hook, "function", `${at}.onToolCallDispatch`) };
  more.onWarning = checked(onWarning, "function", `${at}.onWarning`);
  const names = registered === undefined ? undefined : strings(registered, `${at}.registered`);
  const known = names && (putNames(names, `${at}.registered`), new wasm.Names(names.length));
  const set = composed(list, known, more.resolver !== undefined, more.hook !== undefined);
  if (typeof set === "number") throw new TypeError(`${where}[${set}] reuses the name "${list[set].name}"; policy names must be unique`);
  // (The policies it made of specs go with it; the caller's own stay theirs.)
  own(this, { set, free: () => (set.free(), made.forEach((p) => p.dispose())) }, more);
  this.policies = Object.freeze(list);
  Object.freeze(this);
}

// A dispatch's palette, read once: the names it narrows to, or undefined for none, a
// refusal or RoutingUnavailable (judged by `kind`, so that another build's count too).
function paletteOf(palette, where) {
  if (palette == null) return undefined;
  const kind = read(() => (isObject(palette) ? palette.kind : undefined), where);
  if (kind === "refused" || kind === "unavailable") return undefined;
  return kind === "routed" ? strings(read(() => palette.names, `${where}.names`), `${where}.names`) : strings(palette, where);
}

// What the module asks of one seam call (policies.rs `Frame`): each method calls the
// caller's code, catches all it throws and answers nothing for a failure, keeping why
// (`misstep`; RAW: thrown as it is) and what; and the call, its target, the model, a drop.
class Frame {
  constructor(policies, ctx, more, call, name) {
    this.policies = policies;
    this.ctx = ctx;
    this.more = more;
    this.call = this.current = call;
    this.target = name;
    this.model = this.drop = this.misstep = null;
  }
  fail(misstep, thrown) {
    [this.misstep, this.thrown] = [misstep, thrown];
  }
  // A predicate's (or argsTransform's, given `args`) answer, or FAILED.
  answer(f, args) {
    let misstep = "threw";
    try {
      const answer = args === NONE ? f(this.ctx) : f(args, this.ctx);
      misstep = "returned a value whose `then` could not be read";
      if (!thenable(answer)) return answer;
      this.fail("returned a promise or thenable (it must be synchronous)", answer);
    } catch (error) {
      this.fail(misstep, error);
    }
    return FAILED;
  }
  asked(i, guard) {
    const answer = this.answer(guard ? this.policies[i].guard : this.policies[i].match, NONE);
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
    if (this.misstep === RAW) return;
    this.thrown = new Error(`ToolCallPolicy "${this.policies[i].name}": ${FUNCTIONS[f]} ${this.misstep} at the ${SEAMS[seam]}`, { cause: this.thrown });
  }
}
const [NONE, FAILED, RAW] = [Symbol("none"), Symbol("failed"), Symbol("raw")];
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
