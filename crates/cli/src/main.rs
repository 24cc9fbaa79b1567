//! The `pgnkit` command: `export`, `check`, `json`, `fen`, `convert`,
//! `ranges`, `select`, `dedupe`, `classify`, `search`, `index`, `tree` and `book`
//! over PGN files. This file
//! only declares the modules, parses the command line and dispatches: each
//! subcommand is a module of its own (`export`, `check`, ...), the flags
//! become the libraries' options in [`options`], the inputs are read in
//! [`pipeline`] and a run ends in [`outcome`].
//!
//! This binary is the only place that prints, touches files or exits; the
//! libraries below it return values and diagnostics. Exit status: 0 when
//! everything was read cleanly, 1 when some game had errors, 2 for usage
//! and I/O errors (an input that could not be read, an output that could
//! not be written), 130 after SIGINT, SIGTERM or SIGHUP.
//!
//! What it promises about the user's files (README, "What pgnkit promises";
//! `docs/reliability.md`): outputs never overwrite inputs ([`paths`]), a file
//! output appears under its name only whole ([`output`]), and a signal or
//! failure leaves no partial file ([`signals`]).

mod args;
mod book;
mod check;
mod compress;
mod console;
mod convert;
mod export;
mod failure;
mod fen;
mod index;
mod input;
mod json;
mod options;
mod outcome;
mod output;
mod paths;
mod pipeline;
mod ranges;
mod render;
mod search;
mod select;
mod select_check;
mod select_table;
mod signals;
mod split;
mod tally;
mod warnings;

use std::process::ExitCode;

use clap::Parser;

use crate::args::{Cli, Command};
use crate::outcome::Outcome;

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
        Command::Search(args) => search::run(args),
        Command::Index(args) => index::run(args),
        Command::Tree(args) => index::tree(args),
        Command::Book(args) => book::run(args),
    };
    match result {
        Ok(Outcome::Clean) => ExitCode::SUCCESS,
        Ok(Outcome::Errors) => ExitCode::from(1),
        Ok(Outcome::Incomplete) => ExitCode::from(2),
        Err(failure) => {
            console::say(&format!("pgnkit: {failure}"));
            if let Some(done) = signals::in_place() {
                console::say(&format!("pgnkit: {done}"));
            }
            ExitCode::from(2)
        }
    }
}
