//! Partitions for cluster engines (Dask, Spark): a list of files cut into pieces that workers
//! read independently, and the counts that give every game of a piece the same `game_id` and
//! `offset` a single read of the files gives.
//!
//! # The plan
//!
//! [`plan`] cuts each file, in the order given, by what it is stored as (told from its first
//! bytes, as [`open`](fn@crate::open) does):
//!
//! - **plain text**: byte ranges `[k·block, (k+1)·block)` of the file. A range holds the games
//!   whose first byte lies in it, aligned by the resynchronisation rule of
//!   [`resync`](crate::resync) exactly as [`open_range`](crate::open_range) reads them; a
//!   range inside one long game holds no game.
//! - **pzstd-layout `.zst`** (the Lichess database): groups of whole frames, each group of
//!   about `block` **stored (compressed) bytes**: frames are added to a group until it reaches
//!   `block`, so a group has at least one frame. Compressed size, not decoded size, because
//!   pzstd frames do not record their decoded size: sizing by text would need the frames
//!   decoded at planning. A pzstd -19 file holds about 7 times its size in text, so a group
//!   of 64 MiB stored is some 450 MiB of text; pick `block` with that in mind.
//! - **anything else** read whole by [`open`](fn@crate::open) (gzip, bzip2, xz, zip,
//!   UTF-16, a zstd file not in pzstd's layout): one partition, and a warning naming the file
//!   in [`Plan::warnings`], since such a stream cannot be cut without decoding all of it.
//! - an empty file gives no partition; a binary file or an archive pgnkit does not read is an
//!   error naming it ([`InputError::NotPgn`]), before anything is read.
//!
//! Each [`Partition`] is plain data (file index, path, stored range, kind) and its identity
//! is `(file, start)`: the same files and block size always give the same partitions.
//!
//! # `game_id` and `offset` in a partitioned read
//!
//! A single read (`pgnkit convert`, `pgnkit.read_arrow`) numbers games in input order from 0
//! across all its files (`game_id`) and gives each game's byte offset in its decoded file
//! (`offset`). A partitioned read gives **the same values**, so that any partitioning gives
//! the same rows: a worker reads a partition with a *base* for each,
//!
//! - `game_id` = the number of games in all partitions before it (of this file and of the
//!   files before) + the game's index in the partition;
//! - `offset` = the offset of the partition's first game in its decoded file + the game's
//!   offset in the partition's stream (a range reader hands out the games' bytes one after
//!   the other, so offsets within a partition run on from its first game).
//!
//! - `line` (of diagnostics) = the line of the partition's first game in its decoded file +
//!   the game's line in the partition's stream - 1 (a range's stream starts at a line start,
//!   its first game on line 1).
//!
//! The bases come from [`Counts`]: [`count`] finds them before the reads (workers can run
//! the counts in parallel, as a first stage; Spark runs them when it plans), reading the
//! partition with the lexer's splitter only (no chess), or a reader that reads the partition
//! anyway finds them as it reads (Dask's tasks do, and number their rows afterwards): the
//! games, their bytes and their line ends, and for a file's first partition the bytes and
//! line ends skipped before its first game. [`Bases::of`] adds them up in plan order. Counting costs a pass of decompression and splitting (no move is checked): a
//! fraction of the read itself, and the price of ids that do not depend on the block size.
//! The splitter's games are the reader's games (a game the reader rejects still has an id),
//! when both split by the same rules: [`count`] takes the lexing rules the reads use
//! ([`LexOptions`]; with nested comments a result marker inside a comment ends no game). The
//! counts then hold for every reader option but `max_game_bytes`, which the count does not
//! apply (a game skipped for its size is still one game).
//!
//! A partition read whole (a gzip file) gets its offsets from the reader; only its game count
//! matters to the partitions after it.

use std::io::BufRead;
use std::path::{Path, PathBuf};

use pgnkit_lexer::{LexOptions, Reader};

use crate::decode::refuse_format;
use crate::error::read_error;
use crate::probe::{Probed, probe};
use crate::{Format, InputError, Options, Source, Stream, pzstd};

/// How a partition is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// A byte range of a plain text file ([`open_range`](crate::open_range)).
    Range,
    /// Whole frames of a pzstd-layout `.zst` file: a range in compressed bytes snapped to
    /// frame starts ([`open_range`](crate::open_range)).
    Frames,
    /// The whole file ([`open`](fn@crate::open)): a stream that cannot be cut.
    Whole,
}

impl Kind {
    /// The kind's name: `range`, `frames`, `whole`.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Range => "range",
            Kind::Frames => "frames",
            Kind::Whole => "whole",
        }
    }
}

/// One piece of the input that a worker reads on its own.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Partition {
    /// The file's index in the list given to [`plan`].
    pub file: usize,
    /// The file's path.
    pub path: PathBuf,
    /// The file's name in messages.
    pub name: String,
    /// First stored byte of the range (a frame's skippable header for [`Kind::Frames`]; 0 for
    /// [`Kind::Whole`]).
    pub start: u64,
    /// End of the range, excluded (the file's stored size for [`Kind::Whole`]).
    pub end: u64,
    /// How it is read.
    pub kind: Kind,
}

impl Partition {
    /// The partition's identity: the file's index and the range's first stored byte.
    pub fn id(&self) -> (usize, u64) {
        (self.file, self.start)
    }

    /// The partition's source and range, for [`open`](fn@crate::open).
    pub fn source(&self) -> (Source, Option<std::ops::Range<u64>>) {
        let source = Source::named_path(&self.path, &self.name);
        let range = (self.kind != Kind::Whole).then_some(self.start..self.end);
        (source, range)
    }

    /// Opens the partition's text: one stream, or for a zip archive read whole, one per PGN
    /// member.
    pub fn open(&self, options: &Options) -> Result<Vec<Stream>, InputError> {
        let (source, range) = self.source();
        Ok(crate::open(source, range, options)?.streams)
    }
}

/// A list of files cut into partitions.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Plan {
    /// The partitions, file by file in the order given, each file's in file order.
    pub partitions: Vec<Partition>,
    /// Messages for the user, each naming a file: files read as one partition.
    pub warnings: Vec<String>,
}

/// Cuts `files` (path and name in messages, in input order) into partitions of about
/// `block` bytes (at least 1): see the module's docs for how each kind of file is cut.
pub fn plan(files: &[(PathBuf, String)], block: u64) -> Result<Plan, InputError> {
    let block = block.max(1);
    let mut out = Plan::default();
    for (index, (path, name)) in files.iter().enumerate() {
        plan_file(index, path, name, block, &mut out)?;
    }
    Ok(out)
}

fn plan_file(
    index: usize,
    path: &Path,
    name: &str,
    block: u64,
    out: &mut Plan,
) -> Result<(), InputError> {
    let probe = match probe(path, name)? {
        Probed::File(probe) if probe.size > 0 => probe,
        // An empty file, a pipe (no size): no partition.
        _ => return Ok(()),
    };
    let (size, format) = (probe.size, probe.format);
    refuse_format(name, format)?;
    let partition = |start, end, kind| Partition {
        file: index,
        path: path.to_owned(),
        name: name.to_owned(),
        start,
        end,
        kind,
    };
    let bounds: Vec<(u64, u64)> = match format {
        Format::Text => {
            let mut bounds = Vec::new();
            let mut at = 0;
            while at < size {
                let end = at.saturating_add(block).min(size);
                bounds.push((at, end));
                at = end;
            }
            bounds
        }
        Format::Zstd => match &probe.frames {
            Some(frames) => frame_groups(frames, size, block),
            None => {
                out.warnings
                    .push(whole_warning(name, "a zstd file not in pzstd's layout"));
                out.partitions.push(partition(0, size, Kind::Whole));
                return Ok(());
            }
        },
        other => {
            out.warnings.push(whole_warning(name, whole_reason(other)));
            out.partitions.push(partition(0, size, Kind::Whole));
            return Ok(());
        }
    };
    let kind = if format == Format::Text {
        Kind::Range
    } else {
        Kind::Frames
    };
    out.partitions.extend(
        bounds
            .into_iter()
            .map(|(start, end)| partition(start, end, kind)),
    );
    Ok(())
}

/// Groups of consecutive frames of about `block` compressed bytes each, as stored ranges from
/// a group's first frame start to the next group's (the last to the file's end).
fn frame_groups(frames: &[pzstd::Frame], size: u64, block: u64) -> Vec<(u64, u64)> {
    let mut starts = Vec::new();
    let mut group_start: Option<u64> = None;
    for frame in frames {
        let start = *group_start.get_or_insert(frame.start);
        if frame.end() - start >= block {
            starts.push(start);
            group_start = None;
        }
    }
    if let Some(start) = group_start {
        starts.push(start);
    }
    let mut bounds = Vec::with_capacity(starts.len());
    for (i, &start) in starts.iter().enumerate() {
        bounds.push((start, starts.get(i + 1).copied().unwrap_or(size)));
    }
    bounds
}

fn whole_reason(format: Format) -> &'static str {
    match format {
        Format::Gzip => "a gzip file",
        Format::Bzip2 => "a bzip2 file",
        Format::Xz => "an xz file",
        Format::Zip => "a zip archive",
        Format::Utf16Le | Format::Utf16Be => "UTF-16 text",
        _ => "a compressed stream without independent frames",
    }
}

fn whole_warning(name: &str, what: &str) -> String {
    format!(
        "{name}: {what} cannot be cut into byte ranges; it is read as one partition (recompress it with pzstd to split it)"
    )
}

/// What [`count`] found in a partition.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Counts {
    /// Games (as the splitter finds them; every one gets a `game_id`).
    pub games: u64,
    /// Bytes of those games (of the text, decoded): a range's games run one after the other.
    pub bytes: u64,
    /// Line ends in those games' bytes (`\n`, `\r\n` or a lone `\r` each, as the lexer
    /// counts lines): the partition's games span `lines + 1` lines.
    pub lines: u64,
    /// For a file's first partition (stored start 0): the offset of its first game in the
    /// decoded file (a byte order mark and white space before it); else 0.
    pub lead: u64,
    /// For a file's first partition: the line ends before its first game; else 0.
    pub lead_lines: u64,
    /// The offset the partition's stream gives its first game ([`Stream::origin`]; 0 when
    /// it gives none, as for frames): a reader that adds it to the offsets it reports (as
    /// `pgnkit.read_arrow` does) is put right by subtracting it and adding the base.
    pub origin: u64,
}

/// Counts the games of `partition` with the lexer's splitter alone (see the module's docs),
/// splitting by `rules`, the lexing rules of the reads the counts are for. A zip archive
/// read whole counts the games of all its PGN members.
pub fn count(
    partition: &Partition,
    options: &Options,
    rules: LexOptions,
) -> Result<Counts, InputError> {
    let mut counts = Counts::default();
    for stream in partition.open(options)? {
        if partition.kind != Kind::Whole {
            counts.origin = stream.origin.unwrap_or(0);
        }
        let name = stream.name.clone();
        let mut reader = Reader::new(stream.reader);
        reader.set_options(rules);
        while let Some(game) = reader.next_game().map_err(|e| read_error(&name, e))? {
            counts.games += 1;
            counts.bytes += game.bytes.len() as u64;
            counts.lines = game.line - 1 + line_ends(game.bytes);
        }
    }
    if partition.start == 0 && partition.kind != Kind::Whole {
        (counts.lead, counts.lead_lines) = lead(partition, options)?;
    }
    Ok(counts)
}

/// What a partition's stream leaves out before its first game, for a file's first partition
/// (stored start 0, not read whole): `(lead, lead_lines)` of [`Counts`]. A range from the
/// file's start hands out its games' bytes only: a byte order mark and white space before
/// the first game are not in its stream. 0 for the other partitions.
pub fn lead_of(partition: &Partition, options: &Options) -> Result<(u64, u64), InputError> {
    if partition.start == 0 && partition.kind != Kind::Whole {
        lead(partition, options)
    } else {
        Ok((0, 0))
    }
}

/// Line ends in `bytes` as the lexer counts lines: `\n`, `\r\n` and a lone `\r` are one
/// each. (Counting `\n` alone is a vectorised pass; `\r` is looked at only when there is
/// one.)
pub fn line_ends(bytes: &[u8]) -> u64 {
    let lf = bytes.iter().filter(|&&b| b == b'\n').count();
    if memchr::memchr(b'\r', bytes).is_none() {
        return lf as u64;
    }
    let cr = bytes.iter().filter(|&&b| b == b'\r').count();
    let crlf = bytes.windows(2).filter(|w| w == b"\r\n").count();
    (lf + cr - crlf) as u64
}

/// The offset of the first game of the decoded file of `partition` and the line ends before
/// it: the byte order mark and white space before it, which the lexer's reader skips (so
/// only the text's first bytes are decoded, not the first game).
fn lead(partition: &Partition, options: &Options) -> Result<(u64, u64), InputError> {
    let options = Options {
        threads: 1,
        ..*options
    };
    let source = Source::named_path(&partition.path, &partition.name);
    let opened = crate::open(source, None, &options)?;
    let Some(mut stream) = opened.streams.into_iter().next() else {
        return Ok((0, 0));
    };
    let mut lead = 0u64;
    let mut lines = 0u64;
    // A CR at the end of one chunk and a LF at the start of the next are one line end.
    let mut last_cr = false;
    loop {
        let chunk = stream
            .reader
            .fill_buf()
            .map_err(|e| read_error(&stream.name, e))?;
        if chunk.is_empty() {
            return Ok((lead, lines));
        }
        let mut skip = 0;
        if lead == 0 && chunk.starts_with(b"\xef\xbb\xbf") {
            skip = 3;
        }
        let rest = chunk.get(skip..).unwrap_or_default();
        let ws = rest
            .iter()
            .take_while(|&&b| crate::resync::is_ws(b))
            .count();
        let n = skip + ws;
        lead += n as u64;
        let white = rest.get(..ws).unwrap_or_default();
        lines += line_ends(white);
        if last_cr && white.first() == Some(&b'\n') {
            lines -= 1;
        }
        if !white.is_empty() {
            last_cr = white.last() == Some(&b'\r');
        }
        if ws < rest.len() {
            return Ok((lead, lines));
        }
        stream.reader.consume(n);
    }
}

/// The bases of a partition's rows: see the module's docs.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Bases {
    /// The `game_id` of the partition's first game.
    pub game_id: u64,
    /// The offset of the partition's first game in its decoded file (0 for a partition read
    /// whole, whose reader knows its offsets).
    pub offset: u64,
    /// The 1-based line of the partition's first game in its decoded file (1 for a partition
    /// read whole, whose reader knows its lines): a reader adds `line - 1` to the lines it
    /// counts from its stream's start.
    pub line: u64,
}

impl Bases {
    /// The bases of each partition of `partitions` (a plan's, in its order) from their
    /// `counts` (the same length; extra entries on either side are ignored).
    pub fn of(partitions: &[Partition], counts: &[Counts]) -> Vec<Bases> {
        let mut out = Vec::with_capacity(partitions.len());
        let mut next = Bases::default();
        let mut file = None;
        for (partition, counts) in partitions.iter().zip(counts) {
            let bases = next.then(file, partition, counts);
            file = Some(partition.file);
            out.push(bases);
            next = bases.after(counts);
        }
        out
    }

    /// The bases of `partition` (with its `counts`), `self` being what the partition before
    /// it in the plan left (of the file `file`; `Bases::default()` and `None` for the first):
    /// one step of [`of`](Bases::of), for engines that add the counts up one partition at a
    /// time.
    pub fn then(self, file: Option<usize>, partition: &Partition, counts: &Counts) -> Bases {
        let mut bases = self;
        if file != Some(partition.file) {
            bases.offset = 0;
            bases.line = 1;
        }
        if partition.start == 0 {
            bases.offset = counts.lead;
            bases.line = 1 + counts.lead_lines;
        }
        if partition.kind == Kind::Whole {
            bases.offset = 0;
            bases.line = 1;
        }
        bases
    }

    /// What a partition with these bases and `counts` leaves for the next one (of the same
    /// file; the next file's start resets offset and line in [`then`](Bases::then)).
    pub fn after(self, counts: &Counts) -> Bases {
        Bases {
            game_id: self.game_id + counts.games,
            offset: self.offset + counts.bytes,
            line: self.line + counts.lines,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(start: u64, len: u64) -> pzstd::Frame {
        pzstd::Frame {
            start,
            data: start + pzstd::HEADER_LEN,
            len,
        }
    }

    #[test]
    fn frames_are_grouped_by_compressed_size() {
        // Frames of 100, 50, 200, 10, 10 compressed bytes, each after its 12-byte header.
        let mut frames = Vec::new();
        let mut at = 0;
        for len in [100, 50, 200, 10, 10] {
            frames.push(frame(at, len));
            at += pzstd::HEADER_LEN + len;
        }
        let size = at;
        // 112, 62, 212, 22, 22 stored bytes: groups reach 150 bytes.
        assert_eq!(
            frame_groups(&frames, size, 150),
            vec![(0, 174), (174, 386), (386, size)]
        );
        // A block smaller than a frame: one frame per group.
        let one: Vec<_> = frames.iter().map(|f| f.start).collect();
        let groups = frame_groups(&frames, size, 1);
        assert_eq!(groups.iter().map(|g| g.0).collect::<Vec<_>>(), one);
        // A block bigger than the file: one group.
        assert_eq!(frame_groups(&frames, size, 1 << 30), vec![(0, size)]);
    }

    #[test]
    fn line_ends_count_as_the_lexer_does() {
        assert_eq!(line_ends(b""), 0);
        assert_eq!(line_ends(b"a\nb\n\n"), 3);
        assert_eq!(line_ends(b"a\r\nb\rc\n\r"), 4);
        let mut reader = Reader::new(&b"[A \"a\"]\r\n\r*\n\r\n[B \"b\"]\n*\n"[..]);
        let first = reader
            .next_game()
            .expect("slice")
            .map(|g| (g.line, line_ends(g.bytes)));
        let second = reader.next_game().expect("slice").map(|g| g.line);
        assert_eq!(first, Some((1, 4)));
        assert_eq!(
            second,
            Some(5),
            "the second game starts after the first's line ends"
        );
    }

    #[test]
    fn bases_run_on_across_partitions_and_files() {
        let part = |file, start, kind| Partition {
            file,
            path: PathBuf::new(),
            name: String::new(),
            start,
            end: start + 10,
            kind,
        };
        let partitions = [
            part(0, 0, Kind::Range),
            part(0, 10, Kind::Range),
            part(1, 0, Kind::Whole),
            part(2, 0, Kind::Frames),
            part(2, 30, Kind::Frames),
        ];
        let counts = |games, bytes, lines, lead, lead_lines| Counts {
            games,
            bytes,
            lines,
            lead,
            lead_lines,
            origin: 0,
        };
        let bases = Bases::of(
            &partitions,
            &[
                counts(2, 100, 9, 3, 2),
                counts(1, 40, 4, 0, 0),
                counts(5, 500, 50, 0, 0),
                counts(0, 0, 0, 0, 0),
                counts(4, 80, 7, 0, 0),
            ],
        );
        let b = |game_id, offset, line| Bases {
            game_id,
            offset,
            line,
        };
        assert_eq!(
            bases,
            vec![
                b(0, 3, 3),
                b(2, 103, 12),
                b(3, 0, 1),
                b(8, 0, 1),
                b(8, 0, 1)
            ],
            "an empty partition leaves the next one's bases where they were"
        );
    }
}
