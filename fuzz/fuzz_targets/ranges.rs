//! Fuzz target `ranges`: for fuzzed text, stored plain or in pzstd's layout (frames cut at
//! fuzzed places), and fuzzed cut points, the byte ranges `[c0, c1), [c1, c2), ...` opened
//! with pgnkit-input's `open` together read every game of the whole file exactly once, in
//! order, with the same bytes (and, in a plain file, the same offsets); so do the ranges of
//! `split_points` for 2 to 5 parts. Only when the whole file reads without error.
//!
//! Input: the number of cuts (0 to 7), two bytes each (a fraction of the file's size), the
//! pzstd flag and, for pzstd, the number of frames (1 to 8), then the text.

#![no_main]

use libfuzzer_sys::fuzz_target;
use pgnkit::input::{Format, HEAD_LEN, Source, detect, split_points};
use pgnkit_fuzz::inputs::{Outcome, pzstd, read, temp_file};

/// The games of every range in turn, or `None` when one of them fails.
fn by_ranges(path: &std::path::Path, ranges: &[(u64, u64)], plain: bool) -> Option<Outcome> {
    let mut all = Outcome {
        games: Vec::new(),
        error: None,
    };
    for &(start, end) in ranges {
        let part = read(Source::path(path), Some(start..end), 1);
        if let Some(error) = part.error {
            panic!("range {start}..{end} fails where the whole file reads: {error}");
        }
        for (_, offset, game) in part.games {
            // Offsets in a pzstd range count from its first game.
            let offset = if plain { offset } else { 0 };
            all.games.push((0, offset, game));
        }
    }
    Some(all)
}

fuzz_target!(|data: &[u8]| {
    let Some((&cuts, rest)) = data.split_first() else {
        return;
    };
    let Some((fractions, rest)) = rest.split_at_checked(2 * usize::from(cuts % 8)) else {
        return;
    };
    let Some((&layout, text)) = rest.split_first() else {
        return;
    };
    let plain = layout & 1 == 0;
    // Text that looks compressed or UTF-16 is refused by range readers, rightly.
    if detect(text.get(..HEAD_LEN).unwrap_or(text)) != Format::Text {
        return;
    }
    let bytes = if plain {
        text.to_vec()
    } else {
        let frames = usize::from(layout >> 1) % 8 + 1;
        let size = text.len().div_ceil(frames).max(1);
        let parts: Vec<&[u8]> = text.chunks(size).collect();
        pzstd(&parts)
    };
    if bytes.is_empty() {
        return;
    }
    let path = temp_file("ranges", &bytes);
    let whole = read(Source::path(&path), None, 1);
    if whole.error.is_some() {
        return;
    }
    let expected: Vec<_> = whole
        .games
        .iter()
        .map(|(_, offset, game)| (0, if plain { *offset } else { 0 }, game.clone()))
        .collect();
    let size = bytes.len() as u64;
    let mut points: Vec<u64> = fractions
        .chunks(2)
        .map(|c| u64::from(u16::from_le_bytes([c[0], c[1]])) * size / 65536)
        .collect();
    points.push(0);
    points.push(size);
    points.sort_unstable();
    points.dedup();
    let ranges: Vec<(u64, u64)> = points.windows(2).map(|w| (w[0], w[1])).collect();
    if let Some(all) = by_ranges(&path, &ranges, plain) {
        assert_eq!(
            all.games, expected,
            "the ranges {ranges:?} read other games"
        );
    }
    for n in 2..=5 {
        let ranges = split_points(&path, "ranges", n).expect("split points of a readable file");
        assert!(ranges.len() <= n, "more than {n} ranges: {ranges:?}");
        if let Some(all) = by_ranges(&path, &ranges, plain) {
            assert_eq!(
                all.games, expected,
                "split_points({n}) = {ranges:?} read other games"
            );
        }
    }
});
