//! Fuzz target `export_roundtrip`: every game of arbitrary input that reads
//! without error exports idempotently (`export(read(export(g))) ==
//! export(g)`), its export reads back as one game without error and with an
//! equal model, the streaming writer writes the same bytes as the tree
//! writer, and its JSON reads back to the same JSON.

#![no_main]

use libfuzzer_sys::fuzz_target;
use pgnkit::export::{ExportOptions, StreamWriter};
use pgnkit::game::{Game, read_games, visit_games};
use pgnkit_conformance::model::{Fidelity, same_model};

fuzz_target!(|data: &[u8]| {
    let mut writer = pgnkit_fuzz::export_writer();
    let mut stream = visit_games(data, StreamWriter::new(ExportOptions::export()));
    for read in read_games(data) {
        let streamed = stream.next().expect("the same games");
        assert_eq!(streamed.is_broken(), read.is_broken());
        if read.is_broken() {
            continue;
        }
        let game = read.value;
        let first = pgnkit_fuzz::export(&mut writer, &game);
        assert_eq!(
            String::from_utf8_lossy(stream.visitor().game_text()),
            String::from_utf8_lossy(&first),
            "StreamWriter and GameWriter differ"
        );
        let again: Vec<_> = read_games(&first).collect();
        assert_eq!(
            again.len(),
            1,
            "export reads back as one game:\n{}",
            String::from_utf8_lossy(&first)
        );
        let back = &again[0];
        assert!(
            !back.is_broken(),
            "export reads back broken: {:?}\n{}",
            back.diagnostics,
            String::from_utf8_lossy(&first)
        );
        let second = pgnkit_fuzz::export(&mut writer, &back.value);
        assert_eq!(
            String::from_utf8_lossy(&second),
            String::from_utf8_lossy(&first),
            "export is not idempotent"
        );
        if let Err(e) = same_model(&game, &back.value, Fidelity::Export) {
            panic!(
                "the export reads back to another model: {e}\n{}",
                String::from_utf8_lossy(&first)
            );
        }
        let json = game.to_json();
        let from_json = Game::from_json(&json)
            .unwrap_or_else(|e| panic!("JSON {json} does not read back: {e}"));
        assert_eq!(from_json.to_json(), json, "JSON round trip");
    }
});
