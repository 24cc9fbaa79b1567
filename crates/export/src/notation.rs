//! Moves as text: SAN, long algebraic (LAN), UCI and figurine (FAN), each
//! written into one reused buffer (no allocation per move).

use std::io::Write as _;

use pgnkit_chess::{CastlingMode, Move, Position, Role, San, SanPlus, Square, Uci, attacks};
use pgnkit_game::{Game, MoveEvent, PlayedMove};

use crate::layout::Word;
use crate::options::Notation;

/// Writes moves into a reused buffer.
#[derive(Debug, Clone, Default)]
pub(crate) struct MoveWriter {
    buf: Vec<u8>,
    mode: CastlingMode,
}

impl MoveWriter {
    /// Prepares for the moves of `game` (its castling mode, for UCI).
    pub(crate) fn set_game(&mut self, game: &Game) {
        self.mode = game.start_position().castling_mode();
    }

    /// Sets the castling mode directly (streaming).
    pub(crate) fn set_mode(&mut self, mode: CastlingMode) {
        self.mode = mode;
    }

    /// The text of `played` in `notation`.
    pub(crate) fn write(&mut self, played: &PlayedMove, notation: Notation) -> &[u8] {
        self.write_parts(&played.mv, &played.san, notation)
    }

    /// The text of the move `mv` whose SAN is `san`, in `notation`.
    pub(crate) fn write_parts(&mut self, mv: &Move, san: &SanPlus, notation: Notation) -> &[u8] {
        self.buf.clear();
        match notation {
            Notation::San => write_san(&mut self.buf, san),
            Notation::Fan => {
                write_san(&mut self.buf, san);
                to_figurines(&mut self.buf);
            }
            Notation::Lan => {
                write_lan(&mut self.buf, mv);
                if !matches!(mv, Move::Null) {
                    write_suffix(&mut self.buf, san);
                }
            }
            Notation::Uci => {
                // Writing into a Vec cannot fail.
                let _ = write!(self.buf, "{}", Uci::from_move(*mv, self.mode));
            }
        }
        &self.buf
    }
}

/// The canonical SAN of a resolved move with its `+`/`#`, as a [`Word`].
///
/// Why not [`SanPlus::from_move`]: this is the streaming writer's hot path,
/// and [`San::from_move`] (which looks for other pieces that could make the
/// move) is asked only for a piece move that may need disambiguating: most
/// moves are pawn or king moves, or piece moves that no other piece of the
/// kind could even reach. The text is written by [`San::write_ascii`] into
/// eight bytes, the same as the tree writer's (the corpus tests compare the
/// two writers).
#[inline]
pub(crate) fn san_word(event: &MoveEvent<'_>) -> Word {
    let mut word = match event.mv {
        Move::Normal {
            role,
            from,
            capture,
            to,
            promotion,
        } if !may_need_disambiguation(event.before, role, from, to) => {
            plain_san(role, from, capture.is_some(), to, promotion)
        }
        mv => {
            let mut text = [0; 8];
            let len = San::from_move(event.before, mv).write_ascii(&mut text);
            Word::from_array(&text, len)
        }
    };
    if let Some(suffix) = SanPlus::suffix_of(event.after) {
        word.push(suffix.char() as u8);
    }
    word
}

/// The SAN of a move that needs no disambiguation (see [`san_word`]),
/// without its suffix: what [`San::write_ascii`] writes for it, built in a
/// register from its parts (a piece letter or a pawn capture's file, the
/// `x`, the square, the promotion) rather than byte by byte through an
/// array, because nearly every move of a game takes this path.
#[inline(always)]
fn plain_san(role: Role, from: Square, capture: bool, to: Square, promotion: Option<Role>) -> Word {
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
            Word::from_bits(bits | tail << (8 * (head_len + 2)), head_len + 4)
        }
        None => Word::from_bits(bits, head_len + 2),
    }
}

/// Whether a piece of `role` moving from `from` to `to` may need its
/// file or rank written: another piece of the kind stands on a line to
/// `to` (on an empty board; [`San::from_move`] then decides). Pawns and
/// kings never do.
#[inline(always)]
fn may_need_disambiguation(pos: &Position, role: Role, from: Square, to: Square) -> bool {
    let reach = match role {
        Role::Pawn | Role::King => return false,
        Role::Knight => attacks::knight_attacks(to),
        Role::Bishop => attacks::bishop_rays(to),
        Role::Rook => attacks::rook_rays(to),
        Role::Queen => attacks::bishop_rays(to) | attacks::rook_rays(to),
    };
    let ours = pos.board().by_piece(role.of(pos.turn())).without(from);
    (ours & reach).any()
}

/// Appends canonical SAN with its `+`/`#` suffix.
pub(crate) fn write_san(buf: &mut Vec<u8>, san: &SanPlus) {
    san.append_to(buf);
}

/// Appends the `+`/`#` of `san`, if any.
fn write_suffix(buf: &mut Vec<u8>, san: &SanPlus) {
    if let Some(suffix) = san.suffix {
        buf.push(suffix.char() as u8);
    }
}

fn push_square(buf: &mut Vec<u8>, sq: Square) {
    buf.push(sq.file().char() as u8);
    buf.push(sq.rank().char() as u8);
}

/// Appends the long algebraic form of `mv` (without check suffix).
pub(crate) fn write_lan(buf: &mut Vec<u8>, mv: &Move) {
    match *mv {
        Move::Normal {
            role,
            from,
            capture,
            to,
            promotion,
        } => {
            if role != Role::Pawn {
                buf.push(role.upper_char() as u8);
            }
            push_square(buf, from);
            buf.push(if capture.is_some() { b'x' } else { b'-' });
            push_square(buf, to);
            if let Some(p) = promotion {
                buf.push(b'=');
                buf.push(p.upper_char() as u8);
            }
        }
        Move::EnPassant { from, to } => {
            push_square(buf, from);
            buf.push(b'x');
            push_square(buf, to);
        }
        Move::Castle { king, rook } => {
            if rook.file().index() > king.file().index() {
                buf.extend_from_slice(b"O-O");
            } else {
                buf.extend_from_slice(b"O-O-O");
            }
        }
        Move::Null => buf.extend_from_slice(b"--"),
    }
}

/// Replaces the piece letters of the SAN in `buf` by figurines.
fn to_figurines(buf: &mut Vec<u8>) {
    if !buf
        .iter()
        .any(|b| matches!(b, b'K' | b'Q' | b'R' | b'B' | b'N'))
    {
        return;
    }
    let mut tmp = [0u8; 32];
    let mut n = 0;
    for &b in buf.iter() {
        let figurine: &str = match b {
            b'K' => "♔",
            b'Q' => "♕",
            b'R' => "♖",
            b'B' => "♗",
            b'N' => "♘",
            _ => {
                if n < tmp.len() {
                    tmp[n] = b;
                }
                n += 1;
                continue;
            }
        };
        for &fb in figurine.as_bytes() {
            if n < tmp.len() {
                tmp[n] = fb;
            }
            n += 1;
        }
    }
    if n <= tmp.len() {
        buf.clear();
        buf.extend_from_slice(&tmp[..n]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `plain_san` spells every undisambiguated shape as `San::write_ascii`
    /// does: it is a second speller, kept only for speed.
    #[test]
    fn plain_san_spells_as_write_ascii() {
        let promotions = [
            None,
            Some(Role::Queen),
            Some(Role::Rook),
            Some(Role::Bishop),
            Some(Role::Knight),
        ];
        for role in Role::ALL {
            for from in (0..64).map(Square::new) {
                for to in (0..64).map(Square::new) {
                    for capture in [false, true] {
                        let promos = if role == Role::Pawn {
                            &promotions[..]
                        } else {
                            &promotions[..1]
                        };
                        for &promotion in promos {
                            let san = San::Normal {
                                role,
                                file: (role == Role::Pawn && capture).then(|| from.file()),
                                rank: None,
                                capture,
                                to,
                                promotion,
                            };
                            let mut expected = [0u8; 8];
                            let len = san.write_ascii(&mut expected);
                            let word = plain_san(role, from, capture, to, promotion);
                            assert_eq!(word.bytes()[..len], expected[..len], "{san:?}");
                            assert_eq!(word.bytes()[len..], [0; 8][len..], "{san:?}");
                        }
                    }
                }
            }
        }
    }
}
