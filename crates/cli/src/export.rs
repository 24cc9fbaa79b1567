//! `pgnkit export`: import format in, export format out, rejects kept.

use pgnkit::export::{ExportOptions, StreamWriter};
use pgnkit::game::{Diagnostics, ReadOptions};

use crate::args::ExportArgs;
use crate::failure::Failure;
use crate::options::{export_options, read_options};
use crate::outcome::{Outcome, finish};
use crate::output::Output;
use crate::paths::check_plan;
use crate::pipeline::{self, Game, Job};
use crate::tally::Tally;
use crate::{console, render};

struct ExportJob {
    options: ExportOptions,
    read: ReadOptions,
}

impl Job for ExportJob {
    type State = StreamWriter;
    type Output = Diagnostics;

    fn state(&self) -> StreamWriter {
        StreamWriter::new(self.options.clone())
    }

    fn run(
        &self,
        writer: &mut StreamWriter,
        game: Game<'_, '_>,
        text: &mut Vec<u8>,
    ) -> Diagnostics {
        let (_, diagnostics) = game.visit(writer, self.read);
        if diagnostics.has_errors() {
            return diagnostics;
        }
        if text.is_empty() {
            // The text changes hands instead of being copied: the writer
            // writes the next game into the buffer given back.
            *text = writer.take_game_text(std::mem::take(text));
        } else {
            text.extend_from_slice(writer.game_text());
        }
        diagnostics
    }
}

/// Runs `pgnkit export`.
pub fn run(args: &ExportArgs) -> Result<Outcome, Failure> {
    check_plan(
        &args.inputs,
        &[("-o", &args.output), ("--rejects", &args.rejects)],
        args.output.is_none(),
    )?;
    let job = ExportJob {
        options: export_options(&args.format),
        read: read_options(&args.inputs),
    };
    let mut out = match &args.output {
        Some(path) => Output::file(path)?.compressed(None, args.level)?,
        None => Output::stdout().compressed(args.compress, args.level)?,
    };
    let mut rejects = match args.rejects.as_deref() {
        Some(path) => Some(Output::file(path)?.compressed(None, args.level)?),
        None => None,
    };
    let mut tally = Tally::new();
    let ended = pipeline::over_inputs(&args.inputs, &job, |name, game, diagnostics, text| {
        tally.game(game.bytes.len(), &diagnostics);
        if !diagnostics.has_errors() {
            return out.write_game(text);
        }
        // A game skipped for its size has no bytes to keep.
        let kept = rejects.is_some() && !game.bytes.is_empty();
        console::write(&render::errors(name, &game, &diagnostics, kept))?;
        match &mut rejects {
            Some(file) if kept => file.write_game(game.bytes),
            _ => Ok(()),
        }
    })?;
    let outputs = std::iter::once(out).chain(rejects).collect();
    finish(ended, tally, outputs, true, ("export", "written"))
}
