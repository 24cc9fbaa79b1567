//! Lexical errors and warnings, each carrying the byte [`Span`] it concerns.
//!
//! The lexer never fails as a whole: an error becomes a [`TokenKind::Error`](crate::TokenKind::Error)
//! token (see [`Token::error`](crate::Token::error)) and lexing goes on after it. Warnings (limits
//! of the standard that we do not enforce, a TAB inside a string) are collected by the
//! [`Lexer`](crate::Lexer) and read with [`Lexer::warnings`](crate::Lexer::warnings).

use crate::Span;

/// What went wrong in an error token.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[non_exhaustive]
pub enum LexErrorKind {
    /// A `"` string whose line (or the input) ends before its closing quote. The span starts at
    /// the opening quote and ends before the line end.
    #[error("unterminated string")]
    UnterminatedString,
    /// A `{` comment without `}` before the end of the input or before a line that starts like a
    /// tag pair. The span starts at the `{`.
    #[error("unterminated comment")]
    UnterminatedComment,
    /// A run of ASCII control characters (other than TAB, LF, CR, VT and FF).
    #[error("control character")]
    ControlCharacter,
    /// A byte (or UTF-8 character, or run of symbol characters such as `+-` or `=`) that cannot
    /// start a token.
    #[error("unexpected character")]
    UnexpectedCharacter,
    /// A run of `!` and `?` that is not one of the six suffix annotations (e.g. `!!!`).
    #[error("invalid suffix annotation")]
    InvalidSuffix,
    /// A `$` not followed by a digit.
    #[error("`$` without a number")]
    EmptyNag,
    /// A symbol, integer or NAG longer than [`MAX_TOKEN_LEN`](crate::MAX_TOKEN_LEN) bytes.
    #[error("token too long")]
    TokenTooLong,
    /// A game (or a run of bytes with no game boundary) larger than the streaming reader's
    /// limit ([`Reader::set_max_game_bytes`](crate::Reader::set_max_game_bytes)): it was
    /// skipped without being held whole, so its bytes are not at hand. The only token of such
    /// a game, with an empty span; the game's length is
    /// [`TokenizedGame::too_large`](crate::TokenizedGame::too_large) (kept out of the kind so
    /// that every [`TokenKind`](crate::TokenKind) stays two bytes).
    #[error("game over the size limit; skipped")]
    GameTooLarge,
}

/// A lexical error: what and where.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[error("{kind} at bytes {}..{}", span.start, span.end)]
pub struct LexError {
    /// What went wrong.
    pub kind: LexErrorKind,
    /// The bytes of the error token.
    pub span: Span,
}

/// What a warning is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[non_exhaustive]
pub enum LexWarningKind {
    /// A TAB character inside a string (read as a space).
    #[error("TAB in string, read as a space")]
    TabInString,
    /// A string longer than the standard's 255 characters (read anyway).
    #[error("string longer than 255 characters")]
    LongString,
    /// A symbol longer than the standard's 255 characters (read anyway).
    #[error("symbol longer than 255 characters")]
    LongSymbol,
    /// A tag value with unescaped quotes inside, read up to its line's last quote
    /// (SPEC-NOTES "Tag pairs").
    #[error("unescaped quote in a tag value, read to the line's last quote")]
    UnescapedQuote,
}

/// A lexical warning: what and where.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[error("{kind} at bytes {}..{}", span.start, span.end)]
pub struct LexWarning {
    /// What the warning is about.
    pub kind: LexWarningKind,
    /// The bytes of the token concerned.
    pub span: Span,
}
