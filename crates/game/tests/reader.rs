//! The reader's rules (SPEC-NOTES "Reading"), one small input each, and the
//! known defects it must not have.

use pgnkit_game::{
    Annotation, CommentKind, DiagnosticKind, Game, MAX_VARIATION_DEPTH, Nag, NodeId, ReadGame,
    ReadOptions, Severity, Skip, TagsOnly, Termination, Validate, Visitor, read_games,
    read_games_with, visit_games, visit_games_with,
};

fn one(pgn: &str) -> ReadGame<'_, Game> {
    let mut games: Vec<_> = read_games(pgn.as_bytes()).collect();
    assert_eq!(games.len(), 1, "expected one game in {pgn:?}");
    games.remove(0)
}

fn sans(game: &Game) -> Vec<String> {
    game.main_line_moves().map(|p| p.san.to_string()).collect()
}

/// The texts of the comments after a move (its annotations that are comments).
fn comments_after(node: &pgnkit_game::Node) -> Vec<&str> {
    node.annotations()
        .iter()
        .filter_map(|a| match a {
            Annotation::Comment(c) => Some(c.text()),
            Annotation::Nag(_) => None,
        })
        .collect()
}

fn kinds(read: &ReadGame<'_, Game>) -> Vec<(Severity, DiagnosticKind, u64, u64)> {
    read.diagnostics
        .iter()
        .map(|d| (d.severity, d.kind.clone(), d.line, d.column))
        .collect()
}

#[test]
fn error_in_variation_keeps_main_line() {
    let read = one("1. e4 e5 (1... c5 2. Ke3) 2. Nf3 Bc5 3. c3 Nf6 *");
    assert_eq!(sans(&read.value), ["e4", "e5", "Nf3", "Bc5", "c3", "Nf6"]);
    let errors: Vec<_> = read.diagnostics.errors().collect();
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].kind, DiagnosticKind::IllegalMove);
    assert_eq!(errors[0].move_text.as_deref(), Some("Ke3"));
    assert_eq!((errors[0].line, errors[0].column), (1, 22));
    assert_eq!(errors[0].start, 21);
    assert_eq!(
        errors[0].fen.as_deref(),
        Some("rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2")
    );
    assert!(read.is_broken());
    // The variation keeps what was read before the error.
    let e4 = read.value.main_line().next().unwrap();
    let alternatives = read.value[e4].variations().to_vec();
    assert_eq!(alternatives.len(), 1);
    let c5 = read.value.node(alternatives[0]).unwrap();
    assert_eq!(c5.san().unwrap().to_string(), "c5");
    assert_eq!(c5.children().len(), 0);
}

#[test]
fn unterminated_comment_in_second_of_three_games() {
    let pgn = "[Event \"g1\"]\n\n1. e4 e5 *\n\n[Event \"g2\"]\n\n1. d4 { never closed\n\n[Event \"g3\"]\n\n1. c4 c5 1-0\n";
    let games: Vec<_> = read_games(pgn.as_bytes()).collect();
    assert_eq!(games.len(), 3);
    assert!(!games[0].is_broken());
    assert_eq!(sans(&games[0].value), ["e4", "e5"]);
    assert!(games[1].is_broken());
    let e = games[1].diagnostics.errors().next().unwrap();
    assert_eq!(e.kind, DiagnosticKind::UnterminatedComment);
    assert_eq!((e.line, e.column), (7, 7));
    assert!(!games[2].is_broken());
    assert_eq!(games[2].value.tags().get("Event"), Some("g3"));
    assert_eq!(sans(&games[2].value), ["c4", "c5"]);
    assert_eq!(games[2].value.termination(), Termination::WhiteWins);
}

#[test]
fn tag_after_game_without_blank_line_is_a_tag() {
    let pgn = "[Event \"g1\"]\n1. e4 e5 *\n[Event \"g2\"]\n1. d4 *\n";
    let games: Vec<_> = read_games(pgn.as_bytes()).collect();
    assert_eq!(games.len(), 2);
    assert_eq!(games[1].value.tags().get("Event"), Some("g2"));
    assert_eq!(sans(&games[1].value), ["d4"]);
    assert!(games.iter().all(|g| g.diagnostics.is_empty()));
}

#[test]
fn lower_case_knight_is_the_knight_with_a_warning() {
    let read = one("1. e4 e5 2. nf3 Nc6 3. bb5 a6 4. bxc6 dxc6 *");
    assert_eq!(
        sans(&read.value),
        ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Bxc6", "dxc6"]
    );
    let warnings: Vec<_> = kinds(&read);
    assert_eq!(
        warnings,
        vec![
            (Severity::Warning, DiagnosticKind::LowerCasePiece, 1, 13),
            (Severity::Warning, DiagnosticKind::LowerCasePiece, 1, 24),
            // No pawn can take on c6: the bishop does.
            (Severity::Warning, DiagnosticKind::LowerCasePiece, 1, 34),
        ]
    );
    assert!(!read.is_broken());
    // Strict mode refuses it.
    let strict: Vec<_> = read_games_with(b"1. e4 e5 2. nf3 *", ReadOptions::strict()).collect();
    assert!(strict[0].is_broken());
}

#[test]
fn comments_nags_and_variations_are_placed() {
    let pgn = "{start} 1. e4 {after e4} $1 (1. d4 {d4} d5) {between} (1. c4) {before e5} 1... e5 $14 2. Nf3 (2. Bc4) {trailing} *";
    let read = one(pgn);
    assert!(read.diagnostics.is_empty(), "{:?}", read.diagnostics);
    let g = &read.value;
    let root = g.node(NodeId::ROOT).unwrap();
    assert_eq!(
        root.comments().map(|c| c.text()).collect::<Vec<_>>(),
        ["start"]
    );
    let line: Vec<_> = g.main_line().collect();
    let e4 = g.node(line[0]).unwrap();
    assert_eq!(
        e4.annotations(),
        &[
            Annotation::Comment(pgnkit_game::Comment::brace("after e4")),
            Annotation::Nag(Nag(1))
        ]
    );
    let e5 = g.node(line[1]).unwrap();
    let before: Vec<_> = e5.comments_before().iter().map(|c| c.text()).collect();
    assert_eq!(before, ["between", "before e5"]);
    assert_eq!(e5.nags().collect::<Vec<_>>(), [Nag(14)]);
    assert_eq!(root.variations().len(), 2);
    let nf3 = g.node(line[2]).unwrap();
    assert_eq!(
        nf3.trailing_comments()
            .iter()
            .map(|c| c.text())
            .collect::<Vec<_>>(),
        ["trailing"]
    );
}

#[test]
fn nag_rules() {
    let read = one("$3 1. e4 $01 $0 $1 (1. d4) $7 e5 $256 Nf3 *");
    let k = kinds(&read);
    assert_eq!(
        k[0],
        (Severity::Warning, DiagnosticKind::NagBeforeMove, 1, 1)
    );
    assert_eq!(
        k[1],
        (Severity::Error, DiagnosticKind::NagOutOfRange, 1, 34)
    );
    assert_eq!(k.len(), 2);
    let e4 = read.value.main_line().next().unwrap();
    assert_eq!(
        read.value.node(e4).unwrap().nags().collect::<Vec<_>>(),
        [Nag(1), Nag(0), Nag(1), Nag(7)]
    );
    assert_eq!(sans(&read.value), ["e4", "e5"]);
}

#[test]
fn suffixes_and_misplaced_suffix() {
    let read = one("1. e4! e5?! 2. Nf3 {c} ?? *");
    let e4 = read.value.main_line().next().unwrap();
    assert_eq!(
        read.value.node(e4).unwrap().nags().collect::<Vec<_>>(),
        [Nag(1)]
    );
    let errors: Vec<_> = read.diagnostics.errors().collect();
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].kind, DiagnosticKind::MisplacedSuffix);
    assert_eq!(errors[0].column, 24);
}

#[test]
fn empty_variation_dropped_with_warning() {
    let read = one("1. e4 ({only a comment}) () e5 *");
    assert_eq!(
        kinds(&read),
        vec![
            (Severity::Warning, DiagnosticKind::EmptyVariation, 1, 7),
            (Severity::Warning, DiagnosticKind::EmptyVariation, 1, 26),
        ]
    );
    assert!(read.value[NodeId::ROOT].variations().is_empty());
    assert_eq!(sans(&read.value), ["e4", "e5"]);
}

#[test]
fn missing_marker_and_result_disagreement() {
    let read = one("[Result \"1-0\"]\n\n1. e4 e5\n");
    assert_eq!(read.value.termination(), Termination::WhiteWins);
    assert!(matches!(
        kinds(&read)[0].1,
        DiagnosticKind::MissingMarker(_)
    ));
    let read = one("[Result \"1-0\"]\n\n1. e4 e5 0-1\n");
    assert_eq!(read.value.termination(), Termination::BlackWins);
    assert_eq!(
        kinds(&read),
        vec![(
            Severity::Warning,
            DiagnosticKind::ResultMismatch {
                tag: "1-0".into(),
                marker: "0-1".into()
            },
            3,
            10
        )]
    );
    let read = one("1. e4 e5\n");
    assert_eq!(read.value.termination(), Termination::Unknown);
}

#[test]
fn duplicate_tags_first_wins() {
    let read = one("[White \"a\"]\n[White \"b\"]\n\n*\n");
    assert_eq!(read.value.tags().get("White"), Some("a"));
    assert_eq!(read.value.tags().len(), 1);
    assert_eq!(
        kinds(&read),
        vec![(
            Severity::Warning,
            DiagnosticKind::DuplicateTag("White".into()),
            2,
            1
        )]
    );
}

#[test]
fn setup_fen_and_variants() {
    let read = one("[SetUp \"1\"]\n\n1. e4 *");
    assert_eq!(kinds(&read)[0].1, DiagnosticKind::SetUpWithoutFen);
    let read = one("[Variant \"Atomic\"]\n[Event \"x\"]\n\n1. e4 *");
    assert_eq!(
        kinds(&read),
        vec![(
            Severity::Error,
            DiagnosticKind::UnsupportedVariant("Atomic".into()),
            1,
            10
        )]
    );
    assert_eq!(read.value.tags().get("Event"), Some("x"));
    // A Shredder FEN makes it Chess960 without a tag: king f1, rooks e1 and
    // g1, so O-O is legal at once.
    let read = one(
        "[FEN \"bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1\"]\n[SetUp \"1\"]\n\n1. O-O O-O 2. Ng3 Ng6 *",
    );
    assert!(read.diagnostics.is_empty(), "{:?}", read.diagnostics);
    assert!(read.value.is_chess960());
    assert_eq!(read.value.main_line().count(), 4);
    let read = one("[FEN \"not a fen\"]\n\n1. e4 *");
    assert!(matches!(kinds(&read)[0].1, DiagnosticKind::InvalidFen(_)));
}

#[test]
fn structure_errors() {
    let read = one("1. e4 ) e5 *");
    assert_eq!(kinds(&read)[0].1, DiagnosticKind::UnmatchedClose);
    assert_eq!(sans(&read.value), ["e4"]);
    let read = one("1. e4 (1. d4 *");
    assert_eq!(kinds(&read)[0].1, DiagnosticKind::MarkerInVariation);
    let read = one("1. e4 (1. d4 d5");
    assert_eq!(kinds(&read)[0].1, DiagnosticKind::UnclosedVariation);
    assert_eq!((kinds(&read)[0].2, kinds(&read)[0].3), (1, 7));
    let read = one("1. e4 e5 2. Sf3 Nc6 *");
    assert_eq!(kinds(&read)[0].1, DiagnosticKind::InvalidMove);
    assert_eq!(sans(&read.value), ["e4", "e5"]);
}

/// `1. e4 (1. d4 (1. d4 ... ))) e5 *` with `depth` nested variations.
fn nested(depth: usize) -> String {
    format!(
        "1. e4 {}{} e5 *",
        "(1. d4 ".repeat(depth),
        ")".repeat(depth)
    )
}

#[test]
fn a_variation_deeper_than_the_limit_is_an_error_of_its_line() {
    let pgn = nested(MAX_VARIATION_DEPTH + 3);
    let read = one(&pgn);
    let errors = kinds(&read);
    assert_eq!(errors.len(), 1, "{errors:?}");
    // The first `(` too many: after `1. e4 ` and 256 × `(1. d4 `.
    let column = 7 + 7 * MAX_VARIATION_DEPTH as u64;
    assert_eq!(
        errors[0],
        (Severity::Error, DiagnosticKind::VariationTooDeep, 1, column)
    );
    // The deepest line allowed is cut at the `(`; everything else is read.
    let tree = read.value.tree();
    let root = tree.get(tree.root()).unwrap();
    assert_eq!(root.children().len(), MAX_VARIATION_DEPTH + 1);
    assert_eq!(sans(&read.value), ["e4", "e5"]);
}

#[test]
fn comments_after_marker_stay_with_the_game() {
    let pgn = "[Event \"a\"]\n\n1. e4 * {late}\n\n[Event \"b\"]\n\n1. d4 *\n";
    let games: Vec<_> = read_games(pgn.as_bytes()).collect();
    assert_eq!(games.len(), 2);
    let e4 = games[0].value.main_line().next().unwrap();
    let node = games[0].value.node(e4).unwrap();
    assert_eq!(
        node.comments().map(|c| c.text()).collect::<Vec<_>>(),
        ["late"]
    );
    assert_eq!(kinds(&games[0])[0].1, DiagnosticKind::CommentAfterMarker);
}

#[test]
fn rest_of_line_comments_and_latin1() {
    let mut pgn = b"[White \"M\xfcller\"]\n\n1. e4 ; k\xf6nig\n e5 *\n".to_vec();
    let games: Vec<_> = read_games(&pgn).collect();
    let g = &games[0].value;
    assert_eq!(g.tags().get("White"), Some("Müller"));
    assert_eq!(g.encoding(), pgnkit_game::Encoding::Latin1);
    let e4 = g.node(g.main_line().next().unwrap()).unwrap();
    let c = e4.comments().next().unwrap();
    assert_eq!((c.text(), c.kind()), (" könig", CommentKind::Line));
    pgn.clear();
}

#[test]
fn visitor_can_skip_variations_and_fast_paths_count() {
    #[derive(Default)]
    struct MainOnly {
        moves: usize,
    }
    impl Visitor for MainOnly {
        type Output = usize;
        fn san(&mut self, _: pgnkit_game::MoveEvent<'_>) {
            self.moves += 1;
        }
        fn begin_variation(&mut self) -> Skip {
            Skip::Yes
        }
        fn end_game(&mut self) -> usize {
            std::mem::take(&mut self.moves)
        }
    }
    let pgn = b"[Event \"a\"]\n\n1. e4 (1. d4 d5 (1... Nf6)) e5 *\n\n[Event \"b\"]\n\n1. Ke2 *\n";
    let counts: Vec<_> = visit_games(pgn, MainOnly::default())
        .map(|g| (g.value, g.is_broken()))
        .collect();
    assert_eq!(counts, vec![(2, false), (0, true)]);
    let tags: Vec<_> = visit_games(pgn, TagsOnly::default())
        .map(|g| g.value.get("Event").map(str::to_owned))
        .collect();
    assert_eq!(tags, vec![Some("a".into()), Some("b".into())]);
    let broken: Vec<_> = visit_games(pgn, Validate).map(|g| g.is_broken()).collect();
    assert_eq!(broken, vec![false, true]);
}

#[test]
fn a_skipped_variation_is_still_checked_and_sends_nothing() {
    /// Records every event name; skips every variation.
    #[derive(Default)]
    struct Events(Vec<String>);
    impl Visitor for Events {
        type Output = Vec<String>;
        fn san(&mut self, e: pgnkit_game::MoveEvent<'_>) {
            self.0.push(String::from_utf8_lossy(e.text).into_owned());
        }
        fn nag(&mut self, nag: pgnkit_game::Nag) {
            self.0.push(format!("${}", nag.0));
        }
        fn comment(&mut self, c: pgnkit_game::RawComment<'_>) {
            self.0
                .push(format!("{{{}}}", String::from_utf8_lossy(c.text)));
        }
        fn begin_variation(&mut self) -> Skip {
            Skip::Yes
        }
        fn end_variation(&mut self) {
            self.0.push(")".into());
        }
        fn end_game(&mut self) -> Vec<String> {
            std::mem::take(&mut self.0)
        }
    }
    let pgn = b"[Event \"marker\"]\n\n1. e4 e5 (1... c5 *) 2. Nf3 *\n\n\
        [Event \"illegal\"]\n\n1. e4 (1. d4 d5 2. Kxx9) e5 *\n\n\
        [Event \"nested\"]\n\n1. e4 (1. d4 {c} d5 $1 (1... Nf6 2. Qxh7)) e5 *\n\n\
        [Event \"fine\"]\n\n1. e4 (1. d4! {c} d5 (1... Nf6 $2)) e5 $3 *\n";
    let skipped: Vec<_> = visit_games(pgn, Events::default())
        .map(|g| {
            let kinds: Vec<_> = g.diagnostics.iter().map(|d| d.kind.clone()).collect();
            (g.value, kinds)
        })
        .collect();
    let whole: Vec<_> = read_games(pgn)
        .map(|g| {
            g.diagnostics
                .iter()
                .map(|d| d.kind.clone())
                .collect::<Vec<_>>()
        })
        .collect();
    // Every visitor sees the same errors, whether it reads the variations or not.
    assert_eq!(
        skipped.iter().map(|(_, k)| k.clone()).collect::<Vec<_>>(),
        whole
    );
    assert_eq!(whole[0], vec![DiagnosticKind::MarkerInVariation]);
    assert_eq!(whole[1], vec![DiagnosticKind::InvalidMove]);
    assert_eq!(whole[2], vec![DiagnosticKind::IllegalMove]);
    assert!(whole[3].is_empty());
    // ... and no event of a skipped variation reaches it.
    assert_eq!(skipped[3].0, ["e4", "e5", "$3"]);
}

#[test]
fn stream_reader_matches_slice_reader() {
    let pgn = b"[Event \"a\"]\n\n1. e4 e5 *\n\n[Event \"b\"]\n\n1. d4 Ke7 *\n";
    let from_stream: Vec<_> = pgnkit_game::Reader::new(&pgn[..])
        .map(|r| r.expect("in-memory read"))
        .map(|g| (g.value.to_json(), g.is_broken(), g.line))
        .collect();
    let from_slice: Vec<_> = read_games(pgn)
        .map(|g| (g.value.to_json(), g.is_broken(), g.line))
        .collect();
    assert_eq!(from_stream, from_slice);
    assert_eq!(from_slice.len(), 2);
}

#[test]
fn unterminated_tag_string_breaks_game_but_keeps_tags() {
    let read = one("[Event \"open\n[Site \"s\"]\n\n1. e4 *\n");
    assert_eq!(kinds(&read)[0].1, DiagnosticKind::UnterminatedString);
    assert_eq!((kinds(&read)[0].2, kinds(&read)[0].3), (1, 8));
    assert_eq!(read.value.tags().get("Site"), Some("s"));
    assert_eq!(sans(&read.value), ["e4"]);
}

mod arbitrary_input {
    use super::*;
    use proptest::prelude::*;

    /// Bytes that look like PGN often enough to reach deep reader states.
    fn pgnish() -> impl Strategy<Value = Vec<u8>> {
        let atoms = prop::sample::select(vec![
            "[Event \"x\"]\n",
            "[FEN \"8/8/8/8/8/8/8/K6k w - - 0 1\"]\n",
            "[Variant \"960\"]\n",
            "[SetUp \"1\"]\n",
            "1.",
            " e4",
            " e5",
            " Nf3",
            " Nc6",
            " (",
            ")",
            " {c}",
            " ; l\n",
            " $1",
            " $300",
            " !?",
            " *",
            " 1-0",
            "\n\n",
            " --",
            " O-O",
            " 0-0",
            " Ke2",
            " {",
            "\"",
            " nf3",
            "<FF>",
            "\n%esc\n",
            " e8=Q",
            " bxc3",
        ]);
        prop::collection::vec(atoms, 0..40).prop_map(|v| {
            v.iter()
                .flat_map(|a| {
                    if *a == "<FF>" {
                        vec![0xff]
                    } else {
                        a.as_bytes().to_vec()
                    }
                })
                .collect()
        })
    }

    proptest! {
        #[test]
        fn never_panics_and_loses_no_game(bytes in pgnish()) {
            let splitter = pgnkit_lexer::GameSplitter::new(&bytes).count();
            let mut n = 0;
            for read in read_games(&bytes) {
                n += 1;
                for d in &read.diagnostics {
                    prop_assert!(d.line >= read.line);
                    prop_assert!(d.start >= read.offset && d.end <= read.offset + read.raw.len() as u64);
                }
                let json = read.value.to_json();
                prop_assert!(Game::from_json(&json).is_ok(), "{}", json);
            }
            prop_assert_eq!(n, splitter);
        }

        #[test]
        fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
            for read in visit_games_with(&bytes, Validate, ReadOptions::strict()) {
                let _ = read.is_broken();
            }
            let _ = read_games(&bytes).count();
        }
    }
}

#[test]
fn column_of_a_game_that_starts_mid_line() {
    let pgn = b"[Event \"a\"]\n\n1. e4 e5 1-0 [Event \"b\"]\n\n1. d4 *\n  [Event \"c\"] 1. Ke2 *\n";
    let games: Vec<_> = read_games(pgn).collect();
    assert_eq!(games.len(), 3);
    assert_eq!(games[1].value.tags().get("Event"), Some("b"));
    let e = games[2]
        .diagnostics
        .errors()
        .next()
        .expect("Ke2 is illegal");
    assert_eq!((e.line, e.column), (6, 18));
    let from_stream: Vec<_> = pgnkit_game::Reader::new(&pgn[..])
        .map(|r| r.expect("in-memory read"))
        .map(|g| {
            g.diagnostics
                .iter()
                .map(|d| (d.line, d.column))
                .collect::<Vec<_>>()
        })
        .collect();
    assert_eq!(from_stream[2], vec![(6, 18)]);
}

#[test]
fn strict_mode_reports_every_lenient_form() {
    let lenient = "1. e4 e5 2. Ng1f3 Nc6 3. Bb5 a6 4. 0-0 Nf6 1/2-1/2";
    let read: Vec<_> = read_games(lenient.as_bytes()).collect();
    assert!(read[0].diagnostics.is_empty());
    let strict: Vec<_> = read_games_with(lenient.as_bytes(), ReadOptions::strict()).collect();
    let errors: Vec<_> = strict[0].diagnostics.errors().collect();
    assert_eq!(
        errors.len(),
        1,
        "one error: the rest of the line is skipped"
    );
    assert!(matches!(errors[0].kind, DiagnosticKind::LenientForm(_)));
    assert_eq!(errors[0].column, 13);
    let variant = "1. e4 e5 ½-½";
    let strict: Vec<_> = read_games_with(variant.as_bytes(), ReadOptions::strict()).collect();
    assert!(strict[0].is_broken());
    let lenient: Vec<_> = read_games(variant.as_bytes()).collect();
    assert_eq!(lenient[0].value.termination(), Termination::Draw);
    assert!(!lenient[0].is_broken());
    let ep = "[FEN \"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1\"]\n\n1. exd6 e.p. Kf7 *";
    let read: Vec<_> = read_games(ep.as_bytes()).collect();
    assert!(read[0].diagnostics.is_empty(), "{:?}", read[0].diagnostics);
    assert_eq!(read[0].value.main_line().count(), 2);
    let bad_ep = "1. e4 e.p. *";
    let read: Vec<_> = read_games(bad_ep.as_bytes()).collect();
    assert_eq!(
        read[0].diagnostics.errors().next().map(|e| e.column),
        Some(7)
    );
}

#[test]
fn deep_nesting_reads() {
    // 1. e4 (1. d4 (1. c4 (... as deep as variations may nest.
    let firsts = ["e4", "d4", "c4", "Nf3"];
    let mut pgn = String::new();
    for i in 0..MAX_VARIATION_DEPTH {
        pgn.push_str(&format!("1. {} ", firsts[i % 4]));
        pgn.push('(');
    }
    pgn.push_str("1. b3");
    pgn.push_str(&")".repeat(MAX_VARIATION_DEPTH));
    pgn.push_str(" *");
    let read = one(&pgn);
    assert!(read.diagnostics.is_empty(), "{:?}", read.diagnostics);
    // Every `(` is an alternative to a first move: the tree is flat.
    assert_eq!(
        read.value.node(NodeId::ROOT).unwrap().children().len(),
        MAX_VARIATION_DEPTH + 1
    );
    let json = read.value.to_json();
    assert_eq!(Game::from_json(&json).map(|g| g.to_json()).ok(), Some(json));
}

#[test]
fn paren_before_any_move_skips_its_group() {
    let read = one("1. e4 ((1. d4) 1. c4) e5 *");
    let errors: Vec<_> = read.diagnostics.errors().collect();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors[0].column, 8);
    assert_eq!(sans(&read.value), ["e4", "e5"]);
}

#[test]
fn deep_trees_write_json_without_recursion() {
    // Each level: two moves, then a variation on the second one, nested.
    fn deep(levels: usize) -> Game {
        let mut game = Game::new();
        let mut cur = NodeId::ROOT;
        for _ in 0..levels {
            let pos = game.position_at(cur).expect("node");
            let moves = pos.legal_moves();
            let first = game.add_move(cur, moves[0]).expect("legal");
            let pos = game.position_at(first).expect("node");
            let replies = pos.legal_moves();
            let _main = game.add_move(first, replies[0]).expect("legal");
            cur = game.add_move(first, replies[1]).expect("legal");
        }
        game
    }
    // Within serde_json's nesting limit the JSON reads back, and serde's
    // Serialize writes the same text as to_json.
    let game = deep(40);
    let json = game.to_json();
    assert_eq!(
        serde_json::to_string(&game).ok().as_deref(),
        Some(json.as_str())
    );
    let back = Game::from_json(&json).expect("within the nesting limit");
    assert_eq!(back.to_json(), json);
    // Far deeper: to_json still writes it (no recursion); reading it back
    // and serde's Serialize refuse with an error instead of overflowing.
    let game = deep(3000);
    let json = game.to_json();
    assert!(json.ends_with(r#""result":"*"}"#));
    assert_eq!(json.matches("variations").count(), 3000);
    assert!(Game::from_json(&json).is_err());
    assert!(serde_json::to_string(&game).is_err());
}

#[test]
fn a_dropped_empty_variation_leaves_comments_where_they_would_be_without_it() {
    // Without the `()`, `{ c }` follows e5 directly and belongs to it; the
    // dropped variation must not turn it into a comment before Nf3 (export
    // cannot write the `()`, so the game would read back differently).
    let read = one("1. e4 e5 () { c } 2. Nf3 *");
    let game = &read.value;
    let ids: Vec<NodeId> = game.main_line().collect();
    let e5 = game.node(ids[1]).unwrap();
    let nf3 = game.node(ids[2]).unwrap();
    assert_eq!(comments_after(&e5), [" c "]);
    assert!(nf3.comments_before().is_empty());
    assert_eq!(
        kinds(&read),
        [(Severity::Warning, DiagnosticKind::EmptyVariation, 1, 10)]
    );

    // After a real variation the dropped one changes nothing either: the
    // comment stands before the next move, as after `(1... c5)` alone.
    let read = one("1. e4 e5 (1... c5) () { c } 2. Nf3 *");
    let game = &read.value;
    let ids: Vec<NodeId> = game.main_line().collect();
    let nf3 = game.node(ids[2]).unwrap();
    let before: Vec<&str> = nf3.comments_before().iter().map(|c| c.text()).collect();
    assert_eq!(before, [" c "]);
}

#[test]
fn first_line_columns_are_file_columns_in_every_reader() {
    // A byte order mark counts no column, leading white space does, and a
    // game may start after the previous game's marker on the same line.
    let input =
        "\u{feff}  1. e4 Ke3 *\n\n[Event \"a\"]\n\n1. e4 e5 1-0 [Event \"b\"] 1. d4 Kd2 *\n";
    let expected = [(1, 9), (5, 32)];
    let sliced: Vec<(u64, u64)> = read_games(input.as_bytes())
        .flat_map(|g| {
            g.diagnostics
                .errors()
                .map(|d| (d.line, d.column))
                .collect::<Vec<_>>()
        })
        .collect();
    assert_eq!(sliced, expected);
    let streamed: Vec<(u64, u64)> = pgnkit_game::Reader::new(input.as_bytes())
        .map(|g| g.expect("a slice reads"))
        .flat_map(|g| {
            g.diagnostics
                .errors()
                .map(|d| (d.line, d.column))
                .collect::<Vec<_>>()
        })
        .collect();
    assert_eq!(streamed, expected);
    let line5 = input.lines().nth(4).unwrap();
    assert_eq!(line5.find("Kd2").unwrap() + 1, 32);
}

#[test]
fn a_comment_after_alternatives_to_a_variations_own_move_is_that_moves_comment() {
    // `(1... e6)` is an alternative to the variation's e5, so in the tree
    // it is a sibling and that e5 has no variations: `{ c }` cannot stand
    // "after its variations" and is its comment (as export writes it).
    let read = one("1. e4 e5 (1... e5 (1... e6) { c }) 2. Nf3 *");
    let game = &read.value;
    let e4 = game.main_line().next().unwrap();
    let children = game[e4].children().to_vec();
    assert_eq!(children.len(), 3, "main e5, the variation's e5, e6");
    let variation_e5 = game.node(children[1]).unwrap();
    assert_eq!(comments_after(&variation_e5), [" c "]);
    assert!(variation_e5.trailing_comments().is_empty());

    // On a main-line move with variations the comment stays after them.
    let read = one("1. e4 e5 (1... c5) { c } *");
    let game = &read.value;
    let e5 = game.main_line().nth(1).unwrap();
    let trailing: Vec<&str> = game[e5]
        .trailing_comments()
        .iter()
        .map(|c| c.text())
        .collect();
    assert_eq!(trailing, [" c "]);
}

/// Issue 22 point 9: the slice and stream entry points take a visitor the
/// same way (by value or `&mut`), options have a default, and the stream
/// reader takes any `Read`.
#[test]
fn entry_points_take_visitors_alike_and_any_read() {
    /// Counts moves over all games (kept across games).
    #[derive(Default)]
    struct Moves(usize);
    impl Visitor for Moves {
        type Output = ();
        fn san(&mut self, _: pgnkit_game::MoveEvent<'_>) {
            self.0 += 1;
        }
        fn end_game(&mut self) {}
    }
    /// A stream that is `Read` only (not `BufRead`), giving 3 bytes a call.
    struct Trickle<'a>(&'a [u8]);
    impl std::io::Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = buf.len().min(3).min(self.0.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }
    let pgn = b"1. e4 e5 (1... c5) 2. Nf3 *\n\n1. d4 0-0 *\n\n[Event \"x\"]\n1. c4 *\n";
    let mut slice = Moves::default();
    let games = visit_games(pgn, &mut slice).count();
    assert_eq!((games, slice.0), (3, 6));
    let mut stream = Moves::default();
    let mut reader = pgnkit_game::Reader::new(Trickle(pgn));
    let mut broken = Vec::new();
    while let Some(read) = reader.visit_next(&mut stream) {
        broken.push(read.expect("in-memory read").is_broken());
    }
    assert_eq!(stream.0, slice.0);
    assert_eq!(broken, [false, true, false]);
    // Strict options through both, the same way.
    let strict = ReadOptions::strict();
    let lenient: Vec<_> = visit_games_with(b"1. e4 e5 2. Ng1f3 *\n", Validate, strict)
        .map(|g| g.is_broken())
        .collect();
    let mut reader = pgnkit_game::Reader::with_options(Trickle(b"1. e4 e5 2. Ng1f3 *\n"), strict);
    let streamed = reader
        .visit_next(Validate)
        .map(|r| r.map(|g| g.is_broken()).ok());
    assert_eq!((lenient, streamed), (vec![true], Some(Some(true))));
}

/// Issue 22 point 9: a visitor reads clocks and evals from the comments'
/// bytes, Latin-1 ones too.
#[test]
fn visitors_read_comment_commands_from_bytes() {
    #[derive(Default)]
    struct Clocks(Vec<(Option<u64>, Option<pgnkit_game::Score>, usize)>);
    impl Visitor for Clocks {
        type Output = ();
        fn comment(&mut self, c: pgnkit_game::RawComment<'_>) {
            let clock = c.clock().map(|d| d.as_secs());
            self.0
                .push((clock, c.eval().map(|e| e.score), c.shapes().count()));
        }
        fn end_game(&mut self) {}
    }
    // `\xe9` is Latin-1 (not UTF-8) text before the commands.
    let pgn = b"1. e4 { caf\xe9 [%clk 0:10:00] [%eval #-3] } e5 { [%csl Ga4,Xb5][%cal Ge2e4] } *\n";
    let mut clocks = Clocks::default();
    assert_eq!(visit_games(pgn, &mut clocks).count(), 1);
    assert_eq!(
        clocks.0,
        [
            (Some(600), Some(pgnkit_game::Score::Mate(-3)), 0),
            (None, None, 2)
        ]
    );
}

/// SPEC-NOTES "Tag pairs" (issue 22): unescaped quotes inside a tag value
/// whose line ends with `"]` run the value to that last quote, escapes
/// applied, with a warning naming the tag; the game is read.
#[test]
fn unescaped_quotes_in_a_tag_value_warn_and_read() {
    let read = one("[Event \"The \"Big\" Open\"]\n[White \"\"A \\\"B\\\"\"\"]  \n\n1. e4 *\n");
    assert!(!read.is_broken(), "{:?}", read.diagnostics);
    let tags = read.value.tags();
    assert_eq!(tags.get("Event"), Some("The \"Big\" Open"));
    assert_eq!(tags.get("White"), Some("\"A \"B\"\""));
    let warnings: Vec<_> = read.diagnostics.iter().map(|d| d.to_string()).collect();
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    assert!(warnings[0].contains("unescaped quote in the value of tag Event"));
    assert!(warnings[1].contains("unescaped quote in the value of tag White"));
    assert!(
        read.diagnostics
            .iter()
            .all(|d| d.severity == Severity::Warning)
    );
    assert_eq!(sans(&read.value), ["e4"]);
    // Validate gives the same diagnostics (it does not unescape values).
    let pgn = b"[Event \"The \"Big\" Open\"]\n\n1. e4 *\n";
    let validated: Vec<_> = visit_games(pgn, Validate).map(|g| g.diagnostics).collect();
    let built: Vec<_> = read_games(pgn).map(|g| g.diagnostics).collect();
    assert_eq!(validated, built);
}

/// SPEC-NOTES "When a game is Chess960" (issue 22): castling rights that
/// name no rook are dropped, with a warning, before deciding.
#[test]
fn chess960_is_decided_after_rookless_rights_are_dropped() {
    let fen = |castling: &str| {
        format!(
            "[FEN \"r3k2r/8/8/8/8/8/8/R3K2R w {castling} - 0 1\"]\n[SetUp \"1\"]\n\n1. O-O-O *\n"
        )
    };
    // `E` names the king's file, where there is no rook.
    let pgn = fen("EQkq");
    let read = one(&pgn);
    assert!(!read.is_broken(), "{:?}", read.diagnostics);
    let start = read.value.start_position();
    assert_eq!(start.castling_mode(), pgnkit_chess::CastlingMode::Standard);
    assert!(start.to_string().contains(" w Qkq "), "{start}");
    let warnings: Vec<_> = read.diagnostics.iter().map(|d| d.to_string()).collect();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(warnings[0].contains("castling right E names no rook"));
    // Shredder letters for the corner rooks: standard chess, no warning.
    let pgn = fen("HAha");
    let read = one(&pgn);
    assert!(read.diagnostics.is_empty(), "{:?}", read.diagnostics);
    assert_eq!(
        read.value.start_position().castling_mode(),
        pgnkit_chess::CastlingMode::Standard
    );
    // A letter naming a rook off its corner stays Chess960.
    let read = one("[FEN \"1r2k3/8/8/8/8/8/8/1R2K3 w Bb - 0 1\"]\n\n1. Kd1 *\n");
    assert!(read.diagnostics.is_empty(), "{:?}", read.diagnostics);
    assert_eq!(
        read.value.start_position().castling_mode(),
        pgnkit_chess::CastlingMode::Chess960
    );
}

/// Issue 34: the usual tag pairs take a fast path (`[`, a symbol, a string, `]` in a game with
/// no lexer warning), the others the general one; duplicates are found across the two, and
/// every visitor gets the same diagnostics.
#[test]
fn tag_pairs_read_on_either_path_give_the_same_diagnostics() {
    let cases: [(&str, &[DiagnosticKind]); 6] = [
        // A duplicate of a pair after a comment, of an Integer-named one, of a value with escapes.
        (
            "[White \"a\"]\n{c}\n[White \"b\"]\n[1 \"x\"]\n[1 \"y\"]\n[Black \"\\\"q\\\"\"]\n[Black \"z\"]\n\n*\n",
            &[
                DiagnosticKind::DuplicateTag("White".into()),
                DiagnosticKind::DuplicateTag("1".into()),
                DiagnosticKind::DuplicateTag("Black".into()),
            ],
        ),
        // A symbol that is no tag name ends the tag section.
        (
            "[Event \"a\"]\n[Ev-nt \"b\"]\n\n1. e4 *\n",
            &[DiagnosticKind::MalformedTag(
                "expected a tag name, found symbol `Ev-nt`".into(),
            )],
        ),
        // A TAB in a value: that game's pairs are all read by the general path.
        (
            "[Event \"a\"]\n[Site \"a\tb\"]\n[Event \"c\"]\n\n*\n",
            &[
                DiagnosticKind::TabInTag,
                DiagnosticKind::DuplicateTag("Event".into()),
            ],
        ),
        // The reader's own tags: FEN and SetUp from the fast path set the position.
        (
            "[FEN \"4k3/8/8/8/8/8/8/4K2R w K - 0 1\"]\n[SetUp \"1\"]\n\n1. O-O *\n",
            &[],
        ),
        (
            "[Event \"a\"]\n[Result \"1-0\"]\n\n1. e4 0-1\n",
            &[DiagnosticKind::ResultMismatch {
                tag: "1-0".into(),
                marker: "0-1".into(),
            }],
        ),
        (
            "[Variant \"Atomic\"]\n\n1. e4 *\n",
            &[DiagnosticKind::UnsupportedVariant("Atomic".into())],
        ),
    ];
    for (pgn, expected) in cases {
        let built: Vec<_> = read_games(pgn.as_bytes()).map(|g| g.diagnostics).collect();
        let validated: Vec<_> = visit_games(pgn.as_bytes(), Validate)
            .map(|g| g.diagnostics)
            .collect();
        assert_eq!(built, validated, "{pgn:?}");
        let kinds: Vec<_> = built[0].iter().map(|d| d.kind.clone()).collect();
        assert_eq!(kinds, expected, "{pgn:?}");
    }
    // The FEN was read: castling from it is legal, and the game ends there.
    let read = one("[FEN \"4k3/8/8/8/8/8/8/4K2R w K - 0 1\"]\n[SetUp \"1\"]\n\n1. O-O *\n");
    assert_eq!(sans(&read.value), ["O-O"]);
}
