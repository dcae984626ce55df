//! tool-palette: lazy tool routing and per-intent tool-call policies.
//!
//! `routing` and `policy` are the pure core: no wasm imports, tested natively.
//! `js` is the wasm-bindgen binding that converts JavaScript values and calls the core.
//!
//! On wasm32 the crate is `no_std` (with `alloc`): a panic handler that only traps keeps
//! the formatting machinery out of the shipped module. The core is written not to panic
//! (the fuzz target checks it); if it ever did, the call would trap with a
//! `RuntimeError`, which the package turns into an error, never a wrong answer.
#![cfg_attr(target_arch = "wasm32", no_std)]
#![forbid(unsafe_code)]

extern crate alloc;

pub mod names;
pub mod policy;
pub mod routing;

mod js;

#[cfg(target_arch = "wasm32")]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    core::arch::wasm32::unreachable()
}

// A two-level segregated-fit allocator: constant time, small code, coalesces freed
// memory (wasm memory stays flat over many turns: see the benchmark).
#[cfg(target_arch = "wasm32")]
#[global_allocator]
static ALLOCATOR: rlsf::GlobalTlsf = rlsf::GlobalTlsf::new();
