//! The fixed-size records of a segment's files and how they are laid out:
//! a 16-byte header (magic, format version, record size, reserved), then the
//! records, little-endian. [`RecordFile`] opens one, checks its header and
//! length, and reads records by number with plain positioned reads (no
//! mmap: a lookup reads a few dozen small pieces, which the page cache
//! serves, and a truncated file is an error, not a fault).

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use crate::error::IndexError;

/// The index format version this build writes and reads (in the manifest's
/// first line and every file's header).
pub const VERSION: u32 = 3;

/// Bytes of a file header.
pub(crate) const HEADER: u64 = 16;

/// The move of a posting of a game's final position: no move was played there.
pub const NO_MOVE: u16 = u16::MAX;

/// A record type: its size, magic and encoding.
pub(crate) trait Record: Sized + Copy {
    /// Bytes per record.
    const SIZE: usize;
    /// The first 8 bytes of its files.
    const MAGIC: &'static [u8; 8];
    /// Appends the record's bytes.
    fn put(&self, out: &mut Vec<u8>);
    /// Reads a record from `SIZE` bytes.
    fn get(bytes: &[u8]) -> Self;
}

fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap_or([0; 4]))
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().unwrap_or([0; 8]))
}

/// A position reached in a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Posting {
    /// The position's Polyglot key.
    pub key: u64,
    /// The move played from it ([`encode_move`](crate::moves::encode)), or [`NO_MOVE`].
    pub mv: u16,
    /// The game (its number in the segment).
    pub game: u32,
    /// The ply of the position (0: the start).
    pub ply: u16,
}

impl Posting {
    /// The posting as one number, `key << 64 | move << 48 | game << 16 | ply`: what the
    /// build's visitor keeps and its buffers hold, and what `.pos` stores (little-endian),
    /// so that postings are written as they lie in memory.
    pub fn pack(&self) -> u128 {
        u128::from(self.key) << 64
            | u128::from(self.mv) << 48
            | u128::from(self.game) << 16
            | u128::from(self.ply)
    }

    /// The posting [`pack`](Posting::pack) made `n` of.
    pub fn unpack(n: u128) -> Posting {
        Posting {
            key: (n >> 64) as u64,
            mv: (n >> 48) as u16,
            game: (n >> 16) as u32,
            ply: n as u16,
        }
    }
}

impl Record for Posting {
    const SIZE: usize = 16;
    const MAGIC: &'static [u8; 8] = b"PKIXPOS\0";
    fn put(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.pack().to_le_bytes());
    }
    fn get(b: &[u8]) -> Posting {
        Posting::unpack(u128::from_le_bytes(b[..16].try_into().unwrap_or([0; 16])))
    }
}

/// Where a piece of a partition's postings lies in `.pos`: the postings whose keys share
/// their top [`PART_BITS`](crate::partition::PART_BITS) bits (the partition), in the order
/// the games were read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Piece {
    pub partition: u32,
    /// Postings it holds.
    pub len: u32,
    /// The number (among all of `.pos`) of its first posting.
    pub first: u64,
}

impl Record for Piece {
    const SIZE: usize = 16;
    const MAGIC: &'static [u8; 8] = b"PKIXPCS\0";
    fn put(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.partition.to_le_bytes());
        out.extend_from_slice(&self.len.to_le_bytes());
        out.extend_from_slice(&self.first.to_le_bytes());
    }
    fn get(b: &[u8]) -> Piece {
        Piece {
            partition: u32_at(b, 0),
            len: u32_at(b, 4),
            first: u64_at(b, 8),
        }
    }
}

/// A game: where it is and what the tree and its filters need.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct GameRecord {
    /// Byte offset of its first byte in its stream (the decoded text).
    pub offset: u64,
    /// Its number in its stream (1 for the first game, broken games counted).
    pub number: u64,
    /// Its source (an index into the manifest's sources).
    pub source: u32,
    /// `Date` as YYYYMMDD, unknown parts 0 (0: no date).
    pub date: u32,
    /// `WhiteElo`, 0 when unknown.
    pub white_elo: u16,
    /// `BlackElo`, 0 when unknown.
    pub black_elo: u16,
    /// 1 White won, 2 Black won, 3 draw, 0 unknown.
    pub result: u8,
    /// The speed class of its `TimeControl` ([`Speed`](crate::Speed) as a number).
    pub speed: u8,
    /// Plies of its main line.
    pub plies: u16,
    /// Where its player names are in the names file.
    pub names_offset: u64,
    /// Their length.
    pub names_len: u32,
}

impl GameRecord {
    /// Where the game of a record's bytes is: its offset, number and source (the
    /// fields a search hands out, read without the rest).
    pub(crate) fn place(b: &[u8]) -> (u64, u64, u32) {
        (u64_at(b, 0), u64_at(b, 8), u32_at(b, 16))
    }
}

impl Record for GameRecord {
    const SIZE: usize = 48;
    const MAGIC: &'static [u8; 8] = b"PKIXGAM\0";
    fn put(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.offset.to_le_bytes());
        out.extend_from_slice(&self.number.to_le_bytes());
        out.extend_from_slice(&self.source.to_le_bytes());
        out.extend_from_slice(&self.date.to_le_bytes());
        out.extend_from_slice(&self.white_elo.to_le_bytes());
        out.extend_from_slice(&self.black_elo.to_le_bytes());
        out.extend_from_slice(&[self.result, self.speed]);
        out.extend_from_slice(&self.plies.to_le_bytes());
        out.extend_from_slice(&self.names_offset.to_le_bytes());
        out.extend_from_slice(&self.names_len.to_le_bytes());
        out.extend_from_slice(&[0; 4]);
    }
    fn get(b: &[u8]) -> GameRecord {
        GameRecord {
            offset: u64_at(b, 0),
            number: u64_at(b, 8),
            source: u32_at(b, 16),
            date: u32_at(b, 20),
            white_elo: u16_at(b, 24),
            black_elo: u16_at(b, 26),
            result: b[28],
            speed: b[29],
            plies: u16_at(b, 30),
            names_offset: u64_at(b, 32),
            names_len: u32_at(b, 40),
        }
    }
}

/// Bytes of records a [`RecordWriter`] gathers before it writes them: one
/// write of a block, not one small copy a record.
const WRITE_CHUNK: usize = 1 << 16;

/// The header of a file of `R` records: magic, format version, record size,
/// 4 bytes reserved.
pub(crate) fn header<R: Record>() -> [u8; HEADER as usize] {
    let mut header = [0u8; HEADER as usize];
    header[..8].copy_from_slice(R::MAGIC);
    header[8..12].copy_from_slice(&VERSION.to_le_bytes());
    header[12..].copy_from_slice(&(R::SIZE as u32).to_le_bytes());
    header
}

/// Writes records of one type to a file, header first.
pub(crate) struct RecordWriter<R: Record> {
    out: BufWriter<File>,
    path: PathBuf,
    buf: Vec<u8>,
    pub count: u64,
    _record: std::marker::PhantomData<R>,
}

impl<R: Record> RecordWriter<R> {
    pub fn create(path: &Path) -> Result<RecordWriter<R>, IndexError> {
        let file = File::create(path).map_err(|e| IndexError::io(path, e))?;
        let mut out = BufWriter::with_capacity(1 << 16, file);
        out.write_all(&header::<R>())
            .map_err(|e| IndexError::io(path, e))?;
        Ok(RecordWriter {
            out,
            path: path.to_path_buf(),
            buf: Vec::with_capacity(WRITE_CHUNK),
            count: 0,
            _record: std::marker::PhantomData,
        })
    }

    pub fn push(&mut self, record: &R) -> Result<(), IndexError> {
        record.put(&mut self.buf);
        self.count += 1;
        if self.buf.len() + R::SIZE > WRITE_CHUNK {
            self.out
                .write_all(&self.buf)
                .map_err(|e| IndexError::io(&self.path, e))?;
            self.buf.clear();
        }
        Ok(())
    }

    /// Flushes and syncs the file; returns the number of records.
    pub fn finish(mut self) -> Result<u64, IndexError> {
        let path = self.path;
        self.out
            .write_all(&self.buf)
            .map_err(|e| IndexError::io(&path, e))?;
        let file = self
            .out
            .into_inner()
            .map_err(|e| IndexError::io(&path, e.into_error()))?;
        file.sync_all().map_err(|e| IndexError::io(&path, e))?;
        Ok(self.count)
    }
}

/// A file of records opened for reading, its header and length checked.
#[derive(Debug)]
pub(crate) struct RecordFile<R: Record> {
    file: File,
    pub path: PathBuf,
    pub len: u64,
    _record: std::marker::PhantomData<R>,
}

impl<R: Record> RecordFile<R> {
    /// Opens `path`, which the manifest says holds `expected` records.
    pub fn open(path: &Path, expected: u64) -> Result<RecordFile<R>, IndexError> {
        let file = File::open(path).map_err(|e| IndexError::io(path, e))?;
        let size = file.metadata().map_err(|e| IndexError::io(path, e))?.len();
        if size < HEADER {
            return Err(IndexError::corrupt(
                path,
                format!("truncated: {size} bytes, shorter than its {HEADER}-byte header"),
            ));
        }
        let mut header = [0u8; HEADER as usize];
        read_exact_at(&file, &mut header, 0).map_err(|e| IndexError::io(path, e))?;
        if &header[..8] != R::MAGIC {
            return Err(IndexError::corrupt(
                path,
                format!(
                    "not a {} file of a pgnkit index (wrong magic bytes)",
                    String::from_utf8_lossy(&R::MAGIC[..7])
                ),
            ));
        }
        let version = u32_at(&header, 8);
        if version != VERSION {
            return Err(IndexError::corrupt(
                path,
                format!("format version {version} where the manifest says {VERSION}"),
            ));
        }
        if u32_at(&header, 12) as usize != R::SIZE {
            return Err(IndexError::corrupt(path, "wrong record size in its header"));
        }
        let body = size - HEADER;
        let want = expected.saturating_mul(R::SIZE as u64);
        if body != want {
            let what = if body < want { "truncated" } else { "too long" };
            return Err(IndexError::corrupt(
                path,
                format!(
                    "{what}: {} bytes of records where the manifest says {expected} records of {} bytes ({want} bytes)",
                    body,
                    R::SIZE
                ),
            ));
        }
        Ok(RecordFile {
            file,
            path: path.to_path_buf(),
            len: expected,
            _record: std::marker::PhantomData,
        })
    }

    /// Records `start..end`, each mapped by `f` as it is decoded.
    pub fn read_map<T>(
        &self,
        start: u64,
        end: u64,
        f: impl FnMut(R) -> T,
    ) -> Result<Vec<T>, IndexError> {
        // Read in chunks into one small buffer: a common position has hundreds of
        // thousands of postings, and a buffer of all their bytes would only be copied.
        const CHUNK: u64 = 4096;
        let mut f = f;
        let mut out = Vec::with_capacity(end.saturating_sub(start) as usize);
        let mut bytes = Vec::new();
        let mut at = start;
        while at < end {
            let to = end.min(at + CHUNK);
            let chunk = self.read_bytes(at, to, &mut bytes)?;
            out.extend(chunk.chunks_exact(R::SIZE).map(R::get).map(&mut f));
            at = to;
        }
        Ok(out)
    }

    /// The bytes of records `start..end`, read into `buffer` (grown as needed and
    /// kept, so that reading run after run zeroes no memory twice).
    pub fn read_bytes<'b>(
        &self,
        start: u64,
        end: u64,
        buffer: &'b mut Vec<u8>,
    ) -> Result<&'b [u8], IndexError> {
        let n = end.saturating_sub(start) as usize * R::SIZE;
        if buffer.len() < n {
            buffer.resize(n, 0);
        }
        let bytes = &mut buffer[..n];
        read_exact_at(&self.file, bytes, HEADER + start * R::SIZE as u64)
            .map_err(|e| IndexError::io(&self.path, e))?;
        Ok(bytes)
    }

    /// Record `i`.
    pub fn get(&self, i: u64) -> Result<R, IndexError> {
        let mut bytes = [0u8; 64];
        let bytes = &mut bytes[..R::SIZE];
        read_exact_at(&self.file, bytes, HEADER + i * R::SIZE as u64)
            .map_err(|e| IndexError::io(&self.path, e))?;
        Ok(R::get(bytes))
    }

    /// The first record whose `key(record)` is not below `target` (binary search).
    pub fn lower_bound(&self, target: u64, key: impl Fn(&R) -> u64) -> Result<u64, IndexError> {
        self.lower_bound_in(0, self.len, target, key)
    }

    /// [`lower_bound`](RecordFile::lower_bound) among records `lo..hi`, sorted by
    /// `key(record)` there (`hi` when every one is below `target`).
    pub fn lower_bound_in(
        &self,
        lo: u64,
        hi: u64,
        target: u64,
        key: impl Fn(&R) -> u64,
    ) -> Result<u64, IndexError> {
        let (mut lo, mut hi) = (lo, hi);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if key(&self.get(mid)?) < target {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        Ok(lo)
    }
}

/// Reads `buf.len()` bytes at `offset`.
pub(crate) fn read_exact_at(file: &File, buf: &mut [u8], offset: u64) -> io::Result<()> {
    #[cfg(unix)]
    {
        std::os::unix::fs::FileExt::read_exact_at(file, buf, offset)
    }
    #[cfg(windows)]
    {
        // Positioned: threads read their own parts of one file at once.
        let (mut buf, mut offset) = (buf, offset);
        while !buf.is_empty() {
            match std::os::windows::fs::FileExt::seek_read(file, buf, offset) {
                Ok(0) => return Err(io::ErrorKind::UnexpectedEof.into()),
                Ok(n) => {
                    buf = &mut buf[n..];
                    offset += n as u64;
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }
    #[cfg(not(any(unix, windows)))]
    {
        use std::io::{Read, Seek, SeekFrom};
        let mut file = file;
        file.seek(SeekFrom::Start(offset))?;
        file.read_exact(buf)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_round_trip() {
        let p = Posting {
            key: 0x0123_4567_89ab_cdef,
            mv: 77,
            game: 9,
            ply: 3,
        };
        let mut out = Vec::new();
        p.put(&mut out);
        assert_eq!(out.len(), Posting::SIZE);
        assert_eq!(Posting::get(&out), p);
        let g = GameRecord {
            offset: 5,
            number: 6,
            source: 1,
            date: 20200102,
            white_elo: 2000,
            black_elo: 2100,
            result: 3,
            speed: 2,
            plies: 80,
            names_offset: 100,
            names_len: 12,
        };
        out.clear();
        g.put(&mut out);
        assert_eq!(out.len(), GameRecord::SIZE);
        assert_eq!(GameRecord::get(&out), g);
        assert_eq!(GameRecord::place(&out), (5, 6, 1));
        let piece = Piece {
            partition: 1023,
            len: 1024,
            first: 1 << 40,
        };
        out.clear();
        piece.put(&mut out);
        assert_eq!(out.len(), Piece::SIZE);
        assert_eq!(Piece::get(&out), piece);
    }
}
