//! What opening an input gives: [`Opened`] streams of PGN text ([`Stream`]), and the
//! [`Options`] of the decoders.

use std::io::BufRead;
use std::sync::Arc;
use std::sync::atomic::AtomicU64;

#[cfg(doc)]
use crate::InputError;
use crate::{DEFAULT_MAX_WINDOW, Format};

/// How inputs are decoded.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// The threads of the run: with two or more, `threads - 1` threads decode pzstd frames
    /// ahead of the reader, one frame each at a time, handed out in pieces as they decode;
    /// with one, the reader decodes each frame itself when it needs it (one decoded frame in
    /// memory).
    pub threads: usize,
    /// The most memory, in bytes, a decoder's window may take where the file decides it:
    /// the zstd window (taken as a power of two: the largest not above it, at most 2 GiB,
    /// what `zstd --long=31` writes) and the xz dictionary. 128 MiB by default
    /// ([`DEFAULT_MAX_WINDOW`], what the `zstd` command accepts without `--memory`); a file
    /// that needs more is refused with [`InputError::WindowTooLarge`].
    pub max_window: u64,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            threads: std::thread::available_parallelism().map_or(1, usize::from),
            max_window: DEFAULT_MAX_WINDOW,
        }
    }
}

/// One stream of PGN text: a file, a zip member, a range.
pub struct Stream {
    /// The name for messages: the path as given, `archive.zip:member.pgn` for a zip member.
    pub name: String,
    /// The text (UTF-8, Latin-1 or ASCII, as the file has it; UTF-16 is transcoded).
    pub reader: Box<dyn BufRead + Send>,
    /// The format the file is stored in.
    pub format: Format,
    /// The size of the file as stored (compressed), when known: the progress bar's total.
    pub size: Option<u64>,
    /// Bytes of the stored file read so far: the progress bar's count.
    pub read: Arc<AtomicU64>,
    /// For a range of a plain file: the offset of the range's first game in the file.
    pub origin: Option<u64>,
    /// The encoding the text was transcoded from (UTF-16 with a byte order mark, as stored
    /// or inside a compressed file); `None` when the text is read as stored. Every game of
    /// the stream was decoded from it.
    pub transcoded: Option<Transcoded>,
}

/// An encoding a stream's text is transcoded from to UTF-8.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Transcoded {
    /// UTF-16, little-endian (byte order mark `FF FE`).
    Utf16Le,
    /// UTF-16, big-endian (byte order mark `FE FF`).
    Utf16Be,
}

impl Transcoded {
    /// The encoding's name for people: `UTF-16 LE`, `UTF-16 BE`.
    pub fn name(self) -> &'static str {
        match self {
            Transcoded::Utf16Le => "UTF-16 LE",
            Transcoded::Utf16Be => "UTF-16 BE",
        }
    }

    /// The encoding's label for machines (the WHATWG Encoding Standard's, lower case):
    /// `utf-16le`, `utf-16be`.
    pub fn label(self) -> &'static str {
        match self {
            Transcoded::Utf16Le => "utf-16le",
            Transcoded::Utf16Be => "utf-16be",
        }
    }
}

impl std::fmt::Debug for Stream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Stream")
            .field("name", &self.name)
            .field("format", &self.format)
            .field("size", &self.size)
            .field("origin", &self.origin)
            .field("transcoded", &self.transcoded)
            .finish_non_exhaustive()
    }
}

/// What opening an input gave: its streams (one, or a zip archive's PGN members) and
/// warnings to show (a zip's members that are not read).
#[derive(Debug)]
pub struct Opened {
    /// The streams, in order.
    pub streams: Vec<Stream>,
    /// Messages for the user, each naming the input.
    pub warnings: Vec<String>,
}
