//! Moves as text: SAN, long algebraic (LAN), UCI, figurine (FAN), SAN with
//! other piece letters and pgn-extract's long algebraic forms (`lalg`,
//! `halg`, `elalg`, `xlalg`, `xolalg`), each written into one reused buffer
//! (no allocation per move).

use std::io::Write as _;

use pgnkit_chess::{CastlingMode, File, Move, Role, San, SanPlus, Square, Uci};
use pgnkit_game::{Game, MoveEvent, PlayedMove};

use crate::layout::Word;
use crate::letters::PieceLetters;
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
                localize(&mut self.buf, &PieceLetters::FIGURINES);
            }
            Notation::SanLetters(letters) => {
                write_san(&mut self.buf, san);
                localize(&mut self.buf, &letters);
            }
            Notation::Lalg => write_long(&mut self.buf, mv, san, self.mode, Long::LALG),
            Notation::Halg => write_long(&mut self.buf, mv, san, self.mode, Long::HALG),
            Notation::Elalg(letters) => {
                write_long(&mut self.buf, mv, san, self.mode, Long::elalg(letters))
            }
            Notation::Xlalg(letters) => {
                write_long(&mut self.buf, mv, san, self.mode, Long::xlalg(letters))
            }
            Notation::Xolalg(letters) => {
                let castle_as_san = Long {
                    castle_as_san: true,
                    ..Long::xlalg(letters)
                };
                write_long(&mut self.buf, mv, san, self.mode, castle_as_san)
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

/// Replaces the piece letters of the SAN in `buf` (`K Q R B N`: SAN has no
/// other capital letters but the `O` of castling) by `letters`.
fn localize(buf: &mut Vec<u8>, letters: &PieceLetters) {
    let role = |b: u8| match b {
        b'K' => Some(Role::King),
        b'Q' => Some(Role::Queen),
        b'R' => Some(Role::Rook),
        b'B' => Some(Role::Bishop),
        b'N' => Some(Role::Knight),
        _ => None,
    };
    if !buf.iter().any(|&b| role(b).is_some()) {
        return;
    }
    let ascii = std::mem::take(buf);
    for &b in &ascii {
        match role(b) {
            Some(r) => push_char(buf, letters.of(r)),
            None => buf.push(b),
        }
    }
}

fn push_char(buf: &mut Vec<u8>, c: char) {
    let mut utf8 = [0; 4];
    buf.extend_from_slice(c.encode_utf8(&mut utf8).as_bytes());
}

/// What sets pgn-extract's long algebraic forms apart (its `output.c`).
#[derive(Clone, Copy)]
struct Long {
    /// Letters for a piece move and a promotion; `None` for no piece
    /// letter (`lalg`, `halg`: the promotion is then in English).
    letters: Option<PieceLetters>,
    /// The separator between the squares: none, always `-` (`halg`), or
    /// `x` for a capture and `-` otherwise (`xlalg`).
    separator: Separator,
    /// `ep` after an en passant capture.
    en_passant: bool,
    /// Castling as `O-O`/`O-O-O` (`xolalg`), else as the king's move.
    castle_as_san: bool,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Separator {
    None,
    Hyphen,
    CaptureOrHyphen,
}

impl Long {
    const LALG: Long = Long {
        letters: None,
        separator: Separator::None,
        en_passant: false,
        castle_as_san: false,
    };
    const HALG: Long = Long {
        separator: Separator::Hyphen,
        ..Long::LALG
    };

    fn elalg(letters: PieceLetters) -> Long {
        Long {
            letters: Some(letters),
            en_passant: true,
            ..Long::LALG
        }
    }

    fn xlalg(letters: PieceLetters) -> Long {
        Long {
            separator: Separator::CaptureOrHyphen,
            ..Long::elalg(letters)
        }
    }
}

/// Appends `mv` in one of pgn-extract's long algebraic forms, with the
/// `+`/`#` of `san`. Castling is the king's move (`e1g1`), in Chess960 king
/// takes rook (`b1a1`: the king may not move at all), as pgn-extract and UCI
/// write it.
fn write_long(buf: &mut Vec<u8>, mv: &Move, san: &SanPlus, mode: CastlingMode, form: Long) {
    let letters = form.letters.unwrap_or(PieceLetters::ENGLISH);
    let (from, to, capture) = match *mv {
        Move::Null => {
            buf.extend_from_slice(b"--");
            return;
        }
        Move::Castle { king, rook } if form.castle_as_san => {
            let short = rook.file().index() > king.file().index();
            buf.extend_from_slice(if short { b"O-O" } else { b"O-O-O" });
            write_suffix(buf, san);
            return;
        }
        Move::Castle { king, rook } if mode == CastlingMode::Chess960 => (king, rook, false),
        Move::Castle { king, rook } => {
            let file = if rook.file().index() > king.file().index() {
                File::new(6)
            } else {
                File::new(2)
            };
            (king, Square::from_coords(file, king.rank()), false)
        }
        Move::EnPassant { from, to } => (from, to, true),
        Move::Normal {
            role,
            from,
            capture,
            to,
            ..
        } => {
            if role != Role::Pawn && form.letters.is_some() {
                push_char(buf, letters.of(role));
            }
            (from, to, capture.is_some())
        }
    };
    push_square(buf, from);
    match form.separator {
        Separator::None => {}
        Separator::Hyphen => buf.push(b'-'),
        Separator::CaptureOrHyphen => buf.push(if capture { b'x' } else { b'-' }),
    }
    push_square(buf, to);
    if let Move::Normal {
        promotion: Some(role),
        ..
    } = *mv
    {
        push_char(buf, letters.of(role));
    }
    if form.en_passant && matches!(mv, Move::EnPassant { .. }) {
        buf.extend_from_slice(b"ep");
    }
    write_suffix(buf, san);
}

#[cfg(test)]
mod tests {
    use super::*;
    use pgnkit_chess::Position;

    /// Plays `moves` (SAN) from `fen` and writes the last one in `notation`.
    fn last(fen: Option<&str>, moves: &[&str], notation: &str) -> String {
        let mut pos = match fen {
            Some(fen) => Position::from_fen(fen).unwrap(),
            None => Position::new(),
        };
        let mut writer = MoveWriter::default();
        let mut text = String::new();
        for m in moves {
            let mv = m.parse::<San>().unwrap().to_move(&pos).unwrap();
            let san = SanPlus::from_move_and_play_unchecked(&mut pos, mv);
            text = String::from_utf8(
                writer
                    .write_parts(&mv, &san, notation.parse().unwrap())
                    .to_vec(),
            )
            .unwrap();
        }
        text
    }

    #[test]
    fn long_forms_write_as_pgn_extract_does() {
        let ep = ["e4", "a6", "e5", "d5", "exd6"];
        let cases = [
            ("lalg", "e5d6", "Ng1f3", "e1g1", "c7b8Q+"),
            ("halg", "e5-d6", "Ng1-f3", "e1-g1", "c7-b8Q+"),
            ("elalg", "e5d6ep", "Ng1f3", "e1g1", "c7b8Q+"),
            ("xlalg", "e5xd6ep", "Ng1-f3", "e1-g1", "c7xb8Q+"),
            ("xolalg", "e5xd6ep", "Ng1-f3", "O-O", "c7xb8Q+"),
            ("xlalgBSLTDK", "e5xd6ep", "Sg1-f3", "e1-g1", "c7xb8D+"),
        ];
        let castle = ["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "O-O"];
        for (name, en_passant, _, castling, _) in cases {
            assert_eq!(last(None, &ep, name), en_passant, "{name}");
            assert_eq!(last(None, &castle, name), castling, "{name}");
        }
        for (name, _, knight, _, _) in cases {
            let text = last(None, &["e4", "e5", "Nf3"], name);
            let expect = if name.starts_with('x') || name.starts_with('e') {
                knight.to_owned()
            } else {
                knight[1..].to_owned()
            };
            assert_eq!(text, expect, "{name}");
        }
        let fen = Some("1n2k3/2P5/8/8/8/8/8/4K3 w - - 0 1");
        for (name, _, _, _, promotion) in cases {
            assert_eq!(last(fen, &["cxb8=Q+"], name), promotion, "{name}");
        }
        assert_eq!(last(fen, &["cxb8=Q+"], "sanBSLTDK"), "cxb8=D+");
        assert_eq!(last(fen, &["cxb8=Q+"], "fan"), "cxb8=♕+");
        assert_eq!(last(None, &["e4", "e5", "Nf3"], "sanBSLTDK"), "Sf3");
        assert_eq!(last(None, &castle, "sanBSLTDK"), "O-O");
    }
}
