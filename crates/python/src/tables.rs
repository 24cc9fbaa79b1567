//! Tables: the games or moves table of `pgnkit-arrow` for a source, as a
//! `pyarrow.Table` (through the Arrow C stream PyCapsule, so any Arrow
//! consumer takes it) or written to a Parquet file. Reading, checking and
//! building run on `threads` threads with the GIL released.

use std::fs::File;
use std::io::BufWriter;
use std::path::PathBuf;

use pgnkit::export::{ExportOptions, StreamWriter};
use pgnkit::game::{self, ReadOptions, visit_tokenized};
use pgnkit::input::partition;
use pgnkit::lexer;
use pgnkit_arrow::arrow_array::RecordBatch;
use pgnkit_arrow::{
    BatchLimits, Format, GameRecord, GamesBuilder, MovesBuilder, RecordOptions, RecordTee,
    RowSource, SchemaRef, TableOptions, TableWriter,
};
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3_arrow::PyTable;

use crate::error::{PgnWarning, guard, io_error};
use crate::source::{self, Named, Stream};

/// Which table.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Which {
    Games,
    Moves,
}

impl Which {
    fn parse(name: &str) -> PyResult<Which> {
        match name {
            "games" => Ok(Which::Games),
            "moves" => Ok(Which::Moves),
            _ => Err(PyValueError::new_err(format!(
                "table is \"games\" or \"moves\", not {name:?}"
            ))),
        }
    }
}

/// Bytes of PGN a worker turns into a piece of the table (the `Job`'s batch): about 250 games
/// of the bench file. The pieces are the table's record batches (or cut smaller by the
/// builder's `BatchLimits`); smaller pieces would give a table of many short chunks, larger
/// ones leave a thread idle on inputs of a few batches.
const TABLE_BATCH_BYTES: usize = 1 << 19;

/// Reads one stream's games into pieces of one table on the worker threads: each game's
/// record (for the games table with its `movetext`, written by the export `StreamWriter`
/// through `pgnkit-arrow`'s `RecordTee` exactly as `pgnkit convert` writes it; the main line
/// counted, not recorded, as the games table needs no more) goes to the worker's builder, and
/// the batch's record batches go over with its last game, their `game_id`s counted from 0
/// (the calling thread renumbers them).
struct TableJob {
    which: Which,
    read: ReadOptions,
    record: RecordOptions,
    table: TableOptions,
    keep_broken: bool,
    /// The stream's name: the games table's `source` column, and messages.
    source: String,
    /// Added to every game's offset: for a byte range, the offset in the file of the range's
    /// first game (or another base: see [`Place`]).
    origin: u64,
    /// Added to every game's line (diagnostics count lines from the file's start).
    line_base: u64,
    /// Whether to count each game's line ends (a partition's counts: [`Row::end_line`]).
    count_lines: bool,
}

/// Where a read's rows go in a bigger read: the first `game_id`, the offsets' base and the
/// lines' base. `Place::default()` is a read on its own.
#[derive(Clone, Copy, Default)]
pub(crate) struct Place {
    /// The first game's `game_id`.
    pub first_id: u64,
    /// Added to the offsets instead of the stream's origin (`None`: the origin).
    pub offset: Option<u64>,
    /// The 1-based line, in the file, of the stream's first line (0 or 1: the stream's own).
    pub line: u64,
    /// Count the streams' line ends too ([`Report::lines`]): a vectorised pass over each
    /// game's bytes on the worker threads.
    pub count_lines: bool,
}

/// A worker's state: its visitor, builder, and the piece being built.
struct Worker {
    tee: RecordTee<StreamWriter>,
    builder: Builder,
    /// Games of the current batch so far (the next `game_id` within it).
    count: u64,
    batches: Result<Vec<RecordBatch>, pgnkit_arrow::Error>,
}

/// What a worker hands over for a game.
struct Row {
    /// Broken and left out: its first error, `line:column: message`.
    dropped: Option<String>,
    /// With the last game of a batch: the batch's game count and record batches.
    piece: Option<(u64, Result<Vec<RecordBatch>, pgnkit_arrow::Error>)>,
    /// The line (in the stream, 1-based) just after the game's bytes, when lines are counted.
    end_line: u64,
}

impl game::Job for TableJob {
    type State = Worker;
    type Output = Row;
    const BATCHED: bool = true;
    const BATCH_BYTES: usize = TABLE_BATCH_BYTES;

    fn state(&self) -> Worker {
        let tee = match self.which {
            Which::Games => RecordTee::new(
                self.record,
                StreamWriter::new(ExportOptions::export()),
                StreamWriter::game_text,
            ),
            Which::Moves => RecordTee::without_text(self.record),
        };
        Worker {
            tee,
            builder: Builder::new(self.which, self.table),
            count: 0,
            batches: Ok(Vec::new()),
        }
    }

    fn run(
        &self,
        worker: &mut Worker,
        mut game: lexer::TokenizedGame<'_, '_>,
        _: &mut Vec<u8>,
    ) -> Row {
        let game_id = worker.count;
        worker.count += 1;
        let end_line = if self.count_lines {
            game.raw.line + partition::line_ends(game.raw.bytes)
        } else {
            0
        };
        game.raw.line += self.line_base;
        let (mut record, diagnostics) = visit_tokenized(game, &mut worker.tee, self.read);
        if diagnostics.has_errors() {
            if !self.keep_broken {
                let first = diagnostics
                    .errors()
                    .next()
                    .map(|d| format!("{}:{}: {}", d.line, d.column, d.message()));
                return Row {
                    dropped: Some(first.unwrap_or_default()),
                    piece: None,
                    end_line,
                };
            }
            record.set_errors(&diagnostics);
        }
        record.offset += self.origin;
        if let Err(e) = worker.builder.push(game_id, &self.source, &record) {
            pgnkit_arrow::append_batch(&mut worker.batches, Err(e));
        }
        if worker.builder.is_full() {
            pgnkit_arrow::append_batch(&mut worker.batches, worker.builder.finish());
        }
        Row {
            dropped: None,
            piece: None,
            end_line,
        }
    }

    fn end_batch(&self, worker: &mut Worker, outputs: &mut [Row]) {
        pgnkit_arrow::append_batch(&mut worker.batches, worker.builder.finish());
        let batches = std::mem::replace(&mut worker.batches, Ok(Vec::new()));
        let count = std::mem::take(&mut worker.count);
        if let Some(last) = outputs.last_mut() {
            last.piece = Some((count, batches));
        }
    }
}

/// One table's builder.
enum Builder {
    Games(GamesBuilder),
    Moves(MovesBuilder),
}

impl Builder {
    fn new(which: Which, options: TableOptions) -> Builder {
        match which {
            Which::Games => Builder::Games(GamesBuilder::new(options, BatchLimits::GAMES)),
            Which::Moves => Builder::Moves(MovesBuilder::new(options, BatchLimits::MOVES)),
        }
    }

    fn schema(which: Which, options: TableOptions) -> SchemaRef {
        match which {
            Which::Games => GamesBuilder::schema(options),
            Which::Moves => MovesBuilder::schema(options),
        }
    }

    fn push(
        &mut self,
        id: u64,
        source: &str,
        record: &GameRecord,
    ) -> Result<(), pgnkit_arrow::Error> {
        match self {
            Builder::Games(b) => b.push(
                RowSource {
                    game_id: id,
                    source,
                },
                record,
            ),
            Builder::Moves(b) => {
                b.push(id, record);
                Ok(())
            }
        }
    }

    fn is_full(&self) -> bool {
        match self {
            Builder::Games(b) => b.is_full(),
            Builder::Moves(b) => b.is_full(),
        }
    }

    fn finish(&mut self) -> Result<RecordBatch, pgnkit_arrow::Error> {
        match self {
            Builder::Games(b) => b.finish(),
            Builder::Moves(b) => b.finish(),
        }
    }
}

/// What a run read and left out: its games (every one, broken ones too), their bytes and line
/// ends (of the last stream, when [`Place::count_lines`]), the broken games left out and the
/// first one's place (`name:line:column: message`).
#[derive(Default)]
pub(crate) struct Report {
    pub games: u64,
    pub bytes: u64,
    pub lines: u64,
    /// The last stream's origin (for a byte range, the offset of its first game in the file).
    pub origin: u64,
    pub broken: u64,
    pub first: Option<String>,
}

/// What a call asked for: the table, its options and the reading's.
pub(crate) struct Request {
    which: Which,
    options: TableOptions,
    read: ReadOptions,
    record: RecordOptions,
    keep_broken: bool,
    threads: usize,
    /// `max_window=`: the most memory a zstd window or xz dictionary may take.
    pub(crate) max_window: u64,
}

impl Request {
    /// The request for the keyword arguments (`threads`: default all cores).
    pub(crate) fn new(
        table: &str,
        threads: Option<usize>,
        fen: bool,
        keep_broken: bool,
        strict: bool,
    ) -> PyResult<Request> {
        let which = Which::parse(table)?;
        Ok(Request {
            which,
            options: TableOptions {
                fen,
                errors: keep_broken,
            },
            read: if strict {
                ReadOptions::strict()
            } else {
                ReadOptions::new()
            },
            record: RecordOptions {
                fen,
                games_only: which == Which::Games,
            },
            keep_broken,
            threads: crate::reading::threads_arg(
                threads,
                std::thread::available_parallelism().map_or(1, usize::from),
            )?,
            max_window: pgnkit::input::DEFAULT_MAX_WINDOW,
        })
    }

    fn schema(&self) -> SchemaRef {
        Builder::schema(self.which, self.options)
    }

    /// Reads every stream into record batches of the table, handing each to `sink` in input
    /// order, `game_id`s counted across the streams.
    fn run(
        &self,
        streams: Vec<Stream>,
        place: Place,
        sink: &mut dyn FnMut(RecordBatch) -> PyResult<()>,
    ) -> PyResult<Report> {
        let mut report = Report::default();
        let mut first_id = place.first_id;
        let mut failure: Option<PyErr> = None;
        for stream in streams {
            let job = TableJob {
                which: self.which,
                read: self.read,
                record: self.record,
                table: self.options,
                keep_broken: self.keep_broken,
                source: stream.name,
                origin: place.offset.unwrap_or(stream.origin),
                line_base: place.line.saturating_sub(1),
                count_lines: place.count_lines,
            };
            let name = &job.source;
            let games = lexer::Reader::new(stream.reader);
            report.lines = 0;
            report.origin = stream.origin;
            let result = game::run_ordered_games(&job, games, self.threads, |start, row, _| {
                report.games += 1;
                report.bytes += start.bytes.len() as u64;
                report.lines = row.end_line.saturating_sub(1);
                if let Some(first) = row.dropped {
                    report.broken += 1;
                    if report.first.is_none() {
                        report.first = Some(format!("{name}:{first}"));
                    }
                }
                let Some((count, batches)) = row.piece else {
                    return Ok(());
                };
                let sent = batches
                    .and_then(|batches| {
                        batches
                            .iter()
                            .map(|b| pgnkit_arrow::renumber(b, first_id))
                            .collect::<Result<Vec<_>, _>>()
                    })
                    .map_err(|e| PyValueError::new_err(e.to_string()))
                    .and_then(|batches| batches.into_iter().try_for_each(&mut *sink));
                first_id += count;
                sent.map_err(|e| {
                    failure = Some(e);
                    std::io::Error::other("stopped")
                })
            });
            if let Some(e) = failure.take() {
                return Err(e);
            }
            result.map_err(|e| io_error(name, &e))?;
        }
        Ok(report)
    }
}

/// Shows a warning for the broken games a table left out.
pub(crate) fn warn(py: Python<'_>, report: &Report) -> PyResult<()> {
    if report.broken == 0 {
        return Ok(());
    }
    let message = format!(
        "{} broken game{} left out of the table (keep them with keep_broken=True); the first: {}",
        report.broken,
        if report.broken == 1 { "" } else { "s" },
        report.first.as_deref().unwrap_or("?"),
    );
    PyErr::warn(
        py,
        &py.get_type::<PgnWarning>(),
        &std::ffi::CString::new(message.replace('\0', " "))?,
        1,
    )
}

/// Reads a PGN source into a table, as `pgnkit convert` does: the games
/// table (`table="games"`, one row per game: the tags with the Lichess
/// dataset's column names, `movetext` in export format as `pgnkit convert`
/// writes it, `ply_count`, `final_fen`, `outcome`...) or the moves
/// table (`table="moves"`, one row per main-line move: SAN, UCI, clock, eval,
/// NAGs, comment). Returns a `pyarrow.Table` (or, without pyarrow, an object
/// with `__arrow_c_stream__` that Polars and DuckDB take).
///
/// `source` as for `read_games`. `range=(start, end)` reads only the games
/// whose first byte lies in that byte range of a file (a plain file, or a
/// `.zst` file in pzstd's layout with offsets in the compressed file), so
/// that ranges that tile a file read each game once; `offset` then counts
/// from the start of the file. `threads` (default: all cores) read and check
/// games in parallel; rows keep input order. Broken games are left out with a
/// `pgnkit.PgnWarning`, or kept with an `errors` column (`keep_broken=True`).
/// `fen=True` adds the position after each move to the moves table.
#[pyfunction]
#[pyo3(signature = (source, table="games", *, threads=None, range=None, fen=false, keep_broken=false, strict=false, max_window=None))]
#[allow(clippy::too_many_arguments)]
pub fn read_arrow(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    table: &str,
    threads: Option<usize>,
    range: Option<(u64, u64)>,
    fen: bool,
    keep_broken: bool,
    strict: bool,
    max_window: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let mut request = Request::new(table, threads, fen, keep_broken, strict)?;
    request.max_window = source::max_window(max_window)?;
    let named = Named::extract(source)?;
    let (table, report) = request.table(py, named, range, Place::default())?;
    warn(py, &report)?;
    Ok(table)
}

impl Request {
    /// Reads `named` (a `range` of it) into a `pyarrow.Table` (or, without pyarrow, an object
    /// with `__arrow_c_stream__`), its rows placed at `place`; the report is the caller's to
    /// show.
    pub(crate) fn table(
        &self,
        py: Python<'_>,
        named: Named,
        range: Option<(u64, u64)>,
        place: Place,
    ) -> PyResult<(Py<PyAny>, Report)> {
        let (batches, report) = py.detach(|| {
            guard(|| {
                let opened = source::open(named, range, self.threads, self.max_window)?;
                let mut batches = Vec::new();
                let report = self.run(opened.streams.into(), place, &mut |b| {
                    batches.push(b);
                    Ok(())
                })?;
                Ok((batches, report))
            })
        })?;
        Ok((arrow_table(py, batches, self.schema())?, report))
    }
}

/// The record batches as a `pyarrow.Table` (or, without pyarrow, pyo3-arrow's table).
fn arrow_table(
    py: Python<'_>,
    batches: Vec<RecordBatch>,
    schema: SchemaRef,
) -> PyResult<Py<PyAny>> {
    let table = PyTable::try_new(batches, schema)?.into_pyobject(py)?;
    let Ok(pyarrow) = py.import("pyarrow") else {
        return Ok(table.into_any().unbind());
    };
    // Through `RecordBatchReader.from_stream`, not `pyarrow.table(...)` (pyo3-arrow's
    // `into_pyarrow`): `pyarrow.table` first asks whether its argument is a pandas DataFrame,
    // which imports pandas when it is installed (0.3 s of CPU, the most of a first call on a
    // few MB); the stream gives the same table.
    let reader = pyarrow
        .getattr("RecordBatchReader")?
        .call_method1("from_stream", (table,))?;
    Ok(reader.call_method0("read_all")?.unbind())
}

/// Writes the games table (or with `table="moves"` the moves table) of a
/// PGN source to a Parquet file at `path`, batch by batch (memory stays
/// bounded); returns the number of rows written. Arguments as for
/// `read_arrow`.
#[pyfunction]
#[pyo3(signature = (source, path, table="games", *, threads=None, range=None, fen=false, keep_broken=false, strict=false, max_window=None))]
#[allow(clippy::too_many_arguments)]
pub fn to_parquet(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    path: PathBuf,
    table: &str,
    threads: Option<usize>,
    range: Option<(u64, u64)>,
    fen: bool,
    keep_broken: bool,
    strict: bool,
    max_window: Option<&Bound<'_, PyAny>>,
) -> PyResult<u64> {
    let mut request = Request::new(table, threads, fen, keep_broken, strict)?;
    request.max_window = source::max_window(max_window)?;
    let named = Named::extract(source)?;
    let name = path.display().to_string();
    let (rows, report) = py.detach(|| {
        guard(|| {
            let opened = source::open(named, range, request.threads, request.max_window)?;
            let file = File::create(&path).map_err(|e| io_error(&name, &e))?;
            let write_error =
                |e: pgnkit_arrow::Error| PyOSError::new_err(format!("cannot write {name}: {e}"));
            let mut writer =
                TableWriter::new(BufWriter::new(file), Format::Parquet, request.schema())
                    .map_err(write_error)?;
            let mut rows = 0u64;
            let report = request.run(opened.streams.into(), Place::default(), &mut |b| {
                rows += b.num_rows() as u64;
                writer.write(&b).map_err(write_error)
            })?;
            writer.finish().map_err(write_error)?;
            Ok((rows, report))
        })
    })?;
    warn(py, &report)?;
    Ok(rows)
}

/// Byte ranges `(start, end)` that cut the file at `path` into about `n`
/// parts for `read_arrow(..., range=...)`: a plain file anywhere, a `.zst`
/// file in pzstd's layout at frame starts.
#[pyfunction]
pub fn split_ranges(py: Python<'_>, path: PathBuf, n: usize) -> PyResult<Vec<(u64, u64)>> {
    let name = path.display().to_string();
    py.detach(|| {
        guard(|| {
            pgnkit::input::split_points(&path, &name, n).map_err(|e| crate::error::input_error(&e))
        })
    })
}
