//! [`MainLine`]: a reader [`Visitor`] that keeps a game's start position and
//! main-line moves while passing every event on to another visitor (a
//! streaming writer), so a duplicate key ([`GameKey::of_moves`]) and an
//! opening ([`Openings::classify_moves`]) are had without building a tree.
//!
//! ```
//! use pgnkit_game::{Validate, visit_games};
//! use pgnkit_select::{GameKey, MainLine};
//!
//! let pgn = b"1. e4 e5 (1... c5 2. Nf3) 2. Nf3 {x} *\n\n1. e4 e5 2. Nf3 1-0\n";
//! let keys: Vec<GameKey> = visit_games(pgn, MainLine::new(Validate))
//!     .map(|game| game.value.1.key())
//!     .collect();
//! assert_eq!(keys[0], keys[1]);
//! ```

use pgnkit_chess::{Move, Position};
use pgnkit_game::{
    GameStart, MainLineMoves, MoveEvent, Nag, RawComment, Skip, Termination, Visitor,
};

use crate::dedupe::GameKey;
use crate::openings::{Classification, Openings};

/// A game's start position and main-line moves, as [`MainLine`] kept them.
#[derive(Debug, Clone, Default)]
pub struct Moves {
    /// The start position (`None` when the game had no movetext events).
    pub start: Option<Position>,
    /// The main line's moves, in order.
    pub moves: Vec<Move>,
}

impl Moves {
    /// The duplicate key ([`GameKey::of`] of the same game).
    pub fn key(&self) -> GameKey {
        let start = self.start.clone().unwrap_or_default();
        GameKey::of_moves(&start, self.moves.iter().copied())
    }

    /// The opening ([`Openings::classify`] of the same game).
    pub fn classify<'t>(&self, table: &'t Openings) -> Option<Classification<'t>> {
        let start = self.start.clone().unwrap_or_default();
        table.classify_moves(&start, self.moves.iter().copied())
    }
}

/// Passes every event to `V` and keeps the main line's moves (see the
/// module docs). Its output is `V`'s with the [`Moves`].
#[derive(Debug, Clone, Default)]
pub struct MainLine<V> {
    inner: V,
    depth: u32,
    moves: Moves,
}

impl<V: Visitor> MainLine<V> {
    /// Wraps `inner`.
    pub fn new(inner: V) -> MainLine<V> {
        MainLine {
            inner,
            depth: 0,
            moves: Moves::default(),
        }
    }

    /// The wrapped visitor.
    pub fn inner(&self) -> &V {
        &self.inner
    }

    /// The wrapped visitor, to change.
    pub fn inner_mut(&mut self) -> &mut V {
        &mut self.inner
    }
}

impl<V: Visitor> Visitor for MainLine<V> {
    type Output = (V::Output, Moves);
    const MOVES: bool = true;
    const BEFORE: bool = V::BEFORE;
    const TEXT: bool = V::TEXT;
    const COMMENTS: bool = V::COMMENTS;
    const MAIN_LINE_MOVES: bool = V::MAIN_LINE_MOVES;

    fn begin_game(&mut self, game: GameStart<'_>) {
        self.depth = 0;
        self.moves.start = None;
        self.moves.moves.clear();
        self.inner.begin_game(game);
    }

    fn main_line_moves(&mut self, moves: MainLineMoves<'_>) {
        self.inner.main_line_moves(moves);
    }

    fn wants_tag(&self, name: &[u8]) -> bool {
        self.inner.wants_tag(name)
    }

    fn tag(&mut self, name: &[u8], value: &[u8]) {
        self.inner.tag(name, value);
    }

    /// The inner visitor's choice: a game whose movetext it skips has no moves.
    fn end_tags(&mut self) -> Skip {
        self.inner.end_tags()
    }

    fn begin_movetext(&mut self, start: &Position) {
        self.moves.start = Some(start.clone());
        self.inner.begin_movetext(start);
    }

    fn comment_before(&mut self, comment: RawComment<'_>) {
        self.inner.comment_before(comment);
    }

    fn san(&mut self, event: MoveEvent<'_>) {
        if self.depth == 0 {
            self.moves.moves.push(event.mv);
        }
        self.inner.san(event);
    }

    fn nag(&mut self, nag: Nag) {
        self.inner.nag(nag);
    }

    fn comment(&mut self, comment: RawComment<'_>) {
        self.inner.comment(comment);
    }

    fn trailing_comment(&mut self, comment: RawComment<'_>) {
        self.inner.trailing_comment(comment);
    }

    fn begin_variation(&mut self) -> Skip {
        let skip = self.inner.begin_variation();
        if skip == Skip::No {
            self.depth += 1;
        }
        skip
    }

    fn end_variation(&mut self) {
        self.depth = self.depth.saturating_sub(1);
        self.inner.end_variation();
    }

    fn end_movetext(&mut self, last: &Position) {
        self.inner.end_movetext(last);
    }

    fn termination(&mut self, termination: Termination) {
        self.inner.termination(termination);
    }

    fn end_game(&mut self) -> Self::Output {
        (self.inner.end_game(), std::mem::take(&mut self.moves))
    }
}

#[cfg(test)]
mod tests {
    use pgnkit_game::{Validate, read_games, visit_games};

    use super::*;

    /// Games with variations (nested, and one on the first move), comments,
    /// NAGs, a start position of its own and a game without moves.
    const PGN: &[u8] = b"1. e4 e5 (1... c5 2. Nf3 (2. c3) d6) 2. Nf3 $1 {x} Nc6 3. Bb5 a6 *\n\n\
        1. d4 (1. e4) 1... Nf6 2. c4 g6 3. Nc3 d5 4. cxd5 Nxd5 5. e4 Nxc3 6. bxc3 Bg7 1-0\n\n\
        [FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n[SetUp \"1\"]\n\n1. e4 Kd7 2. e5 *\n\n\
        {no moves} *\n";

    #[test]
    fn keys_and_openings_equal_the_tree_versions() {
        let trees: Vec<_> = read_games(PGN).map(|g| g.value).collect();
        let kept: Vec<Moves> = visit_games(PGN, MainLine::new(Validate))
            .map(|g| g.value.1)
            .collect();
        assert_eq!(trees.len(), 4);
        assert_eq!(kept.len(), 4);
        let table = Openings::lichess();
        for (tree, moves) in trees.iter().zip(&kept) {
            assert_eq!(moves.key(), GameKey::of(tree));
            let a = moves
                .classify(table)
                .map(|c| (c.opening.eco.clone(), c.ply));
            let b = table.classify(tree).map(|c| (c.opening.eco.clone(), c.ply));
            assert_eq!(a, b);
        }
        assert_eq!(kept[0].moves.len(), 6);
        assert_eq!(kept[3].moves.len(), 0);
        assert!(kept[1].classify(table).is_some());
        assert!(kept[2].classify(table).is_none());
    }
}

/// The wrappers of this crate ask the reader for what the visitor inside
/// them asks (its tags, its comments, the main line's length) and pass on
/// every event it reads.
#[cfg(test)]
mod forwarding {
    use pgnkit_chess::{Color, Position};
    use pgnkit_game::{MainLineMoves, RawComment, Visitor, visit_games};

    use crate::{MainLine, Query, SplitLines};

    /// Wants the `White` tag, no comment, and the main line's length; keeps the
    /// last position's side to move.
    #[derive(Default)]
    struct Picky {
        tags: Vec<String>,
        comments: usize,
        told: Option<usize>,
        last: Option<Color>,
    }

    impl Visitor for Picky {
        type Output = (Vec<String>, usize, Option<usize>, Option<Color>);
        const COMMENTS: bool = false;
        const MAIN_LINE_MOVES: bool = true;

        fn wants_tag(&self, name: &[u8]) -> bool {
            name == b"White"
        }
        fn tag(&mut self, name: &[u8], _value: &[u8]) {
            self.tags.push(String::from_utf8_lossy(name).into_owned());
        }
        fn main_line_moves(&mut self, moves: MainLineMoves<'_>) {
            self.told = Some(moves.count());
        }
        fn comment(&mut self, _comment: RawComment<'_>) {
            self.comments += 1;
        }
        fn end_movetext(&mut self, last: &Position) {
            self.last = Some(last.turn());
        }
        fn end_game(&mut self) -> Self::Output {
            (
                std::mem::take(&mut self.tags),
                std::mem::take(&mut self.comments),
                self.told.take(),
                self.last.take(),
            )
        }
    }

    const PGN: &[u8] =
        b"[Event \"e\"]\n[White \"w\"]\n[Black \"b\"]\n\n1. e4 {a} e5 (1... c5 {b}) 2. Nf3 *\n";

    #[test]
    fn wrappers_ask_for_what_the_inner_visitor_asks() {
        let alone = visit_games(PGN, Picky::default()).map(|g| g.value);
        let expected: Vec<_> = alone.collect();
        let told = (vec!["White".to_string()], 0, Some(3), Some(Color::Black));
        assert_eq!(expected, vec![told]);

        let main_line: Vec<_> = visit_games(PGN, MainLine::new(Picky::default()))
            .map(|g| g.value.0)
            .collect();
        assert_eq!(main_line, expected, "MainLine");
        let split: Vec<_> = visit_games(PGN, SplitLines::new(Picky::default()))
            .map(|g| g.value.0)
            .collect();
        assert_eq!(split, expected, "SplitLines");
        let query = Query::parse(r#"sequence "e4""#).unwrap();
        let found: Vec<_> = visit_games(PGN, query.ply_finder(Picky::default()).unwrap())
            .map(|g| g.value.0)
            .collect();
        assert_eq!(found, expected, "PlyFinder");
    }
}
