//! Partitions for the cluster readers (`pgnkit.dask`, `pgnkit.spark`): `pgnkit-input`'s
//! plan and counts (module `partition`) as plain tuples, which pickle and travel to workers.
//!
//! A partition is `(file, path, start, end, kind)`: the file's index in the list, its path,
//! the stored byte range, and `"range"`, `"frames"` or `"whole"`. The Python side
//! (`pgnkit._partition`) reads one with `read_arrow` and puts its `game_id` and `offset`
//! right with the bases that the counts give.

use std::path::PathBuf;

use pgnkit::input::Options;
use pgnkit::input::partition::{self, Kind, Partition};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::error::{guard, input_error};

/// A partition as Python holds it: `(file, path, start, end, kind)`.
pub type PartitionTuple = (usize, String, u64, u64, String);

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
/// `(games, bytes, lead, origin)`, the fields of `pgnkit_input::partition::Counts`.
#[pyfunction]
#[pyo3(signature = (partition, *, threads=1))]
pub fn count_partition(
    py: Python<'_>,
    partition: PartitionTuple,
    threads: usize,
) -> PyResult<(u64, u64, u64, u64)> {
    let partition = from_tuple(partition)?;
    let options = Options {
        threads: threads.max(1),
        ..Options::default()
    };
    py.detach(|| {
        guard(|| {
            let c = partition::count(&partition, &options).map_err(|e| input_error(&e))?;
            Ok((c.games, c.bytes, c.lead, c.origin))
        })
    })
}

/// The bases `(game_id, offset)` of each partition (a plan's, in its order) from their
/// counts `(games, bytes, lead, origin)`: `pgnkit_input::partition::Bases::of`.
#[pyfunction]
pub fn partition_bases(
    partitions: Vec<PartitionTuple>,
    counts: Vec<(u64, u64, u64, u64)>,
) -> PyResult<Vec<(u64, u64)>> {
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
    let counts: Vec<_> = counts
        .into_iter()
        .map(|(games, bytes, lead, origin)| partition::Counts {
            games,
            bytes,
            lead,
            origin,
        })
        .collect();
    Ok(partition::Bases::of(&partitions, &counts)
        .into_iter()
        .map(|b| (b.game_id, b.offset))
        .collect())
}
