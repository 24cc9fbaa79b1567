//! Fuzz target `records`: the rows `convert` writes (pgnkit-arrow's records) for arbitrary
//! input read as PGN. For every game read without error, the record the streaming
//! `RecordVisitor` makes agrees with the game's JSON (pgnkit-game's model): each string tag
//! column holds the first value of its tag, `Variant` too, every other tag is kept with its
//! first value, the moves table has one row per main-line move with the JSON's SAN and UCI,
//! the ply count is the main line's, the final FEN is the position after the main line, the
//! positions table has the Polyglot key of each main-line position, the start first.
//! `GameRecord::from_game` on the game read into a tree makes the same record, and the
//! games-only record the same games-table columns.

#![no_main]

use libfuzzer_sys::fuzz_target;
use pgnkit::chess::FenOptions;
use pgnkit::game::{ReadOptions, read_games, visit_games_with};
use pgnkit_arrow::{GameRecord, RATING_TAGS, RecordOptions, RecordVisitor, STRING_TAGS};
use serde_json::Value;

/// The typed tags that have a column (a malformed one is also kept in `other_tags`).
fn has_column(name: &str) -> bool {
    STRING_TAGS.contains(&name)
        || RATING_TAGS.contains(&name)
        || matches!(name, "UTCDate" | "UTCTime" | "Variant")
}

/// What the games table holds of a record, without where the game is.
fn games_columns(r: &GameRecord) -> GameRecord {
    GameRecord {
        offset: 0,
        line: 0,
        moves: Vec::new(),
        positions: Vec::new(),
        plies: 0,
        errors: Vec::new(),
        movetext: None,
        ..r.clone()
    }
}

fuzz_target!(|data: &[u8]| {
    let options = RecordOptions {
        fen: true,
        games_only: false,
        positions: true,
    };
    let games_only = RecordOptions {
        fen: false,
        games_only: true,
        positions: false,
    };
    let records: Vec<_> =
        visit_games_with(data, RecordVisitor::new(options), ReadOptions::new()).collect();
    let counted: Vec<_> =
        visit_games_with(data, RecordVisitor::new(games_only), ReadOptions::new()).collect();
    let trees: Vec<_> = read_games(data).collect();
    assert_eq!(records.len(), trees.len(), "a game has no record");
    assert_eq!(counted.len(), trees.len());
    for ((record, counted), tree) in records.iter().zip(&counted).zip(&trees) {
        assert_eq!(record.is_broken(), tree.is_broken());
        if tree.is_broken() {
            continue;
        }
        let (record, counted, game) = (&record.value, &counted.value, &tree.value);
        let json: Value = serde_json::from_str(&game.to_json()).expect("the game's JSON");
        let tags: Vec<(String, String)> = json["tags"]
            .as_array()
            .map(|tags| {
                tags.iter()
                    .map(|pair| {
                        let text = |i: usize| pair[i].as_str().unwrap_or_default().to_owned();
                        (text(0), text(1))
                    })
                    .collect()
            })
            .unwrap_or_default();
        let first = |name: &str| tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.clone());
        for (i, name) in STRING_TAGS.iter().enumerate() {
            assert_eq!(record.strings[i], first(name), "column {name}");
        }
        assert_eq!(record.variant, first("Variant"), "column Variant");
        for (name, value) in &tags {
            if !has_column(name) {
                assert_eq!(
                    record
                        .other_tags
                        .iter()
                        .find(|(n, _)| n == name)
                        .map(|(_, v)| v),
                    first(name).as_ref(),
                    "tag {name} in the tags map"
                );
            }
            let _ = value;
        }
        for (name, _) in &record.other_tags {
            assert!(
                first(name).is_some(),
                "tag {name} is in the map, not in the game"
            );
        }
        let moves = json["moves"].as_array().cloned().unwrap_or_default();
        assert_eq!(
            record.moves.len(),
            moves.len(),
            "one row per main-line move"
        );
        for (row, m) in record.moves.iter().zip(&moves) {
            assert_eq!(
                row.san.as_str(),
                m["san"].as_str().unwrap_or_default(),
                "SAN"
            );
            assert_eq!(
                row.uci.as_str(),
                m["uci"].as_str().unwrap_or_default(),
                "UCI"
            );
        }
        assert_eq!(
            usize::from(record.ply_count()),
            moves.len().min(usize::from(u16::MAX))
        );
        assert_eq!(
            counted.ply_count(),
            record.ply_count(),
            "games-only ply count"
        );
        assert_eq!(
            games_columns(counted),
            games_columns(record),
            "games-only columns"
        );
        let mut last = game.start_position().clone();
        let mut keys = vec![last.polyglot_key()];
        for played in game.main_line_moves() {
            last.play_unchecked(played.mv);
            keys.push(last.polyglot_key());
        }
        let rows: Vec<u64> = record.positions.iter().map(|p| p.key).collect();
        assert_eq!(rows, keys, "one positions row per main-line position, the start first");
        assert_eq!(
            record.final_fen.as_deref(),
            Some(last.fen(FenOptions::default()).as_str()),
            "final FEN"
        );
        let mut built = GameRecord::from_game(game, options);
        built.offset = record.offset;
        built.line = record.line;
        built.errors = record.errors.clone();
        built.movetext = record.movetext.clone();
        assert_eq!(&built, record, "from_game and the streaming visitor differ");
    }
});
