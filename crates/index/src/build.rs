//! Building an index ([`build`]) and adding files to one ([`append`]): one
//! new segment each time. The games are read in input order; their
//! positions go to a buffer of at most [`BuildOptions::run_positions`]
//! postings. When it fills, its postings are appended to the segment's
//! `.pos` by partition (their keys' top bits) on a thread of its own while
//! the reading goes on ([`crate::partition`]); at the end the last ones are
//! too, and where each piece went is written to `.pieces`. Nothing is sorted or
//! read back: each partition's pieces hold its postings in the order the
//! games were read. The games' records and names are written as they come.
//! Memory is bounded by the two buffers, whatever the input's size.
//! A build writes to a temporary folder beside the target and renames it
//! into place at the end; an append writes its segment's new files and then
//! replaces the manifest by a rename; either way a failure leaves the index
//! as it was (or no index under the final name).

use std::fs::{self, File};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use pgnkit_game::ReadOptions;

use crate::error::IndexError;
use crate::manifest::{Manifest, SegmentEntry, SourceEntry, fingerprint};
use crate::partition::Partitions;
use crate::record::{GameRecord, Piece, RecordWriter, VERSION};
use crate::scan::{absolute, read_sources};

/// How an index is built.
#[derive(Debug, Clone, Copy)]
pub struct BuildOptions {
    /// Threads reading games (see pgnkit-game's `run_ordered`); 0 for all cores.
    pub threads: usize,
    /// Postings (16 bytes each) held in memory before they are written to
    /// the segment's `.pos` by partition: 2 Mi (32 MiB) by default. The
    /// build holds two such buffers at most.
    pub run_positions: usize,
    /// How the games are read (nested comments, repaired tag strings,
    /// strictness); the index records nothing of it.
    pub read: ReadOptions,
}

impl Default for BuildOptions {
    fn default() -> BuildOptions {
        BuildOptions {
            threads: 0,
            run_positions: 2 << 20,
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
    /// Times a buffer of postings was written to `.pos` (0 when there were
    /// no postings).
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
    for ext in ["games", "names", "pos", "pieces"] {
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

    // The games' records are written as they come: memory does not grow with their number.
    let mut games = match RecordWriter::<GameRecord>::create(&dir.join(format!("{stem}.games"))) {
        Ok(games) => games,
        Err(e) => {
            remove_segment_files(dir, stem);
            return Err(e);
        }
    };
    // Reserved whole (address space only until filled): no copies as it grows.
    let mut buffer: Vec<u128> = Vec::with_capacity(options.run_positions.max(1));
    let mut parts = Partitions::new(dir, stem);
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
            let id = u32::try_from(games.count).map_err(|_| {
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
            games.push(&record)?;
            // The game's postings in runs that fit the buffer, each one
            // extend (one capacity check, no test a posting); the buffer
            // is written when a run fills it.
            let mut rest = &game.positions[..];
            while !rest.is_empty() {
                let room = capacity.saturating_sub(buffer.len()).max(1);
                let (now, later) = rest.split_at(room.min(rest.len()));
                // Packed by the visitor ([`Posting::pack`](crate::record::Posting::pack))
                // but for the game's number, 0 there.
                let game = u128::from(id) << 16;
                buffer.extend(now.iter().map(|&p| p | game));
                rest = later;
                if buffer.len() >= capacity {
                    parts.write(&mut buffer)?;
                }
            }
            Ok(())
        },
    );
    let written = read.and_then(|read| {
        names.flush().map_err(|e| IndexError::io(&names_path, e))?;
        names
            .into_inner()
            .map_err(|e| IndexError::io(&names_path, e.into_error()))?
            .sync_all()
            .map_err(|e| IndexError::io(&names_path, e))?;
        // The last postings, then the games while they are written.
        if !buffer.is_empty() {
            parts.write(&mut buffer)?;
        }
        drop(buffer);
        let games = games.finish()?;
        let runs = parts.writes;
        let (positions, pieces) = parts.finish()?;
        let mut piece_file = RecordWriter::<Piece>::create(&dir.join(format!("{stem}.pieces")))?;
        for piece in &pieces {
            piece_file.push(piece)?;
        }
        let pieces = piece_file.finish()?;
        Ok((read, games, runs, positions, pieces))
    });
    let (read, games, runs, positions, pieces) = match written {
        Ok(v) => v,
        Err(e) => {
            remove_segment_files(dir, stem);
            return Err(e);
        }
    };
    manifest.sources.extend(sources);
    manifest.segments.push(SegmentEntry {
        stem: stem.to_string(),
        games,
        positions,
        pieces,
        names_bytes,
    });
    Ok(BuildSummary {
        games,
        broken: read.broken,
        positions,
        runs,
    })
}
