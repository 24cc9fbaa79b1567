//! Reading games: `read_games` (an iterator of `Game`s), `read_headers`
//! (an iterator of `Headers`, moves not checked), `_read_next` (the next game
//! of a file object, behind `pgnkit.read_game`: `reading/handle.rs`) and
//! `_read_one` (the first game of some bytes). The GIL is released while Rust
//! reads and checks each game.
//!
//! With `threads` above one, `read_games` reads and checks games on worker
//! threads (the library's `read_games_parallel`, run by a thread of its own)
//! and hands them over in input order through a bounded channel, in chunks;
//! the iterator's thread only turns each into Python objects.

use std::collections::VecDeque;
use std::io::BufRead;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use pgnkit::game::{
    Diagnostics, Game as CoreGame, ReadGame, ReadOptions, Reader, Tags, Visitor,
    read_games_parallel,
};
use pyo3::exceptions::{PyRuntimeError, PyUserWarning, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::error::{guard, io_error};
use crate::game::{Game, ReadError};
use crate::headers::Headers;
use crate::source::{self, Named, Stream};

mod handle;

pub use handle::read_next;

/// A stream being read: its reader, name and origin.
type Current = (Reader<Box<dyn BufRead + Send>>, String, u64);

/// The stream being read and those still to come.
pub(crate) struct Streams<T> {
    pending: VecDeque<Stream>,
    current: Option<Current>,
    options: ReadOptions,
    _item: std::marker::PhantomData<T>,
}

/// One game read, with its stream's name and the stream's origin.
pub(crate) struct Item<T> {
    pub(crate) read: ReadGame<'static, T>,
    pub(crate) name: String,
    pub(crate) origin: u64,
}

/// What a stream of games yields: a whole game, or its tags only.
pub(crate) trait Produce: Sized {
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
    /// The tags alone: the tag section read from the game's bytes, its
    /// movetext not lexed (`Reader::next_tags`).
    fn next(
        reader: &mut Reader<Box<dyn BufRead + Send>>,
    ) -> Option<std::io::Result<ReadGame<'static, Tags>>> {
        Some(reader.next_tags()?.map(|tags| ReadGame {
            value: tags,
            diagnostics: Diagnostics::new(),
            raw: std::borrow::Cow::Owned(Vec::new()),
            offset: 0,
            line: 0,
            column: 0,
        }))
    }
}

impl<T: Produce> Streams<T> {
    pub(crate) fn new(streams: VecDeque<Stream>, options: ReadOptions) -> Streams<T> {
        Streams {
            pending: streams,
            current: None,
            options,
            _item: std::marker::PhantomData,
        }
    }

    /// The next game sent through `visitor` instead of made into a `T` (no tree where
    /// none is needed), handed to `take` with its stream's name and origin; `None` at
    /// the end of the last stream.
    pub(crate) fn visit_next<V: Visitor, R>(
        &mut self,
        mut visitor: V,
        mut take: impl FnMut(ReadGame<'_, V::Output>, &str, u64) -> R,
    ) -> PyResult<Option<R>> {
        self.advance(|reader, name, origin| {
            Some(
                reader
                    .visit_next(&mut visitor)?
                    .map(|read| take(read, name, origin)),
            )
        })
    }

    /// The next game, `None` at the end of the last stream.
    pub(crate) fn next(&mut self) -> PyResult<Option<Item<T>>> {
        self.advance(|reader, name, origin| {
            Some(T::next(reader)?.map(|read| Item {
                read,
                name: name.to_string(),
                origin,
            }))
        })
    }

    /// What `read` gives from the stream being read (with its name and origin), the next
    /// stream opened when one ends; `None` at the end of the last. A stream that cannot
    /// be read ends them all.
    fn advance<R>(
        &mut self,
        mut read: impl FnMut(
            &mut Reader<Box<dyn BufRead + Send>>,
            &str,
            u64,
        ) -> Option<std::io::Result<R>>,
    ) -> PyResult<Option<R>> {
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
            match read(reader, name, *origin) {
                Some(Ok(value)) => return Ok(Some(value)),
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

/// Games handed over by the reading thread at a time.
const CHUNK: usize = 64;

/// Chunks waiting in the channel at most (besides the worker threads' batches
/// in flight): memory stays bounded when Python is slower than the readers.
const CHUNKS_WAITING: usize = 4;

/// How long the iterator waits for the reading thread before it lets Python
/// handle a signal (`KeyboardInterrupt`), and waits again.
const SIGNAL_CHECK: Duration = Duration::from_millis(100);

/// What the reading thread sends: a chunk of games in input order, or the
/// error that ended the reading.
type Chunk = PyResult<Vec<Item<CoreGame>>>;

/// What a wait for the next game gives.
enum Next {
    /// A game (boxed: the other variants are empty).
    Game(Box<Item<CoreGame>>),
    /// The end of the games.
    End,
    /// Nothing yet (the reading thread is still at work): wait again.
    NotYet,
}

/// Games read and checked on worker threads, received in input order. When
/// dropped (the iterator left early or collected), it stops the reading
/// thread and joins it, and with it the worker threads.
struct Parallel {
    /// `None` once dropped: the reading thread's next send fails, and it ends.
    received: Option<Receiver<Chunk>>,
    ready: VecDeque<Item<CoreGame>>,
    ended: bool,
    /// Set when the iterator is dropped: the reading thread stops at its next game.
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Parallel {
    /// Starts a thread that reads every stream in order with
    /// `read_games_parallel` on `threads` worker threads.
    fn start(
        streams: VecDeque<Stream>,
        options: ReadOptions,
        threads: usize,
    ) -> PyResult<Parallel> {
        let (send, received) = mpsc::sync_channel::<Chunk>(CHUNKS_WAITING);
        let stop = Arc::new(AtomicBool::new(false));
        let stopped = Arc::clone(&stop);
        let thread = std::thread::Builder::new()
            .name("pgnkit-read-games".to_owned())
            .spawn(move || {
                let done = catch_unwind(AssertUnwindSafe(|| {
                    read_streams(streams, options, threads, &send, &stopped)
                }));
                let error = match done {
                    Ok(Ok(())) => return,
                    Ok(Err(e)) => e,
                    Err(_) => PyRuntimeError::new_err(
                        "internal error in pgnkit (please report it): the reading thread panicked",
                    ),
                };
                let _ = send.send(Err(error));
            })
            .map_err(|e| PyRuntimeError::new_err(format!("cannot start a reading thread: {e}")))?;
        Ok(Parallel {
            received: Some(received),
            ready: VecDeque::new(),
            ended: false,
            stop,
            thread: Some(thread),
        })
    }

    /// The next game, waiting at most `wait` for the reading thread.
    fn next(&mut self, wait: Duration) -> PyResult<Next> {
        loop {
            if let Some(item) = self.ready.pop_front() {
                return Ok(Next::Game(Box::new(item)));
            }
            let Some(received) = self.received.as_ref().filter(|_| !self.ended) else {
                return Ok(Next::End);
            };
            match received.recv_timeout(wait) {
                Ok(Ok(chunk)) => self.ready.extend(chunk),
                Ok(Err(e)) => {
                    self.ended = true;
                    return Err(e);
                }
                Err(RecvTimeoutError::Timeout) => return Ok(Next::NotYet),
                // The thread ended after sending everything.
                Err(RecvTimeoutError::Disconnected) => self.ended = true,
            }
        }
    }
}

impl Drop for Parallel {
    /// Stops the reading thread and waits for it (and so for its workers),
    /// with the GIL released: the thread may need it to end (a Python file
    /// object being read).
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        // A send blocked on a full channel fails at once.
        self.received = None;
        if let Some(thread) = self.thread.take() {
            Python::attach(|py| {
                py.detach(|| {
                    let _ = thread.join();
                })
            });
        }
    }
}

/// The reading thread's work: every game of every stream, in chunks to
/// `send`. Returns early, quietly, when the iterator is gone (`stop`).
fn read_streams(
    streams: VecDeque<Stream>,
    options: ReadOptions,
    threads: usize,
    send: &SyncSender<Chunk>,
    stop: &AtomicBool,
) -> PyResult<()> {
    let gone = || std::io::Error::other("the iterator is gone");
    for stream in streams {
        let (name, origin) = (stream.name, stream.origin);
        let mut chunk = Vec::with_capacity(CHUNK);
        let mut closed = false;
        let read = read_games_parallel(stream.reader, threads, options, |read| {
            if stop.load(Ordering::Relaxed) {
                closed = true;
                return Err(gone());
            }
            chunk.push(Item {
                read: ReadGame {
                    value: read.value,
                    diagnostics: read.diagnostics,
                    raw: std::borrow::Cow::Owned(Vec::new()),
                    offset: read.offset,
                    line: read.line,
                    column: read.column,
                },
                name: name.clone(),
                origin,
            });
            if chunk.len() == CHUNK {
                let full = std::mem::replace(&mut chunk, Vec::with_capacity(CHUNK));
                if send.send(Ok(full)).is_err() {
                    closed = true;
                    return Err(gone());
                }
            }
            Ok(())
        });
        if closed {
            return Ok(());
        }
        // Games read before an error come first, as the single-threaded reading gives them.
        if !chunk.is_empty() && send.send(Ok(chunk)).is_err() {
            return Ok(());
        }
        read.map_err(|e| io_error(&name, &e))?;
    }
    Ok(())
}

/// Where a `GameIter`'s games come from.
enum Games {
    /// Read on the iterator's thread, one at a time (boxed: the reader's buffers
    /// make it several times the other's size).
    Serial(Box<Streams<CoreGame>>),
    /// Read on worker threads.
    Parallel(Parallel),
}

impl Games {
    /// The next game; the parallel reading waits at most `wait`.
    fn next(&mut self, wait: Duration) -> PyResult<Next> {
        match self {
            Games::Serial(streams) => Ok(streams
                .next()?
                .map_or(Next::End, |item| Next::Game(Box::new(item)))),
            Games::Parallel(parallel) => parallel.next(wait),
        }
    }
}

/// Opens a source for reading (GIL released), showing its warnings.
pub(crate) fn open(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    threads: usize,
    max_window: Option<&Bound<'_, PyAny>>,
) -> PyResult<VecDeque<Stream>> {
    let named = Named::extract(source)?;
    let max_window = source::max_window(max_window)?;
    let opened = py.detach(|| guard(|| source::open(named, None, threads, max_window)))?;
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

/// A `threads=` argument: `None` is `default`; a count is checked by the
/// library's rule (`pgnkit::game::check_threads`, as the command's
/// `--threads`), a `ValueError` naming the limit when refused.
pub fn threads_arg(threads: Option<usize>, default: usize) -> PyResult<usize> {
    match threads {
        None => Ok(default),
        Some(threads) => pgnkit::game::check_threads(threads).map_err(PyValueError::new_err),
    }
}

/// The reading options of the keywords every reading function takes:
/// `strict=`, `nested_comments=` (`{ a { b } c }` is one comment, as the
/// command's `--nested-comments`) and `fix_tag_strings=` (a tag value
/// without its closing quote whose line ends with `]` is repaired, with a
/// warning, as `--fix-tag-strings`). The rules are pgnkit-game's
/// `ReadOptions`; this only maps the keywords to them.
pub(crate) fn read_options(
    strict: bool,
    nested_comments: bool,
    fix_tag_strings: bool,
) -> ReadOptions {
    let mut options = if strict {
        ReadOptions::strict()
    } else {
        ReadOptions::new()
    };
    options.nested_comments = nested_comments;
    options.fix_tag_strings = fix_tag_strings;
    options
}

/// Iterates the games of a source: `pgnkit.read_games(...)`.
#[pyclass(module = "pgnkit")]
pub struct GameIter {
    games: Mutex<Games>,
    skip_broken: bool,
}

#[pymethods]
impl GameIter {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<Py<Game>>> {
        loop {
            // The lock is taken and released without the GIL, and signals are
            // handled between waits: Ctrl-C stops a loop waiting for the threads.
            let next = py.detach(|| {
                guard(|| {
                    let mut games = self.games.lock().unwrap_or_else(|e| e.into_inner());
                    games.next(SIGNAL_CHECK)
                })
            })?;
            let item = match next {
                Next::Game(item) => *item,
                Next::End => return Ok(None),
                Next::NotYet => {
                    py.check_signals()?;
                    continue;
                }
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
/// lenient move forms (`0-0`, `Ng1f3`, a null move) errors.
/// `nested_comments=True` reads `{ a { b } c }` as one comment (pgn-extract's
/// `--nestedcomments`; by the standard the first `}` ends a comment).
/// `fix_tag_strings=True` repairs a tag value without its closing quote whose
/// line ends with `]` (`[Site "Paris]` is `Paris`, with a warning in
/// `game.warnings`); without it that is an error.
///
/// `threads` (default: one) is the number of threads that read and check
/// games (and decode compressed input). With more than one, games are read
/// ahead on worker threads (a few hundred at most wait) and still come in
/// input order; an error reading the input (a truncated compressed file) is
/// raised after every game read before it, as with one thread. With one, each
/// game is read when asked for. Either way the GIL is released while Rust reads
/// and checks, so other Python threads run.
///
/// Raises `FileNotFoundError`, `PermissionError`, or `pgnkit.PgnError` for
/// input that is not PGN text (binary data, an unknown archive).
#[pyfunction]
#[pyo3(signature = (source, *, threads=None, strict=false, skip_broken=false, max_window=None, nested_comments=false, fix_tag_strings=false))]
#[allow(clippy::too_many_arguments)]
pub fn read_games(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    threads: Option<usize>,
    strict: bool,
    skip_broken: bool,
    max_window: Option<&Bound<'_, PyAny>>,
    nested_comments: bool,
    fix_tag_strings: bool,
) -> PyResult<GameIter> {
    let threads = threads_arg(threads, 1)?;
    let streams = open(py, source, threads, max_window)?;
    let options = read_options(strict, nested_comments, fix_tag_strings);
    let games = if threads > 1 {
        Games::Parallel(Parallel::start(streams, options, threads)?)
    } else {
        Games::Serial(Box::new(Streams::new(streams, options)))
    };
    Ok(GameIter {
        games: Mutex::new(games),
        skip_broken,
    })
}

/// Iterates the tag sections of a PGN source as `Headers` mappings, without
/// reading the moves (much faster than `read_games`). `source`,
/// `nested_comments` and `fix_tag_strings` as for `read_games`.
#[pyfunction]
#[pyo3(signature = (source, *, threads=None, max_window=None, nested_comments=false, fix_tag_strings=false))]
pub fn read_headers(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    threads: Option<usize>,
    max_window: Option<&Bound<'_, PyAny>>,
    nested_comments: bool,
    fix_tag_strings: bool,
) -> PyResult<HeadersIter> {
    let streams = open(py, source, threads_arg(threads, 1)?, max_window)?;
    let options = read_options(false, nested_comments, fix_tag_strings);
    Ok(HeadersIter {
        streams: Mutex::new(Streams::new(streams, options)),
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

/// The first game of `data` (the text of one game), or None when it holds
/// none.
#[pyfunction]
#[pyo3(name = "_read_one", signature = (data, *, strict=false, nested_comments=false, fix_tag_strings=false))]
pub fn read_one(
    py: Python<'_>,
    data: &Bound<'_, PyBytes>,
    strict: bool,
    nested_comments: bool,
    fix_tag_strings: bool,
) -> PyResult<Option<Py<Game>>> {
    let options = read_options(strict, nested_comments, fix_tag_strings);
    let bytes = data.as_bytes().to_vec();
    let read = py.detach(|| {
        guard(|| {
            Ok(pgnkit::read_games_with(&bytes, options)
                .next()
                .map(|read| ReadGame {
                    value: read.value,
                    diagnostics: read.diagnostics,
                    raw: std::borrow::Cow::Owned(Vec::new()),
                    offset: read.offset,
                    line: read.line,
                    column: read.column,
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
