//! A game to JSON and back: the same game.
use pgnkit::prelude::*;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let game: Game =
        "[White \"A\"]\n\n1. e4 { [%clk 0:01:00] } e5 (1... c5) 2. Nf3 $1 1-0".parse()?;
    let json = game.to_json(); // or serde_json::to_string(&game)
    println!("{json}");
    let back = Game::from_json(&json)?; // replays and checks every move
    assert_eq!(back, game);
    // Tags, positions and moves have serde of their own.
    println!("{}", serde_json::to_string(game.tags())?);
    println!("{}", serde_json::to_string(game.end().position())?);
    Ok(())
}
