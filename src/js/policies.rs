//! `ToolPolicies`: policies composed in declaration order, applied at the two seams by
//! the core's seam code. The caller's functions are held as `js_sys::Function`s behind
//! the core's `Hooks`; an exception they throw passes through unchanged, as the `cause`
//! of the seam's error (or as itself for the adopter's own callbacks).

use super::options::{self, At, POLICIES};
use super::policy::{is_policy, Held, Spec, Specs, ToolCallPolicy};
use super::wire::{Listed, Palette, Source, Transformed, Verdict};
use super::{batch, frozen, given, host, must_be, unreadable, JsResult, Message};
use crate::names::Name;
use crate::names::NameList;
use crate::policy::gate::{self, admits, dropped_reason, dropped_warning, Admits};
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
    /// The facade (api.js) read the policies (host.js `readStrings`, `listed` a wire
    /// `Listed`, not measured), each spec once (api.js `readSpecs`), then the options once
    /// each (host.js `readFields`: `values` in the order of [`POLICIES`]), and the registered
    /// names (host.js `readStrings`).
    #[allow(clippy::too_many_arguments)]
    #[wasm_bindgen(constructor)]
    pub fn construct(
        list: host::Strings,
        listed: u32,
        read: Array,
        options: JsValue,
        options_kinds: u32,
        unread: Option<u32>,
        values: Array,
        names: host::Strings,
    ) -> JsResult<JsValue> {
        let given = || Message::new("ToolPolicies: policies");
        const WHAT: &str = "an iterable of ToolCallPolicy";
        match Listed::of(listed) {
            Some(Listed::Strings) => {}
            Some(Listed::NotIterable) => return Err(must_be(given(), WHAT, &list.value())),
            _ => return Err(unreadable(given(), &list.cause())),
        }
        let policies = Array::new();
        let mut specs = Vec::new();
        let mut made = Vec::new();
        for (i, (item, spec)) in Specs::new(read).enumerate() {
            // A policy is kept as it is; a spec becomes one. Either way the fields are read
            // and checked here.
            // The policy's own error, prefixed with where it is in the list; of the same
            // class (a RangeError stays one).
            let spec = spec.map_err(|cause| {
                let message = host::get(&cause, |k| &k.message).unwrap_or_default();
                let message = given().index(i as u32).add(": ").add_js(&message);
                if cause.has_type::<js_sys::RangeError>() {
                    message.range_error_caused(&cause)
                } else {
                    message.type_error_caused(&cause)
                }
            })?;
            let spec = Rc::new(spec);
            policies.push(&if is_policy(&item) {
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
        let values = values.iter().collect();
        let fields = options::given_fields(
            &options,
            POLICIES,
            options_kinds,
            f64::NAN,
            values,
            unread,
            &place,
        )?;
        let resolver = fields.function("modelResolver", at)?;
        let callback = fields.function("onToolCallDispatch", at)?;
        let on_warning = fields.function("onWarning", at)?;
        let registered = if fields.is_undefined("registered") {
            None
        } else {
            let (names, units) = batch::listed(&names, &|| place().add(".registered"))?;
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
            &[JsValue::from(frozen(policies))].into_iter().collect(),
        );
        Ok(frozen(set))
    }

    /// PRE-model seam: which model reasons this iteration. The answer is a `Source`
    /// (wire.rs), a policy's by its index after `Source::Policy`; the resolver's model is
    /// held by `frame`, from which the facade (api.js) builds the `ModelSelection`.
    #[wasm_bindgen(js_name = selectModel, skip_typescript)]
    pub fn select_model(&self, frame: host::Frame, ctx: JsValue) -> JsResult<u32> {
        let composed = self.live("selectModel")?;
        let mut hooks = Seam::new(&composed, &ctx, frame, Gate::Every);
        let selection = composed
            .core
            .select_model(&mut hooks)
            .map_err(|f| seam_error(&composed, f))?;
        Ok(match selection {
            Selection::Policy(i) => Source::Policy as u32 + i as u32,
            Selection::Resolver => Source::Resolver as u32,
            Selection::Default => Source::Default as u32,
        })
    }

    /// POST-model seam: where the emitted call is dispatched. The facade read the call's
    /// `name` and the palette once each (host.js `readDispatch`: `name_units` is `None`
    /// when the name is no string, `palette` a wire `Palette`, `listed` a wire `Listed`
    /// for the palette's `count` names of `units` code units) and wrote their strings
    /// into the batch, the call's name first; `frame` holds the call as it stands, from
    /// which the facade builds the `Dispatch`. The answer: the redirecting policy's index
    /// + 1 (0: none); a dropped redirect is the frame's (`Frame::drop`).
    #[allow(clippy::too_many_arguments)]
    #[wasm_bindgen(skip_typescript)]
    pub fn dispatch(
        &self,
        frame: host::Frame,
        call: JsValue,
        ctx: JsValue,
        name: JsValue,
        name_units: Option<u32>,
        palette: u32,
        names: host::Strings,
        listed: u32,
        count: f64,
        units: f64,
    ) -> JsResult<u32> {
        let composed = self.live("dispatch")?;
        let place = || Message::new("ToolPolicies.dispatch: call");
        let Some(name_units) = name_units else {
            return Err(call_fault(&call, host::caught(name), &place));
        };
        let handed = Handed::read(palette, listed, &names, count, units)?;
        if !batch::fits(1, name_units as usize) {
            return Err(batch::too_big(place().add(".name")));
        }
        // Both within the limits: the list as counted.
        let batch = batch::take(1 + count as usize, name_units as usize + units as usize);
        let tool = (batch.len() > 0).then(|| batch.get(0).to_vec());
        let tool = tool.unwrap_or_default();
        let gate = Gate::of(handed, batch, &composed);
        let mut hooks = Seam::new(&composed, &ctx, frame, gate);
        hooks.target = name.clone();
        let dispatched = composed
            .core
            .dispatch(&tool, &mut hooks)
            .map_err(|f| seam_error(&composed, f))?;
        let by = dispatched.redirected_by.map_or(0, |i| i as u32 + 1);
        let Some(target) = dispatched.dropped else {
            return Ok(by);
        };
        let reason = dropped_reason(&target, &tool, hooks.gate.admitted());
        let by_name = dispatched
            .redirected_by
            .map(|i| &composed.core.policies()[i].name[..]);
        let policy = dispatched
            .redirected_by
            .map_or(JsValue::NULL, |i| composed.specs[i].name.clone());
        let warning = dropped_warning(by_name, &reason);
        let frame = &hooks.frame;
        let on_warning = &composed.on_warning;
        if frame.drop(&warning, &reason, &policy, &hooks.target, on_warning) {
            return Err(frame.thrown());
        }
        Ok(by)
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
    let read = match call.is_object() {
        true => host::get(call, |k| &k.name),
        false => Ok(JsValue::UNDEFINED),
    };
    match read {
        Ok(name) if name.is_string() => Ok(name),
        read => Err(call_fault(call, read, place)),
    }
}

/// Why a call's `name` (as read, or what reading it threw) is no string: the call is no
/// object, its `name` could not be read, or is something else.
fn call_fault(call: &JsValue, read: JsResult<JsValue>, place: &dyn Fn() -> Message) -> JsValue {
    if !call.is_object() {
        return must_be(place(), "an object { name, args, id? }", call);
    }
    match read {
        Err(cause) => unreadable(place().add(".name"), &cause),
        Ok(name) => must_be(place().add(".name"), "a string", &name),
    }
}

/// A dispatch's palette, as the core's gate is handed it (`policy::gate::Handed`), with
/// whether its names are in the batch.
struct Handed(gate::Handed);

impl Handed {
    /// The palette as the facade read it, checked: a routed outcome's `names` or a list of
    /// names, every item a string and within the limits.
    fn read(
        palette: u32,
        listed: u32,
        names: &host::Strings,
        count: f64,
        units: f64,
    ) -> JsResult<Handed> {
        let place = || Message::new("ToolPolicies.dispatch: palette");
        let handed = match Palette::of(palette) {
            Some(Palette::Nothing) => gate::Handed::Nothing,
            Some(Palette::NotRouted) => gate::Handed::NotRouted,
            Some(Palette::Routed) => gate::Handed::Routed,
            Some(Palette::Names) => gate::Handed::Names,
            _ => return Err(unreadable(place(), &names.cause())),
        };
        if let gate::Handed::Routed | gate::Handed::Names = handed {
            let at = || match handed {
                gate::Handed::Routed => place().add(".names"),
                _ => place(),
            };
            batch::checked_strings(listed, names, count, units, &at)?;
        }
        Ok(Handed(handed))
    }
}

/// What the gate admits: every tool, the registered names, or the palette's names (the
/// batch after the call's name).
enum Gate {
    Every,
    Registered(Array, usize),
    Names(NameList, Admits),
}

impl Gate {
    /// What the core's gate admits (`policy::gate::admits`).
    fn of(handed: Handed, batch: NameList, composed: &Composed) -> Gate {
        match admits(handed.0, composed.registered.is_some()) {
            Admits::Every => Gate::Every,
            Admits::Registered => match &composed.registered {
                Some((names, units)) => Gate::Registered(names.clone(), *units),
                None => Gate::Every,
            },
            admitted => Gate::Names(batch, admitted),
        }
    }

    fn admitted(&self) -> Admits {
        match self {
            Gate::Every => Admits::Every,
            Gate::Registered(..) => Admits::Registered,
            Gate::Names(_, admitted) => *admitted,
        }
    }

    fn allows(&self, tool: &Name) -> bool {
        match self {
            Gate::Every => true,
            // The registered names are written into the module only if the gate is asked.
            Gate::Registered(names, units) => batch::write(names, *units).iter().any(|n| n == tool),
            // A palette handed over for one dispatch: one scan costs less than an index.
            Gate::Names(batch, _) => batch.iter().skip(1).any(|n| n == tool),
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
    /// The caller's call and the call as it stands (host.js `Frame`), and its tool.
    frame: host::Frame,
    target: JsValue,
    gate: Gate,
}

impl<'a> Seam<'a> {
    fn new(composed: &'a Composed, ctx: &'a JsValue, frame: host::Frame, gate: Gate) -> Self {
        Seam {
            composed,
            ctx,
            frame,
            target: JsValue::UNDEFINED,
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
    match Verdict::of(host::verdict(predicate, ctx)) {
        Some(Verdict::Yes) => Ok(true),
        Some(Verdict::No) => Ok(false),
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
        if self.frame.redirect(&spec.redirect_to) {
            return Err(Fault::Raw(unreadable(place(), &self.frame.thrown())));
        }
        if let Some(transform) = &spec.args_transform {
            // Given a copy of the args, so that the caller's object is never handed out;
            // its answer must be a plain object, and no thenable.
            let frame = &self.frame;
            match Transformed::of(frame.transform(transform, self.ctx)) {
                Some(Transformed::Plain) => frame.adopt(),
                Some(Transformed::ArgsUnreadable) => {
                    let place = place().add(".args");
                    return Err(Fault::Raw(unreadable(place, &frame.thrown())));
                }
                Some(Transformed::Threw) => return Err(Fault::Threw(frame.thrown())),
                Some(Transformed::ThenUnreadable) => {
                    return Err(Fault::UnreadableThen(frame.thrown()))
                }
                Some(Transformed::Thenable) => return Err(Fault::Thenable(frame.thrown())),
                _ => return Err(Fault::NotPlain(frame.thrown())),
            }
        }
        self.target = spec.redirect_to.clone();
        Ok(())
    }

    fn resolve_model(&mut self) -> Result<bool, Fault> {
        let Some(resolver) = &self.composed.resolver else {
            return Ok(false);
        };
        let model = host::call1(resolver, self.ctx).map_err(Fault::Raw)?;
        let chosen = !model.is_null() && !model.is_undefined();
        self.frame.set_model(&model);
        Ok(chosen)
    }

    fn on_dispatch(&mut self) -> Result<Option<Vec<u16>>, Fault> {
        let Some(callback) = &self.composed.callback else {
            return Ok(None);
        };
        let current = self.frame.current();
        let next = host::call2(callback, &current, self.ctx).map_err(Fault::Raw)?;
        if next.is_null() || next.is_undefined() {
            return Ok(None);
        }
        let place = || Message::new("ToolPolicies: onToolCallDispatch's returned call");
        let name = call_name(&next, &place).map_err(Fault::Raw)?;
        let units = batch::name_units(&name, &|| place().add(".name")).map_err(Fault::Raw)?;
        // A field the returned call leaves out keeps the call's (its `id` above all).
        let next = host::overlay(&current, &next)
            .map_err(|cause| Fault::Raw(unreadable(place(), &cause)))?;
        self.frame.set_current(&next);
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
