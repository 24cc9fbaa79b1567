//! Tests of the single pass: its games, tokens and warnings against the splitter's and a
//! `Lexer`'s, its flags, and the sizes of what it keeps.

use super::*;
use proptest::prelude::*;

#[test]
fn tokens_stay_small() {
    // Every token the pass keeps and the game reader reads is copied: a payload in a
    // `TokenKind` (or a `LexErrorKind`) widens all of them (issue 22: 2 -> 16 bytes cost
    // `export` 1.3% of its instructions). A size goes on the game, not the token.
    assert_eq!(std::mem::size_of::<TokenKind>(), 2);
    assert_eq!(std::mem::size_of::<GameToken>(), 24);
}

/// Checks the single pass, when it decides, against the splitter and the lexer; returns
/// whether it decided.
fn check(buf: &[u8]) -> bool {
    let mut pass = GameTokens::default();
    let Some(end) = pass.single_pass(buf) else {
        return false;
    };
    assert_eq!(
        end,
        crate::game_end::game_end(buf, &mut Vec::new()),
        "end of {buf:?}"
    );
    let mut lexer = Lexer::new(&buf[..end]);
    let tokens: Vec<GameToken> = lexer
        .by_ref()
        .map(|t| GameToken {
            kind: t.kind,
            span: t.span,
        })
        .collect();
    assert_eq!(pass.tokens, tokens, "tokens of {buf:?}");
    assert_eq!(pass.warnings, lexer.take_warnings(), "warnings of {buf:?}");
    let opens = tokens.iter().any(|t| t.kind == TokenKind::VariationOpen);
    assert_eq!(pass.variations, opens, "variations of {buf:?}");
    true
}

#[test]
fn common_games_take_the_single_pass() {
    for game in [
        "[Event \"a\"]\n[Site \"b\"]\n\n1. e4 {c} e5 (1... c5 2. Nf3) 2. Nf3 1-0\n\n[Event",
        "[Event \"a\"]\n\n1. e4 e5 2. Nf3 $1 Nc6!? 1/2-1/2 {after}\n[Event \"b\"]",
        "[A \"a\"]\n\n[A \"b\"]\n*",
        "1. d4 *\n1. e4 *",
        "1. d4 ½-½ ; c\n{d} e4",
        "[A \"a\"]\n1. e4\n[B \"b\"]",
        "[A \"a\" ]\n1. e4 0-1",
        "e4 1-0 {c}\n[Eve",
        // Unescaped quotes in a value that runs to the line's last quote.
        "[White \"\"Expert\"\"]\n*",
    ] {
        assert!(check(game.as_bytes()), "{game}");
    }
    // The splitter decides these.
    for game in ["[White \"\"Expert\" x\n*", "\u{feff}e4 *", "e4 { open"] {
        assert!(!check(game.as_bytes()), "{game}");
    }
}

#[test]
fn the_pass_tells_whether_a_variation_opens() {
    // (game, whether a token of it is a `(`)
    for (game, opens) in [
        ("1. e4 e5 *", false),
        ("1. e4 (1. d4) e5 *", true),
        ("(1. e4) *", true),
        (
            "[Event \"(a)\"]\n1. e4 {(not a variation)} e5 ; (nor this)\n*",
            false,
        ),
        // The `(` after the marker starts the next game.
        ("1. e4 * (1. d4) *", false),
        ("1. e4 (1. d4 *) *", true),
        // What may be a cut tag pair stays with the game, its tokens too.
        ("1. e4 *\n[Event \"(", false),
    ] {
        check(game.as_bytes());
        let mut pass = GameTokens::default();
        pass.read(game.as_bytes(), true);
        assert_eq!(pass.variations, opens, "{game}");
    }
    // The fallback (nested comments) counts its tokens.
    let mut pass = GameTokens {
        options: LexOptions {
            nested_comments: true,
            ..LexOptions::default()
        },
        ..GameTokens::default()
    };
    pass.read(b"1. e4 { a { b } (c) } (1. d4) *", true);
    assert!(pass.variations);
    pass.read(b"1. e4 { a { b } (c) } *", true);
    assert!(!pass.variations);
    pass.only(TokenKind::Error(LexErrorKind::GameTooLarge));
    assert!(!pass.variations);
}

#[test]
fn usual_tag_lines_and_their_edges_agree_with_the_lexer() {
    // Read by the fast path (`tag_line`), or left by it to the general code at its edges:
    // the same end, tokens and warnings as the splitter and a lexer give.
    for game in [
        "[Event \"a\"]\n[Site \"b\"]\n[WhiteElo \"1500\"]\n\n1. e4 *\n",
        "[Event \"a\"]\r\n[Site \"b\"]\r\n\r\n1. e4 *\r\n",
        "[Event \"a\"]\r\n\r\n[Event \"b\"]\r\n*",
        "[White \"a\\\"b\"]\n[Black \"c\"]\n*",
        "[White \"a\"\n[Black \"c\"]\n*",
        "[White \"\u{141}ukasz M\u{fc}ller\"]\n[Black \"\"]\n*",
        "[Event \"a\"]\n[Site \"b\"]",
        "[Event \"a\"]\n[Site \"b\"]\n[Date \"c",
        "[Event \"a\"]\n[Site \"b\"]\n[Date \"c\"",
        "[Event \"a\"]\n[Site \"b\"]\n[Date",
        "[Event \"a\"]\n[Event \"b\"]\n*",
        "[Event \"a\"]\n[Site \"b\"]\n\n[Site \"c\"]\n*",
        "[Event \"a\"]\n[Z0 \"b\"]\n[White \"a\tb\"]\n[WhiteRatingDiffs \"1\"]\n*",
        "[Event \"a\"]\n[Site \"b\"] [Date \"c\"]\n*",
        "[Event \"a\"]\n[Site \"b\"]\n1. e4 *",
        // A repeated name after an empty line (and an escape line) starts a game.
        "[Event \"a\"]\n\n%\n[Event \"a\"]\n[Site \"b\"]\n*",
        "[Event \"a\"]\n\n%\n[Site \"b\"]\n[Event \"a\"]\n*",
    ] {
        check(game.as_bytes());
    }
    // Latin-1.
    check(b"[White \"\xe9\"]\n[Black \"\"]\n*");
    // Cut after every byte: the usual lines at the end of the input.
    let game = b"[Event \"a\"]\r\n[WhiteElo \"1500\"]\n[Site \"\"]\n\n1. e4 *\n";
    for end in 1..=game.len() {
        check(&game[..end]);
    }
    assert!(check(game));
}

#[test]
fn a_repeated_tag_name_after_an_empty_line_starts_a_game() {
    for (game, end) in [
        ("[A \"a\"]\n[B \"b\"]\n\n[B \"c\"]\n*", 17),
        ("[A \"a\"]\n[B \"b\"]\n\n[A \"c\"]\n*", 17),
        // Only the first tag pair after the empty line is looked at.
        ("[A \"a\"]\n[B \"b\"]\n\n[C \"c\"]\n[B \"d\"]\n*", 34),
        ("[A \"a\"]\n{x}\n\n[A \"c\"]\n*", 13),
        ("[AB \"a\"] [A \"b\"]\n\n[ABC \"c\"]\n*", 29),
    ] {
        assert!(check(game.as_bytes()), "{game}");
        let mut pass = GameTokens::default();
        assert_eq!(pass.single_pass(game.as_bytes()), Some(end), "{game}");
    }
}

const FRAGMENTS: &[&str] = &[
    "[Event \"a\"]",
    "\n[WhiteElo \"1500\"]",
    "\r\n[Site \"\"]",
    "[Round \"\u{e9}\"]\n",
    "[Event \"",
    "\n[Site \"x\"]\n",
    "[A\t\"b\" ]",
    "[1 \"x\"]",
    "\n\n",
    "\r\n",
    "\r",
    "\n \n",
    "\"",
    "{ c }",
    "{",
    "}",
    "; c\n",
    "\n%x\n",
    "%",
    "(",
    ")",
    "[",
    "]",
    "1-0",
    "0-1",
    "1/2-1/2",
    "*",
    "½-½",
    "\u{bd}-\u{bd}",
    "1–0",
    "0:1",
    "0-0",
    "O-O",
    "--",
    "e.p.",
    "e",
    ".p.",
    "12.",
    "3...",
    "Nf3",
    "$1",
    "!?",
    " ",
    "\t",
    "é",
    "+",
    "/",
    "1",
    "0",
];

fn pgnish() -> impl Strategy<Value = Vec<u8>> {
    let piece = prop_oneof![
        6 => prop::sample::select(FRAGMENTS).prop_map(|s| s.as_bytes().to_vec()),
        1 => any::<u8>().prop_map(|b| vec![b]),
    ];
    prop::collection::vec(piece, 1..40).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 10000, ..ProptestConfig::default() })]

    #[test]
    fn single_pass_agrees_when_it_decides(input in pgnish()) {
        // White space never starts a game.
        let start = input.iter().position(|&b| !crate::byte_class::is_ws(b));
        if let Some(start) = start {
            check(&input[start..]);
        }
    }
}
