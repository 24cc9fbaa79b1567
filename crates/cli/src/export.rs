//! `pgnkit export`: import format in, export format out, rejects kept.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::sync::{Mutex, PoisonError};

use pgnkit::export::{ExportOptions, Notation, StreamWriter};
use pgnkit::game::{Diagnostics, ReadOptions};

use crate::args::{ExportArgs, NotationArg};
use crate::failure::Failure;
use crate::pipeline::{self, Game, Job};
use crate::tally::Tally;
use crate::{finish_output, read_options, render};

struct ExportJob {
    options: ExportOptions,
    read: ReadOptions,
    /// Text buffers already written out, for the next games.
    spare: Mutex<Vec<Vec<u8>>>,
}

impl ExportJob {
    /// A written game's text buffer, given back for reuse.
    fn recycle(&self, text: Vec<u8>) {
        let mut spare = self.spare.lock().unwrap_or_else(PoisonError::into_inner);
        if spare.len() < MAX_SPARE {
            spare.push(text);
        }
    }

    /// An empty buffer: a recycled one, else a new one.
    fn buffer(&self) -> Vec<u8> {
        let mut spare = self.spare.lock().unwrap_or_else(PoisonError::into_inner);
        spare
            .pop()
            .unwrap_or_else(|| Vec::with_capacity(BUFFER_CAPACITY))
    }
}

/// Spare buffers kept at most. One is enough with one thread. With several,
/// a whole batch's games are in flight at once and most of them take a new
/// buffer: keeping a batch's worth of spares would nearly double the peak
/// memory (62 MB against 35 MB on the bench file with two threads) for
/// allocations that are cheap next to the game's own work.
const MAX_SPARE: usize = 64;

/// The capacity of a new text buffer (most games' text fits).
const BUFFER_CAPACITY: usize = 4096;

impl Job for ExportJob {
    type State = StreamWriter;
    type Output = (Option<Vec<u8>>, Diagnostics);

    fn state(&self) -> StreamWriter {
        StreamWriter::new(self.options.clone())
    }

    fn run(&self, writer: &mut StreamWriter, game: Game<'_, '_>) -> Self::Output {
        let (_, diagnostics) = game.visit(writer, self.read);
        // The text changes hands instead of being copied, and a buffer
        // written out before takes its place: no allocation per game.
        let text = (!diagnostics.has_errors()).then(|| writer.take_game_text(self.buffer()));
        (text, diagnostics)
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

fn create(path: &std::path::Path) -> Result<(String, File), Failure> {
    let name = path.display().to_string();
    let file = File::create(path).map_err(|e| Failure::write(&name, &e))?;
    Ok((name, file))
}

/// Runs `pgnkit export`; `Ok(true)` when every game was written.
pub fn run(args: &ExportArgs) -> Result<bool, Failure> {
    let job = ExportJob {
        options: export_options(args),
        read: read_options(&args.inputs),
        spare: Mutex::new(Vec::new()),
    };
    let (out_name, out): (String, Box<dyn Write>) = match &args.output {
        Some(path) => {
            let (name, file) = create(path)?;
            (name, Box::new(file))
        }
        None => ("standard output".into(), Box::new(io::stdout().lock())),
    };
    let mut out = BufWriter::with_capacity(1 << 16, out);
    let mut rejects = match &args.rejects {
        Some(path) => {
            let (name, file) = create(path)?;
            Some((name, BufWriter::new(file)))
        }
        None => None,
    };
    let mut tally = Tally::new();
    let stderr = io::stderr();
    let ended = pipeline::over_inputs(&args.inputs, &job, |name, game, (text, diagnostics)| {
        tally.game(game.bytes.len(), &diagnostics);
        if let Some(text) = text {
            let written = out.write_all(&text);
            job.recycle(text);
            return written;
        }
        let kept = rejects.is_some();
        render::report_errors(&mut stderr.lock(), name, &game, &diagnostics, !kept)?;
        match &mut rejects {
            Some((_, file)) => file.write_all(game.bytes),
            None => Ok(()),
        }
    })?;
    tally.skipped = ended.skipped;
    finish_output(&mut out, &out_name)?;
    if let Some((name, file)) = &mut rejects {
        file.flush().map_err(|e| Failure::write(name, &e))?;
    }
    eprintln!("{}", tally.summary("export", "written"));
    Ok(tally.rejected == 0)
}
