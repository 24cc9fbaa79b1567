//! Diagnostics as people read them: `line:column: severity: message`, then the source line
//! around the fault and a caret under it.
//!
//! What reaches a terminal is safe whatever the input: a long line is cut to a window of
//! [`WINDOW`] columns around the fault (`...` marks each cut, as rustc and ripgrep's
//! `--max-columns` do), and control characters, Unicode's bidirectional overrides and
//! invalid bytes are shown escaped (`\x1b`, `\u{202e}`), never sent raw.

use std::fmt::Write as _;

use crate::diagnostic::Diagnostic;
use crate::{Encoding, GameStart};

/// The most characters of a source line shown (plus the `...` marks).
pub const WINDOW: usize = 120;

/// Columns kept before the fault when a line is cut on the left.
const BEFORE: usize = WINDOW / 2;

impl Diagnostic {
    /// The diagnostic with its source line from `game` (the game it was found in): its
    /// [`Display`](std::fmt::Display) line, then the line of the fault, windowed and escaped,
    /// then a caret under the fault. Each line ends with `\n`; the source lines are indented by
    /// two spaces. A tool prefixes the file name (`file:` + this).
    ///
    /// `game` is the read game's [`ReadGame::start`](crate::ReadGame::start) (its bytes, and
    /// where they start: a game may start in the middle of a line), or the [`GameStart`] a
    /// [`Visitor`](crate::Visitor) was given; [`ReadGame::render`](crate::ReadGame::render)
    /// does both steps.
    ///
    /// ```
    /// use pgnkit_game::read_games;
    /// let pgn = b"[Event \"x\"]\n\n1. e4 e5 2. Ke3 *\n";
    /// let game = read_games(pgn).next().unwrap();
    /// let error = game.diagnostics.iter().next().unwrap();
    /// assert_eq!(
    ///     error.render(&game.start()),
    ///     "3:13: error: illegal move `Ke3` in rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2\n  1. e4 e5 2. Ke3 *\n              ^\n"
    /// );
    /// ```
    pub fn render(&self, game: &GameStart<'_>) -> String {
        let mut out = String::new();
        push_escaped(&mut out, &self.to_string());
        out.push('\n');
        if let Some((line, first)) = source_line(game, self.start) {
            // On the game's first line only the game's part of it is at hand (a game may start
            // after the previous one's marker): columns count from where the game starts.
            let shown_from = if first { game.column } else { 1 };
            let column = self.column.saturating_sub(shown_from);
            let column = usize::try_from(column).unwrap_or(usize::MAX);
            let (text, caret) = window(line, game.encoding(), column);
            let _ = writeln!(out, "  {text}");
            let _ = writeln!(out, "  {caret}^");
        }
        out
    }
}

/// Appends `text` with every character a terminal would act on escaped.
pub fn push_escaped(out: &mut String, text: &str) {
    for c in text.chars() {
        push_char(out, c);
    }
}

/// Appends `c`, escaped when it is a control character (TAB excepted) or a bidirectional
/// override; returns how many columns it takes.
fn push_char(out: &mut String, c: char) -> usize {
    if c == '\t' || !needs_escape(c) {
        out.push(c);
        return 1;
    }
    let before = out.len();
    if u32::from(c) < 0x100 {
        let _ = write!(out, "\\x{:02x}", u32::from(c));
    } else {
        let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
    }
    out.len() - before
}

/// Control characters (C0, DEL, C1) and the characters that reorder text on screen.
fn needs_escape(c: char) -> bool {
    c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// The characters of a line's bytes, without copying the line (it may be long).
fn chars(line: &[u8], encoding: Encoding) -> Box<dyn Iterator<Item = char> + '_> {
    match (encoding, std::str::from_utf8(line)) {
        (Encoding::Utf8, Ok(text)) => Box::new(text.chars()),
        // A Latin-1 game, or (for a UTF-8 game, never) invalid bytes: one character a byte.
        _ => Box::new(line.iter().map(|&b| char::from(b))),
    }
}

/// The shown part of `line` (escaped, with `...` where cut) and the padding that puts a caret
/// under character `column` (0-based) of the line.
fn window(line: &[u8], encoding: Encoding, column: usize) -> (String, String) {
    let first = if column < WINDOW - 20 {
        0
    } else {
        column - BEFORE
    };
    let mut text = String::new();
    let mut pad = String::new();
    if first > 0 {
        text.push_str("...");
        pad.push_str("   ");
    }
    let mut cut_right = false;
    for (i, c) in chars(line, encoding).enumerate().skip(first) {
        if i == first + WINDOW {
            cut_right = true;
            break;
        }
        let c = if c == '\r' || c == '\n' { ' ' } else { c };
        let width = push_char(&mut text, c);
        if i < column {
            if c == '\t' {
                pad.push('\t');
            } else {
                pad.extend(std::iter::repeat_n(' ', width));
            }
        }
    }
    if cut_right {
        text.push_str("...");
    }
    (text, pad)
}

/// The bytes of the line holding absolute offset `at`, if it is in `game`, and whether they
/// start at the game's first byte.
fn source_line<'a>(game: &GameStart<'a>, at: u64) -> Option<(&'a [u8], bool)> {
    let at = usize::try_from(at.checked_sub(game.offset)?).ok()?;
    let bytes = game.bytes;
    if bytes.is_empty() {
        return None;
    }
    let at = at.min(bytes.len());
    let start = memchr::memrchr2(b'\n', b'\r', bytes.get(..at)?).map_or(0, |i| i + 1);
    let rest = bytes.get(at..)?;
    let end = memchr::memchr2(b'\n', b'\r', rest).map_or(bytes.len(), |i| at + i);
    Some((bytes.get(start..end)?, start == 0))
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
        assert_eq!(source_line(&game(b""), 100), None);
    }

    #[test]
    fn the_last_line_without_newline_is_found() {
        let g = game(b"1. e4 e5");
        assert_eq!(source_line(&g, 100 + 8), Some((&b"1. e4 e5"[..], true)));
    }

    #[test]
    fn control_characters_and_overrides_are_escaped() {
        let line = "1. e4 {\u{1b}[2J\u{7}\u{202e}x} Ke3\t*".as_bytes();
        let (text, pad) = window(line, Encoding::Utf8, 16);
        assert_eq!(text, "1. e4 {\\x1b[2J\\x07\\u{202e}x} Ke3\t*");
        // The caret stands under `Ke3`'s `K` however wide the escapes before it are.
        assert_eq!(text.find("Ke3"), Some(pad.len()));
        // A Latin-1 game's C1 bytes are control characters too.
        let (text, _) = window(b"\x9b31m \xe9", Encoding::Latin1, 0);
        assert_eq!(text, "\\x9b31m \u{e9}");
    }

    #[test]
    fn a_long_line_shows_a_window_around_the_fault() {
        let line = format!("{}Ke3{}", "e4 ".repeat(10_000), " e5".repeat(10_000));
        let (text, pad) = window(line.as_bytes(), Encoding::Utf8, 30_000);
        assert!(text.starts_with("...") && text.ends_with("..."), "{text}");
        assert_eq!(text.chars().count(), WINDOW + 6);
        assert_eq!(text.get(pad.len()..pad.len() + 3), Some("Ke3"));
        // A short line is shown whole; a fault near the start of a long line cuts the right.
        let (text, pad) = window(b"1. e4 Ke3 *", Encoding::Utf8, 6);
        assert_eq!((text.as_str(), pad.len()), ("1. e4 Ke3 *", 6));
        let (text, _) = window(line.as_bytes(), Encoding::Utf8, 3);
        assert!(!text.starts_with("...") && text.ends_with("..."));
    }

    /// The rendered source line and caret of the first error of each game of `input`.
    fn carets(input: &[u8]) -> Vec<String> {
        crate::read_games(input)
            .filter_map(|read| {
                let error = read.diagnostics.errors().next()?;
                let shown = read.render(error);
                Some(shown.split_once('\n')?.1.to_owned())
            })
            .collect()
    }

    #[test]
    fn games_that_start_mid_line_get_the_caret_under_the_fault() {
        // The issue's case: the second game starts on column 12.
        assert_eq!(
            carets(b"1. e4 e5 * 1. d4 Ke7 *"),
            ["  1. d4 Ke7 *\n        ^\n"]
        );
        // A broken first game (its bytes run to the next game), then one starting mid-line
        // whose fault is on its first line.
        assert_eq!(
            carets(b"1. e4 Ke3 * 1. d4 d5 2. Kd3 *\n"),
            [
                "  1. e4 Ke3 * \n        ^\n",
                "  1. d4 d5 2. Kd3 *\n              ^\n"
            ]
        );
        // A game starting mid-line whose fault is on a later line: the whole line is shown.
        assert_eq!(
            carets(b"1. e4 e5 * [Event \"x\"]\n1. d4 Ke7 *\n"),
            ["  1. d4 Ke7 *\n        ^\n"]
        );
        // Wide characters before the game: columns count characters, not bytes.
        assert_eq!(
            carets("{é ü} 1. e4 e5 * 1. Kf3 *".as_bytes()),
            ["  1. Kf3 *\n     ^\n"]
        );
        // A fault on a game's first line after a tag on it (the line begins in the game).
        assert_eq!(
            carets(b"* [White \"a\"] 1. e4 Ke3 *"),
            ["  [White \"a\"] 1. e4 Ke3 *\n                    ^\n"]
        );
    }

    #[test]
    fn render_escapes_the_message_and_shows_the_line() {
        let bytes = b"[Event \"x\"]\n\n1. e4 {\x1b[31m} Ke3 *\n";
        let game = GameStart {
            bytes,
            offset: 0,
            line: 1,
            column: 1,
        };
        let read = crate::read_games(bytes).next().expect("a game");
        let error = read.diagnostics.errors().next().expect("an error");
        let shown = error.render(&game);
        assert!(!shown.contains('\u{1b}'), "{shown:?}");
        assert!(shown.contains("  1. e4 {\\x1b[31m} Ke3 *\n"), "{shown}");
        assert!(shown.ends_with("                   ^\n"), "{shown:?}");
    }
}
