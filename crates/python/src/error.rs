//! Errors at the border with Python: `pgnkit.PgnError` (a `ValueError`) for
//! input that is not PGN, `OSError` subclasses for files that cannot be read,
//! and [`guard`], which turns a Rust panic into a Python exception.

use std::io;
use std::panic::{AssertUnwindSafe, catch_unwind};

use pgnkit::input::InputError;
use pyo3::exceptions::{PyFileNotFoundError, PyOSError, PyPermissionError, PyRuntimeError};
use pyo3::prelude::*;

pyo3::create_exception!(
    pgnkit,
    PgnError,
    pyo3::exceptions::PyValueError,
    "Input that pgnkit cannot read as PGN: binary data, an archive it does not open, a corrupt \
     compressed stream. The message is the command-line tool's."
);

/// Runs `f`, turning a panic into a `RuntimeError` that names it as a bug in
/// pgnkit: the interpreter never aborts, and the caller's `except` sees it.
pub fn guard<T>(f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(result) => result,
        Err(panic) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| (*s).to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".to_string());
            Err(PyRuntimeError::new_err(format!(
                "internal error in pgnkit (please report it): {what}"
            )))
        }
    }
}

/// An I/O error on the input `name` as the matching `OSError` subclass, with
/// `errno`, `strerror` and `filename` set as Python's own `open` sets them.
pub fn io_error(name: &str, error: &io::Error) -> PyErr {
    if let Some(input) = InputError::from_io(error) {
        return input_error(input);
    }
    let strerror = strip_os_suffix(&error.to_string());
    let args = (
        error.raw_os_error().unwrap_or(0),
        strerror,
        name.to_string(),
    );
    match error.kind() {
        io::ErrorKind::NotFound => PyFileNotFoundError::new_err(args),
        io::ErrorKind::PermissionDenied => PyPermissionError::new_err(args),
        _ if error.raw_os_error().is_some() => PyOSError::new_err(args),
        _ => PyOSError::new_err(format!("{name}: {error}")),
    }
}

/// Rust's `No such file or directory (os error 2)` without the suffix.
fn strip_os_suffix(text: &str) -> String {
    match text.rfind(" (os error ") {
        Some(at) => text[..at].to_string(),
        None => text.to_string(),
    }
}

/// An input error as the CLI words it: an `OSError` for the system's
/// errors, else a [`PgnError`] with the message `cannot read ...`.
pub fn input_error(error: &InputError) -> PyErr {
    match error {
        InputError::Io { name, source } => io_error(name, source),
        InputError::Directory { name } => pyo3::exceptions::PyIsADirectoryError::new_err((
            21,
            "Is a directory; give the PGN files inside it".to_string(),
            name.clone(),
        )),
        InputError::RangeNeedsFile { .. } => pyo3::exceptions::PyValueError::new_err(
            "range= reads a byte range of a file: give a path",
        ),
        InputError::WindowTooLarge { .. } => PgnError::new_err(format!(
            "cannot read {error}; raise the limit with max_window=\"{}\"",
            error
                .window_to_read()
                .map_or_else(|| "SIZE".to_string(), pgnkit::input::format_size)
        )),
        other => PgnError::new_err(format!("cannot read {other}")),
    }
}

pyo3::create_exception!(
    pgnkit,
    PgnWarning,
    pyo3::exceptions::PyUserWarning,
    "A game left out by `skip_broken=True` (or a table), with its position in the input."
);
