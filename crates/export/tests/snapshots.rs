//! Snapshot tests: every fixture in `tests/fixtures/*.pgn` read and written
//! in export format. The snapshots are the export text itself. Each fixture
//! is also checked for: tree writer and streaming writer giving the same
//! bytes, the layout invariants, and idempotence (export of the export is
//! the same bytes).

mod common;

use std::path::PathBuf;

use pgnkit_export::{ExportOptions, GameWriter, Notation, StreamWriter, to_string};
use pgnkit_game::{read_games, visit_games};

fn fixture(name: &str) -> Vec<u8> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Every game of `input` written with the tree writer; panics on a broken game.
fn export(input: &[u8], options: &ExportOptions) -> String {
    let mut writer = GameWriter::new(options.clone());
    let mut out = Vec::new();
    for read in read_games(input) {
        assert!(
            !read.is_broken(),
            "broken game at line {}: {:?}\n{}",
            read.line,
            read.diagnostics,
            String::from_utf8_lossy(&read.raw)
        );
        writer
            .write(&read.value, &mut out)
            .expect("writing to a Vec");
    }
    String::from_utf8(out).expect("export is UTF-8")
}

/// Every game of `input` written with the streaming writer.
fn stream(input: &[u8], options: &ExportOptions) -> String {
    let mut games = visit_games(input, StreamWriter::new(options.clone()));
    let mut out = Vec::new();
    while let Some(read) = games.next() {
        assert!(!read.is_broken(), "broken game at line {}", read.line);
        games
            .visitor()
            .write_game_to(&mut out)
            .expect("writing to a Vec");
    }
    String::from_utf8(out).expect("export is UTF-8")
}

/// Exports a fixture, checks the invariants, and returns the text.
fn check(name: &str, options: &ExportOptions) -> String {
    let input = fixture(name);
    let out = export(&input, options);
    assert_eq!(stream(&input, options), out, "{name}: streaming differs");
    if let Err(e) = common::check_layout(&out) {
        panic!("{name}: {e}\n{out}");
    }
    if options.notation == Notation::San {
        let again = export(out.as_bytes(), options);
        assert_eq!(again, out, "{name}: not idempotent");
    }
    out
}

macro_rules! snapshot {
    ($test:ident, $file:literal) => {
        #[test]
        fn $test() {
            let out = check($file, &ExportOptions::export());
            insta::assert_snapshot!(stringify!($test), out);
        }
    };
}

const SPEC_EXAMPLE: &str = r#"[Event "?"]
[Site "?"]
[Date "????.??.??"]
[Round "?"]
[White "?"]
[Black "?"]
[Result "*"]
[FEN "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"]
[SetUp "1"]

{ Starts after 1. e4 } 1... e5 2. Nf3 $1 { develops } 2... Nc6 (2... d6 3. d4
(3. Bc4 Be7) 3... exd4) 3. Bb5 *

"#;

#[test]
fn spec_notes_example_byte_for_byte() {
    let out = check("spec-example.pgn", &ExportOptions::export());
    assert_eq!(out, SPEC_EXAMPLE);
    insta::assert_snapshot!("spec_example", out);
}

#[test]
fn standard_sample_game_byte_for_byte() {
    // The standard's own sample (section 2.3) is in export format already.
    let input = fixture("fischer-spassky.pgn");
    let out = check("fischer-spassky.pgn", &ExportOptions::export());
    assert_eq!(out.as_bytes(), input.as_slice());
    insta::assert_snapshot!("fischer_spassky", out);
}

snapshot!(black_to_move, "black-to-move.pgn");
snapshot!(comments_placement, "comments-placement.pgn");
snapshot!(long_comment, "long-comment.pgn");
snapshot!(long_word, "long-word.pgn");
snapshot!(nested_variations, "nested-variations.pgn");
snapshot!(nags, "nags.pgn");
snapshot!(null_move, "null-move.pgn");
snapshot!(chess960, "chess960.pgn");
snapshot!(semicolon_comments, "semicolon-comments.pgn");
snapshot!(notation_san, "notation.pgn");

#[test]
fn reduced_export() {
    let mut out = check("nested-variations.pgn", &ExportOptions::reduced());
    out.push_str(&check("nags.pgn", &ExportOptions::reduced()));
    out.push_str(&check("chess960.pgn", &ExportOptions::reduced()));
    out.push_str(&check("black-to-move.pgn", &ExportOptions::reduced()));
    insta::assert_snapshot!("reduced", out);
}

#[test]
fn other_notations() {
    let mut out = String::new();
    for notation in [Notation::Lan, Notation::Uci, Notation::Fan] {
        let options = ExportOptions {
            notation,
            ..ExportOptions::export()
        };
        out.push_str(&check("notation.pgn", &options));
        out.push_str(&check("chess960.pgn", &options));
    }
    insta::assert_snapshot!("notations", out);
}

#[test]
fn options_turn_parts_off() {
    let options = ExportOptions {
        comments: false,
        nags: false,
        width: 40,
        ..ExportOptions::export()
    };
    let out = check("comments-placement.pgn", &options);
    assert!(!out.contains('{') && !out.contains('$'));
    let out2 = check("nags.pgn", &options);
    insta::assert_snapshot!("no_comments_no_nags_width_40", format!("{out}{out2}"));
}

#[test]
fn to_string_matches_writer() {
    let input = fixture("nested-variations.pgn");
    let game = read_games(&input).next().expect("one game").value;
    let options = ExportOptions::export();
    assert_eq!(to_string(&game, &options), export(&input, &options));
}
