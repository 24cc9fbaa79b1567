//! Perft: counting the leaves of the legal move tree, to test move generation.
//!
//! At the last ply the moves are counted, not made ("bulk counting"): the
//! generator adds up `popcount`s of target sets (see the `movegen` module).
//! [`Position::perft`] is defined here too: perft sits above both the
//! position and move generation, and neither calls into it.

use crate::movegen;
use crate::position::Position;

/// Leaf nodes of the legal move tree `depth` plies below `pos`.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => movegen::count_legal(&pos.situation()),
        _ => {
            let mut total = 0;
            for m in pos.legal_moves() {
                let mut child = pos.clone();
                child.play_unchecked(m);
                total += perft(&child, depth - 1);
            }
            total
        }
    }
}

impl Position {
    /// Counts the leaf nodes of the legal move tree `depth` plies deep
    /// (bulk counting at the last ply).
    pub fn perft(&self, depth: u32) -> u64 {
        perft(self, depth)
    }
}

/// Perft per root move ("divide"), for finding generator bugs.
pub fn divide(pos: &Position, depth: u32) -> Vec<(crate::Move, u64)> {
    pos.legal_moves()
        .into_iter()
        .map(|m| (m, perft(&pos.after(m), depth.saturating_sub(1))))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position() {
        let pos = Position::new();
        assert_eq!(perft(&pos, 0), 1);
        assert_eq!(perft(&pos, 1), 20);
        assert_eq!(perft(&pos, 2), 400);
        assert_eq!(perft(&pos, 3), 8_902);
        assert_eq!(perft(&pos, 4), 197_281);
        assert_eq!(divide(&pos, 2).iter().map(|(_, n)| n).sum::<u64>(), 400);
    }
}
