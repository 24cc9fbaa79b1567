//! `RecordOptions::positions` on every corpus file: one position row per main-line
//! position, the start first, each with the Polyglot key of the game tree's position
//! replayed move by move; `GameRecord::from_game` gives the same rows; and asking for the
//! positions changes nothing else in the record (the games and moves tables stay as they
//! were without them).

use pgnkit_arrow::{GameRecord, RecordOptions, RecordVisitor};
use pgnkit_game::{ReadOptions, read_games, visit_games_with};

fn records(bytes: &[u8], options: RecordOptions) -> Vec<GameRecord> {
    visit_games_with(bytes, RecordVisitor::new(options), ReadOptions::default())
        .map(|read| read.value)
        .collect()
}

#[test]
fn every_main_line_position_has_its_row_and_nothing_else_changes() {
    let files = pgnkit_corpus::all_pgn_files();
    let with = RecordOptions {
        positions: true,
        ..RecordOptions::default()
    };
    let (mut games, mut rows) = (0, 0);
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        let plain = records(&bytes, RecordOptions::default());
        let positioned = records(&bytes, with);
        let trees: Vec<_> = read_games(&bytes).collect();
        assert_eq!(plain.len(), positioned.len(), "{}", path.display());
        assert_eq!(trees.len(), positioned.len(), "{}", path.display());
        for ((plain, record), tree) in plain.iter().zip(&positioned).zip(&trees) {
            let without = GameRecord {
                positions: Vec::new(),
                ..record.clone()
            };
            assert_eq!(
                &without,
                plain,
                "{}: positions change the record",
                path.display()
            );
            if tree.is_broken() {
                continue;
            }
            let game = &tree.value;
            let mut at = game.start_position().clone();
            let mut keys = vec![at.polyglot_key()];
            for played in game.main_line_moves() {
                at.play_unchecked(played.mv);
                keys.push(at.polyglot_key());
            }
            let got: Vec<u64> = record.positions.iter().map(|p| p.key).collect();
            assert_eq!(got, keys, "{} at offset {}", path.display(), record.offset);
            assert_eq!(record.positions.len(), record.moves.len() + 1);
            let built = GameRecord::from_game(game, with);
            assert_eq!(built.positions, record.positions, "from_game");
            games += 1;
            rows += got.len();
        }
    }
    assert!(
        games > 1000 && rows > 50_000,
        "{games} games, {rows} positions"
    );
}
