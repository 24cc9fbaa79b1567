//! Writing SAN: [`San::from_move`] with minimal disambiguation among legal
//! moves, the `+`/`#` suffix ([`SanPlus::suffix_of`]), and the allocation-free
//! writers (`write_ascii` into an 8-byte buffer, `write_to`, `append_to`).

use super::resolve::{piece_move_is_safe, reaching};
use super::{San, SanPlus, Suffix};
use crate::bitboard::Bitboard;
use crate::castling::CastlingSide;
use crate::moves::Move;
use crate::position::Position;
use crate::role::Role;
use crate::square::{File, Rank, Square};
use core::fmt;

impl San {
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

impl SanPlus {
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
