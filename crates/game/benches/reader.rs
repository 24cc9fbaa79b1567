//! Reader throughput on the bench file (`PGNKIT_BENCH_FILE`, else
//! `<workspace>/target/bench.pgn`, built with the corpus's
//! `bench-file.sh` when missing): (a) validate only, through the
//! [`Validate`] visitor; (b) tags only; (c) full trees. Each asserts the
//! game count.

use std::path::{Path, PathBuf};
use std::process::Command;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use pgnkit_game::{ReadOptions, TagsOnly, Validate, read_games, visit_games};

fn bench_file() -> Vec<u8> {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let path = match std::env::var_os("PGNKIT_BENCH_FILE") {
        Some(p) => PathBuf::from(p),
        None => workspace.join("target/bench.pgn"),
    };
    if !path.is_file() {
        let corpus = match std::env::var_os("PGNKIT_CORPUS") {
            Some(d) => PathBuf::from(d),
            None => workspace.join("../shared/corpus"),
        };
        let script = corpus.join("bench-file.sh");
        assert!(
            script.is_file(),
            "bench file {} missing and no corpus at {} (set PGNKIT_CORPUS or PGNKIT_BENCH_FILE)",
            path.display(),
            corpus.display()
        );
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("create the bench file's folder");
        }
        let status = Command::new("bash")
            .arg(&script)
            .arg(&path)
            .status()
            .expect("run bench-file.sh");
        assert!(status.success(), "bench-file.sh failed");
    }
    std::fs::read(&path).expect("read the bench file")
}

fn reader(c: &mut Criterion) {
    let input = bench_file();
    // The expected count, found without the reader: every game of the bench
    // file has an Event tag, one per line.
    let expected = input
        .split(|&b| b == b'\n')
        .filter(|line| line.starts_with(b"[Event "))
        .count();
    let broken = visit_games(&input, Validate, ReadOptions::default())
        .filter(|g| g.is_broken())
        .count();
    eprintln!(
        "bench file: {} bytes, {expected} games, {broken} broken",
        input.len()
    );
    assert!(expected > 0, "no [Event tag in the bench file");
    assert_eq!(broken, 0, "the bench file reads without errors");

    let mut group = c.benchmark_group("reader");
    group.sample_size(10);
    group.throughput(Throughput::Bytes(input.len() as u64));
    group.bench_function("validate", |b| {
        b.iter(|| {
            let n = visit_games(&input, Validate, ReadOptions::default()).count();
            assert_eq!(n, expected);
            n
        })
    });
    group.bench_function("tags_only", |b| {
        b.iter(|| {
            let n = visit_games(&input, TagsOnly::default(), ReadOptions::default()).count();
            assert_eq!(n, expected);
            n
        })
    });
    group.bench_function("trees", |b| {
        b.iter(|| {
            let n = read_games(&input).count();
            assert_eq!(n, expected);
            n
        })
    });
    group.finish();
}

criterion_group!(benches, reader);
criterion_main!(benches);
