//! The conformance suite: every fixture under `tests/conformance/` against
//! its expectation (`ok` clean, `err` diagnosed, `roundtrip` byte-exact) and
//! its four reviewed snapshots (tokens, JSON, export, diagnostics), plus
//! idempotence of export and of JSON for every game that reads.
//!
//! Every check of every fixture runs even when one fails; the failures are
//! listed at the end. `cargo xtask conformance` runs this test and prints a
//! table per spec area from the report it writes to
//! `PGNKIT_CONFORMANCE_REPORT`.

use std::fmt::Write as _;
use std::panic::{AssertUnwindSafe, catch_unwind};

use pgnkit::export::{ExportOptions, to_string};
use pgnkit::game::{Game, read_games};
use pgnkit_conformance::{Expect, Fixture, diagnostics_dump, fixtures, token_dump};

/// Marks the end of a dump so trailing empty lines are visible and kept.
const END: &str = "<end of output>";

struct Read {
    games: Vec<Game>,
    broken: Vec<bool>,
    diagnostics: Vec<pgnkit::game::Diagnostics>,
}

fn read(bytes: &[u8]) -> Read {
    let mut read = Read {
        games: Vec::new(),
        broken: Vec::new(),
        diagnostics: Vec::new(),
    };
    for game in read_games(bytes) {
        read.broken.push(game.is_broken());
        read.diagnostics.push(game.diagnostics.clone());
        read.games.push(game.value);
    }
    read
}

/// The export of every game that reads without errors, as the CLI writes it.
fn export_all(read: &Read) -> String {
    let options = ExportOptions::export();
    read.games
        .iter()
        .zip(&read.broken)
        .filter(|(_, broken)| !**broken)
        .map(|(game, _)| to_string(game, &options))
        .collect()
}

fn snapshot(fixture: &Fixture, kind: &str, text: String) {
    insta::with_settings!({
        snapshot_path => "../conformance/snapshots",
        prepend_module_to_snapshot => false,
        omit_expression => true,
        input_file => &fixture.path,
    }, {
        insta::assert_snapshot!(fixture.snapshot(kind), text);
    });
}

/// A named check of one fixture.
type Check<'a> = (&'static str, Box<dyn Fn() + 'a>);

fn checks(fixture: &Fixture) -> Vec<Check<'_>> {
    vec![
        (
            "expectation",
            Box::new(move || {
                let bytes = fixture.bytes();
                let read = read(&bytes);
                assert!(!read.games.is_empty(), "no game found");
                let count: usize = read.diagnostics.iter().map(|d| d.len()).sum();
                match fixture.expect {
                    Expect::Clean | Expect::Roundtrip => assert_eq!(
                        count,
                        0,
                        "expected no diagnostics, got:\n{}",
                        diagnostics_dump(&read.diagnostics.iter().enumerate().collect::<Vec<_>>())
                    ),
                    Expect::Diagnostics => assert!(count > 0, "expected a diagnostic, got none"),
                }
                if fixture.expect == Expect::Roundtrip {
                    let text = export_all(&read);
                    assert_eq!(text.as_bytes(), &bytes[..], "export differs from the input");
                }
            }),
        ),
        (
            "tokens",
            Box::new(move || snapshot(fixture, "tokens", token_dump(&fixture.bytes()))),
        ),
        (
            "diagnostics",
            Box::new(move || {
                let read = read(&fixture.bytes());
                let list: Vec<_> = read.diagnostics.iter().enumerate().collect();
                snapshot(fixture, "diagnostics", diagnostics_dump(&list));
            }),
        ),
        (
            "export",
            Box::new(move || {
                let read = read(&fixture.bytes());
                snapshot(fixture, "export", format!("{}{END}", export_all(&read)));
            }),
        ),
        (
            "json",
            Box::new(move || {
                let read = read(&fixture.bytes());
                let mut text = String::new();
                for (i, game) in read.games.iter().enumerate() {
                    if read.broken[i] {
                        let _ = writeln!(text, "game {}: broken, not shown", i + 1);
                        continue;
                    }
                    let value: serde_json::Value =
                        serde_json::from_str(&game.to_json()).expect("to_json gives JSON");
                    let _ = writeln!(
                        text,
                        "game {}:\n{}",
                        i + 1,
                        serde_json::to_string_pretty(&value).expect("a value prints")
                    );
                }
                snapshot(fixture, "json", text);
            }),
        ),
        (
            "idempotent",
            Box::new(move || {
                let first = export_all(&read(&fixture.bytes()));
                let second = export_all(&read(first.as_bytes()));
                assert_eq!(first, second, "export(read(export(g))) != export(g)");
                // Our own output never gives an error, nor a warning the
                // input did not already give (`SetUp "1"` without `FEN` is
                // written as read, so its warning stays).
                let before = read(&fixture.bytes());
                let warned = |r: &Read| -> Vec<String> {
                    let mut all: Vec<String> = r
                        .diagnostics
                        .iter()
                        .flat_map(|d| d.iter().map(|d| d.message()))
                        .collect();
                    all.sort();
                    all.dedup();
                    all
                };
                let again = read(first.as_bytes());
                assert!(
                    again.broken.iter().all(|b| !b),
                    "our own export output has errors"
                );
                for message in warned(&again) {
                    assert!(
                        warned(&before).contains(&message),
                        "our own export output gives a new warning: {message}"
                    );
                }
            }),
        ),
        (
            "json-roundtrip",
            Box::new(move || {
                let read = read(&fixture.bytes());
                for (game, broken) in read.games.iter().zip(&read.broken) {
                    if *broken {
                        continue;
                    }
                    let json = game.to_json();
                    let back = Game::from_json(&json).expect("our JSON reads back");
                    assert_eq!(back.to_json(), json, "JSON -> Game -> JSON changed");
                }
            }),
        ),
    ]
}

#[test]
fn conformance() {
    let fixtures = fixtures();
    assert!(fixtures.len() >= 40, "only {} fixtures", fixtures.len());
    let mut report = String::new();
    let mut failures = Vec::new();
    for fixture in &fixtures {
        for (check, run) in checks(fixture) {
            let passed = catch_unwind(AssertUnwindSafe(run)).is_ok();
            let verdict = if passed { "pass" } else { "fail" };
            let _ = writeln!(
                report,
                "{}\t{}\t{check}\t{verdict}",
                fixture.area(),
                fixture.snapshot("").trim_end_matches('.')
            );
            if !passed {
                failures.push(format!("{} ({check})", fixture.path.display()));
            }
        }
    }
    if let Some(path) = std::env::var_os("PGNKIT_CONFORMANCE_REPORT") {
        std::fs::write(&path, &report).expect("the report can be written");
    }
    assert!(
        failures.is_empty(),
        "{} conformance checks failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
