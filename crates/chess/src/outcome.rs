//! [`Outcome`]: how a game ended.

use crate::color::Color;
use core::fmt;

/// The result of a finished game.
///
/// ```
/// use pgnkit_chess::{Color, Outcome, Position};
///
/// let mut pos = Position::new();
/// assert_eq!(pos.outcome(), None); // the game goes on
/// for san in ["f3", "e5", "g4", "Qh4#"] {
///     pos.play_san(san.as_bytes()).unwrap();
/// }
/// let outcome = pos.outcome().unwrap();
/// assert_eq!(outcome, Outcome::Decisive { winner: Color::Black });
/// assert_eq!(outcome.winner(), Some(Color::Black));
/// assert_eq!(outcome.to_string(), "0-1");
/// let stalemate: Position = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1".parse().unwrap();
/// assert_eq!(stalemate.outcome(), Some(Outcome::Draw));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// One side won.
    Decisive {
        /// The winner.
        winner: Color,
    },
    /// Nobody won.
    Draw,
}

impl Outcome {
    /// The winner, if any.
    pub const fn winner(self) -> Option<Color> {
        match self {
            Outcome::Decisive { winner } => Some(winner),
            Outcome::Draw => None,
        }
    }

    /// The PGN result string: `1-0`, `0-1` or `1/2-1/2`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Outcome::Decisive {
                winner: Color::White,
            } => "1-0",
            Outcome::Decisive {
                winner: Color::Black,
            } => "0-1",
            Outcome::Draw => "1/2-1/2",
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
