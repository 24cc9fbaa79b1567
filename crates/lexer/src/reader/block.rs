//! Blocks of whole games for a reader that splits them on other threads: [`Reader::next_block`],
//! [`Block`], [`BlockEnd`], and [`Reader::take_block`], which hands over the buffer a block
//! was read into.

use std::io::{self, Read};
use std::ops::Range;

use super::{Found, Reader};
use crate::resync;
use crate::split::column_after;

impl<R: Read> Reader<R> {
    /// The next block of the input, of `min` bytes or more, for a reader that splits blocks into
    /// games on other threads (the parallel reader of `pgnkit-game`): the calling thread then
    /// only reads, looks at a few lines per block and counts line ends (unless
    /// [`set_block_lines`](Reader::set_block_lines) leaves that to the other threads too), and
    /// never runs the splitter over the bytes. `None` at the end of the input.
    ///
    /// A block starts at a game's first byte. It ends
    ///
    /// - at a cut ([`resync::next_cut`]: a line that starts like a tag pair after one that is
    ///   not in a tag section) at or after `min` bytes, with that line ([`BlockEnd::Point`]):
    ///   the last cut in the block's first `min + min / 4` bytes, its window, or when there is
    ///   none the first cut after them. When that is a chunk or more (the reader's read size,
    ///   [`with_chunk_size`](Reader::with_chunk_size)), the window reaches at least a chunk past
    ///   the bytes the last block's window held past its cut, and the block ends at the last
    ///   cut before the end of the chunk that holds the first cut after the window: the window
    ///   is read in one read as a rule, each read at most what is missing or one chunk, so that
    ///   the bytes read past the cut are the first part of one game, all that
    ///   [`take_block`](Reader::take_block) moves. Where a block ends depends on the bytes
    ///   alone (and the chunk size), never on how the stream's reads fell (a read error
    ///   aside). Its games are those of
    ///   [`GameSplitter::at`](crate::GameSplitter::at) over its bytes when
    ///   [`split::ends_at`](crate::split::ends_at) confirms that its last game ends
    ///   before that line; a cut is a game start for the splitter in all but rare cases (see
    ///   [`resync::next_cut`]), and a block whose end is not confirmed must be read again with
    ///   the next block's bytes;
    /// - at the end of the input ([`BlockEnd::Input`]);
    /// - or, when no point comes within about a megabyte (games without tags, a huge game) or
    ///   within half the size limit of [`set_max_game_bytes`](Reader::set_max_game_bytes), after
    ///   one game exactly as [`next_game`](Reader::next_game) gives it ([`BlockEnd::Game`],
    ///   with the size limit applied).
    ///
    /// ```
    /// use pgnkit_lexer::{BlockEnd, GameSplitter, Reader};
    /// let pgn = b"[Event \"a\"]\n\n1. e4 1-0\n\n[Event \"b\"]\n\n1. d4 *\n".repeat(100);
    /// let mut reader = Reader::new(&pgn[..]);
    /// let mut games = 0;
    /// while let Some(block) = reader.next_block(1000)? {
    ///     assert!(matches!(block.end, BlockEnd::Point(_) | BlockEnd::Input));
    ///     games += GameSplitter::at(block.bytes, block.offset, block.line, block.column).count();
    /// }
    /// assert_eq!(games, 200);
    /// # Ok::<(), std::io::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// The stream's read errors.
    pub fn next_block(&mut self, min: usize) -> io::Result<Option<Block<'_>>> {
        self.start += self.lent;
        self.lent = 0;
        self.too_large = None;
        if !self.skip_junk()? {
            return Ok(None);
        }
        let half_limit = self.max_game_bytes.map_or(usize::MAX, |limit| {
            usize::try_from(limit / 2).unwrap_or(usize::MAX)
        });
        let most = min.saturating_add(BLOCK_SLACK).min(half_limit);
        let reach = min.saturating_add(min / 4).min(most);
        // Blocks of a chunk or more are read with one read each as a rule: the window reaches
        // a chunk past the bytes the last one held past its cut (a `BufReader` of a chunk then
        // reads straight into the buffer), and grows a chunk at a time.
        let big = reach >= self.chunk;
        let carried = std::mem::take(&mut self.block_tail);
        let mut end = reach;
        if big {
            end = reach.max(carried.saturating_add(self.chunk)).min(most);
        }
        if most >= min && reach > min {
            // The block's first `end` bytes (or all that is left), then its last cut in them.
            self.fill_block(end)?;
            let avail = self.buf.get(self.start..self.end).unwrap_or_default();
            let window = avail.get(..end).unwrap_or(avail);
            let complete = self.eof && self.pending.is_none() && avail.len() <= end;
            if let Some(point) = resync::last_cut(window, min, complete) {
                if big {
                    self.block_tail = end - point;
                }
                return Ok(Some(self.lend_point(point)));
            }
            // None before the window's last line (which may not be whole yet).
            let again = memchr::memrchr2(b'\n', b'\r', window).map_or(0, |i| i + 1);
            self.no_point_before = self.no_point_before.max(self.offset + again as u64);
        }
        loop {
            let avail = self.buf.get(self.start..self.end).unwrap_or_default();
            if avail.is_empty() && self.eof {
                return Ok(None);
            }
            if most < min {
                break;
            }
            let from = usize::try_from(self.no_point_before.saturating_sub(self.offset))
                .unwrap_or(usize::MAX)
                .max(min);
            match resync::next_cut(avail, from, self.eof) {
                Ok(point) if big => return self.last_cut_before_read_end(min, end, point),
                Ok(point) => return Ok(Some(self.lend_point(point))),
                Err(again) => {
                    self.no_point_before = self.offset + again as u64;
                    if avail.len() >= most || (self.pending.is_some() && !avail.is_empty()) {
                        break;
                    }
                    if self.eof {
                        return Ok(Some(self.lend_block(avail.len(), Cut::Input)));
                    }
                    // A read error with bytes in hand: the games before it come first, one
                    // at a time as `next_game` reads them, and the error when the bytes it
                    // hid are needed (a truncated compressed stream keeps its games).
                    if let Err(e) = self.fill_with(self.chunk, self.chunk, true) {
                        if self.end == self.start {
                            return Err(e);
                        }
                        self.pending = Some(e);
                        break;
                    }
                }
            }
        }
        // No point near: one game, as `next_game` reads it.
        let Some(found) = self.next_raw(false)? else {
            return Ok(None);
        };
        let after = self.start + self.lent;
        let rest = self.buf.get(after..self.end).unwrap_or_default();
        let line = memchr::memchr2(b'\n', b'\r', rest).map_or(rest.len(), |i| i + 1);
        Ok(Some(Block {
            bytes: self.lend(found).bytes,
            offset: found.offset,
            line: found.line,
            column: found.column,
            end: BlockEnd::Game {
                too_large: self.too_large,
                next: rest.get(..line).unwrap_or_default(),
            },
            counted: true,
        }))
    }

    /// Hands over the buffer that holds the bytes lent by the last
    /// [`next_block`](Reader::next_block) (or [`next_game`](Reader::next_game)), so that the
    /// caller keeps them without a copy: `buf` (a spare buffer, whose bytes are overwritten)
    /// becomes the reader's buffer and receives the bytes read after the lent ones (normally
    /// the first part of one game: a block read to its size ends at the last cut in it), and
    /// `buf` then holds the old buffer, with the lent bytes at the range returned, followed by
    /// the bytes read after them (the line of a [`BlockEnd::Point`] first). The buffers keep
    /// their lengths (their bytes initialized), so that a buffer given back here after use is
    /// read into with no clearing.
    ///
    /// ```
    /// use pgnkit_lexer::{BlockEnd, Reader};
    /// let pgn = b"[Event \"a\"]\n\n1. e4 1-0\n\n[Event \"b\"]\n\n1. d4 *\n".repeat(100);
    /// let mut reader = Reader::new(&pgn[..]);
    /// let (mut spare, mut read) = (Vec::new(), Vec::new());
    /// while let Some(block) = reader.next_block(1000)? {
    ///     let next = match block.end {
    ///         BlockEnd::Point(line) => line.to_vec(),
    ///         _ => Vec::new(),
    ///     };
    ///     let range = reader.take_block(&mut spare);
    ///     read.extend_from_slice(&spare[range.clone()]);
    ///     assert!(spare[range.end..].starts_with(&next));
    /// }
    /// assert_eq!(read, pgn);
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn take_block(&mut self, buf: &mut Vec<u8>) -> Range<usize> {
        let lent = self.start..self.start + self.lent;
        let tail = self.buf.get(lent.end..self.end).unwrap_or_default();
        if buf.len() < tail.len() {
            buf.resize(tail.len(), 0);
        }
        if let Some(to) = buf.get_mut(..tail.len()) {
            to.copy_from_slice(tail);
        }
        std::mem::swap(&mut self.buf, buf);
        let moved = lent.end;
        self.end -= moved;
        self.start = 0;
        self.lent = 0;
        self.line_ends.cr_free = self.line_ends.cr_free.saturating_sub(moved);
        self.line_end_at = self.line_end_at.saturating_sub(moved);
        self.scanned = self.scanned.saturating_sub(moved);
        lent
    }

    /// Reads until the buffer holds `reach` bytes from `start` (or the stream ends), each read
    /// bounded (see [`fill_with`](Reader::fill_with)). A read error with bytes in hand is kept
    /// for the read that needs the bytes (see `next_block`).
    fn fill_block(&mut self, reach: usize) -> io::Result<()> {
        while !self.eof && self.pending.is_none() && self.end - self.start < reach {
            let want = reach - (self.end - self.start);
            if let Err(e) = self.fill_with(want, self.chunk, true) {
                if self.end == self.start {
                    return Err(e);
                }
                self.pending = Some(e);
            }
        }
        Ok(())
    }

    /// For a big block whose window (`end` bytes) held no cut after `min`: lends the block up to
    /// the last cut before the end of the chunk that holds `point` (the first cut after the
    /// window), counted from the window's end, so that a game longer than the window's slack
    /// leaves no more than its first part behind.
    fn last_cut_before_read_end(
        &mut self,
        min: usize,
        end: usize,
        point: usize,
    ) -> io::Result<Option<Block<'_>>> {
        let chunks = (point + 1).saturating_sub(end).div_ceil(self.chunk);
        let read_end = end.saturating_add(chunks.saturating_mul(self.chunk));
        self.fill_block(read_end)?;
        let avail = self.buf.get(self.start..self.end).unwrap_or_default();
        let window = avail.get(..read_end).unwrap_or(avail);
        let complete = self.eof && self.pending.is_none() && avail.len() <= read_end;
        let cut =
            resync::last_cut(window, point.max(min), complete).map_or(point, |c| c.max(point));
        self.block_tail = read_end.saturating_sub(cut);
        Ok(Some(self.lend_point(cut)))
    }

    /// Lends the bytes up to the cut at `point` as a block ending there, with the cut's line.
    fn lend_point(&mut self, point: usize) -> Block<'_> {
        let rest = self
            .buf
            .get(self.start + point..self.end)
            .unwrap_or_default();
        let line = memchr::memchr2(b'\n', b'\r', rest).map_or(rest.len(), |i| i + 1);
        self.lend_block(point, Cut::Point(line))
    }

    /// Lends the next `len` bytes as a block that ends as `cut` says, and moves past them.
    fn lend_block(&mut self, len: usize, cut: Cut) -> Block<'_> {
        let found = Found {
            offset: self.offset,
            line: self.line,
            column: self.column,
        };
        // A block that starts with the LF of a CR LF cut in two is counted here (never seen:
        // blocks start at a game's first byte), so that the caller's count of the block is
        // the whole count.
        let counted = self.block_lines || self.cr_then_lf(len);
        match counted {
            true => self.advance(len),
            false => self.pass(len),
        }
        self.start -= len;
        self.lent = len;
        let bytes = self
            .buf
            .get(self.start..self.start + len)
            .unwrap_or_default();
        self.column = column_after(self.column, bytes);
        let end = match cut {
            Cut::Point(line) => BlockEnd::Point(
                self.buf
                    .get(self.start + len..self.start + len + line)
                    .unwrap_or_default(),
            ),
            Cut::Input => BlockEnd::Input,
        };
        Block {
            bytes,
            offset: found.offset,
            line: found.line,
            column: found.column,
            end,
            counted,
        }
    }
}

/// A block looks this far past its `min` bytes for a resynchronisation point before it is cut
/// after one game instead (see [`Reader::next_block`]).
const BLOCK_SLACK: usize = 1 << 20;

/// A run of whole games (when confirmed) from [`Reader::next_block`], lent until the next call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Block<'a> {
    /// The block's bytes, from a game's first byte.
    pub bytes: &'a [u8],
    /// Byte offset of `bytes` in the whole input.
    pub offset: u64,
    /// 1-based line of the first byte of `bytes`, leaving out the line ends of the earlier
    /// blocks that were not [`counted`](Block::counted).
    pub line: u64,
    /// 1-based column of the first byte of `bytes` (see [`RawGame::column`](crate::RawGame::column)).
    pub column: u64,
    /// How the block ends.
    pub end: BlockEnd<'a>,
    /// Whether the reader counted the block's line ends: `false` for a block cut at a point or
    /// at the end of the input when [`Reader::set_block_lines`] turned counting off; the lines
    /// the reader gives after it then leave them out.
    pub counted: bool,
}

/// How a [`Block`] ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum BlockEnd<'a> {
    /// At a resynchronisation point, whose line (with its line end when it has one) is this:
    /// the games are the splitter's over the block if
    /// [`split::ends_at`](crate::split::ends_at) confirms the last one with it.
    Point(&'a [u8]),
    /// At the end of the input.
    Input,
    /// The block is one game, as [`Reader::next_game`] gives it (`too_large`: see
    /// [`Reader::last_game_too_large`]); `next` is what follows it up to its line's end, as far
    /// as read.
    Game {
        /// For a game skipped over the size limit: its length (the block has no bytes).
        too_large: Option<u64>,
        /// The bytes after the game up to the next line end, as far as read.
        next: &'a [u8],
    },
}

/// How a block being lent ends.
enum Cut {
    /// At a point whose line is this long.
    Point(usize),
    Input,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::GameSplitter;
    use crate::split::ends_at;

    /// Whether `game` ends before `next`.
    fn ends_before(game: &[u8], next: &[u8]) -> bool {
        ends_at(&[game, next].concat(), game.len())
    }

    /// Cuts `input` into blocks of `min` bytes (read `chunk` bytes at a time) and checks them
    /// against the whole input's games: the blocks follow each other from the first game to
    /// the end, and split (a block whose end `ends_before` does not confirm read again with
    /// the next one, as the parallel reader does) they give the input's games. Returns the
    /// number of blocks cut at a point and of those not confirmed.
    fn blocks_agree(input: &[u8], min: usize, chunk: usize) -> (usize, usize) {
        let lent = blocks_agree_as(input, min, chunk, false, true);
        assert_eq!(blocks_agree_as(input, min, chunk, true, true), lent);
        assert_eq!(blocks_agree_as(input, min, chunk, true, false), lent);
        lent
    }

    /// [`blocks_agree`], each block lent (`take` false) or taken with its buffer
    /// ([`Reader::take_block`]), its lines counted by the reader or (`count` false, see
    /// [`Reader::set_block_lines`]) here.
    fn blocks_agree_as(
        input: &[u8],
        min: usize,
        chunk: usize,
        take: bool,
        count: bool,
    ) -> (usize, usize) {
        let whole: Vec<_> = GameSplitter::new(input)
            .map(|g| (g.bytes.to_vec(), g.offset, g.line, g.column))
            .collect();
        let mut reader = Reader::with_chunk_size(input, chunk);
        reader.set_block_lines(count);
        // The line ends of the blocks the reader left uncounted.
        let mut uncounted = 0;
        let mut at = GameSplitter::new(input).skipped();
        let (mut games, mut points, mut unconfirmed) = (Vec::new(), 0, 0);
        let mut pending: Option<((u64, u64, u64), Vec<u8>)> = None;
        let mut spare = Vec::new();
        while let Some(block) = reader.next_block(min).unwrap() {
            assert_eq!(block.offset, at);
            at += block.bytes.len() as u64;
            let merged = pending.is_some();
            let place = (block.offset, block.line + uncounted, block.column);
            assert_eq!(
                block.counted,
                count || matches!(block.end, BlockEnd::Game { .. })
            );
            if !block.counted {
                uncounted += crate::split::line_ends(block.bytes);
            }
            // How the block ends, and the line after it.
            let (end, next) = match block.end {
                BlockEnd::Point(line) => (Some(None), line.to_vec()),
                BlockEnd::Input => (None, Vec::new()),
                BlockEnd::Game { too_large, next } => (Some(Some(too_large)), next.to_vec()),
            };
            let mut block_bytes = block.bytes.to_vec();
            if take {
                let range = reader.take_block(&mut spare);
                assert_eq!(&spare[range.clone()], &block_bytes[..]);
                assert!(spare[range.end..].starts_with(&next));
                block_bytes = spare[range].to_vec();
            }
            let (place, bytes) = match pending.take() {
                Some((place, mut bytes)) => {
                    bytes.extend_from_slice(&block_bytes);
                    (place, bytes)
                }
                None => (place, block_bytes),
            };
            let split: Vec<_> = GameSplitter::at(&bytes, place.0, place.1, place.2)
                .map(|g| (g.bytes.to_vec(), g.offset, g.line, g.column))
                .collect();
            let last = split.last().map(|g| g.0.clone()).unwrap_or_default();
            let confirmed = match end {
                Some(None) => {
                    points += 1;
                    assert!(crate::resync::starts_like_tag_pair(&next));
                    ends_before(&last, &next)
                }
                None => true,
                Some(Some(too_large)) => {
                    assert_eq!(too_large, None);
                    !merged || ends_before(&last, &next)
                }
            };
            if confirmed {
                games.extend(split);
            } else {
                unconfirmed += 1;
                pending = Some((place, bytes));
            }
        }
        assert!(pending.is_none());
        assert_eq!(at, input.len() as u64);
        assert_eq!(games, whole);
        (points, unconfirmed)
    }

    /// Games of about 2 KB: a tag section and a line of moves.
    fn games(n: usize) -> Vec<u8> {
        games_of(n, 250, 100)
    }

    /// `n` games of a tag section and a line of `least` to `least + spread` moves of 3 bytes.
    fn games_of(n: usize, least: usize, spread: usize) -> Vec<u8> {
        (0..n)
            .flat_map(|i| {
                let moves = "e4 e5 ".repeat(least + i * 7 % spread);
                format!("[Event \"{i}\"]\n[Site \"s\"]\n\n1. {moves}1-0\n\n").into_bytes()
            })
            .collect()
    }

    #[test]
    fn a_taken_block_leaves_the_reader_only_the_game_its_end_cut() -> io::Result<()> {
        // Games of about 2 KB, and games longer than a window's slack (16 KiB).
        for input in [games(2000), games_of(200, 2500, 2000)] {
            taken_blocks_leave_one_game(&input)?;
        }
        Ok(())
    }

    fn taken_blocks_leave_one_game(input: &[u8]) -> io::Result<()> {
        let longest = GameSplitter::new(input).map(|g| g.bytes.len()).max();
        let longest = longest.expect("games");
        let mut reader = Reader::new(input);
        let (mut spare, mut read, mut moved) = (Vec::new(), Vec::new(), Vec::new());
        while let Some(block) = reader.next_block(1 << 16)? {
            let len = block.bytes.len();
            assert!(len >= 1 << 16 || matches!(block.end, BlockEnd::Input));
            let range = reader.take_block(&mut spare);
            assert_eq!(range.len(), len);
            read.extend_from_slice(&spare[range]);
            moved.push(reader.end - reader.start);
        }
        assert_eq!(read, input);
        assert!(moved.len() > 20, "{} blocks", moved.len());
        // The first reads are a chunk each, whatever the block needs; after a few blocks
        // only the first part of a game moves.
        assert!(
            moved.iter().skip(4).all(|&tail| tail < longest),
            "{moved:?}, games of {longest} bytes at most"
        );
        Ok(())
    }

    /// A stream that gives at most `most` bytes a read.
    struct Trickle<'a> {
        bytes: &'a [u8],
        most: usize,
    }

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = buf.len().min(self.most).min(self.bytes.len());
            buf[..n].copy_from_slice(&self.bytes[..n]);
            self.bytes = &self.bytes[n..];
            Ok(n)
        }
    }

    #[test]
    fn where_blocks_end_does_not_depend_on_the_reads() {
        let input = games(300);
        let ends = |most: usize, chunk: usize| {
            let mut reader = Reader::with_chunk_size(
                Trickle {
                    bytes: &input,
                    most,
                },
                chunk,
            );
            let mut ends = Vec::new();
            while let Some(block) = reader.next_block(10_000).unwrap() {
                ends.push(block.offset + block.bytes.len() as u64);
            }
            ends
        };
        for chunk in [1 << 16, 1000, 3] {
            let want = ends(usize::MAX, chunk);
            assert!(want.len() > 40, "{} blocks", want.len());
            for most in [1, 7, 4096, 100_000] {
                assert_eq!(ends(most, chunk), want, "reads of {most}, chunk {chunk}");
            }
        }
    }

    #[test]
    fn blocks_hold_the_splitters_games_on_the_corpus() {
        let files = pgnkit_corpus::pgn_files(&pgnkit_corpus::dir());
        assert!(!files.is_empty());
        let (mut points, mut unconfirmed) = (0, 0);
        for path in &files {
            let input = std::fs::read(path).unwrap();
            for (min, chunk) in [(1, 1 << 16), (700, 333), (1 << 16, 1 << 16)] {
                if input.len() > 4 << 20 && min < 1 << 16 {
                    continue;
                }
                let (p, u) = blocks_agree(&input, min, chunk);
                points += p;
                unconfirmed += u;
            }
        }
        assert!(points > 10_000, "{points} blocks cut at a point");
        // A cut the splitter does not confirm is rare (a tag pair after a comment line in a
        // tag section).
        assert!(
            unconfirmed * 1000 < points,
            "{unconfirmed} of {points} not confirmed"
        );
    }

    #[test]
    fn blocks_of_games_without_tags_and_comments_across_a_cut() {
        // Games without tags: no point, each block one game.
        let tagless = b"1. e4 e5 1-0 1. d4 d5 0-1\n\n{c} 1. c4 *\n".repeat(50);
        assert_eq!(blocks_agree(&tagless, 10, 64), (0, 0));
        // A multi-line comment holding lines that close a game and tag lines: the splitter ends
        // the comment (unterminated) at the tag line, which is a point.
        let mut input = Vec::new();
        for n in 0..200 {
            let game = match n % 4 {
                0 => format!("[Event \"{n}\"]\n\n1. e4 {{ a\nb 1-0\n[Event \"x\"]\n}} *\n\n"),
                1 => format!("[Event \"{n}\"]\n\n1. e4 {{ a\n}} 1-0\n[Site \"x\"]\n*\n"),
                2 => format!("[Event \"{n}\"]\n{{\n1-0\n[Site \"x\"]\n\n1. d4 *\r\n"),
                _ => format!("1. c4 1/2-1/2\n\n\n[Event \"{n}\"] *\n"),
            };
            input.extend_from_slice(game.as_bytes());
        }
        for min in [1, 5, 17, 100, 1000] {
            assert!(blocks_agree(&input, min, 64).0 > 0);
        }
        // A tag pair after a comment in a tag section: a cut, not confirmed.
        let input = b"[Event \"a\"]\n{note}\n[Site \"b\"]\n\n1. e4 *\n".repeat(20);
        let (points, unconfirmed) = blocks_agree(&input, 1, 64);
        assert!(unconfirmed > 0 && points > unconfirmed);
        // Bytes with no line end at all.
        assert_eq!(blocks_agree(&b"1. e4 *".repeat(1000), 100, 64), (0, 0));
    }

    #[test]
    fn blocks_keep_the_size_limit() {
        let big = format!(
            "[Event \"a\"]\n\n1. e4 {{{}}} *\n[Event \"b\"]\n*\n",
            "x".repeat(5000)
        );
        let input = big.repeat(3);
        let mut reader = Reader::with_chunk_size(input.as_bytes(), 256);
        reader.set_max_game_bytes(Some(1000));
        let (mut blocks, mut skipped) = (0, 0);
        while let Some(block) = reader.next_block(100).unwrap() {
            blocks += 1;
            if let BlockEnd::Game {
                too_large: Some(_), ..
            } = block.end
            {
                assert!(block.bytes.is_empty());
                skipped += 1;
            }
        }
        assert_eq!((blocks, skipped), (6, 3));
    }
}
