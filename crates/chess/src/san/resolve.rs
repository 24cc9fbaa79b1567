//! Resolving SAN against a position: [`San::to_move`] and the pieces of it
//! that `LenientSan` and `Position::play_san` share.
//!
//! The pieces that reach the destination are found from attack tables and
//! each candidate is tested for king safety directly (no move generation):
//! nearly always exactly one candidate is left.

use super::{San, SanError};
use crate::attacks;
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::color::Color;
use crate::movegen;
use crate::moves::Move;
use crate::position::Position;
use crate::role::Role;
use crate::square::{Rank, Square};

impl San {
    /// Resolves this SAN to the one legal move it names. The `x` must be
    /// written exactly for captures; pawn moves without `x` are pushes.
    #[inline(always)]
    pub fn to_move(&self, pos: &Position) -> Result<Move, SanError> {
        match *self {
            San::Null => Ok(Move::Null),
            San::Castle(side) => pos.castling_move(side).ok_or(SanError::Illegal),
            San::Normal {
                role,
                file,
                rank,
                capture,
                to,
                promotion,
            } => {
                let mut from = pos.board().by_piece(role.of(pos.turn()));
                if let Some(f) = file {
                    from &= Bitboard::from_file(f);
                }
                if let Some(r) = rank {
                    from &= Bitboard::from_rank(r);
                }
                resolve_normal(pos, role, from, capture, to, promotion)
            }
        }
    }
}

/// Resolves a strict SAN piece or pawn move among the candidate start
/// squares `from` (pieces of `role` of the side to move; those that cannot
/// reach `to` are ignored), testing each candidate's legality directly
/// instead of generating moves.
#[inline(always)]
pub(crate) fn resolve_normal(
    pos: &Position,
    role: Role,
    from: Bitboard,
    capture: bool,
    to: Square,
    promotion: Option<Role>,
) -> Result<Move, SanError> {
    match role {
        Role::Pawn => resolve_pawn(pos, from, capture, to, promotion),
        _ if promotion.is_some() => Err(SanError::Illegal),
        _ => piece_origin(pos, role, from, capture, to)
            .map(|(origin, captured)| plain_move(role, origin, captured, to)),
    }
}

/// The move of our `role` from `from` to `to`, taking `capture`, without
/// promotion (not en passant or castling).
#[inline(always)]
pub(crate) fn plain_move(role: Role, from: Square, capture: Option<Role>, to: Square) -> Move {
    Move::Normal {
        role,
        from,
        capture,
        to,
        promotion: None,
    }
}

/// Our king, if `to` is free of our own pieces (else nothing moves there).
#[inline(always)]
fn king_if_free(pos: &Position, to: Square) -> Result<Square, SanError> {
    if pos.board().by_color(pos.turn()).contains(to) {
        return Err(SanError::Illegal);
    }
    the_king(pos).ok_or(SanError::Illegal)
}

/// The king of the side to move, for SAN resolution on every move: a
/// position has one king of each color (`Position::from_setup`; legal moves
/// never take one), so the lowest is the king, found without
/// [`Position::our_king`]'s test for a second one (callgrind: `check` 0.5%
/// fewer instructions).
#[inline(always)]
pub(crate) fn the_king(pos: &Position) -> Option<Square> {
    let board = pos.board();
    (board.kings() & board.by_color(pos.turn())).first()
}

/// Resolves a piece (not pawn) move: the candidates are our pieces of
/// `role` in `from` that attack `to`. Gives the one legal start square and
/// the piece taken on `to` (`capture` must say whether there is one).
#[inline(always)]
pub(crate) fn piece_origin(
    pos: &Position,
    role: Role,
    from: Bitboard,
    capture: bool,
    to: Square,
) -> Result<(Square, Option<Role>), SanError> {
    let king = king_if_free(pos, to)?;
    let board = pos.board();
    let takes = board.by_color(pos.turn().other()).contains(to);
    if capture != takes {
        return Err(SanError::Illegal);
    }
    let captured = if takes { board.role_at(to) } else { None };
    let candidates = reaching(pos, role, from, to);
    let origin = resolve_candidates(pos, king, role, candidates, to)?;
    Ok((origin, captured))
}

/// [`piece_origin`] with the role a value, not a constant: the candidates
/// are found from [`attacks::piece_rays`] and a slider's path in the table
/// of squares between, the same for every role (a knight's or a king's
/// path has nothing between), so the only branch on the role left is the
/// king's own safety test. For the game reader's piece moves, whose letter
/// no branch predictor guesses well (see [`Position::play_piece_move`]).
/// Its first checks (our king, the capture against the target square) are
/// [`piece_origin`]'s, written out again on purpose: the same lines as one
/// shared function, inlined, made `check` 0.4% more instructions (callgrind,
/// the guard's sample: 75.10 M -> 75.42 M).
#[inline(always)]
pub(crate) fn piece_origin_of_role(
    pos: &Position,
    role: Role,
    from: Bitboard,
    capture: bool,
    to: Square,
) -> Result<(Square, Option<Role>), SanError> {
    let king = king_if_free(pos, to)?;
    let board = pos.board();
    let takes = board.by_color(pos.turn().other()).contains(to);
    if capture != takes {
        return Err(SanError::Illegal);
    }
    let captured = if takes { board.role_at(to) } else { None };
    let occupied = board.occupied();
    let on_lines = from & attacks::piece_rays(role, to);
    if on_lines.more_than_one() {
        let candidates = unblocked(occupied, on_lines, to);
        return resolve_among(pos, king, role, candidates, to).map(|origin| (origin, captured));
    }
    match on_lines.first() {
        Some(f)
            if (attacks::between(f, to) & occupied).is_empty()
                && candidate_is_safe(pos, king, role, f, to) =>
        {
            Ok((f, captured))
        }
        _ => Err(SanError::Illegal),
    }
}

/// The pieces in `from` (ours, of `role`) that attack `to`. Usually a
/// single piece of the kind even stands on a line to `to`; for a slider its
/// path is then checked with one table lookup, which is cheaper than the
/// occupancy-dependent attack lookup [`reach`] needs.
#[inline(always)]
pub(super) fn reaching(pos: &Position, role: Role, from: Bitboard, to: Square) -> Bitboard {
    let on_lines = from & reach_on_empty_board(role, to);
    let is_slider = matches!(role, Role::Bishop | Role::Rook | Role::Queen);
    if on_lines.more_than_one() {
        // Several sliders (two rooks on a file): each path is checked in the
        // 32 KiB table of squares between, not the 840 KiB attack table,
        // whose line for `to` is seldom in the cache (perf: the lookup's
        // miss was 3.5% of the reader's time, for one move in ~40).
        return if is_slider {
            unblocked(pos.board().occupied(), on_lines, to)
        } else {
            on_lines & reach(pos, role, to)
        };
    }
    match on_lines.first() {
        Some(f) if is_slider && (attacks::between(f, to) & pos.board().occupied()).any() => {
            Bitboard::EMPTY
        }
        _ => on_lines,
    }
}

/// The one legal start square among the `candidates` (our pieces of `role`
/// that reach `to`). Nearly always there is exactly one, which is tested
/// alone; several go to [`resolve_among`] out of line, so the common case
/// pays for no loop.
#[inline(always)]
fn resolve_candidates(
    pos: &Position,
    king: Square,
    role: Role,
    candidates: Bitboard,
    to: Square,
) -> Result<Square, SanError> {
    if candidates.more_than_one() {
        return resolve_among(pos, king, role, candidates, to);
    }
    match candidates.first() {
        Some(f) if candidate_is_safe(pos, king, role, f, to) => Ok(f),
        _ => Err(SanError::Illegal),
    }
}

/// Resolves a move with several candidates: the legal one, or `Ambiguous`.
#[inline(never)]
fn resolve_among(
    pos: &Position,
    king: Square,
    role: Role,
    candidates: Bitboard,
    to: Square,
) -> Result<Square, SanError> {
    let mut found = Found::default();
    for f in candidates {
        found.consider(f, candidate_is_safe(pos, king, role, f, to));
    }
    found.result()
}

/// `true` if our piece of `role` may move from `from` to `to` (not en
/// passant or castling) without leaving our king on `king` in check.
#[inline(always)]
fn candidate_is_safe(pos: &Position, king: Square, role: Role, from: Square, to: Square) -> bool {
    match role {
        Role::King => king_step_is_safe(pos, from, to),
        _ => piece_move_is_safe(pos, king, from, to),
    }
}

/// The legal start squares seen so far: the last one and how many.
#[derive(Default)]
struct Found {
    last: Option<Square>,
    count: u32,
}

impl Found {
    #[inline]
    fn consider(&mut self, from: Square, legal: bool) {
        if legal {
            self.last = Some(from);
            self.count += 1;
        }
    }

    /// The one legal start square, else `Illegal` (none) or `Ambiguous`
    /// (several).
    #[inline]
    fn result(self) -> Result<Square, SanError> {
        match (self.last, self.count) {
            (Some(from), 1) => Ok(from),
            (None, _) => Err(SanError::Illegal),
            _ => Err(SanError::Ambiguous),
        }
    }
}

/// Resolves a pawn move from its destination: a push has at most one
/// origin (one or two squares behind `to`), a capture at most two (the
/// squares from which our pawns attack `to`), so no search is needed.
///
/// Pushes, about three pawn moves in four, are resolved inline by
/// [`pawn_push_origin`]; captures and promotions go out of line to
/// [`resolve_pawn_other`], which keeps the caller's code small.
#[inline(always)]
fn resolve_pawn(
    pos: &Position,
    from: Bitboard,
    capture: bool,
    to: Square,
    promotion: Option<Role>,
) -> Result<Move, SanError> {
    match (capture, promotion) {
        (false, None) => {
            pawn_push_origin(pos, from, to).map(|origin| plain_move(Role::Pawn, origin, None, to))
        }
        _ => resolve_pawn_other(pos, from, capture, to, promotion),
    }
}

/// The start square of a pawn push without promotion (`e4`) by one of our
/// pawns in `from`.
#[inline(always)]
pub(crate) fn pawn_push_origin(
    pos: &Position,
    from: Bitboard,
    to: Square,
) -> Result<Square, SanError> {
    let us = pos.turn();
    if to.rank() == Rank::Eighth.relative_to(us) {
        // A push to the last rank must promote.
        return Err(SanError::Illegal);
    }
    let king = king_if_free(pos, to)?;
    match push_origin(pos.board(), us, from, to) {
        Some(origin) if piece_move_is_safe(pos, king, origin, to) => Ok(origin),
        _ => Err(SanError::Illegal),
    }
}

/// Resolves a pawn capture (en passant included) or a promotion.
#[inline(never)]
pub(crate) fn resolve_pawn_other(
    pos: &Position,
    from: Bitboard,
    capture: bool,
    to: Square,
    promotion: Option<Role>,
) -> Result<Move, SanError> {
    let king = king_if_free(pos, to)?;
    let board = pos.board();
    let us = pos.turn();
    let them = us.other();
    let last_rank = to.rank() == Rank::Eighth.relative_to(us);
    let promotion_ok = match promotion {
        None => !last_rank,
        Some(p) => last_rank && matches!(p, Role::Knight | Role::Bishop | Role::Rook | Role::Queen),
    };
    if !promotion_ok {
        return Err(SanError::Illegal);
    }
    let pawn_move = |from: Square, capture: Option<Role>| Move::Normal {
        role: Role::Pawn,
        from,
        capture,
        to,
        promotion,
    };
    if !capture {
        let origin = push_origin(board, us, from, to).ok_or(SanError::Illegal)?;
        let origin = resolve_candidates(pos, king, Role::Pawn, Bitboard::from_square(origin), to)?;
        return Ok(pawn_move(origin, None));
    }
    if board.by_color(them).contains(to) {
        let origin = pawn_capture_origin(pos, king, from, to)?;
        return Ok(pawn_move(origin, board.role_at(to)));
    }
    let attackers = from & attacks::pawn_attacks(them, to);
    let mut found = Found::default();
    if pos.ep_square() == Some(to) {
        for f in attackers {
            found.consider(f, movegen::en_passant_is_safe(board, us, f, to));
        }
    }
    found.result().map(|from| Move::EnPassant { from, to })
}

/// The start square of a pawn capture (not en passant) onto `to`, where an
/// enemy piece stands, by one of our pawns in `from`; `king` is ours.
#[inline(always)]
pub(crate) fn pawn_capture_origin(
    pos: &Position,
    king: Square,
    from: Bitboard,
    to: Square,
) -> Result<Square, SanError> {
    let attackers = from & attacks::pawn_attacks(pos.turn().other(), to);
    resolve_candidates(pos, king, Role::Pawn, attackers, to)
}

/// The square in `from` from which a pawn of `us` pushes to `to`: one
/// square behind, or two from the start rank over an empty square.
#[inline(always)]
fn push_origin(board: &Board, us: Color, from: Bitboard, to: Square) -> Option<Square> {
    if board.occupied().contains(to) {
        return None;
    }
    let back = if us.is_white() { -8 } else { 8 };
    let single = to.offset(back)?;
    if from.contains(single) {
        Some(single)
    } else if to.rank() == Rank::Fourth.relative_to(us) && !board.occupied().contains(single) {
        single.offset(back).filter(|&double| from.contains(double))
    } else {
        None
    }
}

/// `true` if moving our non-king piece from `from` to `to` (not en
/// passant) leaves our king on `king` safe. The exact test (attacks on the
/// king with the occupancy after the move) is needed only when we are in
/// check or an enemy slider stands on the line through the king and the
/// piece (it may be pinned); most moves are neither.
#[inline(always)]
pub(super) fn piece_move_is_safe(pos: &Position, king: Square, from: Square, to: Square) -> bool {
    let board = pos.board();
    let their_sliders =
        board.by_color(pos.turn().other()) & !(board.pawns() | board.knights() | board.kings());
    (pos.checkers().is_empty() && (attacks::ray(king, from) & their_sliders).is_empty())
        || movegen::normal_move_is_safe(board, pos.turn(), king, from, to)
}

/// `true` if our king may step from `from` to `to` (not castling): `to`
/// is not attacked once the king has left `from`.
#[inline]
fn king_step_is_safe(pos: &Position, from: Square, to: Square) -> bool {
    let board = pos.board();
    board
        .attacks_to_along_lines(to, pos.turn().other(), board.occupied().without(from))
        .is_empty()
}

/// The `sliders` (each on a line through `to`) whose path to `to` is free
/// of `occupied`.
#[inline]
fn unblocked(occupied: Bitboard, sliders: Bitboard, to: Square) -> Bitboard {
    let mut free = Bitboard::EMPTY;
    for s in sliders {
        if (attacks::between(s, to) & occupied).is_empty() {
            free |= Bitboard::from_square(s);
        }
    }
    free
}

/// Squares from which a piece of `role` (of the side to move) could reach
/// `to` (all squares for pawns, which move differently than they capture).
#[inline(always)]
pub(crate) fn reach(pos: &Position, role: Role, to: Square) -> Bitboard {
    let occupied = pos.board().occupied();
    match role {
        Role::Pawn => Bitboard::FULL,
        Role::Knight => attacks::knight_attacks(to),
        Role::Bishop => attacks::bishop_attacks(to, occupied),
        Role::Rook => attacks::rook_attacks(to, occupied),
        Role::Queen => attacks::queen_attacks(to, occupied),
        Role::King => attacks::king_attacks(to),
    }
}

/// Squares from which a piece of `role` could reach `to` on an empty board
/// (a superset of [`reach`]).
#[inline(always)]
fn reach_on_empty_board(role: Role, to: Square) -> Bitboard {
    match role {
        Role::Pawn => Bitboard::FULL,
        Role::Knight => attacks::knight_attacks(to),
        Role::Bishop => attacks::bishop_rays(to),
        Role::Rook => attacks::rook_rays(to),
        Role::Queen => attacks::bishop_rays(to) | attacks::rook_rays(to),
        Role::King => attacks::king_attacks(to),
    }
}
