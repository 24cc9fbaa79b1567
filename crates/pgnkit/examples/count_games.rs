//! Count games and moves with a visitor: no tree is built.
use pgnkit::prelude::*;

/// Counts the moves of every line (variations included) and the captures.
#[derive(Default)]
struct Count {
    moves: u64,
    captures: u64,
}

impl Visitor for Count {
    type Output = u64; // the game's moves, handed back with each game
    const TEXT: bool = false; // no tag values or comments needed

    fn san(&mut self, event: MoveEvent<'_>) {
        self.moves += 1;
        self.captures += u64::from(event.mv.is_capture());
    }

    fn begin_variation(&mut self) -> Skip {
        Skip::No // `Skip::Yes` would skip the variation up to its `)`
    }

    fn end_game(&mut self) -> u64 {
        std::mem::take(&mut self.moves)
    }
}

fn main() -> std::io::Result<()> {
    let pgn: &[u8] = b"1. e4 e5 2. Nf3 *\n\n1. d4 d5 (1... Nf6) 2. c4 dxc4 *\n\n1. e4 Ke7 *\n";
    let (mut reader, mut count) = (Reader::new(pgn), Count::default());
    let mut per_game = Vec::new();
    while let Some(read) = reader.visit_next(&mut count) {
        let read = read?;
        per_game.push((read.value, read.is_broken()));
    }
    println!(
        "moves per game (and broken): {per_game:?}, {} captures",
        count.captures
    );
    // The broken game's moves up to its error are seen too.
    assert_eq!(per_game, [(3, false), (5, false), (1, true)]);
    assert_eq!(count.captures, 1);
    Ok(())
}
