//! Build a game move by move, annotate it, and write it in export format.
use std::time::Duration;

use pgnkit::prelude::*;

fn main() -> Result<(), EditError> {
    let mut game = Game::new();
    game.tags_mut().insert("White", "Carlsen");
    let e4 = game.add_san(NodeId::ROOT, "e4")?;
    let e5 = game.add_uci(e4, "e7e5")?;
    game.add_san(e4, "c5")?; // a variation: an alternative to e5
    let nf3 = game.add_san(e5, "Nf3")?;
    if let Some(node) = game.node_mut(nf3) {
        node.push_comment(Comment::brace(" the main line "));
        node.set_clock(Duration::from_secs(175)); // `[%clk 0:02:55]` in that comment
        node.set_eval(Eval {
            score: Score::Mate(-3),
            depth: None,
        });
    }
    game.set_termination(Termination::WhiteWins); // the Result tag and the marker
    let text = game.pgn().to_string();
    print!("{text}");
    assert_eq!(
        text,
        "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n\
         [White \"Carlsen\"]\n[Black \"?\"]\n[Result \"1-0\"]\n\n\
         1. e4 e5 (1... c5) 2. Nf3 { [%eval #-3] [%clk 0:02:55] the main line } 1-0\n\n"
    );
    Ok(())
}
