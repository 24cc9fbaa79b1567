//! Files for the input targets (`decode`, `ranges`, `python_api`): fuzzed text stored in
//! each format pgnkit-input reads (made here, so that the fuzzer mutates valid compressed
//! files as well as raw bytes), then corrupted at fuzzed places; a temporary file per
//! process to open them from; and what opening and reading one gives, as a value to compare.

use std::io::{BufRead, Read, Write};
use std::path::PathBuf;

use pgnkit::input::{Options, Source, open};
use pgnkit::lexer::Reader;

/// Decoded bytes read from one opened input at most (a small file may decode to much more).
pub const MAX_DECODED: u64 = 1 << 20;

/// The window limit of the targets: a file that asks for more is refused, so the fuzzer's
/// `-malloc_limit_mb` catches any decoder that allocates what the file asks for regardless.
pub const MAX_WINDOW: u64 = 8 << 20;

/// How the fuzzed text is stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stored {
    /// The fuzzed bytes themselves are the file.
    Raw,
    /// One zstd frame.
    Zstd,
    /// pzstd's layout: a skippable frame holding each frame's size, then the frame.
    Pzstd,
    /// Two gzip members.
    Gzip,
    /// bzip2.
    Bzip2,
    /// xz.
    Xz,
    /// A zip archive: the text in two `.pgn` members around a member that is not read.
    Zip,
    /// UTF-16 LE with a byte order mark.
    Utf16Le,
    /// UTF-16 BE with a byte order mark.
    Utf16Be,
    /// UTF-16 LE inside zstd frames in pzstd's layout.
    PzstdUtf16,
}

impl Stored {
    /// The format the byte `b` names.
    pub fn from_byte(b: u8) -> Stored {
        match b % 10 {
            0 => Stored::Raw,
            1 => Stored::Zstd,
            2 => Stored::Pzstd,
            3 => Stored::Gzip,
            4 => Stored::Bzip2,
            5 => Stored::Xz,
            6 => Stored::Zip,
            7 => Stored::Utf16Le,
            8 => Stored::Utf16Be,
            _ => Stored::PzstdUtf16,
        }
    }
}

/// A fuzzed input as a file: how it is stored, where it is cut into frames or members, and
/// the bytes flipped after storing.
pub struct Plan<'a> {
    /// The format.
    pub stored: Stored,
    /// Where the text is cut (frames, members), as a fraction of 256.
    pub cut: u8,
    /// `(offset, xor)`: bytes of the stored file flipped (offsets modulo its size).
    pub flips: Vec<(u16, u8)>,
    /// The text.
    pub text: &'a [u8],
}

impl<'a> Plan<'a> {
    /// Reads a plan: a format byte, a cut byte, a count of flips (0 to 3) and 3 bytes each,
    /// then the text. `None` when the input is too short.
    pub fn parse(data: &'a [u8]) -> Option<Plan<'a>> {
        let (&format, rest) = data.split_first()?;
        let (&cut, rest) = rest.split_first()?;
        let (&count, mut rest) = rest.split_first()?;
        let mut flips = Vec::new();
        for _ in 0..count % 4 {
            let (flip, after) = rest.split_at_checked(3)?;
            flips.push((u16::from_le_bytes([flip[0], flip[1]]), flip[2]));
            rest = after;
        }
        Some(Plan {
            stored: Stored::from_byte(format),
            cut,
            flips,
            text: rest,
        })
    }

    /// The file's bytes.
    pub fn bytes(&self) -> Vec<u8> {
        let at = self.text.len() * usize::from(self.cut) / 256;
        let (a, b) = self.text.split_at(at);
        let mut out = match self.stored {
            Stored::Raw => self.text.to_vec(),
            Stored::Zstd => zstd_frame(self.text),
            Stored::Pzstd => pzstd(&[a, b]),
            Stored::Gzip => [gzip(a), gzip(b)].concat(),
            Stored::Bzip2 => bzip2(self.text),
            Stored::Xz => xz(self.text),
            Stored::Zip => zip(&[("a.pgn", a), ("notes.txt", b"not read"), ("b.PGN", b)]),
            Stored::Utf16Le => utf16(self.text, false),
            Stored::Utf16Be => utf16(self.text, true),
            Stored::PzstdUtf16 => {
                let text = utf16(self.text, false);
                let at = (at * 2).min(text.len());
                let (a, b) = text.split_at(at);
                pzstd(&[a, b])
            }
        };
        if !out.is_empty() {
            let len = out.len();
            for &(offset, xor) in &self.flips {
                out[usize::from(offset) % len] ^= xor;
            }
        }
        out
    }
}

/// `text` as one zstd frame (level 1, with a checksum).
pub fn zstd_frame(text: &[u8]) -> Vec<u8> {
    let mut encoder = zstd::stream::write::Encoder::new(Vec::new(), 1).expect("a zstd encoder");
    encoder.include_checksum(true).expect("checksum option");
    encoder.write_all(text).expect("writing to a Vec");
    encoder.finish().expect("writing to a Vec")
}

/// `parts` as pzstd writes them: each a zstd frame after a 12-byte skippable frame holding
/// its compressed size. Empty parts are left out (pzstd writes none).
pub fn pzstd(parts: &[&[u8]]) -> Vec<u8> {
    let mut out = Vec::new();
    for part in parts.iter().filter(|p| !p.is_empty()) {
        let frame = zstd_frame(part);
        out.extend_from_slice(&0x184D_2A50u32.to_le_bytes());
        out.extend_from_slice(&4u32.to_le_bytes());
        out.extend_from_slice(&u32::try_from(frame.len()).unwrap_or(u32::MAX).to_le_bytes());
        out.extend_from_slice(&frame);
    }
    out
}

/// `text` as one gzip member.
pub fn gzip(text: &[u8]) -> Vec<u8> {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(text).expect("writing to a Vec");
    gz.finish().expect("writing to a Vec")
}

/// `text` as bzip2.
pub fn bzip2(text: &[u8]) -> Vec<u8> {
    let mut bz = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::fast());
    bz.write_all(text).expect("writing to a Vec");
    bz.finish().expect("writing to a Vec")
}

/// `text` as xz.
pub fn xz(text: &[u8]) -> Vec<u8> {
    let mut xz = liblzma::write::XzEncoder::new(Vec::new(), 0);
    xz.write_all(text).expect("writing to a Vec");
    xz.finish().expect("writing to a Vec")
}

/// A zip archive of `members` (deflated).
pub fn zip(members: &[(&str, &[u8])]) -> Vec<u8> {
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for (name, bytes) in members {
        zip.start_file(*name, options).expect("a zip member");
        zip.write_all(bytes).expect("writing to a Vec");
    }
    zip.finish().expect("writing to a Vec").into_inner()
}

/// `text` (read as UTF-8, invalid bytes replaced) as UTF-16 with a byte order mark.
pub fn utf16(text: &[u8], big_endian: bool) -> Vec<u8> {
    let text = String::from_utf8_lossy(text);
    let mut out = if big_endian {
        vec![0xFE, 0xFF]
    } else {
        vec![0xFF, 0xFE]
    };
    for unit in text.encode_utf16() {
        let bytes = if big_endian {
            unit.to_be_bytes()
        } else {
            unit.to_le_bytes()
        };
        out.extend_from_slice(&bytes);
    }
    out
}

/// A temporary file of this process, named for `what` (rewritten by each run).
pub fn temp_file(what: &str, bytes: &[u8]) -> PathBuf {
    let path = std::env::temp_dir().join(format!("pgnkit-fuzz-{}-{what}", std::process::id()));
    std::fs::write(&path, bytes).expect("writing a temporary file");
    path
}

/// What reading an input gave: each game's bytes (with its stream's index and offset) in
/// order, and the error that ended it, if any.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// `(stream, offset, bytes)` of each game.
    pub games: Vec<(usize, u64, Vec<u8>)>,
    /// The error that ended the reading (opening or reading).
    pub error: Option<String>,
}

/// Opens `source` with `threads` threads (the targets' window limit) and reads its games,
/// at most [`MAX_DECODED`] decoded bytes of each stream.
pub fn read(source: Source, range: Option<std::ops::Range<u64>>, threads: usize) -> Outcome {
    let options = Options {
        threads,
        max_window: MAX_WINDOW,
    };
    let mut games = Vec::new();
    let opened = match open(source, range, &options) {
        Ok(opened) => opened,
        Err(e) => {
            return Outcome {
                games,
                error: Some(format!("open: {e}")),
            };
        }
    };
    for (i, stream) in opened.streams.into_iter().enumerate() {
        let origin = stream.origin.unwrap_or(0);
        let limited = stream.reader.take(MAX_DECODED);
        if let Err(e) = games_of(i, origin, limited, &mut games) {
            return Outcome {
                games,
                error: Some(format!("read: {e}")),
            };
        }
    }
    Outcome { games, error: None }
}

fn games_of(
    stream: usize,
    origin: u64,
    reader: impl BufRead,
    games: &mut Vec<(usize, u64, Vec<u8>)>,
) -> std::io::Result<()> {
    let mut reader = Reader::new(reader);
    while let Some(game) = reader.next_game()? {
        games.push((stream, origin + game.offset, game.bytes.to_vec()));
    }
    Ok(())
}
