//! `ToolCallPolicy`: one declarative per-intent rule. It holds the caller's values; the
//! core's form of it (names as code units, the `whenTool` set) is built by the
//! `ToolPolicies` that composes it, and, for `matchesTool`, on first use.

use super::options::{self, At, Fields, POLICY};
use super::{batch, frozen, host, must_be, unreadable, JsResult, Message};
use crate::given::Rule;
use crate::names::NameSet;
use crate::policy::{Policy, WhenTool};
use alloc::rc::Rc;
use alloc::vec::Vec;
use core::cell::RefCell;
use js_sys::{Array, Function, WeakSet};
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &str = r#"
export interface ToolCall {
  name: string;
  args?: unknown;
  id?: string;
  [field: string]: unknown;
}

export interface ToolCallPolicySpec<Ctx = unknown, Model = unknown> {
  /** Required, non-empty, unique within a `ToolPolicies`. */
  name: string;
  /** The intent gate, asked at both seams. Must be synchronous. */
  match: (ctx: Ctx) => unknown;
  /** POST filter on the emitted tool; `null`/absent matches any tool. */
  whenTool?: string | Iterable<string> | null;
  /** Makes it a redirect policy (POST seam). */
  redirectTo?: string | null;
  /** PRE seam model override, handed back by identity. */
  model?: Model | null;
  /** Rewrites the arguments of a redirected call (it receives a copy); must return a plain object. */
  argsTransform?: ((args: any, ctx: Ctx) => Record<string, unknown>) | null;
  /** Precondition of the redirect only (never asked for model selection). */
  guard?: ((ctx: Ctx) => unknown) | null;
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
"#;

/// A policy's fields, checked.
pub(crate) struct Spec {
    /// The caller's own string, non-empty.
    pub name: JsValue,
    pub matcher: Function,
    /// `null` (any tool), a string, or a frozen array of strings.
    pub when_tool: JsValue,
    /// The code units of the array's strings.
    when_units: usize,
    /// `null` or a non-empty string.
    pub redirect_to: JsValue,
    /// `null` or anything; handed back by identity.
    pub model: JsValue,
    pub args_transform: Option<Function>,
    pub guard: Option<Function>,
}

fn named(name: &JsValue) -> Message {
    Message::new("ToolCallPolicy \"").add_js(name).add("\"")
}

impl Spec {
    /// Checks a spec (or a policy, read through its getters) as the facade read it (api.js
    /// `readSpecs`: its kinds, how many of its fields were read before one threw, their
    /// values in the order of [`POLICY`], its `whenTool` list), with TypeErrors that name the
    /// policy and the field.
    pub fn read(
        value: &JsValue,
        kinds: u32,
        read: u32,
        values: Vec<JsValue>,
        when: &host::Strings,
    ) -> JsResult<Spec> {
        let spec = || Message::new("ToolCallPolicy: spec");
        options::given_object(value, kinds, Rule::Object, &spec)?;
        let fields = Fields::given(&POLICY, kinds, f64::NAN, values);
        let policy = || Message::new("ToolCallPolicy");
        let check_name = || fields.checked("name", At(&policy, ": "));
        // A field that threw is named with the policy's name, read before it.
        if let Some(key) = POLICY.get(read as usize) {
            let cause = fields.named(key);
            if *key == "name" {
                return Err(unreadable(spec().add(".name"), &cause));
            }
            check_name()?;
            return Err(unreadable(
                named(&fields.named("name")).add(": spec.").add(key),
                &cause,
            ));
        }
        let name = check_name()?.unwrap_or_default();
        batch::check_fits(&name, &|| Message::new("ToolCallPolicy: name"))?;
        let at = |field: &str| named(&name).add(": ").add(field);
        let policy = || named(&name);
        let here = At(&policy, ": ");
        // The core's rule for `match` never leaves it out.
        let matcher = fields.checked("match", here)?.unwrap_or_default();
        let when_tool = fields.named("whenTool");
        let mut when_units = 0;
        let when_tool = if when_tool.is_string() {
            batch::check_fits(&when_tool, &|| at("whenTool"))?;
            when_tool
        } else if fields.is_absent("whenTool") {
            JsValue::NULL
        } else {
            let (list, units) = batch::listed(when, &|| at("whenTool"))?;
            when_units = units;
            frozen(list).into()
        };
        let redirect_to = match fields.checked("redirectTo", here)? {
            Some(v) => {
                batch::check_fits(&v, &|| at("redirectTo"))?;
                v
            }
            None => JsValue::NULL,
        };
        let args_transform = fields.function("argsTransform", here)?;
        let guard = fields.function("guard", here)?;
        let model = fields.named("model");
        Ok(Spec {
            name,
            matcher: matcher.unchecked_into(),
            when_tool,
            when_units,
            redirect_to,
            model: if model.is_undefined() {
                JsValue::NULL
            } else {
                model
            },
            args_transform,
            guard,
        })
    }

    /// The tools the redirect applies to, in the core's form.
    pub fn when(&self) -> WhenTool {
        if self.when_tool.is_null() {
            WhenTool::Any
        } else if self.when_tool.is_string() {
            WhenTool::One(batch::units_of(&self.when_tool))
        } else {
            let list: Array = self.when_tool.clone().unchecked_into();
            WhenTool::Set(NameSet::new(batch::write(&list, self.when_units)))
        }
    }

    /// The declarative part, in the core's form.
    pub fn policy(&self) -> Policy {
        Policy {
            name: batch::units_of(&self.name),
            when_tool: self.when(),
            redirect_to: (!self.redirect_to.is_null()).then(|| batch::units_of(&self.redirect_to)),
            has_model: !self.model.is_null(),
            has_guard: self.guard.is_some(),
        }
    }
}

/// The specs the facade read (api.js `readSpecs`), in order, with the caller's values they
/// were read from: per spec, the value, its kinds, how many of its fields were read, its
/// `whenTool` list, then its fields' values (one per key of [`POLICY`]).
pub(crate) struct Specs {
    read: Array,
    at: u32,
    end: u32,
}

impl Specs {
    pub fn new(read: Array) -> Specs {
        let end = read.length();
        Specs { read, at: 0, end }
    }
}

impl Iterator for Specs {
    type Item = (JsValue, JsResult<Spec>);

    /// The next spec's value and the spec, checked.
    fn next(&mut self) -> Option<Self::Item> {
        if self.at >= self.end {
            return None;
        }
        let at = self.at;
        self.at += 4 + POLICY.len() as u32;
        let get = |k: u32| self.read.get(at + k);
        let number = |k: u32| get(k).as_f64().unwrap_or_default() as u32;
        let value = get(0);
        let values = (4..4 + POLICY.len() as u32).map(get).collect();
        let spec = Spec::read(
            &value,
            number(1),
            number(2),
            values,
            &get(3).unchecked_into(),
        );
        Some((value, spec))
    }
}

thread_local! {
    /// Every policy this module built: `ToolPolicies` keeps these as they are and turns
    /// anything else into one (a proxy of a policy is read as a spec).
    static BUILT: WeakSet = WeakSet::new();
}

/// Whether `value` is a policy this module built.
pub(crate) fn is_policy(value: &JsValue) -> bool {
    value.is_object() && BUILT.with(|b| b.has(value.unchecked_ref()))
}

/// What a policy holds in the module: its spec, `whenTool` in the core's form (built on
/// the first `matchesTool`), and whether it was disposed. Shared with the `ToolPolicies`
/// that made the policy from a spec, whose `dispose()` disposes it too. The fields the
/// caller reads are the JavaScript object's own (see [`ToolCallPolicy::build`]), so that
/// `dispose()` releases everything the module held for it at once.
#[derive(Default)]
pub(crate) struct Held {
    spec: RefCell<Option<Rc<Spec>>>,
    when: RefCell<Option<Rc<WhenTool>>>,
}

impl Held {
    /// Frees what the policy holds; later `matchesTool` calls throw.
    pub fn dispose(&self) {
        let spec = self.spec.borrow_mut().take();
        let when = self.when.borrow_mut().take();
        drop((spec, when));
    }
}

#[wasm_bindgen(skip_typescript)]
pub struct ToolCallPolicy {
    held: Rc<Held>,
}

#[wasm_bindgen]
impl ToolCallPolicy {
    /// The facade read the spec once (api.js `readSpecs`).
    #[wasm_bindgen(constructor)]
    pub fn construct(read: Array) -> JsResult<JsValue> {
        let spec = Specs::new(read).next().map(|(_, spec)| spec);
        let spec = spec.unwrap_or_else(|| Err(Message::new("ToolCallPolicy: no spec").error()))?;
        Ok(ToolCallPolicy::build(Rc::new(spec), Rc::default()))
    }

    /// Whether `toolName` satisfies `whenTool`.
    #[wasm_bindgen(js_name = matchesTool)]
    pub fn matches_tool(&self, tool_name: JsValue) -> JsResult<bool> {
        let spec = self.held.spec.borrow().clone();
        let Some(spec) = spec else {
            return Err(Message::new("ToolCallPolicy: matchesTool() after dispose()").error());
        };
        let place = || named(&spec.name).add(".matchesTool: toolName");
        if !tool_name.is_string() {
            return Err(must_be(place(), "a string", &tool_name));
        }
        let cached = self.held.when.borrow().clone();
        let when = match cached {
            Some(when) => when,
            None => {
                let built = Rc::new(spec.when());
                *self.held.when.borrow_mut() = Some(built.clone());
                built
            }
        };
        Ok(when.matches(&batch::name_units(&tool_name, &place)?))
    }

    /// Frees what the module holds for the policy now rather than at garbage collection;
    /// later `matchesTool` calls throw. The policy's fields stay readable.
    pub fn dispose(&self) {
        self.held.dispose();
    }
}

impl ToolCallPolicy {
    /// The frozen policy for a checked spec: its fields are the object's own, read-only.
    pub(crate) fn build(spec: Rc<Spec>, held: Rc<Held>) -> JsValue {
        let guard = |f: &Option<Function>| f.clone().map_or(JsValue::NULL, JsValue::from);
        *held.spec.borrow_mut() = Some(spec.clone());
        let policy = JsValue::from(ToolCallPolicy { held });
        // In the order of `POLICY`.
        let values = [
            spec.name.clone(),
            spec.matcher.clone().into(),
            spec.when_tool.clone(),
            spec.redirect_to.clone(),
            spec.model.clone(),
            guard(&spec.args_transform),
            guard(&spec.guard),
        ];
        super::host::own_fields(
            &policy,
            &options::key_array(&POLICY),
            &values.into_iter().collect(),
        );
        BUILT.with(|b| b.add(policy.unchecked_ref()));
        frozen(policy)
    }
}
