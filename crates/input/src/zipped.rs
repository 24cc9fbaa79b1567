//! Zip archives: the members whose names end in `.pgn` (any case), in archive order, each a
//! stream named `archive.zip:member.pgn` and decoded on its own thread when first read. A
//! member's first bytes are read when the archive is opened (a few KiB decoded on the calling
//! thread, no thread started): a UTF-16 member (byte order mark) is transcoded to UTF-8, as a
//! UTF-16 file is.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicU64;

use crate::piped::{Fault, Piped};
use crate::utf16::Utf16;
use crate::{Format, HEAD_LEN, InputError, Opened, Stream, Transcoded, detect};

/// Opens the zip archive at `path`: a lazy stream per PGN member, a warning listing the rest.
pub(crate) fn open(file: File, path: &Path, name: &str, size: u64) -> Result<Opened, InputError> {
    let zip_error = |e: zip::result::ZipError| InputError::Zip {
        name: name.to_owned(),
        detail: e.to_string(),
    };
    let mut archive = zip::ZipArchive::new(BufReader::new(file)).map_err(zip_error)?;
    let mut streams = Vec::new();
    let mut others = Vec::new();
    let read = Arc::new(AtomicU64::new(0));
    for index in 0..archive.len() {
        let Some(Ok(member)) = archive.name_for_index(index) else {
            continue;
        };
        let member = member.into_owned();
        if member.ends_with('/') {
            continue;
        }
        if !member.to_ascii_lowercase().ends_with(".pgn") {
            others.push(member);
            continue;
        }
        let full = format!("{name}:{member}");
        let transcoded = encoding(&mut archive, index);
        let reader = Member {
            path: path.to_owned(),
            index,
            fault: Fault {
                name: full.clone(),
                format: "zip",
                count: read.clone(),
                max_window: crate::DEFAULT_MAX_WINDOW,
            },
            piped: None,
        };
        let reader: Box<dyn BufRead + Send> = match transcoded {
            Some(Transcoded::Utf16Le) => Box::new(Utf16::new(reader, encoding_rs::UTF_16LE)),
            Some(Transcoded::Utf16Be) => Box::new(Utf16::new(reader, encoding_rs::UTF_16BE)),
            None => Box::new(reader),
        };
        streams.push(Stream {
            name: full,
            reader,
            format: Format::Zip,
            size: Some(size),
            read: read.clone(),
            origin: None,
            transcoded,
        });
    }
    let mut warnings = Vec::new();
    if !others.is_empty() {
        warnings.push(format!(
            "{name}: {} member(s) not read (not .pgn): {}",
            others.len(),
            others.join(", ")
        ));
    }
    Ok(Opened { streams, warnings })
}

/// The encoding the member at `index` is transcoded from, told by its first bytes (UTF-16 with
/// a byte order mark); `None` for text read as stored, and for a member that cannot be read
/// here (its fault is reported when it is read).
fn encoding<R: Read + io::Seek>(
    archive: &mut zip::ZipArchive<R>,
    index: usize,
) -> Option<Transcoded> {
    let mut head = Vec::with_capacity(HEAD_LEN);
    let member = archive.by_index(index).ok()?;
    member.take(HEAD_LEN as u64).read_to_end(&mut head).ok()?;
    match detect(&head) {
        Format::Utf16Le => Some(Transcoded::Utf16Le),
        Format::Utf16Be => Some(Transcoded::Utf16Be),
        _ => None,
    }
}

/// A zip member, opened on first read.
struct Member {
    path: PathBuf,
    index: usize,
    fault: Fault,
    piped: Option<Piped>,
}

impl Member {
    fn piped(&mut self) -> &mut Piped {
        let (path, index, fault) = (self.path.clone(), self.index, self.fault.clone());
        self.piped.get_or_insert_with(|| {
            Piped::spawn_with(fault.clone(), move |pump| {
                let opened = File::open(&path).and_then(|file| {
                    zip::ZipArchive::new(BufReader::new(file))
                        .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
                });
                let mut archive = match opened {
                    Ok(archive) => archive,
                    Err(e) => return pump.fail(fault.wrap(e)),
                };
                match archive.by_index(index) {
                    Ok(mut member) => pump.run(&mut member),
                    Err(e) => pump.fail(fault.wrap(io::Error::new(io::ErrorKind::InvalidData, e))),
                }
            })
        })
    }
}

impl Read for Member {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.piped().read(buf)
    }
}

impl BufRead for Member {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.piped().fill_buf()
    }

    fn consume(&mut self, amt: usize) {
        self.piped().consume(amt);
    }
}
