//! Exact-position search: the games whose main line reaches a position,
//! with the file, byte offset, game number and ply of each time it does.
//! [`Index::search`](crate::Index::search) answers from an index;
//! [`search_scan`] reads the files, and both give the same hits.
//! [`Index::search_games`](crate::Index::search_games) gives the index's
//! answer a game at a time ([`GameHits`]), with nothing allocated per game:
//! a common position has hundreds of thousands of them.

use std::path::{Path, PathBuf};

use pgnkit_chess::Position;
use pgnkit_game::ReadOptions;
use serde::Serialize;

use crate::error::IndexError;
use crate::manifest::SourceEntry;
use crate::scan::read_sources;

/// How [`Index::search_each`](crate::Index::search_each) hands out its games.
/// The default reads all of the position's postings first and joins nothing.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SearchOptions {
    /// Read the position's postings as the games are handed out, a few hundred at a time:
    /// for a caller that stops early (an error of `each`: `search --first 50`), which then
    /// reads the postings of the games it took and a few after, not all of the position's
    /// (the start position has one a game). Before the first game, each segment's
    /// postings are found (two binary searches a move played from the position) and the
    /// last posting of each move is checked against the segment's games. Handing out
    /// every game costs more than without it.
    pub lazy: bool,
    /// Join the games at the same place (path, stream and byte offset: a file indexed
    /// twice) that follow one another in the answer into one game with all their plies,
    /// the first's source name and number: what `pgnkit search --index` writes, one game
    /// a place. A game is then handed out once the next is seen (or the answer ends).
    pub join_places: bool,
}

/// A game reaching a position, and where.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Hit {
    /// The source's name (its path as given; `archive.zip:member` for a member).
    pub source: String,
    /// The source file, absolute.
    pub path: PathBuf,
    /// The stream's number in the file (a zip member's; 0 otherwise).
    pub stream: u32,
    /// Byte offset of the game's first byte in its (decoded) stream.
    pub offset: u64,
    /// The game's number in its stream, from 1 (games with errors counted).
    pub number: u64,
    /// The ply of the position (0: the start position).
    pub ply: u32,
}

/// The games of a position found in an index, in input order, each with the
/// plies where its main line reaches the position: what
/// [`Index::search_games`](crate::Index::search_games) gives.
#[derive(Debug)]
pub struct GameHits<'i> {
    pub(crate) sources: &'i [SourceEntry],
    pub(crate) games: Vec<FoundGame>,
    /// The plies of every game, one game's after another's.
    pub(crate) plies: Vec<u32>,
}

/// One game of [`GameHits`]: its source (an index into the manifest's, checked),
/// place, and where its plies end in [`GameHits::plies`].
#[derive(Debug, Clone, Copy)]
pub(crate) struct FoundGame {
    pub(crate) source: u32,
    pub(crate) offset: u64,
    pub(crate) number: u64,
    pub(crate) plies_end: u32,
}

/// A game reaching a position, as [`GameHits::iter`] gives it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameHit<'a> {
    /// The source's name (its path as given; `archive.zip:member` for a member).
    pub source: &'a str,
    /// The source file, absolute.
    pub path: &'a Path,
    /// The stream's number in the file (a zip member's; 0 otherwise).
    pub stream: u32,
    /// Byte offset of the game's first byte in its (decoded) stream.
    pub offset: u64,
    /// The game's number in its stream, from 1 (games with errors counted).
    pub number: u64,
    /// The plies of the position in the game's main line, ascending (0: the start).
    pub plies: &'a [u32],
}

impl<'a> GameHit<'a> {
    /// The game at `offset` of `source`, its number and plies.
    #[inline(always)]
    pub(crate) fn of(source: &'a SourceEntry, offset: u64, number: u64, plies: &'a [u32]) -> Self {
        GameHit {
            source: &source.name,
            path: &source.path,
            stream: source.stream,
            offset,
            number,
            plies,
        }
    }

    /// The [`Hit`] of the game's first ply (to read its text with
    /// [`Index::game_text`](crate::Index::game_text)).
    pub fn first_hit(&self) -> Hit {
        self.hit(self.plies.first().copied().unwrap_or(0))
    }

    fn hit(&self, ply: u32) -> Hit {
        Hit {
            source: self.source.to_string(),
            path: self.path.to_path_buf(),
            stream: self.stream,
            offset: self.offset,
            number: self.number,
            ply,
        }
    }
}

impl<'i> GameHits<'i> {
    /// Games found.
    pub fn len(&self) -> usize {
        self.games.len()
    }

    /// Whether no game was found.
    pub fn is_empty(&self) -> bool {
        self.games.is_empty()
    }

    /// The games, in input order.
    pub fn iter(&self) -> impl Iterator<Item = GameHit<'_>> {
        let mut start = 0;
        self.games.iter().map(move |g| {
            let end = g.plies_end as usize;
            let plies = &self.plies[start..end];
            start = end;
            // The source was checked against the manifest when the game was found.
            let source = &self.sources[g.source as usize];
            GameHit::of(source, g.offset, g.number, plies)
        })
    }

    /// A [`Hit`] for each ply of each game, in order.
    pub fn hits(&self) -> Vec<Hit> {
        let mut out = Vec::with_capacity(self.plies.len());
        for game in self.iter() {
            out.extend(game.plies.iter().map(|&ply| game.hit(ply)));
        }
        out
    }
}

/// The game of an index's answer not yet handed out: the games at one place (path,
/// stream and byte offset: a file indexed twice) that follow one another, joined, with
/// the first's source and number and the plies of all
/// ([`SearchOptions::join_places`]).
#[derive(Debug, Default)]
pub(crate) struct Joined<'s> {
    /// The pending game's source, offset and number.
    pending: Option<(&'s SourceEntry, u64, u64)>,
    /// Its plies, all of them.
    plies: Vec<u32>,
}

impl<'s> Joined<'s> {
    /// Takes the next game of the answer: the plies of a game at the same place as the
    /// pending one join it; any other hands the pending game to `each` and takes its place.
    #[inline(always)]
    pub(crate) fn hit<E>(
        &mut self,
        source: &'s SourceEntry,
        offset: u64,
        number: u64,
        plies: &[u32],
        each: &mut impl FnMut(GameHit<'_>) -> Result<(), E>,
    ) -> Result<(), E> {
        if let Some((pending, at, _)) = self.pending
            && (at, pending.stream) == (offset, source.stream)
            && (std::ptr::eq(pending, source) || pending.path == source.path)
        {
            self.plies.extend_from_slice(plies);
            return Ok(());
        }
        self.finish(each)?;
        self.pending = Some((source, offset, number));
        self.plies.clear();
        self.plies.extend_from_slice(plies);
        Ok(())
    }

    /// Hands the pending game, if any, to `each`: at the end of the answer.
    #[inline]
    pub(crate) fn finish<E>(
        &mut self,
        each: &mut impl FnMut(GameHit<'_>) -> Result<(), E>,
    ) -> Result<(), E> {
        match self.pending.take() {
            Some((source, offset, number)) => {
                each(GameHit::of(source, offset, number, &self.plies))
            }
            None => Ok(()),
        }
    }
}

/// The games of `paths` whose main line reaches `pos`, read without an
/// index on `threads` threads, each game read with `read`, in input order
/// (games with errors left out, as an index leaves them out).
pub fn search_scan(
    paths: &[PathBuf],
    pos: &Position,
    threads: usize,
    read: ReadOptions,
) -> Result<Vec<Hit>, IndexError> {
    let key = pos.polyglot_key();
    let mut hits = Vec::new();
    read_sources(
        paths,
        threads,
        Some(key),
        read,
        |_| Ok(()),
        |stream, offset, number, game| {
            {
                for (_, _, ply) in game.fields() {
                    hits.push(Hit {
                        source: stream.name.clone(),
                        path: stream.path.clone(),
                        stream: stream.stream,
                        offset,
                        number,
                        ply: u32::from(ply),
                    });
                }
            }
            Ok(())
        },
    )?;
    Ok(hits)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn source(path: &str, stream: u32, name: &str) -> SourceEntry {
        SourceEntry {
            path: path.into(),
            stream,
            name: name.into(),
            size: 0,
            mtime_ns: 0,
            sample: 0,
        }
    }

    /// The games handed out by joining `hits` (source, offset, number, plies).
    fn joined(hits: &[(&SourceEntry, u64, u64, &[u32])]) -> Vec<(String, u32, u64, u64, Vec<u32>)> {
        let mut out = Vec::new();
        let mut each = |g: GameHit<'_>| {
            out.push((
                g.source.to_string(),
                g.stream,
                g.offset,
                g.number,
                g.plies.to_vec(),
            ));
            Ok::<(), IndexError>(())
        };
        let mut join = Joined::default();
        for &(source, offset, number, plies) in hits {
            join.hit(source, offset, number, plies, &mut each).unwrap();
        }
        join.finish(&mut each).unwrap();
        out
    }

    #[test]
    fn a_source_indexed_twice_gives_one_game_with_the_plies_of_both() {
        let first = source("/data/a.pgn", 0, "a.pgn");
        let again = source("/data/a.pgn", 0, "./a.pgn");
        let other = source("/data/b.pgn", 0, "b.pgn");
        let member = source("/data/a.pgn", 1, "a.pgn:1");
        let games = joined(&[
            (&first, 0, 1, &[4]),
            (&again, 0, 1, &[4, 8]),
            (&first, 90, 2, &[6]),
            (&other, 90, 2, &[6]),
            (&member, 90, 1, &[2]),
            (&first, 200, 3, &[0]),
            (&first, 200, 3, &[0]),
            (&again, 200, 3, &[0]),
        ]);
        let game = |name: &str, stream, offset, number, plies: &[u32]| {
            (name.to_string(), stream, offset, number, plies.to_vec())
        };
        assert_eq!(
            games,
            [
                game("a.pgn", 0, 0, 1, &[4, 4, 8]),
                game("a.pgn", 0, 90, 2, &[6]),
                game("b.pgn", 0, 90, 2, &[6]),
                game("a.pgn:1", 1, 90, 1, &[2]),
                game("a.pgn", 0, 200, 3, &[0, 0, 0]),
            ]
        );
        assert!(joined(&[]).is_empty());
    }

    #[test]
    fn an_error_of_the_callback_is_returned() {
        let a = source("/data/a.pgn", 0, "a.pgn");
        let mut seen = 0;
        let mut each = |_: GameHit<'_>| {
            seen += 1;
            Err::<(), _>(IndexError::Position("enough".into()))
        };
        let mut join = Joined::default();
        join.hit(&a, 0, 1, &[1], &mut each).unwrap();
        let stopped = join.hit(&a, 10, 2, &[1], &mut each);
        assert!(matches!(stopped, Err(IndexError::Position(m)) if m == "enough"));
        assert_eq!(seen, 1);
    }
}
