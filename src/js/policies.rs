//! `ToolPolicies`: policies composed in declaration order, applied at the two seams by
//! the core's seam code. The caller's functions are held as `js_sys::Function`s behind
//! the core's `Hooks`; an exception they throw passes through unchanged, as the `cause`
//! of the seam's error (or as itself for the adopter's own callbacks).

use super::options::{self, At, POLICIES};
use super::policy::{is_policy, Held, Spec, ToolCallPolicy};
use super::{batch, frozen, given, host, must_be, unreadable, JsResult, Message};
use crate::names::Name;
use crate::policy::gate::{admits, dropped_reason, dropped_warning, Admits, Handed};
use crate::policy::seams::{failure_text, Failure, Hooks, Misstep, Selection};
use crate::policy::PolicySet;
use alloc::rc::Rc;
use alloc::vec::Vec;
use core::cell::RefCell;
use js_sys::{Array, Function};
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &str = r#"
export interface ToolPoliciesOptions<Ctx = unknown, Model = unknown, Call extends ToolCall = ToolCall> {
  /** Asked only when no policy supplies a model; `null`/`undefined` means the default. */
  modelResolver?: (ctx: Ctx) => Model | null | undefined;
  /** Runs after the policies, before the gate; may return a rewritten call (its fields over the call's: `id` is kept unless it sets one). */
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
"#;

struct Composed {
    core: PolicySet,
    specs: Vec<Rc<Spec>>,
    resolver: Option<Function>,
    callback: Option<Function>,
    on_warning: JsValue,
    /// The registered names (frozen) and their length: what passes the gate when the
    /// palette does not narrow. `None`: every tool.
    registered: Option<(Array, usize)>,
    /// What the policies this set made from specs hold: disposed with the set.
    made: Vec<Rc<Held>>,
}

#[wasm_bindgen(skip_typescript)]
pub struct ToolPolicies {
    /// `None` once disposed; a seam in progress keeps what it needs. `policies` is the
    /// JavaScript object's own field (see `construct`).
    composed: RefCell<Option<Rc<Composed>>>,
}

#[wasm_bindgen]
impl ToolPolicies {
    #[wasm_bindgen(constructor)]
    pub fn construct(policies: JsValue, options: JsValue) -> JsResult<JsValue> {
        let given = || Message::new("ToolPolicies: policies");
        const WHAT: &str = "an iterable of ToolCallPolicy";
        if !batch::is_iterable(&policies, &given)? {
            return Err(must_be(given(), WHAT, &policies));
        }
        let items = host::list(&policies).map_err(|cause| unreadable(given(), &cause))?;
        let list = Array::new();
        let mut specs = Vec::new();
        let mut made = Vec::new();
        for (i, item) in items.iter().enumerate() {
            // A policy is kept as it is; a spec becomes one. Either way the fields are read
            // and checked here.
            // The policy's own error, prefixed with where it is in the list; of the same
            // class (a RangeError stays one).
            let spec = Spec::read(&item).map_err(|cause| {
                let message = host::get(&cause, |k| &k.message).unwrap_or_default();
                let message = given().index(i as u32).add(": ").add_js(&message);
                if cause.has_type::<js_sys::RangeError>() {
                    message.range_error_caused(&cause)
                } else {
                    message.type_error_caused(&cause)
                }
            })?;
            let spec = Rc::new(spec);
            list.push(&if is_policy(&item) {
                item
            } else {
                let held = Rc::new(Held::default());
                made.push(held.clone());
                ToolCallPolicy::build(spec.clone(), held)
            });
            specs.push(spec);
        }

        let place = || Message::new("ToolPolicies: options");
        let at = At(&place, ".");
        let fields = options::read_options(&options, POLICIES, &place)?;
        let resolver = fields.function("modelResolver", at)?;
        let callback = fields.function("onToolCallDispatch", at)?;
        let on_warning = fields.function("onWarning", at)?;
        let registered = fields.named("registered");
        let registered = if registered.is_undefined() {
            None
        } else {
            let (names, units) = batch::strings(&registered, &|| place().add(".registered"))?;
            Some((frozen(names), units))
        };

        let core = PolicySet::new(
            specs.iter().map(|s| s.policy()).collect(),
            resolver.is_some(),
            callback.is_some(),
        )
        .map_err(|i| {
            given()
                .index(i as u32)
                .add(" reuses the name \"")
                .add_js(&specs[i].name)
                .add("\"; policy names must be unique")
                .type_error()
        })?;
        let set = JsValue::from(ToolPolicies {
            composed: RefCell::new(Some(Rc::new(Composed {
                core,
                specs,
                resolver,
                callback,
                on_warning: on_warning.map_or(JsValue::UNDEFINED, JsValue::from),
                registered,
                made,
            }))),
        });
        let key: Array = [JsValue::from_str("policies")].into_iter().collect();
        host::own_fields(
            &set,
            &key,
            &[JsValue::from(frozen(list))].into_iter().collect(),
        );
        Ok(frozen(set))
    }

    /// PRE-model seam: which model reasons this iteration.
    #[wasm_bindgen(js_name = selectModel)]
    pub fn select_model(&self, ctx: JsValue) -> JsResult<JsValue> {
        let composed = self.live("selectModel")?;
        let no_call = JsValue::UNDEFINED;
        let mut hooks = Seam::new(&composed, &ctx, &no_call, Gate::Every);
        let selection = composed
            .core
            .select_model(&mut hooks)
            .map_err(|f| seam_error(&composed, f))?;
        let (model, policy) = match selection {
            Selection::Policy(i) => (
                composed.specs[i].model.clone(),
                composed.specs[i].name.clone(),
            ),
            Selection::Resolver => (hooks.model, JsValue::NULL),
            Selection::Default => (JsValue::NULL, JsValue::NULL),
        };
        Ok(host::selection(&model, selection.source(), &policy))
    }

    /// POST-model seam: where the emitted call is dispatched.
    pub fn dispatch(&self, call: JsValue, ctx: JsValue, palette: JsValue) -> JsResult<JsValue> {
        let composed = self.live("dispatch")?;
        let name = call_name(&call, &|| Message::new("ToolPolicies.dispatch: call"))?;
        let gate = Gate::of(&palette, &composed)?;
        let tool = batch::name_units(&name, &|| Message::new("ToolPolicies.dispatch: call.name"))?;
        let mut hooks = Seam::new(&composed, &ctx, &call, gate);
        hooks.target = name.clone();
        let dispatched = composed
            .core
            .dispatch(&tool, &mut hooks)
            .map_err(|f| seam_error(&composed, f))?;
        let by = dispatched
            .redirected_by
            .map_or(JsValue::NULL, |i| composed.specs[i].name.clone());
        let Some(target) = dispatched.dropped else {
            return Ok(host::dispatch_record(
                &hooks.current,
                &call,
                &by,
                &JsValue::NULL,
            ));
        };
        let admitted = match hooks.gate {
            Gate::Names(_, _, admitted) => admitted,
            Gate::Every => Admits::Every,
        };
        let reason = dropped_reason(&target, &tool, admitted);
        let by_name = dispatched
            .redirected_by
            .map(|i| &composed.core.policies()[i].name[..]);
        let message = host::text(&dropped_warning(by_name, &reason));
        let reason: JsValue = host::text(&reason).into();
        let details = host::dropped_details(&by, &hooks.target, &name);
        let warning = host::DroppedWarning::new(&message, &details);
        host::deliver(&warning, &composed.on_warning)?;
        let dropped = host::dropped_record(&hooks.target, &reason);
        Ok(host::dispatch_record(&call, &call, &by, &dropped))
    }

    /// Frees the composed set now rather than at garbage collection, and disposes the
    /// policies it made from specs (policies the caller built stay the caller's); later
    /// seam calls throw, a seam in progress finishes. Calling it again does nothing.
    pub fn dispose(&self) {
        let composed = self.composed.borrow_mut().take();
        if let Some(composed) = &composed {
            composed.made.iter().for_each(|held| held.dispose());
        }
        drop(composed);
    }
}

impl ToolPolicies {
    fn live(&self, seam: &str) -> JsResult<Rc<Composed>> {
        let composed = self.composed.borrow().clone();
        composed.ok_or_else(|| {
            Message::new("ToolPolicies: ")
                .add(seam)
                .add("() after dispose()")
                .error()
        })
    }
}

/// A call's `name`: the call must be an object whose `name` is a string.
fn call_name(call: &JsValue, place: &dyn Fn() -> Message) -> JsResult<JsValue> {
    if !call.is_object() {
        return Err(must_be(place(), "an object { name, args, id? }", call));
    }
    let name =
        host::get(call, |k| &k.name).map_err(|cause| unreadable(place().add(".name"), &cause))?;
    if !name.is_string() {
        return Err(must_be(place().add(".name"), "a string", &name));
    }
    Ok(name)
}

/// What the gate admits: every tool, or the names of a palette (read and checked up
/// front, written into the module only if the gate is asked).
enum Gate {
    Every,
    /// The names, and which of them the gate was given.
    Names(Array, usize, Admits),
}

impl Gate {
    /// What the core's gate admits (`policy::gate::admits`), read from the palette.
    fn of(palette: &JsValue, composed: &Composed) -> JsResult<Gate> {
        let place = || Message::new("ToolPolicies.dispatch: palette");
        let handed = if palette.is_null() || palette.is_undefined() {
            Handed::Nothing
        } else if palette.is_object() {
            let kind =
                host::get(palette, |k| &k.kind).map_err(|cause| unreadable(place(), &cause))?;
            match host::kind_of(&kind) {
                host::ROUTED => Handed::Routed,
                host::NOT_ROUTED => Handed::NotRouted,
                _ => Handed::Names,
            }
        } else {
            Handed::Names
        };
        Ok(match admits(handed, composed.registered.is_some()) {
            Admits::Every => Gate::Every,
            Admits::Registered => match &composed.registered {
                Some((names, units)) => Gate::Names(names.clone(), *units, Admits::Registered),
                None => Gate::Every,
            },
            Admits::Routed => {
                let names = host::get(palette, |k| &k.names)
                    .map_err(|cause| unreadable(place().add(".names"), &cause))?;
                let (names, units) = batch::strings(&names, &|| place().add(".names"))?;
                Gate::Names(names, units, Admits::Routed)
            }
            Admits::Handed => {
                let (names, units) = batch::strings(palette, &place)?;
                Gate::Names(names, units, Admits::Handed)
            }
        })
    }

    fn allows(&self, tool: &Name) -> bool {
        match self {
            Gate::Every => true,
            // A palette handed over for one dispatch: one scan costs less than an index.
            Gate::Names(names, units, _) => batch::write(names, *units).iter().any(|n| n == tool),
        }
    }
}

/// What went wrong in one of the caller's functions.
enum Fault {
    Threw(JsValue),
    /// It returned a promise or thenable (predicates and transforms are synchronous).
    Thenable(JsValue),
    /// It returned an object whose `then` could not be read.
    UnreadableThen(JsValue),
    /// `argsTransform` returned something other than a plain object.
    NotPlain(JsValue),
    /// The caller's own mistake or the adopter's callback: thrown as it is.
    Raw(JsValue),
}

/// The hooks of one seam call.
struct Seam<'a> {
    composed: &'a Composed,
    ctx: &'a JsValue,
    /// The caller's call.
    original: &'a JsValue,
    /// The call as it stands, and its tool.
    current: JsValue,
    target: JsValue,
    /// What the resolver answered.
    model: JsValue,
    gate: Gate,
}

impl<'a> Seam<'a> {
    fn new(composed: &'a Composed, ctx: &'a JsValue, call: &'a JsValue, gate: Gate) -> Self {
        Seam {
            composed,
            ctx,
            original: call,
            current: call.clone(),
            target: JsValue::UNDEFINED,
            model: JsValue::NULL,
            gate,
        }
    }

    fn spec(&self, i: usize) -> &Spec {
        &self.composed.specs[i]
    }
}

/// A predicate's or transform's answer: a synchronous value.
fn answer(result: Result<JsValue, JsValue>) -> Result<JsValue, Fault> {
    let value = result.map_err(Fault::Threw)?;
    if value.is_object() || value.is_function() {
        match host::get(&value, |k| &k.then) {
            Err(cause) => return Err(Fault::UnreadableThen(cause)),
            Ok(then) if then.is_function() => return Err(Fault::Thenable(value)),
            Ok(_) => {}
        }
    }
    Ok(value)
}

/// A predicate's answer, read as truthy or falsy: a boolean, the usual answer, comes back
/// as a number in one crossing; anything else (or what it threw) is fetched and checked
/// for being a thenable first.
fn verdict(predicate: &Function, ctx: &JsValue) -> Result<bool, Fault> {
    match host::verdict(predicate, ctx) {
        1 => Ok(true),
        0 => Ok(false),
        _ => Ok(answer(host::caught(host::answered()))?.is_truthy()),
    }
}

impl Hooks for Seam<'_> {
    type Error = Fault;

    fn matches(&mut self, i: usize) -> Result<bool, Fault> {
        verdict(&self.spec(i).matcher, self.ctx)
    }

    fn guard(&mut self, i: usize) -> Result<bool, Fault> {
        match &self.spec(i).guard {
            Some(guard) => verdict(guard, self.ctx),
            None => Ok(true),
        }
    }

    fn redirect(&mut self, i: usize) -> Result<(), Fault> {
        let place = || Message::new("ToolPolicies.dispatch: call");
        let spec = &self.composed.specs[i];
        let next = host::rewrite(self.original, &spec.redirect_to)
            .map_err(|cause| Fault::Raw(unreadable(place(), &cause)))?;
        if let Some(transform) = &spec.args_transform {
            // A copy of the args, so that the caller's object is never handed out.
            let args = host::copy_args(self.original)
                .map_err(|cause| Fault::Raw(unreadable(place().add(".args"), &cause)))?;
            let out = answer(host::call2(transform, &args, self.ctx))?;
            if !host::is_plain_object(&out) {
                return Err(Fault::NotPlain(out));
            }
            host::set_args(&next, &out);
        }
        self.current = next;
        self.target = spec.redirect_to.clone();
        Ok(())
    }

    fn resolve_model(&mut self) -> Result<bool, Fault> {
        let Some(resolver) = &self.composed.resolver else {
            return Ok(false);
        };
        self.model = host::call1(resolver, self.ctx).map_err(Fault::Raw)?;
        if self.model.is_undefined() {
            self.model = JsValue::NULL;
        }
        Ok(!self.model.is_null())
    }

    fn on_dispatch(&mut self) -> Result<Option<Vec<u16>>, Fault> {
        let Some(callback) = &self.composed.callback else {
            return Ok(None);
        };
        let next = host::call2(callback, &self.current, self.ctx).map_err(Fault::Raw)?;
        if next.is_null() || next.is_undefined() {
            return Ok(None);
        }
        let place = || Message::new("ToolPolicies: onToolCallDispatch's returned call");
        let name = call_name(&next, &place).map_err(Fault::Raw)?;
        let units = batch::name_units(&name, &|| place().add(".name")).map_err(Fault::Raw)?;
        // A field the returned call leaves out keeps the call's (its `id` above all).
        self.current = host::overlay(&self.current, &next)
            .map_err(|cause| Fault::Raw(unreadable(place(), &cause)))?;
        self.target = name;
        Ok(Some(units))
    }

    fn allows(&mut self, tool: &Name) -> Result<bool, Fault> {
        Ok(self.gate.allows(tool))
    }
}

/// A seam's failure as the caller sees it: a policy's function failing is an `Error`
/// naming the policy, the function and the seam, with what it threw (or returned) as the
/// `cause`; anything else is thrown as it is.
fn seam_error(composed: &Composed, failure: Failure<Fault>) -> JsValue {
    let (policy, function, seam, fault) = match failure {
        Failure::Adopter(Fault::Raw(e) | Fault::Threw(e))
        | Failure::Policy {
            cause: Fault::Raw(e),
            ..
        } => return e,
        Failure::Adopter(fault) => return fault_value(fault),
        Failure::Policy {
            policy,
            function,
            seam,
            cause,
        } => (policy, function, seam, cause),
    };
    let (misstep, cause) = match fault {
        Fault::Threw(e) => (Misstep::Threw, e),
        Fault::Thenable(v) => (Misstep::Thenable, v),
        Fault::UnreadableThen(e) => (Misstep::UnreadableThen, e),
        Fault::NotPlain(v) => (Misstep::NotPlain(given(&v)), v),
        Fault::Raw(e) => return e,
    };
    let name = &composed.core.policies()[policy].name;
    let text = failure_text(name, function, seam, misstep);
    Message(host::text(&text)).error_caused(&cause)
}

fn fault_value(fault: Fault) -> JsValue {
    match fault {
        Fault::Threw(v)
        | Fault::Thenable(v)
        | Fault::UnreadableThen(v)
        | Fault::NotPlain(v)
        | Fault::Raw(v) => v,
    }
}
