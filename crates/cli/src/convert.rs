//! `pgnkit convert`: games into a games table and a moves table
//! (Parquet, Arrow IPC, CSV or NDJSON), through `pgnkit-arrow`.
//!
//! Workers read each game once through `pgnkit-arrow`'s `RecordTee`, as
//! the Python package's tables do: its `RecordVisitor` (tags, main-line
//! moves, clocks, evals) and the export
//! `StreamWriter` (the `movetext` column). The main thread gets the records
//! in input order, numbers the games and fills bounded batches; each table's
//! batches are encoded and written on a thread of its own (`WriterThread`,
//! handed over one at a time), so Parquet's encoding and compression
//! run beside the reading and the two tables beside each other.

use std::io;
use std::path::Path;

use pgnkit::export::{ExportOptions, StreamWriter};
use pgnkit::game::{Diagnostics, ReadOptions};
use pgnkit_arrow::arrow_array::RecordBatch;
use pgnkit_arrow::{
    BatchLimits, Format, GameRecord, GamesBuilder, MovesBuilder, RecordOptions, RecordTee,
    RowSource, SchemaRef, TableOptions, TableWriter, WriterThread,
};

use crate::args::{ConvertArgs, FormatArg};
use crate::failure::Failure;
use crate::output::{Output, OutputError};
use crate::pipeline::{self, Game, Job};
use crate::tally::Tally;
use crate::{Outcome, check_plan, console, finish, read_options, render};

struct ConvertJob {
    read: ReadOptions,
    record: RecordOptions,
    keep_broken: bool,
}

impl Job for ConvertJob {
    type State = RecordTee<StreamWriter>;
    type Output = (Option<GameRecord>, Diagnostics);

    fn state(&self) -> RecordTee<StreamWriter> {
        RecordTee::new(
            self.record,
            StreamWriter::new(ExportOptions::export()),
            StreamWriter::game_text,
        )
    }

    fn run(
        &self,
        tee: &mut RecordTee<StreamWriter>,
        game: Game<'_, '_>,
        _text: &mut Vec<u8>,
    ) -> Self::Output {
        let (mut record, diagnostics) = game.visit(tee, self.read);
        let broken = diagnostics.has_errors();
        if broken && !self.keep_broken {
            return (None, diagnostics);
        }
        if broken {
            record.set_errors(&diagnostics);
        }
        (Some(record), diagnostics)
    }
}

/// The format of an output: `--format`, else its extension.
fn format_of(path: &Path, arg: Option<FormatArg>) -> Result<Format, Failure> {
    if let Some(arg) = arg {
        return Ok(match arg {
            FormatArg::Parquet => Format::Parquet,
            FormatArg::Arrow => Format::Arrow,
            FormatArg::Arrows => Format::ArrowStream,
            FormatArg::Csv => Format::Csv,
            FormatArg::Ndjson => Format::Ndjson,
        });
    }
    if path == Path::new("-") {
        return Err(Failure::usage(
            "-o - writes to standard output: say which format with --format (arrows, csv or ndjson)",
        ));
    }
    Format::from_path(path).map_err(|e| Failure::usage(format!("{}: {e}", path.display())))
}

/// Batches waiting for a table's writer thread, at most (besides the one it writes): none,
/// the builder hands a batch over when the writer is done with the previous one, so at most
/// two batches of a table are alive (one written, one being built).
const WRITER_DEPTH: usize = 0;

/// One table's output: its name (for messages), builder and writer.
struct Table<B> {
    name: String,
    builder: B,
    writer: WriterThread<Output>,
}

/// Opens the table output at `path` (`-`: standard output, stream formats only), through
/// [`Output`]: a file appears under its name only when the run completes.
fn open(
    path: &Path,
    format: Format,
    schema: SchemaRef,
) -> Result<(String, WriterThread<Output>), Failure> {
    let out = if path == Path::new("-") {
        if !format.is_stream() {
            return Err(Failure::usage(
                "Parquet and the Arrow file format end with a footer: write them to a file, not standard output",
            ));
        }
        Output::stdout()
    } else {
        Output::file(path)?
    };
    let name = out.name().to_string();
    let writer = TableWriter::new(out, format, schema)
        .and_then(|writer| WriterThread::spawn(writer, WRITER_DEPTH))
        .map_err(|e| Failure::usage(format!("{name}: {e}")))?;
    Ok((name, writer))
}

/// A table writer's error, as an error of the output `name`.
fn other(name: &str, e: pgnkit_arrow::Error) -> io::Error {
    OutputError::other(name, e)
}

/// Writes a table's last batch and its footer; the output is then ready to be put in place.
fn close<B>(
    table: Table<B>,
    batch: Result<RecordBatch, pgnkit_arrow::Error>,
) -> Result<Output, Failure> {
    let name = table.name;
    let fail = |e: pgnkit_arrow::Error| Failure::usage(format!("cannot write {name}: {e}"));
    let mut writer = table.writer;
    writer.write(batch.map_err(fail)?).map_err(fail)?;
    writer.finish().map_err(fail)
}

/// Runs `pgnkit convert`.
pub fn run(args: &ConvertArgs) -> Result<Outcome, Failure> {
    let stdout = args.output == Path::new("-");
    let output = (!stdout).then(|| args.output.clone());
    check_plan(
        &args.inputs,
        &[
            ("-o", &output),
            ("--moves", &args.moves),
            ("--rejects", &args.rejects),
        ],
        stdout,
    )?;
    let options = TableOptions {
        fen: args.fen,
        errors: args.keep_broken,
    };
    let job = ConvertJob {
        read: read_options(&args.inputs),
        record: RecordOptions { fen: args.fen },
        keep_broken: args.keep_broken,
    };
    let games_format = format_of(&args.output, args.format)?;
    let (name, writer) = open(&args.output, games_format, GamesBuilder::schema(options))?;
    let mut games = Table {
        name,
        builder: GamesBuilder::new(options, BatchLimits::GAMES),
        writer,
    };
    let mut moves = match &args.moves {
        Some(path) => {
            let format = format_of(path, args.format)?;
            let (name, writer) = open(path, format, MovesBuilder::schema(options))?;
            Some(Table {
                name,
                builder: MovesBuilder::new(options, BatchLimits::MOVES),
                writer,
            })
        }
        None => None,
    };
    let mut rejects = args.rejects.as_deref().map(Output::file).transpose()?;
    let mut tally = Tally::new();
    let mut game_id = 0u64;
    let ended = pipeline::over_inputs(&args.inputs, &job, |source, game, output, _| {
        let (record, diagnostics) = output;
        tally.game(game.bytes.len(), &diagnostics);
        let id = game_id;
        game_id += 1;
        if let Some(record) = &record {
            let mut text = String::new();
            for warning in &record.warnings {
                text.push_str(&format!("{source}:{}:1: warning: {warning}\n", game.line));
                tally.warnings += 1;
            }
            if !text.is_empty() {
                console::write(&text)?;
            }
        }
        if diagnostics.has_errors() {
            let kept = (rejects.is_some() && !game.bytes.is_empty()) || args.keep_broken;
            console::write(&render::errors(source, &game, &diagnostics, kept))?;
            if let Some(file) = &mut rejects
                && !game.bytes.is_empty()
            {
                file.write_game(game.bytes)?;
            }
        }
        let Some(record) = record else {
            return Ok(());
        };
        if diagnostics.has_errors() {
            // Kept with its `errors` column: written, not rejected.
            tally.rejected -= 1;
            tally.written += 1;
        }
        games
            .builder
            .push(
                RowSource {
                    game_id: id,
                    source,
                },
                &record,
            )
            .map_err(|e| other(&games.name, e))?;
        if games.builder.is_full() {
            let batch = games.builder.finish().map_err(|e| other(&games.name, e))?;
            games
                .writer
                .write(batch)
                .map_err(|e| other(&games.name, e))?;
        }
        if let Some(moves) = &mut moves {
            moves.builder.push(id, &record);
            if moves.builder.is_full() {
                let batch = moves.builder.finish().map_err(|e| other(&moves.name, e))?;
                moves
                    .writer
                    .write(batch)
                    .map_err(|e| other(&moves.name, e))?;
            }
        }
        Ok(())
    })?;
    let mut outputs = Vec::new();
    if ended.complete() {
        let batch = games.builder.finish();
        outputs.push(close(games, batch)?);
        if let Some(mut moves) = moves {
            let batch = moves.builder.finish();
            outputs.push(close(moves, batch)?);
        }
    }
    outputs.extend(rejects);
    finish(ended, tally, outputs, false, ("convert", "written"))
}
