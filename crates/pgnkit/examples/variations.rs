//! Walk every move with its variations, in PGN order, indented by depth.
use pgnkit::prelude::*;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let game: Game = "1. e4 e5 (1... c5 2. Nf3 (2. c3) 2... d6) (1... e6) 2. Nf3 *".parse()?;
    let mut depth = 0;
    let mut lines = Vec::new();
    for step in game.walk() {
        depth += usize::from(step == Step::StartVariation);
        depth -= usize::from(step == Step::EndVariation);
        let Step::Move(node) = step else { continue };
        let (number, color) = node.move_number();
        let dots = if color == Color::White { "." } else { "..." };
        let san = node.san().map(ToString::to_string).unwrap_or_default();
        let main = ["variation", "main line"][usize::from(node.is_main_line())];
        let line = format!(
            "{:indent$}{number}{dots} {san} ({main})",
            "",
            indent = 2 * depth
        );
        println!("{line}");
        lines.push(line);
    }
    assert_eq!(
        lines,
        [
            "1. e4 (main line)",
            "1... e5 (main line)",
            "  1... c5 (variation)",
            "  2. Nf3 (variation)",
            "    2. c3 (variation)",
            "  2... d6 (variation)",
            "  1... e6 (variation)",
            "2. Nf3 (main line)",
        ]
    );
    Ok(())
}
