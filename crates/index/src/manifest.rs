//! The index's manifest (`MANIFEST` in the index folder): the format
//! version on its first line (`pgnkit-index 3`), then JSON: the sources
//! (each file's path, stream, size, modification time and sample hash) and
//! the segments (their file stem and record counts). It is the only file
//! that is ever replaced, by writing a new one and renaming it over the old
//! (atomic), so a reader sees the segments before or after an append,
//! never half of one.

use std::fs::{self, File};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::UNIX_EPOCH;

use serde::{Deserialize, Serialize};

use crate::error::IndexError;
use crate::record::{VERSION, read_exact_at};

/// The manifest's file name in the index folder.
pub(crate) const MANIFEST: &str = "MANIFEST";

/// A stream of a source file, and how to tell that the file changed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct SourceEntry {
    pub path: PathBuf,
    pub stream: u32,
    pub name: String,
    pub size: u64,
    pub mtime_ns: u128,
    pub sample: u64,
}

/// A segment: its files are `<stem>.games`, `.names`, `.pos`, `.pieces`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct SegmentEntry {
    pub stem: String,
    pub games: u64,
    pub positions: u64,
    pub pieces: u64,
    pub names_bytes: u64,
}

/// The manifest.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Manifest {
    pub sources: Vec<SourceEntry>,
    pub segments: Vec<SegmentEntry>,
}

impl Manifest {
    /// Reads `dir/MANIFEST`.
    pub fn read(dir: &Path) -> Result<Manifest, IndexError> {
        let path = dir.join(MANIFEST);
        if !dir.is_dir() {
            if dir.exists() {
                return Err(IndexError::corrupt(
                    dir,
                    "not a pgnkit index (an index is a folder with a MANIFEST)",
                ));
            }
            return Err(IndexError::io(
                dir,
                std::io::Error::new(std::io::ErrorKind::NotFound, "no such index"),
            ));
        }
        let text = fs::read(&path).map_err(|e| IndexError::io(&path, e))?;
        let (first, rest) = match text.iter().position(|&b| b == b'\n') {
            Some(n) => (&text[..n], &text[n + 1..]),
            None => (&text[..], &[][..]),
        };
        let first = String::from_utf8_lossy(first);
        let Some(version) = first.strip_prefix("pgnkit-index ") else {
            return Err(IndexError::corrupt(
                &path,
                "not a pgnkit index manifest (its first line is not `pgnkit-index VERSION`)",
            ));
        };
        let version: u32 = version.trim().parse().map_err(|_| {
            IndexError::corrupt(&path, format!("unreadable format version `{version}`"))
        })?;
        if version > VERSION {
            return Err(IndexError::NewerVersion {
                path,
                found: version,
                supported: VERSION,
            });
        }
        if version < VERSION {
            return Err(IndexError::corrupt(
                &path,
                format!(
                    "format version {version} is not read by this pgnkit (it reads {VERSION}); rebuild the index"
                ),
            ));
        }
        serde_json::from_slice(rest).map_err(|e| {
            let what = if e.is_eof() {
                "truncated"
            } else {
                "unreadable"
            };
            IndexError::corrupt(&path, format!("{what} manifest: {e}"))
        })
    }

    /// Writes `dir/MANIFEST` atomically: a new file, synced, renamed over the old.
    pub fn write(&self, dir: &Path) -> Result<(), IndexError> {
        let path = dir.join(MANIFEST);
        let temp = dir.join(format!("{MANIFEST}.tmp-{}", std::process::id()));
        let mut text = format!("pgnkit-index {VERSION}\n").into_bytes();
        serde_json::to_writer_pretty(&mut text, self)
            .map_err(|e| IndexError::io(&temp, e.into()))?;
        text.push(b'\n');
        let write = || -> std::io::Result<()> {
            let mut file = File::create(&temp)?;
            file.write_all(&text)?;
            file.sync_all()
        };
        write().map_err(|e| IndexError::io(&temp, e))?;
        fs::rename(&temp, &path).map_err(|e| IndexError::io(&path, e))?;
        // The rename is durable once the folder is synced (where folders can be opened).
        if let Ok(d) = File::open(dir) {
            let _ = d.sync_all();
        }
        Ok(())
    }

    /// The total number of games.
    pub fn games(&self) -> u64 {
        self.segments.iter().map(|s| s.games).sum()
    }
}

/// Bytes read at each of the start, middle and end of a file for its sample hash.
const SAMPLE: u64 = 64 * 1024;

/// A file's size, modification time (nanoseconds since 1970) and sample hash.
pub(crate) fn fingerprint(path: &Path) -> Result<(u64, u128, u64), IndexError> {
    let mut file = File::open(path).map_err(|e| IndexError::io(path, e))?;
    let meta = file.metadata().map_err(|e| IndexError::io(path, e))?;
    let size = meta.len();
    let mtime = meta
        .modified()
        .ok()
        .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos());
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    let mut feed = |bytes: &[u8]| {
        for &b in bytes {
            hash = (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    };
    if size <= 3 * SAMPLE {
        let mut all = Vec::new();
        file.read_to_end(&mut all)
            .map_err(|e| IndexError::io(path, e))?;
        feed(&all);
    } else {
        let mut buf = vec![0u8; SAMPLE as usize];
        for at in [0, size / 2 - SAMPLE / 2, size - SAMPLE] {
            read_exact_at(&file, &mut buf, at).map_err(|e| IndexError::io(path, e))?;
            feed(&buf);
        }
    }
    Ok((size, mtime, hash))
}

impl SourceEntry {
    /// Checks that the file is as it was indexed.
    pub fn verify(&self) -> Result<(), IndexError> {
        let (size, mtime, sample) = fingerprint(&self.path).map_err(|e| match e {
            IndexError::Io { source, .. } => IndexError::SourceChanged {
                path: self.path.clone(),
                what: format!("cannot be read: {source}"),
            },
            other => other,
        })?;
        let what = if size != self.size {
            format!("its size was {} bytes, now {size}", self.size)
        } else if sample != self.sample {
            "its content differs".to_string()
        } else if mtime != self.mtime_ns {
            "its modification time differs".to_string()
        } else {
            return Ok(());
        };
        Err(IndexError::SourceChanged {
            path: self.path.clone(),
            what,
        })
    }
}
