//! Reading on several threads with the results in input order:
//! [`read_games_parallel`], [`visit_games_parallel`], and under both
//! [`run_ordered`], which runs any [`Job`] over every game of a stream.
//!
//! Every game is read by the lexer's single pass from the stream (constant
//! memory). With one thread each game is then processed at once. With
//! more, the calling thread does not split the stream: it reads it and cuts
//! it into batches at resynchronisation points (`parallel/batch.rs`, the
//! lexer's `Reader::next_block`: a few lines looked at per batch, none
//! counted); the threads (workers, and the calling thread while the next
//! results are not in: `parallel/feed.rs`) each take a batch in turn, count
//! its line ends to place it and the next ones on their lines
//! (`Batch::place_lines`), split and lex it in one single pass, process
//! its games and confirm with the splitter that the batch's last game ends
//! where the next batch starts; the calling thread hands each batch's
//! results to the sink in input order while the workers go on with the next
//! batches, so the order never depends on timing, and reads a batch whose
//! end was not confirmed again with the next one (`InOrder`), so the games
//! are always the splitter's. At most a few batches per worker are in
//! flight, so memory stays bounded whatever the input's size.

mod batch;
mod feed;

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::io::{self, Read};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread;

use pgnkit_lexer::{self as lexer, TokenizedGame};

use crate::builder::TreeBuilder;
use crate::diagnostic::Diagnostics;
use crate::game::Game;
use crate::game_start::GameStart;
use crate::reader::{ReadGame, ReadOptions, visit_tokenized};
use crate::visitor::Visitor;
use batch::{Batch, Batcher};
use feed::Feed;

/// Work done on each game, independently of the others: what
/// [`run_ordered`] runs on its threads.
pub trait Job: Sync {
    /// Per-thread scratch (a visitor, buffers), made once per thread.
    type State: Send;
    /// What one game yields.
    type Output: Send;
    /// New scratch state.
    fn state(&self) -> Self::State;
    /// Processes one game (its bytes and tokens from the lexer's single
    /// pass; [`visit_tokenized`] reads it). Text to write for the game may
    /// be appended to `text` (empty, or holding earlier games' text, which
    /// must stay): the sink gets it with the output. Texts gathered this way
    /// cost no allocation per game.
    fn run(
        &self,
        state: &mut Self::State,
        game: TokenizedGame<'_, '_>,
        text: &mut Vec<u8>,
    ) -> Self::Output;

    /// Whether the job gathers work across the games of a batch and
    /// finishes it in [`end_batch`](Job::end_batch) (columnar builders): then
    /// one thread reads the input in batches too, as the workers do, so
    /// that `end_batch` is called with every thread count.
    const BATCHED: bool = false;

    /// Bytes of games (at least) in a batch: 64 KiB unless the job says
    /// otherwise (a [`BATCHED`](Job::BATCHED) job sets how much it gathers).
    const BATCH_BYTES: usize = batch::BATCH_BYTES;

    /// Whether [`before_lexing`](Job::before_lexing) is to be called: then
    /// the workers split each batch into games before they lex them (so that
    /// the games it decides are not lexed); otherwise they split and lex in
    /// one single pass, and `before_lexing` is not called. `false` unless the
    /// job says otherwise.
    const BEFORE_LEXING: bool = false;

    /// Called on the thread that ran a batch's games, after the last of
    /// them, with their outputs in order (never empty), before any goes to
    /// the sink: a job that gathered work in its state over the batch's
    /// games (the batch's games are consecutive in the input, but the next
    /// batch this state sees may not follow it) hands it over here, in the
    /// outputs. Does nothing unless the job says otherwise.
    fn end_batch(&self, _state: &mut Self::State, _outputs: &mut [Self::Output]) {}

    /// Looks at a game's bytes before they are lexed, on the worker
    /// threads: `Some` is the game's output, and the game is then neither
    /// lexed nor given to [`run`](Job::run) (its text is empty). For a job
    /// that decides most games from a look at their bytes (a filter on the
    /// tag section), this saves lexing those games' movetext. `None` (the
    /// default) lets the game be lexed and run. Called only by the
    /// parallel run (`threads` above 1), and only when the job sets
    /// [`BEFORE_LEXING`](Job::BEFORE_LEXING): on one thread every game is
    /// run, so a job must give the same output either way.
    fn before_lexing(&self, state: &mut Self::State, game: GameStart<'_>) -> Option<Self::Output> {
        let _ = (state, game);
        None
    }
}

/// What a run saw besides the games' outputs.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Totals {
    /// Games read.
    pub games: u64,
    /// Bytes outside any game (junk between games), as the splitter counts
    /// them.
    pub skipped: u64,
}

/// Batches in flight (being processed or waiting for the sink) per thread
/// (the calling thread counts as one since session 11: it runs batches too).
/// More keep the workers fed while the calling thread waits for a core, but
/// each costs memory: on the bench file, `check --threads 2` on an idle
/// machine (session 9, release, medians of 9 rounds) ran 1.47x one thread's
/// wall with 2 in flight, 1.53x with 3, 1.55x with 4 and 1.58x with 8, at a
/// peak RSS of 9.5-9.7, 9.9-10.2, 10.5-10.8 and 11.3-11.6 MiB. The streaming
/// budget is 10 MB (docs/performance.md), so 2.
const IN_FLIGHT_PER_WORKER: usize = 2;

/// The most threads a reading takes ([`check_threads`]): more than any
/// machine's cores, few enough that a mistaken count (`10**6`) is refused with
/// a message instead of starting threads until the system refuses.
pub const MAX_THREADS: usize = 1024;

/// Checks a thread count a user asked for (the command's `--threads`,
/// Python's `threads=`): from 1 to [`MAX_THREADS`]. The error is the message
/// to show.
///
/// ```
/// use pgnkit_game::{MAX_THREADS, check_threads};
///
/// assert_eq!(check_threads(4), Ok(4));
/// assert_eq!(check_threads(MAX_THREADS), Ok(1024));
/// assert_eq!(
///     check_threads(1_000_000).unwrap_err(),
///     "the number of threads must be from 1 to 1024, not 1000000"
/// );
/// assert!(check_threads(0).is_err());
/// ```
pub fn check_threads(threads: usize) -> Result<usize, String> {
    if (1..=MAX_THREADS).contains(&threads) {
        Ok(threads)
    } else {
        Err(format!(
            "the number of threads must be from 1 to {MAX_THREADS}, not {threads}"
        ))
    }
}

/// Runs `job` over every game of `reader` on `threads` threads (with 1, on
/// the calling thread alone; with more, the calling thread reads, hands out
/// batches and runs them too, beside `threads - 1` workers; with
/// [`ALL_CORES`] (0), on [`all_cores`] threads),
/// calling `sink` with each game, its output and its text in input order
/// (on the calling thread).
///
/// The first error of the stream, of the sink, or of starting a thread
/// ends the run and is returned; the workers then stop.
///
/// ```
/// use pgnkit_game::{Job, ReadOptions, Validate, run_ordered, visit_tokenized};
/// use pgnkit_lexer::TokenizedGame;
///
/// /// The number of errors of each game.
/// struct CountErrors;
///
/// impl Job for CountErrors {
///    type State = Validate;
///    type Output = usize;
///    fn state(&self) -> Validate {
///        Validate
///    }
///    fn run(&self, v: &mut Validate, game: TokenizedGame<'_, '_>, _: &mut Vec<u8>) -> usize {
///        visit_tokenized(game, v, ReadOptions::default()).1.errors().count()
///    }
/// }
///
/// let pgn = b"1. e4 *\n\n1. e5 *\n".repeat(1000);
/// let mut errors = Vec::new();
/// run_ordered(&CountErrors, &pgn[..], 2, |_, n, _| {
///    errors.push(n);
///    Ok(())
/// })?;
/// assert_eq!(errors.len(), 2000);
/// assert!(errors.chunks(2).all(|pair| pair == [0, 1]));
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn run_ordered<J, R, S>(job: &J, reader: R, threads: usize, sink: S) -> io::Result<Totals>
where
    J: Job,
    R: Read + Send,
    S: FnMut(GameStart<'_>, J::Output, &[u8]) -> io::Result<()>,
{
    run_ordered_games(job, lexer::Reader::new(reader), threads, sink)
}

/// [`run_ordered`] over a lexer [`Reader`](lexer::Reader) set up by the
/// caller (for example with
/// [`set_max_game_bytes`](lexer::Reader::set_max_game_bytes), so that a
/// game over the limit comes as a game with no bytes and one error, or with
/// [`set_options`](lexer::Reader::set_options) to the job's
/// [`ReadOptions::lex_options`](crate::ReadOptions::lex_options): the
/// batches are split with the reader's options).
pub fn run_ordered_games<J, R, S>(
    job: &J,
    mut games: lexer::Reader<R>,
    threads: usize,
    mut sink: S,
) -> io::Result<Totals>
where
    J: Job,
    R: Read + Send,
    S: FnMut(GameStart<'_>, J::Output, &[u8]) -> io::Result<()>,
{
    let threads = if threads == ALL_CORES {
        all_cores()
    } else {
        threads
    };
    if threads > 1 {
        return run_parallel(job, Batcher::new(games, J::BATCH_BYTES), threads, sink);
    }
    if J::BATCHED {
        return run_batched(job, Batcher::new(games, J::BATCH_BYTES), sink);
    }
    let mut state = job.state();
    let mut text = Vec::new();
    let mut count = 0;
    while let Some(game) = games.next_tokenized()? {
        let start = GameStart::from(game.raw);
        text.clear();
        let output = job.run(&mut state, game, &mut text);
        count += 1;
        sink(start, output, &text)?;
    }
    Ok(Totals {
        games: count,
        skipped: games.skipped(),
    })
}

/// [`run_ordered`] on the calling thread alone for a [`BATCHED`](Job::BATCHED)
/// job: the games in batches, as the workers would have them.
fn run_batched<J, R, S>(job: &J, mut batcher: Batcher<R>, mut sink: S) -> io::Result<Totals>
where
    J: Job,
    R: Read,
    S: FnMut(GameStart<'_>, J::Output, &[u8]) -> io::Result<()>,
{
    let mut state = job.state();
    let mut order = InOrder::new(job);
    let mut lines = 0;
    loop {
        let mut batch = match batcher.next_batch() {
            Ok(Some(batch)) => batch,
            Ok(None) => break,
            Err(e) => {
                // The games read before the error first.
                order.finish(&mut batcher, &mut sink)?;
                return Err(e);
            }
        };
        batch.place_lines(&mut lines);
        // One thread runs every game (see `Job::before_lexing`).
        let mut outputs = batch.run(
            &mut state,
            false,
            |_, _| None,
            |state, game, text| job.run(state, game, text),
        );
        job.end_batch(&mut state, &mut outputs);
        order.take(batch, outputs, &mut batcher, &mut sink)?;
    }
    order.finish(&mut batcher, &mut sink)?;
    Ok(Totals {
        games: order.games,
        skipped: batcher.skipped(),
    })
}

/// Sends every game of `reader` through a visitor made by `visitor` (one
/// per thread), on `threads` threads ([`ALL_CORES`] for one per core), and
/// gives each game to `each` in input order; [`run_ordered`] says how.
pub fn visit_games_parallel<R, V, F, E>(
    reader: R,
    threads: usize,
    options: ReadOptions,
    visitor: F,
    mut each: E,
) -> io::Result<Totals>
where
    R: Read + Send,
    V: Visitor + Send,
    V::Output: Send,
    F: Fn() -> V + Sync,
    E: FnMut(ReadGame<'_, V::Output>) -> io::Result<()>,
{
    let job = VisitJob { visitor, options };
    let mut games = lexer::Reader::new(reader);
    games.set_options(options.lex_options());
    run_ordered_games(&job, games, threads, |start, (value, diagnostics), _| {
        each(ReadGame {
            value,
            diagnostics,
            raw: Cow::Borrowed(start.bytes),
            offset: start.offset,
            line: start.line,
            column: start.column,
        })
    })
}

/// `threads` for "one thread per core", as rayon's `num_threads(0)`:
/// [`read_games_parallel`], [`visit_games_parallel`] and [`run_ordered`]
/// then run on [`all_cores`] threads.
pub const ALL_CORES: usize = 0;

/// The number of threads [`ALL_CORES`] stands for: one per core the
/// program may use (`std::thread::available_parallelism`), 1 when that is
/// unknown.
pub fn all_cores() -> usize {
    thread::available_parallelism().map_or(1, usize::from)
}

/// Reads every game of `reader` into a [`Game`] on `threads` threads and
/// gives each to `each` in input order:
/// [`read_games`](crate::read_games) for streams, on several cores.
/// `threads` is [`ALL_CORES`] (0) for one thread per core, 1 for the
/// calling thread alone.
///
/// ```
/// use pgnkit_game::{ALL_CORES, ReadOptions, read_games_parallel};
///
/// let pgn = b"1. e4 e5 *\n\n1. d4 d5 2. Ke3 *\n".repeat(50);
/// let mut broken = 0;
/// let totals = read_games_parallel(&pgn[..], 2, ReadOptions::default(), |read| {
///     broken += usize::from(read.is_broken());
///     Ok(())
/// })?;
/// assert_eq!((totals.games, broken), (100, 50));
/// // One thread per core, the games still in input order.
/// let mut lines = Vec::new();
/// read_games_parallel(&pgn[..], ALL_CORES, ReadOptions::default(), |read| {
///     lines.push(read.line);
///     Ok(())
/// })?;
/// let one_thread: Vec<u64> = pgnkit_game::read_games(&pgn).map(|read| read.line).collect();
/// assert_eq!(lines, one_thread);
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn read_games_parallel<R, E>(
    reader: R,
    threads: usize,
    options: ReadOptions,
    each: E,
) -> io::Result<Totals>
where
    R: Read + Send,
    E: FnMut(ReadGame<'_, Game>) -> io::Result<()>,
{
    visit_games_parallel(reader, threads, options, TreeBuilder::new, each)
}

/// A visitor run as a [`Job`].
struct VisitJob<F> {
    visitor: F,
    options: ReadOptions,
}

impl<V, F> Job for VisitJob<F>
where
    V: Visitor + Send,
    V::Output: Send,
    F: Fn() -> V + Sync,
{
    type State = V;
    type Output = (V::Output, Diagnostics);

    fn state(&self) -> V {
        (self.visitor)()
    }

    fn run(&self, visitor: &mut V, game: TokenizedGame<'_, '_>, _: &mut Vec<u8>) -> Self::Output {
        visit_tokenized(game, visitor, self.options)
    }
}

/// A batch (by its number) and the outputs of its games, in order; `None`
/// when a worker panicked.
type Done<O> = Option<(usize, Batch, Vec<O>)>;

/// [`run_ordered`] with `threads` workers.
fn run_parallel<J, R, S>(
    job: &J,
    mut batcher: Batcher<R>,
    threads: usize,
    sink: S,
) -> io::Result<Totals>
where
    J: Job,
    R: Read + Send,
    S: FnMut(GameStart<'_>, J::Output, &[u8]) -> io::Result<()>,
{
    let feed = Feed::default();
    let (done_tx, done_rx) = mpsc::channel::<Done<J::Output>>();
    // Set when the run fails (`| head`): the workers stop early.
    let stop = AtomicBool::new(false);
    thread::scope(|scope| {
        let flow = Flow {
            feed: &feed,
            done_rx,
            in_flight: threads * IN_FLIGHT_PER_WORKER,
        };
        // The calling thread is one of the `threads`: it runs batches too.
        for i in 1..threads {
            let done_tx = done_tx.clone();
            let (feed, stop) = (&feed, &stop);
            let spawned = thread::Builder::new()
                .name(format!("pgnkit-reader-{i}"))
                .spawn_scoped(scope, move || work(job, feed, &done_tx, stop));
            if let Err(e) = spawned {
                // Dropping the flow closes the feed: the workers started so far end.
                stop.store(true, Ordering::Relaxed);
                drop(flow);
                return Err(e);
            }
        }
        drop(done_tx);
        let result = flow.feed_and_sink(job, &mut batcher, sink);
        if result.is_err() {
            stop.store(true, Ordering::Relaxed);
        }
        result.map(|games| Totals {
            games,
            skipped: batcher.skipped(),
        })
    })
}

/// Tells the calling thread when a worker panicked (it would otherwise wait
/// for that worker's batch for ever).
struct PanicGuard<'a, O>(&'a Sender<Done<O>>);

impl<O> Drop for PanicGuard<'_, O> {
    fn drop(&mut self) {
        if thread::panicking() {
            let _ = self.0.send(None);
        }
    }
}

/// A worker: processes batches until there are none or the run stops.
fn work<J: Job>(job: &J, feed: &Feed, done_tx: &Sender<Done<J::Output>>, stop: &AtomicBool) {
    let _guard = PanicGuard(done_tx);
    let mut state = job.state();
    loop {
        let Some((seq, mut batch)) = feed.take(true) else {
            return;
        };
        if stop.load(Ordering::Relaxed) {
            return;
        }
        let mut outputs = batch.run(
            &mut state,
            J::BEFORE_LEXING,
            |state, game| job.before_lexing(state, game),
            |state, game, text| job.run(state, game, text),
        );
        job.end_batch(&mut state, &mut outputs);
        if done_tx.send(Some((seq, batch, outputs))).is_err() {
            return;
        }
    }
}

/// The calling thread's side of the parallel run: batches out to the
/// workers, results back to the sink in order; while the next results are
/// not in, the calling thread runs waiting batches itself (it is one of the
/// run's threads: on 2 cores, 2 threads in all, so the reading and the sink
/// do not take a core from a worker every batch).
struct Flow<'a, O> {
    feed: &'a Feed,
    done_rx: Receiver<Done<O>>,
    /// Batches handed out at most whose results the sink has not had.
    in_flight: usize,
}

impl<O> Drop for Flow<'_, O> {
    /// Closes the feed, so that the workers end (after the batches in it).
    fn drop(&mut self) {
        self.feed.close();
    }
}

impl<O> Flow<'_, O> {
    /// Feeds every batch of `batcher` to the threads and `sink`s their
    /// results in input order; returns the number of games. Dropping the
    /// flow at the end lets idle workers finish.
    fn feed_and_sink<J: Job<Output = O>, R: Read>(
        self,
        job: &J,
        batcher: &mut Batcher<R>,
        mut sink: impl FnMut(GameStart<'_>, O, &[u8]) -> io::Result<()>,
    ) -> io::Result<u64> {
        let panicked = || io::Error::other("a worker thread panicked");
        let (mut sent, mut next) = (0, 0);
        let mut order = InOrder::new(job);
        let mut early = BTreeMap::new();
        let mut ended = false;
        // A read error stops the reading; the games read before it are
        // still handed to the sink, then the error is returned.
        let mut failed = None;
        loop {
            while !ended && sent - next < self.in_flight {
                match batcher.next_batch() {
                    Ok(Some(batch)) => {
                        self.feed.send(sent, batch);
                        sent += 1;
                    }
                    Ok(None) => ended = true,
                    Err(e) => {
                        ended = true;
                        failed = Some(e);
                    }
                }
            }
            if next == sent {
                order.finish(batcher, &mut sink)?;
                return match failed {
                    Some(e) => Err(e),
                    None => Ok(order.games),
                };
            }
            // What the workers finished, without waiting.
            while let Ok(done) = self.done_rx.try_recv() {
                let (seq, batch, outputs) = done.ok_or_else(panicked)?;
                early.insert(seq, (batch, outputs));
            }
            if let Some((batch, outputs)) = early.remove(&next) {
                order.take(batch, outputs, batcher, &mut sink)?;
                next += 1;
                continue;
            }
            // The next results are not in: run a waiting batch here, or
            // wait for a worker's.
            let (seq, batch, outputs) = match self.feed.take(false) {
                Some((seq, mut batch)) => {
                    let outputs = order.run(&mut batch);
                    (seq, batch, outputs)
                }
                None => self.done_rx.recv().ok().flatten().ok_or_else(panicked)?,
            };
            early.insert(seq, (batch, outputs));
        }
    }
}

/// Hands the batches' games to the sink in input order, batch by batch as
/// they come in order: a batch whose end the splitter did not confirm (see
/// `parallel/batch.rs`) is kept, its outputs dropped, and read again on the
/// calling thread together with the next batch, until an end is confirmed.
struct InOrder<'a, J: Job> {
    job: &'a J,
    /// The calling thread's state, for the batches run or read again here.
    state: Option<J::State>,
    /// A batch whose end was not confirmed, waiting for the next one.
    pending: Option<Batch>,
    /// Games handed to the sink.
    games: u64,
}

impl<'a, J: Job> InOrder<'a, J> {
    fn new(job: &'a J) -> InOrder<'a, J> {
        InOrder {
            job,
            state: None,
            pending: None,
            games: 0,
        }
    }

    /// Takes the next batch in input order, run, with its outputs.
    fn take<R: Read>(
        &mut self,
        batch: Batch,
        outputs: Vec<J::Output>,
        batcher: &mut Batcher<R>,
        sink: &mut impl FnMut(GameStart<'_>, J::Output, &[u8]) -> io::Result<()>,
    ) -> io::Result<()> {
        let (batch, outputs) = match self.pending.take() {
            None => (batch, outputs),
            Some(mut pending) if batch.has_skipped_game() => {
                // A game over the size limit has no bytes to merge: the pending
                // batch ends here (the best that can be done), the batch goes on.
                pending.end_here();
                let pending_outputs = self.run(&mut pending);
                self.emit(pending, pending_outputs, batcher, sink)?;
                (batch, outputs)
            }
            Some(mut pending) => {
                drop(outputs);
                pending.merge(&batch);
                batcher.recycle(batch);
                let outputs = self.run(&mut pending);
                (pending, outputs)
            }
        };
        if batch.confirmed() {
            self.emit(batch, outputs, batcher, sink)
        } else {
            self.pending = Some(batch);
            Ok(())
        }
    }

    /// Hands over a batch still pending at the end of the input.
    fn finish<R: Read>(
        &mut self,
        batcher: &mut Batcher<R>,
        sink: &mut impl FnMut(GameStart<'_>, J::Output, &[u8]) -> io::Result<()>,
    ) -> io::Result<()> {
        if let Some(mut pending) = self.pending.take() {
            pending.end_here();
            let outputs = self.run(&mut pending);
            self.emit(pending, outputs, batcher, sink)?;
        }
        Ok(())
    }

    /// Runs `batch` on the calling thread (a batch waiting in the feed, or
    /// one read again).
    fn run(&mut self, batch: &mut Batch) -> Vec<J::Output> {
        let job = self.job;
        let state = self.state.get_or_insert_with(|| job.state());
        let mut outputs = batch.run(
            state,
            J::BEFORE_LEXING,
            |state, game| job.before_lexing(state, game),
            |state, game, text| job.run(state, game, text),
        );
        job.end_batch(state, &mut outputs);
        outputs
    }

    /// Gives the batch's games to the sink.
    fn emit<R: Read>(
        &mut self,
        batch: Batch,
        outputs: Vec<J::Output>,
        batcher: &mut Batcher<R>,
        sink: &mut impl FnMut(GameStart<'_>, J::Output, &[u8]) -> io::Result<()>,
    ) -> io::Result<()> {
        for (i, output) in outputs.into_iter().enumerate() {
            self.games += 1;
            sink(batch.game(i), output, batch.text(i))?;
        }
        batcher.recycle(batch);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Validate;

    /// Every game's first byte offset and whether it has an error.
    struct Offsets;

    impl Job for Offsets {
        type State = Validate;
        type Output = (u64, bool);
        fn state(&self) -> Validate {
            Validate
        }
        fn run(
            &self,
            v: &mut Validate,
            game: TokenizedGame<'_, '_>,
            text: &mut Vec<u8>,
        ) -> (u64, bool) {
            text.extend_from_slice(game.raw.bytes);
            let offset = game.raw.offset;
            (
                offset,
                visit_tokenized(game, v, ReadOptions::default())
                    .1
                    .has_errors(),
            )
        }
    }

    fn input() -> Vec<u8> {
        let mut input = Vec::new();
        for n in 0..3000 {
            let game = match n % 3 {
                0 => format!("[Event \"{n}\"]\n\n1. e4 {{ a comment }} e5 1-0\n\n"),
                1 => format!("[Event \"{n}\"]\n1. d4 Ke7 *\n\n"),
                _ => format!("1. Nf3 d5 {n}. Qxx7 *\n\n"),
            };
            input.extend_from_slice(game.as_bytes());
        }
        input
    }

    #[test]
    fn every_thread_count_gives_the_same_results_in_order() {
        let input = input();
        let run = |threads| {
            let mut seen = Vec::new();
            let totals = run_ordered(&Offsets, &input[..], threads, |start, out, text| {
                assert_eq!(text, start.bytes);
                seen.push((start.offset, out));
                Ok(())
            })
            .expect("a slice reads");
            (seen, totals)
        };
        let (one, totals) = run(1);
        assert_eq!(totals.games, 3000);
        assert_eq!(one.len(), 3000);
        assert!(one.iter().all(|(offset, (o, _))| offset == o));
        assert!(one.windows(2).all(|w| w[0].0 < w[1].0));
        assert_eq!(one.iter().filter(|(_, (_, broken))| *broken).count(), 2000);
        for threads in [0, 2, 3, 8] {
            assert_eq!(run(threads), (one.clone(), totals), "{threads} threads");
        }
    }

    /// Each game's offset; the last game of each batch also carries the
    /// offsets the state gathered over the batch.
    struct Gather;

    impl Job for Gather {
        type State = Vec<u64>;
        type Output = (u64, Vec<u64>);
        const BATCHED: bool = true;
        const BATCH_BYTES: usize = 1000;
        fn state(&self) -> Vec<u64> {
            Vec::new()
        }
        fn run(
            &self,
            seen: &mut Vec<u64>,
            game: TokenizedGame<'_, '_>,
            _: &mut Vec<u8>,
        ) -> Self::Output {
            seen.push(game.raw.offset);
            (game.raw.offset, Vec::new())
        }
        fn end_batch(&self, seen: &mut Vec<u64>, outputs: &mut [Self::Output]) {
            assert_eq!(seen.len(), outputs.len());
            if let Some(last) = outputs.last_mut() {
                last.1 = std::mem::take(seen);
            }
        }
    }

    /// [`Offsets`], with the games whose offset is a multiple of 3 or 5
    /// decided before lexing (runs of games left out, single ones, and
    /// games lexed between them, so the splitter starts again often).
    struct Early;

    impl Job for Early {
        type State = Validate;
        type Output = (u64, bool);
        fn state(&self) -> Validate {
            Validate
        }
        fn run(
            &self,
            v: &mut Validate,
            game: TokenizedGame<'_, '_>,
            text: &mut Vec<u8>,
        ) -> (u64, bool) {
            Offsets.run(v, game, text)
        }
        const BEFORE_LEXING: bool = true;
        fn before_lexing(&self, _: &mut Validate, game: GameStart<'_>) -> Option<(u64, bool)> {
            let n = game.bytes.iter().filter(|&&b| b == b'e').count() as u64 + game.offset;
            (n.is_multiple_of(3) || n.is_multiple_of(5)).then_some((u64::MAX, true))
        }
    }

    #[test]
    fn end_batch_hands_over_each_batch_in_order_with_every_thread_count() {
        let input = input();
        for threads in [1, 2, 3] {
            let (mut offsets, mut gathered, mut pieces) = (Vec::new(), Vec::new(), 0);
            run_ordered(&Gather, &input[..], threads, |start, (offset, piece), _| {
                assert_eq!(start.offset, offset);
                offsets.push(offset);
                if !piece.is_empty() {
                    pieces += 1;
                    assert_eq!(
                        piece.last(),
                        Some(&offset),
                        "the batch ends with its last game"
                    );
                    gathered.extend(piece);
                }
                Ok(())
            })
            .expect("a slice reads");
            assert_eq!(offsets.len(), 3000);
            assert_eq!(gathered, offsets, "{threads} threads");
            assert!(pieces > 50, "batches of about 1000 bytes: {pieces}");
        }
    }

    #[test]
    fn games_decided_before_lexing_keep_their_place() {
        let input = input();
        let run = |threads| {
            let mut seen = Vec::new();
            run_ordered(&Early, &input[..], threads, |start, out, text| {
                seen.push((start.offset, out, text.len()));
                Ok(())
            })
            .expect("a slice reads");
            seen
        };
        let all = run(1);
        let mut early = 0;
        for threads in [2, 3] {
            let seen = run(threads);
            assert_eq!(seen.len(), all.len());
            for (got, want) in seen.iter().zip(&all) {
                assert_eq!(got.0, want.0);
                if got.1.0 == u64::MAX {
                    early += 1;
                    assert_eq!(got.2, 0, "a game decided early has no text");
                } else {
                    assert_eq!(got, want);
                }
            }
        }
        assert!(early > 1000 && early < 4000, "{early} decided early");
    }

    #[test]
    fn a_sink_error_ends_the_run() {
        let input = input();
        let mut calls = 0;
        let result = run_ordered(&Offsets, &input[..], 3, |_, _, _| {
            calls += 1;
            if calls == 10 {
                return Err(io::Error::new(io::ErrorKind::BrokenPipe, "gone"));
            }
            Ok(())
        });
        assert_eq!(result.map_err(|e| e.kind()), Err(io::ErrorKind::BrokenPipe));
        assert_eq!(calls, 10);
    }

    #[test]
    fn read_games_parallel_matches_read_games() {
        let input = input();
        let serial: Vec<_> = crate::read_games(&input)
            .map(|r| (r.offset, r.value.to_json(), r.diagnostics))
            .collect();
        let mut parallel = Vec::new();
        read_games_parallel(&input[..], 4, ReadOptions::default(), |r| {
            parallel.push((r.offset, r.value.to_json(), r.diagnostics));
            Ok(())
        })
        .expect("a slice reads");
        assert_eq!(parallel, serial);
    }

    #[test]
    fn thread_counts_from_one_to_the_limit() {
        assert_eq!(check_threads(1), Ok(1));
        assert_eq!(check_threads(MAX_THREADS), Ok(MAX_THREADS));
        for bad in [0, MAX_THREADS + 1, usize::MAX] {
            let message = check_threads(bad).unwrap_err();
            assert!(message.contains("from 1 to 1024"), "{message}");
            assert!(message.ends_with(&format!("not {bad}")), "{message}");
        }
    }
}
