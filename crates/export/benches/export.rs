//! Export throughput on the bench file (`target/bench.pgn`, built by
//! `../shared/corpus/bench-file.sh` when missing; `PGNKIT_BENCH_FILE`
//! overrides): read + validate + export with the streaming writer, the same
//! through a `Game` tree, and the baseline pgn-reader + shakmaty doing
//! validate + SAN-with-suffix writing.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use pgnkit_export::{ExportOptions, GameWriter, StreamWriter};
use pgnkit_game::{read_games, visit_games};

/// Read + validate + export, streaming: returns (games written, bytes).
fn stream_export(data: &[u8], out: &mut Vec<u8>) -> (u64, usize) {
    out.clear();
    let mut games = visit_games(data, StreamWriter::new(ExportOptions::export()));
    let mut written = 0;
    while let Some(read) = games.next() {
        if !read.is_broken() {
            games.visitor().write_game_to(out).expect("Vec");
            written += 1;
        }
    }
    (written, out.len())
}

/// Read into trees + export.
fn tree_export(data: &[u8], out: &mut Vec<u8>) -> (u64, usize) {
    out.clear();
    let mut writer = GameWriter::new(ExportOptions::export());
    let mut written = 0;
    for read in read_games(data) {
        if !read.is_broken() {
            writer.write(&read.value, out).expect("Vec");
            written += 1;
        }
    }
    (written, out.len())
}

#[path = "common/baseline.rs"]
mod baseline;

fn export(c: &mut Criterion) {
    let path = pgnkit_corpus::bench_file();
    let data = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut out = Vec::with_capacity(data.len() + data.len() / 4);

    let (written, bytes) = stream_export(&data, &mut out);
    assert!(written > 1000, "only {written} games written");
    assert!(
        bytes > data.len() / 2,
        "export suspiciously short: {bytes} bytes"
    );
    let (tree_written, _) = tree_export(&data, &mut out);
    assert_eq!(tree_written, written);
    let baseline_ok = baseline::run(&data);
    assert!(baseline_ok > 1000);
    eprintln!(
        "bench file {}: {} bytes, {written} games exported, baseline validated {baseline_ok}",
        path.display(),
        data.len()
    );

    let mut group = c.benchmark_group("export");
    group.sample_size(10);
    group.throughput(Throughput::Bytes(data.len() as u64));
    group.bench_function("read+validate+export (stream)", |b| {
        b.iter(|| {
            let (n, _) = stream_export(black_box(&data), &mut out);
            assert_eq!(n, written);
        })
    });
    group.bench_function("read tree+export", |b| {
        b.iter(|| black_box(tree_export(black_box(&data), &mut out)))
    });
    group.bench_function("baseline pgn-reader+shakmaty validate+SAN", |b| {
        b.iter(|| black_box(baseline::run(black_box(&data))))
    });
    group.finish();
}

criterion_group!(benches, export);
criterion_main!(benches);
