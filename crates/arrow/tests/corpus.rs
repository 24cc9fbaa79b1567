//! Every corpus file through the columnar path and back: the games and
//! moves tables are written as Parquet, read back with the `parquet` crate,
//! and compared with what the tree reader parsed (game counts, ply counts,
//! every tag's value, clocks, evals, NAGs and SAN of every main-line move).

mod support;

use std::collections::HashMap;

use arrow_array::cast::AsArray;
use arrow_array::types::{
    Date32Type, Int16Type, Int32Type, Time32MillisecondType, UInt8Type, UInt16Type, UInt64Type,
};
use arrow_array::{Array, RecordBatch};
use pgnkit_arrow::{RATING_TAGS, RecordOptions, RecordVisitor, STRING_TAGS, TableOptions};
use pgnkit_game::{Game, ReadOptions, Score, read_games, visit_games_with};

fn string(batch: &RecordBatch, column: &str, row: usize) -> Option<String> {
    let array = batch
        .column_by_name(column)
        .expect(column)
        .as_string::<i32>();
    (!array.is_null(row)).then(|| array.value(row).to_owned())
}

fn int<T: arrow_array::ArrowPrimitiveType>(
    batch: &RecordBatch,
    column: &str,
    row: usize,
) -> Option<T::Native> {
    let array = batch
        .column_by_name(column)
        .expect(column)
        .as_primitive::<T>();
    (!array.is_null(row)).then(|| array.value(row))
}

/// What one games-table row must hold for `game`.
fn check_game(
    rel: &str,
    game: &Game,
    batch: &RecordBatch,
    row: usize,
    moves: &[(usize, &RecordBatch)],
) {
    let at = || format!("{rel}, game {}", row + 1);
    let tags = batch.column_by_name("tags").unwrap().as_map().value(row);
    let map: HashMap<&str, &str> = tags
        .column(0)
        .as_string::<i32>()
        .iter()
        .zip(tags.column(1).as_string::<i32>().iter())
        .map(|(k, v)| (k.unwrap(), v.unwrap()))
        .collect();
    let mut seen = 0;
    for (name, value) in game.tags().iter() {
        seen += 1;
        if STRING_TAGS.contains(&name) {
            assert_eq!(
                string(batch, name, row).as_deref(),
                Some(value),
                "{}: {name}",
                at()
            );
        } else if name == "Variant" {
            assert_eq!(
                string(batch, "variant", row).as_deref(),
                Some(value),
                "{}",
                at()
            );
        } else if RATING_TAGS.contains(&name) {
            let column = int::<Int16Type>(batch, name, row);
            match value.trim().trim_start_matches('+').parse::<i16>() {
                Ok(rating) => assert_eq!(column, Some(rating), "{}: {name}", at()),
                Err(_) => assert_eq!(column, None, "{}: {name}", at()),
            }
        } else if name == "UTCDate" {
            if let Some(days) = int::<Date32Type>(batch, "UTCDate", row) {
                assert_eq!(format_date(days), value, "{}", at());
            } else {
                assert!(
                    value.contains('?') || map.get("UTCDate") == Some(&value),
                    "{}",
                    at()
                );
            }
        } else if name == "UTCTime" {
            // Parquet has no seconds unit: the column comes back in milliseconds.
            if let Some(millis) = int::<Time32MillisecondType>(batch, "UTCTime", row) {
                let seconds = millis / 1000;
                let text = format!(
                    "{:02}:{:02}:{:02}",
                    seconds / 3600,
                    seconds / 60 % 60,
                    seconds % 60
                );
                assert_eq!(text, value, "{}", at());
            }
        } else {
            assert_eq!(
                map.get(name),
                Some(&value),
                "{}: tag {name} in the map",
                at()
            );
        }
    }
    assert!(map.len() <= seen, "{}: no tag invented", at());

    let main: Vec<_> = game.main_line().filter_map(|id| game.node(id)).collect();
    let ply_count = int::<UInt16Type>(batch, "ply_count", row).unwrap();
    assert_eq!(usize::from(ply_count), main.len(), "{}: ply count", at());

    let game_id = int::<UInt64Type>(batch, "game_id", row).unwrap();
    let mut ply = 0;
    for &(moves_row, moves_batch) in moves {
        ply += 1;
        let node = &main[ply - 1];
        assert_eq!(
            int::<UInt64Type>(moves_batch, "game_id", moves_row),
            Some(game_id)
        );
        assert_eq!(
            int::<UInt16Type>(moves_batch, "ply", moves_row),
            Some(ply as u16)
        );
        let san = node.san().unwrap().to_string();
        assert_eq!(
            string(moves_batch, "san", moves_row),
            Some(san),
            "{}: ply {ply}",
            at()
        );
        let clock = node.comments().find_map(|c| c.clock());
        assert_eq!(
            int::<Int32Type>(moves_batch, "clock", moves_row),
            clock.map(|c| c.as_millis() as i32),
            "{}: clock of ply {ply}",
            at()
        );
        let eval = node.comments().find_map(|c| c.eval());
        let (cp, mate) = match eval.map(|e| e.score) {
            Some(Score::Centipawns(cp)) => (Some(cp), None),
            Some(Score::Mate(n)) => (None, Some(n as i16)),
            None => (None, None),
        };
        assert_eq!(
            int::<Int32Type>(moves_batch, "eval_cp", moves_row),
            cp,
            "{}: ply {ply}",
            at()
        );
        assert_eq!(
            int::<Int16Type>(moves_batch, "eval_mate", moves_row),
            mate,
            "{}: ply {ply}",
            at()
        );
        let nags = moves_batch
            .column_by_name("nags")
            .unwrap()
            .as_list::<i32>()
            .value(moves_row);
        let nags: Vec<u8> = nags.as_primitive::<UInt8Type>().values().to_vec();
        let expected: Vec<u8> = node.nags().map(|n| n.0).collect();
        assert_eq!(nags, expected, "{}: NAGs of ply {ply}", at());
    }
    assert_eq!(ply, main.len(), "{}: moves rows", at());
}

fn format_date(days: i32) -> String {
    // Inverse of days_from_civil (Howard Hinnant's civil_from_days).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i32::from(month <= 2);
    format!("{year:04}.{month:02}.{day:02}")
}

#[test]
fn every_corpus_file_round_trips_through_parquet() {
    let root = pgnkit_corpus::dir();
    let files = pgnkit_corpus::all_pgn_files();
    let options = TableOptions {
        fen: false,
        errors: true,
    };
    let (mut total_games, mut total_clocks, mut total_evals) = (0, 0, 0);
    for (n, path) in files.iter().enumerate() {
        let rel = path
            .strip_prefix(&root)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let bytes = std::fs::read(path).unwrap();
        let games: Vec<Game> = read_games(&bytes).map(|read| read.value).collect();
        let records: Vec<_> = visit_games_with(
            &bytes,
            RecordVisitor::new(RecordOptions::default()),
            ReadOptions::default(),
        )
        .map(|read| {
            let mut record = read.value;
            record.set_errors(&read.diagnostics);
            record
        })
        .collect();
        let games_path = support::temp_path(&format!("corpus-{n}-games.parquet"));
        let moves_path = support::temp_path(&format!("corpus-{n}-moves.parquet"));
        support::write_parquet(&records, &rel, options, &games_path, &moves_path);
        let games_back = support::read_parquet(&games_path);
        let moves_back = support::read_parquet(&moves_path);

        let rows: usize = games_back.iter().map(RecordBatch::num_rows).sum();
        assert_eq!(rows, games.len(), "{rel}: game count");
        // Moves rows grouped by game, in order.
        let mut by_game: Vec<Vec<(usize, &RecordBatch)>> = vec![Vec::new(); games.len()];
        for batch in &moves_back {
            let ids = batch
                .column_by_name("game_id")
                .unwrap()
                .as_primitive::<UInt64Type>();
            for row in 0..batch.num_rows() {
                by_game[ids.value(row) as usize].push((row, batch));
            }
            let clocks = batch.column_by_name("clock").unwrap();
            total_clocks += clocks.len() - clocks.null_count();
            let evals = batch.column_by_name("eval_cp").unwrap();
            total_evals += evals.len() - evals.null_count();
        }
        let mut i = 0;
        for batch in &games_back {
            for row in 0..batch.num_rows() {
                assert_eq!(string(batch, "source", row).as_deref(), Some(rel.as_str()));
                check_game(&rel, &games[i], batch, row, &by_game[i]);
                i += 1;
            }
        }
        total_games += games.len();
        std::fs::remove_file(&games_path).ok();
        std::fs::remove_file(&moves_path).ok();
    }
    // The corpus is real data: these must not be vacuous.
    assert!(total_games > 100_000, "{total_games} games");
    assert!(total_clocks > 10_000, "{total_clocks} clocks");
    assert!(total_evals > 1_000, "{total_evals} evals");
}
