//! Tests of the streaming writer: against the tree writer, tags set late, the movetext alone.

use super::*;
use crate::GameWriter;
use pgnkit_game::{read_games, visit_games};

/// The movetext (after the tag section) written by the streaming writer,
/// checked against the tree writer.
fn movetext(pgn: &str, options: ExportOptions) -> String {
    let mut games = visit_games(pgn.as_bytes(), StreamWriter::new(options.clone()));
    let mut stream = Vec::new();
    while let Some(read) = games.next() {
        assert!(!read.is_broken(), "{:?}", read.diagnostics);
        games.visitor().write_game_to(&mut stream).expect("Vec");
    }
    assert_eq!(games.visitor().games(), 1);
    let streamed = games.visitor().movetext().to_vec();
    let mut tree = Vec::new();
    let mut writer = GameWriter::new(options.clone());
    for read in read_games(pgn.as_bytes()) {
        writer.write(&read.value, &mut tree).expect("Vec");
    }
    let stream = String::from_utf8(stream).expect("UTF-8");
    assert_eq!(stream, String::from_utf8(tree).expect("UTF-8"));
    let body = stream.find("\n\n").map_or(0, |i| i + 2);
    // The movetext alone, as each writer tells it and as written with no tag section.
    let mut alone = visit_games(pgn.as_bytes(), StreamWriter::movetext_only(options));
    alone.next();
    assert_eq!(alone.visitor().game_text(), &stream.as_bytes()[body..]);
    assert_eq!(streamed, &stream.as_bytes()[body..]);
    assert_eq!(writer.movetext(), &stream.as_bytes()[body..]);
    stream[body..].to_string()
}

/// Tags set after the game was read (between games, or during its
/// movetext) give the text the tree writer writes for the game holding
/// them, whatever tags the game had and in whichever order they sort.
#[test]
fn set_tags_writes_what_the_writer_writes() {
    let cases = [
        "1. e4 *",
        "[Annotator \"x\"]\n[WhiteElo \"1\"]\n1. e4 1-0",
        "[ECO \"A00\"]\n[Opening \"Old \\\"name\\\"\"]\n[ECO \"A01\"]\n[PlyCount \"1\"]\n1. e4 *",
        "[Black \"B\"]\n[EC \"a\"]\n[ECOX \"b\"]\n[Opening2 \"c\"]\n[Openin \"d\"]\n1. e4 (1. d4) 0-1",
        "[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"]\n[SetUp \"1\"]\n1. e4 *",
        "[FEN \"4k3/8/8/8/8/8/8/4K2R w K - 0 1\"]\n[SetUp \"1\"]\n1. O-O *",
    ];
    let tags = [
        ("ECO", "B00"),
        ("Opening", "King's Pawn \"Game\"\\ \t"),
        ("White", "Ünïcode"),
    ];
    for pgn in cases {
        let mut game: pgnkit_game::Game = pgn.parse().expect("a game");
        for (name, value) in tags {
            game.tags_mut().insert(name, value);
        }
        let mut want = Vec::new();
        GameWriter::new(ExportOptions::export())
            .write(&game, &mut want)
            .expect("a Vec");
        let mut games = visit_games(pgn.as_bytes(), StreamWriter::new(ExportOptions::export()));
        games.next();
        games.visitor().set_tags(tags);
        let after_end = games.visitor().game_text().to_vec();
        assert_eq!(
            String::from_utf8_lossy(&after_end),
            String::from_utf8_lossy(&want),
            "{pgn}"
        );
    }
}

/// Tags set before the section is written, or while the moves are read,
/// are written as the game's own.
#[test]
fn set_tags_before_the_game_ends() {
    struct Early(StreamWriter);
    impl Visitor for Early {
        type Output = ();
        fn begin_game(&mut self, game: GameStart<'_>) {
            self.0.begin_game(game);
            self.0.set_tags([("Annotator", "early")]);
        }
        fn tag(&mut self, name: &[u8], value: &[u8]) {
            self.0.tag(name, value);
        }
        fn begin_movetext(&mut self, start: &Position) {
            self.0.begin_movetext(start);
        }
        fn san(&mut self, event: MoveEvent<'_>) {
            self.0.san(event);
            self.0.set_tags([("ECO", "C20")]);
        }
        fn termination(&mut self, termination: Termination) {
            self.0.termination(termination);
        }
        fn end_game(&mut self) {
            self.0.end_game();
        }
    }
    let mut games = visit_games(
        b"[Event \"e\"]\n1. e4 e5 1-0".as_slice(),
        Early(StreamWriter::new(ExportOptions::export())),
    );
    games.next();
    let text = String::from_utf8(games.visitor().0.game_text().to_vec()).expect("UTF-8");
    assert!(text.starts_with("[Event \"e\"]\n"), "{text}");
    assert!(
        text.contains("[Result \"1-0\"]\n[Annotator \"early\"]\n[ECO \"C20\"]\n\n1. e4 e5 1-0\n\n"),
        "{text}"
    );
}

#[test]
fn the_movetext_alone_is_the_text_after_the_tag_section() {
    let games = [
        "[Result \"1-0\"]\n\n1. e4 0-1",
        "[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n[SetUp \"1\"]\n\n1. e4 Kd7 1/2-1/2",
        "[White \"A\"]\n[Zed \"z\"]\n\n{only a comment} *",
        "[Event \"E\"]\n\n1. e4 { a long comment that goes on and on and on and on and on and on } e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 1-0",
    ];
    for pgn in games {
        for options in [ExportOptions::export(), ExportOptions::reduced()] {
            let body = movetext(pgn, options);
            assert!(!body.starts_with('['), "{body}");
        }
    }
    let mut alone = visit_games(
        b"[White \"M\xfcller\"]\n\n1. e4 {sch\xf6n} 1-0\n",
        StreamWriter::movetext_only(ExportOptions::export()),
    );
    alone.next().expect("one game");
    assert_eq!(
        alone.visitor().game_text(),
        "1. e4 { schön } 1-0\n\n".as_bytes()
    );
}

#[test]
fn nag_after_variation_goes_before_it() {
    assert_eq!(
        movetext("1. e4 (1. d4 d5) $1 $2 e5 *", ExportOptions::export()),
        "1. e4 $1 $2 (1. d4 d5) 1... e5 *\n\n"
    );
    // In a variation, between two variations, and with a comment.
    assert_eq!(
        movetext(
            "1. e4 e5 (1... c5 2. Nf3 (2. Nc3) $5 (2. c3) $6 d6) 2. Nf3 *",
            ExportOptions::export()
        ),
        "1. e4 e5 (1... c5 2. Nf3 $5 $6 (2. Nc3) (2. c3) 2... d6) 2. Nf3 *\n\n"
    );
}

#[test]
fn alternative_to_a_variations_first_move_follows_its_parenthesis() {
    assert_eq!(
        movetext(
            "1. e4 e5 (1... c5 (1... e6 2. d4) 2. Nf3) 2. Nf3 *",
            ExportOptions::export()
        ),
        "1. e4 e5 (1... c5 2. Nf3) (1... e6 2. d4) 2. Nf3 *\n\n"
    );
    // Nested: each level moves out once.
    assert_eq!(
        movetext(
            "1. e4 (1. d4 (1. c4 (1. Nf3) c5) d5) e5 *",
            ExportOptions::export()
        ),
        "1. e4 (1. d4 d5) (1. c4 c5) (1. Nf3) 1... e5 *\n\n"
    );
}

#[test]
fn result_tag_is_the_marker() {
    let mut games = visit_games(
        b"[Result \"1-0\"]\n\n1. e4 0-1\n",
        StreamWriter::new(ExportOptions::export()),
    );
    let read = games.next().expect("one game");
    let text = String::from_utf8(games.visitor().game_text().to_vec()).expect("UTF-8");
    drop(read);
    assert!(text.contains("[Result \"0-1\"]\n"), "{text}");
    assert!(text.ends_with("\n\n1. e4 0-1\n\n"), "{text}");
}

#[test]
fn latin1_is_written_as_utf8() {
    let mut games = visit_games(
        b"[White \"M\xfcller\"]\n\n1. e4 {sch\xf6n} *\n",
        StreamWriter::new(ExportOptions::export()),
    );
    games.next().expect("one game");
    let text = std::str::from_utf8(games.visitor().game_text()).expect("UTF-8");
    assert!(text.contains("[White \"Müller\"]"), "{text}");
    assert!(text.ends_with("1. e4 { schön } *\n\n"), "{text}");
}

#[test]
fn options_apply_to_the_stream() {
    let pgn = "1. e4 $1 {c} (1. d4 {d}) e5 *";
    assert_eq!(movetext(pgn, ExportOptions::reduced()), "1. e4 e5 *\n\n");
    let no_variations = ExportOptions {
        variations: false,
        ..ExportOptions::export()
    };
    assert_eq!(movetext(pgn, no_variations), "1. e4 $1 { c } 1... e5 *\n\n");
}

#[test]
fn patch_result_replaces_the_seventh_line_only() {
    let mut out = b"1\n2\n3\n4\n5\n6\n[Result \"*\"]\n\n*\n\n".to_vec();
    patch_result(&mut out, b"1/2-1/2");
    assert_eq!(out, b"1\n2\n3\n4\n5\n6\n[Result \"1/2-1/2\"]\n\n*\n\n");
    let mut short = b"1\n2\n".to_vec();
    patch_result(&mut short, b"1-0");
    assert_eq!(short, b"1\n2\n");
}

/// The whole text of the one game of `pgn` as both writers write it (they
/// must agree).
fn both(pgn: &str, options: &ExportOptions) -> String {
    let mut games = visit_games(pgn.as_bytes(), StreamWriter::new(options.clone()));
    games.next();
    let streamed = String::from_utf8(games.visitor().game_text().to_vec()).expect("UTF-8");
    let read = read_games(pgn.as_bytes()).next().expect("one game");
    assert!(read.diagnostics.is_empty(), "{:?}", read.diagnostics);
    assert_eq!(streamed, crate::to_string(&read.value, options));
    streamed
}

const CHECKS: &str = "[Event \"x\"]\n[Foo \"y\"]\n[Annotator \"Z\"]\n[SetUp \"1\"]\n\
    [FEN \"4k3/8/8/8/8/8/3Q4/4K3 w - - 0 1\"]\n\n1. Qd7+ (1. Qb4 Kd7 2. Qb7+) Kxd7 { c } 2. Kd2 1/2-1/2\n";

#[test]
fn no_move_numbers_results_checks() {
    let options = ExportOptions {
        move_numbers: false,
        results: false,
        checks: false,
        ..ExportOptions::export()
    };
    let text = both(CHECKS, &options);
    assert!(
        text.ends_with("\n\nQd7 (Qb4 Kd7 Qb7) Kxd7 { c } Kd2\n\n"),
        "{text}"
    );
    assert!(text.contains("[Result \"1/2-1/2\"]\n"), "{text}");
    for notation in [Notation::Lan, Notation::Fan, Notation::Uci] {
        let text = both(
            CHECKS,
            &ExportOptions {
                checks: false,
                notation,
                ..ExportOptions::export()
            },
        );
        assert!(!text.contains('+') && !text.contains('#'), "{text}");
    }
    // Untouched options write export format: the checks are there.
    assert!(both(CHECKS, &ExportOptions::export()).contains("1. Qd7+ (1. Qb4"));
}

#[test]
fn no_tags_is_the_movetext_alone() {
    let options = ExportOptions {
        tags: false,
        ..ExportOptions::export()
    };
    assert_eq!(
        both(CHECKS, &options),
        "1. Qd7+ (1. Qb4 Kd7 2. Qb7+) 1... Kxd7 { c } 2. Kd2 1/2-1/2\n\n"
    );
}

#[test]
fn tag_order_first_then_the_rest_or_only_the_listed() {
    let order = crate::TagOrder::parse("Foo\nBlack\nResult\n", false).expect("names");
    let options = ExportOptions {
        tag_order: Some(order),
        ..ExportOptions::export()
    };
    let text = both(CHECKS, &options);
    let tags: Vec<&str> = text.lines().take_while(|l| l.starts_with('[')).collect();
    assert_eq!(
        tags,
        [
            "[Foo \"y\"]",
            "[Black \"?\"]",
            "[Result \"1/2-1/2\"]",
            "[Event \"x\"]",
            "[Site \"?\"]",
            "[Date \"????.??.??\"]",
            "[Round \"?\"]",
            "[White \"?\"]",
            "[Annotator \"Z\"]",
            "[FEN \"4k3/8/8/8/8/8/3Q4/4K3 w - - 0 1\"]",
            "[SetUp \"1\"]",
        ]
    );
    // Only the tags listed, and what replaying needs (FEN and SetUp); no
    // Result tag, as it was not listed.
    let order = crate::TagOrder::parse("Foo\nBlack\n", true).expect("names");
    let options = ExportOptions {
        tag_order: Some(order),
        ..ExportOptions::export()
    };
    let text = both(CHECKS, &options);
    assert!(
        text.starts_with(
            "[Foo \"y\"]\n[Black \"?\"]\n[FEN \"4k3/8/8/8/8/8/3Q4/4K3 w - - 0 1\"]\n[SetUp \"1\"]\n\n1. Qd7+"
        ),
        "{text}"
    );
    // Tags set late are written in the order too.
    let mut games = visit_games(CHECKS.as_bytes(), StreamWriter::new(options.clone()));
    games.next();
    games.visitor().set_tags([("Foo", "z")]);
    let text = String::from_utf8(games.visitor().game_text().to_vec()).expect("UTF-8");
    assert!(text.starts_with("[Foo \"z\"]\n[Black \"?\"]\n"), "{text}");
}

#[test]
fn tag_order_file_errors_name_the_line() {
    let e = crate::TagOrder::parse("White\n\n[Black]\n", false).expect_err("not a name");
    assert_eq!((e.line, e.found.as_str()), (3, "[Black]"));
    let order = crate::TagOrder::parse("White \"x\"\n; c\nWhite\nECO\n", true).expect("names");
    assert_eq!(order.names(), ["White", "ECO"]);
    assert!(order.only_listed());
}

#[test]
fn comment_lines_put_each_comment_alone() {
    let options = ExportOptions {
        comment_lines: true,
        tags: false,
        ..ExportOptions::export()
    };
    let pgn = "{ start } 1. e4 { comment1 } e5 { comment2 } ({ comment3 } 1... e6 (1... d6) 2. d4 (2. Nf3) { comment4 }) { comment5 } 2. Nf3 { a } { } { b } *";
    assert_eq!(
        both(pgn, &options),
        "{ start }\n1. e4\n{ comment1 }\n1... e5\n{ comment2 }\n(\n{ comment3 }\n1... e6 2. d4 (2. Nf3)\n{ comment4 }\n) (1... d6)\n{ comment5 }\n2. Nf3\n{ a }\n{ b }\n*\n\n"
    );
}

#[test]
fn nested_comments_holding_braces_are_written_as_line_comments() {
    let options = ExportOptions {
        nested_comments: true,
        tags: false,
        ..ExportOptions::export()
    };
    let mut read = pgnkit_game::ReadOptions::new();
    read.nested_comments = true;
    let pgn = "1. e4 { a { b } c } e5 { plain } ({ x { y } } 1... c5 { [%clk 0:10:00] }) 2. Nf3 { { } } *";
    let mut games =
        pgnkit_game::visit_games_with(pgn.as_bytes(), StreamWriter::new(options.clone()), read);
    let game = games.next().expect("one game");
    assert!(game.diagnostics.is_empty(), "{:?}", game.diagnostics);
    let streamed = String::from_utf8(games.visitor().game_text().to_vec()).expect("UTF-8");
    let tree = pgnkit_game::read_games_with(pgn.as_bytes(), read)
        .next()
        .expect("one game");
    assert_eq!(streamed, crate::to_string(&tree.value, &options));
    let text = "1. e4 ; a { b } c\n1... e5 { plain } (; x { y }\n1... c5 { [%clk 0:10:00] }) 2. Nf3 ; { }\n*\n\n";
    assert_eq!(streamed, text);
    // Off, a `{` alone is plain text in braces, as before; a `}` needs the `;` form.
    let plain = ExportOptions {
        tags: false,
        ..ExportOptions::export()
    };
    assert_eq!(
        crate::to_string(&tree.value, &plain),
        "1. e4 ; a { b } c\n1... e5 { plain } (; x { y }\n1... c5 { [%clk 0:10:00] }) 2. Nf3 ; { }\n*\n\n"
    );
    let game: pgnkit_game::Game = "1. e4 { a { b } *".parse().expect("a game");
    assert_eq!(crate::to_string(&game, &plain), "1. e4 { a { b } *\n\n");
    assert_eq!(crate::to_string(&game, &options), "1. e4 ; a { b\n*\n\n");
}
