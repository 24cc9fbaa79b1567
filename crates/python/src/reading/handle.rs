//! `pgnkit.read_game(handle)`: the next game of a Python file object, read
//! line by line with its `readline` (as python-chess reads), its end found by
//! the lexer's splitter ([`GameSplitter`]), so that the games are those of
//! `read_games` over the same text.
//!
//! The splitter ends a game where the next one starts, so it needs the line
//! where the next game starts (after the blank line that python-chess stops
//! at). After the game the handle is put back: a handle that can `tell` and
//! `seek` is left at the next game's first byte (just after the game's last
//! line, where python-chess leaves it, or inside a line where a game ends on
//! it: `1-0 [Event "b"]`); for one that cannot, the bytes read past the game
//! are handed back to the caller, which feeds them first to the next call on
//! that handle. No line after the one where the next game starts is read.
//!
//! Deciding after each line scans the game's bytes again (the splitter does
//! not resume), which stays cheap: the splitter passes over movetext in bulk,
//! and a game is rarely more than a few hundred lines.

use pgnkit::game::{GameStart, TreeBuilder, visit_game};
use pgnkit::lexer::{GameSplitter, LexOptions, RawGame};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

use super::read_options;
use crate::error::guard;
use crate::game::{Game, ReadError};

/// A file object read line by line, the bytes read kept.
struct Lines<'a, 'py> {
    handle: &'a Bound<'py, PyAny>,
    /// Every byte this call has (the bytes handed back by the call before,
    /// then the lines read), text encoded as UTF-8 as `read_games` encodes it.
    bytes: Vec<u8>,
    /// Whether `readline` gives `str`.
    text: bool,
}

impl Lines<'_, '_> {
    /// Reads one line onto `bytes`; false at the end of the file.
    fn read_line(&mut self) -> PyResult<bool> {
        let line = self.handle.call_method0("readline")?;
        let before = self.bytes.len();
        if let Ok(text) = line.cast::<PyString>() {
            self.text = true;
            self.bytes.extend_from_slice(text.to_cow()?.as_bytes());
        } else if let Ok(bytes) = line.cast::<PyBytes>() {
            self.bytes.extend_from_slice(bytes.as_bytes());
        } else {
            let bytes: Vec<u8> = line.extract().map_err(|_| {
                PyTypeError::new_err("the file object's readline() gives neither bytes nor str")
            })?;
            self.bytes.extend_from_slice(&bytes);
        }
        Ok(self.bytes.len() > before)
    }
}

/// Where the first game of some bytes is, as the splitter found it.
#[derive(Clone, Copy)]
struct Found {
    offset: u64,
    line: u64,
    column: u64,
    /// The offset just after its last byte.
    end: usize,
}

impl Found {
    /// The first game of `bytes`, where the splitter ends it.
    fn first(bytes: &[u8], options: LexOptions) -> Option<Found> {
        let game: RawGame<'_> = GameSplitter::new(bytes).with_options(options).next()?;
        Some(Found {
            offset: game.offset,
            line: game.line,
            column: game.column,
            end: game.offset as usize + game.bytes.len(),
        })
    }

    /// The first game of `bytes` (whole lines, the file going on after
    /// them) when the splitter has decided where it ends: the next game
    /// starts in `bytes`.
    fn decided(bytes: &[u8], options: LexOptions) -> Option<Found> {
        Found::first(bytes, options).filter(|game| game.end < bytes.len())
    }
}

/// Where python-chess would leave the handle after the game `bytes[..end]`
/// (`end` is where the next game starts): after the line end that follows the
/// game's last byte that is not white space and after one blank line after
/// it, when the game's trailing white space holds them. The white space left
/// is skipped by the next call as python-chess skips it.
fn resume_at(bytes: &[u8], end: usize) -> usize {
    let game = &bytes[..end];
    let mut at = game
        .iter()
        .rposition(|b| !b.is_ascii_whitespace())
        .map_or(0, |last| last + 1);
    for _ in 0..2 {
        // Past the line end of this line, when it ends before the next game.
        let Some(line_end) = game[at..].iter().position(|&b| b == b'\n' || b == b'\r') else {
            return end;
        };
        at += line_end + 1;
        if game[at - 1] == b'\r' && game.get(at) == Some(&b'\n') {
            at += 1;
        }
    }
    at
}

/// Where the handle is (`tell()`), when it can seek back there: `seekable()`
/// says so (or is missing while `tell` and `seek` are there) and `tell`
/// works (a text file iterated with `for line in handle` refuses to tell).
fn position<'py>(handle: &Bound<'py, PyAny>) -> PyResult<Option<Bound<'py, PyAny>>> {
    let seekable = match handle.getattr("seekable") {
        Ok(method) => method.call0()?.is_truthy()?,
        Err(_) => handle.hasattr("tell")? && handle.hasattr("seek")?,
    };
    if !seekable {
        return Ok(None);
    }
    Ok(handle.call_method0("tell").ok())
}

/// Puts `handle` back at `end`, a byte offset in what was read since
/// `start` (its `tell()` then): a text handle is sought to `start` and read
/// forward by the characters before `end`, a binary one sought to `start +
/// end`.
fn seek_back(
    handle: &Bound<'_, PyAny>,
    start: &Bound<'_, PyAny>,
    bytes: &[u8],
    end: usize,
    text: bool,
) -> PyResult<()> {
    if !text {
        let start: u64 = start.extract()?;
        handle.call_method1("seek", (start + end as u64,))?;
        return Ok(());
    }
    handle.call_method1("seek", (start,))?;
    // The bytes are UTF-8 (encoded from `str`): one character per byte that
    // does not continue one.
    let mut chars = bytes[..end].iter().filter(|&&b| b & 0xC0 != 0x80).count();
    while chars > 0 {
        let read = handle.call_method1("read", (chars,))?;
        let got = read.len()?;
        if got == 0 {
            break;
        }
        chars = chars.saturating_sub(got);
    }
    Ok(())
}

/// The next game of a file object, and the bytes read past it that the
/// handle cannot take back (empty when it could seek): `pgnkit.read_game`
/// keeps them for its next call on the handle and passes them as `unread`.
/// The game's `offset` and `line` count from `unread`'s first byte, or from
/// where the handle was.
#[pyfunction]
#[pyo3(name = "_read_next", signature = (handle, unread, *, strict=false, nested_comments=false, fix_tag_strings=false))]
pub fn read_next<'py>(
    py: Python<'py>,
    handle: &Bound<'py, PyAny>,
    unread: Vec<u8>,
    strict: bool,
    nested_comments: bool,
    fix_tag_strings: bool,
) -> PyResult<(Option<Py<Game>>, Bound<'py, PyBytes>)> {
    let options = read_options(strict, nested_comments, fix_tag_strings);
    // Bytes handed back came before the handle's position: it cannot be
    // sought back to them.
    let start = match unread.is_empty() {
        true => position(handle)?,
        false => None,
    };
    let mut lines = Lines {
        handle,
        bytes: unread,
        text: false,
    };
    let found = loop {
        if let Some(found) = Found::decided(&lines.bytes, options.lex_options()) {
            break Some(found);
        }
        if !lines.read_line()? {
            // The end of the file: the first game ends where the splitter ends it.
            break Found::first(&lines.bytes, options.lex_options());
        }
    };
    let Some(found) = found else {
        return Ok((None, PyBytes::new(py, b"")));
    };
    let (bytes, end) = (lines.bytes, found.end);
    let resume = resume_at(&bytes, end);
    let mut rest: &[u8] = &bytes[resume..];
    if let Some(start) = &start
        && !rest.is_empty()
    {
        seek_back(handle, start, &bytes, resume, lines.text)?;
        rest = b"";
    }
    let rest = PyBytes::new(py, rest);
    let read = py.detach(|| {
        guard(|| {
            let game = GameStart {
                bytes: &bytes[found.offset as usize..end],
                offset: found.offset,
                line: found.line,
                column: found.column,
            };
            Ok(visit_game(game, &mut TreeBuilder::new(), options))
        })
    })?;
    let (value, diagnostics) = read;
    let errors = diagnostics.errors().map(|d| ReadError::of(d, 0)).collect();
    let warnings = diagnostics
        .warnings()
        .map(|d| ReadError::of(d, 0))
        .collect();
    let game = Game::create(py, value, errors, warnings, found.offset, found.line)?;
    Ok((Some(game), rest))
}
