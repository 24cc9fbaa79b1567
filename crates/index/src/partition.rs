//! A segment's postings written to its `.pos` by partition, the top
//! [`PART_BITS`] bits of their keys, and where each piece of a partition
//! went ([`Piece`], the segment's `.pieces`).
//!
//! Each time the build's buffer fills, its postings are gathered by
//! partition (one pass, no sort) and appended to `.pos`, 16 KiB of one
//! partition at a time, on a thread of its own while the reading goes on.
//! That is the index: nothing is read back, sorted or merged. A partition's
//! pieces lie in the order written, so each key's postings come in the
//! order the games were read (game, then ply). A lookup reads the pieces of
//! its key's partition (1/1024 of the segment's postings: Zobrist keys are
//! random, so the partitions are about equal) and keeps its key's. One
//! file, not one a partition: a file created and removed costs the kernel
//! more than its pieces' writes, and the pieces are written from the
//! gathered postings with no copy through a file buffer.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Sender, channel};
use std::thread::JoinHandle;

use zerocopy::IntoBytes;

use crate::error::IndexError;
use crate::record::{HEADER, Piece, Posting, Record, header};

/// Bits of the keys that choose a partition: 1024 partitions.
pub(crate) const PART_BITS: u32 = 10;

/// Partitions.
pub(crate) const PARTS: usize = 1 << PART_BITS;

/// Postings gathered for a partition at most before they are written as
/// one piece (16 KiB; 16 MiB for all).
const STAGE: usize = 1 << 10;

/// The partition of a posting whose key is `key`.
pub(crate) fn partition(key: u64) -> u32 {
    (key >> (64 - PART_BITS)) as u32
}

/// The postings of a build being written: the store (made by the first
/// write), and the buffer being written to it on a thread of its own.
pub(crate) struct Partitions {
    path: PathBuf,
    /// The postings file and its pieces (`None` while a write's thread has
    /// it, and before the first write).
    store: Option<Store>,
    /// Times a buffer was written.
    pub writes: u64,
    /// The last write's thread; it gives back the buffer (emptied, to be
    /// filled again) and the store.
    writing: Option<JoinHandle<Written>>,
    /// The thread that syncs `.pos` as buffers are written, and how to ask it.
    syncing: Option<(Sender<()>, JoinHandle<Synced>)>,
}

/// What a write's thread gives back.
type Written = Result<(Vec<u128>, Store), IndexError>;

/// What the syncer's thread ends with: its first error.
type Synced = Result<(), IndexError>;

impl Partitions {
    /// The postings of segment `stem` in `dir` (no file made yet).
    pub fn new(dir: &Path, stem: &str) -> Partitions {
        Partitions {
            path: dir.join(format!("{stem}.pos")),
            store: None,
            writes: 0,
            writing: None,
            syncing: None,
        }
    }

    /// Starts appending the postings of `buffer` to `.pos` by partition, on
    /// a thread of its own; `buffer` gets the write before's buffer back,
    /// empty, once that write is done (its error is this one's), or a new
    /// one, empty, for the first write. The reading goes on while a buffer
    /// is written: two buffers.
    pub fn write(&mut self, buffer: &mut Vec<u128>) -> Result<(), IndexError> {
        let mut next = Vec::new();
        self.wait(&mut next)?;
        next.clear();
        if self.writes == 0 {
            self.store = Some(Store::create(&self.path)?);
            next = Vec::with_capacity(buffer.capacity());
        }
        let Some(mut store) = self.store.take() else {
            return Err(IndexError::corrupt(&self.path, "a write without its file"));
        };
        let full = std::mem::replace(buffer, next);
        self.writes += 1;
        let syncer = self.syncer(&store)?;
        self.writing = Some(std::thread::spawn(move || {
            store.append(&full)?;
            // Written back on the syncer's thread as the reading goes on, not all at the
            // final sync.
            let _ = syncer.send(());
            Ok((full, store))
        }));
        Ok(())
    }

    /// A sender to the thread that syncs `.pos` (started with the first write): each
    /// message asks for what is written so far to be written back.
    fn syncer(&mut self, store: &Store) -> Result<Sender<()>, IndexError> {
        if let Some((tx, _)) = &self.syncing {
            return Ok(tx.clone());
        }
        let file = store
            .file
            .try_clone()
            .map_err(|e| IndexError::io(&store.path, e))?;
        let path = store.path.clone();
        let (tx, rx) = channel::<()>();
        let thread = std::thread::spawn(move || {
            while rx.recv().is_ok() {
                while rx.try_recv().is_ok() {}
                file.sync_data().map_err(|e| IndexError::io(&path, e))?;
            }
            Ok(())
        });
        self.syncing = Some((tx.clone(), thread));
        Ok(tx)
    }

    /// Waits for the buffer being written, if any; it becomes `back`, still
    /// holding the written postings (to be overwritten: no pass to clear
    /// them).
    fn wait(&mut self, back: &mut Vec<u128>) -> Result<(), IndexError> {
        if let Some(writing) = self.writing.take() {
            let (buffer, store) = writing
                .join()
                .unwrap_or_else(|e| std::panic::resume_unwind(e))?;
            *back = buffer;
            self.store = Some(store);
        }
        Ok(())
    }

    /// Waits for the last write, writes what is gathered and syncs `.pos`;
    /// returns the postings written and their pieces, by partition and
    /// then in the order written.
    pub fn finish(mut self) -> Result<(u64, Vec<Piece>), IndexError> {
        self.wait(&mut Vec::new())?;
        // A write-back error is kept to the end: the next sync might not report it again.
        if let Some((tx, thread)) = self.syncing.take() {
            drop(tx);
            thread
                .join()
                .unwrap_or_else(|e| std::panic::resume_unwind(e))?;
        }
        let mut store = match self.store.take() {
            Some(store) => store,
            None => Store::create(&self.path)?,
        };
        store.flush()?;
        store
            .file
            .sync_all()
            .map_err(|e| IndexError::io(&store.path, e))?;
        let count = (store.end - HEADER) / Posting::SIZE as u64;
        Ok((count, store.pieces.into_iter().flatten().collect()))
    }
}

impl Drop for Partitions {
    /// A build that stops on an error still waits for the write under way:
    /// no thread is left writing to a file being removed.
    fn drop(&mut self) {
        let _ = self.wait(&mut Vec::new());
        if let Some((tx, thread)) = self.syncing.take() {
            drop(tx);
            let _ = thread.join();
        }
    }
}

/// `.pos` being written: the postings of each partition in pieces of
/// [`STAGE`] postings at most, where each piece is, and the postings
/// gathered for each partition before they are written.
struct Store {
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
}

impl Store {
    /// An empty `.pos` at `path` (emptied if there), its header written.
    fn create(path: &Path) -> Result<Store, IndexError> {
        let mut file = File::create(path).map_err(|e| IndexError::io(path, e))?;
        file.write_all(&header::<Posting>())
            .map_err(|e| IndexError::io(path, e))?;
        Ok(Store {
            path: path.to_path_buf(),
            file,
            end: HEADER,
            pieces: vec![Vec::new(); PARTS],
            stage: vec![0; PARTS * STAGE],
            fill: vec![0; PARTS],
        })
    }

    /// Gathers each posting of `postings` for its partition, writing the
    /// pieces that fill.
    fn append(&mut self, postings: &[u128]) -> Result<(), IndexError> {
        for &p in postings {
            let i = (p >> (128 - PART_BITS)) as usize;
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
            partition: i as u32,
            len: n as u32,
            first: (self.end - HEADER) / Posting::SIZE as u64,
        });
        self.end += (n * Posting::SIZE) as u64;
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::RecordFile;

    /// Postings written come back from each partition's pieces in their
    /// order, whatever how many a partition gathers (none, fewer than a
    /// stage, a stage and one, a stage less one, two stages), across
    /// buffers; every posting is in `.pos` once.
    #[test]
    fn written_postings_keep_their_order_in_each_partition() {
        let dir = std::env::temp_dir().join(format!("pgnkit-append-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
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
        let mut parts = Partitions::new(&dir, "seg-0");
        for third in postings.chunks(postings.len() / 3 + 1) {
            let mut buffer = third.to_vec();
            parts.write(&mut buffer).unwrap();
        }
        assert_eq!(parts.writes, 3);
        let (count, pieces) = parts.finish().unwrap();
        assert_eq!(count, postings.len() as u64);
        let pos = RecordFile::<Posting>::open(&dir.join("seg-0.pos"), count).unwrap();
        assert!(pieces.is_sorted_by_key(|p| (p.partition, p.first)));
        for i in 0..PARTS {
            let mut got = Vec::new();
            for piece in pieces.iter().filter(|p| p.partition == i as u32) {
                let first = piece.first;
                got.extend(
                    pos.read_map(first, first + u64::from(piece.len), |p| p.pack())
                        .unwrap(),
                );
            }
            let expected: Vec<u128> = postings
                .iter()
                .copied()
                .filter(|p| (p >> (128 - PART_BITS)) as usize == i)
                .collect();
            assert_eq!(got.len(), sizes(i));
            assert!(got == expected, "partition {i}");
        }
        let total: u64 = pieces.iter().map(|p| u64::from(p.len)).sum();
        assert_eq!(total, count);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A build with no postings writes a `.pos` of its header alone.
    #[test]
    fn no_postings_make_an_empty_file() {
        let dir = std::env::temp_dir().join(format!("pgnkit-empty-pos-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let (count, pieces) = Partitions::new(&dir, "seg-0").finish().unwrap();
        assert_eq!((count, pieces.len()), (0, 0));
        assert_eq!(
            std::fs::metadata(dir.join("seg-0.pos")).unwrap().len(),
            HEADER
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
