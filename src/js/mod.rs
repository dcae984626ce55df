//! The wasm-bindgen binding: one file per exported class or function, plus what they
//! share. It converts the caller's values for the core, calls the caller's functions when
//! the core asks, and builds the results. It decides nothing the SPEC rules on.
//!
//! Two habits keep the module unbreakable: every call into JavaScript that can run the
//! caller's code returns its exception as a value (`catch` imports, `js_sys::Function`),
//! and no `RefCell` borrow is held across such a call, so a caller that throws or calls
//! back into the package never finds anything half-done.

mod batch;
#[cfg(feature = "tool-index")]
mod explain;
mod host;
#[cfg(feature = "tool-index")]
mod index;
#[cfg(feature = "tool-index")]
mod load;
mod options;
mod outcome;
mod palette;
mod policies;
mod policy;
mod resolve_palette;
mod router;
mod run;
mod turn;
mod wire;

use crate::given::Given;
use js_sys::JsString;
use wasm_bindgen::prelude::*;
use wire::Fault;

pub(crate) type JsResult<T> = Result<T, JsValue>;

/// Hands the door (`host.js` `enter`) the module's exports once, at instantiation: it
/// needs the stack pointer to put back after an exception unwound through the module.
///
/// It also gives wasm-bindgen's reference table room for 4,096 values at once: within
/// that room, taking and releasing a slot calls nothing while the table's bookkeeping is
/// borrowed, so a stack overflow cannot strike there and leave it borrowed for good (the
/// one piece of the module's state the door could not put back).
#[wasm_bindgen(start, skip_typescript)]
fn start() {
    let room: alloc::vec::Vec<JsValue> = (0..4096u32).map(JsValue::from).collect();
    drop(room);
    host::attach(&wasm_bindgen::exports());
}

/// An error message made of Rust text and the caller's own strings, which stay exact
/// (a policy name may hold an unpaired surrogate).
pub(crate) struct Message(JsString);

impl Message {
    pub fn new(text: &str) -> Message {
        Message(JsString::from(text))
    }
    pub fn add(self, text: &str) -> Message {
        Message(self.0.concat(&JsValue::from_str(text)))
    }
    /// Appends `[i]`.
    pub fn index(self, i: u32) -> Message {
        self.add("[").add_js(&JsValue::from(i)).add("]")
    }
    /// Appends a string of the caller's, exactly.
    pub fn add_js(self, value: &JsValue) -> Message {
        Message(self.0.concat(value))
    }
    pub fn error(self) -> JsValue {
        self.fault(Fault::Error, &JsValue::UNDEFINED)
    }
    pub fn type_error(self) -> JsValue {
        self.fault(Fault::TypeError, &JsValue::UNDEFINED)
    }
    pub fn type_error_caused(self, cause: &JsValue) -> JsValue {
        self.fault(Fault::TypeErrorCaused, cause)
    }
    pub fn range_error(self) -> JsValue {
        self.fault(Fault::RangeError, &JsValue::UNDEFINED)
    }
    pub fn range_error_caused(self, cause: &JsValue) -> JsValue {
        self.fault(Fault::RangeErrorCaused, cause)
    }
    pub fn error_caused(self, cause: &JsValue) -> JsValue {
        self.fault(Fault::ErrorCaused, cause)
    }
    fn fault(self, kind: wire::Fault, cause: &JsValue) -> JsValue {
        host::fault(kind as u32, &self.0, cause)
    }
}

/// The facts of a value the caller gave, for the core's rules ([`crate::given`]): its kind
/// in one crossing (`host.js` `kindOfValue`, a wire `Kind`), then a number's value or a
/// string's length.
pub(crate) fn given(value: &JsValue) -> Given {
    given_of(wire::Kind::of(host::kind_of_value(value)), value)
}

/// [`given`], the kind known already (`None`: not one of the kinds, read as a symbol).
pub(crate) fn given_of(kind: Option<wire::Kind>, value: &JsValue) -> Given {
    use wire::Kind;
    match kind.unwrap_or(Kind::Symbol) {
        Kind::Undefined => Given::Undefined,
        Kind::Null => Given::Null,
        Kind::Boolean => Given::Boolean,
        Kind::Number => Given::Number(value.as_f64().unwrap_or(f64::NAN)),
        Kind::String => Given::String(value.unchecked_ref::<JsString>().length() as usize),
        Kind::Function => Given::Function,
        Kind::Array => Given::Array,
        Kind::Object => Given::Object,
        Kind::BigInt => Given::BigInt,
        Kind::Symbol => Given::Symbol,
    }
}

/// `<where> must be <what>, got <what it is>`.
/// A number is shown too (`got number (-1)`).
pub(crate) fn must_be(place: Message, what: &str, value: &JsValue) -> JsValue {
    let given = given(value);
    let message = place.add(" must be ").add(what).add(", got ");
    match given {
        Given::Number(_) => message.add("number (").add_js(value).add(")"),
        _ => message.add(given.described()),
    }
    .type_error()
}

/// `<where> could not be read`, with what the read threw as the cause.
pub(crate) fn unreadable(place: Message, cause: &JsValue) -> JsValue {
    place.add(" could not be read").type_error_caused(cause)
}

/// Freezes an object the binding built itself (nothing of the caller's can object).
pub(crate) fn frozen<T: JsCast>(value: T) -> T {
    js_sys::Object::freeze(value.unchecked_ref::<js_sys::Object>());
    value
}
