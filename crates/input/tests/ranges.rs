//! Byte ranges: for every corpus file and 200 random sets of cut points each, the ranges'
//! games together are the file's games, each once, in order; the same for pzstd-layout
//! `.zst` files cut at arbitrary compressed offsets.
//!
//! A range reader hands out its games' bytes. The check: the ranges' bytes, one after the
//! other, are the file's bytes from its first game on, and every range starts at a game start
//! of the whole file (so re-splitting gives the same games).

#![cfg_attr(not(feature = "zstd"), allow(unused_imports))]

mod fixtures;

use std::collections::HashSet;
use std::io::Read;
use std::path::Path;

use fixtures::*;
use pgnkit_input::{open_range, split_points};
use pgnkit_lexer::Reader;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};

/// The text of a file, the offset of its first game and every game start.
fn games(text: &[u8]) -> (usize, HashSet<usize>) {
    let mut reader = Reader::new(text);
    let mut starts = HashSet::new();
    let mut first = text.len();
    while let Some(game) = reader.next_game().expect("slice") {
        let at = game.offset as usize;
        first = first.min(at);
        starts.insert(at);
    }
    (first, starts)
}

/// Reads the ranges cut at `cuts` of `path` and checks them against `text`.
fn check_cuts(
    path: &Path,
    text: &[u8],
    games: &(usize, HashSet<usize>),
    size: u64,
    cuts: &[u64],
) -> Result<(), TestCaseError> {
    let (first, starts) = games;
    let first = *first;
    let mut bounds = vec![0];
    let mut sorted = cuts.to_vec();
    sorted.sort_unstable();
    bounds.extend(sorted);
    bounds.push(size);
    let mut at = first;
    for w in bounds.windows(2) {
        let mut stream = open_range(path, "f", w[0], w[1], &options())
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        let mut bytes = Vec::new();
        stream
            .reader
            .read_to_end(&mut bytes)
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        if bytes.is_empty() {
            continue;
        }
        prop_assert!(
            starts.contains(&at),
            "range {}..{} starts at {at}, not a game start",
            w[0],
            w[1]
        );
        // The stream starts at the range's first game (a range from 0 past the junk before
        // it): its origin is that game's offset in a plain file.
        if let Some(origin) = stream.origin {
            prop_assert_eq!(origin as usize, at);
        }
        prop_assert!(
            text.get(at..at + bytes.len()) == Some(&bytes[..]),
            "range {}..{}: bytes differ from the file's at {at}",
            w[0],
            w[1]
        );
        at += bytes.len();
    }
    prop_assert_eq!(at, text.len(), "the ranges end before the file");
    Ok(())
}

fn cut_sets(size: u64) -> impl Strategy<Value = Vec<u64>> {
    prop::collection::vec(0..=size, 0..8)
}

#[test]
fn plain_ranges_of_every_corpus_file() {
    let files = pgnkit_corpus::all_pgn_files();
    for path in files {
        let text = std::fs::read(&path).expect("corpus file");
        let size = text.len() as u64;
        let starts = games(&text);
        // Files over 256 KiB (50 of 271) get fewer cases: every case reads
        // the whole file.
        let cases = if size > 1 << 20 {
            3
        } else if size > 256 << 10 {
            20
        } else {
            200
        };
        let mut runner = TestRunner::new(Config {
            cases,
            failure_persistence: None,
            ..Config::default()
        });
        runner
            .run(&cut_sets(size), |cuts| {
                check_cuts(&path, &text, &starts, size, &cuts)
            })
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    }
}

#[cfg(feature = "zstd")]
#[test]
fn pzstd_ranges_at_any_compressed_offset() {
    let corpus = pgnkit_corpus::dir();
    let dir = scratch("ranges");
    let mut files: Vec<_> = pgnkit_corpus::pgn_files(&corpus)
        .into_iter()
        .filter(|f| std::fs::metadata(f).is_ok_and(|m| m.len() > 20_000 && m.len() < 1 << 20))
        .collect();
    files.truncate(12);
    assert!(files.len() >= 6, "{} files", files.len());
    for (i, path) in files.iter().enumerate() {
        let text = std::fs::read(path).expect("corpus file");
        // Small frames, so that ranges hold a few each and games cross frames.
        let zst = write(&dir, &format!("{i}.pgn.zst"), &pzstd(&text, 4096));
        let size = std::fs::metadata(&zst).expect("fixture").len();
        let starts = games(&text);
        let mut runner = TestRunner::new(Config {
            cases: 200,
            failure_persistence: None,
            ..Config::default()
        });
        runner
            .run(&cut_sets(size), |cuts| {
                check_cuts(&zst, &text, &starts, size, &cuts)
            })
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    }
}

#[cfg(feature = "zstd")]
#[test]
fn split_points_cover_the_file() {
    let dir = scratch("split");
    let text: Vec<u8> = (0..5000)
        .flat_map(|i| format!("[Event \"{i}\"]\n\n1. e4 e5 1-0\n\n").into_bytes())
        .collect();
    let zst = write(&dir, "s.pgn.zst", &pzstd(&text, 8192));
    let plain = write(&dir, "s.pgn", &text);
    for path in [&zst, &plain] {
        let size = std::fs::metadata(path).expect("fixture").len();
        let ranges = split_points(path, "s", 7).expect("splits");
        assert_eq!(ranges.len(), 7, "{}", path.display());
        assert_eq!(ranges.first().map(|r| r.0), Some(0));
        assert_eq!(ranges.last().map(|r| r.1), Some(size));
        assert!(ranges.windows(2).all(|w| w[0].1 == w[1].0));
        let cuts: Vec<u64> = ranges.iter().skip(1).map(|r| r.0).collect();
        check_cuts(path, &text, &games(&text), size, &cuts).expect("the split covers the games");
    }
}

/// Found by the `ranges` fuzz target: a range that starts in binary bytes in the middle of a
/// file whose start is text was refused as binary data, while the whole file reads (binary
/// data is judged by the file's first bytes). Now every range reads as the whole file does.
#[test]
fn a_range_starting_in_binary_bytes_mid_file_reads_as_the_whole_file() {
    let game = |i: usize| format!("[Event \"g{i}\"]\n\n1. e4 e5 1-0\n\n").into_bytes();
    // A short line of control bytes among games, in the first 4 KiB (too few there for the
    // file to be binary data), which a range reader starting at it reads first.
    let mut text: Vec<u8> = (0..100).flat_map(game).collect();
    let binary_at = text.len() as u64;
    text.extend((0..48u32).map(|i| if i % 3 == 0 { 0 } else { (i % 31) as u8 }));
    text.extend(b"\n");
    text.extend((100..220).flat_map(game));
    let dir = scratch("ranges-binary");
    let path = write(&dir, "mixed.pgn", &text);
    let size = text.len() as u64;
    let games = games(&text);
    // The fuzz target's input: a Lichess study with control bytes in a comment.
    let found = include_bytes!("fixtures/range-binary-line.pgn");
    let found_path = write(&dir, "found.pgn", found);
    let n = found.len() as u64;
    let found_games = self::games(found);
    check_cuts(
        &found_path,
        found,
        &found_games,
        n,
        &[n / 4, n / 2, 3 * n / 4],
    )
    .unwrap_or_else(|e| panic!("the fuzzed file: {e}"));
    let whole = pgnkit_input::open(pgnkit_input::Source::path(&path), None, &options());
    assert!(whole.is_ok(), "the whole file reads");
    for cut in [binary_at, binary_at + 1, binary_at + 200] {
        check_cuts(&path, &text, &games, size, &[cut]).unwrap_or_else(|e| panic!("cut {cut}: {e}"));
    }
    // A file whose start is binary is refused, whatever the range.
    let mut binary = text[binary_at as usize..binary_at as usize + 49].repeat(4);
    binary.extend(&text);
    let path = write(&dir, "binary.pgn", &binary);
    for start in [0, 100, 2000] {
        let err = open_range(&path, "binary.pgn", start, size, &options()).expect_err("binary");
        assert!(err.to_string().contains("binary data"), "{err}");
    }
}

/// Found by the `ranges` fuzz target: a pzstd range from the file's start was judged binary
/// by its first frame alone (88 bytes, a few control bytes among them), while the whole
/// file is judged by its first 4 KiB decoded and reads.
#[cfg(feature = "zstd")]
#[test]
fn a_pzstd_range_from_the_start_is_judged_as_the_whole_file() {
    let text = include_bytes!("fixtures/range-binary-head.pgn");
    let bytes = pzstd(text, text.len().div_ceil(3));
    let dir = scratch("ranges-binary-head");
    let path = write(&dir, "head.pgn.zst", &bytes);
    let whole = pgnkit_input::open(pgnkit_input::Source::path(&path), None, &options());
    assert!(whole.is_ok(), "the whole file reads");
    let size = bytes.len() as u64;
    for end in [size / 4, size / 2, size] {
        let range = open_range(&path, "head.pgn.zst", 0, end, &options());
        assert!(range.is_ok(), "0..{end}: {:?}", range.err());
    }
}

/// Found by the `ranges` fuzz target: in a pzstd file whose frames start inside a long line
/// (a tag value left open over a whole game's moves), a range read that line's tail as a
/// whole line ending in a marker and started at the next `[Event` line, where the range
/// before (which knows the whole line, a tag pair) went on: that game was read twice. The
/// line before a range's first frame is now read from as far back as it takes.
#[cfg(feature = "zstd")]
#[test]
fn a_pzstd_range_does_not_judge_a_frame_s_first_partial_line() {
    let text = include_bytes!("fixtures/range-tag-line-across-frames.pgn");
    let dir = scratch("ranges-partial-line");
    for frames in 2..=8 {
        let bytes = pzstd(text, text.len().div_ceil(frames));
        let path = write(&dir, &format!("{frames}.pgn.zst"), &bytes);
        let size = bytes.len() as u64;
        let starts = games(text);
        for cut in 1..size {
            check_cuts(&path, text, &starts, size, &[cut])
                .unwrap_or_else(|e| panic!("{frames} frames, cut at {cut}: {e}"));
        }
        check_cuts(
            &path,
            text,
            &starts,
            size,
            &[size / 4, size / 2, 3 * size / 4],
        )
        .unwrap_or_else(|e| panic!("{frames} frames, four ranges: {e}"));
    }
}

/// Found by the `ranges` fuzz target: a pzstd file of small frames with control bytes in
/// its text. The whole file was judged by its first frame's text (what one read gave), a
/// range from the start by the range's own text (2,078 bytes, which end before the file's
/// first 4 KiB do): the range was refused as binary data where the whole file reads. Both
/// now judge the file's first 4 KiB of text, however many frames hold them.
#[cfg(feature = "zstd")]
#[test]
fn every_pzstd_range_is_judged_by_the_file_s_first_text() {
    let text = include_bytes!("fixtures/range-binary-small-frames.pgn");
    let dir = scratch("ranges-binary-frames");
    for frames in 1..=8 {
        let bytes = pzstd(text, text.len().div_ceil(frames));
        let path = write(&dir, &format!("{frames}.pgn.zst"), &bytes);
        let whole = pgnkit_input::open(pgnkit_input::Source::path(&path), None, &options());
        assert!(whole.is_ok(), "{frames} frames: the whole file reads");
        let size = bytes.len() as u64;
        for end in (1..=8).map(|i| size * i / 8) {
            let range = open_range(&path, "frames.pgn.zst", 0, end, &options());
            assert!(
                range.is_ok(),
                "{frames} frames, 0..{end}: {:?}",
                range.err()
            );
            let range = open_range(&path, "frames.pgn.zst", end / 2, end, &options());
            assert!(
                range.is_ok(),
                "{frames} frames, {}..{end}: {:?}",
                end / 2,
                range.err()
            );
        }
    }
}

/// Found by the `ranges` fuzz target: a first line of control bytes, `[`, junk and a marker
/// (`\x05[..] ... 1/2-1/2`). The splitter passes over control characters in a tag section,
/// so for it that line is a tag line and the `[Event` after it goes on the same game; the
/// resynchronisation rule took the line for the end of a game and started a range there,
/// so the game was read twice. A line whose first byte past control characters is `[` no
/// longer closes a game.
#[test]
fn a_line_of_control_bytes_before_a_bracket_is_no_game_end() {
    let text = include_bytes!("fixtures/range-control-before-tag.pgn");
    let dir = scratch("ranges-control-tag");
    let path = write(&dir, "control.pgn", text);
    let size = text.len() as u64;
    let starts = games(text);
    check_cuts(&path, text, &starts, size, &[1, 2, 4])
        .unwrap_or_else(|e| panic!("the fuzzed cuts: {e}"));
    for cut in 1..size {
        check_cuts(&path, text, &starts, size, &[cut]).unwrap_or_else(|e| panic!("cut {cut}: {e}"));
    }
}

/// Found by the `ranges` fuzz target: a file starting with white space. The range from 0
/// hands out games from the first one, past that white space, but said its stream started at
/// offset 0, so every offset of its games was off by the white space's length. Its origin is
/// now the first game's offset (after a byte order mark and white space too).
#[test]
fn a_range_from_the_start_counts_offsets_past_the_white_space_before_the_first_game() {
    let dir = scratch("ranges-junk");
    let game = |i: usize| format!("[Event \"g{i}\"]\n\n1. e4 e5 1-0\n\n").into_bytes();
    for junk in [
        &b" "[..],
        b"\n\n  \t",
        b"\xef\xbb\xbf",
        b"\xef\xbb\xbf \r\n",
    ] {
        let mut text = junk.to_vec();
        text.extend((0..40).flat_map(game));
        let path = write(&dir, "junk.pgn", &text);
        let size = text.len() as u64;
        let starts = games(&text);
        assert_eq!(starts.0, junk.len(), "{junk:?}");
        for cut in (1..size).step_by(7) {
            check_cuts(&path, &text, &starts, size, &[cut])
                .unwrap_or_else(|e| panic!("{junk:?}, cut {cut}: {e}"));
        }
    }
}

/// Found by the `ranges` fuzz target: a game without tags after a marker on the same line
/// that starts with `%` (`Qxh3 3%%%*%%%%%0. Bxh3 ... 1-0`, then `[Event` on the next line
/// but one). The splitter read that game from its own first byte, where the `%` is in the
/// first column: its whole first line was an escape line, the `1-0` unseen, and the next
/// `[Event` went on the same game; a range that started at that `[Event` (after a line that
/// closes a game) read the game after it a second time. A `%` not in the first column starts
/// no game now (the standard: it escapes only in the first column), so the game ends at its
/// `1-0`, where the range starts.
#[test]
fn a_percent_sign_after_a_marker_mid_line_starts_no_game() {
    let text = include_bytes!("fixtures/range-percent-after-marker.pgn");
    let dir = scratch("ranges-percent");
    let starts = games(text);
    let needle = b"[Event \"Rated Classical";
    let classical = text.windows(needle.len()).position(|w| w == needle);
    assert!(
        classical.is_some_and(|at| starts.1.contains(&at)),
        "the [Event after the line's 1-0 starts a game of the whole file"
    );
    let path = write(&dir, "percent.pgn", text);
    let size = text.len() as u64;
    for cut in 1..size {
        check_cuts(&path, text, &starts, size, &[cut]).unwrap_or_else(|e| panic!("cut {cut}: {e}"));
    }
    #[cfg(feature = "zstd")]
    for frames in 1..=8 {
        let bytes = pzstd(text, text.len().div_ceil(frames));
        let path = write(&dir, &format!("{frames}.pgn.zst"), &bytes);
        let size = bytes.len() as u64;
        // The fuzzed file: 3 frames, cut in quarters.
        check_cuts(
            &path,
            text,
            &starts,
            size,
            &[size / 4, size / 2, 3 * size / 4],
        )
        .unwrap_or_else(|e| panic!("{frames} frames, four ranges: {e}"));
        for cut in 1..size {
            check_cuts(&path, text, &starts, size, &[cut])
                .unwrap_or_else(|e| panic!("{frames} frames, cut at {cut}: {e}"));
        }
    }
}
