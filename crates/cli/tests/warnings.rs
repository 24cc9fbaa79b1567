//! Warnings on standard error are summarised, as compilers do: the first 5 of each kind with
//! their place, then one line per kind counting the rest; `--warnings all` prints every one and
//! `--warnings none` none, the summary line counting them all either way. The standard's
//! `moves/seconds` time control and ISO dates are read without a warning.

mod common;

use common::run_with_stdin;

/// 100 games, each with a rating and a time of day that cannot be read (two kinds of warning),
/// and the forms read without one.
fn games() -> Vec<u8> {
    let mut pgn = String::new();
    for i in 0..100 {
        pgn.push_str(&format!(
            "[Event \"g{i}\"]\n[WhiteElo \"abc\"]\n[UTCTime \"noon\"]\n[TimeControl \"1/259200\"]\n[Date \"2022-07-13\"]\n\n1. e4 *\n\n"
        ));
    }
    pgn.into_bytes()
}

/// Standard error's lines, the summary line (the last) apart.
fn warning_lines(which: &[&str]) -> Vec<String> {
    let mut args = vec!["convert", "-", "-o", "-", "--format", "ndjson"];
    args.extend_from_slice(which);
    let out = run_with_stdin(&args, &games());
    let text = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 100);
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let summary = lines.pop().unwrap_or_default();
    assert!(summary.contains("200 warnings"), "{summary}");
    lines
}

#[test]
fn warnings_are_summarised_by_kind() {
    let lines = warning_lines(&[]);
    for (tag, expected) in [
        ("WhiteElo", "an int16 rating"),
        ("UTCTime", "a time HH:MM:SS"),
    ] {
        let shown: Vec<&String> = lines
            .iter()
            .filter(|l| l.contains(": warning: tag ") && l.contains(tag))
            .collect();
        assert_eq!(shown.len(), 5, "{lines:#?}");
        assert!(shown[0].starts_with("-:1:1: warning: tag"), "{}", shown[0]);
        let rest = format!(
            "pgnkit: ... and 95 more: tag {tag} is not {expected} (--warnings all prints them)"
        );
        assert!(lines.contains(&rest), "{lines:#?}");
    }
    // Nothing else: the time controls and dates were read without a warning.
    assert_eq!(lines.len(), 2 * (5 + 1), "{lines:#?}");
    assert!(
        !lines
            .iter()
            .any(|l| l.contains("TimeControl") || l.contains("Date"))
    );
}

#[test]
fn warnings_all_and_none() {
    let all = warning_lines(&["--warnings", "all"]);
    assert_eq!(all.len(), 200, "{all:#?}");
    assert!(all.iter().all(|l| l.contains(": warning: tag ")));
    // Each game's two warnings at its first line.
    assert!(
        all.iter()
            .any(|l| l.starts_with("-:793:1: warning: tag WhiteElo"))
    );
    assert!(warning_lines(&["--warnings", "none"]).is_empty());
}
