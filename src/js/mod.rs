//! The wasm-bindgen binding: converts batches of code units and numbers, calls the core.
//!
//! Nothing here calls back into JavaScript. Names cross as UTF-16 code units (one copy
//! per batch), outcomes come back as one `Uint32Array`, and the policy seams are driven
//! step by step by the package's JavaScript, which runs the caller's functions itself.

mod palette;
mod policies;
