//! The codec of a Parquet output's pages ([`ParquetCompression`]): zstd at a level, LZ4
//! (Parquet's `LZ4_RAW`), Snappy or none, and how the front-ends' text names one
//! (`"zstd"`, `"zstd:3"`, `"lz4"`, `"snappy"`, `"none"`), parsed here once for the command
//! line and the Python package.

use std::fmt;
use std::str::FromStr;

use parquet::basic::{Compression, ZstdLevel};

use crate::error::Error;

/// The zstd levels Parquet takes (zstd's negative, faster levels are refused by parquet's
/// `ZstdLevel`).
pub const ZSTD_LEVELS: std::ops::RangeInclusive<u8> = 1..=22;

/// How every column of a Parquet output is compressed. The default, zstd level 1, is what
/// `pgnkit convert` has always written: the smallest files for the least CPU of the levels
/// measured (docs/performance.md); LZ4 and Snappy cost less CPU for larger files. More
/// codecs may come (gzip, brotli), hence `non_exhaustive`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ParquetCompression {
    /// zstd at this level (1 to 22, [`ZSTD_LEVELS`]).
    Zstd(u8),
    /// LZ4 in Parquet's `LZ4_RAW` codec (the block format that pyarrow, DuckDB, Polars and
    /// Spark read; not the deprecated Hadoop-framed `LZ4`).
    Lz4,
    /// Snappy.
    Snappy,
    /// No compression.
    None,
}

impl Default for ParquetCompression {
    /// zstd level 1.
    fn default() -> ParquetCompression {
        ParquetCompression::Zstd(1)
    }
}

impl ParquetCompression {
    /// The forms [`FromStr`] accepts, for messages and help texts.
    pub const FORMS: &'static str = "zstd, zstd:LEVEL (LEVEL 1 to 22; zstd alone is level 1), \
                                     lz4, snappy or none";

    /// The `parquet` crate's codec; a zstd level outside [`ZSTD_LEVELS`] is an error.
    pub fn codec(self) -> Result<Compression, Error> {
        Ok(match self {
            ParquetCompression::Zstd(level) => {
                Compression::ZSTD(ZstdLevel::try_new(i32::from(level))?)
            }
            ParquetCompression::Lz4 => Compression::LZ4_RAW,
            ParquetCompression::Snappy => Compression::SNAPPY,
            ParquetCompression::None => Compression::UNCOMPRESSED,
        })
    }
}

/// Text that names no [`ParquetCompression`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CompressionError {
    /// No codec of this name (or a level given to a codec that has none).
    #[error("unknown Parquet compression `{0}` (expected {forms})", forms = ParquetCompression::FORMS)]
    Unknown(String),
    /// `zstd:LEVEL` with a level that is not a number from 1 to 22.
    #[error("zstd level `{0}` is not a number from 1 to 22")]
    Level(String),
}

impl FromStr for ParquetCompression {
    type Err = CompressionError;

    /// `zstd` (level 1), `zstd:LEVEL` (1 to 22), `lz4` (also `lz4_raw`), `snappy`, `none`
    /// (also `uncompressed`), any case.
    fn from_str(text: &str) -> Result<ParquetCompression, CompressionError> {
        let lower = text.trim().to_ascii_lowercase();
        let (name, level) = match lower.split_once(':') {
            Some((name, level)) => (name, Some(level)),
            None => (lower.as_str(), None),
        };
        let unknown = || CompressionError::Unknown(text.to_owned());
        match (name, level) {
            ("zstd", None) => Ok(ParquetCompression::default()),
            ("zstd", Some(level)) => level
                .parse::<u8>()
                .ok()
                .filter(|level| ZSTD_LEVELS.contains(level))
                .map(ParquetCompression::Zstd)
                .ok_or_else(|| CompressionError::Level(level.to_owned())),
            ("lz4" | "lz4_raw", None) => Ok(ParquetCompression::Lz4),
            ("snappy", None) => Ok(ParquetCompression::Snappy),
            ("none" | "uncompressed", None) => Ok(ParquetCompression::None),
            _ => Err(unknown()),
        }
    }
}

impl fmt::Display for ParquetCompression {
    /// The form [`FromStr`] reads back: `zstd:1`, `lz4`, `snappy`, `none`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParquetCompression::Zstd(level) => write!(f, "zstd:{level}"),
            ParquetCompression::Lz4 => f.write_str("lz4"),
            ParquetCompression::Snappy => f.write_str("snappy"),
            ParquetCompression::None => f.write_str("none"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_accepted_form_parses() {
        let cases = [
            ("zstd", ParquetCompression::Zstd(1)),
            ("ZSTD", ParquetCompression::Zstd(1)),
            ("zstd:1", ParquetCompression::Zstd(1)),
            ("zstd:3", ParquetCompression::Zstd(3)),
            ("zstd:22", ParquetCompression::Zstd(22)),
            ("lz4", ParquetCompression::Lz4),
            ("LZ4_RAW", ParquetCompression::Lz4),
            ("snappy", ParquetCompression::Snappy),
            ("none", ParquetCompression::None),
            ("uncompressed", ParquetCompression::None),
        ];
        for (text, want) in cases {
            assert_eq!(text.parse::<ParquetCompression>(), Ok(want), "{text}");
        }
        assert_eq!(ParquetCompression::default(), ParquetCompression::Zstd(1));
    }

    #[test]
    fn display_reads_back() {
        for codec in [
            ParquetCompression::Zstd(7),
            ParquetCompression::Lz4,
            ParquetCompression::Snappy,
            ParquetCompression::None,
        ] {
            assert_eq!(codec.to_string().parse::<ParquetCompression>(), Ok(codec));
        }
    }

    #[test]
    fn bad_text_names_the_accepted_forms() {
        for bad in ["gzip", "brotli", "", "lz4:3", "snappy:1", "none:0", "zstd:"] {
            let error = bad.parse::<ParquetCompression>().unwrap_err();
            let message = error.to_string();
            if bad == "zstd:" {
                assert_eq!(error, CompressionError::Level(String::new()));
                continue;
            }
            assert_eq!(error, CompressionError::Unknown(bad.to_owned()), "{bad}");
            assert!(
                message.contains("zstd:LEVEL") && message.contains("lz4, snappy or none"),
                "{message}"
            );
        }
        for bad in ["zstd:0", "zstd:23", "zstd:-1", "zstd:x", "zstd:300"] {
            let message = bad.parse::<ParquetCompression>().unwrap_err().to_string();
            assert!(message.contains("from 1 to 22"), "{bad}: {message}");
        }
    }

    #[test]
    fn a_level_out_of_range_is_refused_by_the_codec() {
        assert!(ParquetCompression::Zstd(0).codec().is_err());
        assert!(ParquetCompression::Zstd(23).codec().is_err());
        assert_eq!(
            ParquetCompression::Zstd(5).codec().unwrap(),
            Compression::ZSTD(ZstdLevel::try_new(5).unwrap())
        );
        assert_eq!(
            ParquetCompression::Lz4.codec().unwrap(),
            Compression::LZ4_RAW
        );
    }
}
