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
        let json = (!diagnostics.has_errors()).then(|| game.to_json());
        (json, diagnostics)
    }
}

/// Runs `pgnkit json`; `Ok(true)` when every game was written.
pub fn run(args: &JsonArgs) -> Result<bool, Failure> {
    let job = JsonJob {
        read: read_options(&args.inputs),
    };
    let mut tally = Tally::new();
    let mut out = io::BufWriter::new(io::stdout().lock());
    let stderr = io::stderr();
    let ended = pipeline::over_inputs(&args.inputs, &job, |name, game, (json, diagnostics), _| {
        tally.game(game.bytes.len(), &diagnostics);
        if let Some(json) = json {
            return writeln!(out, "{json}");
        }
        render::report_errors(&mut stderr.lock(), name, &game, &diagnostics, true)
    })?;
    tally.skipped = ended.skipped;
    finish_output(&mut out, "standard output")?;
    eprintln!("{}", tally.summary("json", "written"));
    ended.status()?;
    Ok(tally.rejected == 0)
}
