//! `ParquetThreads`: row groups encoded by an `EncoderPool` read back as
//! what `TableWriter` writes, cut at bounded sizes, and errors come back.

mod support;

use std::fs::File;
use std::io::Write;
use std::path::Path;
use std::sync::Arc;

use arrow_array::RecordBatch;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use pgnkit_arrow::{
    BatchLimits, EncoderPool, Format, GamesBuilder, MovesBuilder, ParquetThreads, ROW_GROUP_ROWS,
    RecordOptions, RecordVisitor, RowSource, TableOptions, TableWriter,
};
use pgnkit_game::{ReadOptions, visit_games_with};

/// 1,000 games of 80 plies (80,000 moves: more than one row group of
/// moves), each with an `Event` of 8,000 characters (8 MB of games: more
/// than a row group's Arrow bytes), as batches of the builders' usual
/// limits.
fn batches() -> (Vec<RecordBatch>, Vec<RecordBatch>) {
    let mut pgn = Vec::new();
    for i in 0..1000 {
        let event = format!("{i}{}", "e".repeat(8_000));
        pgn.extend_from_slice(format!("[Event \"{event}\"]\n[WhiteElo \"{i}\"]\n\n").as_bytes());
        for n in 0..20 {
            let m = 2 * n + 1;
            pgn.extend_from_slice(
                format!(
                    "{m}. Nf3 {{ [%clk 0:01:{:02}] }} Nf6 {}. Ng1 Ng8 ",
                    n,
                    m + 1
                )
                .as_bytes(),
            );
        }
        pgn.extend_from_slice(b"*\n\n");
    }
    let options = TableOptions::default();
    let mut games = GamesBuilder::new(options, BatchLimits::GAMES);
    let mut moves = MovesBuilder::new(options, BatchLimits::MOVES);
    let (mut game_batches, mut move_batches) = (Vec::new(), Vec::new());
    let visitor = RecordVisitor::new(RecordOptions::default());
    for (i, game) in visit_games_with(&pgn, visitor, ReadOptions::new()).enumerate() {
        let game_id = i as u64;
        let source = RowSource {
            game_id,
            source: "t.pgn",
        };
        assert_eq!(game.value.moves.len(), 80);
        games.push(source, &game.value).unwrap();
        moves.push(game_id, &game.value);
        if games.is_full() {
            game_batches.push(games.finish().unwrap());
        }
        if moves.is_full() {
            move_batches.push(moves.finish().unwrap());
        }
    }
    game_batches.push(games.finish().unwrap());
    move_batches.push(moves.finish().unwrap());
    (game_batches, move_batches)
}

/// The rows of a Parquet file as NDJSON, and its row groups' sizes.
fn rows_of(path: &Path) -> (Vec<u8>, Vec<i64>) {
    let builder = ParquetRecordBatchReaderBuilder::try_new(File::open(path).unwrap()).unwrap();
    let sizes = builder
        .metadata()
        .row_groups()
        .iter()
        .map(|group| group.num_rows())
        .collect();
    let schema = builder.schema().clone();
    let mut json = TableWriter::new(Vec::new(), Format::Ndjson, schema).unwrap();
    for batch in builder.build().unwrap() {
        json.write(&batch.unwrap()).unwrap();
    }
    (json.finish().unwrap(), sizes)
}

fn write_both(
    name: &str,
    schema: arrow_schema::SchemaRef,
    batches: &[RecordBatch],
) -> [Vec<i64>; 2] {
    let direct_path = support::temp_path(&format!("{name}-direct.parquet"));
    let threads_path = support::temp_path(&format!("{name}-threads.parquet"));
    let mut direct = TableWriter::new(
        File::create(&direct_path).unwrap(),
        Format::Parquet,
        schema.clone(),
    )
    .unwrap();
    let pool = EncoderPool::new(2).unwrap();
    let mut threads =
        ParquetThreads::spawn(File::create(&threads_path).unwrap(), schema, pool).unwrap();
    for batch in batches {
        direct.write(batch).unwrap();
        threads.write(batch.clone()).unwrap();
    }
    direct.finish().unwrap().flush().unwrap();
    threads.finish().unwrap().flush().unwrap();
    let (direct_rows, direct_groups) = rows_of(&direct_path);
    let (threads_rows, threads_groups) = rows_of(&threads_path);
    assert!(!direct_rows.is_empty());
    assert!(direct_rows == threads_rows, "{name}: the rows differ");
    [direct_groups, threads_groups]
}

#[test]
fn row_groups_encoded_by_the_pool_read_back_as_the_table_writers() {
    let options = TableOptions::default();
    let (games, moves) = batches();
    let [_, groups] = write_both("moves", MovesBuilder::schema(options), &moves);
    // 80,000 rows: two row groups at least, none over the limit.
    assert!(groups.len() >= 2, "{groups:?}");
    assert!(groups.iter().all(|&rows| rows <= ROW_GROUP_ROWS as i64));
    assert_eq!(groups.iter().sum::<i64>(), 80_000);
    let [_, groups] = write_both("games", GamesBuilder::schema(options), &games);
    assert!(groups.len() >= 2, "{groups:?}");
    assert_eq!(groups.iter().sum::<i64>(), 1000);
}

#[test]
fn a_table_without_rows_is_a_parquet_file_with_its_schema() {
    let schema = MovesBuilder::schema(TableOptions::default());
    let path = support::temp_path("empty-threads.parquet");
    let pool = EncoderPool::new(1).unwrap();
    let mut threads =
        ParquetThreads::spawn(File::create(&path).unwrap(), schema.clone(), pool).unwrap();
    threads
        .write(RecordBatch::new_empty(schema.clone()))
        .unwrap();
    threads.finish().unwrap();
    let builder = ParquetRecordBatchReaderBuilder::try_new(File::open(&path).unwrap()).unwrap();
    assert_eq!(builder.metadata().file_metadata().num_rows(), 0);
    assert_eq!(builder.schema().fields().len(), schema.fields().len());
}

/// A writer that fails once it has taken `limit` bytes.
struct Full {
    taken: usize,
    limit: usize,
}

impl Write for Full {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.taken + buf.len() > self.limit {
            return Err(std::io::Error::other("disk full"));
        }
        self.taken += buf.len();
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn a_write_error_comes_back() {
    let (_, moves) = batches();
    let schema = MovesBuilder::schema(TableOptions::default());
    let pool = EncoderPool::new(2).unwrap();
    let out = Full {
        taken: 0,
        limit: 10_000,
    };
    let mut threads = ParquetThreads::spawn(out, schema, Arc::clone(&pool)).unwrap();
    let mut failed = None;
    for batch in moves.iter().cycle().take(200) {
        if let Err(e) = threads.write(batch.clone()) {
            failed = Some(e);
            break;
        }
    }
    let error = match failed {
        Some(e) => e,
        None => threads.finish().err().expect("the writer fails"),
    };
    assert!(error.to_string().contains("disk full"), "{error}");
}
