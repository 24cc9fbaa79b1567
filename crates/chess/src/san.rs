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
//!
//! This file holds the types and their errors; the work is in `san/`:
//! `parse` (text to [`San`]), `resolve` (a [`San`] to the one legal move),
//! `write` (a move to its canonical SAN and suffix).

mod parse;
mod resolve;
mod write;

pub(crate) use parse::{file_or_rank, square_of};
pub(crate) use resolve::{
    pawn_capture_origin, pawn_push_origin, piece_origin_of_role, plain_move, reach, resolve_normal,
    resolve_pawn_other, the_king,
};

use crate::castling::CastlingSide;
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

impl fmt::Display for San {
    /// Canonical SAN; width, fill and alignment are honoured
    /// (`format!("{san:<6}")`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if f.width().is_none() && f.precision().is_none() {
            return self.write_to(f);
        }
        let mut buf = [0; 8];
        let len = self.write_ascii(&mut buf);
        f.pad(std::str::from_utf8(&buf[..len]).unwrap_or_default())
    }
}

impl FromStr for San {
    type Err = ParseSanError;
    fn from_str(s: &str) -> Result<San, ParseSanError> {
        San::parse(s.as_bytes())
    }
}

impl fmt::Display for SanPlus {
    /// SAN with `+`/`#`; width, fill and alignment are honoured.
    ///
    /// ```
    /// use pgnkit_chess::SanPlus;
    /// let san: SanPlus = "Qxf7#".parse().unwrap();
    /// assert_eq!(format!("[{san:>7}]"), "[  Qxf7#]");
    /// assert_eq!(format!("[{san:-<7}]"), "[Qxf7#--]");
    /// assert_eq!(format!("{san}"), "Qxf7#");
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if f.width().is_none() && f.precision().is_none() {
            return self.write_to(f);
        }
        let mut buf = [0; 8];
        let len = self.write_ascii(&mut buf);
        f.pad(std::str::from_utf8(&buf[..len]).unwrap_or_default())
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
    use super::parse::parse_common_shape;
    use super::*;
    use crate::moves::Move;
    use crate::position::Position;

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

    /// `write_ascii` spells every shape as the letters of the standard say
    /// (piece, start file, start rank, `x`, square, `=` and promotion), and
    /// zeroes the rest of the buffer.
    #[test]
    fn ascii_spelling_of_every_shape() {
        let promotions = [None, Some(Role::Queen), Some(Role::Knight)];
        for role in Role::ALL {
            for to in (0..64).map(Square::new) {
                for from in [Square::A1, Square::H8, Square::new(27)] {
                    for (file, rank) in [
                        (None, None),
                        (Some(from.file()), None),
                        (None, Some(from.rank())),
                        (Some(from.file()), Some(from.rank())),
                    ] {
                        for capture in [false, true] {
                            for promotion in promotions {
                                let san = San::Normal {
                                    role,
                                    file,
                                    rank,
                                    capture,
                                    to,
                                    promotion,
                                };
                                let mut expected = String::new();
                                if role != Role::Pawn {
                                    expected.push(role.upper_char());
                                }
                                expected.extend(file.map(File::char));
                                expected.extend(rank.map(Rank::char));
                                if capture {
                                    expected.push('x');
                                }
                                expected.push(to.file().char());
                                expected.push(to.rank().char());
                                if let Some(p) = promotion {
                                    expected.push('=');
                                    expected.push(p.upper_char());
                                }
                                let mut buf = [0xff; 8];
                                let len = san.write_ascii(&mut buf);
                                assert_eq!(&buf[..len], expected.as_bytes(), "{san:?}");
                                assert!(buf[len..].iter().all(|&b| b == 0), "{san:?}");
                            }
                        }
                    }
                }
            }
        }
        for (san, text) in [
            (San::Null, "--"),
            (San::Castle(CastlingSide::KingSide), "O-O"),
            (San::Castle(CastlingSide::QueenSide), "O-O-O"),
        ] {
            let mut buf = [0xff; 8];
            let len = san.write_ascii(&mut buf);
            assert_eq!(&buf[..len], text.as_bytes());
            assert!(buf[len..].iter().all(|&b| b == 0));
        }
    }

    /// `write_move_ascii` (the writers' fast path) writes the bytes of
    /// `from_move` then `write_ascii` for every legal move of positions with
    /// rivals to disambiguate, promotions, en passant and castling, and of
    /// the positions two plies on.
    #[test]
    fn write_move_ascii_spells_as_from_move() {
        let fens = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "4k3/1P6/8/R4R2/8/N1N5/8/R3K2Q w Q - 0 1",
            "3qk3/8/8/3pP3/8/8/8/Q2QK2Q w - d6 0 1",
        ];
        let mut checked = 0;
        for fen in fens {
            let mut positions = vec![pos(fen)];
            for _ in 0..2 {
                let mut next = Vec::new();
                for p in &positions {
                    for m in p.legal_moves() {
                        let mut fast = [0xff; 8];
                        let len = San::write_move_ascii(p, &m, &mut fast);
                        let mut slow = [0xff; 8];
                        let slow_len = San::from_move(p, m).write_ascii(&mut slow);
                        assert_eq!((fast, len), (slow, slow_len), "{m:?} in {p}");
                        checked += 1;
                        let mut after = p.clone();
                        after.play_unchecked(m);
                        next.push(after);
                    }
                }
                positions = next;
            }
        }
        assert!(checked > 3_000, "{checked}");
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
