//! Exact-position search: the games whose main line reaches a position,
//! with the file, byte offset, game number and ply of each time it does.
//! [`Index::search`](crate::Index::search) answers from an index;
//! [`search_scan`] reads the files, and both give the same hits.

use std::path::PathBuf;

use pgnkit_chess::Position;
use pgnkit_game::ReadOptions;
use serde::Serialize;

use crate::error::IndexError;
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
