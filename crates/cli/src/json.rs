//! `pgnkit json`: one JSON object per game per line.

use pgnkit::game::{Diagnostics, ReadOptions, TreeBuilder};

use crate::args::JsonArgs;
use crate::failure::Failure;
use crate::options::read_options;
use crate::outcome::{Outcome, finish};
use crate::output::Output;
use crate::paths::check_plan;
use crate::pipeline::{self, Game, Job};
use crate::tally::Tally;
use crate::{console, render};

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
        let transcoded = game.transcoded();
        let (game, diagnostics) = game.visit(builder, self.read);
        let mut json = match (diagnostics.has_errors(), self.keep_broken) {
            (false, _) => Some(game.to_json()),
            (true, true) => Some(game.to_json_with_diagnostics(&diagnostics)),
            (true, false) => None,
        };
        if let (Some(json), Some(transcoded)) = (&mut json, transcoded) {
            record_encoding(json, transcoded);
        }
        (json, diagnostics)
    }
}

/// Records in a game's JSON object that its text was transcoded from
/// `transcoded` (`"encoding": "utf-16le"` or `"utf-16be"`, as `"latin-1"` is
/// recorded for a Latin-1 game): a member added at the object's end.
fn record_encoding(json: &mut String, transcoded: pgnkit::input::Transcoded) {
    if json.ends_with('}') {
        json.pop();
        json.push_str(",\"encoding\":\"");
        json.push_str(transcoded.label());
        json.push_str("\"}");
    }
}

/// Runs `pgnkit json`.
pub fn run(args: &JsonArgs) -> Result<Outcome, Failure> {
    check_plan(&args.inputs, &[], true)?;
    let job = JsonJob {
        read: read_options(&args.inputs),
        keep_broken: args.keep_broken,
    };
    let mut tally = Tally::new();
    let mut out = Output::stdout();
    let ended = pipeline::over_inputs(&args.inputs, &job, |name, game, (json, diagnostics), _| {
        tally.game(game.bytes.len(), &diagnostics);
        let broken = diagnostics.has_errors();
        if broken {
            // Kept or not, a broken game's errors are reported.
            console::write(&render::errors(name, &game, &diagnostics, json.is_some()))?;
        }
        if let Some(mut json) = json {
            if broken {
                tally.rejected -= 1;
                tally.written += 1;
            }
            json.push('\n');
            return out.write_game(json.as_bytes());
        }
        Ok(())
    })?;
    // Kept broken games still make the run end with status 1 (`finish` counts errors).
    finish(ended, tally, vec![out], true, ("json", "written"))
}
