//! The result rule (issue 22, point 3): the `Result` tag and the
//! termination marker are one value, `Game::termination`, and both writers
//! (the tree's `GameWriter` and the streaming `StreamWriter`) write it.

use pgnkit_chess::Position;
use pgnkit_export::{ExportOptions, StreamWriter, ToPgn, to_string};
use pgnkit_game::{Game, Termination, read_games, visit_games};

fn export(game: &Game) -> String {
    to_string(game, &ExportOptions::export())
}

fn streamed(pgn: &str) -> String {
    let mut games = visit_games(pgn.as_bytes(), StreamWriter::new(ExportOptions::export()));
    games.next().expect("one game");
    String::from_utf8(games.visitor().game_text().to_vec()).unwrap()
}

#[test]
fn a_result_tag_set_by_the_user_is_written() {
    let mut game: Game = "1. e4 e5 *".parse().unwrap();
    game.tags_mut().insert("Result", "1-0");
    let text = export(&game);
    assert!(text.contains("[Result \"1-0\"]\n"), "{text}");
    assert!(text.ends_with(" 1-0\n\n"), "{text}");
}

#[test]
fn the_result_setter_writes_both() {
    let mut game = Game::new();
    game.set_termination(Termination::BlackWins);
    let text = export(&game);
    assert!(text.contains("[Result \"0-1\"]\n\n0-1\n\n"), "{text}");
}

#[test]
fn both_writers_agree_when_tag_and_marker_differ() {
    let pgn = "[Result \"1-0\"]\n\n1. e4 e5 0-1\n";
    let read = read_games(pgn.as_bytes()).next().unwrap();
    let tree = export(&read.value);
    assert_eq!(tree, streamed(pgn));
    assert!(tree.contains("[Result \"0-1\"]\n"), "{tree}");
    assert!(tree.ends_with(" 0-1\n\n"), "{tree}");
}

#[test]
fn a_game_from_a_position_is_written_with_set_up() {
    let pos = Position::from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1").unwrap();
    let mut game = Game::from_position(pos);
    let root = game.root().id();
    game.add_san(root, "e4").unwrap();
    let text = export(&game);
    assert!(
        text.contains("[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n[SetUp \"1\"]\n"),
        "{text}"
    );
    // What is written reads back as the same moves from the same start.
    let back: Game = text.parse().unwrap();
    assert_eq!(back.tree(), game.tree());
    assert_eq!(back.start_position(), game.start_position());
}

#[test]
fn display_is_export_format() {
    let game: Game = "[White \"A\"]\n\n1. d4 { [%clk 0:01:00] } d5 1/2-1/2"
        .parse()
        .unwrap();
    assert_eq!(game.pgn().to_string(), export(&game));
    // Export adds the roster's defaults: the rest reads back the same.
    let back: Game = format!("{}", game.pgn()).parse().unwrap();
    assert_eq!(back.tree(), game.tree());
    assert_eq!(back.pgn().to_string(), game.pgn().to_string());
}
