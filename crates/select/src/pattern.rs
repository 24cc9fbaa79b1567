//! Board patterns (`pattern "..."` in a query): a board written as the
//! piece placement of a FEN, with wildcards, as pgn-extract's `--fenpattern`.
//!
//! Eight ranks separated by `/`, the 8th rank first, each rank read from the
//! a-file to the h-file. A rank is a run of these, which must cover exactly
//! eight squares:
//!
//! | written | the square must be |
//! |---|---|
//! | `K Q R B N P` | that white piece |
//! | `k q r b n p` | that black piece |
//! | `1`...`8` | that many empty squares (as in a FEN) |
//! | `_` or `-` | empty |
//! | `A` | any white piece |
//! | `a` | any black piece |
//! | `!` | any piece (occupied) |
//! | `?` | anything (empty or not) |
//! | `*` | any run of squares, zero or more (anything on each) |
//!
//! So a digit means empty squares, as in a FEN and in pgn-extract; a
//! Scoutfish `sub-fen` ("only the pieces written count") is written with
//! `*` for each rank that does not matter and `?` (or `*`) for the squares
//! that do not: Scoutfish's `8/8/8/8/8/8/8/4K3` is `*/*/*/*/*/*/*/????K*`.
//!
//! ```
//! use pgnkit_chess::Position;
//! use pgnkit_select::Pattern;
//! let start = Position::new();
//! // A white king on e1, black rooks in both corners of the 8th rank.
//! let p = Pattern::parse("r*r/*/*/*/*/*/*/????K*").unwrap();
//! assert!(p.matches(start.board()));
//! // An empty e4 and a white piece on d2.
//! assert!(Pattern::parse("*/*/*/*/????_*/*/???A*/*").unwrap().matches(start.board()));
//! assert!(!Pattern::parse("8/8/8/8/8/8/8/8").unwrap().matches(start.board()));
//! assert!(Pattern::parse("*/*/*/*/*/*/*").is_err());
//! ```

use pgnkit_chess::{Board, Color, Piece};

use crate::needs::Needs;

/// What one square of a pattern admits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Square {
    Any,
    Empty,
    Occupied,
    White,
    Black,
    Piece(Piece),
}

/// One way a rank may look: for each kind of demand, the files (bits 0..8,
/// a-file first) where it holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
struct RankMasks {
    empty: u8,
    occupied: u8,
    white: u8,
    black: u8,
    /// By piece: white pawn..king, then black pawn..king.
    pieces: [u8; 12],
}

/// The most ways one rank may be read (its `*`s spread over the squares).
const MAX_ALTERNATIVES: usize = 512;

/// The bytes of one rank of a board, by kind, as [`RankMasks`] demands them.
#[derive(Debug, Clone, Copy)]
struct RankBytes {
    occupied: u8,
    white: u8,
    black: u8,
    pieces: [u8; 12],
}

fn piece_index(piece: Piece) -> usize {
    let role = piece.role as usize;
    role + if piece.color == Color::White { 0 } else { 6 }
}

impl RankMasks {
    fn of(squares: &[Square; 8]) -> RankMasks {
        let mut m = RankMasks::default();
        for (file, sq) in squares.iter().enumerate() {
            let bit = 1u8 << file;
            match sq {
                Square::Any => {}
                Square::Empty => m.empty |= bit,
                Square::Occupied => m.occupied |= bit,
                Square::White => m.white |= bit,
                Square::Black => m.black |= bit,
                Square::Piece(p) => m.pieces[piece_index(*p)] |= bit,
            }
        }
        m
    }

    fn admits(&self, r: &RankBytes) -> bool {
        r.occupied & self.empty == 0
            && r.occupied & self.occupied == self.occupied
            && r.white & self.white == self.white
            && r.black & self.black == self.black
            && self
                .pieces
                .iter()
                .zip(&r.pieces)
                .all(|(&want, &have)| have & want == want)
    }
}

/// One board pattern: what the ranks that may look one way only demand, as
/// masks of the whole board (tested first, with a few bitboard operations),
/// then each other rank (index 0 the 1st) and the ways it may look.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Board8 {
    fixed: Fixed,
    open: Vec<(usize, Vec<RankMasks>)>,
}

/// [`RankMasks`] over the whole board.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
struct Fixed {
    empty: u64,
    occupied: u64,
    white: u64,
    black: u64,
    /// The pieces demanded somewhere, and where.
    pieces: Vec<(Piece, u64)>,
}

impl Fixed {
    #[inline]
    fn admits(&self, board: &Board) -> bool {
        let white = board.white().0;
        let black = board.black().0;
        let occupied = white | black;
        occupied & self.empty == 0
            && occupied & self.occupied == self.occupied
            && white & self.white == self.white
            && black & self.black == self.black
            && self
                .pieces
                .iter()
                .all(|&(piece, want)| board.by_piece(piece).0 & want == want)
    }
}

/// A board pattern, or several (any of them matches): see the module docs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pattern {
    boards: Vec<Board8>,
    /// The squares any of the boards reads ([`Pattern::squares`]).
    squares: u64,
    /// Whether there is one board, whose ranks are all fixed (most patterns):
    /// then its [`Fixed`] masks alone decide.
    one_fixed: bool,
    /// What each board's fixed ranks demand ([`Pattern::out_of_reach`]).
    needs: Vec<Needs>,
}

impl Pattern {
    /// Reads one pattern; `Err` says what is wrong and the byte where.
    pub fn parse(text: &str) -> Result<Pattern, (usize, String)> {
        Ok(Pattern::of(vec![parse_board(text)?]))
    }

    /// Any of several patterns (each read as [`Pattern::parse`]).
    pub fn any_of(patterns: Vec<Pattern>) -> Pattern {
        Pattern::of(patterns.into_iter().flat_map(|p| p.boards).collect())
    }

    fn of(boards: Vec<Board8>) -> Pattern {
        let squares = boards.iter().fold(0, |all, b| all | b.squares());
        let one_fixed = matches!(boards.as_slice(), [only] if only.open.is_empty());
        let needs = boards
            .iter()
            .map(|b| {
                let f = &b.fixed;
                Needs::of(&f.pieces, f.white, f.black, f.occupied)
            })
            .collect();
        Pattern {
            boards,
            squares,
            one_fixed,
            needs,
        }
    }

    /// Whether no board reached from `board` can match (see `needs.rs`):
    /// each board of the pattern demands men (those of its fixed ranks;
    /// an open rank's are left out) that are gone for good.
    pub(crate) fn out_of_reach(&self, board: &Board) -> bool {
        self.needs.iter().all(|n| n.out_of_reach(board))
    }

    /// The squares whose contents the pattern reads (a bit per square, a1
    /// first): a board that differs from another only elsewhere matches
    /// exactly when the other does.
    pub(crate) fn squares(&self) -> u64 {
        self.squares
    }

    /// Whether `board` fits the pattern (or one of the patterns).
    #[inline]
    pub fn matches(&self, board: &Board) -> bool {
        // Most patterns: one board whose ranks are all fixed, tested inline.
        if self.one_fixed
            && let Some(only) = self.boards.first()
        {
            return only.fixed.admits(board);
        }
        self.matches_open(board)
    }

    /// [`matches`](Pattern::matches) for several boards or open ranks.
    #[inline(never)]
    fn matches_open(&self, board: &Board) -> bool {
        // The pieces' bitboards, made once and only for a board with open ranks
        // whose fixed ones fit.
        let mut pieces: Option<[u64; 12]> = None;
        self.boards.iter().any(|b| {
            b.fixed.admits(board)
                && (b.open.is_empty()
                    || b.open_admits(board, pieces.get_or_insert_with(|| by_piece(board))))
        })
    }
}

/// The bitboard of each piece: white pawn..king, then black pawn..king.
fn by_piece(board: &Board) -> [u64; 12] {
    let mut pieces = [0u64; 12];
    for (i, p) in pieces.iter_mut().enumerate() {
        let color = if i < 6 { Color::White } else { Color::Black };
        let role = pgnkit_chess::Role::ALL[i % 6];
        *p = board.by_piece(Piece { color, role }).0;
    }
    pieces
}

impl Board8 {
    /// The squares it reads: those the fixed ranks demand something of, and
    /// every square of an open rank.
    fn squares(&self) -> u64 {
        let f = &self.fixed;
        let pieces = f.pieces.iter().fold(0, |all, &(_, want)| all | want);
        let open = self
            .open
            .iter()
            .fold(0, |all, &(r, _)| all | 0xff_u64 << (8 * r));
        f.empty | f.occupied | f.white | f.black | pieces | open
    }

    /// Whether each open rank of `board` (whose bitboards by piece are
    /// `pieces`) looks one of the ways it may.
    fn open_admits(&self, board: &Board, pieces: &[u64; 12]) -> bool {
        let white = board.white().0;
        let black = board.black().0;
        let rank = |r: usize| {
            let byte = |bb: u64| (bb >> (8 * r)) as u8;
            RankBytes {
                occupied: byte(white | black),
                white: byte(white),
                black: byte(black),
                pieces: pieces.map(byte),
            }
        };
        self.open
            .iter()
            .all(|(r, ways)| ways.iter().any(|w| w.admits(&rank(*r))))
    }
}

/// One element of a written rank.
#[derive(Debug, Clone, Copy)]
enum Element {
    Square(Square),
    Run,
}

fn parse_board(text: &str) -> Result<Board8, (usize, String)> {
    let mut ranks: Vec<Vec<RankMasks>> = Vec::with_capacity(8);
    let mut start = 0usize;
    for (n, part) in text.split('/').enumerate() {
        if n == 8 {
            return Err((
                start.saturating_sub(1),
                "more than eight ranks (a pattern is the board of a FEN, without side to move)"
                    .to_string(),
            ));
        }
        ranks.push(parse_rank(part, start)?);
        start += part.len() + 1;
    }
    if ranks.len() != 8 {
        return Err((
            text.len().saturating_sub(1),
            format!(
                "{} ranks: a pattern has eight, separated by `/`",
                ranks.len()
            ),
        ));
    }
    // Written from the 8th rank; kept from the 1st.
    ranks.reverse();
    let mut fixed = Fixed::default();
    let mut open = Vec::new();
    let mut pieces = [0u64; 12];
    for (r, ways) in ranks.into_iter().enumerate() {
        match <[RankMasks; 1]>::try_from(ways) {
            Ok([only]) => {
                let at = |m: u8| u64::from(m) << (8 * r);
                fixed.empty |= at(only.empty);
                fixed.occupied |= at(only.occupied);
                fixed.white |= at(only.white);
                fixed.black |= at(only.black);
                for (all, m) in pieces.iter_mut().zip(only.pieces) {
                    *all |= at(m);
                }
            }
            Err(ways) => open.push((r, ways)),
        }
    }
    for (i, want) in pieces.into_iter().enumerate() {
        if want != 0 {
            let color = if i < 6 { Color::White } else { Color::Black };
            let role = pgnkit_chess::Role::ALL[i % 6];
            fixed.pieces.push((Piece { color, role }, want));
        }
    }
    Ok(Board8 { fixed, open })
}

/// One rank (`text`, at byte `at` of the pattern): the ways it may look.
fn parse_rank(text: &str, at: usize) -> Result<Vec<RankMasks>, (usize, String)> {
    let mut elements = Vec::new();
    for (i, c) in text.char_indices() {
        let e = match c {
            '1'..='8' => {
                for _ in 0..(c as u8 - b'0') {
                    elements.push(Element::Square(Square::Empty));
                }
                continue;
            }
            '_' | '-' => Element::Square(Square::Empty),
            '?' => Element::Square(Square::Any),
            '!' => Element::Square(Square::Occupied),
            'A' => Element::Square(Square::White),
            'a' => Element::Square(Square::Black),
            '*' => Element::Run,
            _ => match Piece::from_char(c) {
                Some(p) => Element::Square(Square::Piece(p)),
                None => {
                    return Err((
                        at + i,
                        format!(
                            "`{c}` is not a square of a pattern (a piece letter, 1-8, `_`, `?`, `!`, `A`, `a`, `*` or `/`)"
                        ),
                    ));
                }
            },
        };
        // Runs next to each other are one run.
        if matches!(e, Element::Run) && matches!(elements.last(), Some(Element::Run)) {
            continue;
        }
        elements.push(e);
    }
    let fixed = elements
        .iter()
        .filter(|e| matches!(e, Element::Square(_)))
        .count();
    let where_ = at + text.len().saturating_sub(1);
    if fixed > 8 {
        return Err((where_, format!("this rank has {fixed} squares, not 8")));
    }
    let runs = elements.len() - fixed;
    if runs == 0 && fixed < 8 {
        return Err((
            where_,
            format!("this rank has {fixed} squares, not 8 (`*` for any run of squares)"),
        ));
    }
    let mut ways = Vec::new();
    let mut squares = [Square::Any; 8];
    spread(&elements, 8 - fixed, 0, &mut squares, &mut ways);
    if ways.len() > MAX_ALTERNATIVES {
        return Err((at, "too many ways to read this rank's `*`s".to_string()));
    }
    ways.dedup();
    Ok(ways)
}

/// Every way of giving `free` squares to the runs of `elements`, from file
/// `file` on: each a rank's masks.
fn spread(
    elements: &[Element],
    free: usize,
    file: usize,
    squares: &mut [Square; 8],
    ways: &mut Vec<RankMasks>,
) {
    if ways.len() > MAX_ALTERNATIVES {
        return;
    }
    let Some((first, rest)) = elements.split_first() else {
        if free == 0 && file == 8 {
            let m = RankMasks::of(squares);
            if !ways.contains(&m) {
                ways.push(m);
            }
        }
        return;
    };
    match first {
        Element::Square(s) => {
            squares[file] = *s;
            spread(rest, free, file + 1, squares, ways);
        }
        Element::Run => {
            let last_run = !rest.iter().any(|e| matches!(e, Element::Run));
            let counts = if last_run { free..=free } else { 0..=free };
            for n in counts {
                for sq in &mut squares[file..file + n] {
                    *sq = Square::Any;
                }
                spread(rest, free - n, file + n, squares, ways);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pgnkit_chess::Position;

    fn board(fen: &str) -> Board {
        *Position::from_fen(fen).unwrap().board()
    }

    #[test]
    fn a_full_fen_board_is_an_exact_pattern() {
        let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R";
        let b = board(&format!("{fen} w KQkq - 2 3"));
        assert!(Pattern::parse(fen).unwrap().matches(&b));
        assert!(
            !Pattern::parse("rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R")
                .unwrap()
                .matches(&b)
        );
    }

    #[test]
    fn wildcards() {
        let b = board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
        for (p, want) in [
            ("*/*/??a*/*/????A*/*/*/*", true),
            ("*/*/??A*/*/*/*/*/*", false),
            ("*/*/*/*/*/?????N??/*/*", true),
            ("*/*/*/*/*/*N/*/*", false),
            ("*/*/*/*/*/*N??/*/*", true),
            ("*/*/*/*/*/*!*/*/*", true),
            ("*/*/*/8/*/*/*/*", false),
            ("*/*/*/____p___/*/*/*/*", true),
            ("*/*/*/----p---/*/*/*/*", true),
            ("*/*/*/*p*p*/*/*/*/*", false),
            ("*/*/*/**/*/*/*/*", true),
            ("????????/*/*/*/*/*/*/*", true),
        ] {
            assert_eq!(Pattern::parse(p).unwrap().matches(&b), want, "{p}");
        }
    }

    #[test]
    fn any_of_several() {
        let b = board("8/8/8/8/8/8/8/K1k5 w - - 0 1");
        let one = |p| Pattern::parse(p).unwrap();
        assert!(!one("*/*/*/*/*/*/*/k*").matches(&b));
        assert!(
            Pattern::any_of(vec![one("*/*/*/*/*/*/*/k*"), one("*/*/*/*/*/*/*/K*")]).matches(&b)
        );
    }

    #[test]
    fn errors_say_where() {
        assert_eq!(Pattern::parse("*/*/*/*/*/*/*/*/*").unwrap_err().0, 15);
        assert_eq!(Pattern::parse("*/*/*/*/*/*/*").unwrap_err().0, 12);
        assert_eq!(Pattern::parse("*/*/*/*/x*/*/*/*").unwrap_err().0, 8);
        assert_eq!(Pattern::parse("*/*/*/7/*/*/*/*").unwrap_err().0, 6);
        assert_eq!(Pattern::parse("*/*/*/9/*/*/*/*").unwrap_err().0, 6);
        assert_eq!(Pattern::parse("*/*/*/ppppppppp/*/*/*/*").unwrap_err().0, 14);
    }
}
