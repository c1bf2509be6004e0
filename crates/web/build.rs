//! The search recurses deeply with its move lists on the stack: natively its thread gets
//! `engine::threads::SEARCH_STACK_BYTES`. A WebAssembly module's stack is a region of its memory
//! fixed at link time, 1 MiB by default, so the browser build asks for a large one too.

/// Half the native search thread's stack. A module's stack overflow is not caught as a native
/// thread's is (by a guard page), so this errs on the large side: it costs only address space.
const WASM_STACK_BYTES: u64 = 32 << 20;

fn main() {
    let target = std::env::var("TARGET").unwrap_or_default();
    if target.starts_with("wasm32") {
        println!("cargo:rustc-link-arg-cdylib=-zstack-size={WASM_STACK_BYTES}");
    }
    println!("cargo:rerun-if-changed=build.rs");
}
