//! The built `pgnkit` binary on the conformance fixtures: export output
//! byte-identical to the reviewed snapshots, `check` output and exit codes,
//! `--rejects`, standard input, threads, and the failures a user meets.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn fixture(path: &str) -> PathBuf {
    root().join("tests/conformance").join(path)
}

fn pgnkit(args: &[&str]) -> Command {
    let mut command = common::pgnkit(args);
    command.current_dir(root());
    command
}

fn run(args: &[&str]) -> Output {
    pgnkit(args).output().expect("the binary runs")
}

fn run_with_stdin(args: &[&str], stdin: &[u8]) -> Output {
    common::output_with_stdin(&mut pgnkit(args), stdin)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("output is UTF-8")
}

/// The export text a conformance snapshot holds (insta header and the end
/// marker stripped).
fn export_snapshot(folder: &str, name: &str) -> String {
    let path = root().join(format!(
        "tests/conformance/snapshots/{folder}.{name}.export.snap"
    ));
    let snap = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("no snapshot {}: {e}", path.display()));
    let body = snap
        .splitn(3, "---\n")
        .nth(2)
        .expect("an insta snapshot has a header");
    body.trim_end()
        .strip_suffix("<end of output>")
        .expect("export snapshots end with the end marker")
        .to_string()
}

fn fixtures(folder: &str) -> Vec<(String, PathBuf)> {
    let mut all: Vec<_> = std::fs::read_dir(fixture(folder))
        .expect("fixture folder")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "pgn"))
        .map(|p| (p.file_stem().unwrap().to_string_lossy().into_owned(), p))
        .collect();
    all.sort();
    all
}

#[test]
fn export_output_is_byte_identical_to_the_snapshots() {
    for folder in ["ok", "err", "roundtrip"] {
        for (name, path) in fixtures(folder) {
            let out = run(&["export", path.to_str().unwrap()]);
            assert_eq!(
                text(&out.stdout),
                export_snapshot(folder, &name),
                "pgnkit export {folder}/{name}.pgn differs from its snapshot"
            );
            // An `err` fixture may hold only warnings (status 0) or a
            // rejected game (status 1); the others must be written whole.
            let allowed: &[i32] = if folder == "err" { &[0, 1] } else { &[0] };
            let status = out.status.code().expect("an exit status");
            assert!(
                allowed.contains(&status),
                "{folder}/{name}: status {status}"
            );
        }
    }
}

#[test]
fn check_reports_file_line_column_with_a_caret_and_exits_1() {
    let path = "tests/conformance/err/recovery-illegal-move-in-variation-keeps-main-line.pgn";
    let out = run(&["check", path]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    let mut lines = stdout.lines();
    let first = lines.next().expect("a diagnostic");
    assert!(
        first.starts_with(&format!("{path}:9:22: error: ")),
        "unexpected diagnostic line: {first}"
    );
    assert!(first.contains("Ke3"), "the move text is named: {first}");
    assert_eq!(
        lines.next(),
        Some("  1. e4 e5 (1... c5 2. Ke3) 2. Nf3 Bc5 3. c3 Nf6 *")
    );
    assert_eq!(lines.next(), Some(&*format!("  {}^", " ".repeat(21))));
    assert_eq!(lines.next(), None, "exactly one error: {stdout}");
    assert!(text(&out.stderr).contains("1 games read"));
}

#[test]
fn check_is_silent_and_exits_0_on_clean_files() {
    let out = run(&[
        "check",
        "tests/conformance/ok/movetext-fischer-spassky-1992.pgn",
    ]);
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty());
}

#[test]
fn check_json_gives_one_object_per_diagnostic() {
    let out = run(&[
        "check",
        "--json",
        "tests/conformance/err/recovery-unterminated-comment-in-second-of-three-games.pgn",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    assert!(!stdout.is_empty());
    for line in stdout.lines() {
        let value: serde_json::Value = serde_json::from_str(line).expect("each line is JSON");
        assert!(value["line"].as_u64().is_some() && value["column"].as_u64().is_some());
        assert!(matches!(
            value["severity"].as_str(),
            Some("error" | "warning")
        ));
    }
}

#[test]
fn rejects_receive_exactly_the_broken_games_text() {
    let input = fixture("err/recovery-illegal-move-in-main-line.pgn");
    let bytes = std::fs::read(&input).unwrap();
    let second = text(&bytes).match_indices("[Event ").nth(1).unwrap().0;
    let rejects = std::env::temp_dir().join(format!("pgnkit-rejects-{}.pgn", std::process::id()));
    let out = run(&[
        "export",
        input.to_str().unwrap(),
        "--rejects",
        rejects.to_str().unwrap(),
    ]);
    let kept = std::fs::read(&rejects).unwrap();
    std::fs::remove_file(&rejects).unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "a rejected game makes the status 1"
    );
    assert_eq!(
        kept,
        &bytes[..second],
        "the rejects file holds game 1 verbatim"
    );
    assert!(text(&out.stdout).contains("[Event \"The next game still reads\"]"));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("2 games read, 1 written, 1 rejected"),
        "{stderr}"
    );
    assert!(stderr.contains(":9:"), "the error names its line: {stderr}");
}

#[test]
fn standard_input_reads_like_a_file() {
    let path = fixture("ok/variations-nested-three-deep.pgn");
    let from_file = run(&["export", path.to_str().unwrap()]);
    let from_stdin = run_with_stdin(&["export", "-"], &std::fs::read(&path).unwrap());
    assert_eq!(from_stdin.status.code(), Some(0));
    assert_eq!(from_stdin.stdout, from_file.stdout);
    assert!(!from_stdin.stdout.is_empty());
}

#[test]
fn threads_keep_input_order() {
    let mut all = Vec::new();
    for (_, path) in fixtures("ok") {
        all.extend(std::fs::read(path).unwrap());
        all.extend(b"\n\n");
    }
    let one = run_with_stdin(&["export", "--threads", "1"], &all);
    let two = run_with_stdin(&["export", "--threads", "2"], &all);
    assert_eq!(one.status.code(), Some(0), "{}", text(&one.stderr));
    assert_eq!(text(&one.stdout), text(&two.stdout));
}

#[test]
fn a_missing_file_is_a_clear_error_with_status_2() {
    let out = run(&["export", "no/such/file.pgn"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    let mut lines = stderr.lines();
    assert_eq!(
        lines.next(),
        Some("pgnkit: cannot read no/such/file.pgn: no such file")
    );
    // The run still ends with its summary, which counts the input that failed.
    let summary = lines.next().unwrap_or_default();
    assert!(
        summary.starts_with("pgnkit export: 0 games read")
            && summary.ends_with("1 input could not be read"),
        "{stderr}"
    );
}

#[test]
fn a_directory_is_a_clear_error_with_status_2() {
    let out = run(&["check", "tests/conformance"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("tests/conformance is a directory"),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"));
}

#[test]
fn json_gives_one_valid_object_per_game() {
    let out = run(&["json", "tests/conformance/ok/results-every-marker.pgn"]);
    assert_eq!(out.status.code(), Some(0));
    let stdout = text(&out.stdout);
    let results: Vec<String> = stdout
        .lines()
        .map(|line| {
            let value: serde_json::Value = serde_json::from_str(line).expect("valid JSON");
            value["result"].as_str().expect("a result").to_string()
        })
        .collect();
    assert_eq!(results, ["1-0", "0-1", "1/2-1/2", "*"]);
}

#[test]
fn fen_gives_the_final_position_or_every_ply() {
    let path = "tests/conformance/ok/san-check-and-checkmate-suffixes.pgn";
    let out = run(&["fen", path]);
    assert_eq!(
        text(&out.stdout),
        "r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4\n"
    );
    let every = run(&["fen", "--every-ply", path]);
    let lines: Vec<String> = text(&every.stdout).lines().map(str::to_string).collect();
    assert_eq!(lines.len(), 1 + 7 + 1, "start, 7 plies, empty line");
    assert_eq!(
        lines[7],
        "r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4"
    );
    assert_eq!(lines[8], "");
    assert_eq!(
        lines[0],
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    );
}

/// Issue 22 point 11: `pgnkit fen --epd`, the final position or every one,
/// as EPD with the counters as `hmvc` and `fmvn`, which read back.
#[test]
fn fen_epd_writes_epd_records_that_read_back() {
    let path = "tests/conformance/ok/san-check-and-checkmate-suffixes.pgn";
    let out = run(&["fen", "--epd", path]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - fmvn 4; hmvc 0;\n"
    );
    let every = run(&["fen", "--epd", "--every-ply", path]);
    let lines: Vec<String> = text(&every.stdout).lines().map(str::to_string).collect();
    assert_eq!(lines.len(), 1 + 7 + 1, "start, 7 plies, empty line");
    assert_eq!(
        lines[0],
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - fmvn 1; hmvc 0;"
    );
    // EPD gives the en passant square after every double push (1994 rule).
    assert_eq!(
        lines[1],
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 fmvn 1; hmvc 0;"
    );
    let fens = text(&run(&["fen", "--every-ply", path]).stdout);
    for (epd, fen) in lines
        .iter()
        .zip(fens.lines())
        .filter(|(l, _)| !l.is_empty())
    {
        let epd: pgnkit::chess::Epd = epd.parse().expect("an EPD record");
        assert_eq!(epd.position().to_string(), fen);
    }
}

#[test]
fn help_explains_the_commands() {
    let out = run(&["--help"]);
    assert_eq!(out.status.code(), Some(0));
    let help = text(&out.stdout);
    for command in ["export", "check", "json", "fen"] {
        assert!(help.contains(command), "--help names {command}");
    }
    let out = run(&["export", "--help"]);
    let help = text(&out.stdout);
    assert!(help.contains("--rejects") && help.contains("--notation"));
}

#[test]
fn a_game_starting_mid_line_reports_file_columns() {
    let input = "[Event \"a\"]\n\n1. e4 e5 1-0 [Event \"b\"] 1. d4 Kd2 *\n";
    for threads in ["1", "2"] {
        let out = run_with_stdin(&["check", "--threads", threads], input.as_bytes());
        assert_eq!(out.status.code(), Some(1));
        let stdout = text(&out.stdout);
        assert!(stdout.starts_with("-:3:32: error: "), "{stdout}");
        // The line shown is the game's part of line 3; the caret sits
        // under `Kd2` in it.
        let mut lines = stdout.lines().skip(1);
        let shown = lines.next().expect("the source line");
        let caret = lines.next().expect("a caret line");
        assert_eq!(shown, "  [Event \"b\"] 1. d4 Kd2 *");
        assert_eq!(caret.find('^'), shown.find("Kd2"), "{stdout}");
    }
}
