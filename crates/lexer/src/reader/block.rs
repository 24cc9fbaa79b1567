//! Blocks of whole games for a reader that splits them on other threads: [`Reader::next_block`],
//! [`Block`], [`BlockEnd`].

use std::io::{self, Read};

use super::{Found, Reader};
use crate::resync;
use crate::split::column_after;

impl<R: Read> Reader<R> {
    /// The next block of the input, of `min` bytes or more, for a reader that splits blocks into
    /// games on other threads (the parallel reader of `pgnkit-game`): the calling thread then
    /// only reads, looks at a few lines per block and counts line ends, and never runs the
    /// splitter over the bytes. `None` at the end of the input.
    ///
    /// A block starts at a game's first byte. It ends
    ///
    /// - at the first cut ([`resync::next_cut`]: a line that starts like a tag pair after one
    ///   that is not in a tag section) at or after `min` bytes, with that line
    ///   ([`BlockEnd::Point`]): its games are those of
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
        loop {
            self.read_ahead();
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
                Ok(point) => {
                    let rest = avail.get(point..).unwrap_or_default();
                    let line = memchr::memchr2(b'\n', b'\r', rest).map_or(rest.len(), |i| i + 1);
                    return Ok(Some(self.lend_block(point, Cut::Point(line))));
                }
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
                    if let Err(e) = self.fill(self.chunk) {
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
        }))
    }

    /// Lends the next `len` bytes as a block that ends as `cut` says, and moves past them.
    fn lend_block(&mut self, len: usize, cut: Cut) -> Block<'_> {
        let found = Found {
            offset: self.offset,
            line: self.line,
            column: self.column,
        };
        self.advance(len);
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
    /// 1-based line of the first byte of `bytes`.
    pub line: u64,
    /// 1-based column of the first byte of `bytes` (see [`RawGame::column`](crate::RawGame::column)).
    pub column: u64,
    /// How the block ends.
    pub end: BlockEnd<'a>,
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
        let whole: Vec<_> = GameSplitter::new(input)
            .map(|g| (g.bytes.to_vec(), g.offset, g.line, g.column))
            .collect();
        let mut reader = Reader::with_chunk_size(input, chunk);
        let mut at = GameSplitter::new(input).skipped();
        let (mut games, mut points, mut unconfirmed) = (Vec::new(), 0, 0);
        let mut pending: Option<((u64, u64, u64), Vec<u8>)> = None;
        while let Some(block) = reader.next_block(min).unwrap() {
            assert_eq!(block.offset, at);
            at += block.bytes.len() as u64;
            let merged = pending.is_some();
            let (place, bytes) = match pending.take() {
                Some((place, mut bytes)) => {
                    bytes.extend_from_slice(block.bytes);
                    (place, bytes)
                }
                None => (
                    (block.offset, block.line, block.column),
                    block.bytes.to_vec(),
                ),
            };
            let split: Vec<_> = GameSplitter::at(&bytes, place.0, place.1, place.2)
                .map(|g| (g.bytes.to_vec(), g.offset, g.line, g.column))
                .collect();
            let last = split.last().map(|g| g.0.clone()).unwrap_or_default();
            let confirmed = match block.end {
                BlockEnd::Point(line) => {
                    points += 1;
                    assert!(crate::resync::starts_like_tag_pair(line));
                    ends_before(&last, line)
                }
                BlockEnd::Input => true,
                BlockEnd::Game { too_large, next } => {
                    assert_eq!(too_large, None);
                    !merged || ends_before(&last, next)
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
