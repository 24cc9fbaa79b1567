//! Legal move generation, straight from check and pin masks.
//!
//! No move is made and unmade to test legality. The generator computes the
//! checkers of the king and the pinned pieces, then for every piece the
//! squares it attacks within the check mask (and, when pinned, within the
//! line through the king). King moves are tested against enemy attacks with
//! the king taken off the board (so it cannot hide behind itself). En
//! passant is tested exactly: both pawns leave, the capturing pawn arrives,
//! and the king must not be attacked (this catches the rank pin where both
//! pawns stood between the king and a rook). Castling checks every square
//! the king crosses and, for Chess960, that moving the rook away reveals no
//! attack on the king's destination.
//!
//! Generation goes through a [`MoveSink`] so one generator serves the move
//! list, the list-free searches (UCI, legality tests, SAN disambiguation)
//! and the bulk counter used at perft leaves (which adds up `popcount`s
//! instead of making moves). SAN resolution mostly needs none of it: it
//! tests its few candidates with [`normal_move_is_safe`], one test of the
//! attacks on the king with the occupancy after the move.

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::castling::{CastlingRights, CastlingSide};
use crate::color::Color;
use crate::moves::{Move, MoveList};
use crate::role::Role;
use crate::square::{Rank, Square};

/// What move generation reads of a position: the pieces, the side to move,
/// its castling rights, the en passant square and the pieces giving check.
///
/// `Position` lends one with `Position::situation` (a few words copied, no
/// work); move generation never calls back into `Position`, so it sits on
/// the floor below it.
#[derive(Clone, Copy)]
pub(crate) struct Situation<'a> {
    /// The pieces.
    pub board: &'a Board,
    /// The side to move.
    pub turn: Color,
    /// The rooks that may still castle.
    pub castles: CastlingRights,
    /// The en passant square, only when a legal en passant capture exists.
    pub ep_square: Option<Square>,
    /// Enemy pieces giving check to the side to move.
    pub checkers: Bitboard,
}

impl<'a> Situation<'a> {
    #[inline(always)]
    fn board(&self) -> &'a Board {
        self.board
    }

    #[inline(always)]
    fn turn(&self) -> Color {
        self.turn
    }

    #[inline(always)]
    fn castles(&self) -> CastlingRights {
        self.castles
    }

    #[inline(always)]
    fn ep_square(&self) -> Option<Square> {
        self.ep_square
    }

    #[inline(always)]
    fn checkers(&self) -> Bitboard {
        self.checkers
    }
}

/// Receives generated moves in batches.
pub(crate) trait MoveSink {
    /// Moves of the non-pawn piece `role` on `from` to each of `targets`.
    fn piece(&mut self, role: Role, from: Square, targets: Bitboard, board: &Board);
    /// Pawn moves to each of `targets`, each from `to - delta` (promotions
    /// included: targets on a back rank promote).
    fn pawns(&mut self, targets: Bitboard, delta: i32, board: &Board);
    /// One en passant capture.
    fn en_passant(&mut self, from: Square, to: Square);
    /// One castling move.
    fn castle(&mut self, king: Square, rook: Square);
}

/// Hands every generated move to a closure.
pub(crate) struct FnSink<F: FnMut(Move)>(pub F);

impl<F: FnMut(Move)> MoveSink for FnSink<F> {
    #[inline]
    fn piece(&mut self, role: Role, from: Square, targets: Bitboard, board: &Board) {
        for to in targets {
            (self.0)(Move::Normal {
                role,
                from,
                capture: board.role_at(to),
                to,
                promotion: None,
            });
        }
    }

    #[inline]
    fn pawns(&mut self, targets: Bitboard, delta: i32, board: &Board) {
        for to in targets & !Bitboard::BACKRANKS {
            (self.0)(Move::Normal {
                role: Role::Pawn,
                from: Square::new((to.index() as i32 - delta) as u32),
                capture: board.role_at(to),
                to,
                promotion: None,
            });
        }
        for to in targets & Bitboard::BACKRANKS {
            let from = Square::new((to.index() as i32 - delta) as u32);
            let capture = board.role_at(to);
            for promotion in Role::PROMOTIONS {
                (self.0)(Move::Normal {
                    role: Role::Pawn,
                    from,
                    capture,
                    to,
                    promotion: Some(promotion),
                });
            }
        }
    }

    #[inline]
    fn en_passant(&mut self, from: Square, to: Square) {
        (self.0)(Move::EnPassant { from, to });
    }

    #[inline]
    fn castle(&mut self, king: Square, rook: Square) {
        (self.0)(Move::Castle { king, rook });
    }
}

/// Counts moves without making them.
pub(crate) struct CountSink(pub u64);

impl MoveSink for CountSink {
    #[inline]
    fn piece(&mut self, _role: Role, _from: Square, targets: Bitboard, _board: &Board) {
        self.0 += targets.count() as u64;
    }

    #[inline]
    fn pawns(&mut self, targets: Bitboard, _delta: i32, _board: &Board) {
        self.0 += targets.count() as u64 + 3 * (targets & Bitboard::BACKRANKS).count() as u64;
    }

    #[inline]
    fn en_passant(&mut self, _from: Square, _to: Square) {
        self.0 += 1;
    }

    #[inline]
    fn castle(&mut self, _king: Square, _rook: Square) {
        self.0 += 1;
    }
}

const NOT_FILE_A: Bitboard = Bitboard(!0x0101_0101_0101_0101);
const NOT_FILE_H: Bitboard = Bitboard(!0x8080_8080_8080_8080);
const RANK_3: Bitboard = Bitboard::from_rank(Rank::Third);
const RANK_6: Bitboard = Bitboard::from_rank(Rank::Sixth);

/// Pieces of the side to move that are pinned to their king.
#[inline]
pub(crate) fn pinned(board: &Board, us: Color, king: Square) -> Bitboard {
    let them = board.by_color(us.other());
    let snipers = ((attacks::rook_rays(king) & board.rooks_and_queens())
        | (attacks::bishop_rays(king) & board.bishops_and_queens()))
        & them;
    let mut pinned = Bitboard::EMPTY;
    let occupied = board.occupied();
    for sniper in snipers {
        let blockers = attacks::between(king, sniper) & occupied;
        if !blockers.more_than_one() {
            pinned |= blockers;
        }
    }
    pinned & board.by_color(us)
}

/// `true` if the en passant capture `from` x `to` leaves the king safe.
#[inline]
pub(crate) fn en_passant_is_safe(board: &Board, us: Color, from: Square, to: Square) -> bool {
    let Some(king) = board.king_of(us) else {
        return false;
    };
    let captured = to.with_rank_of(from);
    let occupied = (board.occupied() ^ from ^ captured) | to;
    (board.attacks_to_along_lines(king, us.other(), occupied) & !Bitboard::from_square(captured))
        .is_empty()
}

/// `true` if moving our non-king piece from `from` to `to` (capturing
/// whatever stands there, not en passant) leaves our king on `king` safe:
/// exact for any check, pin or double check.
#[inline]
pub(crate) fn normal_move_is_safe(
    board: &Board,
    us: Color,
    king: Square,
    from: Square,
    to: Square,
) -> bool {
    let occupied = board.occupied().without(from).with(to);
    (board.attacks_to_along_lines(king, us.other(), occupied) & !Bitboard::from_square(to))
        .is_empty()
}

/// Generates the legal moves of pieces on `from_mask` to squares in
/// `to_mask` (castling counts as a move to the rook's square).
pub(crate) fn generate<S: MoveSink>(
    pos: &Situation<'_>,
    from_mask: Bitboard,
    to_mask: Bitboard,
    sink: &mut S,
) {
    let board = pos.board();
    let us = pos.turn();
    let them = us.other();
    let ours = board.by_color(us);
    let Some(king) = board.king_of(us) else {
        return;
    };
    let occupied = board.occupied();
    let checkers = pos.checkers();

    // King steps.
    if from_mask.contains(king) {
        let mut targets = attacks::king_attacks(king) & !ours & to_mask;
        let without_king = occupied.without(king);
        let mut safe = Bitboard::EMPTY;
        while let Some(to) = targets.pop_front() {
            if !square_attacked(board, to, them, without_king) {
                safe.add(to);
            }
        }
        if safe.any() {
            sink.piece(Role::King, king, safe, board);
        }
    }

    if checkers.more_than_one() {
        return;
    }

    let target = match checkers.first() {
        Some(checker) => (attacks::between(king, checker) | checker) & to_mask & !ours,
        None => {
            if from_mask.contains(king) {
                generate_castles(pos, king, to_mask, sink);
            }
            !ours & to_mask
        }
    };

    let movable = ours & from_mask & !board.kings();
    // Only pieces on a line through the king can be pinned (this skips the
    // sniper scan for the narrow searches of SAN resolution).
    let pinned = if (movable & (attacks::rook_rays(king) | attacks::bishop_rays(king))).any() {
        pinned(board, us, king)
    } else {
        Bitboard::EMPTY
    };

    // Pieces.
    for from in board.knights() & movable & !pinned {
        let t = attacks::knight_attacks(from) & target;
        if t.any() {
            sink.piece(Role::Knight, from, t, board);
        }
    }
    for from in board.bishops() & movable {
        let mut t = attacks::bishop_attacks(from, occupied) & target;
        if pinned.contains(from) {
            t &= attacks::ray(king, from);
        }
        if t.any() {
            sink.piece(Role::Bishop, from, t, board);
        }
    }
    for from in board.rooks() & movable {
        let mut t = attacks::rook_attacks(from, occupied) & target;
        if pinned.contains(from) {
            t &= attacks::ray(king, from);
        }
        if t.any() {
            sink.piece(Role::Rook, from, t, board);
        }
    }
    for from in board.queens() & movable {
        let mut t = attacks::queen_attacks(from, occupied) & target;
        if pinned.contains(from) {
            t &= attacks::ray(king, from);
        }
        if t.any() {
            sink.piece(Role::Queen, from, t, board);
        }
    }

    // Pawns: unpinned ones in bulk, pinned ones one by one.
    let pawns = board.pawns() & movable;
    generate_pawns(board, us, pawns & !pinned, target, sink);
    for from in pawns & pinned {
        generate_pawns(
            board,
            us,
            Bitboard::from_square(from),
            target & attacks::ray(king, from),
            sink,
        );
    }

    // En passant, tested exactly.
    if let Some(ep) = pos.ep_square()
        && to_mask.contains(ep)
    {
        for from in attacks::pawn_attacks(them, ep) & board.pawns() & ours & from_mask {
            if en_passant_is_safe(board, us, from, ep) {
                sink.en_passant(from, ep);
            }
        }
    }
}

#[inline]
fn generate_pawns<S: MoveSink>(
    board: &Board,
    us: Color,
    pawns: Bitboard,
    target: Bitboard,
    sink: &mut S,
) {
    if pawns.is_empty() {
        return;
    }
    let empty = !board.occupied();
    let theirs = board.by_color(us.other());
    match us {
        Color::White => {
            let single = Bitboard(pawns.0 << 8) & empty;
            let double = Bitboard((single & RANK_3).0 << 8) & empty;
            let left = Bitboard((pawns & NOT_FILE_A).0 << 7) & theirs;
            let right = Bitboard((pawns & NOT_FILE_H).0 << 9) & theirs;
            emit_pawns(sink, single & target, 8, board);
            emit_pawns(sink, double & target, 16, board);
            emit_pawns(sink, left & target, 7, board);
            emit_pawns(sink, right & target, 9, board);
        }
        Color::Black => {
            let single = Bitboard(pawns.0 >> 8) & empty;
            let double = Bitboard((single & RANK_6).0 >> 8) & empty;
            let left = Bitboard((pawns & NOT_FILE_A).0 >> 9) & theirs;
            let right = Bitboard((pawns & NOT_FILE_H).0 >> 7) & theirs;
            emit_pawns(sink, single & target, -8, board);
            emit_pawns(sink, double & target, -16, board);
            emit_pawns(sink, left & target, -9, board);
            emit_pawns(sink, right & target, -7, board);
        }
    }
}

#[inline]
fn emit_pawns<S: MoveSink>(sink: &mut S, targets: Bitboard, delta: i32, board: &Board) {
    if targets.any() {
        sink.pawns(targets, delta, board);
    }
}

/// The castling rook of the side to move on `side`, if it may castle.
pub(crate) fn castling_rook(pos: &Situation<'_>, side: CastlingSide) -> Option<Square> {
    let us = pos.turn();
    let king = pos.board().king_of(us)?;
    let rooks = pos.castles().of(us) & pos.board().rooks() & pos.board().by_color(us);
    rooks
        .into_iter()
        .find(|&rook| CastlingSide::from_king_and_rook(king, rook) == side)
}

fn generate_castles<S: MoveSink>(
    pos: &Situation<'_>,
    king: Square,
    to_mask: Bitboard,
    sink: &mut S,
) {
    let us = pos.turn();
    let board = pos.board();
    let rooks = pos.castles().of(us) & board.rooks() & board.by_color(us) & to_mask;
    for rook in rooks {
        // Quick reject: the squares between king and rook are always part
        // of the king's or the rook's path, so they must be empty.
        if (attacks::between(king, rook) & board.occupied()).any() {
            continue;
        }
        if castle_is_legal(pos, king, rook) {
            sink.castle(king, rook);
        }
    }
}

/// `true` if the side to move (not in check) may castle with `rook`.
pub(crate) fn castle_is_legal(pos: &Situation<'_>, king: Square, rook: Square) -> bool {
    let us = pos.turn();
    let them = us.other();
    let board = pos.board();
    let back_rank = Bitboard::from_rank(Rank::First.relative_to(us));
    if !(back_rank.contains(king) && back_rank.contains(rook)) {
        return false;
    }
    let side = CastlingSide::from_king_and_rook(king, rook);
    let king_to = side.king_to(us);
    let standard = king == Square::E1.relative_to(us) && Bitboard::CORNERS.contains(rook);
    // Squares the king crosses (after its start) and squares that must be
    // empty; constant for the standard start, from tables otherwise.
    let (king_path, must_be_empty) = if standard {
        let (path, empty) = match side {
            CastlingSide::KingSide => (0x60, 0x60),
            CastlingSide::QueenSide => (0x0c, 0x0e),
        };
        let shift = if us.is_white() { 0 } else { 56 };
        (Bitboard(path << shift), Bitboard(empty << shift))
    } else {
        let rook_to = side.rook_to(us);
        let king_path = attacks::between(king, king_to).with(king_to);
        let must_be_empty = (king_path | attacks::between(rook, rook_to).with(rook_to))
            .without(king)
            .without(rook);
        (king_path.without(king), must_be_empty)
    };
    let occupied = board.occupied();
    if (must_be_empty & occupied).any() {
        return false;
    }
    for sq in king_path {
        if square_attacked(board, sq, them, occupied) {
            return false;
        }
    }
    // Moving the rook away may reveal an attack along the back rank on the
    // king's destination (not from a corner rook: nothing stands behind it).
    standard
        || board
            .attacks_to(king_to, them, occupied.without(rook).without(king))
            .is_empty()
}

/// `true` if `attacker` attacks `sq`; slider tables are consulted only when
/// a slider stands on a line through `sq` (castling paths are often clear
/// of them).
#[inline(always)]
pub(crate) fn square_attacked(
    board: &Board,
    sq: Square,
    attacker: Color,
    occupied: Bitboard,
) -> bool {
    let theirs = board.by_color(attacker);
    if (theirs
        & ((attacks::knight_attacks(sq) & board.knights())
            | (attacks::king_attacks(sq) & board.kings())
            | (attacks::pawn_attacks(attacker.other(), sq) & board.pawns())))
    .any()
    {
        return true;
    }
    let rooks = theirs & board.rooks_and_queens() & attacks::rook_rays(sq);
    if rooks.any() && (attacks::rook_attacks(sq, occupied) & rooks).any() {
        return true;
    }
    let bishops = theirs & board.bishops_and_queens() & attacks::bishop_rays(sq);
    bishops.any() && (attacks::bishop_attacks(sq, occupied) & bishops).any()
}

/// All legal moves.
pub(crate) fn legal_moves(pos: &Situation<'_>) -> MoveList {
    let mut list = MoveList::new();
    generate(
        pos,
        Bitboard::FULL,
        Bitboard::FULL,
        &mut FnSink(|m| list.push(m)),
    );
    list
}

/// `true` if the side to move has a legal move. A safe king step answers
/// at once (the usual case, also in check, which is when the `#` test of
/// SAN writing asks); otherwise the moves are counted. Steps are tested with
/// [`square_attacked`], which looks up slider attacks only when an enemy
/// slider stands on a line through the square.
pub(crate) fn has_legal_move(pos: &Situation<'_>) -> bool {
    let board = pos.board();
    let us = pos.turn();
    if let Some(king) = board.king_of(us) {
        let without_king = board.occupied().without(king);
        let mut steps = attacks::king_attacks(king) & !board.by_color(us);
        if Iterator::any(&mut steps, |to| {
            !square_attacked(board, to, us.other(), without_king)
        }) {
            return true;
        }
    }
    count_legal(pos) > 0
}

/// Number of legal moves, without listing them.
pub(crate) fn count_legal(pos: &Situation<'_>) -> u64 {
    let mut sink = CountSink(0);
    generate(pos, Bitboard::FULL, Bitboard::FULL, &mut sink);
    sink.0
}

#[cfg(test)]
mod tests {
    use crate::{CastlingSide, Move, Position, Role, Square};

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).unwrap()
    }

    fn moves_from(p: &Position, from: Square) -> Vec<Square> {
        let mut to: Vec<Square> = p
            .legal_moves()
            .iter()
            .filter(|m| m.from() == Some(from))
            .filter_map(|m| m.to())
            .collect();
        to.sort();
        to
    }

    #[test]
    fn pinned_pieces_stay_on_the_pin_line() {
        // Rook on e4 pinned by the rook on e8: only moves along the e-file.
        let p = pos("4r1k1/8/8/8/4R3/8/8/4K3 w - - 0 1");
        let to = moves_from(&p, Square::E4);
        assert!(to.iter().all(|sq| sq.file() == crate::File::E), "{to:?}");
        assert!(to.contains(&Square::E8));
        // Knight pinned by a bishop cannot move at all.
        let p = pos("4k3/8/8/b7/8/2N5/8/4K3 w - - 0 1");
        assert!(moves_from(&p, Square::C3).is_empty());
    }

    #[test]
    fn has_legal_move_agrees_with_count() {
        let fens = [
            "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1",
            "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
            "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
            "4k3/8/8/8/1b6/8/8/r3K1N1 w - - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        ];
        let mut without_moves = 0;
        for fen in fens {
            let start = pos(fen);
            let mut positions = vec![start.clone()];
            positions.extend(start.legal_moves().iter().map(|&m| start.after(m)));
            for p in positions {
                let count = super::count_legal(&p.situation());
                assert_eq!(super::has_legal_move(&p.situation()), count > 0, "{p}");
                without_moves += usize::from(count == 0);
            }
        }
        assert!(
            without_moves >= 3,
            "only {without_moves} positions without moves"
        );
    }

    #[test]
    fn double_check_allows_only_king_moves() {
        let p = pos("4k3/8/8/8/1b6/8/8/r3K1N1 w - - 0 1");
        assert!(p.checkers().more_than_one());
        assert!(p.legal_moves().iter().all(|m| m.role() == Some(Role::King)));
    }

    #[test]
    fn en_passant_edge_cases() {
        // Both pawns leave the rank: the king would face the rook.
        let p = pos("8/8/8/KPp4r/8/8/8/4k3 w - - 0 1");
        assert!(!p.legal_moves().iter().any(|m| m.is_en_passant()));
        // Capturing the checking pawn en passant is legal.
        let p = pos("8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1");
        assert!(p.is_check());
        assert!(p.legal_moves().contains(&Move::EnPassant {
            from: Square::E4,
            to: Square::D3
        }));
        // The capturing pawn is pinned on the a2-e6 diagonal: no capture,
        // so the FEN's en passant square is dropped.
        let p = pos("8/8/4k3/8/2pP4/8/B7/7K b - d3 0 1");
        assert!(!p.legal_moves().iter().any(|m| m.is_en_passant()));
        assert_eq!(p.ep_square(), None);
        // Pinned along the line it moves on: the capture stays legal.
        let p = pos("8/8/8/1k6/2pP4/8/8/5B1K b - d3 0 1");
        assert_eq!(p.ep_square(), Some(Square::D3));
    }

    #[test]
    fn castling_through_or_out_of_check() {
        let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        assert!(p.castling_move(CastlingSide::KingSide).is_some());
        assert!(p.castling_move(CastlingSide::QueenSide).is_some());
        // f1 attacked: no O-O; b1 attacked does not stop O-O-O.
        let p = pos("r3k2r/8/8/8/8/8/5r2/R3K2R w KQ - 0 1");
        assert!(p.castling_move(CastlingSide::KingSide).is_none());
        let p = pos("1r2k3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
        assert!(p.castling_move(CastlingSide::QueenSide).is_some());
        // In check: no castling.
        let p = pos("4k3/8/8/8/8/8/8/R3K2r w Q - 0 1");
        assert!(p.castling_move(CastlingSide::QueenSide).is_none());
    }

    #[test]
    fn chess960_castling() {
        // King b1, rook a1: O-O-O puts the king on c1 and the rook on d1.
        let mut p = pos("4k3/8/8/8/8/8/8/RK6 w A - 0 1");
        let m = p.castling_move(CastlingSide::QueenSide).unwrap();
        assert_eq!(
            m,
            Move::Castle {
                king: Square::B1,
                rook: Square::A1
            }
        );
        p.play(m).unwrap();
        assert_eq!(p.board().role_at(Square::C1), Some(Role::King));
        assert_eq!(p.board().role_at(Square::D1), Some(Role::Rook));
        // King g1 with rook h1 castles king side without moving the king.
        let mut p = pos("4k3/8/8/8/8/8/8/6KR w H - 0 1");
        let m = p.castling_move(CastlingSide::KingSide).unwrap();
        p.play(m).unwrap();
        assert_eq!(p.board().role_at(Square::G1), Some(Role::King));
        assert_eq!(p.board().role_at(Square::F1), Some(Role::Rook));
        // The rook on b1 shields the king on c1 from the queen on a1: castling
        // would move it away and leave the king in check.
        let p = pos("4k3/8/8/8/8/8/8/qRK5 w B - 0 1");
        assert!(p.castling_move(CastlingSide::QueenSide).is_none());
        // King and rook swap across each other's squares: king f1, rook g1.
        let p = pos("4k3/8/8/8/8/8/8/5KR1 w G - 0 1");
        assert!(p.castling_move(CastlingSide::KingSide).is_some());
    }
}
