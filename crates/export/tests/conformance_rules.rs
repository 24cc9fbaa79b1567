//! The export-format checker on one fixture per SPEC-NOTES export rule:
//! a game in export format with that rule broken once, reported with the
//! right rule at the line and column of the first difference.

use pgnkit_export::conformance::{Deviation, Rule, Verdict, check_export_format};

/// A game in export format (pinned by `the_bases_conform`).
const BASE: &str = "[Event \"Test\"]
[Site \"?\"]
[Date \"2024.01.02\"]
[Round \"1\"]
[White \"Fischer, Robert J.\"]
[Black \"Spassky, Boris V.\"]
[Result \"1-0\"]
[Annotator \"C:\\\\pgn\"]
[ECO \"C95\"]

1. e4 e5 2. Nf3 $1 { develops } 2... Nc6 (2... d6 3. d4) 3. Bb5 a6 4. Ba4 Nf6
5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 Nb8 10. d4 Nbd7 1-0

";

/// A game from a set-up position, in export format.
const SETUP: &str = "[Event \"?\"]
[Site \"?\"]
[Date \"????.??.??\"]
[Round \"?\"]
[White \"?\"]
[Black \"?\"]
[Result \"*\"]
[FEN \"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\"]
[SetUp \"1\"]

1... e5 2. Nf3 *

";

/// The deviations of the one game of `text`.
fn deviations(text: &[u8]) -> Vec<Deviation> {
    let report = check_export_format(text);
    assert_eq!(report.games, 1, "{}", String::from_utf8_lossy(text));
    match report.failures.as_slice() {
        [] => Vec::new(),
        [game] => match &game.verdict {
            Verdict::Deviates { deviations, .. } => deviations.clone(),
            other => panic!("not a deviation: {other:?}"),
        },
        more => panic!("{} failures for one game", more.len()),
    }
}

/// `base` with `from` replaced by `to` (once; `from` must be there).
fn broken(base: &str, from: &str, to: &str) -> String {
    assert!(base.contains(from), "{from:?} not in the base");
    base.replacen(from, to, 1)
}

/// Checks that the first deviation of `text` is `rule` at `line:column`.
fn assert_first(text: &str, rule: Rule, line: u64, column: u64) {
    let found = deviations(text.as_bytes());
    let first = found
        .first()
        .unwrap_or_else(|| panic!("{rule:?}: no deviation in\n{text}"));
    assert_eq!(
        (first.rule, first.line, first.column),
        (rule, line, column),
        "{first:?}\nall: {found:?}\n{text}"
    );
}

#[test]
fn the_bases_conform() {
    assert_eq!(deviations(BASE.as_bytes()), []);
    assert_eq!(deviations(SETUP.as_bytes()), []);
    let two = format!("{BASE}{SETUP}");
    let report = check_export_format(two.as_bytes());
    assert!(report.conforms(), "{report}");
}

#[test]
fn encoding_bom_and_latin1() {
    assert_first(&format!("\u{feff}{BASE}"), Rule::Encoding, 1, 1);
    let latin1 = broken(BASE, "Spassky", "Sp\u{e5}ssky").replace('\u{e5}', "\u{1}");
    let mut bytes = latin1.into_bytes();
    let at = bytes.iter().position(|&b| b == 1).unwrap();
    bytes[at] = 0xe5;
    let found = deviations(&bytes);
    assert_eq!(
        (found[0].rule, found[0].line, found[0].column),
        (Rule::Encoding, 6, 11)
    );
}

#[test]
fn line_end() {
    assert_first(&broken(BASE, "\n", "\r\n"), Rule::LineEnd, 1, 15);
}

#[test]
fn tab() {
    assert_first(&broken(BASE, "1. e4 e5", "1. e4\te5"), Rule::Tab, 11, 6);
}

#[test]
fn edge_space() {
    assert_first(&broken(BASE, "Nf6\n", "Nf6 \n"), Rule::EdgeSpace, 11, 78);
    assert_first(
        &broken(BASE, "\n5. O-O", "\n 5. O-O"),
        Rule::EdgeSpace,
        12,
        1,
    );
}

#[test]
fn game_end() {
    assert_first(BASE.strip_suffix('\n').unwrap(), Rule::GameEnd, 13, 1);
    assert_first(&format!("{BASE}\n"), Rule::GameEnd, 14, 1);
    assert_first(&format!("\n{BASE}"), Rule::GameEnd, 1, 1);
}

#[test]
fn tag_order() {
    let swapped = broken(
        BASE,
        "[Annotator \"C:\\\\pgn\"]\n[ECO \"C95\"]",
        "[ECO \"C95\"]\n[Annotator \"C:\\\\pgn\"]",
    );
    assert_first(&swapped, Rule::TagOrder, 8, 2);
}

#[test]
fn roster_default() {
    assert_first(
        &broken(BASE, "[Site \"?\"]\n", ""),
        Rule::RosterDefault,
        2,
        2,
    );
}

#[test]
fn result_tag() {
    assert_first(
        &broken(BASE, "[Result \"1-0\"]", "[Result \"*\"]"),
        Rule::ResultTag,
        7,
        10,
    );
}

#[test]
fn tag_pair() {
    assert_first(
        &broken(BASE, "[Event \"Test\"]", "[Event  \"Test\"]"),
        Rule::TagPair,
        1,
        8,
    );
    assert_first(
        &broken(BASE, "[Round \"1\"]\n[White", "[Round \"1\"] [White"),
        Rule::TagPair,
        4,
        12,
    );
    // A duplicate: the reader keeps the first value, export writes one.
    assert_first(
        &broken(BASE, "[Black", "[White \"X\"]\n[Black"),
        Rule::TagPair,
        6,
        2,
    );
}

#[test]
fn tag_escape() {
    assert_first(
        &broken(BASE, "C:\\\\pgn", "C:\\pgn"),
        Rule::TagEscape,
        8,
        16,
    );
}

#[test]
fn fen_tag() {
    assert_first(
        &broken(SETUP, "KQkq - 0 1", "KQkq e3 0 1"),
        Rule::FenTag,
        8,
        60,
    );
}

#[test]
fn tag_section_end() {
    assert_first(
        &broken(BASE, "\n\n1. e4", "\n1. e4"),
        Rule::TagSectionEnd,
        10,
        1,
    );
    assert_first(
        &broken(BASE, "\n\n1. e4", "\n\n\n1. e4"),
        Rule::TagSectionEnd,
        11,
        1,
    );
}

#[test]
fn token_spacing() {
    assert_first(&broken(BASE, "1. e4", "1.e4"), Rule::TokenSpacing, 11, 3);
    assert_first(
        &broken(BASE, "(2... d6", "( 2... d6"),
        Rule::TokenSpacing,
        11,
        43,
    );
}

#[test]
fn line_length() {
    assert_first(
        &broken(BASE, "Nf6\n5. O-O", "Nf6 5. O-O"),
        Rule::LineLength,
        11,
        78,
    );
}

#[test]
fn line_fill() {
    assert_first(
        &broken(BASE, "Ba4 Nf6\n5. O-O", "Ba4\nNf6 5. O-O"),
        Rule::LineFill,
        11,
        74,
    );
}

#[test]
fn comment() {
    assert_first(
        &broken(BASE, "{ develops }", "{develops }"),
        Rule::Comment,
        11,
        21,
    );
    assert_first(
        &broken(BASE, "{ develops }", "{ develops  }"),
        Rule::Comment,
        11,
        31,
    );
    assert_first(&broken(BASE, "Bb5 a6", "Bb5 {} a6"), Rule::Comment, 11, 65);
}

#[test]
fn annotation_order() {
    assert_first(
        &broken(BASE, "3. d4) 3. Bb5", "3. d4) $2 3. Bb5"),
        Rule::AnnotationOrder,
        11,
        42,
    );
}

#[test]
fn white_move_number() {
    assert_first(
        &broken(BASE, "e5 2. Nf3", "e5 Nf3"),
        Rule::WhiteMoveNumber,
        11,
        10,
    );
}

#[test]
fn black_move_number() {
    assert_first(
        &broken(BASE, "} 2... Nc6", "} Nc6"),
        Rule::BlackMoveNumber,
        11,
        33,
    );
    assert_first(
        &broken(BASE, "e4 e5", "e4 1... e5"),
        Rule::BlackMoveNumber,
        11,
        7,
    );
}

#[test]
fn san() {
    assert_first(&broken(BASE, "Nbd7", "Nb8d7"), Rule::San, 12, 61);
    assert_first(&broken(BASE, "5. O-O", "5. 0-0"), Rule::San, 12, 4);
}

#[test]
fn nag() {
    assert_first(&broken(BASE, "Nf3 $1", "Nf3!"), Rule::Nag, 11, 16);
}

#[test]
fn null_move() {
    assert_first(&broken(SETUP, "1... e5", "1... Z0"), Rule::NullMove, 11, 6);
}

#[test]
fn escape_line() {
    assert_first(
        &broken(BASE, "\n\n1. e4", "\n\n%c\n1. e4"),
        Rule::EscapeLine,
        11,
        1,
    );
}

#[test]
fn termination() {
    assert_first(
        &broken(BASE, "Nbd7 1-0", "Nbd7 1-0 { won }"),
        Rule::Termination,
        12,
        64,
    );
}

#[test]
fn each_rule_once_and_in_order() {
    // Three rules broken in one game: each reported once, in input order.
    let text = broken(BASE, "[Event \"Test\"]", "[Event \"Test\"] ");
    let text = broken(&text, "e5 2. Nf3", "e5 Nf3").replace('\n', "\r\n");
    let found = deviations(text.as_bytes());
    let rules: Vec<Rule> = found.iter().map(|d| d.rule).collect();
    assert_eq!(
        rules,
        [Rule::EdgeSpace, Rule::LineEnd, Rule::WhiteMoveNumber]
    );
    assert!(found.windows(2).all(|w| w[0].offset < w[1].offset));
}

#[test]
fn a_game_that_does_not_read_is_unreadable() {
    let text = broken(BASE, "9. h3", "9. Ke3");
    let report = check_export_format(text.as_bytes());
    assert_eq!(report.failures.len(), 1);
    let Verdict::Unreadable { diagnostics } = &report.failures[0].verdict else {
        panic!("{:?}", report.failures[0].verdict);
    };
    assert!(diagnostics.has_errors());
}
