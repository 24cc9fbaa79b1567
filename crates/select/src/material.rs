//! Material balances (`material "KQkr"` in a query), as pgn-extract's `-z`.
//!
//! A balance names the pieces of each side: capitals are White's, small
//! letters Black's (`K`, `Q`, `R`, `B`, `N`, `P`). A letter counts one piece
//! of its kind; a digit after it gives the count (`P3`, `p3` is three
//! pawns), `*` after it means any number, `+` one or more. Kings need not be
//! written and are not counted. A kind not written is absent (zero), so
//! `"KQkr"` is queen against rook with nothing else. As with pgn-extract's
//! `-z`, the balance matches either way round: `"KQkr"` also finds games
//! where Black has the queen and White the rook.

use pgnkit_chess::{Board, Color, Piece, Role};

/// How many pieces of one kind a side may have.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Count {
    /// Exactly this many.
    Exactly(u8),
    /// This many or more.
    AtLeast(u8),
}

impl Count {
    /// The fewest pieces it admits.
    fn least(self) -> u32 {
        match self {
            Count::Exactly(k) | Count::AtLeast(k) => u32::from(k),
        }
    }

    fn admits(self, n: u32) -> bool {
        match self {
            Count::Exactly(k) => n == u32::from(k),
            Count::AtLeast(k) => n >= u32::from(k),
        }
    }
}

/// The non-king kinds, in the order of the counts.
const KINDS: [Role; 5] = [
    Role::Pawn,
    Role::Knight,
    Role::Bishop,
    Role::Rook,
    Role::Queen,
];

/// A material balance to look for: a count per kind for each side.
///
/// ```
/// use pgnkit_select::Material;
/// use pgnkit_chess::Position;
/// let m = Material::parse("KQkr").unwrap();
/// let pos = Position::from_fen("4k3/8/8/8/8/8/3r4/3QK3 w - - 0 1").unwrap();
/// assert!(m.matches(pos.board()));
/// // Either way round, as pgn-extract's -z.
/// let swapped = Position::from_fen("4k3/3q4/8/8/8/8/8/R3K3 w - - 0 1").unwrap();
/// assert!(m.matches(swapped.board()));
/// assert!(!Material::parse("KQkr").unwrap().matches(Position::new().board()));
/// assert!(Material::parse("KQxkr").is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Material {
    sides: [[Count; 5]; 2],
}

impl Material {
    /// Reads a balance; `Err` says what is wrong (and the byte where).
    pub fn parse(text: &str) -> Result<Material, (usize, String)> {
        let mut counts = [[0u8; 5]; 2];
        let mut open = [[false; 5]; 2];
        let mut named = [[false; 5]; 2];
        let bytes = text.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            let c = bytes[i] as char;
            if c == ' ' {
                i += 1;
                continue;
            }
            let Some(piece) = Piece::from_char(c) else {
                return Err((
                    i,
                    format!("`{c}` is not a piece letter (K Q R B N P, capitals for White)"),
                ));
            };
            i += 1;
            let side = usize::from(piece.color == Color::Black);
            let Some(kind) = KINDS.iter().position(|&r| r == piece.role) else {
                // A king: allowed, not counted.
                continue;
            };
            named[side][kind] = true;
            match bytes.get(i) {
                Some(b'*') => {
                    open[side][kind] = true;
                    i += 1;
                }
                Some(b'+') => {
                    open[side][kind] = true;
                    counts[side][kind] = counts[side][kind].saturating_add(1);
                    i += 1;
                }
                Some(d) if d.is_ascii_digit() => {
                    counts[side][kind] = counts[side][kind].saturating_add(d - b'0');
                    i += 1;
                    if bytes.get(i) == Some(&b'+') {
                        open[side][kind] = true;
                        i += 1;
                    }
                }
                _ => counts[side][kind] = counts[side][kind].saturating_add(1),
            }
        }
        if !named.iter().flatten().any(|&n| n) && !text.contains(['K', 'k']) {
            return Err((0, "no pieces named".to_string()));
        }
        let mut sides = [[Count::Exactly(0); 5]; 2];
        for side in 0..2 {
            for kind in 0..5 {
                let n = counts[side][kind];
                sides[side][kind] = if open[side][kind] {
                    Count::AtLeast(n)
                } else {
                    Count::Exactly(n)
                };
            }
        }
        Ok(Material { sides })
    }

    /// Whether `board` holds this balance, either way round.
    pub fn matches(&self, board: &Board) -> bool {
        let count = |color: Color, role: Role| {
            board
                .by_piece(Piece { color, role })
                .count()
                .try_into()
                .unwrap_or(u32::MAX)
        };
        let mut have = [[0u32; 5]; 2];
        for (side, color) in [Color::White, Color::Black].into_iter().enumerate() {
            for (kind, role) in KINDS.into_iter().enumerate() {
                have[side][kind] = count(color, role);
            }
        }
        let fits = |a: &[Count; 5], b: &[u32; 5]| a.iter().zip(b).all(|(c, &n)| c.admits(n));
        (fits(&self.sides[0], &have[0]) && fits(&self.sides[1], &have[1]))
            || (fits(&self.sides[0], &have[1]) && fits(&self.sides[1], &have[0]))
    }

    /// How many captures or promotions are needed, at the least, before no
    /// board reached from `board` can hold the balance, either way round
    /// (0: none can now; see `needs.rs`). A count is only ever reached from
    /// above, or by promoting a pawn, so what matters is the fewest men of
    /// each kind it admits: a side is short when its pawns are fewer than
    /// those it is to keep plus the pieces it is to make. Each capture or
    /// promotion takes one from that margin at most (it removes one man of a
    /// side, or turns one of its pawns into a piece).
    pub(crate) fn reach(&self, board: &Board) -> u32 {
        let least = self.sides.map(|side| side.map(Count::least));
        let have = [Color::White, Color::Black]
            .map(|color| KINDS.map(|role| board.by_piece(Piece { color, role }).count() as i64));
        let margin = |want: &[u32; 5], have: &[i64; 5]| {
            let lacking: i64 = (1..5).map(|k| (i64::from(want[k]) - have[k]).max(0)).sum();
            have[0] - i64::from(want[0]) - lacking
        };
        // Either way round: the better of the two, each as far as its shorter side.
        let straight = margin(&least[0], &have[0]).min(margin(&least[1], &have[1]));
        let swapped = margin(&least[0], &have[1]).min(margin(&least[1], &have[0]));
        u32::try_from(straight.max(swapped) + 1).unwrap_or(0)
    }

    /// Whether no board reached from `board` can hold the balance.
    #[cfg(test)]
    fn out_of_reach(&self, board: &Board) -> bool {
        self.reach(board) == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pgnkit_chess::Position;

    #[test]
    fn a_balance_is_out_of_reach_once_pawns_cannot_make_up_what_is_missing() {
        let m = Material::parse("KRPkr").unwrap();
        let out = |fen: &str| m.out_of_reach(&board(fen));
        assert!(!out(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        ));
        // Neither side has a pawn: neither can be the side with R and P.
        assert!(out("4k3/8/8/8/8/8/8/R3K2r w - - 0 1"));
        // White's one pawn cannot both stay and become the rook; Black has no pawn.
        assert!(out("4k3/8/8/8/8/8/P7/4K2r w - - 0 1"));
        // Two pawns: one stays, one promotes to the rook.
        assert!(!out("4k3/8/8/8/8/8/PP6/4K2r w - - 0 1"));
        // Exact counts above are no obstacle: men can be taken.
        assert!(!out("q3k3/8/8/8/8/8/PP6/Q3K2r w - - 0 1"));
        // Either way round: Black has the rook and the pawn.
        assert!(!out("r3k3/p7/8/8/8/8/8/R3K3 w - - 0 1"));
    }

    fn board(fen: &str) -> Board {
        *Position::from_fen(fen).unwrap().board()
    }

    #[test]
    fn counts_and_wildcards() {
        let start = board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        assert!(
            Material::parse("QR2B2N2P8 qr2b2n2p8")
                .unwrap()
                .matches(&start)
        );
        assert!(
            Material::parse("KQRRBBNNP* kqrrbbnnp*")
                .unwrap()
                .matches(&start)
        );
        assert!(
            Material::parse("KQ+R+B+N+P+ kq*r*b*n*p4+")
                .unwrap()
                .matches(&start)
        );
        assert!(
            !Material::parse("KQRRBBNNP7 kqrrbbnnp*")
                .unwrap()
                .matches(&start)
        );
    }

    #[test]
    fn kings_alone() {
        let bare = board("4k3/8/8/8/8/8/8/4K3 w - - 0 1");
        assert!(Material::parse("Kk").unwrap().matches(&bare));
        assert!(!Material::parse("KPk").unwrap().matches(&bare));
        assert!(Material::parse("").is_err());
    }
}
