//! A position as the rules of repetition see it: the board, the side to
//! move, the castling rights and the en passant square (only when an en
//! passant capture is legal, as `Position::ep_square` keeps it), without the
//! move counters. `reaches`, the opening table and `--fuzzy-ply` compare
//! positions by this key, so a position reached by another move order (a
//! transposition) is the same key.

use pgnkit_chess::{Board, CastlingRights, Color, Position, Square};

/// The parts of a position that make it the same position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PositionKey {
    board: Board,
    turn: Color,
    castles: CastlingRights,
    ep: Option<Square>,
    zobrist: u64,
}

impl PositionKey {
    /// The key of `pos`.
    ///
    /// ```
    /// use pgnkit_chess::Position;
    /// use pgnkit_select::PositionKey;
    /// // The same position with other move counters is the same key.
    /// let a = Position::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1").unwrap();
    /// let b = Position::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 17 60").unwrap();
    /// assert_eq!(PositionKey::of(&a), PositionKey::of(&b));
    /// ```
    pub fn of(pos: &Position) -> PositionKey {
        PositionKey {
            board: *pos.board(),
            turn: pos.turn(),
            castles: pos.castles(),
            ep: pos.ep_square(),
            zobrist: pos.zobrist(),
        }
    }

    /// The position's Zobrist hash (64 bits), for tables keyed by position.
    pub fn zobrist(&self) -> u64 {
        self.zobrist
    }

    /// Whether `pos` is this position (the hash first, then the parts).
    pub fn is(&self, pos: &Position) -> bool {
        pos.zobrist() == self.zobrist
            && *pos.board() == self.board
            && pos.turn() == self.turn
            && pos.castles() == self.castles
            && pos.ep_square() == self.ep
    }
}
