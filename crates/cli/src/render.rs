//! Diagnostics as people and programs read them.
//!
//! Text: `file:line:column: error: message`, then the offending line (a window of it, control
//! characters escaped: [`Diagnostic::render`]) and a caret under the column. JSON: one object
//! per diagnostic.

use pgnkit::Diagnostic;
use pgnkit::game::render::push_escaped;
use pgnkit::game::{Diagnostics, Encoding, GameStart, Severity};

/// `file:line:column: severity: message`, the source line, and a caret.
pub fn text(file: &str, game: &GameStart<'_>, diagnostic: &Diagnostic) -> String {
    let mut out = escaped(file);
    out.push(':');
    out.push_str(&diagnostic.render(game));
    out
}

/// Every error of a game that will not be written, as [`text`], then (unless its text is kept
/// elsewhere) a line saying it was rejected.
pub fn errors(file: &str, game: &GameStart<'_>, diagnostics: &Diagnostics, kept: bool) -> String {
    let mut out = String::new();
    for d in diagnostics.errors() {
        out.push_str(&text(file, game, d));
    }
    if !kept {
        out.push_str(&rejected(file, game));
        out.push('\n');
    }
    out
}

/// A file name as given, with anything a terminal would act on escaped.
fn escaped(file: &str) -> String {
    let mut out = String::new();
    push_escaped(&mut out, file);
    out
}

/// One JSON object (one line) for a diagnostic.
pub fn json(file: &str, diagnostic: &Diagnostic) -> String {
    let severity = match diagnostic.severity {
        Severity::Error => "error",
        _ => "warning",
    };
    serde_json::json!({
        "file": file,
        "line": diagnostic.line,
        "column": diagnostic.column,
        "offset": diagnostic.start,
        "severity": severity,
        "message": diagnostic.message(),
        "move": diagnostic.move_text,
        "fen": diagnostic.fen,
    })
    .to_string()
}

/// A summary of a game that was not written, for stderr.
fn rejected(file: &str, game: &GameStart<'_>) -> String {
    let file = escaped(file);
    if game.bytes.is_empty() {
        // Skipped for its size: its bytes were never held.
        return format!(
            "{file}:{}: game rejected: over the --max-game-bytes limit, not kept",
            game.line
        );
    }
    let encoding = match game.encoding() {
        Encoding::Latin1 => " (Latin-1)",
        _ => "",
    };
    format!(
        "{file}:{}: game rejected{encoding}: {} bytes not written",
        game.line,
        game.bytes.len()
    )
}
