//! Byte ranges of a file by what it is stored as: opening one (for
//! [`open_range`](crate::open_range) and [`open`](fn@crate::open) with a range) and cutting a file
//! into them ([`split_points`]). A
//! plain text file is cut anywhere; a pzstd-layout `.zst` file at its frames (its offsets are
//! compressed bytes); anything else cannot be cut ([`InputError::RangeUnsupported`]). The
//! readers that hand out a range's games are in [`crate::range`].

use std::io::{self, BufReader};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::AtomicU64;

use crate::decode::admit;
#[cfg(feature = "zstd")]
use crate::error::read_error;
use crate::piped::Counted;
use crate::probe::{Probe, Probed, probe};
use crate::range::{BoundedRange, RangeReader, leading_junk, origin_before, resync};
#[cfg(feature = "zstd")]
use crate::range::{Resynced, resync_mid_line};
use crate::{Format, InputError, Options, Stream, resync as rule};

/// The range `[start, end)` (`start <= end`) of the probed file named `name`.
pub(crate) fn open_probed(
    probe: Probe,
    name: &str,
    start: u64,
    end: u64,
    options: &Options,
) -> Result<Stream, InputError> {
    admit(name, probe.format, &probe.head, options)?;
    let Probe {
        file,
        size,
        format,
        frames,
        ..
    } = probe;
    let read = Arc::new(AtomicU64::new(0));
    let stream = |reader: Box<dyn io::BufRead + Send>, origin| Stream {
        name: name.to_owned(),
        reader,
        format,
        size: Some(end.min(size).saturating_sub(start)),
        read: read.clone(),
        origin,
        transcoded: None,
    };
    let empty = || stream(Box::new(io::empty()), Some(start));
    match format {
        Format::Text => {
            if start >= size || start == end {
                return Ok(empty());
            }
            let io_err = |e| InputError::io(name, e);
            let origin = if start == 0 {
                0
            } else {
                origin_before(&file, start).map_err(io_err)?
            };
            // A range from the start hands out games from the first one on: its stream
            // starts past the junk before it (a byte order mark, white space), so offsets
            // count from there.
            let junk = if start == 0 {
                leading_junk(&file, size).map_err(io_err)?
            } else {
                0
            };
            let mut file = file;
            io::Seek::seek(&mut file, io::SeekFrom::Start(origin)).map_err(io_err)?;
            let reader = BufReader::with_capacity(1 << 16, Counted::new(file, read.clone()));
            let end = Arc::new(AtomicU64::new(end - origin));
            let before = if origin == 0 {
                rule::Before::FileStart
            } else {
                rule::Before::Other
            };
            if start == 0 {
                let games = RangeReader::new(reader, 0, before, end);
                return Ok(stream(Box::new(games), Some(junk)));
            }
            let from = AtomicU64::new(start - origin);
            match resync(reader, before, &from).map_err(io_err)? {
                None => Ok(empty()),
                Some((p, before, rest)) => {
                    let bytes = BoundedRange::new(rest, p, before, end);
                    Ok(stream(Box::new(bytes), Some(origin + p)))
                }
            }
        }
        #[cfg(feature = "zstd")]
        Format::Zstd => {
            use crate::pzstd;
            let frames = frames.ok_or_else(|| not_pzstd(name))?;
            let first = frames.iter().position(|f| f.start >= start);
            let Some(first) = first.filter(|&i| frames.get(i).is_some_and(|f| f.start < end))
            else {
                return Ok(stream(Box::new(io::empty()), None));
            };
            let after = frames
                .iter()
                .position(|f| f.start >= end)
                .unwrap_or(frames.len());
            let file = Arc::new(file);
            // The frames from `from` on, decoded, with `start` and `end` marked in them.
            let spawn = |from: usize| {
                let marks = pzstd::Marks {
                    start_frame: first - from,
                    start: Arc::new(AtomicU64::new(u64::MAX)),
                    end_frame: after - from,
                    end: Arc::new(AtomicU64::new(u64::MAX)),
                };
                let source = pzstd::Source {
                    name: name.to_owned(),
                    file: file.clone(),
                    count: read.clone(),
                    max_window: options.max_window,
                };
                let decoded = pzstd::Frames::spawn(
                    source,
                    frames.get(from..).unwrap_or_default().to_vec(),
                    options.threads,
                    Some(marks.clone()),
                );
                (decoded, marks)
            };
            if first == 0 {
                let (decoded, marks) = spawn(0);
                let games = RangeReader::new(decoded, 0, rule::Before::FileStart, marks.end);
                return Ok(stream(Box::new(games), None));
            }
            // The line before the first frame's lines is read from the frames before it: from
            // the frame before, or further back while the state there is still unknown (a
            // frame starts anywhere in a line, so its first line is not judged).
            let mut from = first - 1;
            loop {
                let (decoded, marks) = spawn(from);
                let found = if from == 0 {
                    Resynced::from(resync(decoded, rule::Before::FileStart, &marks.start))
                } else {
                    resync_mid_line(decoded, &marks.start)
                };
                return match found {
                    Resynced::Unknown if from > 0 => {
                        from -= 1;
                        continue;
                    }
                    Resynced::Found(p, before, rest) => {
                        let bytes = BoundedRange::new(rest, p, before, marks.end);
                        Ok(stream(Box::new(bytes), None))
                    }
                    Resynced::Unknown | Resynced::None => Ok(stream(Box::new(io::empty()), None)),
                    Resynced::Failed(e) => Err(read_error(name, e)),
                };
            }
        }
        _ => {
            let _ = (&frames, options);
            Err(cannot_cut(name, format))
        }
    }
}

/// [`InputError::RangeUnsupported`] for a zstd file not in pzstd's layout.
fn not_pzstd(name: &str) -> InputError {
    InputError::RangeUnsupported {
        name: name.to_owned(),
        what: "a zstd file not in pzstd's layout",
    }
}

/// [`InputError::RangeUnsupported`] for a file of `format` (not text, not pzstd frames).
fn cannot_cut(name: &str, format: Format) -> InputError {
    InputError::RangeUnsupported {
        name: name.to_owned(),
        what: match format {
            Format::Zip => "a zip archive",
            Format::Utf16Le | Format::Utf16Be => "UTF-16 text",
            Format::Refused(what) => what,
            _ => "a compressed stream without independent frames",
        },
    }
}

/// Cuts the file at `path` into at most `n` byte ranges `[start, end)` that cover it, for
/// [`open_range`](crate::open_range): equal parts of a plain file, or groups of frames of about equal compressed
/// size of a pzstd-layout `.zst` file (the cuts at frame starts).
pub fn split_points(path: &Path, name: &str, n: usize) -> Result<Vec<(u64, u64)>, InputError> {
    let Probed::File(probe) = probe(path, name)? else {
        return Err(InputError::RangeNeedsFile {
            name: name.to_owned(),
        });
    };
    let size = probe.size;
    let n = n.max(1) as u64;
    let cuts: Vec<u64> = match probe.format {
        Format::Text => (1..n).map(|k| size / n * k + size % n * k / n).collect(),
        Format::Zstd => {
            let frames = probe.frames.as_deref().ok_or_else(|| not_pzstd(name))?;
            (1..n)
                .filter_map(|k| {
                    let target = size / n * k + size % n * k / n;
                    frames.iter().map(|f| f.start).find(|&s| s >= target)
                })
                .collect()
        }
        other => return Err(cannot_cut(name, other)),
    };
    let mut bounds = vec![0];
    bounds.extend(cuts.into_iter().filter(|&c| c > 0 && c < size));
    bounds.push(size);
    bounds.dedup();
    Ok(bounds
        .windows(2)
        .filter_map(|w| Some((*w.first()?, *w.get(1)?)))
        .collect())
}
