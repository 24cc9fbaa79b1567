//! `pgnkit check`: validate every move and print diagnostics.

use pgnkit::game::{Diagnostics, ReadOptions, Validate};

use crate::args::CheckArgs;
use crate::failure::Failure;
use crate::options::read_options;
use crate::outcome::{Outcome, finish};
use crate::output::Output;
use crate::paths::check_plan;
use crate::pipeline::{self, Game, Job};
use crate::render;
use crate::tally::Tally;

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

/// Runs `pgnkit check`.
pub fn run(args: &CheckArgs) -> Result<Outcome, Failure> {
    check_plan(&args.inputs, &[], true)?;
    let job = CheckJob {
        read: read_options(&args.inputs),
    };
    let mut tally = Tally::new();
    let mut out = Output::stdout();
    let ended = pipeline::over_inputs(&args.inputs, &job, |name, game, diagnostics, _| {
        tally.game(game.bytes.len(), &diagnostics);
        for d in diagnostics.iter() {
            if args.json {
                out.write_text(render::json(name, d).as_bytes())?;
                out.write_text(b"\n")?;
            } else {
                out.write_text(render::text(name, &game, d).as_bytes())?;
            }
        }
        Ok(())
    })?;
    finish(ended, tally, vec![out], false, ("check", "without errors"))
}
