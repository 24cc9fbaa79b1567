//! What can go wrong opening or reading an input: [`InputError`], with byte offsets in the
//! file as stored (the compressed file for compressed inputs).
//!
//! Errors met while reading a stream come out of its [`Read`](std::io::Read) as an
//! [`io::Error`] that wraps an [`InputError`]; [`InputError::from_io`] finds it again.

use std::io;

/// An input that cannot be read, or a stream that broke while it was read.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum InputError {
    /// The file could not be opened or read.
    #[error("{name}: {source}")]
    Io {
        /// The input's name as given.
        name: String,
        /// What the system said.
        #[source]
        source: io::Error,
    },
    /// The input is not PGN text nor a compressed form we read (an image, an executable,
    /// a 7z archive...).
    #[error("{name}: {looks_like}; pgnkit reads PGN text and .zst, .gz, .bz2, .xz and .zip{hint}")]
    NotPgn {
        /// The input's name as given.
        name: String,
        /// What it looks like, for example "a 7z archive".
        looks_like: &'static str,
        /// Advice, starting with "; " (or empty).
        hint: &'static str,
    },
    /// A compressed stream is corrupt or cut short.
    #[error(
        "{name}: {format} data corrupt or truncated near byte {offset} of the compressed file: {detail}"
    )]
    Corrupt {
        /// The input's name as given.
        name: String,
        /// The compression format (`zstd`, `gzip`, ...).
        format: &'static str,
        /// Byte offset in the compressed file at or just after the fault.
        offset: u64,
        /// The decoder's message.
        detail: String,
    },
    /// A zip archive whose directory cannot be read.
    #[error("{name}: unreadable zip archive: {detail}")]
    Zip {
        /// The input's name as given.
        name: String,
        /// The zip reader's message.
        detail: String,
    },
    /// A byte range was asked of an input that cannot be cut (a gzip file, standard input).
    #[error(
        "{name}: byte ranges need a plain file or a .zst file of independent frames (pzstd layout); this is {what}"
    )]
    RangeUnsupported {
        /// The input's name as given.
        name: String,
        /// What the input is.
        what: &'static str,
    },
    /// A byte range whose start lies after its end.
    #[error("{name}: the range {start}..{end} is empty or reversed")]
    BadRange {
        /// The input's name as given.
        name: String,
        /// Start of the range.
        start: u64,
        /// End of the range.
        end: u64,
    },
}

impl InputError {
    /// The [`InputError`] carried by an [`io::Error`] that a stream of this crate returned,
    /// if any.
    pub fn from_io(error: &io::Error) -> Option<&InputError> {
        error.get_ref()?.downcast_ref::<InputError>()
    }

    /// Wraps `self` in an [`io::Error`] (for a stream's `read`).
    pub(crate) fn into_io(self) -> io::Error {
        io::Error::new(io::ErrorKind::InvalidData, self)
    }

    /// An I/O error on `name`.
    pub(crate) fn io(name: &str, source: io::Error) -> InputError {
        InputError::Io {
            name: name.to_owned(),
            source,
        }
    }
}
