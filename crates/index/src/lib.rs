//! A persistent position index over PGN files: which games reach a
//! position (file, byte offset, game number, ply) and the opening tree
//! (per move: games, White wins, draws, Black wins, average rating, latest
//! and highest-rated game), keyed by the Polyglot Zobrist key
//! ([`Position::polyglot_key`](pgnkit_chess::Position::polyglot_key)) so that
//! books and other tools agree. Games stay in their source files (plain or
//! compressed); the index keeps where they are.
//!
//! ```no_run
//! use pgnkit_index::{BuildOptions, Filter, Index, build, parse_position};
//!
//! build("games.pgnidx".as_ref(), &["games.pgn".into()], &BuildOptions::default())?;
//! let index = Index::open("games.pgnidx")?;
//! let tree = index.tree(&parse_position("e4 c5")?, &Filter::default())?;
//! for m in &tree.moves {
//!     println!("{} {} games", m.san, m.stats.games);
//! }
//! for hit in index.search(&parse_position("e4 c5 Nf3 d6")?)? {
//!     println!("{}:{} ply {}", hit.source, hit.offset, hit.ply);
//! }
//! # Ok::<(), pgnkit_index::IndexError>(())
//! ```
//!
//! Polyglot opening books (`pgnkit book`) are made from the same reading of
//! the games ([`make_book`]) and read back by key ([`Book::probe`]).
//!
//! # Layout
//!
//! An index is a folder. `MANIFEST` holds the format version on its first
//! line (`pgnkit-index 2`; a newer one is refused naming both versions) and,
//! as JSON, the sources (path, stream, size, modification time and a hash
//! of 3 × 64 KiB samples, checked before an offset is used) and the
//! segments. Each build or `append` adds one segment of five files, each a
//! 16-byte header (magic, version, record size) and fixed-size
//! little-endian records:
//!
//! - `seg-N.pos`: 16-byte postings (key, move, ply, game), sorted by key,
//!   move, game, ply: one per main-line position of every game (the last
//!   with no move). Exact search is two binary searches and one read.
//! - `seg-N.stats`: 64-byte records per (key, move): games, White wins,
//!   draws, Black wins, each side's rating sum and count, latest and best game, counted
//!   at build time from the merged postings: the tree without filters reads
//!   a handful of records per segment whatever the number of games.
//!   `seg-N.single`: 16-byte records (key, move, game) for the moves played
//!   in one game of the segment (most of them), whose statistics are the
//!   game's.
//! - `seg-N.games`: 48-byte game records (source, offset, game number,
//!   date, ratings, result, speed class, plies, where the names are);
//!   `seg-N.names`: the player names.
//!
//! A tree merges the segments' records by move; a filtered tree (ratings,
//! speed, dates, player) reads the position's postings and their games.
//!
//! # Why this layout
//!
//! Sorted fixed-size records need no dependency and no parsing: a lookup is
//! a binary search of positioned reads (`pread`), served by the page cache
//! when warm, and a truncated or corrupt file is caught by the header and
//! length checks against the manifest instead of faulting as a mapped file
//! would. An embedded key-value store (an LSM or B-tree crate) would bring
//! its own write-ahead log and compaction to store what is written once and
//! appended rarely; segments give `append` for free (a new segment and a
//! new manifest renamed into place, atomic) and merging at read time costs
//! one binary search per segment.
//!
//! # Building in bounded memory
//!
//! Postings go to a buffer of [`BuildOptions::run_positions`] (8 Mi, 128
//! MiB); a full buffer is appended, unsorted, to one spill file in 64 KiB
//! pieces of 128 partitions by the top bits of the keys (on a thread of its
//! own, while the reading goes on); at the end each partition is read back and sorted in memory (one
//! larger than its share is split again by its next bits), in key order, so
//! that `seg-N.pos` is written and `seg-N.stats` counted from one sorted
//! stream with no merge of runs. Zobrist keys are random: the partitions
//! are about equal.
//! The game records (48 bytes a game) stay in memory for that count. A
//! build writes to a hidden temporary folder and renames it into place.

mod book;
mod build;
mod error;
mod game_info;
mod game_order;
mod index;
mod manifest;
pub mod moves;
mod partition;
mod position_text;
mod record;
mod scan;
mod search;
mod sort;
mod sorted_write;
mod tree;

pub use book::{
    Book, BookEntry, BookMove, BookOptions, BookProbe, MadeBook, decode_move, encode_move,
    make_book, write_book,
};
pub use build::{BuildOptions, BuildSummary, append, build};
pub use error::IndexError;
pub use game_info::{Filter, Side, Speed, date_bound, date_number};
pub use index::Index;
pub use position_text::parse_position;
pub use record::{GameRecord, NO_MOVE, VERSION};
pub use search::{GameHit, GameHits, Hit, SearchOptions, search_scan};
pub use tree::{GameSummary, MoveStats, Tree, TreeMove, tree_scan};

/// The example of this crate's README (its crates.io page), compiled and run as a
/// doctest so that it stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
