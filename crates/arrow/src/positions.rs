//! The positions table: one row per position of a game's main line, the
//! start position included (ply 0), keyed by the Polyglot key, so that
//! "which games reach this position" and "what was played here" are a join
//! or a group-by in DuckDB, Spark or pandas.
//!
//! [`PositionRecord::of`](crate::PositionRecord::of) is what one position becomes (filled by
//! [`RecordVisitor`](crate::RecordVisitor) with
//! [`RecordOptions::positions`](crate::RecordOptions::positions));
//! [`PositionsBuilder`] makes the rows, the move played from each position
//! taken from the game's [`MoveRecord`](crate::MoveRecord)s (null after the
//! last move).
//!
//! The optional `epd` column (with [`TableOptions::fen`]) is the position's
//! EPD (FEN without its two move counters, the en passant square only when
//! a capture is legal, as python-chess's `board.epd()`): two rows hold the
//! same EPD exactly when they are the same position as the key sees it,
//! which a FEN's counters would break.

use std::sync::Arc;

use arrow_array::builder::{
    BinaryBuilder, StringBuilder, UInt8Builder, UInt16Builder, UInt64Builder,
};
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{Schema, SchemaRef};

use crate::builder::{BatchLimits, Fill, TableOptions, batch};
use crate::columns::{text, utf8};
use crate::error::Error;
use crate::move_text::MoveText;
use crate::record::GameRecord;

/// Builds positions-table batches.
#[derive(Debug)]
pub struct PositionsBuilder {
    options: TableOptions,
    fill: Fill,
    game_id: UInt64Builder,
    ply: UInt16Builder,
    key: UInt64Builder,
    epd: StringBuilder,
    side_to_move: BinaryBuilder,
    uci: BinaryBuilder,
    pieces: UInt8Builder,
    white_material: UInt8Builder,
    black_material: UInt8Builder,
}

impl PositionsBuilder {
    /// An empty builder.
    pub fn new(options: TableOptions, limits: BatchLimits) -> PositionsBuilder {
        PositionsBuilder {
            options,
            fill: Fill::new(limits),
            game_id: UInt64Builder::new(),
            ply: UInt16Builder::new(),
            key: UInt64Builder::new(),
            epd: StringBuilder::new(),
            side_to_move: BinaryBuilder::new(),
            uci: BinaryBuilder::new(),
            pieces: UInt8Builder::new(),
            white_material: UInt8Builder::new(),
            black_material: UInt8Builder::new(),
        }
    }

    /// The positions table's schema for `options`.
    pub fn schema(options: TableOptions) -> SchemaRef {
        PositionsBuilder::new(options, BatchLimits::POSITIONS)
            .finish()
            .map(|batch| batch.schema())
            .unwrap_or_else(|_| Arc::new(Schema::empty()))
    }

    /// Appends the rows of one game's main-line positions (`ply` 0, the start position, to
    /// the last), each with the move played from it. A game may overflow the limits by its
    /// own positions (at most one game's worth).
    pub fn push(&mut self, game_id: u64, record: &GameRecord) {
        let bytes = &mut self.fill.bytes;
        for (i, row) in record.positions.iter().enumerate() {
            self.game_id.append_value(game_id);
            self.ply.append_value(u16::try_from(i).unwrap_or(u16::MAX));
            self.key.append_value(row.key);
            if self.options.fen {
                text(&mut self.epd, row.epd.as_deref(), bytes);
            }
            self.side_to_move
                .append_value(if row.white_to_move { b"w" } else { b"b" });
            let played = record.moves.get(i).map(|m| m.uci);
            self.uci
                .append_option(played.as_ref().map(MoveText::as_bytes));
            self.pieces.append_value(row.pieces);
            self.white_material.append_value(row.white_material);
            self.black_material.append_value(row.black_material);
            // The key, the counts, the side and the UCI move.
            *bytes += 24;
            self.fill.rows += 1;
        }
    }

    /// Rows gathered.
    pub fn len(&self) -> usize {
        self.fill.rows
    }

    /// No rows gathered.
    pub fn is_empty(&self) -> bool {
        self.fill.rows == 0
    }

    /// The batch reached its row count or byte budget.
    pub fn is_full(&self) -> bool {
        self.fill.is_full()
    }

    /// The gathered rows as a batch; the builder starts again empty.
    pub fn finish(&mut self) -> Result<RecordBatch, Error> {
        self.fill.reset();
        let mut columns: Vec<(&str, bool, ArrayRef)> = vec![
            ("game_id", false, Arc::new(self.game_id.finish())),
            ("ply", false, Arc::new(self.ply.finish())),
            ("polyglot_key", false, Arc::new(self.key.finish())),
        ];
        if self.options.fen {
            columns.push(("epd", true, Arc::new(self.epd.finish())));
        }
        columns.extend([
            ("side_to_move", false, utf8(&mut self.side_to_move)?),
            ("uci", true, utf8(&mut self.uci)?),
            ("pieces", false, Arc::new(self.pieces.finish()) as ArrayRef),
            (
                "white_material",
                false,
                Arc::new(self.white_material.finish()),
            ),
            (
                "black_material",
                false,
                Arc::new(self.black_material.finish()),
            ),
        ]);
        batch(columns)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{RecordOptions, RecordVisitor};
    use arrow_array::Array;
    use arrow_array::cast::AsArray;
    use arrow_array::types::{UInt16Type, UInt64Type};
    use pgnkit_game::{ReadOptions, visit_games_with};

    fn records(pgn: &[u8], fen: bool) -> Vec<GameRecord> {
        let options = RecordOptions {
            fen,
            positions: true,
            ..RecordOptions::default()
        };
        visit_games_with(pgn, RecordVisitor::new(options), ReadOptions::new())
            .map(|game| game.value)
            .collect()
    }

    #[test]
    fn a_row_per_position_the_start_included_with_the_move_played_from_it() {
        let games = records(b"1. e4 e5 (1... c5) 2. Qh5 *\n\n*\n", true);
        let options = TableOptions {
            fen: true,
            errors: false,
        };
        let mut builder = PositionsBuilder::new(options, BatchLimits::POSITIONS);
        builder.push(3, &games[0]);
        builder.push(4, &games[1]);
        let batch = builder.finish().unwrap();
        assert_eq!(batch.schema(), PositionsBuilder::schema(options));
        assert_eq!(
            batch.num_rows(),
            4 + 1,
            "three moves, four positions; then a game without moves"
        );
        let ply = batch
            .column_by_name("ply")
            .unwrap()
            .as_primitive::<UInt16Type>();
        assert_eq!(ply.values(), &[0, 1, 2, 3, 0]);
        let ids = batch
            .column_by_name("game_id")
            .unwrap()
            .as_primitive::<UInt64Type>();
        assert_eq!(ids.values(), &[3, 3, 3, 3, 4]);
        let keys = batch
            .column_by_name("polyglot_key")
            .unwrap()
            .as_primitive::<UInt64Type>();
        // The Polyglot format's own test vectors: the start position, and after 1. e4.
        assert_eq!(keys.value(0), 0x463b_9618_1691_fc9c);
        assert_eq!(keys.value(1), 0x823c_9b50_fd11_4196);
        assert_eq!(keys.value(4), keys.value(0));
        let uci = batch.column_by_name("uci").unwrap().as_string::<i32>();
        assert_eq!(uci.value(0), "e2e4");
        assert_eq!(uci.value(2), "d1h5");
        assert!(
            uci.is_null(3) && uci.is_null(4),
            "no move from the last position"
        );
        let side = batch
            .column_by_name("side_to_move")
            .unwrap()
            .as_string::<i32>();
        assert_eq!((side.value(0), side.value(1)), ("w", "b"));
        let epd = batch.column_by_name("epd").unwrap().as_string::<i32>();
        assert_eq!(
            epd.value(1),
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -"
        );
    }

    #[test]
    fn no_epd_column_without_fen_and_material_counts_captures() {
        let games = records(b"1. e4 d5 2. exd5 Qxd5 *\n", false);
        let options = TableOptions::default();
        let mut builder = PositionsBuilder::new(options, BatchLimits::POSITIONS);
        builder.push(0, &games[0]);
        let batch = builder.finish().unwrap();
        assert!(batch.column_by_name("epd").is_none());
        let white = batch
            .column_by_name("white_material")
            .unwrap()
            .as_primitive::<arrow_array::types::UInt8Type>();
        let black = batch
            .column_by_name("black_material")
            .unwrap()
            .as_primitive::<arrow_array::types::UInt8Type>();
        let pieces = batch
            .column_by_name("pieces")
            .unwrap()
            .as_primitive::<arrow_array::types::UInt8Type>();
        assert_eq!(white.values(), &[39, 39, 39, 39, 38]);
        assert_eq!(black.values(), &[39, 39, 39, 38, 38]);
        assert_eq!(pieces.values(), &[32, 32, 32, 31, 30]);
    }
}
