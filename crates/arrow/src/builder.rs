//! Arrow builders for the games and moves tables: [`GamesBuilder`] (one row per game)
//! and [`MovesBuilder`] (one row per main-line move); the positions table's is
//! [`PositionsBuilder`](crate::PositionsBuilder), on the same rules. Each gathers rows
//! until [`is_full`](GamesBuilder::is_full) (a row count or a byte budget,
//! so a batch stays bounded whatever the games hold) and
//! [`finish`](GamesBuilder::finish)es a [`RecordBatch`].

use std::sync::Arc;

use arrow_array::builder::StringBuilder;
use arrow_array::cast::AsArray;
use arrow_array::types::{
    Date32Type, Int16Type, Int32Type, Time32SecondType, UInt16Type, UInt64Type,
};
use arrow_array::{ArrayRef, RecordBatch, UInt64Array};
use arrow_schema::{Field, Schema, SchemaRef};

use crate::columns::{ByteLists, Flags, LongTexts, ShortTexts, TagMap, Texts, Values, text};
use crate::error::Error;
use crate::errors::ErrorsBuilder;
use crate::record::{GameRecord, RATING_TAGS, STRING_TAGS};

/// Which optional columns the tables have.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TableOptions {
    /// The moves table has a `fen` column (the position after each move), the positions
    /// table an `epd` column.
    pub fen: bool,
    /// The games table has an `errors` column (`--keep-broken`).
    pub errors: bool,
}

/// When a builder's batch is full.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BatchLimits {
    /// Rows per batch at most.
    pub rows: usize,
    /// Bytes of strings gathered per batch at most (checked after each row).
    pub bytes: usize,
}

impl BatchLimits {
    /// 1024 games or 1 MiB of text per games batch. Batches are small so
    /// that the few in flight between the builder and a writer thread
    /// ([`WriterThread`](crate::WriterThread)) cost little memory; the
    /// Parquet writer gathers them into row groups of its own size.
    pub const GAMES: BatchLimits = BatchLimits {
        rows: 1024,
        bytes: 1 << 20,
    };
    /// 16384 moves or 1 MiB of text per moves batch.
    pub const MOVES: BatchLimits = BatchLimits {
        rows: 16_384,
        bytes: 1 << 20,
    };
    /// 16384 positions or 1 MiB of text per positions batch.
    pub const POSITIONS: BatchLimits = BatchLimits {
        rows: 16_384,
        bytes: 1 << 20,
    };
}

/// Where a game's row comes from: its number in input order (counting
/// every game read, across inputs) and its input's name.
#[derive(Debug, Clone, Copy)]
pub struct RowSource<'a> {
    /// `game_id`.
    pub game_id: u64,
    /// `source`.
    pub source: &'a str,
}

/// How full a builder's batch is, against its [`BatchLimits`]: the one rule the builders
/// follow.
#[derive(Debug)]
pub(crate) struct Fill {
    limits: BatchLimits,
    pub(crate) rows: usize,
    pub(crate) bytes: usize,
}

impl Fill {
    pub(crate) fn new(limits: BatchLimits) -> Fill {
        Fill {
            limits,
            rows: 0,
            bytes: 0,
        }
    }

    pub(crate) fn is_full(&self) -> bool {
        self.rows >= self.limits.rows || self.bytes >= self.limits.bytes
    }

    /// Empties the count for the next batch.
    pub(crate) fn reset(&mut self) {
        self.rows = 0;
        self.bytes = 0;
    }
}

/// Builds games-table batches.
#[derive(Debug)]
pub struct GamesBuilder {
    options: TableOptions,
    fill: Fill,
    game_id: Values<UInt64Type>,
    source: Texts,
    offset: Values<UInt64Type>,
    strings: Vec<Texts>,
    ratings: Vec<Values<Int16Type>>,
    utc_date: Values<Date32Type>,
    utc_time: Values<Time32SecondType>,
    game_date: Values<Date32Type>,
    time_base: Values<Int32Type>,
    time_increment: Values<Int32Type>,
    variant: Texts,
    tags: TagMap,
    movetext: LongTexts,
    ply_count: Values<UInt16Type>,
    final_fen: LongTexts,
    outcome: Texts,
    errors: ErrorsBuilder,
}

impl GamesBuilder {
    /// An empty builder.
    pub fn new(options: TableOptions, limits: BatchLimits) -> GamesBuilder {
        GamesBuilder {
            options,
            fill: Fill::new(limits),
            game_id: Values::new(),
            source: Texts::new(),
            offset: Values::new(),
            strings: STRING_TAGS.iter().map(|_| Texts::new()).collect(),
            ratings: RATING_TAGS.iter().map(|_| Values::new()).collect(),
            utc_date: Values::new(),
            utc_time: Values::new(),
            game_date: Values::new(),
            time_base: Values::new(),
            time_increment: Values::new(),
            variant: Texts::new(),
            tags: TagMap::new(),
            movetext: LongTexts::default(),
            ply_count: Values::new(),
            final_fen: LongTexts::default(),
            outcome: Texts::new(),
            errors: ErrorsBuilder::default(),
        }
    }

    /// The games table's schema for `options`.
    pub fn schema(options: TableOptions) -> SchemaRef {
        // Taken from an empty batch, so it is the builders' by construction.
        GamesBuilder::new(options, BatchLimits::GAMES)
            .finish()
            .map(|batch| batch.schema())
            .unwrap_or_else(|_| Arc::new(Schema::empty()))
    }

    /// Appends one game's row.
    pub fn push(&mut self, source: RowSource<'_>, record: &GameRecord) -> Result<(), Error> {
        if self.fill.rows == 0 {
            self.start();
        }
        let bytes = &mut self.fill.bytes;
        self.game_id.push(Some(source.game_id));
        self.source.push(Some(source.source), bytes);
        self.offset.push(Some(record.offset));
        for (column, value) in self.strings.iter_mut().zip(&record.strings) {
            column.push(value.as_deref(), bytes);
        }
        for (column, value) in self.ratings.iter_mut().zip(record.ratings) {
            column.push(value);
        }
        self.utc_date.push(record.utc_date);
        self.utc_time.push(record.utc_time);
        self.game_date.push(record.game_date);
        self.time_base.push(record.time_base);
        self.time_increment.push(record.time_increment);
        self.variant.push(record.variant.as_deref(), bytes);
        self.tags.push(&record.other_tags, bytes);
        self.movetext.push(record.movetext.as_deref(), bytes);
        self.ply_count.push(Some(record.ply_count()));
        self.final_fen.push(record.final_fen.as_deref(), bytes);
        self.outcome.push(record.outcome, bytes);
        if self.options.errors {
            *bytes += self.errors.push(&record.errors)?;
        }
        self.fill.rows += 1;
        Ok(())
    }

    /// Before a batch's first row: its text columns take the room the last batch took
    /// (growing them from nothing copied each a dozen times a batch).
    #[inline(never)]
    fn start(&mut self) {
        for column in [&mut self.source, &mut self.variant, &mut self.outcome]
            .into_iter()
            .chain(&mut self.strings)
        {
            column.start();
        }
        self.tags.start();
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
            ("game_id", false, self.game_id.finish()),
            ("source", false, self.source.finish()?),
            ("offset", false, self.offset.finish()),
        ];
        for (name, column) in STRING_TAGS.iter().zip(&mut self.strings) {
            columns.push((name, true, column.finish()?));
        }
        for (name, column) in RATING_TAGS.iter().zip(&mut self.ratings) {
            columns.push((name, true, column.finish()));
        }
        columns.extend([
            ("UTCDate", true, self.utc_date.finish()),
            ("UTCTime", true, self.utc_time.finish()),
            ("game_date", true, self.game_date.finish()),
            ("time_base", true, self.time_base.finish()),
            ("time_increment", true, self.time_increment.finish()),
            ("variant", true, self.variant.finish()?),
            ("tags", false, self.tags.finish()?),
            ("movetext", true, self.movetext.finish()),
            ("ply_count", false, self.ply_count.finish()),
            ("final_fen", true, self.final_fen.finish()),
            ("outcome", true, self.outcome.finish()?),
        ]);
        if self.options.errors {
            columns.push(("errors", false, self.errors.finish()));
        }
        batch(columns)
    }
}

/// `batch` (of any table) with `first` added to each `game_id`: for rows built apart from
/// the run's count (a worker's batch of games numbered from 0), made the run's.
///
/// ```
/// use pgnkit_arrow::{BatchLimits, GamesBuilder, RecordOptions, RecordVisitor, RowSource, TableOptions, renumber};
/// use pgnkit_arrow::arrow_array::{cast::AsArray, types::UInt64Type};
/// use pgnkit_game::{visit_games_with, ReadOptions};
///
/// let mut games = GamesBuilder::new(TableOptions::default(), BatchLimits::GAMES);
/// let visitor = RecordVisitor::new(RecordOptions::default());
/// for (i, game) in visit_games_with(b"1. e4 *\n\n1. d4 *\n", visitor, ReadOptions::new()).enumerate() {
///     games.push(RowSource { game_id: i as u64, source: "a.pgn" }, &game.value)?;
/// }
/// let batch = renumber(&games.finish()?, 40)?;
/// let ids = batch.column_by_name("game_id").unwrap().as_primitive::<UInt64Type>();
/// assert_eq!(ids.values(), &[40, 41]);
/// # Ok::<(), pgnkit_arrow::Error>(())
/// ```
pub fn renumber(batch: &RecordBatch, first: u64) -> Result<RecordBatch, Error> {
    shift(
        batch,
        Shift {
            game_id: first,
            ..Shift::default()
        },
    )
}

/// What [`shift`] adds: to `game_id`, to `offset`, and to the line of every error.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Shift {
    /// Added to `game_id`.
    pub game_id: u64,
    /// Added to `offset` (games table).
    pub offset: u64,
    /// Added to the `line` of each error in `errors` (games table with errors).
    pub lines: u64,
}

/// `batch` (of any table) with rows read apart placed in a bigger read: [`Shift`]'s
/// numbers added to its `game_id`, `offset` and the lines of its `errors` (the columns it
/// has). How a partition of a file read on its own is made a part of the file's read.
///
/// ```
/// use pgnkit_arrow::{ConversionOptions, Conversion, Report, Shift, Stream, shift};
/// use pgnkit_arrow::arrow_array::{cast::AsArray, types::UInt64Type};
///
/// let options = ConversionOptions { keep_broken: true, ..ConversionOptions::default() };
/// let mut batches = Vec::new();
/// Conversion::new(&options, 0, 1).run_stream(
///     pgnkit_lexer::Reader::new(&b"1. e4 *\n\n1. Ke2 *\n"[..]),
///     Stream::default(),
///     &mut Report::default(),
///     |_, _, batch| Ok::<_, ()>(batches.push(batch)),
/// ).unwrap();
/// let placed = shift(&batches[0], Shift { game_id: 10, offset: 100, lines: 1000 })?;
/// let ids = placed.column_by_name("game_id").unwrap().as_primitive::<UInt64Type>();
/// assert_eq!(ids.values(), &[10, 11]);
/// let errors = placed.column_by_name("errors").unwrap().as_list::<i32>().value(1);
/// assert_eq!(errors.as_struct().column(0).as_primitive::<UInt64Type>().value(0), 1003);
/// # Ok::<(), pgnkit_arrow::Error>(())
/// ```
pub fn shift(batch: &RecordBatch, by: Shift) -> Result<RecordBatch, Error> {
    if by == Shift::default() {
        return Ok(batch.clone());
    }
    let schema = batch.schema();
    let mut columns = batch.columns().to_vec();
    for (name, plus) in [("game_id", by.game_id), ("offset", by.offset)] {
        if plus == 0 {
            continue;
        }
        if let Some((at, _)) = schema.column_with_name(name)
            && let Some(values) = batch.column(at).as_primitive_opt::<UInt64Type>()
        {
            let shifted: UInt64Array = values.unary(|v| v + plus);
            columns[at] = Arc::new(shifted);
        }
    }
    if by.lines > 0
        && let Some((at, _)) = schema.column_with_name("errors")
    {
        columns[at] = crate::errors::shift_lines(batch.column(at), by.lines)?;
    }
    Ok(RecordBatch::try_new(schema, columns)?)
}

/// `batch` (of any table, `game_id`s ascending as the builders write them) cut where its
/// `game_id` passes a multiple of `every`: the pieces in order, each with its part
/// (`game_id / every`). How a table is laid out in files of `every` games read, the two
/// tables alike (`pgnkit convert --split-every`). A batch without a `game_id` column is one
/// piece of part 0.
///
/// ```
/// use pgnkit_arrow::{BatchLimits, GamesBuilder, RecordOptions, RecordVisitor, RowSource, TableOptions, parts_by_game_id};
/// use pgnkit_game::{visit_games_with, ReadOptions};
///
/// let mut games = GamesBuilder::new(TableOptions::default(), BatchLimits::GAMES);
/// let visitor = RecordVisitor::new(RecordOptions::default());
/// let text = b"1. e4 *\n\n1. d4 *\n\n1. c4 *\n\n1. Nf3 *\n";
/// for (i, game) in visit_games_with(text, visitor, ReadOptions::new()).enumerate() {
///     games.push(RowSource { game_id: 3 + i as u64, source: "a.pgn" }, &game.value)?;
/// }
/// let parts: Vec<(u64, usize)> = parts_by_game_id(&games.finish()?, 2)
///     .into_iter()
///     .map(|(part, piece)| (part, piece.num_rows()))
///     .collect();
/// assert_eq!(parts, [(1, 1), (2, 2), (3, 1)]); // ids 3 | 4 5 | 6
/// # Ok::<(), pgnkit_arrow::Error>(())
/// ```
pub fn parts_by_game_id(batch: &RecordBatch, every: u64) -> Vec<(u64, RecordBatch)> {
    let every = every.max(1);
    let Some(ids) = batch
        .column_by_name("game_id")
        .and_then(|c| c.as_primitive_opt::<UInt64Type>())
    else {
        return vec![(0, batch.clone())];
    };
    let ids = ids.values();
    let mut pieces = Vec::new();
    let mut start = 0;
    while let Some(&first) = ids.get(start) {
        let part = first / every;
        let len = ids[start..].partition_point(|&id| id / every == part);
        pieces.push((part, batch.slice(start, len)));
        start += len;
    }
    pieces
}

/// Adds a builder's finished batch to the batches gathered so far: a batch
/// with no rows is left out, and after an error nothing more is added (the
/// first error is the one kept). How a worker gathers its part of a table
/// from [`GamesBuilder::finish`] and [`MovesBuilder::finish`].
pub fn append_batch(to: &mut Result<Vec<RecordBatch>, Error>, batch: Result<RecordBatch, Error>) {
    if let Ok(batches) = to {
        match batch {
            Ok(batch) if batch.num_rows() == 0 => {}
            Ok(batch) => batches.push(batch),
            Err(e) => *to = Err(e),
        }
    }
}

pub(crate) fn batch(columns: Vec<(&str, bool, ArrayRef)>) -> Result<RecordBatch, Error> {
    let fields: Vec<Field> = columns
        .iter()
        .map(|(name, nullable, array)| Field::new(*name, array.data_type().clone(), *nullable))
        .collect();
    let arrays = columns.into_iter().map(|(_, _, array)| array).collect();
    Ok(RecordBatch::try_new(Arc::new(Schema::new(fields)), arrays)?)
}

/// Builds moves-table batches.
#[derive(Debug)]
pub struct MovesBuilder {
    options: TableOptions,
    fill: Fill,
    game_id: Values<UInt64Type>,
    ply: Values<UInt16Type>,
    san: ShortTexts,
    uci: ShortTexts,
    fen: StringBuilder,
    clock: Values<Int32Type>,
    emt: Values<Int32Type>,
    eval_cp: Values<Int32Type>,
    eval_mate: Values<Int16Type>,
    nags: ByteLists,
    comment: LongTexts,
    is_check: Flags,
    is_capture: Flags,
    piece: ShortTexts,
    from_square: ShortTexts,
    to_square: ShortTexts,
    promotion: ShortTexts,
}

impl MovesBuilder {
    /// An empty builder.
    pub fn new(options: TableOptions, limits: BatchLimits) -> MovesBuilder {
        MovesBuilder {
            options,
            fill: Fill::new(limits),
            game_id: Values::new(),
            ply: Values::new(),
            san: ShortTexts::new(),
            uci: ShortTexts::new(),
            fen: StringBuilder::new(),
            clock: Values::new(),
            emt: Values::new(),
            eval_cp: Values::new(),
            eval_mate: Values::new(),
            nags: ByteLists::new(),
            comment: LongTexts::default(),
            is_check: Flags::default(),
            is_capture: Flags::default(),
            piece: ShortTexts::new(),
            from_square: ShortTexts::new(),
            to_square: ShortTexts::new(),
            promotion: ShortTexts::new(),
        }
    }

    /// The moves table's schema for `options`.
    pub fn schema(options: TableOptions) -> SchemaRef {
        MovesBuilder::new(options, BatchLimits::MOVES)
            .finish()
            .map(|batch| batch.schema())
            .unwrap_or_else(|_| Arc::new(Schema::empty()))
    }

    /// Appends the rows of one game's main-line moves. A game may overflow
    /// the limits by its own moves (at most one game's worth).
    ///
    /// Filled a column at a time: each column's loop keeps its own buffer in registers and
    /// its room is made once, and a column whose rows are all valid (or all null) counts
    /// them in one step. Row by row, the seventeen buffers were reloaded and checked for
    /// room at every row (470 instructions a move on the guard's sample).
    pub fn push(&mut self, game_id: u64, record: &GameRecord) {
        let rows = &record.moves[..];
        let bytes = &mut self.fill.bytes;
        self.game_id.extend(rows.iter().map(|_| game_id));
        self.ply
            .extend((1..=rows.len()).map(|i| u16::try_from(i).unwrap_or(u16::MAX)));
        let texts = self.san.extend_texts(rows, |row| Some(&row.san))
            + self.uci.extend_texts(rows, |row| Some(&row.uci));
        if self.options.fen {
            for row in rows {
                text(&mut self.fen, row.fen.as_deref(), bytes);
            }
        }
        self.clock.extend_options(rows.iter().map(|row| row.clock));
        self.emt.extend_options(rows.iter().map(|row| row.emt));
        self.eval_cp
            .extend_options(rows.iter().map(|row| row.eval_cp));
        self.eval_mate
            .extend_options(rows.iter().map(|row| row.eval_mate));
        for row in rows {
            self.nags.push(&row.nags);
        }
        self.comment
            .extend(rows.iter().map(|row| row.comment.as_deref()), bytes);
        self.is_check.extend(rows.iter().map(|row| row.is_check));
        self.is_capture
            .extend(rows.iter().map(|row| row.is_capture));
        self.piece.extend_letters(rows.iter().map(|row| row.piece));
        self.from_square
            .extend_texts(rows, |row| row.from_square.as_ref());
        self.to_square
            .extend_texts(rows, |row| row.to_square.as_ref());
        self.promotion
            .extend_letters(rows.iter().map(|row| row.promotion));
        // SAN and UCI (at most 8 bytes each), the squares and letters.
        *bytes += 16 * rows.len() + texts;
        self.fill.rows += rows.len();
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
            ("game_id", false, self.game_id.finish()),
            ("ply", false, self.ply.finish()),
            ("san", false, self.san.finish()?),
            ("uci", false, self.uci.finish()?),
        ];
        if self.options.fen {
            columns.push(("fen", true, Arc::new(self.fen.finish())));
        }
        columns.extend([
            ("clock", true, self.clock.finish()),
            ("emt", true, self.emt.finish()),
            ("eval_cp", true, self.eval_cp.finish()),
            ("eval_mate", true, self.eval_mate.finish()),
            ("nags", false, self.nags.finish()),
            ("comment", true, self.comment.finish()),
            ("is_check", false, self.is_check.finish()),
            ("is_capture", false, self.is_capture.finish()),
            ("piece", true, self.piece.finish()?),
            ("from_square", true, self.from_square.finish()?),
            ("to_square", true, self.to_square.finish()?),
            ("promotion", true, self.promotion.finish()?),
        ]);
        batch(columns)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{RecordOptions, RecordVisitor};
    use arrow_array::Array;
    use pgnkit_game::{ReadOptions, visit_games_with};

    fn records(pgn: &[u8]) -> Vec<GameRecord> {
        visit_games_with(
            pgn,
            RecordVisitor::new(RecordOptions {
                fen: true,
                ..RecordOptions::default()
            }),
            ReadOptions::new(),
        )
        .map(|game| game.value)
        .collect()
    }

    #[test]
    fn append_batch_skips_empty_batches_and_keeps_the_first_error() {
        let rows = |n: usize| {
            let mut games = GamesBuilder::new(TableOptions::default(), BatchLimits::GAMES);
            for (i, game) in records(&b"1. e4 *\n\n".repeat(n)).iter().enumerate() {
                let source = RowSource {
                    game_id: i as u64,
                    source: "a.pgn",
                };
                games.push(source, game).unwrap();
            }
            games.finish()
        };
        let mut to = Ok(Vec::new());
        append_batch(&mut to, rows(2));
        append_batch(&mut to, rows(0));
        append_batch(&mut to, rows(1));
        let counts: Vec<usize> = to.as_ref().unwrap().iter().map(|b| b.num_rows()).collect();
        assert_eq!(counts, [2, 1]);
        append_batch(&mut to, Err(Error::Io(std::io::Error::other("first"))));
        append_batch(&mut to, Err(Error::Io(std::io::Error::other("second"))));
        append_batch(&mut to, rows(1));
        assert!(to.unwrap_err().to_string().contains("first"));
    }

    #[test]
    fn one_game_one_row_and_a_row_per_move() {
        let pgn = b"[Event \"E\"]\n[WhiteElo \"1500\"]\n[Foo \"bar\"]\n\n\
                    1. e4 { [%clk 0:03:00] nice } e5 $1 (1... c5) 2. Qh5 *\n";
        let games = records(pgn);
        let options = TableOptions {
            fen: true,
            errors: true,
        };
        let mut builder = GamesBuilder::new(options, BatchLimits::GAMES);
        builder
            .push(
                RowSource {
                    game_id: 7,
                    source: "x.pgn",
                },
                &games[0],
            )
            .unwrap();
        let batch = builder.finish().unwrap();
        assert_eq!(batch.num_rows(), 1);
        assert_eq!(batch.schema(), GamesBuilder::schema(options));
        let elo = batch.column_by_name("WhiteElo").unwrap();
        assert!(!elo.is_null(0));
        let mut moves = MovesBuilder::new(options, BatchLimits::MOVES);
        moves.push(7, &games[0]);
        let batch = moves.finish().unwrap();
        assert_eq!(batch.num_rows(), 3);
        assert_eq!(batch.schema(), MovesBuilder::schema(options));
        assert_eq!(games[0].moves[0].clock, Some(180_000));
        assert_eq!(games[0].moves[0].comment.as_deref(), Some("nice"));
        assert_eq!(games[0].moves[1].nags, [1]);
        assert_eq!(games[0].moves[2].san, "Qh5");
    }

    #[test]
    fn no_two_column_names_are_equal_ignoring_case() {
        // Spark SQL, Hive, DuckDB, BigQuery and Snowflake read names without case: `Date`
        // and `date` in one table are an ambiguous reference there (or become `date_1`).
        for fen in [false, true] {
            for errors in [false, true] {
                let options = TableOptions { fen, errors };
                for schema in [GamesBuilder::schema(options), MovesBuilder::schema(options)] {
                    let mut seen = std::collections::BTreeMap::new();
                    for field in schema.fields() {
                        let folded = field.name().to_lowercase();
                        if let Some(before) = seen.insert(folded, field.name().clone()) {
                            panic!("{before} and {} ({options:?})", field.name());
                        }
                    }
                    assert!(seen.len() > 10);
                }
            }
        }
        let games = GamesBuilder::schema(TableOptions::default());
        assert!(games.column_with_name("Date").is_some());
        assert!(games.column_with_name("game_date").is_some());
    }

    #[test]
    fn limits_bound_a_batch() {
        let games = records(b"1. e4 e5 *\n\n1. d4 *\n\n1. c4 *\n");
        let mut builder = GamesBuilder::new(
            TableOptions::default(),
            BatchLimits {
                rows: 2,
                bytes: 1 << 20,
            },
        );
        for (i, game) in games.iter().enumerate() {
            assert!(!builder.is_full());
            let source = RowSource {
                game_id: i as u64,
                source: "-",
            };
            builder.push(source, game).unwrap();
            if builder.is_full() {
                assert_eq!(builder.finish().unwrap().num_rows(), 2);
            }
        }
        assert_eq!(builder.len(), 1);
    }
}
