//! One game from a `&str`, then games from standard input (`... < games.pgn`).
use std::io::{self, IsTerminal};

use pgnkit::prelude::*;

fn main() -> io::Result<()> {
    let read = read_game("[Event \"From a str\"]\n\n1. d4 d5 *").expect("one game");
    let event = read.value.tags().event().unwrap_or("?");
    println!("{event}: {} moves", read.value.main_line().count());
    assert_eq!((event, read.value.main_line().count()), ("From a str", 2));
    if io::stdin().is_terminal() {
        return Ok(()); // nothing piped in
    }
    let mut reader = Reader::new(io::stdin().lock());
    while let Some(read) = reader.next_game() {
        let read = read?;
        let moves = read.value.main_line().count();
        println!(
            "line {}: {moves} moves, {} diagnostics",
            read.line,
            read.diagnostics.len()
        );
    }
    Ok(())
}
