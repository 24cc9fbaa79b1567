//! The postings of a build that outgrew its buffer, on disk in partition
//! files by the top bits of their packed form ([`pack`](crate::sort::pack)), and
//! read back sorted, partition after partition.
//!
//! Each time the buffer fills, its postings are distributed by their top
//! [`PART_BITS`] bits (one pass, no sort: the reading stops for less time
//! than a sort would take) and appended to the partition files on a thread
//! of its own. At the end each partition is read back, sorted in memory and
//! handed on in key order: as the keys are random (Zobrist), the
//! partitions are about equal and small, and no k-way merge of runs is
//! needed. A partition larger than its share of the memory
//! ([`feed_part`]'s `limit`) is split again by its next bits into files of
//! its own, as often as needed (the postings of one position, the start
//! position's in a large database, end up split by game).

use std::fs::{self, File};
use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::thread::JoinHandle;

use zerocopy::IntoBytes;

use crate::error::IndexError;
use crate::sort::sort_part;

/// Bits of the packed postings that choose a partition: 128 partitions.
pub(crate) const PART_BITS: u32 = 7;

/// Partitions (and sub-partitions of a partition split again).
const PARTS: usize = 1 << PART_BITS;

/// Postings encoded or decoded at a time.
const CHUNK: usize = 4096;

/// The partition files of a build, and the spill being written to them on
/// a thread of its own.
pub(crate) struct Partitions {
    paths: Vec<PathBuf>,
    /// Open for appending once the first spill made them (empty while a
    /// spill's thread has them).
    files: Vec<BufWriter<File>>,
    /// Times the buffer was spilled.
    pub spills: u64,
    /// The last spill's writer; it gives back the buffer (emptied, to be
    /// filled again) and the files.
    writing: Option<JoinHandle<Spilled>>,
}

/// What a spill's thread gives back.
type Spilled = Result<(Vec<u128>, Vec<BufWriter<File>>), IndexError>;

impl Partitions {
    /// The partitions of segment `stem` in `dir` (no file made yet).
    pub fn new(dir: &Path, stem: &str) -> Partitions {
        Partitions {
            paths: (0..PARTS)
                .map(|i| dir.join(format!("{stem}.part-{i}")))
                .collect(),
            files: Vec::new(),
            spills: 0,
            writing: None,
        }
    }

    /// Starts appending the postings of `buffer` to the partition files by
    /// their top bits, on a thread of its own; `buffer` gets the spill
    /// before's buffer back, empty, once that spill is written (its error
    /// is this one's), or a new one, empty, for the first spill. The
    /// reading goes on while a spill is written: two buffers, as a sort
    /// and its second buffer would take.
    pub fn spill(&mut self, buffer: &mut Vec<u128>) -> Result<(), IndexError> {
        let mut next = Vec::new();
        self.wait(&mut next)?;
        next.clear();
        if self.spills == 0 {
            self.files = create_all(&self.paths)?;
            next = Vec::with_capacity(buffer.capacity());
        }
        let full = std::mem::replace(buffer, next);
        let files = std::mem::take(&mut self.files);
        let paths = self.paths.clone();
        self.spills += 1;
        self.writing = Some(std::thread::spawn(move || write_parts(full, files, &paths)));
        Ok(())
    }

    /// Waits for the spill being written, if any; its buffer becomes
    /// `back`, still holding the spilled postings (to be overwritten: no
    /// pass to clear them).
    pub fn wait(&mut self, back: &mut Vec<u128>) -> Result<(), IndexError> {
        if let Some(writing) = self.writing.take() {
            let (buffer, files) = writing
                .join()
                .unwrap_or_else(|e| std::panic::resume_unwind(e))?;
            *back = buffer;
            self.files = files;
        }
        Ok(())
    }

    /// The partition files, in key order.
    pub fn paths(&self) -> &[PathBuf] {
        &self.paths
    }

    /// Waits for the spill being written, if any (its buffer becomes
    /// `back`, as [`Partitions::wait`] gives it), and closes the files:
    /// they are written. A file read back and removed then frees its pages
    /// at once (while open, its pages would be freed at the end).
    pub fn finish(&mut self, back: &mut Vec<u128>) -> Result<(), IndexError> {
        self.wait(back)?;
        self.files.clear();
        Ok(())
    }

    /// Waits for the spill being written and removes every partition file
    /// left (each one read back is removed then, [`feed_part`]).
    pub fn remove(&mut self) {
        let _ = self.wait(&mut Vec::new());
        self.files.clear();
        if self.spills > 0 {
            for path in &self.paths {
                let _ = fs::remove_file(path);
            }
        }
    }
}

/// Appends each posting of `full` to the file of its partition (its top
/// [`PART_BITS`] bits) as a 16-byte little-endian number, through the
/// files' buffers (64 KiB each: the writes stay in cache), which are
/// flushed at the end; gives the buffer and the files back.
fn write_parts(full: Vec<u128>, mut files: Vec<BufWriter<File>>, paths: &[PathBuf]) -> Spilled {
    append_by_bits(&full, 128 - PART_BITS, &mut files, paths)?;
    flush_all(&mut files, paths)?;
    Ok((full, files))
}

/// A file for each of `paths` (created, or emptied), written through a
/// 64 KiB buffer.
fn create_all(paths: &[PathBuf]) -> Result<Vec<BufWriter<File>>, IndexError> {
    paths
        .iter()
        .map(|path| {
            let file = File::create(path).map_err(|e| IndexError::io(path, e))?;
            Ok(BufWriter::with_capacity(1 << 16, file))
        })
        .collect()
}

/// Appends each posting of `postings` to the file of its partition, its
/// [`PART_BITS`] bits from `shift` up, as a 16-byte little-endian number.
fn append_by_bits(
    postings: &[u128],
    shift: u32,
    files: &mut [BufWriter<File>],
    paths: &[PathBuf],
) -> Result<(), IndexError> {
    let mut stage = Stage::new();
    stage.append(postings, shift, files, paths)?;
    stage.finish(files, paths)
}

/// Postings gathered for each partition ([`STAGE`] at most) before they go
/// to its file's buffer, a few KiB at a time: a copy a posting into its
/// partition's place here costs a third of a buffered write of it. The
/// gathered postings are written as they lie in memory (little-endian
/// already on most machines): no copy to bytes first.
struct Stage {
    postings: Vec<u128>,
    /// Postings gathered for each partition.
    fill: [usize; PARTS],
}

/// Postings gathered for a partition at most (4 KiB; 512 KiB for all).
const STAGE: usize = 256;

impl Stage {
    fn new() -> Stage {
        Stage {
            postings: vec![0; PARTS * STAGE],
            fill: [0; PARTS],
        }
    }

    /// Gathers each posting of `postings` for its partition (its
    /// [`PART_BITS`] bits from `shift` up), writing those of a partition
    /// whose place is full.
    fn append(
        &mut self,
        postings: &[u128],
        shift: u32,
        files: &mut [BufWriter<File>],
        paths: &[PathBuf],
    ) -> Result<(), IndexError> {
        for &p in postings {
            let i = (p >> shift) as usize & (PARTS - 1);
            let f = self.fill[i];
            self.postings[i * STAGE + f] = p;
            if f + 1 == STAGE {
                self.write(i, STAGE, files, paths)?;
            } else {
                self.fill[i] = f + 1;
            }
        }
        Ok(())
    }

    /// Writes the `n` postings gathered for partition `i`.
    fn write(
        &mut self,
        i: usize,
        n: usize,
        files: &mut [BufWriter<File>],
        paths: &[PathBuf],
    ) -> Result<(), IndexError> {
        let gathered = &mut self.postings[i * STAGE..i * STAGE + n];
        for p in gathered.iter_mut() {
            // Nothing to do on a little-endian machine.
            *p = p.to_le();
        }
        self.fill[i] = 0;
        files[i]
            .write_all(gathered.as_bytes())
            .map_err(|e| IndexError::io(&paths[i], e))
    }

    /// Writes what is gathered.
    fn finish(
        &mut self,
        files: &mut [BufWriter<File>],
        paths: &[PathBuf],
    ) -> Result<(), IndexError> {
        for i in 0..PARTS {
            if self.fill[i] > 0 {
                self.write(i, self.fill[i], files, paths)?;
            }
        }
        Ok(())
    }
}

/// Flushes the buffer of each of `files`.
fn flush_all(files: &mut [BufWriter<File>], paths: &[PathBuf]) -> Result<(), IndexError> {
    for (file, path) in files.iter_mut().zip(paths) {
        file.flush().map_err(|e| IndexError::io(path, e))?;
    }
    Ok(())
}

/// The room a partition is read and sorted in, kept from one partition to
/// the next (no new memory to fault in for each).
#[derive(Default)]
pub(crate) struct SortSpace {
    postings: Vec<u128>,
    scratch: Vec<u128>,
}

/// Reads the packed postings of the file `path` into `into` (appended).
#[cfg(test)]
fn read_postings(path: &Path, into: &mut Vec<u128>) -> Result<(), IndexError> {
    let mut file = File::open(path).map_err(|e| IndexError::io(path, e))?;
    let mut bytes = vec![0u8; CHUNK * 16];
    while read_chunk(&mut file, path, &mut bytes, into)? {}
    Ok(())
}

/// Reads the next postings of `file` (at most `bytes` long) into `into`
/// (appended); `false` at the end of the file.
fn read_chunk(
    file: &mut File,
    path: &Path,
    bytes: &mut [u8],
    into: &mut Vec<u128>,
) -> Result<bool, IndexError> {
    let n = read_full(file, bytes).map_err(|e| IndexError::io(path, e))?;
    if n % 16 != 0 {
        return Err(IndexError::corrupt(
            path,
            "a partition file ends inside a posting",
        ));
    }
    into.extend(
        bytes[..n]
            .chunks_exact(16)
            .map(|b| u128::from_le_bytes(b.try_into().unwrap_or_default())),
    );
    Ok(n > 0)
}

/// Hands the postings of the partition file `path` and `extra` (the
/// partition's postings in memory), which agree on the bits from `high`
/// up, sorted, to `sink`: at once when there are at most `limit` of them,
/// or else split by their next [`PART_BITS`] bits into files of their own,
/// each handed on in turn. `false` when `sink` said stop; `sink`'s
/// errors are returned. The file is removed once read (its pages freed,
/// on the thread that read it, while the others still sort: not one
/// partition after the other at the end of the build).
pub(crate) fn feed_part(
    path: &Path,
    extra: &[u128],
    high: u32,
    limit: usize,
    space: &mut SortSpace,
    sink: &mut dyn FnMut(&[u128]) -> Result<bool, IndexError>,
) -> Result<bool, IndexError> {
    let bytes = fs::metadata(path)
        .map_err(|e| IndexError::io(path, e))?
        .len();
    let count = bytes / 16 + extra.len() as u64;
    if count == 0 {
        let _ = fs::remove_file(path);
        return Ok(true);
    }
    if count <= limit as u64 || high < PART_BITS {
        if bytes % 16 != 0 {
            return Err(IndexError::corrupt(
                path,
                "a partition file ends inside a posting",
            ));
        }
        let on_disk = usize::try_from(bytes / 16).map_err(|_| too_large(path))?;
        let count = on_disk + extra.len();
        let postings = &mut space.postings;
        // Sized, not cleared: what the partition before left is overwritten.
        postings.resize(count, 0);
        let (read, rest) = postings.split_at_mut(on_disk);
        read_postings_into(path, read)?;
        let _ = fs::remove_file(path);
        rest.copy_from_slice(extra);
        sort_part(postings, &mut space.scratch, high);
        return sink(postings);
    }
    let shift = high - PART_BITS;
    let subs: Vec<PathBuf> = (0..PARTS)
        .map(|j| {
            let mut name = path.as_os_str().to_owned();
            name.push(format!(".{j}"));
            PathBuf::from(name)
        })
        .collect();
    let result = (|| {
        let mut outs = create_all(&subs)?;
        let mut file = File::open(path).map_err(|e| IndexError::io(path, e))?;
        let mut chunk = Vec::with_capacity(CHUNK);
        let mut bytes = vec![0u8; CHUNK * 16];
        let mut stage = Stage::new();
        loop {
            chunk.clear();
            if !read_chunk(&mut file, path, &mut bytes, &mut chunk)? {
                break;
            }
            stage.append(&chunk, shift, &mut outs, &subs)?;
        }
        drop(file);
        let _ = fs::remove_file(path);
        stage.append(extra, shift, &mut outs, &subs)?;
        stage.finish(&mut outs, &subs)?;
        flush_all(&mut outs, &subs)?;
        drop(outs);
        for sub in &subs {
            // `feed_part` removes `sub` once it is read.
            if !feed_part(sub, &[], shift, limit, space, sink)? {
                return Ok(false);
            }
        }
        Ok(true)
    })();
    for sub in &subs {
        let _ = fs::remove_file(sub);
    }
    result
}

/// Reads the packed postings of the file `path`, exactly as many as `into`
/// holds, straight into its memory.
fn read_postings_into(path: &Path, into: &mut [u128]) -> Result<(), IndexError> {
    let mut file = File::open(path).map_err(|e| IndexError::io(path, e))?;
    let bytes = into.as_mut_bytes();
    let n = read_full(&mut file, bytes).map_err(|e| IndexError::io(path, e))?;
    let more = read_full(&mut file, &mut [0u8; 1]).map_err(|e| IndexError::io(path, e))?;
    if n != bytes.len() || more != 0 {
        return Err(IndexError::corrupt(
            path,
            "a partition file changed while it was read back",
        ));
    }
    for p in into {
        // Nothing to do on a little-endian machine.
        *p = u128::from_le(*p);
    }
    Ok(())
}

fn too_large(path: &Path) -> IndexError {
    IndexError::corrupt(path, "a partition too large for this machine's memory")
}

/// Reads into `bytes` until it is full or the file ends; the bytes read.
fn read_full(file: &mut File, bytes: &mut [u8]) -> std::io::Result<usize> {
    let mut filled = 0;
    while filled < bytes.len() {
        match file.read(&mut bytes[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(filled)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Postings appended to partition files come out in each file in their
    /// order, whatever how many a partition gathers (none, fewer than a
    /// stage, a stage and one, a stage less one).
    #[test]
    fn appended_postings_keep_their_order_in_each_file() {
        let dir = std::env::temp_dir().join(format!("pgnkit-append-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        let paths: Vec<PathBuf> = (0..PARTS).map(|i| dir.join(format!("p-{i}"))).collect();
        let mut files = create_all(&paths).unwrap();
        let sizes = |i: usize| [0, 3, STAGE + 1, STAGE - 1, 2 * STAGE][i % 5];
        let mut postings = Vec::new();
        for round in 0..3 * STAGE {
            for i in 0..PARTS {
                if round < sizes(i) {
                    postings
                        .push((i as u128) << (128 - PART_BITS) | (round as u128) << 20 | i as u128);
                }
            }
        }
        let (a, b) = postings.split_at(postings.len() / 3);
        append_by_bits(a, 128 - PART_BITS, &mut files, &paths).unwrap();
        append_by_bits(b, 128 - PART_BITS, &mut files, &paths).unwrap();
        flush_all(&mut files, &paths).unwrap();
        drop(files);
        for (i, path) in paths.iter().enumerate() {
            let mut got = Vec::new();
            read_postings(path, &mut got).unwrap();
            let expected: Vec<u128> = postings
                .iter()
                .copied()
                .filter(|p| (p >> (128 - PART_BITS)) as usize == i)
                .collect();
            assert_eq!(got.len(), sizes(i));
            assert!(got == expected, "partition {i}");
        }
        fs::remove_dir_all(&dir).unwrap();
    }

    /// Feeds one partition file (and postings in memory) with a limit
    /// small enough to split it twice, most postings sharing one key (the
    /// start position's in a large database): every posting comes out
    /// once, in order, and the partition's files are gone.
    #[test]
    fn a_large_partition_is_split_and_comes_out_sorted() {
        let dir = std::env::temp_dir().join(format!("pgnkit-partition-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let postings: Vec<u128> = (0..30_000u128)
            .map(|i| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                // Two in three share one key and move: they differ in game and ply.
                let key = if i % 3 == 0 { x } else { 0x0123_4567_89ab_cdef };
                let key = key & (u64::MAX >> PART_BITS) | 5 << (64 - PART_BITS);
                u128::from(key) << 64 | 3 << 48 | (i / 40) << 16 | (i % 40)
            })
            .collect();
        let (on_disk, extra) = postings.split_at(20_000);
        let path = dir.join("seg-0.part-5");
        let bytes: Vec<u8> = on_disk.iter().flat_map(|p| p.to_le_bytes()).collect();
        fs::write(&path, bytes).unwrap();

        let mut chunks: Vec<Vec<u128>> = Vec::new();
        let mut space = SortSpace::default();
        let mut sink = |sorted: &[u128]| {
            chunks.push(sorted.to_vec());
            Ok(true)
        };
        assert!(feed_part(&path, extra, 128 - PART_BITS, 1000, &mut space, &mut sink).unwrap());
        assert!(chunks.len() > 2, "split into {} chunks", chunks.len());
        assert!(chunks.iter().all(|c| c.len() <= 1000));
        let all: Vec<u128> = chunks.concat();
        let mut expected = postings.clone();
        expected.sort_unstable();
        assert!(all == expected);
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 0);
        fs::remove_dir_all(&dir).unwrap();
    }
}
