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
//! line (`pgnkit-index 3`; a newer one is refused naming both versions, an
//! older one asks to be rebuilt) and, as JSON, the sources (path, stream,
//! size, modification time and a hash of 3 × 64 KiB samples, checked before
//! an offset is used) and the segments. Each build or `append` adds one
//! segment of four files, each a 16-byte header (magic, version, record
//! size) and fixed-size little-endian records:
//!
//! - `seg-N.pos`: 16-byte postings (key, move, game, ply as one number), one
//!   per main-line position of every game (the last with no move), by
//!   partition: the top 10 bits of the key. Each partition's postings lie
//!   in pieces of at most 1,024, in the order the games were read.
//! - `seg-N.pieces`: where each piece is (partition, first posting, count),
//!   by partition. A lookup finds its partition's pieces by two binary
//!   searches, reads them (1/1024 of the segment's postings: the keys are
//!   random) and keeps its key's postings, already in game order.
//! - `seg-N.games`: 48-byte game records (source, offset, game number,
//!   date, ratings, result, speed class, plies, where the names are);
//!   `seg-N.names`: the player names.
//!
//! A tree reads the position's postings and their games' records in each
//! segment and counts each move's games, with or without a filter (ratings,
//! speed, dates, player).
//!
//! # Why this layout
//!
//! Fixed-size records need no dependency and no parsing: a lookup is a few
//! positioned reads (`pread`), served by the page cache when warm, and a
//! truncated or corrupt file is caught by the header and length checks
//! against the manifest instead of faulting as a mapped file would. The
//! postings are not sorted by key: the build writes them by partition as
//! they come, in one pass, and nothing is read back, sorted or merged (a
//! build that sorted them and counted each move's statistics took 2.5
//! times `check`'s time; this one takes about 1.9, docs/performance.md).
//! A lookup pays for it by reading its whole partition (half a megabyte
//! for the bench file ten times, 424,170 games), and a tree by counting
//! its position's games when asked. An embedded key-value store (an LSM or
//! B-tree crate) would bring its own write-ahead log and compaction to
//! store what is written once and appended rarely; segments give `append`
//! for free (a new segment and a new manifest renamed into place, atomic)
//! and reading several costs one lookup per segment.
//!
//! # Building in bounded memory
//!
//! Postings go to a buffer of [`BuildOptions::run_positions`] (2 Mi, 32
//! MiB); a full buffer is appended to `seg-N.pos` by partition, 16 KiB of
//! one partition at a time, on a thread of its own while the reading goes
//! on into a second buffer, and written back to disk on another. The game
//! records are written as they come. A build writes to a hidden temporary
//! folder and renames it into place.

mod book;
mod build;
mod error;
mod game_info;
mod index;
mod key_postings;
mod manifest;
pub mod moves;
mod partition;
mod position_text;
mod record;
mod scan;
mod search;
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
