//! How a run ends: the outputs put in place (or left out when an input
//! could not be read), the warnings' counts and the summary line on
//! standard error, and the [`Outcome`] that `main` turns into the exit status.

use crate::console;
use crate::failure::Failure;
use crate::output::Output;
use crate::pipeline::Ended;
use crate::tally::Tally;

/// How a command ended, for its exit status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Every game read cleanly (warnings allowed) and written.
    Clean,
    /// Some games had errors (rejected, or reported by `check`).
    Errors,
    /// Some input could not be read, or standard error was closed: the run
    /// is incomplete (exit status 2).
    Incomplete,
}

/// Ends a run: puts the outputs in place when every input was read (else
/// leaves them out and says so), settles the games written (when the first
/// output holds the games: `games_first`), prints the summary line and says
/// how the command ended.
pub fn finish(
    ended: Ended,
    mut tally: Tally,
    mut outputs: Vec<Output>,
    games_first: bool,
    summary: (&str, &str),
) -> Result<Outcome, Failure> {
    tally.skipped = ended.skipped;
    tally.failed_inputs = ended.failed_inputs;
    let games = if ended.complete() {
        for out in &mut outputs {
            out.flush().map_err(|e| Failure::usage(e.to_string()))?;
        }
        let games = outputs.first().map(Output::games_written);
        for out in outputs {
            out.finish()?;
        }
        games
    } else {
        // What went to standard output (or a device) is out already: the rest of it too,
        // unless that is where the run stopped. Files are not put in place.
        for out in outputs.iter_mut().filter(|o| !o.is_file()) {
            if !ended.closed {
                out.flush().map_err(|e| Failure::usage(e.to_string()))?;
            }
        }
        let games = outputs.first().map(|out| {
            if out.is_file() {
                0
            } else {
                out.games_written()
            }
        });
        let names: Vec<&str> = outputs
            .iter()
            .filter(|o| o.is_file())
            .map(Output::name)
            .collect();
        if !names.is_empty() {
            let why = if ended.failed_inputs > 0 {
                "not every input could be read"
            } else {
                "the run stopped early"
            };
            console::say(&format!("pgnkit: {} not written: {why}", names.join(", ")));
        }
        if let Some(done) = crate::signals::in_place() {
            console::say(&format!("pgnkit: {done}"));
        }
        games
    };
    if games_first && let Some(games) = games {
        tally.written_out(games);
    }
    // Standard error closed during the run cut it short; closed for the summary alone, it did not.
    let outcome = if ended.failed_inputs > 0 || (ended.closed && console::closed()) {
        Outcome::Incomplete
    } else if tally.rejected > 0 || tally.errors > 0 {
        Outcome::Errors
    } else {
        Outcome::Clean
    };
    tally.say_warning_counts();
    console::say(&tally.summary(summary.0, summary.1));
    Ok(outcome)
}
