//! [`LexOptions`]: the reading rules a caller may switch on, which every scanner of this crate
//! (the [`Lexer`](crate::Lexer), the [`GameSplitter`](crate::GameSplitter), the streaming
//! [`Reader`](crate::Reader) and its single pass) applies alike, so that they agree on where a
//! comment, and so a game, ends.

/// Lexing rules beyond the standard's, all off by default.
///
/// ```
/// use pgnkit_lexer::{LexOptions, Lexer, TokenKind};
/// let input = b"{ a { b } c } e4";
/// let nested = LexOptions::new().with_nested_comments(true);
/// let kinds: Vec<_> = Lexer::with_options(input, nested).map(|t| t.kind).collect();
/// assert_eq!(kinds, [TokenKind::BraceComment, TokenKind::Symbol]);
/// // By the standard the first `}` closes the comment.
/// assert_eq!(Lexer::new(input).count(), 4);
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct LexOptions {
    /// Brace comments nest (pgn-extract's `--nestedcomments`): inside a comment each `{` opens
    /// a level and each `}` closes one, and the comment ends at the `}` that closes its first
    /// `{`. A line inside that starts like a tag pair still ends the comment, unterminated, as
    /// it does a plain one: where a game may start does not change.
    pub nested_comments: bool,
}

impl LexOptions {
    /// The standard's rules (nothing switched on).
    pub fn new() -> LexOptions {
        LexOptions::default()
    }

    /// These options with [`nested_comments`](LexOptions::nested_comments) set to `on`.
    pub fn with_nested_comments(mut self, on: bool) -> LexOptions {
        self.nested_comments = on;
        self
    }
}
