//! The export crate's errors: a tag order file that cannot be read
//! ([`TagOrderError`]). Writing itself cannot fail but for the output's I/O.

use std::fmt;

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
