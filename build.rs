// The module exports its stack pointer (a mutable global) so that the binding's one door
// (src/js/host.js `enter`) can put it back should an exception ever unwind through
// wasm frames (a stack overflow, memory running out), which skips their epilogues.
fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    if std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("wasm32") {
        println!("cargo:rustc-link-arg-cdylib=--export=__stack_pointer");
    }
}
