//! Writing SAN: [`San::from_move`] with minimal disambiguation among legal
//! moves, the `+`/`#` suffix ([`SanPlus::suffix_of`]), and the allocation-free
//! writers (`write_ascii` into an 8-byte buffer, `write_to`, `append_to`).

use super::resolve::{piece_move_is_safe, reaching};
use super::{San, SanPlus, Suffix};
use crate::attacks;
use crate::bitboard::Bitboard;
use crate::castling::CastlingSide;
use crate::moves::Move;
use crate::position::Position;
use crate::role::Role;
use crate::square::{File, Rank, Square};
use core::fmt;

impl San {
    /// The canonical SAN of the legal move `m` (minimal disambiguation).
    #[inline(always)]
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
                // One dispatch on the role: each piece's lines to `to` on
                // an empty board are known here, so the common no-rival test
                // is one table lookup.
                let (file, rank) = match role {
                    Role::Pawn => (capture.map(|_| from.file()), None),
                    Role::King => (None, None),
                    Role::Knight => disambiguate(pos, role, from, to, attacks::knight_attacks(to)),
                    Role::Bishop => disambiguate(pos, role, from, to, attacks::bishop_rays(to)),
                    Role::Rook => disambiguate(pos, role, from, to, attacks::rook_rays(to)),
                    Role::Queen => disambiguate(
                        pos,
                        role,
                        from,
                        to,
                        attacks::bishop_rays(to) | attacks::rook_rays(to),
                    ),
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

    /// Writes the SAN as ASCII into `buf`, returning the length (at most 7);
    /// the bytes after it are set to zero.
    ///
    /// The bytes are put together in a `u64` (first byte lowest) and stored
    /// at once: inlined into a caller that keeps the text in a register (the
    /// streaming exporter), no byte goes through memory.
    #[inline]
    pub fn write_ascii(&self, buf: &mut [u8; 8]) -> usize {
        let (bits, len) = self.ascii_bits();
        *buf = bits.to_le_bytes();
        len
    }

    /// Writes the SAN of the legal move `m` into `buf` as
    /// [`San::from_move`] then [`write_ascii`](San::write_ascii) do (the
    /// same bytes), returning the length.
    ///
    /// The writers' hot path: a normal move that no other piece of its kind
    /// stands on a line to reach (nearly every move: pawn and king moves
    /// always) needs no disambiguation, so its text is put together from the
    /// move's parts in a register; other moves go through
    /// [`San::from_move`], out of line.
    ///
    /// ```
    /// use pgnkit_chess::{Position, San};
    /// let pos = Position::new();
    /// let mv = San::parse(b"Nf3")?.to_move(&pos)?;
    /// let mut buf = [0; 8];
    /// let len = San::write_move_ascii(&pos, &mv, &mut buf);
    /// assert_eq!(&buf[..len], b"Nf3");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline(always)]
    pub fn write_move_ascii(pos: &Position, m: &Move, buf: &mut [u8; 8]) -> usize {
        // Matched in place (by reference): the fields are read one by one,
        // not loaded as one five-byte value and taken apart with shifts.
        let (bits, len) = match *m {
            Move::Normal {
                role,
                from,
                capture,
                to,
                promotion,
            } if !may_have_rival(pos, role, from, to) => {
                plain_bits(role, from, capture.is_some(), to, promotion)
            }
            _ => San::from_move_out_of_line(pos, *m).ascii_bits(),
        };
        *buf = bits.to_le_bytes();
        len
    }

    /// [`San::from_move`], not inlined: the rare moves of
    /// [`write_move_ascii`](San::write_move_ascii).
    #[inline(never)]
    fn from_move_out_of_line(pos: &Position, m: Move) -> San {
        San::from_move(pos, m)
    }

    /// The SAN's bytes in a `u64`, first byte lowest, zero padded, and its
    /// length.
    #[inline(always)]
    fn ascii_bits(&self) -> (u64, usize) {
        const fn word(text: &[u8]) -> (u64, usize) {
            let mut bits = 0;
            let mut i = 0;
            while i < text.len() {
                bits |= (text[i] as u64) << (8 * i);
                i += 1;
            }
            (bits, text.len())
        }
        match *self {
            San::Null => const { word(b"--") },
            San::Castle(CastlingSide::KingSide) => const { word(b"O-O") },
            San::Castle(CastlingSide::QueenSide) => const { word(b"O-O-O") },
            San::Normal {
                role,
                file,
                rank,
                capture,
                to,
                promotion,
            } => normal_bits(role, file, rank, capture, to, promotion),
        }
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

/// [`normal_bits`] of a move that needs no disambiguation (a pawn capture
/// names its start file, nothing else names a start square): the same bytes
/// (a test checks every move), in fewer steps, as nearly every move of a
/// game is spelled this way.
#[inline(always)]
fn plain_bits(
    role: Role,
    from: Square,
    capture: bool,
    to: Square,
    promotion: Option<Role>,
) -> (u64, usize) {
    let byte = |c: char| u64::from(c as u8);
    let square = byte(to.file().char()) | byte(to.rank().char()) << 8;
    let head = match role {
        Role::Pawn if capture => byte(from.file().char()),
        Role::Pawn => 0,
        _ => byte(role.upper_char()),
    };
    let head_len = usize::from(head != 0);
    let (head, head_len) = if capture {
        (head | byte('x') << (8 * head_len), head_len + 1)
    } else {
        (head, head_len)
    };
    let bits = head | square << (8 * head_len);
    match promotion {
        Some(p) => {
            let tail = byte('=') | byte(p.upper_char()) << 8;
            (bits | tail << (8 * (head_len + 2)), head_len + 4)
        }
        None => (bits, head_len + 2),
    }
}

/// The bytes of a [`San::Normal`] with these parts in a `u64`, first byte
/// lowest, zero padded, and its length: the one spelling of a piece or pawn
/// move.
#[inline(always)]
fn normal_bits(
    role: Role,
    file: Option<File>,
    rank: Option<Rank>,
    capture: bool,
    to: Square,
    promotion: Option<Role>,
) -> (u64, usize) {
    let byte = |c: char| u64::from(c as u8);
    // Piece letter, start file, start rank, `x`: each maybe.
    let mut len = usize::from(role != Role::Pawn);
    let mut bits = if len == 1 { byte(role.upper_char()) } else { 0 };
    if let Some(f) = file {
        bits |= byte(f.char()) << (8 * len);
        len += 1;
    }
    if let Some(r) = rank {
        bits |= byte(r.char()) << (8 * len);
        len += 1;
    }
    if capture {
        bits |= byte('x') << (8 * len);
        len += 1;
    }
    // The destination, then the promotion (`len` is at most 4 here, so
    // every shift stays below 64).
    bits |= (byte(to.file().char()) | byte(to.rank().char()) << 8) << (8 * len);
    len += 2;
    if let Some(p) = promotion {
        bits |= (byte('=') | byte(p.upper_char()) << 8) << (8 * len);
        len += 2;
    }
    (bits, len)
}

/// Whether a piece of `role` moving from `from` to `to` may need its file
/// or rank written: another piece of its kind stands on a line to `to` (on
/// an empty board). Pawns and kings never do. The test [`San::from_move`]
/// makes first ([`disambiguate`]), asked before it.
#[inline(always)]
fn may_have_rival(pos: &Position, role: Role, from: Square, to: Square) -> bool {
    let lines = match role {
        Role::Pawn | Role::King => return false,
        Role::Knight => attacks::knight_attacks(to),
        Role::Bishop => attacks::bishop_rays(to),
        Role::Rook => attacks::rook_rays(to),
        Role::Queen => attacks::bishop_rays(to) | attacks::rook_rays(to),
    };
    let ours = pos.board().by_piece(role.of(pos.turn())).without(from);
    (ours & lines).any()
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
}

/// Minimal disambiguation of a piece move among legal moves: none, file,
/// rank, or both. `lines` are the squares from which a piece of `role`
/// could reach `to` on an empty board. Most moves have no other piece of
/// their kind even on such a line (one test, inlined into the writers); only
/// when some do are the rivals looked at ([`rivals`], out of line).
#[inline(always)]
fn disambiguate(
    pos: &Position,
    role: Role,
    from: Square,
    to: Square,
    lines: Bitboard,
) -> (Option<File>, Option<Rank>) {
    let ours = pos.board().by_piece(role.of(pos.turn())).without(from);
    if (ours & lines).is_empty() {
        (None, None)
    } else {
        rivals(pos, role, ours, from, to)
    }
}

/// [`disambiguate`] when some of `ours` (the other pieces of `role`) stand
/// on a line to `to`: those that reach it ([`reaching`]), and of those the
/// ones that may legally move there ([`disambiguate_among`]).
#[inline(never)]
fn rivals(
    pos: &Position,
    role: Role,
    ours: Bitboard,
    from: Square,
    to: Square,
) -> (Option<File>, Option<Rank>) {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_bits_spell_as_normal_bits() {
        let promotions = [None, Some(Role::Knight), Some(Role::Queen)];
        for role in Role::ALL {
            for from in (0..64).map(Square::new) {
                for to in (0..64).map(Square::new) {
                    for capture in [false, true] {
                        for promotion in promotions {
                            let file = (role == Role::Pawn && capture).then(|| from.file());
                            assert_eq!(
                                plain_bits(role, from, capture, to, promotion),
                                normal_bits(role, file, None, capture, to, promotion),
                                "{role:?} {from:?} {capture} {to:?} {promotion:?}"
                            );
                        }
                    }
                }
            }
        }
    }
}
