//! `select`'s games as a games table (convert's formats: Parquet, Arrow IPC,
//! CSV, NDJSON) when `-o` names one by its extension or `--format` says so:
//! the same `pgnkit-arrow` builder and writer as `pgnkit convert`, one row
//! per selected game (`--rejected` and `--duplicates` stay PGN).

use std::io;
use std::path::Path;

use pgnkit_arrow::{
    BatchLimits, Format, GameRecord, GamesBuilder, RowSource, TableOptions, TableWriter,
    WriterOptions,
};

use crate::args::FormatArg;
use crate::failure::Failure;
use crate::output::{Output, OutputError};

/// A games table being written.
pub struct TableOut {
    name: String,
    builder: GamesBuilder,
    writer: TableWriter<Output>,
}

/// The table format `-o` and `--format` ask for; `None` for PGN.
pub fn format_of(path: Option<&Path>, arg: Option<FormatArg>) -> Option<Format> {
    match arg {
        Some(arg) => Some(arg.format()),
        None => path.and_then(|p| Format::from_path(p).ok()),
    }
}

impl TableOut {
    /// Opens the table at `path` (standard output when `None`: stream formats only),
    /// written as `writing` says (a Parquet table's codec).
    pub fn open(
        path: Option<&Path>,
        format: Format,
        writing: WriterOptions,
    ) -> Result<TableOut, Failure> {
        let out = match path {
            Some(path) => Output::file(path)?,
            None if format.is_stream() => Output::stdout(),
            None => {
                return Err(Failure::usage(
                    "Parquet and the Arrow file format end with a footer: write them to a file with -o",
                ));
            }
        };
        let name = out.name().to_string();
        let options = TableOptions::default();
        let writer = TableWriter::with_options(out, format, GamesBuilder::schema(options), writing)
            .map_err(|e| Failure::usage(format!("{name}: {e}")))?;
        Ok(TableOut {
            name,
            builder: GamesBuilder::new(options, BatchLimits::GAMES),
            writer,
        })
    }

    /// The output's name, for messages.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Adds one game's row, `game_id` its place among the selected games (its batch is
    /// written when full).
    pub fn push(&mut self, game_id: u64, source: &str, record: &GameRecord) -> io::Result<()> {
        let name = &self.name;
        let err = |e: pgnkit_arrow::Error| OutputError::of_writer(name, &e);
        self.builder
            .push(RowSource { game_id, source }, record)
            .map_err(err)?;
        if self.builder.is_full() {
            let batch = self.builder.finish().map_err(err)?;
            self.writer.write(&batch).map_err(err)?;
        }
        Ok(())
    }

    /// Writes the last batch and the footer: the output is then ready to be put in place.
    pub fn close(mut self) -> Result<Output, Failure> {
        let name = self.name.clone();
        let fail =
            |e: pgnkit_arrow::Error| Failure::usage(OutputError::of_writer(&name, &e).to_string());
        let batch = self.builder.finish().map_err(fail)?;
        self.writer.write(&batch).map_err(fail)?;
        self.writer.finish().map_err(fail)
    }
}
