//! [`Position`]: a validated chess position, and playing moves on it.

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::castling::{CastlingMode, CastlingRights, CastlingSide};
use crate::color::Color;
use crate::fen::{EnPassantMode, FenOptions, ParseFenError, Setup};
use crate::movegen;
use crate::moves::{Move, MoveList};
use crate::outcome::Outcome;
use crate::role::Role;
use crate::square::{Rank, Square};
use crate::zobrist;
use core::fmt;
use core::hash::{Hash, Hasher};
use core::str::FromStr;
use thiserror::Error;

mod corner_castle;
mod piece_move;

use piece_move::discovered_checks;

/// A legal chess position (standard or Chess960): placement, side to move,
/// castling rights, en passant square and move counters. Its Zobrist hash
/// ([`Position::zobrist`]) is computed when asked for, so playing moves
/// never pays for it.
///
/// Equality and hashing ignore how the en passant square was written (only
/// a square with a legal en passant capture counts) and the castling mode:
/// `KQkq` and Shredder's `HAha` for a king on e1 and rooks in the corners are
/// one position with the same legal moves (the mode only decides how a
/// castling move is written in UCI; [`Position::castling_mode`] tells it).
///
/// ```
/// use pgnkit_chess::{Color, Position, Role, Square};
///
/// let mut pos = Position::new();
/// assert_eq!(pos.legal_moves().len(), 20);
/// pos.play_san(b"e4").unwrap();
/// assert_eq!(pos.turn(), Color::Black);
/// assert_eq!(pos.board().role_at(Square::E4), Some(Role::Pawn));
/// assert_eq!(pos.to_string(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
/// // From a FEN, validated; `parse` works too.
/// let mate: Position = "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1".parse().unwrap();
/// assert!(mate.is_checkmate());
/// assert!(Position::from_fen("8/8/8/8/8/8/8/8 w - - 0 1").is_err()); // no kings
/// ```
#[derive(Clone)]
pub struct Position {
    board: Board,
    castles: CastlingRights,
    halfmoves: u32,
    fullmoves: u32,
    turn: Color,
    /// En passant square, only when a legal en passant capture exists.
    ep_square: Option<Square>,
    /// The square skipped by the last double push (the 1994 FEN rule).
    double_push: Option<Square>,
    mode: CastlingMode,
    /// Enemy pieces giving check to the side to move, kept up to date by
    /// `play_unchecked`: SAN resolution, `+`/`#` and move generation all
    /// start from it, so it is computed once per move.
    checkers: Bitboard,
}

impl PartialEq for Position {
    fn eq(&self, other: &Position) -> bool {
        self.board == other.board
            && self.castles == other.castles
            && self.halfmoves == other.halfmoves
            && self.fullmoves == other.fullmoves
            && self.turn == other.turn
            && self.ep_square == other.ep_square
    }
}

impl Eq for Position {}

impl Hash for Position {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.zobrist().hash(state);
        self.halfmoves.hash(state);
        self.fullmoves.hash(state);
    }
}

impl Default for Position {
    fn default() -> Position {
        Position::new()
    }
}

impl Position {
    /// The standard starting position.
    pub fn new() -> Position {
        let board = Board::new();
        Position {
            board,
            castles: CastlingRights::STANDARD,
            halfmoves: 0,
            fullmoves: 1,
            turn: Color::White,
            ep_square: None,
            double_push: None,
            mode: CastlingMode::Standard,
            checkers: Bitboard::EMPTY,
        }
    }

    /// Validates a setup. Castling rights the position cannot have (no rook
    /// or king on its square, or not standard in [`CastlingMode::Standard`])
    /// are dropped; an en passant square without a legal capture is dropped;
    /// a fullmove number of 0 becomes 1.
    pub fn from_setup(setup: Setup, mode: CastlingMode) -> Result<Position, PositionError> {
        let board = setup.board;
        for color in Color::ALL {
            let kings = board.kings() & board.by_color(color);
            if kings.is_empty() {
                return Err(PositionError::MissingKing(color));
            }
            if kings.more_than_one() {
                return Err(PositionError::TooManyKings(color));
            }
        }
        if (board.pawns() & Bitboard::BACKRANKS).any() {
            return Err(PositionError::PawnsOnBackrank);
        }
        let turn = setup.turn;
        let castles = CastlingRights(normalise_castling(&board, setup.castling_rights, mode));

        let mut pos = Position {
            board,
            castles,
            halfmoves: setup.halfmoves,
            fullmoves: setup.fullmoves.max(1),
            turn,
            ep_square: None,
            double_push: None,
            mode,
            checkers: Bitboard::EMPTY,
        };

        // The side not to move must not be in check.
        let their_king = board
            .king_of(turn.other())
            .ok_or(PositionError::MissingKing(turn.other()))?;
        if board.attacks_to(their_king, turn, board.occupied()).any() {
            return Err(PositionError::OppositeCheck);
        }

        if let Some(ep) = setup.ep_square {
            let forward = if turn.is_white() { 8 } else { -8 };
            let pawn_sq = ep.offset(-forward);
            let origin = ep.offset(forward);
            let valid = match (pawn_sq, origin) {
                (Some(pawn_sq), Some(origin)) => {
                    ep.relative_to(turn).rank() == Rank::Sixth
                        && (board.pawns() & board.by_color(turn.other())).contains(pawn_sq)
                        && !board.occupied().contains(ep)
                        && !board.occupied().contains(origin)
                }
                _ => false,
            };
            if !valid {
                return Err(PositionError::InvalidEpSquare);
            }
            pos.double_push = Some(ep);
            pos.ep_square = legal_ep(&board, turn, ep);
        }

        pos.checkers = checkers_of(&pos.board, turn);
        Ok(pos)
    }

    /// Parses a FEN and validates it, using Chess960 castling when the FEN's
    /// castling field needs it ([`Setup::castling_mode`]).
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        let setup = Setup::parse(fen.as_bytes())?;
        let mode = setup.castling_mode();
        Ok(Position::from_setup(setup, mode)?)
    }

    /// The placement of the pieces.
    #[inline]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The side to move.
    #[inline]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// The castling rights.
    #[inline]
    pub fn castles(&self) -> CastlingRights {
        self.castles
    }

    /// The en passant square, only when a legal en passant capture exists.
    #[inline]
    pub fn ep_square(&self) -> Option<Square> {
        self.ep_square
    }

    /// The square skipped by the last move if it was a double pawn push
    /// (the 1994 FEN en passant rule), whether or not a capture is possible.
    #[inline]
    pub fn double_push_square(&self) -> Option<Square> {
        self.double_push
    }

    /// Halfmoves since the last capture or pawn move.
    #[inline]
    pub fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    /// The fullmove number (starts at 1, grows after Black's move).
    #[inline]
    pub fn fullmoves(&self) -> u32 {
        self.fullmoves
    }

    /// Standard or Chess960 castling.
    #[inline]
    pub fn castling_mode(&self) -> CastlingMode {
        self.mode
    }

    /// The Zobrist hash (see [`crate::zobrist`]), computed from the pieces,
    /// rights, en passant square and side to move (a few dozen table
    /// lookups).
    pub fn zobrist(&self) -> u64 {
        zobrist::hash_from_scratch(&self.board, self.turn, self.castles.rooks(), self.ep_square)
    }

    /// The king of the side to move.
    #[inline]
    pub fn our_king(&self) -> Option<Square> {
        self.board.king_of(self.turn)
    }

    /// Enemy pieces giving check to the side to move.
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    /// What move generation reads of this position (see
    /// [`movegen::Situation`]).
    #[inline(always)]
    pub(crate) fn situation(&self) -> movegen::Situation<'_> {
        movegen::Situation {
            board: &self.board,
            turn: self.turn,
            castles: self.castles,
            ep_square: self.ep_square,
            checkers: self.checkers,
        }
    }

    /// `true` if the side to move is in check.
    #[inline]
    pub fn is_check(&self) -> bool {
        self.checkers().any()
    }

    /// All legal moves.
    pub fn legal_moves(&self) -> MoveList {
        movegen::legal_moves(&self.situation())
    }

    /// Number of legal moves (counted without listing them).
    pub fn count_legal_moves(&self) -> usize {
        movegen::count_legal(&self.situation()) as usize
    }

    /// Legal moves of pieces standing on `from` squares to `to` squares
    /// (castling is a king move to its rook's square).
    pub fn legal_moves_between(&self, from: Bitboard, to: Bitboard) -> MoveList {
        let mut list = MoveList::new();
        self.for_each_legal_move_between(from, to, |m| list.push(m));
        list
    }

    /// Calls `f` with each legal move of pieces on `from` squares to `to`
    /// squares, without building a list.
    #[inline]
    pub fn for_each_legal_move_between(&self, from: Bitboard, to: Bitboard, f: impl FnMut(Move)) {
        movegen::generate(&self.situation(), from, to, &mut movegen::FnSink(f));
    }

    /// `true` if `m` is legal here. A null move is never legal (but may be
    /// played with [`Position::play_unchecked`]).
    pub fn is_legal(&self, m: Move) -> bool {
        let (Some(from), Some(to)) = (m.from(), m.to()) else {
            return false;
        };
        let mut found = false;
        self.for_each_legal_move_between(
            Bitboard::from_square(from),
            Bitboard::from_square(to),
            |legal| found |= legal == m,
        );
        found
    }

    /// `true` if the side to move has a legal move.
    pub fn has_legal_moves(&self) -> bool {
        movegen::has_legal_move(&self.situation())
    }

    /// `true` if the side to move is checkmated.
    pub fn is_checkmate(&self) -> bool {
        self.is_check() && !self.has_legal_moves()
    }

    /// `true` if the side to move is stalemated.
    pub fn is_stalemate(&self) -> bool {
        !self.is_check() && !self.has_legal_moves()
    }

    /// `true` if neither side can ever checkmate (no sequence of legal moves
    /// leads to mate): king against king, king and one minor piece against
    /// king, or only bishops on squares of one color: python-chess's
    /// `is_insufficient_material()`.
    pub fn is_insufficient_material(&self) -> bool {
        let b = &self.board;
        if (b.pawns() | b.rooks_and_queens()).any() {
            return false;
        }
        let minors = b.knights() | b.bishops();
        if minors.count() <= 1 {
            return true;
        }
        if b.knights().any() {
            return false;
        }
        (b.bishops() & Bitboard::DARK_SQUARES).is_empty()
            || (b.bishops() & Bitboard::LIGHT_SQUARES).is_empty()
    }

    /// The outcome if the game is over by the rules: checkmate, stalemate or
    /// insufficient material. (Repetition and the fifty-move rule need a
    /// claim, so they are not outcomes here.)
    pub fn outcome(&self) -> Option<Outcome> {
        if !self.has_legal_moves() {
            if self.is_check() {
                Some(Outcome::Decisive {
                    winner: self.turn.other(),
                })
            } else {
                Some(Outcome::Draw)
            }
        } else if self.is_insufficient_material() {
            Some(Outcome::Draw)
        } else {
            None
        }
    }

    /// Whether [`Position::outcome`] is `Some` (python-chess's `is_game_over()`).
    ///
    /// ```
    /// let pos: pgnkit_chess::Position = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1".parse().unwrap();
    /// assert!(pos.is_game_over() && !pgnkit_chess::Position::new().is_game_over());
    /// ```
    pub fn is_game_over(&self) -> bool {
        self.outcome().is_some()
    }

    /// Plays `m` if it is legal.
    pub fn play(&mut self, m: Move) -> Result<(), IllegalMoveError> {
        if self.is_legal(m) {
            self.play_unchecked(m);
            Ok(())
        } else {
            Err(IllegalMoveError { mv: m })
        }
    }

    /// Plays `m` without checking that it is legal. A null move passes the
    /// turn. Playing a move that is not legal leaves the position in an
    /// unspecified (but memory-safe, panic-free) state.
    #[inline]
    pub fn play_unchecked(&mut self, m: Move) {
        match m {
            // Nearly every move: inlined into the caller, no promotion.
            Move::Normal {
                role,
                from,
                capture,
                to,
                promotion: None,
            } => self.play_normal(role, from, capture, to),
            _ => self.play_special(m),
        }
    }

    /// The bookkeeping every move does: no en passant square (until a
    /// double push sets one), clocks, turn. Returns (mover, opponent).
    #[inline(always)]
    fn begin_move(&mut self) -> (Color, Color) {
        let us = self.turn;
        self.ep_square = None;
        self.double_push = None;
        self.halfmoves = self.halfmoves.saturating_add(1);
        // The move number goes up after Black's move: a `u32` add of 0 or 1,
        // with no branch.
        self.fullmoves = self.fullmoves.saturating_add(u32::from(us.is_black()));
        self.turn = us.other();
        (us, us.other())
    }

    /// A move or capture by `role` without promotion.
    #[inline(always)]
    pub(crate) fn play_normal(
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
        self.update_castles(us, role, from, to);
        if role == Role::Pawn {
            self.halfmoves = 0;
            if from.index() ^ to.index() == 16 {
                self.double_pushed(from, to);
            }
        }
        self.checkers = checks_given(&self.board, us, role, from, to);
    }

    /// A move from or to a rook's start square ends its castling right; a
    /// king move ends both of its side.
    #[inline(always)]
    fn update_castles(&mut self, us: Color, role: Role, from: Square, to: Square) {
        self.castles.0 &= !(Bitboard::from_square(from) | to);
        if role == Role::King {
            self.castles.0 &= !Bitboard::from_rank(Rank::First.relative_to(us));
        }
    }

    /// Promotions, en passant, castling and null moves.
    #[inline(never)]
    fn play_special(&mut self, m: Move) {
        let (us, them) = self.begin_move();
        match m {
            Move::Normal {
                role,
                from,
                capture,
                to,
                promotion,
            } => {
                if let Some(captured) = capture {
                    self.board.discard_piece_at(to, captured.of(them));
                }
                self.board.discard_piece_at(from, role.of(us));
                self.board
                    .put_piece_at(to, promotion.unwrap_or(role).of(us));
                self.update_castles(us, role, from, to);
                if capture.is_some() || role == Role::Pawn {
                    self.halfmoves = 0;
                }
            }
            Move::EnPassant { from, to } => {
                self.board
                    .discard_piece_at(to.with_rank_of(from), Role::Pawn.of(them));
                self.board.move_piece(from, to, Role::Pawn.of(us));
                self.halfmoves = 0;
            }
            Move::Castle { king, rook } => {
                let side = CastlingSide::from_king_and_rook(king, rook);
                let our_king = Role::King.of(us);
                let our_rook = Role::Rook.of(us);
                self.board.discard_piece_at(king, our_king);
                self.board.discard_piece_at(rook, our_rook);
                self.board.put_piece_at(side.king_to(us), our_king);
                self.board.put_piece_at(side.rook_to(us), our_rook);
                self.castles.0 &= !Bitboard::from_rank(Rank::First.relative_to(us));
            }
            Move::Null => {}
        }
        self.checkers = checkers_of(&self.board, them);
    }

    /// Bookkeeping after a double push `from`-`to` (the side to move is
    /// already the opponent): the skipped square, and the en passant square
    /// when an enemy pawn stands beside and may legally capture. Inlined:
    /// the adjacency test is a few instructions, less than a call (the rare
    /// exact test, `legal_ep`, stays out of line).
    #[inline(always)]
    fn double_pushed(&mut self, from: Square, to: Square) {
        let skipped = Square::new((from.index() + to.index()) / 2);
        self.double_push = Some(skipped);
        let them = self.turn;
        if (attacks::pawn_attacks(them.other(), skipped)
            & self.board.pawns()
            & self.board.by_color(them))
        .any()
        {
            self.ep_square = legal_ep(&self.board, them, skipped);
        }
    }

    /// The position after `m` (a copy; `self` is unchanged).
    pub fn after(&self, m: Move) -> Position {
        let mut pos = self.clone();
        pos.play_unchecked(m);
        pos
    }

    /// The castling move of the side to move on `side`, if legal.
    pub fn castling_move(&self, side: CastlingSide) -> Option<Move> {
        let rook = movegen::castling_rook(&self.situation(), side)?;
        let king = self.our_king()?;
        if !self.is_check() && movegen::castle_is_legal(&self.situation(), king, rook) {
            Some(Move::Castle { king, rook })
        } else {
            None
        }
    }

    /// This position as a setup, with the en passant square per `ep`.
    pub fn to_setup(&self, ep: EnPassantMode) -> Setup {
        Setup {
            board: self.board,
            turn: self.turn,
            castling_rights: self.castles.rooks(),
            ep_square: match ep {
                EnPassantMode::Legal => self.ep_square,
                EnPassantMode::Always => self.double_push.or(self.ep_square),
            },
            halfmoves: self.halfmoves,
            fullmoves: self.fullmoves,
            castling_file_letters: false,
        }
    }

    /// Writes the FEN with the given options.
    pub fn write_fen(&self, out: &mut impl fmt::Write, options: FenOptions) -> fmt::Result {
        self.to_setup(options.en_passant)
            .write_fen(out, options.castling)
    }

    /// The FEN with the given options.
    pub fn fen(&self, options: FenOptions) -> String {
        let mut s = String::with_capacity(90);
        // Writing into a String cannot fail.
        let _ = self.write_fen(&mut s, options);
        s
    }
}

/// Keeps only castling rights the placement allows: our rook on the square,
/// our king on the same back rank, at most one rook per side (the
/// outermost), and in standard chess only king e1/e8 with corner rooks.
fn normalise_castling(board: &Board, rights: Bitboard, mode: CastlingMode) -> Bitboard {
    let mut kept = Bitboard::EMPTY;
    for color in Color::ALL {
        let backrank = Bitboard::from_rank(Rank::First.relative_to(color));
        let Some(king) = board.king_of(color) else {
            continue;
        };
        if !backrank.contains(king) {
            continue;
        }
        if mode == CastlingMode::Standard && king != Square::E1.relative_to(color) {
            continue;
        }
        let mut rooks: Bitboard = rights & backrank & board.rooks() & board.by_color(color);
        if mode == CastlingMode::Standard {
            rooks &= Bitboard::CORNERS;
        }
        // Copies: `rfind` and `find` consume the iterator they run on.
        let king_side = { rooks }.rfind(|r| r.file() > king.file());
        let queen_side = { rooks }.find(|r| r.file() < king.file());
        for rook in king_side.into_iter().chain(queen_side) {
            kept.add(rook);
        }
    }
    kept
}

/// Enemy pieces giving check to `turn`'s king (none without a king), found
/// along lines ([`Board::attacks_to_along_lines`]): after a promotion, en
/// passant capture or castling, the magic tables' line for the king is
/// seldom in the cache (perf: that miss was most of such a move's time).
#[inline]
fn checkers_of(board: &Board, turn: Color) -> Bitboard {
    match board.king_of(turn) {
        Some(king) => board.attacks_to_along_lines(king, turn.other(), board.occupied()),
        None => Bitboard::EMPTY,
    }
}

/// The checks `us` gives by moving its `role` from `from` to `to` (no
/// promotion, castling or en passant), on the board after the move. Only
/// two kinds of piece can newly attack the enemy king: the one that moved,
/// and our sliders on the line through the king and `from` (a discovered
/// check); nothing else can, since the king was not in check before the
/// move. A slider attacks the king when the king is on one of its lines and
/// nothing stands between, which two table lookups answer (no magic
/// multiplication).
#[inline(always)]
fn checks_given(board: &Board, us: Color, role: Role, from: Square, to: Square) -> Bitboard {
    let Some(king) = (board.kings() & board.by_color(us.other())).first() else {
        return Bitboard::EMPTY;
    };
    let occupied = board.occupied();
    let clear = |sq: Square| (attacks::between(sq, king) & occupied).is_empty();
    let direct = match role {
        Role::Pawn => attacks::pawn_attacks(us, to).contains(king),
        Role::Knight => attacks::knight_attacks(to).contains(king),
        Role::Bishop => attacks::bishop_rays(to).contains(king) && clear(to),
        Role::Rook => attacks::rook_rays(to).contains(king) && clear(to),
        Role::Queen => {
            (attacks::bishop_rays(to) | attacks::rook_rays(to)).contains(king) && clear(to)
        }
        Role::King => false,
    };
    let mut checkers = discovered_checks(board, us, king, from);
    if direct {
        checkers.add(to);
    }
    checkers
}

/// `ep` if the side to move (`turn`) has a legal en passant capture to it.
#[inline(never)]
fn legal_ep(board: &Board, turn: Color, ep: Square) -> Option<Square> {
    let capturers = attacks::pawn_attacks(turn.other(), ep) & board.pawns() & board.by_color(turn);
    for from in capturers {
        if movegen::en_passant_is_safe(board, turn, from, ep) {
            return Some(ep);
        }
    }
    None
}

impl fmt::Display for Position {
    /// FEN with modern en passant and X-FEN castling.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_fen(f, FenOptions::default())
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({self})")
    }
}

impl FromStr for Position {
    type Err = FenError;
    fn from_str(s: &str) -> Result<Position, FenError> {
        Position::from_fen(s)
    }
}

// Errors of this module (gathered in `error.rs`).

/// A parsed setup is not a legal chess position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum PositionError {
    /// A side has no king.
    #[error("{0} has no king")]
    MissingKing(Color),
    /// A side has more than one king.
    #[error("{0} has more than one king")]
    TooManyKings(Color),
    /// A pawn stands on the first or eighth rank.
    #[error("pawn on the first or eighth rank")]
    PawnsOnBackrank,
    /// The side not to move is in check.
    #[error("the side not to move is in check")]
    OppositeCheck,
    /// The en passant square cannot follow a double pawn push.
    #[error("impossible en passant square")]
    InvalidEpSquare,
}

/// A move is not legal in the position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[error("illegal move {mv}")]
pub struct IllegalMoveError {
    /// The rejected move.
    pub mv: Move,
}

/// A FEN could not be read as a legal position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum FenError {
    /// The text is not FEN.
    #[error(transparent)]
    Parse(#[from] ParseFenError),
    /// The FEN describes an impossible position.
    #[error(transparent)]
    Position(#[from] PositionError),
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setup(fen: &str) -> Setup {
        Setup::parse(fen.as_bytes()).unwrap()
    }

    fn error(fen: &str) -> PositionError {
        Position::from_setup(setup(fen), CastlingMode::Standard).unwrap_err()
    }

    #[test]
    fn validation_errors() {
        assert_eq!(
            error("8/8/8/8/8/8/8/4K3 w - - 0 1"),
            PositionError::MissingKing(Color::Black)
        );
        assert_eq!(
            error("4k3/8/8/8/8/8/8/3KK3 w - - 0 1"),
            PositionError::TooManyKings(Color::White)
        );
        assert_eq!(
            error("4k2P/8/8/8/8/8/8/4K3 w - - 0 1"),
            PositionError::PawnsOnBackrank
        );
        assert_eq!(
            error("4k2R/8/8/8/8/8/8/4K3 w - - 0 1"),
            PositionError::OppositeCheck
        );
        assert_eq!(
            error("4k3/8/8/8/8/8/8/4K3 w - e6 0 1"),
            PositionError::InvalidEpSquare
        );
        let mut s = setup("4k3/8/8/8/8/8/8/4K3 w - - 0 1");
        s.ep_square = Some(Square::A1);
        assert_eq!(
            Position::from_setup(s, CastlingMode::Standard).unwrap_err(),
            PositionError::InvalidEpSquare
        );
    }

    #[test]
    fn en_passant_normalised() {
        // 1994 form: an ep square after a double push without capture.
        let p = Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")
            .unwrap();
        assert_eq!(p.ep_square(), None);
        assert_eq!(p.double_push_square(), Some(Square::E3));
        assert_eq!(
            p,
            Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
                .unwrap()
        );
        assert_eq!(
            p.to_string(),
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
        );
        assert_eq!(
            p.fen(FenOptions::new().en_passant_1994()),
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
        );
        // Pinned capturer along the rank: no legal capture, so no square.
        let p = Position::from_fen("8/8/8/KPp4r/8/8/8/4k3 w - c6 0 1").unwrap();
        assert_eq!(p.ep_square(), None);
        let p = Position::from_fen("8/8/8/1Pp5/8/8/8/K3k3 w - c6 0 1").unwrap();
        assert_eq!(p.ep_square(), Some(Square::C6));
    }

    #[test]
    fn incremental_hash_matches_scratch() {
        let mut p = Position::new();
        for uci in [
            "e2e4", "d7d5", "e4d5", "c7c5", "d5c6", "g8f6", "c6b7", "e8d7", "b7a8q", "d8e8",
        ] {
            let m = uci.parse::<crate::Uci>().unwrap().to_move(&p).unwrap();
            p.play(m).unwrap();
            let again = Position::from_fen(&p.to_string()).unwrap();
            assert_eq!(again.zobrist(), p.zobrist(), "{p}");
        }
        assert_ne!(Position::new().zobrist(), p.zobrist());
    }

    #[test]
    fn game_end() {
        // python-chess 1.11's `is_insufficient_material()` on each: a knight
        // with any other piece, opposite bishops or a pawn can still mate.
        for (fen, insufficient) in [
            ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", true),
            ("4k3/8/8/8/8/8/8/4KB2 w - - 0 1", true),
            ("4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1", true),
            ("1b2kb2/8/8/8/8/8/8/2B1K1B1 w - - 0 1", true),
            ("4k3/8/8/8/8/8/8/4KN2 w - - 0 1", true),
            ("4k1b1/8/8/8/8/8/8/2B1K3 w - - 0 1", false),
            ("4k3/8/8/8/8/8/8/3NKN2 w - - 0 1", false),
            ("4k1n1/8/8/8/8/8/8/4KN2 w - - 0 1", false),
            ("4k1b1/8/8/8/8/8/8/4KN2 w - - 0 1", false),
            ("4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1", false),
            ("4k3/8/8/8/8/8/7P/4K3 w - - 0 1", false),
        ] {
            let pos = Position::from_fen(fen).unwrap();
            assert_eq!(pos.is_insufficient_material(), insufficient, "{fen}");
        }
        assert!(!Position::new().is_insufficient_material());
        let stalemate = Position::from_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").unwrap();
        assert!(stalemate.is_stalemate());
        assert_eq!(stalemate.outcome(), Some(Outcome::Draw));
        let mate = Position::from_fen("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1").unwrap();
        assert!(mate.is_checkmate());
        assert_eq!(
            mate.outcome(),
            Some(Outcome::Decisive {
                winner: Color::White
            })
        );
        assert_eq!(Position::new().outcome(), None);
    }

    #[test]
    fn play_rejects_illegal_moves() {
        let mut p = Position::new();
        let bad = Move::Normal {
            role: Role::Pawn,
            from: Square::E2,
            capture: None,
            to: Square::E5,
            promotion: None,
        };
        assert_eq!(p.play(bad), Err(IllegalMoveError { mv: bad }));
        assert_eq!(p.play(Move::Null), Err(IllegalMoveError { mv: Move::Null }));
        p.play_unchecked(Move::Null);
        assert_eq!(p.turn(), Color::Black);
        assert_eq!(p.legal_moves().len(), 20);
    }

    #[test]
    fn checkers_kept_up_to_date() {
        // Discovered checks (rook behind the bishop, bishop behind the
        // pawn), a direct check, a double check, and every move of a
        // deterministic walk through busy positions.
        let starts = [
            "4k3/8/8/8/4B3/8/8/4R1K1 w - - 0 1",
            "4k3/8/8/8/8/2P5/8/B5K1 w - - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        ];
        let mut checks = 0;
        for fen in starts {
            let start = Position::from_fen(fen).unwrap();
            for first in start.legal_moves() {
                let mut p = start.after(first);
                for ply in 0..40usize {
                    let scratch = checkers_of(&p.board, p.turn);
                    assert_eq!(p.checkers(), scratch, "{p}");
                    checks += usize::from(scratch.any());
                    let moves = p.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    p.play_unchecked(moves[(ply * 7 + 3) % moves.len()]);
                }
            }
        }
        assert!(checks > 20, "only {checks} checks seen");
    }

    #[test]
    fn castling_rights_dropped_when_impossible() {
        let p = Position::from_fen("4k3/8/8/8/8/8/8/4K2R w KQkq - 0 1").unwrap();
        assert_eq!(p.castles().rooks(), Bitboard::from_square(Square::H1));
        assert_eq!(p.to_string(), "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    }
}
