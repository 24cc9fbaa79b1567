//! The errors of columnar output: building batches and writing them.

use std::io;

/// Why a batch could not be built or written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// Arrow refused a batch or a writer failed (CSV, NDJSON, IPC).
    #[error("arrow: {0}")]
    Arrow(#[from] arrow_schema::ArrowError),
    /// The Parquet writer failed.
    #[error("parquet: {0}")]
    Parquet(#[from] parquet::errors::ParquetError),
    /// Writing the output failed.
    #[error("{0}")]
    Io(#[from] io::Error),
    /// The file name's extension names no format this crate writes.
    #[error("unknown output format `{0}` (expected parquet, arrow, arrows, csv or ndjson)")]
    UnknownFormat(String),
}

/// A typed tag whose value could not be read: the column holds null and the
/// text stays in the `tags` map.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("tag {tag} \"{value}\" is not {expected}; its column is null")]
pub struct TagWarning {
    /// The tag's name (`WhiteElo`, `UTCDate`, ...).
    pub tag: &'static str,
    /// The value as read.
    pub value: String,
    /// What the column expects (`a rating`, `a date YYYY.MM.DD`, ...).
    pub expected: &'static str,
}
