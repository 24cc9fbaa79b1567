//! The single pass (games cut and tokenized together: `next_tokenized` of [`GameSplitter`] and
//! [`Reader`]) gives exactly what the reference gives: the games of [`GameSplitter`], each lexed
//! again with a [`Lexer`] of its own (tokens, spans and warnings), on every corpus file, on
//! PGN-flavoured and arbitrary bytes, and with tiny stream buffers; with the standard's rules
//! and with nested comments ([`LexOptions::nested_comments`]).

mod common;

use std::io::BufReader;

use pgnkit_lexer::{GameSplitter, LexOptions, LexWarning, Lexer, Reader, Span, TokenKind};
use proptest::prelude::*;

/// One game as both paths describe it: bytes, offset, line, column, tokens and warnings.
type Described = (
    Vec<u8>,
    u64,
    u64,
    u64,
    Vec<(TokenKind, Span)>,
    Vec<LexWarning>,
);

/// The reference: the splitter's games, each lexed on its own.
fn reference(input: &[u8], options: LexOptions) -> (Vec<Described>, u64) {
    let mut splitter = GameSplitter::new(input).with_options(options);
    let games = splitter
        .by_ref()
        .map(|g| {
            let mut lexer = Lexer::with_options(g.bytes, options);
            let tokens = lexer.by_ref().map(|t| (t.kind, t.span)).collect();
            let warnings = lexer.take_warnings();
            (
                g.bytes.to_vec(),
                g.offset,
                g.line,
                g.column,
                tokens,
                warnings,
            )
        })
        .collect();
    (games, splitter.skipped())
}

/// The single pass over the slice.
fn single_pass_slice(input: &[u8], options: LexOptions) -> (Vec<Described>, u64) {
    let mut splitter = GameSplitter::new(input).with_options(options);
    let mut games = Vec::new();
    while let Some(g) = splitter.next_tokenized() {
        // The tokens' texts are the game's bytes at their spans.
        for t in g.tokens {
            assert_eq!(t.token(g.raw.bytes).text, &g.raw.bytes[t.span.range()]);
        }
        games.push(describe(&g));
    }
    (games, splitter.skipped())
}

/// The single pass over a stream read `capacity` bytes at a time into a buffer that grows by
/// `chunk`.
fn single_pass_stream(
    input: &[u8],
    chunk: usize,
    capacity: usize,
    options: LexOptions,
) -> (Vec<Described>, u64) {
    let mut reader = Reader::with_chunk_size(BufReader::with_capacity(capacity, input), chunk);
    reader.set_options(options);
    let mut games = Vec::new();
    while let Some(g) = reader.next_tokenized().expect("reading from memory") {
        games.push(describe(&g));
    }
    (games, reader.skipped())
}

fn describe(g: &pgnkit_lexer::TokenizedGame<'_, '_>) -> Described {
    (
        g.raw.bytes.to_vec(),
        g.raw.offset,
        g.raw.line,
        g.raw.column,
        g.tokens.iter().map(|t| (t.kind, t.span)).collect(),
        g.warnings.to_vec(),
    )
}

/// Compares game by game, so that a failure names the first game that differs.
fn assert_same(name: &str, got: &(Vec<Described>, u64), expected: &(Vec<Described>, u64)) {
    for (i, (g, e)) in got.0.iter().zip(&expected.0).enumerate() {
        assert!(
            g == e,
            "{name}: game {i} differs\n got: {g:?}\nwant: {e:?}\ninput of the game: {:?}",
            String::from_utf8_lossy(&e.0)
        );
    }
    assert_eq!(got.0.len(), expected.0.len(), "{name}: number of games");
    assert_eq!(got.1, expected.1, "{name}: skipped bytes");
}

/// Nested comments on.
fn nested() -> LexOptions {
    let mut options = LexOptions::new();
    options.nested_comments = true;
    options
}

fn check(input: &[u8], chunk: usize, capacity: usize) {
    for options in [LexOptions::new(), nested()] {
        let expected = reference(input, options);
        assert_same(
            &format!("slice {options:?}"),
            &single_pass_slice(input, options),
            &expected,
        );
        assert_same(
            &format!("stream chunk {chunk} capacity {capacity} {options:?}"),
            &single_pass_stream(input, chunk, capacity, options),
            &expected,
        );
    }
}

#[test]
fn examples_agree() {
    for input in [
        "[Event \"a\"]\n\n1. e4 e5 1-0\n[Event \"b\"]\n\n1. d4 *\n",
        "\u{feff}\r\n[Event \"a\"]\r\n\r\n1. e4 {c\n} 1-0 {x} d4 *\n[Event \"b\"]\n[Event \"c\"]\n\n[Event \"c\"]\n1. e4 { open\n[Site \"s\"]\n\n½-½ e4",
        "[White \"\"Expert\"\"] {x\n\n[White \"y\"]\n} *",
        "1. e4 1-0 [Event \"b\"] *",
        "e4 1-0 {a} ; b\n[E \"x\"] *",
        "e4 1-0 {a} d4 *",
        "e4 1-0 {c}\n[Eve",
        "e4 1-0 {c}\n[Eve]",
        "e4 (d4 *) e5 *",
        "[A \"a\"]\n{c}\n\n[A \"b\"]\n*",
        "[E \"{\"]\ne4 ; {\n% {\ne5 *",
        "e4 0-0 0-1 0-0-0",
        "1-0.e4 *\n%x\n1-0%x",
        "[A \"a\tb\"]\n[B \"",
        "*\n\u{feff}[A \"b\"]\n*",
        "[A \"x\"] junk\n[A \"x\"]\n\n[A \"y\"]\n*",
        "1. e4 { a { b } [Event \"x\"] } e5 *\n[Event \"y\"]\n*",
        "[A \"x\"]\n{ a {\nb } c } 1. e4 { { } } *\n{ a {\n[Event \"y\"]\n*",
        "",
        " \n",
        "x",
    ] {
        for (chunk, capacity) in [(1, 1), (2, 3), (5, 1), (64, 7), (1 << 16, 1000)] {
            check(input.as_bytes(), chunk, capacity);
        }
    }
}

#[test]
fn every_corpus_file_agrees() {
    let dir = pgnkit_corpus::dir();
    let files = pgnkit_corpus::all_pgn_files();
    for path in &files {
        let name = path
            .strip_prefix(&dir)
            .unwrap_or(path)
            .display()
            .to_string();
        let data = std::fs::read(path).expect("readable corpus file");
        let expected = reference(&data, LexOptions::new());
        assert_same(
            &name,
            &single_pass_slice(&data, LexOptions::new()),
            &expected,
        );
        // Tiny buffers: the stream refills (and tokenizes a game again) often.
        let stream = single_pass_stream(&data, 61, 7, LexOptions::new());
        assert_same(&name, &stream, &expected);
    }
}

/// Pieces that exercise where games end more often than random bytes do.
const FRAGMENTS: &[&str] = &[
    "[Event \"",
    "[Event \"a\"]",
    "[Site \"x\"]",
    "[Site  \"x\" ]",
    "[Site\t\"x\"]x",
    "[1 \"x\"]",
    "[_a \"x\"]",
    "[Z0 \"x\"]",
    "[Ab-c \"x\"]",
    "[ A \"x\"]",
    "\n[Event \"a\"]\n",
    "\n[Event \"a\"] ",
    "\n\n",
    "\n \n",
    "\r\n",
    "\r",
    "\x0b",
    "\"",
    "\"\t\"",
    "\\\"",
    "{",
    "}",
    "{ c }",
    "{ a { b } c }",
    "{{",
    "}}",
    ";",
    "; c\n",
    "%",
    "\n%",
    "(",
    ")",
    "[",
    "]",
    "1-0",
    "0-1",
    "1/2-1/2",
    "*",
    "½-½",
    "\u{bd}",
    "\u{bd}-\u{bd}",
    "1–0",
    "1\u{96}0",
    "0:1",
    "0-0",
    "0-0-0",
    "O-O",
    "--",
    "Z0",
    "0000",
    "e.p.",
    "e",
    ".p.",
    "12.",
    "3...",
    "Nf3",
    "$1",
    "$",
    "!?",
    "!!!",
    " ",
    "\t",
    "\u{feff}",
    "é",
    "\u{1}",
    "+",
    "/",
];

fn pgnish() -> impl Strategy<Value = Vec<u8>> {
    common::pgnish(FRAGMENTS, 4)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    #[test]
    fn agrees_on_pgnish_bytes(input in pgnish(), chunk in 1usize..9, capacity in 1usize..9) {
        check(&input, chunk, capacity);
    }

    #[test]
    fn agrees_on_arbitrary_bytes(
        input in prop::collection::vec(any::<u8>(), 0..300),
        chunk in 1usize..9,
        capacity in 1usize..9,
    ) {
        check(&input, chunk, capacity);
    }
}
