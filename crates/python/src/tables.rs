//! Tables: the games or moves table of `pgnkit-arrow` for a source, as a
//! `pyarrow.Table` (through the Arrow C stream PyCapsule, so any Arrow
//! consumer takes it) or written to a Parquet file. Reading, checking and
//! building run on `threads` threads with the GIL released; Python's signals are checked
//! between batches, so Ctrl-C (`KeyboardInterrupt`) stops a long read within a batch.
//!
//! `to_parquet` writes through `pgnkit_export::PendingFile`, as the command's outputs: a
//! temporary file beside `path`, renamed it into place only when the table is whole: an error or an
//! interrupt removes it and leaves a file already under the name as it was.

use std::io::BufWriter;
use std::path::PathBuf;

use pgnkit::export::PendingFile;
use pgnkit::game::ReadOptions;
use pgnkit::lexer;
use pgnkit_arrow::arrow_array::RecordBatch;
use pgnkit_arrow::{
    Conversion, ConversionOptions, Format, ParquetCompression, RunError, SchemaRef, TableKind,
    TableWriter, WriterOptions,
};
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3_arrow::PyTable;

use crate::error::{PgnWarning, guard, io_error};
use crate::reading::read_options;
use crate::source::{self, Named, Stream};

/// Where a read's rows go in a bigger read: the first `game_id`, the offsets' base and the
/// lines' base. `Placing::default()` is a read on its own.
#[derive(Clone, Copy, Default)]
pub(crate) struct Placing {
    /// The first game's `game_id`.
    pub first_id: u64,
    /// Added to the offsets instead of the stream's origin (`None`: the origin).
    pub offset: Option<u64>,
    /// The 1-based line, in the file, of the stream's first line (0 or 1: the stream's own).
    pub line: u64,
    /// Count the streams' line ends too (`pgnkit_arrow::Report::lines`).
    pub count_lines: bool,
}

/// What a run read and left out (`pgnkit_arrow::Report`), and the last stream's origin (for a
/// byte range, the offset of its first game in the file).
#[derive(Default)]
pub(crate) struct Report {
    pub read: pgnkit_arrow::Report,
    pub origin: u64,
}

/// What a call asked for: the table, its options and the threads.
pub(crate) struct Request {
    table: TableKind,
    options: ConversionOptions,
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
        read: ReadOptions,
    ) -> PyResult<Request> {
        let which = TableKind::parse(table).ok_or_else(|| {
            PyValueError::new_err(format!(
                "table is \"games\", \"moves\" or \"positions\", not {table:?}"
            ))
        })?;
        Ok(Request {
            table: which,
            options: ConversionOptions {
                read,
                fen,
                keep_broken,
                ..ConversionOptions::one(which)
            },
            threads: crate::reading::threads_arg(
                threads,
                std::thread::available_parallelism().map_or(1, usize::from),
            )?,
            max_window: pgnkit::input::DEFAULT_MAX_WINDOW,
        })
    }

    fn schema(&self) -> SchemaRef {
        self.options.schema(self.table)
    }

    /// Reads every stream into record batches of the table, handing each to `sink` in input
    /// order, `game_id`s counted across the streams.
    fn run(
        &self,
        streams: Vec<Stream>,
        place: Placing,
        sink: &mut dyn FnMut(RecordBatch) -> PyResult<()>,
    ) -> PyResult<Report> {
        let mut report = Report::default();
        let mut conversion = Conversion::new(&self.options, place.first_id, self.threads);
        for stream in streams {
            let name = stream.name;
            let at = pgnkit_arrow::Stream {
                source: &name,
                offset: place.offset.unwrap_or(stream.origin),
                lines_before: place.line.saturating_sub(1),
                count_lines: place.count_lines,
            };
            report.origin = stream.origin;
            let games = lexer::Reader::new(stream.reader);
            conversion
                .run_stream(games, at, &mut report.read, |_, _, batch| {
                    // Ctrl-C: `KeyboardInterrupt` ends the run here.
                    Python::attach(|py| py.check_signals())?;
                    sink(batch)
                })
                .map_err(|e| match e {
                    RunError::Read(e) => io_error(&name, &e),
                    RunError::Table(e) => PyValueError::new_err(e.to_string()),
                    RunError::Sink(e) => e,
                })?;
        }
        Ok(report)
    }
}

/// Shows a warning for the broken games a table left out.
pub(crate) fn warn(py: Python<'_>, report: &Report) -> PyResult<()> {
    let report = &report.read;
    if report.broken == 0 {
        return Ok(());
    }
    let message = format!(
        "{} broken game{} left out of the table (keep them with keep_broken=True); the first: {}",
        report.broken,
        if report.broken == 1 { "" } else { "s" },
        report.first_broken.as_ref().map_or_else(
            || "?".to_owned(),
            |(name, e)| format!("{name}:{}:{}: {}", e.line, e.column, e.message)
        ),
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
/// NAGs, comment) or the positions table (`table="positions"`, one row per
/// main-line position, the start included: `polyglot_key`, side to move, the
/// move played from it, material). Returns a `pyarrow.Table` (or, without pyarrow, an object
/// with `__arrow_c_stream__` that Polars and DuckDB take).
///
/// `source` as for `read_games`. `range=(start, end)` reads only the games
/// whose first byte lies in that byte range of a file (a plain file, or a
/// `.zst` file in pzstd's layout with offsets in the compressed file), so
/// that ranges that tile a file read each game once; `offset` then counts
/// from the start of the file. `threads` (default: all cores) read and check
/// games in parallel; rows keep input order. Broken games are left out with a
/// `pgnkit.PgnWarning`, or kept with an `errors` column (`keep_broken=True`).
/// `fen=True` adds the position after each move to the moves table, and
/// each position's EPD to the positions table.
#[pyfunction]
#[pyo3(signature = (source, table="games", *, threads=None, range=None, fen=false, keep_broken=false, strict=false, max_window=None, nested_comments=false, fix_tag_strings=false))]
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
    nested_comments: bool,
    fix_tag_strings: bool,
) -> PyResult<Py<PyAny>> {
    let read = read_options(strict, nested_comments, fix_tag_strings);
    let mut request = Request::new(table, threads, fen, keep_broken, read)?;
    request.max_window = source::max_window(max_window)?;
    let named = Named::extract(source)?;
    let (table, report) = request.table(py, named, range, Placing::default())?;
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
        place: Placing,
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
pub(crate) fn arrow_table(
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

/// Writes the games table (or with `table="moves"` the moves table,
/// `table="positions"` the positions table) of a
/// PGN source to a Parquet file at `path`, batch by batch (memory stays
/// bounded); returns the number of rows written. `compression` is the codec of every
/// column: `"zstd"` (level 1, the default), `"zstd:LEVEL"` (1 to 22), `"lz4"` (Parquet's
/// LZ4_RAW), `"snappy"` or `"none"`, as `pgnkit convert --compression`. Other arguments as
/// for `read_arrow`.
#[pyfunction]
#[pyo3(signature = (source, path, table="games", *, threads=None, range=None, fen=false, keep_broken=false, strict=false, max_window=None, nested_comments=false, fix_tag_strings=false, compression="zstd"))]
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
    nested_comments: bool,
    fix_tag_strings: bool,
    compression: &str,
) -> PyResult<u64> {
    let compression: ParquetCompression = compression
        .parse()
        .map_err(|e: pgnkit_arrow::CompressionError| PyValueError::new_err(e.to_string()))?;
    let writing = WriterOptions { compression };
    let read = read_options(strict, nested_comments, fix_tag_strings);
    let mut request = Request::new(table, threads, fen, keep_broken, read)?;
    request.max_window = source::max_window(max_window)?;
    let named = Named::extract(source)?;
    let name = path.display().to_string();
    let (rows, report) = py.detach(|| {
        guard(|| {
            let opened = source::open(named, range, request.threads, request.max_window)?;
            let pending = PendingFile::create(&path).map_err(|e| io_error(&name, &e))?;
            let write_error =
                |e: pgnkit_arrow::Error| PyOSError::new_err(format!("cannot write {name}: {e}"));
            let file = pending
                .file()
                .try_clone()
                .map_err(|e| io_error(&name, &e))?;
            let mut writer = TableWriter::with_options(
                BufWriter::new(file),
                Format::Parquet,
                request.schema(),
                writing,
            )
            .map_err(write_error)?;
            let mut rows = 0u64;
            let report = request.run(opened.streams.into(), Placing::default(), &mut |b| {
                rows += b.num_rows() as u64;
                writer.write(&b).map_err(write_error)
            })?;
            let buffered = writer.finish().map_err(write_error)?;
            buffered
                .into_inner()
                .map_err(|e| io_error(&name, e.error()))?;
            pending.commit().map_err(|e| io_error(&name, &e))?;
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
