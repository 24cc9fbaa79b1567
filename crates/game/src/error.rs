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
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum ParseGameError {
    /// The text holds no game.
    #[error("no game in the text")]
    NoGame,
    /// The text holds more than one game.
    #[error("{0} games in the text, expected one")]
    SeveralGames(usize),
    /// The game has an error: the first one.
    #[error("broken game: {0}")]
    Broken(Box<crate::Diagnostic>),
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
