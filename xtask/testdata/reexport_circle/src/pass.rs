//! The single pass: names `Raw` only through the crate root's re-export,
//! which closes the circle with `split`.

use crate::{Raw, Span};

/// A game with its tokens.
pub struct Tokenized(pub Raw);

/// Where the game is.
pub fn span(game: &Tokenized) -> Span {
    Span(game.0.0)
}
