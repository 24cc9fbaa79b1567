//! A piece move (not a pawn's) with its role a value: [`Position::play_piece_move`].

use super::Position;
use crate::attacks;
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::color::Color;
use crate::role::Role;
use crate::square::{Rank, Square};

impl Position {
    /// [`Position::play_normal`] of a piece (not a pawn) whose `role` is a
    /// value, not a constant: the board, the castling rights and the checks
    /// given are found with the role as a table index, without a branch on
    /// it. The game reader plays every piece move this way, so that the
    /// piece letter, which no branch predictor guesses well, is read once,
    /// as data (perf: the jump over the five roles and its landings were a
    /// tenth of the reader's time).
    #[inline(always)]
    pub(crate) fn play_piece_move(
        &mut self,
        role: Role,
        from: Square,
        capture: Option<Role>,
        to: Square,
    ) {
        let (us, them) = self.begin_move();
        if let Some(captured) = capture {
            self.board.discard_piece_at(to, captured.of(them));
            self.halfmoves = 0;
        }
        self.board.move_piece(from, to, role.of(us));
        // A king move ends both rights of its side, with no branch.
        let back_rank = Bitboard::from_rank(Rank::First.relative_to(us)).0;
        let king_move = u64::from(role == Role::King).wrapping_neg();
        self.castles.0 &= !(Bitboard::from_square(from) | to | Bitboard(back_rank & king_move));
        self.checkers = piece_checks_given(&self.board, us, role, from, to);
    }
}

/// [`checks_given`](super::checks_given) by a piece (not a pawn) of `role`, with the role a
/// table index ([`attacks::piece_rays`]): the piece on `to` attacks the king
/// when the king is on its rays and nothing stands between (a knight's and
/// a king's squares have nothing between; a king never gives check).
#[inline(always)]
fn piece_checks_given(board: &Board, us: Color, role: Role, from: Square, to: Square) -> Bitboard {
    let Some(king) = (board.kings() & board.by_color(us.other())).first() else {
        return Bitboard::EMPTY;
    };
    let occupied = board.occupied();
    let direct = attacks::piece_rays(role, to).contains(king)
        && (attacks::between(to, king) & occupied).is_empty();
    let mut checkers = discovered_checks(board, us, king, from);
    if direct {
        checkers.add(to);
    }
    checkers
}

/// Our sliders behind `from` on the line from the enemy `king` that now
/// attack it (a discovered check), on the board after the move.
#[inline(always)]
pub(super) fn discovered_checks(board: &Board, us: Color, king: Square, from: Square) -> Bitboard {
    let occupied = board.occupied();
    let mut checkers = Bitboard::EMPTY;
    let ours = board.by_color(us);
    let behind =
        attacks::ray(king, from) & ours & !(board.pawns() | board.knights() | board.kings());
    if behind.any() {
        let sliders = if attacks::rook_rays(king).contains(from) {
            board.rooks_and_queens()
        } else {
            board.bishops_and_queens()
        };
        for slider in behind & sliders {
            if (attacks::between(slider, king) & occupied).is_empty() {
                checkers.add(slider);
            }
        }
    }
    checkers
}
