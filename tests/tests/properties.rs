//! Properties over generated chess: positions reached by random legal play
//! round-trip through FEN; move lists round-trip through SAN and UCI; and
//! generated games (random legal moves, NAGs, comments of arbitrary text with
//! braces and line ends, nested variations) round-trip through export (as a
//! model, comment text modulo white space) and exactly through JSON.

use pgnkit::chess::{CastlingMode, FenOptions, Move, Position, San, SanPlus, Setup, Uci};
use pgnkit::export::{ExportOptions, to_string};
use pgnkit::game::{Comment, Game, Nag, NodeId, read_games};
use pgnkit_conformance::model::{Fidelity, same_model};
use proptest::prelude::*;

/// Where random play starts: the standard start, a Chess960 start (king
/// between its rooks, castling both ways), and a position with promotions.
fn start(index: usize) -> Position {
    let (fen, mode) = [
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            CastlingMode::Standard,
        ),
        (
            "nrbkqbrn/pppppppp/8/8/8/8/PPPPPPPP/NRBKQBRN w GBgb - 0 1",
            CastlingMode::Chess960,
        ),
        (
            "r3k2r/1P4P1/8/8/8/8/1p4p1/R3K2R w KQkq - 0 1",
            CastlingMode::Standard,
        ),
    ][index % 3];
    let setup = Setup::parse(fen.as_bytes()).expect("a fixed FEN");
    Position::from_setup(setup, mode).expect("a fixed position")
}

/// Plays `choices` from `pos` (each picks one legal move, modulo their
/// number), stopping when no move is legal; returns the moves played.
fn random_play(pos: &mut Position, choices: &[usize]) -> Vec<Move> {
    let mut played = Vec::new();
    for &c in choices {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[c % moves.len()];
        pos.play_unchecked(m);
        played.push(m);
    }
    played
}

fn fen_round_trip(pos: &Position) -> Result<(), TestCaseError> {
    for options in [
        FenOptions::new(),
        FenOptions::new().en_passant_1994(),
        FenOptions::new().shredder(),
    ] {
        let fen = pos.fen(options);
        let setup =
            Setup::parse(fen.as_bytes()).map_err(|e| TestCaseError::fail(format!("{fen}: {e}")))?;
        let back = Position::from_setup(setup, pos.castling_mode())
            .map_err(|e| TestCaseError::fail(format!("{fen}: {e}")))?;
        prop_assert_eq!(&back, pos, "{}", fen);
        prop_assert_eq!(back.zobrist(), pos.zobrist(), "{}", fen);
        prop_assert_eq!(back.fen(options), fen);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn positions_from_random_play_round_trip_through_fen(
        which in 0usize..3,
        choices in prop::collection::vec(any::<usize>(), 0..120),
    ) {
        let mut pos = start(which);
        let mut line = start(which);
        fen_round_trip(&pos)?;
        for m in random_play(&mut pos, &choices) {
            line.play_unchecked(m);
            fen_round_trip(&line)?;
        }
        prop_assert_eq!(line, pos);
    }

    #[test]
    fn move_lists_round_trip_through_san_and_uci(
        which in 0usize..3,
        choices in prop::collection::vec(any::<usize>(), 0..120),
    ) {
        let start = start(which);
        let mode = start.castling_mode();
        let moves = random_play(&mut start.clone(), &choices);
        // Written as SAN (with +/#) and as UCI, then read back from text alone.
        let mut pos = start.clone();
        let mut san_text = Vec::new();
        let mut uci_text = Vec::new();
        for &m in &moves {
            uci_text.push(Uci::from_move(m, mode).to_string());
            san_text.push(SanPlus::from_move_and_play_unchecked(&mut pos, m).to_string());
        }
        let mut by_san = start.clone();
        let mut by_uci = start.clone();
        for ((&m, san), uci) in moves.iter().zip(&san_text).zip(&uci_text) {
            let parsed: SanPlus = SanPlus::parse(san.as_bytes())
                .map_err(|e| TestCaseError::fail(format!("{san}: {e}")))?;
            prop_assert_eq!(parsed.to_string(), san.clone());
            let from_san = parsed.san.to_move(&by_san)
                .map_err(|e| TestCaseError::fail(format!("{san} in {by_san}: {e}")))?;
            prop_assert_eq!(from_san, m, "SAN {} in {}", san, by_san);
            prop_assert_eq!(San::from_move(&by_san, m), parsed.san);
            let parsed_uci: Uci = uci.parse()
                .map_err(|e| TestCaseError::fail(format!("{uci}: {e:?}")))?;
            let from_uci = parsed_uci.to_move(&by_uci)
                .map_err(|e| TestCaseError::fail(format!("{uci} in {by_uci}: {e:?}")))?;
            prop_assert_eq!(from_uci, m, "UCI {} in {}", uci, by_uci);
            by_san.play_unchecked(from_san);
            by_uci.play_unchecked(from_uci);
        }
        prop_assert_eq!(&by_san, &pos);
        prop_assert_eq!(&by_uci, &pos);
    }
}

/// One step of a generated game.
#[derive(Debug, Clone)]
enum Op {
    /// Play a legal move (chosen modulo their number) on the current line.
    Move(usize),
    /// A NAG after the current line's last move.
    Nag(u8),
    /// A comment after the current line's last move (`true`: a `;` comment).
    Comment(String, bool),
    /// Open a variation: an alternative to the current line's last move,
    /// with a comment before its first move when given.
    Open(Option<String>),
    /// Close the innermost variation.
    Close,
}

/// Comment text: anything, but rich in what matters to PGN (braces, line
/// ends, `;`, `%`, brackets, quotes, parentheses, non-ASCII).
fn comment_text() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            6 => prop::sample::select(vec![
                "a", "word", " ", "  ", "\n", "\r\n", "\t", "{", "}", ";", "%", "[%clk 0:01:02]",
                "[", "]", "\"", "\\", "(", ")", "1-0", "*", "é", "♞", "$1", "!?", "e4", "\u{b}",
            ])
            .prop_map(str::to_owned),
            1 => any::<char>().prop_map(String::from),
        ],
        0..12,
    )
    .prop_map(|parts| parts.concat())
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        10 => any::<usize>().prop_map(Op::Move),
        2 => any::<u8>().prop_map(Op::Nag),
        2 => (comment_text(), prop::bool::weighted(0.2)).prop_map(|(t, l)| Op::Comment(t, l)),
        2 => prop::option::weighted(0.3, comment_text()).prop_map(Op::Open),
        2 => Just(Op::Close),
    ]
}

/// Builds a game from `ops` through the editing API.
fn build(which: usize, ops: &[Op]) -> Game {
    let mut game = Game::from_position(start(which));
    if which == 1 {
        game.tags_mut().set("Variant", "Chess960");
    }
    game.tags_mut().set("White", "Gen \"quoted\" \\ erator");
    // The last move of each open line; the top is the current line.
    let mut lines = vec![NodeId::ROOT];
    // A comment waiting for the first move of a variation just opened.
    let mut before: Option<String> = None;
    for op in ops {
        let cur = *lines.last().unwrap_or(&NodeId::ROOT);
        match op {
            Op::Move(c) => {
                let Some(pos) = game.position_at(cur) else {
                    continue;
                };
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    continue;
                }
                let Ok(id) = game.add_move(cur, moves[c % moves.len()]) else {
                    continue;
                };
                // A comment before a move only stays there (in export) at
                // a variation's first move; the builder drops it elsewhere.
                let first_child = game
                    .tree()
                    .get(cur)
                    .and_then(|n| n.children().first().copied());
                if let Some(text) = before.take()
                    && first_child != Some(id)
                    && let Some(node) = game.node_mut(id)
                {
                    node.comments_before_mut().push(Comment::brace(text));
                }
                if let Some(top) = lines.last_mut() {
                    *top = id;
                }
            }
            Op::Nag(n) if cur != NodeId::ROOT => {
                if let Some(node) = game.node_mut(cur) {
                    node.push_nag(Nag(*n));
                }
            }
            Op::Comment(text, line) if cur != NodeId::ROOT => {
                let comment = if *line {
                    Comment::line(text.replace(['\n', '\r'], " "))
                } else {
                    Comment::brace(text.clone())
                };
                if let Some(node) = game.node_mut(cur) {
                    node.push_comment(comment);
                }
            }
            Op::Open(text) if cur != NodeId::ROOT => {
                let parent = game.parent(cur).unwrap_or(NodeId::ROOT);
                lines.push(parent);
                before = text.clone();
            }
            Op::Close if lines.len() > 1 => {
                lines.pop();
                before = None;
            }
            _ => {}
        }
    }
    game
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn generated_games_round_trip_through_export_and_json(
        which in 0usize..3,
        ops in prop::collection::vec(op(), 0..100),
    ) {
        let game = build(which, &ops);
        let text = to_string(&game, &ExportOptions::export());
        let read: Vec<_> = read_games(text.as_bytes()).collect();
        prop_assert_eq!(read.len(), 1, "{}", text);
        let back = &read[0];
        prop_assert!(
            !back.is_broken(),
            "{:?}\n{}",
            back.diagnostics.errors().collect::<Vec<_>>(),
            text
        );
        same_model(&game, &back.value, Fidelity::Export).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        prop_assert_eq!(to_string(&back.value, &ExportOptions::export()), text.clone());

        let json = game.to_json();
        let from_json = Game::from_json(&json)
            .map_err(|e| TestCaseError::fail(format!("{e}: {json}")))?;
        same_model(&game, &from_json, Fidelity::Exact)
            .map_err(|e| TestCaseError::fail(format!("{e}\n{json}")))?;
        prop_assert_eq!(from_json.tags(), game.tags());
        prop_assert_eq!(from_json.to_json(), json);
    }
}
