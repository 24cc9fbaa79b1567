//! Every error of this crate: FEN, position, SAN, UCI and move errors.
//!
//! Parse errors carry the byte offset (into the text given to the parser)
//! of the character that is wrong, so callers can turn them into line and
//! column positions.

use crate::color::Color;
use crate::moves::Move;
use core::fmt;
use thiserror::Error;

/// A square name was not `a1`..`h8`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[error("invalid square name")]
pub struct ParseSquareError;

/// The FEN field in which an error was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FenField {
    /// Piece placement.
    Board,
    /// Side to move.
    Turn,
    /// Castling availability.
    Castling,
    /// En passant target square.
    EnPassant,
    /// Halfmove clock.
    Halfmoves,
    /// Fullmove number.
    Fullmoves,
    /// Text after the last field.
    Trailing,
}

impl fmt::Display for FenField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FenField::Board => "piece placement",
            FenField::Turn => "side to move",
            FenField::Castling => "castling",
            FenField::EnPassant => "en passant",
            FenField::Halfmoves => "halfmove clock",
            FenField::Fullmoves => "fullmove number",
            FenField::Trailing => "trailing",
        })
    }
}

/// What is wrong in a FEN field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum FenErrorKind {
    /// The text is empty or the field is missing.
    Missing,
    /// A character that does not belong in this field.
    UnexpectedChar,
    /// A rank describes more than eight squares.
    RankTooLong,
    /// A rank describes fewer than eight squares.
    RankTooShort,
    /// Not exactly eight ranks.
    WrongRankCount,
    /// A castling right appears twice, or more than two for one color.
    DuplicateCastlingRight,
    /// A number that is too large.
    NumberTooLarge,
    /// More fields than a FEN has.
    TooManyFields,
}

impl fmt::Display for FenErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FenErrorKind::Missing => "missing",
            FenErrorKind::UnexpectedChar => "unexpected character",
            FenErrorKind::RankTooLong => "rank has more than 8 squares",
            FenErrorKind::RankTooShort => "rank has fewer than 8 squares",
            FenErrorKind::WrongRankCount => "not 8 ranks",
            FenErrorKind::DuplicateCastlingRight => "duplicate castling right",
            FenErrorKind::NumberTooLarge => "number too large",
            FenErrorKind::TooManyFields => "too many fields",
        })
    }
}

/// A FEN could not be parsed: which field, which byte, and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[error("invalid FEN: {kind} in {field} field at byte {offset}")]
pub struct ParseFenError {
    /// The field holding the error.
    pub field: FenField,
    /// Byte offset of the offending character (or of the end of the text
    /// for a missing field).
    pub offset: usize,
    /// What is wrong.
    pub kind: FenErrorKind,
}

/// A parsed setup is not a legal chess position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum PositionError {
    /// A side has no king.
    #[error("{0} has no king")]
    MissingKing(Color),
    /// A side has more than one king.
    #[error("{0} has more than one king")]
    TooManyKings(Color),
    /// A pawn stands on the first or eighth rank.
    #[error("pawn on the first or eighth rank")]
    PawnsOnBackrank,
    /// The side not to move is in check.
    #[error("the side not to move is in check")]
    OppositeCheck,
    /// The en passant square cannot follow a double pawn push.
    #[error("impossible en passant square")]
    InvalidEpSquare,
}

/// What is wrong with a SAN token.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ParseSanErrorKind {
    /// The token is empty.
    Empty,
    /// A character that does not fit the move syntax.
    UnexpectedChar,
    /// The token ends before a destination square.
    MissingSquare,
    /// The token is longer than any move can be.
    TooLong,
}

impl fmt::Display for ParseSanErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ParseSanErrorKind::Empty => "empty move",
            ParseSanErrorKind::UnexpectedChar => "unexpected character",
            ParseSanErrorKind::MissingSquare => "missing destination square",
            ParseSanErrorKind::TooLong => "move text too long",
        })
    }
}

/// A move token could not be parsed as SAN.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[error("invalid move text: {kind} at byte {offset}")]
pub struct ParseSanError {
    /// Byte offset of the offending character within the token.
    pub offset: usize,
    /// What is wrong.
    pub kind: ParseSanErrorKind,
}

/// A parsed SAN does not name exactly one legal move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Error)]
#[non_exhaustive]
pub enum SanError {
    /// No legal move fits.
    #[error("illegal move")]
    Illegal,
    /// More than one legal move fits.
    #[error("ambiguous move")]
    Ambiguous,
}

/// A move is not legal in the position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[error("illegal move {mv}")]
pub struct IllegalMoveError {
    /// The rejected move.
    pub mv: Move,
}

/// A UCI move could not be parsed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[error("invalid UCI move at byte {offset}")]
pub struct ParseUciError {
    /// Byte offset of the offending character.
    pub offset: usize,
}

/// A UCI move is not legal in the position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[error("illegal UCI move")]
pub struct IllegalUciError;

/// A FEN could not be read as a legal position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum FenError {
    /// The text is not FEN.
    #[error(transparent)]
    Parse(#[from] ParseFenError),
    /// The FEN describes an impossible position.
    #[error(transparent)]
    Position(#[from] PositionError),
}
