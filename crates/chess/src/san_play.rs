//! Strict SAN straight to a played move: [`Position::play_san`].
//!
//! Parsing a [`San`], resolving it to a [`Move`] and playing that move each
//! match on what the step before built. For the shapes nearly every real
//! move takes (`e4`, `Nf3`, `Nxe5`, `Nbd7`, `exd5`, `O-O`, each maybe with
//! `+` or `#`) this module goes from the bytes to the played move in one
//! step: the shape says which piece moves and how, so the resolution and
//! the move are the ones for that shape alone. Every other text, and every
//! common shape that names no legal move, goes the general way (parse,
//! [`San::to_move`], [`Position::play_unchecked`]); since the general
//! parser reads the common shapes exactly as they are read here (a test of
//! `san.rs` checks it), the result is always that composition's.

use thiserror::Error;

use crate::bitboard::Bitboard;
use crate::castling::CastlingSide;
use crate::moves::Move;
use crate::position::Position;
use crate::role::Role;
use crate::san::{self, ParseSanError, San, SanError};
use crate::square::{File, Rank, Square};

/// Why [`Position::play_san`] played nothing: the SAN error kinds, as
/// shakmaty's `SanError` and `ParseSanError` tell them. One byte, so the
/// result of `play_san` (the reader's call for every move) is as small as
/// an `Option<Move>`; [`San::parse`] says where the syntax is wrong.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Error)]
#[non_exhaustive]
pub enum PlaySanError {
    /// The text is not SAN.
    #[error("invalid SAN")]
    InvalidSyntax,
    /// No legal move fits.
    #[error("illegal move")]
    Illegal,
    /// More than one legal move fits.
    #[error("ambiguous move")]
    Ambiguous,
}

impl From<ParseSanError> for PlaySanError {
    fn from(_: ParseSanError) -> PlaySanError {
        PlaySanError::InvalidSyntax
    }
}

impl From<SanError> for PlaySanError {
    fn from(error: SanError) -> PlaySanError {
        match error {
            SanError::Ambiguous => PlaySanError::Ambiguous,
            _ => PlaySanError::Illegal,
        }
    }
}

impl Position {
    /// Plays the move that the strict SAN `text` names and returns it; a
    /// trailing `+` or `#` is accepted unchecked, as [`San::parse`] does,
    /// and so is an annotation after it (`Nf3!`, `e4!?`, `Qxf7#??`). The
    /// error, with the position unchanged, says why nothing was played:
    /// the text is not SAN, names no legal move, or several.
    ///
    /// The same as `San::parse(text)`, [`San::to_move`] and
    /// [`play_unchecked`](Position::play_unchecked) in one step, and
    /// cheaper: the usual shapes of a move are played without building the
    /// [`San`] first (the game reader's path for nearly every move).
    ///
    /// The text is a `&str` or bytes (anything `AsRef<[u8]>`): `"e4"`,
    /// `b"e4"`, a `String`, a slice of the input.
    ///
    /// ```
    /// use pgnkit_chess::{PlaySanError, Position, Square};
    ///
    /// let mut pos = Position::new();
    /// let e4 = pos.play_san("e4").expect("legal");
    /// assert_eq!(pos.play_san(String::from("e5")).map(|m| m.to()), Ok(Some(Square::E5)));
    /// let mut pos = Position::new();
    /// assert_eq!(pos.play_san(b"e4"), Ok(e4));
    /// let mut pos = Position::new();
    /// let m = pos.play_san(b"Nf3!").expect("legal");
    /// assert_eq!((m.from(), m.to()), (Some(Square::G1), Some(Square::F3)));
    /// // Black has no piece that reaches e4; an `x` needs a capture.
    /// assert_eq!(pos.play_san(b"Ne4"), Err(PlaySanError::Illegal));
    /// assert_eq!(pos.play_san(b"dxe5"), Err(PlaySanError::Illegal));
    /// assert!(matches!(pos.play_san(b"Nz9"), Err(PlaySanError::InvalidSyntax)));
    /// assert_eq!(pos, Position::new().after(m));
    /// let mut pos = Position::from_fen("4k3/8/8/8/8/8/4K3/R6R w - - 0 1").unwrap();
    /// assert_eq!(pos.play_san(b"Rd1"), Err(PlaySanError::Ambiguous));
    /// ```
    // `inline(always)`: the wrapper must vanish, so that the game reader's hot path
    // inlines the byte version as it did before the wrapper (callgrind: `check` took
    // 3.7% more instructions with a plain `#[inline]` here).
    #[inline(always)]
    pub fn play_san(&mut self, text: impl AsRef<[u8]>) -> Result<Move, PlaySanError> {
        self.play_san_bytes(text.as_ref())
    }

    /// [`Position::play_san`] of bytes.
    #[inline]
    fn play_san_bytes(&mut self, text: &[u8]) -> Result<Move, PlaySanError> {
        match self.play_common_shape(text) {
            Some(m) => Ok(m),
            None => self.play_san_general(text),
        }
    }

    /// Plays a move of a common shape; `None` (the position unchanged)
    /// for any other text, or when the move is not legal.
    #[inline(always)]
    fn play_common_shape(&mut self, text: &[u8]) -> Option<Move> {
        let body = match text {
            [body @ .., b'+' | b'#'] => body,
            _ => text,
        };
        // Piece moves: the letter, the start squares allowed, the `x`, the destination.
        let (letter, from, capture, to) = match *body {
            [f, r] => return self.play_push(san::square_of(f, r)?),
            [b'O', b'-', b'O'] => return self.play_castle(CastlingSide::KingSide),
            [p, f, r] => (p, Bitboard::FULL, false, san::square_of(f, r)?),
            [p @ b'a'..=b'h', b'x', f, r] => {
                return self.play_pawn_capture(p, san::square_of(f, r)?);
            }
            [p, b'x', f, r] => (p, Bitboard::FULL, true, san::square_of(f, r)?),
            [p, d, f, r] => (p, start_squares(d)?, false, san::square_of(f, r)?),
            [b'O', b'-', b'O', b'-', b'O'] => return self.play_castle(CastlingSide::QueenSide),
            [p, d, b'x', f, r] => (p, start_squares(d)?, true, san::square_of(f, r)?),
            _ => return None,
        };
        // One way for the five pieces, the role a value read from a table:
        // a jump over the letters (a way per role, each with its role a
        // constant) was mispredicted on most piece moves (perf: a tenth of
        // the game reader's time went to its landings).
        self.play_piece(piece_of_letter(letter)?, from, capture, to)
    }

    /// Any text: parse, resolve, play.
    #[inline(never)]
    fn play_san_general(&mut self, text: &[u8]) -> Result<Move, PlaySanError> {
        let m = San::parse(without_annotation(text))?.to_move(self)?;
        self.play_unchecked(m);
        Ok(m)
    }

    /// A pawn push without promotion (`e4`).
    #[inline(always)]
    fn play_push(&mut self, to: Square) -> Option<Move> {
        let pawns = self.board().by_piece(Role::Pawn.of(self.turn()));
        let from = san::pawn_push_origin(self, pawns, to).ok()?;
        self.play_normal(Role::Pawn, from, None, to);
        Some(san::plain_move(Role::Pawn, from, None, to))
    }

    /// A piece (not pawn) move by one of our pieces of `role` on `from`
    /// squares; `capture` when an `x` was written. The role is a value: no
    /// step of the way branches on it but the king's safety test.
    #[inline(always)]
    fn play_piece(
        &mut self,
        role: Role,
        from: Bitboard,
        capture: bool,
        to: Square,
    ) -> Option<Move> {
        let pieces = self.board().by_piece(role.of(self.turn())) & from;
        let (from, captured) = san::piece_origin_of_role(self, role, pieces, capture, to).ok()?;
        self.play_piece_move(role, from, captured, to);
        Some(san::plain_move(role, from, captured, to))
    }

    /// A pawn capture without promotion (`exd5`, en passant included) from
    /// the file letter `file`; the last rank needs a promotion. Out of
    /// line: a pawn capture is one move in sixteen, and inlined its code
    /// crowds the registers of the other paths.
    #[inline(never)]
    fn play_pawn_capture(&mut self, file: u8, to: Square) -> Option<Move> {
        let file = File::from_byte(file).filter(|&f| f != to.file())?;
        let us = self.turn();
        let pawns = self.board().by_piece(Role::Pawn.of(us)) & Bitboard::from_file(file);
        // Nearly always an enemy piece stands there and it is not a
        // promotion: that case is played here, the rest (en passant) by
        // the general pawn resolution.
        let captured = match self.board().role_at(to) {
            Some(role) if self.board().by_color(us.other()).contains(to) => role,
            _ => return self.play_pawn_other(pawns, to),
        };
        if to.rank() == Rank::Eighth.relative_to(us) {
            return None;
        }
        let king = san::the_king(self)?;
        let from = san::pawn_capture_origin(self, king, pawns, to).ok()?;
        self.play_normal(Role::Pawn, from, Some(captured), to);
        Some(san::plain_move(Role::Pawn, from, Some(captured), to))
    }

    /// A pawn capture by one of our `pawns` onto the empty `to` (en passant).
    #[inline(never)]
    fn play_pawn_other(&mut self, pawns: Bitboard, to: Square) -> Option<Move> {
        let m = san::resolve_pawn_other(self, pawns, true, to, None).ok()?;
        self.play_unchecked(m);
        Some(m)
    }

    /// Castling on `side`: the king on e1 (e8) with its corner rook the
    /// constant way, any other placement the general way. Out of line: one
    /// move in forty, and inlined its code crowds the registers of the
    /// other paths (callgrind: `check` 4% more instructions).
    #[inline(never)]
    fn play_castle(&mut self, side: CastlingSide) -> Option<Move> {
        if let Some(m) = self.play_corner_castle(side) {
            return m;
        }
        let m = self.castling_move(side)?;
        self.play_unchecked(m);
        Some(m)
    }
}

/// The piece (not pawn) roles by their SAN letter, from `B` (66) on.
const PIECE_LETTERS: [Option<Role>; 17] = {
    let mut table = [None; 17];
    let roles = [
        Role::Bishop,
        Role::King,
        Role::Knight,
        Role::Queen,
        Role::Rook,
    ];
    let mut i = 0;
    while i < roles.len() {
        table[(roles[i].upper_char() as u8 - b'B') as usize] = Some(roles[i]);
        i += 1;
    }
    table
};

/// The role a piece letter (`N`, `B`, `R`, `Q`, `K`) names, read from a
/// table rather than branched on.
#[inline(always)]
fn piece_of_letter(letter: u8) -> Option<Role> {
    PIECE_LETTERS
        .get(usize::from(letter.wrapping_sub(b'B')))
        .copied()
        .flatten()
}

/// The start squares a disambiguating file or rank byte allows (`Nbd7`, `R1e2`).
#[inline(always)]
fn start_squares(d: u8) -> Option<Bitboard> {
    match san::file_or_rank(d)? {
        (Some(file), _) => Some(Bitboard::from_file(file)),
        (_, Some(rank)) => Some(Bitboard::from_rank(rank)),
        (None, None) => None,
    }
}

/// `text` without an annotation glyph at its end (`!`, `?`, `!!`, `!?`,
/// `?!`, `??`), which says nothing about the move.
fn without_annotation(text: &[u8]) -> &[u8] {
    let end = text
        .iter()
        .rposition(|&b| b != b'!' && b != b'?')
        .map_or(0, |i| i + 1);
    match text.len() - end {
        1 | 2 => &text[..end],
        _ => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::san::SanPlus;

    /// What `play_san` must do: parse, resolve, play.
    fn composed(pos: &mut Position, text: &[u8]) -> Option<Move> {
        let m = San::parse(text).ok()?.to_move(pos).ok()?;
        pos.play_unchecked(m);
        Some(m)
    }

    fn assert_same(pos: &Position, text: &[u8]) {
        let (mut fused, mut general) = (pos.clone(), pos.clone());
        let m = fused.play_san(text);
        assert_eq!(
            m.ok(),
            composed(&mut general, text),
            "{pos} {}",
            String::from_utf8_lossy(text)
        );
        assert_eq!(fused, general, "{pos} {}", String::from_utf8_lossy(text));
        assert_eq!(fused.checkers(), general.checkers());
        assert_eq!(fused.double_push_square(), general.double_push_square());
    }

    /// Busy positions: castling both ways, en passant, promotions with and
    /// without capture, pins, checks and Chess960 castling.
    const STARTS: [&str; 7] = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    ];

    /// Every legal move of every position of a walk from each start, in
    /// its canonical SAN with and without the suffix, and some near misses
    /// (wrong capture mark, over-disambiguation, a missing piece letter).
    #[test]
    fn agrees_with_parse_resolve_play() {
        let mut texts = 0;
        for fen in STARTS {
            let mut pos = Position::from_fen(fen).unwrap();
            for ply in 0..60usize {
                let moves = pos.legal_moves();
                for &m in moves.iter() {
                    let plain = San::from_move(&pos, m).to_string();
                    let plus = SanPlus::from_move(&pos, m).to_string();
                    let mut variants = vec![plain.clone(), plus, format!("{plain}+")];
                    variants.push(plain.replace('x', ""));
                    if let (Some(from), Some(to)) = (m.from(), m.to()) {
                        let letter = m.role().map_or('P', |r| r.upper_char());
                        variants.push(format!("{letter}{from}{to}"));
                        variants.push(format!("{letter}x{to}"));
                        variants.push(format!("{}{to}", from.file().char()));
                        variants.push(format!("{letter}{}{to}", from.rank().char()));
                        variants.push(format!("{letter}{}x{to}", from.file().char()));
                    }
                    for text in &variants {
                        assert_same(&pos, text.as_bytes());
                        texts += 1;
                    }
                }
                if moves.is_empty() {
                    break;
                }
                pos.play_unchecked(moves[(ply * 7 + 3) % moves.len()]);
            }
        }
        assert!(texts > 10_000, "only {texts} texts tried");
    }

    #[test]
    fn rejects_what_is_not_strict_san() {
        let pos = Position::new();
        for text in [
            "", "e", "e5", "e2e4", "Nf3!!!", "0-0", "O-O", "--+", "exd3", "Ng1f4", "P", "Nxf3",
            "N", "Ke2", "e8=Q", "Ra3", "!?",
        ] {
            let mut p = pos.clone();
            assert!(p.play_san(text.as_bytes()).is_err(), "{text}");
            assert_eq!(p, pos, "{text}");
        }
        let mut p = pos.clone();
        assert_eq!(p.play_san(b"--"), Ok(Move::Null));
        assert_eq!(p.turn(), crate::color::Color::Black);
    }

    #[test]
    fn the_result_is_as_small_as_an_option() {
        // Larger, it is returned through memory and the reader's per-move
        // call measurably slows down.
        assert_eq!(
            std::mem::size_of::<Result<Move, PlaySanError>>(),
            std::mem::size_of::<Option<Move>>()
        );
    }

    #[test]
    fn errors_say_why_and_annotations_are_ignored() {
        let pos = Position::new();
        for (text, expected) in [
            ("e5", Err(PlaySanError::Illegal)),
            ("Nxf3", Err(PlaySanError::Illegal)),
            ("Ke2", Err(PlaySanError::Illegal)),
            ("Nf3!", Ok("Nf3")),
            ("e4!?", Ok("e4")),
            ("Nc3??", Ok("Nc3")),
            ("Nf3+?!", Ok("Nf3")),
        ] {
            let mut p = pos.clone();
            let got = p.play_san(text.as_bytes());
            let expected =
                expected.map(|t| San::parse(t.as_bytes()).unwrap().to_move(&pos).unwrap());
            assert_eq!(got, expected, "{text}");
        }
        let mut p = pos.clone();
        assert!(matches!(
            p.play_san(b"Nf3!!!"),
            Err(PlaySanError::InvalidSyntax)
        ));
        assert!(matches!(
            p.play_san(b"e9"),
            Err(PlaySanError::InvalidSyntax)
        ));
        let mut p = Position::from_fen("4k3/8/8/8/8/8/4K3/R6R w - - 0 1").unwrap();
        assert_eq!(p.play_san(b"Rd1"), Err(PlaySanError::Ambiguous));
        assert_eq!(
            p.play_san(b"Rad1").map(|m| m.from()),
            Ok(Some(crate::Square::A1))
        );
    }

    proptest::proptest! {
        #[test]
        fn agrees_on_arbitrary_text(
            start in 0..STARTS.len(),
            s in proptest::collection::vec(
                proptest::sample::select(b"abcdefgh12345678xNBRQKPO-=+#".as_slice()),
                0..8,
            ),
        ) {
            assert_same(&Position::from_fen(STARTS[start]).unwrap(), &s);
        }
    }
}
