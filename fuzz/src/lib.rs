//! Checks shared by the pgnkit fuzz targets (the targets themselves are in
//! `fuzz_targets/`, one file each, as `cargo xtask fuzz` expects).

use pgnkit::export::{ExportOptions, GameWriter};
use pgnkit::game::Game;
use pgnkit::lexer::{LexOptions, Lexer};

/// Lexes `input` and checks every token: its span lies inside `input`,
/// tokens come in order without overlap, its text is the bytes its span
/// names, and every accessor answers without panicking. Warnings' spans lie
/// inside `input` too. `options`: the lexer's (nested comments or not).
pub fn check_tokens(input: &[u8], options: LexOptions) {
    let mut lexer = Lexer::with_options(input, options);
    let mut last_end = 0;
    for token in lexer.by_ref() {
        let span = token.span;
        assert!(
            span.start < span.end,
            "empty token {:?} at {}",
            token.kind,
            span.start
        );
        assert!(span.end <= input.len(), "token past the input: {span:?}");
        assert!(
            span.start >= last_end,
            "tokens overlap or go back: {span:?}"
        );
        assert_eq!(token.text, &input[span.start..span.end]);
        last_end = span.end;
        let _ = token.string_value();
        let _ = token.comment_text();
        let _ = token.nag();
        let _ = token.integer();
        if let Some(error) = token.error() {
            assert_eq!(error.span, span);
            let _ = error.to_string();
        }
    }
    for warning in lexer.warnings() {
        assert!(warning.span.start <= warning.span.end && warning.span.end <= input.len());
    }
}

/// `game` in export format.
pub fn export(writer: &mut GameWriter, game: &Game) -> Vec<u8> {
    let mut out = Vec::new();
    writer.write(game, &mut out).expect("writing to a Vec");
    out
}

/// The export writer with the default (export format) options.
pub fn export_writer() -> GameWriter {
    GameWriter::new(ExportOptions::export())
}

pub mod inputs;
