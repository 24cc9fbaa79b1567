//! Lenient move reading: [`LenientSan`] and the [`Lenience`] flags.
//!
//! [`LenientSan::parse`] accepts every form of the SPEC-NOTES import table;
//! [`LenientSan::to_move`] resolves it to the one legal move it names and
//! reports which lenient forms were used, so a reader can warn, or refuse in
//! strict mode. Accepted (each only when it names exactly one legal move):
//!
//! | form | examples | flag |
//! |---|---|---|
//! | castling with zeros | `0-0`, `0-0-0` | [`Lenience::CASTLING_ZEROS`] |
//! | over-disambiguation | `Ngf3`, `N1f3` | [`Lenience::OVER_DISAMBIGUATION`] |
//! | long algebraic / UCI | `e2e4`, `e2-e4`, `Ng1-f3`, `Ng1f3`, `Bf1xb5`, `e7e8q` | [`Lenience::LONG_ALGEBRAIC`] |
//! | castling as a king move | `e1g1`, `Ke1g1`; `e1h1` only in Chess960 | [`Lenience::LONG_ALGEBRAIC`] |
//! | missing or extra `x` | `Ne4` for a capture, `Nxe4` for none | [`Lenience::CAPTURE_MARK`] |
//! | `-` between squares | `e2-e4`, `Nf-e4` | [`Lenience::HYPHEN`] |
//! | wrong or missing `+`/`#` | `e4+`, `Qh4` for mate | [`Lenience::CHECK_MARK`] |
//! | `++` | `Qh5++` | [`Lenience::DOUBLE_PLUS`] |
//! | pawn letter | `Pe4`, `Pxd5`, `Pd5` (any pawn move to d5), `pe4` | [`Lenience::PAWN_LETTER`] |
//! | promotion without `=` | `e8Q`, `bxa8N`, `e7e8q` | [`Lenience::PROMOTION_WITHOUT_EQUALS`] |
//! | lower-case promotion | `e8=q` | [`Lenience::LOWERCASE_PROMOTION`] |
//! | en passant marker in the token | `exd6ep`, `exd6e.p.` | [`Lenience::EN_PASSANT_MARKER`] |
//! | lower-case piece letter | `nf3`, `bb5`, `qd1`, `rd1`, `kd2`, `pe4` | [`Lenience::LOWERCASE_PIECE`] |
//! | null move aliases | `Z0`, `0000`, `@@@@` (`--` is not flagged) | [`Lenience::NULL_MOVE_ALIAS`] |
//!
//! The en passant marker is accepted inside the token (`exd6ep`,
//! `exd6e.p.`); when a lexer delivers `e.p.` as a separate symbol, the
//! reader should check [`Move::is_en_passant`] of the move before it. A
//! marker on a move that is not an en passant capture makes it illegal.
//!
//! A lower-case letter is read as a pawn move first (`bxc3`, `bc3` is the
//! b-pawn); only when no pawn move fits is `bc3` a bishop move (flagged
//! [`Lenience::LOWERCASE_PIECE`]). Letters `n r q k` are never files, so
//! `nf3` is always the knight (flagged).
//!
//! Not accepted: `:` as a capture sign, upper-case files (`E4`), a pawn move
//! to the last rank without a piece (`e7e8`), `e1h1` in standard chess, and
//! a pawn move without file or pawn letter meaning a capture (`d5` is never
//! `cxd5`). Move suffixes (`!`, `?`, ...) are not part of the move: the
//! lexer splits them off; if they reach this parser they are rejected with a
//! [`ParseSanError`] at their offset.

use crate::bitboard::Bitboard;
use crate::castling::{CastlingMode, CastlingSide};
use crate::moves::Move;
use crate::position::Position;
use crate::role::Role;
use crate::san::{ParseSanError, ParseSanErrorKind, San, SanError, SanPlus, Suffix};
use crate::square::{File, Rank, Square};
use crate::uci;
use core::fmt;
use core::ops::{BitOr, BitOrAssign};

/// The set of lenient forms a move used (empty: strict SAN).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Lenience(u32);

impl Lenience {
    /// Strict SAN.
    pub const NONE: Lenience = Lenience(0);
    /// `0-0` / `0-0-0`.
    pub const CASTLING_ZEROS: Lenience = Lenience(1);
    /// More disambiguation than needed (`Ngf3`).
    pub const OVER_DISAMBIGUATION: Lenience = Lenience(1 << 1);
    /// Missing or extra `x`.
    pub const CAPTURE_MARK: Lenience = Lenience(1 << 2);
    /// `-` between from and to.
    pub const HYPHEN: Lenience = Lenience(1 << 3);
    /// Missing or wrong `+`/`#`.
    pub const CHECK_MARK: Lenience = Lenience(1 << 4);
    /// `++`.
    pub const DOUBLE_PLUS: Lenience = Lenience(1 << 5);
    /// `P` or `p` for a pawn.
    pub const PAWN_LETTER: Lenience = Lenience(1 << 6);
    /// Promotion without `=` (`e8Q`).
    pub const PROMOTION_WITHOUT_EQUALS: Lenience = Lenience(1 << 7);
    /// Lower-case promotion piece (`e8=q`).
    pub const LOWERCASE_PROMOTION: Lenience = Lenience(1 << 8);
    /// `ep` / `e.p.` after an en passant capture.
    pub const EN_PASSANT_MARKER: Lenience = Lenience(1 << 9);
    /// Long algebraic / UCI: the full start square given (`e2e4`, `Ng1f3`),
    /// or castling written as a king move (`e1g1`, `e1h1` in Chess960).
    pub const LONG_ALGEBRAIC: Lenience = Lenience(1 << 10);
    /// Lower-case piece letter (`nf3`).
    pub const LOWERCASE_PIECE: Lenience = Lenience(1 << 11);
    /// `Z0`, `0000` or `@@@@` for a null move.
    pub const NULL_MOVE_ALIAS: Lenience = Lenience(1 << 12);

    const NAMES: [(Lenience, &'static str); 13] = [
        (Lenience::CASTLING_ZEROS, "castling with zeros"),
        (Lenience::OVER_DISAMBIGUATION, "over-disambiguation"),
        (Lenience::CAPTURE_MARK, "missing or extra capture mark"),
        (Lenience::HYPHEN, "hyphen between squares"),
        (Lenience::CHECK_MARK, "missing or wrong check mark"),
        (Lenience::DOUBLE_PLUS, "'++' check mark"),
        (Lenience::PAWN_LETTER, "pawn letter"),
        (Lenience::PROMOTION_WITHOUT_EQUALS, "promotion without '='"),
        (Lenience::LOWERCASE_PROMOTION, "lower-case promotion piece"),
        (Lenience::EN_PASSANT_MARKER, "en passant marker"),
        (Lenience::LONG_ALGEBRAIC, "long algebraic notation"),
        (Lenience::LOWERCASE_PIECE, "lower-case piece letter"),
        (Lenience::NULL_MOVE_ALIAS, "null move alias"),
    ];

    /// `true` for strict SAN.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// `true` if every flag of `other` is set.
    #[inline]
    pub const fn contains(self, other: Lenience) -> bool {
        self.0 & other.0 == other.0
    }

    /// The raw bits.
    #[inline]
    pub const fn bits(self) -> u32 {
        self.0
    }

    /// Human-readable names of the set flags.
    pub fn names(self) -> impl Iterator<Item = &'static str> {
        Lenience::NAMES
            .into_iter()
            .filter(move |(flag, _)| self.contains(*flag))
            .map(|(_, name)| name)
    }
}

impl BitOr for Lenience {
    type Output = Lenience;
    fn bitor(self, rhs: Lenience) -> Lenience {
        Lenience(self.0 | rhs.0)
    }
}

impl BitOrAssign for Lenience {
    fn bitor_assign(&mut self, rhs: Lenience) {
        self.0 |= rhs.0;
    }
}

impl fmt::Display for Lenience {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, name) in self.names().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            f.write_str(name)?;
        }
        Ok(())
    }
}

/// The check mark written after a move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Mark {
    Check,
    Mate,
    DoublePlus,
}

/// One reading of a piece or pawn move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Spec {
    role: Role,
    file: Option<File>,
    rank: Option<Rank>,
    /// `x` written.
    capture: bool,
    /// `P`/`p` written: any pawn move to `to`.
    pawn_letter: bool,
    to: Square,
    promotion: Option<Role>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Kind {
    Null,
    Castle(CastlingSide),
    /// The first reading, and a fallback tried when it names no legal move
    /// (a lower-case `b` read as a bishop).
    Move(Spec, Option<Spec>),
}

/// A move token read leniently (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct LenientSan {
    kind: Kind,
    mark: Option<Mark>,
    ep_marker: bool,
    /// Flags known from the syntax alone.
    syntax: Lenience,
}

fn perr(offset: usize, kind: ParseSanErrorKind) -> ParseSanError {
    ParseSanError { offset, kind }
}

fn lower_piece(b: u8) -> Option<Role> {
    match b {
        b'n' => Some(Role::Knight),
        b'r' => Some(Role::Rook),
        b'q' => Some(Role::Queen),
        b'k' => Some(Role::King),
        _ => None,
    }
}

impl LenientSan {
    /// Parses a move token leniently. Never panics; rejects with the offset
    /// of the first character that fits no accepted form.
    pub fn parse(token: &[u8]) -> Result<LenientSan, ParseSanError> {
        if token.is_empty() {
            return Err(perr(0, ParseSanErrorKind::Empty));
        }
        if token.len() > 16 {
            return Err(perr(16, ParseSanErrorKind::TooLong));
        }
        // Move suffixes belong to the lexer; point at the first one.
        if let Some(i) = token.iter().position(|&b| b == b'!' || b == b'?') {
            return Err(perr(i, ParseSanErrorKind::UnexpectedChar));
        }
        let mut syntax = Lenience::NONE;
        match token {
            b"--" => {
                return Ok(LenientSan {
                    kind: Kind::Null,
                    mark: None,
                    ep_marker: false,
                    syntax,
                });
            }
            b"Z0" | b"0000" | b"@@@@" => {
                return Ok(LenientSan {
                    kind: Kind::Null,
                    mark: None,
                    ep_marker: false,
                    syntax: Lenience::NULL_MOVE_ALIAS,
                });
            }
            _ => {}
        }
        let mut s = token;
        let mut mark = None;
        let strip_mark = |s: &mut &[u8], mark: &mut Option<Mark>| {
            if mark.is_some() {
                return;
            }
            if s.ends_with(b"++") {
                *mark = Some(Mark::DoublePlus);
                *s = &s[..s.len() - 2];
            } else if s.ends_with(b"+") {
                *mark = Some(Mark::Check);
                *s = &s[..s.len() - 1];
            } else if s.ends_with(b"#") {
                *mark = Some(Mark::Mate);
                *s = &s[..s.len() - 1];
            }
        };
        strip_mark(&mut s, &mut mark);
        let mut ep_marker = false;
        if s.len() > 4 && s.ends_with(b"e.p.") {
            ep_marker = true;
            s = &s[..s.len() - 4];
        } else if s.len() > 2 && s.ends_with(b"ep") {
            ep_marker = true;
            s = &s[..s.len() - 2];
        }
        if ep_marker {
            syntax |= Lenience::EN_PASSANT_MARKER;
            strip_mark(&mut s, &mut mark);
        }
        let kind = match s {
            b"O-O" => Kind::Castle(CastlingSide::KingSide),
            b"O-O-O" => Kind::Castle(CastlingSide::QueenSide),
            b"0-0" => {
                syntax |= Lenience::CASTLING_ZEROS;
                Kind::Castle(CastlingSide::KingSide)
            }
            b"0-0-0" => {
                syntax |= Lenience::CASTLING_ZEROS;
                Kind::Castle(CastlingSide::QueenSide)
            }
            _ => parse_move(s, &mut syntax)?,
        };
        if ep_marker
            && !matches!(
                kind,
                Kind::Move(
                    Spec {
                        role: Role::Pawn,
                        ..
                    },
                    _
                )
            )
        {
            return Err(perr(s.len(), ParseSanErrorKind::UnexpectedChar));
        }
        Ok(LenientSan {
            kind,
            mark,
            ep_marker,
            syntax,
        })
    }

    /// Resolves the token to the one legal move it names, with the lenient
    /// forms used. Finding a missing or wrong `+`/`#` costs a copy of the
    /// position and the move; [`LenientSan::to_move_and_play`] avoids it.
    pub fn to_move(&self, pos: &Position) -> Result<(Move, Lenience), SanError> {
        let (m, mut flags) = self.resolve(pos)?;
        if !m.is_null() {
            flags |= self.mark_flags(&pos.after(m));
        }
        Ok((m, flags))
    }

    /// Like [`LenientSan::to_move`], and plays the move on `pos` (which is
    /// unchanged on error). A null move is played as such.
    pub fn to_move_and_play(&self, pos: &mut Position) -> Result<(Move, Lenience), SanError> {
        let (m, mut flags) = self.resolve(pos)?;
        pos.play_unchecked(m);
        if !m.is_null() {
            flags |= self.mark_flags(pos);
        }
        Ok((m, flags))
    }

    /// `true` if the token is a null move.
    pub fn is_null(&self) -> bool {
        matches!(self.kind, Kind::Null)
    }

    /// The castling side, if the token is castling.
    pub fn castling_side(&self) -> Option<CastlingSide> {
        match self.kind {
            Kind::Castle(side) => Some(side),
            _ => None,
        }
    }

    fn mark_flags(&self, after: &Position) -> Lenience {
        let actual = SanPlus::suffix_of(after);
        match (self.mark, actual) {
            (None, None) | (Some(Mark::Check), Some(Suffix::Check)) => Lenience::NONE,
            (Some(Mark::Mate), Some(Suffix::Checkmate)) => Lenience::NONE,
            (Some(Mark::DoublePlus), Some(_)) => Lenience::DOUBLE_PLUS,
            (Some(Mark::DoublePlus), None) => Lenience::DOUBLE_PLUS | Lenience::CHECK_MARK,
            _ => Lenience::CHECK_MARK,
        }
    }

    fn resolve(&self, pos: &Position) -> Result<(Move, Lenience), SanError> {
        let mut flags = self.syntax;
        let m = match self.kind {
            Kind::Null => Move::Null,
            Kind::Castle(side) => pos.castling_move(side).ok_or(SanError::Illegal)?,
            Kind::Move(spec, fallback) => match resolve_spec(pos, &spec) {
                Ok(m) => {
                    flags |= spec_flags(pos, &spec, m);
                    m
                }
                Err(SanError::Illegal) if fallback.is_some() => {
                    let alt = fallback.ok_or(SanError::Illegal)?;
                    let m = resolve_spec(pos, &alt)?;
                    flags |= spec_flags(pos, &alt, m) | Lenience::LOWERCASE_PIECE;
                    flags = Lenience(flags.0 & !Lenience::PAWN_LETTER.0);
                    m
                }
                Err(e) => return Err(e),
            },
        };
        if self.ep_marker && !m.is_en_passant() {
            return Err(SanError::Illegal);
        }
        Ok((m, flags))
    }
}

/// Parses everything but castling, null moves and suffixes.
fn parse_move(s: &[u8], syntax: &mut Lenience) -> Result<Kind, ParseSanError> {
    let len = s.len();
    if len < 2 {
        return Err(perr(len, ParseSanErrorKind::MissingSquare));
    }
    // Promotion at the end.
    let mut end = len;
    let mut promotion = None;
    let promo_role = |b: u8| match b {
        b'N' | b'n' => Some(Role::Knight),
        b'B' | b'b' => Some(Role::Bishop),
        b'R' | b'r' => Some(Role::Rook),
        b'Q' | b'q' => Some(Role::Queen),
        _ => None,
    };
    if len >= 2 && s[len - 2] == b'=' {
        let r = promo_role(s[len - 1]).ok_or(perr(len - 1, ParseSanErrorKind::UnexpectedChar))?;
        if s[len - 1].is_ascii_lowercase() {
            *syntax |= Lenience::LOWERCASE_PROMOTION;
        }
        promotion = Some(r);
        end = len - 2;
    } else if len >= 3
        && s[len - 2].is_ascii_digit()
        && let Some(r) = promo_role(s[len - 1])
    {
        *syntax |= Lenience::PROMOTION_WITHOUT_EQUALS;
        if s[len - 1].is_ascii_lowercase() {
            *syntax |= Lenience::LOWERCASE_PROMOTION;
        }
        promotion = Some(r);
        end = len - 1;
    }
    if end < 2 {
        return Err(perr(end, ParseSanErrorKind::MissingSquare));
    }
    let to = match (File::from_byte(s[end - 2]), Rank::from_byte(s[end - 1])) {
        (Some(f), Some(r)) => Square::from_coords(f, r),
        (None, _) => return Err(perr(end - 2, ParseSanErrorKind::UnexpectedChar)),
        (_, None) => return Err(perr(end - 1, ParseSanErrorKind::UnexpectedChar)),
    };
    let mut prefix = &s[..end - 2];
    let mut capture = false;
    match prefix.last() {
        Some(b'x') => {
            capture = true;
            prefix = &prefix[..prefix.len() - 1];
        }
        Some(b'-') => {
            *syntax |= Lenience::HYPHEN;
            prefix = &prefix[..prefix.len() - 1];
        }
        _ => {}
    }
    // Piece letter, then file and rank of the start square.
    let (role, pawn_letter, lower, rest_at) = match prefix.first() {
        None => (Role::Pawn, false, false, 0),
        Some(&b) => match (Role::from_upper_char(b as char), lower_piece(b)) {
            (Some(role), _) => (role, role == Role::Pawn, false, 1),
            (None, Some(role)) => (role, false, true, 1),
            (None, None) if b == b'p' => (Role::Pawn, true, true, 1),
            _ => (Role::Pawn, false, false, 0),
        },
    };
    let rest = &prefix[rest_at..];
    // A leading lower-case 'b' may be a pawn file or a bishop: keep both
    // readings, pawn first.
    let bishop = if role == Role::Pawn
        && !pawn_letter
        && prefix.first() == Some(&b'b')
        && promotion.is_none()
    {
        let (file, rank, used) = parse_from(&prefix[1..]);
        (used == prefix.len() - 1).then_some(Spec {
            role: Role::Bishop,
            file,
            rank,
            capture,
            pawn_letter: false,
            to,
            promotion: None,
        })
    } else {
        None
    };
    let (file, rank, used) = parse_from(rest);
    if used != rest.len() {
        return match bishop {
            Some(b) => {
                *syntax |= Lenience::LOWERCASE_PIECE;
                Ok(Kind::Move(b, None))
            }
            None => Err(perr(rest_at + used, ParseSanErrorKind::UnexpectedChar)),
        };
    }
    if (capture || syntax.contains(Lenience::HYPHEN)) && prefix.is_empty() {
        // "xd5" or "-d5": a separator with nothing before it.
        return Err(perr(0, ParseSanErrorKind::UnexpectedChar));
    }
    if pawn_letter {
        *syntax |= Lenience::PAWN_LETTER;
    }
    if lower {
        *syntax |= Lenience::LOWERCASE_PIECE;
    }
    if promotion.is_some() && role != Role::Pawn {
        return Err(perr(end, ParseSanErrorKind::UnexpectedChar));
    }
    let spec = Spec {
        role,
        file,
        rank,
        capture,
        pawn_letter,
        to,
        promotion,
    };
    Ok(Kind::Move(spec, bishop))
}

/// Reads `[a-h]?[1-8]?`, returning what was read and how many bytes.
fn parse_from(s: &[u8]) -> (Option<File>, Option<Rank>, usize) {
    let mut i = 0;
    let file = s.first().and_then(|&b| File::from_byte(b));
    if file.is_some() {
        i += 1;
    }
    let rank = s.get(i).and_then(|&b| Rank::from_byte(b));
    if rank.is_some() {
        i += 1;
    }
    (file, rank, i)
}

fn resolve_spec(pos: &Position, spec: &Spec) -> Result<Move, SanError> {
    let us = pos.turn();
    let full_from = spec.file.is_some() && spec.rank.is_some();
    // UCI-style `g1f3` / `e1g1` without a piece letter: the piece on the
    // start square moves.
    if spec.role == Role::Pawn
        && !spec.pawn_letter
        && full_from
        && spec.promotion.is_none()
        && let (Some(f), Some(r)) = (spec.file, spec.rank)
    {
        let from = Square::from_coords(f, r);
        if pos.board().by_color(us).contains(from)
            && let Some(role) = pos.board().role_at(from).filter(|&r| r != Role::Pawn)
        {
            return resolve_spec(pos, &Spec { role, ..*spec });
        }
    }
    let mut from = pos.board().by_piece(spec.role.of(us));
    if let Some(f) = spec.file {
        from &= Bitboard::from_file(f);
    }
    if let Some(r) = spec.rank {
        from &= Bitboard::from_rank(r);
    }
    if spec.role == Role::Pawn && !spec.pawn_letter && spec.file.is_none() {
        // `d5` is a push only.
        from &= Bitboard::from_file(spec.to.file());
    }
    if spec.role != Role::King {
        // (A king may castle onto its rook's square, out of its reach.)
        from &= crate::san::reach(pos, spec.role, spec.to);
    }
    // Fast path, as for strict SAN: test the candidates directly. Not for
    // `Pd5` (any pawn move) or a king with its start square (which may
    // castle); the capture mark is read from the board, not the token.
    let any_pawn_move = spec.role == Role::Pawn && spec.pawn_letter;
    let may_castle = spec.role == Role::King && full_from;
    if !any_pawn_move && !may_castle {
        let capture = match spec.role {
            Role::Pawn => spec.file.is_some_and(|f| f != spec.to.file()),
            _ => pos.board().by_color(us.other()).contains(spec.to),
        };
        return crate::san::resolve_normal(pos, spec.role, from, capture, spec.to, spec.promotion);
    }
    let mut found = None;
    let mut count = 0;
    let chess960 = pos.castling_mode() == CastlingMode::Chess960;
    pos.for_each_legal_move_between(from, Bitboard::from_square(spec.to), |m| {
        // King takes rook is castling only in Chess960, and only written as
        // a king move with its start square.
        if m.promotion() == spec.promotion && (!m.is_castle() || (chess960 && full_from)) {
            found = Some(m);
            count += 1;
        }
    });
    match (found, count) {
        (Some(m), 1) => return Ok(m),
        (Some(_), _) => return Err(SanError::Ambiguous),
        (None, _) => {}
    }
    // e1g1 / Ke1g1 for castling.
    if spec.role == Role::King
        && full_from
        && spec.promotion.is_none()
        && let (Some(f), Some(r)) = (spec.file, spec.rank)
        && let Some(m) = uci::standard_castle(pos, Square::from_coords(f, r), spec.to)
    {
        return Ok(m);
    }
    Err(SanError::Illegal)
}

/// Flags that depend on the resolved move.
fn spec_flags(pos: &Position, spec: &Spec, m: Move) -> Lenience {
    let mut flags = Lenience::NONE;
    if m.is_castle() {
        return Lenience::LONG_ALGEBRAIC;
    }
    if spec.capture != m.is_capture() {
        flags |= Lenience::CAPTURE_MARK;
    }
    if m.role() != Some(spec.role) {
        // UCI-style `g1f3`: the piece came from the start square.
        flags |= Lenience::LONG_ALGEBRAIC;
    }
    if (spec.file.is_some() || spec.rank.is_some())
        && let San::Normal { file, rank, .. } = San::from_move(pos, m)
        && ((spec.file.is_some() && file.is_none()) || (spec.rank.is_some() && rank.is_none()))
    {
        // More than canonical SAN: a full start square is long algebraic
        // (unless SAN needs the square), anything less over-disambiguation.
        flags |= if spec.file.is_some() && spec.rank.is_some() {
            Lenience::LONG_ALGEBRAIC
        } else {
            Lenience::OVER_DISAMBIGUATION
        };
    }
    flags
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).unwrap()
    }

    fn read(p: &Position, token: &str) -> Result<(String, Lenience), SanError> {
        let lenient = LenientSan::parse(token.as_bytes()).unwrap();
        lenient
            .to_move(p)
            .map(|(m, l)| (San::from_move(p, m).to_string(), l))
    }

    fn ok(p: &Position, token: &str, san: &str, flags: Lenience) {
        assert_eq!(read(p, token), Ok((san.to_string(), flags)), "{token}");
    }

    fn rejected(token: &str) {
        assert!(
            LenientSan::parse(token.as_bytes()).is_err(),
            "{token} parsed"
        );
    }

    #[test]
    fn strict_san_has_no_flags() {
        let p = Position::new();
        ok(&p, "e4", "e4", Lenience::NONE);
        ok(&p, "Nf3", "Nf3", Lenience::NONE);
    }

    #[test]
    fn castling_with_zeros() {
        let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        ok(&p, "0-0", "O-O", Lenience::CASTLING_ZEROS);
        ok(&p, "0-0-0", "O-O-O", Lenience::CASTLING_ZEROS);
        ok(&p, "O-O", "O-O", Lenience::NONE);
    }

    #[test]
    fn over_disambiguation_and_long_algebraic() {
        let p = Position::new();
        ok(&p, "Ngf3", "Nf3", Lenience::OVER_DISAMBIGUATION);
        ok(&p, "N1f3", "Nf3", Lenience::OVER_DISAMBIGUATION);
        ok(&p, "Ng1f3", "Nf3", Lenience::LONG_ALGEBRAIC);
        ok(
            &p,
            "Ng1-f3",
            "Nf3",
            Lenience::LONG_ALGEBRAIC | Lenience::HYPHEN,
        );
        ok(&p, "e2e4", "e4", Lenience::LONG_ALGEBRAIC);
        ok(
            &p,
            "e2-e4",
            "e4",
            Lenience::LONG_ALGEBRAIC | Lenience::HYPHEN,
        );
        let p = pos("rnbqkbnr/ppp2ppp/8/3pp3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3");
        ok(
            &p,
            "Bf1xb5",
            "Bb5",
            Lenience::LONG_ALGEBRAIC | Lenience::CAPTURE_MARK | Lenience::CHECK_MARK,
        );
        ok(
            &p,
            "Bf1-b5+",
            "Bb5",
            Lenience::LONG_ALGEBRAIC | Lenience::HYPHEN,
        );
        ok(&p, "e4xd5", "exd5", Lenience::LONG_ALGEBRAIC);
    }

    #[test]
    fn capture_and_check_marks() {
        let p = pos("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
        ok(&p, "ed5", "exd5", Lenience::CAPTURE_MARK);
        ok(&p, "exd5", "exd5", Lenience::NONE);
        ok(&p, "Nxf3", "Nf3", Lenience::CAPTURE_MARK);
    }

    #[test]
    fn check_marks() {
        let p = pos("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2");
        ok(&p, "Qh4#", "Qh4", Lenience::NONE);
        ok(&p, "Qh4", "Qh4", Lenience::CHECK_MARK);
        ok(&p, "Qh4+", "Qh4", Lenience::CHECK_MARK);
        ok(&p, "Qh4++", "Qh4", Lenience::DOUBLE_PLUS);
        ok(&p, "Nf6+", "Nf6", Lenience::CHECK_MARK);
        ok(
            &p,
            "Nf6++",
            "Nf6",
            Lenience::CHECK_MARK | Lenience::DOUBLE_PLUS,
        );
    }

    #[test]
    fn pawn_letters() {
        let p = pos("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
        ok(&p, "Pe5", "e5", Lenience::PAWN_LETTER);
        ok(&p, "Pxd5", "exd5", Lenience::PAWN_LETTER);
        ok(
            &p,
            "Pd5",
            "exd5",
            Lenience::PAWN_LETTER | Lenience::CAPTURE_MARK,
        );
        ok(
            &p,
            "pe5",
            "e5",
            Lenience::PAWN_LETTER | Lenience::LOWERCASE_PIECE,
        );
        // Without the letter, d5 is a push only.
        assert_eq!(read(&p, "d5"), Err(SanError::Illegal));
    }

    #[test]
    fn promotions() {
        let p = pos("1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1");
        ok(&p, "a8=Q", "a8=Q", Lenience::NONE);
        ok(&p, "a8Q", "a8=Q", Lenience::PROMOTION_WITHOUT_EQUALS);
        ok(
            &p,
            "a8=q+",
            "a8=Q",
            Lenience::LOWERCASE_PROMOTION | Lenience::CHECK_MARK,
        );
        ok(&p, "axb8N", "axb8=N", Lenience::PROMOTION_WITHOUT_EQUALS);
        ok(
            &p,
            "a7b8n",
            "axb8=N",
            Lenience::PROMOTION_WITHOUT_EQUALS
                | Lenience::LOWERCASE_PROMOTION
                | Lenience::LONG_ALGEBRAIC
                | Lenience::CAPTURE_MARK,
        );
        ok(
            &p,
            "a7a8q",
            "a8=Q",
            Lenience::PROMOTION_WITHOUT_EQUALS
                | Lenience::LOWERCASE_PROMOTION
                | Lenience::LONG_ALGEBRAIC,
        );
        // Without a piece, a move to the last rank is not accepted.
        assert_eq!(read(&p, "a7a8"), Err(SanError::Illegal));
        assert_eq!(read(&p, "a8"), Err(SanError::Illegal));
    }

    #[test]
    fn en_passant_markers() {
        let p = pos("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3");
        ok(&p, "exf6ep", "exf6", Lenience::EN_PASSANT_MARKER);
        ok(&p, "exf6e.p.", "exf6", Lenience::EN_PASSANT_MARKER);
        ok(
            &p,
            "exf6e.p.+",
            "exf6",
            Lenience::EN_PASSANT_MARKER | Lenience::CHECK_MARK,
        );
        // Only after a real en passant capture.
        assert_eq!(read(&p, "e6ep"), Err(SanError::Illegal));
        rejected("Nf3ep");
    }

    #[test]
    fn lowercase_pieces() {
        let p = pos("4k3/8/8/8/8/8/1P6/RN1QKB2 w - - 0 1");
        // b3 is the b-pawn; a bishop move needs the fallback.
        ok(&p, "bb3", "b3", Lenience::OVER_DISAMBIGUATION);
        ok(
            &p,
            "bf1d3",
            "Bd3",
            Lenience::LOWERCASE_PIECE | Lenience::LONG_ALGEBRAIC,
        );
        ok(&p, "nc3", "Nc3", Lenience::LOWERCASE_PIECE);
        ok(&p, "bd3", "Bd3", Lenience::LOWERCASE_PIECE);
        ok(&p, "qd3", "Qd3", Lenience::LOWERCASE_PIECE);
        ok(&p, "kd2", "Kd2", Lenience::LOWERCASE_PIECE);
        let p = pos("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
        ok(&p, "rd1", "Rd1", Lenience::LOWERCASE_PIECE);
        // A pawn capture with a lower-case b comes first.
        let p = pos("4k3/8/8/8/8/2p5/1P6/2B1K3 w - - 0 1");
        ok(&p, "bxc3", "bxc3", Lenience::NONE);
        ok(&p, "bc3", "bxc3", Lenience::CAPTURE_MARK);
        ok(&p, "bd2", "Bd2", Lenience::LOWERCASE_PIECE);
    }

    #[test]
    fn castling_as_king_move() {
        let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        ok(&p, "e1g1", "O-O", Lenience::LONG_ALGEBRAIC);
        ok(&p, "Ke1c1", "O-O-O", Lenience::LONG_ALGEBRAIC);
        assert_eq!(read(&p, "e1h1"), Err(SanError::Illegal));
        let c960 = pos("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1");
        ok(&c960, "e1h1", "O-O", Lenience::LONG_ALGEBRAIC);
        ok(&c960, "Ke1a1", "O-O-O", Lenience::LONG_ALGEBRAIC);
    }

    #[test]
    fn null_moves() {
        let p = Position::new();
        for (t, flags) in [
            ("--", Lenience::NONE),
            ("Z0", Lenience::NULL_MOVE_ALIAS),
            ("0000", Lenience::NULL_MOVE_ALIAS),
            ("@@@@", Lenience::NULL_MOVE_ALIAS),
        ] {
            let l = LenientSan::parse(t.as_bytes()).unwrap();
            assert!(l.is_null());
            assert_eq!(l.to_move(&p), Ok((Move::Null, flags)));
        }
    }

    #[test]
    fn not_accepted() {
        for t in [
            "Nf3:e5", "e:d5", "E4", "Nf3!", "e4?", "e4!!", "", "x", "xd5", "e", "Q", "e4=", "e4=K",
            "Ke1=Q", "e9", "i4", "O-O-O-O", "bb3c",
        ] {
            rejected(t);
        }
        let p = pos("4k3/8/8/3p4/2P5/8/8/4K3 w - - 0 1");
        assert_eq!(read(&p, "d5"), Err(SanError::Illegal));
        let p = pos("4k3/8/8/8/8/2N1N3/8/4K3 w - - 0 1");
        assert_eq!(read(&p, "Nd5"), Err(SanError::Ambiguous));
    }

    #[test]
    fn suffix_annotations_rejected_at_their_offset() {
        for (token, at) in [("Nf3!", 3), ("e4?!", 2), ("O-O!!", 3), ("exd5??", 4)] {
            let e = LenientSan::parse(token.as_bytes()).unwrap_err();
            assert_eq!(
                (e.offset, e.kind),
                (at, ParseSanErrorKind::UnexpectedChar),
                "{token}"
            );
            let e = San::parse(token.as_bytes()).unwrap_err();
            assert_eq!(e.offset, at, "{token}");
        }
    }

    #[test]
    fn names() {
        let flags = Lenience::PAWN_LETTER | Lenience::CAPTURE_MARK;
        assert_eq!(
            flags.to_string(),
            "missing or extra capture mark, pawn letter"
        );
        assert!(flags.contains(Lenience::PAWN_LETTER));
        assert!(!Lenience::NONE.contains(Lenience::PAWN_LETTER));
    }
}
