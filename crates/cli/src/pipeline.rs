//! Running a job over every game of an input, on one thread or several,
//! with results handed back in input order.
//!
//! Every game is read by the lexer's single pass from the streaming reader
//! (constant memory). With one thread each game is then processed at once.
//! With more, the main thread lexes and gathers games into batches
//! (`batch.rs`), worker threads each take a batch and process its games,
//! and the main thread hands each batch's results to the sink in input
//! order while the workers go on with the next batches, so output order
//! never depends on timing. At most a few batches per worker are in
//! flight, so memory stays bounded whatever the input's size.

use std::collections::BTreeMap;
use std::io::{self, BufRead};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Mutex, PoisonError};
use std::thread;

use pgnkit::game::{Diagnostics, GameStart, ReadOptions, Visitor, visit_tokenized};
use pgnkit::lexer;

use crate::batch::{Batch, Batcher};
use crate::failure::Failure;
use crate::output::OutputError;

/// Work done on each game, independently of the others.
pub trait Job: Sync {
    /// Per-thread scratch (a visitor, buffers), made once per thread.
    type State: Send;
    /// What one game yields.
    type Output: Send;
    /// New scratch state.
    fn state(&self) -> Self::State;
    /// Processes one game. Text to write for the game may be appended to
    /// `text` (empty, or holding earlier games' text, which must stay):
    /// the sink gets it with the output. Texts gathered this way cost no
    /// allocation per game.
    fn run(&self, state: &mut Self::State, game: Game<'_, '_>, text: &mut Vec<u8>) -> Self::Output;
}

/// A game handed to a [`Job`]: its bytes and tokens from the lexer's single
/// pass, at their place in the input.
pub struct Game<'a, 't>(lexer::TokenizedGame<'a, 't>);

impl Game<'_, '_> {
    /// Sends the game through `visitor`: its output and diagnostics.
    pub fn visit<V: Visitor>(
        self,
        visitor: &mut V,
        options: ReadOptions,
    ) -> (V::Output, Diagnostics) {
        visit_tokenized(self.0, visitor, options)
    }
}

/// Batches in flight (being processed or waiting for the sink) per worker.
const IN_FLIGHT_PER_WORKER: usize = 2;

/// What the run saw besides the games.
#[derive(Debug, Default, Clone, Copy)]
pub struct Totals {
    /// Bytes outside any game (junk between games), reported by the splitter.
    pub skipped: u64,
}

/// Runs `job` over every game in `reader`, calling `sink` with each game,
/// its output and its text in input order. Games over `max_game_bytes` come
/// as games with no bytes and one error (see [`lexer::Reader`]).
pub fn run<J, R, S>(
    job: &J,
    reader: R,
    threads: usize,
    max_game_bytes: u64,
    mut sink: S,
) -> io::Result<Totals>
where
    J: Job,
    R: BufRead + Send,
    S: FnMut(GameStart<'_>, J::Output, &[u8]) -> io::Result<()>,
{
    let mut games = lexer::Reader::new(reader);
    games.set_max_game_bytes(Some(max_game_bytes));
    if threads > 1 {
        return run_parallel(job, games, threads, sink);
    }
    let mut state = job.state();
    let mut text = Vec::new();
    while let Some(game) = games.next_tokenized()? {
        let start = GameStart::from(game.raw);
        text.clear();
        let output = job.run(&mut state, Game(game), &mut text);
        sink(start, output, &text)?;
    }
    Ok(Totals {
        skipped: games.skipped(),
    })
}

/// A batch (by its number) and the outputs of its games, in order.
type Done<O> = (usize, Batch, Vec<O>);

/// [`run`] with `threads` workers.
fn run_parallel<J, R, S>(
    job: &J,
    games: lexer::Reader<R>,
    threads: usize,
    sink: S,
) -> io::Result<Totals>
where
    J: Job,
    R: BufRead + Send,
    S: FnMut(GameStart<'_>, J::Output, &[u8]) -> io::Result<()>,
{
    let (work_tx, work_rx) = mpsc::channel::<(usize, Batch)>();
    let work_rx = Mutex::new(work_rx);
    let (done_tx, done_rx) = mpsc::channel::<Done<J::Output>>();
    // Set when the sink fails (`| head`): the workers stop early.
    let stop = AtomicBool::new(false);
    thread::scope(|scope| {
        let mut started = 0;
        for n in 0..threads {
            let done_tx = done_tx.clone();
            let (work_rx, stop) = (&work_rx, &stop);
            let spawned = thread::Builder::new()
                .name(format!("pgnkit worker {n}"))
                .spawn_scoped(scope, move || work(job, work_rx, &done_tx, stop));
            match spawned {
                Ok(_) => started += 1,
                // The threads started do the work (the machine's limit was reached).
                Err(e) if started > 0 => {
                    let _ = e;
                    break;
                }
                Err(e) => {
                    return Err(io::Error::other(format!(
                        "cannot start a worker thread: {e}"
                    )));
                }
            }
        }
        drop(done_tx);
        let mut batcher = Batcher::new(games);
        let flow = Flow {
            work_tx,
            done_rx,
            in_flight: started * IN_FLIGHT_PER_WORKER,
        };
        let result = flow.feed_and_sink(&mut batcher, sink);
        if result.is_err() {
            stop.store(true, Ordering::Relaxed);
        }
        result.map(|()| Totals {
            skipped: batcher.skipped(),
        })
    })
}

/// A worker: processes batches until there are none or the run stops.
fn work<J: Job>(
    job: &J,
    work_rx: &Mutex<Receiver<(usize, Batch)>>,
    done_tx: &Sender<Done<J::Output>>,
    stop: &AtomicBool,
) {
    let mut state = job.state();
    loop {
        let next = work_rx
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .recv();
        let Ok((seq, mut batch)) = next else {
            return;
        };
        if stop.load(Ordering::Relaxed) {
            return;
        }
        let outputs = batch.run(|game, text| job.run(&mut state, Game(game), text));
        if done_tx.send((seq, batch, outputs)).is_err() {
            return;
        }
    }
}

/// The main thread's side of the parallel run: batches out to the workers,
/// results back to the sink in order.
struct Flow<O> {
    work_tx: Sender<(usize, Batch)>,
    done_rx: Receiver<Done<O>>,
    /// Batches handed out at most whose results the sink has not had.
    in_flight: usize,
}

impl<O> Flow<O> {
    /// Feeds every batch of `batcher` to the workers and `sink`s their
    /// results in input order. Dropping the sender at the end lets idle
    /// workers finish.
    fn feed_and_sink<R: BufRead>(
        self,
        batcher: &mut Batcher<R>,
        mut sink: impl FnMut(GameStart<'_>, O, &[u8]) -> io::Result<()>,
    ) -> io::Result<()> {
        let (mut sent, mut next) = (0, 0);
        let mut early = BTreeMap::new();
        let mut ended = false;
        loop {
            while !ended && sent - next < self.in_flight {
                match batcher.next_batch()? {
                    Some(batch) => {
                        self.work_tx
                            .send((sent, batch))
                            .map_err(|_| io::Error::other("the worker threads stopped"))?;
                        sent += 1;
                    }
                    None => ended = true,
                }
            }
            if next == sent {
                return Ok(());
            }
            let (batch, outputs) = loop {
                if let Some(done) = early.remove(&next) {
                    break done;
                }
                let (seq, batch, outputs) = self
                    .done_rx
                    .recv()
                    .map_err(|_| io::Error::other("the worker threads stopped"))?;
                early.insert(seq, (batch, outputs));
            };
            for (i, output) in outputs.into_iter().enumerate() {
                sink(batch.game(i), output, batch.text(i))?;
            }
            batcher.recycle(batch);
            next += 1;
        }
    }
}

/// Runs `job` over one input stream (see [`over_inputs`]); `false` when the
/// run must stop (standard output or error closed).
fn over_source<J: Job>(
    inputs: &crate::args::Inputs,
    job: &J,
    source: crate::input::Input,
    sink: &mut impl FnMut(&str, GameStart<'_>, J::Output, &[u8]) -> io::Result<()>,
    ended: &mut Ended,
) -> Result<bool, Failure> {
    let name = source.name.clone();
    let threads = inputs.threads();
    let result = run(
        job,
        source.reader,
        threads,
        inputs.max_game_bytes,
        |game, output, text| sink(&name, game, output, text),
    );
    if let Some(bar) = &source.progress {
        bar.finish_and_clear();
    }
    let e = match result {
        Ok(totals) => {
            ended.skipped += totals.skipped;
            return Ok(true);
        }
        Err(e) => e,
    };
    if let Some(output) = OutputError::of(&e) {
        // The reader of standard output went away (`| head`): stop quietly.
        if e.kind() == io::ErrorKind::BrokenPipe && output.is_stdout() {
            ended.closed = true;
            return Ok(false);
        }
        return Err(Failure::usage(output.to_string()));
    }
    if crate::console::closed() {
        ended.closed = true;
        return Ok(false);
    }
    let failure = crate::input::read_failure(&name, &e);
    if crate::console::write(&format!("pgnkit: {failure}\n")).is_err() {
        ended.closed = true;
        return Ok(false);
    }
    ended.failed_inputs += 1;
    Ok(true)
}

/// How a run over all inputs ended.
#[derive(Debug, Default, Clone, Copy)]
pub struct Ended {
    /// Bytes outside any game, over all inputs.
    pub skipped: u64,
    /// Inputs that could not be read (reported as they came); the others were.
    pub failed_inputs: u64,
    /// Standard output or standard error was closed (`| head`): the run stopped early.
    pub closed: bool,
}

impl Ended {
    /// Whether every input was read to its end: only then are file outputs put in place.
    pub fn complete(&self) -> bool {
        self.failed_inputs == 0 && !self.closed
    }
}

/// Runs `job` over every input named in `inputs`, in order, calling `sink`
/// with the input's name, each game and its output.
///
/// An input that cannot be opened or read is reported on standard error and
/// the next one is read. A closed standard output or error ends the run
/// quietly. An error writing an output ends it with that error.
pub fn over_inputs<J: Job>(
    inputs: &crate::args::Inputs,
    job: &J,
    mut sink: impl FnMut(&str, GameStart<'_>, J::Output, &[u8]) -> io::Result<()>,
) -> Result<Ended, Failure> {
    let mut ended = Ended::default();
    let paths = crate::input::names(&inputs.files);
    if inputs.range.is_some() && paths.len() != 1 {
        return Err(Failure::usage("--range reads one file; give exactly one"));
    }
    for path in paths {
        let sources = match crate::input::open(&path, inputs) {
            Ok(sources) => sources,
            Err(failure) => {
                if crate::console::write(&format!("pgnkit: {failure}\n")).is_err() {
                    ended.closed = true;
                    return Ok(ended);
                }
                ended.failed_inputs += 1;
                continue;
            }
        };
        for source in sources {
            if !over_source(inputs, job, source, &mut sink, &mut ended)? {
                return Ok(ended);
            }
        }
    }
    Ok(ended)
}
