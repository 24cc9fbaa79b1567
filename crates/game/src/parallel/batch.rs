//! Batches of whole games for the parallel run: the games' bytes and
//! places in a few flat buffers.
//!
//! The calling thread does not split the input: it cuts it into blocks at
//! resynchronisation points ([`pgnkit_lexer::Reader::next_block`]: a few lines
//! looked at per batch, with memchr), and a block becomes a batch with the
//! buffer it was read into (`batch/batcher.rs`, the reader's
//! [`take_block`](pgnkit_lexer::Reader::take_block): only the bytes read
//! past the cut move to the next buffer). A worker splits and lexes its batch's games in one single pass
//! ([`GameSplitter::at`] over the batch's bytes, which start at a game
//! start, so it finds the same games, tokens and warnings as a pass over the
//! whole input), processes them, and confirms that the batch's last game
//! ends where the next batch starts (the splitter runs on over the next
//! batch's first line, which decides where that game ends; or
//! [`split::ends_at`] over the last game and that line, when the games were
//! split before they were lexed). The hand-out in order
//! (`parallel.rs`) reads a batch whose end is not confirmed again together
//! with the next one ([`Batch::merge`]), so the games are always exactly the
//! splitter's from the start of the input. Where the reader finds no point
//! near (games without tags, a game over the size limit), it gives single
//! games as its splitter finds them, and the batch lists them. A batch's
//! buffers are reused for the next batches, so nothing is allocated per
//! game.

use std::ops::Range;

use pgnkit_lexer::{
    GameSplitter, GameToken, LexErrorKind, LexOptions, RawGame, Span, TokenKind, TokenizedGame,
    split,
};

use crate::game_start::GameStart;

mod batcher;

pub(super) use batcher::Batcher;

/// A batch closes after the game that brings it to this many bytes.
pub(super) const BATCH_BYTES: usize = 1 << 16;

/// Batches kept for reuse.
const MAX_SPARE: usize = 8;

/// A recycled batch whose buffer is larger than this (or twice the batch
/// size) is dropped: a buffer that grew to hold a big game would otherwise
/// be kept for ever.
const MAX_KEPT_BUFFER: usize = 1 << 18;

/// Whole games, in input order: their bytes and places.
#[derive(Debug, Default)]
pub(super) struct Batch {
    /// The buffer: the games' bytes one after the other at `first..end` (the
    /// input's bytes, but for games over the size limit, which have none),
    /// then what follows the batch in the input up to `next_end`, as far as
    /// the reader saw it: the first line of the next batch (see
    /// [`BlockEnd`](pgnkit_lexer::BlockEnd)). The rest is room, its bytes initialized: a batch cut at
    /// a point holds the buffer the reader read its bytes into
    /// ([`pgnkit_lexer::Reader::take_block`]), and a recycled batch's buffer is the
    /// one the reader reads the next bytes into, with no clearing.
    bytes: Vec<u8>,
    /// Where the batch's bytes start in `bytes`.
    first: usize,
    /// Where they end.
    end: usize,
    /// Where the next batch's first line ends.
    next_end: usize,
    /// The games: those the reader listed, then (once split) the region's.
    games: Vec<Entry>,
    /// Games the reader listed (before the region).
    listed: usize,
    /// The bytes from `region.start` on, to split on the worker.
    region: Option<Region>,
    /// Whether the batch's end must be confirmed (it was cut at a point, or it
    /// holds bytes merged after an end that was not confirmed).
    cut: bool,
    /// Whether the splitter confirmed the batch's end (set by `run`).
    confirmed: bool,
    /// The rules the reader split the games with (its
    /// [`options`](pgnkit_lexer::Reader::options)): the batch's games are
    /// split again, lexed and checked with them.
    lex: LexOptions,
    /// The text the job wrote for the games, one after the other.
    text: Vec<u8>,
    /// Where each game's text ends in `text`.
    text_ends: Vec<usize>,
}

/// The part of a batch's bytes that the worker splits into games.
#[derive(Debug, Clone, Copy)]
struct Region {
    /// Where it starts in the batch's bytes.
    start: usize,
    /// Its place in the input.
    offset: u64,
    line: u64,
    column: u64,
    /// Whether the reader counted the region's line ends: `false` until
    /// [`place_lines`](Batch::place_lines) counts them, on a worker, when the
    /// reader left them (see [`pgnkit_lexer::Reader::set_block_lines`]).
    counted: bool,
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
    /// Empties the batch, keeping its buffers (and the bytes in them).
    fn clear(&mut self) {
        (self.first, self.end, self.next_end) = (0, 0, 0);
        self.games.clear();
        self.listed = 0;
        self.region = None;
        self.cut = false;
        self.confirmed = false;
        self.text.clear();
        self.text_ends.clear();
    }

    /// Adds a game the reader found (`too_large`: see
    /// [`pgnkit_lexer::Reader::last_game_too_large`]) after the batch's games.
    fn push(&mut self, raw: RawGame<'_>, too_large: Option<u64>) {
        let entry = Entry {
            offset: raw.offset,
            line: raw.line,
            column: raw.column,
            bytes: self.append(raw.bytes),
            too_large,
        };
        self.games.push(entry);
        self.listed = self.games.len();
    }

    /// The batch's length in bytes.
    fn len(&self) -> usize {
        self.end - self.first
    }

    /// Appends `bytes` to the batch's bytes (copied), returning where they
    /// went; what followed the batch is dropped.
    fn append(&mut self, bytes: &[u8]) -> Range<usize> {
        self.bytes.truncate(self.end);
        self.bytes.extend_from_slice(bytes);
        let start = self.end;
        self.end = self.bytes.len();
        self.next_end = self.end;
        start..self.end
    }

    /// Sets what follows the batch in the input (copied).
    fn set_next(&mut self, line: &[u8]) {
        self.bytes.truncate(self.end);
        self.bytes.extend_from_slice(line);
        self.next_end = self.bytes.len();
    }

    /// The batch's bytes, from the start of the buffer (where the listed
    /// games' ranges point).
    fn held(&self) -> &[u8] {
        self.bytes.get(..self.end).unwrap_or_default()
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

    /// Puts the batch's games on their lines in the input: `lines` holds the
    /// line ends of the earlier batches' bytes that the reader did not count
    /// (the regions it left to the workers, see
    /// [`pgnkit_lexer::Reader::set_block_lines`]), which are added to the
    /// places the reader gave; the batch's own are then counted and added to
    /// `lines` for the next batch. Called once per batch, in the order the
    /// batcher cut them, before the batch runs: the workers call it as they
    /// take a batch, the next one waiting for them (a count with `memchr`,
    /// a few microseconds a batch).
    pub(super) fn place_lines(&mut self, lines: &mut u64) {
        for entry in self.games.iter_mut().take(self.listed) {
            entry.line += *lines;
        }
        let Some(region) = self.region.as_mut() else {
            return;
        };
        region.line += *lines;
        if !region.counted {
            let bytes = self.bytes.get(region.start..self.end).unwrap_or_default();
            *lines += split::line_ends(bytes);
            region.counted = true;
        }
    }

    /// Whether the splitter confirmed the batch's end (after
    /// [`run`](Batch::run)): when not, the batch's outputs must be dropped
    /// and the batch [merged](Batch::merge) with the next one.
    pub(super) fn confirmed(&self) -> bool {
        self.confirmed
    }

    /// Whether the batch holds a game over the size limit (whose bytes are
    /// not in the batch).
    pub(super) fn has_skipped_game(&self) -> bool {
        self.games
            .get(..self.listed)
            .unwrap_or_default()
            .iter()
            .any(|e| e.too_large.is_some())
    }

    /// Makes the batch, whose end was not confirmed, hold `next`'s bytes
    /// after its own, to be run again: its games from the start of its
    /// region (or of its first game, when the reader listed them all) are
    /// split again over both batches' bytes. `next` must hold no game over the
    /// size limit. The outputs of both runs are to be dropped.
    pub(super) fn merge(&mut self, next: &Batch) {
        self.games.truncate(self.listed);
        if self.region.is_none() {
            // Every game was listed: split them again from the last listed one on
            // (those before it are whole).
            if let Some(last) = self.games.pop() {
                self.region = Some(Region {
                    start: last.bytes.start,
                    offset: last.offset,
                    line: last.line,
                    column: last.column,
                    counted: true,
                });
            }
            self.listed = self.games.len();
        }
        let next_bytes = next.bytes.get(next.first..next.next_end);
        self.append(next_bytes.unwrap_or_default());
        self.end -= next.next_end - next.end;
        self.cut = next.cut || next.region.is_none();
        self.confirmed = false;
        self.text.clear();
        self.text_ends.clear();
    }

    /// Marks the batch's end as the end of what can be merged (the next
    /// batch holds a game over the size limit): its games are then the
    /// splitter's over its bytes as they are.
    pub(super) fn end_here(&mut self) {
        self.games.truncate(self.listed);
        self.cut = false;
        self.text.clear();
        self.text_ends.clear();
    }

    /// Splits the region into games (listed after the others), without
    /// lexing them.
    fn list_region(&mut self) {
        let Some(region) = self.region.take() else {
            return;
        };
        let bytes = self.bytes.get(region.start..self.end).unwrap_or_default();
        for game in GameSplitter::at(bytes, region.offset, region.line, region.column)
            .with_options(self.lex)
        {
            let start = region.start + (game.offset - region.offset) as usize;
            self.games.push(Entry {
                offset: game.offset,
                line: game.line,
                column: game.column,
                bytes: start..start + game.bytes.len(),
                too_large: None,
            });
        }
    }

    /// Calls `f` with each game of the batch, in order, with its index: the
    /// games are lexed here, in one single pass over the batch's bytes.
    #[cfg(test)]
    pub(super) fn for_each_game(&mut self, mut f: impl FnMut(usize, TokenizedGame<'_, '_>)) {
        self.games.truncate(self.listed);
        self.list_region();
        self.for_each_listed(&mut (), |_, _, _| false, |_, i, game| f(i, game));
    }

    /// Calls `f` with each listed game of the batch (all but the region's),
    /// in order, with its index, except for the games that `done` (called
    /// first with each game that has bytes) says are done: those are not
    /// lexed, and `f` is not called for them. Both get `cx`.
    fn for_each_listed<C>(
        &self,
        cx: &mut C,
        mut done: impl FnMut(&mut C, usize, RawGame<'_>) -> bool,
        mut f: impl FnMut(&mut C, usize, TokenizedGame<'_, '_>),
    ) {
        let held = self.held();
        let mut splitter =
            GameSplitter::new(held.get(self.first..).unwrap_or_default()).with_options(self.lex);
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
                        variations: Some(false),
                    },
                );
                continue;
            }
            if done(cx, i, self.raw(entry)) {
                behind = true;
                continue;
            }
            if behind {
                let rest = held.get(entry.bytes.start..).unwrap_or_default();
                splitter = GameSplitter::new(rest).with_options(self.lex);
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
                if let Some(game) = GameSplitter::new(bytes)
                    .with_options(self.lex)
                    .next_tokenized()
                {
                    f(
                        cx,
                        i,
                        TokenizedGame {
                            raw: self.raw(entry),
                            ..game
                        },
                    );
                }
                let rest = held.get(entry.bytes.end..).unwrap_or_default();
                splitter = GameSplitter::new(rest).with_options(self.lex);
            }
        }
    }

    /// Runs `f` on each game of the batch, in order, with `state` and the
    /// batch's text buffer to append the game's text to; returns the outputs
    /// in order, and checks the batch's end ([`confirmed`](Batch::confirmed)).
    /// With `look`, `early` sees each game's bytes first, and a game for which
    /// it gives an output is not lexed (see
    /// [`Job::before_lexing`](crate::Job::before_lexing)); the region is then
    /// split before it is lexed. Without, the region's games are split and
    /// lexed in one single pass.
    pub(super) fn run<S, O>(
        &mut self,
        state: &mut S,
        look: bool,
        mut early: impl FnMut(&mut S, GameStart<'_>) -> Option<O>,
        mut f: impl FnMut(&mut S, TokenizedGame<'_, '_>, &mut Vec<u8>) -> O,
    ) -> Vec<O> {
        self.games.truncate(self.listed);
        if look {
            self.list_region();
        }
        let mut outputs = Vec::with_capacity(self.games.len());
        let mut text = std::mem::take(&mut self.text);
        let mut ends = std::mem::take(&mut self.text_ends);
        text.clear();
        ends.clear();
        let mut cx = (state, &mut outputs, &mut text, &mut ends);
        self.for_each_listed(
            &mut cx,
            |(state, outputs, text, ends), _, raw| match look
                .then(|| early(state, GameStart::from(raw)))
                .flatten()
            {
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
        // Whether the region's last game ends at the batch's end (`None`: no
        // game of the region reached it).
        let mut at_end = None;
        if let Some(region) = self.region {
            let (state, outputs, text, ends) = cx;
            // With the next batch's first line when the batch was cut: the
            // splitter decides on it whether the last game ends at the
            // batch's end, which confirms the batch as `last_game_ends` would,
            // without a second scan of that game.
            let until = if self.cut { self.next_end } else { self.end };
            let bytes = self.bytes.get(region.start..until).unwrap_or_default();
            let mut games = GameSplitter::at(bytes, region.offset, region.line, region.column)
                .with_options(self.lex);
            while let Some(game) = games.next_tokenized() {
                let start = region.start + (game.raw.offset - region.offset) as usize;
                if start >= self.end {
                    break; // the next batch's first line, after an empty region
                }
                let end = start + game.raw.bytes.len();
                self.games.push(Entry {
                    offset: game.raw.offset,
                    line: game.raw.line,
                    column: game.raw.column,
                    bytes: start..end,
                    too_large: None,
                });
                outputs.push(f(state, game, text));
                ends.push(text.len());
                if end >= self.end {
                    // Past the end, the batch is not confirmed: its outputs are
                    // dropped and it is read again with the next one.
                    at_end = Some(end == self.end);
                    break;
                }
            }
        }
        self.confirmed = !self.cut || at_end.unwrap_or_else(|| self.last_game_ends());
        self.text = text;
        self.text_ends = ends;
        outputs
    }

    /// Whether the splitter ends the batch's last game at the batch's end
    /// when the next batch's first line follows it (in the buffer).
    fn last_game_ends(&self) -> bool {
        let Some(last) = self.games.last() else {
            return false;
        };
        if last.too_large.is_some() || last.bytes.end != self.end {
            return false;
        }
        let (start, end) = (last.bytes.start, last.bytes.end);
        let bytes = self.bytes.get(start..self.next_end).unwrap_or_default();
        split::ends_at_with(bytes, end - start, self.lex)
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

    /// The game at `index` (as numbered by [`Batch::run`]).
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

#[cfg(test)]
mod tests {
    use super::*;
    use pgnkit_lexer as lexer;
    use pgnkit_lexer::{GameToken, LexWarning};
    use std::io;

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
        let (mut batches, mut lines) = (0, 0);
        while let Some(mut batch) = batcher.next_batch().expect("reading a slice") {
            batch.place_lines(&mut lines);
            let mut games = Vec::new();
            batch.for_each_game(|i, game| games.push((i, seen(&game))));
            for (i, game) in games {
                let start = batch.game(i);
                assert_eq!(start.bytes, game.0);
                assert_eq!((start.offset, start.line), (game.1, game.2));
                batched.push(game);
            }
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

    /// A game's place, bytes, token count and warnings, and its text.
    type Read = ((u64, u64, u64), Vec<u8>, usize, usize, Vec<u8>);

    /// Each game's place, bytes, tokens and warnings (no chess: fast in
    /// debug builds), in batches of `BYTES`.
    struct Places<const BYTES: usize>;

    impl<const BYTES: usize> crate::Job for Places<BYTES> {
        type State = ();
        type Output = ((u64, u64, u64), Vec<u8>, usize, usize);
        const BATCH_BYTES: usize = BYTES;
        fn state(&self) {}
        fn run(&self, _: &mut (), game: TokenizedGame<'_, '_>, text: &mut Vec<u8>) -> Self::Output {
            let raw = game.raw;
            text.extend_from_slice(format!("{}:{}\n", raw.line, raw.column).as_bytes());
            (
                (raw.offset, raw.line, raw.column),
                raw.bytes.to_vec(),
                game.tokens.len(),
                game.warnings.len(),
            )
        }
    }

    fn gather(
        all: &mut Vec<Read>,
    ) -> impl FnMut(GameStart<'_>, <Places<1> as crate::Job>::Output, &[u8]) -> io::Result<()> + '_
    {
        |start, out, text| {
            assert_eq!((start.offset, start.line), (out.0.0, out.0.1));
            all.push((out.0, out.1, out.2, out.3, text.to_vec()));
            Ok(())
        }
    }

    /// The games of `input` on one thread, as the stream reader reads them.
    fn serial(input: &[u8]) -> Vec<Read> {
        let mut all = Vec::new();
        crate::run_ordered(&Places::<1>, input, 1, gather(&mut all)).expect("a slice reads");
        all
    }

    /// The games of `input` on `threads` threads, batches cut at `at`.
    fn cut(input: &[u8], at: Vec<usize>, threads: usize) -> Vec<Read> {
        let mut all = Vec::new();
        let batcher = Batcher::with_cuts(input.to_vec(), at);
        let totals = super::super::run_parallel(&Places::<1>, batcher, threads, gather(&mut all))
            .expect("a slice reads");
        assert_eq!(totals.games, all.len() as u64);
        all
    }

    /// Where lines start (after a LF or a lone CR), but the input's start.
    fn line_starts(input: &[u8]) -> Vec<usize> {
        (0..input.len())
            .filter(|&i| {
                let b = input[i];
                (b == b'\n' || (b == b'\r' && input.get(i + 1) != Some(&b'\n')))
                    && i + 1 < input.len()
            })
            .map(|i| i + 1)
            .collect()
    }

    /// Games whose ends the cuts do not meet: a tag line in a multi-line
    /// comment, after a line that closes a game (a point) or not; games
    /// without tags; comments after markers; CR line ends; a byte order mark.
    fn tricky() -> Vec<u8> {
        let mut input = b"\xef\xbb\xbf\n".to_vec();
        for n in 0..60 {
            let game = match n % 6 {
                0 => format!("[Event \"{n}\"]\n\n1. e4 {{ a\nb 1-0\n[Event \"x\"]\n}} *\n\n"),
                1 => format!("[Event \"{n}\"]\n\n1. e4 {{ a\n[Site \"x\"]\n}} 1-0\n"),
                2 => format!("[Event \"{n}\"]\n{{\n1-0\n[Site \"x\"]\n\n1. d4 *\r\n"),
                3 => format!("1. c4 1/2-1/2\n\n{{c}}\n1. d4 0-1 {n}. e4\n*\n\n\n"),
                4 => format!("[Event \"{n}\"]\r[Site \"s\"]\r\r1. Nf3 ; x\r*\r"),
                _ => format!("[Event \"{n}\"]\n[Event \"{n}\"]\n\n[Event \"y\"]\n\n1. e4 Kxx9 *\n"),
            };
            input.extend_from_slice(game.as_bytes());
        }
        input
    }

    #[test]
    fn batches_cut_anywhere_give_the_splitters_games() {
        let input = tricky();
        let want = serial(&input);
        assert!(want.len() > 60, "{} games", want.len());
        let starts = line_starts(&input);
        // Every line its own batch; every other line; every seventh.
        for step in [1, 2, 7] {
            let at: Vec<usize> = starts.iter().copied().step_by(step).collect();
            for threads in [2, 3] {
                assert_eq!(cut(&input, at.clone(), threads), want, "step {step}");
            }
        }
        // One cut at each line start in turn.
        for &at in &starts {
            assert_eq!(cut(&input, vec![at], 2), want, "a cut at {at}");
        }
    }

    #[test]
    fn a_tag_line_in_a_comment_at_a_cut() {
        // The splitter ends the comment at the tag line: a game starts there,
        // and the cut there is confirmed.
        let input =
            b"[Event \"a\"]\n\n1. e4 { a comment\non lines 1-0\n[Event \"b\"]\n} 1-0\n".to_vec();
        let at = input
            .windows(9)
            .position(|w| w == b"[Event \"b")
            .expect("the line");
        assert_eq!(resync_points(&input), vec![at]);
        let want = serial(&input);
        assert_eq!(want.len(), 2);
        assert_eq!(cut(&input, vec![at], 2), want);
        let mut batch = Batcher::with_cuts(input.clone(), vec![at])
            .next_batch()
            .expect("slice")
            .expect("a batch");
        batch.run(&mut (), false, |_, _| None::<()>, |_, _, _| ());
        assert!(batch.confirmed());
        // The same in a tag section (the comment, unterminated, ends there).
        let input = b"[Event \"a\"]\n{ x\n1-0\n[Site \"b\"]\n\n1. e4 *\n".to_vec();
        let at = input
            .windows(5)
            .position(|w| w == b"[Site")
            .expect("the line");
        assert_eq!(resync_points(&input), vec![at]);
        let want = serial(&input);
        assert_eq!(want.len(), 2);
        assert_eq!(cut(&input, vec![at], 2), want);
        // A cut that is not a game start (a tag line inside a tag section, a
        // line of movetext): not confirmed, and read again with the next batch.
        let input = b"[Event \"a\"]\n[Site \"b\"]\n\n1. e4\ne5 *\n".to_vec();
        let want = serial(&input);
        assert_eq!(want.len(), 1);
        for at in line_starts(&input) {
            let mut batch = Batcher::with_cuts(input.clone(), vec![at])
                .next_batch()
                .expect("slice")
                .expect("a batch");
            batch.run(&mut (), false, |_, _| None::<()>, |_, _, _| ());
            assert!(!batch.confirmed(), "a cut at {at}");
            assert_eq!(cut(&input, vec![at], 2), want);
        }
    }

    /// The places of `input` that the reader would cut at.
    fn resync_points(input: &[u8]) -> Vec<usize> {
        let mut points = Vec::new();
        let mut from = 0;
        while let Ok(at) = lexer::resync::next_cut(input, from, true) {
            points.push(at);
            from = at + 1;
        }
        points
    }

    #[test]
    fn tiny_batches_on_the_corpus_give_the_games_of_one_thread() {
        let files = pgnkit_corpus::pgn_files(&pgnkit_corpus::dir());
        assert!(!files.is_empty());
        let mut batches = 0;
        for path in &files {
            let input = std::fs::read(path).expect("a corpus file");
            if input.len() > 8 << 20 {
                continue;
            }
            let want = serial(&input);
            for threads in [2, 3] {
                let mut all = Vec::new();
                crate::run_ordered(&Places::<1>, &input[..], threads, gather(&mut all))
                    .expect("a slice reads");
                assert_eq!(all, want, "{} on {threads} threads", path.display());
            }
            // Cut at every point, the cuts a tiny batch size gives.
            let points = resync_points(&input);
            batches += points.len();
            assert_eq!(cut(&input, points, 2), want, "{}", path.display());
        }
        assert!(batches > 10_000, "{batches} batches");
    }

    /// Each diagnostic's offset, line and column, per game, as `check`
    /// prints them; batches of `BYTES`.
    struct Diags<const BYTES: usize>;

    impl<const BYTES: usize> crate::Job for Diags<BYTES> {
        type State = crate::Validate;
        type Output = Vec<(u64, u64, u64)>;
        const BATCH_BYTES: usize = BYTES;
        fn state(&self) -> crate::Validate {
            crate::Validate
        }
        fn run(
            &self,
            v: &mut crate::Validate,
            game: TokenizedGame<'_, '_>,
            _: &mut Vec<u8>,
        ) -> Self::Output {
            let (_, diagnostics) = crate::visit_tokenized(game, v, crate::ReadOptions::default());
            diagnostics
                .iter()
                .map(|d| (d.start, d.line, d.column))
                .collect()
        }
    }

    /// Games with an illegal move each, after a byte order mark: LF, CR LF
    /// and lone CR lines, Latin-1 and UTF-8 text before the move on its
    /// line, and runs of games without tags longer than `tagless` bytes.
    fn mixed_line_ends(tagless: usize) -> Vec<u8> {
        let mut input = b"\xef\xbb\xbf\r\n".to_vec();
        for n in 0..240 {
            let game = match n % 4 {
                0 => format!("[Event \"{n}\"]\n\n1. e4 {{caf\u{e9}}} Ke7 *\n\n"),
                1 => format!("[Event \"{n}\"]\r\n\r\n1. d4 {{x}}\r\nd5 Qxx7 1-0\r\n\r\n"),
                2 => format!("[Event \"{n}\"]\r\r1. c4 e5 Kc2 *\r\r"),
                _ => "1. Nf3 Nf6 Nxx4 *\n".repeat(tagless / 18 + 1),
            };
            input.extend_from_slice(game.as_bytes());
            if n % 4 == 0 {
                // Latin-1: a byte that is not UTF-8, counted as one column.
                let at = input.len() - 12;
                input[at] = 0xe9;
            }
        }
        input
    }

    #[test]
    fn diagnostics_in_late_batches_keep_their_lines() {
        let input = mixed_line_ends(3000);
        let run = |threads, reader: lexer::Reader<&[u8]>| {
            let mut all = Vec::new();
            crate::run_ordered_games(&Diags::<1>, reader, threads, |start, out, _| {
                all.push(((start.offset, start.line), out));
                Ok(())
            })
            .expect("a slice reads");
            all
        };
        let one = run(1, lexer::Reader::new(&input[..]));
        // The lines are those of the whole file: one past the line ends before.
        let diagnostics: Vec<_> = one.iter().flat_map(|g| g.1.iter()).collect();
        assert!(diagnostics.len() > 240, "{} diagnostics", diagnostics.len());
        for &&(start, line, _) in &diagnostics {
            let before = input.get(..start as usize).expect("in the input");
            assert_eq!(line, 1 + lexer::split::line_ends(before), "at {start}");
        }
        for threads in [2, 3] {
            // Tiny batches cut at points, and (with a size limit) single games
            // listed between them where no point comes near.
            assert_eq!(run(threads, lexer::Reader::new(&input[..])), one);
            let mut limited = lexer::Reader::with_chunk_size(&input[..], 512);
            limited.set_max_game_bytes(Some(4000));
            assert_eq!(
                run(threads, limited),
                one,
                "{threads} threads, listed games"
            );
        }
        // Cut at every line start: every batch's lines come from the ones before.
        let mut all = Vec::new();
        let batcher = Batcher::with_cuts(input.clone(), line_starts(&input));
        super::super::run_parallel(&Diags::<1>, batcher, 2, |start, out, _| {
            all.push(((start.offset, start.line), out));
            Ok(())
        })
        .expect("a slice reads");
        assert_eq!(all, one);
    }

    #[test]
    fn lines_are_placed_in_the_order_batches_were_cut() {
        // Batches of a game each (the third one with the game without tags
        // after it); the third one placed with the lines of the first two.
        let input = mixed_line_ends(0);
        let mut batcher = Batcher::new(lexer::Reader::new(&input[..]), 1);
        let mut batches: Vec<Batch> = (0..3)
            .map(|_| batcher.next_batch().expect("slice").expect("a batch"))
            .collect();
        let mut lines = 0;
        for batch in &mut batches {
            batch.place_lines(&mut lines);
        }
        let mut third = Vec::new();
        batches[2].for_each_game(|_, game| third.push(game.raw.line));
        let want: Vec<u64> = GameSplitter::new(&input)
            .skip(2)
            .take(2)
            .map(|g| g.line)
            .collect();
        assert_eq!(third, want);
        assert!(want[0] > 3, "line {}", want[0]);
    }

    #[test]
    fn an_empty_input_has_no_batch() {
        let mut batcher = Batcher::new(lexer::Reader::new(&b" \n\n"[..]), BATCH_BYTES);
        assert!(batcher.next_batch().expect("slice").is_none());
        assert_eq!(batcher.skipped(), 3);
    }
}
