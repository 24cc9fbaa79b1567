//! Running a job over every game of an input, on one thread or several,
//! with results handed back in input order.
//!
//! The input is split into games by the lexer's streaming reader (constant
//! memory). With one thread each game is processed as soon as it is split.
//! With more, games are gathered into batches; a batch is processed in
//! parallel (rayon) while the next one is being split, and its results are
//! handed to the sink in order, so output order never depends on timing.

use std::io::{self, BufRead};

use pgnkit::game::{Diagnostics, GameStart, ReadOptions, Visitor, visit_game, visit_tokenized};
use pgnkit::lexer;
use rayon::prelude::*;

/// Work done on each game, independently of the others.
pub trait Job: Sync {
    /// Per-thread scratch (a visitor, buffers), made once per thread.
    type State: Send;
    /// What one game yields.
    type Output: Send;
    /// New scratch state.
    fn state(&self) -> Self::State;
    /// Processes one game.
    fn run(&self, state: &mut Self::State, game: Game<'_, '_>) -> Self::Output;
}

/// A game handed to a [`Job`]: with its tokens when the lexer's single
/// pass read it (one thread), as bytes when it was copied into a batch.
pub enum Game<'a, 't> {
    /// Bytes only: the reader lexes them.
    Bytes(GameStart<'a>),
    /// Bytes and tokens from one pass over them.
    Tokenized(lexer::TokenizedGame<'a, 't>),
}

impl Game<'_, '_> {
    /// Sends the game through `visitor`: its output and diagnostics.
    pub fn visit<V: Visitor>(
        self,
        visitor: &mut V,
        options: ReadOptions,
    ) -> (V::Output, Diagnostics) {
        match self {
            Game::Bytes(start) => visit_game(start, visitor, options),
            Game::Tokenized(game) => visit_tokenized(game, visitor, options),
        }
    }
}

/// A game's bytes, owned, for a batch handed to other threads.
struct OwnedGame {
    bytes: Vec<u8>,
    offset: u64,
    line: u64,
    column: u64,
}

impl OwnedGame {
    fn start(&self) -> GameStart<'_> {
        GameStart {
            bytes: &self.bytes,
            offset: self.offset,
            line: self.line,
            column: self.column,
        }
    }
}

/// Batches close at this many games or bytes, whichever comes first.
const BATCH_GAMES: usize = 2048;
const BATCH_BYTES: usize = 8 << 20;

/// What the run saw besides the games.
#[derive(Debug, Default, Clone, Copy)]
pub struct Totals {
    /// Bytes outside any game (junk between games), reported by the splitter.
    pub skipped: u64,
}

/// Runs `job` over every game in `reader`, calling `sink` with each game and
/// its output in input order.
pub fn run<J, R, S>(job: &J, reader: R, threads: usize, mut sink: S) -> io::Result<Totals>
where
    J: Job,
    R: BufRead + Send,
    S: FnMut(GameStart<'_>, J::Output) -> io::Result<()>,
{
    let mut games = lexer::Reader::new(reader);
    if threads <= 1 {
        let mut state = job.state();
        while let Some(game) = games.next_tokenized()? {
            let start = GameStart::from(game.raw);
            let output = job.run(&mut state, Game::Tokenized(game));
            sink(start, output)?;
        }
        return Ok(Totals {
            skipped: games.skipped(),
        });
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(io::Error::other)?;
    let mut batch = read_batch(&mut games)?;
    while !batch.is_empty() {
        let (outputs, next) = pool.install(|| {
            rayon::join(
                || {
                    batch
                        .par_iter()
                        .map_init(
                            || job.state(),
                            |state, game| job.run(state, Game::Bytes(game.start())),
                        )
                        .collect::<Vec<_>>()
                },
                || read_batch(&mut games),
            )
        });
        for (game, output) in batch.iter().zip(outputs) {
            sink(game.start(), output)?;
        }
        batch = next?;
    }
    Ok(Totals {
        skipped: games.skipped(),
    })
}

fn read_batch<R: BufRead>(games: &mut lexer::Reader<R>) -> io::Result<Vec<OwnedGame>> {
    let mut batch = Vec::new();
    let mut bytes = 0;
    while batch.len() < BATCH_GAMES && bytes < BATCH_BYTES {
        let Some(raw) = games.next_game()? else {
            break;
        };
        bytes += raw.bytes.len();
        batch.push(OwnedGame {
            bytes: raw.bytes.to_vec(),
            offset: raw.offset,
            line: raw.line,
            column: raw.column,
        });
    }
    Ok(batch)
}

/// How a run over all inputs ended.
#[derive(Debug, Default, Clone, Copy)]
pub struct Ended {
    /// Bytes outside any game, over all inputs.
    pub skipped: u64,
}

/// Runs `job` over every input named in `inputs`, in order, calling `sink`
/// with the input's name, each game and its output.
pub fn over_inputs<J: Job>(
    inputs: &crate::args::Inputs,
    job: &J,
    mut sink: impl FnMut(&str, GameStart<'_>, J::Output) -> io::Result<()>,
) -> Result<Ended, crate::failure::Failure> {
    let mut ended = Ended::default();
    for path in crate::input::names(&inputs.files) {
        let source = crate::input::open(&path)?;
        let name = source.name.clone();
        let threads = inputs.threads();
        let result = run(job, source.reader, threads, |game, output| {
            sink(&name, game, output)
        });
        if let Some(bar) = &source.progress {
            bar.finish_and_clear();
        }
        match result {
            Ok(totals) => ended.skipped += totals.skipped,
            // The reader of standard output went away (`| head`): stop quietly.
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return Ok(ended),
            Err(e) => return Err(crate::failure::Failure::io(&name, &e)),
        }
    }
    Ok(ended)
}
