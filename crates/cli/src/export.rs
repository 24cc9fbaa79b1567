//! `pgnkit export`: import format in, export format out, rejects kept.
//!
//! With no game transform (or FEN and key comments alone, which the
//! streaming writer writes), each game is written by the streaming writer as
//! it is read (no tree); with one (`--drop-plies`, `--split-variations`...),
//! each game is built, transformed by `pgnkit-select`'s [`Transforms`] and
//! written by the tree writer.

use pgnkit::export::{ExportOptions, GameWriter, StreamWriter};
use pgnkit::game::{Diagnostics, ReadOptions, TreeBuilder};
use pgnkit::select::Transforms;

use crate::args::ExportArgs;
use crate::failure::Failure;
use crate::options::{export_options, position_comments, read_options, transforms};
use crate::outcome::{Outcome, finish};
use crate::output::Output;
use crate::paths::check_plan;
use crate::pipeline::{self, Game, Job};
use crate::tally::Tally;
use crate::{console, render};

struct ExportJob {
    options: ExportOptions,
    read: ReadOptions,
    transforms: Transforms,
}

/// What the main thread needs of one game.
struct Written {
    diagnostics: Diagnostics,
    /// The games its text holds (more than one when split).
    games: u64,
    /// Of those, the games a transform could not apply to (written unchanged).
    unchanged: u64,
}

impl Job for ExportJob {
    type State = (StreamWriter, TreeBuilder, GameWriter);
    type Output = Written;

    fn state(&self) -> Self::State {
        (
            StreamWriter::new(self.options.clone())
                .with_position_comments(position_comments(&self.transforms)),
            TreeBuilder::new(),
            GameWriter::new(self.options.clone()),
        )
    }

    fn run(&self, state: &mut Self::State, game: Game<'_, '_>, text: &mut Vec<u8>) -> Written {
        let (stream, builder, writer) = state;
        if !self.transforms.is_empty() && !self.transforms.only_position_comments() {
            let (game, diagnostics) = game.visit(builder, self.read);
            if diagnostics.has_errors() {
                return Written {
                    diagnostics,
                    games: 0,
                    unchanged: 0,
                };
            }
            let out = self.transforms.apply(game);
            for game in &out.games {
                // Writing to a Vec cannot fail.
                let _ = writer.write(game, text);
            }
            return Written {
                diagnostics,
                games: out.games.len() as u64,
                unchanged: out.too_short as u64,
            };
        }
        let (_, diagnostics) = game.visit(stream, self.read);
        if diagnostics.has_errors() {
            return Written {
                diagnostics,
                games: 0,
                unchanged: 0,
            };
        }
        if text.is_empty() {
            // The text changes hands instead of being copied: the writer
            // writes the next game into the buffer given back.
            *text = stream.take_game_text(std::mem::take(text));
        } else {
            text.extend_from_slice(stream.game_text());
        }
        Written {
            diagnostics,
            games: 1,
            unchanged: 0,
        }
    }
}

/// Runs `pgnkit export`.
pub fn run(args: &ExportArgs) -> Result<Outcome, Failure> {
    check_plan(
        &args.inputs,
        &[("-o", &args.output), ("--rejects", &args.rejects)],
        args.output.is_none(),
    )?;
    let options = export_options(&args.format, &args.inputs)?;
    let job = ExportJob {
        transforms: transforms(&args.transforms, &options),
        options,
        read: read_options(&args.inputs),
    };
    let mut out = match &args.output {
        Some(path) if args.append => Output::append(path)?.compressed(None, args.level)?,
        Some(path) => Output::file(path)?.compressed(None, args.level)?,
        None => Output::stdout().compressed(args.compress, args.level)?,
    };
    let mut rejects = match args.rejects.as_deref() {
        Some(path) => Some(Output::file(path)?.compressed(None, args.level)?),
        None => None,
    };
    let mut tally = Tally::new();
    let (mut written, mut split, mut unchanged) = (0u64, 0u64, 0u64);
    let stop_after = args.transforms.stop_after;
    let ended = pipeline::over_inputs(&args.inputs, &job, |name, game, v, text| {
        tally.game(game.bytes.len(), &v.diagnostics);
        if !v.diagnostics.has_errors() {
            written += 1;
            split += v.games;
            unchanged += v.unchanged;
            out.write_game(text)?;
            return match stop_after {
                Some(n) if written >= n => Err(pipeline::stop()),
                _ => Ok(()),
            };
        }
        // A game skipped for its size has no bytes to keep.
        let kept = rejects.is_some() && !game.bytes.is_empty();
        console::write(&render::errors(name, &game, &v.diagnostics, kept))?;
        match &mut rejects {
            Some(file) if kept => file.write_game(game.bytes),
            _ => Ok(()),
        }
    })?;
    let mut extra = Vec::new();
    if args.transforms.split_variations.is_some() {
        extra.push(format!("{split} games from --split-variations"));
    }
    if let Some(plies) = args.transforms.drop_plies {
        extra.push(format!(
            "{unchanged} unchanged (--drop-plies {plies}: fewer plies)"
        ));
    }
    if ended.stopped {
        extra.push(format!("stopped after {written} (--stop-after)"));
    }
    tally.extra = extra;
    let outputs = std::iter::once(out).chain(rejects).collect();
    finish(ended, tally, outputs, true, ("export", "written"))
}
