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
    /// A directory was given where a file is read.
    #[error("{name} is a directory; give the PGN files inside it")]
    Directory {
        /// The input's name as given.
        name: String,
    },
    /// A byte range was asked of a stream (standard input, a file object), which cannot be
    /// cut.
    #[error("{name}: a byte range needs a file, not a stream")]
    RangeNeedsFile {
        /// The input's name as given.
        name: String,
    },
    /// The text (as decoded) is binary data: NUL bytes and control characters
    /// ([`binary_message`](crate::binary_message)'s rule).
    #[error("{name}: binary data, not PGN text ({control} control bytes in its first {len} bytes)")]
    Binary {
        /// The input's name as given.
        name: String,
        /// Control bytes among the first `len`.
        control: usize,
        /// Bytes looked at.
        len: usize,
    },
    /// A compressed stream needs more memory for its window (zstd) or dictionary (xz) than
    /// [`Options::max_window`](crate::Options::max_window) allows.
    #[error(
        "{name}: the {format} data needs a window of {}, more than the limit of {}",
        needs.map_or_else(|| "more than that".to_owned(), crate::format_size),
        crate::format_size(*limit)
    )]
    WindowTooLarge {
        /// The input's name as given.
        name: String,
        /// The compression format (`zstd`, `xz`).
        format: &'static str,
        /// The window the data asks for, when its header says (the first frame's or block's).
        needs: Option<u64>,
        /// The limit in force, in bytes.
        limit: u64,
    },
    /// A compressed format this build of the crate does not decode (its cargo feature is
    /// off).
    #[error(
        "{name}: a {format} file, and this pgnkit was built without {format} support (cargo feature `{feature}` of pgnkit-input)"
    )]
    Unsupported {
        /// The input's name as given.
        name: String,
        /// The format's name (`zstd`, `gzip`, `bzip2`, `xz`, `zip`).
        format: &'static str,
        /// The cargo feature that reads it.
        feature: &'static str,
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

    /// For [`InputError::WindowTooLarge`] with a known window: the least
    /// [`Options::max_window`](crate::Options::max_window) that reads the input (for zstd,
    /// the window rounded up to a power of two, as its decoder takes limits).
    pub fn window_to_read(&self) -> Option<u64> {
        match self {
            InputError::WindowTooLarge {
                format,
                needs: Some(needs),
                ..
            } if *format == "zstd" => Some(needs.next_power_of_two()),
            InputError::WindowTooLarge {
                needs: Some(needs), ..
            } => Some(*needs),
            _ => None,
        }
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

/// The [`InputError`] inside `error` (which holds one).
pub(crate) fn into_input(error: io::Error) -> InputError {
    match error
        .into_inner()
        .map(|inner| inner.downcast::<InputError>())
    {
        Some(Ok(input)) => *input,
        Some(Err(other)) => InputError::Io {
            name: String::new(),
            source: io::Error::other(other),
        },
        None => InputError::Io {
            name: String::new(),
            source: io::Error::other("decoding failed"),
        },
    }
}

/// An error of a stream read while opening, as an [`InputError`].
pub(crate) fn read_error(name: &str, error: io::Error) -> InputError {
    if InputError::from_io(&error).is_some() {
        into_input(error)
    } else {
        InputError::io(name, error)
    }
}
