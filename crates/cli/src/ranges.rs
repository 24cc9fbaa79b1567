//! `pgnkit ranges`: a file's split points, one `START END` per line, on standard output or
//! (`-o`) in a file that appears under its name only whole, as every output ([`Output`]).

use std::io;

use pgnkit::input;

use crate::args::RangesArgs;
use crate::failure::Failure;
use crate::outcome::Outcome;
use crate::output::Output;
use crate::paths::{OutputPath, Plan};

/// Runs `pgnkit ranges`.
pub fn run(args: &RangesArgs) -> Result<Outcome, Failure> {
    let name = args.file.display().to_string();
    let mut out = match &args.output {
        Some(path) => {
            let outputs = vec![OutputPath { option: "-o", path }];
            Plan {
                inputs: std::slice::from_ref(&args.file),
                outputs,
                stdout: false,
            }
            .check()?;
            Output::file(path)?
        }
        None => Output::stdout(),
    };
    let ranges = input::split_points(&args.file, &name, args.n as usize)
        .map_err(|e| Failure::usage(e.to_string()))?;
    let lines: String = ranges
        .into_iter()
        .map(|(start, end)| format!("{start} {end}\n"))
        .collect();
    let written = out.write_text(lines.as_bytes()).and_then(|()| out.flush());
    match written {
        // The reader of standard output went away (`| head`): it has what it wanted.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe && !out.is_file() => Ok(Outcome::Clean),
        Err(e) => Err(Failure::usage(e.to_string())),
        Ok(()) => {
            out.finish()?;
            Ok(Outcome::Clean)
        }
    }
}
