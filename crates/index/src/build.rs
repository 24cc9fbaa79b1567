//! Building an index ([`build`]) and adding files to one ([`append`]): one
//! new segment each time. The games are read in input order; their
//! positions go to a buffer of at most [`BuildOptions::run_positions`]
//! postings, which is sorted and written to a run file when full; the runs
//! are then merged (k-way) into the segment's sorted positions file while
//! the per-move statistics are counted from the merged stream, so memory is
//! bounded by the buffer and the games' records, whatever the input's size.
//! A build writes to a temporary folder beside the target and renames it
//! into place at the end; an append writes its segment's new files and then
//! replaces the manifest by a rename; either way a failure leaves the index
//! as it was (or no index under the final name).

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fs::{self, File};
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use pgnkit_game::ReadOptions;

use crate::error::IndexError;
use crate::manifest::{Manifest, SegmentEntry, SourceEntry, fingerprint};
use crate::record::{
    GameRecord, NO_MOVE, Posting, Record, RecordWriter, Single, StatsRecord, VERSION,
};
use crate::scan::{absolute, read_sources};
use crate::tree::Tally;

/// How an index is built.
#[derive(Debug, Clone, Copy)]
pub struct BuildOptions {
    /// Threads reading games (see pgnkit-game's `run_ordered`); 0 for all cores.
    pub threads: usize,
    /// Postings (16 bytes each) held in memory before a sorted run is
    /// written to disk: 8 Mi (128 MiB) by default.
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
    /// Sorted runs written to disk and merged.
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
    let mut buffer: Vec<Posting> = Vec::with_capacity(options.run_positions.min(1 << 20));
    let mut runs: Vec<PathBuf> = Vec::new();
    let first_source = manifest.sources.len();
    let mut sources: Vec<SourceEntry> = Vec::new();
    let mut fingerprints: Vec<(PathBuf, (u64, u128, u64))> = Vec::new();
    let capacity = options.run_positions.max(1);

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
                buffer.push(Posting {
                    key,
                    mv,
                    game: id,
                    ply,
                });
                if buffer.len() >= capacity {
                    let path = dir.join(format!("{stem}.run-{}", runs.len()));
                    spill(&mut buffer, &path)?;
                    runs.push(path);
                }
            }
            Ok(())
        },
    );
    let cleanup = |runs: &[PathBuf]| {
        for run in runs {
            let _ = fs::remove_file(run);
        }
    };
    let read = match read {
        Ok(read) => read,
        Err(e) => {
            cleanup(&runs);
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
        let run_count = runs.len() as u64;
        let (pos_count, stats_count, single_count) = if runs.is_empty() {
            buffer.sort_unstable();
            let mut postings = std::mem::take(&mut buffer).into_iter().map(Ok);
            write_sorted(dir, stem, &games, &mut postings)?
        } else {
            if !buffer.is_empty() {
                let path = dir.join(format!("{stem}.run-{}", runs.len()));
                spill(&mut buffer, &path)?;
                runs.push(path);
            }
            drop(std::mem::take(&mut buffer));
            let mut merge = Merge::new(&runs)?;
            write_sorted(dir, stem, &games, &mut std::iter::from_fn(|| merge.next()))?
        };
        Ok::<_, IndexError>((pos_count, stats_count, single_count, run_count))
    })();
    cleanup(&runs);
    let (pos_count, stats_count, single_count, run_count) = match merged {
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

/// Sorts `buffer` and writes it to `path` (raw records), emptying it.
fn spill(buffer: &mut Vec<Posting>, path: &Path) -> Result<(), IndexError> {
    buffer.sort_unstable();
    let file = File::create(path).map_err(|e| IndexError::io(path, e))?;
    let mut out = BufWriter::with_capacity(1 << 16, file);
    let mut bytes = Vec::with_capacity(Posting::SIZE);
    for p in buffer.iter() {
        bytes.clear();
        p.put(&mut bytes);
        out.write_all(&bytes).map_err(|e| IndexError::io(path, e))?;
    }
    out.flush().map_err(|e| IndexError::io(path, e))?;
    buffer.clear();
    Ok(())
}

/// A k-way merge of sorted run files.
struct Merge {
    readers: Vec<(BufReader<File>, PathBuf)>,
    heap: BinaryHeap<Reverse<(Posting, usize)>>,
}

impl Merge {
    fn new(runs: &[PathBuf]) -> Result<Merge, IndexError> {
        let mut merge = Merge {
            readers: Vec::new(),
            heap: BinaryHeap::new(),
        };
        for (i, path) in runs.iter().enumerate() {
            let file = File::open(path).map_err(|e| IndexError::io(path, e))?;
            merge
                .readers
                .push((BufReader::with_capacity(1 << 16, file), path.clone()));
            if let Some(p) = merge.read(i)? {
                merge.heap.push(Reverse((p, i)));
            }
        }
        Ok(merge)
    }

    fn read(&mut self, i: usize) -> Result<Option<Posting>, IndexError> {
        let (reader, path) = &mut self.readers[i];
        let mut bytes = [0u8; Posting::SIZE];
        match reader.read_exact(&mut bytes) {
            Ok(()) => Ok(Some(Posting::get(&bytes))),
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => Ok(None),
            Err(e) => Err(IndexError::io(path.as_path(), e)),
        }
    }

    fn next(&mut self) -> Option<Result<Posting, IndexError>> {
        let Reverse((p, i)) = self.heap.pop()?;
        match self.read(i) {
            Ok(Some(next)) => self.heap.push(Reverse((next, i))),
            Ok(None) => {}
            Err(e) => return Some(Err(e)),
        }
        Some(Ok(p))
    }
}

/// Writes the sorted postings to `<stem>.pos` and their per-move
/// statistics to `<stem>.stats` (moves played in one game only to
/// `<stem>.single`, as the game's number); returns the three counts.
fn write_sorted(
    dir: &Path,
    stem: &str,
    games: &[GameRecord],
    postings: &mut dyn Iterator<Item = Result<Posting, IndexError>>,
) -> Result<(u64, u64, u64), IndexError> {
    let mut pos = RecordWriter::<Posting>::create(&dir.join(format!("{stem}.pos")))?;
    let mut stats = RecordWriter::<StatsRecord>::create(&dir.join(format!("{stem}.stats")))?;
    let mut singles = RecordWriter::<Single>::create(&dir.join(format!("{stem}.single")))?;
    let mut group: Option<(u64, u16, Tally, u32)> = None;
    let mut flush = |stats: &mut RecordWriter<StatsRecord>,
                     group: &Option<(u64, u16, Tally, u32)>| {
        if let Some((key, mv, tally, last)) = group
            && *mv != NO_MOVE
        {
            if tally.stats.games == 1 {
                return singles.push(&Single {
                    key: *key,
                    mv: *mv,
                    game: *last,
                });
            }
            let s = tally.stats;
            stats.push(&StatsRecord {
                key: *key,
                mv: *mv,
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
            })?;
        }
        Ok::<(), IndexError>(())
    };
    for p in postings {
        let p = p?;
        pos.push(&p)?;
        let same = matches!(&group, Some((k, m, _, _)) if *k == p.key && *m == p.mv);
        if !same {
            flush(&mut stats, &group)?;
            group = Some((p.key, p.mv, Tally::default(), u32::MAX));
        }
        if let Some((_, _, tally, last)) = &mut group
            && *last != p.game
        {
            *last = p.game;
            tally.add(&games[p.game as usize], u64::from(p.game));
        }
    }
    flush(&mut stats, &group)?;
    Ok((pos.finish()?, stats.finish()?, singles.finish()?))
}
