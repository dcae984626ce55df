//! The wasm-bindgen binding, one file per area beside its JavaScript half (the facade,
//! `*.js`: it reads, waits and words every error). An export takes plain data, asks the
//! core and answers a typed decision; it calls JavaScript only through `calls.js`, whose
//! functions hand each answer to the receiver the facade set for the call.
//!
//! Nothing the module keeps can be stranded by a call that never returns (the JavaScript
//! stack running out at any depth inside it): an instance's state is a record of the heap
//! (`tool_palette_heap`), numbered by the facade, built aside and put in place at once and
//! borrowed without a flag of wasm-bindgen's; no export takes a JavaScript object (whose
//! borrowed slot an unwind would keep); and the door opens a heap call around each public
//! call ([`open`], [`close`]) so that whatever a call cut short allocated is freed.

mod batch;
#[cfg(feature = "tool-index")]
mod index;
mod policies;
mod routing;
mod run;
#[cfg(feature = "skills")]
mod skills;
mod wire;

use wasm_bindgen::prelude::*;

/// wasm-bindgen's table of the JavaScript values the module holds (a stream's read in a
/// load) keeps its free slots in a buffer of its own, made when first needed: made here,
/// at start, outside any call, its memory is the module's for good (made inside a call, it
/// would go with that call's memory). Room for 4,096 values: within it, taking a slot
/// allocates nothing.
#[wasm_bindgen(start)]
fn start() {
    let room: alloc::vec::Vec<JsValue> = (0..4096u32).map(JsValue::from).collect();
    drop(room);
}

/// A public call begins (host.js `enter`): the depth of calls before it, the mark to close
/// it with. `outermost`: no call is in progress in JavaScript, so one that never returned
/// is rolled back first.
#[wasm_bindgen]
pub fn open(outermost: bool) -> u32 {
    tool_palette_heap::open(outermost)
}

/// The call opened at `mark` ends; `aborted`: it threw (whatever it allocated is freed,
/// what it borrowed given back).
#[wasm_bindgen]
pub fn close(mark: u32, aborted: bool) {
    tool_palette_heap::close(mark, aborted)
}

/// The blocks the module's heap has in use (the tests watch them stay flat; the bytes:
/// `used_bytes`).
#[wasm_bindgen]
pub fn used() -> u32 {
    tool_palette_heap::used().0
}

/// The bytes the module's heap has in use (the bench).
#[wasm_bindgen]
pub fn used_bytes() -> u32 {
    tool_palette_heap::used().1
}

/// Frees the instance in `slot` (at once, or once the calls that borrow it are done).
#[wasm_bindgen]
pub fn release(slot: u32) {
    tool_palette_heap::release(slot)
}
