//! Byte ranges `[start, end)` of a file: exactly the games whose first byte lies in the range,
//! and the split points that cut a file into such ranges.
//!
//! A range reader starts at the first resynchronisation point at or after `start` (see
//! [`resync`](crate::resync) for the rule and where it differs from reading from the start)
//! and reads on past `end` to finish its last game: it stops before the first game at or after
//! `end` that starts at a resynchronisation point, which is where the next range starts. So
//! the ranges of any set of cut points together hold every game of the file once, in order.
//! For a pzstd-layout `.zst` file the range is in compressed bytes and snaps to frames: it
//! holds the frames whose skippable header starts in it, and the cut above is made in their
//! decoded text.
//!
//! What a range reader hands out is the games' bytes, one after the other: the lexer reads
//! them as it would read them in the whole file. Offsets and lines count from the range's
//! first game ([`Stream::origin`](crate::Stream::origin) is its offset in a plain file).
//!
//! Two readers do this. [`RangeReader`] splits its stream into games to find the end (for a
//! file's first range, which leaves out what comes before the first game). [`BoundedRange`],
//! for the other ranges, passes the bytes before `end` on as they come and looks only at the
//! lines after: the lexer that reads the range then splits it once, not twice.

use std::fs::File;
use std::io::{self, BufRead, Cursor, Read};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use pgnkit_lexer::Reader;

use crate::resync::{Before, Lines, Tracker, is_blank, is_point};

/// The games of a range, read from a stream that starts at a resynchronisation point (or the
/// file's start).
pub(crate) struct RangeReader<R> {
    games: Reader<R>,
    /// Offset of the stream's first byte, in the coordinates of `end`.
    base: u64,
    end: Arc<AtomicU64>,
    tracker: Tracker,
    out: Vec<u8>,
    pos: usize,
    done: bool,
}

/// A stream that starts at a resynchronisation point: the point's line, then the rest.
pub(crate) type FromPoint<R> = io::Chain<Cursor<Vec<u8>>, R>;

/// Finds the first resynchronisation point at or after `start` in `stream` (whose first byte
/// is at offset 0 and follows `before`); `start` may still be unknown (`u64::MAX`) when the
/// scan begins and be set as the stream is read. Returns the point's offset, the state before
/// it and the stream from the point, or `None` when there is none.
pub(crate) fn resync<R: BufRead>(
    stream: R,
    before: Before,
    start: &AtomicU64,
) -> io::Result<Option<(u64, Before, FromPoint<R>)>> {
    let mut lines = Lines::new(stream, 0);
    let mut before = before;
    let mut line = Vec::new();
    while let Some(at) = lines.next_line(&mut line)? {
        // A game at the file's start begins after the byte order mark.
        let bom = at == 0 && line.starts_with(b"\xef\xbb\xbf");
        let at = if bom { 3 } else { at };
        if at >= start.load(Ordering::Acquire) && is_point(&line, before) {
            let rest = lines.into_inner();
            if bom {
                line.drain(..3);
            }
            return Ok(Some((at, before, Cursor::new(line).chain(rest))));
        }
        // The byte order mark is not part of the line (a line of white space after it is
        // blank, as the splitter has it).
        let content = line.get(if bom { 3 } else { 0 }..).unwrap_or_default();
        if !is_blank(content) {
            before = Before::after(content);
        }
    }
    Ok(None)
}

/// What [`resync_mid_line`] found.
#[cfg(feature = "zstd")]
pub(crate) enum Resynced<R> {
    /// The point's offset, the state before it and the stream from the point.
    Found(u64, Before, FromPoint<R>),
    /// No resynchronisation point at or after `start`.
    None,
    /// A line at or after `start` starts like a tag pair, but no whole line before it was
    /// seen: read from further back.
    Unknown,
    /// Reading failed.
    Failed(io::Error),
}

#[cfg(feature = "zstd")]
impl<R> From<io::Result<Option<(u64, Before, FromPoint<R>)>>> for Resynced<R> {
    fn from(found: io::Result<Option<(u64, Before, FromPoint<R>)>>) -> Self {
        match found {
            Ok(Some((p, before, rest))) => Resynced::Found(p, before, rest),
            Ok(None) => Resynced::None,
            Err(e) => Resynced::Failed(e),
        }
    }
}

/// [`resync`] for a stream that starts anywhere in a line (a pzstd frame's first byte): its
/// first line is only part of one, so the state is unknown until a whole non-blank line has
/// been read; a line that starts like a tag pair at or after `start` before then gives
/// [`Resynced::Unknown`] (a range reader reading from the file's start would know the state
/// there, so guessing could cut elsewhere than the range before stops).
#[cfg(feature = "zstd")]
pub(crate) fn resync_mid_line<R: BufRead>(stream: R, start: &AtomicU64) -> Resynced<R> {
    let mut lines = Lines::new(stream, 0);
    let mut line = Vec::new();
    // The partial first line.
    match lines.next_line(&mut line) {
        Ok(Some(_)) => {}
        Ok(None) => return Resynced::None,
        Err(e) => return Resynced::Failed(e),
    }
    let mut before: Option<Before> = None;
    loop {
        let at = match lines.next_line(&mut line) {
            Ok(Some(at)) => at,
            Ok(None) => return Resynced::None,
            Err(e) => return Resynced::Failed(e),
        };
        if at >= start.load(Ordering::Acquire) && crate::resync::starts_like_tag_pair(&line) {
            match before {
                None => return Resynced::Unknown,
                Some(state) if is_point(&line, state) => {
                    let rest = lines.into_inner();
                    return Resynced::Found(at, state, Cursor::new(line).chain(rest));
                }
                Some(_) => {}
            }
        }
        if !is_blank(&line) {
            before = Some(Before::after(&line));
        }
    }
}

impl<R: BufRead> RangeReader<R> {
    /// The games of `stream` (starting at offset `base`, after `before`) up to the first
    /// resynchronisation point at or after `end`.
    pub(crate) fn new(stream: R, base: u64, before: Before, end: Arc<AtomicU64>) -> Self {
        RangeReader {
            games: Reader::new(stream),
            base,
            end,
            tracker: Tracker::new(before),
            out: Vec::new(),
            pos: 0,
            done: false,
        }
    }
}

impl<R: BufRead> BufRead for RangeReader<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        while self.pos >= self.out.len() && !self.done {
            let Some(game) = self.games.next_game()? else {
                self.done = true;
                break;
            };
            let at = self.base + game.offset;
            let first_line = match memchr::memchr2(b'\n', b'\r', game.bytes) {
                Some(i) => game.bytes.get(..i).unwrap_or_default(),
                None => game.bytes,
            };
            if at >= self.end.load(Ordering::Acquire)
                && game.column == 1
                && self.tracker.is_point(first_line)
            {
                self.done = true;
                break;
            }
            self.tracker.feed(game.bytes);
            self.out.clear();
            self.out.extend_from_slice(game.bytes);
            self.pos = 0;
        }
        Ok(self.out.get(self.pos..).unwrap_or_default())
    }

    fn consume(&mut self, amt: usize) {
        self.pos = (self.pos + amt).min(self.out.len());
    }
}

impl<R: BufRead> Read for RangeReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        crate::read_buffered(self, buf)
    }
}

/// The bytes of a range that starts at a resynchronisation point after the file's start: up
/// to the first resynchronisation point at or after `end`, where the next range starts. The
/// same bytes a [`RangeReader`] hands out (every resynchronisation point is a game start, see
/// [`resync`](crate::resync)), found without splitting the range into games: the bytes before
/// `end` are passed on as they come, and only the lines from `end` on are looked at. The
/// games are split once, by the lexer that reads this stream. `end` may be unknown
/// (`u64::MAX`) until the stream's reader sets it, as a pzstd reader does when the frame that
/// starts there begins to be handed out: it is looked at after each fill of the stream.
pub(crate) struct BoundedRange<R> {
    inner: R,
    /// Offset of `inner`'s next byte, in the coordinates of `end`.
    pos: u64,
    end: Arc<AtomicU64>,
    /// The state at `pos`, kept over the bytes passed on.
    tracker: Tracker,
    /// From `end` on: the line being handed out.
    line: Vec<u8>,
    line_pos: usize,
    done: bool,
}

impl<R: BufRead> BoundedRange<R> {
    /// The bytes of `stream` (starting at offset `base`, after `before`) up to the first
    /// resynchronisation point at or after `end`.
    pub(crate) fn new(stream: R, base: u64, before: Before, end: Arc<AtomicU64>) -> Self {
        BoundedRange {
            inner: stream,
            pos: base,
            end,
            tracker: Tracker::new(before),
            line: Vec::new(),
            line_pos: 0,
            done: false,
        }
    }

    /// From `end` on: reads the next line into `line`, or ends the range before it when it is
    /// a resynchronisation point. A CR LF is read as a CR line end and an empty line, as
    /// [`Lines`] reads it.
    fn next_line(&mut self) -> io::Result<()> {
        self.line.clear();
        self.line_pos = 0;
        let mut lines = Lines::new(&mut self.inner, self.pos);
        if lines.next_line(&mut self.line)?.is_none() {
            self.done = true;
            return Ok(());
        }
        if self.tracker.is_point(&self.line) {
            self.line.clear();
            self.done = true;
            return Ok(());
        }
        self.pos += self.line.len() as u64;
        self.tracker.feed(&self.line);
        Ok(())
    }
}

impl<R: BufRead> BufRead for BoundedRange<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        loop {
            if self.line_pos < self.line.len() || self.done {
                return Ok(self.line.get(self.line_pos..).unwrap_or_default());
            }
            if self.pos >= self.end.load(Ordering::Acquire) {
                self.next_line()?;
                continue;
            }
            // Fill first, then look at `end` again: the fill may have set it.
            self.inner.fill_buf()?;
            let end = self.end.load(Ordering::Acquire);
            if self.pos >= end {
                continue;
            }
            let before_end = usize::try_from(end - self.pos).unwrap_or(usize::MAX);
            // The bytes are buffered: a second fill reads nothing.
            let available = self.inner.fill_buf()?;
            return Ok(available.get(..before_end).unwrap_or(available));
        }
    }

    fn consume(&mut self, amt: usize) {
        if self.line_pos < self.line.len() {
            self.line_pos = (self.line_pos + amt).min(self.line.len());
            return;
        }
        // Bytes before `end`, still in `inner`'s buffer (a second `fill_buf` reads nothing).
        if amt > 0
            && let Ok(available) = self.inner.fill_buf()
        {
            let amt = amt.min(available.len());
            self.tracker.feed(available.get(..amt).unwrap_or_default());
            self.inner.consume(amt);
            self.pos += amt as u64;
        }
    }
}

impl<R: BufRead> Read for BoundedRange<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        crate::read_buffered(self, buf)
    }
}

/// The bytes before a plain file's first game, which the splitter skips (a UTF-8 byte order
/// mark, then white space): the offset of the first game a range from the start hands out,
/// whose stream starts at that game.
pub(crate) fn leading_junk(file: &File, size: u64) -> io::Result<u64> {
    let mut at = 0;
    let mut block = vec![0u8; 64 << 10];
    while at < size {
        let n = usize::try_from((size - at).min(block.len() as u64)).unwrap_or(block.len());
        let bytes = block.get_mut(..n).unwrap_or_default();
        crate::at::read_exact_at(file, bytes, at)?;
        let bom = at == 0 && bytes.starts_with(b"\xef\xbb\xbf");
        let from = if bom { 3 } else { 0 };
        match bytes
            .get(from..)
            .unwrap_or_default()
            .iter()
            .position(|&b| !crate::resync::is_ws(b))
        {
            Some(i) => return Ok(at + (from + i) as u64),
            None => at += n as u64,
        }
    }
    Ok(size)
}

/// Where to start reading a plain file for a range that starts at `start` (> 0): the start of
/// the last non-blank line before the line that holds `start`, so that the state before the
/// first candidate line is known; 0 when there is none.
pub(crate) fn origin_before(file: &File, start: u64) -> io::Result<u64> {
    let mut back = BackBytes::new(file, start);
    // The line holding `start` begins after the last line end before it.
    while let Some((_, b)) = back.prev()? {
        if b == b'\n' || b == b'\r' {
            // Now the last non-white-space byte before that line.
            while let Some((at, b)) = back.prev()? {
                if !crate::resync::is_ws(b) {
                    // And the start of its line.
                    let _ = at;
                    while let Some((at, b)) = back.prev()? {
                        if b == b'\n' || b == b'\r' {
                            return Ok(at + 1);
                        }
                    }
                    return Ok(0);
                }
            }
            return Ok(0);
        }
    }
    Ok(0)
}

/// A file's bytes read backwards from an offset, a block at a time.
struct BackBytes<'a> {
    file: &'a File,
    block: Vec<u8>,
    /// File offset of `block[0]`.
    block_at: u64,
    /// Offset of the next byte to return plus one.
    at: u64,
}

impl<'a> BackBytes<'a> {
    fn new(file: &'a File, at: u64) -> BackBytes<'a> {
        BackBytes {
            file,
            block: Vec::new(),
            block_at: at,
            at,
        }
    }

    fn prev(&mut self) -> io::Result<Option<(u64, u8)>> {
        if self.at == 0 {
            return Ok(None);
        }
        if self.at <= self.block_at {
            let from = self.at.saturating_sub(64 << 10);
            self.block = vec![0; usize::try_from(self.at - from).unwrap_or(0)];
            crate::at::read_exact_at(self.file, &mut self.block, from)?;
            self.block_at = from;
        }
        self.at -= 1;
        let i = usize::try_from(self.at - self.block_at).unwrap_or(usize::MAX);
        Ok(self.block.get(i).map(|&b| (self.at, b)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn games_of(text: &[u8]) -> Vec<Vec<u8>> {
        let mut reader = Reader::new(text);
        let mut games = Vec::new();
        while let Some(game) = reader.next_game().expect("slice") {
            games.push(game.bytes.to_vec());
        }
        games
    }

    /// The games of `[start, end)` of `text`, read the way a plain-file range is read.
    fn range(text: &[u8], start: u64, end: u64) -> Vec<Vec<u8>> {
        let end = Arc::new(AtomicU64::new(end));
        let mut bytes = Vec::new();
        if start == 0 {
            RangeReader::new(text, 0, Before::FileStart, end)
                .read_to_end(&mut bytes)
                .expect("slice");
        } else {
            let Some((p, before, stream)) =
                resync(text, Before::FileStart, &AtomicU64::new(start)).expect("slice")
            else {
                return Vec::new();
            };
            RangeReader::new(stream, p, before, end.clone())
                .read_to_end(&mut bytes)
                .expect("slice");
            // The bounded reader hands out the same bytes, whatever the reads' sizes.
            for size in [1, 2, 3, 7, 64] {
                let (p, before, stream) = resync(text, Before::FileStart, &AtomicU64::new(start))
                    .expect("slice")
                    .expect("found above");
                let stream = io::BufReader::with_capacity(size, stream);
                let mut bounded = Vec::new();
                BoundedRange::new(stream, p, before, end.clone())
                    .read_to_end(&mut bounded)
                    .expect("slice");
                assert_eq!(bounded, bytes, "{start}..{end:?}, reads of {size}");
            }
        }
        games_of(&bytes)
    }

    #[test]
    fn bounded_ranges_hand_out_the_range_readers_bytes() {
        // `range` checks the bounded reader against the range reader: every range of a text
        // with a comment in a tag section, CR LF and lone CR line ends, a game without tags and
        // a tag line after a marker.
        let text = b"[Event \"a\"]\r\n\r\n1. e4 e5 1-0\r\n\r\n[Event \"b\"]\n{c}\n[Site \"b\"]\n\n1. d4 \
            { 1-0\n[Event \"x\"] } *\n1. c4 0-1 [Event \"c\"]\n1. Nf3 *\r[Event \"d\"]\r1/2-1/2\n \n[E \"e\"]\n*";
        let len = text.len() as u64;
        let mut games = 0;
        for start in 1..=len {
            for end in start..=len + 1 {
                games += range(text, start, end).len();
            }
        }
        assert!(games > 1000, "{games} games read");
    }

    /// Text handed out in frames of 5 bytes and one that starts at `end`, setting `end` only
    /// when that frame begins to be handed out, as a pzstd reader does.
    struct Framed<'a> {
        text: &'a [u8],
        /// Offset of `text`'s first byte.
        base: u64,
        pos: usize,
        end: u64,
        mark: Arc<AtomicU64>,
    }

    impl BufRead for Framed<'_> {
        fn fill_buf(&mut self) -> io::Result<&[u8]> {
            let at = self.base + self.pos as u64;
            if at == self.end {
                self.mark.store(self.end, Ordering::Release);
            }
            let mut frame_end = (at / 5 + 1) * 5;
            if at < self.end {
                frame_end = frame_end.min(self.end);
            }
            let len = usize::try_from(frame_end - at).expect("small");
            let rest = &self.text[self.pos..];
            Ok(&rest[..len.min(rest.len())])
        }

        fn consume(&mut self, amt: usize) {
            self.pos += amt;
        }
    }

    impl Read for Framed<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            crate::read_buffered(self, buf)
        }
    }

    #[test]
    fn a_bounded_range_whose_end_is_set_late() {
        let text = b"[Event \"a\"]\n1. e4 1-0\n\n[Event \"b\"]\n{c}\n[Site \"b\"]\n1. d4 *\n\
            [Event \"c\"]\r\n1. c4 { 0-1\n[Event \"x\"] } 0-1\r\n[Event \"d\"]\n*\n";
        let len = text.len() as u64;
        let mut compared = 0;
        for start in 1..len {
            for end in start..=len {
                let want: Vec<u8> = range(text, start, end).concat();
                let Some((p, before, _)) =
                    resync(&text[..], Before::FileStart, &AtomicU64::new(start)).expect("slice")
                else {
                    continue;
                };
                // An end before the point was passed (and set) while the point was looked for.
                let mark = Arc::new(AtomicU64::new(if end <= p { end } else { u64::MAX }));
                let at = usize::try_from(p).expect("small");
                let framed = Framed {
                    text: &text[at..],
                    base: p,
                    pos: 0,
                    end,
                    mark: mark.clone(),
                };
                let mut got = Vec::new();
                BoundedRange::new(framed, p, before, mark)
                    .read_to_end(&mut got)
                    .expect("slice");
                assert_eq!(got, want, "{start}..{end}");
                compared += 1;
            }
        }
        assert!(compared > 1000, "{compared} ranges compared");
    }

    #[test]
    fn cuts_anywhere_give_each_game_once() {
        let text = b"[Event \"a\"]\n\n1. e4 e5 1-0\n\n[Event \"b\"]\n{c}\n[Site \"b\"]\n\n1. d4 *\n1. c4 0-1 [Event \"c\"]\n1. Nf3 *\n\n[Event \"d\"]\n1/2-1/2\n";
        let whole = games_of(text);
        let len = text.len() as u64;
        for cut in 0..=len {
            let mut joined = range(text, 0, cut);
            joined.extend(range(text, cut, len));
            assert_eq!(joined, whole, "cut at {cut}");
        }
        assert_eq!(
            range(text, 1, 30),
            vec![
                b"[Event \"b\"]\n{c}\n[Site \"b\"]\n\n1. d4 *\n".to_vec(),
                b"1. c4 0-1 ".to_vec(),
                b"[Event \"c\"]\n1. Nf3 *\n\n".to_vec()
            ]
        );
    }
}
