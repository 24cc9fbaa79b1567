//! `pgnkit convert`'s memory (issue 16, "Speed and memory"): games + moves Parquet of the
//! corpus's Lichess files four times over, with two threads; the peak resident memory (VmHWM,
//! read from /proc while the child runs, as the reliability tests do) stays under the issue's
//! 64 MB. That it does not grow with the input (the same text once against four times) is
//! not true yet: that test is ignored, with the figures, until it is. Not a timed test: only
//! memory is compared.

mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Peak resident memory may differ by this much between two inputs without counting as
/// growth (allocator noise, a few more row groups' metadata).
const NOISE_KB: u64 = 4 * 1024;

/// The bound for games + moves Parquet.
const BOUND_KB: u64 = 64 * 1024;

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("convert-memory")
        .join(name);
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).expect("a scratch folder");
    dir
}

/// The text of every Lichess file of the corpus (clocks and evals on most moves), each
/// followed by an empty line.
fn lichess_text() -> Vec<u8> {
    let dir = pgnkit_corpus::dir().join("lichess-annotated");
    let mut text = Vec::new();
    for path in pgnkit_corpus::pgn_files(&dir) {
        text.extend(fs::read(&path).expect("a corpus file"));
        text.extend_from_slice(b"\n\n");
    }
    assert!(
        text.len() > 4_000_000,
        "{} bytes of Lichess games",
        text.len()
    );
    text
}

/// Runs `convert input` (games and moves Parquet, two threads) and returns its peak resident
/// memory in kB, read from /proc while it runs.
fn peak_kb(dir: &Path, input: &Path) -> u64 {
    let mut child = Command::new(env!("CARGO_BIN_EXE_pgnkit"))
        .arg("convert")
        .arg(input)
        .args([
            "-o",
            "games.parquet",
            "--moves",
            "moves.parquet",
            "--threads",
            "2",
        ])
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary starts");
    let (status, peak) = common::wait_with_peak(&mut child);
    // 1: some corpus games have errors and are rejected; 2 would be a failure.
    assert!(matches!(status.code(), Some(0 | 1)), "{status}");
    assert!(
        dir.join("moves.parquet").exists(),
        "the moves table is written"
    );
    peak
}

/// The Lichess text once and four times over, in `dir`.
fn inputs(dir: &Path) -> (usize, PathBuf, PathBuf) {
    let text = lichess_text();
    let once = dir.join("once.pgn");
    fs::write(&once, &text).unwrap();
    let four = dir.join("four.pgn");
    fs::write(&four, text.repeat(4)).unwrap();
    (text.len(), once, four)
}

#[test]
fn peak_memory_stays_under_the_bound() {
    let dir = scratch("bound");
    let (_, _, four) = inputs(&dir);
    let peak = peak_kb(&dir, &four);
    assert!(peak > 0, "VmHWM was read");
    assert!(peak <= BOUND_KB, "peak RSS {peak} kB over 64 MB");
}

#[test]
#[ignore = "issue 16, open: peak RSS still grows with the input (session 8: 36.0 MB once, \
            44.7 MB for four times the Lichess text; session 10: 48.5 -> 64.7 MB for the bench \
            file 1x -> 4x) while the live heap does not (heaptrack); the growth follows the \
            number of Parquet row groups (glibc arenas kept resident by each row group's \
            column writers or metadata); see docs/performance-history.md, \
            session 10 on row groups"]
fn peak_memory_does_not_grow_with_the_input() {
    let dir = scratch("growth");
    let (bytes, once, four) = inputs(&dir);
    let small = peak_kb(&dir, &once);
    let large = peak_kb(&dir, &four);
    assert!(small > 0 && large > 0, "VmHWM was read");
    assert!(
        large <= small + NOISE_KB,
        "peak RSS grew with the input: {small} kB for {bytes} bytes, {large} kB for four times that"
    );
}
