//! Moves as 16-bit numbers in the index: origin square, destination square
//! (the rook's square for castling, pgnkit's king-takes-rook form) and
//! promotion role, found again among the legal moves of the position.

use pgnkit_chess::{Move, Position, Square};

/// The number of `m`: `from | to << 6 | promotion << 12` (promotion is the
/// role plus one, 0 for none). A null move has no number.
pub fn encode(m: Move) -> Option<u16> {
    let (from, to, promotion): (Square, Square, u16) = match m {
        Move::Normal {
            from,
            to,
            promotion,
            ..
        } => (from, to, promotion.map_or(0, |r| r as u16 + 1)),
        Move::EnPassant { from, to } => (from, to, 0),
        Move::Castle { king, rook } => (king, rook, 0),
        Move::Null => return None,
    };
    Some(from.idx() as u16 | (to.idx() as u16) << 6 | promotion << 12)
}

/// The legal move of `pos` whose number is `number`, if any (a key that
/// collides with another position's has moves that are not legal here).
pub fn decode(pos: &Position, number: u16) -> Option<Move> {
    pos.legal_moves()
        .iter()
        .copied()
        .find(|&m| encode(m) == Some(number))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_legal_move_round_trips() {
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/pPp2ppp/8/3Pp3/8/8/P1PP1PPP/R3K2R w KQkq e6 0 1",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            for m in pos.legal_moves().iter().copied() {
                assert_eq!(decode(&pos, encode(m).unwrap()), Some(m));
            }
        }
    }
}
