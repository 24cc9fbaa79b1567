//! Game equality: a game equals itself written and read again, though the
//! export adds the roster tags, sorts the others and pads comments.
use pgnkit::prelude::*;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let game: Game =
        "[ECO \"C50\"]\n[White \"Réti\"]\n\n1. e4 {best by test} e5 2. Nf3 Nc6 *".parse()?;
    let text = to_string(&game, &ExportOptions::export());
    print!("{text}");
    let again: Game = text.parse()?;
    assert_eq!(again, game);
    // Equal as the export writes them, not as stored: compare the parts for that.
    assert_eq!(again.tags().len(), 8);
    assert_ne!(again.tags(), game.tags());
    let comment = |g: &Game| {
        g.main_line_nodes()
            .next()
            .and_then(|n| Some(n.comments().next()?.text().to_owned()))
    };
    assert_eq!(comment(&game).as_deref(), Some("best by test"));
    assert_eq!(comment(&again).as_deref(), Some(" best by test "));
    // A different move, annotation or tag makes a different game.
    assert_ne!(
        game,
        "[ECO \"C50\"]\n[White \"Réti\"]\n\n1. e4 {best by test} e5 2. Nf3 Nf6 *".parse()?
    );
    assert_ne!(
        game,
        "[ECO \"C50\"]\n[White \"Réti\"]\n\n1. e4 {best} e5 2. Nf3 Nc6 *".parse()?
    );
    assert_ne!(
        game,
        "[ECO \"C60\"]\n[White \"Réti\"]\n\n1. e4 {best by test} e5 2. Nf3 Nc6 *".parse()?
    );
    println!("equal after a round trip");
    Ok(())
}
