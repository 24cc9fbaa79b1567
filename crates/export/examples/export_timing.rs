//! Times reading alone and reading + export on one file, in CPU time of this
//! thread where Linux tells it (`/proc/thread-self/schedstat`), else wall time:
//! `cargo run --release -p pgnkit-export --example export_timing -- FILE`.

use std::time::Instant;

#[path = "../benches/common/baseline.rs"]
mod baseline;

use pgnkit_export::{ExportOptions, GameWriter, StreamWriter};
use pgnkit_game::{Validate, read_games, visit_games};

/// Seconds of CPU time this thread has run, or wall time since `start`.
fn seconds(start: Instant) -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<f64>().ok())
        .map_or_else(|| start.elapsed().as_secs_f64(), |ns| ns / 1e9)
}

fn timed(label: &str, bytes: usize, f: impl FnOnce() -> u64) {
    // `EXPORT_TIMING=stream` (a label prefix) runs only the matching timings.
    if let Ok(only) = std::env::var("EXPORT_TIMING")
        && !label.starts_with(only.as_str())
    {
        return;
    }
    let start = Instant::now();
    let before = seconds(start);
    let games = f();
    let s = seconds(start) - before;
    let mb = bytes as f64 / 1e6;
    println!(
        "{label:<28} {s:>6.2}s {:>7.1} MB/s {:>9.0} games/s",
        mb / s,
        games as f64 / s
    );
}

fn main() {
    let path = std::env::args().nth(1).expect("usage: export_timing FILE");
    let data = std::fs::read(&path).expect("readable file");
    let mut out = Vec::with_capacity(data.len() * 2);
    for _ in 0..2 {
        timed("baseline: pgn-reader+shakmaty", data.len(), || {
            baseline::run(&data)
        });
        timed("validate", data.len(), || {
            visit_games(&data, Validate).count() as u64
        });
        timed("stream: validate+export", data.len(), || {
            out.clear();
            let mut games = visit_games(&data, StreamWriter::new(ExportOptions::export()));
            let mut n = 0;
            while let Some(read) = games.next() {
                if !read.is_broken() {
                    games.visitor().write_game_to(&mut out).expect("Vec");
                    n += 1;
                }
            }
            n
        });
        timed("tree: read+export", data.len(), || {
            out.clear();
            let mut writer = GameWriter::new(ExportOptions::export());
            let mut n = 0;
            for read in read_games(&data) {
                if !read.is_broken() {
                    writer.write(&read.value, &mut out).expect("Vec");
                    n += 1;
                }
            }
            n
        });
    }
}
