//! [`Reader`]: games from any [`Read`] stream (a `BufRead` is not needed: it reads in chunks
//! of its own), one at a time, in constant memory.

use std::io::{self, Read};

mod block;

use crate::LexOptions;
use crate::game_end::{game_end_for, next_tag_line};
use crate::single_pass::{GameTokens, TokenizedGame};
use crate::split::{LineEnds, column_after, junk_column, junk_len};
use crate::{LexErrorKind, RawGame, TokenKind};
pub use block::{Block, BlockEnd};

/// Default number of bytes read at a time.
const DEFAULT_CHUNK: usize = 64 * 1024;

/// A game still being read past this many bytes is read with the splitter alone, and tokenized
/// once, when its end is found: the single pass would otherwise lex it again after every read
/// and keep the tokens of an unfinished game (up to 24 bytes a token) while it grows.
const BIG_GAME: usize = 1 << 20;

/// Splits a stream into games with the same rules (and the same results, offsets included) as
/// [`GameSplitter`](crate::GameSplitter), holding only the current game in memory: its buffer
/// grows only to about twice the largest game plus one read chunk (64 KiB by default), so files
/// far larger than memory stream through.
///
/// It lends each game (`next_game` borrows the reader), so it is not an [`Iterator`].
///
/// # Games over a size limit
///
/// With [`set_max_game_bytes`](Reader::set_max_game_bytes), a game (or a run of bytes with no
/// game boundary, such as a binary file) that grows past the limit is not held whole: the reader
/// drops its bytes as it reads on, up to the next line that starts like a tag pair (see
/// `split::next_tag_line`), and lends it as a game with no bytes, at the place where it
/// started; [`next_tokenized`](Reader::next_tokenized) gives it one token,
/// [`LexErrorKind::GameTooLarge`], with its length in
/// [`TokenizedGame::too_large`](crate::TokenizedGame::too_large), and
/// [`last_game_too_large`](Reader::last_game_too_large) says so too. The buffer then stays
/// within about the limit plus a few reads, whatever the input.
///
/// ```
/// use pgnkit_lexer::Reader;
/// let mut reader = Reader::new(&b"[Event \"a\"]\n*\n\n[Event \"b\"]\n*\n"[..]);
/// let mut lines = Vec::new();
/// while let Some(game) = reader.next_game()? {
///     lines.push(game.line);
/// }
/// assert_eq!(lines, [1, 4]);
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug)]
pub struct Reader<R> {
    inner: R,
    /// Read bytes up to `end`; the rest is room for the next read (kept initialized, so the
    /// stream reads straight into it: a `BufReader` then skips its own buffer and a copy).
    buf: Vec<u8>,
    /// End of the bytes read into `buf`.
    end: usize,
    /// Start of the unread bytes in `buf`.
    start: usize,
    /// Bytes of `buf` lent out by the last `next_game`, to drop on the next call.
    lent: usize,
    /// File offset of `buf[start]`.
    offset: u64,
    /// Line of `buf[start]`.
    line: u64,
    /// Column of `buf[start]`.
    column: u64,
    eof: bool,
    /// Whether the last byte passed was a CR.
    last_cr: bool,
    at_start: bool,
    skipped: u64,
    chunk: usize,
    names: Vec<(usize, usize)>,
    /// Counts line ends (`line_ends.cr_free` is an index into `buf`).
    line_ends: LineEnds,
    /// The tokens of the last game of [`next_tokenized`](Reader::next_tokenized).
    tokens: GameTokens,
    /// An error of a read ahead ([`read_ahead`](Reader::read_ahead)), kept for the read that
    /// needs the bytes.
    pending: Option<io::Error>,
    /// Games longer than this are skipped (see the type's docs).
    max_game_bytes: Option<u64>,
    /// The length of the last game lent, when it was skipped for its size.
    too_large: Option<u64>,
    /// Index in `buf` just after the last line end found in `buf[..scanned]` (see
    /// [`whole_lines`]), so that each byte is searched once, even on a line of megabytes.
    line_end_at: usize,
    /// How far `buf` was searched for line ends.
    scanned: usize,
    /// File offset before which [`next_block`](Reader::next_block) found no resynchronisation
    /// point.
    no_point_before: u64,
    /// The bytes the last block's window held past its cut, had each read filled what it was
    /// asked for (see [`next_block`](Reader::next_block)): the next window reaches a chunk past
    /// them.
    block_tail: usize,
    /// Whether [`next_block`](Reader::next_block) counts the line ends of the blocks it cuts
    /// (see [`set_block_lines`](Reader::set_block_lines)).
    block_lines: bool,
}

impl<R: Read> Reader<R> {
    /// A reader over `inner`.
    pub fn new(inner: R) -> Reader<R> {
        Reader::with_chunk_size(inner, DEFAULT_CHUNK)
    }

    /// A reader that reads at least `chunk` bytes at a time (at least 1).
    pub fn with_chunk_size(inner: R, chunk: usize) -> Reader<R> {
        Reader {
            inner,
            buf: Vec::new(),
            end: 0,
            start: 0,
            lent: 0,
            offset: 0,
            line: 1,
            column: 1,
            eof: false,
            last_cr: false,
            at_start: true,
            skipped: 0,
            chunk: chunk.max(1),
            names: Vec::new(),
            line_ends: LineEnds::default(),
            tokens: GameTokens::default(),
            pending: None,
            max_game_bytes: None,
            too_large: None,
            line_end_at: 0,
            scanned: 0,
            no_point_before: 0,
            block_tail: 0,
            block_lines: true,
        }
    }

    /// Skips games longer than `limit` bytes instead of holding them (see the type's docs);
    /// `None` (the default) holds games of any size.
    ///
    /// ```
    /// use pgnkit_lexer::{LexErrorKind, Reader, TokenKind};
    /// let big = format!("[Event \"a\"]\n\n1. e4 {{{}}} *\n[Event \"b\"]\n*\n", "x".repeat(5000));
    /// let mut reader = Reader::with_chunk_size(big.as_bytes(), 256);
    /// reader.set_max_game_bytes(Some(1000));
    /// let game = reader.next_tokenized()?.expect("the skipped game");
    /// assert!(game.raw.bytes.is_empty());
    /// assert_eq!(game.tokens[0].kind, TokenKind::Error(LexErrorKind::GameTooLarge));
    /// assert_eq!(game.too_large, Some(5024));
    /// let game = reader.next_tokenized()?.expect("the next game");
    /// assert_eq!((game.raw.bytes, game.raw.line), (&b"[Event \"b\"]\n*\n"[..], 4));
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn set_max_game_bytes(&mut self, limit: Option<u64>) {
        self.max_game_bytes = limit;
    }

    /// Reads with the rules of `options` (the games it finds and their tokens; the parallel
    /// reader's batches are split and checked with [`options`](Reader::options) too).
    pub fn set_options(&mut self, options: LexOptions) {
        self.tokens.options = options;
    }

    /// The rules of [`set_options`](Reader::set_options).
    pub fn options(&self) -> LexOptions {
        self.tokens.options
    }

    /// The size limit of [`set_max_game_bytes`](Reader::set_max_game_bytes).
    pub fn max_game_bytes(&self) -> Option<u64> {
        self.max_game_bytes
    }

    /// When the last game lent was skipped for its size: its length in bytes.
    pub fn last_game_too_large(&self) -> Option<u64> {
        self.too_large
    }

    /// Whether [`next_block`](Reader::next_block) counts the line ends of the blocks it cuts at
    /// a point or at the end of the input (`true`, the default). A reader that hands its blocks
    /// to other threads sets `false`, so that it never looks at most of the bytes: such a block
    /// then says it was not counted ([`Block::counted`]), and every line the reader gives after
    /// it (of blocks, of games) leaves out its line ends
    /// ([`split::line_ends`](crate::split::line_ends) of its bytes), which the caller adds.
    ///
    /// ```
    /// use pgnkit_lexer::{Reader, split};
    /// let pgn = b"[Event \"a\"]\r\n\r\n1. e4 1-0\r\n\r\n".repeat(100);
    /// let mut reader = Reader::new(&pgn[..]);
    /// reader.set_block_lines(false);
    /// let mut uncounted = 0;
    /// while let Some(block) = reader.next_block(100)? {
    ///     let line = block.line + uncounted;
    ///     assert_eq!(line, 1 + split::line_ends(&pgn[..block.offset as usize]));
    ///     if !block.counted {
    ///         uncounted += split::line_ends(block.bytes);
    ///     }
    /// }
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn set_block_lines(&mut self, count: bool) {
        self.block_lines = count;
    }

    /// Bytes skipped as junk (byte order mark and white space before the first game).
    pub fn skipped(&self) -> u64 {
        self.skipped
    }

    /// The stream.
    pub fn into_inner(self) -> R {
        self.inner
    }

    /// Reads ahead (one read, with room for eight chunks) when fewer than a quarter of a chunk
    /// is left, before a game is read. A game cut by the end of the buffer is read again from its start once more
    /// bytes are in (the single pass does not resume), which cost engine games of tens of
    /// kilobytes a second pass over most of their bytes; reading ahead makes that rare. The
    /// bytes moved to the buffer's start on the way ([`fill`](Reader::fill)) are few: at most
    /// a quarter of a chunk for each eight read. An error here is kept for the read that
    /// needs the bytes, so that errors come where they did.
    fn read_ahead(&mut self) {
        if self.eof || self.pending.is_some() || self.end - self.start >= self.chunk / 4 {
            return;
        }
        if let Err(e) = self.fill_with(1, self.chunk.saturating_mul(8), false) {
            self.pending = Some(e);
        }
    }

    /// Reads at least `want` more bytes into the buffer (fewer at the end of the stream).
    fn fill(&mut self, want: usize) -> io::Result<()> {
        self.fill_with(want, self.chunk, false)
    }

    /// [`fill`](Reader::fill) with room for at least `room` bytes in each read: the room
    /// after the bytes read when `bounded` is false (a read may fill all of it), else the
    /// larger of `room` and what is still wanted, so that the buffer does not get more than
    /// one read's worth past `want` (a block read into a buffer that becomes a batch: the bytes
    /// read past its cut are moved to the next buffer).
    fn fill_with(&mut self, want: usize, room: usize, bounded: bool) -> io::Result<()> {
        if let Some(e) = self.pending.take() {
            return Err(e);
        }
        if self.start > 0 && self.start >= self.end / 2 {
            self.buf.copy_within(self.start..self.end, 0);
            self.end -= self.start;
            self.line_ends.cr_free = self.line_ends.cr_free.saturating_sub(self.start);
            self.line_end_at = self.line_end_at.saturating_sub(self.start);
            self.scanned = self.scanned.saturating_sub(self.start);
            self.start = 0;
        }
        let mut got = 0;
        while got < want {
            // Room for at least one chunk, so that a `BufReader` of that capacity reads
            // straight into it.
            let room = (want - got).max(room);
            if self.buf.len() - self.end < room {
                self.buf.resize(self.end + room, 0);
            }
            let space = match bounded {
                true => self.buf.get_mut(self.end..self.end + room),
                false => self.buf.get_mut(self.end..),
            };
            let space = space.unwrap_or_default();
            match self.inner.read(space) {
                Ok(0) => {
                    self.eof = true;
                    break;
                }
                Ok(n) => {
                    self.end += n;
                    got += n;
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    /// Moves past the next `n` bytes, counting their lines.
    fn advance(&mut self, n: usize) {
        let until = self.start + n;
        let read = self.buf.get(..self.end).unwrap_or_default();
        self.line += self.line_ends.count(read, self.start, until);
        if self.cr_then_lf(n) {
            self.line -= 1; // a CR LF cut in two by a read
        }
        self.pass(n);
    }

    /// Whether the next `n` bytes start with a LF after a CR passed before them.
    fn cr_then_lf(&self, n: usize) -> bool {
        n > 0 && self.last_cr && self.buf.get(self.start) == Some(&b'\n')
    }

    /// Moves past the next `n` bytes without counting their lines (a block whose lines the
    /// caller counts: see [`set_block_lines`](Reader::set_block_lines)).
    fn pass(&mut self, n: usize) {
        let until = self.start + n;
        if let Some(&last) = self.buf.get(self.start..until).and_then(|b| b.last()) {
            self.last_cr = last == b'\r';
        }
        self.offset += n as u64;
        self.start += n;
    }

    /// The next game, or `None` at the end of the stream.
    ///
    /// # Errors
    ///
    /// The stream's read errors.
    pub fn next_game(&mut self) -> io::Result<Option<RawGame<'_>>> {
        Ok(self.next_raw(false)?.map(|found| self.lend(found)))
    }

    /// The next game with its tokens, read in one pass (see
    /// [`GameSplitter::next_tokenized`](crate::GameSplitter::next_tokenized)): the same game as
    /// [`next_game`](Reader::next_game) gives, and the same tokens and warnings as a
    /// [`Lexer`](crate::Lexer) over its bytes. When the buffer ends before the game's end is
    /// known, the game is read again from its start after the next read (once per read).
    ///
    /// Memory: besides the buffer, the tokens of the largest game so far (24 bytes a token, a
    /// token for every 6 to 7 bytes of real games; [`next_game`](Reader::next_game) keeps none).
    ///
    /// # Errors
    ///
    /// The stream's read errors.
    pub fn next_tokenized(&mut self) -> io::Result<Option<TokenizedGame<'_, '_>>> {
        let Some(found) = self.next_raw(true)? else {
            return Ok(None);
        };
        let raw = self.lend(found);
        Ok(Some(TokenizedGame {
            raw,
            tokens: &self.tokens.tokens,
            warnings: &self.tokens.warnings,
            too_large: self.too_large,
            variations: Some(self.tokens.variations),
        }))
    }

    /// The game lent by the last [`next_raw`](Reader::next_raw).
    fn lend(&self, found: Found) -> RawGame<'_> {
        RawGame {
            bytes: self
                .buf
                .get(self.start..self.start + self.lent)
                .unwrap_or_default(),
            offset: found.offset,
            line: found.line,
            column: found.column,
        }
    }

    /// Finds the next game (tokenized when `tokenize`), lends its bytes (`self.start`, for
    /// `self.lent` bytes) and says where it is.
    fn next_raw(&mut self, tokenize: bool) -> io::Result<Option<Found>> {
        self.start += self.lent;
        self.lent = 0;
        self.too_large = None;
        if !self.skip_junk()? {
            return Ok(None);
        }
        loop {
            self.read_ahead();
            let avail = self.buf.get(self.start..self.end).unwrap_or_default();
            if avail.is_empty() && self.eof {
                return Ok(None);
            }
            // The limit counts every byte read for the game, the unfinished line too.
            let read = avail.len() as u64;
            let from = self.scanned.max(self.start);
            let new = self.buf.get(from..self.end).unwrap_or_default();
            if let Some(i) = memchr::memrchr2(b'\n', b'\r', new) {
                self.line_end_at = from + i + 1;
            }
            self.scanned = self.end;
            let whole = self.line_end_at.saturating_sub(self.start);
            let avail = whole_lines(avail, whole, self.eof);
            let big = avail.len() > BIG_GAME;
            let end = match (avail.is_empty(), tokenize && !big) {
                (true, _) => 0,
                (false, true) => self.tokens.read(avail, self.eof),
                (false, false) => game_end_for(avail, &mut self.names, self.tokens.options),
            };
            if (end < avail.len() || self.eof) && !avail.is_empty() {
                if tokenize && big {
                    // The same end, and the game's tokens.
                    self.tokens.fallback(avail, self.eof);
                }
                let end = end.max(1);
                let found = Found {
                    offset: self.offset,
                    line: self.line,
                    column: self.column,
                };
                self.advance(end);
                self.start -= end;
                self.lent = end;
                let bytes = self
                    .buf
                    .get(self.start..self.start + end)
                    .unwrap_or_default();
                self.column = column_after(self.column, bytes);
                return Ok(Some(found));
            }
            if self.max_game_bytes.is_some_and(|limit| read > limit) {
                return self.skip_too_large(tokenize).map(Some);
            }
            let want = avail.len().max(self.chunk);
            self.fill(want)?;
        }
    }

    /// Passes over the junk before the first game (a byte order mark, white space); `false`
    /// when the input ends in it.
    fn skip_junk(&mut self) -> io::Result<bool> {
        // A byte order mark needs 3 bytes to be seen.
        if self.at_start && self.offset == 0 && self.end < 3 && !self.eof {
            self.fill(self.chunk.max(3))?;
        }
        while self.at_start {
            let avail = self.buf.get(self.start..self.end).unwrap_or_default();
            let junk = junk_len(avail, self.offset == 0);
            let junk_bytes = avail.get(..junk).unwrap_or_default();
            self.column = junk_column(self.column, junk_bytes, self.offset == 0);
            let rest = avail.len() - junk;
            self.advance(junk);
            self.skipped += junk as u64;
            if rest > 0 {
                self.at_start = false;
            } else if self.eof {
                return Ok(false);
            } else {
                self.fill(self.chunk)?;
            }
        }
        Ok(true)
    }

    /// Drops the game at `self.start`, over the size limit and not ended in the buffer, up to
    /// the next line that starts like a tag pair (or the end of the stream), reading on as
    /// needed without growing the buffer; lends it with no bytes.
    fn skip_too_large(&mut self, tokenize: bool) -> io::Result<Found> {
        let found = Found {
            offset: self.offset,
            line: self.line,
            column: self.column,
        };
        let mut skipped = 0u64;
        loop {
            let avail = self.buf.get(self.start..self.end).unwrap_or_default();
            let (drop, done) = match next_tag_line(avail, 1, self.eof) {
                Ok(start) => (start, true),
                Err(keep) => (keep, false),
            };
            let dropped = avail.get(..drop).unwrap_or_default();
            let column = column_after(self.column, dropped);
            self.advance(drop);
            self.column = column;
            skipped += drop as u64;
            if done {
                break;
            }
            self.fill(self.chunk)?;
        }
        self.too_large = Some(skipped);
        if tokenize {
            self.tokens
                .only(TokenKind::Error(LexErrorKind::GameTooLarge));
        }
        Ok(found)
    }
}

/// An unfinished line at least this long is decided on before its end is read.
const LONG_LINE: usize = 64 * 1024;

/// The part of `avail` the scanners may decide on: up to its last line end, unless the stream
/// ended or the unfinished line is [`LONG_LINE`] bytes or more. Where a tag value with unescaped
/// quotes ends depends on its line's end (`shapes::value_end`), so a line cut by a read must not
/// be decided on; a very long line (games written on one line) is, to keep memory bounded.
/// `whole`: the length of `avail` up to its last line end (0 when it has none).
fn whole_lines(avail: &[u8], whole: usize, eof: bool) -> &[u8] {
    if eof {
        return avail;
    }
    let whole = whole.min(avail.len());
    if avail.len() - whole >= LONG_LINE {
        return avail;
    }
    avail.get(..whole).unwrap_or_default()
}

/// Where a game found by [`Reader::next_raw`] starts.
#[derive(Clone, Copy)]
struct Found {
    offset: u64,
    line: u64,
    column: u64,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::GameSplitter;

    fn both(input: &[u8], chunk: usize, cap: usize) {
        let expected: Vec<(Vec<u8>, u64, u64)> = GameSplitter::new(input)
            .map(|g| (g.bytes.to_vec(), g.offset, g.line))
            .collect();
        let mut reader = Reader::with_chunk_size(io::BufReader::with_capacity(cap, input), chunk);
        let mut got = Vec::new();
        while let Some(g) = reader.next_game().unwrap() {
            got.push((g.bytes.to_vec(), g.offset, g.line));
        }
        assert_eq!(got, expected, "chunk {chunk}");
        assert_eq!(reader.skipped(), GameSplitter::new(input).skipped());
    }

    #[test]
    fn agrees_with_the_slice_splitter() {
        let input = "\u{feff}\r\n[Event \"a\"]\r\n\r\n1. e4 {c\n} 1-0 {x} d4 *\n[Event \"b\"]\n[Event \"c\"]\n\n[Event \"c\"]\n1. e4 { open\n[Site \"s\"]\n\n½-½ e4";
        for chunk in [1, 2, 3, 5, 8, 64, 1 << 16] {
            for cap in [1, 4, 1000] {
                both(input.as_bytes(), chunk, cap);
            }
        }
        both(b"", 1, 1);
        both(b"  \n ", 1, 1);
        both(b"\xef\xbb", 1, 1);
        both(b"\xef\xbb\xbf", 1, 1);
        both(b"x", 1, 1);
    }

    /// A stream that gives its bytes, fails once, then ends.
    struct FailsOnce {
        bytes: Vec<u8>,
        at: usize,
        failed: bool,
    }

    impl io::Read for FailsOnce {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let rest = self.bytes.get(self.at..).unwrap_or_default();
            if !rest.is_empty() {
                let n = buf.len().min(rest.len());
                buf[..n].copy_from_slice(&rest[..n]);
                self.at += n;
                return Ok(n);
            }
            if !self.failed {
                self.failed = true;
                return Err(io::Error::other("broken"));
            }
            Ok(0)
        }
    }

    #[test]
    fn an_error_of_a_read_ahead_comes_when_the_bytes_are_needed() {
        // One chunk of 64 bytes: a game of 50, then seven games `*` of 2, the last of which
        // ends where the bytes end. The read ahead after the first game fails; the games read
        // before the error come out all the same, as when no read ahead was made.
        let first = format!("[Event \"{}\"]\n*\n\n", "a".repeat(36));
        assert_eq!(first.len(), 50);
        let bytes = [first.as_bytes(), &b"*\n".repeat(7)].concat();
        let stream = FailsOnce {
            bytes,
            at: 0,
            failed: false,
        };
        let mut reader = Reader::with_chunk_size(stream_reader(stream), 64);
        let mut next = || {
            reader
                .next_tokenized()
                .map(|g| g.map(|g| g.raw.bytes.to_vec()))
        };
        assert_eq!(next().unwrap().as_deref(), Some(first.as_bytes()));
        for _ in 0..6 {
            assert_eq!(next().unwrap().as_deref(), Some(&b"*\n"[..]));
        }
        // The last game ends at the end of the bytes read: the read that would tell whether
        // more follows fails.
        assert!(next().is_err());
        assert_eq!(next().unwrap().as_deref(), Some(&b"*\n"[..]));
        assert_eq!(next().unwrap(), None);
    }

    #[test]
    fn a_read_error_while_looking_for_a_cut_keeps_the_games_before_it() {
        // Blocks of at least 1000 bytes: the stream fails after 5 games of 48 bytes and one
        // cut short, before any resynchronisation point past 1000 is known. The 5 whole games
        // come out (one at a time), then the error, then the cut game as the stream ended.
        let game = |i: usize| format!("[Event \"{i}\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0\n\n");
        let whole: Vec<u8> = (0..5).flat_map(|i| game(i).into_bytes()).collect();
        let bytes = [&whole[..], b"[Event \"cut\"]\n\n1. d4"].concat();
        let stream = FailsOnce {
            bytes,
            at: 0,
            failed: false,
        };
        let mut reader = Reader::with_chunk_size(stream_reader(stream), 64);
        let mut read = Vec::new();
        let error = loop {
            match reader.next_block(1000) {
                Ok(Some(block)) => read.extend_from_slice(block.bytes),
                Ok(None) => panic!("the error is reported"),
                Err(e) => break e,
            }
        };
        assert_eq!(error.to_string(), "broken");
        assert_eq!(read, whole);
        let rest = reader.next_block(1000).unwrap().expect("the cut game");
        assert_eq!(rest.bytes, b"[Event \"cut\"]\n\n1. d4");
        assert!(reader.next_block(1000).unwrap().is_none());
    }

    fn stream_reader(stream: FailsOnce) -> io::BufReader<FailsOnce> {
        io::BufReader::with_capacity(16, stream)
    }

    /// The games, tokens and places `next_tokenized` gives for `input`.
    fn tokenized(reader: &mut Reader<&[u8]>) -> Vec<(Vec<u8>, u64, u64, Vec<crate::GameToken>)> {
        let mut games = Vec::new();
        while let Some(g) = reader.next_tokenized().unwrap() {
            games.push((
                g.raw.bytes.to_vec(),
                g.raw.offset,
                g.raw.line,
                g.tokens.to_vec(),
            ));
        }
        games
    }

    #[test]
    fn a_big_game_under_the_limit_is_read_whole_with_the_same_tokens() {
        let moves = "e4 { a comment } e5 ".repeat(BIG_GAME / 10);
        let input = format!("[Event \"a\"]\n\n1. {moves}*\n\n[Event \"b\"]\n1. d4 *\n");
        let mut reader = Reader::new(input.as_bytes());
        reader.set_max_game_bytes(Some(input.len() as u64));
        let got = tokenized(&mut reader);
        let mut splitter = GameSplitter::new(input.as_bytes());
        let mut expected = Vec::new();
        while let Some(g) = splitter.next_tokenized() {
            expected.push((
                g.raw.bytes.to_vec(),
                g.raw.offset,
                g.raw.line,
                g.tokens.to_vec(),
            ));
        }
        assert_eq!(got.len(), 2);
        assert!(got[0].0.len() > BIG_GAME);
        assert_eq!(got, expected);
    }

    #[test]
    fn a_game_over_the_limit_is_skipped_to_the_next_tag_line_in_bounded_memory() {
        // A game of 3 MB on one line (a move after a long run of junk), then two games.
        let mut input = b"[Event \"big\"]\r\n\r\n1. e4 ".to_vec();
        input.extend(std::iter::repeat_n(b'x', 3 << 20));
        let big = input.len() as u64 + 4;
        let game_a = b"[Event \"a\"]\n1. e4 *\n\n";
        input.extend_from_slice(b" *\r\n");
        input.extend_from_slice(game_a);
        input.extend_from_slice(b"[Event \"b\"]\n*\n");
        let mut reader = Reader::new(&input[..]);
        reader.set_max_game_bytes(Some(100_000));
        let skipped = reader.next_tokenized().unwrap().expect("the big game");
        assert!(skipped.raw.bytes.is_empty());
        assert_eq!(
            (skipped.raw.offset, skipped.raw.line, skipped.raw.column),
            (0, 1, 1)
        );
        assert_eq!(
            skipped.tokens.iter().map(|t| t.kind).collect::<Vec<_>>(),
            [TokenKind::Error(LexErrorKind::GameTooLarge)]
        );
        assert_eq!(skipped.too_large, Some(big));
        assert_eq!(reader.last_game_too_large(), Some(big));
        let rest = tokenized(&mut reader);
        let lines: Vec<_> = rest.iter().map(|g| (g.1, g.2)).collect();
        assert_eq!(lines, [(big, 4), (big + game_a.len() as u64, 7)]);
        assert_eq!(reader.last_game_too_large(), None);
        // The buffer never held the big game: the limit plus the reads around it.
        assert!(reader.buf.len() < 1 << 20, "{} bytes", reader.buf.len());
    }

    #[test]
    fn bytes_with_no_game_boundary_end_as_one_skipped_game() {
        let input = vec![0u8; 2 << 20];
        let mut reader = Reader::new(&input[..]);
        reader.set_max_game_bytes(Some(4096));
        let game = reader.next_tokenized().unwrap().expect("the skipped bytes");
        assert_eq!(
            game.tokens.iter().map(|t| t.kind).collect::<Vec<_>>(),
            [TokenKind::Error(LexErrorKind::GameTooLarge)]
        );
        assert_eq!(game.too_large, Some(2 << 20));
        assert!(reader.next_tokenized().unwrap().is_none());
        assert!(reader.buf.len() < 1 << 20, "{} bytes", reader.buf.len());
        // Without a limit the same input is one game, held whole.
        let mut reader = Reader::new(&input[..]);
        assert_eq!(tokenized(&mut reader)[0].0.len(), 2 << 20);
    }
}
