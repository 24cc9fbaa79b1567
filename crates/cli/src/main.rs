//! The `pgnkit` command: `export`, `check`, `json` and `fen` over PGN files.
//!
//! This binary is the only place that prints, touches files or exits; the
//! libraries below it return values and diagnostics. Exit status: 0 when
//! everything was read cleanly, 1 when some game had errors, 2 for usage
//! and I/O errors.

mod args;
mod check;
mod export;
mod failure;
mod fen;
mod input;
mod json;
mod pipeline;
mod render;
mod tally;

use std::io::{self, Write};
use std::process::ExitCode;

use clap::Parser;
use pgnkit::ReadOptions;

use crate::args::{Cli, Command, Inputs};
use crate::failure::Failure;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::Export(args) => export::run(args),
        Command::Check(args) => check::run(args),
        Command::Json(args) => json::run(args),
        Command::Fen(args) => fen::run(args),
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(failure) => {
            eprintln!("pgnkit: {failure}");
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

/// Flushes an output; a reader that went away (`| head`) is not an error.
fn finish_output(out: &mut impl Write, name: &str) -> Result<(), Failure> {
    match out.flush() {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => Err(Failure::write(name, &e)),
        _ => Ok(()),
    }
}
