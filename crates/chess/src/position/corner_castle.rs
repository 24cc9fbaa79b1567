//! Castling with the king on its e-file start and the rook in its corner, decided and
//! played with constant masks: [`Position::play_corner_castle`].
//!
//! Nearly every castling move of a real game has this shape (standard chess, and a
//! Chess960 start that looks like it). The general way ([`Position::castling_move`],
//! then [`Position::play_unchecked`]) finds the king and the rook on the board, builds
//! the king's path from tables and, after the move, looks for every attack on the
//! enemy king; here the squares are known from the side alone and only the rook can
//! give check.

use super::{Position, checks_given};
use crate::bitboard::Bitboard;
use crate::castling::CastlingSide;
use crate::moves::Move;
use crate::role::Role;
use crate::square::{Rank, Square};

impl Position {
    /// Castling on `side` when our king stands on e1 (e8) and the only castling right
    /// of our `side` is the corner rook, which stands there: `Some` of what
    /// [`Position::castling_move`] gives, played as [`Position::play_unchecked`] plays
    /// it (the position unchanged when it is not legal); `None` for any other placement,
    /// which the general way decides.
    #[inline(always)]
    pub(crate) fn play_corner_castle(&mut self, side: CastlingSide) -> Option<Option<Move>> {
        let us = self.turn;
        let shift = if us.is_white() { 0 } else { 56 };
        // The corner, our castling rights on this side of the king (files f-h or a-d),
        // the squares the king crosses after its start, the squares that must be
        // empty, and where the king and the rook end.
        let (corner, side_files, king_path, must_be_empty) = match side {
            CastlingSide::KingSide => (7, 0xe0u64, 0x60u64, 0x60u64),
            CastlingSide::QueenSide => (0, 0x0f, 0x0c, 0x0e),
        };
        let rook = Square::new(corner + shift);
        let king = Square::E1.relative_to(us);
        let board = &self.board;
        if self.castles.0.0 & (side_files << shift) != 1 << rook.index()
            || board.kings() & board.by_color(us) != Bitboard::from_square(king)
            || !(board.rooks() & board.by_color(us)).contains(rook)
        {
            return None;
        }
        // Now `castling_move` finds this rook, and `castle_is_legal` takes its
        // standard branch: not in check, the squares between empty, the king's path
        // not attacked (a corner rook uncovers nothing along the back rank).
        let occupied = board.occupied();
        if self.checkers.any() || (Bitboard(must_be_empty << shift) & occupied).any() {
            return Some(None);
        }
        let them = us.other();
        // Along lines, not in the magic tables: their line for the square is seldom in
        // the cache (perf: that miss was a third of the castling move's time).
        for sq in Bitboard(king_path << shift) {
            if board.attacks_to_along_lines(sq, them, occupied).any() {
                return Some(None);
            }
        }
        let (king_to, rook_to) = (side.king_to(us), side.rook_to(us));
        self.begin_move();
        self.board.move_piece(king, king_to, Role::King.of(us));
        self.board.move_piece(rook, rook_to, Role::Rook.of(us));
        self.castles.0 &= !Bitboard::from_rank(Rank::First.relative_to(us));
        // Only the rook can give check: the king gives none, and every line through
        // the squares left (e1 and a corner) that is not the back rank runs off the
        // board behind them; along the back rank the rook now stands first.
        self.checkers = checks_given(&self.board, us, Role::Rook, rook, rook_to);
        Some(Some(Move::Castle { king, rook }))
    }
}

#[cfg(test)]
mod tests {
    use crate::castling::CastlingSide;
    use crate::position::Position;

    /// The general way: `castling_move`, then `play_unchecked`.
    fn general(pos: &Position, side: CastlingSide) -> (Option<crate::Move>, Position) {
        let mut after = pos.clone();
        let m = pos.castling_move(side);
        if let Some(m) = m {
            after.play_unchecked(m);
        }
        (m, after)
    }

    fn assert_agrees(fen: &str) {
        let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        for side in CastlingSide::ALL {
            let mut fast = pos.clone();
            let Some(m) = fast.play_corner_castle(side) else {
                continue;
            };
            let (expected, after) = general(&pos, side);
            assert_eq!(m, expected, "{fen} {side:?}");
            assert_eq!(fast, after, "{fen} {side:?}");
            assert_eq!(fast.checkers(), after.checkers(), "{fen} {side:?}");
            assert_eq!(fast.castles, after.castles, "{fen} {side:?}");
        }
    }

    #[test]
    fn agrees_with_the_general_way() {
        for fen in [
            // Both ways free, for each color.
            "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
            "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
            // The rook gives check along the back rank (their king beyond e1, and
            // beyond the rook's square), along the f- and d-files.
            "5k2/8/8/8/8/8/8/R3K2R w KQ - 0 1",
            "3k4/8/8/8/8/8/8/R3K2R w KQ - 0 1",
            "r3k2r/8/8/8/8/8/8/1K6 b kq - 0 1",
            "r3k2r/8/8/8/8/8/8/5K2 b kq - 0 1",
            "r3k2r/8/8/8/8/8/8/3K4 b kq - 0 1",
            "8/8/8/8/8/8/8/RNk1K2R w K - 0 1",
            "8/8/8/8/8/8/8/R3K1k1 w Q - 0 1",
            // In check; a crossed square attacked (by a knight, a pawn, a slider, the
            // king); the queen side's b-square attacked but allowed; squares between
            // occupied.
            "4k3/8/8/8/8/8/8/R3K2r w Q - 0 1",
            "4k3/4r3/8/8/8/8/8/R3K2R w KQ - 0 1",
            "4k3/8/8/8/8/8/4n3/R3K2R w KQ - 0 1",
            "4k3/8/8/8/8/8/6p1/R3K2R w KQ - 0 1",
            "4k3/8/8/8/8/8/3p4/R3K2R w KQ - 0 1",
            "4k3/8/8/8/8/8/6b1/R3K2R w KQ - 0 1",
            "4k3/8/8/8/8/5r2/8/R3K2R w KQ - 0 1",
            "4k3/1r6/8/8/8/8/8/R3K2R w KQ - 0 1",
            "8/8/8/8/8/8/6k1/R3K2R w KQ - 0 1",
            "4k3/8/8/8/8/8/8/RN2K1NR w KQ - 0 1",
            "4k3/8/8/8/8/8/8/R2QKB1R w KQ - 0 1",
            // One right only; no right on a side.
            "r3k2r/8/8/8/8/8/8/R3K2R w K - 0 1",
            "r3k2r/8/8/8/8/8/8/R3K2R w Q - 0 1",
            "r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1",
            // Chess960: the same shape, and others the general way decides.
            "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1",
            "4k3/8/8/8/8/8/8/1R2K2R w HB - 0 1",
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        ] {
            assert_agrees(fen);
        }
    }

    #[test]
    fn decides_the_usual_castles() {
        let mut pos = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        assert!(matches!(
            pos.play_corner_castle(CastlingSide::KingSide),
            Some(Some(_))
        ));
        assert!(matches!(
            pos.play_corner_castle(CastlingSide::QueenSide),
            Some(Some(_))
        ));
        let mut pos = Position::from_fen("4k3/8/8/8/8/8/8/1R2K2R w HB - 0 1").unwrap();
        assert_eq!(pos.play_corner_castle(CastlingSide::QueenSide), None);
    }
}
