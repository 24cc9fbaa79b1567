//! Checks and input strategies shared by the integration tests.

// Each test file uses its own part of this module.
#![allow(dead_code)]

use pgnkit_lexer::{GameSplitter, Lexer, TokenKind};
use proptest::prelude::*;

/// PGN-flavoured bytes: up to 60 pieces, each one of `fragments` (chosen `weight` times as
/// often as the other two kinds), one arbitrary byte, or a short run of SAN characters.
pub fn pgnish(fragments: &'static [&'static str], weight: u32) -> impl Strategy<Value = Vec<u8>> {
    let piece = prop_oneof![
        weight => prop::sample::select(fragments).prop_map(|s| s.as_bytes().to_vec()),
        1 => any::<u8>().prop_map(|b| vec![b]),
        1 => "[a-h1-8NBRQKOx+#=. ]{1,6}".prop_map(String::into_bytes),
    ];
    prop::collection::vec(piece, 0..60).prop_map(|v| v.concat())
}

/// Where a tag pair of the tag section is, as the splitter reads it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Tag {
    None,
    Open,
    Name,
    Value,
    Closed,
    RestOfLine,
}

/// The splitter and the lexer agree on termination markers: within a game, after a marker
/// outside variations only comments, escape lines and `%` signs that are not in the first
/// column (which start no game: read alone, a game's first byte is in the first column) follow.
pub fn check_markers_end_games(input: &[u8]) {
    for game in GameSplitter::new(input) {
        let mut depth = 0u32;
        let mut ended = None;
        // In the tag section the splitter reads tag pairs as `[`, a name, a string and `]`
        // separated by spaces; a malformed pair takes the rest of its line. Markers there do not
        // count, so follow the same reading here.
        let mut tag = Tag::None;
        let mut movetext = false;
        let mut last_end = 0;
        for token in Lexer::new(game.bytes) {
            let gap = &game.bytes[last_end..token.span.start];
            last_end = token.span.end;
            if gap.iter().any(|&b| b == b'\n' || b == b'\r') {
                tag = Tag::None;
            } else if tag != Tag::None && gap.iter().any(|&b| b != b' ' && b != b'\t') {
                tag = Tag::RestOfLine;
            }
            let name = token
                .text
                .iter()
                .all(|&b| b.is_ascii_alphanumeric() || b == b'_');
            tag = match (tag, token.kind) {
                (Tag::None, _) => Tag::None,
                (Tag::RestOfLine, _) => Tag::RestOfLine,
                (Tag::Open | Tag::Name | Tag::Value, TokenKind::TagClose) => Tag::Closed,
                (Tag::Open, TokenKind::Symbol) if name => Tag::Name,
                (Tag::Open | Tag::Name, TokenKind::String) => Tag::Value,
                _ => Tag::RestOfLine,
            };
            if tag == Tag::Closed {
                tag = Tag::None;
                continue;
            }
            if tag != Tag::None {
                continue;
            }
            if let Some(at) = ended {
                // An input that ends in what may be a cut tag pair (`1-0 [Eve`) keeps it.
                let rest = &game.bytes[token.span.start..];
                let at_end = game.offset as usize + game.bytes.len() == input.len();
                if token.kind == TokenKind::TagOpen
                    && at_end
                    && rest[1..]
                        .iter()
                        .all(|&b| b.is_ascii_alphanumeric() || b == b'_' || b == b' ' || b == b'\t')
                {
                    break;
                }
                assert!(
                    matches!(
                        token.kind,
                        TokenKind::BraceComment
                            | TokenKind::LineComment
                            | TokenKind::Escape
                            | TokenKind::Error(pgnkit_lexer::LexErrorKind::UnterminatedComment)
                    ) || (token.kind
                        == TokenKind::Error(pgnkit_lexer::LexErrorKind::UnexpectedCharacter)
                        && token.text == b"%"),
                    "{:?} after the marker at {at} in game {:?}",
                    token,
                    String::from_utf8_lossy(game.bytes)
                );
                continue;
            }
            if !movetext {
                match token.kind {
                    TokenKind::TagOpen => {
                        tag = Tag::Open;
                        continue;
                    }
                    TokenKind::TagClose
                    | TokenKind::String
                    | TokenKind::Error(pgnkit_lexer::LexErrorKind::UnterminatedString)
                    // Control characters stay in the tag section (a stray NUL before `[Event`).
                    | TokenKind::Error(pgnkit_lexer::LexErrorKind::ControlCharacter)
                    | TokenKind::BraceComment
                    | TokenKind::LineComment
                    | TokenKind::Escape => continue,
                    _ => movetext = true,
                }
            }
            match token.kind {
                TokenKind::VariationOpen => depth += 1,
                TokenKind::VariationClose => depth = depth.saturating_sub(1),
                TokenKind::Termination(_) if depth == 0 => ended = Some(token.span.start),
                _ => {}
            }
        }
    }
}
