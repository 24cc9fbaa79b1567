//! The `pgnkit` command: `export`, `check`, `json` and `fen` over PGN files.
//!
//! This binary is the only place that prints, touches files or exits; the
//! libraries below it return values and diagnostics. Exit status: 0 when
//! everything was read cleanly, 1 when some game had errors, 2 for usage
//! and I/O errors (an input that could not be read, an output that could
//! not be written), 130 after SIGINT, SIGTERM or SIGHUP.
//!
//! What it promises about the user's files (README, "What pgnkit promises";
//! `docs/reliability.md`): outputs never overwrite inputs, a file output
//! appears under its name only whole ([`output`]), and a signal or failure
//! leaves no partial file ([`signals`]).

mod args;
mod check;
mod compress;
mod console;
mod convert;
mod export;
mod failure;
mod fen;
mod input;
mod json;
mod output;
mod paths;
mod pipeline;
mod ranges;
mod render;
mod select;
mod select_stream;
mod select_table;
mod signals;
mod split;
mod tally;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
use pgnkit::ReadOptions;

use crate::args::{Cli, Command, Inputs};
use crate::failure::Failure;
use crate::output::Output;
use crate::paths::{OutputPath, Plan};
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

fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Err(reason) = signals::install() {
        console::say(&format!(
            "pgnkit: warning: cannot handle interrupts ({reason})"
        ));
    }
    let result = match &cli.command {
        Command::Export(args) => export::run(args),
        Command::Check(args) => check::run(args),
        Command::Json(args) => json::run(args),
        Command::Fen(args) => fen::run(args),
        Command::Ranges(args) => ranges::run(args),
        Command::Convert(args) => convert::run(args),
        Command::Select(args) => select::run(args, select::Mode::Select),
        Command::Dedupe(args) => select::run(args, select::Mode::Dedupe),
        Command::Classify(args) => select::run(args, select::Mode::Classify),
    };
    match result {
        Ok(Outcome::Clean) => ExitCode::SUCCESS,
        Ok(Outcome::Errors) => ExitCode::from(1),
        Ok(Outcome::Incomplete) => ExitCode::from(2),
        Err(failure) => {
            console::say(&format!("pgnkit: {failure}"));
            ExitCode::from(2)
        }
    }
}

/// The reading options the inputs ask for.
fn read_options(inputs: &Inputs) -> ReadOptions {
    if inputs.strict {
        ReadOptions::strict()
    } else {
        ReadOptions::new()
    }
}

/// Checks what a command reads and writes (see [`paths`]) before anything is
/// opened: `outputs` are its file outputs, `stdout` whether it writes
/// standard output.
fn check_plan(
    inputs: &Inputs,
    outputs: &[(&str, &Option<PathBuf>)],
    stdout: bool,
) -> Result<(), Failure> {
    let files = input::names(&inputs.files);
    let outputs = outputs
        .iter()
        .filter_map(|&(option, path)| path.as_deref().map(|path| OutputPath { option, path }))
        .collect();
    Plan {
        inputs: &files,
        outputs,
        stdout,
    }
    .check()
}

/// Ends a run: puts the outputs in place when every input was read (else
/// leaves them out and says so), settles the games written (when the first
/// output holds the games: `games_first`), prints the summary line and says
/// how the command ended.
fn finish(
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
    console::say(&tally.summary(summary.0, summary.1));
    Ok(outcome)
}
