//! The rules of chess for pgnkit, and nothing about PGN text.
//!
//! Squares, bitboards, the board, positions, legal move generation
//! (standard chess and Chess960), FEN ([`Setup`] is a parsed but unvalidated
//! FEN; [`Position`] is validated), SAN ([`San`] is syntax, resolved to a
//! [`Move`] against a [`Position`]; [`LenientSan`] reads the lenient forms of
//! real files), and UCI.
//!
//! ```
//! use pgnkit_chess::{LenientSan, Position, San, SanPlus, Lenience};
//!
//! let mut pos = Position::new();
//! let mut written = Vec::new();
//! for token in ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"] {
//!     let san: San = token.parse()?;
//!     let m = san.to_move(&pos)?;
//!     written.push(SanPlus::from_move_and_play_unchecked(&mut pos, m).to_string());
//! }
//! assert_eq!(written.last().map(String::as_str), Some("Qxf7#"));
//! assert!(pos.is_checkmate());
//!
//! // Lenient reading reports what was not strict SAN.
//! let pos = Position::new();
//! let (m, lenience) = LenientSan::parse(b"Ng1-f3")?.to_move(&pos)?;
//! assert_eq!(San::from_move(&pos, m).to_string(), "Nf3");
//! assert!(lenience.contains(Lenience::LONG_ALGEBRAIC));
//!
//! assert_eq!(Position::new().perft(3), 8_902);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Design
//!
//! - [`Board`] is eight bitboards (six roles, two colors) plus the occupied
//!   set; [`attacks`] holds the attack tables, all built by `const fn`
//!   (magic bitboards for sliders, with magic factors of our own).
//! - Legal moves are generated directly from check and pin masks (the
//!   `movegen` module); nothing is made and unmade to test legality. Perft
//!   counts the last ply with `popcount`s instead of listing moves.
//! - [`Position`] keeps the pieces giving check (found from the moved piece
//!   and the line it left, not from every attacker) and its en passant
//!   square only when a legal en passant capture exists, so equal positions
//!   compare and hash equal. Its Zobrist hash ([`zobrist`]) is computed
//!   when asked: reading games never needs it.
//! - [`Position::polyglot_key`] is the Polyglot key ([`polyglot`]): the
//!   published Random64 table, so keys agree with opening books and
//!   python-chess.
//! - Castling is the king taking its own rook ([`Move::Castle`]), so
//!   Chess960 needs no special case; [`CastlingMode`] only changes how UCI
//!   and FEN write it.
//! - [`San::parse`] decodes the common shapes (`e4`, `Nf3`, `exd5`, …) by
//!   length and fixed positions before its general parser.
//!   [`San::to_move`] computes pawn origins from the destination and tests
//!   a single candidate piece directly (the full king-safety test only in
//!   check or with an enemy slider on the king's line) instead of
//!   generating moves; [`SanPlus::from_move_and_play_unchecked`] finds `+`
//!   from the kept checkers and looks for mate only after a check.
//! - [`Position::play_san`] goes from strict SAN text to the played move in
//!   one step for the common shapes (one path per piece kind, the role a
//!   constant on it), the game reader's path for nearly every move.
//!
//! Speed is measured by `cargo bench -p pgnkit-chess` (perft, the tricky
//! perft suites at full depth, SAN reading and writing over master games).

pub mod attacks;
mod bitboard;
mod board;
mod castling;
mod color;
mod epd;
mod error;
mod fen;
mod interop;
mod lenient;
mod movegen;
mod moves;
mod outcome;
pub mod perft;
pub mod polyglot;
mod position;
mod role;
mod san;
mod san_play;
mod square;
mod uci;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use board::Board;
pub use castling::{CastlingMode, CastlingRights, CastlingSide};
pub use color::Color;
pub use epd::{Epd, EpdError, Operand, Operation};
pub use error::{
    FenError, FenErrorKind, FenField, IllegalMoveError, IllegalUciError, ParseFenError,
    ParseSanError, ParseSanErrorKind, ParseSquareError, ParseUciError, PlaySanError, PositionError,
    SanError,
};
pub use fen::{CastlingNotation, EnPassantMode, FenOptions, Setup};
pub use lenient::{Lenience, LenientSan};
pub use moves::{MOVE_LIST_CAPACITY, Move, MoveList};
pub use outcome::Outcome;
pub use position::Position;
pub use role::{Piece, Role};
pub use san::{San, SanPlus, Suffix};
pub use square::{File, Rank, Square};
pub use uci::Uci;

/// The example of this crate's README (its crates.io page), compiled and run as a
/// doctest so that it stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
