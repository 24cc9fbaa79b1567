//! Option objects from JavaScript (`{ strict: true }`, `{ width: 60, notation: 'uci' }`) as
//! library options. `undefined` or `null` means the defaults; an unknown key or a value of the
//! wrong type is a `TypeError`, a value out of range a `RangeError`.

use js_sys::{Object, Reflect};
use pgnkit_export::{ExportOptions, Notation};
use pgnkit_game::ReadOptions;
use wasm_bindgen::{JsCast, JsValue};

use crate::error::{range_error, type_error};
use crate::input::describe;

/// The keys of the options `value` (none for `undefined`/`null`), each checked against
/// `known`; `what` names the options in messages.
fn entries(value: &JsValue, what: &str, known: &[&str]) -> Result<Vec<(String, JsValue)>, JsValue> {
    if value.is_undefined() || value.is_null() {
        return Ok(Vec::new());
    }
    let Some(object) = value.dyn_ref::<Object>().filter(|_| value.is_object()) else {
        return Err(type_error(format!(
            "{what} must be an object, not {}",
            describe(value)
        )));
    };
    let mut out = Vec::new();
    for key in Object::keys(object).iter() {
        let name = key.as_string().unwrap_or_default();
        if !known.contains(&name.as_str()) {
            return Err(type_error(format!(
                "unknown option `{name}` in {what} (known: {})",
                known.join(", ")
            )));
        }
        let value = Reflect::get(object, &key)?;
        if !value.is_undefined() {
            out.push((name, value));
        }
    }
    Ok(out)
}

/// A boolean option's value.
fn boolean(name: &str, value: &JsValue) -> Result<bool, JsValue> {
    value.as_bool().ok_or_else(|| {
        type_error(format!(
            "option `{name}` must be a boolean, not {}",
            describe(value)
        ))
    })
}

/// Reading options: `{ strict, nestedComments, fixTagStrings }`, pgnkit-game's
/// [`ReadOptions`] (the command's `--strict`, `--nested-comments`, `--fix-tag-strings`).
pub fn read_options(value: &JsValue) -> Result<ReadOptions, JsValue> {
    const KNOWN: &[&str] = &["strict", "nestedComments", "fixTagStrings"];
    let mut options = ReadOptions::default();
    for (name, value) in entries(value, "the reading options", KNOWN)? {
        let on = boolean(&name, &value)?;
        match name.as_str() {
            "strict" => options.strict = on,
            "nestedComments" => options.nested_comments = on,
            _ => options.fix_tag_strings = on,
        }
    }
    Ok(options)
}

/// Export options, as the command's flags give them: `{ reduced, comments, nags, variations,
/// width, notation }` (`reduced` starts from the reduced export format; the others leave parts
/// out or change the layout).
pub fn export_options(value: &JsValue) -> Result<ExportOptions, JsValue> {
    const KNOWN: &[&str] = &[
        "reduced",
        "comments",
        "nags",
        "variations",
        "width",
        "notation",
    ];
    let entries = entries(value, "the export options", KNOWN)?;
    let reduced = match entries.iter().find(|(name, _)| name == "reduced") {
        Some((name, value)) => boolean(name, value)?,
        None => false,
    };
    let mut options = match reduced {
        true => ExportOptions::reduced(),
        false => ExportOptions::export(),
    };
    for (name, value) in &entries {
        match name.as_str() {
            "comments" => options.comments = options.comments && boolean(name, value)?,
            "nags" => options.nags = options.nags && boolean(name, value)?,
            "variations" => options.variations = options.variations && boolean(name, value)?,
            "width" => options.width = width(value)?,
            "notation" => options.notation = notation(value)?,
            _ => {}
        }
    }
    Ok(options)
}

/// The line width: a whole number from 1 to 65535 (the command's `--width` range).
fn width(value: &JsValue) -> Result<usize, JsValue> {
    let Some(number) = value.as_f64() else {
        return Err(type_error(format!(
            "option `width` must be a number, not {}",
            describe(value)
        )));
    };
    if number.fract() != 0.0 || !(1.0..=65535.0).contains(&number) {
        return Err(range_error(format!(
            "option `width` must be a whole number from 1 to 65535, not {number}"
        )));
    }
    Ok(number as usize)
}

/// The move notation: `san`, `lan`, `uci` or `fan`.
fn notation(value: &JsValue) -> Result<Notation, JsValue> {
    let Some(text) = value.as_string() else {
        return Err(type_error(format!(
            "option `notation` must be a string, not {}",
            describe(value)
        )));
    };
    match text.as_str() {
        "san" => Ok(Notation::San),
        "lan" => Ok(Notation::Lan),
        "uci" => Ok(Notation::Uci),
        "fan" => Ok(Notation::Fan),
        other => Err(range_error(format!(
            "option `notation` must be one of san, lan, uci, fan, not `{other}`"
        ))),
    }
}
