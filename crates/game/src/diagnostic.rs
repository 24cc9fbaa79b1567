//! Diagnostics: errors and warnings found while reading a game, with their
//! absolute byte span, line and column, and for move errors the move text
//! and the position's FEN.

mod kind;

use std::fmt;

pub use kind::DiagnosticKind;

/// How bad a diagnostic is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// Kept going; the game is fine.
    Warning,
    /// The game is broken.
    Error,
}

/// An error or warning about a game's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// What is wrong.
    pub kind: DiagnosticKind,
    /// Byte range in the whole input (absolute offsets).
    pub start: u64,
    /// End of the byte range (exclusive).
    pub end: u64,
    /// 1-based line of `start`.
    pub line: u64,
    /// 1-based column of `start`, in characters.
    pub column: u64,
    /// For move errors: the move as written.
    pub move_text: Option<String>,
    /// For move errors: the FEN of the position the move was played in.
    pub fen: Option<String>,
}

impl Diagnostic {
    /// Whether this is an error.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// The message, without position.
    pub fn message(&self) -> String {
        self.kind.to_string()
    }
}

impl fmt::Display for Diagnostic {
    /// `line:column: error: message` plus ` (move, FEN)` for move errors.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let severity = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        write!(
            f,
            "{}:{}: {}: {}",
            self.line, self.column, severity, self.kind
        )?;
        if let Some(text) = &self.move_text {
            write!(f, " `{text}`")?;
        }
        if let Some(fen) = &self.fen {
            write!(f, " in {fen}")?;
        }
        Ok(())
    }
}

/// A diagnostic is an error value: `?` turns it into a `Box<dyn Error>`.
///
/// ```
/// fn first_error(pgn: &str) -> Result<(), Box<dyn std::error::Error>> {
///     let read = pgnkit_game::read_game(pgn).ok_or("no game")?;
///     if let Some(error) = read.diagnostics.errors().next() {
///         return Err(error.clone().into());
///     }
///     Ok(())
/// }
/// let error = first_error("1. e4 e5 2. Ke3 *").unwrap_err();
/// assert!(error.to_string().starts_with("1:13: error: "));
/// ```
impl std::error::Error for Diagnostic {}

/// The diagnostics of one game, in the order they were found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Diagnostics {
    list: Vec<Diagnostic>,
}

impl Diagnostics {
    /// None yet.
    pub fn new() -> Diagnostics {
        Diagnostics::default()
    }

    /// Adds one.
    pub fn push(&mut self, diagnostic: Diagnostic) {
        self.list.push(diagnostic);
    }

    /// Whether any is an error.
    pub fn has_errors(&self) -> bool {
        self.list.iter().any(Diagnostic::is_error)
    }

    /// The errors.
    pub fn errors(&self) -> impl Iterator<Item = &Diagnostic> + '_ {
        self.list.iter().filter(|d| d.is_error())
    }

    /// The warnings.
    pub fn warnings(&self) -> impl Iterator<Item = &Diagnostic> + '_ {
        self.list.iter().filter(|d| !d.is_error())
    }

    /// All of them, in order.
    pub fn iter(&self) -> std::slice::Iter<'_, Diagnostic> {
        self.list.iter()
    }

    /// How many.
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// Removes and returns them all.
    pub fn take(&mut self) -> Diagnostics {
        std::mem::take(self)
    }
}

impl<'a> IntoIterator for &'a Diagnostics {
    type Item = &'a Diagnostic;
    type IntoIter = std::slice::Iter<'a, Diagnostic>;
    fn into_iter(self) -> Self::IntoIter {
        self.list.iter()
    }
}

impl IntoIterator for Diagnostics {
    type Item = Diagnostic;
    type IntoIter = std::vec::IntoIter<Diagnostic>;
    fn into_iter(self) -> Self::IntoIter {
        self.list.into_iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_and_filters() {
        let mut ds = Diagnostics::new();
        ds.push(Diagnostic {
            severity: Severity::Error,
            kind: DiagnosticKind::IllegalMove,
            start: 10,
            end: 13,
            line: 2,
            column: 5,
            move_text: Some("Ke3".into()),
            fen: Some("8/8/8/8/8/8/8/8 w - - 0 1".into()),
        });
        ds.push(Diagnostic {
            severity: Severity::Warning,
            kind: DiagnosticKind::NagBeforeMove,
            start: 0,
            end: 2,
            line: 1,
            column: 1,
            move_text: None,
            fen: None,
        });
        assert!(ds.has_errors());
        assert_eq!(ds.errors().count(), 1);
        assert_eq!(ds.warnings().count(), 1);
        assert_eq!(
            ds.iter().next().map(|d| d.to_string()).as_deref(),
            Some("2:5: error: illegal move `Ke3` in 8/8/8/8/8/8/8/8 w - - 0 1")
        );
    }
}
