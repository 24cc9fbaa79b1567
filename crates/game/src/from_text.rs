//! One game from text: [`Game`]'s `FromStr` and [`read_game`], thin
//! forms of [`read_games`](crate::read_games) for a string.

use std::str::FromStr;

use crate::error::ParseGameError;
use crate::game::Game;

impl FromStr for Game {
    type Err = ParseGameError;

    /// Reads exactly one game: an error when the text holds none, several,
    /// or one with an error (warnings are fine).
    ///
    /// ```
    /// use pgnkit_game::{Game, ParseGameError};
    /// let game: Game = "[White \"A\"]\n\n1. e4 e5 1-0".parse().unwrap();
    /// assert_eq!(game.main_line().count(), 2);
    /// assert!(matches!("1. e4 *\n\n1. d4 *".parse::<Game>(), Err(ParseGameError::SeveralGames(2))));
    /// assert!(matches!("1. e4 e4 *".parse::<Game>(), Err(ParseGameError::Broken(_))));
    /// ```
    fn from_str(text: &str) -> Result<Game, ParseGameError> {
        let mut games = crate::read_games(text.as_bytes());
        let first = games.next().ok_or(ParseGameError::NoGame)?;
        let more = games.count();
        if more > 0 {
            return Err(ParseGameError::SeveralGames(more + 1));
        }
        match first.diagnostics.errors().next() {
            Some(error) => Err(ParseGameError::Broken(Box::new(error.clone()))),
            None => Ok(first.value),
        }
    }
}

/// The first game of `text` with its diagnostics (python-chess's
/// `read_game`), or `None` when the text holds no game. The game may be
/// broken: see [`ReadGame::is_broken`](crate::ReadGame::is_broken).
///
/// ```
/// let read = pgnkit_game::read_game("1. e4 e5 2. Ke3 *").unwrap();
/// assert!(read.is_broken());
/// assert_eq!(read.value.main_line().count(), 2);
/// ```
pub fn read_game(text: &str) -> Option<crate::ReadGame<'_, Game>> {
    crate::read_games(text.as_bytes()).next()
}
