//! Reading games: `read_games` (an iterator of `Game`s), `read_headers`
//! (an iterator of `Headers`, moves not checked) and `_read_one` (the first
//! game of some bytes, behind `pgnkit.read_game`). The GIL is released
//! while Rust reads and checks each game.

use std::collections::VecDeque;
use std::io::BufRead;
use std::sync::Mutex;

use pgnkit::game::{Game as CoreGame, ReadGame, ReadOptions, Reader, Tags, TagsOnly};
use pyo3::exceptions::PyUserWarning;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::error::{guard, io_error};
use crate::game::{Game, ReadError};
use crate::headers::Headers;
use crate::source::{self, Named, Stream};

/// A stream being read: its reader, name and origin.
type Current = (Reader<Box<dyn BufRead + Send>>, String, u64);

/// The stream being read and those still to come.
struct Streams<T> {
    pending: VecDeque<Stream>,
    current: Option<Current>,
    options: ReadOptions,
    _item: std::marker::PhantomData<T>,
}

/// One game read, with its stream's name and the stream's origin.
struct Item<T> {
    read: ReadGame<'static, T>,
    name: String,
    origin: u64,
}

/// What a stream of games yields: a whole game, or its tags only.
trait Produce: Sized {
    fn next(
        reader: &mut Reader<Box<dyn BufRead + Send>>,
    ) -> Option<std::io::Result<ReadGame<'static, Self>>>;
}

impl Produce for CoreGame {
    fn next(
        reader: &mut Reader<Box<dyn BufRead + Send>>,
    ) -> Option<std::io::Result<ReadGame<'static, CoreGame>>> {
        reader.next_game()
    }
}

impl Produce for Tags {
    fn next(
        reader: &mut Reader<Box<dyn BufRead + Send>>,
    ) -> Option<std::io::Result<ReadGame<'static, Tags>>> {
        match reader.visit_next(TagsOnly::default())? {
            Ok(read) => Some(Ok(ReadGame {
                value: read.value,
                diagnostics: read.diagnostics,
                raw: std::borrow::Cow::Owned(Vec::new()),
                offset: read.offset,
                line: read.line,
            })),
            Err(e) => Some(Err(e)),
        }
    }
}

impl<T: Produce> Streams<T> {
    fn new(streams: VecDeque<Stream>, options: ReadOptions) -> Streams<T> {
        Streams {
            pending: streams,
            current: None,
            options,
            _item: std::marker::PhantomData,
        }
    }

    /// The next game, `None` at the end of the last stream.
    fn next(&mut self) -> PyResult<Option<Item<T>>> {
        loop {
            if self.current.is_none() {
                let Some(stream) = self.pending.pop_front() else {
                    return Ok(None);
                };
                let reader = Reader::with_options(stream.reader, self.options);
                self.current = Some((reader, stream.name, stream.origin));
            }
            let Some((reader, name, origin)) = &mut self.current else {
                continue;
            };
            match T::next(reader) {
                Some(Ok(read)) => {
                    return Ok(Some(Item {
                        read,
                        name: name.clone(),
                        origin: *origin,
                    }));
                }
                Some(Err(e)) => {
                    let error = io_error(name, &e);
                    self.current = None;
                    self.pending.clear();
                    return Err(error);
                }
                None => self.current = None,
            }
        }
    }
}

/// Opens a source for reading (GIL released), showing its warnings.
fn open(py: Python<'_>, source: &Bound<'_, PyAny>, threads: usize) -> PyResult<VecDeque<Stream>> {
    let named = Named::extract(source)?;
    let opened = py.detach(|| guard(|| source::open(named, None, threads)))?;
    for warning in &opened.warnings {
        PyErr::warn(
            py,
            &py.get_type::<PyUserWarning>(),
            &std::ffi::CString::new(warning.as_str())?,
            1,
        )?;
    }
    Ok(opened.streams)
}

fn read_options(strict: bool) -> ReadOptions {
    if strict {
        ReadOptions::strict()
    } else {
        ReadOptions::new()
    }
}

/// Iterates the games of a source: `pgnkit.read_games(...)`.
#[pyclass(module = "pgnkit")]
pub struct GameIter {
    streams: Mutex<Streams<CoreGame>>,
    skip_broken: bool,
}

#[pymethods]
impl GameIter {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<Py<Game>>> {
        loop {
            let item = py.detach(|| {
                guard(|| {
                    let mut streams = self.streams.lock().unwrap_or_else(|e| e.into_inner());
                    streams.next()
                })
            })?;
            let Some(item) = item else {
                return Ok(None);
            };
            let read = item.read;
            let origin = item.origin;
            let errors: Vec<ReadError> = read
                .diagnostics
                .errors()
                .map(|d| ReadError::of(d, origin))
                .collect();
            if self.skip_broken && !errors.is_empty() {
                let first = &errors[0];
                let message = format!(
                    "{}:{}:{}: {} (game at line {} skipped)",
                    item.name, first.line, first.column, first.message, read.line
                );
                PyErr::warn(
                    py,
                    &py.get_type::<crate::error::PgnWarning>(),
                    &std::ffi::CString::new(message.replace('\0', " "))?,
                    1,
                )?;
                continue;
            }
            let warnings = read
                .diagnostics
                .warnings()
                .map(|d| ReadError::of(d, origin))
                .collect();
            return Ok(Some(Game::create(
                py,
                read.value,
                errors,
                warnings,
                read.offset + origin,
                read.line,
            )?));
        }
    }
}

/// Iterates the games of a PGN source, python-chess's `read_game` loop in one call.
///
/// `source` is a path (`str` or `os.PathLike`; `.zst`, `.gz`, `.bz2`, `.xz` and
/// `.zip` files are read as their content), a binary or text file object, or
/// PGN text as `bytes` (or as `str` when it holds a line break or starts with `[`).
///
/// Every move is checked. A game with errors is still yielded, with what was
/// read before each error and `game.errors` set (each with `line`, `column`,
/// `message`); with `skip_broken=True` it is left out and reported through
/// `warnings` (`pgnkit.PgnWarning`) with its position. `strict=True` makes
/// lenient move forms (`0-0`, `Ng1f3`, a null move) errors. `threads`
/// (default: one) is the number of threads that decode compressed input.
///
/// Raises `FileNotFoundError`, `PermissionError`, or `pgnkit.PgnError` for
/// input that is not PGN text (binary data, an unknown archive).
#[pyfunction]
#[pyo3(signature = (source, *, threads=None, strict=false, skip_broken=false))]
pub fn read_games(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    threads: Option<usize>,
    strict: bool,
    skip_broken: bool,
) -> PyResult<GameIter> {
    let streams = open(py, source, threads.unwrap_or(1))?;
    Ok(GameIter {
        streams: Mutex::new(Streams::new(streams, read_options(strict))),
        skip_broken,
    })
}

/// Iterates the tag sections of a PGN source as `Headers` mappings, without
/// reading the moves (much faster than `read_games`). `source` as for `read_games`.
#[pyfunction]
#[pyo3(signature = (source, *, threads=None))]
pub fn read_headers(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    threads: Option<usize>,
) -> PyResult<HeadersIter> {
    let streams = open(py, source, threads.unwrap_or(1))?;
    Ok(HeadersIter {
        streams: Mutex::new(Streams::new(streams, ReadOptions::new())),
    })
}

/// Iterates the tag sections of a source: `pgnkit.read_headers(...)`.
#[pyclass(module = "pgnkit")]
pub struct HeadersIter {
    streams: Mutex<Streams<Tags>>,
}

#[pymethods]
impl HeadersIter {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<Headers>> {
        let item = py.detach(|| {
            guard(|| {
                let mut streams = self.streams.lock().unwrap_or_else(|e| e.into_inner());
                streams.next()
            })
        })?;
        Ok(item.map(|item| Headers::own(item.read.value)))
    }
}

/// The first game of `data` (the text of one game, as `pgnkit.read_game`
/// gathers it from a file object), or None when it holds none.
#[pyfunction]
#[pyo3(name = "_read_one", signature = (data, *, strict=false))]
pub fn read_one(
    py: Python<'_>,
    data: &Bound<'_, PyBytes>,
    strict: bool,
) -> PyResult<Option<Py<Game>>> {
    let bytes = data.as_bytes().to_vec();
    let read = py.detach(|| {
        guard(|| {
            Ok(pgnkit::read_games_with(&bytes, read_options(strict))
                .next()
                .map(|read| ReadGame {
                    value: read.value,
                    diagnostics: read.diagnostics,
                    raw: std::borrow::Cow::Owned(Vec::new()),
                    offset: read.offset,
                    line: read.line,
                }))
        })
    })?;
    let Some(read) = read else {
        return Ok(None);
    };
    let errors = read
        .diagnostics
        .errors()
        .map(|d| ReadError::of(d, 0))
        .collect();
    let warnings = read
        .diagnostics
        .warnings()
        .map(|d| ReadError::of(d, 0))
        .collect();
    Ok(Some(Game::create(
        py,
        read.value,
        errors,
        warnings,
        read.offset,
        read.line,
    )?))
}
