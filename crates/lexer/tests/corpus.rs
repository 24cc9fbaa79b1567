//! Splits every PGN file of the shared corpus and checks the game counts, that the streaming
//! [`Reader`] agrees with the slice [`GameSplitter`] (tiny buffers, so it refills often), and
//! that the games and the skipped junk give back the file byte for byte.

use std::collections::BTreeMap;
use std::io::BufReader;

use pgnkit_lexer::{GameSplitter, Reader};

mod common;

/// Files whose game count is not their number of `[Event ` lines, with the reason.
const EXCEPTIONS: &[(&str, usize, &str)] = &[
    (
        "annotated/scalachess/pgn-render-snapshot.pgn",
        15,
        "3 games have only a [Result] or [FEN] tag",
    ),
    (
        "big/opening-lines/bjbraams_chessdb_198350_lines.pgn",
        198_350,
        "tagless opening lines, one per line, each ending in *",
    ),
    (
        "edge/chess-library/no_moves_but_comment_followed_by_termination_marker.pgn",
        2,
        "games without Event tag (PlyCount first)",
    ),
    (
        "edge/chess-library/no_moves_but_game_termination_multiple_2.pgn",
        3,
        "games start with [FEN], no Event tag",
    ),
    (
        "edge/chess-library/threefold_repetition.pgn",
        1,
        "one game with [Variant]/[FEN] tags only",
    ),
    ("edge/notnil-chess/0008.pgn", 1, "one game without tags"),
    ("edge/notnil-chess/0009.pgn", 1, "one game without tags"),
    ("edge/notnil-chess/0010.pgn", 1, "one game without tags"),
    ("edge/notnil-chess/0015.pgn", 1, "one game without tags"),
    (
        "edge/pgn-extract/nested-comment.pgn",
        1,
        "one game without tags",
    ),
    (
        "edge/pgn-extract/test-fuzzydepth.pgn",
        4,
        "4 tagless games, one per line, each ending in *",
    ),
    (
        "edge/pgn-extract/test-nagcomments.pgn",
        1,
        "one game without tags",
    ),
    (
        "edge/pgn-extract/test-nobadresults.pgn",
        9,
        "9 one-line games `[Result \"x\"] e4 marker`, no Event tag",
    ),
    (
        "edge/pgn-extract/test-promotion-in.pgn",
        8,
        "8 games with [FEN]/[SetUp] only",
    ),
    (
        "edge/pgn-parser/sampleGameThrow.pgn",
        1,
        "one game without Event tag",
    ),
    (
        "edge/pychess/badpgn.pgn",
        1,
        "garbage text without tags: one (broken) game",
    ),
    (
        "edge/python-chess/antichess-programfox.pgn",
        2,
        "2 games with only a [Variant] tag",
    ),
    (
        "edge/python-chess/utf8-bom.pgn",
        2,
        "the first [Event is preceded by a UTF-8 BOM on its line",
    ),
    (
        "edge/scalachess/uzchesscup-tags-only.pgn",
        45,
        "tags-only games split by the duplicate-tag rule; only the first has Event",
    ),
    (
        "openings/pgn-extract_eco.pgn",
        2014,
        "ECO/Opening/Variation tags only (2,014 [ECO] tags)",
    ),
    (
        "openings/pychess_eco_de.pgn",
        500,
        "ECO/Opening tags only, no markers (500 [ECO] tags)",
    ),
    (
        "openings/pychess_eco_en.pgn",
        3404,
        "ECO/Opening/Variation tags only, no markers (3,404 [ECO] tags)",
    ),
];

/// Line ends (LF, CR LF, lone CR), counted the slow and obvious way.
fn line_ends(bytes: &[u8]) -> u64 {
    let mut n = 0;
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'\n' || (b == b'\r' && bytes.get(i + 1) != Some(&b'\n')) {
            n += 1;
        }
    }
    n
}

fn event_lines(data: &[u8]) -> usize {
    let starts = data.starts_with(b"[Event ") as usize;
    starts + memchr::memmem::find_iter(data, b"\n[Event ").count()
}

#[test]
fn every_corpus_file_splits_as_expected() {
    let dir = pgnkit_corpus::dir();
    let files = pgnkit_corpus::all_pgn_files();
    let exceptions: BTreeMap<&str, (usize, &str)> = EXCEPTIONS
        .iter()
        .map(|&(f, n, why)| (f, (n, why)))
        .collect();
    let mut seen_exceptions = 0;
    let mut failures = Vec::new();
    for path in &files {
        let name = path
            .strip_prefix(&dir)
            .unwrap_or(path)
            .to_string_lossy()
            .replace('\\', "/");
        let data = std::fs::read(path).expect("readable corpus file");

        // Slice splitter: count, and lossless.
        let mut splitter = GameSplitter::new(&data);
        let games: Vec<_> = splitter.by_ref().collect();
        let mut rebuilt = data
            .get(..splitter.skipped() as usize)
            .unwrap_or_default()
            .to_vec();
        let mut line = 1 + line_ends(&rebuilt);
        for g in &games {
            assert_eq!(
                g.offset as usize,
                rebuilt.len(),
                "{name}: games are not contiguous"
            );
            assert_eq!(
                g.line, line,
                "{name}: wrong line for the game at offset {}",
                g.offset
            );
            line += line_ends(g.bytes);
            rebuilt.extend_from_slice(g.bytes);
        }
        assert!(
            rebuilt == data,
            "{name}: skipped junk + games do not give back the file"
        );

        let (expected, why) = match exceptions.get(name.as_str()) {
            Some(&(n, why)) => {
                seen_exceptions += 1;
                (n, why)
            }
            None => (event_lines(&data), "one game per [Event line"),
        };
        if games.len() != expected {
            failures.push(format!(
                "{name}: {} games, expected {expected} ({why})",
                games.len()
            ));
        }

        // The lexer sees each game end where the splitter ended it.
        common::check_markers_end_games(&data);

        // Streaming reader with tiny buffers agrees exactly.
        let mut reader = Reader::with_chunk_size(BufReader::with_capacity(7, &data[..]), 61);
        let mut i = 0;
        while let Some(g) = reader.next_game().expect("reading from memory") {
            let s = games
                .get(i)
                .unwrap_or_else(|| panic!("{name}: reader yields more games"));
            assert_eq!(
                (g.bytes, g.offset, g.line),
                (s.bytes, s.offset, s.line),
                "{name}: game {i} differs"
            );
            i += 1;
        }
        assert_eq!(i, games.len(), "{name}: reader yields fewer games");
        assert_eq!(
            reader.skipped(),
            splitter.skipped(),
            "{name}: skipped bytes differ"
        );
    }
    assert_eq!(
        seen_exceptions,
        EXCEPTIONS.len(),
        "an exception names a file that is not in the corpus"
    );
    assert!(
        failures.is_empty(),
        "game counts differ:\n{}",
        failures.join("\n")
    );
}
