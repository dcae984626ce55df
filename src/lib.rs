//! tool-palette: lazy tool routing and per-intent tool-call policies.
//!
//! `routing` and `policy` are the pure core: no wasm imports, tested natively.
//! `js` is the wasm-bindgen binding that converts JavaScript values and calls the core.

pub mod names;
pub mod policy;
pub mod routing;

mod js;
