//! `Display` for a [`Game`] in export format: [`ToPgn::pgn`].
//!
//! `impl Display for Game` would have to live in `pgnkit-game`, which
//! cannot call this crate (it depends on that one), so the writer is
//! reached through an adapter, as `std::path::Path::display` does.

use std::fmt;

use pgnkit_game::Game;

use crate::{ExportOptions, to_string};

/// A game that prints in export format ([`ToPgn::pgn`]).
#[derive(Debug, Clone, Copy)]
pub struct Pgn<'a> {
    game: &'a Game,
}

/// Printing a game in export format: `println!("{}", game.pgn())`.
///
/// ```
/// use pgnkit_export::ToPgn;
/// use pgnkit_game::Game;
/// let game: Game = "1. e4 e5 2. Nf3 1-0".parse().unwrap();
/// let text = game.pgn().to_string();
/// assert!(text.starts_with("[Event \"?\"]\n"));
/// assert!(text.ends_with("\n\n1. e4 e5 2. Nf3 1-0\n\n"));
/// assert_eq!(text.parse::<Game>().unwrap().tree(), game.tree());
/// ```
pub trait ToPgn {
    /// The game as a value that prints in export format (ending with its
    /// empty line), the same text as [`to_string`] with
    /// [`ExportOptions::export`].
    fn pgn(&self) -> Pgn<'_>;
}

impl ToPgn for Game {
    fn pgn(&self) -> Pgn<'_> {
        Pgn { game: self }
    }
}

impl fmt::Display for Pgn<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&to_string(self.game, &ExportOptions::export()))
    }
}
