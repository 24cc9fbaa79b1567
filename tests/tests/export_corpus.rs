//! Corpus-wide export tests over the shared corpus: for every game read
//! without errors, export is idempotent (`export(read(export(g))) ==
//! export(g)`), reading the export gives the same model (moves, tags, NAGs,
//! comment text modulo white space), the streaming writer gives the same
//! bytes, and the output keeps the layout invariants.
//!
//! Every game of every file is covered (about 265k games); the reader and the
//! writer are built optimised in test builds so this stays well under a
//! minute.

// The layout invariants are the export crate's; its tests and this one share
// the one definition.
#[path = "../../crates/export/tests/common/mod.rs"]
mod layout;

use pgnkit::export::{ExportOptions, GameWriter, Notation, StreamWriter};
use pgnkit::game::{read_games, visit_games};
use pgnkit_conformance::model::{Fidelity, same_model};

#[test]
fn corpus_export_is_idempotent_and_keeps_the_model() {
    let dir = pgnkit_corpus::dir();
    let files = pgnkit_corpus::all_pgn_files();

    let options = ExportOptions::export();
    let mut writer = GameWriter::new(options.clone());
    // Reduced export in figurines: only the layout invariants are checked.
    let mut reduced = GameWriter::new(ExportOptions {
        notation: Notation::Fan,
        ..ExportOptions::reduced()
    });
    let mut failures = Vec::new();
    let (mut games, mut written) = (0u64, 0u64);
    for file in &files {
        let data = std::fs::read(file).expect("readable corpus file");
        let input = &data[..];
        let name = pgnkit_conformance::corpus_name(&dir, file);
        let mut file_out = Vec::new();
        for read in read_games(input) {
            games += 1;
            if read.is_broken() {
                continue;
            }
            let game = read.value;
            let mut first = Vec::new();
            writer.write(&game, &mut first).expect("writing to a Vec");
            file_out.extend_from_slice(&first);
            written += 1;
            let text = String::from_utf8_lossy(&first).into_owned();
            let fail = |what: String| format!("{name} line {}: {what}\n{text}", read.line);
            if let Err(e) = layout::check_layout(&text) {
                failures.push(fail(e));
                continue;
            }
            let mut small = Vec::new();
            reduced.write(&game, &mut small).expect("writing to a Vec");
            let small = String::from_utf8_lossy(&small);
            if let Err(e) = layout::check_layout(&small) {
                failures.push(fail(format!("reduced: {e}\n{small}")));
            }
            let mut again: Vec<_> = read_games(&first).collect();
            if again.len() != 1 || again[0].is_broken() {
                let diags = again.first().map(|g| format!("{:?}", g.diagnostics));
                failures.push(fail(format!(
                    "export reads as {} games: {diags:?}",
                    again.len()
                )));
                continue;
            }
            let game2 = again.remove(0).value;
            let mut second = Vec::new();
            writer.write(&game2, &mut second).expect("writing to a Vec");
            if second != first {
                failures.push(fail(format!(
                    "not idempotent; second export:\n{}",
                    String::from_utf8_lossy(&second)
                )));
                continue;
            }
            if let Err(e) = same_model(&game, &game2, Fidelity::Export) {
                failures.push(fail(e));
            }
        }
        // The streaming writer gives the same bytes for the same games.
        let mut stream = visit_games(input, StreamWriter::new(options.clone()));
        let mut stream_out = Vec::new();
        while let Some(read) = stream.next() {
            if !read.is_broken() {
                stream
                    .visitor()
                    .write_game_to(&mut stream_out)
                    .expect("Vec");
            }
        }
        if stream_out != file_out {
            failures.push(format!(
                "{name}: streaming output {}",
                pgnkit_conformance::first_difference(&stream_out, &file_out)
            ));
        }
    }
    eprintln!("{} files, {games} games, {written} written", files.len());
    assert!(written > 1000, "only {written} games written");
    assert!(
        failures.is_empty(),
        "{} failures; first ones:\n{}",
        failures.len(),
        failures
            .iter()
            .take(8)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n---\n")
    );
}
