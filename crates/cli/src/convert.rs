//! `pgnkit convert`: games into a games table and a moves table
//! (Parquet, Arrow IPC, CSV or NDJSON), through `pgnkit-arrow`.
//!
//! Workers read each game once through `pgnkit-arrow`'s `RecordTee`, as
//! the Python package's tables do: its `RecordVisitor` (tags, main-line
//! moves, clocks, evals) and the export `StreamWriter` (the `movetext`
//! column), and append the rows to the
//! builders of their batch of games (the pipeline's batches of 128 KiB of
//! games): at the batch's end its rows go, as a [`Piece`] of each table,
//! with the batch's last game to the main thread, which gets them in input
//! order, makes the `game_id`s the run's, reports warnings and errors, and
//! hands the batches on. Each table's batches are encoded and written on a
//! thread of its own (`WriterThread`, handed over one at a time), so
//! Parquet's encoding and compression run beside the reading and the two
//! tables beside each other.

use std::io;
use std::path::Path;

use pgnkit::export::{ExportOptions, StreamWriter};
use pgnkit::game::{Diagnostics, ReadOptions};
use pgnkit_arrow::arrow_array::RecordBatch;
use pgnkit_arrow::{
    BatchLimits, Format, GamesBuilder, MovesBuilder, RecordOptions, RecordTee, RowSource,
    SchemaRef, TableOptions, TableWriter, TagWarning, WriterThread,
};

use pgnkit::select::Openings;

use crate::args::{ConvertArgs, FormatArg};
use crate::failure::Failure;
use crate::output::{Output, OutputError};
use crate::pipeline::{self, Game, Job};
use crate::tally::Tally;
use crate::{Outcome, check_plan, console, finish, read_options, render};

/// A worker's state: the reading `RecordTee` and the builders that gather the rows of the batch
/// of games it is given.
struct Worker {
    tee: RecordTee<StreamWriter>,
    games: GamesBuilder,
    moves: Option<MovesBuilder>,
    /// Games of the batch so far (rejected ones too): a game's `game_id` within the batch.
    index: u64,
    /// Batches finished within the batch (a builder that filled up), in order.
    piece: Piece,
}

/// The rows of a batch of games, built on the worker that read them: handed to the main
/// thread with the batch's last game, whose `game_id`s are counted from the batch's first
/// game ([`renumber`](pgnkit_arrow::renumber) makes them the run's).
struct Piece {
    /// Games of the batch, read or rejected: its `game_id`s run from 0 to `count - 1`.
    count: u64,
    games: Result<Vec<RecordBatch>, pgnkit_arrow::Error>,
    moves: Result<Vec<RecordBatch>, pgnkit_arrow::Error>,
}

impl Piece {
    fn new() -> Piece {
        Piece {
            count: 0,
            games: Ok(Vec::new()),
            moves: Ok(Vec::new()),
        }
    }
}

/// What a worker hands over for a game.
struct Converted {
    diagnostics: Diagnostics,
    /// The game's row was built (not rejected).
    kept: bool,
    warnings: Vec<TagWarning>,
    /// With the last game of a batch: the batch's rows.
    piece: Option<Piece>,
}

struct ConvertJob {
    read: ReadOptions,
    record: RecordOptions,
    table: TableOptions,
    moves: bool,
    keep_broken: bool,
    /// `--classify`: the opening table.
    openings: Option<std::borrow::Cow<'static, Openings>>,
}

/// Bytes of games a worker turns into a piece of each table: about 60 games of the bench
/// file, 5,000 moves. With 256 KiB the peak RSS on the bench file was 12 MB higher (the
/// pieces in flight between the workers, the main thread and the writers), for 0.5% fewer
/// instructions; with 64 KiB, 1.3% more instructions than 128 KiB for no clear memory gain.
const CONVERT_BATCH_BYTES: usize = 1 << 17;

impl Job for ConvertJob {
    type State = Worker;
    type Output = Converted;
    const BATCHED: bool = true;
    const BATCH_BYTES: usize = CONVERT_BATCH_BYTES;

    fn state(&self) -> Worker {
        Worker {
            tee: RecordTee::new(
                self.record,
                StreamWriter::new(ExportOptions::export()),
                StreamWriter::game_text,
            ),
            games: GamesBuilder::new(self.table, BatchLimits::GAMES),
            moves: self
                .moves
                .then(|| MovesBuilder::new(self.table, BatchLimits::MOVES)),
            index: 0,
            piece: Piece::new(),
        }
    }

    fn run(&self, worker: &mut Worker, game: Game<'_, '_>, _text: &mut Vec<u8>) -> Converted {
        let game_id = worker.index;
        worker.index += 1;
        let source = game.source();
        let (mut record, diagnostics) = game.visit(&mut worker.tee, self.read);
        let broken = diagnostics.has_errors();
        if broken && !self.keep_broken {
            return Converted {
                diagnostics,
                kept: false,
                warnings: Vec::new(),
                piece: None,
            };
        }
        if let Some(table) = &self.openings {
            crate::select_table::classify_record(&mut record, table);
        }
        if broken {
            record.set_errors(&diagnostics);
        }
        let piece = &mut worker.piece;
        let pushed = worker.games.push(RowSource { game_id, source }, &record);
        if let Err(e) = pushed {
            pgnkit_arrow::append_batch(&mut piece.games, Err(e));
        }
        if worker.games.is_full() {
            pgnkit_arrow::append_batch(&mut piece.games, worker.games.finish());
        }
        if let Some(moves) = &mut worker.moves {
            moves.push(game_id, &record);
            if moves.is_full() {
                pgnkit_arrow::append_batch(&mut piece.moves, moves.finish());
            }
        }
        Converted {
            diagnostics,
            kept: true,
            warnings: std::mem::take(&mut record.warnings),
            piece: None,
        }
    }

    fn end_batch(&self, worker: &mut Worker, outputs: &mut [Converted]) {
        let mut piece = std::mem::replace(&mut worker.piece, Piece::new());
        piece.count = std::mem::take(&mut worker.index);
        pgnkit_arrow::append_batch(&mut piece.games, worker.games.finish());
        if let Some(moves) = &mut worker.moves {
            pgnkit_arrow::append_batch(&mut piece.moves, moves.finish());
        }
        if let Some(last) = outputs.last_mut() {
            last.piece = Some(piece);
        }
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

/// One table's output: its name (for messages) and writer.
struct Table {
    name: String,
    schema: SchemaRef,
    writer: WriterThread<Output>,
    /// A batch was written (the CSV header is written with the first).
    written: bool,
}

impl Table {
    /// Writes a worker's batches, their `game_id`s counted from `first`.
    fn write(
        &mut self,
        batches: Result<Vec<RecordBatch>, pgnkit_arrow::Error>,
        first: u64,
    ) -> io::Result<()> {
        let name = &self.name;
        for batch in batches.map_err(|e| other(name, e))? {
            let batch = pgnkit_arrow::renumber(&batch, first).map_err(|e| other(name, e))?;
            self.writer.write(batch).map_err(|e| other(name, e))?;
            self.written = true;
        }
        Ok(())
    }
}

/// Opens the table output at `path` (`-`: standard output, stream formats only), through
/// [`Output`]: a file appears under its name only when the run completes.
fn open(path: &Path, format: Format, schema: SchemaRef) -> Result<Table, Failure> {
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
    let writer = TableWriter::new(out, format, schema.clone())
        .and_then(|writer| WriterThread::spawn(writer, WRITER_DEPTH))
        .map_err(|e| Failure::usage(format!("{name}: {e}")))?;
    Ok(Table {
        name,
        schema,
        writer,
        written: false,
    })
}

/// A table writer's error, as an error of the output `name`.
fn other(name: &str, e: pgnkit_arrow::Error) -> io::Error {
    OutputError::other(name, e)
}

/// Writes a table's footer (after an empty batch when there were no rows, so that a CSV
/// table still has its header); the output is then ready to be put in place.
fn close(table: Table) -> Result<Output, Failure> {
    let name = table.name;
    let fail = |e: pgnkit_arrow::Error| Failure::usage(format!("cannot write {name}: {e}"));
    let mut writer = table.writer;
    if !table.written {
        writer
            .write(RecordBatch::new_empty(table.schema))
            .map_err(fail)?;
    }
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
    let openings = crate::select::openings_of(args.classify, args.openings.as_deref())?;
    let job = ConvertJob {
        read: read_options(&args.inputs),
        record: RecordOptions {
            fen: args.fen,
            // The games table alone needs the main line's length, not its
            // moves (classifying reads them).
            games_only: args.moves.is_none() && openings.is_none(),
        },
        table: options,
        moves: args.moves.is_some(),
        keep_broken: args.keep_broken,
        openings,
    };
    let games_format = format_of(&args.output, args.format)?;
    let mut games = open(&args.output, games_format, GamesBuilder::schema(options))?;
    let mut moves = match &args.moves {
        Some(path) => {
            let format = format_of(path, args.format)?;
            Some(open(path, format, MovesBuilder::schema(options))?)
        }
        None => None,
    };
    let mut rejects = args.rejects.as_deref().map(Output::file).transpose()?;
    let mut tally = Tally::new();
    // Games read so far: the next game's `game_id`.
    let mut game_id = 0u64;
    let ended = pipeline::over_inputs(&args.inputs, &job, |source, game, output, _| {
        let Converted {
            diagnostics,
            kept,
            warnings,
            piece,
        } = output;
        tally.game(game.bytes.len(), &diagnostics);
        game_id += 1;
        if !warnings.is_empty() {
            let mut text = String::new();
            for warning in &warnings {
                text.push_str(&format!("{source}:{}:1: warning: {warning}\n", game.line));
                tally.warnings += 1;
            }
            console::write(&text)?;
        }
        if diagnostics.has_errors() {
            let saved = (rejects.is_some() && !game.bytes.is_empty()) || args.keep_broken;
            console::write(&render::errors(source, &game, &diagnostics, saved))?;
            if let Some(file) = &mut rejects
                && !game.bytes.is_empty()
            {
                file.write_game(game.bytes)?;
            }
            if kept {
                // Kept with its `errors` column: written, not rejected.
                tally.rejected -= 1;
                tally.written += 1;
            }
        }
        if let Some(piece) = piece {
            // The batch's games end with this one.
            let first = game_id - piece.count;
            games.write(piece.games, first)?;
            if let Some(moves) = &mut moves {
                moves.write(piece.moves, first)?;
            }
        }
        Ok(())
    })?;
    let mut outputs = Vec::new();
    if ended.complete() {
        outputs.push(close(games)?);
        if let Some(moves) = moves {
            outputs.push(close(moves)?);
        }
    }
    outputs.extend(rejects);
    finish(ended, tally, outputs, false, ("convert", "written"))
}
