//! Polyglot opening books (`.bin`, `pgnkit book`): built from the main
//! lines of games ([`make_book`]), written as Polyglot's entries
//! ([`BookEntry::to_bytes`], [`write_book`]) and read back ([`Book`],
//! [`Book::probe`]), so that engines, GUIs and python-chess's
//! `chess.polyglot` read what pgnkit writes.
//!
//! # The format
//!
//! A book is a sequence of 16-byte big-endian entries: the position's
//! Polyglot key (8 bytes, [`Position::polyglot_key`]), the move (2), the
//! weight (2) and a learn field (4, written 0), sorted by key so that a
//! reader finds a position with a binary search. A move is `to | from << 6 |
//! promotion << 12` with squares from a1 = 0 to h8 = 63 and the promotion 1
//! (knight) to 4 (queen); castling is the king taking its own rook (`e1h1`),
//! as pgnkit-chess spells it in every variant.
//!
//! # How a book is made
//!
//! As Polyglot's `make-book` (`book_make.c`): every move of a game's main
//! line played before ply [`BookOptions::max_ply`] scores for the side that
//! played it 2 points for a win, 1 for a draw and 0 for a loss; a game
//! without a result (`*`) scores 1 as Polyglot counts it. A move's weight is
//! its points (or 1 with [`BookOptions::uniform`]); a move played in fewer
//! than [`BookOptions::min_games`] games (3 by default, as Polyglot), one
//! that never scored, or one under [`BookOptions::min_score`] is left out.
//! Entries of one key are sorted by weight, highest first (Polyglot's
//! order: a reader that takes the first entry takes the best), then by
//! move. Where this differs from Polyglot: a game that plays the same move
//! from the same position twice counts once (as in the opening tree), and
//! the weights of a position whose greatest weight passes 65,535 are all
//! halved until it fits (Polyglot halves a position's counts each time one
//! reaches 16,384 games, so the weights depend on the games' order).
//! Games with errors are left out, as the index leaves them out.

use std::collections::HashMap;
use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use pgnkit_chess::{Move, Position, SanPlus, Uci};
use pgnkit_game::ReadOptions;
use serde::Serialize;

use crate::error::IndexError;
use crate::game_info::{Filter, Side};
use crate::record::{NO_MOVE, read_exact_at};
use crate::scan::read_sources;

/// How a book is made (Polyglot `make-book`'s options).
#[derive(Debug, Clone, PartialEq)]
pub struct BookOptions {
    /// Moves played from positions before this ply (from each game's
    /// start) count: 20 by default.
    pub max_ply: u32,
    /// Moves played in fewer games are left out: 3 by default (Polyglot's).
    pub min_games: u64,
    /// Moves that scored less than this share of the points (0 to 1) are
    /// left out: 0 by default.
    pub min_score: f64,
    /// Only the moves of this side (Polyglot's `-only-white`, `-only-black`).
    pub side: Option<Side>,
    /// Every move kept weighs 1 (Polyglot's `-uniform`).
    pub uniform: bool,
    /// Which games count (ratings, speed, dates, player), as for the tree.
    pub filter: Filter,
    /// Threads reading games; 0 for all cores.
    pub threads: usize,
    /// How the games are read (nested comments, repaired tag strings, strictness).
    pub read: ReadOptions,
}

impl Default for BookOptions {
    fn default() -> BookOptions {
        BookOptions {
            max_ply: 20,
            min_games: 3,
            min_score: 0.0,
            side: None,
            uniform: false,
            filter: Filter::default(),
            threads: 0,
            read: ReadOptions::default(),
        }
    }
}

/// One entry of a Polyglot book.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct BookEntry {
    /// The position's Polyglot key.
    pub key: u64,
    /// The move in Polyglot's encoding ([`encode_move`]).
    pub raw_move: u16,
    /// Its weight.
    pub weight: u16,
    /// The learn field (0 in the books pgnkit makes).
    pub learn: u32,
}

impl BookEntry {
    /// Bytes of an entry in a book.
    pub const SIZE: usize = 16;

    /// The entry as it is in a book: big-endian key, move, weight, learn.
    ///
    /// ```
    /// use pgnkit_index::BookEntry;
    ///
    /// let e2e4 = BookEntry { key: 0x463b_9618_1691_fc9c, raw_move: 0x031c, weight: 2, learn: 0 };
    /// assert_eq!(
    ///     e2e4.to_bytes(),
    ///     [0x46, 0x3b, 0x96, 0x18, 0x16, 0x91, 0xfc, 0x9c, 0x03, 0x1c, 0, 2, 0, 0, 0, 0]
    /// );
    /// assert_eq!(BookEntry::from_bytes(&e2e4.to_bytes()), e2e4);
    /// ```
    pub fn to_bytes(&self) -> [u8; 16] {
        let mut out = [0u8; 16];
        out[..8].copy_from_slice(&self.key.to_be_bytes());
        out[8..10].copy_from_slice(&self.raw_move.to_be_bytes());
        out[10..12].copy_from_slice(&self.weight.to_be_bytes());
        out[12..].copy_from_slice(&self.learn.to_be_bytes());
        out
    }

    /// The entry of 16 bytes of a book.
    pub fn from_bytes(bytes: &[u8; 16]) -> BookEntry {
        let [
            k0,
            k1,
            k2,
            k3,
            k4,
            k5,
            k6,
            k7,
            m0,
            m1,
            w0,
            w1,
            l0,
            l1,
            l2,
            l3,
        ] = *bytes;
        BookEntry {
            key: u64::from_be_bytes([k0, k1, k2, k3, k4, k5, k6, k7]),
            raw_move: u16::from_be_bytes([m0, m1]),
            weight: u16::from_be_bytes([w0, w1]),
            learn: u32::from_be_bytes([l0, l1, l2, l3]),
        }
    }
}

/// The Polyglot number of `m`: `to | from << 6 | promotion << 12`
/// (promotion 1 knight to 4 queen; castling as the king taking its rook). A
/// null move has none.
///
/// ```
/// use pgnkit_chess::{Position, Uci};
/// use pgnkit_index::encode_move;
///
/// let pos = Position::new();
/// let e2e4 = "e2e4".parse::<Uci>().unwrap().to_move(&pos).unwrap();
/// assert_eq!(encode_move(e2e4), Some(0x031c));
/// ```
pub fn encode_move(m: Move) -> Option<u16> {
    let (from, to, promotion) = match m {
        Move::Normal {
            from,
            to,
            promotion,
            ..
        } => (from, to, promotion.map_or(0, |r| r as u16)),
        Move::EnPassant { from, to } => (from, to, 0),
        Move::Castle { king, rook } => (king, rook, 0),
        Move::Null => return None,
    };
    Some(to.idx() as u16 | (from.idx() as u16) << 6 | promotion << 12)
}

/// The legal move of `pos` whose Polyglot number is `raw`, if any (an
/// entry of another position with the same key has moves that are not
/// legal here).
pub fn decode_move(pos: &Position, raw: u16) -> Option<Move> {
    pos.legal_moves()
        .iter()
        .copied()
        .find(|&m| encode_move(m) == Some(raw))
}

/// The Polyglot number of a move numbered by the index ([`crate::moves`]:
/// `from | to << 6 | (role + 1) << 12`).
fn from_index_number(n: u16) -> u16 {
    let (from, to, promotion) = (n & 63, (n >> 6) & 63, n >> 12);
    to | from << 6 | promotion.saturating_sub(1) << 12
}

/// A book made by [`make_book`], and what was read for it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct MadeBook {
    /// The entries, in a book's order.
    pub entries: Vec<BookEntry>,
    /// Games whose moves counted.
    pub games: u64,
    /// Games the filter left out.
    pub filtered: u64,
    /// Games with errors, left out.
    pub broken: u64,
}

/// (games, points) of one move from one position.
#[derive(Debug, Clone, Copy, Default)]
struct Count {
    games: u64,
    points: u64,
}

/// Makes the book of the games of `paths` (see the module's docs for the
/// rules), read on [`BookOptions::threads`] threads.
pub fn make_book(paths: &[PathBuf], options: &BookOptions) -> Result<MadeBook, IndexError> {
    let mut counts: HashMap<(u64, u16), Count> = HashMap::new();
    let mut made = MadeBook::default();
    let mut moves: Vec<(u64, u16, u64)> = Vec::new();
    let totals = read_sources(
        paths,
        options.threads,
        None,
        options.read,
        |_| Ok(()),
        |_, _, _, game| {
            if !options.filter.admits(&game.record, &game.names) {
                made.filtered += 1;
                return Ok(());
            }
            made.games += 1;
            moves.clear();
            for (key, mv, ply) in game.fields() {
                if mv == NO_MOVE || u32::from(ply) >= options.max_ply {
                    continue;
                }
                let side = if (ply % 2 == 0) != game.black_first {
                    Side::White
                } else {
                    Side::Black
                };
                if options.side.is_some_and(|s| s != side) {
                    continue;
                }
                let points = match (game.record.result, side) {
                    (1, Side::White) | (2, Side::Black) => 2,
                    (1, Side::Black) | (2, Side::White) => 0,
                    _ => 1,
                };
                moves.push((key, from_index_number(mv), points));
            }
            moves.sort_unstable();
            moves.dedup_by_key(|&mut (key, mv, _)| (key, mv));
            for &(key, mv, points) in &moves {
                let count = counts.entry((key, mv)).or_default();
                count.games += 1;
                count.points += points;
            }
            Ok(())
        },
    )?;
    made.broken = totals.broken;
    let mut weighted: Vec<(u64, u16, u64)> = counts
        .into_iter()
        .filter(|(_, c)| {
            c.games >= options.min_games
                && c.points > 0
                && c.points as f64 / c.games as f64 / 2.0 >= options.min_score
        })
        .map(|((key, mv), c)| (key, mv, if options.uniform { 1 } else { c.points }))
        .collect();
    weighted.sort_unstable();
    made.entries = to_entries(weighted);
    Ok(made)
}

/// Entries from (key, move, weight) sorted by key: each key's weights
/// halved until they fit 16 bits, then sorted by weight, highest first.
fn to_entries(weighted: Vec<(u64, u16, u64)>) -> Vec<BookEntry> {
    let mut entries = Vec::with_capacity(weighted.len());
    for group in weighted.chunk_by(|a, b| a.0 == b.0) {
        let mut weights: Vec<u64> = group.iter().map(|&(_, _, w)| w).collect();
        while weights.iter().any(|&w| w > u64::from(u16::MAX)) {
            for w in &mut weights {
                *w = w.div_ceil(2);
            }
        }
        let start = entries.len();
        for (&(key, raw_move, _), weight) in group.iter().zip(weights) {
            entries.push(BookEntry {
                key,
                raw_move,
                weight: u16::try_from(weight).unwrap_or(u16::MAX),
                learn: 0,
            });
        }
        entries[start..].sort_by(|a, b| b.weight.cmp(&a.weight).then(a.raw_move.cmp(&b.raw_move)));
    }
    entries
}

/// Writes `entries` as a book (16 bytes each, in the order given).
pub fn write_book(entries: &[BookEntry], out: &mut impl Write) -> io::Result<()> {
    let mut buf = Vec::with_capacity(BookEntry::SIZE * entries.len().min(1 << 16));
    for chunk in entries.chunks(1 << 16) {
        buf.clear();
        for entry in chunk {
            buf.extend_from_slice(&entry.to_bytes());
        }
        out.write_all(&buf)?;
    }
    Ok(())
}

/// A move of a book in a position ([`Book::probe`]).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BookMove {
    /// The move in UCI (castling as the king's two-square move in standard chess).
    pub uci: String,
    /// The move in SAN.
    pub san: String,
    /// Its weight.
    pub weight: u16,
    /// Its share of the weights of the position's moves, in percent.
    pub percent: f64,
    /// The learn field.
    pub learn: u32,
    /// The move as the book encodes it.
    pub raw_move: u16,
}

/// What a book holds for a position.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BookProbe {
    /// The position's FEN.
    pub fen: String,
    /// Its Polyglot key, as 16 hex digits.
    pub key: String,
    /// Its moves in the book's order (highest weight first in the books
    /// pgnkit and Polyglot make); entries whose move is not legal here (of
    /// another position with the same key) are left out.
    pub moves: Vec<BookMove>,
}

/// A Polyglot book opened for reading: entries are read where they are
/// (a binary search by key), not loaded.
#[derive(Debug)]
pub struct Book {
    path: PathBuf,
    file: File,
    len: u64,
}

impl Book {
    /// Opens the book at `path`; a file whose size is not a whole number of
    /// entries is refused.
    pub fn open(path: impl AsRef<Path>) -> Result<Book, IndexError> {
        let path = path.as_ref();
        let file = File::open(path).map_err(|e| IndexError::io(path, e))?;
        let meta = file.metadata().map_err(|e| IndexError::io(path, e))?;
        if meta.is_dir() {
            return Err(IndexError::NotABook {
                path: path.to_path_buf(),
                what: "a folder, not a file of 16-byte entries".into(),
            });
        }
        let size = meta.len();
        if size % BookEntry::SIZE as u64 != 0 {
            return Err(IndexError::NotABook {
                path: path.to_path_buf(),
                what: format!(
                    "{size} bytes, not a whole number of 16-byte entries ({} left over)",
                    size % BookEntry::SIZE as u64
                ),
            });
        }
        Ok(Book {
            path: path.to_path_buf(),
            file,
            len: size / BookEntry::SIZE as u64,
        })
    }

    /// Entries in the book.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// `true` when the book has no entry.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The entry at `i` (from 0).
    pub fn entry(&self, i: u64) -> Result<BookEntry, IndexError> {
        let mut bytes = [0u8; 16];
        read_exact_at(&self.file, &mut bytes, i * BookEntry::SIZE as u64)
            .map_err(|e| IndexError::io(&self.path, e))?;
        Ok(BookEntry::from_bytes(&bytes))
    }

    /// The entries with `key`, in the book's order.
    pub fn entries(&self, key: u64) -> Result<Vec<BookEntry>, IndexError> {
        let (mut lo, mut hi) = (0, self.len);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if self.entry(mid)?.key < key {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        let mut found = Vec::new();
        while lo < self.len {
            let entry = self.entry(lo)?;
            if entry.key != key {
                break;
            }
            found.push(entry);
            lo += 1;
        }
        Ok(found)
    }

    /// The moves the book holds for `pos`, as python-chess's
    /// `find_all(board, minimum_weight=0)` gives them.
    pub fn probe(&self, pos: &Position) -> Result<BookProbe, IndexError> {
        let key = pos.polyglot_key();
        let mut moves = Vec::new();
        for entry in self.entries(key)? {
            let Some(m) = decode_move(pos, entry.raw_move) else {
                continue;
            };
            moves.push(BookMove {
                uci: Uci::from_move(m, pos.castling_mode()).to_string(),
                san: SanPlus::from_move_and_play_unchecked(&mut pos.clone(), m).to_string(),
                weight: entry.weight,
                percent: 0.0,
                learn: entry.learn,
                raw_move: entry.raw_move,
            });
        }
        let total: u64 = moves.iter().map(|m| u64::from(m.weight)).sum();
        if total > 0 {
            for m in &mut moves {
                m.percent = 100.0 * f64::from(m.weight) / total as f64;
            }
        }
        Ok(BookProbe {
            fen: pos.to_string(),
            key: format!("{key:016x}"),
            moves,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pgnkit_chess::Uci;

    fn uci(pos: &Position, text: &str) -> Move {
        text.parse::<Uci>().unwrap().to_move(pos).unwrap()
    }

    #[test]
    fn moves_are_encoded_as_polyglot_does() {
        let pos = Position::new();
        // e2e4: to e4 (28), from e2 (12).
        assert_eq!(encode_move(uci(&pos, "e2e4")), Some(28 | 12 << 6));
        assert_eq!(encode_move(uci(&pos, "g1f3")), Some(21 | 6 << 6));
        let castles = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        // White castles king side as e1h1, queen side as e1a1.
        assert_eq!(encode_move(uci(&castles, "e1g1")), Some(7 | 4 << 6));
        assert_eq!(encode_move(uci(&castles, "e1c1")), Some(4 << 6));
        let black = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1").unwrap();
        assert_eq!(encode_move(uci(&black, "e8g8")), Some(63 | 60 << 6));
        assert_eq!(encode_move(uci(&black, "e8c8")), Some(56 | 60 << 6));
        let promote = Position::from_fen("1n5k/P7/8/8/8/8/8/K7 w - - 0 1").unwrap();
        for (text, code) in [("a7a8n", 1), ("a7a8b", 2), ("a7a8r", 3), ("a7a8q", 4)] {
            assert_eq!(
                encode_move(uci(&promote, text)),
                Some(56 | 48 << 6 | code << 12)
            );
        }
        // A capture that promotes.
        assert_eq!(
            encode_move(uci(&promote, "a7b8q")),
            Some(57 | 48 << 6 | 4 << 12)
        );
        let ep = Position::from_fen("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2").unwrap();
        assert_eq!(encode_move(uci(&ep, "e5d6")), Some(43 | 36 << 6));
        assert_eq!(encode_move(Move::Null), None);
    }

    #[test]
    fn every_legal_move_round_trips_and_matches_the_index_number() {
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/pPp2ppp/8/3Pp3/8/8/P1PP1PPP/R3K2R w KQkq e6 0 1",
            "r3k2r/8/8/8/8/8/6p1/R3K2R b KQkq - 0 1",
            // Chess960: the king on b1, rooks on a1 and h1.
            "rk5r/8/8/8/8/8/8/RK5R w KQkq - 0 1",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            for m in pos.legal_moves().iter().copied() {
                let raw = encode_move(m).unwrap();
                assert_eq!(decode_move(&pos, raw), Some(m), "{fen}");
                let index = crate::moves::encode(m).unwrap();
                assert_eq!(from_index_number(index), raw, "{fen}");
            }
        }
        assert_eq!(decode_move(&Position::new(), 7 | 4 << 6), None);
    }

    #[test]
    fn weights_are_halved_per_position_until_they_fit() {
        let entries = to_entries(vec![(1, 10, 3), (1, 11, 200_000), (2, 5, 7), (2, 6, 9)]);
        assert_eq!(
            entries,
            vec![
                BookEntry {
                    key: 1,
                    raw_move: 11,
                    weight: 50_000,
                    learn: 0
                },
                BookEntry {
                    key: 1,
                    raw_move: 10,
                    weight: 1,
                    learn: 0
                },
                BookEntry {
                    key: 2,
                    raw_move: 6,
                    weight: 9,
                    learn: 0
                },
                BookEntry {
                    key: 2,
                    raw_move: 5,
                    weight: 7,
                    learn: 0
                },
            ]
        );
    }

    fn scratch(name: &str, pgn: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("pgnkit-book-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("games.pgn");
        std::fs::write(&path, pgn).unwrap();
        path
    }

    const GAMES: &str = "[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 1-0\n\n\
        [Result \"0-1\"]\n\n1. e4 c5 0-1\n\n\
        [Result \"1/2-1/2\"]\n\n1. e4 e5 1/2-1/2\n\n\
        [Result \"*\"]\n\n1. d4 *\n\n\
        [FEN \"4k3/8/8/8/8/8/8/4K2R b K - 0 1\"]\n[SetUp \"1\"]\n[Result \"0-1\"]\n\n1... Kd7 2. O-O 0-1\n";

    #[test]
    fn weights_come_from_results_for_the_side_that_moved() {
        let path = scratch("weights", GAMES);
        let options = BookOptions {
            min_games: 1,
            threads: 1,
            ..BookOptions::default()
        };
        let made = make_book(std::slice::from_ref(&path), &options).unwrap();
        assert_eq!((made.games, made.broken, made.filtered), (5, 0, 0));
        let book_path = path.with_extension("bin");
        let mut bytes = Vec::new();
        write_book(&made.entries, &mut bytes).unwrap();
        std::fs::write(&book_path, &bytes).unwrap();
        let book = Book::open(&book_path).unwrap();
        assert_eq!(book.len(), made.entries.len() as u64);
        let weights = |moves: &str| {
            let pos = crate::parse_position(moves).unwrap();
            book.probe(&pos)
                .unwrap()
                .moves
                .into_iter()
                .map(|m| (m.san, m.weight))
                .collect::<Vec<_>>()
        };
        // e4: won, lost, drawn (2 + 0 + 1); d4 in a game without result: 1.
        assert_eq!(weights(""), [("e4".to_string(), 3), ("d4".to_string(), 1)]);
        // Black's e5: lost once, drawn once; c5 won.
        assert_eq!(
            weights("e4"),
            [("c5".to_string(), 2), ("e5".to_string(), 1)]
        );
        // White's Nf3 won.
        assert_eq!(weights("e4 e5"), [("Nf3".to_string(), 2)]);
        // From a set-up position with Black to move: Black won, White lost.
        assert_eq!(
            weights("4k3/8/8/8/8/8/8/4K2R b K - 0 1"),
            [("Kd7".to_string(), 2)]
        );
        // White's O-O there lost: a move that never scored is left out.
        assert!(weights("8/3k4/8/8/8/8/8/4K2R w K - 1 2").is_empty());
        let castles = 7 | 4 << 6;
        assert!(made.entries.iter().all(|e| e.raw_move != castles));

        let only_black = BookOptions {
            side: Some(Side::Black),
            max_ply: 2,
            ..options.clone()
        };
        let made = make_book(std::slice::from_ref(&path), &only_black).unwrap();
        let keys: Vec<u64> = made.entries.iter().map(|e| e.key).collect();
        let e4 = crate::parse_position("e4").unwrap().polyglot_key();
        let start = Position::from_fen("4k3/8/8/8/8/8/8/4K2R b K - 0 1").unwrap();
        assert_eq!(keys.len(), 3);
        assert!(keys.iter().all(|&k| k == e4 || k == start.polyglot_key()));

        let three = BookOptions {
            min_games: 3,
            ..options.clone()
        };
        let made = make_book(std::slice::from_ref(&path), &three).unwrap();
        assert_eq!(made.entries.len(), 1, "only e4 was played in three games");
        assert_eq!(made.entries[0].weight, 3);
        std::fs::remove_dir_all(path.parent().unwrap()).unwrap();
    }

    #[test]
    fn a_file_that_is_not_a_book_is_refused() {
        let path = scratch("bad", "");
        let bad = path.with_extension("bin");
        std::fs::write(&bad, [0u8; 17]).unwrap();
        let e = Book::open(&bad).unwrap_err().to_string();
        assert!(
            e.ends_with(
                "not a Polyglot book: 17 bytes, not a whole number of 16-byte entries (1 left over)"
            ),
            "{e}"
        );
        std::fs::remove_dir_all(path.parent().unwrap()).unwrap();
    }
}
