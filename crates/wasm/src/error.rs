//! Errors as JavaScript sees them.
//!
//! Bad PGN is never an exception: it comes back with its game as diagnostics. Bad arguments
//! (a value of the wrong type, an unknown option, a bad FEN, an illegal move) throw a
//! `TypeError` or a `RangeError` with a message. A Rust panic is a pgnkit bug: the module is
//! built with `panic = "abort"` (wasm32 has no unwinding on stable Rust, so `catch_unwind`
//! cannot catch anything), and the panic hook installed here throws a JavaScript `Error`
//! saying so before the abort is reached. The throw leaves the WebAssembly frames without
//! running their destructors: the module stays usable, at the cost of what those frames held
//! (and the object whose method panicked stays borrowed, so it throws on its next use).

use std::fmt::Display;

use js_sys::{RangeError, TypeError};
use wasm_bindgen::JsValue;

/// A `TypeError` with `message`: an argument of the wrong type or an unknown option.
pub fn type_error(message: impl Display) -> JsValue {
    TypeError::new(&message.to_string()).into()
}

/// A `RangeError` with `message`: an argument of the right type and a wrong value (a bad FEN,
/// an illegal move, a width of 0).
pub fn range_error(message: impl Display) -> JsValue {
    RangeError::new(&message.to_string()).into()
}

/// The message of the `Error` a panic becomes.
pub fn bug_message(panic: impl Display) -> String {
    format!(
        "pgnkit bug: the WebAssembly module panicked ({panic}); please report it with the input that caused it"
    )
}

/// Makes every later panic throw a JavaScript `Error` (see the module docs).
pub fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        // One line: the location, then the message.
        wasm_bindgen::throw_str(&bug_message(info.to_string().replace('\n', " ")));
    }));
}
