//! What the binding imports from the package's `host.js` (src/js/host.js): the
//! result classes, the caller's functions and readers of the caller's values, the name
//! batch, one turn's wait and warning delivery.
//!
//! An import that runs the caller's code never throws: `host.js` returns what the
//! caller's code threw as a `Thrown`, which the wrappers at the end of this file turn
//! into an `Err` with the very value thrown. No exception unwinds through the wasm, and
//! none loses a slot of the reference table, as a value-returning `catch` import does
//! when it throws (measured here: one slot per exception, for good).

use super::JsResult;
use js_sys::{Array, Function, JsString};
use wasm_bindgen::prelude::*;

#[wasm_bindgen(raw_module = "./host.js")]
extern "C" {
    // ------------------------------------------------------------ results and errors

    /// A turn's `Routed` (`reason` none) or `RoutingRefusal`, frozen, built in one call:
    /// a refusal's text is its reason's `routing::REASONS` parts (wire.js `REASONS`) around
    /// `detail`.
    pub fn outcome(
        registered: &Array,
        indices: &[u32],
        reason: Option<u32>,
        detail: &[u16],
        candidates: &JsValue,
        spans: &[u32],
    ) -> JsValue;
    pub fn unavailable(missing: &Array) -> JsValue;

    #[wasm_bindgen(js_name = ToolRoutingUnavailableWarning)]
    pub type UnavailableWarning;
    #[wasm_bindgen(constructor, js_class = "ToolRoutingUnavailableWarning")]
    pub fn new(message: &str, missing: &Array) -> UnavailableWarning;

    /// To `onWarning`, else `process.emitWarning`, else `console.warn`.
    #[wasm_bindgen(catch)]
    pub fn deliver(warning: &JsValue, on_warning: &JsValue) -> Result<(), JsValue>;

    /// A new error of a wire `Fault` kind.
    pub fn fault(kind: u32, message: &JsValue, cause: &JsValue) -> JsValue;

    /// The module's exports, for the door's stack-pointer check.
    pub fn attach(exports: &JsValue);

    // ------------------------------------------------------------ the caller's code

    pub type Thrown;
    #[wasm_bindgen(method, getter)]
    fn value(this: &Thrown) -> JsValue;

    #[wasm_bindgen(js_name = call1)]
    fn call1_(f: &Function, a: &JsValue) -> JsValue;
    #[wasm_bindgen(js_name = call2)]
    fn call2_(f: &Function, a: &JsValue, b: &JsValue) -> JsValue;
    #[wasm_bindgen(js_name = get)]
    fn get_(value: &JsValue, key: &JsValue) -> JsValue;
    /// A predicate called with one argument: a wire `Verdict` (`Other`: anything but a
    /// boolean, or a throw, which [`answered`] then hands over).
    pub fn verdict(f: &Function, a: &JsValue) -> u32;
    /// The answer (or a `Thrown`) of the last `verdict` that answered `Other`.
    pub fn answered() -> JsValue;
    // ------------------------------------------------------------ the caller's values

    pub type Unreadable;
    #[wasm_bindgen(method, getter)]
    pub fn index(this: &Unreadable) -> u32;
    #[wasm_bindgen(method, getter)]
    pub fn cause(this: &Unreadable) -> JsValue;
    /// Where the value that threw is (`[3]`), for a message.
    #[wasm_bindgen(method, getter)]
    pub fn at(this: &Unreadable) -> JsValue;

    /// `keys` of `source`, read once each, as an array; an `Unreadable` when one throws.
    pub fn fields(source: &JsValue, keys: &Array) -> JsValue;
    /// Total code units of `strings`, or -(i + 1) when `strings[i]` is not a string.
    pub fn measure(strings: &Array) -> f64;
    #[wasm_bindgen(js_name = isArray)]
    pub fn is_array(value: &JsValue) -> bool;
    /// What kind of value it is (see `given` in mod.rs).
    #[wasm_bindgen(js_name = kindOfValue)]
    pub fn kind_of_value(value: &JsValue) -> u32;
    /// Defines `keys[i]` as a read-only own property of `target` with `values[i]`.
    #[wasm_bindgen(js_name = ownFields)]
    pub fn own_fields(target: &JsValue, keys: &Array, values: &Array);

    // ------------------------------------------------------------ rows and names

    #[wasm_bindgen(js_name = writeNames)]
    pub fn write_names(strings: &Array, ends: &mut [u32], units: &mut [u16]);
    /// One string's code units, into memory allocated for exactly them.
    #[wasm_bindgen(js_name = writeName)]
    pub fn write_name(name: &JsString, units: &mut [u16]);

    /// Whether two arrays hold the same strings in the same order.
    pub fn same(a: &Array, b: &Array) -> bool;

    /// `values[i]` for each index, as a new array.
    pub fn pick(values: &JsValue, indices: &[u32]) -> Array;
    /// Slices of `strings` by (string, start, end) triples, as a new array.
    pub fn cut(strings: &JsValue, spans: &[u32]) -> Array;
    pub fn text(units: &[u16]) -> JsString;
    #[wasm_bindgen(js_name = record)]
    fn record_(tools: &JsValue, keys: &Array, indices: &[u32]) -> JsValue;

    // ------------------------------------------------------------ calls

    #[wasm_bindgen(js_name = overlay)]
    fn overlay_(call: &JsValue, next: &JsValue) -> JsValue;

    // ------------------------------------------------------------ one seam call

    /// One seam call's JavaScript half (a dispatch's call as it stands, a selection's
    /// model), from which the facade builds the record.
    pub type Frame;
    /// The caller's call.
    #[wasm_bindgen(method, getter)]
    pub fn call(this: &Frame) -> JsValue;
    #[wasm_bindgen(method, getter)]
    pub fn current(this: &Frame) -> JsValue;
    #[wasm_bindgen(method, setter)]
    pub fn set_current(this: &Frame, call: &JsValue);
    #[wasm_bindgen(method, setter)]
    pub fn set_model(this: &Frame, model: &JsValue);
    /// What the frame's last step threw.
    #[wasm_bindgen(method, getter)]
    pub fn thrown(this: &Frame) -> JsValue;
    /// The redirect: a new call with every field of the call and `name`; `true` when
    /// reading the call threw (then [`Frame::thrown`]).
    #[wasm_bindgen(method)]
    pub fn redirect(this: &Frame, name: &JsValue) -> bool;
    /// `argsTransform` called on a copy of the caller's call's `args` and `ctx`: what
    /// came of it, a wire `Transformed` (the answer, or what was thrown, then
    /// [`Frame::thrown`]).
    #[wasm_bindgen(method)]
    pub fn transform(this: &Frame, f: &Function, ctx: &JsValue) -> u32;
    /// The transform's answer becomes the args of the call as it stands.
    #[wasm_bindgen(method)]
    pub fn adopt(this: &Frame);
    /// The gate dropped the redirect: its warning delivered (`true` when `onWarning`
    /// threw, then [`Frame::thrown`]) and its `dropped` record kept.
    #[wasm_bindgen(method)]
    pub fn drop(
        this: &Frame,
        message: &[u16],
        reason: &[u16],
        policy: &JsValue,
        target: &JsValue,
        on_warning: &JsValue,
    ) -> bool;

    /// What the facade read of an options object (host.js `readFields`).
    pub type Fields;
    #[wasm_bindgen(method, getter)]
    pub fn options(this: &Fields) -> JsValue;
    #[wasm_bindgen(method, getter)]
    pub fn values(this: &Fields) -> Array;
    #[wasm_bindgen(method, getter)]
    pub fn kinds(this: &Fields) -> u32;
    #[wasm_bindgen(method, getter)]
    pub fn number(this: &Fields) -> f64;
    #[wasm_bindgen(method, getter)]
    pub fn unread(this: &Fields) -> Option<u32>;

    /// A list of strings of the caller's, read once (host.js `readStrings`).
    pub type Strings;
    #[wasm_bindgen(js_name = readStrings)]
    pub fn read_strings(value: &JsValue) -> Strings;
    /// How the reading ended: a wire `Listed`.
    #[wasm_bindgen(method, getter)]
    pub fn listed(this: &Strings) -> u32;
    /// The value read.
    #[wasm_bindgen(method, getter)]
    pub fn value(this: &Strings) -> JsValue;
    #[wasm_bindgen(method, getter)]
    pub fn list(this: &Strings) -> Array;
    #[wasm_bindgen(method, getter)]
    pub fn count(this: &Strings) -> f64;
    #[wasm_bindgen(method, getter)]
    pub fn units(this: &Strings) -> f64;
    /// The first item that is no string.
    #[wasm_bindgen(method, getter)]
    pub fn at(this: &Strings) -> u32;
    /// What a read threw.
    #[wasm_bindgen(method, getter)]
    pub fn cause(this: &Strings) -> JsValue;

    // ------------------------------------------------------------ one turn's wait

    /// A turn's JavaScript half: its promise, the store's answer, and its wait (the
    /// facade makes it; see host.js).
    pub type Wait;
    /// Calls `entries(context)` (`entries()` when the context is `undefined`): 0 it
    /// answered a value, 1 a thenable, 2 it threw or reading its `then` threw; the turn
    /// keeps the answer (or what was thrown) as [`Wait::answer`].
    #[wasm_bindgen(method)]
    pub fn ask(this: &Wait, entries: &Function, context: &JsValue) -> u32;
    #[wasm_bindgen(method, getter)]
    pub fn answer(this: &Wait) -> JsValue;
    /// Waits for the first of the answer, the budget (`ms`, NaN: none) and the signal's
    /// abort, then finishes the turn with `pending` (its rows read with the readers);
    /// `true` when the signal refused a listener (then [`Wait::thrown`]).
    #[wasm_bindgen(method)]
    pub fn wait(
        this: &Wait,
        pending: super::turn::Pending,
        ms: f64,
        signal: &JsValue,
        is_active: &JsValue,
        candidate_of: &JsValue,
    ) -> bool;
    /// Reads the answer's rows (a wire `Answer`), their codes and strings written into the
    /// batch: `count` rows, their candidacies' `strings`, `units` code units.
    #[wasm_bindgen(method)]
    pub fn rows(this: &Wait, is_active: &JsValue, candidate_of: &JsValue) -> u32;
    #[wasm_bindgen(method, getter)]
    pub fn count(this: &Wait) -> f64;
    #[wasm_bindgen(method, getter)]
    pub fn strings(this: &Wait) -> Array;
    /// How many strings the rows' candidacies hold.
    #[wasm_bindgen(method, getter)]
    pub fn found(this: &Wait) -> f64;
    #[wasm_bindgen(method, getter)]
    pub fn units(this: &Wait) -> f64;
    #[wasm_bindgen(method, getter)]
    pub fn thrown(this: &Wait) -> JsValue;
    /// Handles and ignores a rejection of an answer the turn no longer waits for.
    #[wasm_bindgen(method)]
    pub fn ignore(this: &Wait);
    /// Settles the turn's promise with its outcome.
    #[wasm_bindgen(method)]
    pub fn resolve(this: &Wait, outcome: &JsValue);

    pub fn now() -> f64;

    // ------------------------------------------------------------ tools for ToolIndex

    pub type ToolTexts;
    #[wasm_bindgen(method, getter)]
    pub fn names(this: &ToolTexts) -> Array;
    #[wasm_bindgen(method, getter)]
    pub fn descriptions(this: &ToolTexts) -> Array;
    #[wasm_bindgen(method, getter, js_name = paramNames)]
    pub fn param_names(this: &ToolTexts) -> Array;
    #[wasm_bindgen(method, getter, js_name = paramNameEnds)]
    pub fn param_name_ends(this: &ToolTexts) -> Vec<u32>;
    #[wasm_bindgen(method, getter, js_name = paramDescriptions)]
    pub fn param_descriptions(this: &ToolTexts) -> Array;
    #[wasm_bindgen(method, getter, js_name = paramDescriptionEnds)]
    pub fn param_description_ends(this: &ToolTexts) -> Vec<u32>;
    #[wasm_bindgen(method, getter, js_name = paramEnums)]
    pub fn param_enums(this: &ToolTexts) -> Array;
    #[wasm_bindgen(method, getter, js_name = paramEnumEnds)]
    pub fn param_enum_ends(this: &ToolTexts) -> Vec<u32>;
    /// Each tool's `namespace` as read (checked by the binding).
    #[wasm_bindgen(method, getter)]
    pub fn namespaces(this: &ToolTexts) -> Array;
    /// Whether the tools were a record keyed by name (not an iterable).
    #[wasm_bindgen(method, getter)]
    pub fn record(this: &ToolTexts) -> bool;

    /// Frozen `{ name, score }` hits and `{ tool }` rows, by index into `names`.
    pub fn hits(names: &Array, indices: &[u32], scores: &[f64]) -> JsValue;
    pub fn rows(names: &Array, indices: &[u32]) -> JsValue;
    /// `index.explain`'s records (serialized), named from `names` and `terms`, frozen.
    pub fn explained(names: &Array, terms: &Array, list: &JsValue) -> JsValue;
    /// A run's frozen `PaletteStep`, its lists picked from `names` by index.
    #[wasm_bindgen(js_name = paletteStep)]
    pub fn palette_step(
        names: &Array,
        step: u32,
        offered: &[u32],
        listed: &[u32],
        deferred: &[u32],
        revealed: &[u32],
        kept: bool,
    ) -> JsValue;

    // ------------------------------------------------------------ the records returned
    // Plain objects in the SPEC's key order, frozen (but the warning's details).

    /// The decision report, its rows and `hidden` frozen with it, in one call: `rule` at
    /// its place in `routing::RULES`, each row's fate at its place in `routing::FATES`
    /// (wire.js `RULES`, `FATES`), and each row's candidate sliced out of `candidates` by
    /// its (string, start, end) triple in `spans` (`NO_SPAN` for a row without one).
    pub fn report(
        outcome: &JsValue,
        rule: u32,
        fates: &[u8],
        candidates: &JsValue,
        spans: &[u32],
        hidden: &Array,
        retrieval_ms: f64,
    ) -> JsValue;
}

/// What the caller's code returned, or (`Err`) the very value it threw.
pub fn caught(value: JsValue) -> JsResult<JsValue> {
    match value.dyn_into::<Thrown>() {
        Ok(thrown) => Err(thrown.value()),
        Err(value) => Ok(value),
    }
}

pub fn call1(f: &Function, a: &JsValue) -> JsResult<JsValue> {
    caught(call1_(f, a))
}

pub fn call2(f: &Function, a: &JsValue, b: &JsValue) -> JsResult<JsValue> {
    caught(call2_(f, a, b))
}

/// The property names the binding reads, made once.
pub struct Keys {
    pub then: JsValue,
    pub aborted: JsValue,
    pub reason: JsValue,
    pub name: JsValue,
    pub constructor: JsValue,
    pub message: JsValue,
}

thread_local! {
    static KEYS: Keys = Keys {
        then: JsValue::from_str("then"),
        aborted: JsValue::from_str("aborted"),
        reason: JsValue::from_str("reason"),
        name: JsValue::from_str("name"),
        constructor: JsValue::from_str("constructor"),
        message: JsValue::from_str("message"),
    };
}

/// `value[key]`, run by JavaScript's own rules (getters, proxies, primitives).
pub fn get(value: &JsValue, key: fn(&Keys) -> &JsValue) -> JsResult<JsValue> {
    KEYS.with(|keys| caught(get_(value, key(keys))))
}

pub fn record(tools: &JsValue, keys: &Array, indices: &[u32]) -> JsResult<JsValue> {
    caught(record_(tools, keys, indices))
}

/// The fields of `next` over those of `call`, as a new call (`next` itself if it is `call`).
pub fn overlay(call: &JsValue, next: &JsValue) -> JsResult<JsValue> {
    caught(overlay_(call, next))
}

// ------------------------------------------------------------ ToolIndex vectors (SPEC 6, hybrid)

#[cfg(feature = "tool-index")]
#[wasm_bindgen(raw_module = "./host.js")]
extern "C" {
    #[wasm_bindgen(js_name = readVectors)]
    fn read_vectors_(vectors: &JsValue) -> JsValue;
    #[wasm_bindgen(js_name = readVector)]
    fn read_vector_(vector: &JsValue) -> JsValue;
    #[wasm_bindgen(js_name = bytesOf)]
    fn bytes_of_(bytes: &JsValue) -> JsValue;
}

/// `ToolIndex.load`'s bytes: a `Uint8Array` as a plain view of its own bytes (whatever its
/// getters say), or `undefined` when they are none; `Err` when they are detached.
#[cfg(feature = "tool-index")]
pub fn bytes_of(bytes: &JsValue) -> JsResult<JsValue> {
    caught(bytes_of_(bytes))
}

/// `options.vectors` read: one flat `Float32Array` as it is, else an array holding each
/// vector as a `Float64Array` (non-numbers as NaN), or `null` where one is not array-like.
#[cfg(feature = "tool-index")]
pub fn read_vectors(vectors: &JsValue) -> JsResult<JsValue> {
    caught(read_vectors_(vectors))
}

/// One vector read as `read_vectors` reads each: a `Float64Array`, or `null`.
#[cfg(feature = "tool-index")]
pub fn read_vector(vector: &JsValue) -> JsResult<JsValue> {
    caught(read_vector_(vector))
}
