//! Bad input: a typed tag whose value cannot be read becomes a null in its
//! column plus a warning, and the game is still read and written (its text
//! kept in the `tags` map where the column cannot hold it).

mod support;

use arrow_array::cast::AsArray;
use arrow_array::types::{Date32Type, Int16Type, Int32Type};
use arrow_array::{Array, RecordBatch};
use pgnkit_arrow::{GameRecord, RecordOptions, RecordVisitor, TableOptions};
use pgnkit_game::{ReadOptions, visit_games_with};

/// Reads one game with `tag`, checks it has no error, writes and reads
/// back its games table.
fn one_game(name: &str, tag: &str) -> (GameRecord, RecordBatch) {
    let pgn = format!(
        "[Event \"Bad tag\"]\n{tag}\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n"
    );
    let mut read: Vec<_> = visit_games_with(
        pgn.as_bytes(),
        RecordVisitor::new(RecordOptions::default()),
        ReadOptions::new(),
    )
    .collect();
    assert_eq!(read.len(), 1);
    let read = read.remove(0);
    assert!(
        !read.is_broken(),
        "a bad typed tag must not break the game: {:?}",
        read.diagnostics
    );
    let record = read.value;
    let games = support::temp_path(&format!("{name}-games.parquet"));
    let moves = support::temp_path(&format!("{name}-moves.parquet"));
    support::write_parquet(
        std::slice::from_ref(&record),
        "bad.pgn",
        TableOptions::default(),
        &games,
        &moves,
    );
    let mut batches = support::read_parquet(&games);
    assert_eq!(batches.len(), 1);
    let batch = batches.remove(0);
    assert_eq!(batch.num_rows(), 1, "the game is written");
    assert_eq!(
        batch
            .column_by_name("ply_count")
            .unwrap()
            .as_primitive::<arrow_array::types::UInt16Type>()
            .value(0),
        7
    );
    assert_eq!(
        batch
            .column_by_name("outcome")
            .unwrap()
            .as_string::<i32>()
            .value(0),
        "checkmate"
    );
    (record, batch)
}

fn kept_in_tags(batch: &RecordBatch, name: &str) -> Option<String> {
    let map = batch.column_by_name("tags").unwrap().as_map().value(0);
    let keys = map.column(0).as_string::<i32>();
    let values = map.column(1).as_string::<i32>();
    (0..keys.len())
        .find(|&i| keys.value(i) == name)
        .map(|i| values.value(i).to_owned())
}

#[test]
fn white_elo_abc_is_null_and_a_warning() {
    let (record, batch) = one_game("elo", "[WhiteElo \"abc\"]\n[BlackElo \"1500\"]");
    assert_eq!(record.warnings.len(), 1);
    assert_eq!(record.warnings[0].tag, "WhiteElo");
    assert_eq!(record.warnings[0].value, "abc");
    let white = batch
        .column_by_name("WhiteElo")
        .unwrap()
        .as_primitive::<Int16Type>();
    assert!(white.is_null(0));
    let black = batch
        .column_by_name("BlackElo")
        .unwrap()
        .as_primitive::<Int16Type>();
    assert_eq!(black.value(0), 1500);
    assert_eq!(kept_in_tags(&batch, "WhiteElo").as_deref(), Some("abc"));
}

#[test]
fn utc_date_2024_13_45_is_null_and_a_warning() {
    let (record, batch) = one_game("utcdate", "[UTCDate \"2024.13.45\"]\n[Date \"2024.01.31\"]");
    assert_eq!(record.warnings.len(), 1);
    assert_eq!(record.warnings[0].tag, "UTCDate");
    assert!(record.warnings[0].to_string().contains("2024.13.45"));
    let utc = batch
        .column_by_name("UTCDate")
        .unwrap()
        .as_primitive::<Date32Type>();
    assert!(utc.is_null(0));
    // The good Date still gives its date32 column: 2024-01-31 is day 19753.
    let date = batch
        .column_by_name("game_date")
        .unwrap()
        .as_primitive::<Date32Type>();
    assert_eq!(date.value(0), 19_753);
    assert_eq!(
        kept_in_tags(&batch, "UTCDate").as_deref(),
        Some("2024.13.45")
    );
}

#[test]
fn a_malformed_time_control_is_null_and_a_warning() {
    let (record, batch) = one_game("timecontrol", "[TimeControl \"fast\"]");
    assert_eq!(record.warnings.len(), 1);
    assert_eq!(record.warnings[0].tag, "TimeControl");
    for column in ["time_base", "time_increment"] {
        let array = batch
            .column_by_name(column)
            .unwrap()
            .as_primitive::<Int32Type>();
        assert!(array.is_null(0), "{column}");
    }
    // The text stays in its string column.
    let text = batch
        .column_by_name("TimeControl")
        .unwrap()
        .as_string::<i32>();
    assert_eq!(text.value(0), "fast");
}

/// The standard's `moves/seconds` (a daily game's one move in three days) and an ISO date are
/// read without a warning: no base and increment, the date in the typed column.
#[test]
fn moves_per_seconds_and_iso_dates_read_without_warnings() {
    let (record, batch) = one_game("daily", "[TimeControl \"1/259200\"]\n[Date \"2022-07-13\"]");
    assert!(record.warnings.is_empty(), "{:?}", record.warnings);
    let base = batch
        .column_by_name("time_base")
        .unwrap()
        .as_primitive::<Int32Type>();
    assert!(base.is_null(0));
    let date = batch
        .column_by_name("game_date")
        .unwrap()
        .as_primitive::<Date32Type>();
    assert_eq!(date.value(0), 19_186);
}

#[test]
fn good_typed_tags_fill_their_columns_without_warnings() {
    let (record, batch) = one_game(
        "good",
        "[WhiteElo \"2100\"]\n[UTCDate \"2024.02.29\"]\n[UTCTime \"12:34:56\"]\n[TimeControl \"180+2\"]",
    );
    assert!(record.warnings.is_empty(), "{:?}", record.warnings);
    let int32 = |name| {
        batch
            .column_by_name(name)
            .unwrap()
            .as_primitive::<Int32Type>()
            .value(0)
    };
    assert_eq!((int32("time_base"), int32("time_increment")), (180, 2));
    let utc = batch
        .column_by_name("UTCDate")
        .unwrap()
        .as_primitive::<Date32Type>();
    assert_eq!(utc.value(0), 19_782);
    assert_eq!(kept_in_tags(&batch, "WhiteElo"), None);
}
