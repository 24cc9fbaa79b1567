//! `pgnkit check --export-format`: one line per rule broken with
//! file:line:column, `--diff`, `--json`, and the exit status (0 when every
//! game is export format, 1 when one is not or does not read).

mod common;

use std::path::PathBuf;
use std::process::Output;

/// A game in export format.
const GOOD: &str = "[Event \"?\"]
[Site \"?\"]
[Date \"????.??.??\"]
[Round \"?\"]
[White \"?\"]
[Black \"?\"]
[Result \"*\"]

1. e4 e5 2. Nf3 { develops } 2... Nc6 *

";

/// Writes `text` to a file of this test's own and returns its path.
fn file(name: &str, text: &str) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("check-export-{name}.pgn"));
    std::fs::write(&path, text).expect("writable test directory");
    path
}

fn run(args: &[&str]) -> Output {
    common::pgnkit(args).output().expect("the binary runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("UTF-8 output")
}

#[test]
fn export_format_passes_with_status_0() {
    let path = file("good", &format!("{GOOD}{GOOD}"));
    let output = run(&["check", "--export-format", path.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    assert_eq!(stdout(&output), "");
    let summary = String::from_utf8_lossy(&output.stderr);
    assert!(
        summary.contains("2 games, 2 export format, 0 not"),
        "{summary}"
    );
}

#[test]
fn each_rule_broken_is_reported_at_its_place() {
    // Game 1: a black move number missing after a comment (line 9);
    // game 2 (from line 12): Site and Date swapped, and `1.e4`.
    let bad = GOOD.replace("} 2... Nc6", "} Nc6");
    let swapped = GOOD
        .replace(
            "[Site \"?\"]\n[Date \"????.??.??\"]",
            "[Date \"????.??.??\"]\n[Site \"?\"]",
        )
        .replace("1. e4", "1.e4");
    let path = file("bad", &format!("{bad}{swapped}"));
    let name = path.to_str().unwrap();
    let output = run(&["check", "--export-format", name]);
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    let text = stdout(&output);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines,
        [
            format!(
                "{name}:9:30: export format: black move number (SPEC-NOTES Writing, rule 6 \
                 Move numbers): expected \"2... Nc6\", found \"Nc6\""
            ),
            format!(
                "{name}:12:2: export format: tag order (SPEC-NOTES Writing, rule 1 Tags): \
                 expected \"[Site \\\"?\\\"]\", found \"[Date \\\"????.??.??\\\"]\""
            ),
            format!(
                "{name}:19:3: export format: token spacing (SPEC-NOTES Writing, rule 2 \
                 Movetext tokens): expected \"1. e4\", found \"1.e4\""
            ),
        ]
    );
}

#[test]
fn diff_shows_the_game_against_its_export() {
    let path = file("diff", &GOOD.replace("} 2... Nc6", "} Nc6"));
    let output = run(&["check", "--export-format", "--diff", path.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    let text = stdout(&output);
    assert!(
        text.contains(
            "-1. e4 e5 2. Nf3 { develops } Nc6 *\n+1. e4 e5 2. Nf3 { develops } 2... Nc6 *\n"
        ),
        "{text}"
    );
    assert!(text.contains("+++ export format (pgnkit export)"), "{text}");
}

#[test]
fn json_and_unreadable_games() {
    let broken = GOOD.replace("2. Nf3", "2. Ke3");
    let path = file("json", &format!("{GOOD}{broken}"));
    let output = run(&["check", "--export-format", "--json", path.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    let rows: Vec<serde_json::Value> = stdout(&output)
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
        .collect();
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(rows[0]["rule"], "does not read");
    assert_eq!(rows[0]["line"], 19);
}

#[test]
fn diff_needs_export_format() {
    let path = file("usage", GOOD);
    let output = run(&["check", "--diff", path.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2));
}
