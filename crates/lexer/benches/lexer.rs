//! Throughput of the lexer crate on the project's bench file (built by
//! `shared/corpus/bench-file.sh`): (a) splitting games (slice and streaming, against two
//! references over the same bytes: a u64 word sum for memory bandwidth and a memchr newline
//! count for the cheapest byte search), (b) tokenizing
//! everything, (c) the header-only path.
//!
//! The file is `PGNKIT_BENCH_FILE`, else `target/bench.pgn` in the workspace; when missing it is
//! built by running the corpus script (found through `PGNKIT_CORPUS`, default
//! `../shared/corpus` from the workspace root).

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use pgnkit_lexer::{GameSplitter, Lexer, Reader, tags};

fn lexer_benches(c: &mut Criterion) {
    let path = pgnkit_corpus::bench_file();
    let data = std::fs::read(&path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()));

    // The game count, two ways: the slice splitter and the streaming reader must agree.
    let games = GameSplitter::new(&data).count();
    let mut reader = Reader::new(&data[..]);
    let mut streamed = 0;
    while reader.next_game().expect("in memory").is_some() {
        streamed += 1;
    }
    assert_eq!(
        games, streamed,
        "splitter and reader disagree on the game count"
    );
    assert!(games > 10_000, "bench file holds only {games} games");
    eprintln!("bench file: {} bytes, {games} games", data.len());

    let mut group = c.benchmark_group("lexer");
    group.throughput(Throughput::Bytes(data.len() as u64));
    group.sample_size(10);

    // The byte-search reference for splitting (issue #3): one vectorized pass over the same
    // bytes that only counts line ends.
    let newlines = memchr::memchr_iter(b'\n', &data).count();
    group.bench_function("memchr newline count", |b| {
        b.iter(|| {
            assert_eq!(
                memchr::memchr_iter(b'\n', black_box(&data)).count(),
                newlines
            )
        });
    });

    // Memory bandwidth on this machine: the plainest pass over the same bytes, a wrapping sum
    // of them as u64 words (vectorized to wide loads and adds; what "near memory bandwidth"
    // is measured against).
    let sum = word_sum(&data);
    group.bench_function("u64 word sum (bandwidth)", |b| {
        b.iter(|| assert_eq!(word_sum(black_box(&data)), sum));
    });

    group.bench_function("split (GameSplitter)", |b| {
        b.iter(|| assert_eq!(GameSplitter::new(black_box(&data)).count(), games));
    });

    group.bench_function("split (Reader, streaming)", |b| {
        b.iter(|| {
            let mut reader = Reader::new(black_box(&data[..]));
            let mut n = 0;
            while reader.next_game().expect("in memory").is_some() {
                n += 1;
            }
            assert_eq!(n, games);
        });
    });

    group.bench_function("tokenize (whole file)", |b| {
        b.iter(|| Lexer::new(black_box(&data)).count());
    });

    group.bench_function("split + tokenize every game", |b| {
        b.iter(|| {
            GameSplitter::new(black_box(&data))
                .map(|g| Lexer::new(g.bytes).count())
                .sum::<usize>()
        });
    });

    group.bench_function("split + tags (header-only)", |b| {
        b.iter(|| {
            GameSplitter::new(black_box(&data))
                .map(|g| tags(g.bytes).count())
                .sum::<usize>()
        });
    });

    group.finish();
}

/// The wrapping sum of `data` as little-endian u64 words (a last partial word zero-padded).
fn word_sum(data: &[u8]) -> u64 {
    let (words, rest) = data.as_chunks::<8>();
    let mut last = [0u8; 8];
    last[..rest.len()].copy_from_slice(rest);
    let sum = words
        .iter()
        .fold(0u64, |sum, w| sum.wrapping_add(u64::from_le_bytes(*w)));
    sum.wrapping_add(u64::from_le_bytes(last))
}

criterion_group!(benches, lexer_benches);
criterion_main!(benches);
