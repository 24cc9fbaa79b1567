//! `pgnkit ranges`: a file's split points, one `START END` per line.

use std::io::{self, Write};

use pgnkit::input;

use crate::args::RangesArgs;
use crate::failure::Failure;
use crate::finish_output;

/// Runs `pgnkit ranges`.
pub fn run(args: &RangesArgs) -> Result<bool, Failure> {
    let name = args.file.display().to_string();
    let ranges = input::split_points(&args.file, &name, args.n as usize)
        .map_err(|e| Failure::usage(e.to_string()))?;
    let mut out = io::BufWriter::new(io::stdout().lock());
    for (start, end) in ranges {
        writeln!(out, "{start} {end}").map_err(|e| Failure::write("standard output", &e))?;
    }
    finish_output(&mut out, "standard output")?;
    Ok(true)
}
