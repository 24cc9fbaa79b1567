//! Walk the main line: SAN, UCI, FEN, clock and eval of every move.
use pgnkit::prelude::*;

const PGN: &str =
    "1. e4 { [%eval 0.17] [%clk 0:03:00] } 1... c5 { [%eval 0.25] [%clk 0:02:58] } 2. Nf3 *";

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let game: Game = PGN.parse()?;
    for node in game.main_line_nodes() {
        let (number, color) = node.move_number();
        let dots = if color == Color::White { "." } else { "..." };
        let san = node.san().map(ToString::to_string).unwrap_or_default();
        let uci = node.mv().map(|m| m.uci().to_string()).unwrap_or_default();
        let clock = node.clock().map(Clock).map(|c| c.to_string());
        let clock = clock.unwrap_or_default();
        let eval = node.eval().map(|e| e.score.to_string()).unwrap_or_default();
        let fen = node.position().to_string();
        println!("{number}{dots} {san:<6} {uci:<5} {clock:>8} {eval:>5}  {fen}");
    }
    Ok(())
}
