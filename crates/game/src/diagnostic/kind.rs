//! [`DiagnosticKind`]: what a [`Diagnostic`](crate::Diagnostic) reports,
//! and whether it is an error or a warning. It sits beside the diagnostic it
//! is part of, below the crate's other errors, and `error.rs` re-exports it.

use thiserror::Error;

use super::Severity;
use crate::limits::MAX_VARIATION_DEPTH;

/// What a [`Diagnostic`](crate::Diagnostic) reports. Errors make the game
/// broken; warnings do not (see [`DiagnosticKind::severity`]).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum DiagnosticKind {
    /// A SAN (or lenient) move that is not legal in its position.
    #[error("illegal move")]
    IllegalMove,
    /// A SAN move that names more than one legal move.
    #[error("ambiguous move")]
    AmbiguousMove,
    /// A symbol in movetext that is not a move (`Sf3`, `E4`, `e7e8`).
    #[error("not a move")]
    InvalidMove,
    /// A lenient move form used in strict mode (the forms are named).
    #[error("lenient move form in strict mode: {0}")]
    LenientForm(String),
    /// A lower-case piece letter (`nf3`) read as the piece move.
    #[error("lower-case piece letter read as a piece move")]
    LowerCasePiece,
    /// A NAG above `$255`.
    #[error("NAG above 255")]
    NagOutOfRange,
    /// A suffix annotation (`!`, `?!`) not directly after a move.
    #[error("suffix annotation not directly after a move")]
    MisplacedSuffix,
    /// A token that has no place in movetext here.
    #[error("unexpected {0}")]
    Unexpected(String),
    /// Bytes that form no token (the lexer's error: a control character,
    /// an invalid suffix like `!!!`, a token too long, ...).
    #[error("{0}")]
    Lex(pgnkit_lexer::LexErrorKind),
    /// A game the streaming reader skipped for its size (the lexer's
    /// [`GameTooLarge`](pgnkit_lexer::LexErrorKind::GameTooLarge), with the
    /// size from [`TokenizedGame::too_large`](pgnkit_lexer::TokenizedGame::too_large)).
    #[error("game of {bytes} bytes is over the size limit; skipped")]
    GameTooLarge {
        /// The game's length in bytes.
        bytes: u64,
    },
    /// A `)` without a `(`.
    #[error("`)` without `(`")]
    UnmatchedClose,
    /// A variation still open when the game ends.
    #[error("variation not closed")]
    UnclosedVariation,
    /// A `(` that would open a variation deeper than
    /// [`MAX_VARIATION_DEPTH`]: the rest of the
    /// line it stands in is skipped, like after any other error.
    #[error("variations nested deeper than {}", MAX_VARIATION_DEPTH)]
    VariationTooDeep,
    /// A termination marker inside a variation.
    #[error("termination marker inside a variation")]
    MarkerInVariation,
    /// A tag value string whose line ends before its closing quote.
    #[error("unterminated string")]
    UnterminatedString,
    /// A `{` comment not closed before the end of input or a tag line.
    #[error("unterminated comment")]
    UnterminatedComment,
    /// Something else wrong inside the tag section.
    #[error("malformed tag section: {0}")]
    MalformedTag(String),
    /// The `FEN` tag is not a valid position (the message names the
    /// field and the character).
    #[error("{0}")]
    InvalidFen(String),
    /// A `Variant` that is not standard chess or Chess960.
    #[error("unsupported variant {0:?}")]
    UnsupportedVariant(String),
    /// A tag name that already appeared in the game: the first value wins.
    #[error("duplicate tag {0:?}: the first value is kept")]
    DuplicateTag(String),
    /// No termination marker: the given one is used.
    #[error("no termination marker: {0} used")]
    MissingMarker(String),
    /// The Result tag and the termination marker disagree: the marker wins.
    #[error("Result tag {tag:?} disagrees with the marker {marker}: the marker wins")]
    ResultMismatch {
        /// The Result tag's value.
        tag: String,
        /// The marker.
        marker: String,
    },
    /// A NAG before the first move of a game or variation (dropped).
    #[error("NAG before the first move annotates nothing: dropped")]
    NagBeforeMove,
    /// A variation without moves (dropped with its comments).
    #[error("variation without moves: dropped")]
    EmptyVariation,
    /// `SetUp "1"` without a `FEN` tag: the standard start is used.
    #[error("SetUp without FEN: the standard start is used")]
    SetUpWithoutFen,
    /// Comments after the termination marker, kept with the game that ended.
    #[error("comment after the termination marker: kept after the last move")]
    CommentAfterMarker,
    /// A TAB in a tag value, read as a space.
    #[error("TAB in a tag value: read as a space")]
    TabInTag,
    /// A game with tags but no movetext.
    #[error("game has tags only")]
    TagsOnly,
    /// A tag value with unescaped quotes inside, read up to the line's last
    /// quote (SPEC-NOTES "Tag pairs"); the tag's name.
    #[error("unescaped quote in the value of tag {0}")]
    UnescapedQuote(String),
    /// A tag value without its closing quote, read up to the `]` that ends
    /// its line ([`ReadOptions::fix_tag_strings`](crate::ReadOptions)); the
    /// tag's name.
    #[error("missing closing quote in the value of tag {0}: read up to the `]`")]
    MissingClosingQuote(String),
    /// A castling right of the FEN that names no rook (`E` in `EQkq` with
    /// the king on e1), dropped before deciding whether the game is
    /// Chess960; the right as written.
    #[error("castling right {0} names no rook: dropped")]
    CastlingRightDropped(String),
}

impl DiagnosticKind {
    /// Whether this is an error (the game is broken) or a warning.
    pub fn severity(&self) -> Severity {
        use DiagnosticKind::*;
        match self {
            LowerCasePiece
            | DuplicateTag(_)
            | MissingMarker(_)
            | ResultMismatch { .. }
            | NagBeforeMove
            | EmptyVariation
            | SetUpWithoutFen
            | CommentAfterMarker
            | TabInTag
            | TagsOnly
            | UnescapedQuote(_)
            | MissingClosingQuote(_)
            | CastlingRightDropped(_) => Severity::Warning,
            _ => Severity::Error,
        }
    }
}
