//! Tables: the games or moves table of `pgnkit-arrow` for a source, as a
//! `pyarrow.Table` (through the Arrow C stream PyCapsule, so any Arrow
//! consumer takes it) or written to a Parquet file. Reading, checking and
//! building run on `threads` threads with the GIL released.

use std::fs::File;
use std::io::BufWriter;
use std::path::PathBuf;

use pgnkit::export::{ExportOptions, StreamWriter};
use pgnkit::game::{self, Diagnostics, ReadOptions, visit_tokenized};
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

/// A game's record, read on a worker thread: for the games table with its
/// `movetext`, written by the export `StreamWriter` through `pgnkit-arrow`'s
/// `RecordTee` exactly as `pgnkit convert` writes it.
struct RecordJob {
    read: ReadOptions,
    record: RecordOptions,
    keep_broken: bool,
    /// The games table: the movetext is written (the moves table has none).
    movetext: bool,
}

impl game::Job for RecordJob {
    type State = RecordTee<StreamWriter>;
    type Output = (Option<GameRecord>, Diagnostics);

    fn state(&self) -> RecordTee<StreamWriter> {
        if self.movetext {
            RecordTee::new(
                self.record,
                StreamWriter::new(ExportOptions::export()),
                StreamWriter::game_text,
            )
        } else {
            RecordTee::without_text(self.record)
        }
    }

    fn run(
        &self,
        visitor: &mut RecordTee<StreamWriter>,
        game: lexer::TokenizedGame<'_, '_>,
        _: &mut Vec<u8>,
    ) -> Self::Output {
        let (mut record, diagnostics) = visit_tokenized(game, visitor, self.read);
        if diagnostics.has_errors() {
            if !self.keep_broken {
                return (None, diagnostics);
            }
            record.set_errors(&diagnostics);
        }
        (Some(record), diagnostics)
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

/// What a run left out: broken games, and the first one's place.
#[derive(Default)]
struct Report {
    broken: u64,
    first: Option<String>,
}

/// Reads every stream into batches of one table, handing each full batch to `sink`.
fn run(
    streams: Vec<Stream>,
    which: Which,
    options: TableOptions,
    job: &RecordJob,
    threads: usize,
    sink: &mut dyn FnMut(RecordBatch) -> PyResult<()>,
) -> PyResult<Report> {
    let mut builder = Builder::new(which, options);
    let mut report = Report::default();
    let mut game_id = 0u64;
    let mut failure: Option<PyErr> = None;
    for stream in streams {
        let name = stream.name;
        let origin = stream.origin;
        let games = lexer::Reader::new(stream.reader);
        let result =
            game::run_ordered_games(job, games, threads, |start, (record, diagnostics), _| {
                let id = game_id;
                game_id += 1;
                if diagnostics.has_errors() && !job.keep_broken {
                    report.broken += 1;
                    if report.first.is_none()
                        && let Some(d) = diagnostics.errors().next()
                    {
                        report.first =
                            Some(format!("{name}:{}:{}: {}", d.line, d.column, d.message()));
                    }
                }
                let _ = start;
                let Some(mut record) = record else {
                    return Ok(());
                };
                record.offset += origin;
                let pushed = builder.push(id, &name, &record).and_then(|()| {
                    if builder.is_full() {
                        builder.finish().map(Some)
                    } else {
                        Ok(None)
                    }
                });
                let batch = match pushed {
                    Ok(batch) => batch,
                    Err(e) => {
                        failure = Some(PyValueError::new_err(e.to_string()));
                        return Err(std::io::Error::other("stopped"));
                    }
                };
                if let Some(batch) = batch
                    && let Err(e) = sink(batch)
                {
                    failure = Some(e);
                    return Err(std::io::Error::other("stopped"));
                }
                Ok(())
            });
        if let Some(e) = failure.take() {
            return Err(e);
        }
        result.map_err(|e| io_error(&name, &e))?;
    }
    let last = builder
        .finish()
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    if last.num_rows() > 0 {
        sink(last)?;
    }
    Ok(report)
}

/// Shows a warning for the broken games a table left out.
fn warn(py: Python<'_>, report: &Report) -> PyResult<()> {
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

fn threads_or_default(threads: Option<usize>) -> usize {
    threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from))
        .max(1)
}

/// The table options and job for the keyword arguments.
fn setup(which: Which, fen: bool, keep_broken: bool, strict: bool) -> (TableOptions, RecordJob) {
    let options = TableOptions {
        fen,
        errors: keep_broken,
    };
    let job = RecordJob {
        read: if strict {
            ReadOptions::strict()
        } else {
            ReadOptions::new()
        },
        record: RecordOptions { fen },
        keep_broken,
        movetext: which == Which::Games,
    };
    (options, job)
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
#[pyo3(signature = (source, table="games", *, threads=None, range=None, fen=false, keep_broken=false, strict=false))]
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
) -> PyResult<Py<PyAny>> {
    let which = Which::parse(table)?;
    let named = Named::extract(source)?;
    let threads = threads_or_default(threads);
    let (options, job) = setup(which, fen, keep_broken, strict);
    let (batches, report) = py.detach(|| {
        guard(|| {
            let opened = source::open(named, range, threads)?;
            let mut batches = Vec::new();
            let report = run(
                opened.streams.into(),
                which,
                options,
                &job,
                threads,
                &mut |b| {
                    batches.push(b);
                    Ok(())
                },
            )?;
            Ok((batches, report))
        })
    })?;
    warn(py, &report)?;
    let table = PyTable::try_new(batches, Builder::schema(which, options))?;
    if py.import("pyarrow").is_ok() {
        return Ok(table.into_pyarrow(py)?.unbind());
    }
    Ok(table.into_pyobject(py)?.into_any().unbind())
}

/// Writes the games table (or with `table="moves"` the moves table) of a
/// PGN source to a Parquet file at `path`, batch by batch (memory stays
/// bounded); returns the number of rows written. Arguments as for
/// `read_arrow`.
#[pyfunction]
#[pyo3(signature = (source, path, table="games", *, threads=None, range=None, fen=false, keep_broken=false, strict=false))]
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
) -> PyResult<u64> {
    let which = Which::parse(table)?;
    let named = Named::extract(source)?;
    let threads = threads_or_default(threads);
    let (options, job) = setup(which, fen, keep_broken, strict);
    let name = path.display().to_string();
    let (rows, report) = py.detach(|| {
        guard(|| {
            let opened = source::open(named, range, threads)?;
            let file = File::create(&path).map_err(|e| io_error(&name, &e))?;
            let write_error =
                |e: pgnkit_arrow::Error| PyOSError::new_err(format!("cannot write {name}: {e}"));
            let mut writer = TableWriter::new(
                BufWriter::new(file),
                Format::Parquet,
                Builder::schema(which, options),
            )
            .map_err(write_error)?;
            let mut rows = 0u64;
            let report = run(
                opened.streams.into(),
                which,
                options,
                &job,
                threads,
                &mut |b| {
                    rows += b.num_rows() as u64;
                    writer.write(&b).map_err(write_error)
                },
            )?;
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
