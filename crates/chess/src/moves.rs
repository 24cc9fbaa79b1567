//! [`Move`] and the fixed-capacity [`MoveList`].

use crate::castling::CastlingSide;
use crate::role::Role;
use crate::square::Square;
use core::fmt;
use core::ops::{Deref, DerefMut};
use smallvec::SmallVec;

/// A move, as played on a board (not how it is written).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Move {
    /// A piece moves, maybe capturing, maybe promoting.
    Normal {
        /// The moving piece.
        role: Role,
        /// Start square.
        from: Square,
        /// The captured piece, if any.
        capture: Option<Role>,
        /// Destination square.
        to: Square,
        /// The new role of a promoting pawn.
        promotion: Option<Role>,
    },
    /// A pawn captures en passant.
    EnPassant {
        /// Start square of the capturing pawn.
        from: Square,
        /// Destination square (the square the enemy pawn skipped).
        to: Square,
    },
    /// Castling, written as the king taking its own rook.
    Castle {
        /// The king's start square.
        king: Square,
        /// The castling rook's start square.
        rook: Square,
    },
    /// A null move: the turn passes, nothing moves.
    Null,
}

impl Move {
    /// The moving piece (the king for castling), `None` for a null move.
    #[inline]
    pub const fn role(&self) -> Option<Role> {
        match *self {
            Move::Normal { role, .. } => Some(role),
            Move::EnPassant { .. } => Some(Role::Pawn),
            Move::Castle { .. } => Some(Role::King),
            Move::Null => None,
        }
    }

    /// Start square (the king's for castling).
    #[inline]
    pub const fn from(&self) -> Option<Square> {
        match *self {
            Move::Normal { from, .. } | Move::EnPassant { from, .. } => Some(from),
            Move::Castle { king, .. } => Some(king),
            Move::Null => None,
        }
    }

    /// Target square (the rook's square for castling: king takes rook).
    #[inline]
    pub const fn to(&self) -> Option<Square> {
        match *self {
            Move::Normal { to, .. } | Move::EnPassant { to, .. } => Some(to),
            Move::Castle { rook, .. } => Some(rook),
            Move::Null => None,
        }
    }

    /// The captured piece (a pawn for en passant).
    #[inline]
    pub const fn capture(&self) -> Option<Role> {
        match *self {
            Move::Normal { capture, .. } => capture,
            Move::EnPassant { .. } => Some(Role::Pawn),
            _ => None,
        }
    }

    /// `true` if something is captured.
    #[inline]
    pub const fn is_capture(&self) -> bool {
        self.capture().is_some()
    }

    /// `true` for en passant.
    #[inline]
    pub const fn is_en_passant(&self) -> bool {
        matches!(self, Move::EnPassant { .. })
    }

    /// `true` for castling.
    #[inline]
    pub const fn is_castle(&self) -> bool {
        matches!(self, Move::Castle { .. })
    }

    /// `true` for a null move.
    #[inline]
    pub const fn is_null(&self) -> bool {
        matches!(self, Move::Null)
    }

    /// The promotion role, if any.
    #[inline]
    pub const fn promotion(&self) -> Option<Role> {
        match *self {
            Move::Normal { promotion, .. } => promotion,
            _ => None,
        }
    }

    /// `true` for a promotion.
    #[inline]
    pub const fn is_promotion(&self) -> bool {
        self.promotion().is_some()
    }

    /// The castling side, for castling moves.
    #[inline]
    pub const fn castling_side(&self) -> Option<CastlingSide> {
        match *self {
            Move::Castle { king, rook } => Some(CastlingSide::from_king_and_rook(king, rook)),
            _ => None,
        }
    }

    /// `true` if the move resets the halfmove clock (pawn move or capture).
    #[inline]
    pub const fn is_zeroing(&self) -> bool {
        match *self {
            Move::Normal {
                role: Role::Pawn, ..
            }
            | Move::EnPassant { .. } => true,
            Move::Normal { capture, .. } => capture.is_some(),
            _ => false,
        }
    }
}

/// `Display` is long algebraic notation (`Ng1-f3`), not UCI: for UCI
/// (`g1f3`) use [`Move::uci`], for SAN [`San::from_move`](crate::San::from_move).
///
/// ```
/// use pgnkit_chess::{Position, San};
/// let pos = Position::new();
/// let m = San::parse(b"Nf3").unwrap().to_move(&pos).unwrap();
/// assert_eq!(m.to_string(), "Ng1-f3");
/// assert_eq!(m.uci().to_string(), "g1f3");
/// ```
impl fmt::Display for Move {
    /// Long algebraic notation without check marks, e.g. `Ng1-f3`, `e5xd6`,
    /// `O-O`, `e7-e8=Q`, `--` (for debugging and messages; PGN uses SAN).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Move::Normal {
                role,
                from,
                capture,
                to,
                promotion,
            } => {
                if role != Role::Pawn {
                    write!(f, "{}", role.upper_char())?;
                }
                write!(
                    f,
                    "{}{}{}",
                    from,
                    if capture.is_some() { 'x' } else { '-' },
                    to
                )?;
                if let Some(p) = promotion {
                    write!(f, "={}", p.upper_char())?;
                }
                Ok(())
            }
            Move::EnPassant { from, to } => write!(f, "{from}x{to}"),
            Move::Castle { king, rook } => {
                f.write_str(match CastlingSide::from_king_and_rook(king, rook) {
                    CastlingSide::KingSide => "O-O",
                    CastlingSide::QueenSide => "O-O-O",
                })
            }
            Move::Null => f.write_str("--"),
        }
    }
}

/// Capacity of a [`MoveList`]: more than the 218 legal moves any position has.
pub const MOVE_LIST_CAPACITY: usize = 256;

/// A list of moves stored inline: no heap allocation for up to
/// [`MOVE_LIST_CAPACITY`] moves, more than any position reachable in a game
/// has (218 at most). Only constructed positions with more pieces than a game
/// allows can exceed it; the list then moves to the heap rather than fail.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct MoveList(SmallVec<[Move; MOVE_LIST_CAPACITY]>);

impl MoveList {
    /// An empty list.
    #[inline]
    pub fn new() -> MoveList {
        MoveList(SmallVec::new())
    }

    /// Appends a move.
    #[inline]
    pub fn push(&mut self, m: Move) {
        self.0.push(m);
    }

    /// Removes every move for which `keep` is false.
    pub fn retain(&mut self, mut keep: impl FnMut(&Move) -> bool) {
        self.0.retain(|m| keep(m));
    }

    /// Removes all moves.
    pub fn clear(&mut self) {
        self.0.clear();
    }
}

impl Deref for MoveList {
    type Target = [Move];
    #[inline]
    fn deref(&self) -> &[Move] {
        &self.0
    }
}

impl DerefMut for MoveList {
    #[inline]
    fn deref_mut(&mut self) -> &mut [Move] {
        &mut self.0
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.0.iter()).finish()
    }
}

impl IntoIterator for MoveList {
    type Item = Move;
    type IntoIter = smallvec::IntoIter<[Move; MOVE_LIST_CAPACITY]>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = core::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl FromIterator<Move> for MoveList {
    fn from_iter<I: IntoIterator<Item = Move>>(iter: I) -> MoveList {
        MoveList(iter.into_iter().collect())
    }
}

impl Extend<Move> for MoveList {
    fn extend<I: IntoIterator<Item = Move>>(&mut self, iter: I) {
        self.0.extend(iter);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accessors() {
        let m = Move::Normal {
            role: Role::Pawn,
            from: Square::E7,
            capture: Some(Role::Rook),
            to: Square::F8,
            promotion: Some(Role::Queen),
        };
        assert_eq!(m.to_string(), "e7xf8=Q");
        assert!(m.is_capture() && m.is_promotion() && m.is_zeroing());
        let c = Move::Castle {
            king: Square::E1,
            rook: Square::A1,
        };
        assert_eq!(c.castling_side(), Some(CastlingSide::QueenSide));
        assert_eq!(c.to(), Some(Square::A1));
        assert_eq!(c.to_string(), "O-O-O");
        assert!(!c.is_zeroing());
        assert_eq!(Move::Null.from(), None);
        let mut list = MoveList::new();
        list.push(c);
        list.push(m);
        list.retain(|m| m.is_castle());
        assert_eq!(list.len(), 1);
    }
}
