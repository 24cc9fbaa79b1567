//! Tests of the lexer's fast paths: every token they give is the one the grammar rules give.

use super::*;
use crate::byte_class::is_ws;
use proptest::prelude::*;

/// Tokens read through the grammar rules only, without the fast paths.
fn reference(input: &[u8]) -> Vec<(TokenKind, Span)> {
    let lexer = Lexer::new(input);
    let mut pos = lexer.offset();
    let mut out = Vec::new();
    while let Some(&b) = input.get(pos) {
        if is_ws(b) {
            pos += 1;
            continue;
        }
        let (end, kind) = rule_token(input, pos, b);
        out.push((kind, Span::new(pos, end.min(input.len()))));
        pos = end;
    }
    out
}

fn check(input: &[u8]) {
    let fast: Vec<_> = Lexer::new(input).map(|t| (t.kind, t.span)).collect();
    assert_eq!(
        fast,
        reference(input),
        "{:?}",
        std::string::String::from_utf8_lossy(input)
    );
}

#[test]
fn fast_paths_agree_with_the_rules_on_examples() {
    for s in [
        "1. e4 e5 2. Nf3 {x} (2... d6) 3...Bb5 1-0",
        "Z0 Z00 Ze e.p. exd6e.p. 0000 00000 123. 1/2-1/2",
        "[A \"1\"]",
    ] {
        check(s.as_bytes());
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]
    #[test]
    fn fast_paths_agree_with_the_rules(input in "([a-zA-Z0-9.{}()\\[\\]*\"$!?\n -]|e\\.p\\.|Z0|0000|1-0|½){0,40}") {
        check(input.as_bytes());
    }

    #[test]
    fn fast_paths_agree_on_bytes(input in prop::collection::vec(any::<u8>(), 0..200)) {
        check(&input);
    }
}
