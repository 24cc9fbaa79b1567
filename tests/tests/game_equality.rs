//! `Game` equality keeps its documented promise on every game of the
//! shared corpus, broken games (what was read before the error) included:
//! a game equals itself written in export format and read again,
//! `read(write(g)) == g`, and the game read again is broken only when the
//! first one was.

use pgnkit::{ExportOptions, read_games, to_string};

#[test]
fn every_corpus_game_equals_itself_written_and_read_again() {
    let dir = pgnkit_corpus::dir();
    let files = pgnkit_corpus::all_pgn_files();
    let options = ExportOptions::export();
    let mut failures = Vec::new();
    let (mut games, mut broken) = (0u64, 0u64);
    for file in &files {
        let data = std::fs::read(file).expect("readable corpus file");
        let name = pgnkit_conformance::corpus_name(&dir, file);
        for read in read_games(&data) {
            games += 1;
            broken += u64::from(read.is_broken());
            let text = to_string(&read.value, &options);
            let fail = |what: &str| format!("{name} line {}: {what}\n{text}", read.line);
            let again: Vec<_> = read_games(text.as_bytes()).collect();
            match &again[..] {
                [one] if one.is_broken() && !read.is_broken() => {
                    failures.push(fail(&format!("reads back broken: {:?}", one.diagnostics)));
                }
                [one] if one.value != read.value => {
                    failures.push(fail(&format!(
                        "reads back different:\n{:?}\n{:?}",
                        read.value, one.value
                    )));
                }
                [_] => {}
                _ => failures.push(fail(&format!("reads back as {} games", again.len()))),
            }
        }
    }
    eprintln!(
        "{} files, {games} games ({broken} broken) compared",
        files.len()
    );
    assert!(games > 1000, "only {games} games read");
    assert!(
        failures.is_empty(),
        "{} of {games} games differ after a round trip; first ones:\n{}",
        failures.len(),
        failures
            .iter()
            .take(5)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n---\n")
    );
}

#[test]
fn edited_games_equal_themselves_written_and_read_again() {
    use pgnkit::game::{Comment, Eval, NodeId, Score, Termination};
    use std::time::Duration;

    let mut game = pgnkit::Game::new();
    game.tags_mut().set("White", "Réti");
    game.tags_mut().set("Annotator", "x");
    game.tags_mut().set("ECO", "A04");
    let nf3 = game.add_san(NodeId::ROOT, "Nf3").unwrap();
    let d5 = game.add_san(nf3, "d5").unwrap();
    game.add_san(nf3, "c5").unwrap();
    let node = game.node_mut(nf3).unwrap();
    node.push_comment(Comment::brace("flexible"));
    node.push_comment(Comment::brace("  "));
    node.set_clock(Duration::from_secs(179));
    let node = game.node_mut(d5).unwrap();
    node.set_eval(Eval {
        score: Score::Centipawns(20),
        depth: Some(12),
    });
    node.push_comment(Comment::line("a } in a comment"));
    game.set_termination(Termination::Draw);
    let text = to_string(&game, &ExportOptions::export());
    let again = read_games(text.as_bytes()).next().expect("one game");
    assert!(!again.is_broken(), "{:?}", again.diagnostics);
    assert_eq!(again.value, game, "{text}");
    // Not the same tags or texts: equal as written, not as stored.
    assert_ne!(again.value.tags(), game.tags());
    assert_eq!(
        game[nf3].comments().next().unwrap().text(),
        " [%clk 0:02:59] flexible "
    );
}
