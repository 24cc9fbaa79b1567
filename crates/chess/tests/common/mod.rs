//! Perft suite reading shared by the integration tests.
//!
//! Two formats live in the corpus: EPD lines with `;D1 20 ;D2 400` counts,
//! and the shakmaty/python-chess format (`id`, `epd`, `perft N count`
//! lines). Suites whose file name says Fischer random / FRC / 960 use
//! Chess960 castling, as do positions whose castling field needs it. Suites
//! of other variants (three-check, atomic, crazyhouse, giveaway, horde,
//! racing kings) are not chess and are skipped by name.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

use pgnkit_chess::{CastlingMode, Position, Setup};

/// One perft position with its published counts.
pub struct PerftCase {
    /// File and line or id, for messages.
    pub name: String,
    /// The position.
    pub pos: Position,
    /// `(depth, count)` pairs.
    pub counts: Vec<(u32, u64)>,
}

const VARIANT_SUITES: [&str; 6] = [
    "3check",
    "atomic",
    "crazyhouse",
    "giveaway",
    "horde",
    "racingkings",
];

/// Every chess perft suite file in the corpus.
pub fn suite_files() -> Vec<PathBuf> {
    let perft = pgnkit_corpus::dir().join("perft");
    let mut files = Vec::new();
    for dir in [perft.clone(), perft.join("python-chess")] {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.is_file())
            .collect();
        entries.sort();
        for path in entries {
            let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
            if VARIANT_SUITES.contains(&stem) {
                continue;
            }
            files.push(path);
        }
    }
    assert!(
        files.len() >= 9,
        "expected the perft suites, found {files:?}"
    );
    files
}

fn position(fen: &str, chess960_file: bool, name: &str) -> Position {
    let setup = Setup::parse(fen.trim().as_bytes())
        .unwrap_or_else(|e| panic!("{name}: bad FEN {fen:?}: {e}"));
    let mode = if chess960_file {
        CastlingMode::Chess960
    } else {
        setup.castling_mode()
    };
    Position::from_setup(setup, mode).unwrap_or_else(|e| panic!("{name}: {fen:?}: {e}"))
}

/// Reads one suite file.
pub fn read_suite(path: &Path) -> Vec<PerftCase> {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let file = path.file_name().and_then(|s| s.to_str()).unwrap_or("?");
    let lower = file.to_ascii_lowercase();
    let chess960 = lower.contains("fischer") || lower.contains("frc") || lower.contains("960");
    let mut cases = Vec::new();
    let mut id = String::new();
    for (lineno, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(rest) = line.strip_prefix("id ") {
            id = rest.trim().to_string();
        } else if let Some(fen) = line.strip_prefix("epd ") {
            let name = format!("{file}:{} ({id})", lineno + 1);
            cases.push(PerftCase {
                pos: position(fen, chess960, &name),
                name,
                counts: Vec::new(),
            });
        } else if let Some(rest) = line.strip_prefix("perft ") {
            let mut it = rest.split_whitespace();
            let depth = it.next().and_then(|d| d.parse().ok());
            let count = it.next().and_then(|c| c.parse().ok());
            let case = cases.last_mut().expect("perft line before epd line");
            match (depth, count) {
                (Some(d), Some(c)) => case.counts.push((d, c)),
                _ => panic!("{file}:{}: bad perft line", lineno + 1),
            }
        } else if line.contains(';') {
            let mut parts = line.split(';');
            let fen = parts.next().unwrap_or("");
            let name = format!("{file}:{}", lineno + 1);
            let mut counts = Vec::new();
            for part in parts {
                let part = part.trim();
                if part.is_empty() {
                    continue;
                }
                let mut it = part.split_whitespace();
                let depth = it
                    .next()
                    .and_then(|d| d.strip_prefix('D'))
                    .and_then(|d| d.parse().ok());
                let count = it.next().and_then(|c| c.parse().ok());
                match (depth, count) {
                    (Some(d), Some(c)) => counts.push((d, c)),
                    _ => panic!("{name}: bad count {part:?}"),
                }
            }
            cases.push(PerftCase {
                pos: position(fen, chess960, &name),
                name,
                counts,
            });
        } else {
            panic!("{file}:{}: unrecognised line {line:?}", lineno + 1);
        }
    }
    assert!(!cases.is_empty(), "{file}: no positions");
    cases
}
