//! Tag fixes on a [`Game`]: the result against the final position, the
//! `PlyCount` and `FinalFEN` tags, and dropping tags.
//!
//! Each returns whether it changed the game, so a caller can count them.
//! The `Result` tag and the termination marker are one value in a `Game`
//! (where they disagree when read, the marker wins and the reader warns:
//! `DiagnosticKind::ResultMismatch`); [`fix_result`] corrects what the
//! moves contradict: a checkmate or a stalemate at the end of the main line.

use pgnkit_chess::{Color, FenOptions, Position};
use pgnkit_game::{Game, Termination};

use crate::ending::final_position;

/// The name of the tag [`add_final_fen`] writes.
pub const FINAL_FEN_TAG: &str = "FinalFEN";

/// Tags [`drop_tags`] keeps when the game starts from another position
/// than the standard one: without them, its moves could not be replayed.
pub const SETUP_TAGS: [&str; 3] = ["FEN", "SetUp", "Variant"];

/// Corrects the result when the main line ends in checkmate (the side that
/// mated wins) or stalemate (a draw) and the game says otherwise; returns
/// the old and the new result when it changed.
///
/// ```
/// use pgnkit_game::{Game, Termination};
/// let mut g: Game = "[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1".parse().unwrap();
/// assert_eq!(pgnkit_select::fix_result(&mut g), None);
/// let mut g: Game = "1. f3 e5 2. g4 Qh4# 1/2-1/2".parse().unwrap();
/// assert_eq!(
///     pgnkit_select::fix_result(&mut g),
///     Some((Termination::Draw, Termination::BlackWins))
/// );
/// assert_eq!(g.tags().get("Result"), Some("0-1"));
/// ```
pub fn fix_result(game: &mut Game) -> Option<(Termination, Termination)> {
    let due = decided_result(&final_position(game))?;
    let was = game.termination();
    (was != due).then(|| {
        game.set_termination(due);
        (was, due)
    })
}

/// Sets `PlyCount` to the number of plies of the main line; whether it changed.
pub fn add_ply_count(game: &mut Game) -> bool {
    let plies = game.main_line_moves().count().to_string();
    set(game, "PlyCount", &plies)
}

/// Sets [`FINAL_FEN_TAG`] (`FinalFEN`) to the FEN of the main line's last
/// position; whether it changed.
///
/// ```
/// let mut g: pgnkit_game::Game = "1. e4 *".parse().unwrap();
/// assert!(pgnkit_select::add_final_fen(&mut g));
/// assert_eq!(
///     g.tags().get("FinalFEN"),
///     Some("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
/// );
/// ```
pub fn add_final_fen(game: &mut Game) -> bool {
    let fen = final_position(game).fen(FenOptions::default());
    set(game, FINAL_FEN_TAG, &fen)
}

/// Removes the tags named (exact names); keeps [`SETUP_TAGS`] when the game
/// needs them. Returns how many were removed.
pub fn drop_tags<S: AsRef<str>>(game: &mut Game, names: &[S]) -> usize {
    let needs_setup = *game.start_position() != pgnkit_chess::Position::new();
    let mut removed = 0;
    for name in names {
        let name = name.as_ref();
        if needs_setup && SETUP_TAGS.contains(&name) {
            continue;
        }
        removed += usize::from(game.tags_mut().remove(name).is_some());
    }
    removed
}

fn set(game: &mut Game, name: &str, value: &str) -> bool {
    if game.tags().get(name) == Some(value) {
        return false;
    }
    game.tags_mut().insert(name, value);
    true
}

/// The result a game ending in `end` must have, when the position decides
/// it: a checkmate (the side that mated wins) or a stalemate (a draw).
/// [`fix_result`] and the query predicate `result_consistent` follow it.
pub(crate) fn decided_result(end: &Position) -> Option<Termination> {
    if end.is_checkmate() {
        Some(match end.turn() {
            Color::White => Termination::BlackWins,
            Color::Black => Termination::WhiteWins,
        })
    } else if end.is_stalemate() {
        Some(Termination::Draw)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stalemate_is_a_draw() {
        let mut g: Game = "[Result \"1-0\"]\n\n1. e4 e5 1-0".parse().unwrap();
        assert_eq!(
            fix_result(&mut g),
            None,
            "no mate, no stalemate: left alone"
        );
        let mut g: Game = "[SetUp \"1\"]\n[FEN \"7k/8/6K1/8/8/8/8/5Q2 w - - 0 1\"]\n\n1. Qf7 1-0"
            .parse()
            .unwrap();
        assert_eq!(
            fix_result(&mut g),
            Some((Termination::WhiteWins, Termination::Draw))
        );
        assert_eq!(g.termination(), Termination::Draw);
    }

    #[test]
    fn tags_added_and_dropped() {
        let mut g: Game = "[Event \"x\"]\n[Annotator \"y\"]\n\n1. e4 e5 *"
            .parse()
            .unwrap();
        assert!(add_ply_count(&mut g));
        assert!(!add_ply_count(&mut g), "already right");
        assert_eq!(g.tags().get("PlyCount"), Some("2"));
        assert_eq!(drop_tags(&mut g, &["Annotator", "Nope"]), 1);
        assert!(!g.tags().contains("Annotator"));
        let mut g: Game = "[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n\n1. e4 *"
            .parse()
            .unwrap();
        assert_eq!(drop_tags(&mut g, &["FEN", "SetUp"]), 0);
    }
}
