//! `cargo xtask conformance`: the conformance suite, summarised per spec area.
//!
//! The suite itself is the `conformance` test of `pgnkit-conformance`
//! (`tests/`). It writes one row per fixture and check to a report file;
//! this task runs it and prints the table. `--bless` sets `INSTA_UPDATE=always`
//! so changed snapshots are written in place: review them with `git diff`
//! before committing, as you would any code.

use crate::cmd::{cargo, exec, root};
use std::collections::BTreeMap;

/// Entry point for `cargo xtask conformance [--bless]`.
pub fn run(args: &[String]) -> Result<(), String> {
    let bless = match args {
        [] => false,
        [flag] if flag == "--bless" => true,
        _ => return Err("usage: cargo xtask conformance [--bless]".into()),
    };
    let report = root().join("target/conformance-report.tsv");
    let _ = std::fs::remove_file(&report);
    let mut test = cargo(&["test", "-p", "pgnkit-conformance", "--test", "conformance"]);
    test.env("PGNKIT_CONFORMANCE_REPORT", &report)
        .env("INSTA_UPDATE", if bless { "always" } else { "no" });
    let outcome = exec(&mut test);
    let text = std::fs::read_to_string(&report)
        .map_err(|e| format!("the suite wrote no report at {}: {e}", report.display()))?;
    print_table(&text);
    outcome
}

/// Rows are `area \t fixture \t check \t pass|fail`.
fn print_table(report: &str) {
    // area -> (fixtures, fixtures with every check passing)
    let mut by_fixture: BTreeMap<(&str, &str), bool> = BTreeMap::new();
    for line in report.lines() {
        let cols: Vec<&str> = line.split('\t').collect();
        if let [area, fixture, _check, verdict, ..] = cols[..] {
            let ok = by_fixture.entry((area, fixture)).or_insert(true);
            *ok &= verdict == "pass";
        }
    }
    let mut areas: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for ((area, _), ok) in &by_fixture {
        let entry = areas.entry(area).or_default();
        entry.0 += 1;
        entry.1 += usize::from(*ok);
    }
    println!("{:<34} {:>8} {:>8}", "spec area", "fixtures", "passing");
    for (area, (total, passing)) in &areas {
        println!("{area:<34} {total:>8} {passing:>8}");
    }
    let total: usize = areas.values().map(|a| a.0).sum();
    let passing: usize = areas.values().map(|a| a.1).sum();
    println!("{:<34} {total:>8} {passing:>8}", "all");
    for ((area, fixture), ok) in &by_fixture {
        if !ok {
            println!("failing: {area}: {fixture}");
        }
    }
}
