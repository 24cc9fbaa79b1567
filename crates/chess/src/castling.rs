//! Castling: [`CastlingSide`], [`CastlingMode`] and [`CastlingRights`].
//!
//! Castling is represented as the king taking its own rook
//! ([`crate::Move::Castle`]), so Chess960 needs no special case: the rights
//! are simply the set of rook squares that may still castle.

use crate::bitboard::Bitboard;
use crate::color::Color;
use crate::square::{File, Rank, Square};

/// Which way the king castles.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CastlingSide {
    /// Towards the h-file: the king ends on g, the rook on f (`O-O`).
    KingSide,
    /// Towards the a-file: the king ends on c, the rook on d (`O-O-O`).
    QueenSide,
}

impl CastlingSide {
    /// Both sides, king side first.
    pub const ALL: [CastlingSide; 2] = [CastlingSide::KingSide, CastlingSide::QueenSide];

    /// `true` for the king side.
    pub const fn is_king_side(self) -> bool {
        matches!(self, CastlingSide::KingSide)
    }

    /// The file the king ends on (g or c).
    pub const fn king_to_file(self) -> File {
        match self {
            CastlingSide::KingSide => File::G,
            CastlingSide::QueenSide => File::C,
        }
    }

    /// The file the rook ends on (f or d).
    pub const fn rook_to_file(self) -> File {
        match self {
            CastlingSide::KingSide => File::F,
            CastlingSide::QueenSide => File::D,
        }
    }

    /// The square the king of `color` ends on.
    pub const fn king_to(self, color: Color) -> Square {
        Square::from_coords(self.king_to_file(), Rank::First.relative_to(color))
    }

    /// The square the rook of `color` ends on.
    pub const fn rook_to(self, color: Color) -> Square {
        Square::from_coords(self.rook_to_file(), Rank::First.relative_to(color))
    }

    /// The side of a castling move with the king on `king` and the rook on `rook`.
    pub const fn from_king_and_rook(king: Square, rook: Square) -> CastlingSide {
        if (rook.index() & 7) > (king.index() & 7) {
            CastlingSide::KingSide
        } else {
            CastlingSide::QueenSide
        }
    }
}

/// Standard chess or Chess960 (Fischer random) castling rules and notation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum CastlingMode {
    /// King on e1/e8, rooks in the corners; UCI castles as `e1g1`.
    #[default]
    Standard,
    /// Any back-rank start; UCI castles as king takes rook (`e1h1`);
    /// FEN castling uses X-FEN file letters where `KQkq` would be unclear.
    Chess960,
}

impl CastlingMode {
    /// `true` for Chess960.
    pub const fn is_chess960(self) -> bool {
        matches!(self, CastlingMode::Chess960)
    }
}

/// The rook squares that may still castle (at most two per color).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct CastlingRights(pub(crate) Bitboard);

impl CastlingRights {
    /// No rights.
    pub const EMPTY: CastlingRights = CastlingRights(Bitboard::EMPTY);

    /// Full rights of the standard start (rooks on a1, h1, a8, h8).
    pub const STANDARD: CastlingRights = CastlingRights(Bitboard::CORNERS);

    /// The rook squares that may castle.
    #[inline]
    pub const fn rooks(self) -> Bitboard {
        self.0
    }

    /// `true` if nobody may castle.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0.is_empty()
    }

    /// `true` if the rook on `sq` may castle.
    #[inline]
    pub const fn contains(self, sq: Square) -> bool {
        self.0.contains(sq)
    }

    /// Rook squares of `color` that may castle.
    #[inline]
    pub const fn of(self, color: Color) -> Bitboard {
        Bitboard(self.0.0 & Bitboard::from_rank(Rank::First.relative_to(color)).0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sides() {
        assert_eq!(CastlingSide::KingSide.king_to(Color::White), Square::G1);
        assert_eq!(CastlingSide::QueenSide.rook_to(Color::Black), Square::D8);
        assert_eq!(
            CastlingSide::from_king_and_rook(Square::B1, Square::A1),
            CastlingSide::QueenSide
        );
        assert_eq!(
            CastlingSide::from_king_and_rook(Square::B1, Square::C1),
            CastlingSide::KingSide
        );
        assert_eq!(CastlingRights::STANDARD.of(Color::Black).count(), 2);
    }
}
