//! [`polyglot::key_after`] (the key updated from the move's changes)
//! equals [`polyglot::key`] computed from scratch after every legal move,
//! and every legal reply, of every position of the corpus's perft suites
//! (castling, Chess960 castling, en passant with and without a pawn beside,
//! promotions, captures of rooks that take castling rights away).

mod common;

use pgnkit_chess::{Position, polyglot};

fn check_moves(pos: &Position, key: u64, depth: u32, name: &str, checked: &mut u64) {
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
        *checked += 1;
        if depth > 1 {
            check_moves(&after, expected, depth - 1, name, checked);
        }
    }
}

#[test]
fn key_after_equals_key_from_scratch() {
    let mut checked = 0u64;
    for path in common::suite_files() {
        for case in common::read_suite(&path) {
            let key = polyglot::key(&case.pos);
            check_moves(&case.pos, key, 2, &case.name, &mut checked);
        }
    }
    assert!(checked > 10_000, "only {checked} moves checked");
}
