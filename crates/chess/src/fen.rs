//! FEN: [`Setup`] (a parsed, not yet validated position) and [`FenOptions`].
//!
//! Reading is strict FEN plus these lax forms (SPEC-NOTES, "FEN"):
//! - the halfmove clock and fullmove number may be missing (read as `0 1`),
//!   and fields may be separated by more than one space;
//! - castling in X-FEN (`KQkq` meaning the outermost rook on that side, file
//!   letters for inner rooks) and Shredder-FEN (`HAha`);
//! - en passant in the 1994 form (after every double push) and the modern
//!   form (only when a legal capture exists); validation keeps the square
//!   only when a legal capture exists.
//!
//! Writing uses the modern en passant rule and X-FEN by default;
//! [`FenOptions`] selects the 1994 rule or Shredder-FEN.

use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::castling::{CastlingMode, CastlingSide};
use crate::color::Color;
use crate::role::Piece;
use crate::square::{File, Rank, Square};
use core::fmt;
use core::str::FromStr;
use thiserror::Error;

/// A position as written in a FEN, not yet checked for legality.
///
/// ```
/// use pgnkit_chess::{CastlingMode, Position, Setup};
///
/// // Parsed but not validated: a FEN with no kings is still a Setup.
/// let empty: Setup = "8/8/8/8/8/8/8/8 w - - 0 1".parse().unwrap();
/// assert!(Position::from_setup(empty, CastlingMode::Standard).is_err());
/// // Shredder-FEN castling letters ask for Chess960.
/// let setup = Setup::parse(b"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9").unwrap();
/// assert_eq!(setup.castling_mode(), CastlingMode::Chess960);
/// let pos = Position::from_setup(setup, CastlingMode::Chess960).unwrap();
/// assert_eq!(pos.fullmoves(), 9);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Setup {
    /// Piece placement.
    pub board: Board,
    /// Side to move.
    pub turn: Color,
    /// Rook squares with castling rights (X-FEN `K` already resolved to the
    /// outermost rook; a right without a rook is dropped).
    pub castling_rights: Bitboard,
    /// The en passant square as written.
    pub ep_square: Option<Square>,
    /// Halfmoves since the last capture or pawn move.
    pub halfmoves: u32,
    /// Fullmove number as written (0 is kept here; positions use 1).
    pub fullmoves: u32,
    /// `true` if the castling field used file letters.
    pub castling_file_letters: bool,
}

impl Default for Setup {
    /// The standard starting position.
    fn default() -> Setup {
        Setup {
            board: Board::new(),
            turn: Color::White,
            castling_rights: Bitboard::CORNERS,
            ep_square: None,
            halfmoves: 0,
            fullmoves: 1,
            castling_file_letters: false,
        }
    }
}

/// How to write the en passant square.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum EnPassantMode {
    /// Only when a legal en passant capture exists (modern FEN, default).
    #[default]
    Legal,
    /// After every double pawn push (the 1994 standard).
    Always,
}

/// How to write castling rights.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum CastlingNotation {
    /// `KQkq` for the outermost rooks, file letters for others (default).
    #[default]
    XFen,
    /// Always file letters (`HAha`).
    Shredder,
}

/// Options for writing FEN.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct FenOptions {
    /// En passant rule.
    pub en_passant: EnPassantMode,
    /// Castling notation.
    pub castling: CastlingNotation,
}

impl FenOptions {
    /// Modern en passant and X-FEN (the default).
    pub const fn new() -> FenOptions {
        FenOptions {
            en_passant: EnPassantMode::Legal,
            castling: CastlingNotation::XFen,
        }
    }

    /// With the 1994 en passant rule.
    pub const fn en_passant_1994(mut self) -> FenOptions {
        self.en_passant = EnPassantMode::Always;
        self
    }

    /// With Shredder-FEN castling.
    pub const fn shredder(mut self) -> FenOptions {
        self.castling = CastlingNotation::Shredder;
        self
    }
}

fn err(field: FenField, offset: usize, kind: FenErrorKind) -> ParseFenError {
    ParseFenError {
        field,
        offset,
        kind,
    }
}

/// Splits on runs of spaces, giving each field with its byte offset.
struct Fields<'a> {
    s: &'a [u8],
    pos: usize,
}

impl<'a> Iterator for Fields<'a> {
    type Item = (usize, &'a [u8]);
    fn next(&mut self) -> Option<(usize, &'a [u8])> {
        while self.pos < self.s.len() && self.s[self.pos] == b' ' {
            self.pos += 1;
        }
        if self.pos >= self.s.len() {
            return None;
        }
        let start = self.pos;
        while self.pos < self.s.len() && self.s[self.pos] != b' ' {
            self.pos += 1;
        }
        Some((start, &self.s[start..self.pos]))
    }
}

fn parse_board(field: &[u8], base: usize) -> Result<Board, ParseFenError> {
    let mut board = Board::empty();
    let mut rank = 7i32;
    let mut file = 0u32;
    for (i, &b) in field.iter().enumerate() {
        let at = base + i;
        match b {
            b'/' => {
                if file < 8 {
                    return Err(err(FenField::Board, at, FenErrorKind::RankTooShort));
                }
                rank -= 1;
                file = 0;
                if rank < 0 {
                    return Err(err(FenField::Board, at, FenErrorKind::WrongRankCount));
                }
            }
            b'1'..=b'8' => {
                file += u32::from(b - b'0');
                if file > 8 {
                    return Err(err(FenField::Board, at, FenErrorKind::RankTooLong));
                }
            }
            _ => {
                let piece = Piece::from_char(b as char)
                    .filter(|_| b.is_ascii_alphabetic())
                    .ok_or_else(|| err(FenField::Board, at, FenErrorKind::UnexpectedChar))?;
                if file >= 8 {
                    return Err(err(FenField::Board, at, FenErrorKind::RankTooLong));
                }
                board.put_piece_at(
                    Square::from_coords(File::new(file), Rank::new(rank as u32)),
                    piece,
                );
                file += 1;
            }
        }
    }
    let end = base + field.len();
    if rank != 0 {
        return Err(err(FenField::Board, end, FenErrorKind::WrongRankCount));
    }
    if file < 8 {
        return Err(err(FenField::Board, end, FenErrorKind::RankTooShort));
    }
    Ok(board)
}

/// Resolves an X-FEN `K`/`Q` right: the outermost rook of `color` on that
/// side of its king, on its back rank.
fn outermost_rook(board: &Board, color: Color, side: CastlingSide) -> Option<Square> {
    let backrank = Rank::First.relative_to(color);
    let king = (board.kings() & board.by_color(color) & Bitboard::from_rank(backrank)).first()?;
    let mut rooks = board.rooks() & board.by_color(color) & Bitboard::from_rank(backrank);
    match side {
        CastlingSide::KingSide => rooks.rfind(|r| r.file() > king.file()),
        CastlingSide::QueenSide => rooks.find(|r| r.file() < king.file()),
    }
}

fn parse_castling(
    field: &[u8],
    base: usize,
    board: &Board,
) -> Result<(Bitboard, bool), ParseFenError> {
    if field == b"-" {
        return Ok((Bitboard::EMPTY, false));
    }
    let mut rights = Bitboard::EMPTY;
    let mut seen = 0u32;
    let mut letters = false;
    for (i, &b) in field.iter().enumerate() {
        let at = base + i;
        let color = if b.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let lower = b.to_ascii_lowercase();
        let (key, rook) = match lower {
            b'k' => (8, outermost_rook(board, color, CastlingSide::KingSide)),
            b'q' => (9, outermost_rook(board, color, CastlingSide::QueenSide)),
            b'a'..=b'h' => {
                letters = true;
                let file = File::new(u32::from(lower - b'a'));
                (
                    u32::from(lower - b'a'),
                    Some(Square::from_coords(file, Rank::First.relative_to(color))),
                )
            }
            _ => return Err(err(FenField::Castling, at, FenErrorKind::UnexpectedChar)),
        };
        let bit = 1 << (key + if color.is_white() { 0 } else { 16 });
        if seen & bit != 0 {
            return Err(err(
                FenField::Castling,
                at,
                FenErrorKind::DuplicateCastlingRight,
            ));
        }
        seen |= bit;
        if let Some(rook) = rook {
            rights.add(rook);
        }
    }
    Ok((rights, letters))
}

fn parse_number(field: &[u8], base: usize, which: FenField) -> Result<u32, ParseFenError> {
    let mut n: u32 = 0;
    for (i, &b) in field.iter().enumerate() {
        if !b.is_ascii_digit() {
            return Err(err(which, base + i, FenErrorKind::UnexpectedChar));
        }
        n = n
            .checked_mul(10)
            .and_then(|n| n.checked_add(u32::from(b - b'0')))
            .ok_or_else(|| err(which, base + i, FenErrorKind::NumberTooLarge))?;
    }
    Ok(n)
}

impl Setup {
    /// The empty board, White to move, no rights.
    pub fn empty() -> Setup {
        Setup {
            board: Board::empty(),
            turn: Color::White,
            castling_rights: Bitboard::EMPTY,
            ep_square: None,
            halfmoves: 0,
            fullmoves: 1,
            castling_file_letters: false,
        }
    }

    /// Parses a FEN (strict plus the lax forms in the module docs). Leading
    /// and trailing spaces are ignored.
    pub fn parse(fen: &[u8]) -> Result<Setup, ParseFenError> {
        let mut fields = Fields { s: fen, pos: 0 };
        let (board_at, board_field) = fields
            .next()
            .ok_or_else(|| err(FenField::Board, fen.len(), FenErrorKind::Missing))?;
        let board = parse_board(board_field, board_at)?;

        let (turn_at, turn_field) = fields
            .next()
            .ok_or_else(|| err(FenField::Turn, fen.len(), FenErrorKind::Missing))?;
        let turn = match turn_field {
            b"w" => Color::White,
            b"b" => Color::Black,
            _ => {
                let bad = if matches!(turn_field.first(), Some(b'w' | b'b')) {
                    1
                } else {
                    0
                };
                return Err(err(
                    FenField::Turn,
                    turn_at + bad,
                    FenErrorKind::UnexpectedChar,
                ));
            }
        };

        let (castling_at, castling_field) = fields
            .next()
            .ok_or_else(|| err(FenField::Castling, fen.len(), FenErrorKind::Missing))?;
        let (castling_rights, castling_file_letters) =
            parse_castling(castling_field, castling_at, &board)?;

        let (ep_at, ep_field) = fields
            .next()
            .ok_or_else(|| err(FenField::EnPassant, fen.len(), FenErrorKind::Missing))?;
        let ep_square = if ep_field == b"-" {
            None
        } else {
            match ep_field {
                [f, r] => {
                    if File::from_byte(*f).is_none() {
                        return Err(err(
                            FenField::EnPassant,
                            ep_at,
                            FenErrorKind::UnexpectedChar,
                        ));
                    }
                    if !matches!(r, b'3' | b'6') {
                        return Err(err(
                            FenField::EnPassant,
                            ep_at + 1,
                            FenErrorKind::UnexpectedChar,
                        ));
                    }
                    Square::from_ascii(ep_field)
                }
                _ => {
                    let bad = match ep_field.first() {
                        Some(f) if File::from_byte(*f).is_some() => {
                            if ep_field.get(1).is_some_and(|r| matches!(r, b'3' | b'6')) {
                                2
                            } else {
                                1
                            }
                        }
                        _ => 0,
                    };
                    return Err(err(
                        FenField::EnPassant,
                        ep_at + bad,
                        FenErrorKind::UnexpectedChar,
                    ));
                }
            }
        };

        let mut halfmoves = 0;
        let mut fullmoves = 1;
        if let Some((at, field)) = fields.next() {
            halfmoves = parse_number(field, at, FenField::Halfmoves)?;
            if let Some((at, field)) = fields.next() {
                fullmoves = parse_number(field, at, FenField::Fullmoves)?;
            }
        }
        if let Some((at, _)) = fields.next() {
            return Err(err(FenField::Trailing, at, FenErrorKind::TooManyFields));
        }

        Ok(Setup {
            board,
            turn,
            castling_rights,
            ep_square,
            halfmoves,
            fullmoves,
            castling_file_letters,
        })
    }

    /// Which castling rules this setup needs: Chess960 when the castling
    /// field used file letters, or when a right is impossible in standard
    /// chess (king off the e-file or rook off its corner) but valid as X-FEN.
    pub fn castling_mode(&self) -> CastlingMode {
        if self.castling_file_letters {
            return CastlingMode::Chess960;
        }
        for rook in self.castling_rights {
            let color = if rook.rank() == Rank::First {
                Color::White
            } else {
                Color::Black
            };
            let king_home = Square::E1.relative_to(color);
            let standard_king =
                (self.board.kings() & self.board.by_color(color)).contains(king_home);
            if !standard_king || !Bitboard::CORNERS.contains(rook) {
                return CastlingMode::Chess960;
            }
        }
        CastlingMode::Standard
    }

    /// Writes this setup as FEN, castling in the given notation.
    pub fn write_fen(&self, out: &mut impl fmt::Write, castling: CastlingNotation) -> fmt::Result {
        self.board.write_fen(out)?;
        out.write_char(' ')?;
        out.write_char(self.turn.char())?;
        out.write_char(' ')?;
        write_castling(out, &self.board, self.castling_rights, castling)?;
        out.write_char(' ')?;
        match self.ep_square {
            Some(sq) => write!(out, "{sq}")?,
            None => out.write_char('-')?,
        }
        out.write_char(' ')?;
        write_number(out, self.halfmoves)?;
        out.write_char(' ')?;
        write_number(out, self.fullmoves)
    }
}

impl Setup {
    /// Appends this setup as FEN, castling in the given notation, to `out`:
    /// the bytes [`Setup::write_fen`] writes, without the formatting
    /// machinery (a FEN written after every move).
    pub fn push_fen(&self, out: &mut Vec<u8>, castling: CastlingNotation) {
        self.board.push_fen(out);
        out.push(b' ');
        out.push(self.turn.char() as u8);
        out.push(b' ');
        // Writing into a Vec cannot fail.
        let _ = write_castling(
            &mut PushBytes(out),
            &self.board,
            self.castling_rights,
            castling,
        );
        out.push(b' ');
        match self.ep_square {
            Some(sq) => {
                out.push(sq.file().char() as u8);
                out.push(sq.rank().char() as u8);
            }
            None => out.push(b'-'),
        }
        out.push(b' ');
        push_number(out, self.halfmoves);
        out.push(b' ');
        push_number(out, self.fullmoves);
    }
}

/// Text written as bytes into a `Vec` (all of it ASCII here).
struct PushBytes<'a>(&'a mut Vec<u8>);

impl fmt::Write for PushBytes<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.0.extend_from_slice(s.as_bytes());
        Ok(())
    }
}

/// Appends `n` in decimal.
fn push_number(out: &mut Vec<u8>, n: u32) {
    let (buf, start) = digits(n);
    out.extend_from_slice(buf.get(start..).unwrap_or_default());
}

/// Writes `n` in decimal (what `write!(out, "{n}")` writes, without the
/// formatting machinery: a FEN may be written after every move).
fn write_number(out: &mut impl fmt::Write, n: u32) -> fmt::Result {
    let (buf, start) = digits(n);
    // Digits only.
    out.write_str(std::str::from_utf8(buf.get(start..).unwrap_or_default()).unwrap_or_default())
}

/// `n`'s decimal digits at the end of a buffer, and where they start.
fn digits(mut n: u32) -> ([u8; 10], usize) {
    let mut buf = [b'0'; 10];
    let mut start = buf.len();
    loop {
        start -= 1;
        if let Some(digit) = buf.get_mut(start) {
            *digit = b'0' + (n % 10) as u8;
        }
        n /= 10;
        if n == 0 {
            break;
        }
    }
    (buf, start)
}

fn write_castling(
    out: &mut impl fmt::Write,
    board: &Board,
    rights: Bitboard,
    notation: CastlingNotation,
) -> fmt::Result {
    if rights.is_empty() {
        return out.write_char('-');
    }
    for color in Color::ALL {
        let backrank = Bitboard::from_rank(Rank::First.relative_to(color));
        let mine = rights & backrank;
        let king = (board.kings() & board.by_color(color) & backrank).first();
        // King side (higher files) first, then queen side.
        for rook in mine.rev() {
            let side = match king {
                Some(k) => CastlingSide::from_king_and_rook(k, rook),
                None => CastlingSide::KingSide,
            };
            let ch = if notation == CastlingNotation::XFen
                && outermost_rook(board, color, side) == Some(rook)
            {
                match side {
                    CastlingSide::KingSide => 'k',
                    CastlingSide::QueenSide => 'q',
                }
            } else {
                rook.file().char()
            };
            out.write_char(if color.is_white() {
                ch.to_ascii_uppercase()
            } else {
                ch
            })?;
        }
    }
    Ok(())
}

impl FromStr for Setup {
    type Err = ParseFenError;
    fn from_str(s: &str) -> Result<Setup, ParseFenError> {
        Setup::parse(s.as_bytes())
    }
}

impl fmt::Display for Setup {
    /// FEN with X-FEN castling and the en passant square as stored.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_fen(f, CastlingNotation::XFen)
    }
}

// Errors of this module (gathered in `error.rs`).

/// The FEN field in which an error was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FenField {
    /// Piece placement.
    Board,
    /// Side to move.
    Turn,
    /// Castling availability.
    Castling,
    /// En passant target square.
    EnPassant,
    /// Halfmove clock.
    Halfmoves,
    /// Fullmove number.
    Fullmoves,
    /// Text after the last field.
    Trailing,
}

impl fmt::Display for FenField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FenField::Board => "piece placement",
            FenField::Turn => "side to move",
            FenField::Castling => "castling",
            FenField::EnPassant => "en passant",
            FenField::Halfmoves => "halfmove clock",
            FenField::Fullmoves => "fullmove number",
            FenField::Trailing => "trailing",
        })
    }
}

/// What is wrong in a FEN field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum FenErrorKind {
    /// The text is empty or the field is missing.
    Missing,
    /// A character that does not belong in this field.
    UnexpectedChar,
    /// A rank describes more than eight squares.
    RankTooLong,
    /// A rank describes fewer than eight squares.
    RankTooShort,
    /// Not exactly eight ranks.
    WrongRankCount,
    /// A castling right appears twice, or more than two for one color.
    DuplicateCastlingRight,
    /// A number that is too large.
    NumberTooLarge,
    /// More fields than a FEN has.
    TooManyFields,
}

impl fmt::Display for FenErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FenErrorKind::Missing => "missing",
            FenErrorKind::UnexpectedChar => "unexpected character",
            FenErrorKind::RankTooLong => "rank has more than 8 squares",
            FenErrorKind::RankTooShort => "rank has fewer than 8 squares",
            FenErrorKind::WrongRankCount => "not 8 ranks",
            FenErrorKind::DuplicateCastlingRight => "duplicate castling right",
            FenErrorKind::NumberTooLarge => "number too large",
            FenErrorKind::TooManyFields => "too many fields",
        })
    }
}

/// A FEN could not be parsed: which field, which byte, and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[error("invalid FEN: {kind} in {field} field at byte {offset}")]
pub struct ParseFenError {
    /// The field holding the error.
    pub field: FenField,
    /// Byte offset of the offending character (or of the end of the text
    /// for a missing field).
    pub offset: usize,
    /// What is wrong.
    pub kind: FenErrorKind,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn push_fen_writes_the_bytes_write_fen_writes() {
        let fens = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "8/8/8/8/8/8/8/K6k b - - 99 120",
            "7k/P7/8/2pP4/8/8/8/K7 w - c6 0 2",
            "r3k2r/1p1bqpb1/p1np1np1/4p2p/2B1P3/1PN1BN2/P1P1QPPP/R3K2R b KQkq - 3 11",
            "k7/8/8/8/8/8/8/7K w - - 0 1",
            "K7/8/8/8/8/8/8/7k w - - 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1",
        ];
        for fen in fens {
            let setup: Setup = fen.parse().unwrap();
            for castling in [CastlingNotation::Shredder, CastlingNotation::XFen] {
                let mut text = String::new();
                setup.write_fen(&mut text, castling).unwrap();
                let mut bytes = b"x".to_vec();
                setup.push_fen(&mut bytes, castling);
                assert_eq!(bytes, format!("x{text}").as_bytes(), "{fen}");
            }
        }
    }

    #[test]
    fn numbers_as_format_writes_them() {
        for n in [0, 7, 10, 99, 100, 4_294_967_295] {
            let mut s = String::new();
            write_number(&mut s, n).unwrap();
            assert_eq!(s, n.to_string());
        }
    }

    fn fen_err(fen: &str) -> ParseFenError {
        match Setup::parse(fen.as_bytes()) {
            Err(e) => e,
            Ok(s) => panic!("{fen} parsed as {s}"),
        }
    }

    #[test]
    fn start_position_round_trip() {
        let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let setup: Setup = fen.parse().unwrap();
        assert_eq!(setup, Setup::default());
        assert_eq!(setup.to_string(), fen);
        assert_eq!(setup.castling_mode(), CastlingMode::Standard);
    }

    #[test]
    fn lax_forms() {
        let setup = Setup::parse(b"  4k3/8/8/8/8/8/8/4K3   w  -  -  ").unwrap();
        assert_eq!((setup.halfmoves, setup.fullmoves), (0, 1));
        let setup = Setup::parse(b"4k3/8/8/8/8/8/8/4K3 w - - 7").unwrap();
        assert_eq!((setup.halfmoves, setup.fullmoves), (7, 1));
        let shredder =
            Setup::parse(b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1").unwrap();
        assert_eq!(shredder.castling_rights, Bitboard::CORNERS);
        assert_eq!(shredder.castling_mode(), CastlingMode::Chess960);
        // KQkq that only X-FEN can mean: king on f1.
        let xfen =
            Setup::parse(b"rnbqkrbn/pppppppp/8/8/8/8/PPPPPPPP/RNBQKRBN w KQkq - 0 1").unwrap();
        assert_eq!(xfen.castling_mode(), CastlingMode::Chess960);
        assert!(xfen.castling_rights.contains(Square::F1));
        assert!(xfen.castling_rights.contains(Square::A8));
        // Inner rook with a file letter, outer rook with K.
        let inner = Setup::parse(b"4k3/8/8/8/8/8/8/R1R1K1RR w KG - 0 1").unwrap();
        assert!(inner.castling_rights.contains(Square::H1));
        assert!(inner.castling_rights.contains(Square::G1));
        let mut out = String::new();
        inner.write_fen(&mut out, CastlingNotation::XFen).unwrap();
        assert!(out.contains(" KG "), "{out}");
        out.clear();
        inner
            .write_fen(&mut out, CastlingNotation::Shredder)
            .unwrap();
        assert!(out.contains(" HG "), "{out}");
    }

    #[test]
    fn errors_name_field_and_byte() {
        let e = fen_err("");
        assert_eq!((e.field, e.kind), (FenField::Board, FenErrorKind::Missing));
        let e = fen_err("rnbqkbnr/ppppXppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        assert_eq!(
            (e.field, e.offset, e.kind),
            (FenField::Board, 13, FenErrorKind::UnexpectedChar)
        );
        let e = fen_err("rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        assert_eq!((e.offset, e.kind), (17, FenErrorKind::RankTooLong));
        let e = fen_err("rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        assert_eq!((e.offset, e.kind), (16, FenErrorKind::RankTooShort));
        let e = fen_err("rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        assert_eq!(e.kind, FenErrorKind::WrongRankCount);
        let e = fen_err("8/8/8/8/8/8/8/8/8 w - - 0 1");
        assert_eq!((e.offset, e.kind), (15, FenErrorKind::WrongRankCount));
        let e = fen_err("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        assert_eq!((e.offset, e.kind), (18, FenErrorKind::UnexpectedChar));
        let e = fen_err("4k3/8/8/8/8/8/8/4K3");
        assert_eq!((e.field, e.kind), (FenField::Turn, FenErrorKind::Missing));
        let e = fen_err("4k3/8/8/8/8/8/8/4K3 x - - 0 1");
        assert_eq!((e.field, e.offset), (FenField::Turn, 20));
        let e = fen_err("4k3/8/8/8/8/8/8/4K3 wb - - 0 1");
        assert_eq!((e.field, e.offset), (FenField::Turn, 21));
        let e = fen_err("4k3/8/8/8/8/8/8/4K3 w");
        assert_eq!(
            (e.field, e.kind),
            (FenField::Castling, FenErrorKind::Missing)
        );
        let e = fen_err("4k3/8/8/8/8/8/8/4K3 w KX - 0 1");
        assert_eq!(
            (e.field, e.offset, e.kind),
            (FenField::Castling, 23, FenErrorKind::UnexpectedChar)
        );
        let e = fen_err("4k3/8/8/8/8/8/8/4K3 w KK - 0 1");
        assert_eq!(
            (e.offset, e.kind),
            (23, FenErrorKind::DuplicateCastlingRight)
        );
        let e = fen_err("4k3/8/8/8/8/8/8/4K3 w -");
        assert_eq!(
            (e.field, e.kind),
            (FenField::EnPassant, FenErrorKind::Missing)
        );
        let e = fen_err("4k3/8/8/8/8/8/8/4K3 w - e4 0 1");
        assert_eq!((e.field, e.offset), (FenField::EnPassant, 25));
        let e = fen_err("4k3/8/8/8/8/8/8/4K3 w - x3 0 1");
        assert_eq!((e.field, e.offset), (FenField::EnPassant, 24));
        let e = fen_err("4k3/8/8/8/8/8/8/4K3 w - e3x 0 1");
        assert_eq!((e.field, e.offset), (FenField::EnPassant, 26));
        let e = fen_err("4k3/8/8/8/8/8/8/4K3 w - - x 1");
        assert_eq!((e.field, e.offset), (FenField::Halfmoves, 26));
        let e = fen_err("4k3/8/8/8/8/8/8/4K3 w - - 0 1a");
        assert_eq!(
            (e.field, e.offset, e.kind),
            (FenField::Fullmoves, 29, FenErrorKind::UnexpectedChar)
        );
        let e = fen_err("4k3/8/8/8/8/8/8/4K3 w - - 0 99999999999");
        assert_eq!(
            (e.field, e.kind),
            (FenField::Fullmoves, FenErrorKind::NumberTooLarge)
        );
        let e = fen_err("4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra");
        assert_eq!(
            (e.field, e.offset, e.kind),
            (FenField::Trailing, 30, FenErrorKind::TooManyFields)
        );
        assert!(e.to_string().contains("byte 30"));
    }
}
