//! Errors with `?`: every error of the library is a `std::error::Error`, so
//! one `Box<dyn Error>` takes them all; a broken game's diagnostic says where
//! and why, and shows its source line with a caret.
use std::error::Error;

use pgnkit::prelude::*;

/// The first game of `pgn`, which must be good.
fn one_game(pgn: &str) -> Result<Game, Box<dyn Error>> {
    let game: Game = pgn.parse()?; // a `ParseGameError`
    let mut pos = game.end().position().clone();
    pos.play_san("Qh5")?; // a `PlaySanError`
    Ok(game)
}

fn main() -> Result<(), Box<dyn Error>> {
    assert_eq!(one_game("1. e4 e5 *")?.main_line().count(), 2);
    // A broken game: `?` gives the error; its source is the diagnostic.
    let error = one_game("1. e4 e5 2. Ke3 *").unwrap_err();
    println!("{error}");
    let diagnostic = error
        .source()
        .and_then(|e| e.downcast_ref::<Diagnostic>())
        .ok_or("a broken game's error has its diagnostic")?;
    assert_eq!((diagnostic.line, diagnostic.column), (1, 13));
    assert_eq!(diagnostic.move_text.as_deref(), Some("Ke3"));
    // An illegal move played on a position.
    let error = one_game("1. e4 e5 2. Qh5 *").unwrap_err();
    println!("{error}");
    assert!(error.downcast_ref::<PlaySanError>().is_some());
    // Reading many games: broken ones come with what was read and where it broke.
    for read in read_games(b"1. e4 e5 * 1. d4 Ke7 *") {
        for diagnostic in read.diagnostics.errors() {
            let shown = read.render(diagnostic); // the caret stands under `Ke7`
            print!("{shown}");
            assert!(shown.ends_with("  1. d4 Ke7 *\n        ^\n"));
        }
    }
    Ok(())
}
