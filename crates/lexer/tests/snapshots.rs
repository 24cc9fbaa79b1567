//! Token-stream snapshots of the fixtures in `tests/fixtures`: every game the splitter finds,
//! then one line per token (`kind start..end text`) and the lexer's warnings.

use std::fmt::Write as _;

use pgnkit_lexer::{GameSplitter, Lexer, TokenKind};

/// The bytes as readable text: UTF-8 as is, control characters and (in Latin-1 input) bytes
/// of 0x80 and above escaped.
fn show(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(s) => s
            .chars()
            .flat_map(|c| {
                if c.is_control() {
                    c.escape_default().collect()
                } else {
                    vec![c]
                }
            })
            .collect(),
        Err(_) => bytes
            .iter()
            .map(|&b| {
                if b >= 0x80 || b.is_ascii_control() {
                    format!("\\x{b:02x}")
                } else {
                    char::from(b).to_string()
                }
            })
            .collect(),
    }
}

fn dump(input: &[u8]) -> String {
    let mut out = String::new();
    let mut splitter = GameSplitter::new(input);
    for (n, game) in splitter.by_ref().enumerate() {
        let _ = writeln!(
            out,
            "game {} offset {} line {} bytes {}",
            n + 1,
            game.offset,
            game.line,
            game.bytes.len()
        );
        let mut lexer = Lexer::new(game.bytes);
        for token in lexer.by_ref() {
            let kind = match token.kind {
                TokenKind::Suffix(s) => format!("suffix:{}", s.nag()),
                TokenKind::Termination(o) => format!("termination:{o}"),
                k => k.name().to_owned(),
            };
            let _ = writeln!(
                out,
                "  {kind} {}..{} {}",
                token.span.start,
                token.span.end,
                show(token.text)
            );
        }
        for w in lexer.warnings() {
            let _ = writeln!(out, "  warning: {w}");
        }
    }
    let _ = writeln!(out, "skipped {}", splitter.skipped());
    out
}

fn fixture(name: &str) -> Vec<u8> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

macro_rules! snapshot_tests {
    ($($test:ident => $file:literal,)*) => {$(
        #[test]
        fn $test() {
            insta::assert_snapshot!(stringify!($test), dump(&fixture($file)));
        }
    )*};
}

snapshot_tests! {
    basic => "basic.pgn",
    lenient => "lenient.pgn",
    results => "results.pgn",
    errors => "errors.pgn",
    splitting => "splitting.pgn",
    encodings => "encodings.pgn",
}
