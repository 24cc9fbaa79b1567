//! Property tests over arbitrary and PGN-flavoured bytes: nothing panics, spans stay inside the
//! input, tokens cover every byte that is not white space, in order, and the splitters are
//! lossless and agree with each other.

use std::io::BufReader;

use pgnkit_lexer::{GameSplitter, Lexer, LineIndex, Reader, tags};
use proptest::prelude::*;

mod common;
use common::check_markers_end_games;

/// Pieces that exercise the interesting rules more often than random bytes do.
const FRAGMENTS: &[&str] = &[
    "[Event \"",
    "[Site \"x\"]",
    "\n[Event \"a\"]\n",
    "\n\n",
    "\r\n",
    "\r",
    "\"",
    "\\\"",
    "\\\\",
    "{",
    "}",
    "{ c }",
    ";",
    "%",
    "\n%",
    "(",
    ")",
    "[",
    "]",
    "<",
    ">",
    "1-0",
    "0-1",
    "1/2-1/2",
    "*",
    "½-½",
    "\u{bd}",
    "1–0",
    "0:1",
    "0-0",
    "0-0-0",
    "O-O",
    "--",
    "Z0",
    "0000",
    "@@@@",
    "e.p.",
    "ep",
    "12.",
    "3...",
    "Nf3",
    "exd6",
    "e8=Q+",
    "$1",
    "$",
    "!",
    "?",
    "!!",
    "!?",
    "!!!",
    " ",
    "\t",
    "\u{feff}",
    "é",
    "\u{1}",
    "\x7f",
];

fn pgnish() -> impl Strategy<Value = Vec<u8>> {
    common::pgnish(FRAGMENTS, 3)
}

fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}

fn check_lexer(input: &[u8]) {
    let mut last = 0;
    let bom = if input.starts_with(b"\xef\xbb\xbf") {
        3
    } else {
        0
    };
    for token in Lexer::new(input) {
        let span = token.span;
        assert!(
            span.start >= last && span.start < span.end && span.end <= input.len(),
            "{span:?}"
        );
        let gap = &input[last..span.start];
        let gap = if last == 0 && bom > 0 {
            &gap[bom.min(gap.len())..]
        } else {
            gap
        };
        assert!(
            gap.iter().all(|&b| is_ws(b)),
            "bytes skipped before {span:?}: {gap:?}"
        );
        assert_eq!(token.text, &input[span.range()]);
        let _ = (
            token.string_value(),
            token.comment_text(),
            token.nag(),
            token.integer(),
            token.error(),
        );
        last = span.end;
    }
    let tail = &input[last.max(if last == 0 { bom } else { 0 }).min(input.len())..];
    assert!(
        tail.iter().all(|&b| is_ws(b)),
        "bytes skipped at the end: {tail:?}"
    );
}

fn check_splitters(input: &[u8], chunk: usize, capacity: usize) {
    let mut splitter = GameSplitter::new(input);
    let games: Vec<_> = splitter.by_ref().collect();
    let mut pos = splitter.skipped() as usize;
    let index = LineIndex::new(input);
    for g in &games {
        assert_eq!(g.offset as usize, pos);
        assert!(!g.bytes.is_empty());
        assert_eq!(g.bytes, &input[pos..pos + g.bytes.len()]);
        assert_eq!(
            g.line,
            index.line_col(pos).line,
            "line of the game at {pos}"
        );
        pos += g.bytes.len();
        for t in tags(g.bytes) {
            let span = match t {
                Ok(t) => t.span,
                Err(e) => e.span,
            };
            assert!(span.start < span.end && span.end <= g.bytes.len());
        }
    }
    assert_eq!(pos, input.len(), "games do not reach the end");
    let mut reader = Reader::with_chunk_size(BufReader::with_capacity(capacity, input), chunk);
    let mut i = 0;
    while let Some(g) = reader.next_game().unwrap() {
        let s = &games[i];
        assert_eq!((g.bytes, g.offset, g.line), (s.bytes, s.offset, s.line));
        i += 1;
    }
    assert_eq!(i, games.len());
    assert_eq!(reader.skipped(), splitter.skipped());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn lexer_on_arbitrary_bytes(input in prop::collection::vec(any::<u8>(), 0..300)) {
        check_lexer(&input);
    }

    #[test]
    fn lexer_on_pgnish_bytes(input in pgnish()) {
        check_lexer(&input);
    }

    #[test]
    fn splitters_on_arbitrary_bytes(input in prop::collection::vec(any::<u8>(), 0..300), chunk in 1usize..9, capacity in 1usize..9) {
        check_splitters(&input, chunk, capacity);
    }

    #[test]
    fn splitters_on_pgnish_bytes(input in pgnish(), chunk in 1usize..9, capacity in 1usize..9) {
        check_splitters(&input, chunk, capacity);
    }

    #[test]
    fn markers_end_games(input in pgnish()) {
        check_markers_end_games(&input);
    }

    #[test]
    fn line_index_never_panics(input in pgnish(), offset in 0usize..400) {
        let index = LineIndex::new(&input);
        let at = index.line_col(offset);
        prop_assert!(at.line >= 1 && at.column >= 1);
    }
}
