//! A Parquet output's codec (`WriterOptions::compression`): each codec's file reads back as
//! the table written, its metadata names the codec, a zstd level is the one given, and the
//! default options write the bytes `TableWriter::new` always wrote.

mod support;

use std::fs::File;
use std::path::Path;
use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::types::{Time32MillisecondType, Time32SecondType};
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{DataType, Field, Schema, TimeUnit};
use parquet::basic::Compression;
use parquet::file::reader::{FileReader, SerializedFileReader};
use pgnkit_arrow::{
    BatchLimits, Format, GamesBuilder, MovesBuilder, ParquetCompression, RecordOptions,
    RecordVisitor, RowSource, TableOptions, TableWriter, WriterOptions,
};
use pgnkit_game::{ReadOptions, visit_games_with};

/// Games with the columns that compress differently: tags and a UTC time, clocks, evals,
/// comments, NAGs; repeated so that the pages are worth compressing.
fn tables() -> (RecordBatch, RecordBatch) {
    let game = "[Event \"Rated Blitz\"]\n[White \"Alice\"]\n[Black \"Bob\"]\n[WhiteElo \"2100\"]\n\
        [UTCDate \"2024.01.31\"]\n[UTCTime \"12:34:56\"]\n[Result \"1-0\"]\n\n\
        1. e4 { [%clk 0:03:00] [%eval 0.25] a fine move } e5 $1 2. Nf3 { [%clk 0:02:58] } \
        Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 1-0\n\n";
    let pgn = game.repeat(300);
    let options = TableOptions::default();
    let limits = BatchLimits {
        rows: 1 << 20,
        bytes: 1 << 30,
    };
    let mut games = GamesBuilder::new(options, limits);
    let mut moves = MovesBuilder::new(options, limits);
    let records = visit_games_with(
        pgn.as_bytes(),
        RecordVisitor::new(RecordOptions::default()),
        ReadOptions::new(),
    );
    for (i, read) in records.enumerate() {
        let game_id = i as u64;
        let source = "a.pgn";
        games
            .push(RowSource { game_id, source }, &read.value)
            .unwrap();
        moves.push(game_id, &read.value);
    }
    (games.finish().unwrap(), moves.finish().unwrap())
}

/// `batch` as Parquet stores it: `time32[s]` columns in milliseconds (Parquet has no unit
/// of seconds; the writer's doc).
fn as_stored(batch: &RecordBatch) -> RecordBatch {
    let mut fields = Vec::new();
    let mut columns: Vec<ArrayRef> = Vec::new();
    for (field, column) in batch.schema().fields().iter().zip(batch.columns()) {
        if field.data_type() == &DataType::Time32(TimeUnit::Second) {
            let seconds = column.as_primitive::<Time32SecondType>();
            columns.push(Arc::new(
                seconds.unary::<_, Time32MillisecondType>(|s| s * 1000),
            ));
            let millis = DataType::Time32(TimeUnit::Millisecond);
            fields.push(Field::clone(field).with_data_type(millis));
        } else {
            columns.push(column.clone());
            fields.push(Field::clone(field));
        }
    }
    let schema = Schema::new_with_metadata(fields, batch.schema().metadata().clone());
    RecordBatch::try_new(Arc::new(schema), columns).unwrap()
}

fn write(path: &Path, batch: &RecordBatch, options: Option<WriterOptions>) {
    let out = File::create(path).unwrap();
    let schema = batch.schema();
    let mut writer = match options {
        Some(options) => TableWriter::with_options(out, Format::Parquet, schema, options),
        None => TableWriter::new(out, Format::Parquet, schema),
    }
    .unwrap();
    writer.write(batch).unwrap();
    writer.finish().unwrap();
}

/// The file's rows, batch after batch, equal `batch`'s.
fn assert_reads_back(path: &Path, batch: &RecordBatch) {
    let want = as_stored(batch);
    let mut at = 0;
    for back in support::read_parquet(path) {
        assert_eq!(
            back,
            want.slice(at, back.num_rows()),
            "{}: rows from {at}",
            path.display()
        );
        at += back.num_rows();
    }
    assert_eq!(at, want.num_rows(), "{}", path.display());
}

/// Every column chunk's codec in the file's metadata.
fn codecs(path: &Path) -> Vec<Compression> {
    let reader = SerializedFileReader::new(File::open(path).unwrap()).unwrap();
    let metadata = reader.metadata();
    assert!(metadata.num_row_groups() > 0);
    metadata
        .row_groups()
        .iter()
        .flat_map(|group| group.columns().iter().map(|c| c.compression()))
        .collect()
}

#[test]
fn each_codec_reads_back_and_is_named_in_the_metadata() {
    let (games, moves) = tables();
    assert_eq!(games.num_rows(), 300);
    let cases = [
        ParquetCompression::Zstd(1),
        ParquetCompression::Zstd(9),
        ParquetCompression::Lz4,
        ParquetCompression::Snappy,
        ParquetCompression::None,
    ];
    for compression in cases {
        // The codec, not its level: Parquet does not store zstd's level.
        let want = std::mem::discriminant(&compression.codec().unwrap());
        let is_codec = |c: &Compression| std::mem::discriminant(c) == want;
        for (table, batch) in [("games", &games), ("moves", &moves)] {
            let path = support::temp_path(&format!("codec-{compression}-{table}.parquet"));
            write(&path, batch, Some(WriterOptions { compression }));
            assert_reads_back(&path, batch);
            let codecs = codecs(&path);
            assert!(
                codecs.iter().all(is_codec),
                "{compression} {table}: {codecs:?}"
            );
        }
    }
}

#[test]
fn the_default_writes_zstd_level_1_as_before() {
    let (games, moves) = tables();
    for (table, batch) in [("games", &games), ("moves", &moves)] {
        let plain = support::temp_path(&format!("default-new-{table}.parquet"));
        let with_default = support::temp_path(&format!("default-options-{table}.parquet"));
        let level_1 = support::temp_path(&format!("default-zstd1-{table}.parquet"));
        write(&plain, batch, None);
        write(&with_default, batch, Some(WriterOptions::default()));
        let zstd_1 = WriterOptions {
            compression: "zstd:1".parse().unwrap(),
        };
        write(&level_1, batch, Some(zstd_1));
        let bytes = std::fs::read(&plain).unwrap();
        assert_eq!(bytes, std::fs::read(&with_default).unwrap(), "{table}");
        assert_eq!(bytes, std::fs::read(&level_1).unwrap(), "{table}");
    }
}

#[test]
fn a_zstd_level_is_the_one_given() {
    // The level is not stored in the file (Parquet records the codec only): a higher one
    // gives other, smaller pages of the same rows.
    let (_, moves) = tables();
    let sizes: Vec<(Vec<u8>, u64)> = [1, 19]
        .into_iter()
        .map(|level| {
            let path = support::temp_path(&format!("level-{level}.parquet"));
            let compression = format!("zstd:{level}").parse().unwrap();
            write(&path, &moves, Some(WriterOptions { compression }));
            assert_reads_back(&path, &moves);
            let reader = SerializedFileReader::new(File::open(&path).unwrap()).unwrap();
            let compressed: i64 = reader
                .metadata()
                .row_groups()
                .iter()
                .map(|group| group.compressed_size())
                .sum();
            (std::fs::read(&path).unwrap(), compressed as u64)
        })
        .collect();
    assert_ne!(sizes[0].0, sizes[1].0, "level 19 writes other bytes");
    assert!(
        sizes[1].1 < sizes[0].1,
        "level 19 {} bytes, level 1 {}",
        sizes[1].1,
        sizes[0].1
    );
}

#[test]
fn a_zstd_level_out_of_range_is_an_error_not_a_panic() {
    let (games, _) = tables();
    for level in [0, 23] {
        let compression = ParquetCompression::Zstd(level);
        let result = TableWriter::with_options(
            Vec::new(),
            Format::Parquet,
            games.schema(),
            WriterOptions { compression },
        );
        assert!(result.is_err(), "zstd level {level}");
    }
    let message = "zstd:23".parse::<ParquetCompression>().unwrap_err();
    assert!(message.to_string().contains("from 1 to 22"), "{message}");
}

#[test]
fn other_formats_take_the_options_and_write_what_they_always_wrote() {
    let (games, _) = tables();
    let compression = ParquetCompression::Snappy;
    for format in [
        Format::Arrow,
        Format::ArrowStream,
        Format::Csv,
        Format::Ndjson,
    ] {
        let mut plain = TableWriter::new(Vec::new(), format, games.schema()).unwrap();
        plain.write(&games).unwrap();
        let options = WriterOptions { compression };
        let mut given =
            TableWriter::with_options(Vec::new(), format, games.schema(), options).unwrap();
        given.write(&games).unwrap();
        assert_eq!(
            plain.finish().unwrap(),
            given.finish().unwrap(),
            "{format:?}"
        );
    }
}
