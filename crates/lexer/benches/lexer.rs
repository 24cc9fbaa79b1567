//! Throughput of the lexer crate on the project's bench file (built by
//! `shared/corpus/bench-file.sh`): (a) splitting games (slice and streaming, against two
//! references over the same bytes: a u64 word sum for memory bandwidth and a memchr newline
//! count for the cheapest byte search, plus on x86-64 a bound for any splitter built on byte-class
//! bitmasks, see [`bitmask_bound`]), (b) tokenizing everything, (c) the header-only path.
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

    #[cfg(target_arch = "x86_64")]
    {
        let events = bitmask_bound::events_bytewise(&data);
        group.bench_function(bitmask_bound::NAME, |b| {
            b.iter(|| assert_eq!(bitmask_bound::events(black_box(&data)), events));
        });
    }

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

/// How fast a splitter built on byte-class bitmasks (simdjson's first stage) could be here at
/// best: per 64-byte block, the masks of the five byte classes an exact splitter must tell apart
/// in movetext (`{`, `}`, line ends, `[`, and the other bytes that can end a game or change the
/// scan's state), the comments as a prefix XOR of the brace bits, and a visit of each stop outside
/// them and each line start inside them, with no PGN rule applied at any of them. A real
/// splitter does all of this and more (tag sections, markers, line numbers), so it cannot be
/// faster. SSE2 (every x86-64 processor) through `safe_arch`'s safe wrappers of `pmovmskb` and
/// friends; built with `RUSTFLAGS="-C target-feature=+avx2"` it uses 32-byte AVX2 compares.
#[cfg(target_arch = "x86_64")]
mod bitmask_bound {
    use safe_arch::*;

    #[cfg(target_feature = "avx2")]
    pub const NAME: &str = "bitmask bound (5 classes, AVX2, no PGN rules)";
    #[cfg(not(target_feature = "avx2"))]
    pub const NAME: &str = "bitmask bound (5 classes, SSE2, no PGN rules)";

    /// The masks of a block: `{`, `}`, line ends, `[`, stops.
    type Masks = [u64; 5];

    fn is_stop(b: u8) -> bool {
        matches!(b, b'"'..=b'*' | b'-' | b':' | b';' | b'[' | 0x80..)
    }

    /// Defines `masks` for one vector width: its lanes, the integer its byte mask fits, and
    /// `safe_arch`'s load, splat, compare, or, subtract, minimum and `pmovmskb` for it.
    macro_rules! masks_with {
        ($lanes:literal, $bits:ty, $load:expr, $splat:ident, $eq:ident, $or:ident, $sub:ident,
         $min:ident, $movemask:ident) => {
            fn masks(block: &[u8; 64]) -> Masks {
                let splat = |b: u8| $splat(b as i8);
                let mut masks = [0u64; 5];
                for (k, chunk) in block.as_chunks::<$lanes>().0.iter().enumerate() {
                    let v = $load(chunk);
                    let eq = |b: u8| $eq(v, splat(b));
                    // `"` to `*` in one unsigned range test, `:` and `;` in one compare, and the
                    // bytes of 0x80 and above by their own top bit.
                    let from_quote = $sub(v, splat(b'"'));
                    let quote_to_star = $eq($min(from_quote, splat(8)), from_quote);
                    let colons = $eq($or(v, splat(1)), splat(b';'));
                    let bracket = eq(b'[');
                    let stops = $or($or(quote_to_star, colons), $or($or(eq(b'-'), bracket), v));
                    let line = $or(eq(b'\n'), eq(b'\r'));
                    let classes = [eq(b'{'), eq(b'}'), line, bracket, stops];
                    for (mask, class) in masks.iter_mut().zip(classes) {
                        *mask |= u64::from($movemask(class) as $bits) << ($lanes * k);
                    }
                }
                masks
            }
        };
    }

    #[cfg(not(target_feature = "avx2"))]
    masks_with!(
        16,
        u16,
        load_unaligned_m128i,
        set_splat_i8_m128i,
        cmp_eq_mask_i8_m128i,
        bitor_m128i,
        sub_i8_m128i,
        min_u8_m128i,
        move_mask_i8_m128i
    );

    #[cfg(target_feature = "avx2")]
    masks_with!(
        32,
        u32,
        |chunk: &[u8; 32]| load_unaligned_m256i(&chunk.map(|b| b as i8)),
        set_splat_i8_m256i,
        cmp_eq_mask_i8_m256i,
        bitor_m256i,
        sub_i8_m256i,
        min_u8_m256i,
        move_mask_i8_m256i
    );

    fn prefix_xor(mut bits: u64) -> u64 {
        for shift in [1, 2, 4, 8, 16, 32] {
            bits ^= bits << shift;
        }
        bits
    }

    /// The stops outside comments and the line starts inside them, counted block by block
    /// (each brace toggles "inside"; the last partial block is left out).
    pub fn events(data: &[u8]) -> u64 {
        let (mut inside_carry, mut line_carry, mut count) = (0u64, 0u64, 0u64);
        for block in data.as_chunks::<64>().0 {
            let [open, close, line, bracket, stops] = masks(block);
            let inside = prefix_xor(open | close) ^ inside_carry;
            let starts = ((line << 1) | line_carry) & bracket & inside;
            let mut visit = (stops & !inside) | starts;
            while visit != 0 {
                count += 1;
                std::hint::black_box(visit.trailing_zeros());
                visit &= visit - 1;
            }
            inside_carry = 0u64.wrapping_sub(inside >> 63);
            line_carry = line >> 63;
        }
        count
    }

    /// [`events`] byte by byte: the answer the bench checks.
    pub fn events_bytewise(data: &[u8]) -> u64 {
        let (mut inside, mut after_line, mut count) = (false, false, 0u64);
        for block in data.as_chunks::<64>().0 {
            for &b in block {
                if b == b'{' || b == b'}' {
                    inside = !inside;
                }
                let start = inside && after_line && b == b'[';
                if (is_stop(b) && !inside && b != b'{') || start {
                    count += 1;
                }
                after_line = b == b'\n' || b == b'\r';
            }
        }
        count
    }
}

criterion_group!(benches, lexer_benches);
criterion_main!(benches);
