//! The postings of a build that outgrew its buffer, on disk in one spill
//! file by partition (the top bits of their packed form,
//! [`pack`](crate::sort::pack)), and read back sorted, partition after
//! partition.
//!
//! Each time the buffer fills, its postings are gathered by their top
//! [`PART_BITS`] bits (one pass, no sort: the reading stops for less time
//! than a sort would take) and appended to the spill file on a thread of
//! its own, 64 KiB of one partition at a time; where each piece went is
//! kept in memory ([`Store`]). One file, not one a partition: a file
//! created and removed costs the kernel more than its pieces' writes, and
//! the pieces are written from the gathered postings with no copy through
//! a file buffer. At the end each partition is read back, sorted in memory
//! and handed on in key order: as the keys are random (Zobrist), the
//! partitions are about equal and small, and no k-way merge of runs is
//! needed. A partition larger than its share of the memory
//! ([`feed_part`]'s `limit`) is split again by its next bits into a spill
//! file of its own, as often as needed (the postings of one position, the
//! start position's in a large database, end up split by game).

use std::fs::{self, File};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread::JoinHandle;

use zerocopy::IntoBytes;

use crate::error::IndexError;
use crate::record::read_exact_at;
use crate::sort::sort_part;

/// Bits of the packed postings that choose a partition: 128 partitions.
pub(crate) const PART_BITS: u32 = 7;

/// Partitions (and sub-partitions of a partition split again).
pub(crate) const PARTS: usize = 1 << PART_BITS;

/// Postings gathered for a partition at most before they are written as
/// one piece (64 KiB; 8 MiB for all): writes of 64 KiB cost the kernel
/// least here ([`crate::sorted_write`]'s `PIECE` says why not larger).
const STAGE: usize = 1 << 12;

/// The spill of a build: its store (made by the first spill), and the
/// spill being written to it on a thread of its own.
pub(crate) struct Partitions {
    path: PathBuf,
    /// The spill file and its pieces (`None` while a spill's thread has
    /// it, and before the first spill).
    store: Option<Store>,
    /// Times the buffer was spilled.
    pub spills: u64,
    /// The last spill's writer; it gives back the buffer (emptied, to be
    /// filled again) and the store.
    writing: Option<JoinHandle<Spilled>>,
}

/// What a spill's thread gives back.
type Spilled = Result<(Vec<u128>, Store), IndexError>;

impl Partitions {
    /// The spill of segment `stem` in `dir` (no file made yet).
    pub fn new(dir: &Path, stem: &str) -> Partitions {
        Partitions {
            path: dir.join(format!("{stem}.spill")),
            store: None,
            spills: 0,
            writing: None,
        }
    }

    /// Starts appending the postings of `buffer` to the spill file by
    /// partition, on a thread of its own; `buffer` gets the spill before's
    /// buffer back, empty, once that spill is written (its error is this
    /// one's), or a new one, empty, for the first spill. The reading goes
    /// on while a spill is written: two buffers, as a sort and its second
    /// buffer would take.
    pub fn spill(&mut self, buffer: &mut Vec<u128>) -> Result<(), IndexError> {
        let mut next = Vec::new();
        self.wait(&mut next)?;
        next.clear();
        if self.spills == 0 {
            self.store = Some(Store::create(&self.path)?);
            next = Vec::with_capacity(buffer.capacity());
        }
        let Some(mut store) = self.store.take() else {
            return Err(IndexError::corrupt(&self.path, "a spill without its file"));
        };
        let full = std::mem::replace(buffer, next);
        self.spills += 1;
        self.writing = Some(std::thread::spawn(move || {
            store.append(&full, 128 - PART_BITS)?;
            store.flush()?;
            Ok((full, store))
        }));
        Ok(())
    }

    /// Waits for the spill being written, if any; its buffer becomes
    /// `back`, still holding the spilled postings (to be overwritten: no
    /// pass to clear them).
    pub fn wait(&mut self, back: &mut Vec<u128>) -> Result<(), IndexError> {
        if let Some(writing) = self.writing.take() {
            let (buffer, store) = writing
                .join()
                .unwrap_or_else(|e| std::panic::resume_unwind(e))?;
            *back = buffer;
            self.store = Some(store);
        }
        Ok(())
    }

    /// The spilled postings, once [`Partitions::wait`] or
    /// [`Partitions::finish`] has them back; `None` before the first
    /// spill.
    pub fn store(&self) -> Option<&Store> {
        self.store.as_ref()
    }

    /// Waits for the spill being written, if any (its buffer becomes
    /// `back`, as [`Partitions::wait`] gives it): the spill file is then
    /// written.
    pub fn finish(&mut self, back: &mut Vec<u128>) -> Result<(), IndexError> {
        self.wait(back)
    }

    /// Waits for the spill being written and removes the spill file.
    pub fn remove(&mut self) {
        let _ = self.wait(&mut Vec::new());
        self.store = None;
        if self.spills > 0 {
            let _ = fs::remove_file(&self.path);
        }
    }
}

/// A piece of a partition in a spill file.
#[derive(Debug, Clone, Copy)]
struct Piece {
    /// Where it starts in the file.
    at: u64,
    /// Postings it holds ([`STAGE`] at most).
    len: usize,
}

/// A spill file: the postings of each partition in pieces of
/// [`STAGE`] postings at most, where each piece is, and the postings
/// gathered for each partition before they are written.
pub(crate) struct Store {
    path: PathBuf,
    file: File,
    /// The file's length so far.
    end: u64,
    /// Each partition's pieces, in the order written.
    pieces: Vec<Vec<Piece>>,
    /// Postings gathered for each partition ([`STAGE`] places each; zero
    /// pages until used), written as they lie in memory (little-endian
    /// already on most machines).
    stage: Vec<u128>,
    /// Postings gathered for each partition.
    fill: Vec<usize>,
    /// Partitions not read back yet ([`feed_part`]): the last one read
    /// empties the file, freeing its pages on the thread that read it
    /// while the others still sort, not serially at the end of the build.
    unread: AtomicUsize,
}

impl Store {
    /// An empty store in a new file at `path` (emptied if there), open to
    /// write and read back.
    fn create(path: &Path) -> Result<Store, IndexError> {
        let file = File::options()
            .read(true)
            .write(true)
            .create(true)
            .truncate(true)
            .open(path)
            .map_err(|e| IndexError::io(path, e))?;
        Ok(Store {
            path: path.to_path_buf(),
            file,
            end: 0,
            pieces: vec![Vec::new(); PARTS],
            stage: vec![0; PARTS * STAGE],
            fill: vec![0; PARTS],
            unread: AtomicUsize::new(PARTS),
        })
    }

    /// Gathers each posting of `postings` for its partition (its
    /// [`PART_BITS`] bits from `shift` up), writing the pieces that fill.
    fn append(&mut self, postings: &[u128], shift: u32) -> Result<(), IndexError> {
        for &p in postings {
            let i = (p >> shift) as usize & (PARTS - 1);
            let f = self.fill[i];
            self.stage[i * STAGE + f] = p;
            if f + 1 == STAGE {
                self.write(i, STAGE)?;
            } else {
                self.fill[i] = f + 1;
            }
        }
        Ok(())
    }

    /// Writes the `n` postings gathered for partition `i` as a piece.
    fn write(&mut self, i: usize, n: usize) -> Result<(), IndexError> {
        let gathered = &mut self.stage[i * STAGE..i * STAGE + n];
        for p in gathered.iter_mut() {
            // Nothing to do on a little-endian machine.
            *p = p.to_le();
        }
        self.fill[i] = 0;
        (&self.file)
            .write_all(gathered.as_bytes())
            .map_err(|e| IndexError::io(&self.path, e))?;
        self.pieces[i].push(Piece {
            at: self.end,
            len: n,
        });
        self.end += (n * 16) as u64;
        Ok(())
    }

    /// Writes what is gathered.
    fn flush(&mut self) -> Result<(), IndexError> {
        for i in 0..PARTS {
            if self.fill[i] > 0 {
                self.write(i, self.fill[i])?;
            }
        }
        Ok(())
    }

    /// The postings of partition `i` in the file.
    pub fn count(&self, i: usize) -> u64 {
        self.pieces[i].iter().map(|p| p.len as u64).sum()
    }

    /// Reads the postings of partition `i`, exactly as many as `into`
    /// holds ([`Store::count`]), straight into its memory, in the order
    /// they were appended.
    fn read(&self, i: usize, into: &mut [u128]) -> Result<(), IndexError> {
        let mut rest = &mut into[..];
        for piece in &self.pieces[i] {
            if rest.len() < piece.len {
                return Err(self.changed());
            }
            let (now, later) = rest.split_at_mut(piece.len);
            self.read_piece(piece, now)?;
            rest = later;
        }
        if !rest.is_empty() {
            return Err(self.changed());
        }
        Ok(())
    }

    /// Reads `piece` into `into` (as long).
    fn read_piece(&self, piece: &Piece, into: &mut [u128]) -> Result<(), IndexError> {
        read_exact_at(&self.file, into.as_mut_bytes(), piece.at)
            .map_err(|e| IndexError::io(&self.path, e))?;
        for p in into {
            // Nothing to do on a little-endian machine.
            *p = u128::from_le(*p);
        }
        Ok(())
    }

    /// Notes that a partition has been read back; the last one empties
    /// the file (the pages, not the name: [`Partitions::remove`] removes
    /// it).
    fn read_back(&self) {
        if self.unread.fetch_sub(1, Ordering::AcqRel) == 1 {
            // Freeing the pages early only: the file is removed anyway.
            let _ = self.file.set_len(0);
        }
    }

    fn changed(&self) -> IndexError {
        IndexError::corrupt(&self.path, "a spill file changed while it was read back")
    }
}

/// The room a partition is read and sorted in, kept from one partition to
/// the next (no new memory to fault in for each).
#[derive(Default)]
pub(crate) struct SortSpace {
    postings: Vec<u128>,
    scratch: Vec<u128>,
}

/// Hands the postings of partition `i` of `store` and of each of `extra`
/// (the partition's postings in memory), which agree on the bits from `high`
/// up, sorted, to `sink`: at once when there are at most `limit` of them,
/// or else split by their next [`PART_BITS`] bits into a spill file of
/// their own, each sub-partition handed on in turn (the file removed
/// after). `false` when `sink` said stop; `sink`'s errors are returned.
pub(crate) fn feed_part(
    store: &Store,
    i: usize,
    extra: &[&[u128]],
    high: u32,
    limit: usize,
    space: &mut SortSpace,
    sink: &mut dyn FnMut(&[u128]) -> Result<bool, IndexError>,
) -> Result<bool, IndexError> {
    let on_disk = usize::try_from(store.count(i)).map_err(|_| too_large(&store.path))?;
    let count = on_disk + extra.iter().map(|e| e.len()).sum::<usize>();
    if count == 0 {
        store.read_back();
        return Ok(true);
    }
    if count <= limit || high < PART_BITS {
        let postings = &mut space.postings;
        // Sized, not cleared: what the partition before left is overwritten.
        postings.resize(count, 0);
        let (read, mut rest) = postings.split_at_mut(on_disk);
        store.read(i, read)?;
        store.read_back();
        for e in extra {
            let (now, later) = rest.split_at_mut(e.len());
            now.copy_from_slice(e);
            rest = later;
        }
        sort_part(postings, &mut space.scratch, high);
        return sink(postings);
    }
    let shift = high - PART_BITS;
    let mut name = store.path.as_os_str().to_owned();
    name.push(format!(".{i}"));
    let sub_path = PathBuf::from(name);
    let result = (|| {
        let mut sub = Store::create(&sub_path)?;
        let mut chunk = vec![0u128; STAGE];
        for piece in &store.pieces[i] {
            let now = chunk.get_mut(..piece.len).ok_or_else(|| store.changed())?;
            store.read_piece(piece, now)?;
            sub.append(now, shift)?;
        }
        store.read_back();
        for e in extra {
            sub.append(e, shift)?;
        }
        sub.flush()?;
        for j in 0..PARTS {
            if !feed_part(&sub, j, &[], shift, limit, space, sink)? {
                return Ok(false);
            }
        }
        Ok(true)
    })();
    let _ = fs::remove_file(&sub_path);
    result
}

fn too_large(path: &Path) -> IndexError {
    IndexError::corrupt(path, "a partition too large for this machine's memory")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// All the postings of a partition, read back.
    fn read_all(store: &Store, i: usize) -> Vec<u128> {
        let mut got = vec![0; store.count(i) as usize];
        store.read(i, &mut got).unwrap();
        got
    }

    /// Postings appended to a store come out of each partition in their
    /// order, whatever how many a partition gathers (none, fewer than a
    /// stage, a stage and one, a stage less one, two stages), across
    /// appends and flushes.
    #[test]
    fn appended_postings_keep_their_order_in_each_partition() {
        let dir = std::env::temp_dir().join(format!("pgnkit-append-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        let mut store = Store::create(&dir.join("seg-0.spill")).unwrap();
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
        store.append(a, 128 - PART_BITS).unwrap();
        store.flush().unwrap();
        store.append(b, 128 - PART_BITS).unwrap();
        store.flush().unwrap();
        let bytes = fs::metadata(dir.join("seg-0.spill")).unwrap().len();
        assert_eq!(bytes, postings.len() as u64 * 16);
        for i in 0..PARTS {
            let got = read_all(&store, i);
            let expected: Vec<u128> = postings
                .iter()
                .copied()
                .filter(|p| (p >> (128 - PART_BITS)) as usize == i)
                .collect();
            assert_eq!(got.len(), sizes(i));
            assert!(got == expected, "partition {i}");
        }
        drop(store);
        fs::remove_dir_all(&dir).unwrap();
    }

    /// Feeds one partition (on disk and postings in memory) with a limit
    /// small enough to split it twice, most postings sharing one key (the
    /// start position's in a large database): every posting comes out
    /// once, in order, and the sub-partitions' files are gone.
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
        let mut store = Store::create(&dir.join("seg-0.spill")).unwrap();
        store.append(on_disk, 128 - PART_BITS).unwrap();
        store.flush().unwrap();
        assert_eq!(store.count(5), 20_000);

        let mut chunks: Vec<Vec<u128>> = Vec::new();
        let mut space = SortSpace::default();
        let mut sink = |sorted: &[u128]| {
            chunks.push(sorted.to_vec());
            Ok(true)
        };
        assert!(
            feed_part(
                &store,
                5,
                &[extra],
                128 - PART_BITS,
                1000,
                &mut space,
                &mut sink
            )
            .unwrap()
        );
        assert!(chunks.len() > 2, "split into {} chunks", chunks.len());
        assert!(chunks.iter().all(|c| c.len() <= 1000));
        let all: Vec<u128> = chunks.concat();
        let mut expected = postings.clone();
        expected.sort_unstable();
        assert!(all == expected);
        let left: Vec<_> = fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(left, ["seg-0.spill"]);
        drop(store);
        fs::remove_dir_all(&dir).unwrap();
    }

    /// Once every partition has been fed, the spill file is emptied (its
    /// pages freed); not before.
    #[test]
    fn the_spill_file_is_emptied_when_every_partition_is_read() {
        let dir = std::env::temp_dir().join(format!("pgnkit-emptied-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("seg-0.spill");
        let mut store = Store::create(&path).unwrap();
        // Partition 3 gets none.
        let postings: Vec<u128> = (0..10_000u128)
            .filter(|i| i % PARTS as u128 != 3)
            .map(|i| (i % PARTS as u128) << (128 - PART_BITS) | i)
            .collect();
        store.append(&postings, 128 - PART_BITS).unwrap();
        store.flush().unwrap();
        let mut space = SortSpace::default();
        let mut fed = 0;
        let mut sink = |sorted: &[u128]| {
            fed += sorted.len();
            Ok(true)
        };
        for i in 0..PARTS {
            assert_eq!(
                fs::metadata(&path).unwrap().len(),
                postings.len() as u64 * 16
            );
            feed_part(
                &store,
                i,
                &[],
                128 - PART_BITS,
                1 << 20,
                &mut space,
                &mut sink,
            )
            .unwrap();
        }
        assert_eq!(fed, postings.len());
        assert_eq!(fs::metadata(&path).unwrap().len(), 0);
        drop(store);
        fs::remove_dir_all(&dir).unwrap();
    }
}
