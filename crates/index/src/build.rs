//! Building an index ([`build`]) and adding files to one ([`append`]): one
//! new segment each time. The games are read in input order; their
//! positions go to a buffer of at most [`BuildOptions::run_positions`]
//! postings. When it fills, its postings are appended to partition files by
//! their top bits on a thread of its own while the reading goes on
//! ([`crate::partition`]); at the end each partition (with the last
//! postings, kept in memory) is sorted and handed on in order, and the
//! segment's sorted positions file is written while the per-move statistics
//! are counted from the same stream. Memory is bounded by the buffer and
//! the games' records, whatever the input's size. A build that never fills
//! the buffer sorts it in memory and writes no partition.
//! A build writes to a temporary folder beside the target and renames it
//! into place at the end; an append writes its segment's new files and then
//! replaces the manifest by a rename; either way a failure leaves the index
//! as it was (or no index under the final name).

use std::fs::{self, File};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, SyncSender};

use pgnkit_game::ReadOptions;

use crate::error::IndexError;
use crate::manifest::{Manifest, SegmentEntry, SourceEntry, fingerprint};
use crate::partition::{Feed, PART_BITS, Partitions, feed_part};
use crate::record::{GameRecord, NO_MOVE, Posting, RecordWriter, Single, StatsRecord, VERSION};
use crate::scan::{absolute, read_sources};
use crate::tree::{Scores, Tally};

/// How an index is built.
#[derive(Debug, Clone, Copy)]
pub struct BuildOptions {
    /// Threads reading games (see pgnkit-game's `run_ordered`); 0 for all cores.
    pub threads: usize,
    /// Postings (16 bytes each) held in memory before they are written to
    /// the partition files on disk: 8 Mi (128 MiB) by default. The build
    /// holds two such buffers at most.
    pub run_positions: usize,
    /// How the games are read (nested comments, repaired tag strings,
    /// strictness); the index records nothing of it.
    pub read: ReadOptions,
}

impl Default for BuildOptions {
    fn default() -> BuildOptions {
        BuildOptions {
            threads: 0,
            run_positions: 8 << 20,
            read: ReadOptions::default(),
        }
    }
}

/// What a build or an append did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct BuildSummary {
    /// Games indexed.
    pub games: u64,
    /// Games with errors, left out (the scan without index leaves them out too).
    pub broken: u64,
    /// Positions indexed (main-line positions of the games indexed).
    pub positions: u64,
    /// Times the postings were written to disk (to partition files, read
    /// back sorted at the end); 0 when they all fitted in memory.
    pub runs: u64,
}

/// Builds the index of `inputs` at `out` (a folder), replacing an index
/// there; a failed build leaves nothing under `out`'s name but what was
/// there.
pub fn build(
    out: &Path,
    inputs: &[PathBuf],
    options: &BuildOptions,
) -> Result<BuildSummary, IndexError> {
    if out.exists() && !out.join(crate::manifest::MANIFEST).is_file() {
        return Err(IndexError::corrupt(
            out,
            "exists and is not a pgnkit index: not replaced",
        ));
    }
    let name = out
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "index".into());
    let parent = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let temp = parent.join(format!(".{name}.tmp-{}", std::process::id()));
    let _ = fs::remove_dir_all(&temp);
    fs::create_dir_all(&temp).map_err(|e| IndexError::io(&temp, e))?;
    let result = (|| {
        let mut manifest = Manifest::default();
        let summary = add_segment(&temp, &mut manifest, inputs, options, "seg-0")?;
        manifest.write(&temp)?;
        let old = parent.join(format!(".{name}.old-{}", std::process::id()));
        if out.exists() {
            fs::rename(out, &old).map_err(|e| IndexError::io(out, e))?;
        }
        fs::rename(&temp, out).map_err(|e| IndexError::io(out, e))?;
        let _ = fs::remove_dir_all(&old);
        Ok(summary)
    })();
    if result.is_err() {
        let _ = fs::remove_dir_all(&temp);
    }
    result
}

/// Adds `inputs` to the index at `index` as a new segment; the manifest is
/// replaced atomically at the end, so a failed append leaves the index as
/// it was. A file indexed already is refused.
pub fn append(
    index: &Path,
    inputs: &[PathBuf],
    options: &BuildOptions,
) -> Result<BuildSummary, IndexError> {
    let mut manifest = Manifest::read(index)?;
    for input in inputs {
        let path = absolute(input)?;
        if manifest.sources.iter().any(|s| s.path == path) {
            return Err(IndexError::AlreadyIndexed {
                source_path: input.clone(),
                index: index.to_path_buf(),
            });
        }
    }
    let n = manifest.segments.len();
    let stem = (n..)
        .map(|i| format!("seg-{i}"))
        .find(|s| !index.join(format!("{s}.pos")).exists())
        .unwrap_or_else(|| format!("seg-{n}"));
    let before = manifest.clone();
    let result = add_segment(index, &mut manifest, inputs, options, &stem)
        .and_then(|summary| manifest.write(index).map(|()| summary));
    if result.is_err() && manifest != before {
        remove_segment_files(index, &stem);
    }
    result
}

fn remove_segment_files(dir: &Path, stem: &str) {
    for ext in ["games", "names", "pos", "stats", "single"] {
        let _ = fs::remove_file(dir.join(format!("{stem}.{ext}")));
    }
}

/// Reads `inputs` into a new segment `stem` of the folder `dir` and records
/// it and its sources in `manifest` (not written).
fn add_segment(
    dir: &Path,
    manifest: &mut Manifest,
    inputs: &[PathBuf],
    options: &BuildOptions,
    stem: &str,
) -> Result<BuildSummary, IndexError> {
    let names_path = dir.join(format!("{stem}.names"));
    let mut names =
        BufWriter::new(File::create(&names_path).map_err(|e| IndexError::io(&names_path, e))?);
    let mut names_bytes = 0u64;
    let mut header = Vec::from(&b"PKIXNAM\0"[..]);
    header.extend_from_slice(&VERSION.to_le_bytes());
    header.extend_from_slice(&[0; 4]);
    names
        .write_all(&header)
        .map_err(|e| IndexError::io(&names_path, e))?;

    let mut games: Vec<GameRecord> = Vec::new();
    // Reserved whole (address space only until filled): no copies as it grows.
    let mut buffer: Vec<u128> = Vec::with_capacity(options.run_positions.max(1));
    let mut scratch: Vec<u128> = Vec::new();
    let mut parts = Partitions::new(dir, stem);
    let first_source = manifest.sources.len();
    let mut sources: Vec<SourceEntry> = Vec::new();
    let mut fingerprints: Vec<(PathBuf, (u64, u128, u64))> = Vec::new();
    let capacity = options.run_positions.max(1);
    // The sort of postings that all fit in memory runs after the reading:
    // on every thread the read uses.
    let sort_threads = match options.threads {
        pgnkit_game::ALL_CORES => pgnkit_game::all_cores(),
        n => n,
    };

    let read = read_sources(
        inputs,
        options.threads,
        None,
        options.read,
        |stream| {
            let print = match fingerprints.iter().find(|(p, _)| *p == stream.path) {
                Some((_, f)) => *f,
                None => {
                    let f = fingerprint(&stream.path)?;
                    fingerprints.push((stream.path.clone(), f));
                    f
                }
            };
            sources.push(SourceEntry {
                path: stream.path.clone(),
                stream: stream.stream,
                name: stream.name.clone(),
                size: print.0,
                mtime_ns: print.1,
                sample: print.2,
            });
            Ok(())
        },
        |stream, offset, number, game| {
            let id = u32::try_from(games.len()).map_err(|_| {
                IndexError::corrupt(dir, "more than 4 billion games in one segment")
            })?;
            let mut record = game.record;
            record.offset = offset;
            record.number = number;
            record.source = first_source as u32 + stream.index;
            record.names_offset = names_bytes;
            record.names_len = game.names.len() as u32;
            names
                .write_all(game.names.as_bytes())
                .map_err(|e| IndexError::io(&names_path, e))?;
            names_bytes += game.names.len() as u64;
            games.push(record);
            for (key, mv, ply) in game.positions {
                buffer.push(pack(&Posting {
                    key,
                    mv,
                    game: id,
                    ply,
                }));
                if buffer.len() >= capacity {
                    parts.spill(&mut buffer)?;
                }
            }
            Ok(())
        },
    );
    let read = match read {
        Ok(read) => read,
        Err(e) => {
            parts.remove();
            remove_segment_files(dir, stem);
            return Err(e);
        }
    };
    names.flush().map_err(|e| IndexError::io(&names_path, e))?;
    names
        .into_inner()
        .map_err(|e| IndexError::io(&names_path, e.into_error()))?
        .sync_all()
        .map_err(|e| IndexError::io(&names_path, e))?;

    let merged = (|| {
        let mut game_file = RecordWriter::<GameRecord>::create(&dir.join(format!("{stem}.games")))?;
        for g in &games {
            game_file.push(g)?;
        }
        game_file.finish()?;
        let scores: Vec<Scores> = games.iter().map(Scores::of).collect();
        let (pos_count, stats_count, single_count) = if parts.spills == 0 {
            sort_postings(&mut buffer, &mut scratch, sort_threads, 128);
            drop(std::mem::take(&mut scratch));
            let sorted = std::mem::take(&mut buffer);
            write_sorted(dir, stem, &scores, move |feed| {
                for piece in sorted.chunks(SORTED_CHUNK) {
                    let mut chunk = feed.buffer();
                    chunk.extend_from_slice(piece);
                    if !feed.send(chunk) {
                        break;
                    }
                }
                Ok(())
            })?
        } else {
            // The last postings stay in memory, distributed by partition
            // like the spilled ones into the spill before's buffer (its
            // pages in memory already), and join their partitions as they
            // are read back.
            let mut last = Vec::new();
            parts.wait(&mut last)?;
            drop(std::mem::take(&mut scratch));
            // Every place is written by `distribute`.
            last.resize(buffer.len(), 0);
            let starts = distribute(&buffer, &mut last, 128 - PART_BITS, 1 << PART_BITS);
            drop(std::mem::take(&mut buffer));
            // A partition is read back whole when it holds at most an
            // eighth of the buffer: at most 8 are in memory at once.
            let limit = (capacity / 8).max(4096);
            let paths = parts.paths().to_vec();
            write_sorted(dir, stem, &scores, move |feed| {
                let mut scratch = Vec::new();
                for (i, path) in paths.iter().enumerate() {
                    let extra = &last[starts[i]..starts[i + 1]];
                    if !feed_part(path, extra, 128 - PART_BITS, limit, feed, &mut scratch)? {
                        break;
                    }
                }
                Ok(())
            })?
        };
        Ok::<_, IndexError>((pos_count, stats_count, single_count))
    })();
    let run_count = parts.spills;
    parts.remove();
    let (pos_count, stats_count, single_count) = match merged {
        Ok(v) => v,
        Err(e) => {
            remove_segment_files(dir, stem);
            return Err(e);
        }
    };
    manifest.sources.extend(sources);
    manifest.segments.push(SegmentEntry {
        stem: stem.to_string(),
        games: games.len() as u64,
        positions: pos_count,
        stats: stats_count,
        singles: single_count,
        names_bytes,
    });
    Ok(BuildSummary {
        games: games.len() as u64,
        broken: read.broken,
        positions: pos_count,
        runs: run_count,
    })
}

/// `p` as one number whose order is the postings' (key, move, game, ply):
/// sorting numbers is cheaper than comparing four fields.
fn pack(p: &Posting) -> u128 {
    u128::from(p.key) << 64 | u128::from(p.mv) << 48 | u128::from(p.game) << 16 | u128::from(p.ply)
}

/// The posting [`pack`] made `n` of.
fn unpack(n: u128) -> Posting {
    Posting {
        key: (n >> 64) as u64,
        mv: (n >> 48) as u16,
        game: (n >> 16) as u32,
        ply: n as u16,
    }
}

/// Sorts the packed postings of `buffer` ([`pack`]) on `threads` threads,
/// in steps that each touch a small part of memory at a time and use safe
/// slices only: the buffer is cut into one part per thread, and each thread
/// distributes its part into the same range of `scratch` by the top bits of
/// the keys (random, so the buckets are about 256 postings each, and at most
/// 4096 buckets fill at once, so the writes stay in cache); then each
/// thread takes a range of buckets, copies their pieces from every part
/// back into `buffer`, where the bucket ends up, and sorts each bucket
/// there. The postings agree on their bits from `high` up (128: none;
/// less for a partition's, [`crate::partition`]): the buckets are chosen by
/// the bits below. `scratch` keeps its allocation, to be reused.
pub(crate) fn sort_postings(
    buffer: &mut [u128],
    scratch: &mut Vec<u128>,
    threads: usize,
    high: u32,
) {
    let len = buffer.len();
    let log = usize::BITS - len.leading_zeros();
    // A partition's postings (a few MiB, in cache) go to buckets of about
    // 16, then sorted by insertion; a large buffer's to at most 4096
    // buckets (the writes stay in cache), each distributed again.
    let bits = if len <= SMALL_SORT {
        log.saturating_sub(4).clamp(4, 16)
    } else {
        log.saturating_sub(8).clamp(4, 12)
    };
    if len < 4096 || high < bits + 8 {
        buffer.sort_unstable();
        return;
    }
    let shift = high - bits;
    let buckets = 1usize << bits;
    let threads = threads.clamp(1, 64).min(len / 4096).max(1);
    // Every place of `scratch` is written below: its old contents need not
    // be cleared (no 128 MiB of zeros for each run).
    if scratch.len() < len {
        scratch.resize(len, 0);
    }
    scratch.truncate(len);
    let part_len = len.div_ceil(threads);
    // For each part: where each of its buckets starts within the part.
    let starts: Vec<Vec<usize>> = std::thread::scope(|scope| {
        let work: Vec<_> = buffer
            .chunks(part_len)
            .zip(scratch.chunks_mut(part_len))
            .map(|(part, out)| scope.spawn(move || distribute(part, out, shift, buckets)))
            .collect();
        work.into_iter()
            .map(|w| w.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    // Bucket `b` of part `t` is `scratch[t * part_len + starts[t][b]..
    // t * part_len + starts[t][b + 1]]`; bucket `b` of the result starts at
    // the sum of the sizes of the buckets before it in every part.
    let mut global = vec![0usize; buckets + 1];
    for b in 0..buckets {
        let size: usize = starts.iter().map(|s| s[b + 1] - s[b]).sum();
        global[b + 1] = global[b] + size;
    }
    // Ranges of buckets of about equal size, one per thread.
    let mut cuts = vec![0usize];
    for t in 1..threads {
        let target = len * t / threads;
        let b = global.partition_point(|&g| g < target).min(buckets);
        cuts.push(b.max(*cuts.last().unwrap_or(&0)));
    }
    cuts.push(buckets);
    let scratch = &scratch[..];
    let starts = &starts;
    let global = &global;
    std::thread::scope(|scope| {
        let mut rest = &mut buffer[..];
        let mut work = Vec::new();
        for w in cuts.windows(2) {
            let (first, last) = (w[0], w[1]);
            let (mine, tail) = rest.split_at_mut(global[last] - global[first]);
            rest = tail;
            work.push(scope.spawn(move || {
                let base = global[first];
                let mut sub = Vec::new();
                for b in first..last {
                    let mut at = global[b] - base;
                    for (t, s) in starts.iter().enumerate() {
                        let piece = &scratch[t * part_len + s[b]..t * part_len + s[b + 1]];
                        mine[at..at + piece.len()].copy_from_slice(piece);
                        at += piece.len();
                    }
                    sort_bucket(
                        &mut mine[global[b] - base..global[b + 1] - base],
                        &mut sub,
                        shift - 8,
                    );
                }
            }));
        }
        for w in work {
            w.join().unwrap_or_else(|e| std::panic::resume_unwind(e));
        }
    });
}

/// Postings sorted in one pass of [`sort_postings`] into small buckets
/// (1 Mi, 16 MiB: a partition's, most often).
const SMALL_SORT: usize = 1 << 20;

/// Sorts one bucket of [`sort_postings`] (its postings agree on the bits
/// above `shift + 8`): a large one is distributed into `sub` by the next 8
/// bits (a few postings each, in cache) and those are sorted and copied
/// back, which costs less than comparison sorting the whole bucket.
fn sort_bucket(bucket: &mut [u128], sub: &mut Vec<u128>, shift: u32) {
    if bucket.len() < 512 {
        bucket.sort_unstable();
        return;
    }
    sub.clear();
    sub.resize(bucket.len(), 0);
    let starts = distribute(bucket, sub, shift, 256);
    for w in starts.windows(2) {
        sub[w[0]..w[1]].sort_unstable();
    }
    bucket.copy_from_slice(sub);
}

/// Distributes `part` into `out` (as long) by the bits of each posting
/// above `shift`, bucket after bucket; returns where each of the `buckets`
/// buckets starts in `out`, and its end last.
fn distribute(part: &[u128], out: &mut [u128], shift: u32, buckets: usize) -> Vec<usize> {
    let mask = buckets - 1;
    let mut ends = vec![0usize; buckets + 1];
    for p in part {
        ends[((p >> shift) as usize & mask) + 1] += 1;
    }
    for i in 1..ends.len() {
        ends[i] += ends[i - 1];
    }
    let starts = ends.clone();
    // `ends[b]` is where bucket `b` starts; it moves to its end as the
    // bucket fills.
    for p in part {
        let slot = &mut ends[(p >> shift) as usize & mask];
        out[*slot] = *p;
        *slot += 1;
    }
    starts
}

/// Postings counted at a time by [`write_sorted`].
const BLOCK: usize = 4096;

/// A (key, move) of the sorted postings, being counted.
struct Group {
    key: u64,
    mv: u16,
    /// The first game that plays it, its scores, and the last game.
    first: u32,
    first_scores: Scores,
    last: u32,
    /// Its statistics, once a second game plays it.
    tally: Option<Tally>,
}

/// Postings in a chunk of a sorted buffer handed on by [`write_sorted`]
/// (a partition's are handed on whole).
const SORTED_CHUNK: usize = 1 << 16;

/// Writes the sorted postings that `produce` sends (in chunks, in order)
/// to `<stem>.pos` and their per-move statistics to `<stem>.stats` (moves
/// played in one game only to `<stem>.single`, as the game's number);
/// returns the three counts. Three threads make a pipeline: `produce`
/// (reading and sorting partitions) on one, the statistics counted on the
/// calling thread, the postings written on a third; the chunks go back to
/// `produce` to be filled again.
fn write_sorted<P>(
    dir: &Path,
    stem: &str,
    scores: &[Scores],
    produce: P,
) -> Result<(u64, u64, u64), IndexError>
where
    P: FnOnce(&Feed) -> Result<(), IndexError> + Send,
{
    let pos_path = dir.join(format!("{stem}.pos"));
    let mut pos = RecordWriter::<Posting>::create(&pos_path)?;
    std::thread::scope(|scope| {
        let (sorted, sorted_rx) = std::sync::mpsc::sync_channel::<Vec<u128>>(2);
        let (back_tx, back) = std::sync::mpsc::channel::<Vec<u128>>();
        let (to_write, write_rx) = std::sync::mpsc::sync_channel::<Vec<u128>>(2);
        let producer = scope.spawn(move || produce(&Feed { sorted, back }));
        let writer = scope.spawn(move || {
            for chunk in write_rx {
                for &p in &chunk {
                    pos.push(&unpack(p))?;
                }
                let _ = back_tx.send(chunk);
            }
            pos.finish()
        });
        let counted = count_sorted(dir, stem, scores, sorted_rx, &to_write);
        drop(to_write);
        let produced = producer
            .join()
            .unwrap_or_else(|e| std::panic::resume_unwind(e));
        let written = writer
            .join()
            .unwrap_or_else(|e| std::panic::resume_unwind(e));
        produced?;
        let (stats, singles) = counted?;
        Ok((written?, stats, singles))
    })
}

/// The statistics part of [`write_sorted`]: counts the postings received
/// into `<stem>.stats` and `<stem>.single` and sends them on to `pos`;
/// returns the counts of stats and singles. Stops early, with no error of
/// its own, when `pos`'s thread has stopped (its error is the one
/// reported); `sorted` is dropped on return, which stops the producer.
fn count_sorted(
    dir: &Path,
    stem: &str,
    scores: &[Scores],
    sorted: Receiver<Vec<u128>>,
    pos: &SyncSender<Vec<u128>>,
) -> Result<(u64, u64), IndexError> {
    let mut stats = RecordWriter::<StatsRecord>::create(&dir.join(format!("{stem}.stats")))?;
    let mut singles = RecordWriter::<Single>::create(&dir.join(format!("{stem}.single")))?;
    // The (key, move) being counted: its first game, and its tally once a
    // second game plays it (most play it in one game only: a single, whose
    // game's scores are never read).
    let mut group: Option<Group> = None;
    let mut flush = |stats: &mut RecordWriter<StatsRecord>, group: &Option<Group>| {
        let Some(g) = group else {
            return Ok(());
        };
        if g.mv == NO_MOVE {
            return Ok(());
        }
        let Some(tally) = &g.tally else {
            return singles.push(&Single {
                key: g.key,
                mv: g.mv,
                game: g.first,
            });
        };
        let s = tally.stats;
        stats.push(&StatsRecord {
            key: g.key,
            mv: g.mv,
            games: s.games as u32,
            white: s.white as u32,
            draws: s.draws as u32,
            black: s.black as u32,
            white_rating_count: s.white_rating_count as u32,
            white_rating_sum: s.white_rating_sum,
            black_rating_count: s.black_rating_count as u32,
            black_rating_sum: s.black_rating_sum,
            latest: tally.latest.map_or(u32::MAX, |(_, o)| o as u32),
            best: tally.best.map_or(u32::MAX, |(_, o)| o as u32),
        })
    };
    let mut block_scores: Vec<Scores> = Vec::with_capacity(BLOCK);
    while let Ok(chunk) = sorted.recv() {
        for block in chunk.chunks(BLOCK) {
            // The block's games' scores read before they are counted: loads
            // that do not wait for each other, where a read per posting in
            // the loop below would wait for each (the games of a key are far
            // apart).
            block_scores.clear();
            block_scores.extend(block.iter().map(|&p| scores[(p >> 16) as u32 as usize]));
            for (&packed, p_scores) in block.iter().zip(&block_scores) {
                let p = unpack(packed);
                match &mut group {
                    Some(g) if g.key == p.key && g.mv == p.mv => {
                        if g.last != p.game && g.mv != NO_MOVE {
                            let tally = g.tally.get_or_insert_with(|| {
                                let mut tally = Tally::default();
                                tally.add_scores(&g.first_scores, u64::from(g.first));
                                tally
                            });
                            tally.add_scores(p_scores, u64::from(p.game));
                        }
                        g.last = p.game;
                    }
                    _ => {
                        flush(&mut stats, &group)?;
                        group = Some(Group {
                            key: p.key,
                            mv: p.mv,
                            first: p.game,
                            first_scores: *p_scores,
                            last: p.game,
                            tally: None,
                        });
                    }
                }
            }
        }
        if pos.send(chunk).is_err() {
            break;
        }
    }
    flush(&mut stats, &group)?;
    Ok((stats.finish()?, singles.finish()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Postings with few distinct keys and moves (ties broken by game and
    /// ply), numbers from a small generator.
    fn postings(n: usize) -> Vec<Posting> {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        (0..n)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                Posting {
                    key: (x % 37).wrapping_mul(0x0123_4567_89ab_cdef) ^ (x & 1) << 63,
                    mv: (x >> 8) as u16 % 5,
                    game: (x >> 24) as u32 % 1000,
                    ply: (x >> 40) as u16 % 300,
                }
            })
            .collect()
    }

    #[test]
    fn packed_sort_orders_as_postings_do() {
        for n in [0, 1, 100, 4095, 4096, 50_000] {
            let mut expected = postings(n);
            let packed: Vec<u128> = expected.iter().map(pack).collect();
            expected.sort_unstable();
            let mut scratch = Vec::new();
            for threads in [1, 2, 3] {
                let mut packed = packed.clone();
                sort_postings(&mut packed, &mut scratch, threads, 128);
                let got: Vec<Posting> = packed.into_iter().map(unpack).collect();
                assert_eq!(got, expected, "{n} postings, {threads} threads");
            }
        }
    }

    #[test]
    fn packed_sort_of_random_keys_in_large_buckets() {
        // 3 Mi postings: 4096 buckets of about 770, each sorted by its
        // next 8 bits first.
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut packed: Vec<u128> = (0..3 << 20)
            .map(|i: u32| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                pack(&Posting {
                    key: x,
                    mv: (x >> 3) as u16 % 3,
                    game: i / 40,
                    ply: (i % 40) as u16,
                })
            })
            .collect();
        let mut expected = packed.clone();
        expected.sort_unstable();
        sort_postings(&mut packed, &mut Vec::new(), 2, 128);
        assert!(packed == expected);
    }
}
