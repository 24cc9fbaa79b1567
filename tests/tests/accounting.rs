//! Nothing is lost, corpus-wide: for every `.pgn` file of the shared corpus,
//! the games the lexer's splitter finds are exactly the games written plus
//! the games rejected by the library equivalent of
//! `pgnkit export --rejects R` (read every game, write the good ones, keep
//! the original bytes of the broken ones); the games' bytes tile the file
//! (only leading junk is skipped); the written output reads back as exactly
//! the written games, none broken; and the rejects read back as exactly the
//! rejected games, all still broken.
//!
//! Every game of every file is read and accounted for (by `read_games`; the
//! fuzz target `reader` checks that the streaming export writer sees the
//! same diagnostics). Writing export text is slow in test builds, so the
//! games starting in the first `EXPORT_BYTES` of each file go through the
//! streaming export writer and the output check.
//!
//! The CLI-level check (the binary's summary and rejects file) is in
//! `crates/cli/tests/accounting.rs`, where cargo builds the binary.

use pgnkit::export::{ExportOptions, StreamWriter};
use pgnkit::game::{read_games, visit_games};
use pgnkit::lexer::GameSplitter;

/// Bytes of each file (up to the next game boundary) that are exported.
const EXPORT_BYTES: u64 = 64 * 1024;

/// What exporting one input gave.
#[derive(Debug, Default)]
struct Export {
    found: usize,
    skipped: u64,
    written: usize,
    rejected: usize,
    rejects: Vec<u8>,
    /// The export text of the written games that start before `EXPORT_BYTES`.
    output: Vec<u8>,
    /// How many games that is.
    output_games: usize,
}

/// The library equivalent of `pgnkit export --rejects`: games with an error
/// go to the rejects with their original bytes, the others are written
/// (the export text is made for the games starting before `EXPORT_BYTES`).
fn export(data: &[u8]) -> Export {
    let mut splitter = GameSplitter::new(data);
    let found = splitter.by_ref().count();
    let mut result = Export {
        found,
        skipped: splitter.skipped(),
        ..Export::default()
    };
    let mut next_offset = result.skipped;
    for game in read_games(data) {
        assert_eq!(game.offset, next_offset, "games tile the input");
        next_offset += game.raw.len() as u64;
        if game.is_broken() {
            result.rejected += 1;
            result.rejects.extend_from_slice(&game.raw);
        } else {
            result.written += 1;
        }
    }
    assert_eq!(
        next_offset,
        data.len() as u64,
        "the last game ends the input"
    );
    let mut games = visit_games(data, StreamWriter::new(ExportOptions::export()));
    while let Some(game) = games.next() {
        if game.offset >= EXPORT_BYTES {
            break;
        }
        if !game.is_broken() {
            result.output_games += 1;
            games
                .visitor()
                .write_game_to(&mut result.output)
                .expect("writing to a Vec");
        }
    }
    result
}

/// Games and broken games in `data`.
fn count(data: &[u8]) -> (usize, usize) {
    let mut games = 0;
    let mut broken = 0;
    for game in read_games(data) {
        games += 1;
        broken += usize::from(game.is_broken());
    }
    (games, broken)
}

#[test]
fn every_game_is_written_or_rejected() {
    let dir = pgnkit_corpus::dir();
    let files = pgnkit_corpus::all_pgn_files();
    let mut totals = Export::default();
    let mut failures = Vec::new();
    for file in &files {
        let name = pgnkit_conformance::corpus_name(&dir, file);
        let data = std::fs::read(file).unwrap_or_else(|e| panic!("cannot read {name}: {e}"));
        let result = export(&data);
        if result.written + result.rejected != result.found {
            failures.push(format!(
                "{name}: {} found, {} written + {} rejected",
                result.found, result.written, result.rejected
            ));
        }
        // The output is the written games, every one clean.
        let (again, broken) = count(&result.output);
        if (again, broken) != (result.output_games, 0) {
            failures.push(format!(
                "{name}: {} games written read back as {again} games, {broken} broken",
                result.output_games
            ));
        }
        // The rejects are the rejected games, every one still broken.
        let (again, broken) = count(&result.rejects);
        if (again, broken) != (result.rejected, result.rejected) {
            failures.push(format!(
                "{name}: {} games rejected read back as {again} games, {broken} broken",
                result.rejected
            ));
        }
        totals.found += result.found;
        totals.written += result.written;
        totals.rejected += result.rejected;
        totals.skipped += result.skipped;
    }
    eprintln!(
        "{} files: {} games found, {} written, {} rejected, {} bytes skipped",
        files.len(),
        totals.found,
        totals.written,
        totals.rejected,
        totals.skipped
    );
    assert!(totals.found > 50_000, "only {} games found", totals.found);
    assert!(totals.rejected > 0, "the corpus has malformed files");
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
