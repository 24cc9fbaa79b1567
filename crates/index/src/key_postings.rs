//! One key's postings in one segment ([`KeyPostings`]): read from the pieces
//! of the key's partition ([`crate::partition`]), one piece at a time, and
//! the key's kept, in the order the games were read (game, then ply). And
//! the same a game at a time ([`GameOrder`]), for a search that stops after
//! a few games (`search --first 50`), which then reads a few pieces, not
//! the whole partition.

use crate::error::IndexError;
use crate::partition::partition;
use crate::record::{Piece, Posting, Record, RecordFile};

/// One key's postings in one segment, a piece of its partition at a time.
#[derive(Debug)]
pub(crate) struct KeyPostings {
    key: u64,
    /// The partition's pieces not read yet, last first.
    pieces: Vec<Piece>,
    /// The segment's games: a posting of a game past them is an error.
    games: u64,
    /// The piece being read, as its bytes.
    bytes: Vec<u8>,
}

impl KeyPostings {
    /// The postings of `key` in the segment of `positions` (its `.pos`), `pieces` (its
    /// `.pieces`) and `games` games. The partition's pieces are found by two binary
    /// searches and checked to lie in `.pos`.
    pub(crate) fn new(
        positions: &RecordFile<Posting>,
        pieces: &RecordFile<Piece>,
        key: u64,
        games: u64,
    ) -> Result<KeyPostings, IndexError> {
        let part = partition(key);
        let start = pieces.lower_bound(u64::from(part), |p| u64::from(p.partition))?;
        let end = pieces.lower_bound_in(start, pieces.len, u64::from(part) + 1, |p| {
            u64::from(p.partition)
        })?;
        let mut found = pieces.read_map(start, end, |p| p)?;
        for p in &found {
            let past = p.first.saturating_add(u64::from(p.len));
            let wrong = if p.partition != part {
                format!("a piece of partition {} among those of {part}", p.partition)
            } else if past > positions.len {
                format!(
                    "a piece of partition {part} (postings {}..{past}) past the end of `.pos` \
                     ({} postings)",
                    p.first, positions.len
                )
            } else {
                continue;
            };
            return Err(IndexError::corrupt(&pieces.path, wrong));
        }
        found.reverse();
        Ok(KeyPostings {
            key,
            pieces: found,
            games,
            bytes: Vec::new(),
        })
    }

    /// Reads the next piece and appends the key's postings in it to `out`, each mapped by
    /// `f`; `false` when every piece has been read.
    pub(crate) fn next_piece<T>(
        &mut self,
        positions: &RecordFile<Posting>,
        out: &mut Vec<T>,
        mut f: impl FnMut(Posting) -> T,
    ) -> Result<bool, IndexError> {
        let Some(piece) = self.pieces.pop() else {
            return Ok(false);
        };
        let start = piece.first;
        let bytes = positions.read_bytes(start, start + u64::from(piece.len), &mut self.bytes)?;
        for record in bytes.chunks_exact(Posting::SIZE) {
            // The key is the record's last 8 bytes: the others are decoded for the key's
            // postings only.
            if record[8..] != self.key.to_le_bytes() {
                continue;
            }
            let p = Posting::get(record);
            if u64::from(p.game) >= self.games {
                return Err(IndexError::corrupt(
                    &positions.path,
                    format!("game {} where the segment has {} games", p.game, self.games),
                ));
            }
            out.push(f(p));
        }
        Ok(true)
    }

    /// All the key's postings, each mapped by `f`.
    pub(crate) fn all<T>(
        mut self,
        positions: &RecordFile<Posting>,
        mut f: impl FnMut(Posting) -> T,
    ) -> Result<Vec<T>, IndexError> {
        let mut out = Vec::new();
        while self.next_piece(positions, &mut out, &mut f)? {}
        Ok(out)
    }
}

/// A key's postings in one segment, a game at a time in the order the games were read
/// ([`GameOrder::next_game`]).
#[derive(Debug)]
pub(crate) struct GameOrder {
    postings: KeyPostings,
    /// Postings read and not handed out yet (`read[at..]`), as (game, ply) numbers.
    read: Vec<u64>,
    at: usize,
}

impl GameOrder {
    pub(crate) fn new(postings: KeyPostings) -> GameOrder {
        GameOrder {
            postings,
            read: Vec::new(),
            at: 0,
        }
    }

    /// The next game (its number in the segment) and its plies, in the order read, written
    /// into `plies`; `None` after the last. A game's postings of one key follow one another
    /// (the games were read one after the other), maybe across two pieces.
    pub(crate) fn next_game(
        &mut self,
        positions: &RecordFile<Posting>,
        plies: &mut Vec<u32>,
    ) -> Result<Option<u32>, IndexError> {
        plies.clear();
        let mut game = None;
        loop {
            let Some(&n) = self.read.get(self.at) else {
                self.read.clear();
                self.at = 0;
                let number = |p: Posting| u64::from(p.game) << 16 | u64::from(p.ply);
                if !self
                    .postings
                    .next_piece(positions, &mut self.read, number)?
                {
                    break;
                }
                continue;
            };
            let id = (n >> 16) as u32;
            if game.is_some_and(|g| g != id) {
                break;
            }
            game = Some(id);
            plies.push((n & 0xffff) as u32);
            self.at += 1;
        }
        Ok(game)
    }
}
