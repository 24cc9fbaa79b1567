//! Diagnostics as people and programs read them.
//!
//! Text: `file:line:column: error: message`, then the offending line and a
//! caret under the column. JSON: one object per diagnostic.

use std::fmt::Write as _;
use std::io;

use pgnkit::Diagnostic;
use pgnkit::game::{Diagnostics, Encoding, GameStart, Severity, decode};

/// `file:line:column: severity: message`, the source line, and a caret.
pub fn text(file: &str, game: &GameStart<'_>, diagnostic: &Diagnostic) -> String {
    let mut out = format!("{file}:{diagnostic}\n");
    if let Some((line, first)) = source_line(game, diagnostic.start) {
        let line = decode(line, game.encoding());
        let line = line.trim_end_matches(['\r', '\n']);
        let _ = writeln!(out, "  {line}");
        // On the game's first line only the game's part of it is at hand
        // (a game may start after the previous one's marker): the caret
        // counts from where the game starts.
        let shown_from = if first { game.column } else { 1 };
        let column = diagnostic.column.saturating_sub(shown_from);
        let column = usize::try_from(column).unwrap_or(0);
        let pad: String = line
            .chars()
            .take(column)
            .map(|c| if c == '\t' { '\t' } else { ' ' })
            .collect();
        let _ = writeln!(out, "  {pad}^");
    }
    out
}

/// Writes every error of a game that will not be written, as [`text`],
/// then (unless its text is kept elsewhere) a line saying it was rejected.
pub fn report_errors(
    out: &mut impl io::Write,
    file: &str,
    game: &GameStart<'_>,
    diagnostics: &Diagnostics,
    say_rejected: bool,
) -> io::Result<()> {
    for d in diagnostics.errors() {
        out.write_all(text(file, game, d).as_bytes())?;
    }
    if say_rejected {
        writeln!(out, "{}", rejected(file, game))?;
    }
    Ok(())
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

/// The bytes of the line holding absolute offset `at`, if it is in `game`,
/// and whether they start at the game's first byte.
fn source_line<'a>(game: &GameStart<'a>, at: u64) -> Option<(&'a [u8], bool)> {
    let at = usize::try_from(at.checked_sub(game.offset)?).ok()?;
    let bytes = game.bytes;
    let at = at.min(bytes.len());
    let start = bytes[..at]
        .iter()
        .rposition(|&b| b == b'\n' || b == b'\r')
        .map_or(0, |i| i + 1);
    let end = bytes[at..]
        .iter()
        .position(|&b| b == b'\n' || b == b'\r')
        .map_or(bytes.len(), |i| at + i);
    Some((&bytes[start..end], start == 0))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(bytes: &[u8]) -> GameStart<'_> {
        GameStart {
            bytes,
            offset: 100,
            line: 7,
            column: 1,
        }
    }

    #[test]
    fn the_source_line_is_found_around_the_offset() {
        let g = game(b"[Event \"x\"]\r\n\r\n1. e4 Ke3 *\r\n");
        assert_eq!(
            source_line(&g, 100 + 19),
            Some((&b"1. e4 Ke3 *"[..], false))
        );
        assert_eq!(source_line(&g, 100), Some((&b"[Event \"x\"]"[..], true)));
        assert_eq!(source_line(&g, 99), None);
    }

    #[test]
    fn the_last_line_without_newline_is_found() {
        let g = game(b"1. e4 e5");
        assert_eq!(source_line(&g, 100 + 8), Some((&b"1. e4 e5"[..], true)));
    }
}
