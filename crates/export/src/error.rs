//! The errors of this crate: a notation name or a set of piece letters that
//! cannot be read (`--notation`, the `FromStr` of `Notation`), a tag order
//! file that cannot be read ([`TagOrderError`]). Writing itself cannot fail
//! but for the output's I/O.

use std::fmt;

/// A notation that cannot be read from its name.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum NotationError {
    /// The name is none of the names a notation has (`expected`).
    UnknownName {
        /// The text read.
        name: String,
        /// The names that would fit.
        expected: &'static [&'static str],
    },
    /// Piece letters after a notation that takes none (`lan`, `uci`,
    /// `fan`, `lalg`, `halg`).
    LettersNotAllowed(String),
    /// Piece letters that are not six, in the order `PNBRQK`.
    LetterCount(usize),
    /// A piece letter that would not read back as a piece: white space, a
    /// digit, a PGN delimiter, a file letter `a`-`h` or `x`.
    BadLetter(char),
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotationError::UnknownName { name, expected } => write!(
                f,
                "unknown notation `{name}`: expected one of {}",
                expected.join(", ")
            ),
            NotationError::LettersNotAllowed(name) => write!(
                f,
                "notation `{name}` takes no piece letters (san, elalg, xlalg and xolalg do, as in sanBSLTDK)"
            ),
            NotationError::LetterCount(n) => write!(
                f,
                "expected six piece letters in the order PNBRQK (as in sanBSLTDK), found {n}"
            ),
            NotationError::BadLetter(c) => write!(
                f,
                "`{c}` cannot be a piece letter: not white space, a digit, a file letter a-h, `x` or a PGN delimiter"
            ),
        }
    }
}

impl std::error::Error for NotationError {}

/// A line of a tag order file that names no tag (see
/// [`TagOrder::parse`](crate::TagOrder::parse)).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TagOrderError {
    /// The line, from 1.
    pub line: usize,
    /// The word found.
    pub found: String,
}

impl fmt::Display for TagOrderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}: expected a tag name (letters, digits, `_`), found `{}`",
            self.line, self.found
        )
    }
}

impl std::error::Error for TagOrderError {}
