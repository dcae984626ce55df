//! The wasm-bindgen binding: converts and calls the core, nothing more.
//!
//! Nothing here calls back into JavaScript. A turn's names cross as UTF-16 code units
//! written straight into wasm memory (see `scratch`), answers come back as numbers, and
//! the policy seams run as plans the core compiled, by the package's JavaScript, which
//! runs the caller's functions itself.

mod palette;
mod policies;
mod scratch;

use wasm_bindgen::prelude::*;

/// The module's memory, for the package's JavaScript to write the boundary buffers.
#[wasm_bindgen]
pub fn wasm_memory() -> JsValue {
    wasm_bindgen::memory()
}
