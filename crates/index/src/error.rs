//! The errors of `pgnkit-index`: an index that cannot be read (missing,
//! corrupt, truncated, from a newer version), a source that changed since it
//! was indexed, an input that cannot be read, a position that cannot be
//! parsed, a file that is not a Polyglot book. Each names the file and what is wrong.

use std::io;
use std::path::PathBuf;

use thiserror::Error;

/// What went wrong with an index or its sources.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum IndexError {
    /// A file of the index (or a source) could not be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The system's error.
        source: io::Error,
    },
    /// A file of the index is not what the index says it is.
    #[error("{}: corrupt index: {what}", path.display())]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        what: String,
    },
    /// The index was written by a newer pgnkit.
    #[error(
        "{}: index format version {found} is newer than this pgnkit reads (version {supported}); use a newer pgnkit or rebuild the index",
        path.display()
    )]
    NewerVersion {
        /// The index's manifest.
        path: PathBuf,
        /// The version in the file.
        found: u32,
        /// The version this build reads and writes.
        supported: u32,
    },
    /// A source file changed since it was indexed: its offsets cannot be trusted.
    #[error(
        "{}: changed since it was indexed ({what}); rebuild the index with `pgnkit index`",
        path.display()
    )]
    SourceChanged {
        /// The source file.
        path: PathBuf,
        /// What differs (size, modification time, content sample).
        what: String,
    },
    /// A source is indexed already (appending it again would count its games twice).
    #[error("{}: already in the index {}", source_path.display(), index.display())]
    AlreadyIndexed {
        /// The source file.
        source_path: PathBuf,
        /// The index.
        index: PathBuf,
    },
    /// An input that cannot be opened or read (pgnkit-input's policy).
    #[error(transparent)]
    Input(#[from] pgnkit_input::InputError),
    /// A position argument that is neither a valid FEN nor legal moves.
    #[error("{0}")]
    Position(String),
    /// A file that is not a Polyglot book.
    #[error("{}: not a Polyglot book: {what}", path.display())]
    NotABook {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        what: String,
    },
    /// An index needs a file source (not standard input).
    #[error("{0}: the index needs files (standard input cannot be read again)")]
    NotAFile(String),
}

impl IndexError {
    pub(crate) fn io(path: impl Into<PathBuf>, source: io::Error) -> IndexError {
        IndexError::Io {
            path: path.into(),
            source,
        }
    }

    pub(crate) fn corrupt(path: impl Into<PathBuf>, what: impl Into<String>) -> IndexError {
        IndexError::Corrupt {
            path: path.into(),
            what: what.into(),
        }
    }
}
