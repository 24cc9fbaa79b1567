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

impl GameHit<'_> {
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
            GameHit {
                source: &source.name,
                path: &source.path,
                stream: source.stream,
                offset: g.offset,
                number: g.number,
                plies,
            }
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
                for (_, _, ply) in game.positions {
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
