//! The wasm-bindgen binding, one file per area beside its JavaScript half (the facade,
//! `*.js`: it reads, waits and words every error). An export takes plain data, asks the
//! core and answers a typed decision, calling JavaScript only through an object it is given.

mod batch;
#[cfg(feature = "tool-index")]
mod index;
mod policies;
mod routing;
mod run;
mod wire;

use wasm_bindgen::prelude::*;

/// Room for 4,096 values in wasm-bindgen's reference table: within it, taking a slot calls
/// nothing while the table is borrowed, so a stack overflow cannot leave it borrowed.
#[wasm_bindgen(start)]
fn start() {
    let room: alloc::vec::Vec<JsValue> = (0..4096u32).map(JsValue::from).collect();
    drop(room);
}
