//! Where games come from: a path (`str` or `os.PathLike`, compressed files
//! too, through `pgnkit-input`), a binary or text file object, or PGN data
//! as `bytes` or `str`. Each source opens to one or more text streams (a
//! zip archive has one per `.pgn` member).

use std::collections::VecDeque;
use std::io::{self, BufRead, Cursor, Read};
use std::path::PathBuf;

use pgnkit::input::{self, Options};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyString};

use crate::error::input_error;

/// A source, resolved while the GIL is held; [`open`] then runs without it.
pub enum Source {
    /// A file on disk.
    Path(PathBuf),
    /// PGN data held in memory (`bytes`, or a `str` encoded as UTF-8).
    Data(Vec<u8>),
    /// A Python file object, read through its `read` method.
    File {
        /// The object.
        object: Py<PyAny>,
        /// Whether `read` gives `str` (a text file) rather than `bytes`.
        text: bool,
    },
}

/// A source and its name for messages.
pub struct Named {
    /// The source.
    pub source: Source,
    /// The path as given, the file object's `name`, `<bytes>` or `<string>`.
    pub name: String,
}

/// Whether a `str` source is PGN text rather than a path: it holds a line
/// break or starts with `[` (a tag section).
fn is_pgn_text(text: &str) -> bool {
    text.contains('\n') || text.contains('\r') || text.trim_start().starts_with('[')
}

impl Named {
    /// Resolves a Python object into a source.
    pub fn extract(source: &Bound<'_, PyAny>) -> PyResult<Named> {
        let py = source.py();
        if let Ok(bytes) = source.cast::<PyBytes>() {
            return Ok(Named {
                source: Source::Data(bytes.as_bytes().to_vec()),
                name: "<bytes>".into(),
            });
        }
        if let Ok(array) = source.cast::<PyByteArray>() {
            return Ok(Named {
                source: Source::Data(array.to_vec()),
                name: "<bytes>".into(),
            });
        }
        if let Ok(text) = source.cast::<PyString>() {
            let text = text.to_cow()?;
            if is_pgn_text(&text) {
                return Ok(Named {
                    source: Source::Data(text.as_bytes().to_vec()),
                    name: "<string>".into(),
                });
            }
            return Ok(Named {
                source: Source::Path(PathBuf::from(text.as_ref())),
                name: text.clone().into_owned(),
            });
        }
        if source.hasattr("__fspath__")? {
            let os = py.import("os")?;
            let path = os.call_method1("fspath", (source,))?;
            let path: PathBuf = path.extract()?;
            let name = path.display().to_string();
            return Ok(Named {
                source: Source::Path(path),
                name,
            });
        }
        if source.hasattr("read")? {
            let probe = source.call_method1("read", (0,))?;
            let text = probe.is_instance_of::<PyString>();
            if !text && probe.cast::<PyBytes>().is_err() {
                return Err(PyTypeError::new_err(
                    "the file object's read() gives neither bytes nor str",
                ));
            }
            let name = source
                .getattr("name")
                .ok()
                .and_then(|n| n.str().ok().map(|s| s.to_string()))
                .unwrap_or_else(|| "<file>".into());
            return Ok(Named {
                source: Source::File {
                    object: source.clone().unbind(),
                    text,
                },
                name,
            });
        }
        Err(PyTypeError::new_err(format!(
            "a PGN source is a path (str or os.PathLike), a file object, or bytes/str of PGN text; got {}",
            source.get_type().name()?
        )))
    }
}

/// One stream of PGN text.
pub struct Stream {
    /// Its name for messages.
    pub name: String,
    /// The text.
    pub reader: Box<dyn BufRead + Send>,
    /// For a byte range: the offset in the file of the range's first game.
    pub origin: u64,
}

/// The streams of a source, in order, and warnings to show (a zip's members that are not read).
pub struct Streams {
    /// The streams.
    pub streams: VecDeque<Stream>,
    /// Messages.
    pub warnings: Vec<String>,
}

/// Opens `named` (without the GIL) with pgnkit-input's policy, as the CLI
/// does: `range` reads the games whose first byte lies in `[start, end)` of a
/// file; `threads` decode pzstd frames at once.
/// `max_window` bounds the memory of a zstd window or an xz dictionary
/// ([`max_window`] reads the keyword).
pub fn open(
    named: Named,
    range: Option<(u64, u64)>,
    threads: usize,
    max_window: u64,
) -> PyResult<Streams> {
    let Named { source, name } = named;
    let options = Options {
        threads: threads.max(1),
        max_window,
    };
    let source = match source {
        Source::Path(path) => input::Source::named_path(path, name),
        Source::Data(data) => input::Source::reader(name, Cursor::new(data)),
        Source::File { object, text } => input::Source::reader(
            name,
            FileReader {
                object,
                text,
                pending: Vec::new(),
                pos: 0,
            },
        ),
    };
    let range = range.map(|(start, end)| start..end);
    let opened = input::open(source, range, &options).map_err(|e| input_error(&e))?;
    let streams = opened
        .streams
        .into_iter()
        .map(|stream| Stream {
            name: stream.name,
            reader: stream.reader,
            origin: stream.origin.unwrap_or(0),
        })
        .collect();
    Ok(Streams {
        streams,
        warnings: opened.warnings,
    })
}

/// A Python file object as a [`Read`]: each read takes the GIL and calls
/// `read(n)`; a text file's `str` is encoded as UTF-8.
struct FileReader {
    object: Py<PyAny>,
    text: bool,
    /// Encoded text not yet handed out.
    pending: Vec<u8>,
    pos: usize,
}

/// How much one call to the file object's `read` asks for.
const FILE_CHUNK: usize = 1 << 16;

impl Read for FileReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.pos == self.pending.len() {
            self.pending.clear();
            self.pos = 0;
            let chunk: PyResult<Vec<u8>> = Python::attach(|py| {
                let data = self.object.bind(py).call_method1("read", (FILE_CHUNK,))?;
                if self.text {
                    Ok(data.cast::<PyString>()?.to_cow()?.as_bytes().to_vec())
                } else if let Ok(bytes) = data.cast::<PyBytes>() {
                    Ok(bytes.as_bytes().to_vec())
                } else {
                    Ok(data.extract::<Vec<u8>>()?)
                }
            });
            self.pending = chunk.map_err(|e| io::Error::other(e.to_string()))?;
        }
        let n = buf.len().min(self.pending.len() - self.pos);
        buf[..n].copy_from_slice(&self.pending[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

/// The `max_window=` keyword of the read functions: `None` for the default
/// (128 MiB, as the command line's `--max-window`), else a size as
/// [`parse_size`] reads it.
pub fn max_window(value: Option<&Bound<'_, PyAny>>) -> PyResult<u64> {
    match value {
        None => Ok(input::DEFAULT_MAX_WINDOW),
        Some(value) if value.is_none() => Ok(input::DEFAULT_MAX_WINDOW),
        Some(value) => parse_size(value).map_err(|e| {
            pyo3::exceptions::PyValueError::new_err(format!("max_window: {}", e.value(value.py())))
        }),
    }
}

/// The bytes a size means, by pgnkit's one rule (`pgnkit_input::parse_size`):
/// an `int` as is, or text such as `"64MiB"`, where K, M, G, T (with or
/// without `B` or `iB`, any case) are all powers of 1024. `ValueError` for
/// anything else, zero included.
#[pyfunction]
pub fn parse_size(size: &Bound<'_, PyAny>) -> PyResult<u64> {
    if let Ok(text) = size.cast::<PyString>() {
        return input::parse_size(&text.to_cow()?)
            .map_err(|e| pyo3::exceptions::PyValueError::new_err(e.to_string()));
    }
    if size.is_instance_of::<pyo3::types::PyBool>() {
        return Err(PyTypeError::new_err(
            "a size is an int or a str, not a bool",
        ));
    }
    match size.extract::<i128>() {
        Ok(n) if n >= 1 => u64::try_from(n)
            .map_err(|_| pyo3::exceptions::PyValueError::new_err(format!("{n} is too large"))),
        Ok(n) => Err(pyo3::exceptions::PyValueError::new_err(format!(
            "a size must be at least 1 byte, not {n}"
        ))),
        Err(_) => Err(PyTypeError::new_err(format!(
            "a size is an int or a str such as \"64MiB\", not {}",
            size.get_type().name()?
        ))),
    }
}
