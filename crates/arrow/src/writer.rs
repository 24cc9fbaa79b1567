//! Writing record batches: [`TableWriter`] over Parquet (zstd level 1 unless
//! [`WriterOptions`] say another [`ParquetCompression`], dictionary strings, row groups
//! of bounded size; `time32[s]` stored as milliseconds, the finest unit Parquet has that
//! every reader knows), Arrow IPC file and stream, CSV (nested columns JSON-encoded) and
//! NDJSON, each arrow-rs's own writer.

use std::io::Write;
use std::path::Path;
use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::types::{Time32MillisecondType, Time32SecondType};
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{DataType, Field, Schema, SchemaRef, TimeUnit};
use parquet::arrow::ArrowWriter;
use parquet::basic::Encoding;
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet::schema::types::ColumnPath;

use crate::compression::ParquetCompression;
use crate::error::Error;

/// An output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// Apache Parquet (`.parquet`).
    Parquet,
    /// Arrow IPC file format (`.arrow`, random access, needs its footer).
    Arrow,
    /// Arrow IPC stream format (`.arrows`).
    ArrowStream,
    /// CSV with a header line (`.csv`); nested columns (`tags`, `nags`,
    /// `errors`) are written as JSON text.
    Csv,
    /// One JSON object per row (`.ndjson`, `.jsonl`).
    Ndjson,
}

impl Format {
    /// The format named by a file's extension.
    pub fn from_path(path: &Path) -> Result<Format, Error> {
        let extension = path
            .extension()
            .and_then(|e| e.to_str())
            .unwrap_or_default();
        Format::from_name(extension).ok_or_else(|| Error::UnknownFormat(extension.to_owned()))
    }

    /// The format of a name or extension (`parquet`, `arrow`, `arrows`,
    /// `csv`, `ndjson`, `jsonl`), any case.
    pub fn from_name(name: &str) -> Option<Format> {
        Some(match name.to_ascii_lowercase().as_str() {
            "parquet" => Format::Parquet,
            "arrow" | "feather" => Format::Arrow,
            "arrows" => Format::ArrowStream,
            "csv" => Format::Csv,
            "ndjson" | "jsonl" => Format::Ndjson,
            _ => return None,
        })
    }

    /// Whether the format can be written to a pipe as it goes (every one
    /// but Parquet and the Arrow file format, which end with a footer).
    pub fn is_stream(self) -> bool {
        matches!(self, Format::ArrowStream | Format::Csv | Format::Ndjson)
    }
}

/// Parquet row groups are cut at this many rows...
///
/// The moves table's rows are small: 256Ki of them are about 4 MB of encoded
/// data, under [`ROW_GROUP_BYTES`]. With 64Ki rows its row groups were four
/// times as many (51 for the bench file, now 14), and every row group keeps
/// its metadata in the writer until the footer: the peak RSS of `convert`
/// grew with the input about twice as fast (docs/performance-history.md,
/// "Session 11: moves row groups of 256Ki rows").
pub const ROW_GROUP_ROWS: usize = 256 * 1024;
/// ...or when the row group's estimated encoded size passes this many bytes
/// (Parquet keeps a whole row group in memory until it is written).
pub const ROW_GROUP_BYTES: usize = 6 << 20;

/// Bytes of a data page, and of a dictionary page, per column.
pub const PAGE_BYTES: usize = 256 << 10;

/// Columns written without a dictionary: their values rarely repeat, or (`ply`) plain
/// encoding and zstd store them nearly as small for less work (the dictionary on `ply`
/// cost 14 M instructions of `convert` on the guard's sample, to save 0.2% of the moves
/// file; docs/performance.md, "Parquet writer settings").
const UNIQUE_COLUMNS: &[&str] = &[
    "game_id",
    "offset",
    "movetext",
    "final_fen",
    "fen",
    "comment",
    "ply",
    "clock",
    "emt",
];

/// Integer columns written `DELTA_BINARY_PACKED`: ascending (`game_id`, `offset`) or
/// slowly changing (`clock`, `emt`), so their differences pack into a few bits. On the
/// guard's sample the moves file came out 6% smaller than plain and zstd (`game_id` 21 kB
/// to 4 kB, `clock` 287 kB to 245 kB), for fewer instructions; `ply` (1, 2, 3, ... in
/// each game) came out larger so, and stays plain. pyarrow, DuckDB and Spark read it.
const DELTA_COLUMNS: &[&str] = &["game_id", "offset", "clock", "emt"];

/// Text columns written `DELTA_LENGTH_BYTE_ARRAY` without a dictionary: `piece`, one letter
/// of six a row. Its lengths (all 1) pack to nothing and zstd takes the letters to about as
/// few bits as the dictionary's indices, without the dictionary's hashing of each value: on
/// the guard's sample 6.3 M instructions (1%) less for 2.2 kB (0.26%) more of the moves
/// file. The squares so cost 2.5% of the file each for 3.5 M, SAN and UCI more instructions,
/// and stay dictionary-coded. pyarrow, DuckDB and Spark read it.
const DELTA_LENGTH_COLUMNS: &[&str] = &["piece"];

/// Text columns without min/max statistics (the names are the three tables'): nobody
/// filters row groups on the range of a SAN, a comment or a FEN, and keeping each chunk's
/// minimum and maximum compared every value twice (56 M instructions, 6% of `convert` on
/// the guard's sample). Tags, dates, ratings and the ids keep theirs.
const NO_STATISTICS_COLUMNS: &[&str] = &[
    "san",
    "uci",
    "comment",
    "piece",
    "from_square",
    "to_square",
    "promotion",
    "movetext",
    "final_fen",
    "fen",
    "epd",
];

/// How a [`TableWriter`] writes: for Parquet outputs, the codec of every column
/// (the other formats have none and take no option yet). The default is what
/// [`TableWriter::new`] writes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct WriterOptions {
    /// The codec of a Parquet output's pages (default zstd level 1).
    pub compression: ParquetCompression,
}

/// The Parquet writer's properties with the default [`WriterOptions`] (zstd level 1):
/// [`WriterOptions::parquet_properties`].
pub fn parquet_properties() -> Result<WriterProperties, Error> {
    WriterOptions::default().parquet_properties()
}

impl WriterOptions {
    /// The Parquet writer's properties: the codec of [`WriterOptions::compression`] (by
    /// default zstd level 1: at level 3 zstd was the largest single cost in a profile of
    /// `convert` on the bench file), dictionary-encoded columns (strings repeat: names,
    /// events, SAN), bounded row groups; per column: no dictionary for the ids, clocks,
    /// plies and long texts, `DELTA_BINARY_PACKED` for the ids, offsets and clocks,
    /// `DELTA_LENGTH_BYTE_ARRAY` for the piece letters, no min/max statistics for the move
    /// and position texts, each measured (docs/performance.md, "Parquet writer settings").
    /// A zstd level outside 1 to 22 is an error.
    pub fn parquet_properties(&self) -> Result<WriterProperties, Error> {
        let mut builder = WriterProperties::builder()
            .set_compression(self.compression.codec()?)
            .set_dictionary_enabled(true)
            // Each column buffers a data page and a dictionary page before they
            // are compressed: with ~50 columns the defaults (1 MiB each) alone
            // could reach 100 MiB.
            .set_dictionary_page_size_limit(PAGE_BYTES)
            .set_data_page_size_limit(PAGE_BYTES)
            // Statistics per column chunk, not per page: the page index is kept
            // in memory until the footer, so it would grow with the input.
            .set_statistics_enabled(EnabledStatistics::Chunk)
            .set_max_row_group_row_count(Some(ROW_GROUP_ROWS))
            .set_max_row_group_bytes(Some(ROW_GROUP_BYTES));
        for column in UNIQUE_COLUMNS {
            builder = builder.set_column_dictionary_enabled(ColumnPath::from(*column), false);
        }
        for column in DELTA_COLUMNS {
            builder = builder
                .set_column_encoding(ColumnPath::from(*column), Encoding::DELTA_BINARY_PACKED);
        }
        for column in DELTA_LENGTH_COLUMNS {
            builder = builder
                .set_column_dictionary_enabled(ColumnPath::from(*column), false)
                .set_column_encoding(ColumnPath::from(*column), Encoding::DELTA_LENGTH_BYTE_ARRAY);
        }
        for column in NO_STATISTICS_COLUMNS {
            builder = builder
                .set_column_statistics_enabled(ColumnPath::from(*column), EnabledStatistics::None);
        }
        Ok(builder.build())
    }
}

/// Parquet has no time unit of seconds: a `time32[s]` column would be
/// stored as a bare int32 that only arrow-rs reads back as a time. Such
/// columns are written as `time32[ms]` (Parquet `TIME(MILLIS)`), which
/// DuckDB, pyarrow and Spark all read as a time of day.
fn parquet_schema(schema: &SchemaRef) -> SchemaRef {
    let fields: Vec<Field> = schema
        .fields()
        .iter()
        .map(|field| match field.data_type() {
            DataType::Time32(TimeUnit::Second) => field
                .as_ref()
                .clone()
                .with_data_type(DataType::Time32(TimeUnit::Millisecond)),
            _ => field.as_ref().clone(),
        })
        .collect();
    Arc::new(Schema::new_with_metadata(fields, schema.metadata().clone()))
}

/// `batch` with its `time32[s]` columns in milliseconds, as [`parquet_schema`].
fn parquet_batch(batch: &RecordBatch, schema: &SchemaRef) -> Result<RecordBatch, Error> {
    let columns: Vec<ArrayRef> = batch
        .columns()
        .iter()
        .map(|column| match column.data_type() {
            DataType::Time32(TimeUnit::Second) => {
                let seconds = column.as_primitive::<Time32SecondType>();
                Arc::new(seconds.unary::<_, Time32MillisecondType>(|s| s * 1000)) as ArrayRef
            }
            _ => column.clone(),
        })
        .collect();
    Ok(RecordBatch::try_new(schema.clone(), columns)?)
}

enum Inner<W: Write + Send> {
    Parquet(ArrowWriter<W>, SchemaRef),
    Arrow(arrow_ipc::writer::FileWriter<W>),
    ArrowStream(arrow_ipc::writer::StreamWriter<W>),
    Csv(arrow_csv::Writer<W>),
    Ndjson(arrow_json::LineDelimitedWriter<W>),
}

/// Writes batches of one schema in one format; [`finish`](TableWriter::finish)
/// writes what the format needs at its end (a footer) and gives the output
/// back.
pub struct TableWriter<W: Write + Send> {
    inner: Inner<W>,
}

impl<W: Write + Send> std::fmt::Debug for TableWriter<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let name = match &self.inner {
            Inner::Parquet(..) => "Parquet",
            Inner::Arrow(_) => "Arrow",
            Inner::ArrowStream(_) => "ArrowStream",
            Inner::Csv(_) => "Csv",
            Inner::Ndjson(_) => "Ndjson",
        };
        f.debug_struct("TableWriter")
            .field("format", &name)
            .finish()
    }
}

impl<W: Write + Send> TableWriter<W> {
    /// A writer of batches with `schema` to `out`, with the default [`WriterOptions`]
    /// (Parquet: zstd level 1).
    pub fn new(out: W, format: Format, schema: SchemaRef) -> Result<TableWriter<W>, Error> {
        TableWriter::with_options(out, format, schema, WriterOptions::default())
    }

    /// A writer of batches with `schema` to `out`, written as `options` say (a Parquet
    /// output's codec; the other formats have no option yet and ignore them).
    pub fn with_options(
        out: W,
        format: Format,
        schema: SchemaRef,
        options: WriterOptions,
    ) -> Result<TableWriter<W>, Error> {
        let inner = match format {
            Format::Parquet => {
                let schema = parquet_schema(&schema);
                let properties = options.parquet_properties()?;
                let writer = ArrowWriter::try_new(out, schema.clone(), Some(properties))?;
                Inner::Parquet(writer, schema)
            }
            Format::Arrow => Inner::Arrow(arrow_ipc::writer::FileWriter::try_new(out, &schema)?),
            Format::ArrowStream => {
                Inner::ArrowStream(arrow_ipc::writer::StreamWriter::try_new(out, &schema)?)
            }
            Format::Csv => Inner::Csv(arrow_csv::WriterBuilder::new().with_header(true).build(out)),
            Format::Ndjson => Inner::Ndjson(arrow_json::LineDelimitedWriter::new(out)),
        };
        Ok(TableWriter { inner })
    }

    /// Writes one batch.
    pub fn write(&mut self, batch: &RecordBatch) -> Result<(), Error> {
        match &mut self.inner {
            Inner::Parquet(writer, schema) => writer.write(&parquet_batch(batch, schema)?)?,
            Inner::Arrow(writer) => writer.write(batch)?,
            Inner::ArrowStream(writer) => writer.write(batch)?,
            Inner::Csv(writer) => writer.write(&crate::csv::flatten(batch)?)?,
            Inner::Ndjson(writer) => writer.write(batch)?,
        }
        Ok(())
    }

    /// Ends the output (footer, last row group) and returns it.
    pub fn finish(self) -> Result<W, Error> {
        Ok(match self.inner {
            Inner::Parquet(writer, _) => writer.into_inner()?,
            Inner::Arrow(mut writer) => {
                writer.finish()?;
                writer.into_inner()?
            }
            Inner::ArrowStream(mut writer) => {
                writer.finish()?;
                writer.into_inner()?
            }
            Inner::Csv(writer) => writer.into_inner(),
            Inner::Ndjson(mut writer) => {
                writer.finish()?;
                writer.into_inner()
            }
        })
    }
}
