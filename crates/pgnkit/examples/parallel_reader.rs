//! Read a file on every core, the games handed back in input order:
//! `cargo run --release -p pgnkit --example parallel_reader -- games.pgn`
//! (without a file: a file of the corpus, found through `PGNKIT_CORPUS`).
use std::{env, fs::File, path::PathBuf};

use pgnkit::prelude::*;

/// The file named on the command line, else one of the shared corpus.
fn input() -> PathBuf {
    if let Some(path) = env::args_os().nth(1) {
        return path.into();
    }
    let corpus = env::var_os("PGNKIT_CORPUS").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"),
        PathBuf::from,
    );
    corpus.join("lichess-annotated/lichess_db_2025-05_first1MB.pgn")
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = input();
    // `ALL_CORES` (0): one thread per core; a number: that many threads.
    let mut lines = Vec::new();
    let mut moves = 0;
    let totals = read_games_parallel(File::open(&path)?, ALL_CORES, ReadOptions::new(), |read| {
        lines.push(read.line);
        moves += read.value.main_line().count();
        Ok(())
    })?;
    println!(
        "{}: {} games, {moves} main-line moves, on {} threads",
        path.display(),
        totals.games,
        pgnkit::game::all_cores()
    );
    // The same games, in the same order, as one thread reading the whole file.
    let bytes = std::fs::read(&path)?;
    let sequential: Vec<u64> = read_games(&bytes).map(|read| read.line).collect();
    assert_eq!(lines, sequential);
    assert_eq!(totals.games, sequential.len() as u64);
    assert!(moves > 0);
    Ok(())
}
