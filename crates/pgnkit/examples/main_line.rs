//! Walk the main line with a cursor: SAN, UCI, FEN, clock and eval of every move.
use pgnkit::prelude::*;

const PGN: &str =
    "1. e4 { [%eval 0.17] [%clk 0:03:00] } 1... c5 { [%eval 0.25] [%clk 0:02:58] } 2. Nf3 *";

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let game: Game = PGN.parse()?;
    let mut lines = Vec::new();
    for node in game.main_line_nodes() {
        let (number, color) = node.move_number();
        let dots = if color == Color::White { "." } else { "..." };
        let san = node.san().map(ToString::to_string).unwrap_or_default();
        let uci = node.mv().map(|m| m.uci().to_string()).unwrap_or_default();
        let clock = node.clock().map(Clock).map(|c| c.to_string());
        let clock = clock.unwrap_or_default();
        let eval = node.eval().map(|e| e.score.to_string()).unwrap_or_default();
        let fen = node.position().to_string();
        let line = format!("{number}{dots} {san:<6} {uci:<5} {clock:>8} {eval:>5}  {fen}");
        println!("{line}");
        lines.push(line);
    }
    assert_eq!(lines.len(), 3);
    assert!(lines[0].starts_with("1. e4     e2e4   0:03:00   +17  rnbqkbnr/pppppppp/8/8/4P3/"));
    assert!(lines[1].starts_with("1... c5     c7c5   0:02:58   +25"));
    // The cursor goes both ways: from the end back to the start.
    let end = game.end();
    assert_eq!(end.san().map(|s| s.to_string()).as_deref(), Some("Nf3"));
    let back = end
        .parent()
        .and_then(|n| n.parent())
        .expect("two moves back");
    assert_eq!(back.san().map(|s| s.to_string()).as_deref(), Some("e4"));
    assert_eq!(
        back.main_child()
            .and_then(|n| n.clock())
            .map(|d| d.as_secs()),
        Some(178)
    );
    Ok(())
}
