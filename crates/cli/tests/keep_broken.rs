//! `pgnkit json --keep-broken` (issue 22): broken games are written too,
//! with what was read and their diagnostics; without the flag they are not.

mod common;

use std::process::Output;

fn json(args: &[&str], stdin: &[u8]) -> Output {
    let mut command = common::pgnkit(&["json"]);
    command.args(args);
    common::output_with_stdin(&mut command, stdin)
}

const BROKEN: &[u8] = b"1. e4 e5 (1... c5 2. Ke3) 2. Nf3 Bc5 3. c3 Nf6 *\n";

#[test]
fn a_broken_game_is_written_with_its_whole_main_line_and_diagnostics() {
    let out = json(&["--keep-broken", "-"], BROKEN);
    let stdout = String::from_utf8(out.stdout).expect("UTF-8");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 1, "{stdout}");
    let game: serde_json::Value = serde_json::from_str(lines[0]).expect("valid JSON");
    let main: Vec<&str> = game["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|m| m["san"].as_str().expect("san"))
        .collect();
    assert_eq!(main, ["e4", "e5", "Nf3", "Bc5", "c3", "Nf6"]);
    let diagnostics = game["diagnostics"].as_array().expect("diagnostics");
    let error = diagnostics
        .iter()
        .find(|d| d["severity"] == "error")
        .expect("an error");
    assert_eq!(error["move"], "Ke3");
    assert_eq!(
        (error["line"].as_u64(), error["column"].as_u64()),
        (Some(1), Some(22))
    );
    assert!(error["message"].as_str().is_some_and(|m| !m.is_empty()));
    // The error is still reported, and the run still fails.
    assert!(String::from_utf8_lossy(&out.stderr).contains("1:22"));
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn without_the_flag_a_broken_game_is_not_written() {
    let out = json(&["-"], BROKEN);
    assert!(out.stdout.is_empty());
    assert_eq!(out.status.code(), Some(1));
    // Good games are written the same either way.
    let good = b"1. e4 e5 *\n";
    assert_eq!(
        json(&["-"], good).stdout,
        json(&["--keep-broken", "-"], good).stdout
    );
}
