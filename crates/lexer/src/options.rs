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
    /// The single pass ([`GameSplitter::next_tokenized`](crate::GameSplitter::next_tokenized),
    /// [`Reader::next_tokenized`](crate::Reader::next_tokenized)) leaves the usual move numbers
    /// and their periods (`12.`, `3...`: up to three digits and a `.`) out of a game's tokens:
    /// a reader that passes over them (the game reader) then need not keep and skip half the
    /// tokens of a movetext. Some are still given (the movetext's first token, other forms),
    /// so the reader must pass over those. What is read, and where a game ends, is the same;
    /// the [`Lexer`](crate::Lexer) gives every token whatever this says.
    pub skip_move_numbers: bool,
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

    /// These options with [`skip_move_numbers`](LexOptions::skip_move_numbers) set to `on`.
    ///
    /// ```
    /// use pgnkit_lexer::{GameSplitter, LexOptions, TokenKind};
    /// let input = b"1. e4 e5 2. Nf3 Nc6 *";
    /// let skip = LexOptions::new().with_skip_move_numbers(true);
    /// let mut splitter = GameSplitter::new(input).with_options(skip);
    /// let game = splitter.next_tokenized().unwrap();
    /// let kinds: Vec<_> = game.tokens.iter().map(|t| t.kind).collect();
    /// // `2.` is left out; the movetext's first token is read with the tags and kept.
    /// assert_eq!(kinds[..2], [TokenKind::Integer, TokenKind::Period]);
    /// assert_eq!(kinds[2..6], [TokenKind::Symbol; 4]);
    /// assert_eq!(game.tokens.len(), 7);
    /// let mut splitter = GameSplitter::new(input);
    /// assert_eq!(splitter.next_tokenized().unwrap().tokens.len(), 9);
    /// ```
    pub fn with_skip_move_numbers(mut self, on: bool) -> LexOptions {
        self.skip_move_numbers = on;
        self
    }
}
