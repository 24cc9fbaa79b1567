//! Partitions for the cluster readers (`pgnkit.dask`, `pgnkit.spark`): `pgnkit-input`'s
//! plan and counts (module `partition`) as plain tuples, which pickle and travel to workers.
//!
//! A partition is `(file, path, start, end, kind)`: the file's index in the list, its path,
//! the stored byte range, and `"range"`, `"frames"` or `"whole"`. Counts are `(games, bytes,
//! lines, lead, lead_lines, origin)` and bases `(game_id, offset, line)`, the fields of
//! `pgnkit_input::partition::Counts` and `Bases`. `read_partition` reads one into a table,
//! either at known bases (Spark counts first) or from 0, returning its counts so that the
//! caller places its rows afterwards (Dask) with `place_partition`, which shifts them in
//! Rust (`pgnkit_arrow::shift`); `pgnkit._partition` holds the Python side.

use std::path::PathBuf;

use pgnkit::input::Options;
use pgnkit::input::partition::{self, Bases, Counts, Kind, Partition};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use pgnkit_arrow::{RecordError, Shift};
use pyo3_arrow::PyTable;

use crate::error::{guard, input_error};
use crate::source::{Named, Source};
use crate::tables::{Placing, Request};

/// A partition as Python holds it: `(file, path, start, end, kind)`.
pub type PartitionTuple = (usize, String, u64, u64, String);
/// Counts as Python holds them: `(games, bytes, lines, lead, lead_lines, origin)`.
pub type CountTuple = (u64, u64, u64, u64, u64, u64);
/// Bases as Python holds them: `(game_id, offset, line)`.
pub type BasesTuple = (u64, u64, u64);
/// The first broken game left out, as Python holds it: `(name, line, column, message)`.
pub type FirstTuple = (String, u64, u64, String);

/// The broken games a read left out and the first one's place, `name:line:column: message`,
/// its line made the file's with `lines` more.
fn first_text(first: &Option<FirstTuple>, lines: u64) -> Option<String> {
    first
        .as_ref()
        .map(|(name, line, column, message)| format!("{name}:{}:{column}: {message}", line + lines))
}

fn counts_tuple(c: &Counts) -> CountTuple {
    (c.games, c.bytes, c.lines, c.lead, c.lead_lines, c.origin)
}

fn counts_of((games, bytes, lines, lead, lead_lines, origin): CountTuple) -> Counts {
    Counts {
        games,
        bytes,
        lines,
        lead,
        lead_lines,
        origin,
    }
}

fn bases_tuple(b: Bases) -> BasesTuple {
    (b.game_id, b.offset, b.line)
}

fn to_tuple(partition: &Partition) -> PartitionTuple {
    (
        partition.file,
        partition.path.display().to_string(),
        partition.start,
        partition.end,
        partition.kind.name().to_owned(),
    )
}

fn from_tuple((file, path, start, end, kind): PartitionTuple) -> PyResult<Partition> {
    let kind = match kind.as_str() {
        "range" => Kind::Range,
        "frames" => Kind::Frames,
        "whole" => Kind::Whole,
        other => {
            return Err(PyValueError::new_err(format!(
                "a partition's kind is \"range\", \"frames\" or \"whole\", not {other:?}"
            )));
        }
    };
    Ok(Partition {
        file,
        name: path.clone(),
        path: PathBuf::from(path),
        start,
        end,
        kind,
    })
}

/// Cuts the files at `paths` (in input order) into partitions of about `block` stored bytes:
/// byte ranges of plain files, groups of frames of pzstd `.zst` files, the whole file for
/// other compressed files. Returns the partitions as `(file, path, start, end, kind)` and
/// the warnings (each naming a file read as one partition). A missing, unreadable or binary
/// file raises, naming it, before anything is read.
#[pyfunction]
pub fn plan_partitions(
    py: Python<'_>,
    paths: Vec<String>,
    block: u64,
) -> PyResult<(Vec<PartitionTuple>, Vec<String>)> {
    let files: Vec<(PathBuf, String)> = paths.into_iter().map(|p| (PathBuf::from(&p), p)).collect();
    py.detach(|| {
        guard(|| {
            let plan = partition::plan(&files, block).map_err(|e| input_error(&e))?;
            Ok((
                plan.partitions.iter().map(to_tuple).collect(),
                plan.warnings,
            ))
        })
    })
}

/// Counts the games of a partition with the splitter alone (no chess): returns
/// `(games, bytes, lines, lead, lead_lines, origin)`, the fields of
/// `pgnkit_input::partition::Counts`. `max_window` as for `read_arrow`; `nested_comments`
/// as for the reads the counts are for (it changes where games end).
#[pyfunction]
#[pyo3(signature = (partition, *, threads=1, max_window=None, nested_comments=false))]
pub fn count_partition(
    py: Python<'_>,
    partition: PartitionTuple,
    threads: usize,
    max_window: Option<&Bound<'_, PyAny>>,
    nested_comments: bool,
) -> PyResult<CountTuple> {
    let partition = from_tuple(partition)?;
    let rules = crate::reading::read_options(false, nested_comments, false).lex_options();
    let options = Options {
        threads: crate::reading::threads_arg(Some(threads), 1)?,
        max_window: crate::source::max_window(max_window)?,
    };
    py.detach(|| {
        guard(|| {
            let c = partition::count(&partition, &options, rules).map_err(|e| input_error(&e))?;
            Ok(counts_tuple(&c))
        })
    })
}

/// The bases `(game_id, offset, line)` of each partition (a plan's, in its order) from their
/// counts: `pgnkit_input::partition::Bases::of`.
#[pyfunction]
pub fn partition_bases(
    partitions: Vec<PartitionTuple>,
    counts: Vec<CountTuple>,
) -> PyResult<Vec<BasesTuple>> {
    if partitions.len() != counts.len() {
        return Err(PyValueError::new_err(format!(
            "{} partitions but {} counts",
            partitions.len(),
            counts.len()
        )));
    }
    let partitions = partitions
        .into_iter()
        .map(from_tuple)
        .collect::<PyResult<Vec<_>>>()?;
    let counts: Vec<_> = counts.into_iter().map(counts_of).collect();
    Ok(partition::Bases::of(&partitions, &counts)
        .into_iter()
        .map(bases_tuple)
        .collect())
}

/// One step of `partition_bases`, for adding counts up one partition at a time: `state` is
/// what the partition before left (`(file index or None, bases after it)`; `(None, (0, 0,
/// 0))` for the first), `partition` and `counts` the next one's. Returns its bases and the
/// state for the one after.
#[pyfunction]
pub fn partition_step(
    state: (Option<usize>, BasesTuple),
    partition: PartitionTuple,
    counts: CountTuple,
) -> PyResult<(BasesTuple, (Option<usize>, BasesTuple))> {
    let (file, (game_id, offset, line)) = state;
    let partition = from_tuple(partition)?;
    let counts = counts_of(counts);
    let before = Bases {
        game_id,
        offset,
        line,
    };
    let bases = before.then(file, &partition, &counts);
    Ok((
        bases_tuple(bases),
        (Some(partition.file), bases_tuple(bases.after(&counts))),
    ))
}

/// Reads a partition into the games or moves table (as `read_arrow` with these options).
///
/// With `bases` (`(game_id, offset, line)`, from the counts of the partitions before), the
/// rows are those of a single read of the files: `game_id`, `offset` and the lines of
/// diagnostics count from the first file's first game and the file's start. Without, they
/// count from the partition: `game_id` from 0, `offset` from its first game (a partition
/// read whole: from its file's start), lines from its first game's line; the caller places
/// them afterwards with the bases that the returned counts give (`place_partition`).
///
/// Returns `(table, counts, (broken, first))`: counts as `count_partition` gives them (the
/// read's own: no second pass; `lines` only without `bases`), and the broken games left out
/// with the first one's `(name, line, column, message)` (no warning is shown: that is the
/// caller's, once the lines are the file's).
#[pyfunction]
#[pyo3(signature = (partition, table="games", *, bases=None, threads=1, fen=false, keep_broken=false, strict=false, max_window=None, nested_comments=false, fix_tag_strings=false))]
#[allow(clippy::too_many_arguments, clippy::type_complexity)]
pub fn read_partition(
    py: Python<'_>,
    partition: PartitionTuple,
    table: &str,
    bases: Option<BasesTuple>,
    threads: usize,
    fen: bool,
    keep_broken: bool,
    strict: bool,
    max_window: Option<&Bound<'_, PyAny>>,
    nested_comments: bool,
    fix_tag_strings: bool,
) -> PyResult<(Py<PyAny>, CountTuple, (u64, Option<FirstTuple>))> {
    let partition = from_tuple(partition)?;
    let read = crate::reading::read_options(strict, nested_comments, fix_tag_strings);
    let mut request = Request::new(table, Some(threads), fen, keep_broken, read)?;
    request.max_window = crate::source::max_window(max_window)?;
    let named = Named {
        source: Source::Path(partition.path.clone()),
        name: partition.name.clone(),
    };
    let range = (partition.kind != Kind::Whole).then_some((partition.start, partition.end));
    let place = match bases {
        Some((first_id, offset, line)) => Placing {
            first_id,
            offset: Some(offset),
            line,
            count_lines: false,
        },
        None => Placing {
            first_id: 0,
            offset: Some(0),
            line: 1,
            count_lines: true,
        },
    };
    let (table, report) = request.table(py, named, range, place)?;
    let options = Options {
        threads: 1,
        max_window: request.max_window,
    };
    let (lead, lead_lines) = py.detach(|| {
        guard(|| partition::lead_of(&partition, &options).map_err(|e| input_error(&e)))
    })?;
    let read = report.read;
    let counts = Counts {
        games: read.games,
        bytes: read.bytes,
        lines: read.lines,
        lead,
        lead_lines,
        origin: report.origin,
    };
    let first = read
        .first_broken
        .map(|(name, error): (String, RecordError)| {
            (name, error.line, error.column, error.message)
        });
    Ok((table, counts_tuple(&counts), (read.broken, first)))
}

/// A table `read_partition` read from 0 (no `bases`) placed at `bases`: `game_id`, `offset`
/// and the lines of `errors` shifted (`pgnkit_arrow::shift`), so that its rows are those of
/// a single read. Returns the table and the broken games' count with the first one's
/// `name:line:column: message`, its line the file's.
#[pyfunction]
#[allow(clippy::type_complexity)]
pub fn place_partition(
    py: Python<'_>,
    table: PyTable,
    bases: BasesTuple,
    broken: (u64, Option<FirstTuple>),
) -> PyResult<(Py<PyAny>, (u64, Option<String>))> {
    let (game_id, offset, line) = bases;
    let by = Shift {
        game_id,
        offset,
        lines: line.saturating_sub(1),
    };
    let (batches, schema) = table.into_inner();
    let batches = py.detach(|| {
        batches
            .iter()
            .map(|batch| pgnkit_arrow::shift(batch, by))
            .collect::<Result<Vec<_>, _>>()
    });
    let batches = batches.map_err(|e| PyValueError::new_err(e.to_string()))?;
    let (count, first) = broken;
    let table = crate::tables::arrow_table(py, batches, schema)?;
    Ok((table, (count, first_text(&first, by.lines))))
}

/// The broken games' count and the first one's `name:line:column: message` (of a read at
/// its bases: the lines are the file's).
#[pyfunction]
pub fn broken_text(broken: (u64, Option<FirstTuple>)) -> (u64, Option<String>) {
    let (count, first) = broken;
    (count, first_text(&first, 0))
}
