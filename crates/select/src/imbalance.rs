//! Material imbalances (`imbalance "R vs BN"` in a query), as Scoutfish's
//! `imbalance`: what one side has more than the other, kind by kind.
//!
//! `X vs Y` (or `XvY`): for each kind (`Q R B N P`, either case; a digit
//! after a letter counts it, `P2` is two pawns), the first side has as many
//! more of it than the second as `X` has more than `Y`; every kind not
//! written is even (pawns too). `"R vs BN"` is the exchange for a bishop
//! and a knight, pawns even; `"vs P"` (or `"v P"`) is one pawn down and
//! nothing else different. The first side is White or Black (either way
//! round) unless the query says which (`imbalance white "R vs BN"`).
//!
//! ```
//! use pgnkit_chess::{Color, Position};
//! use pgnkit_select::Imbalance;
//! let i = Imbalance::parse("R vs BN").unwrap();
//! let pos = Position::from_fen("4k3/pp3bn1/8/8/8/8/PP6/R3K3 w - - 0 1").unwrap();
//! assert!(i.matches(pos.board(), None));
//! assert!(i.matches(pos.board(), Some(Color::White)));
//! assert!(!i.matches(pos.board(), Some(Color::Black)));
//! assert!(!i.matches(Position::new().board(), None));
//! assert!(Imbalance::parse("R vs K").is_err());
//! ```

use pgnkit_chess::{Board, Color, Piece, Role};

/// The kinds compared, in the order of the differences.
const KINDS: [Role; 5] = [
    Role::Pawn,
    Role::Knight,
    Role::Bishop,
    Role::Rook,
    Role::Queen,
];

/// A material difference: the first side's count minus the second's, by kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Imbalance {
    difference: [i32; 5],
}

impl Imbalance {
    /// Reads `X vs Y`; `Err` says what is wrong and the byte where.
    pub fn parse(text: &str) -> Result<Imbalance, (usize, String)> {
        let (first, second, split) = match text.find("vs") {
            Some(at) => (&text[..at], &text[at + 2..], at + 2),
            None => match text.find('v') {
                Some(at) => (&text[..at], &text[at + 1..], at + 1),
                None => {
                    return Err((
                        0,
                        "an imbalance is two sides separated by `vs`, as \"R vs BN\"".to_string(),
                    ));
                }
            },
        };
        let a = side(first, 0)?;
        let b = side(second, split)?;
        let mut difference = [0; 5];
        for (d, (x, y)) in difference.iter_mut().zip(a.iter().zip(&b)) {
            *d = x - y;
        }
        Ok(Imbalance { difference })
    }

    /// Whether `board` holds the imbalance with `first` (White or Black,
    /// either when `None`) as its first side.
    pub fn matches(&self, board: &Board, first: Option<Color>) -> bool {
        let mut difference = [0i32; 5];
        for (d, role) in difference.iter_mut().zip(KINDS) {
            let count = |color| board.by_piece(Piece { color, role }).count() as i32;
            *d = count(Color::White) - count(Color::Black);
        }
        let white_first = difference == self.difference;
        let black_first = difference
            .iter()
            .zip(&self.difference)
            .all(|(d, s)| *d == -s);
        match first {
            Some(Color::White) => white_first,
            Some(Color::Black) => black_first,
            None => white_first || black_first,
        }
    }
}

/// The counts of one side's letters (`text` at byte `at` of the imbalance).
fn side(text: &str, at: usize) -> Result<[i32; 5], (usize, String)> {
    let mut counts = [0; 5];
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i] as char;
        if c == ' ' {
            i += 1;
            continue;
        }
        let kind = Role::from_char(c).and_then(|r| KINDS.iter().position(|&k| k == r));
        let Some(kind) = kind else {
            return Err((
                at + i,
                format!("`{c}` is not a piece letter of an imbalance (Q R B N P)"),
            ));
        };
        i += 1;
        match bytes.get(i) {
            Some(d) if d.is_ascii_digit() => {
                counts[kind] += i32::from(d - b'0');
                i += 1;
            }
            _ => counts[kind] += 1,
        }
    }
    Ok(counts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use pgnkit_chess::Position;

    fn board(fen: &str) -> Board {
        *Position::from_fen(fen).unwrap().board()
    }

    #[test]
    fn differences_by_kind() {
        let b = board("4k3/pp3bn1/8/8/8/8/PPP5/R3K3 w - - 0 1");
        assert!(!Imbalance::parse("R vs BN").unwrap().matches(&b, None));
        assert!(Imbalance::parse("RP vs BN").unwrap().matches(&b, None));
        assert!(Imbalance::parse("bn v rp").unwrap().matches(&b, None));
        assert!(
            Imbalance::parse("BN vs RP")
                .unwrap()
                .matches(&b, Some(Color::Black))
        );
        assert!(
            Imbalance::parse("vs")
                .unwrap()
                .matches(&board("8/8/8/8/8/8/8/K1k5 w - - 0 1"), None)
        );
        assert!(Imbalance::parse("P2 vs").unwrap().matches(
            &board("4k3/8/8/8/8/8/PP6/4K3 w - - 0 1"),
            Some(Color::White)
        ));
        assert_eq!(Imbalance::parse("R vs Bx").unwrap_err().0, 6);
        assert!(Imbalance::parse("RB").is_err());
    }
}
