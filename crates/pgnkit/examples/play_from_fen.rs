//! Play moves from a FEN: SAN with reasons for refusals, UCI, and the outcome.
use pgnkit::prelude::*;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut pos =
        Position::from_fen("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4")?;
    for san in ["Qxf7#!", "Nf3"] {
        match pos.play_san(san.as_bytes()) {
            Ok(m) => println!("{san}: {} (UCI {})", m, m.uci()),
            Err(e) => println!("{san}: {e}"),
        }
    }
    println!("{} outcome {:?}", pos, pos.outcome());
    // The same start as a game, written with its FEN and SetUp tags.
    let mut game = Game::from_position(Position::from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")?);
    let root = game.root().id();
    game.add_uci(root, "e2e4")?;
    print!("{}", game.pgn());
    Ok(())
}
