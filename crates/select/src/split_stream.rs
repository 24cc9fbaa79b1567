//! [`SplitLines`]: [`split_variations`](crate::split_variations) on the
//! reader's events, for a game it leaves whole: a visitor that passes every
//! event on to another (a streaming writer) and says whether the game has
//! a variation.
//!
//! A game without variations is split into one game: itself (its `Result`
//! tag saying its marker, as a writer writes it), which the inner visitor
//! got. A game with a variation is split on its tree by the caller.

use pgnkit_chess::Position;
use pgnkit_game::{
    GameStart, MainLineMoves, MoveEvent, Nag, RawComment, Skip, Termination, Visitor,
};

/// What [`SplitLines`] found of one game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lines {
    /// No variation: the game is its only line, and the inner visitor got
    /// it.
    One,
    /// The game has a variation: it is split on its tree.
    Tree,
}

/// Passes every event to `V`; its output is `V`'s with what splitting the
/// game needs ([`Lines`]; see the module docs).
///
/// ```
/// use pgnkit_game::{Validate, visit_games};
/// use pgnkit_select::{Lines, SplitLines};
///
/// let pgn = b"1. e4 e5 *\n\n1. e4 (1. d4) e5 *\n";
/// let split: Vec<Lines> = visit_games(pgn, SplitLines::new(Validate))
///     .map(|read| read.value.1)
///     .collect();
/// assert_eq!(split, [Lines::One, Lines::Tree]);
/// ```
#[derive(Debug, Clone)]
pub struct SplitLines<V> {
    inner: V,
    variations: bool,
}

impl<V: Visitor> SplitLines<V> {
    /// Wraps `inner`.
    pub fn new(inner: V) -> SplitLines<V> {
        SplitLines {
            inner,
            variations: false,
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

impl<V: Visitor> Visitor for SplitLines<V> {
    type Output = (V::Output, Lines);
    const MOVES: bool = V::MOVES;
    const BEFORE: bool = V::BEFORE;
    const TEXT: bool = V::TEXT;
    const COMMENTS: bool = V::COMMENTS;
    const MAIN_LINE_MOVES: bool = V::MAIN_LINE_MOVES;

    #[inline]
    fn begin_game(&mut self, game: GameStart<'_>) {
        self.variations = false;
        self.inner.begin_game(game);
    }
    #[inline]
    fn main_line_moves(&mut self, moves: MainLineMoves<'_>) {
        self.inner.main_line_moves(moves);
    }
    #[inline]
    fn wants_tag(&self, name: &[u8]) -> bool {
        self.inner.wants_tag(name)
    }
    #[inline]
    fn tag(&mut self, name: &[u8], value: &[u8]) {
        self.inner.tag(name, value);
    }
    #[inline]
    fn end_tags(&mut self) -> Skip {
        self.inner.end_tags()
    }
    #[inline]
    fn begin_movetext(&mut self, start: &Position) {
        self.inner.begin_movetext(start);
    }
    #[inline]
    fn comment_before(&mut self, comment: RawComment<'_>) {
        self.inner.comment_before(comment);
    }
    #[inline]
    fn san(&mut self, event: MoveEvent<'_>) {
        self.inner.san(event);
    }
    #[inline]
    fn nag(&mut self, nag: Nag) {
        self.inner.nag(nag);
    }
    #[inline]
    fn comment(&mut self, comment: RawComment<'_>) {
        self.inner.comment(comment);
    }
    #[inline]
    fn trailing_comment(&mut self, comment: RawComment<'_>) {
        self.inner.trailing_comment(comment);
    }
    /// Any variation, read or skipped by the inner visitor.
    #[inline]
    fn begin_variation(&mut self) -> Skip {
        self.variations = true;
        self.inner.begin_variation()
    }
    #[inline]
    fn end_variation(&mut self) {
        self.inner.end_variation();
    }
    #[inline]
    fn end_movetext(&mut self, last: &Position) {
        self.inner.end_movetext(last);
    }
    #[inline]
    fn termination(&mut self, termination: Termination) {
        self.inner.termination(termination);
    }
    fn end_game(&mut self) -> Self::Output {
        let split = if self.variations {
            Lines::Tree
        } else {
            Lines::One
        };
        (self.inner.end_game(), split)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pgnkit_game::{TreeBuilder, read_games, visit_games};

    /// Each corpus game `One` is one game for `split_variations`, with
    /// the tree and tags of the game as read (but its `Result` tag, which a
    /// writer writes from the marker); every game with a variation is
    /// `Tree`.
    #[test]
    fn a_whole_game_is_its_only_line() {
        let (mut whole, mut tree) = (0usize, 0usize);
        for path in pgnkit_corpus::all_pgn_files() {
            let bytes = std::fs::read(&path).expect("corpus file");
            if bytes.len() >= 3 << 20 {
                continue;
            }
            let streamed: Vec<_> =
                visit_games(&bytes, SplitLines::new(TreeBuilder::new())).collect();
            for (read, stream) in read_games(&bytes).zip(&streamed) {
                let (game, split) = &stream.value;
                let lines = crate::split_variations(&read.value, usize::MAX);
                let has_variations = read.value.tree().preorder().iter().any(|&id| {
                    read.value
                        .tree()
                        .get(id)
                        .is_some_and(|n| !n.variations().is_empty())
                });
                if *split == Lines::Tree {
                    tree += 1;
                    assert!(has_variations, "{}", path.display());
                    continue;
                }
                whole += 1;
                assert!(!has_variations, "{}", path.display());
                let [line] = lines.as_slice() else {
                    panic!("{}: {} lines", path.display(), lines.len());
                };
                assert_eq!(line.tree(), game.tree(), "{}", path.display());
                assert_eq!(line.start_position(), game.start_position());
                assert_eq!(line.termination(), game.termination());
                // The `Result` tag, which a writer writes from the marker, left out.
                let tags = |g: &pgnkit_game::Game| -> pgnkit_game::Tags {
                    g.tags().iter().filter(|(n, _)| *n != "Result").collect()
                };
                assert_eq!(tags(line), tags(game), "{}", path.display());
            }
        }
        assert!(whole > 1000 && tree > 100, "{whole} {tree}");
    }
}
