//! Reader throughput on the bench file (`PGNKIT_BENCH_FILE`, else
//! `<workspace>/target/bench.pgn`, built with the corpus's
//! `bench-file.sh` when missing): (a) validate only, through the
//! [`Validate`] visitor; (b) tags only; (c) full trees. Each asserts the
//! game count.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use pgnkit_game::{TagsOnly, Validate, read_games, visit_games};

fn reader(c: &mut Criterion) {
    let path = pgnkit_corpus::bench_file();
    let input = std::fs::read(&path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()));
    // The expected count, found without the reader: every game of the bench
    // file has an Event tag, one per line.
    let expected = input
        .split(|&b| b == b'\n')
        .filter(|line| line.starts_with(b"[Event "))
        .count();
    let broken = visit_games(&input, Validate)
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
            let n = visit_games(&input, Validate).count();
            assert_eq!(n, expected);
            n
        })
    });
    group.bench_function("tags_only", |b| {
        b.iter(|| {
            let n = visit_games(&input, TagsOnly::default()).count();
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
