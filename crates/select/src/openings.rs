//! Opening classification: the Lichess opening table and Lichess's rule
//! for finding a game's opening in it.
//!
//! The table (`openings/*.tsv` in this crate: the CC0 table of
//! lichess-org/chess-openings, see `openings/NOTICE.md`) is embedded at
//! build time with `include_str!` and turned into positions on first use
//! (about 3,800 rows, a few milliseconds): each row's moves are played from
//! the standard start and the position reached is the row's key
//! ([`PositionKey`]: board, side to move, castling, en passant). A position
//! that several rows reach keeps the first row.
//!
//! The rule ([`Openings::classify`]) is Lichess's (scalachess `OpeningDb`):
//! the positions after each of the first 40 plies of the main line are
//! looked up, stopping at the first position with fewer than 20 pieces on
//! the board; the deepest position found wins. Since positions are looked
//! up, a transposition finds the same opening. Games that do not start
//! from the standard position are not classified.

use std::collections::HashMap;
use std::sync::OnceLock;

use pgnkit_chess::{Move, Position};
use pgnkit_game::Game;

use crate::error::OpeningsError;
use crate::position_key::{PositionKey, Prehashed, quick_hash};

/// Plies of the main line looked up.
pub const MAX_PLIES: usize = 40;
/// Positions with fewer pieces than this end the search.
pub const MIN_PIECES: usize = 20;

/// The embedded Lichess table, file by file.
const LICHESS: [&str; 5] = [
    include_str!("../openings/a.tsv"),
    include_str!("../openings/b.tsv"),
    include_str!("../openings/c.tsv"),
    include_str!("../openings/d.tsv"),
    include_str!("../openings/e.tsv"),
];

/// One row of the table: a code, a name and the position its moves reach.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Opening {
    /// The ECO code (`B90`).
    pub eco: String,
    /// The name, as Lichess writes it in the `Opening` tag
    /// (`Sicilian Defense: Najdorf Variation`).
    pub name: String,
    /// Plies of the row's moves.
    pub plies: usize,
}

/// A game's opening: the row and the ply of the main line where its position stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Classification<'a> {
    /// The row found.
    pub opening: &'a Opening,
    /// After how many plies of the game (1 for the first move).
    pub ply: usize,
}

/// An opening table keyed by position.
///
/// ```
/// use pgnkit_game::Game;
/// use pgnkit_select::Openings;
/// // 1. Nf3 Nc6 2. e4 e5 3. Bb5 reaches the Ruy Lopez (1. e4 e5 2. Nf3 Nc6 3. Bb5) by transposition.
/// let game: Game = "1. Nf3 Nc6 2. e4 e5 3. Bb5 h6 4. h3 *".parse().unwrap();
/// let found = Openings::lichess().classify(&game).unwrap();
/// assert_eq!(found.opening.eco, "C60");
/// assert_eq!(found.opening.name, "Ruy Lopez");
/// assert_eq!(found.ply, 5);
/// ```
#[derive(Debug, Clone, Default)]
pub struct Openings {
    rows: Vec<(PositionKey, Opening)>,
    /// Rows by [`quick_hash`] of their position (the first row of a hash).
    by_hash: HashMap<u64, u32, Prehashed>,
}

impl Openings {
    /// The Lichess table embedded in this crate (built on first use).
    pub fn lichess() -> &'static Openings {
        static TABLE: OnceLock<Openings> = OnceLock::new();
        TABLE.get_or_init(|| {
            let mut table = Openings::default();
            for text in LICHESS {
                // The embedded files are checked by this crate's tests; a row that
                // could not be read would be left out, never a panic.
                let _ = table.add_tsv(text);
            }
            table
        })
    }

    /// A table from TSV text (the header `eco<TAB>name<TAB>pgn`, then one
    /// row per line, the moves in SAN with or without move numbers, at most
    /// [`MAX_PLIES`] of them: a deeper row could never be found).
    ///
    /// ```
    /// use pgnkit_select::Openings;
    /// let t = Openings::from_tsv("eco\tname\tpgn\nC20\tKing's Pawn\t1. e4 e5\n").unwrap();
    /// assert_eq!(t.len(), 1);
    /// assert!(Openings::from_tsv("eco\tname\tpgn\nC20\tBad\t1. e5\n").is_err());
    /// assert!(Openings::from_tsv("C20\tKing's Pawn\t1. e4 e5\n").is_err());
    /// ```
    pub fn from_tsv(text: &str) -> Result<Openings, OpeningsError> {
        let mut table = Openings::default();
        table.add_tsv(text)?;
        Ok(table)
    }

    /// Adds the rows of one TSV text (with its header) to the table.
    pub fn add_tsv(&mut self, text: &str) -> Result<(), OpeningsError> {
        let mut lines = text.split_inclusive('\n');
        let header = lines.next().unwrap_or("");
        if header
            .trim_end_matches(['\r', '\n'])
            .trim_start_matches('\u{feff}')
            != "eco\tname\tpgn"
        {
            return Err(OpeningsError::Header);
        }
        let mut offset = header.len();
        for line in lines {
            let row_at = offset;
            offset += line.len();
            let line = line.trim_end_matches(['\r', '\n']);
            if line.trim().is_empty() {
                continue;
            }
            let bad = |reason: String| OpeningsError::Row {
                offset: row_at,
                reason,
            };
            let mut cols = line.split('\t');
            let (Some(eco), Some(name), Some(pgn), None) =
                (cols.next(), cols.next(), cols.next(), cols.next())
            else {
                return Err(bad("a row has three columns: eco, name, pgn".into()));
            };
            let mut pos = Position::new();
            let mut plies = 0;
            for token in pgn.split_ascii_whitespace() {
                let san = token.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
                if san.is_empty() {
                    continue;
                }
                if plies == MAX_PLIES {
                    return Err(bad(format!(
                        "a row has at most {MAX_PLIES} plies (deeper positions are never looked up)"
                    )));
                }
                if let Err(e) = pos.play_san(san.as_bytes()) {
                    return Err(bad(format!("move `{token}`: {e}")));
                }
                plies += 1;
            }
            let key = PositionKey::of(&pos);
            let index = u32::try_from(self.rows.len()).unwrap_or(u32::MAX);
            if self.find(&pos).is_none() {
                self.by_hash.entry(quick_hash(&pos)).or_insert(index);
                self.rows.push((
                    key,
                    Opening {
                        eco: eco.to_string(),
                        name: name.to_string(),
                        plies,
                    },
                ));
            }
        }
        Ok(())
    }

    /// Positions in the table.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// Whether the table is empty.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// The row whose position is `pos`.
    pub fn find(&self, pos: &Position) -> Option<&Opening> {
        let &index = self.by_hash.get(&quick_hash(pos))?;
        let (key, opening) = self.rows.get(index as usize)?;
        key.is(pos).then_some(opening)
    }

    /// The game's opening by Lichess's rule (see the module docs); `None`
    /// when no position qualifies or the game starts from another position.
    pub fn classify(&self, game: &Game) -> Option<Classification<'_>> {
        self.classify_moves(
            game.start_position(),
            game.main_line_moves().map(|played| played.mv),
        )
    }

    /// [`Openings::classify`] of a start position and main-line moves (for a
    /// caller that has the moves without a tree, such as
    /// [`MainLine`](crate::MainLine)); the moves must be legal, as a game's are.
    ///
    /// ```
    /// use pgnkit_chess::Position;
    /// use pgnkit_game::Game;
    /// use pgnkit_select::Openings;
    /// let game: Game = "1. e4 e5 2. Nf3 Nc6 3. Bb5 *".parse().unwrap();
    /// let moves = game.main_line_moves().map(|m| m.mv);
    /// let found = Openings::lichess().classify_moves(&Position::new(), moves).unwrap();
    /// assert_eq!(found.opening.eco, "C60");
    /// ```
    pub fn classify_moves(
        &self,
        start: &Position,
        moves: impl IntoIterator<Item = Move>,
    ) -> Option<Classification<'_>> {
        if *start != Position::new() {
            return None;
        }
        let mut pos = start.clone();
        let mut found = None;
        for (i, mv) in moves.into_iter().take(MAX_PLIES).enumerate() {
            pos.play_unchecked(mv);
            if pos.board().occupied().count() < MIN_PIECES {
                break;
            }
            if let Some(opening) = self.find(&pos) {
                found = Some(Classification {
                    opening,
                    ply: i + 1,
                });
            }
        }
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_at_most_max_plies() {
        let row = |plies: usize| {
            let moves = ["Nf3", "Nf6", "Ng1", "Ng8"];
            let pgn: Vec<&str> = (0..plies).map(|i| moves[i % 4]).collect();
            format!("eco\tname\tpgn\nA00\tShuffle\t{}\n", pgn.join(" "))
        };
        assert_eq!(Openings::from_tsv(&row(MAX_PLIES)).map(|t| t.len()), Ok(1));
        let long = row(1_000_000);
        let Err(OpeningsError::Row { offset, reason }) = Openings::from_tsv(&long) else {
            panic!("a row of a million plies is read");
        };
        assert_eq!(offset, "eco\tname\tpgn\n".len());
        assert!(reason.contains("at most 40 plies"), "{reason}");
    }

    #[test]
    fn the_embedded_table_reads_whole() {
        let mut rows = 0;
        let mut table = Openings::default();
        for text in LICHESS {
            rows += text.lines().count() - 1;
            table.add_tsv(text).unwrap();
        }
        assert_eq!(rows, 3807);
        // Rows reaching a position an earlier row reached are not new keys.
        assert!(table.len() > 3000 && table.len() <= rows, "{}", table.len());
        assert_eq!(Openings::lichess().len(), table.len());
    }

    #[test]
    fn deepest_match_within_the_limits() {
        let t = Openings::lichess();
        let g: Game = "1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 6. h3 h6 7. a3 *"
            .parse()
            .unwrap();
        let found = t.classify(&g).unwrap();
        assert_eq!(found.opening.eco, "B90");
        assert_eq!(found.ply, 11, "{found:?}");
        let none: Game = "1. a3 a6 *".parse().unwrap();
        assert!(
            t.classify(&none).is_some_and(|f| f.ply == 1),
            "1. a3 is Anderssen's Opening"
        );
        let from_fen: Game = "[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n\n1. e4 *"
            .parse()
            .unwrap();
        assert!(t.classify(&from_fen).is_none());
    }
}
