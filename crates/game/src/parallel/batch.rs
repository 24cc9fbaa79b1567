//! Batches of whole games for the parallel run: the games' bytes and
//! places in a few flat buffers.
//!
//! The main thread only splits the input (the splitter, which jumps between
//! the bytes that can end a game, several times faster than lexing) and
//! copies each game's bytes to the end of the batch being filled; worker
//! threads lex a batch's games (one single pass over the batch's bytes,
//! which holds whole games only, so it finds the same games, tokens and
//! warnings as a pass over the whole input) and process them. Lexing in the
//! workers keeps the main thread light: with it lexing, it was the serial
//! part that held `--threads 2` to 1.2x-1.4x of one thread. A batch's
//! buffers are reused for the next batches, so nothing is allocated per
//! game.

use std::io::{self, Read};
use std::ops::Range;

use pgnkit_lexer::{
    self as lexer, GameSplitter, GameToken, LexErrorKind, RawGame, Span, TokenKind, TokenizedGame,
};

use crate::visitor::GameStart;

/// A batch closes after the game that brings it to this many bytes.
pub(super) const BATCH_BYTES: usize = 1 << 16;

/// Batches kept for reuse.
const MAX_SPARE: usize = 8;

/// Whole games, in input order: their bytes and places.
#[derive(Debug, Default)]
pub(super) struct Batch {
    /// The games' bytes, one after the other.
    bytes: Vec<u8>,
    games: Vec<Entry>,
    /// The text the job wrote for the games, one after the other.
    text: Vec<u8>,
    /// Where each game's text ends in `text`.
    text_ends: Vec<usize>,
}

/// One game of a batch: where it was in the input and where its parts are
/// in the batch.
#[derive(Debug, Clone)]
struct Entry {
    offset: u64,
    line: u64,
    column: u64,
    bytes: Range<usize>,
    /// For a game dropped over the size limit: its length (it has no bytes).
    too_large: Option<u64>,
}

impl Batch {
    /// Empties the batch, keeping its buffers.
    fn clear(&mut self) {
        self.bytes.clear();
        self.games.clear();
        self.text.clear();
        self.text_ends.clear();
    }

    /// Adds `raw` after the batch's games.
    fn push(&mut self, raw: RawGame<'_>) {
        let entry = Entry {
            offset: raw.offset,
            line: raw.line,
            column: raw.column,
            bytes: extend(&mut self.bytes, raw.bytes),
            too_large: None,
        };
        self.games.push(entry);
    }

    /// The bytes and place of the game `entry`.
    fn raw(&self, entry: &Entry) -> RawGame<'_> {
        RawGame {
            bytes: self.bytes.get(entry.bytes.clone()).unwrap_or_default(),
            offset: entry.offset,
            line: entry.line,
            column: entry.column,
        }
    }

    /// Calls `f` with each game of the batch, in order, with its index: the
    /// games are lexed here, in one single pass over the batch's bytes.
    #[cfg(test)]
    pub(super) fn for_each_game(&self, mut f: impl FnMut(usize, TokenizedGame<'_, '_>)) {
        self.for_each_lexed(&mut (), |_, _, _| false, |_, i, game| f(i, game));
    }

    /// [`for_each_game`](Batch::for_each_game), except for the games that
    /// `done` (called first with each game that has bytes) says are done:
    /// those are not lexed, and `f` is not called for them. Both get `cx`.
    fn for_each_lexed<C>(
        &self,
        cx: &mut C,
        mut done: impl FnMut(&mut C, usize, RawGame<'_>) -> bool,
        mut f: impl FnMut(&mut C, usize, TokenizedGame<'_, '_>),
    ) {
        let mut splitter = GameSplitter::new(&self.bytes);
        // A game left out: the splitter starts again at the next game lexed.
        let mut behind = false;
        for (i, entry) in self.games.iter().enumerate() {
            if entry.too_large.is_some() {
                // As the single pass lends it: no bytes, one error token.
                let token = GameToken {
                    kind: TokenKind::Error(LexErrorKind::GameTooLarge),
                    span: Span::new(0, 0),
                };
                f(
                    cx,
                    i,
                    TokenizedGame {
                        raw: self.raw(entry),
                        tokens: &[token],
                        warnings: &[],
                        too_large: entry.too_large,
                    },
                );
                continue;
            }
            if done(cx, i, self.raw(entry)) {
                behind = true;
                continue;
            }
            if behind {
                let rest = self.bytes.get(entry.bytes.start..).unwrap_or_default();
                splitter = GameSplitter::new(rest);
                behind = false;
            }
            let whole = match splitter.next_tokenized() {
                Some(game) if game.raw.bytes.len() == entry.bytes.len() => {
                    f(
                        cx,
                        i,
                        TokenizedGame {
                            raw: self.raw(entry),
                            ..game
                        },
                    );
                    true
                }
                _ => false,
            };
            if !whole {
                // Not met by the splitter's rules (a batch's games re-split as
                // they were split); kept so a surprise costs speed, not games.
                let bytes = self.bytes.get(entry.bytes.clone()).unwrap_or_default();
                if let Some(game) = GameSplitter::new(bytes).next_tokenized() {
                    f(
                        cx,
                        i,
                        TokenizedGame {
                            raw: self.raw(entry),
                            ..game
                        },
                    );
                }
                let rest = self.bytes.get(entry.bytes.end..).unwrap_or_default();
                splitter = GameSplitter::new(rest);
            }
        }
    }

    /// Runs `f` on each game of the batch, in order, with `state` and the
    /// batch's text buffer to append the game's text to; returns the outputs
    /// in order. A game for which `early` gives an output is not lexed (see
    /// [`Job::before_lexing`](crate::Job::before_lexing)).
    pub(super) fn run<S, O>(
        &mut self,
        state: &mut S,
        mut early: impl FnMut(&mut S, GameStart<'_>) -> Option<O>,
        mut f: impl FnMut(&mut S, TokenizedGame<'_, '_>, &mut Vec<u8>) -> O,
    ) -> Vec<O> {
        let mut outputs = Vec::with_capacity(self.games.len());
        let mut text = std::mem::take(&mut self.text);
        let mut ends = std::mem::take(&mut self.text_ends);
        let mut cx = (state, &mut outputs, &mut text, &mut ends);
        self.for_each_lexed(
            &mut cx,
            |(state, outputs, text, ends), _, raw| match early(state, GameStart::from(raw)) {
                Some(output) => {
                    outputs.push(output);
                    ends.push(text.len());
                    true
                }
                None => false,
            },
            |(state, outputs, text, ends), _, game| {
                outputs.push(f(state, game, text));
                ends.push(text.len());
            },
        );
        self.text = text;
        self.text_ends = ends;
        outputs
    }

    /// The text written for the game at `index` by [`Batch::run`].
    pub(super) fn text(&self, index: usize) -> &[u8] {
        let start = match index.checked_sub(1) {
            Some(before) => self.text_ends.get(before).copied().unwrap_or(0),
            None => 0,
        };
        let end = self.text_ends.get(index).copied().unwrap_or(start);
        self.text.get(start..end).unwrap_or_default()
    }

    /// The game at `index` (as numbered by [`Batch::for_each_game`]).
    pub(super) fn game(&self, index: usize) -> GameStart<'_> {
        let raw = match self.games.get(index) {
            Some(entry) => self.raw(entry),
            None => RawGame {
                bytes: &[],
                offset: 0,
                line: 1,
                column: 1,
            },
        };
        GameStart::from(raw)
    }
}

/// Appends `items` to `buf`, returning where they went.
fn extend<T: Copy>(buf: &mut Vec<T>, items: &[T]) -> Range<usize> {
    let start = buf.len();
    buf.extend_from_slice(items);
    start..buf.len()
}

/// Cuts an input into batches.
pub(super) struct Batcher<R> {
    games: lexer::Reader<R>,
    /// A batch closes after the game that brings it to this many bytes.
    batch_bytes: usize,
    spare: Vec<Batch>,
}

impl<R: Read> Batcher<R> {
    /// Batches of the games of `games`, of `batch_bytes` (at least) each.
    pub(super) fn new(games: lexer::Reader<R>, batch_bytes: usize) -> Batcher<R> {
        Batcher {
            games,
            batch_bytes,
            spare: Vec::new(),
        }
    }

    /// The next batch; `None` at the end of the input.
    pub(super) fn next_batch(&mut self) -> io::Result<Option<Batch>> {
        let mut batch = self.spare.pop().unwrap_or_default();
        while batch.bytes.len() < self.batch_bytes {
            let Some(game) = self.games.next_game()? else {
                break;
            };
            batch.push(game);
            let too_large = self.games.last_game_too_large();
            if let Some(entry) = batch.games.last_mut() {
                entry.too_large = too_large;
            }
        }
        if batch.games.is_empty() {
            return Ok(None);
        }
        Ok(Some(batch))
    }

    /// Takes back a batch whose games are done, to reuse its buffers.
    pub(super) fn recycle(&mut self, mut batch: Batch) {
        if self.spare.len() < MAX_SPARE {
            batch.clear();
            self.spare.push(batch);
        }
    }

    /// Bytes outside any game (see [`lexer::Reader::skipped`]).
    pub(super) fn skipped(&self) -> u64 {
        self.games.skipped()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pgnkit_lexer::{GameToken, LexWarning};

    /// A game's bytes, position, tokens and warnings.
    type Seen = (Vec<u8>, u64, u64, u64, Vec<GameToken>, Vec<LexWarning>);

    fn seen(game: &TokenizedGame<'_, '_>) -> Seen {
        let raw = game.raw;
        (
            raw.bytes.to_vec(),
            raw.offset,
            raw.line,
            raw.column,
            game.tokens.to_vec(),
            game.warnings.to_vec(),
        )
    }

    #[test]
    fn batches_hold_the_games_of_the_single_pass() {
        let mut input = b"\xef\xbb\xbf \n".to_vec();
        let mut n = 0;
        while input.len() < 3 * BATCH_BYTES {
            let game = match n % 3 {
                0 => format!("[Event \"{n}\"]\n\n1. e4 {{ a comment }} e5 1-0 "),
                1 => format!("[Event \"{n}\tTAB\"]\n1. d4 *\n"),
                _ => format!("1. Nf3 d5 {n}. Qxx7 *\n\n"),
            };
            input.extend_from_slice(game.as_bytes());
            n += 1;
        }
        let mut batcher = Batcher::new(lexer::Reader::new(&input[..]), BATCH_BYTES);
        let mut batched = Vec::new();
        let mut batches = 0;
        while let Some(batch) = batcher.next_batch().expect("reading a slice") {
            batch.for_each_game(|i, game| {
                let start = batch.game(i);
                assert_eq!(start.bytes, game.raw.bytes);
                assert_eq!((start.offset, start.line), (game.raw.offset, game.raw.line));
                batched.push(seen(&game));
            });
            batcher.recycle(batch);
            batches += 1;
        }
        let mut splitter = GameSplitter::new(&input);
        let mut whole = Vec::new();
        while let Some(game) = splitter.next_tokenized() {
            whole.push(seen(&game));
        }
        assert_eq!(batched, whole);
        assert!(batches >= 3, "{batches} batches");
        assert!(whole.iter().any(|g| !g.5.is_empty()), "a warning is kept");
        assert_eq!(batcher.skipped(), 5);
    }

    #[test]
    fn an_empty_input_has_no_batch() {
        let mut batcher = Batcher::new(lexer::Reader::new(&b" \n\n"[..]), BATCH_BYTES);
        assert!(batcher.next_batch().expect("slice").is_none());
        assert_eq!(batcher.skipped(), 3);
    }
}
