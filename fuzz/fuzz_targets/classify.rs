//! Fuzz target `classify`: the opening classifier on fuzzed move lists. Each input byte
//! picks one of the legal moves of the position reached (its index modulo their number),
//! from the standard start; the line is classified with `Openings::lichess()`
//! (`classify_moves`, and `classify` on the same game built as a `Game`). No panic; both
//! agree; a classification names a row whose position is the one reached at its ply, at
//! most `MAX_PLIES` plies in, with at least `MIN_PIECES` pieces on the board; the row found
//! is the deepest such position of the line.

#![no_main]

use libfuzzer_sys::fuzz_target;
use pgnkit::chess::{Position, San};
use pgnkit::game::Game;
use pgnkit::select::{MAX_PLIES, MIN_PIECES, Openings};

fuzz_target!(|data: &[u8]| {
    let mut pos = Position::new();
    let mut moves = Vec::new();
    let mut positions = Vec::new();
    let mut text = String::new();
    for &b in data.iter().take(2 * MAX_PLIES) {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let m = legal[usize::from(b) % legal.len()];
        text.push_str(&San::from_move(&pos, m).to_string());
        text.push(' ');
        pos.play_unchecked(m);
        moves.push(m);
        positions.push(pos.clone());
    }
    let table = Openings::lichess();
    let found = table.classify_moves(&Position::new(), moves.iter().copied());
    text.push('*');
    let game: Game = text
        .parse()
        .unwrap_or_else(|e| panic!("legal moves {text:?} do not read: {e}"));
    assert_eq!(
        game.main_line_moves().map(|p| p.mv).collect::<Vec<_>>(),
        moves
    );
    assert_eq!(
        table.classify(&game),
        found,
        "classify and classify_moves differ"
    );
    // The deepest position of the line (before too few pieces are left) that has a row.
    let mut expected = None;
    for (i, p) in positions.iter().enumerate().take(MAX_PLIES) {
        if p.board().occupied().count() < MIN_PIECES {
            break;
        }
        if let Some(opening) = table.find(p) {
            expected = Some((opening.clone(), i + 1));
        }
    }
    assert_eq!(
        found.map(|c| (c.opening.clone(), c.ply)),
        expected,
        "{text}"
    );
    if let Some(c) = found {
        assert!(c.ply >= 1 && c.ply <= MAX_PLIES.min(moves.len()));
        assert!(!c.opening.eco.is_empty(), "a row without a code");
    }
});
