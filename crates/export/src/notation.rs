//! Moves as text: SAN, long algebraic (LAN), UCI and figurine (FAN), each
//! written into one reused buffer (no allocation per move).

use std::io::Write as _;

use pgnkit_chess::{CastlingMode, Move, Role, San, SanPlus, Square, Uci};
use pgnkit_game::{Game, MoveEvent, PlayedMove};

use crate::layout::Word;
use crate::options::Notation;

/// Writes moves into a reused buffer.
#[derive(Debug, Clone, Default)]
pub(crate) struct MoveWriter {
    buf: Vec<u8>,
    mode: CastlingMode,
    /// Leave out the check and mate suffixes (`+`, `#`).
    no_checks: bool,
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

    /// Whether moves are written with their check and mate suffixes.
    pub(crate) fn set_checks(&mut self, checks: bool) {
        self.no_checks = !checks;
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
        if self.no_checks {
            while let Some(b'+' | b'#') = self.buf.last() {
                self.buf.pop();
            }
        }
        &self.buf
    }
}

/// The canonical SAN of a resolved move with its `+`/`#`, as a [`Word`]:
/// the streaming writer's hot path.
///
/// The chess crate's speller does the work ([`San::write_move_ascii`]: the
/// bytes of [`San::from_move`] then [`San::write_ascii`], put together in a
/// register, a move that needs no disambiguation without building a
/// [`San`]); the tree writer spells with the same crate's calls, so the two
/// writers cannot disagree.
#[inline]
pub(crate) fn san_word(event: &MoveEvent<'_>) -> Word {
    let mut text = [0; 8];
    let len = San::write_move_ascii(event.before, &event.mv, &mut text);
    let mut word = Word::from_san_ascii(&text, len);
    if let Some(suffix) = SanPlus::suffix_of(event.after) {
        word.push(suffix.char() as u8);
    }
    word
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
