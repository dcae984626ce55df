//! The caller's options objects and policy specs as typed Rust structs.
//!
//! `host.js` reads an object's fields once each (a getter or proxy trap that throws is
//! caught there and named here), in one call; each field is then found by its key and
//! checked into a typed struct, with the message naming it. Functions, the model and the
//! caller's objects stay `JsValue`s.
//!
//! serde-wasm-bindgen does not read these: its deserializer alone weighs 41 KB of wasm
//! (18 KB gzip, measured with one preserved `Vec`), and it reads fields with no way to
//! catch a throwing getter.

use super::wire::{kinds_at, Kind};
use super::{host, must_be, unreadable, JsResult, Message};
use crate::given::{self, rule_of, Given, Rule, SIGNAL};
pub(crate) use crate::given::{POLICIES, POLICY, RESOLVE, ROUTER, ROUTING, RUN};
use alloc::vec::Vec;
use core::cell::Cell;
use js_sys::{Array, Function};
use wasm_bindgen::prelude::*;

/// The values of an object's fields, read once each, found by the key they were read by
/// (not by position, so that a key added to a list shifts nothing).
pub(crate) struct Fields {
    keys: &'static [&'static str],
    /// `None` when the options object was left out: every option is absent (and nothing
    /// is asked of JavaScript to say so).
    values: Option<Vec<JsValue>>,
    /// What kind each value is, when the facade read them (`wire::kinds`), and the one
    /// number the list holds (a budget): then nothing is asked of JavaScript to check them.
    read: Option<(u32, f64)>,
}

impl Fields {
    /// The value read for `key` (`undefined` when the object has none, or when the
    /// options object itself was left out).
    pub fn named(&self, key: &str) -> JsValue {
        self.value(self.at(key))
    }

    /// Where `key` is in the list the fields were read by.
    fn at(&self, key: &str) -> Option<usize> {
        let at = self.keys.iter().position(|k| *k == key);
        debug_assert!(at.is_some(), "a key the list does not read");
        at
    }

    /// The value read at `at` (`undefined` as for [`Fields::named`]).
    fn value(&self, at: Option<usize>) -> JsValue {
        match (&self.values, at) {
            (Some(values), Some(i)) => values.get(i).cloned().unwrap_or_default(),
            _ => JsValue::UNDEFINED,
        }
    }

    /// The value read for `key`, checked by the core's rule for it (`given::rule_of`):
    /// `None` when it is left out, or the TypeError naming it (`<at><sep><key>`).
    ///
    /// (`at` is no `&dyn Fn(&str) -> Message`: a closure called with a `&str` shares its
    /// wasm signature with `fmt::Write::write_str`, which then keeps all of `core::fmt`
    /// alive behind the function table: 1.9 KB of gzip, measured.)
    pub fn checked(&self, key: &str, at: At) -> JsResult<Option<JsValue>> {
        let place = || (at.0)().add(at.1).add(key);
        let i = self.at(key);
        match (&self.values, self.read, i) {
            // Left out with its options object.
            (None, ..) => {}
            (Some(_), Some((kinds, number)), Some(i)) => {
                let kind = Kind::of(kinds_at(kinds, i + 1));
                if kind != Some(Kind::Undefined) {
                    let value = self.value(Some(i));
                    let given = match kind {
                        Some(Kind::Number) => Given::Number(number),
                        kind => super::given_of(kind, &value),
                    };
                    return checked_given(value, given, rule_of(key), &place);
                }
            }
            _ => return checked(self.value(i), rule_of(key), &place),
        }
        // Left out (`undefined`, or with its options object): absent, unless its rule
        // requires it.
        match given::check(rule_of(key), Given::Undefined) {
            Ok(_) => Ok(None),
            Err(what) => Err(must_be(place(), what, &JsValue::UNDEFINED)),
        }
    }

    /// Whether the value read for `key` is `undefined` (known without asking JavaScript
    /// when the facade read it).
    pub fn is_undefined(&self, key: &str) -> bool {
        self.kind(key) == Some(Kind::Undefined)
    }

    /// Whether the value read for `key` is `null` or `undefined`.
    pub fn is_absent(&self, key: &str) -> bool {
        matches!(self.kind(key), Some(Kind::Undefined | Kind::Null))
    }

    /// What kind of value was read for `key` (known without asking JavaScript when the
    /// facade read it).
    fn kind(&self, key: &str) -> Option<Kind> {
        match (&self.values, self.read, self.at(key)) {
            (None, ..) => Some(Kind::Undefined),
            (_, Some((kinds, _)), Some(i)) => Kind::of(kinds_at(kinds, i + 1)),
            (_, _, i) => Kind::of(host::kind_of_value(&self.value(i))),
        }
    }

    /// The number read for `key` (checked to be one).
    pub fn number(&self, key: &str, at: At) -> JsResult<Option<f64>> {
        let value = self.checked(key, at)?;
        Ok(match self.read {
            Some((_, number)) => value.map(|_| number),
            None => value.and_then(|v| v.as_f64()),
        })
    }

    /// [`Fields::checked`] for a function.
    pub fn function(&self, key: &str, at: At) -> JsResult<Option<Function>> {
        Ok(self.checked(key, at)?.map(JsCast::unchecked_into))
    }
}

/// Where a field is: what names its object, and what comes between that and its key.
#[derive(Clone, Copy)]
pub(crate) struct At<'a>(pub &'a dyn Fn() -> Message, pub &'static str);

/// `value` checked by the core's `rule`: `Some(value)` when given, `None` when left out,
/// or the TypeError naming `place`.
fn checked(value: JsValue, rule: Rule, place: &dyn Fn() -> Message) -> JsResult<Option<JsValue>> {
    let given = super::given(&value);
    checked_given(value, given, rule, place)
}

/// [`checked`], with what the value is known already.
fn checked_given(
    value: JsValue,
    given: Given,
    rule: Rule,
    place: &dyn Fn() -> Message,
) -> JsResult<Option<JsValue>> {
    match given::check(rule, given) {
        Ok(true) => Ok(Some(value)),
        Ok(false) => Ok(None),
        Err(what) => Err(must_be(place(), what, &value)),
    }
}

/// Reads `keys` of `source`, once each, in order (`Err`: what a read threw).
fn fields_of(source: &JsValue, keys: &'static [&'static str]) -> Result<Fields, JsValue> {
    let values = host::fields(source, &key_array(keys));
    match values.dyn_into::<host::Unreadable>() {
        Ok(u) => Err(u.cause()),
        Err(values) => Ok(Fields {
            keys,
            values: Some(values.unchecked_into::<Array>().iter().collect()),
            read: None,
        }),
    }
}

// The keys as JavaScript strings, made once per list. (A `Cell` taken and put back, not
// a `RefCell`: should the module ever trap in between, the cache is merely empty.)
pub(crate) fn key_array(keys: &'static [&'static str]) -> Array {
    thread_local! {
        static MADE: Cell<Vec<(usize, Array)>> = const { Cell::new(Vec::new()) };
    }
    let id = keys.as_ptr() as usize;
    let mut made = MADE.take();
    let found = match made.iter().find(|(k, _)| *k == id) {
        Some((_, array)) => array.clone(),
        None => {
            let array: Array = keys.iter().map(|k| JsValue::from_str(k)).collect();
            made.push((id, array.clone()));
            array
        }
    };
    MADE.set(made);
    found
}

/// The fields the facade read of an options object by `keys` (host.js `readFields`): the
/// object's kind and theirs (`kinds`, `wire::kinds_at` 0 the object's, then each key's),
/// the one number among them (`number`, NaN without), the values in the keys' order, and
/// `unread`, the key whose read threw (its value then what was thrown); checked as
/// [`read_options`] checks them.
pub(crate) fn given_fields(
    options: &JsValue,
    keys: &'static [&'static str],
    kinds: u32,
    number: f64,
    values: Vec<JsValue>,
    unread: Option<u32>,
    place: &dyn Fn() -> Message,
) -> JsResult<Fields> {
    if given_object(options, kinds, Rule::Options, place)?.is_none() {
        return Ok(Fields {
            keys,
            values: None,
            read: None,
        });
    }
    let fields = Fields::given(keys, kinds, number, values);
    match unread.and_then(|i| keys.get(i as usize)) {
        Some(key) => Err(unreadable(place().add(".").add(key), &fields.named(key))),
        None => Ok(fields),
    }
}

/// The object the facade read fields of, checked by `rule` (its kind the first of `kinds`).
pub(crate) fn given_object(
    object: &JsValue,
    kinds: u32,
    rule: Rule,
    place: &dyn Fn() -> Message,
) -> JsResult<Option<JsValue>> {
    let given = super::given_of(Kind::of(kinds_at(kinds, 0)), object);
    checked_given(object.clone(), given, rule, place)
}

impl Fields {
    /// The values the facade read by `keys` (host.js `readFields`), with their kinds and the
    /// first number among them (a field that threw: its value what it threw).
    pub fn given(
        keys: &'static [&'static str],
        kinds: u32,
        number: f64,
        values: Vec<JsValue>,
    ) -> Fields {
        Fields {
            keys,
            values: Some(values),
            read: Some((kinds, number)),
        }
    }
}

/// [`given_fields`] of what the facade read, taken whole (host.js `Fields`).
pub(crate) fn read_fields(
    read: &host::Fields,
    keys: &'static [&'static str],
    place: &dyn Fn() -> Message,
) -> JsResult<Fields> {
    let kinds = read.kinds();
    // Left out (undefined): no values to ask JavaScript for.
    let values = match Kind::of(kinds_at(kinds, 0)) {
        Some(Kind::Undefined) => Vec::new(),
        _ => read.values().iter().collect(),
    };
    let (number, unread) = (read.number(), read.unread());
    given_fields(&read.options(), keys, kinds, number, values, unread, place)
}

// ------------------------------------------------------------------ routing

/// The procedural layer and how its rows are read: what `resolvePalette` and a
/// `ToolRouter` share.
pub(crate) struct Layer {
    pub entries: Option<Function>,
    pub timeout_ms: Option<f64>,
    /// The caller's readers, or `undefined` for the SPEC's.
    pub candidate_of: JsValue,
    pub is_active: JsValue,
    pub on_decision: Option<Function>,
}

impl Layer {
    /// Checks the layer's fields of [`ROUTING`] or [`ROUTER`].
    pub fn check(fields: &Fields, place: &dyn Fn() -> Message) -> JsResult<Layer> {
        let at = At(place, ".");
        let entries = fields.function("entries", at)?;
        let timeout_ms = fields.number("timeoutMs", at)?;
        let undefined = |f: Option<Function>| f.map_or(JsValue::UNDEFINED, JsValue::from);
        Ok(Layer {
            entries,
            timeout_ms,
            candidate_of: undefined(fields.function("candidateOf", at)?),
            is_active: undefined(fields.function("isActive", at)?),
            on_decision: fields.function("onDecision", at)?,
        })
    }
}

/// A signal checked as the platform would use it: an `AbortSignal`, or an object that
/// behaves like one completely (`aborted`, `addEventListener`, `removeEventListener`).
pub(crate) fn signal(fields: &Fields, place: &dyn Fn() -> Message) -> JsResult<Option<JsValue>> {
    const WHAT: &str = "an AbortSignal";
    if fields.is_undefined("signal") {
        return Ok(None);
    }
    let value = fields.named("signal");
    if !value.is_object() {
        return Err(must_be(place(), WHAT, &value));
    }
    // A throwing getter, a revoked proxy, or a proxy failing the platform's brand check.
    let fields = fields_of(&value, SIGNAL).map_err(|cause| {
        place()
            .add(" could not be read as an AbortSignal")
            .type_error_caused(&cause)
    })?;
    if fields.named("aborted").as_bool().is_none()
        || !fields.named("addEventListener").is_function()
        || !fields.named("removeEventListener").is_function()
    {
        return Err(must_be(place(), WHAT, &value));
    }
    Ok(Some(value))
}

// ------------------------------------------------------------------ policies
