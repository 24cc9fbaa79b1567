//! Standard Algebraic Notation: [`San`] (syntax), [`SanPlus`] (with `+`/`#`).
//!
//! Parsing ([`San::parse`]) only reads the syntax; [`San::to_move`] resolves
//! it against a position, testing the pieces that reach the destination
//! for king safety directly (no move generation). Writing ([`San::from_move`]) disambiguates
//! minimally among *legal* moves (file, else rank, else square; a pinned
//! piece that cannot move there does not force disambiguation, as in the
//! standard's 8.2.3.4 example). [`SanPlus::from_move_and_play_unchecked`]
//! finds `+`/`#` from attacks on the king after the move and looks for mate
//! (a move count) only when the move gives check.

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::castling::CastlingSide;
use crate::color::Color;
use crate::movegen;
use crate::moves::Move;
use crate::position::Position;
use crate::role::Role;
use crate::square::{File, Rank, Square};
use core::fmt;
use core::str::FromStr;
use thiserror::Error;

/// A move in SAN, without check suffix: syntax only, not tied to a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum San {
    /// A piece or pawn move.
    Normal {
        /// The moving piece.
        role: Role,
        /// Disambiguating start file (always present for pawn captures).
        file: Option<File>,
        /// Disambiguating start rank.
        rank: Option<Rank>,
        /// `x` was written.
        capture: bool,
        /// Destination.
        to: Square,
        /// Promotion piece.
        promotion: Option<Role>,
    },
    /// `O-O` or `O-O-O`.
    Castle(CastlingSide),
    /// `--`.
    Null,
}

/// The check suffix of a move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Suffix {
    /// `+`.
    Check,
    /// `#`.
    Checkmate,
}

impl Suffix {
    /// `'+'` or `'#'`.
    pub const fn char(self) -> char {
        match self {
            Suffix::Check => '+',
            Suffix::Checkmate => '#',
        }
    }
}

/// A SAN with its check suffix.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SanPlus {
    /// The move.
    pub san: San,
    /// `+`, `#` or nothing.
    pub suffix: Option<Suffix>,
}

fn perr(offset: usize, kind: ParseSanErrorKind) -> ParseSanError {
    ParseSanError { offset, kind }
}

impl San {
    /// Parses strict SAN (`Nf3`, `exd5`, `e8=Q`, `Rad1`, `O-O`, `--`). A
    /// trailing `+` or `#` is accepted and ignored (see [`SanPlus::parse`]).
    #[inline]
    pub fn parse(s: &[u8]) -> Result<San, ParseSanError> {
        SanPlus::parse(s).map(|sp| sp.san)
    }

    fn parse_body(s: &[u8]) -> Result<San, ParseSanError> {
        match s {
            b"" => return Err(perr(0, ParseSanErrorKind::Empty)),
            b"O-O" => return Ok(San::Castle(CastlingSide::KingSide)),
            b"O-O-O" => return Ok(San::Castle(CastlingSide::QueenSide)),
            b"--" => return Ok(San::Null),
            _ => {}
        }
        if s.len() > 7 {
            return Err(perr(7, ParseSanErrorKind::TooLong));
        }
        let (role, mut i) = match Role::from_upper_char(s[0] as char) {
            Some(Role::Pawn) => return Err(perr(0, ParseSanErrorKind::UnexpectedChar)),
            Some(role) => (role, 1),
            None => (Role::Pawn, 0),
        };
        // Collect the squares' characters: up to file, rank, 'x', file, rank.
        let mut end = s.len();
        let mut promotion = None;
        if end >= 2 && s[end - 2] == b'=' {
            if role != Role::Pawn {
                return Err(perr(end - 2, ParseSanErrorKind::UnexpectedChar));
            }
            match Role::from_upper_char(s[end - 1] as char) {
                Some(r @ (Role::Knight | Role::Bishop | Role::Rook | Role::Queen)) => {
                    promotion = Some(r)
                }
                _ => return Err(perr(end - 1, ParseSanErrorKind::UnexpectedChar)),
            }
            end -= 2;
        }
        if end < i + 2 {
            return Err(perr(end, ParseSanErrorKind::MissingSquare));
        }
        let to = match (File::from_byte(s[end - 2]), Rank::from_byte(s[end - 1])) {
            (Some(f), Some(r)) => Square::from_coords(f, r),
            (None, _) => return Err(perr(end - 2, ParseSanErrorKind::UnexpectedChar)),
            (_, None) => return Err(perr(end - 1, ParseSanErrorKind::UnexpectedChar)),
        };
        let mut file = None;
        let mut rank = None;
        let mut capture = false;
        let stop = end - 2;
        if i < stop
            && let Some(f) = File::from_byte(s[i])
        {
            file = Some(f);
            i += 1;
        }
        if i < stop
            && let Some(r) = Rank::from_byte(s[i])
        {
            rank = Some(r);
            i += 1;
        }
        if i < stop && s[i] == b'x' {
            capture = true;
            i += 1;
        }
        if i != stop {
            return Err(perr(i, ParseSanErrorKind::UnexpectedChar));
        }
        if role == Role::Pawn {
            // Strict pawn moves: `e4`, `exd5`, with promotion only on the last rank.
            let valid = match (file, rank, capture) {
                (None, None, false) => true,
                (Some(f), None, true) => f != to.file(),
                _ => false,
            };
            if !valid {
                return Err(perr(0, ParseSanErrorKind::UnexpectedChar));
            }
            let last = matches!(to.rank(), Rank::First | Rank::Eighth);
            if promotion.is_some() != last && promotion.is_some() {
                return Err(perr(end, ParseSanErrorKind::UnexpectedChar));
            }
        }
        Ok(San::Normal {
            role,
            file,
            rank,
            capture,
            to,
            promotion,
        })
    }

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

    /// The canonical SAN of the legal move `m` (minimal disambiguation).
    #[inline]
    pub fn from_move(pos: &Position, m: Move) -> San {
        match m {
            Move::Null => San::Null,
            Move::Castle { king, rook } => {
                San::Castle(CastlingSide::from_king_and_rook(king, rook))
            }
            Move::EnPassant { from, to } => San::Normal {
                role: Role::Pawn,
                file: Some(from.file()),
                rank: None,
                capture: true,
                to,
                promotion: None,
            },
            Move::Normal {
                role,
                from,
                capture,
                to,
                promotion,
            } => {
                let (file, rank) = match role {
                    Role::Pawn => (capture.map(|_| from.file()), None),
                    Role::King => (None, None),
                    _ => disambiguate(pos, role, from, to),
                };
                San::Normal {
                    role,
                    file,
                    rank,
                    capture: capture.is_some(),
                    to,
                    promotion,
                }
            }
        }
    }

    /// Writes the SAN as ASCII into `buf`, returning the length (at most 7).
    #[inline]
    pub fn write_ascii(&self, buf: &mut [u8; 8]) -> usize {
        let mut out = AsciiBuf { buf, len: 0 };
        match *self {
            San::Null => out.push_all(b"--"),
            San::Castle(CastlingSide::KingSide) => out.push_all(b"O-O"),
            San::Castle(CastlingSide::QueenSide) => out.push_all(b"O-O-O"),
            San::Normal {
                role,
                file,
                rank,
                capture,
                to,
                promotion,
            } => {
                if role != Role::Pawn {
                    out.push(role.upper_char() as u8);
                }
                if let Some(f) = file {
                    out.push(f.char() as u8);
                }
                if let Some(r) = rank {
                    out.push(r.char() as u8);
                }
                if capture {
                    out.push(b'x');
                }
                out.push(to.file().char() as u8);
                out.push(to.rank().char() as u8);
                if let Some(p) = promotion {
                    out.push(b'=');
                    out.push(p.upper_char() as u8);
                }
            }
        }
        out.len
    }

    /// Writes the SAN into any [`fmt::Write`] without allocating.
    pub fn write_to(&self, out: &mut impl fmt::Write) -> fmt::Result {
        let mut buf = [0u8; 8];
        let n = self.write_ascii(&mut buf);
        for &b in &buf[..n] {
            out.write_char(b as char)?;
        }
        Ok(())
    }

    /// Appends the SAN's bytes to `out`.
    pub fn append_to(&self, out: &mut Vec<u8>) {
        let mut buf = [0u8; 8];
        let n = self.write_ascii(&mut buf);
        out.extend_from_slice(&buf[..n]);
    }
}

/// Bytes written into an 8-byte buffer. A SAN has at most 6 bytes (7 with
/// its suffix); the index is masked so that no bounds check is needed.
struct AsciiBuf<'a> {
    buf: &'a mut [u8; 8],
    len: usize,
}

impl AsciiBuf<'_> {
    #[inline(always)]
    fn push(&mut self, b: u8) {
        self.buf[self.len & 7] = b;
        self.len += 1;
    }

    #[inline(always)]
    fn push_all(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.push(b);
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
    pos.our_king().ok_or(SanError::Illegal)
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

/// The pieces in `from` (ours, of `role`) that attack `to`. Usually a
/// single piece of the kind even stands on a line to `to`; for a slider its
/// path is then checked with one table lookup, which is cheaper than the
/// occupancy-dependent attack lookup [`reach`] needs.
#[inline(always)]
fn reaching(pos: &Position, role: Role, from: Bitboard, to: Square) -> Bitboard {
    let on_lines = from & reach_on_empty_board(role, to);
    if on_lines.more_than_one() {
        return on_lines & reach(pos, role, to);
    }
    let is_slider = matches!(role, Role::Bishop | Role::Rook | Role::Queen);
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
fn piece_move_is_safe(pos: &Position, king: Square, from: Square, to: Square) -> bool {
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
        .attacks_to(to, pos.turn().other(), board.occupied().without(from))
        .is_empty()
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

/// Minimal disambiguation of a piece move among legal moves: none, file,
/// rank, or both. Most moves have no other piece of their kind attacking
/// the destination (found cheaply by [`reaching`]); only when some do are
/// the rivals tested ([`disambiguate_among`]).
#[inline]
fn disambiguate(
    pos: &Position,
    role: Role,
    from: Square,
    to: Square,
) -> (Option<File>, Option<Rank>) {
    let ours = pos.board().by_piece(role.of(pos.turn())).without(from);
    let others = reaching(pos, role, ours, to);
    if others.is_empty() {
        (None, None)
    } else {
        disambiguate_among(pos, others, from, to)
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

/// Disambiguation against the `others` pieces of the same kind that attack
/// `to`: only those that can legally move there count (a pinned one cannot).
#[inline(never)]
fn disambiguate_among(
    pos: &Position,
    others: Bitboard,
    from: Square,
    to: Square,
) -> (Option<File>, Option<Rank>) {
    let Some(king) = pos.our_king() else {
        return (None, None);
    };
    let rivals: Bitboard = others
        .filter(|&sq| piece_move_is_safe(pos, king, sq, to))
        .collect();
    if rivals.is_empty() {
        (None, None)
    } else if (rivals & Bitboard::from_file(from.file())).is_empty() {
        (Some(from.file()), None)
    } else if (rivals & Bitboard::from_rank(from.rank())).is_empty() {
        (None, Some(from.rank()))
    } else {
        (Some(from.file()), Some(from.rank()))
    }
}

/// The square named by a file letter and a rank digit.
#[inline]
pub(crate) fn square_of(file: u8, rank: u8) -> Option<Square> {
    let (f, r) = (file.wrapping_sub(b'a'), rank.wrapping_sub(b'1'));
    (f < 8 && r < 8).then(|| Square::new(u32::from(f) | u32::from(r) << 3))
}

/// The piece named by an upper-case letter (not `P`: strict SAN omits it).
#[inline]
pub(crate) fn piece_of(letter: u8) -> Option<Role> {
    match letter {
        b'N' => Some(Role::Knight),
        b'B' => Some(Role::Bishop),
        b'R' => Some(Role::Rook),
        b'Q' => Some(Role::Queen),
        b'K' => Some(Role::King),
        _ => None,
    }
}

/// A piece or pawn move without start square or promotion.
#[inline]
fn simple(role: Role, capture: bool, to: Square) -> San {
    San::Normal {
        role,
        file: None,
        rank: None,
        capture,
        to,
        promotion: None,
    }
}

/// A pawn capture `exd5` (start file `from`), maybe promoting.
#[inline]
fn pawn_capture(from: u8, to: Square, promotion: Option<Role>) -> Option<San> {
    let file = File::from_byte(from).filter(|&f| f != to.file())?;
    Some(San::Normal {
        role: Role::Pawn,
        file: Some(file),
        rank: None,
        capture: true,
        to,
        promotion,
    })
}

/// The promotion `=Q` onto `to`, only on a back rank (elsewhere the
/// general parser reports the error).
#[inline]
fn promotion_onto(to: Square, letter: u8) -> Option<Role> {
    let role = piece_of(letter).filter(|&r| r != Role::King)?;
    matches!(to.rank(), Rank::First | Rank::Eighth).then_some(role)
}

/// A piece move with its start file or rank `d` (`Nbd7`, `R1xe2`).
#[inline]
fn disambiguated(p: u8, d: u8, capture: bool, f: u8, r: u8) -> Option<San> {
    let role = piece_of(p)?;
    let to = square_of(f, r)?;
    let (file, rank) = file_or_rank(d)?;
    Some(San::Normal {
        role,
        file,
        rank,
        capture,
        to,
        promotion: None,
    })
}

/// The start file or rank a disambiguating byte names (one of the two).
#[inline]
pub(crate) fn file_or_rank(d: u8) -> Option<(Option<File>, Option<Rank>)> {
    match (File::from_byte(d), Rank::from_byte(d)) {
        (Some(file), _) => Some((Some(file), None)),
        (_, Some(rank)) => Some((None, Some(rank))),
        _ => None,
    }
}

/// Decodes the shapes nearly all real moves take (`e4`, `exd5`, `Nf3`,
/// `Nxe5`, `Nbd7`, `R1e2`, `e8=Q`, `exd8=Q`, castling, each maybe with `+`
/// or `#`) by their length and fixed positions, without the general
/// parser's scanning. `None` means "not one of these": the general parser
/// then decides, so results and errors are exactly its own.
#[inline(always)]
fn parse_common_shape(s: &[u8]) -> Option<SanPlus> {
    let (body, suffix) = match s {
        [body @ .., b'+'] => (body, Some(Suffix::Check)),
        [body @ .., b'#'] => (body, Some(Suffix::Checkmate)),
        _ => (s, None),
    };
    let san = match *body {
        [f, r] => simple(Role::Pawn, false, square_of(f, r)?),
        [b'O', b'-', b'O'] => San::Castle(CastlingSide::KingSide),
        [p, f, r] => simple(piece_of(p)?, false, square_of(f, r)?),
        [p, b'x', f, r] => match piece_of(p) {
            Some(role) => simple(role, true, square_of(f, r)?),
            None => pawn_capture(p, square_of(f, r)?, None)?,
        },
        [f, r, b'=', q] => {
            let to = square_of(f, r)?;
            San::Normal {
                role: Role::Pawn,
                file: None,
                rank: None,
                capture: false,
                to,
                promotion: Some(promotion_onto(to, q)?),
            }
        }
        [p, d, f, r] => disambiguated(p, d, false, f, r)?,
        [b'O', b'-', b'O', b'-', b'O'] => San::Castle(CastlingSide::QueenSide),
        [p, d, b'x', f, r] => disambiguated(p, d, true, f, r)?,
        [e, b'x', f, r, b'=', q] => {
            let to = square_of(f, r)?;
            pawn_capture(e, to, Some(promotion_onto(to, q)?))?
        }
        _ => return None,
    };
    Some(SanPlus { san, suffix })
}

impl fmt::Display for San {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_to(f)
    }
}

impl FromStr for San {
    type Err = ParseSanError;
    fn from_str(s: &str) -> Result<San, ParseSanError> {
        San::parse(s.as_bytes())
    }
}

impl SanPlus {
    /// Parses strict SAN with an optional `+` or `#`.
    #[inline]
    pub fn parse(s: &[u8]) -> Result<SanPlus, ParseSanError> {
        match parse_common_shape(s) {
            Some(san_plus) => Ok(san_plus),
            None => SanPlus::parse_general(s),
        }
    }

    /// The full strict parser: every shape, and the errors with offsets.
    fn parse_general(s: &[u8]) -> Result<SanPlus, ParseSanError> {
        // Move suffixes (`!`, `?`) are the lexer's; point at the first one.
        if let Some(i) = s.iter().position(|&b| b == b'!' || b == b'?') {
            return Err(perr(i, ParseSanErrorKind::UnexpectedChar));
        }
        let (body, suffix) = match s.last() {
            Some(b'+') => (&s[..s.len() - 1], Some(Suffix::Check)),
            Some(b'#') => (&s[..s.len() - 1], Some(Suffix::Checkmate)),
            _ => (s, None),
        };
        let san = San::parse_body(body)?;
        if san == San::Null && suffix.is_some() {
            // Passing gives no check: `--+` and `--#` are not moves (as in `LenientSan`).
            return Err(perr(body.len(), ParseSanErrorKind::UnexpectedChar));
        }
        Ok(SanPlus { san, suffix })
    }

    /// The suffix `pos` (the position after a move) deserves.
    #[inline]
    pub fn suffix_of(pos: &Position) -> Option<Suffix> {
        if pos.is_check() {
            if pos.has_legal_moves() {
                Some(Suffix::Check)
            } else {
                Some(Suffix::Checkmate)
            }
        } else {
            None
        }
    }

    /// The canonical SAN of the legal move `m` with its suffix, playing `m`
    /// on `pos`. Checks come from attacks on the king after the move; mate
    /// is looked for only then.
    pub fn from_move_and_play_unchecked(pos: &mut Position, m: Move) -> SanPlus {
        let san = San::from_move(pos, m);
        pos.play_unchecked(m);
        SanPlus {
            san,
            suffix: SanPlus::suffix_of(pos),
        }
    }

    /// The canonical SAN of the legal move `m` with its suffix.
    pub fn from_move(pos: &Position, m: Move) -> SanPlus {
        let mut after = pos.clone();
        SanPlus::from_move_and_play_unchecked(&mut after, m)
    }

    /// Writes the SAN and suffix into `buf`, returning the length (at most 8).
    #[inline]
    pub fn write_ascii(&self, buf: &mut [u8; 8]) -> usize {
        let len = self.san.write_ascii(buf);
        let mut out = AsciiBuf { buf, len };
        if let Some(s) = self.suffix {
            out.push(s.char() as u8);
        }
        out.len
    }

    /// Writes into any [`fmt::Write`] without allocating.
    pub fn write_to(&self, out: &mut impl fmt::Write) -> fmt::Result {
        let mut buf = [0u8; 8];
        let n = self.write_ascii(&mut buf);
        for &b in &buf[..n] {
            out.write_char(b as char)?;
        }
        Ok(())
    }

    /// Appends the bytes to `out`.
    pub fn append_to(&self, out: &mut Vec<u8>) {
        let mut buf = [0u8; 8];
        let n = self.write_ascii(&mut buf);
        out.extend_from_slice(&buf[..n]);
    }
}

impl fmt::Display for SanPlus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_to(f)
    }
}

impl FromStr for SanPlus {
    type Err = ParseSanError;
    fn from_str(s: &str) -> Result<SanPlus, ParseSanError> {
        SanPlus::parse(s.as_bytes())
    }
}

// Errors of this module (gathered in `error.rs`).

/// What is wrong with a SAN token.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ParseSanErrorKind {
    /// The token is empty.
    Empty,
    /// A character that does not fit the move syntax.
    UnexpectedChar,
    /// The token ends before a destination square.
    MissingSquare,
    /// The token is longer than any move can be.
    TooLong,
}

impl fmt::Display for ParseSanErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ParseSanErrorKind::Empty => "empty move",
            ParseSanErrorKind::UnexpectedChar => "unexpected character",
            ParseSanErrorKind::MissingSquare => "missing destination square",
            ParseSanErrorKind::TooLong => "move text too long",
        })
    }
}

/// A move token could not be parsed as SAN.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[error("invalid move text: {kind} at byte {offset}")]
pub struct ParseSanError {
    /// Byte offset of the offending character within the token.
    pub offset: usize,
    /// What is wrong.
    pub kind: ParseSanErrorKind,
}

/// A parsed SAN does not name exactly one legal move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Error)]
#[non_exhaustive]
pub enum SanError {
    /// No legal move fits.
    #[error("illegal move")]
    Illegal,
    /// More than one legal move fits.
    #[error("ambiguous move")]
    Ambiguous,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).unwrap()
    }

    fn resolve(p: &Position, san: &str) -> Result<Move, SanError> {
        san.parse::<San>().unwrap().to_move(p)
    }

    #[test]
    fn parse_and_display() {
        for s in [
            "e4", "exd5", "Nf3", "Ngf3", "N1f3", "Ng1f3", "Qxe7", "e8=Q", "dxc1=N", "O-O", "O-O-O",
            "--", "Kxh8",
        ] {
            assert_eq!(s.parse::<San>().unwrap().to_string(), s);
        }
        for s in ["e4+", "Qh4#"] {
            assert_eq!(s.parse::<SanPlus>().unwrap().to_string(), s);
        }
        for s in [
            "", "e", "E4", "Pe4", "exe4", "ed5", "e4=Q", "Nf3!", "e8Q", "0-0", "Nz3", "N:f3",
            "e2e4", "Nf3xx", "e8=K", "--+", "--#",
        ] {
            assert!(s.parse::<San>().is_err(), "{s}");
        }
        // A null move gives no check, for the strict and the lenient parser alike.
        for s in ["--+", "--#"] {
            assert!(s.parse::<SanPlus>().is_err(), "{s}");
            assert!(crate::LenientSan::parse(s.as_bytes()).is_err(), "{s}");
        }
    }

    /// The fast shapes must give exactly what the general parser gives.
    fn assert_fast_path_agrees(s: &[u8]) {
        if let Some(fast) = parse_common_shape(s) {
            assert_eq!(
                Ok(fast),
                SanPlus::parse_general(s),
                "{}",
                String::from_utf8_lossy(s)
            );
        }
    }

    const SAN_ALPHABET: &[u8] = b"abdeh1278xNBRQKPO-=+#";

    #[test]
    fn fast_shapes_agree_with_general_parser_exhaustively() {
        // Every string of up to four bytes over the SAN alphabet.
        let mut strings = vec![Vec::new()];
        for _ in 0..4 {
            let longer: Vec<Vec<u8>> = strings
                .iter()
                .flat_map(|s| {
                    SAN_ALPHABET.iter().map(move |&b| {
                        let mut t = s.clone();
                        t.push(b);
                        t
                    })
                })
                .collect();
            for s in &longer {
                assert_fast_path_agrees(s);
            }
            strings = longer;
        }
        for s in ["Nbxd7", "R1xe2", "exd8=Q+", "O-O-O#", "e8=N", "b1=Q#"] {
            assert!(parse_common_shape(s.as_bytes()).is_some(), "{s}");
            assert_fast_path_agrees(s.as_bytes());
        }
    }

    proptest::proptest! {
        #[test]
        fn fast_shapes_agree_with_general_parser(
            s in proptest::collection::vec(proptest::sample::select(SAN_ALPHABET), 0..9)
        ) {
            assert_fast_path_agrees(&s);
        }
    }

    #[test]
    fn resolve_strict() {
        let start = Position::new();
        assert_eq!(
            resolve(&start, "Nf3").unwrap(),
            Move::Normal {
                role: Role::Knight,
                from: Square::G1,
                capture: None,
                to: Square::F3,
                promotion: None
            }
        );
        assert_eq!(resolve(&start, "e5"), Err(SanError::Illegal));
        assert_eq!(resolve(&start, "O-O"), Err(SanError::Illegal));
        let p = pos("4k3/8/8/8/8/8/8/N3K2N w - - 0 1");
        assert_eq!(resolve(&p, "Ne4"), Err(SanError::Illegal));
        assert!(resolve(&p, "Ng3").is_ok());
        let p = pos("4k3/8/8/8/8/2N1N3/8/4K3 w - - 0 1");
        assert_eq!(resolve(&p, "Nd5"), Err(SanError::Ambiguous));
        assert!(resolve(&p, "Ncd5").is_ok());
        // d5 never means cxd5.
        let p = pos("4k3/8/8/3p4/2P5/8/8/4K3 w - - 0 1");
        assert_eq!(resolve(&p, "d5"), Err(SanError::Illegal));
        assert!(resolve(&p, "cxd5").is_ok());
        // A capture needs its x in strict SAN.
        assert!("cd5".parse::<San>().is_err());
    }

    #[test]
    fn blocked_sliders_do_not_reach() {
        // One slider of the kind on a line to the target: it moves there
        // only if nothing stands between.
        let p = pos("4k3/8/8/8/8/8/P2N4/R1B1K3 w - - 0 1");
        assert_eq!(resolve(&p, "Ra3"), Err(SanError::Illegal));
        assert!(resolve(&p, "Rb1").is_ok());
        assert_eq!(resolve(&p, "Be3"), Err(SanError::Illegal));
        assert!(resolve(&p, "Bb2").is_ok());
        let p = pos("4k3/8/8/8/8/8/3P4/3QK3 w - - 0 1");
        assert_eq!(resolve(&p, "Qd4"), Err(SanError::Illegal));
        assert!(resolve(&p, "Qa4").is_ok());
        // Two rooks on the file, the far one blocked by the near one.
        let p = pos("4k3/8/8/R7/8/R7/8/4K3 w - - 0 1");
        let m = resolve(&p, "Ra2").unwrap();
        assert_eq!(m.from(), Some(Square::A3));
    }

    #[test]
    fn pinned_knight_does_not_force_disambiguation() {
        // The standard's 8.2.3.4 example: knights on c3 and g1... here the
        // knight on c3 is pinned by the bishop on b4, so Ng1-e2 is "Ne2".
        let p = pos("4k3/8/8/8/1b6/2N5/8/4K1N1 w - - 0 1");
        let m = resolve(&p, "Ne2").unwrap();
        assert_eq!(San::from_move(&p, m).to_string(), "Ne2");
        // Unpinned: both knights reach e2.
        let p = pos("4k3/8/8/8/8/2N5/8/4K1N1 w - - 0 1");
        assert_eq!(resolve(&p, "Ne2"), Err(SanError::Ambiguous));
        let m = resolve(&p, "Nge2").unwrap();
        assert_eq!(San::from_move(&p, m).to_string(), "Nge2");
    }

    #[test]
    fn disambiguation_order() {
        // Rooks on a1 and a5 to a3: rank.
        let p = pos("4k3/8/8/R7/8/8/8/R3K3 w - - 0 1");
        let m = resolve(&p, "R1a3").unwrap();
        assert_eq!(San::from_move(&p, m).to_string(), "R1a3");
        // Queens on a1, a3 and c3 to b2: a3 shares the file, so the rank.
        let p = pos("4k3/8/8/8/8/Q1Q5/8/Q3K3 w - - 0 1");
        let m = resolve(&p, "Q1b2").unwrap();
        assert_eq!(San::from_move(&p, m).to_string(), "Q1b2");
        // Queens on a1, a3 and c1 to b2: both shared, so the square.
        let p = pos("4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1");
        let m = resolve(&p, "Qa1b2").unwrap();
        assert_eq!(San::from_move(&p, m).to_string(), "Qa1b2");
    }

    #[test]
    fn suffixes() {
        let mut p = pos("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2");
        let m = resolve(&p, "Qh4").unwrap();
        assert_eq!(
            SanPlus::from_move_and_play_unchecked(&mut p, m).to_string(),
            "Qh4#"
        );
        assert!(p.is_checkmate());
        let mut p = Position::new();
        for s in ["e4", "f5", "Qh5"] {
            let m = resolve(&p, s).unwrap();
            let sp = SanPlus::from_move_and_play_unchecked(&mut p, m);
            let mut v = Vec::new();
            sp.append_to(&mut v);
            assert_eq!(v, sp.to_string().as_bytes());
        }
        assert!(p.is_check());
    }
}
