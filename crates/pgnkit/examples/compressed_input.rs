//! Read a compressed file: the format is told from its first bytes, not its
//! name. `cargo run -p pgnkit --example compressed_input -- games.pgn.zst`
//! (without a file: a corpus file, gzipped into a temporary file first).
use std::io::Write;
use std::{env, path::PathBuf};

use pgnkit::input::{Options, Source, open};
use pgnkit::prelude::*;

/// A corpus file (found through `PGNKIT_CORPUS`).
fn corpus_file() -> PathBuf {
    let corpus = env::var_os("PGNKIT_CORPUS").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"),
        PathBuf::from,
    );
    corpus.join("big/masters/pgnmentor/Tal.pgn")
}

/// Every good game of every stream of the file at `path` (a zip archive may hold several).
fn count_games(path: &std::path::Path) -> Result<usize, Box<dyn std::error::Error>> {
    let opened = open(Source::path(path), None, &Options::default())?;
    for warning in &opened.warnings {
        eprintln!("{warning}");
    }
    let mut games = 0;
    for stream in opened.streams {
        println!("{}: {}", stream.name, stream.format.name());
        for read in Reader::new(stream.reader) {
            games += usize::from(!read?.is_broken());
        }
    }
    Ok(games)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    if let Some(path) = env::args_os().nth(1) {
        println!("{} games", count_games(path.as_ref())?);
        return Ok(());
    }
    let plain = std::fs::read(corpus_file())?;
    let gz = env::temp_dir().join(format!("pgnkit-example-{}.bin", std::process::id()));
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    encoder.write_all(&plain)?;
    std::fs::write(&gz, encoder.finish()?)?;
    let games = count_games(&gz);
    std::fs::remove_file(&gz)?;
    let games = games?;
    println!("{games} games");
    assert_eq!(
        games,
        read_games(&plain).filter(|read| !read.is_broken()).count()
    );
    assert!(games > 1000);
    Ok(())
}
