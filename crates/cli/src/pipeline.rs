//! Running a job over every game of each input, on one thread or several,
//! with results handed back in input order: the library's
//! [`run_ordered`](pgnkit::game::run_ordered) (batches, workers, ordered
//! hand-back) over each input the command line names.

use std::io;

use pgnkit::game::{self, Diagnostics, GameStart, ReadOptions, Visitor, visit_tokenized};
use pgnkit::lexer;

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

/// The CLI's [`Job`] as the library's: each game wrapped in a [`Game`].
struct Jobs<'j, J>(&'j J);

impl<J: Job> game::Job for Jobs<'_, J> {
    type State = J::State;
    type Output = J::Output;

    fn state(&self) -> J::State {
        self.0.state()
    }

    #[inline]
    fn run(
        &self,
        state: &mut J::State,
        game: lexer::TokenizedGame<'_, '_>,
        text: &mut Vec<u8>,
    ) -> J::Output {
        self.0.run(state, Game(game), text)
    }
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
    mut sink: impl FnMut(&str, GameStart<'_>, J::Output, &[u8]) -> io::Result<()>,
) -> Result<Ended, crate::failure::Failure> {
    let mut ended = Ended::default();
    for path in crate::input::names(&inputs.files) {
        let source = crate::input::open(&path)?;
        let name = source.name.clone();
        let threads = inputs.threads();
        let result = game::run_ordered(&Jobs(job), source.reader, threads, |game, output, text| {
            sink(&name, game, output, text)
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
