//! `pgnkit ranges`: a file's split points, one `START END` per line.

use std::io::{self, Write};

use pgnkit::input;

use crate::args::RangesArgs;
use crate::failure::Failure;
use crate::outcome::Outcome;

/// Runs `pgnkit ranges`.
pub fn run(args: &RangesArgs) -> Result<Outcome, Failure> {
    let name = args.file.display().to_string();
    let ranges = input::split_points(&args.file, &name, args.n as usize)
        .map_err(|e| Failure::usage(e.to_string()))?;
    let mut out = io::stdout().lock();
    for (start, end) in ranges {
        match writeln!(out, "{start} {end}") {
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => break,
            result => result.map_err(|e| Failure::write("standard output", &e))?,
        }
    }
    Ok(Outcome::Clean)
}
