//! The reading repairs from the outside: `--nested-comments` (a nested
//! comment read as one, written back so that it reads the same with the flag
//! or without, byte-stable) and `--fix-tag-strings` (a tag value without its
//! closing quote read up to the `]` ending its line, with a warning), on
//! `export`, `select`, `check` and `convert`.

mod common;

use common::{run, run_with_stdin};
use std::path::{Path, PathBuf};
use std::process::Output;

fn temp(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("repairs");
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join(name)
}

fn stdout(out: &Output) -> String {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone()).expect("UTF-8")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

const NESTED: &[u8] = b"[Event \"n\"]\n\n1. e4 { a { b } [Site \"x\"] 1-0 } e5 { x {\ny { z } } w } 2. Nf3 {c} *\n\n[Event \"m\"]\n\n1. d4 { p { q } } *\n";

#[test]
fn nested_comments_are_read_as_one_and_written_as_line_comments() {
    let out = run_with_stdin(&["export", "--no-tags", "--nested-comments"], NESTED);
    assert_eq!(
        stdout(&out),
        "1. e4 ; a { b } [Site \"x\"] 1-0\n1... e5 ; x { y { z } } w\n2. Nf3 { c } *\n\n\
         1. d4 ; p { q }\n*\n\n"
    );
    // Without the flag the first game is broken (reported, exit 1).
    let out = run_with_stdin(&["export", "--no-tags"], NESTED);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    // `check` and `select` take the flag too.
    let out = run_with_stdin(&["check", "--nested-comments"], NESTED);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = run_with_stdin(&["check"], NESTED);
    assert_eq!(out.status.code(), Some(1));
    let out = run_with_stdin(
        &[
            "select",
            "--nested-comments",
            "--where",
            "Event = \"m\"",
            "--no-tags",
        ],
        NESTED,
    );
    assert_eq!(stdout(&out), "1. d4 ; p { q }\n*\n\n");
}

#[test]
fn nested_comments_round_trip_byte_stable() {
    let once = stdout(&run_with_stdin(&["export", "--nested-comments"], NESTED));
    // Read back with the flag or without: the same games, the same bytes.
    let again = stdout(&run_with_stdin(
        &["export", "--nested-comments"],
        once.as_bytes(),
    ));
    assert_eq!(again, once);
    let plain = stdout(&run_with_stdin(&["export"], once.as_bytes()));
    assert_eq!(plain, once);
    // The corpus's example (pgn-extract's own test file).
    let corpus = pgnkit_corpus::dir().join("edge/pgn-extract/nested-comment.pgn");
    let out = run(&["export", "--nested-comments", corpus.to_str().unwrap()]);
    let text = stdout(&out);
    assert!(
        text.contains(
            "\n1. e4\n; This game contains { a nested comment } which should be handled ok with \
             the --nestedcomment option.\n*\n"
        ),
        "{text}"
    );
    let again = stdout(&run_with_stdin(&["export"], text.as_bytes()));
    assert_eq!(again, text);
    // Without the flag a comment holding `{` alone is written in braces,
    // as before (the standard's plain text).
    let out = run_with_stdin(&["export", "--no-tags"], b"1. e4 { a { b } *\n");
    assert_eq!(stdout(&out), "1. e4 { a { b } *\n\n");
    // With it such a text (here from a `;` comment) is a line comment.
    let out = run_with_stdin(
        &["export", "--no-tags", "--nested-comments"],
        b"1. e4 ; a { b\n*\n",
    );
    assert_eq!(stdout(&out), "1. e4 ; a { b\n*\n\n");
}

#[test]
fn convert_reads_nested_comments_and_its_movetext_reads_back() {
    let out_path = temp("nested.ndjson");
    let _ = std::fs::remove_file(&out_path);
    let input = temp("nested.pgn");
    std::fs::write(&input, NESTED).expect("write input");
    let out = run(&[
        "convert",
        "--nested-comments",
        input.to_str().unwrap(),
        "-o",
        out_path.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let rows = common::ndjson_rows(&out_path);
    assert_eq!(rows.len(), 2);
    assert_eq!(
        rows[1]["movetext"].as_str(),
        Some("1. d4 ; p { q }\n*"),
        "{:?}",
        rows[1]
    );
}

const UNCLOSED: &[u8] = b"[Event \"The Open]\n[Site \"Paris\"]\n[White \"W\n\n1. e4 *\n";

#[test]
fn fix_tag_strings_repairs_a_value_whose_line_ends_with_a_bracket() {
    let out = run_with_stdin(
        &["export", "--fix-tag-strings", "--warnings", "all"],
        UNCLOSED,
    );
    // The `White` line has no `]`: still an error, the game rejected.
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let errors = stderr(&out);
    assert!(
        errors.contains("-:3:8: error: unterminated string"),
        "{errors}"
    );
    assert!(errors.contains("1 errors, 1 warnings"), "{errors}");
    let fixed = b"[Event \"The Open]\n[Site \"Paris\"]\n\n1. e4 *\n";
    let out = run_with_stdin(&["select", "--fix-tag-strings", "--seven-tags"], fixed);
    let text = stdout(&out);
    assert!(
        text.starts_with("[Event \"The Open\"]\n[Site \"Paris\"]\n"),
        "{text}"
    );
    // Counted as a warning (`check` prints it, below).
    assert!(
        stderr(&out).contains("0 errors, 1 warnings"),
        "{}",
        stderr(&out)
    );
    // Without the flag it is an error.
    let out = run_with_stdin(&["export"], fixed);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("unterminated string"),
        "{}",
        stderr(&out)
    );
    let out = run_with_stdin(&["check", "--fix-tag-strings"], fixed);
    assert!(out.status.success(), "{}", stderr(&out));
    let warning =
        "-:1:8: warning: missing closing quote in the value of tag Event: read up to the `]`";
    let shown = stdout(&out) + &stderr(&out);
    assert!(shown.contains(warning), "{shown}");
}
