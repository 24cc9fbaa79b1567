//! `pgnkit json`: one JSON object per game per line.

use std::io::{self, Write};

use pgnkit::game::{Diagnostics, ReadOptions, TreeBuilder};

use crate::args::JsonArgs;
use crate::failure::Failure;
use crate::pipeline::{self, Game, Job};
use crate::tally::Tally;
use crate::{finish_output, read_options, render};

struct JsonJob {
    read: ReadOptions,
    keep_broken: bool,
}

impl Job for JsonJob {
    type State = TreeBuilder;
    type Output = (Option<String>, Diagnostics);

    fn state(&self) -> TreeBuilder {
        TreeBuilder::new()
    }

    fn run(
        &self,
        builder: &mut TreeBuilder,
        game: Game<'_, '_>,
        _text: &mut Vec<u8>,
    ) -> Self::Output {
        let (game, diagnostics) = game.visit(builder, self.read);
        let json = match (diagnostics.has_errors(), self.keep_broken) {
            (false, _) => Some(game.to_json()),
            (true, true) => Some(game.to_json_with_diagnostics(&diagnostics)),
            (true, false) => None,
        };
        (json, diagnostics)
    }
}

/// Runs `pgnkit json`; `Ok(true)` when every game was written.
pub fn run(args: &JsonArgs) -> Result<bool, Failure> {
    let job = JsonJob {
        read: read_options(&args.inputs),
        keep_broken: args.keep_broken,
    };
    let mut tally = Tally::new();
    let mut out = io::BufWriter::new(io::stdout().lock());
    let stderr = io::stderr();
    let ended = pipeline::over_inputs(&args.inputs, &job, |name, game, (json, diagnostics), _| {
        tally.game(game.bytes.len(), &diagnostics);
        let broken = diagnostics.has_errors();
        if broken {
            // Kept or not, a broken game's errors are reported.
            render::report_errors(
                &mut stderr.lock(),
                name,
                &game,
                &diagnostics,
                json.is_none(),
            )?;
        }
        if let Some(json) = json {
            if broken {
                tally.rejected -= 1;
                tally.written += 1;
            }
            return writeln!(out, "{json}");
        }
        Ok(())
    })?;
    tally.skipped = ended.skipped;
    finish_output(&mut out, "standard output")?;
    eprintln!("{}", tally.summary("json", "written"));
    // Kept broken games still make the run a failure.
    Ok(tally.rejected == 0 && tally.errors == 0)
}
