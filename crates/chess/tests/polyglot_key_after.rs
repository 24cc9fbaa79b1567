//! [`polyglot::key_after`] (the key updated from the move's changes)
//! equals [`polyglot::key`] computed from scratch after every legal move,
//! and every legal reply, of every position of the corpus's perft suites
//! (castling, Chess960 castling, en passant with and without a pawn beside,
//! promotions, captures of rooks that take castling rights away); so does
//! [`polyglot::LineKey`] (the key updated from the move and the position
//! after it, a quick path for most moves and a general one for the rest).

mod common;

use pgnkit_chess::polyglot::LineKey;
use pgnkit_chess::{Position, polyglot};

fn check_moves(pos: &Position, key: u64, line: LineKey, depth: u32, name: &str, checked: &mut u64) {
    for m in pos.legal_moves().iter().copied() {
        let mut after = pos.clone();
        after.play_unchecked(m);
        let expected = polyglot::key(&after);
        assert_eq!(
            polyglot::key_after(pos, key, &after),
            expected,
            "{name}: after {m:?} from {}",
            pos
        );
        let mut next = line;
        next.play(m, &after);
        assert_eq!(
            next.key(),
            expected,
            "{name}: line key after {m:?} from {pos}"
        );
        *checked += 1;
        if depth > 1 {
            check_moves(&after, expected, next, depth - 1, name, checked);
        }
    }
}

#[test]
fn key_after_equals_key_from_scratch() {
    let mut checked = 0u64;
    for path in common::suite_files() {
        for case in common::read_suite(&path) {
            let key = polyglot::key(&case.pos);
            let line = LineKey::new(&case.pos);
            check_moves(&case.pos, key, line, 2, &case.name, &mut checked);
        }
    }
    assert!(checked > 10_000, "only {checked} moves checked");
}
