//! [`Board`]: where the pieces stand (no side to move, no rights).

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::color::Color;
use crate::role::{Piece, Role};
use crate::square::Square;
use core::fmt;

/// Piece placement as bitboards: one per role, one per color, and all.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    by_role: [Bitboard; 6],
    by_color: [Bitboard; 2],
    occupied: Bitboard,
}

impl Default for Board {
    fn default() -> Board {
        Board::new()
    }
}

impl Board {
    /// The standard starting placement.
    pub const fn new() -> Board {
        Board {
            by_role: [
                Bitboard(0x00ff_0000_0000_ff00),
                Bitboard(0x4200_0000_0000_0042),
                Bitboard(0x2400_0000_0000_0024),
                Bitboard(0x8100_0000_0000_0081),
                Bitboard(0x0800_0000_0000_0008),
                Bitboard(0x1000_0000_0000_0010),
            ],
            by_color: [Bitboard(0xffff), Bitboard(0xffff_0000_0000_0000)],
            occupied: Bitboard(0xffff_0000_0000_ffff),
        }
    }

    /// A board without pieces.
    pub const fn empty() -> Board {
        Board {
            by_role: [Bitboard::EMPTY; 6],
            by_color: [Bitboard::EMPTY; 2],
            occupied: Bitboard::EMPTY,
        }
    }

    /// All occupied squares.
    #[inline]
    pub const fn occupied(&self) -> Bitboard {
        self.occupied
    }

    /// Squares holding pieces of `color`.
    #[inline]
    pub const fn by_color(&self, color: Color) -> Bitboard {
        self.by_color[color as usize]
    }

    /// Squares holding pieces of `role` (either color).
    #[inline]
    pub const fn by_role(&self, role: Role) -> Bitboard {
        self.by_role[role as usize]
    }

    /// Squares holding `piece`.
    #[inline]
    pub const fn by_piece(&self, piece: Piece) -> Bitboard {
        Bitboard(self.by_role[piece.role as usize].0 & self.by_color[piece.color as usize].0)
    }

    /// White pieces.
    #[inline]
    pub const fn white(&self) -> Bitboard {
        self.by_color[0]
    }

    /// Black pieces.
    #[inline]
    pub const fn black(&self) -> Bitboard {
        self.by_color[1]
    }

    /// Pawns.
    #[inline]
    pub const fn pawns(&self) -> Bitboard {
        self.by_role[0]
    }

    /// Knights.
    #[inline]
    pub const fn knights(&self) -> Bitboard {
        self.by_role[1]
    }

    /// Bishops.
    #[inline]
    pub const fn bishops(&self) -> Bitboard {
        self.by_role[2]
    }

    /// Rooks.
    #[inline]
    pub const fn rooks(&self) -> Bitboard {
        self.by_role[3]
    }

    /// Queens.
    #[inline]
    pub const fn queens(&self) -> Bitboard {
        self.by_role[4]
    }

    /// Kings.
    #[inline]
    pub const fn kings(&self) -> Bitboard {
        self.by_role[5]
    }

    /// Bishops and queens.
    #[inline]
    pub const fn bishops_and_queens(&self) -> Bitboard {
        Bitboard(self.by_role[2].0 | self.by_role[4].0)
    }

    /// Rooks and queens.
    #[inline]
    pub const fn rooks_and_queens(&self) -> Bitboard {
        Bitboard(self.by_role[3].0 | self.by_role[4].0)
    }

    /// The king of `color`, if there is exactly one.
    #[inline]
    pub fn king_of(&self, color: Color) -> Option<Square> {
        (self.kings() & self.by_color(color)).single_square()
    }

    /// The color of the piece on `sq`.
    #[inline]
    pub fn color_at(&self, sq: Square) -> Option<Color> {
        if self.by_color[0].contains(sq) {
            Some(Color::White)
        } else if self.by_color[1].contains(sq) {
            Some(Color::Black)
        } else {
            None
        }
    }

    /// The role of the piece on `sq`. (Always inlined: SAN resolution and
    /// move generation ask it for every capture, and a call costs more than
    /// the tests.)
    #[inline(always)]
    pub fn role_at(&self, sq: Square) -> Option<Role> {
        if !self.occupied.contains(sq) {
            None
        } else if self.by_role[0].contains(sq) {
            Some(Role::Pawn)
        } else if self.by_role[1].contains(sq) {
            Some(Role::Knight)
        } else if self.by_role[2].contains(sq) {
            Some(Role::Bishop)
        } else if self.by_role[3].contains(sq) {
            Some(Role::Rook)
        } else if self.by_role[4].contains(sq) {
            Some(Role::Queen)
        } else {
            Some(Role::King)
        }
    }

    /// The piece on `sq`.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let role = self.role_at(sq)?;
        let color = self.color_at(sq)?;
        Some(Piece { color, role })
    }

    /// Removes whatever stands on `sq` and returns it.
    #[inline]
    pub fn remove_piece_at(&mut self, sq: Square) -> Option<Piece> {
        let piece = self.piece_at(sq)?;
        self.discard_piece_at(sq, piece);
        Some(piece)
    }

    /// Puts `piece` on `sq`, replacing what stood there.
    #[inline]
    pub fn set_piece_at(&mut self, sq: Square, piece: Piece) {
        self.remove_piece_at(sq);
        self.put_piece_at(sq, piece);
    }

    /// Puts `piece` on the empty square `sq`.
    #[inline]
    pub(crate) fn put_piece_at(&mut self, sq: Square, piece: Piece) {
        self.by_role[piece.role as usize].add(sq);
        self.by_color[piece.color as usize].add(sq);
        self.occupied.add(sq);
    }

    /// Removes `piece`, known to stand on `sq`.
    #[inline]
    pub(crate) fn discard_piece_at(&mut self, sq: Square, piece: Piece) {
        self.by_role[piece.role as usize].discard(sq);
        self.by_color[piece.color as usize].discard(sq);
        self.occupied.discard(sq);
    }

    /// Moves `piece` from `from` to the empty square `to`.
    #[inline]
    pub(crate) fn move_piece(&mut self, from: Square, to: Square, piece: Piece) {
        let both = Bitboard::from_square(from) | to;
        self.by_role[piece.role as usize] ^= both;
        self.by_color[piece.color as usize] ^= both;
        self.occupied ^= both;
    }

    /// Pieces of `attacker` that attack `sq`, with `occupied` as the blockers.
    #[inline(always)]
    pub fn attacks_to(&self, sq: Square, attacker: Color, occupied: Bitboard) -> Bitboard {
        let theirs = self.by_color(attacker);
        theirs
            & ((attacks::rook_attacks(sq, occupied) & self.rooks_and_queens())
                | (attacks::bishop_attacks(sq, occupied) & self.bishops_and_queens())
                | (attacks::knight_attacks(sq) & self.knights())
                | (attacks::king_attacks(sq) & self.kings())
                | (attacks::pawn_attacks(attacker.other(), sq) & self.pawns()))
    }

    /// [`Board::attacks_to`] found without the magic attack tables: the
    /// enemy sliders on the lines through `sq` are found from the empty
    /// board's rays, and only their paths are checked, in the 32 KiB table
    /// of squares between. SAN resolution's king-safety tests use it: few
    /// sliders stand on those lines, and the magic tables (840 KiB) are
    /// seldom in the cache for `sq` (perf: that lookup's miss was a tenth
    /// of the game reader's time, on king moves alone).
    #[inline(always)]
    pub(crate) fn attacks_to_along_lines(
        &self,
        sq: Square,
        attacker: Color,
        occupied: Bitboard,
    ) -> Bitboard {
        let theirs = self.by_color(attacker);
        let mut found = theirs
            & ((attacks::knight_attacks(sq) & self.knights())
                | (attacks::king_attacks(sq) & self.kings())
                | (attacks::pawn_attacks(attacker.other(), sq) & self.pawns()));
        let sliders = theirs
            & ((attacks::rook_rays(sq) & self.rooks_and_queens())
                | (attacks::bishop_rays(sq) & self.bishops_and_queens()));
        for slider in sliders {
            if (attacks::between(slider, sq) & occupied).is_empty() {
                found |= slider;
            }
        }
        found
    }

    /// Squares the piece on `sq` attacks (empty if none stands there).
    pub fn attacks_from(&self, sq: Square) -> Bitboard {
        match self.piece_at(sq) {
            Some(piece) => attacks::attacks(piece.role, piece.color, sq, self.occupied),
            None => Bitboard::EMPTY,
        }
    }

    /// Iterates over `(square, piece)` pairs, a1 first.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.occupied
            .filter_map(move |sq| self.piece_at(sq).map(|piece| (sq, piece)))
    }

    /// Appends the FEN piece placement field to `out`: the bytes
    /// [`Board::write_fen`] writes, with no UTF-8 check (a FEN written after
    /// every move).
    pub fn push_fen(&self, out: &mut Vec<u8>) {
        let (buf, len) = self.placement();
        out.extend_from_slice(buf.get(..len).unwrap_or_default());
    }

    /// Writes the FEN piece placement field.
    pub fn write_fen(&self, out: &mut impl fmt::Write) -> fmt::Result {
        let (buf, len) = self.placement();
        // Every byte of the field is ASCII.
        out.write_str(std::str::from_utf8(buf.get(..len).unwrap_or_default()).unwrap_or_default())
    }

    /// The FEN piece placement field in a buffer (at most 64 squares and 7
    /// slashes) and its length. `--fen-comments` writes a FEN after every
    /// move: each square's letter is set from the pieces' bitboards, one
    /// pass over the pieces instead of a lookup per square, and the ranks'
    /// gaps are counted from the occupied files.
    fn placement(&self) -> ([u8; 71], usize) {
        let mut grid = [0u8; 64];
        for color in Color::ALL {
            for role in Role::ALL {
                let piece = Piece { color, role };
                let letter = piece.char() as u8;
                for sq in self.by_piece(piece) {
                    if let Some(cell) = grid.get_mut(sq.idx()) {
                        *cell = letter;
                    }
                }
            }
        }
        let mut buf = [0u8; 71];
        let mut len = 0;
        let mut push = |b: u8| {
            if let Some(slot) = buf.get_mut(len) {
                *slot = b;
                len += 1;
            }
        };
        // Ranks 8 to 1; in each, the occupied files from a, the gaps
        // between them counted from the file numbers.
        for rank in (0..8usize).rev() {
            let mut bits = (self.occupied.0 >> (8 * rank)) & 0xff;
            let mut file = 0;
            while bits != 0 {
                let f = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if f > file {
                    push(b'0' + (f - file) as u8);
                }
                push(grid.get(rank * 8 + f).copied().unwrap_or(b'?'));
                file = f + 1;
            }
            if file < 8 {
                push(b'0' + (8 - file) as u8);
            }
            if rank > 0 {
                push(b'/');
            }
        }
        (buf, len)
    }
}

impl fmt::Display for Board {
    /// The FEN piece placement field.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_fen(f)
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({self})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_board() {
        let board = Board::new();
        assert_eq!(
            board.to_string(),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"
        );
        assert_eq!(board.king_of(Color::White), Some(Square::E1));
        assert_eq!(
            board.piece_at(Square::D8),
            Some(Role::Queen.of(Color::Black))
        );
        assert_eq!(board.role_at(Square::E4), None);
        assert_eq!(board.pieces().count(), 32);
        let attackers = board.attacks_to(Square::F3, Color::White, board.occupied());
        assert_eq!(
            attackers,
            Bitboard::from_square(Square::G1) | Square::E2 | Square::G2
        );
    }

    #[test]
    fn edit_pieces() {
        let mut board = Board::new();
        assert_eq!(
            board.remove_piece_at(Square::E2),
            Some(Role::Pawn.of(Color::White))
        );
        board.set_piece_at(Square::E4, Role::Pawn.of(Color::White));
        assert_eq!(
            board.to_string(),
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR"
        );
        board.set_piece_at(Square::E4, Role::Knight.of(Color::Black));
        assert_eq!(
            board.piece_at(Square::E4),
            Some(Role::Knight.of(Color::Black))
        );
        assert!(!board.pawns().contains(Square::E4));
    }

    #[test]
    fn attacks_along_lines_are_the_magic_tables_attacks() {
        // Random boards (a fixed xorshift), each square's attackers of both
        // colors with the board's occupancy and with squares taken out or
        // put in, as the king-safety tests do.
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let roles = [
            Role::Pawn,
            Role::Knight,
            Role::Bishop,
            Role::Rook,
            Role::Queen,
            Role::King,
        ];
        let mut sliders_seen = 0;
        for _ in 0..300 {
            let mut board = Board::empty();
            let pieces = 4 + next() % 24;
            for _ in 0..pieces {
                let sq = Square::new((next() % 64) as u32);
                let role = roles[(next() % 6) as usize];
                let color = if next() % 2 == 0 {
                    Color::White
                } else {
                    Color::Black
                };
                board.set_piece_at(sq, role.of(color));
            }
            let occupancies = [
                board.occupied(),
                Bitboard(board.occupied().0 & next()),
                Bitboard(board.occupied().0 | (next() & next())),
            ];
            for occupied in occupancies {
                for sq in Bitboard::FULL {
                    for color in [Color::White, Color::Black] {
                        let expected = board.attacks_to(sq, color, occupied);
                        assert_eq!(
                            board.attacks_to_along_lines(sq, color, occupied),
                            expected,
                            "{board} {sq} {occupied:?}"
                        );
                        sliders_seen +=
                            (expected & !board.pawns() & !board.knights() & !board.kings()).count();
                    }
                }
            }
        }
        assert!(sliders_seen > 10_000, "{sliders_seen}");
    }
}
