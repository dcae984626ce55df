//! What the binding imports from the package's `host.js` (pkg-template/host.js): the
//! result classes, readers of the caller's values, the name batch, one turn's wait and
//! warning delivery. Every import that runs the caller's code is `catch`, so a caller's
//! exception comes back here as a value and never unwinds through the wasm.

use js_sys::{Array, JsString, Promise};
use wasm_bindgen::prelude::*;

#[wasm_bindgen(raw_module = "./host.js")]
extern "C" {
    // ------------------------------------------------------------ results and errors

    pub fn routed(names: &Array, unresolved: &Array) -> JsValue;
    pub fn refused(reason: &JsValue, unresolved: &Array) -> JsValue;
    pub fn unavailable(missing: &Array) -> JsValue;

    #[wasm_bindgen(js_name = ToolRoutingUnavailableWarning)]
    pub type UnavailableWarning;
    #[wasm_bindgen(constructor, js_class = "ToolRoutingUnavailableWarning")]
    pub fn new(message: &str, missing: &Array) -> UnavailableWarning;

    #[wasm_bindgen(js_name = ToolRedirectDroppedWarning)]
    pub type DroppedWarning;
    #[wasm_bindgen(constructor, js_class = "ToolRedirectDroppedWarning")]
    pub fn new(message: &JsValue, details: &JsValue) -> DroppedWarning;

    /// To `onWarning`, else `process.emitWarning`, else `console.warn`.
    #[wasm_bindgen(catch)]
    pub fn deliver(warning: &JsValue, on_warning: &JsValue) -> Result<(), JsValue>;

    pub fn error(message: &JsValue) -> JsValue;
    #[wasm_bindgen(js_name = typeError)]
    pub fn type_error(message: &JsValue) -> JsValue;
    #[wasm_bindgen(js_name = typeErrorCaused)]
    pub fn type_error_caused(message: &JsValue, cause: &JsValue) -> JsValue;
    #[wasm_bindgen(js_name = rangeError)]
    pub fn range_error(message: &JsValue) -> JsValue;
    #[wasm_bindgen(js_name = errorCaused)]
    pub fn error_caused(message: &JsValue, cause: &JsValue) -> JsValue;

    // ------------------------------------------------------------ the caller's values

    pub type Unreadable;
    #[wasm_bindgen(method, getter)]
    pub fn index(this: &Unreadable) -> u32;
    #[wasm_bindgen(method, getter)]
    pub fn cause(this: &Unreadable) -> JsValue;
    /// The values read before the one that threw.
    #[wasm_bindgen(method, getter)]
    pub fn values(this: &Unreadable) -> Array;

    /// `keys` of `source`, read once each, as an array; an `Unreadable` when one throws.
    pub fn fields(source: &JsValue, keys: &Array) -> JsValue;
    /// Whether `value[Symbol.iterator]` is a function; an `Unreadable` when it throws.
    pub fn iterable(value: &JsValue) -> JsValue;
    /// An iterable as a fresh array.
    #[wasm_bindgen(catch)]
    pub fn list(value: &JsValue) -> Result<Array, JsValue>;
    /// Total code units of `strings`, or -(i + 1) when `strings[i]` is not a string.
    pub fn measure(strings: &Array) -> f64;
    #[wasm_bindgen(js_name = isArray)]
    pub fn is_array(value: &JsValue) -> bool;
    #[wasm_bindgen(js_name = isPlainObject)]
    pub fn is_plain_object(value: &JsValue) -> bool;
    /// Each tool's `name`; an `Unreadable` when one throws.
    #[wasm_bindgen(js_name = namesOf)]
    pub fn names_of(items: &Array) -> JsValue;
    #[wasm_bindgen(catch)]
    pub fn keys(value: &JsValue) -> Result<Array, JsValue>;

    // ------------------------------------------------------------ rows and names

    pub type Batch;
    #[wasm_bindgen(method, getter)]
    pub fn rows(this: &Batch) -> f64;
    #[wasm_bindgen(method, getter)]
    pub fn flags(this: &Batch) -> Vec<u8>;
    #[wasm_bindgen(method, getter)]
    pub fn names(this: &Batch) -> Array;
    #[wasm_bindgen(method, getter)]
    pub fn units(this: &Batch) -> f64;

    /// Reads a turn's rows with the SPEC's readers or the caller's own.
    #[wasm_bindgen(catch, js_name = readRows)]
    pub fn read_rows(rows: &JsValue, candidate_of: &JsValue, is_active: &JsValue) -> Result<Batch, JsValue>;

    #[wasm_bindgen(js_name = writeNames)]
    pub fn write_names(strings: &Array, ends: &mut [u32], units: &mut [u16]);
    #[wasm_bindgen(js_name = encodeNames)]
    pub fn encode_names(strings: &Array, ends: &mut [u32], bytes: &mut [u8]) -> i32;

    /// Whether two arrays hold the same strings in the same order.
    pub fn same(a: &Array, b: &Array) -> bool;
    #[wasm_bindgen(js_name = freezeReport)]
    pub fn freeze_report(report: &JsValue) -> JsValue;

    /// `values[i]` for each index, as a new array.
    pub fn pick(values: &JsValue, indices: &[u32]) -> Array;
    /// Slices of `strings` by (string, start, end) triples, as a new array.
    pub fn cut(strings: &Array, spans: &[u32]) -> Array;
    pub fn text(units: &[u16]) -> JsString;
    #[wasm_bindgen(catch)]
    pub fn record(tools: &JsValue, keys: &Array, indices: &[u32]) -> Result<JsValue, JsValue>;

    // ------------------------------------------------------------ calls

    #[wasm_bindgen(catch)]
    pub fn rewrite(call: &JsValue, name: &JsValue) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(catch, js_name = copyArgs)]
    pub fn copy_args(args: &JsValue) -> Result<JsValue, JsValue>;

    // ------------------------------------------------------------ one turn's wait

    pub type Wait;
    #[wasm_bindgen(constructor)]
    pub fn new() -> Wait;
    #[wasm_bindgen(method, getter)]
    pub fn promise(this: &Wait) -> Promise;
    #[wasm_bindgen(method)]
    pub fn follow(this: &Wait, value: &JsValue);
    #[wasm_bindgen(method, js_name = startTimer)]
    pub fn start_timer(this: &Wait, ms: f64);
    #[wasm_bindgen(method, js_name = stopTimer)]
    pub fn stop_timer(this: &Wait);
    #[wasm_bindgen(method, catch)]
    pub fn listen(this: &Wait, signal: &JsValue) -> Result<(), JsValue>;
    #[wasm_bindgen(method, catch)]
    pub fn unlisten(this: &Wait, signal: &JsValue) -> Result<(), JsValue>;

    pub fn now() -> f64;
}
