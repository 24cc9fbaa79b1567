//! Read every game of a file (`cargo run --example read_file -- games.pgn`).
use std::{env, fs::File, io::BufReader};

use pgnkit::prelude::*;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = env::args().nth(1).ok_or("usage: read_file FILE.pgn")?;
    let mut reader = Reader::new(BufReader::new(File::open(path)?));
    while let Some(read) = reader.next_game() {
        let read = read?;
        let tags = read.value.tags();
        let (white, black) = (tags.white().unwrap_or("?"), tags.black().unwrap_or("?"));
        let status = if read.is_broken() { "broken" } else { "ok" };
        let result = read.value.termination();
        println!("{white} - {black}: {result} ({status})");
    }
    Ok(())
}
