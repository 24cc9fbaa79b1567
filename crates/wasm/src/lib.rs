//! pgnkit in JavaScript: the WebAssembly bindings behind the `pgnkit` npm package.
//!
//! A thin front-end, like the command and the Python package: each function turns JavaScript
//! arguments into library options, makes one call into the library crates (`pgnkit-game`'s
//! reader and model, `pgnkit-export`'s writer, `pgnkit-chess`'s positions) and turns the
//! answer into JavaScript values. No reading, splitting or export rule lives here.
//!
//! - [`reading`]: `parsePgn`, `check` and the streaming `PgnReader`.
//! - [`game`]: a read game (`headers`, `moves()`, `errors`, `toPgn()`, `toJSON()`).
//! - [`position`]: `Position` (FEN, legal moves, SAN, UCI, EPD).
//! - [`error`]: bad arguments as `TypeError`/`RangeError`, and a Rust panic as a JavaScript
//!   `Error` that names it a pgnkit bug.
//!
//! The package is built by `cargo xtask wasm` and tested from Node (`crates/wasm/tests`).

pub mod error;
pub mod game;
mod input;
mod options;
pub mod position;
pub mod reading;

use wasm_bindgen::prelude::wasm_bindgen;

/// Runs once when the module is instantiated: installs the panic hook.
#[wasm_bindgen(start)]
pub fn start() {
    error::install_panic_hook();
}

/// The version of the package (the workspace's version).
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_owned()
}

/// Panics on purpose: the Node tests check that a panic becomes a JavaScript `Error` naming a
/// pgnkit bug and that the module keeps working. Not part of the API (no TypeScript type).
#[doc(hidden)]
#[wasm_bindgen(js_name = __panicForTests, skip_typescript)]
pub fn panic_for_tests() {
    panic!("a panic asked for by the tests");
}

/// The size of the module's memory in bytes (it grows and never shrinks: its high-water mark):
/// the Node tests check that `PgnReader` reads a long stream in constant memory. Not part of
/// the API (no TypeScript type).
#[doc(hidden)]
#[wasm_bindgen(js_name = __memoryBytesForTests, skip_typescript)]
pub fn memory_bytes_for_tests() -> f64 {
    #[cfg(target_arch = "wasm32")]
    let pages = core::arch::wasm32::memory_size(0);
    #[cfg(not(target_arch = "wasm32"))]
    let pages = 0usize;
    (pages * 65536) as f64
}
