//! The export-format checker (`pgnkit_export::conformance`) over the shared
//! corpus: what `pgnkit export` writes from every corpus file passes it, and
//! the corpus's original files are checked as they are, their count of
//! games that are not export format printed per file (run with
//! `--nocapture` to see it).

use pgnkit::export::conformance::{Verdict, check_export_format};
use pgnkit::export::{ExportOptions, GameWriter};
use pgnkit::game::read_games;

#[test]
fn what_export_writes_passes_and_originals_are_counted() {
    let dir = pgnkit_corpus::dir();
    let files = pgnkit_corpus::all_pgn_files();
    let mut writer = GameWriter::new(ExportOptions::export());
    let mut failures = Vec::new();
    let (mut total_games, mut total_deviating, mut total_unreadable) = (0, 0, 0);
    let mut conforming_files = 0;
    for file in &files {
        let data = std::fs::read(file).expect("readable corpus file");
        let name = pgnkit_conformance::corpus_name(&dir, file);

        // What `pgnkit export` writes: every game that reads, in export format.
        // Counted here independently: games whose bytes are their export
        // (the first game also needs nothing before it, not even a BOM).
        let mut exported = Vec::new();
        let (mut games, mut broken, mut same_bytes) = (0, 0, 0);
        for read in read_games(&data) {
            games += 1;
            if read.is_broken() {
                broken += 1;
                continue;
            }
            let start = exported.len();
            writer
                .write(&read.value, &mut exported)
                .expect("writing to a Vec");
            let nothing_before = games > 1 || read.offset == 0;
            if nothing_before && exported[start..] == read.raw[..] {
                same_bytes += 1;
            }
        }
        let check = check_export_format(&exported);
        assert_eq!(check.games, games - broken, "{name}: games in the export");
        if let Some(first) = check.failures.first() {
            failures.push(format!(
                "{name}: {} of its exported games fail; first at line {}: {:?}",
                check.failures.len(),
                first.line,
                first.verdict
            ));
        }

        // The original file as it is.
        let original = check_export_format(&data);
        assert_eq!(original.games, games, "{name}: games read by the checker");
        let unreadable = original
            .failures
            .iter()
            .filter(|g| matches!(g.verdict, Verdict::Unreadable { .. }))
            .count();
        assert_eq!(unreadable, broken, "{name}: games that do not read");
        for game in &original.failures {
            if let Verdict::Deviates { deviations, export } = &game.verdict {
                // A game is reported exactly when it differs from its export,
                // and every deviation lies inside the game, in order.
                assert_ne!(game.original, export.as_bytes(), "{name}:{}", game.line);
                assert!(!deviations.is_empty(), "{name}:{}", game.line);
                let end = game.offset + game.original.len() as u64;
                let lead = if game.index == 0 { game.offset } else { 0 };
                for pair in deviations.windows(2) {
                    assert!(pair[0].offset <= pair[1].offset, "{name}:{}", game.line);
                    assert_ne!(pair[0].rule, pair[1].rule, "{name}:{}", game.line);
                }
                for d in deviations {
                    assert!(
                        d.offset + lead >= game.offset && d.offset <= end,
                        "{name}: deviation at {} outside game {}..{end}",
                        d.offset,
                        game.offset
                    );
                    assert!(d.line >= 1 && d.column >= 1);
                }
            }
        }
        let deviating = original.failures.len() - unreadable;
        assert_eq!(
            deviating,
            games - broken - same_bytes,
            "{name}: games reported against games whose bytes differ from their export"
        );
        println!("{name}: {games} games, {deviating} not export format, {unreadable} do not read");
        if original.conforms() {
            conforming_files += 1;
            // A file that is export format already is its own export.
            assert_eq!(exported, data, "{name}: conforms but is not its export");
        }
        total_games += games;
        total_deviating += deviating;
        total_unreadable += unreadable;
    }
    println!(
        "{} files ({conforming_files} export format), {total_games} games, \
         {total_deviating} not export format, {total_unreadable} do not read",
        files.len()
    );
    assert!(total_games > 1000, "only {total_games} games");
    assert!(
        failures.is_empty(),
        "{} files whose export fails the checker:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
