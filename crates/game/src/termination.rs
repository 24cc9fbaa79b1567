//! [`Termination`]: the marker that ends a game's movetext (`1-0`, `0-1`,
//! `1/2-1/2`, `*`), which the reader, the visitors and the model share.

use std::fmt;
use std::str::FromStr;

/// The termination marker of a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Termination {
    /// `1-0`.
    WhiteWins,
    /// `0-1`.
    BlackWins,
    /// `1/2-1/2`.
    Draw,
    /// `*`: unknown, ongoing or abandoned.
    #[default]
    Unknown,
}

impl Termination {
    /// The marker as written in export format.
    pub fn as_str(self) -> &'static str {
        match self {
            Termination::WhiteWins => "1-0",
            Termination::BlackWins => "0-1",
            Termination::Draw => "1/2-1/2",
            Termination::Unknown => "*",
        }
    }

    /// The marker for exactly `1-0`, `0-1`, `1/2-1/2` or `*` (the only
    /// Result tag values that count as a marker).
    pub fn from_exact(text: &[u8]) -> Option<Termination> {
        Some(match text {
            b"1-0" => Termination::WhiteWins,
            b"0-1" => Termination::BlackWins,
            b"1/2-1/2" => Termination::Draw,
            b"*" => Termination::Unknown,
            _ => return None,
        })
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Termination {
    type Err = crate::JsonError;

    fn from_str(s: &str) -> Result<Termination, Self::Err> {
        Termination::from_exact(s.as_bytes()).ok_or_else(|| crate::JsonError::Result(s.to_owned()))
    }
}
