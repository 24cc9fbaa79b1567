//! The `pgnkit` Python package's native module, `pgnkit._pgnkit`: python-chess's
//! PGN API (games, nodes, boards, headers) over pgnkit's reader, and the
//! games and moves tables of `pgnkit-arrow` as Arrow data through the Arrow
//! C stream PyCapsule, and `pgnkit-index`'s position index and Polyglot books.
//!
//! The pure-Python part of the package (`python/pgnkit`) re-exports these
//! names and adds python-chess's score classes and interoperability.
//!
//! Every call that reads releases the GIL while Rust works ([`Python::detach`]);
//! a Rust panic is caught at the border and raised as `pgnkit.PgnError`'s
//! sibling `RuntimeError` ([`guard`]), never an abort of the interpreter.

mod board;
mod error;
mod game;
mod headers;
mod index;
mod partition;
mod reading;
mod search;
mod shared;
mod source;
mod svg;
mod tables;

use pyo3::prelude::*;

pub use error::guard;

/// The native module.
#[pymodule]
fn _pgnkit(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("PgnError", py.get_type::<error::PgnError>())?;
    m.add("PgnWarning", py.get_type::<error::PgnWarning>())?;
    m.add_class::<game::Node>()?;
    m.add_class::<game::Game>()?;
    m.add_class::<game::ReadError>()?;
    m.add_class::<headers::Headers>()?;
    m.add_class::<board::Move>()?;
    m.add_class::<board::Board>()?;
    m.add_class::<board::LegalMoves>()?;
    m.add_class::<reading::GameIter>()?;
    m.add_class::<reading::HeadersIter>()?;
    m.add_function(wrap_pyfunction!(reading::read_games, m)?)?;
    m.add_function(wrap_pyfunction!(reading::read_one, m)?)?;
    m.add_function(wrap_pyfunction!(reading::read_next, m)?)?;
    m.add_function(wrap_pyfunction!(reading::read_headers, m)?)?;
    m.add_class::<search::SearchIter>()?;
    m.add_class::<search::SearchHit>()?;
    m.add_function(wrap_pyfunction!(search::search, m)?)?;
    m.add("PgnIndexError", py.get_type::<index::PgnIndexError>())?;
    m.add_class::<index::Index>()?;
    m.add_class::<index::TreeRow>()?;
    m.add_class::<index::TreeGame>()?;
    m.add_class::<index::BookMove>()?;
    m.add_function(wrap_pyfunction!(index::tree, m)?)?;
    m.add_function(wrap_pyfunction!(index::book, m)?)?;
    m.add_function(wrap_pyfunction!(index::probe_book, m)?)?;
    m.add_function(wrap_pyfunction!(tables::read_arrow, m)?)?;
    m.add_function(wrap_pyfunction!(tables::to_parquet, m)?)?;
    m.add_function(wrap_pyfunction!(tables::split_ranges, m)?)?;
    m.add_function(wrap_pyfunction!(source::parse_size, m)?)?;
    m.add_function(wrap_pyfunction!(partition::plan_partitions, m)?)?;
    m.add_function(wrap_pyfunction!(partition::count_partition, m)?)?;
    m.add_function(wrap_pyfunction!(partition::partition_bases, m)?)?;
    m.add_function(wrap_pyfunction!(partition::partition_step, m)?)?;
    m.add_function(wrap_pyfunction!(partition::place_partition, m)?)?;
    m.add_function(wrap_pyfunction!(partition::broken_text, m)?)?;
    m.add_function(wrap_pyfunction!(partition::read_partition, m)?)?;
    Ok(())
}
