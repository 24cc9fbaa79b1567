//! Shared by the integration tests: write records as Parquet to a file
//! and read the tables back with the `parquet` crate.

#![allow(dead_code)]

use std::fs::File;
use std::path::{Path, PathBuf};

use arrow_array::RecordBatch;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use pgnkit_arrow::{
    BatchLimits, Format, GameRecord, GamesBuilder, MovesBuilder, RowSource, TableOptions,
    TableWriter,
};

/// A fresh path under Cargo's temporary folder for integration tests.
pub fn temp_path(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("pgnkit-arrow");
    std::fs::create_dir_all(&dir).expect("create the temporary folder");
    dir.join(name)
}

/// Writes the games and moves tables of `records` as two Parquet files,
/// in batches as small as `limits` say (so several batches and row groups
/// are exercised).
pub fn write_parquet(
    records: &[GameRecord],
    source: &str,
    options: TableOptions,
    games_path: &Path,
    moves_path: &Path,
) {
    let limits = BatchLimits {
        rows: 1000,
        bytes: 1 << 20,
    };
    let mut games = GamesBuilder::new(options, limits);
    let mut moves = MovesBuilder::new(
        options,
        BatchLimits {
            rows: 20_000,
            ..limits
        },
    );
    let open = |path: &Path| File::create(path).expect("create a Parquet file");
    let mut games_out = TableWriter::new(
        open(games_path),
        Format::Parquet,
        GamesBuilder::schema(options),
    )
    .unwrap();
    let mut moves_out = TableWriter::new(
        open(moves_path),
        Format::Parquet,
        MovesBuilder::schema(options),
    )
    .unwrap();
    for (i, record) in records.iter().enumerate() {
        let game_id = i as u64;
        games.push(RowSource { game_id, source }, record).unwrap();
        moves.push(game_id, record);
        if games.is_full() {
            games_out.write(&games.finish().unwrap()).unwrap();
        }
        if moves.is_full() {
            moves_out.write(&moves.finish().unwrap()).unwrap();
        }
    }
    games_out.write(&games.finish().unwrap()).unwrap();
    moves_out.write(&moves.finish().unwrap()).unwrap();
    games_out.finish().unwrap();
    moves_out.finish().unwrap();
}

/// Every batch of a Parquet file, through the `parquet` crate's Arrow reader.
pub fn read_parquet(path: &Path) -> Vec<RecordBatch> {
    let file = File::open(path).expect("open a written Parquet file");
    ParquetRecordBatchReaderBuilder::try_new(file)
        .expect("a Parquet footer")
        .build()
        .expect("a reader")
        .collect::<Result<Vec<_>, _>>()
        .expect("every batch reads back")
}
