//! Count games and moves with a visitor: no tree is built.
use pgnkit::game::MoveEvent;
use pgnkit::prelude::*;

struct Count(u64);

impl Visitor for Count {
    type Output = ();
    const TEXT: bool = false; // no tag values or comments needed
    fn san(&mut self, _event: MoveEvent<'_>) {
        self.0 += 1;
    }
    fn end_game(&mut self) {}
}

fn main() -> std::io::Result<()> {
    let pgn: &[u8] = b"1. e4 e5 2. Nf3 *\n\n1. d4 d5 (1... Nf6) 2. c4 *\n";
    let (mut reader, mut count, mut games) = (Reader::new(pgn), Count(0), 0);
    while let Some(read) = reader.visit_next(&mut count) {
        games += usize::from(!read?.is_broken());
    }
    println!("{games} games, {} moves (variations included)", count.0);
    Ok(())
}
