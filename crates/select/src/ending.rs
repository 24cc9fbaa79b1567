//! What playing a game's main line shows: its last position, whether a
//! position occurs three times, whether the halfmove clock reaches the
//! fifty- or seventy-five-move mark, whether a pawn is promoted to
//! something other than a queen. The query predicates `checkmate`,
//! `stalemate`, `insufficient_material`, `threefold`, `fifty_moves`,
//! `seventy_five_moves`, `underpromotion` and `piece_count` read these.
//!
//! Each follows python-chess (1.11) on the positions of the main line, the
//! start position included (a differential test in `tests/python` compares
//! them game by game):
//!
//! - the last position: `is_checkmate()`, `is_stalemate()`,
//!   `is_insufficient_material()` (see
//!   [`Position::is_insufficient_material`]);
//! - [`threefold`]: `is_repetition(3)` holds at some ply;
//! - [`halfmove_clock_reaches`]: `is_fifty_moves()` (100 halfmoves) or
//!   `is_seventyfive_moves()` (150) holds at some ply: the clock is at the
//!   mark or past it and the side to move has a legal move (a checkmate
//!   ends the game first).
//!
//! Each takes the start position and the main line's moves, so a game's
//! tree and a [`Record`](crate::Record) (moves kept while reading) are
//! read alike.

use pgnkit_chess::{Board, CastlingRights, Color, Move, Position, Role, Square};
use pgnkit_game::Game;

/// The main line's last position (the start when it has no moves).
pub(crate) fn final_position(game: &Game) -> Position {
    last_position(game.start_position(), game.main_line_moves().map(|p| p.mv))
}

/// The position after `moves` from `start`.
pub(crate) fn last_position(start: &Position, moves: impl IntoIterator<Item = Move>) -> Position {
    let mut pos = start.clone();
    for mv in moves {
        pos.play_unchecked(mv);
    }
    pos
}

/// A position as repetition counts it: board, side to move, castling
/// rights, and the en passant square only when a capture there is legal
/// ([`Position::ep_square`] keeps it so). python-chess's
/// `_transposition_key` is the same.
type RepetitionKey = (Board, Color, CastlingRights, Option<Square>);

fn repetition_key(pos: &Position) -> RepetitionKey {
    (*pos.board(), pos.turn(), pos.castles(), pos.ep_square())
}

/// Whether some position of the main line (the start included) occurs a
/// third time: python-chess's `is_repetition(3)` after some ply.
pub(crate) fn threefold(start: &Position, moves: impl IntoIterator<Item = Move>) -> bool {
    let mut pos = start.clone();
    let mut repetitions = Repetitions::default();
    repetitions.start(&pos);
    for mv in moves {
        pos.play_unchecked(mv);
        if repetitions.push(mv, &pos) {
            return true;
        }
    }
    false
}

/// The positions of a line since its last pawn move or capture, to find a
/// position's third occurrence ([`threefold`], and a
/// [`Recorder`](crate::Recorder) while it reads). Positions on both sides of
/// a pawn move or a capture cannot be the same, so only those since the
/// last one are compared.
#[derive(Debug, Clone, Default)]
pub(crate) struct Repetitions {
    since_reset: Vec<RepetitionKey>,
}

impl Repetitions {
    /// The line starts at `pos`.
    pub(crate) fn start(&mut self, pos: &Position) {
        self.since_reset.clear();
        self.since_reset.push(repetition_key(pos));
    }

    /// `mv` was played, giving `pos`: whether `pos` occurs a third time.
    pub(crate) fn push(&mut self, mv: Move, pos: &Position) -> bool {
        if mv.is_zeroing() {
            self.since_reset.clear();
        }
        let key = repetition_key(pos);
        let third = self.since_reset.iter().filter(|&&k| k == key).count() >= 2;
        self.since_reset.push(key);
        third
    }
}

/// The lowest mark [`halfmove_clock_reaches`] is asked about (the fifty-move
/// rule; the seventy-five-move rule's is 150).
pub(crate) const LOWEST_CLOCK_MARK: u32 = 100;

/// The halfmove clock of `pos` when it counts for
/// [`halfmove_clock_reaches`] at any mark (at least [`LOWEST_CLOCK_MARK`],
/// the side to move having a legal move), else 0.
pub(crate) fn counted_clock(pos: &Position) -> u32 {
    let clock = pos.halfmoves();
    if clock >= LOWEST_CLOCK_MARK && pos.has_legal_moves() {
        clock
    } else {
        0
    }
}

/// Whether at some position of the main line (the start included) the
/// halfmove clock is `mark` or more and the side to move has a legal move:
/// python-chess's `is_fifty_moves()` (`mark` 100) and
/// `is_seventyfive_moves()` (150) at some ply.
pub(crate) fn halfmove_clock_reaches(
    start: &Position,
    moves: impl IntoIterator<Item = Move>,
    mark: u32,
) -> bool {
    let mut pos = start.clone();
    let reached = |pos: &Position| pos.halfmoves() >= mark && pos.has_legal_moves();
    if reached(&pos) {
        return true;
    }
    for mv in moves {
        pos.play_unchecked(mv);
        if reached(&pos) {
            return true;
        }
    }
    false
}

/// Whether a move of the main line promotes to a knight, a bishop or a rook.
pub(crate) fn underpromotion(moves: impl IntoIterator<Item = Move>) -> bool {
    moves
        .into_iter()
        .any(|mv| mv.promotion().is_some_and(|role| role != Role::Queen))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(fen: Option<&str>, moves: &str) -> Game {
        let tags = fen.map_or(String::new(), |f| format!("[SetUp \"1\"]\n[FEN \"{f}\"]\n"));
        format!("{tags}\n{moves}").parse().unwrap()
    }

    fn moves(game: &Game) -> impl Iterator<Item = Move> + '_ {
        game.main_line_moves().map(|p| p.mv)
    }

    fn threefold(game: &Game) -> bool {
        super::threefold(game.start_position(), moves(game))
    }

    fn halfmove_clock_reaches(game: &Game, mark: u32) -> bool {
        super::halfmove_clock_reaches(game.start_position(), moves(game), mark)
    }

    fn underpromotion(game: &Game) -> bool {
        super::underpromotion(moves(game))
    }

    #[test]
    fn the_last_position() {
        let mate = game(None, "1. f3 e5 2. g4 Qh4# 0-1");
        assert!(final_position(&mate).is_checkmate());
        assert!(!final_position(&game(None, "1. f3 e5 *")).is_checkmate());
        assert_eq!(
            final_position(&game(None, "*")),
            Position::new(),
            "no moves: the start"
        );
    }

    #[test]
    fn threefold_counts_the_start_and_needs_three() {
        // The knights go out and back: the start occurs at plies 0, 4 and 8.
        let twice = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 *";
        let thrice = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 *";
        assert!(!threefold(&game(None, twice)));
        assert!(threefold(&game(None, thrice)));
        // After some moves: the position after 1... e5 occurs at plies 2, 6 and 10.
        let later = "1. e4 e5 2. Nf3 Nf6 3. Ng1 Ng8 4. Nf3 Nf6 5. Ng1 Ng8 *";
        assert!(threefold(&game(None, later)));
        let not_yet = "1. e4 e5 2. Nf3 Nf6 3. Ng1 Ng8 4. Nf3 Nf6 5. Ng1 *";
        assert!(!threefold(&game(None, not_yet)));
        // Castling rights differ: the king's trip loses them, so the
        // position after the return is not the start.
        let king = "1. e4 e5 2. Ke2 Ke7 3. Ke1 Ke8 4. Ke2 Ke7 5. Ke1 Ke8 6. Ke2 Ke7 *";
        // After 2. Ke2 Ke7 (no rights), 4... Ke7 and 6... Ke7: three times.
        assert!(threefold(&game(None, king)));
        let king_twice = "1. e4 e5 2. Ke2 Ke7 3. Ke1 Ke8 4. Ke2 Ke7 *";
        // 1... e5 (rights) and 3... Ke8 (none) are not the same position.
        assert!(!threefold(&game(None, king_twice)));
    }

    #[test]
    fn en_passant_counts_only_when_legal() {
        // After 1... d5 White could take en passant on d6 (the e5 pawn):
        // that position is not the one reached later by knight moves.
        let fen = "4k3/3p4/8/4P3/8/8/8/4K1N1 b - - 0 1";
        let moves = "1... d5 2. Nf3 Ke7 3. Ng1 Ke8 4. Nf3 Ke7 5. Ng1 Ke8 *";
        // After 1... d5: ep legal. After 3... Ke8 and 5... Ke8: the same
        // board, no ep: only twice.
        assert!(!threefold(&game(Some(fen), moves)));
        let more = "1... d5 2. Nf3 Ke7 3. Ng1 Ke8 4. Nf3 Ke7 5. Ng1 Ke8 6. Nf3 Ke7 *";
        assert!(
            threefold(&game(Some(fen), more)),
            "2... Ke7, 4... Ke7, 6... Ke7"
        );
    }

    #[test]
    fn halfmove_clock_marks() {
        let fen = |clock: u32| format!("4k3/8/8/8/8/8/8/R3K3 w - - {clock} 60");
        assert!(!halfmove_clock_reaches(
            &game(Some(&fen(98)), "1. Ra2 *"),
            100
        ));
        assert!(halfmove_clock_reaches(
            &game(Some(&fen(98)), "1. Ra2 Ke7 *"),
            100
        ));
        assert!(
            halfmove_clock_reaches(&game(Some(&fen(100)), "*"), 100),
            "the start counts"
        );
        assert!(!halfmove_clock_reaches(&game(Some(&fen(149)), "*"), 150));
        assert!(halfmove_clock_reaches(
            &game(Some(&fen(149)), "1. Ra2 *"),
            150
        ));
        // A pawn move resets the clock.
        let pawn = "4k3/8/8/8/8/8/P7/4K3 w - - 98 60";
        assert!(!halfmove_clock_reaches(
            &game(Some(pawn), "1. a3 Ke7 *"),
            100
        ));
        // Checkmate at the mark: no legal move, so not the fifty-move rule.
        let mate = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 99 60";
        assert!(!halfmove_clock_reaches(
            &game(Some(mate), "1. Ra8# 1-0"),
            100
        ));
        assert!(halfmove_clock_reaches(&game(Some(mate), "1. Ra7 1-0"), 100));
    }

    #[test]
    fn underpromotions() {
        let fen = "8/P6k/8/8/8/8/8/4K3 w - - 0 1";
        assert!(underpromotion(&game(Some(fen), "1. a8=N *")));
        assert!(underpromotion(&game(Some(fen), "1. a8=R *")));
        assert!(!underpromotion(&game(Some(fen), "1. a8=Q *")));
        assert!(!underpromotion(&game(Some(fen), "1. Kd2 *")));
        // In a variation only: not the main line.
        assert!(!underpromotion(&game(Some(fen), "1. a8=Q (1. a8=B) *")));
    }
}
