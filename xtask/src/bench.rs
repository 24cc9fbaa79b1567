//! `cargo xtask bench`: throughput of scan, validate, tree and export on the bench file.
//!
//! The numbers come from the crates' criterion benches, run with
//! `PGNKIT_BENCH_FILE` pointing at the bench file; this task then reads
//! criterion's estimates (`target/criterion/**/new/estimates.json`, the median)
//! and prints MB/s and games/s for every benchmark that measured bytes.
//!
//! With `--peers` it instead runs pgnkit and pgn-reader + shakmaty side by
//! side as separate processes (see [`crate::peers`]); with `--positions` it
//! measures the position index and position search (see
//! [`crate::peers::positions`]); with `--instructions`
//! it counts instructions on a fixed sample against a committed baseline (see
//! [`crate::bench_instructions`]).

use crate::cmd::{cargo, exec, root};
use std::path::{Path, PathBuf};

/// The benches that read the bench file, as `(package, bench target)`.
const BENCHES: &[(&str, &str)] = &[
    ("pgnkit-lexer", "lexer"),
    ("pgnkit-game", "reader"),
    ("pgnkit-export", "export"),
];

/// How to call `cargo xtask bench`.
const USAGE: &str = "usage: cargo xtask bench [--peers | --input | --select] [--pairs N] [FILE]
       cargo xtask bench --positions [--pairs N] [--threads N] [FILE]
       cargo xtask bench --convert [--pairs N] [--threads N] [--python-bytes N] [FILE]
       cargo xtask bench --instructions [--bless]";

/// Measured pairs per task for `--peers` unless `--pairs` says otherwise.
const DEFAULT_PAIRS: usize = 5;

/// Entry point for `cargo xtask bench [--peers [--pairs N]] [FILE]`.
pub fn run(args: &[String]) -> Result<(), String> {
    let mut peers = false;
    let mut input = false;
    let mut select = false;
    let mut convert = false;
    let mut positions = false;
    let mut instructions = false;
    let mut bless = false;
    let mut threads = 2;
    let mut python_bytes = 2_000_000;
    let mut pairs = None;
    let mut file = None;
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "--peers" => peers = true,
            "--input" => input = true,
            "--select" => select = true,
            "--convert" => convert = true,
            "--positions" => positions = true,
            "--instructions" => instructions = true,
            "--bless" => bless = true,
            "--threads" => {
                threads = rest
                    .next()
                    .and_then(|n| n.parse().ok())
                    .filter(|&n| n > 0)
                    .ok_or("--threads takes a count above 0")?;
            }
            "--python-bytes" => {
                python_bytes = rest
                    .next()
                    .and_then(|n| n.parse().ok())
                    .ok_or("--python-bytes takes a byte count (0: no Python peer)")?;
            }
            "--pairs" => {
                let n: usize = rest
                    .next()
                    .and_then(|n| n.parse().ok())
                    .filter(|&n| n > 0)
                    .ok_or("--pairs takes a count above 0")?;
                pairs = Some(n);
            }
            _ if arg.starts_with('-') || file.is_some() => return Err(USAGE.into()),
            _ => file = Some(PathBuf::from(arg)),
        }
    }
    if pairs.is_some() && !peers && !convert && !input && !select && !positions {
        return Err(format!(
            "--pairs needs --peers, --input, --select, --convert or --positions\n{USAGE}"
        ));
    }
    if instructions || bless {
        // A fixed sample and one baseline: no file, no pairs, no other mode.
        if !instructions
            || file.is_some()
            || pairs.is_some()
            || peers
            || input
            || select
            || convert
            || positions
        {
            return Err(format!(
                "--instructions takes no FILE and no option but --bless (which needs it)\n{USAGE}"
            ));
        }
        return crate::bench_instructions::run(bless);
    }
    let file = match file {
        Some(file) => file,
        None => pgnkit_corpus::try_bench_file()?,
    };
    if peers {
        return crate::peers::run(&file, pairs.unwrap_or(DEFAULT_PAIRS));
    }
    if input {
        return crate::peers::run_input(&file, pairs.unwrap_or(DEFAULT_PAIRS));
    }
    if select {
        return crate::peers::select::run(&file, pairs.unwrap_or(3));
    }
    if positions {
        return crate::peers::positions::run(&file, pairs.unwrap_or(3), threads);
    }
    if convert {
        return crate::bench_convert::run(&file, pairs.unwrap_or(3), threads, python_bytes);
    }
    let bytes = std::fs::metadata(&file)
        .map_err(|e| format!("{}: {e}", file.display()))?
        .len();
    let games = count_event_lines(&file)?;
    for (package, bench) in BENCHES {
        let mut command = cargo(&["bench", "-p", package, "--bench", bench]);
        command.env("PGNKIT_BENCH_FILE", &file);
        exec(&mut command)?;
    }
    println!(
        "bench file: {} ({bytes} bytes, {games} games by `[Event ` lines)",
        file.display()
    );
    println!(
        "{:<44} {:>12} {:>10} {:>12}",
        "benchmark", "median", "MB/s", "games/s"
    );
    let mut rows = Vec::new();
    collect(&root().join("target/criterion"), bytes, &mut rows);
    rows.sort_by(|a, b| a.0.cmp(&b.0));
    for (id, seconds) in rows {
        println!(
            "{id:<44} {:>10.1}ms {:>10.1} {:>12.0}",
            seconds * 1e3,
            bytes as f64 / seconds / 1e6,
            games as f64 / seconds
        );
    }
    Ok(())
}

/// Counts lines that start with `[Event `, the corpus's own game count rule.
fn count_event_lines(file: &Path) -> Result<usize, String> {
    let data = std::fs::read(file).map_err(|e| format!("{}: {e}", file.display()))?;
    Ok(data
        .split(|&b| b == b'\n')
        .filter(|line| line.starts_with(b"[Event "))
        .count())
}

/// Finds every criterion benchmark whose throughput is the bench file's size
/// and records its median time in seconds.
fn collect(dir: &Path, bytes: u64, rows: &mut Vec<(String, f64)>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.ends_with("new") {
            if let Some(row) = read_estimate(&path, bytes) {
                rows.push(row);
            }
        } else if path.is_dir() {
            collect(&path, bytes, rows);
        }
    }
}

fn read_estimate(dir: &Path, bytes: u64) -> Option<(String, f64)> {
    let benchmark: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("benchmark.json")).ok()?).ok()?;
    if benchmark["throughput"]["Bytes"].as_u64()? != bytes {
        return None;
    }
    let estimates: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("estimates.json")).ok()?).ok()?;
    let nanos = estimates["median"]["point_estimate"].as_f64()?;
    Some((benchmark["full_id"].as_str()?.to_string(), nanos / 1e9))
}
