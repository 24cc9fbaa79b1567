//! The model as python-chess and shakmaty users expect it (issue 22):
//! equality by content, one source of diagnostics, one result value,
//! clocks and evals on nodes, the node view, editing errors with reasons,
//! one-line parsing.

use std::time::Duration;

use pgnkit_chess::Position;
use pgnkit_game::{
    EditError, Eval, Game, GameStart, NodeId, ParseGameError, ReadOptions, Score, Step,
    Termination, TreeBuilder, read_game, read_games, visit_game,
};

#[test]
fn games_are_equal_by_content_not_storage() {
    // The same moves added in another order.
    let mut a = Game::new();
    let e4 = a.add_san(NodeId::ROOT, "e4").unwrap();
    a.add_san(e4, "e5").unwrap();
    a.add_san(e4, "c5").unwrap();
    let mut b = Game::new();
    let d4 = b.add_san(NodeId::ROOT, "d4").unwrap();
    let e4b = b.add_san(NodeId::ROOT, "e4").unwrap();
    b.add_san(e4b, "e5").unwrap();
    b.add_san(e4b, "c5").unwrap();
    b.remove(d4);
    assert_eq!(a, b);
    // add_san then remove gives the game back.
    let before = a.clone();
    let extra = a.add_san(e4, "d5").unwrap();
    assert_ne!(a, before);
    a.remove(extra);
    assert_eq!(a, before);
    // Order of variations counts.
    let c5 = b
        .main_line()
        .nth(1)
        .map(|e5| b[e5].parent().unwrap())
        .unwrap();
    let c5 = b[c5].children()[1];
    b.promote_to_main(c5);
    assert_ne!(a, b);
}

#[test]
fn a_game_with_warnings_equals_its_json_round_trip() {
    let read = read_games(b"[Result \"1-0\"]\n\n1. e4 e5 { [%clk 0:01:00] } 2. Nf3 0-1\n")
        .next()
        .unwrap();
    assert!(read.diagnostics.warnings().count() > 0);
    let json = read.value.to_json();
    let back = Game::from_json(&json).unwrap();
    assert_eq!(back, read.value);
}

#[test]
fn diagnostics_have_one_home() {
    let pgn = b"1. e4 e5 2. Ke3 *";
    let start = GameStart {
        bytes: pgn,
        offset: 0,
        line: 1,
        column: 1,
    };
    let (game, diagnostics) = visit_game(start, &mut TreeBuilder::new(), ReadOptions::default());
    assert!(diagnostics.has_errors());
    let read = read_games(pgn).next().unwrap();
    assert_eq!(read.diagnostics, diagnostics);
    assert_eq!(read.value, game);
}

#[test]
fn the_result_tag_and_the_marker_are_one_value() {
    let mut game: Game = "1. e4 e5 *".parse().unwrap();
    assert_eq!(game.termination(), Termination::Unknown);
    game.tags_mut().insert("Result", "1-0");
    assert_eq!(game.termination(), Termination::WhiteWins);
    game.set_termination(Termination::BlackWins);
    assert_eq!(game.tags().get("Result"), Some("0-1"));
    // A set result with no Result tag adds it.
    let mut game = Game::new();
    game.set_termination(Termination::Draw);
    assert_eq!(game.tags().get("Result"), Some("1/2-1/2"));
    // Read: where they disagree the marker wins, in the tag too.
    let read = read_game("[Result \"1-0\"]\n\n1. e4 0-1").unwrap();
    assert_eq!(read.value.termination(), Termination::BlackWins);
    assert_eq!(read.value.tags().get("Result"), Some("0-1"));
    // A tag that holds no marker stays as read.
    let read = read_game("[Result \"1-0 forfeit\"]\n\n1. e4 1-0").unwrap();
    assert_eq!(read.value.tags().get("Result"), Some("1-0 forfeit"));
    assert_eq!(read.value.termination(), Termination::WhiteWins);
}

#[test]
fn a_game_from_a_position_has_set_up() {
    let pos = Position::from_fen("8/8/8/4k3/8/8/4P3/4K3 w - - 0 40").unwrap();
    let game = Game::from_position(pos);
    assert_eq!(game.tags().get("SetUp"), Some("1"));
    assert_eq!(
        game.tags().get("FEN"),
        Some("8/8/8/4k3/8/8/4P3/4K3 w - - 0 40")
    );
    let chess960 =
        Position::from_fen("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9")
            .unwrap();
    assert_eq!(
        Game::from_position(chess960).tags().get("Variant"),
        Some("Chess960")
    );
}

#[test]
fn clocks_and_evals_on_nodes() {
    let mut game: Game =
        "1. e4 { [%eval 0.17] [%clk 0:00:30] } 1... e5 { [%clk 0:00:29.5] [%emt 0:00:01] } *"
            .parse()
            .unwrap();
    let nodes: Vec<_> = game.main_line_nodes().collect();
    assert_eq!(nodes[0].clock(), Some(Duration::from_secs(30)));
    assert_eq!(
        nodes[0].eval(),
        Some(Eval {
            score: Score::Centipawns(17),
            depth: None
        })
    );
    assert_eq!(nodes[1].emt(), Some(Duration::from_secs(1)));
    let (e4, e5) = (nodes[0].id(), nodes[1].id());
    let node = game.node_mut(e4).unwrap();
    node.set_clock(Duration::from_secs(25));
    node.set_eval(Eval {
        score: Score::Mate(-3),
        depth: Some(30),
    });
    assert_eq!(
        node.comments().next().unwrap().text(),
        " [%eval #-3,30] [%clk 0:00:25] "
    );
    let node = game.node_mut(e5).unwrap();
    node.set_clock(None);
    assert_eq!(node.comments().next().unwrap().text(), " [%emt 0:00:01] ");
    // A move without comments gets one, as lichess writes it.
    let nf3 = game.add_san(e5, "Nf3").unwrap();
    game.node_mut(nf3)
        .unwrap()
        .set_clock(Duration::from_millis(3_723_250));
    assert_eq!(
        game[nf3].comments().next().unwrap().text(),
        " [%clk 1:02:03.25] "
    );
    assert_eq!(game[nf3].clock(), Some(Duration::from_millis(3_723_250)));
}

#[test]
fn the_node_view_walks_with_positions() {
    let game: Game = "1. e4 e5 (1... c5 2. Nf3 (2. c3) 2... d6) 2. Nf3 *"
        .parse()
        .unwrap();
    let c5 = game
        .root()
        .main_child()
        .unwrap()
        .variations()
        .next()
        .unwrap();
    assert_eq!(c5.san().unwrap().to_string(), "c5");
    assert!(!c5.is_main_line());
    assert_eq!(*c5.position(), game.position_at(c5.id()).unwrap());
    let c3 = c5.variations().next().unwrap();
    assert_eq!(c3.parent().unwrap().id(), c5.id());
    assert_eq!(c3.position().fullmoves(), 2);
    assert_eq!(game.end().san().unwrap().to_string(), "Nf3");
    assert!(game.end().is_main_line());
    // A walk in PGN order.
    let mut depth = 0;
    let mut moves = 0;
    for step in game.walk() {
        match step {
            Step::StartVariation => depth += 1,
            Step::EndVariation => depth -= 1,
            Step::Move(node) => {
                moves += 1;
                assert_eq!(*node.position(), game.position_at(node.id()).unwrap());
            }
        }
    }
    assert_eq!((depth, moves), (0, 7));
    // Index by id gives the bare node.
    assert_eq!(game[c5.id()].variations(), &[c3.id()]);
}

#[test]
fn editing_errors_say_why() {
    let mut game = Game::new();
    assert_eq!(
        game.add_san(NodeId::ROOT, "e9"),
        Err(EditError::InvalidSyntax("e9".into()))
    );
    assert_eq!(
        game.add_san(NodeId::ROOT, "e5"),
        Err(EditError::IllegalMove("e5".into()))
    );
    let e4 = game.add_uci(NodeId::ROOT, "e2e4").unwrap();
    assert_eq!(
        game.add_san(e4, "e5")
            .map(|id| game[id].san().unwrap().to_string()),
        Ok("e5".into())
    );
    let mut game: Game = "1. Nf3 d5 2. d4 Nf6 *".parse().unwrap();
    let end = game.end().id();
    assert_eq!(
        game.add_san(end, "Nd2"),
        Err(EditError::Ambiguous("Nd2".into()))
    );
    assert_eq!(
        game.add_uci(end, "e1e2x"),
        Err(EditError::InvalidSyntax("e1e2x".into()))
    );
}

#[test]
fn parse_exactly_one_game() {
    assert!(matches!("".parse::<Game>(), Err(ParseGameError::NoGame)));
    assert!(matches!(
        "1. e4 *\n\n1. d4 *\n\n1. c4 *".parse::<Game>(),
        Err(ParseGameError::SeveralGames(3))
    ));
    match "1. e4 e5 2. Ke3 *".parse::<Game>() {
        Err(ParseGameError::Broken(d)) => assert_eq!(d.move_text.as_deref(), Some("Ke3")),
        other => panic!("{other:?}"),
    }
    let game: Game = "1. e4 e5 *".parse().unwrap();
    assert_eq!(game.main_line().count(), 2);
    assert!(read_game("").is_none());
}
