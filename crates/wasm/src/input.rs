//! PGN text as JavaScript hands it over: a string (read as UTF-8) or a `Uint8Array` (a Node
//! `Buffer` too: bytes as stored, so Latin-1 files read as the command reads them).

use js_sys::Uint8Array;
use wasm_bindgen::{JsCast, JsValue};

use crate::error::type_error;

/// The bytes of `value`, a string or a `Uint8Array`; `what` names it in the `TypeError`.
pub fn bytes(value: &JsValue, what: &str) -> Result<Vec<u8>, JsValue> {
    if let Some(text) = value.as_string() {
        return Ok(text.into_bytes());
    }
    if let Some(array) = value.dyn_ref::<Uint8Array>() {
        return Ok(array.to_vec());
    }
    Err(type_error(format!(
        "{what} must be a string or a Uint8Array, not {}",
        describe(value)
    )))
}

/// The string of `value`, or a `TypeError` naming `what`.
pub fn string(value: &JsValue, what: &str) -> Result<String, JsValue> {
    value
        .as_string()
        .ok_or_else(|| type_error(format!("{what} must be a string, not {}", describe(value))))
}

/// What a value is, for messages: its `typeof`, or `null`.
pub fn describe(value: &JsValue) -> String {
    if value.is_null() {
        return "null".to_owned();
    }
    value.js_typeof().as_string().unwrap_or_default()
}
