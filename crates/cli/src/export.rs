//! `pgnkit export`: import format in, export format out, rejects kept.

use std::fs::File;
use std::io::{self, BufWriter, Write};

use pgnkit::export::{ExportOptions, Notation, StreamWriter};
use pgnkit::game::{Diagnostics, ReadOptions};

use crate::args::{ExportArgs, NotationArg};
use crate::compress::{self, Codec, Finish};
use crate::failure::Failure;
use crate::pipeline::{self, Game, Job};
use crate::tally::Tally;
use crate::{read_options, render};

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

fn export_options(args: &ExportArgs) -> ExportOptions {
    let base = if args.reduced {
        ExportOptions::reduced()
    } else {
        ExportOptions::export()
    };
    ExportOptions {
        width: usize::from(args.width),
        comments: base.comments && !args.no_comments,
        nags: base.nags && !args.no_nags,
        variations: base.variations && !args.no_variations,
        notation: match args.notation {
            NotationArg::San => Notation::San,
            NotationArg::Lan => Notation::Lan,
            NotationArg::Uci => Notation::Uci,
            NotationArg::Fan => Notation::Fan,
        },
        ..base
    }
}

/// Creates the output file `path`, compressed as its extension says.
fn create(
    path: &std::path::Path,
    level: Option<u32>,
) -> Result<(String, Box<dyn Finish>), Failure> {
    let name = path.display().to_string();
    let file = File::create(path).map_err(|e| Failure::write(&name, &e))?;
    let file = BufWriter::with_capacity(1 << 16, file);
    let out = compress::writer(file, Codec::for_path(path), level)
        .map_err(|e| Failure::write(&name, &e))?;
    Ok((name, out))
}

/// Finishes an output (a compressed stream's end); a reader that went away
/// (`| head`) is not an error.
fn finish(out: Box<dyn Finish>, name: &str) -> Result<(), Failure> {
    match out.finish() {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => Err(Failure::write(name, &e)),
        _ => Ok(()),
    }
}

/// Runs `pgnkit export`; `Ok(true)` when every game was written.
pub fn run(args: &ExportArgs) -> Result<bool, Failure> {
    let job = ExportJob {
        options: export_options(args),
        read: read_options(&args.inputs),
    };
    let (out_name, out): (String, Box<dyn Finish>) = match &args.output {
        Some(path) => create(path, args.level)?,
        None => {
            let stdout = BufWriter::with_capacity(1 << 16, io::stdout());
            let out = compress::writer(stdout, args.compress, args.level)
                .map_err(|e| Failure::write("standard output", &e))?;
            ("standard output".into(), out)
        }
    };
    let mut out = out;
    let mut rejects = match &args.rejects {
        Some(path) => Some(create(path, args.level)?),
        None => None,
    };
    let mut tally = Tally::new();
    let stderr = io::stderr();
    let ended = pipeline::over_inputs(&args.inputs, &job, |name, game, diagnostics, text| {
        tally.game(game.bytes.len(), &diagnostics);
        if !diagnostics.has_errors() {
            return out.write_all(text);
        }
        let kept = rejects.is_some();
        render::report_errors(&mut stderr.lock(), name, &game, &diagnostics, !kept)?;
        match &mut rejects {
            Some((_, file)) => file.write_all(game.bytes),
            None => Ok(()),
        }
    })?;
    tally.skipped = ended.skipped;
    finish(out, &out_name)?;
    if let Some((name, file)) = rejects {
        finish(file, &name)?;
    }
    eprintln!("{}", tally.summary("export", "written"));
    ended.status()?;
    Ok(tally.rejected == 0)
}
