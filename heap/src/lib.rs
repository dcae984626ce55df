//! The heap of the tool-palette wasm module, and what a call that never returned leaves.
//!
//! A JavaScript stack can run out at any depth of a call into the module (a caller deep
//! in its own recursion). V8 then throws a RangeError at whatever call inside wasm hit
//! the limit, and unwinds the wasm frames without running anything of theirs: whatever
//! they allocated stays allocated, whatever they were updating stays half-done. Three
//! things here make that harmless, so that the module never needs restarting:
//!
//! - **The allocator cannot be caught half-way** ([`tlsf`]): each of its operations is
//!   one function with no call inside, so the RangeError strikes before or after it.
//! - **Every call's allocations are a group** ([`open`], [`close`]): the binding's door
//!   opens one per call into the module; a call that returns leaves it empty, a call that
//!   did not is rolled back by freeing the group whole.
//! - **Every instance's state is a record** ([`build`], [`with`], [`with_mut`],
//!   [`replace`], [`release`]): its memory is a group of its own, built aside and put in
//!   place by a few stores that no call separates, borrowed without a flag that an unwind
//!   could strand (the door's [`close`] gives back what an unfinished call borrowed), and
//!   freed whole. JavaScript numbers the records (slots), so that a handle is never lost
//!   between the module and the caller.
//!
//! Everything here is single-threaded (wasm32 without threads; natively, the tests run
//! one thread).

#![no_std]

extern crate alloc;

#[cfg(any(target_arch = "wasm32", feature = "global"))]
mod tlsf;

#[cfg(any(target_arch = "wasm32", feature = "global"))]
mod global;
#[cfg(any(target_arch = "wasm32", feature = "global"))]
pub use global::*;

#[cfg(not(any(target_arch = "wasm32", feature = "global")))]
mod plain;
#[cfg(not(any(target_arch = "wasm32", feature = "global")))]
pub use plain::*;
