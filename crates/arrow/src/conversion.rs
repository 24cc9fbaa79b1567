//! The PGN-to-table job, once for every front-end (`pgnkit convert`, the
//! Python package's `read_arrow`, `to_parquet` and cluster partitions, and
//! those to come): games read on the library's ordered parallel runner
//! (`pgnkit_game::run_ordered_games`), each game's record made by a
//! [`RecordTee`], its rows appended on the worker that read it, the rows of
//! each batch of games handed over with the batch's last game, in input
//! order, then numbered with the run's `game_id`s and cut into parts.
//!
//! - [`ConversionOptions`]: which tables, what they hold, how games are read,
//!   what happens to broken games, opening classification, parts;
//! - [`TableJob`]: the work on each game (a [`pgnkit_game::Job`] for a
//!   caller that runs its own loop over its inputs: [`TableJob::run_game`],
//!   [`TableJob::end_batch`]), giving a [`GameRow`] per game;
//! - [`Placement`]: on the calling thread, the rows in input order made
//!   the run's (`game_id` renumbering across batches and streams, parts);
//! - [`Conversion`]: both over one stream after another, with a sink for the
//!   batches ([`Conversion::run_stream`]), for callers that need no more.
//!
//! Where the batches go (files, threads, a table in memory) is the caller's:
//! this module opens nothing and starts no thread of its own beyond the
//! runner's.

use std::borrow::Cow;
use std::io::{self, Read};

use arrow_array::RecordBatch;
use arrow_schema::SchemaRef;
use pgnkit_game::{Diagnostics, Job, ReadOptions, run_ordered_games, visit_tokenized};
use pgnkit_lexer::{self as lexer, TokenizedGame};
use pgnkit_select::Openings;

use crate::builder::{
    BatchLimits, GamesBuilder, MovesBuilder, RowSource, TableOptions, append_batch,
    parts_by_game_id, renumber,
};
use crate::error::{Error, TagWarning};
use crate::positions::PositionsBuilder;
use crate::record::{GameRecord, RecordError, RecordOptions, STRING_TAGS};
use crate::tee::RecordTee;

/// Bytes of PGN a worker turns into a piece of each table when the batches are streamed out
/// (`pgnkit convert`): about 60 games of the bench file, 5,000 moves. With 256 KiB the peak
/// RSS on the bench file was 12 MB higher (the pieces in flight between the workers, the
/// main thread and the writers), for 0.5% fewer instructions; with 64 KiB, 1.3% more
/// instructions than 128 KiB for no clear memory gain.
pub const STREAM_BATCH_BYTES: usize = 1 << 17;

/// Bytes of PGN a worker turns into a piece of the table when the table is gathered in memory
/// ([`Conversion`]: Python's tables): about 250 games of the bench file. The pieces are the
/// table's record batches (or cut smaller by the builder's [`BatchLimits`]); smaller pieces
/// would give a table of many short chunks, larger ones leave a thread idle on inputs of a
/// few batches.
pub const TABLE_BATCH_BYTES: usize = 1 << 19;

/// Which table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TableKind {
    /// One row per game ([`GamesBuilder`]).
    Games,
    /// One row per main-line move ([`MovesBuilder`]).
    Moves,
    /// One row per main-line position, the start included ([`PositionsBuilder`]).
    Positions,
}

impl TableKind {
    /// Every table, in the order a conversion hands their batches over.
    pub const ALL: [TableKind; 3] = [TableKind::Games, TableKind::Moves, TableKind::Positions];

    /// `games`, `moves` or `positions`, as the front-ends name the tables.
    pub fn parse(name: &str) -> Option<TableKind> {
        TableKind::ALL
            .into_iter()
            .find(|table| table.name() == name)
    }

    /// The table's name: `games`, `moves` or `positions`.
    pub fn name(self) -> &'static str {
        match self {
            TableKind::Games => "games",
            TableKind::Moves => "moves",
            TableKind::Positions => "positions",
        }
    }
}

/// What a conversion makes.
#[derive(Debug, Clone)]
pub struct ConversionOptions {
    /// How games are read (strict or not).
    pub read: ReadOptions,
    /// Build the games table.
    pub games: bool,
    /// Build the moves table.
    pub moves: bool,
    /// Build the positions table.
    pub positions: bool,
    /// The moves table gets a `fen` column, the positions table an `epd` column.
    pub fen: bool,
    /// Broken games are kept (with what was read before the error, and the games table
    /// gets an `errors` column); otherwise they are left out and only counted.
    pub keep_broken: bool,
    /// Set each game's `ECO` and `Opening` from this table (`Openings::classify_moves` of
    /// the main line as the reader resolved it); a game with no opening keeps its tags.
    pub openings: Option<Cow<'static, Openings>>,
    /// Cut the tables into parts of this many games read, by `game_id`
    /// ([`parts_by_game_id`]); `None`: one part, 0.
    pub split_every: Option<u64>,
}

impl Default for ConversionOptions {
    /// The games table alone, nothing optional.
    fn default() -> ConversionOptions {
        ConversionOptions {
            read: ReadOptions::new(),
            games: true,
            moves: false,
            positions: false,
            fen: false,
            keep_broken: false,
            openings: None,
            split_every: None,
        }
    }
}

impl ConversionOptions {
    /// The options of one table alone.
    pub fn one(table: TableKind) -> ConversionOptions {
        ConversionOptions {
            games: table == TableKind::Games,
            moves: table == TableKind::Moves,
            positions: table == TableKind::Positions,
            ..ConversionOptions::default()
        }
    }

    /// The tables' optional columns.
    pub fn table_options(&self) -> TableOptions {
        TableOptions {
            fen: self.fen,
            errors: self.keep_broken,
        }
    }

    /// The schema of `table` with these options.
    pub fn schema(&self, table: TableKind) -> SchemaRef {
        match table {
            TableKind::Games => GamesBuilder::schema(self.table_options()),
            TableKind::Moves => MovesBuilder::schema(self.table_options()),
            TableKind::Positions => PositionsBuilder::schema(self.table_options()),
        }
    }

    fn record_options(&self) -> RecordOptions {
        RecordOptions {
            fen: self.fen,
            // The games table alone needs the main line's length, not its moves
            // (classification keeps its own, in the tee); the positions table takes the
            // move played from each position from the moves.
            games_only: !self.moves && !self.positions,
            positions: self.positions,
        }
    }
}

/// The rows a worker built over one batch of games: handed over with the batch's last game,
/// their `game_id`s counted from the batch's first game ([`Placement`] makes them the run's).
#[derive(Debug)]
pub struct Piece {
    /// Games of the batch, kept or left out: its `game_id`s run from 0 to `count - 1`.
    count: u64,
    games: Result<Vec<RecordBatch>, Error>,
    moves: Result<Vec<RecordBatch>, Error>,
    positions: Result<Vec<RecordBatch>, Error>,
}

impl Piece {
    fn new() -> Piece {
        Piece {
            count: 0,
            games: Ok(Vec::new()),
            moves: Ok(Vec::new()),
            positions: Ok(Vec::new()),
        }
    }
}

/// What the job gives for one game.
#[derive(Debug)]
pub struct GameRow {
    /// The game's diagnostics (lines counted from its stream's base).
    pub diagnostics: Diagnostics,
    /// The game has rows (not a broken game left out).
    pub kept: bool,
    /// Typed tags that could not be read (their columns are null).
    pub warnings: Vec<TagWarning>,
    /// With [`Stream::count_lines`]: the line (in the stream, 1-based) just after the
    /// game's bytes; otherwise 0.
    pub end_line: u64,
    /// With the last game of a batch: the batch's rows.
    piece: Option<Piece>,
}

/// A worker's state: the reading tee and the builders of the batch of games it is given.
#[derive(Debug)]
pub struct TableState {
    tee: RecordTee,
    games: Option<GamesBuilder>,
    moves: Option<MovesBuilder>,
    positions: Option<PositionsBuilder>,
    /// Games of the batch so far (left out ones too): a game's `game_id` within the batch.
    index: u64,
    piece: Piece,
}

/// The work on each game: read it through a [`RecordTee`], classify it, append its rows.
///
/// As a [`pgnkit_game::Job`] it reads one stream named `source` (see [`TableJob::stream`]);
/// a caller that runs its own job over several inputs calls [`state`](TableJob::state),
/// [`run_game`](TableJob::run_game) and [`end_batch`](TableJob::end_batch) from it, with
/// `BATCHED` set and a batch size such as [`STREAM_BATCH_BYTES`].
#[derive(Debug, Clone, Copy)]
pub struct TableJob<'a> {
    options: &'a ConversionOptions,
    stream: Stream<'a>,
}

/// Where one stream's games go in a bigger read.
#[derive(Debug, Clone, Copy, Default)]
pub struct Stream<'a> {
    /// The stream's name: the games table's `source` column.
    pub source: &'a str,
    /// Added to every game's offset (for a byte range of a file, the offset in the file of
    /// the range's first game).
    pub offset: u64,
    /// Added to every game's lines (diagnostics and `errors` count lines from the file's
    /// start when a range is read).
    pub lines_before: u64,
    /// Count each game's line ends ([`GameRow::end_line`]): a vectorised pass over each
    /// game's bytes on the worker threads.
    pub count_lines: bool,
}

impl<'a> TableJob<'a> {
    /// The job with `options`, over a stream with no name and no bases (for a caller
    /// that gives each game's source to [`run_game`](TableJob::run_game)).
    pub fn new(options: &'a ConversionOptions) -> TableJob<'a> {
        TableJob {
            options,
            stream: Stream::default(),
        }
    }

    /// The job over `stream`, as a [`pgnkit_game::Job`].
    pub fn stream(options: &'a ConversionOptions, stream: Stream<'a>) -> TableJob<'a> {
        TableJob { options, stream }
    }

    /// A worker's new state.
    pub fn state(&self) -> TableState {
        let options = self.options;
        let record = options.record_options();
        let mut tee = if options.games {
            RecordTee::new(record).nested_comments(options.read.nested_comments)
        } else {
            RecordTee::without_text(record)
        };
        if options.openings.is_some() {
            tee = tee.keeping_main_line();
        }
        let table = options.table_options();
        TableState {
            tee,
            games: options
                .games
                .then(|| GamesBuilder::new(table, BatchLimits::GAMES)),
            moves: options
                .moves
                .then(|| MovesBuilder::new(table, BatchLimits::MOVES)),
            positions: options
                .positions
                .then(|| PositionsBuilder::new(table, BatchLimits::POSITIONS)),
            index: 0,
            piece: Piece::new(),
        }
    }

    /// One game: `visit` reads it through the tee with the read options; its rows (unless
    /// it is broken and left out) are appended to the batch's, with `source` and
    /// `offset` added to its offset.
    pub fn run_game(
        &self,
        state: &mut TableState,
        source: &str,
        offset: u64,
        visit: impl FnOnce(&mut RecordTee, ReadOptions) -> (GameRecord, Diagnostics),
    ) -> GameRow {
        let options = self.options;
        let game_id = state.index;
        state.index += 1;
        let (mut record, diagnostics) = visit(&mut state.tee, options.read);
        let broken = diagnostics.has_errors();
        if broken && !options.keep_broken {
            state.tee.recycle(record);
            return GameRow {
                diagnostics,
                kept: false,
                warnings: Vec::new(),
                end_line: 0,
                piece: None,
            };
        }
        if let Some(table) = &options.openings
            && let Some(found) = state.tee.main_line().and_then(|kept| kept.classify(table))
        {
            for (tag, value) in [
                ("ECO", &found.opening.eco),
                ("Opening", &found.opening.name),
            ] {
                if let Some(i) = STRING_TAGS.iter().position(|&t| t == tag) {
                    record.strings[i] = Some(value.clone());
                }
            }
        }
        if broken {
            record.set_errors(&diagnostics);
        }
        record.offset += offset;
        let piece = &mut state.piece;
        if let Some(games) = &mut state.games {
            if let Err(e) = games.push(RowSource { game_id, source }, &record) {
                append_batch(&mut piece.games, Err(e));
            }
            if games.is_full() {
                append_batch(&mut piece.games, games.finish());
            }
        }
        if let Some(moves) = &mut state.moves {
            moves.push(game_id, &record);
            if moves.is_full() {
                append_batch(&mut piece.moves, moves.finish());
            }
        }
        if let Some(positions) = &mut state.positions {
            positions.push(game_id, &record);
            if positions.is_full() {
                append_batch(&mut piece.positions, positions.finish());
            }
        }
        let warnings = std::mem::take(&mut record.warnings);
        state.tee.recycle(record);
        GameRow {
            diagnostics,
            kept: true,
            warnings,
            end_line: 0,
            piece: None,
        }
    }

    /// The end of a batch: its rows go with its last game.
    pub fn end_batch(&self, state: &mut TableState, rows: &mut [GameRow]) {
        let mut piece = std::mem::replace(&mut state.piece, Piece::new());
        piece.count = std::mem::take(&mut state.index);
        if let Some(games) = &mut state.games {
            append_batch(&mut piece.games, games.finish());
        }
        if let Some(moves) = &mut state.moves {
            append_batch(&mut piece.moves, moves.finish());
        }
        if let Some(positions) = &mut state.positions {
            append_batch(&mut piece.positions, positions.finish());
        }
        if let Some(last) = rows.last_mut() {
            last.piece = Some(piece);
        }
    }
}

impl Job for TableJob<'_> {
    type State = TableState;
    type Output = GameRow;
    const BATCHED: bool = true;
    const BATCH_BYTES: usize = TABLE_BATCH_BYTES;

    fn state(&self) -> TableState {
        TableJob::state(self)
    }

    fn run(
        &self,
        state: &mut TableState,
        mut game: TokenizedGame<'_, '_>,
        _: &mut Vec<u8>,
    ) -> GameRow {
        let stream = self.stream;
        let end_line = if stream.count_lines {
            game.raw.line + lexer::split::line_ends(game.raw.bytes)
        } else {
            0
        };
        game.raw.line += stream.lines_before;
        let mut row = self.run_game(state, stream.source, stream.offset, |tee, read| {
            visit_tokenized(game, tee, read)
        });
        row.end_line = end_line;
        row
    }

    fn end_batch(&self, state: &mut TableState, rows: &mut [GameRow]) {
        TableJob::end_batch(self, state, rows);
    }
}

/// A batch's rows made the run's: each table's batches in order, with their part.
#[derive(Debug)]
pub struct Placed {
    /// The games table's batches and their parts (none without the games table).
    pub games: Result<Vec<(u64, RecordBatch)>, Error>,
    /// The moves table's.
    pub moves: Result<Vec<(u64, RecordBatch)>, Error>,
    /// The positions table's.
    pub positions: Result<Vec<(u64, RecordBatch)>, Error>,
}

impl Placed {
    /// One table's batches.
    pub fn table(self, table: TableKind) -> Result<Vec<(u64, RecordBatch)>, Error> {
        match table {
            TableKind::Games => self.games,
            TableKind::Moves => self.moves,
            TableKind::Positions => self.positions,
        }
    }
}

/// The rows of a run in input order, made the run's: `game_id`s counted across batches
/// and streams (every game read counts, left out or not), the batches cut into parts.
#[derive(Debug, Clone, Copy)]
pub struct Placement {
    /// The next game's `game_id`.
    next_id: u64,
    every: Option<u64>,
}

impl Placement {
    /// Numbering from `first_id`, parts of `split_every` games.
    pub fn new(first_id: u64, split_every: Option<u64>) -> Placement {
        Placement {
            next_id: first_id,
            every: split_every,
        }
    }

    /// The next game's `game_id`.
    pub fn next_id(&self) -> u64 {
        self.next_id
    }

    /// Takes the next game's row (in input order): when it ends a batch, the batch's rows,
    /// numbered and cut into parts.
    pub fn place(&mut self, row: &mut GameRow) -> Option<Placed> {
        self.next_id += 1;
        let piece = row.piece.take()?;
        let first = self.next_id - piece.count;
        let every = self.every;
        let place = |batches: Result<Vec<RecordBatch>, Error>| {
            let mut out = Vec::new();
            for batch in batches? {
                let batch = renumber(&batch, first)?;
                match every {
                    Some(every) => out.extend(parts_by_game_id(&batch, every)),
                    None => out.push((0, batch)),
                }
            }
            Ok(out)
        };
        Some(Placed {
            games: place(piece.games),
            moves: place(piece.moves),
            positions: place(piece.positions),
        })
    }
}

/// What a [`Conversion`] read: games (left out ones too), their bytes, the broken games left
/// out and the first one's place.
#[derive(Debug, Default, Clone)]
pub struct Report {
    /// Games read.
    pub games: u64,
    /// Their bytes.
    pub bytes: u64,
    /// The last stream's lines, with [`Stream::count_lines`] (the line before the one just
    /// after its last game).
    pub lines: u64,
    /// Broken games left out.
    pub broken: u64,
    /// The first of them: its stream's name and its first error.
    pub first_broken: Option<(String, RecordError)>,
}

/// Why a [`Conversion`] stopped.
#[derive(Debug)]
pub enum RunError<E> {
    /// Reading the stream failed.
    Read(io::Error),
    /// A batch could not be built.
    Table(Error),
    /// The sink failed.
    Sink(E),
}

/// The job over one stream after another, its batches handed to a sink in input order,
/// `game_id`s counted across the streams.
///
/// ```
/// use pgnkit_arrow::{Conversion, ConversionOptions, Report, Stream};
///
/// let options = ConversionOptions { moves: true, ..ConversionOptions::default() };
/// let mut conversion = Conversion::new(&options, 0, 2);
/// let mut report = Report::default();
/// let (mut games, mut moves) = (0, 0);
/// for text in [&b"1. e4 e5 *\n\n1. d4 Ke7 *\n"[..], b"1. c4 *\n"] {
///     let reader = pgnkit_lexer::Reader::new(text);
///     let stream = Stream { source: "a.pgn", ..Stream::default() };
///     conversion.run_stream(reader, stream, &mut report, |table, _part, batch| {
///         match table {
///             pgnkit_arrow::TableKind::Games => games += batch.num_rows(),
///             pgnkit_arrow::TableKind::Moves => moves += batch.num_rows(),
///             pgnkit_arrow::TableKind::Positions => unreachable!("not asked for"),
///         }
///         Ok::<(), ()>(())
///     }).unwrap();
/// }
/// assert_eq!((report.games, report.broken, games, moves), (3, 1, 2, 3));
/// let (source, error) = report.first_broken.unwrap();
/// assert_eq!((source.as_str(), error.line, error.column), ("a.pgn", 3, 7));
/// ```
#[derive(Debug)]
pub struct Conversion<'a> {
    options: &'a ConversionOptions,
    placement: Placement,
    threads: usize,
}

impl<'a> Conversion<'a> {
    /// A conversion with `options`, its first game's `game_id` `first_id`, on `threads`
    /// threads (0 or 1: the calling thread alone).
    pub fn new(options: &'a ConversionOptions, first_id: u64, threads: usize) -> Conversion<'a> {
        Conversion {
            options,
            placement: Placement::new(first_id, options.split_every),
            threads,
        }
    }

    /// Reads every game of `reader` (the stream `stream`), handing each table's batches to
    /// `sink` with their part, in input order; adds what it read to `report`. The reader is set
    /// to split games with the rules of the options' `read` (nested comments).
    pub fn run_stream<R: Read + Send, E>(
        &mut self,
        mut reader: lexer::Reader<R>,
        stream: Stream<'_>,
        report: &mut Report,
        mut sink: impl FnMut(TableKind, u64, RecordBatch) -> Result<(), E>,
    ) -> Result<(), RunError<E>> {
        // The games are split with the rules they are read with.
        reader.set_options(self.options.read.lex_options());
        let job = TableJob::stream(self.options, stream);
        let placement = &mut self.placement;
        let mut failure: Option<RunError<E>> = None;
        report.lines = 0;
        let mut stop = |e: RunError<E>| {
            failure = Some(e);
            io::Error::other("stopped")
        };
        let result = run_ordered_games(&job, reader, self.threads, |start, mut row, _| {
            report.games += 1;
            report.bytes += start.bytes.len() as u64;
            report.lines = row.end_line.saturating_sub(1);
            if !row.kept {
                report.broken += 1;
                if report.first_broken.is_none()
                    && let Some(first) = row.diagnostics.errors().next()
                {
                    report.first_broken = Some((stream.source.to_owned(), RecordError::of(first)));
                }
            }
            let Some(placed) = placement.place(&mut row) else {
                return Ok(());
            };
            let Placed {
                games,
                moves,
                positions,
            } = placed;
            let tables = [
                (TableKind::Games, games),
                (TableKind::Moves, moves),
                (TableKind::Positions, positions),
            ];
            for (table, batches) in tables {
                for (part, batch) in batches.map_err(|e| stop(RunError::Table(e)))? {
                    sink(table, part, batch).map_err(|e| stop(RunError::Sink(e)))?;
                }
            }
            Ok(())
        });
        if let Some(e) = failure {
            return Err(e);
        }
        result.map(|_| ()).map_err(RunError::Read)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_array::Array;
    use arrow_array::cast::AsArray;
    use arrow_array::types::UInt64Type;
    use pgnkit_game::read_games;

    /// Games of every kind: tags, variations, a broken one, a start position of its own.
    fn input(n: usize) -> Vec<u8> {
        let mut text = Vec::new();
        for i in 0..n {
            let game = match i % 4 {
                0 => format!(
                    "[Event \"{i}\"]\n\n1. e4 e5 (1... c5 2. Nf3) 2. Nf3 Nc6 3. Bb5 a6 1-0\n\n"
                ),
                1 => format!("[Event \"{i}\"]\n\n1. d4 Nf6 2. c4 Ke7 *\n\n"),
                2 => "[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n[SetUp \"1\"]\n\n1. e4 Kd7 *\n\n"
                    .to_owned(),
                _ => {
                    format!("[Event \"{i}\"]\n[ECO \"Z99\"]\n\n1. c4 {{ [%clk 0:01:00] }} e5 *\n\n")
                }
            };
            text.extend_from_slice(game.as_bytes());
        }
        text
    }

    /// Each table's rows over the streams, with `threads`.
    fn run(
        options: &ConversionOptions,
        streams: &[&[u8]],
        threads: usize,
    ) -> (Report, Vec<RecordBatch>, Vec<RecordBatch>, Vec<RecordBatch>) {
        let mut conversion = Conversion::new(options, 0, threads);
        let mut report = Report::default();
        let (mut games, mut moves, mut positions) = (Vec::new(), Vec::new(), Vec::new());
        for text in streams {
            let stream = Stream {
                source: "t.pgn",
                ..Stream::default()
            };
            conversion
                .run_stream(
                    lexer::Reader::new(*text),
                    stream,
                    &mut report,
                    |table, _, b| {
                        match table {
                            TableKind::Games => games.push(b),
                            TableKind::Moves => moves.push(b),
                            TableKind::Positions => positions.push(b),
                        }
                        Ok::<(), ()>(())
                    },
                )
                .unwrap();
        }
        (report, games, moves, positions)
    }

    fn ids(batches: &[RecordBatch]) -> Vec<u64> {
        batches
            .iter()
            .flat_map(|b| {
                let ids = b
                    .column_by_name("game_id")
                    .unwrap()
                    .as_primitive::<UInt64Type>();
                ids.values().to_vec()
            })
            .collect()
    }

    /// The batches' rows as NDJSON, for comparing runs whose batches are cut differently.
    fn concat(batches: &[RecordBatch]) -> Vec<u8> {
        let mut text = Vec::new();
        let schema = batches[0].schema();
        let mut writer = crate::TableWriter::new(&mut text, crate::Format::Ndjson, schema).unwrap();
        for b in batches {
            writer.write(b).unwrap();
        }
        writer.finish().unwrap();
        text
    }

    #[test]
    fn every_thread_count_gives_the_same_tables_numbered_across_streams() {
        let text = input(2000);
        let (first, second) = text.split_at(text.len() / 2 + 5);
        let options = ConversionOptions {
            moves: true,
            positions: true,
            keep_broken: true,
            ..ConversionOptions::default()
        };
        let (report, games, moves, positions) = run(&options, &[first, second], 1);
        assert_eq!(report.games, 2001, "the cut splits one game in two");
        assert_eq!(ids(&games), (0..2001).collect::<Vec<_>>());
        assert!(ids(&moves).windows(2).all(|w| w[0] <= w[1]));
        let rows = |b: &[RecordBatch]| b.iter().map(RecordBatch::num_rows).sum::<usize>();
        // Each game kept has one more position than moves (its start position), but for a
        // game whose movetext never began (the cut leaves one with tags alone): the games
        // with a final position.
        let began: usize = games
            .iter()
            .map(|b| b.num_rows() - b.column_by_name("final_fen").unwrap().null_count())
            .sum();
        assert!(began >= 2000, "{began}");
        assert_eq!(rows(&positions), rows(&moves) + began);
        for threads in [2, 3] {
            let (again, g, m, p) = run(&options, &[first, second], threads);
            assert_eq!(again.games, report.games);
            assert_eq!(concat(&g), concat(&games), "{threads} threads");
            assert_eq!(concat(&m), concat(&moves), "{threads} threads");
            assert_eq!(concat(&p), concat(&positions), "{threads} threads");
        }
    }

    #[test]
    fn broken_games_are_left_out_and_counted_or_kept_with_their_errors() {
        let text = input(8);
        let left_out = ConversionOptions::default();
        let (report, games, ..) = run(&left_out, &[&text], 2);
        assert_eq!((report.games, report.broken), (8, 2));
        assert_eq!(
            ids(&games),
            [0, 2, 3, 4, 6, 7],
            "ids count the games left out"
        );
        let (source, error) = report.first_broken.unwrap();
        assert_eq!(
            (source.as_str(), error.line, error.severity),
            ("t.pgn", 7, "error")
        );
        let kept = ConversionOptions {
            keep_broken: true,
            ..ConversionOptions::default()
        };
        let (report, games, ..) = run(&kept, &[&text], 2);
        assert_eq!((report.broken, ids(&games).len()), (0, 8));
        let errors = games[0].column_by_name("errors").unwrap().as_list::<i32>();
        assert_eq!(errors.value_length(0), 0);
        let lines = errors.value(1);
        let lines = lines.as_struct().column(0).as_primitive::<UInt64Type>();
        assert_eq!(lines.values(), &[7]);
    }

    #[test]
    fn classification_is_the_trees() {
        let text = input(8);
        let options = ConversionOptions {
            openings: Some(Cow::Borrowed(Openings::lichess())),
            keep_broken: true,
            ..ConversionOptions::default()
        };
        let (_, games, ..) = run(&options, &[&text], 1);
        let eco = games[0].column_by_name("ECO").unwrap().as_string::<i32>();
        for (i, read) in read_games(&text).enumerate() {
            let want = Openings::lichess()
                .classify(&read.value)
                .map(|c| c.opening.eco.clone());
            match want {
                Some(code) => assert_eq!(eco.value(i), code, "game {i}"),
                // No opening: the tag as read (`Z99`), or none.
                None => assert_eq!(eco.is_valid(i), i % 4 == 3, "game {i}"),
            }
        }
        assert!(eco.is_valid(0));
    }

    #[test]
    fn parts_cut_both_tables_by_game_id() {
        let text = input(10);
        let options = ConversionOptions {
            moves: true,
            split_every: Some(3),
            keep_broken: true,
            ..ConversionOptions::default()
        };
        let mut conversion = Conversion::new(&options, 0, 1);
        let mut parts = Vec::new();
        conversion
            .run_stream(
                lexer::Reader::new(&text[..]),
                Stream::default(),
                &mut Report::default(),
                |table, part, batch| {
                    for id in ids(&[batch]) {
                        parts.push((table, part, id));
                    }
                    Ok::<(), ()>(())
                },
            )
            .unwrap();
        assert!(parts.iter().all(|&(_, part, id)| part == id / 3));
        assert!(
            parts
                .iter()
                .any(|&(t, part, _)| t == TableKind::Moves && part == 3)
        );
    }
}
