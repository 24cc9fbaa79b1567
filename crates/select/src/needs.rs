//! What a board must still have for a wanted board to be reachable from it
//! ([`Needs`]): the men a pattern, a material balance or an exact position
//! demands, checked against what cannot come back once gone. A search that
//! reads a game's moves stops once no position predicate can hold again
//! (`positions.rs`, [`PlyFinder`](crate::PlyFinder)), as Scid's "home pawn"
//! test does.
//!
//! What a game never undoes:
//! - men are only ever removed (captures); a pawn may turn into a piece of
//!   its side (promotion), nothing else changes a man's kind;
//! - a pawn only moves forward: a white pawn reaches a square from the
//!   squares of its *backward cone* alone, the square itself and, `k`
//!   ranks lower, the files up to `k` away (a capture moves it one file per
//!   rank; an en passant capture too). A white pawn on the 2nd rank (a
//!   black one on the 7th) has a cone of its square alone: once it moved or
//!   was taken, no pawn ever stands there again.
//!
//! So a wanted board is out of reach when, for a side, it wants a pawn on a
//! square whose cone holds none of that side's pawns; or more pawns, plus
//! pieces beyond those of each kind there are now, than that side has pawns
//! (each pawn becomes one piece at most, and every pawn kept is not
//! promoted); or more kings than there are; or more men of the side (or on
//! the whole board) than there are.

use pgnkit_chess::{Board, Color, Piece, Role};

/// The men a wanted board demands (see the module docs).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Needs {
    /// For each pawn wanted: its side and the backward cone of its square.
    cones: Vec<(Color, u64)>,
    /// Men wanted by side (White, Black) and kind (pawn..king).
    counts: [[u32; 6]; 2],
    /// Men of each side wanted (a kind named or not: `A`, `a` in a pattern).
    men: [u32; 2],
    /// Occupied squares wanted (`!` in a pattern too).
    occupied: u32,
}

/// No pawn ever stands on the 1st or the 8th rank.
const PAWN_RANKS: u64 = 0x00ff_ffff_ffff_ff00;

/// The backward cone of `square` (0 = a1) for a pawn of `color`: the
/// squares a pawn of that side may reach it from, the square included
/// (those a pawn may stand on).
pub(crate) fn cone(color: Color, square: u32) -> u64 {
    let (file, rank) = ((square % 8) as i32, (square / 8) as i32);
    let mut cone = 0u64;
    for r in 0..8i32 {
        // Ranks a pawn comes from: lower ones for White, higher for Black.
        let k = match color {
            Color::White => rank - r,
            Color::Black => r - rank,
        };
        if k < 0 {
            continue;
        }
        for f in (file - k).max(0)..=(file + k).min(7) {
            cone |= 1u64 << (r * 8 + f);
        }
    }
    cone & PAWN_RANKS
}

fn side(color: Color) -> usize {
    usize::from(color == Color::Black)
}

impl Needs {
    /// The needs of a board demanding `pieces` (a piece and the squares it
    /// must stand on), men of a side on `white` and `black`, and men of
    /// either side on `occupied`.
    pub(crate) fn of(pieces: &[(Piece, u64)], white: u64, black: u64, occupied: u64) -> Needs {
        let mut needs = Needs::default();
        let mut sides = [white, black];
        let mut all = occupied | white | black;
        for &(piece, squares) in pieces {
            let s = side(piece.color);
            needs.counts[s][piece.role.index()] += squares.count_ones();
            sides[s] |= squares;
            all |= squares;
            if piece.role == Role::Pawn {
                let mut rest = squares;
                while rest != 0 {
                    let square = rest.trailing_zeros();
                    rest &= rest - 1;
                    needs.cones.push((piece.color, cone(piece.color, square)));
                }
            }
        }
        needs.men = sides.map(u64::count_ones);
        needs.occupied = all.count_ones();
        needs
    }

    /// The needs of reaching exactly `board`: every man of it.
    pub(crate) fn of_board(board: &Board) -> Needs {
        let mut pieces = Vec::new();
        for color in [Color::White, Color::Black] {
            for role in Role::ALL {
                let piece = Piece { color, role };
                let squares = board.by_piece(piece).0;
                if squares != 0 {
                    pieces.push((piece, squares));
                }
            }
        }
        Needs::of(&pieces, 0, 0, 0)
    }

    /// Whether no board reached from `board` by moves can have what is
    /// needed (`false` when it may: this is a test of what is lost for good,
    /// not a search).
    pub(crate) fn out_of_reach(&self, board: &Board) -> bool {
        let white = board.white().0;
        let black = board.black().0;
        if self.occupied > (white | black).count_ones()
            || self.men[0] > white.count_ones()
            || self.men[1] > black.count_ones()
        {
            return true;
        }
        for (s, color) in [Color::White, Color::Black].into_iter().enumerate() {
            let have = |role: Role| board.by_piece(Piece { color, role }).count() as u32;
            let want = &self.counts[s];
            let pawns = have(Role::Pawn);
            // Pawns kept plus pieces still to make by promotion.
            let promotions: u32 = [Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
                .into_iter()
                .map(|role| want[role.index()].saturating_sub(have(role)))
                .sum();
            if want[Role::Pawn.index()] + promotions > pawns
                || want[Role::King.index()] > have(Role::King)
            {
                return true;
            }
        }
        self.cones.iter().any(|&(color, cone)| {
            board
                .by_piece(Piece {
                    color,
                    role: Role::Pawn,
                })
                .0
                & cone
                == 0
        })
    }

    /// The needs of at least these many men of each kind (White's then
    /// Black's, pawn..queen), wherever they stand.
    #[cfg(test)]
    pub(crate) fn of_counts(counts: [[u32; 5]; 2]) -> Needs {
        let mut needs = Needs::default();
        for (side, counts) in needs.counts.iter_mut().zip(counts) {
            side[..5].copy_from_slice(&counts);
        }
        needs
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pgnkit_chess::{Move, Position, Role};

    fn board(fen: &str) -> Board {
        *Position::from_fen(fen).unwrap().board()
    }

    fn sq(name: &str) -> u32 {
        let b = name.as_bytes();
        u32::from(b[0] - b'a') + 8 * u32::from(b[1] - b'1')
    }

    fn bits(names: &[&str]) -> u64 {
        names.iter().fold(0, |all, n| all | 1u64 << sq(n))
    }

    /// Every square a pawn of `color` reaches from `from` by moves alone
    /// (pushes, double pushes, captures either way), on an empty board.
    fn reachable(color: Color, from: u32) -> u64 {
        let mut seen = 1u64 << from;
        let mut frontier = vec![from];
        while let Some(s) = frontier.pop() {
            let (file, rank) = ((s % 8) as i32, (s / 8) as i32);
            let step = if color == Color::White { 1 } else { -1 };
            let r = rank + step;
            if !(0..8).contains(&r) {
                continue;
            }
            let mut next = vec![(file, r)];
            let home = if color == Color::White { 1 } else { 6 };
            if rank == home {
                next.push((file, rank + 2 * step));
            }
            next.extend([(file - 1, r), (file + 1, r)]);
            for (f, r) in next {
                if (0..8).contains(&f) && (0..8).contains(&r) {
                    let t = (r * 8 + f) as u32;
                    if seen & 1u64 << t == 0 {
                        seen |= 1u64 << t;
                        frontier.push(t);
                    }
                }
            }
        }
        seen
    }

    #[test]
    fn a_cone_holds_exactly_the_squares_a_pawn_reaches_a_square_from() {
        for color in [Color::White, Color::Black] {
            for to in 0..64 {
                let from_squares = (8..56)
                    .filter(|&from| reachable(color, from) & 1u64 << to != 0)
                    .fold(0u64, |all, from| all | 1u64 << from);
                assert_eq!(cone(color, to), from_squares, "{color:?} {to}");
            }
        }
        // A pawn's start square: its cone is the square alone.
        assert_eq!(cone(Color::White, sq("e2")), bits(&["e2"]));
        assert_eq!(cone(Color::Black, sq("f7")), bits(&["f7"]));
        assert_eq!(
            cone(Color::White, sq("d4")),
            bits(&["d4", "c3", "d3", "e3", "b2", "c2", "d2", "e2", "f2"])
        );
    }

    fn pawn(color: Color, squares: &[&str]) -> (Piece, u64) {
        (
            Piece {
                color,
                role: Role::Pawn,
            },
            bits(squares),
        )
    }

    #[test]
    fn a_pawn_wanted_is_out_of_reach_once_no_pawn_can_come_to_its_square() {
        let start = Position::new();
        // Black pawns on f7, g7, h7 (the bench's pattern): while they stand.
        let home = Needs::of(&[pawn(Color::Black, &["f7", "g7", "h7"])], 0, 0, 0);
        assert!(!home.out_of_reach(start.board()));
        // Moved: never back.
        assert!(home.out_of_reach(&board(
            "rnbqkbnr/ppppp1pp/5p2/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 2"
        )));
        // A white pawn on e4 wanted: e2 may still go there, or d2/f2 by a capture.
        let e4 = Needs::of(&[pawn(Color::White, &["e4"])], 0, 0, 0);
        assert!(!e4.out_of_reach(start.board()));
        assert!(!e4.out_of_reach(&board("4k3/8/8/8/8/8/3P4/4K3 w - - 0 1")));
        // From c2 it is two files away but two ranks below: still possible (cxd3, dxe4).
        assert!(!e4.out_of_reach(&board("4k3/8/8/8/8/8/2P5/4K3 w - - 0 1")));
        // From b2, or from e5 (past it), never.
        assert!(e4.out_of_reach(&board("4k3/8/8/8/8/8/1P6/4K3 w - - 0 1")));
        assert!(e4.out_of_reach(&board("4k3/8/8/4P3/8/8/8/4K3 w - - 0 1")));
    }

    #[test]
    fn counts_are_out_of_reach_once_men_and_pawns_are_too_few() {
        let knight = |color, squares: &[&str]| {
            (
                Piece {
                    color,
                    role: Role::Knight,
                },
                bits(squares),
            )
        };
        // Three white knights: two and a pawn will do, two alone will not.
        let three = Needs::of(&[knight(Color::White, &["a3", "b3", "c3"])], 0, 0, 0);
        assert!(!three.out_of_reach(&board("4k3/8/8/8/8/8/P7/1N2K1N1 w - - 0 1")));
        assert!(three.out_of_reach(&board("4k3/8/8/8/8/8/8/1N2K1N1 w - - 0 1")));
        // A pawn wanted as well: the one pawn cannot be both.
        let more = Needs::of(
            &[
                knight(Color::White, &["a3", "b3", "c3"]),
                pawn(Color::White, &["h4"]),
            ],
            0,
            0,
            0,
        );
        assert!(more.out_of_reach(&board("4k3/8/8/8/8/8/7P/1N2K1N1 w - - 0 1")));
        // Men of a side, whatever their kind (`A`): never more than there are.
        let men = Needs::of(&[], bits(&["a1", "b1", "c1"]), 0, 0);
        assert!(!men.out_of_reach(&board("4k3/8/8/8/8/8/8/1N2K1N1 w - - 0 1")));
        assert!(men.out_of_reach(&board("4k3/8/8/8/8/8/8/1N2K3 w - - 0 1")));
        // Occupied squares (`!`): no more than the men on the board.
        let occupied = Needs::of(&[], 0, 0, bits(&["a1", "b1", "c1"]));
        assert!(occupied.out_of_reach(&board("4k3/8/8/8/8/8/8/4K3 w - - 0 1")));
        assert!(!occupied.out_of_reach(&board("4k3/8/8/8/8/8/8/1N2K3 w - - 0 1")));
    }

    #[test]
    fn an_exact_board_needs_all_its_men() {
        let target = board("4k3/8/8/8/4P3/8/8/4K3 b - - 0 1");
        let needs = Needs::of_board(&target);
        assert!(!needs.out_of_reach(Position::new().board()));
        assert!(!needs.out_of_reach(&target));
        // The e-pawn went to e5: gone for e4.
        assert!(needs.out_of_reach(&board("4k3/8/8/4P3/8/8/8/4K3 b - - 0 1")));
    }

    /// The claim the search relies on: along random games (promotions and
    /// all), once a need is out of reach no later position meets it.
    #[test]
    fn once_out_of_reach_never_met_again_along_games() {
        let has = |b: &Board, color, role, squares: u64| {
            b.by_piece(Piece { color, role }).0 & squares == squares
        };
        let count = |b: &Board, color, role| b.by_piece(Piece { color, role }).count() as u32;
        type Met = Box<dyn Fn(&Board) -> bool>;
        let wanted: Vec<(Needs, Met)> = vec![
            (
                Needs::of(&[pawn(Color::Black, &["f7", "g7", "h7"])], 0, 0, 0),
                Box::new(move |b: &Board| {
                    has(b, Color::Black, Role::Pawn, bits(&["f7", "g7", "h7"]))
                }),
            ),
            (
                Needs::of(&[pawn(Color::White, &["d4", "e5"])], 0, 0, 0),
                Box::new(move |b: &Board| has(b, Color::White, Role::Pawn, bits(&["d4", "e5"]))),
            ),
            (
                Needs::of(&[pawn(Color::Black, &["c3"])], 0, 0, 0),
                Box::new(move |b: &Board| has(b, Color::Black, Role::Pawn, bits(&["c3"]))),
            ),
            (
                Needs::of_counts([[1, 0, 0, 1, 0], [0, 0, 0, 1, 0]]),
                Box::new(move |b: &Board| {
                    count(b, Color::White, Role::Pawn) >= 1
                        && count(b, Color::White, Role::Rook) >= 1
                        && count(b, Color::Black, Role::Rook) >= 1
                }),
            ),
            (
                Needs::of_counts([[0, 0, 0, 0, 2], [0, 0, 0, 0, 0]]),
                Box::new(move |b: &Board| count(b, Color::White, Role::Queen) >= 2),
            ),
            (
                Needs::of_counts([[1, 0, 0, 0, 0], [0, 3, 0, 0, 0]]),
                Box::new(move |b: &Board| {
                    count(b, Color::White, Role::Pawn) >= 1
                        && count(b, Color::Black, Role::Knight) >= 3
                }),
            ),
        ];
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let (mut went_out, mut met_after_start) = (0, 0);
        for _ in 0..400 {
            let mut pos = Position::new();
            let mut out = vec![false; wanted.len()];
            for _ in 0..300 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                // Pawn moves and captures first, half the time: games that
                // promote and run down to few men.
                let pawny: Vec<Move> = moves
                    .iter()
                    .copied()
                    .filter(|m| m.role() == Some(Role::Pawn) || m.is_capture())
                    .collect();
                let mv = if seed.is_multiple_of(2) && !pawny.is_empty() {
                    pawny[((seed >> 8) % pawny.len() as u64) as usize]
                } else {
                    moves[((seed >> 8) % moves.len() as u64) as usize]
                };
                pos.play_unchecked(mv);
                for (n, (needs, met)) in wanted.iter().enumerate() {
                    let b = pos.board();
                    if met(b) {
                        met_after_start += 1;
                        assert!(!out[n], "need {n} met again in {pos} after out of reach");
                    }
                    if needs.out_of_reach(b) {
                        assert!(!met(b), "need {n} met in {pos}, said out of reach");
                        went_out += usize::from(!out[n]);
                        out[n] = true;
                    }
                }
            }
        }
        // The test saw both: needs met, needs lost.
        assert!(
            went_out > 100 && met_after_start > 100,
            "{went_out} {met_after_start}"
        );
    }
}
