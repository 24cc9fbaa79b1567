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

use crate::args::{ConvertArgs, FormatArg, Inputs};
use crate::failure::Failure;
use crate::options::read_options;
use crate::outcome::{Outcome, finish};
use crate::output::{Output, OutputError};
use crate::paths::check_plan;
use crate::pipeline::{self, Game, Job};
use crate::tally::Tally;
use crate::{console, render};

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

/// One table's output: one file (or standard output), or with `--split-every` parts named
/// after it (`games-0001.parquet`...), part `k` holding the games read `(k-1)*N` to `k*N-1`
/// (by `game_id`, so the games and moves tables split alike). A part is put in place when
/// the first batch of a later part comes; the last at the end of the run.
struct Table<'a> {
    /// The `-o` (or `--moves`) path the parts are named after.
    path: std::path::PathBuf,
    format: Format,
    schema: SchemaRef,
    /// Games per part, with `--split-every`.
    every: Option<u64>,
    /// The file being written.
    current: Option<PartFile>,
    /// A batch went to the current file (else it gets an empty one at its end, so that a
    /// CSV table has its header).
    written: bool,
    /// The inputs, that no part may overwrite.
    inputs: &'a Inputs,
}

/// One file of a table: the whole table, or one part of it with `--split-every`.
struct PartFile {
    /// The file's name, for messages.
    name: String,
    /// Its part (0 without `--split-every`).
    part: u64,
    writer: WriterThread<Output>,
}

impl PartFile {
    /// Waits for the writer to write its batches and footer; the output is then ready to
    /// be put in place.
    fn close(self) -> Result<Output, Failure> {
        let name = self.name;
        self.writer
            .finish()
            .map_err(|e| Failure::usage(format!("cannot write {name}: {e}")))
    }
}

impl Table<'_> {
    /// Writes a worker's batches, their `game_id`s counted from `first`.
    fn write(
        &mut self,
        batches: Result<Vec<RecordBatch>, pgnkit_arrow::Error>,
        first: u64,
    ) -> io::Result<()> {
        let name = self.path.display().to_string();
        for batch in batches.map_err(|e| other(&name, e))? {
            let batch = pgnkit_arrow::renumber(&batch, first).map_err(|e| other(&name, e))?;
            let pieces = match self.every {
                Some(every) => pgnkit_arrow::parts_by_game_id(&batch, every),
                None => vec![(0, batch)],
            };
            for (part, piece) in pieces {
                let file = self.part(part).map_err(|f| OutputError::other(&name, f))?;
                file.writer.write(piece).map_err(|e| other(&file.name, e))?;
                self.written = true;
            }
        }
        Ok(())
    }

    /// The writer of `part`: the current one, or a new file after the current one is put
    /// in place.
    fn part(&mut self, part: u64) -> Result<&mut PartFile, Failure> {
        if self.current.as_ref().is_some_and(|file| file.part != part)
            && let Some(done) = self.current.take()
        {
            done.close()?.finish()?;
        }
        let table = match self.current.take() {
            Some(table) => table,
            None => {
                self.written = false;
                self.open(part)?
            }
        };
        Ok(self.current.insert(table))
    }

    /// Opens the file of `part` (`-`: standard output, stream formats only), through
    /// [`Output`]: a file appears under its name only when it is complete.
    fn open(&self, part: u64) -> Result<PartFile, Failure> {
        let out = if self.path == Path::new("-") {
            Output::stdout()
        } else if self.every.is_some() {
            let path = crate::split::named(&self.path, &format!("{:04}", part + 1));
            check_plan(self.inputs, &[("-o", &Some(path.clone()))], false)?;
            Output::file(&path)?
        } else {
            Output::file(&self.path)?
        };
        let name = out.name().to_string();
        let writer = TableWriter::new(out, self.format, self.schema.clone())
            .and_then(|writer| WriterThread::spawn(writer, WRITER_DEPTH))
            .map_err(|e| Failure::usage(format!("{name}: {e}")))?;
        Ok(PartFile { name, part, writer })
    }

    /// Ends the table when the run is complete (a table with no rows gets one file, with the
    /// CSV header), and gives the output to put in place; an unfinished part is dropped.
    fn close(mut self, complete: bool) -> Result<Option<Output>, Failure> {
        if !complete {
            return Ok(None);
        }
        let mut file = match self.current.take() {
            Some(current) => current,
            None => self.open(0)?,
        };
        if !self.written {
            file.writer
                .write(RecordBatch::new_empty(self.schema.clone()))
                .map_err(|e| Failure::usage(format!("cannot write {}: {e}", file.name)))?;
        }
        file.close().map(Some)
    }
}

/// A table's format and path checked (`-`: stream formats only), with its parts
/// (`--split-every`: a file, not standard output); no file is opened yet.
fn table<'a>(
    path: &Path,
    format: Format,
    schema: SchemaRef,
    every: Option<u64>,
    inputs: &'a Inputs,
) -> Result<Table<'a>, Failure> {
    if path == Path::new("-") {
        if !format.is_stream() {
            return Err(Failure::usage(
                "Parquet and the Arrow file format end with a footer: write them to a file, not standard output",
            ));
        }
        if every.is_some() {
            return Err(Failure::usage(
                "--split-every names its files after -o OUT: give a file, not standard output",
            ));
        }
    }
    let mut table = Table {
        path: path.to_path_buf(),
        format,
        schema,
        every,
        current: None,
        written: false,
        inputs,
    };
    // One file is opened at once, so that an output that cannot be made fails the run
    // before anything is read; parts are opened as their games come.
    if every.is_none() {
        table.current = Some(table.open(0)?);
    }
    Ok(table)
}

/// A table writer's error, as an error of the output `name`.
fn other(name: &str, e: pgnkit_arrow::Error) -> io::Error {
    OutputError::other(name, e)
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
    let openings = crate::options::openings(args.classify, args.openings.as_deref())?;
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
    let every = args.split_every;
    let mut games = table(
        &args.output,
        games_format,
        GamesBuilder::schema(options),
        every,
        &args.inputs,
    )?;
    let mut moves = match &args.moves {
        Some(path) => {
            let format = format_of(path, args.format)?;
            let schema = MovesBuilder::schema(options);
            Some(table(path, format, schema, every, &args.inputs)?)
        }
        None => None,
    };
    let mut rejects = args.rejects.as_deref().map(Output::file).transpose()?;
    let mut tally = Tally::with_warnings(crate::options::warnings(&args.inputs));
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
        for warning in &warnings {
            let line = || format!("{source}:{}:1: warning: {warning}\n", game.line);
            tally.warn(&crate::warnings::tag_kind(warning), line)?;
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
    outputs.extend(games.close(ended.complete())?);
    if let Some(moves) = moves {
        outputs.extend(moves.close(ended.complete())?);
    }
    outputs.extend(rejects);
    finish(ended, tally, outputs, false, ("convert", "written"))
}
