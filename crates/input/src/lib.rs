//! Inputs for pgnkit: any file a user has, as a stream of PGN text.
//!
//! - [`open_path`] and [`open_reader`] (standard input) tell the format from the first bytes
//!   ([`detect()`]), never from the name: zstd (several frames, skippable frames, windows up to
//!   2 GiB), gzip (several members, BGZF), bzip2 and xz (several streams), zip (the members
//!   whose names end in `.pgn`, in archive order), UTF-16 with a byte order mark (transcoded
//!   to UTF-8 as it streams), and text. Archives and binary files we do not read are refused
//!   with what they look like ([`InputError::NotPgn`]).
//! - Compressed streams decode on a thread of their own; a `.zst` file in pzstd's layout
//!   (independent frames, each after a skippable frame holding its size, as the Lichess
//!   database is written) decodes several frames at once on `threads - 1` threads ahead of
//!   the reader, each handed out in pieces as it decodes ([`pzstd`]).
//! - [`open_range`] reads the games whose first byte lies in a byte range `[start, end)` of a
//!   plain file or of a pzstd-layout `.zst` file (compressed offsets, snapped to frames), and
//!   [`split_points`] cuts a file into such ranges; [`resync`] holds the rule they use.
//!
//! Nothing here prints or panics on input: every fault is an [`InputError`], during reading
//! wrapped in the stream's [`std::io::Error`] ([`InputError::from_io`]), with offsets in the
//! file as stored.

mod detect;
mod error;
pub mod partition;
mod piped;
pub mod pzstd;
mod range;
mod utf16;
mod zipped;

use std::fs::File;
use std::io::{self, BufRead, BufReader, Cursor, Read};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::AtomicU64;

pub use detect::{Format, HEAD_LEN, binary_message, detect};
pub use error::InputError;
/// The resynchronisation rule of byte ranges, which lives in the lexer (the parallel reader
/// cuts its batches with it too).
pub use pgnkit_lexer::resync;
pub use piped::Counted;

use piped::{Fault, Piped};

/// How inputs are decoded.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// The threads of the run: with two or more, `threads - 1` threads decode pzstd frames
    /// ahead of the reader, one frame each at a time, handed out in pieces as they decode;
    /// with one, the reader decodes each frame itself when it needs it (one decoded frame in
    /// memory).
    pub threads: usize,
    /// The largest zstd window accepted, as a power of two (31: 2 GiB, what `--long=31`
    /// writes; the memory a stream may take).
    pub window_log_max: u32,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            threads: std::thread::available_parallelism().map_or(1, usize::from),
            window_log_max: 31,
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

/// Opens the file at `path`, named `name` in messages (a pipe or a device is read as a
/// stream, as [`open_reader`] does).
pub fn open_path(path: &Path, name: &str, options: &Options) -> Result<Opened, InputError> {
    let file = File::open(path).map_err(|e| InputError::io(name, e))?;
    let meta = file.metadata().map_err(|e| InputError::io(name, e))?;
    if !meta.is_file() {
        // A pipe or a device (`/dev/stdin`, `<(...)`): no size, no seeking.
        return open_reader(name, Box::new(file), options);
    }
    let size = meta.len();
    let read = Arc::new(AtomicU64::new(0));
    let mut head = vec![0; HEAD_LEN.min(usize::try_from(size).unwrap_or(HEAD_LEN))];
    read_head(&file, &mut head).map_err(|e| InputError::io(name, e))?;
    let format = detect(&head);
    let plain = || {
        let counted = Counted::new(file.try_clone()?, read.clone());
        Ok::<_, io::Error>(BufReader::with_capacity(1 << 16, counted))
    };
    let fault = Fault {
        name: name.to_owned(),
        format: format.name(),
        count: read.clone(),
    };
    let single = |reader: Box<dyn BufRead + Send>| Stream {
        name: name.to_owned(),
        reader,
        format,
        size: Some(size),
        read: read.clone(),
        origin: None,
        transcoded: None,
    };
    let reader: Box<dyn BufRead + Send> = match format {
        Format::Zip => return zipped::open(path, name, size),
        Format::Refused(looks_like) => return Err(refused(name, format, looks_like)),
        Format::Text | Format::Utf16Le | Format::Utf16Be => {
            Box::new(plain().map_err(|e| InputError::io(name, e))?)
        }
        Format::Zstd => match pzstd::index(&file, size).map_err(|e| InputError::io(name, e))? {
            Some(frames) => {
                let source = pzstd::Source {
                    name: name.to_owned(),
                    file: Arc::new(file),
                    count: read.clone(),
                    window_log_max: options.window_log_max,
                };
                Box::new(pzstd::Frames::spawn(source, frames, options.threads, None))
            }
            None => decoder(
                format,
                Box::new(plain().map_err(|e| InputError::io(name, e))?),
                fault,
                options,
            )?,
        },
        _ => decoder(
            format,
            Box::new(plain().map_err(|e| InputError::io(name, e))?),
            fault,
            options,
        )?,
    };
    let stream = text(single(reader))?;
    Ok(Opened {
        streams: vec![stream],
        warnings: Vec::new(),
    })
}

/// Opens a stream that is not a file (standard input), named `name` in messages. A zip
/// archive needs a file and is refused here.
pub fn open_reader(
    name: &str,
    reader: Box<dyn Read + Send>,
    options: &Options,
) -> Result<Opened, InputError> {
    let read = Arc::new(AtomicU64::new(0));
    let mut reader = Counted::new(reader, read.clone());
    let mut head = Vec::with_capacity(HEAD_LEN);
    (&mut reader)
        .take(HEAD_LEN as u64)
        .read_to_end(&mut head)
        .map_err(|e| InputError::io(name, e))?;
    let format = detect(&head);
    let rest: Box<dyn BufRead + Send> =
        Box::new(Cursor::new(head).chain(BufReader::with_capacity(1 << 16, reader)));
    let reader = match format {
        Format::Zip => {
            return Err(InputError::NotPgn {
                name: name.to_owned(),
                looks_like: "a zip archive on standard input",
                hint: "; give it as a file",
            });
        }
        Format::Refused(looks_like) => return Err(refused(name, format, looks_like)),
        Format::Text | Format::Utf16Le | Format::Utf16Be => rest,
        _ => {
            let fault = Fault {
                name: name.to_owned(),
                format: format.name(),
                count: read.clone(),
            };
            decoder(format, rest, fault, options)?
        }
    };
    let stream = text(Stream {
        name: name.to_owned(),
        reader,
        format,
        size: None,
        read,
        origin: None,
        transcoded: None,
    })?;
    Ok(Opened {
        streams: vec![stream],
        warnings: Vec::new(),
    })
}

/// The message for a format we refuse.
fn refused(name: &str, format: Format, looks_like: &'static str) -> InputError {
    InputError::NotPgn {
        name: name.to_owned(),
        looks_like,
        hint: detect::hint(format),
    }
}

/// Reads the first `head.len()` bytes of `file`.
fn read_head(file: &File, head: &mut [u8]) -> io::Result<()> {
    use std::os::unix::fs::FileExt;
    file.read_exact_at(head, 0)
}

/// A streaming decoder for `format` over `compressed`, on its own thread.
fn decoder(
    format: Format,
    compressed: Box<dyn BufRead + Send>,
    fault: Fault,
    options: &Options,
) -> Result<Box<dyn BufRead + Send>, InputError> {
    let source: Box<dyn Read + Send> = match format {
        Format::Zstd => {
            let mut decoder = zstd::stream::read::Decoder::with_buffer(compressed)
                .map_err(|e| InputError::io(&fault.name, e))?;
            decoder
                .window_log_max(options.window_log_max)
                .map_err(|e| InputError::io(&fault.name, e))?;
            Box::new(decoder)
        }
        Format::Gzip => Box::new(flate2::bufread::MultiGzDecoder::new(compressed)),
        Format::Bzip2 => Box::new(bzip2::bufread::MultiBzDecoder::new(compressed)),
        Format::Xz => Box::new(liblzma::bufread::XzDecoder::new_multi_decoder(compressed)),
        _ => return Ok(compressed),
    };
    Ok(Box::new(Piped::spawn(source, fault)))
}

/// Checks the decoded text's first bytes: UTF-16 is transcoded, a binary or archive (a tar
/// inside a gzip file) refused.
fn text(mut stream: Stream) -> Result<Stream, InputError> {
    let mut head = Vec::with_capacity(HEAD_LEN);
    (&mut stream.reader)
        .take(HEAD_LEN as u64)
        .read_to_end(&mut head)
        .map_err(|e| match InputError::from_io(&e) {
            Some(_) => decode_error(e),
            None => InputError::io(&stream.name, e),
        })?;
    let format = detect(&head);
    let inner = std::mem::replace(&mut stream.reader, Box::new(io::empty()));
    let again: Box<dyn BufRead + Send> = Box::new(Cursor::new(head).chain(inner));
    stream.transcoded = match format {
        Format::Utf16Le => Some(Transcoded::Utf16Le),
        Format::Utf16Be => Some(Transcoded::Utf16Be),
        _ => None,
    };
    stream.reader = match format {
        Format::Text => again,
        Format::Utf16Le => Box::new(utf16::Utf16::new(again, encoding_rs::UTF_16LE)),
        Format::Utf16Be => Box::new(utf16::Utf16::new(again, encoding_rs::UTF_16BE)),
        Format::Refused(looks_like) => return Err(refused(&stream.name, format, looks_like)),
        _ if stream.format != Format::Text => {
            return Err(InputError::NotPgn {
                name: stream.name.clone(),
                looks_like: "compressed twice",
                hint: "",
            });
        }
        _ => again,
    };
    if stream.format == Format::Utf16Le || stream.format == Format::Utf16Be {
        stream.format = Format::Text;
    }
    Ok(stream)
}

/// The [`InputError`] inside `error` (which holds one).
fn decode_error(error: io::Error) -> InputError {
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

/// Opens the games whose first byte lies in `[start, end)` of the file at `path`: a plain text
/// file, or a pzstd-layout `.zst` file whose offsets are compressed bytes (snapped to its
/// frames). The reader starts at the first resynchronisation point at or after `start` (see
/// [`resync`] for the rule and where it differs from reading from the start) and reads past
/// `end` to finish its last game, stopping before the first resynchronisation point at or
/// after `end`: so the ranges of any cut points together hold every game once, in order.
/// Offsets and lines count from the range's first game ([`Stream::origin`] is its offset in a
/// plain file).
pub fn open_range(
    path: &Path,
    name: &str,
    start: u64,
    end: u64,
    options: &Options,
) -> Result<Stream, InputError> {
    if start > end {
        return Err(InputError::BadRange {
            name: name.to_owned(),
            start,
            end,
        });
    }
    let file = File::open(path).map_err(|e| InputError::io(name, e))?;
    let size = file.metadata().map_err(|e| InputError::io(name, e))?.len();
    let mut head = vec![0; HEAD_LEN.min(usize::try_from(size).unwrap_or(HEAD_LEN))];
    read_head(&file, &mut head).map_err(|e| InputError::io(name, e))?;
    let format = detect(&head);
    let read = Arc::new(AtomicU64::new(0));
    let stream = |reader: Box<dyn BufRead + Send>, origin| Stream {
        name: name.to_owned(),
        reader,
        format,
        size: Some(end.min(size).saturating_sub(start)),
        read: read.clone(),
        origin,
        transcoded: None,
    };
    let empty = || stream(Box::new(io::empty()), Some(start));
    match format {
        Format::Text => {
            if start >= size || start == end {
                return Ok(empty());
            }
            let io_err = |e| InputError::io(name, e);
            let origin = if start == 0 {
                0
            } else {
                range::origin_before(&file, start).map_err(io_err)?
            };
            let mut file = file;
            io::Seek::seek(&mut file, io::SeekFrom::Start(origin)).map_err(io_err)?;
            let reader = BufReader::with_capacity(1 << 16, Counted::new(file, read.clone()));
            let end = Arc::new(AtomicU64::new(end - origin));
            let before = if origin == 0 {
                resync::Before::FileStart
            } else {
                resync::Before::Other
            };
            if start == 0 {
                let games = range::RangeReader::new(reader, 0, before, end);
                return Ok(stream(Box::new(games), Some(0)));
            }
            let from = AtomicU64::new(start - origin);
            match range::resync(reader, before, &from).map_err(io_err)? {
                None => Ok(empty()),
                Some((p, before, rest)) => {
                    let bytes = range::BoundedRange::new(rest, p, before, end);
                    Ok(stream(Box::new(bytes), Some(origin + p)))
                }
            }
        }
        Format::Zstd => {
            let frames = pzstd::index(&file, size)
                .map_err(|e| InputError::io(name, e))?
                .ok_or_else(|| InputError::RangeUnsupported {
                    name: name.to_owned(),
                    what: "a zstd file not in pzstd's layout",
                })?;
            let first = frames.iter().position(|f| f.start >= start);
            let Some(first) = first.filter(|&i| frames.get(i).is_some_and(|f| f.start < end))
            else {
                return Ok(stream(Box::new(io::empty()), None));
            };
            let after = frames
                .iter()
                .position(|f| f.start >= end)
                .unwrap_or(frames.len());
            let from = first.saturating_sub(1);
            let marks = pzstd::Marks {
                start_frame: first - from,
                start: Arc::new(AtomicU64::new(u64::MAX)),
                end_frame: after - from,
                end: Arc::new(AtomicU64::new(u64::MAX)),
            };
            let source = pzstd::Source {
                name: name.to_owned(),
                file: Arc::new(file),
                count: read.clone(),
                window_log_max: options.window_log_max,
            };
            let frames = pzstd::Frames::spawn(
                source,
                frames.get(from..).unwrap_or_default().to_vec(),
                options.threads,
                Some(marks.clone()),
            );
            if first == 0 {
                let games =
                    range::RangeReader::new(frames, 0, resync::Before::FileStart, marks.end);
                return Ok(stream(Box::new(games), None));
            }
            match range::resync(frames, resync::Before::Other, &marks.start)
                .map_err(|e| read_error(name, e))?
            {
                None => Ok(stream(Box::new(io::empty()), None)),
                Some((p, before, rest)) => {
                    let bytes = range::BoundedRange::new(rest, p, before, marks.end);
                    Ok(stream(Box::new(bytes), None))
                }
            }
        }
        Format::Refused(looks_like) => Err(refused(name, format, looks_like)),
        _ => Err(InputError::RangeUnsupported {
            name: name.to_owned(),
            what: match format {
                Format::Zip => "a zip archive",
                Format::Utf16Le | Format::Utf16Be => "UTF-16 text",
                _ => "a compressed stream without independent frames",
            },
        }),
    }
}

/// [`Read::read`] for the crate's buffered readers: what `fill_buf` has, as much as `buf`
/// takes.
pub(crate) fn read_buffered<R: BufRead>(reader: &mut R, buf: &mut [u8]) -> io::Result<usize> {
    let available = reader.fill_buf()?;
    let n = available.len().min(buf.len());
    buf.get_mut(..n)
        .unwrap_or_default()
        .copy_from_slice(available.get(..n).unwrap_or_default());
    reader.consume(n);
    Ok(n)
}

/// An error of a stream read while opening, as an [`InputError`].
fn read_error(name: &str, error: io::Error) -> InputError {
    if InputError::from_io(&error).is_some() {
        decode_error(error)
    } else {
        InputError::io(name, error)
    }
}

/// Cuts the file at `path` into at most `n` byte ranges `[start, end)` that cover it, for
/// [`open_range`]: equal parts of a plain file, or groups of frames of about equal compressed
/// size of a pzstd-layout `.zst` file (the cuts at frame starts).
pub fn split_points(path: &Path, name: &str, n: usize) -> Result<Vec<(u64, u64)>, InputError> {
    let file = File::open(path).map_err(|e| InputError::io(name, e))?;
    let size = file.metadata().map_err(|e| InputError::io(name, e))?.len();
    let mut head = vec![0; HEAD_LEN.min(usize::try_from(size).unwrap_or(HEAD_LEN))];
    read_head(&file, &mut head).map_err(|e| InputError::io(name, e))?;
    let n = n.max(1) as u64;
    let cuts: Vec<u64> = match detect(&head) {
        Format::Text => (1..n).map(|k| size / n * k + size % n * k / n).collect(),
        Format::Zstd => {
            let frames = pzstd::index(&file, size)
                .map_err(|e| InputError::io(name, e))?
                .ok_or_else(|| InputError::RangeUnsupported {
                    name: name.to_owned(),
                    what: "a zstd file not in pzstd's layout",
                })?;
            (1..n)
                .filter_map(|k| {
                    let target = size / n * k + size % n * k / n;
                    frames.iter().map(|f| f.start).find(|&s| s >= target)
                })
                .collect()
        }
        other => {
            return Err(InputError::RangeUnsupported {
                name: name.to_owned(),
                what: match other {
                    Format::Refused(what) => what,
                    _ => "a compressed stream without independent frames",
                },
            });
        }
    };
    let mut bounds = vec![0];
    bounds.extend(cuts.into_iter().filter(|&c| c > 0 && c < size));
    bounds.push(size);
    bounds.dedup();
    Ok(bounds
        .windows(2)
        .filter_map(|w| Some((*w.first()?, *w.get(1)?)))
        .collect())
}

/// The example of this crate's README (its crates.io page), compiled and run as a
/// doctest so that it stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
