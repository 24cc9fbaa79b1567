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

    /// Whether `pos` is this position (the board first: most positions
    /// differ there, and comparing it costs less than hashing it).
    pub fn is(&self, pos: &Position) -> bool {
        *pos.board() == self.board
            && pos.turn() == self.turn
            && pos.castles() == self.castles
            && pos.ep_square() == self.ep
    }
}

/// A 64-bit hash of the parts [`PositionKey`] compares, from the board's
/// bitboards (a few multiplications, where a Zobrist hash from scratch
/// reads every piece): the key of the opening table's index, which is
/// looked up for every position of every game classified.
pub(crate) fn quick_hash(pos: &Position) -> u64 {
    const K: u64 = 0x9e37_79b9_7f4a_7c15;
    let board = pos.board();
    let words = [
        board.white().0,
        board.pawns().0,
        board.knights().0,
        board.bishops().0,
        board.rooks().0,
        board.queens().0,
        board.kings().0,
    ];
    let ep = pos.ep_square().map_or(0, |sq| u64::from(sq.index()) + 1);
    let mut h = u64::from(pos.turn() == Color::White) | ep << 1;
    for w in words {
        h = (h.rotate_left(23) ^ w).wrapping_mul(K);
    }
    h = (h.rotate_left(23) ^ pos.castles().rooks().0).wrapping_mul(K);
    h ^ (h >> 29)
}

/// A `BuildHasher` for keys that are hashes already ([`quick_hash`]): the
/// key is its own hash.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Prehashed;

/// The hasher of [`Prehashed`].
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct PrehashedHasher(u64);

impl std::hash::Hasher for PrehashedHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

impl std::hash::BuildHasher for Prehashed {
    type Hasher = PrehashedHasher;
    fn build_hasher(&self) -> PrehashedHasher {
        PrehashedHasher(0)
    }
}
