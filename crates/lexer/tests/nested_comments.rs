//! Nested comments ([`LexOptions::nested_comments`]): the lexer reads `{ a { b } c }` as one
//! comment, the splitter agrees with it (a tag pair inside a nested comment on the comment's
//! line starts no game), and the resynchronisation points, which know nothing of the option,
//! are still game starts for the splitter that nests.

mod common;

use pgnkit_lexer::{GameSplitter, LexErrorKind, LexOptions, Lexer, TokenKind, resync};
use proptest::prelude::*;

fn nested() -> LexOptions {
    let mut options = LexOptions::new();
    options.nested_comments = true;
    options
}

fn kinds(input: &[u8], options: LexOptions) -> Vec<(TokenKind, &[u8])> {
    Lexer::with_options(input, options)
        .map(|t| (t.kind, t.text))
        .collect()
}

#[test]
fn a_nested_comment_is_one_token() {
    let input = b"e4 { a { b { c } } d } e5";
    assert_eq!(
        kinds(input, nested()),
        [
            (TokenKind::Symbol, &b"e4"[..]),
            (TokenKind::BraceComment, b"{ a { b { c } } d }"),
            (TokenKind::Symbol, b"e5"),
        ]
    );
    // By the standard the first `}` ends it, and the rest is movetext.
    let plain = kinds(input, LexOptions::new());
    assert_eq!(plain[1], (TokenKind::BraceComment, &b"{ a { b { c }"[..]));
    // Without a `{` inside, both read the same.
    let input = b"e4 { a } { [%clk 0:10:00] } e5 {\n} *";
    assert_eq!(kinds(input, nested()), kinds(input, LexOptions::new()));
}

#[test]
fn an_unclosed_level_leaves_the_comment_unterminated() {
    // The last `}` closes the inner level only: the input ends inside the comment.
    let tokens = kinds(b"e4 { a { b } c", nested());
    assert_eq!(
        tokens[1],
        (
            TokenKind::Error(LexErrorKind::UnterminatedComment),
            &b"{ a { b } c"[..]
        )
    );
    // A line inside that starts like a tag pair ends it there, as it ends a plain comment.
    let input = b"e4 { a { b\n[Event \"x\"]\n*";
    let tokens = kinds(input, nested());
    assert_eq!(
        tokens[1],
        (
            TokenKind::Error(LexErrorKind::UnterminatedComment),
            &b"{ a { b\n"[..]
        )
    );
    assert_eq!(tokens[2].0, TokenKind::TagOpen);
}

#[test]
fn the_splitter_ends_games_where_the_lexer_ends_comments() {
    let input = b"1. e4 { a { b } [Event \"x\"] 1-0 } e5 *\n[Event \"y\"]\n\n1. d4 *\n";
    let games: Vec<_> = GameSplitter::new(input).with_options(nested()).collect();
    assert_eq!(games.len(), 2);
    assert_eq!(games[1].bytes, b"[Event \"y\"]\n\n1. d4 *\n");
    // By the standard the `1-0` after the first `}` ends the first game.
    let plain: Vec<_> = GameSplitter::new(input).collect();
    assert_eq!(plain.len(), 3);
    assert!(pgnkit_lexer::split::ends_at_with(
        input,
        games[0].bytes.len(),
        nested()
    ));
    assert!(!pgnkit_lexer::split::ends_at(input, games[0].bytes.len()));
}

#[test]
fn the_streaming_reader_splits_as_the_splitter() {
    let input = b"[Event \"a\"]\n\n1. e4 { a {\nb } c } e5 1-0\n[Event \"b\"]\n\n1. d4 {{}} *\n";
    let mut reader = pgnkit_lexer::Reader::with_chunk_size(&input[..], 3);
    reader.set_options(nested());
    assert_eq!(reader.options(), nested());
    let mut streamed = Vec::new();
    while let Some(game) = reader.next_game().expect("reading from memory") {
        streamed.push(game.bytes.to_vec());
    }
    let split: Vec<_> = GameSplitter::new(input)
        .with_options(nested())
        .map(|g| g.bytes.to_vec())
        .collect();
    assert_eq!(streamed, split);
    assert_eq!(split.len(), 2);
}

/// Pieces with braces and tag lines, often.
const FRAGMENTS: &[&str] = &[
    "{",
    "}",
    "{ a { b } c }",
    "{{",
    "}}",
    "\n[Event \"a\"]\n",
    "[Site \"x\"]",
    "\n",
    "\n\n",
    "\r",
    " ",
    "1-0",
    "*",
    "1. e4 ",
    "e5 ",
    ";",
    "\"",
    "(",
    ")",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    /// Every resynchronisation point (the range readers' rule) and every cut of the parallel
    /// reader that the nesting splitter confirms is a game start of the nesting splitter, as
    /// it is of the standard one.
    #[test]
    fn resync_points_are_game_starts_with_nesting(input in common::pgnish(FRAGMENTS, 6)) {
        for options in [LexOptions::new(), nested()] {
            let starts: Vec<usize> = GameSplitter::new(&input)
                .with_options(options)
                .map(|g| g.offset as usize)
                .collect();
            let mut from = 1;
            while let Ok(point) = resync::next_point(&input, from, true) {
                prop_assert!(
                    starts.contains(&point),
                    "point {} is no game start with {:?} in {:?}",
                    point,
                    options,
                    String::from_utf8_lossy(&input)
                );
                from = point + 1;
            }
        }
    }
}
