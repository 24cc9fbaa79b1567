//! `pgnkit check`: validate every move and print diagnostics.

use std::io::{self, Write};

use pgnkit::game::{Diagnostics, ReadOptions, Validate};

use crate::args::CheckArgs;
use crate::failure::Failure;
use crate::pipeline::{self, Game, Job};
use crate::tally::Tally;
use crate::{finish_output, read_options, render};

struct CheckJob {
    read: ReadOptions,
}

impl Job for CheckJob {
    type State = Validate;
    type Output = Diagnostics;

    fn state(&self) -> Validate {
        Validate
    }

    fn run(&self, validate: &mut Validate, game: Game<'_, '_>, _text: &mut Vec<u8>) -> Diagnostics {
        game.visit(validate, self.read).1
    }
}

/// Runs `pgnkit check`; `Ok(true)` when no game has an error.
pub fn run(args: &CheckArgs) -> Result<bool, Failure> {
    let job = CheckJob {
        read: read_options(&args.inputs),
    };
    let mut tally = Tally::new();
    let mut out = io::BufWriter::new(io::stdout().lock());
    let ended = pipeline::over_inputs(&args.inputs, &job, |name, game, diagnostics, _| {
        tally.game(game.bytes.len(), &diagnostics);
        for d in diagnostics.iter() {
            if args.json {
                writeln!(out, "{}", render::json(name, d))?;
            } else {
                out.write_all(render::text(name, &game, d).as_bytes())?;
            }
        }
        Ok(())
    })?;
    tally.skipped = ended.skipped;
    finish_output(&mut out, "standard output")?;
    eprintln!("{}", tally.summary("check", "without errors"));
    ended.status()?;
    Ok(tally.errors == 0)
}
