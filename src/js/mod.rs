//! The wasm-bindgen binding, one file per area (routing, policies, run, index) beside its
//! JavaScript half (`*.js`, the facade). JavaScript reads the caller's values once each,
//! waits, and words every error; an export here takes what it read as plain data (names
//! through the batch, numbers, wasm-bindgen enums), asks the core, and answers a typed
//! decision. The module calls JavaScript only through methods of an object the facade
//! handed in: to ask the caller's code where the SPEC makes it part of a rule (a seam's
//! predicates and transforms) and to hand over an answer in one call.

mod batch;
#[cfg(feature = "tool-index")]
mod index;
mod policies;
mod routing;
mod run;
mod wire;

use wasm_bindgen::prelude::*;

/// Gives wasm-bindgen's reference table room for 4,096 values at once: within it, taking
/// and releasing a slot calls nothing while the table's bookkeeping is borrowed, so a
/// stack overflow cannot strike there and leave it borrowed for good.
#[wasm_bindgen(start)]
fn start() {
    let room: alloc::vec::Vec<JsValue> = (0..4096u32).map(JsValue::from).collect();
    drop(room);
}
