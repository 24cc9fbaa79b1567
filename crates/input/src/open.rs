//! Opening a source with pgnkit's input policy, once for every front-end: [`open`](fn@open) takes a
//! [`Source`] (a file, or a named stream: standard input, bytes in memory, a Python file
//! object), an optional byte range and [`Options`], and gives the [`Opened`] streams or an
//! [`InputError`] that says what is wrong:
//!
//! - a directory is refused ([`InputError::Directory`]); a byte range needs a file
//!   ([`InputError::RangeNeedsFile`]) and is read by [`crate::range`];
//! - the format is told from the first bytes ([`detect`](crate::detect())): archives and
//!   binary formats we do not read are refused with what they look like
//!   ([`InputError::NotPgn`]), a zip archive needs a file, a compressed format this build
//!   does not decode is [`InputError::Unsupported`], a window larger than
//!   [`Options::max_window`] is [`InputError::WindowTooLarge`];
//! - the decoded text is looked at again: UTF-16 with a byte order mark is transcoded, a
//!   second compression or an archive inside is refused, and binary data
//!   ([`binary_message`](crate::binary_message)'s rule) is [`InputError::Binary`].

use std::io::{self, BufRead, BufReader, Cursor, Read};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicU64;

use crate::decode::{admit, decoder, refuse_format};
use crate::detect::binary_counts;
use crate::error::read_error;
use crate::piped::{Counted, Fault};
use crate::probe::{Probe, Probed, probe};
use crate::{Format, HEAD_LEN, InputError, Opened, Options, Stream, Transcoded, detect};

/// Where games come from.
pub enum Source {
    /// A file on disk (a pipe or a device is read as a stream).
    Path {
        /// The path.
        path: PathBuf,
        /// Its name in messages (the path as given).
        name: String,
    },
    /// A stream that is not a file: standard input, bytes in memory, a file object.
    Reader {
        /// Its name in messages (`-` for standard input).
        name: String,
        /// The bytes, as stored (compressed or not).
        reader: Box<dyn Read + Send>,
    },
}

impl Source {
    /// The file at `path`, named in messages as the path is displayed.
    pub fn path(path: impl Into<PathBuf>) -> Source {
        let path = path.into();
        let name = path.display().to_string();
        Source::Path { path, name }
    }

    /// The file at `path`, named `name` in messages.
    pub fn named_path(path: impl Into<PathBuf>, name: impl Into<String>) -> Source {
        Source::Path {
            path: path.into(),
            name: name.into(),
        }
    }

    /// Standard input, named `-`.
    pub fn stdin() -> Source {
        Source::reader("-", io::stdin())
    }

    /// The stream `reader`, named `name` in messages.
    pub fn reader(name: impl Into<String>, reader: impl Read + Send + 'static) -> Source {
        Source::Reader {
            name: name.into(),
            reader: Box::new(reader),
        }
    }

    /// The source's name in messages.
    pub fn name(&self) -> &str {
        match self {
            Source::Path { name, .. } | Source::Reader { name, .. } => name,
        }
    }
}

impl std::fmt::Debug for Source {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Source::Path { path, name } => f
                .debug_struct("Path")
                .field("path", path)
                .field("name", name)
                .finish(),
            Source::Reader { name, .. } => f
                .debug_struct("Reader")
                .field("name", name)
                .finish_non_exhaustive(),
        }
    }
}

/// Opens `source` (the games whose first byte lies in `range` of it, if given) by the policy
/// in the module's docs: its streams (one, or a zip archive's PGN members, with a warning
/// naming the members not read), or what is wrong.
///
/// A range reads the games whose first byte lies in `[start, end)` of a plain file or of a
/// pzstd-layout `.zst` file (compressed offsets, snapped to its frames): see
/// [`open_range`] for the rule.
pub fn open(
    source: Source,
    range: Option<Range<u64>>,
    options: &Options,
) -> Result<Opened, InputError> {
    let opened = match (source, range) {
        (Source::Path { path, name }, Some(range)) => {
            if range.start > range.end {
                return Err(InputError::BadRange {
                    name,
                    start: range.start,
                    end: range.end,
                });
            }
            // Binary data is judged as reading the whole file judges it: by the file's
            // first decoded bytes, whatever the range (a range in the middle of a file whose
            // start is text is read as that file is, and a range from the start that ends
            // before those bytes do is judged by them all).
            let stream = match probe(&path, &name)? {
                Probed::File(probe) => {
                    if probe.format == Format::Text {
                        refuse_binary_head(&name, &probe.head)?;
                    } else {
                        let whole = Source::Path {
                            path: path.clone(),
                            name: name.clone(),
                        };
                        drop(open(whole, None, options)?);
                    }
                    crate::split::open_probed(probe, &name, range.start, range.end, options)?
                }
                Probed::Stream(_) => return Err(InputError::RangeNeedsFile { name }),
            };
            return Ok(Opened {
                streams: vec![stream],
                warnings: Vec::new(),
            });
        }
        (Source::Reader { name, .. }, Some(_)) => {
            return Err(InputError::RangeNeedsFile { name });
        }
        (Source::Path { path, name }, None) => match probe(&path, &name)? {
            Probed::File(probe) => open_file(probe, &path, &name, options)?,
            Probed::Stream(file) => open_stream(&name, Box::new(file), options)?,
        },
        (Source::Reader { name, reader }, None) => open_stream(&name, reader, options)?,
    };
    let mut streams = opened.streams;
    for stream in &mut streams {
        refuse_binary(stream)?;
    }
    Ok(Opened {
        streams,
        warnings: opened.warnings,
    })
}

/// Opens the games whose first byte lies in `[start, end)` of the file at `path`: a plain text
/// file, or a pzstd-layout `.zst` file whose offsets are compressed bytes (snapped to its
/// frames). The reader starts at the first resynchronisation point at or after `start` (see
/// [`resync`](crate::resync) for the rule and where it differs from reading from the start)
/// and reads past `end` to finish its last game, stopping before the first resynchronisation
/// point at or after `end`: so the ranges of any cut points together hold every game once, in
/// order. Offsets and lines count from the range's first game ([`Stream::origin`] is its
/// offset in a plain file).
///
/// The same as [`open`](fn@crate::open) with a [`Source::Path`] and a range, which it calls.
pub fn open_range(
    path: &Path,
    name: &str,
    start: u64,
    end: u64,
    options: &Options,
) -> Result<Stream, InputError> {
    let opened = open(Source::named_path(path, name), Some(start..end), options)?;
    Ok(opened
        .streams
        .into_iter()
        .next()
        .unwrap_or_else(|| empty(name, start)))
}

/// A range holding no game.
fn empty(name: &str, start: u64) -> Stream {
    Stream {
        name: name.to_owned(),
        reader: Box::new(io::empty()),
        format: Format::Text,
        size: Some(0),
        read: Arc::new(AtomicU64::new(0)),
        origin: Some(start),
        transcoded: None,
    }
}

/// Opens a regular file whole.
#[cfg_attr(not(feature = "zip"), allow(unused_variables))]
fn open_file(
    probe: Probe,
    path: &Path,
    name: &str,
    options: &Options,
) -> Result<Opened, InputError> {
    let Probe {
        file,
        size,
        head,
        format,
        frames,
    } = probe;
    admit(name, format, &head, options)?;
    let read = Arc::new(AtomicU64::new(0));
    let reader: Box<dyn BufRead + Send> = match (format, frames) {
        #[cfg(feature = "zip")]
        (Format::Zip, _) => return crate::zipped::open(file, path, name, size),
        #[cfg(feature = "zstd")]
        (Format::Zstd, Some(frames)) => {
            let source = crate::pzstd::Source {
                name: name.to_owned(),
                file: Arc::new(file),
                count: read.clone(),
                max_window: options.max_window,
            };
            Box::new(crate::pzstd::Frames::spawn(
                source,
                frames,
                options.threads,
                None,
            ))
        }
        _ => {
            let counted = Counted::new(file, read.clone());
            let plain = Box::new(BufReader::with_capacity(1 << 16, counted));
            decoder(format, plain, fault(name, format, &read, options), options)?
        }
    };
    whole(name, reader, format, Some(size), read)
}

/// Opens a stream that is not a file (standard input), named `name` in messages. A zip
/// archive needs a file and is refused here.
fn open_stream(
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
    if format == Format::Zip {
        return Err(InputError::NotPgn {
            name: name.to_owned(),
            looks_like: "a zip archive on standard input",
            hint: "; give it as a file",
        });
    }
    admit(name, format, &head, options)?;
    let rest: Box<dyn BufRead + Send> =
        Box::new(Cursor::new(head).chain(BufReader::with_capacity(1 << 16, reader)));
    let reader = decoder(format, rest, fault(name, format, &read, options), options)?;
    whole(name, reader, format, None, read)
}

/// The one stream of a whole input stored as `format`, its text checked ([`text`]).
fn whole(
    name: &str,
    reader: Box<dyn BufRead + Send>,
    format: Format,
    size: Option<u64>,
    read: Arc<AtomicU64>,
) -> Result<Opened, InputError> {
    let stream = text(Stream {
        name: name.to_owned(),
        reader,
        format,
        size,
        read,
        origin: None,
        transcoded: None,
    })?;
    Ok(Opened {
        streams: vec![stream],
        warnings: Vec::new(),
    })
}

/// How a decoder of `name` names its faults.
fn fault(name: &str, format: Format, read: &Arc<AtomicU64>, options: &Options) -> Fault {
    Fault {
        name: name.to_owned(),
        format: format.name(),
        count: read.clone(),
        max_window: options.max_window,
    }
}

/// Checks the decoded text's first bytes: UTF-16 is transcoded, a binary or archive (a tar
/// inside a gzip file) refused.
fn text(mut stream: Stream) -> Result<Stream, InputError> {
    let mut head = Vec::with_capacity(HEAD_LEN);
    (&mut stream.reader)
        .take(HEAD_LEN as u64)
        .read_to_end(&mut head)
        .map_err(|e| read_error(&stream.name, e))?;
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
        Format::Utf16Le => Box::new(crate::utf16::Utf16::new(again, encoding_rs::UTF_16LE)),
        Format::Utf16Be => Box::new(crate::utf16::Utf16::new(again, encoding_rs::UTF_16BE)),
        Format::Refused(_) => {
            refuse_format(&stream.name, format)?;
            again
        }
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

/// Refuses a stream whose first [`HEAD_LEN`] bytes (fewer in a shorter stream, however
/// many reads they take: a pzstd frame may hold less) are binary data rather than text, by
/// [`binary_message`](crate::binary_message)'s rule.
fn refuse_binary(stream: &mut Stream) -> Result<(), InputError> {
    let first = stream
        .reader
        .fill_buf()
        .map_err(|e| read_error(&stream.name, e))?;
    if first.len() >= HEAD_LEN || first.is_empty() {
        return refuse_binary_head(&stream.name, first.get(..HEAD_LEN).unwrap_or(first));
    }
    let mut head = Vec::with_capacity(HEAD_LEN);
    (&mut stream.reader)
        .take(HEAD_LEN as u64)
        .read_to_end(&mut head)
        .map_err(|e| read_error(&stream.name, e))?;
    refuse_binary_head(&stream.name, &head)?;
    let rest = std::mem::replace(&mut stream.reader, Box::new(io::empty()));
    stream.reader = Box::new(Cursor::new(head).chain(rest));
    Ok(())
}

/// Refuses `head`, the first bytes of the input `name`, if they are binary data.
fn refuse_binary_head(name: &str, head: &[u8]) -> Result<(), InputError> {
    match binary_counts(head) {
        Some((control, len)) => Err(InputError::Binary {
            name: name.to_owned(),
            control,
            len,
        }),
        None => Ok(()),
    }
}
