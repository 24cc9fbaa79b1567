//! `RecordOptions::games_only` (the main line counted, not recorded) gives the
//! same games table as a full record, on every corpus file, with and without
//! the `errors` column.

use arrow_array::RecordBatch;
use pgnkit_arrow::{
    BatchLimits, GameRecord, GamesBuilder, RecordOptions, RecordVisitor, RowSource, TableOptions,
};
use pgnkit_game::{ReadOptions, visit_games_with};

fn records(bytes: &[u8], options: RecordOptions) -> Vec<GameRecord> {
    visit_games_with(bytes, RecordVisitor::new(options), ReadOptions::default())
        .map(|read| {
            let mut record = read.value;
            record.set_errors(&read.diagnostics);
            record
        })
        .collect()
}

fn games_table(records: &[GameRecord], options: TableOptions) -> Vec<RecordBatch> {
    let mut builder = GamesBuilder::new(options, BatchLimits::GAMES);
    let mut batches = Vec::new();
    for (id, record) in records.iter().enumerate() {
        let source = RowSource {
            game_id: id as u64,
            source: "corpus",
        };
        builder.push(source, record).unwrap();
        if builder.is_full() {
            batches.push(builder.finish().unwrap());
        }
    }
    batches.push(builder.finish().unwrap());
    batches
}

#[test]
fn games_only_records_give_the_same_games_table() {
    let files = pgnkit_corpus::all_pgn_files();
    let full_options = RecordOptions::default();
    let games_only = RecordOptions {
        games_only: true,
        ..RecordOptions::default()
    };
    let (mut total_games, mut total_plies) = (0, 0);
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        let full = records(&bytes, full_options);
        let counted = records(&bytes, games_only);
        assert_eq!(full.len(), counted.len(), "{}", path.display());
        for (a, b) in full.iter().zip(&counted) {
            assert!(b.moves.is_empty(), "{}: moves recorded", path.display());
            assert_eq!(a.ply_count(), b.ply_count(), "{}", path.display());
            total_plies += a.moves.len();
        }
        for errors in [false, true] {
            let options = TableOptions { fen: false, errors };
            assert_eq!(
                games_table(&full, options),
                games_table(&counted, options),
                "{}: games table (errors column: {errors})",
                path.display()
            );
        }
        total_games += full.len();
    }
    // The corpus is real data: these must not be vacuous.
    assert!(total_games > 100_000, "{total_games} games");
    assert!(total_plies > 1_000_000, "{total_plies} plies");
}
