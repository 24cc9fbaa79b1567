//! UCI move notation: [`Uci`] (`e2e4`, `e7e8q`, `0000`).
//!
//! Castling is written `e1g1` (king to its destination) in standard chess
//! and king-takes-rook (`e1h1`) in Chess960, as UCI engines expect.

use crate::bitboard::Bitboard;
use crate::castling::{CastlingMode, CastlingSide};
use crate::moves::Move;
use crate::position::Position;
use crate::role::Role;
use crate::square::{File, Square};
use core::fmt;
use core::str::FromStr;
use thiserror::Error;

/// A move in UCI notation (not tied to a position).
///
/// ```
/// use pgnkit_chess::{CastlingMode, Position, Uci};
///
/// let mut pos = Position::new();
/// let uci: Uci = "g1f3".parse().unwrap();
/// let m = uci.to_move(&pos).unwrap(); // checked against the position
/// pos.play_unchecked(m);
/// assert_eq!(Uci::from_move(m, CastlingMode::Standard), uci);
/// assert_eq!(uci.to_string(), "g1f3");
/// assert!("g1f3".parse::<Uci>().unwrap().to_move(&pos).is_err()); // Black to move
/// assert!("e7e8k".parse::<Uci>().is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Uci {
    /// From, to and promotion.
    Normal {
        /// Start square.
        from: Square,
        /// Destination square.
        to: Square,
        /// Promotion piece.
        promotion: Option<Role>,
    },
    /// `0000`.
    Null,
}

impl Uci {
    /// Parses `e2e4`, `e7e8q` or `0000`.
    pub fn parse(s: &[u8]) -> Result<Uci, ParseUciError> {
        if s == b"0000" {
            return Ok(Uci::Null);
        }
        let bad = |offset| ParseUciError { offset };
        if s.len() < 4 {
            return Err(bad(s.len()));
        }
        if s.len() > 5 {
            return Err(bad(5));
        }
        let from = Square::from_ascii(&s[0..2]).ok_or(bad(0))?;
        let to = Square::from_ascii(&s[2..4]).ok_or(bad(2))?;
        let promotion = match s.get(4) {
            None => None,
            Some(b'n') => Some(Role::Knight),
            Some(b'b') => Some(Role::Bishop),
            Some(b'r') => Some(Role::Rook),
            Some(b'q') => Some(Role::Queen),
            Some(_) => return Err(bad(4)),
        };
        Ok(Uci::Normal {
            from,
            to,
            promotion,
        })
    }

    /// The UCI of a move; castling per `mode`.
    pub fn from_move(m: Move, mode: CastlingMode) -> Uci {
        match m {
            Move::Normal {
                from,
                to,
                promotion,
                ..
            } => Uci::Normal {
                from,
                to,
                promotion,
            },
            Move::EnPassant { from, to } => Uci::Normal {
                from,
                to,
                promotion: None,
            },
            Move::Castle { king, rook } => {
                let to = match mode {
                    CastlingMode::Chess960 => rook,
                    CastlingMode::Standard => {
                        let side = CastlingSide::from_king_and_rook(king, rook);
                        Square::from_coords(side.king_to_file(), king.rank())
                    }
                };
                Uci::Normal {
                    from: king,
                    to,
                    promotion: None,
                }
            }
            Move::Null => Uci::Null,
        }
    }

    /// The legal move this UCI names in `pos` (a null move for `0000`).
    pub fn to_move(&self, pos: &Position) -> Result<Move, IllegalUciError> {
        let (from, to, promotion) = match *self {
            Uci::Null => return Ok(Move::Null),
            Uci::Normal {
                from,
                to,
                promotion,
            } => (from, to, promotion),
        };
        let mode = pos.castling_mode();
        let mut found = None;
        pos.for_each_legal_move_between(
            Bitboard::from_square(from),
            Bitboard::from_square(to),
            |m| {
                // King takes rook is castling only in Chess960.
                if m.promotion() == promotion && !(m.is_castle() && mode == CastlingMode::Standard)
                {
                    found = Some(m);
                }
            },
        );
        if let Some(m) = found {
            return Ok(m);
        }
        if mode == CastlingMode::Standard
            && promotion.is_none()
            && let Some(m) = standard_castle(pos, from, to)
        {
            return Ok(m);
        }
        Err(IllegalUciError)
    }

    /// Writes the UCI into any [`fmt::Write`].
    pub fn write_to(&self, out: &mut impl fmt::Write) -> fmt::Result {
        match *self {
            Uci::Null => out.write_str("0000"),
            Uci::Normal {
                from,
                to,
                promotion,
            } => {
                write!(out, "{from}{to}")?;
                if let Some(p) = promotion {
                    out.write_char(p.char())?;
                }
                Ok(())
            }
        }
    }
}

/// `e1g1`-style castling: king from its e-file start two files towards a
/// corner rook.
pub(crate) fn standard_castle(pos: &Position, from: Square, to: Square) -> Option<Move> {
    if from.file() != File::E || to.rank() != from.rank() {
        return None;
    }
    let side = match to.file() {
        File::G => CastlingSide::KingSide,
        File::C => CastlingSide::QueenSide,
        _ => return None,
    };
    let m = pos.castling_move(side)?;
    match m {
        Move::Castle { king, rook } if king == from && Bitboard::CORNERS.contains(rook) => Some(m),
        _ => None,
    }
}

impl fmt::Display for Uci {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_to(f)
    }
}

impl FromStr for Uci {
    type Err = ParseUciError;
    fn from_str(s: &str) -> Result<Uci, ParseUciError> {
        Uci::parse(s.as_bytes())
    }
}

// Errors of this module (gathered in `error.rs`).

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_write() {
        for s in ["e2e4", "e7e8q", "0000", "a1h8"] {
            assert_eq!(s.parse::<Uci>().unwrap().to_string(), s);
        }
        for (s, at) in [
            ("e2e", 3),
            ("e9e4", 0),
            ("e2x4", 2),
            ("e7e8k", 4),
            ("e7e8qq", 5),
            ("E2e4", 0),
        ] {
            assert_eq!(s.parse::<Uci>(), Err(ParseUciError { offset: at }), "{s}");
        }
    }

    #[test]
    fn castling_notation() {
        let pos = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        let castle = Move::Castle {
            king: Square::E1,
            rook: Square::H1,
        };
        assert_eq!(
            Uci::from_move(castle, CastlingMode::Standard).to_string(),
            "e1g1"
        );
        assert_eq!(
            Uci::from_move(castle, CastlingMode::Chess960).to_string(),
            "e1h1"
        );
        assert_eq!("e1g1".parse::<Uci>().unwrap().to_move(&pos), Ok(castle));
        assert_eq!(
            "e1h1".parse::<Uci>().unwrap().to_move(&pos),
            Err(IllegalUciError)
        );
        let c960 = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1").unwrap();
        assert_eq!("e1h1".parse::<Uci>().unwrap().to_move(&c960), Ok(castle));
    }
}
