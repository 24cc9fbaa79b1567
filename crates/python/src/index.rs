//! `pgnkit.Index` (pgnkit-index's persistent position index: build, open,
//! append, search, tree), `pgnkit.tree` (the tree read from the files, no
//! index) and `pgnkit.book` / `pgnkit.probe_book` (Polyglot books). Thin:
//! keyword arguments become the library's options (the same rules as the
//! command's flags: speeds, dates, positions), results become Python
//! objects; the GIL is released while Rust works. The library's errors
//! become `OSError`s for files, `ValueError` for positions and
//! `pgnkit.PgnIndexError` for an index or book that cannot be used.

use std::path::PathBuf;
use std::sync::RwLock;

use pgnkit::export::PendingFile;
use pgnkit::game::{Game as CoreGame, ReadOptions};
use pgnkit::select::{Place, Window};
use pgnkit_index::{
    Book, BookOptions, BuildOptions, Filter, GameHit, GameSummary, Hit, Index as CoreIndex,
    IndexError, MoveStats, SearchOptions, Side, Speed, Tree, TreeMove, append, build, date_bound,
    make_book, parse_position, tree_scan, write_book,
};
use pyo3::exceptions::{PyFileNotFoundError, PyValueError};
use pyo3::prelude::*;

use crate::error::{guard, input_error, io_error};
use crate::game::{Game, ReadError};
use crate::reading::{read_options, threads_arg};
use crate::search::SearchHit;

pyo3::create_exception!(
    pgnkit,
    PgnIndexError,
    pyo3::exceptions::PyValueError,
    "A position index or opening book that cannot be used: corrupt or truncated, written by \
     a newer pgnkit, a source file changed since it was indexed, a file indexed twice, a file \
     that is not a Polyglot book. The message names the file and what is wrong."
);

/// A pgnkit-index error as the Python exception that fits it.
fn index_error(error: IndexError) -> PyErr {
    match error {
        IndexError::Io { path, source } => {
            let name = path.display().to_string();
            if source.kind() == std::io::ErrorKind::NotFound && source.raw_os_error().is_none() {
                // The library's own "no such index": errno ENOENT as Python's `open` gives it.
                PyFileNotFoundError::new_err((2, source.to_string(), name))
            } else {
                io_error(&name, &source)
            }
        }
        IndexError::Input(e) => input_error(&e),
        IndexError::Position(message) => PyValueError::new_err(message),
        other => PgnIndexError::new_err(other.to_string()),
    }
}

/// Paths from a path or a list of paths.
fn paths(value: &Bound<'_, PyAny>) -> PyResult<Vec<PathBuf>> {
    if let Ok(one) = value.extract::<PathBuf>() {
        return Ok(vec![one]);
    }
    value.extract::<Vec<PathBuf>>().map_err(|_| {
        PyValueError::new_err("paths: give a path or a list of paths (str or os.PathLike)")
    })
}

/// A position from a FEN, moves from the start (`"e4 c5 Nf3"`), or a board
/// (anything with a `fen()` method: `pgnkit.Board`, `chess.Board`).
fn position(value: &Bound<'_, PyAny>) -> PyResult<pgnkit::chess::Position> {
    let text: String = match value.extract::<String>() {
        Ok(text) => text,
        Err(_) => value
            .call_method0("fen")
            .and_then(|fen| fen.extract())
            .map_err(|_| {
                PyValueError::new_err("position: give a FEN, moves such as \"e4 c5\", or a board")
            })?,
    };
    parse_position(&text).map_err(index_error)
}

/// The tree's filter from keyword arguments (the command's rules for speeds and dates).
fn filter(
    min_rating: Option<u16>,
    max_rating: Option<u16>,
    speeds: Option<Vec<String>>,
    since: Option<&str>,
    until: Option<&str>,
    player: Option<String>,
    color: Option<&str>,
) -> PyResult<Filter> {
    let mut parsed = Vec::new();
    for name in speeds.unwrap_or_default() {
        parsed.push(Speed::from_name(&name).ok_or_else(|| {
            PyValueError::new_err(format!(
                "speeds: `{name}` is not one of ultrabullet, bullet, blitz, rapid, classical, correspondence"
            ))
        })?);
    }
    let date = |text: Option<&str>, last: bool, what: &str| {
        text.map(|t| {
            date_bound(t, last).ok_or_else(|| {
                PyValueError::new_err(format!(
                    "{what}: `{t}` is not a date (YYYY.MM.DD, YYYY.MM or YYYY)"
                ))
            })
        })
        .transpose()
    };
    let side = match color {
        None => None,
        Some("white") => Some(Side::White),
        Some("black") => Some(Side::Black),
        Some(other) => {
            return Err(PyValueError::new_err(format!(
                "color: `{other}` is not \"white\" or \"black\""
            )));
        }
    };
    if side.is_some() && player.is_none() {
        return Err(PyValueError::new_err(
            "color= chooses the side of player=: give player=",
        ));
    }
    Ok(Filter {
        min_rating,
        max_rating,
        speeds: parsed,
        since: date(since, false, "since")?,
        until: date(until, true, "until")?,
        player: player.map(|p| (p, side)),
    })
}

/// A game of a tree row (its latest or highest-rated game).
#[pyclass(module = "pgnkit", frozen, get_all)]
pub struct TreeGame {
    /// The source's name (its path as given).
    pub source: String,
    /// Byte offset of the game in its (decompressed) source.
    pub offset: u64,
    /// Its number in its source, from 1.
    pub game: u64,
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// White's rating, if known.
    pub white_elo: Option<u16>,
    /// Black's rating, if known.
    pub black_elo: Option<u16>,
    /// `Date` as `YYYY.MM.DD` (`??` for unknown parts).
    pub date: String,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
}

#[pymethods]
impl TreeGame {
    fn __repr__(&self) -> String {
        format!(
            "TreeGame({:?} - {:?}, {}, {}, source={:?}, game={})",
            self.white, self.black, self.result, self.date, self.source, self.game
        )
    }
}

impl TreeGame {
    fn of(g: GameSummary) -> TreeGame {
        TreeGame {
            source: g.source,
            offset: g.offset,
            game: g.number,
            white: g.white,
            black: g.black,
            white_elo: g.white_elo,
            black_elo: g.black_elo,
            date: g.date,
            result: g.result.to_string(),
        }
    }
}

/// One move of a tree: how often it was played and how it scored.
#[pyclass(module = "pgnkit", frozen, get_all)]
pub struct TreeRow {
    /// The move in SAN.
    pub san: String,
    /// The move in UCI.
    pub uci: String,
    /// Games that played it.
    pub games: u64,
    /// Games White won.
    pub white: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games Black won.
    pub black: u64,
    /// The score of the side that played it, in percent (a win 1, a draw ½).
    pub score: f64,
    /// The players' average rating, if any rating is known.
    pub average_rating: Option<u64>,
    /// The average rating of the opponents of the side that played it.
    pub average_opponent: Option<u64>,
    /// The performance rating of the side that played it (opponents' average
    /// plus 400 × log10(p / (1 - p)) for its score p, at most ±800).
    pub performance: Option<i64>,
    /// The latest game (greatest date).
    pub latest: Option<Py<TreeGame>>,
    /// The highest-rated game (greatest sum of both ratings).
    pub best: Option<Py<TreeGame>>,
}

#[pymethods]
impl TreeRow {
    fn __repr__(&self) -> String {
        format!(
            "TreeRow(san={:?}, games={}, white={}, draws={}, black={}, score={:.1})",
            self.san, self.games, self.white, self.draws, self.black, self.score
        )
    }
}

/// A tree's rows as Python objects.
fn rows(py: Python<'_>, tree: Tree) -> PyResult<Vec<TreeRow>> {
    let game = |g: Option<GameSummary>| -> PyResult<Option<Py<TreeGame>>> {
        g.map(|g| Py::new(py, TreeGame::of(g))).transpose()
    };
    tree.moves
        .into_iter()
        .map(|m: TreeMove| {
            let s: MoveStats = m.stats;
            Ok(TreeRow {
                san: m.san,
                uci: m.uci,
                games: s.games,
                white: s.white,
                draws: s.draws,
                black: s.black,
                score: m.score,
                average_rating: s.average_rating(),
                average_opponent: m.average_opponent,
                performance: m.performance,
                latest: game(m.latest)?,
                best: game(m.best)?,
            })
        })
        .collect()
}

/// Why the games of a position stopped coming: the window full, or the index.
enum Stop {
    Full,
    Index(IndexError),
}

impl From<IndexError> for Stop {
    fn from(e: IndexError) -> Stop {
        Stop::Index(e)
    }
}

/// A game found, its first hit and all its plies.
type FoundGame = (Hit, Vec<u32>);

/// The games of the position of Polyglot key `key` that `window` keeps, one per place
/// (the next games at the same place, a file indexed twice, joined with their plies, as
/// `pgnkit search --index` writes them). With `first` given, the postings are read as
/// the games come, and no further than the game after the last kept.
fn found_games(
    index: &CoreIndex,
    key: u64,
    mut window: Window,
) -> Result<Vec<FoundGame>, IndexError> {
    let mut games = Vec::new();
    let options = SearchOptions {
        lazy: window.is_bounded(),
        join_places: true,
    };
    // Keeps `g` if `window` does; [`Stop::Full`] once no later game can be kept.
    let each = |g: GameHit<'_>| -> Result<(), Stop> {
        match window.place() {
            Place::Skipped => return Ok(()),
            Place::After => return Err(Stop::Full),
            Place::Kept => games.push((g.first_hit(), g.plies.to_vec())),
        }
        if window.is_full() {
            return Err(Stop::Full);
        }
        Ok(())
    };
    match index.search_each(key, options, each) {
        Ok(()) | Err(Stop::Full) => Ok(games),
        Err(Stop::Index(e)) => Err(e),
    }
}

/// Games found: one `SearchHit` per game, or the games read from their sources.
fn hits_out(
    py: Python<'_>,
    index: &CoreIndex,
    games: Vec<FoundGame>,
    offsets: bool,
    read: ReadOptions,
) -> PyResult<Vec<Py<PyAny>>> {
    let mut out = Vec::with_capacity(games.len());
    for (hit, plies) in games {
        if offsets {
            let found = SearchHit {
                source: hit.source.clone(),
                offset: hit.offset,
                game: hit.number,
                plies,
                variation_plies: Vec::new(),
            };
            out.push(Py::new(py, found)?.into_any());
            continue;
        }
        let read = py.detach(|| {
            guard(|| {
                let text = index.game_text(&hit).map_err(index_error)?;
                Ok(pgnkit::read_games_with(&text, read)
                    .next()
                    .map(|read| (read.value, read.diagnostics)))
            })
        })?;
        let Some((game, diagnostics)) = read else {
            return Err(PgnIndexError::new_err(format!(
                "{}: no game at offset {}",
                hit.source, hit.offset
            )));
        };
        let game: CoreGame = game;
        let errors = diagnostics.errors().map(|d| ReadError::of(d, 0)).collect();
        let warnings = diagnostics
            .warnings()
            .map(|d| ReadError::of(d, 0))
            .collect();
        out.push(Game::create(py, game, errors, warnings, hit.offset, 0)?.into_any());
    }
    Ok(out)
}

/// A position index (a folder made by `pgnkit index` or `Index.build`).
#[pyclass(module = "pgnkit")]
pub struct Index {
    inner: RwLock<CoreIndex>,
}

impl Index {
    fn read(&self) -> std::sync::RwLockReadGuard<'_, CoreIndex> {
        self.inner.read().unwrap_or_else(|e| e.into_inner())
    }
}

#[pymethods]
impl Index {
    /// Builds the index of the PGN files `paths` (plain or compressed) in the
    /// folder `folder`, replacing an index there, and opens it; the games
    /// are read by the rules `strict`, `nested_comments` and
    /// `fix_tag_strings` (as `read_games`'s; the index records nothing of them).
    #[staticmethod]
    #[pyo3(signature = (paths, folder, *, threads=None, strict=false, nested_comments=false, fix_tag_strings=false))]
    fn build(
        py: Python<'_>,
        paths: &Bound<'_, PyAny>,
        folder: PathBuf,
        threads: Option<usize>,
        strict: bool,
        nested_comments: bool,
        fix_tag_strings: bool,
    ) -> PyResult<Index> {
        let inputs = self::paths(paths)?;
        let options = BuildOptions {
            threads: threads_arg(threads, 0)?,
            read: read_options(strict, nested_comments, fix_tag_strings),
            ..BuildOptions::default()
        };
        let index = py.detach(|| {
            guard(|| {
                build(&folder, &inputs, &options).map_err(index_error)?;
                CoreIndex::open(&folder).map_err(index_error)
            })
        })?;
        Ok(Index {
            inner: RwLock::new(index),
        })
    }

    /// Opens the index in `folder`.
    #[staticmethod]
    fn open(py: Python<'_>, folder: PathBuf) -> PyResult<Index> {
        let index = py.detach(|| guard(|| CoreIndex::open(&folder).map_err(index_error)))?;
        Ok(Index {
            inner: RwLock::new(index),
        })
    }

    /// Adds the PGN files `paths` to the index (a new segment, atomically),
    /// read by the rules given (as for `build`).
    #[pyo3(signature = (paths, *, threads=None, strict=false, nested_comments=false, fix_tag_strings=false))]
    fn append(
        &self,
        py: Python<'_>,
        paths: &Bound<'_, PyAny>,
        threads: Option<usize>,
        strict: bool,
        nested_comments: bool,
        fix_tag_strings: bool,
    ) -> PyResult<()> {
        let inputs = self::paths(paths)?;
        let options = BuildOptions {
            threads: threads_arg(threads, 0)?,
            read: read_options(strict, nested_comments, fix_tag_strings),
            ..BuildOptions::default()
        };
        py.detach(|| {
            guard(|| {
                let mut index = self.inner.write().unwrap_or_else(|e| e.into_inner());
                let folder = index.path().to_path_buf();
                append(&folder, &inputs, &options).map_err(index_error)?;
                *index = CoreIndex::open(&folder).map_err(index_error)?;
                Ok(())
            })
        })
    }

    /// The index's folder.
    #[getter]
    fn path(&self) -> String {
        self.read().path().display().to_string()
    }

    /// Games indexed.
    #[getter]
    fn games(&self) -> u64 {
        self.read().games()
    }

    /// Positions indexed.
    #[getter]
    fn positions(&self) -> u64 {
        self.read().positions()
    }

    /// Segments (one per build or append).
    #[getter]
    fn segments(&self) -> usize {
        self.read().segments()
    }

    /// The games whose main line reaches `position`, in input order, each
    /// read again from its file by the rules given (those the index was built with).
    /// `skip=N` leaves out the first N games and `first=N` gives at most N, the index
    /// read no further than they need (`pgnkit search --index --skip N --first N`).
    #[pyo3(signature = (position, *, offsets=false, skip=0, first=None, strict=false, nested_comments=false, fix_tag_strings=false))]
    #[allow(clippy::too_many_arguments)]
    fn search(
        &self,
        py: Python<'_>,
        position: &Bound<'_, PyAny>,
        offsets: bool,
        skip: u64,
        first: Option<u64>,
        strict: bool,
        nested_comments: bool,
        fix_tag_strings: bool,
    ) -> PyResult<Vec<Py<PyAny>>> {
        let pos = self::position(position)?;
        let index = self.read();
        let window = Window::new(skip, first);
        let games = py.detach(|| {
            guard(|| found_games(&index, pos.polyglot_key(), window).map_err(index_error))
        })?;
        let read = read_options(strict, nested_comments, fix_tag_strings);
        hits_out(py, &index, games, offsets, read)
    }

    /// The moves played from `position` and how they scored.
    #[pyo3(signature = (
        position, *, min_rating=None, max_rating=None, speeds=None, since=None, until=None,
        player=None, color=None
    ))]
    #[allow(clippy::too_many_arguments)]
    fn tree(
        &self,
        py: Python<'_>,
        position: &Bound<'_, PyAny>,
        min_rating: Option<u16>,
        max_rating: Option<u16>,
        speeds: Option<Vec<String>>,
        since: Option<&str>,
        until: Option<&str>,
        player: Option<String>,
        color: Option<&str>,
    ) -> PyResult<Vec<TreeRow>> {
        let pos = self::position(position)?;
        let filter = filter(min_rating, max_rating, speeds, since, until, player, color)?;
        let index = self.read();
        let tree = py.detach(|| guard(|| index.tree(&pos, &filter).map_err(index_error)))?;
        rows(py, tree)
    }

    fn __repr__(&self) -> String {
        let index = self.read();
        format!(
            "Index({:?}, games={}, positions={}, segments={})",
            index.path().display().to_string(),
            index.games(),
            index.positions(),
            index.segments()
        )
    }
}

/// The tree of `position` over the files `paths`, read without an index.
#[pyfunction]
#[pyo3(signature = (
    paths, position, *, min_rating=None, max_rating=None, speeds=None, since=None, until=None,
    player=None, color=None, threads=None, strict=false, nested_comments=false, fix_tag_strings=false
))]
#[allow(clippy::too_many_arguments)]
pub fn tree(
    py: Python<'_>,
    paths: &Bound<'_, PyAny>,
    position: &Bound<'_, PyAny>,
    min_rating: Option<u16>,
    max_rating: Option<u16>,
    speeds: Option<Vec<String>>,
    since: Option<&str>,
    until: Option<&str>,
    player: Option<String>,
    color: Option<&str>,
    threads: Option<usize>,
    strict: bool,
    nested_comments: bool,
    fix_tag_strings: bool,
) -> PyResult<Vec<TreeRow>> {
    let inputs = self::paths(paths)?;
    let pos = self::position(position)?;
    let filter = filter(min_rating, max_rating, speeds, since, until, player, color)?;
    let threads = threads_arg(threads, 0)?;
    let tree = py.detach(|| {
        guard(|| {
            let read = read_options(strict, nested_comments, fix_tag_strings);
            tree_scan(&inputs, &pos, &filter, threads, read).map_err(index_error)
        })
    })?;
    rows(py, tree)
}

/// Makes a Polyglot opening book of the games of `paths` at `out`; returns its entries.
#[pyfunction]
#[pyo3(signature = (
    paths, out, *, max_ply=20, min_games=3, min_score=0.0, only=None, uniform=false,
    min_rating=None, max_rating=None, speeds=None, since=None, until=None, player=None,
    color=None, threads=None, strict=false, nested_comments=false, fix_tag_strings=false
))]
#[allow(clippy::too_many_arguments)]
pub fn book(
    py: Python<'_>,
    paths: &Bound<'_, PyAny>,
    out: PathBuf,
    max_ply: u32,
    min_games: u64,
    min_score: f64,
    only: Option<&str>,
    uniform: bool,
    min_rating: Option<u16>,
    max_rating: Option<u16>,
    speeds: Option<Vec<String>>,
    since: Option<&str>,
    until: Option<&str>,
    player: Option<String>,
    color: Option<&str>,
    threads: Option<usize>,
    strict: bool,
    nested_comments: bool,
    fix_tag_strings: bool,
) -> PyResult<u64> {
    let inputs = self::paths(paths)?;
    let filter = filter(min_rating, max_rating, speeds, since, until, player, color)?;
    if !(0.0..=100.0).contains(&min_score) {
        return Err(PyValueError::new_err(
            "min_score: a percentage from 0 to 100",
        ));
    }
    let side = match only {
        None => None,
        Some("white") => Some(Side::White),
        Some("black") => Some(Side::Black),
        Some(other) => {
            return Err(PyValueError::new_err(format!(
                "only: `{other}` is not \"white\" or \"black\""
            )));
        }
    };
    let options = BookOptions {
        max_ply,
        min_games,
        min_score: min_score / 100.0,
        side,
        uniform,
        filter,
        threads: threads_arg(threads, 0)?,
        read: read_options(strict, nested_comments, fix_tag_strings),
    };
    py.detach(|| {
        guard(|| {
            let made = make_book(&inputs, &options).map_err(index_error)?;
            let name = out.display().to_string();
            let mut file = PendingFile::create(&out).map_err(|e| io_error(&name, &e))?;
            write_book(&made.entries, &mut file)
                .and_then(|()| file.commit())
                .map_err(|e| io_error(&name, &e))?;
            Ok(made.entries.len() as u64)
        })
    })
}

/// A move of a Polyglot book in a position (`probe_book`).
#[pyclass(module = "pgnkit", frozen, get_all)]
pub struct BookMove {
    /// The move in UCI.
    pub uci: String,
    /// The move in SAN.
    pub san: String,
    /// Its weight.
    pub weight: u16,
    /// Its share of the weights of the position's moves, in percent.
    pub percent: f64,
    /// The learn field.
    pub learn: u32,
}

#[pymethods]
impl BookMove {
    fn __repr__(&self) -> String {
        format!(
            "BookMove(san={:?}, uci={:?}, weight={}, percent={:.1})",
            self.san, self.uci, self.weight, self.percent
        )
    }
}

/// The moves the Polyglot book `path` holds for `position`, in the book's order.
#[pyfunction]
pub fn probe_book(
    py: Python<'_>,
    path: PathBuf,
    position: &Bound<'_, PyAny>,
) -> PyResult<Vec<BookMove>> {
    let pos = self::position(position)?;
    let probe = py.detach(|| {
        guard(|| {
            Book::open(&path)
                .and_then(|book| book.probe(&pos))
                .map_err(index_error)
        })
    })?;
    Ok(probe
        .moves
        .into_iter()
        .map(|m| BookMove {
            uci: m.uci,
            san: m.san,
            weight: m.weight,
            percent: m.percent,
            learn: m.learn,
        })
        .collect())
}
