//! Columnar output for pgnkit: games and moves as Arrow record batches,
//! written as Parquet, Arrow IPC (file or stream), CSV or NDJSON.
//!
//! Three tables come out of one pass over the games:
//!
//! - the **games table**, one row per game ([`GamesBuilder`]): the Lichess
//!   Parquet dataset's column names where they overlap (`Event`, `White`,
//!   `WhiteElo` as int16, `UTCDate` as date32, ...), `game_id`, `source`
//!   and `offset` to find each game's text again, every other tag in a
//!   `tags` map, `ply_count`, `final_fen`, `outcome`;
//! - the **moves table**, one row per main-line move ([`MovesBuilder`]):
//!   SAN, UCI, clock and eval from the `[%clk]`/`[%eval]` commands, NAGs,
//!   the comment without its commands, and what the move does. Variations
//!   stay out of it;
//! - the **positions table**, one row per main-line position, the start
//!   position included ([`PositionsBuilder`]): `game_id`, `ply`, the
//!   Polyglot key, side to move, the move played from it (UCI), material,
//!   and an optional EPD, so that "which games reach this position" is a
//!   join on the key.
//!
//! The games table's `movetext` column is the game in export format
//! without its tags: [`RecordTee`] fills it from `pgnkit-export`'s
//! `StreamWriter`, writing the movetext alone, read beside the record.
//!
//! The whole job, PGN source to tables, is [`conversion`]'s: every front-end
//! (`pgnkit convert`, the Python package) runs it with its options and a sink.
//!
//! A typed tag whose value cannot be read (`WhiteElo "abc"`) becomes a
//! null plus a [`TagWarning`], never a rejected game.
//!
//! ```
//! use pgnkit_arrow::{BatchLimits, GamesBuilder, RecordOptions, RecordVisitor, RowSource, TableOptions};
//! use pgnkit_game::{visit_games_with, ReadOptions};
//!
//! let pgn = b"[White \"A\"]\n[WhiteElo \"abc\"]\n\n1. e4 { [%clk 0:03:00] } e5 *\n";
//! let mut games = GamesBuilder::new(TableOptions::default(), BatchLimits::GAMES);
//! for (i, game) in visit_games_with(pgn, RecordVisitor::new(RecordOptions::default()), ReadOptions::new()).enumerate() {
//!     let record = game.value;
//!     assert_eq!(record.warnings.len(), 1); // WhiteElo: null, and a warning
//!     assert_eq!(record.moves[0].clock, Some(180_000));
//!     games.push(RowSource { game_id: i as u64, source: "example.pgn" }, &record)?;
//! }
//! let batch = games.finish()?;
//! assert_eq!(batch.num_rows(), 1);
//! # Ok::<(), pgnkit_arrow::Error>(())
//! ```

mod builder;
mod columns;
mod commands;
mod compression;
pub mod conversion;
mod csv;
mod error;
mod errors;
mod move_text;
mod positions;
mod record;
mod spare;
mod tee;
mod threaded;
mod typed;
mod writer;

pub use builder::{
    BatchLimits, GamesBuilder, MovesBuilder, RowSource, Shift, TableOptions, append_batch,
    parts_by_game_id, renumber, shift,
};
pub use compression::{CompressionError, ParquetCompression, ZSTD_LEVELS};
pub use conversion::{
    Conversion, ConversionOptions, GameRow, Placed, Placement, Report, RunError,
    STREAM_BATCH_BYTES, Stream, TABLE_BATCH_BYTES, TableJob, TableKind, TableState,
};
pub use error::{Error, TagWarning};
pub use move_text::MoveText;
pub use positions::PositionsBuilder;
pub use record::{
    GameRecord, MoveRecord, PositionRecord, RATING_TAGS, RecordError, RecordOptions, RecordVisitor,
    STRING_TAGS,
};
pub use tee::RecordTee;
pub use threaded::WriterThread;
pub use writer::{
    Format, ROW_GROUP_BYTES, ROW_GROUP_ROWS, TableWriter, WriterOptions, parquet_properties,
};

pub use arrow_schema::SchemaRef;
/// The Arrow and Parquet crates this one is built on (59.x), for callers
/// that need their types at the same version.
pub use {arrow_array, arrow_schema, parquet};

/// The example of this crate's README (its crates.io page), compiled and run as a
/// doctest so that it stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
