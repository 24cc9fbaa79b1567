//! Reads the real-data corpus (`PGNKIT_CORPUS`, default `../shared/corpus`
//! beside the workspace): per-folder totals of games and broken games,
//! every error of every file asserted with its line and column, variant
//! games rejected, and a JSON round trip of every game read cleanly.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use pgnkit_game::{Diagnostic, DiagnosticKind, Game, Validate, visit_games};

/// Files of another game than chess: every game in them must be rejected.
fn is_variant_file(rel: &str) -> bool {
    rel.starts_with("edge/variants/")
        || rel.ends_with("-zh-lichess.pgn")
        || rel.ends_with("antichess-programfox.pgn")
}

/// The `.pgn` files of a corpus folder, with their paths relative to the corpus.
fn pgn_files(root: &Path, folder: &str) -> Vec<(String, PathBuf)> {
    pgnkit_corpus::pgn_files(&root.join(folder))
        .into_iter()
        .map(|path| {
            let rel = path.strip_prefix(root).unwrap_or(&path);
            (rel.to_string_lossy().replace('\\', "/"), path)
        })
        .collect()
}

const FOLDERS: &[&str] = &[
    "annotated",
    "big",
    "chess960",
    "edge",
    "fen-start",
    "lichess-annotated",
    "openings",
    "rules",
];

struct FileRead {
    games: usize,
    broken: usize,
    errors: Vec<(usize, Diagnostic)>,
}

fn read_file(path: &Path) -> FileRead {
    let bytes = std::fs::read(path).expect("read corpus file");
    let mut out = FileRead {
        games: 0,
        broken: 0,
        errors: Vec::new(),
    };
    for (i, read) in visit_games(&bytes, Validate).enumerate() {
        out.games += 1;
        if read.is_broken() {
            out.broken += 1;
        }
        for d in read.diagnostics.errors() {
            out.errors.push((i + 1, d.clone()));
        }
    }
    out
}

/// `(folder, games, broken games)`, variant files excluded.
const TOTALS: &[(&str, usize, usize)] = &[
    ("annotated", 1161, 1),
    // 37,554 games with tags plus 198,350 tagless opening lines.
    ("big", 235_904, 0),
    ("chess960", 144, 0),
    ("edge", 775, 7),
    ("fen-start", 1152, 4),
    ("lichess-annotated", 4863, 0),
    ("openings", 52_710, 3),
    ("rules", 30, 0),
];

/// Every error in the corpus outside variant files: `(file, game number in
/// the file, line, column, what)`. The malformed files (SOURCES.md) and a
/// few real defects of real files.
const EXPECTED_ERRORS: &[(&str, usize, u64, u64, &str)] = &[
    // A Crazyhouse game among standard ones.
    (
        "annotated/scalachess/pgn-render-snapshot.pgn",
        3,
        50,
        10,
        "UnsupportedVariant",
    ),
    // MALFORMED: `[Event "Tournament \"]` never closes its string.
    (
        "edge/chess-library/backslash_header.pgn",
        1,
        1,
        8,
        "UnterminatedString",
    ),
    // `1...0-0-0` with the queen still on d8.
    ("edge/chess-library/black2move.pgn", 1, 4, 5, "IllegalMove"),
    // MALFORMED: truncated in the middle of a move (`63. Kx`).
    ("edge/chess-library/corrupted.pgn", 1, 57, 25, "InvalidMove"),
    // MALFORMED: HTML `<br />` as line ends.
    (
        "edge/chess.js/0-html-br-newlines.pgn",
        1,
        1,
        12,
        "Unexpected",
    ),
    // MALFORMED: a `{` comment inside a `{` comment; its tail reads as moves.
    (
        "edge/pgn-extract/nested-comment.pgn",
        1,
        1,
        46,
        "InvalidMove",
    ),
    // MALFORMED: German piece letter `Sf3`.
    (
        "edge/pgn-parser/sampleGameThrow.pgn",
        1,
        2,
        13,
        "InvalidMove",
    ),
    // MALFORMED: garbage tag line.
    ("edge/pychess/badpgn.pgn", 1, 1, 18, "MalformedTag"),
    // Study exports with moves that do not fit their positions:
    // `(20... Kf8)` with a rook on f8,
    (
        "fen-start/lichess-practice/lichess-practice-greek-gift_by_arex_2017.02.11.pgn",
        1,
        17,
        137,
        "IllegalMove",
    ),
    // `1... Nxg5` with White to move and no knight,
    (
        "fen-start/lichess-practice/lichess-practice-the-fork_by_arex_2017.01.29.pgn",
        1,
        15,
        6,
        "IllegalMove",
    ),
    // `(1. Bxc6+)` as an alternative to a black move,
    (
        "fen-start/lichess-practice/lichess-practice-the-fork_by_arex_2017.01.29.pgn",
        17,
        270,
        15,
        "IllegalMove",
    ),
    // `(1... Nxg5)` with no piece that can reach g5.
    (
        "fen-start/lichess-practice/lichess-practice-the-fork_by_arex_2017.01.29.pgn",
        18,
        286,
        16,
        "IllegalMove",
    ),
    // ECO files with an illegal `O-O` (SOURCES.md notes them).
    ("openings/pychess_eco_de.pgn", 354, 1769, 48, "IllegalMove"),
    ("openings/pychess_eco_de.pgn", 355, 1774, 48, "IllegalMove"),
    (
        "openings/pychess_eco_en.pgn",
        3372,
        19836,
        46,
        "IllegalMove",
    ),
];

fn kind_name(kind: &DiagnosticKind) -> String {
    let s = format!("{kind:?}");
    s.split(['(', ' ', '{'])
        .next()
        .unwrap_or_default()
        .to_owned()
}

#[test]
fn folder_totals_and_every_error() {
    let root = pgnkit_corpus::dir();
    let mut totals: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    let mut errors = Vec::new();
    for folder in FOLDERS {
        let entry = totals.entry(folder).or_default();
        for (rel, path) in pgn_files(&root, folder) {
            if is_variant_file(&rel) {
                continue;
            }
            let read = read_file(&path);
            entry.0 += read.games;
            entry.1 += read.broken;
            for (game, d) in read.errors {
                errors.push((rel.clone(), game, d.line, d.column, kind_name(&d.kind)));
            }
        }
    }
    let got: Vec<(&str, usize, usize)> = totals.iter().map(|(f, (g, b))| (*f, *g, *b)).collect();
    let errors_view: Vec<(&str, usize, u64, u64, &str)> = errors
        .iter()
        .map(|(f, g, l, c, k)| (f.as_str(), *g, *l, *c, k.as_str()))
        .collect();
    assert_eq!(
        errors_view, EXPECTED_ERRORS,
        "errors (file, game, line, column, kind)"
    );
    assert_eq!(got, TOTALS, "per-folder (games, broken)");
}

#[test]
fn variant_games_are_rejected() {
    let root = pgnkit_corpus::dir();
    let mut games = 0;
    for (rel, path) in pgn_files(&root, "")
        .into_iter()
        .filter(|(rel, _)| is_variant_file(rel))
    {
        let bytes = std::fs::read(&path).expect("read corpus file");
        for read in visit_games(&bytes, Validate) {
            games += 1;
            let first = read.diagnostics.errors().next();
            assert!(
                matches!(
                    first.map(|d| &d.kind),
                    Some(DiagnosticKind::UnsupportedVariant(_))
                ),
                "{rel} game at line {}: {first:?}",
                read.line
            );
        }
    }
    assert_eq!(games, 604);
}

/// Game -> JSON -> Game -> JSON gives the same JSON for every game of
/// `folders` read without errors; returns how many were checked.
fn json_round_trip(folders: &[&str]) -> usize {
    let root = pgnkit_corpus::dir();
    let mut checked = 0usize;
    for folder in folders {
        for (rel, path) in pgn_files(&root, folder) {
            if is_variant_file(&rel) {
                continue;
            }
            let bytes = std::fs::read(&path).expect("read corpus file");
            for read in pgnkit_game::read_games(&bytes) {
                if read.is_broken() {
                    continue;
                }
                let json = read.value.to_json();
                let back = Game::from_json(&json)
                    .unwrap_or_else(|e| panic!("{rel} line {}: {e}\n{json}", read.line));
                assert_eq!(back.to_json(), json, "{rel} line {}", read.line);
                checked += 1;
            }
        }
    }
    checked
}

// Two tests so the harness can run them side by side.
#[test]
fn json_round_trip_of_every_clean_game_in_big() {
    assert_eq!(json_round_trip(&["big"]), 235_904);
}

#[test]
fn json_round_trip_of_every_clean_game_elsewhere() {
    let folders: Vec<&str> = FOLDERS.iter().copied().filter(|f| *f != "big").collect();
    let clean: usize = TOTALS
        .iter()
        .filter(|(f, _, _)| *f != "big")
        .map(|(_, games, broken)| games - broken)
        .sum();
    assert_eq!(json_round_trip(&folders), clean);
}

/// SPEC-NOTES "Tag pairs": a value with unescaped quotes whose line ends
/// with `"]` runs to that last quote, with a warning; the game is read.
/// The three corpus files that have such values (issue 22).
#[test]
fn unescaped_quotes_in_tag_values_are_read_with_a_warning() {
    let root = pgnkit_corpus::dir();
    for (rel, warned_games, tag, value) in [
        (
            "edge/chess-library/unescaped_quote_header.pgn",
            1,
            "White",
            "Smith, John \"The King\"",
        ),
        (
            "fen-start/pychess_mate_in_3.pgn",
            2,
            "White",
            "\"Socrates Expert\"",
        ),
        (
            "fen-start/pychess_mate_in_4.pgn",
            3,
            "White",
            "\"Mephisto\"",
        ),
    ] {
        let bytes = std::fs::read(root.join(rel)).expect("read corpus file");
        let mut warned = Vec::new();
        for game in pgnkit_game::read_games(&bytes) {
            let quotes: Vec<_> = game
                .diagnostics
                .iter()
                .filter(|d| matches!(d.kind, DiagnosticKind::UnescapedQuote(_)))
                .collect();
            if quotes.is_empty() {
                continue;
            }
            assert!(
                !game.is_broken(),
                "{rel} line {}: {:?}",
                game.line,
                game.diagnostics
            );
            for d in quotes {
                let DiagnosticKind::UnescapedQuote(name) = &d.kind else {
                    continue;
                };
                let message = format!("unescaped quote in the value of tag {name}");
                assert_eq!(d.kind.to_string(), message);
            }
            warned.push(game.value);
        }
        assert_eq!(warned.len(), warned_games, "{rel}");
        assert!(
            warned.iter().any(|g| g.tags().get(tag) == Some(value)),
            "{rel}: no {tag} {value}"
        );
    }
}

#[test]
fn stream_reader_agrees_with_slice_reader() {
    let root = pgnkit_corpus::dir();
    for rel in [
        "lichess-annotated/lichess_db_2021-10_999games.pgn",
        "annotated/pychess/dortmund.pgn",
        "edge/chess-library/unescaped_quote_header.pgn",
    ] {
        let bytes = std::fs::read(root.join(rel)).expect("read corpus file");
        let summary = |g: &pgnkit_game::ReadGame<'_, Game>| {
            let diags: Vec<String> = g.diagnostics.iter().map(|d| d.to_string()).collect();
            (g.value.to_json(), diags, g.offset, g.line)
        };
        let from_slice: Vec<_> = pgnkit_game::read_games(&bytes)
            .map(|g| summary(&g))
            .collect();
        // A small buffer makes games straddle many refills.
        let stream = std::io::BufReader::with_capacity(997, &bytes[..]);
        let from_stream: Vec<_> = pgnkit_game::Reader::new(stream)
            .map(|g| summary(&g.expect("in-memory read")))
            .collect();
        assert_eq!(from_slice.len(), from_stream.len(), "{rel}");
        for (a, b) in from_slice.iter().zip(&from_stream) {
            assert_eq!(a, b, "{rel}");
        }
    }
}
