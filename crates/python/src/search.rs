//! `pgnkit.search(source, query)`: the games of a source that a query
//! selects (`pgnkit-select`'s query language, position predicates
//! included), read one at a time with the GIL released, as `read_games`
//! reads them; with `offsets=True`, where each game is and the plies where
//! the query's position predicates hold (`SearchHit`), as `pgnkit search
//! --json` gives them.

use std::sync::Mutex;

use pgnkit::game::Game as CoreGame;
use pgnkit::game::{ReadOptions, Validate};
use pgnkit::select::{Context, Place as WindowPlace, PlyFinder, Query, Window};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::error::guard;
use crate::game::{Game, ReadError};
use crate::reading::{Streams, open, read_options, threads_arg};

/// Where a game found by `search(..., offsets=True)` is, and the plies where
/// the query's position predicates hold.
#[pyclass(module = "pgnkit", frozen, get_all)]
pub struct SearchHit {
    /// The source's name (a path, or `<bytes>`...).
    pub source: String,
    /// The byte offset of the game's first byte (in the decompressed text).
    pub offset: u64,
    /// The game's number in its source, from 1 (games with errors counted).
    pub game: u64,
    /// Main-line plies (0: the start position; `n`: after `n` moves).
    pub plies: Vec<u32>,
    /// Plies in variations (counted from the start along their line).
    pub variation_plies: Vec<u32>,
}

#[pymethods]
impl SearchHit {
    fn __repr__(&self) -> String {
        format!(
            "SearchHit(source={:?}, offset={}, game={}, plies={:?}, variation_plies={:?})",
            self.source, self.offset, self.game, self.plies, self.variation_plies
        )
    }
}

/// The games found, one at a time: `pgnkit.search(...)`.
#[pyclass(module = "pgnkit")]
pub struct SearchIter {
    inner: Mutex<State>,
    offsets: bool,
}

struct State {
    streams: Streams<CoreGame>,
    query: Query,
    /// A query on main-line positions alone is decided as the game is read, with no tree
    /// (as `pgnkit search` does): this finder, which also stops reading a game's moves once
    /// it can no longer be selected.
    finder: Option<PlyFinder<Validate>>,
    /// The reading rules (a game found is read again into a tree with them).
    options: ReadOptions,
    /// Whether only the places are wanted (no game is made).
    offsets: bool,
    /// The current source's name and the number of its last game.
    source: String,
    number: u64,
    /// `skip` and `first`: which of the games found are yielded.
    window: Window,
}

/// A game found: the game (unless only its place is wanted), its diagnostics, source,
/// offset, line, number and plies.
type Found = (
    Option<CoreGame>,
    pgnkit::game::Diagnostics,
    String,
    u64,
    u64,
    u64,
    Vec<pgnkit::select::Ply>,
);

/// What one game read gives.
enum Step {
    /// Not selected, or left out by the window.
    Passed,
    /// A game with errors: the warning about it.
    Broken(String),
    Found(Box<Found>),
}

impl State {
    /// The next game the query selects (games with errors are passed by, as warnings).
    fn next(&mut self, broken: &mut Vec<String>) -> PyResult<Option<Found>> {
        loop {
            // `first` games yielded: nothing more is read.
            if self.window.is_full() {
                return Ok(None);
            }
            let step = match &mut self.finder {
                Some(finder) => {
                    let (options, offsets) = (self.options, self.offsets);
                    let (source, number, window) =
                        (&mut self.source, &mut self.number, &mut self.window);
                    self.streams
                        .visit_next(&mut *finder, |read, name, origin| {
                            let ((_, plies), diagnostics) = (read.value, read.diagnostics);
                            let game = |number| Place {
                                name,
                                origin,
                                offset: read.offset,
                                line: read.line,
                                number,
                            };
                            let found = game(count(source, number, name));
                            found.step(diagnostics, plies, window, || {
                                // Read again into a tree: the game was read to its end.
                                (!offsets)
                                    .then(|| {
                                        pgnkit::game::read_games_with(&read.raw[..], options).next()
                                    })
                                    .flatten()
                                    .map(|again| again.value)
                            })
                        })?
                }
                None => {
                    let query = &self.query;
                    let Some(item) = self.streams.next()? else {
                        return Ok(None);
                    };
                    let read = item.read;
                    let found = Place {
                        name: &item.name,
                        origin: item.origin,
                        offset: read.offset,
                        line: read.line,
                        number: count(&mut self.source, &mut self.number, &item.name),
                    };
                    let plies = if read.diagnostics.has_errors() {
                        None
                    } else {
                        query.matching_plies(&read.value, &Context::default())
                    };
                    let game = read.value;
                    Some(found.step(read.diagnostics, plies, &mut self.window, || Some(game)))
                }
            };
            match step {
                None => return Ok(None),
                Some(Step::Passed) => {}
                Some(Step::Broken(message)) => broken.push(message),
                Some(Step::Found(found)) => return Ok(Some(*found)),
            }
        }
    }
}

/// The number of the game of source `name` just read, counted in `number` (from 1 in
/// each source; `source` the current one).
fn count(source: &mut String, number: &mut u64, name: &str) -> u64 {
    if name != source {
        name.clone_into(source);
        *number = 0;
    }
    *number += 1;
    *number
}

/// Where a game read is.
struct Place<'a> {
    name: &'a str,
    origin: u64,
    offset: u64,
    line: u64,
    number: u64,
}

impl Place<'_> {
    /// What the game at this place gives: a warning if it has errors, nothing if it is
    /// not selected (`plies` is `None`) or `window` leaves it out, else the game found
    /// (made by `game` unless only its place is wanted).
    fn step(
        self,
        diagnostics: pgnkit::game::Diagnostics,
        plies: Option<Vec<pgnkit::select::Ply>>,
        window: &mut Window,
        game: impl FnOnce() -> Option<CoreGame>,
    ) -> Step {
        if let Some(first) = diagnostics.errors().next() {
            let e = ReadError::of(first, self.origin);
            return Step::Broken(format!(
                "{}:{}:{}: {} (game at line {} not searched)",
                self.name, e.line, e.column, e.message, self.line
            ));
        }
        let Some(plies) = plies else {
            return Step::Passed;
        };
        if window.place() != WindowPlace::Kept {
            return Step::Passed;
        }
        Step::Found(Box::new((
            game(),
            diagnostics,
            self.name.to_string(),
            self.offset + self.origin,
            self.line,
            self.number,
            plies,
        )))
    }
}

#[pymethods]
impl SearchIter {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
        let mut broken = Vec::new();
        let found = py.detach(|| {
            guard(|| {
                let mut state = self.inner.lock().unwrap_or_else(|e| e.into_inner());
                state.next(&mut broken)
            })
        });
        for message in broken {
            PyErr::warn(
                py,
                &py.get_type::<crate::error::PgnWarning>(),
                &std::ffi::CString::new(message.replace('\0', " "))?,
                1,
            )?;
        }
        let Some((game, diagnostics, source, offset, line, number, plies)) = found? else {
            return Ok(None);
        };
        if self.offsets {
            let pick = |main: bool| {
                plies
                    .iter()
                    .filter(|p| p.main_line == main)
                    .map(|p| p.ply)
                    .collect()
            };
            let hit = SearchHit {
                source,
                offset,
                game: number,
                plies: pick(true),
                variation_plies: pick(false),
            };
            return Ok(Some(Py::new(py, hit)?.into_any()));
        }
        let Some(game) = game else {
            return Err(pyo3::exceptions::PyRuntimeError::new_err(format!(
                "{source}: the game at byte {offset} did not read again as it did"
            )));
        };
        let warnings = diagnostics
            .warnings()
            .map(|d| ReadError::of(d, 0))
            .collect();
        Ok(Some(
            Game::create(py, game, Vec::new(), warnings, offset, line)?.into_any(),
        ))
    }
}

/// The games of a PGN source that `query` selects, in input order.
///
/// `query` is `pgnkit select --where`'s language with the position
/// predicates of `pgnkit search` (docs/search.md): `reaches "FEN"`,
/// `pattern "..."`, `material "KQkr"`, `imbalance "R vs BN"`, `sequence "e4
/// e5"`, `at (... and stm white)`, `in_variations`. A malformed query raises
/// `ValueError` showing it with a caret under the fault, before the source is
/// opened. `source` as for `read_games`. Games with errors are not searched:
/// each is reported through `warnings` (`pgnkit.PgnWarning`).
///
/// Yields `Game`s, or with `offsets=True` a `SearchHit` per game found: its
/// source, byte offset, number (from 1) and plies. `skip=N` leaves out the
/// first N games found and `first=N` yields at most N, reading no further
/// (`pgnkit search --skip N --first N`).
#[pyfunction]
#[pyo3(signature = (source, query, *, offsets=false, skip=0, first=None, strict=false, max_window=None, nested_comments=false, fix_tag_strings=false))]
#[allow(clippy::too_many_arguments)]
pub fn search(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    query: &str,
    offsets: bool,
    skip: u64,
    first: Option<u64>,
    strict: bool,
    max_window: Option<&Bound<'_, PyAny>>,
    nested_comments: bool,
    fix_tag_strings: bool,
) -> PyResult<SearchIter> {
    let parsed = Query::parse(query)
        .map_err(|e| PyValueError::new_err(format!("bad query:\n{}", e.render(query))))?;
    let streams = open(py, source, threads_arg(None, 1)?, max_window)?;
    let read = read_options(strict, nested_comments, fix_tag_strings);
    Ok(SearchIter {
        inner: Mutex::new(State {
            streams: Streams::new(streams, read),
            finder: parsed.ply_finder(Validate).map(PlyFinder::stopping),
            query: parsed,
            options: read,
            offsets,
            source: String::new(),
            number: 0,
            window: Window::new(skip, first),
        }),
        offsets,
    })
}
