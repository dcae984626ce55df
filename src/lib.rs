//! tool-palette: lazy tool routing and per-intent tool-call policies.
//!
//! The pure core, with no wasm imports and tested natively: [`names`] (names as JavaScript
//! strings), [`routing`] (SPEC sections 2, 3 and 5), [`policy`] (section 4) and [`search`]
//! (section 6, the ranking behind `ToolIndex`).
//! `js` is the wasm-bindgen binding: it converts JavaScript values, calls the caller's
//! functions for the core, and builds the results; it decides nothing.
#![forbid(unsafe_code)]

extern crate alloc;

pub mod names;
pub mod policy;
pub mod routing;
pub mod run;
#[cfg(feature = "tool-index")]
pub mod search;
#[cfg(feature = "skills")]
pub mod skills;

mod js;

// The module's heap (heap/): a two-level segregated-fit allocator (constant time, freed
// memory coalesced, so wasm memory stays flat over many turns) whose operations a stack
// overflow cannot catch half-way, with the groups that roll back a call cut short.
#[cfg(target_arch = "wasm32")]
#[global_allocator]
static ALLOCATOR: tool_palette_heap::Allocator = tool_palette_heap::Allocator;
