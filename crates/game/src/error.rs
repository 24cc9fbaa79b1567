//! The errors of this crate: what a reading diagnostic says
//! ([`DiagnosticKind`], defined beside the diagnostic it is part of and
//! re-exported here), and what can go wrong editing a tree, parsing one game
//! or reading JSON ([`EditError`], [`ParseGameError`], [`JsonError`]).

use thiserror::Error;

pub use crate::diagnostic::DiagnosticKind;

/// An edit of a move tree that cannot be made.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum EditError {
    /// The node id does not belong to this tree (or was removed).
    #[error("no such node")]
    NoSuchNode,
    /// The move is not legal at that node.
    #[error("illegal move {0} at this node")]
    IllegalMove(String),
    /// The text is not a move in SAN (or UCI for
    /// [`Game::add_uci`](crate::Game::add_uci)).
    #[error("invalid move syntax {0:?}")]
    InvalidSyntax(String),
    /// More than one legal move fits the SAN.
    #[error("ambiguous move {0} at this node")]
    Ambiguous(String),
    /// The operation needs a node with a move (not the root).
    #[error("the root has no move")]
    Root,
}

/// Why a text is not exactly one game ([`Game`](crate::Game)'s `FromStr`).
///
/// For a broken game, [`source`](std::error::Error::source) is the
/// [`Diagnostic`](crate::Diagnostic) of its first error:
///
/// ```
/// use std::error::Error;
/// use pgnkit_game::{Diagnostic, Game};
/// let error = "1. e4 e5 2. Ke3 *".parse::<Game>().unwrap_err();
/// let diagnostic = error.source().and_then(|e| e.downcast_ref::<Diagnostic>()).unwrap();
/// assert_eq!((diagnostic.line, diagnostic.column), (1, 13));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParseGameError {
    /// The text holds no game.
    NoGame,
    /// The text holds more than one game.
    SeveralGames(usize),
    /// The game has an error: the first one.
    Broken(Box<crate::Diagnostic>),
}

impl std::fmt::Display for ParseGameError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ParseGameError::NoGame => f.write_str("no game in the text"),
            ParseGameError::SeveralGames(n) => write!(f, "{n} games in the text, expected one"),
            ParseGameError::Broken(diagnostic) => write!(f, "broken game: {diagnostic}"),
        }
    }
}

impl std::error::Error for ParseGameError {
    /// The first error's [`Diagnostic`](crate::Diagnostic) for a broken
    /// game (itself, not its box, so that `downcast_ref::<Diagnostic>`
    /// finds it).
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ParseGameError::Broken(diagnostic) => Some(&**diagnostic),
            _ => None,
        }
    }
}

/// Why JSON could not become a [`Game`](crate::Game).
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum JsonError {
    /// Not valid JSON for the documented shape.
    #[error("JSON: {0}")]
    Json(#[from] serde_json::Error),
    /// The start FEN is invalid.
    #[error("invalid start FEN {fen:?}: {message}")]
    Fen {
        /// The FEN.
        fen: String,
        /// Why it is invalid.
        message: String,
    },
    /// A move that does not parse or is illegal where it stands.
    #[error("move {san:?} at ply {ply}: {message}")]
    Move {
        /// The move text.
        san: String,
        /// Its ply from the start (1 is the first move).
        ply: usize,
        /// Why it was refused.
        message: String,
    },
    /// An unknown result string.
    #[error("invalid result {0:?}")]
    Result(String),
}

#[cfg(test)]
mod tests {
    use std::error::Error;

    use super::*;
    use crate::{Diagnostic, Game};

    #[test]
    fn a_broken_game_error_has_its_diagnostic_as_source() {
        let error = "1. d4 Ke7 *".parse::<Game>().unwrap_err();
        let source = error.source().expect("a source");
        let diagnostic = source.downcast_ref::<Diagnostic>().expect("a Diagnostic");
        assert_eq!(diagnostic.move_text.as_deref(), Some("Ke7"));
        assert_eq!(error.to_string(), format!("broken game: {diagnostic}"));
        assert!(ParseGameError::NoGame.source().is_none());
        assert!(ParseGameError::SeveralGames(2).source().is_none());
    }
}
