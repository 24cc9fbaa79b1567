//! Inputs for pgnkit: any file a user has, as a stream of PGN text.
//!
//! - [`open`](fn@open) is the one way in, for every front-end: a [`Source`] (a file, or a named stream
//!   such as standard input), an optional byte range and [`Options`] give the [`Opened`]
//!   streams, or an [`InputError`] that says what is wrong (a directory, a range of a stream,
//!   binary data, an archive we do not read, a window too large).
//! - The format is told from the first bytes ([`detect()`]), never from the name: zstd
//!   (several frames, skippable frames), gzip (several members, BGZF), bzip2 and xz (several
//!   streams), zip (the members whose names end in `.pgn`, in archive order), UTF-16 with a
//!   byte order mark (transcoded to UTF-8 as it streams), and text. Archives and binary files
//!   we do not read are refused with what they look like ([`InputError::NotPgn`]).
//! - Each decoder is behind its own cargo feature (`zstd`, `gzip`, `bzip2`, `xz`, `zip`; all
//!   on by default): without them the crate is pure Rust and reads plain and UTF-16 text; a
//!   file in a format left out is refused with [`InputError::Unsupported`].
//! - Memory is bounded where the file decides it: a zstd window or an xz dictionary larger
//!   than [`Options::max_window`] (128 MiB by default, as the `zstd` command) is refused with
//!   [`InputError::WindowTooLarge`], naming what the file asks for.
//! - Compressed streams decode on a thread of their own; a `.zst` file in pzstd's layout
//!   (independent frames, each after a skippable frame holding its size, as the Lichess
//!   database is written) decodes several frames at once on `threads - 1` threads ahead of
//!   the reader, each handed out in pieces as it decodes ([`pzstd`]).
//! - A byte range `[start, end)` of a plain file or of a pzstd-layout `.zst` file
//!   (compressed offsets, snapped to frames) reads the games whose first byte lies in it
//!   ([`open_range`]); [`split_points`] cuts a file into such ranges, [`partition`] plans
//!   them for cluster engines, and [`resync`] holds the rule they use.
//! - Sizes people write (`16M`, `64MiB`) parse one way: [`parse_size`].
//!
//! Nothing here prints or panics on input: every fault is an [`InputError`], during reading
//! wrapped in the stream's [`std::io::Error`] ([`InputError::from_io`]), with offsets in the
//! file as stored.
//!
//! # Example
//!
//! Reading the games of a compressed file (here a gzip file made for the example; a `.zst`,
//! `.bz2`, `.xz` or `.zip` file is opened the same way):
//!
//! ```
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! # #[cfg(feature = "gzip")] {
//! use std::io::{BufRead, Write};
//!
//! use pgnkit_input::{Options, Source, open};
//!
//! let dir = std::env::temp_dir().join(format!("pgnkit-input-doc-{}", std::process::id()));
//! std::fs::create_dir_all(&dir)?;
//! let path = dir.join("games.pgn.gz");
//! let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
//! gz.write_all(b"[Event \"a\"]\n\n1. e4 e5 *\n\n[Event \"b\"]\n\n1. d4 *\n")?;
//! std::fs::write(&path, gz.finish()?)?;
//!
//! let opened = open(Source::path(&path), None, &Options::default())?;
//! let mut games = 0;
//! for stream in opened.streams {
//!     assert_eq!(stream.format, pgnkit_input::Format::Gzip);
//!     let mut reader = pgnkit_lexer::Reader::new(stream.reader);
//!     while let Some(game) = reader.next_game()? {
//!         assert!(game.bytes.starts_with(b"[Event"));
//!         games += 1;
//!     }
//! }
//! assert_eq!(games, 2);
//!
//! // What cannot be read says why: here a directory.
//! let error = open(Source::path(&dir), None, &Options::default()).unwrap_err();
//! assert!(error.to_string().ends_with("is a directory; give the PGN files inside it"));
//! std::fs::remove_dir_all(&dir)?;
//! # }
//! # Ok(())
//! # }
//! ```

mod at;
mod decode;
mod detect;
mod error;
mod open;
pub mod partition;
mod piped;
mod probe;
pub mod pzstd;
mod range;
mod size;
mod split;
mod stream;
mod utf16;
mod window;
#[cfg(feature = "zip")]
mod zipped;

pub use detect::{Format, HEAD_LEN, binary_message, detect};
pub use error::InputError;
pub use open::{Source, open, open_range};
/// The resynchronisation rule of byte ranges, which lives in the lexer (the parallel reader
/// cuts its batches with it too).
pub use pgnkit_lexer::resync;
pub use piped::Counted;
pub use size::{SizeError, format_size, parse_size};
pub use split::split_points;
pub use stream::{Opened, Options, Stream, Transcoded};
pub use window::DEFAULT_MAX_WINDOW;

pub(crate) use piped::read_buffered;

/// The example of this crate's README (its crates.io page), compiled and run as a
/// doctest so that it stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
