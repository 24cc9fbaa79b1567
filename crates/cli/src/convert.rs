//! `pgnkit convert`: games into a games table, and on request a moves table
//! and a positions table (Parquet, Arrow IPC, CSV or NDJSON), through `pgnkit-arrow`'s
//! conversion (`TableJob`, `Placement`): the same job as the Python
//! package's tables.
//!
//! What stays here is the command's: its inputs (the pipeline), its messages
//! and tally, `--rejects`, and where each table's batches go: each table is
//! written on a thread of its own (`WriterThread`, handed over one batch at a
//! time), to one file or, with `--split-every`, to parts named after it.

use std::io;
use std::path::Path;

use pgnkit_arrow::arrow_array::RecordBatch;
use pgnkit_arrow::{
    ConversionOptions, Format, GameRow, Placement, STREAM_BATCH_BYTES, SchemaRef, TableJob,
    TableKind, TableState, TableWriter, WriterOptions, WriterThread,
};

use crate::args::{ConvertArgs, FormatArg, Inputs};
use crate::failure::Failure;
use crate::options::read_options;
use crate::outcome::{Outcome, finish};
use crate::output::{Output, OutputError};
use crate::paths::check_plan;
use crate::pipeline::{self, Game, Job};
use crate::tally::Tally;
use crate::{console, render};

/// The library's job on the command's pipeline: each game read with its input's name.
struct ConvertJob<'a>(TableJob<'a>);

impl Job for ConvertJob<'_> {
    type State = TableState;
    type Output = GameRow;
    const BATCHED: bool = true;
    const BATCH_BYTES: usize = STREAM_BATCH_BYTES;

    fn state(&self) -> TableState {
        self.0.state()
    }

    fn run(&self, state: &mut TableState, game: Game<'_, '_>, _text: &mut Vec<u8>) -> GameRow {
        self.0
            .run_game(state, game.source(), 0, |tee, read| game.visit(tee, read))
    }

    fn end_batch(&self, state: &mut TableState, rows: &mut [GameRow]) {
        self.0.end_batch(state, rows);
    }
}

impl FormatArg {
    /// The table format `--format` names (for `convert` and `select`'s tables).
    pub fn format(self) -> Format {
        match self {
            FormatArg::Parquet => Format::Parquet,
            FormatArg::Arrow => Format::Arrow,
            FormatArg::Arrows => Format::ArrowStream,
            FormatArg::Csv => Format::Csv,
            FormatArg::Ndjson => Format::Ndjson,
        }
    }
}

/// The format of an output: `--format`, else its extension.
fn format_of(path: &Path, arg: Option<FormatArg>) -> Result<Format, Failure> {
    if let Some(arg) = arg {
        return Ok(arg.format());
    }
    if path == Path::new("-") {
        return Err(Failure::usage(
            "-o - writes to standard output: say which format with --format (arrows, csv or ndjson)",
        ));
    }
    Format::from_path(path).map_err(|e| Failure::usage(format!("{}: {e}", path.display())))
}

/// How the tables are written: `--compression` is the codec of Parquet tables, refused
/// (exit 2) when a table is written in another format rather than ignored.
fn writer_options(args: &ConvertArgs) -> Result<WriterOptions, Failure> {
    let Some(compression) = args.compression else {
        return Ok(WriterOptions::default());
    };
    let paths = [
        Some(&args.output),
        args.moves.as_ref(),
        args.positions.as_ref(),
    ];
    for path in paths.into_iter().flatten() {
        if format_of(path, args.format)? != Format::Parquet {
            return Err(Failure::usage(format!(
                "--compression {compression} is for Parquet tables: {} is not written as Parquet",
                path.display()
            )));
        }
    }
    Ok(WriterOptions { compression })
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
    /// The `-o` (or `--moves`, `--positions`) path the parts are named after.
    path: std::path::PathBuf,
    format: Format,
    /// How the table's files are written (a Parquet table's codec).
    writer_options: WriterOptions,
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
            .map_err(|e| Failure::usage(OutputError::of_writer(&name, &e).to_string()))
    }
}

impl Table<'_> {
    /// Writes a batch's rows, placed (numbered and cut into parts).
    fn write(
        &mut self,
        batches: Result<Vec<(u64, RecordBatch)>, pgnkit_arrow::Error>,
    ) -> io::Result<()> {
        let name = self.path.display().to_string();
        for (part, piece) in batches.map_err(|e| other(&name, e))? {
            let file = self
                .part(part)
                .map_err(|f| OutputError::failure(&name, &f))?;
            file.writer.write(piece).map_err(|e| other(&file.name, e))?;
            self.written = true;
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
        let writer =
            TableWriter::with_options(out, self.format, self.schema.clone(), self.writer_options)
                // The file is synced on its writer's thread as soon as the table is written,
                // beside the other tables' writing; `finish` then only renames it.
                .and_then(|writer| {
                    WriterThread::spawn_then(writer, WRITER_DEPTH, |mut out: Output| {
                        out.sync().map(|()| out)
                    })
                })
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
                .map_err(|e| Failure::usage(OutputError::of_writer(&file.name, &e).to_string()))?;
        }
        file.close().map(Some)
    }
}

/// A table's format and path checked (`-`: stream formats only), with its parts
/// (`--split-every`: a file, not standard output); no file is opened yet.
fn table<'a>(
    path: &Path,
    format: Format,
    writer_options: WriterOptions,
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
        writer_options,
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
    OutputError::of_writer(name, &e)
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
            ("--positions", &args.positions),
            ("--rejects", &args.rejects),
        ],
        stdout,
    )?;
    let options = ConversionOptions {
        read: read_options(&args.inputs),
        games: true,
        moves: args.moves.is_some(),
        positions: args.positions.is_some(),
        fen: args.fen,
        keep_broken: args.keep_broken,
        openings: crate::options::openings(args.classify, args.openings.as_deref())?,
        split_every: args.split_every,
    };
    let every = args.split_every;
    let writer_options = writer_options(args)?;
    let games_format = format_of(&args.output, args.format)?;
    let mut games = table(
        &args.output,
        games_format,
        writer_options,
        options.schema(TableKind::Games),
        every,
        &args.inputs,
    )?;
    let extra = |path: &Option<std::path::PathBuf>, kind: TableKind| match path {
        Some(path) => {
            let format = format_of(path, args.format)?;
            let schema = options.schema(kind);
            table(path, format, writer_options, schema, every, &args.inputs).map(Some)
        }
        None => Ok(None),
    };
    let mut moves = extra(&args.moves, TableKind::Moves)?;
    let mut positions = extra(&args.positions, TableKind::Positions)?;
    let mut rejects = args.rejects.as_deref().map(Output::file).transpose()?;
    let mut tally = Tally::with_warnings(crate::options::warnings(&args.inputs));
    let mut placement = Placement::new(0, every);
    let job = ConvertJob(TableJob::new(&options));
    let ended = pipeline::over_inputs(&args.inputs, &job, |source, game, mut row, _| {
        tally.game(game.bytes.len(), &row.diagnostics);
        for warning in &row.warnings {
            let line = || format!("{source}:{}:1: warning: {warning}\n", game.line);
            tally.warn(&crate::warnings::tag_kind(warning), line)?;
        }
        let diagnostics = &row.diagnostics;
        if diagnostics.has_errors() {
            let saved = (rejects.is_some() && !game.bytes.is_empty()) || args.keep_broken;
            console::write(&render::errors(source, &game, diagnostics, saved))?;
            if let Some(file) = &mut rejects
                && !game.bytes.is_empty()
            {
                file.write_game(game.bytes)?;
            }
            if row.kept {
                // Kept with its `errors` column: written, not rejected.
                tally.rejected -= 1;
                tally.written += 1;
            }
        }
        if let Some(placed) = placement.place(&mut row) {
            // The batch's games end with this one.
            games.write(placed.games)?;
            if let Some(moves) = &mut moves {
                moves.write(placed.moves)?;
            }
            if let Some(positions) = &mut positions {
                positions.write(placed.positions)?;
            }
        }
        Ok(())
    })?;
    let mut outputs = Vec::new();
    outputs.extend(games.close(ended.complete())?);
    for table in [moves, positions].into_iter().flatten() {
        outputs.extend(table.close(ended.complete())?);
    }
    outputs.extend(rejects);
    finish(ended, tally, outputs, false, ("convert", "written"))
}
