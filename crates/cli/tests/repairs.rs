//! The reading repairs from the outside: `--nested-comments` (a nested
//! comment read as one, written back so that it reads the same with the flag
//! or without, byte-stable) and `--fix-tag-strings` (a tag value without its
//! closing quote read up to the `]` ending its line, with a warning), on
//! `export`, `select`, `check` and `convert`, and on the position commands
//! `index`, `search` (with and without an index), `tree` and `book`.

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

/// A game that reads only with `--nested-comments` (without, ` c }` is not
/// movetext), then one that reads either way; both reach 1. e4 e5.
const NESTED_POSITIONS: &[u8] = b"[Event \"n\"]\n[White \"Nested\"]\n[Result \"1-0\"]\n\n\
1. e4 { a { b } c } e5 2. Nf3 1-0\n\n\
[Event \"m\"]\n[White \"Plain\"]\n[Result \"0-1\"]\n\n1. e4 e5 2. Bc4 0-1\n";

const AFTER_E4_E5: &str =
    "reaches \"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2\"";

#[test]
fn search_reads_nested_comments_with_the_flag() {
    let path = temp("nested-search.pgn");
    std::fs::write(&path, NESTED_POSITIONS).unwrap();
    let file = path.to_str().unwrap();
    let with = run(&[
        "search",
        "--nested-comments",
        "--offsets",
        file,
        AFTER_E4_E5,
    ]);
    let lines: Vec<String> = stdout(&with).lines().map(String::from).collect();
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(lines[0].ends_with("\t1\t2"), "{lines:?}");
    // Without the flag the first game is broken: reported, not searched.
    let without = run(&["search", "--offsets", file, AFTER_E4_E5]);
    assert_eq!(without.status.code(), Some(1), "{}", stderr(&without));
    let text = String::from_utf8_lossy(&without.stdout).into_owned();
    assert_eq!(text.lines().count(), 1, "{text}");
    assert!(text.ends_with("\t2\t2\n"), "{text}");
}

#[test]
fn index_tree_and_indexed_search_read_nested_comments_with_the_flag() {
    let path = temp("nested-index.pgn");
    std::fs::write(&path, NESTED_POSITIONS).unwrap();
    let file = path.to_str().unwrap();
    let plain = temp("nested-plain.pgnidx");
    let nested = temp("nested-nested.pgnidx");
    // Without the flag the first game is left out (exit 1), with it both are indexed.
    let out = run(&["index", file, "-o", plain.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("1 games with errors left out"),
        "{}",
        stderr(&out)
    );
    let out = run(&[
        "index",
        "--nested-comments",
        file,
        "-o",
        nested.to_str().unwrap(),
    ]);
    assert!(stderr(&out).contains("2 games"), "{}", stderr(&out));
    stdout(&out);
    // The tree after 1. e4 e5, from each index and from the file read both ways.
    let moves = |args: &[&str]| -> Vec<String> {
        let json: serde_json::Value = serde_json::from_str(&stdout(&run(args))).unwrap();
        json["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["san"].as_str().unwrap().to_string())
            .collect()
    };
    let index_plain = [
        "tree",
        "e4 e5",
        "--json",
        "--index",
        plain.to_str().unwrap(),
    ];
    assert_eq!(moves(&index_plain), ["Bc4"]);
    let index_nested = [
        "tree",
        "e4 e5",
        "--json",
        "--index",
        nested.to_str().unwrap(),
    ];
    assert_eq!(moves(&index_nested), ["Bc4", "Nf3"]);
    assert_eq!(moves(&["tree", "e4 e5", "--json", file]), ["Bc4"]);
    let scanned = moves(&["tree", "--nested-comments", "e4 e5", "--json", file]);
    assert_eq!(scanned, ["Bc4", "Nf3"]);
    // The games found in the index are read again from the file by the same rules.
    let index = nested.to_str().unwrap();
    let out = run(&[
        "search",
        "--index",
        index,
        "--nested-comments",
        "--no-tags",
        AFTER_E4_E5,
    ]);
    assert_eq!(
        stdout(&out),
        "1. e4 ; a { b } c\n1... e5 2. Nf3 1-0\n\n1. e4 e5 2. Bc4 0-1\n\n"
    );
    let out = run(&["search", "--index", index, AFTER_E4_E5]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("no longer reads as it did when indexed"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn tree_and_book_repair_tag_strings_with_the_flag() {
    let path = temp("unclosed-tree.pgn");
    std::fs::write(
        &path,
        b"[White \"Carlsen]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n",
    )
    .unwrap();
    let file = path.to_str().unwrap();
    let games = |args: &[&str]| -> u64 {
        let json: serde_json::Value = serde_json::from_str(&stdout(&run(args))).unwrap();
        json["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["stats"]["games"].as_u64().unwrap())
            .sum()
    };
    let fixed = [
        "tree",
        "--fix-tag-strings",
        "",
        "--json",
        "--player",
        "Carlsen",
        file,
    ];
    assert_eq!(games(&fixed), 1);
    assert_eq!(games(&["tree", "", "--json", file]), 0);
    let book = temp("unclosed.bin");
    let book = book.to_str().unwrap();
    let out = run(&["book", "--min-games", "1", "-o", book, file]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let out = run(&[
        "book",
        "--fix-tag-strings",
        "--min-games",
        "1",
        "-o",
        book,
        file,
    ]);
    stdout(&out);
    // 1. e4 (a win for White); 1... e5 never scored and is left out.
    assert_eq!(std::fs::metadata(book).unwrap().len(), 16);
}
