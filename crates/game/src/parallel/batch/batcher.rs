//! [`Batcher`]: the calling thread's side of the batches, which reads the
//! input into them (the lexer's [`Reader::next_block`](lexer::Reader::next_block)
//! and [`take_block`](lexer::Reader::take_block): a batch cut at a point
//! holds the buffer its bytes were read into, and its old buffer is read
//! into next, so that each byte is copied once, by the stream's read).

use std::io::{self, Read};

use pgnkit_lexer::{self as lexer, BlockEnd, RawGame};

use super::{Batch, MAX_KEPT_BUFFER, MAX_SPARE, Region};

/// Cuts an input into batches.
pub(in crate::parallel) struct Batcher<R> {
    games: lexer::Reader<R>,
    /// A batch closes after the game that brings it to this many bytes.
    batch_bytes: usize,
    spare: Vec<Batch>,
    /// A read error met after the games of the batch it ended: given by the
    /// next call, so that those games are read first.
    error: Option<io::Error>,
    /// Batches cut where a test says instead (see [`Batcher::with_cuts`]).
    #[cfg(test)]
    cuts: Option<Cuts>,
}

/// An input cut at given line starts, for tests: batches whose ends are
/// often not game ends.
#[cfg(test)]
struct Cuts {
    input: Vec<u8>,
    /// Where the batches start after the first, ascending.
    at: std::collections::VecDeque<usize>,
    pos: usize,
}

impl<R: Read> Batcher<R> {
    /// Batches of the games of `games`, of `batch_bytes` (at least) each.
    /// The reader leaves the line ends of the batches' regions uncounted:
    /// [`Batch::place_lines`](super::Batch::place_lines) counts them, on the
    /// workers, so that the calling thread looks at a few lines per batch.
    pub(in crate::parallel) fn new(mut games: lexer::Reader<R>, batch_bytes: usize) -> Batcher<R> {
        games.set_block_lines(false);
        Batcher {
            games,
            batch_bytes,
            spare: Vec::new(),
            error: None,
            #[cfg(test)]
            cuts: None,
        }
    }

    /// The next batch; `None` at the end of the input. A read error ends
    /// the batch being gathered, which comes first when it holds games; the
    /// error comes with the next call.
    pub(in crate::parallel) fn next_batch(&mut self) -> io::Result<Option<Batch>> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        let mut batch = self.spare.pop().unwrap_or_default();
        batch.lex = self.games.options();
        #[cfg(test)]
        if let Some(cuts) = &mut self.cuts {
            return Ok(cuts.next_batch(batch));
        }
        while batch.len() < self.batch_bytes {
            let want = self.batch_bytes - batch.len();
            let block = match self.games.next_block(want) {
                Ok(Some(block)) => block,
                Ok(None) => break,
                Err(e) if batch.games.is_empty() && batch.region.is_none() => {
                    self.recycle(batch);
                    return Err(e);
                }
                Err(e) => {
                    self.error = Some(e);
                    break;
                }
            };
            match block.end {
                BlockEnd::Game { too_large, next } => {
                    let raw = RawGame {
                        bytes: block.bytes,
                        offset: block.offset,
                        line: block.line,
                        column: block.column,
                    };
                    batch.push(raw, too_large);
                    batch.set_next(next);
                }
                end => {
                    let (offset, line, column) = (block.offset, block.line, block.column);
                    let counted = block.counted;
                    let next: &[u8] = match end {
                        BlockEnd::Point(line) => line,
                        _ => &[],
                    };
                    batch.cut = matches!(end, BlockEnd::Point(_));
                    let start = if batch.games.is_empty() {
                        // The buffer the reader read the block into becomes the
                        // batch's; the reader reads on into the batch's old one.
                        let next = next.len();
                        let range = self.games.take_block(&mut batch.bytes);
                        (batch.first, batch.end) = (range.start, range.end);
                        batch.next_end = range.end + next;
                        range.start
                    } else {
                        // After games listed one by one: copied behind them.
                        let start = batch.append(block.bytes).start;
                        batch.set_next(next);
                        start
                    };
                    batch.region = Some(Region {
                        start,
                        offset,
                        line,
                        column,
                        counted,
                    });
                    break;
                }
            }
        }
        if batch.games.is_empty() && batch.region.is_none() {
            self.recycle(batch);
            return Ok(None);
        }
        Ok(Some(batch))
    }

    /// Takes back a batch whose games are done, to reuse its buffers (but a
    /// buffer grown far past a batch's size, by a big game read whole).
    pub(in crate::parallel) fn recycle(&mut self, mut batch: Batch) {
        let most = self.batch_bytes.saturating_mul(2).max(MAX_KEPT_BUFFER);
        if self.spare.len() < MAX_SPARE && batch.bytes.capacity() <= most {
            batch.clear();
            self.spare.push(batch);
        }
    }

    /// Bytes outside any game (see [`lexer::Reader::skipped`]).
    pub(in crate::parallel) fn skipped(&self) -> u64 {
        #[cfg(test)]
        if let Some(cuts) = &self.cuts {
            return lexer::GameSplitter::new(&cuts.input).skipped();
        }
        self.games.skipped()
    }
}

#[cfg(test)]
impl Batcher<&'static [u8]> {
    /// Batches of `input` cut at the line starts `at` (after a LF or a lone
    /// CR), each to be confirmed as if cut at a point.
    pub(in crate::parallel) fn with_cuts(input: Vec<u8>, at: Vec<usize>) -> Batcher<&'static [u8]> {
        let mut batcher = Batcher::new(lexer::Reader::new(&[][..]), 1);
        batcher.cuts = Some(Cuts {
            input,
            at: at.into(),
            pos: 0,
        });
        batcher
    }
}

#[cfg(test)]
impl Cuts {
    fn next_batch(&mut self, mut batch: Batch) -> Option<Batch> {
        if self.pos >= self.input.len() {
            return None;
        }
        let end = self.at.pop_front().unwrap_or(self.input.len());
        let bytes = self.input.get(self.pos..end).unwrap_or_default();
        // The lines are left to `Batch::place_lines`, as the reader leaves them.
        batch.region = Some(Region {
            start: 0,
            offset: self.pos as u64,
            line: 1,
            column: 1,
            counted: false,
        });
        batch.append(bytes);
        let rest = self.input.get(end..).unwrap_or_default();
        let line = memchr::memchr2(b'\n', b'\r', rest).map_or(rest.len(), |i| i + 1);
        batch.set_next(rest.get(..line).unwrap_or_default());
        batch.cut = end < self.input.len();
        self.pos = end;
        Some(batch)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::RefCell;
    use std::ops::Range;
    use std::rc::Rc;

    /// A slice read as a stream that notes where in memory each read put its
    /// bytes.
    struct Noted<'a> {
        bytes: &'a [u8],
        writes: Rc<RefCell<Vec<Range<usize>>>>,
    }

    impl Read for Noted<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = buf.len().min(self.bytes.len());
            let (now, rest) = self.bytes.split_at(n);
            buf[..n].copy_from_slice(now);
            self.bytes = rest;
            let at = buf.as_ptr() as usize;
            self.writes.borrow_mut().push(at..at + n);
            Ok(n)
        }
    }

    #[test]
    fn a_batch_holds_its_bytes_where_the_stream_read_them() {
        let mut input = Vec::new();
        for n in 0..3000 {
            let moves = "e4 {[%clk 0:03:00]} e5 ".repeat(10 + n % 60);
            let game = format!("[Event \"{n}\"]\n[Site \"s\"]\n\n1. {moves}1-0\n\n");
            input.extend_from_slice(game.as_bytes());
        }
        let writes = Rc::new(RefCell::new(Vec::new()));
        let stream = Noted {
            bytes: &input,
            writes: writes.clone(),
        };
        let mut batcher = Batcher::new(lexer::Reader::new(stream), super::super::BATCH_BYTES);
        let (mut batches, mut read, mut in_place) = (0, Vec::new(), 0);
        while let Some(batch) = batcher.next_batch().expect("a slice reads") {
            let bytes = batch.bytes.get(batch.first..batch.end).expect("the bytes");
            let at = bytes.as_ptr() as usize;
            for write in writes.borrow_mut().drain(..) {
                in_place += write
                    .end
                    .min(at + bytes.len())
                    .saturating_sub(write.start.max(at));
            }
            read.extend_from_slice(bytes);
            batches += 1;
            batcher.recycle(batch);
        }
        assert_eq!(read, input);
        assert!(batches > 20, "{batches} batches");
        // All but the first part of the game each batch's end cut (moved to the next
        // buffer) and the first reads (a chunk each, whatever the batch needs).
        assert!(
            in_place * 10 > read.len() * 9,
            "{in_place} of {} bytes where they were read",
            read.len()
        );
    }
}
