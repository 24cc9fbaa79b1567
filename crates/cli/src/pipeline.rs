//! Running a job over every game of each input, on one thread or several,
//! with results handed back in input order: the library's
//! [`run_ordered`](pgnkit::game::run_ordered) (batches, workers, ordered
//! hand-back) over each input the command line names.

use std::io;

use pgnkit::game::{self, Diagnostics, GameStart, ReadOptions, Visitor, visit_tokenized};
use pgnkit::input::Transcoded;
use pgnkit::lexer;

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

    /// The job gathers work over a batch of games: see the library's
    /// [`Job::BATCHED`](game::Job::BATCHED).
    const BATCHED: bool = false;
    /// Bytes of games in a batch: see [`Job::BATCH_BYTES`](game::Job::BATCH_BYTES).
    const BATCH_BYTES: usize = <NoJob as game::Job>::BATCH_BYTES;
    /// Hands over the work gathered over a batch's games: see
    /// [`Job::end_batch`](game::Job::end_batch).
    fn end_batch(&self, _state: &mut Self::State, _outputs: &mut [Self::Output]) {}

    /// Whether `before_lexing` is called: see the library's
    /// [`Job::BEFORE_LEXING`](game::Job::BEFORE_LEXING).
    const BEFORE_LEXING: bool = false;

    /// The game's output from its bytes alone, before they are lexed, when
    /// they suffice (the library's
    /// [`Job::before_lexing`](pgnkit::game::Job::before_lexing): on several
    /// threads only, and only with `BEFORE_LEXING`, so `run` must give the
    /// same output).
    fn before_lexing(&self, state: &mut Self::State, game: GameStart<'_>) -> Option<Self::Output> {
        let _ = (state, game);
        None
    }
}

/// A job that does nothing, for the library's defaults.
struct NoJob;

impl game::Job for NoJob {
    type State = ();
    type Output = ();
    fn state(&self) {}
    fn run(&self, _: &mut (), _: lexer::TokenizedGame<'_, '_>, _: &mut Vec<u8>) {}
}

/// A game handed to a [`Job`]: its bytes and tokens from the lexer's single
/// pass, at their place in the input, and the encoding its input was
/// transcoded from (a copy reads the same game again).
#[derive(Clone, Copy)]
pub struct Game<'a, 't>(lexer::TokenizedGame<'a, 't>, Option<Transcoded>, &'a str);

impl Game<'_, '_> {
    /// The encoding the game was transcoded from to UTF-8 (a UTF-16 input),
    /// `None` when its bytes are read as stored.
    pub fn transcoded(&self) -> Option<Transcoded> {
        self.1
    }

    /// The name of the game's input (as messages give it).
    pub fn source(&self) -> &str {
        self.2
    }

    /// Sends the game through `visitor`: its output and diagnostics.
    pub fn visit<V: Visitor>(
        self,
        visitor: &mut V,
        options: ReadOptions,
    ) -> (V::Output, Diagnostics) {
        visit_tokenized(self.0, visitor, options)
    }
}

/// The CLI's [`Job`] as the library's: each game wrapped in a [`Game`] with
/// its input's encoding.
struct Jobs<'j, J>(&'j J, Option<Transcoded>, &'j str);

impl<J: Job> game::Job for Jobs<'_, J> {
    type State = J::State;
    type Output = J::Output;
    const BATCHED: bool = J::BATCHED;
    const BATCH_BYTES: usize = J::BATCH_BYTES;
    const BEFORE_LEXING: bool = J::BEFORE_LEXING;

    fn state(&self) -> J::State {
        self.0.state()
    }

    fn end_batch(&self, state: &mut J::State, outputs: &mut [J::Output]) {
        self.0.end_batch(state, outputs);
    }

    #[inline]
    fn run(
        &self,
        state: &mut J::State,
        game: lexer::TokenizedGame<'_, '_>,
        text: &mut Vec<u8>,
    ) -> J::Output {
        self.0.run(state, Game(game, self.1, self.2), text)
    }

    fn before_lexing(&self, state: &mut J::State, game: GameStart<'_>) -> Option<J::Output> {
        self.0.before_lexing(state, game)
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
    let mut games = lexer::Reader::new(source.reader);
    games.set_max_game_bytes(Some(inputs.max_game_bytes));
    // The games are split with the rules the job reads them with.
    games.set_options(crate::options::read_options(inputs).lex_options());
    let jobs = Jobs(job, source.transcoded, &name);
    let result = game::run_ordered_games(&jobs, games, threads, |game, output, text| {
        sink(&name, game, output, text)
    });
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
    if is_stop(&e) {
        ended.stopped = true;
        return Ok(false);
    }
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
    /// The sink asked to stop ([`stop`], `--stop-after`): the rest of the
    /// input is not read, on purpose.
    pub stopped: bool,
}

impl Ended {
    /// Whether every input was read to its end (or the run was stopped on
    /// purpose): only then are file outputs put in place.
    pub fn complete(&self) -> bool {
        self.failed_inputs == 0 && !self.closed
    }
}

/// Why reading stopped early on purpose (see [`stop`]).
#[derive(Debug)]
struct Stop;

impl std::fmt::Display for Stop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("stopped (--stop-after)")
    }
}

impl std::error::Error for Stop {}

/// The error a sink returns to end the run without reading further
/// (`--stop-after N`): not a failure; [`over_inputs`] returns with
/// [`Ended::stopped`] set.
pub fn stop() -> io::Error {
    io::Error::other(Stop)
}

/// Whether `e` is [`stop`]'s.
fn is_stop(e: &io::Error) -> bool {
    e.get_ref().is_some_and(|inner| inner.is::<Stop>())
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
