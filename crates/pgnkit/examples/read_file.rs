//! Read every game of a file, in constant memory:
//! `cargo run -p pgnkit --example read_file -- games.pgn` (without a file: a
//! file of the corpus, found through `PGNKIT_CORPUS`).
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
    corpus.join("big/masters/pgnmentor/Tal.pgn")
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = input();
    // `Reader` takes any `Read` and buffers it itself.
    let mut reader = Reader::new(File::open(&path)?);
    let (mut games, mut broken, mut tal_won) = (0, 0, 0);
    while let Some(read) = reader.next_game() {
        let read = read?;
        games += 1;
        broken += usize::from(read.is_broken());
        let tags = read.value.tags();
        let (white, black) = (tags.white().unwrap_or("?"), tags.black().unwrap_or("?"));
        let result = read.value.termination();
        if (white.starts_with("Tal") && result == Termination::WhiteWins)
            || (black.starts_with("Tal") && result == Termination::BlackWins)
        {
            tal_won += 1;
        }
    }
    println!(
        "{}: {games} games, {broken} broken, {tal_won} won by Tal",
        path.display()
    );
    // The same games as reading the whole file at once.
    let bytes = std::fs::read(&path)?;
    assert_eq!(read_games(&bytes).count(), games);
    if env::args_os().nth(1).is_none() {
        assert!(
            games > 1000 && tal_won > 500,
            "{games} games, {tal_won} won by Tal"
        );
    }
    Ok(())
}
