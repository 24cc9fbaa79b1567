//! [`PlyFinder`]: a reader [`Visitor`] that decides a query on main-line
//! positions alone (`pattern`, `material`, `reaches`, `sequence`... without
//! `in_variations`) while the game is read: each predicate is tested on the
//! position the reader has just played, so no move is kept and none played
//! again, and a test of material alone is redone only after a capture or a
//! promotion. Every event is passed on to another visitor
//! ([`Validate`](pgnkit_game::Validate) to check the game). Its plies are
//! those of [`Query::matching_plies_in_moves`](crate::Query::matching_plies_in_moves).
//!
//! ```
//! use pgnkit_game::{Validate, visit_games};
//! use pgnkit_select::Query;
//!
//! let query = Query::parse(r#"material "KQk" or sequence "e4 Nf3""#).unwrap();
//! let pgn = b"1. e4 e5 2. Nf3 *\n\n1. d4 d5 *\n";
//! let finder = query.ply_finder(Validate).unwrap();
//! let found: Vec<Option<Vec<u32>>> = visit_games(pgn, finder)
//!     .map(|game| game.value.1.map(|plies| plies.iter().map(|p| p.ply).collect()))
//!     .collect();
//! assert_eq!(found, [Some(vec![1, 3]), None]);
//! ```

use pgnkit_chess::Position;
use pgnkit_game::{
    GameStart, MainLineMoves, MoveEvent, Nag, RawComment, Skip, Termination, Visitor,
};

use super::Query;
use crate::positions::{Follower, Lose, Ply, Positional};

/// Passes every event to `V` and finds where the query's main-line position
/// predicates hold (see the module docs). Its output is `V`'s with the plies
/// of a selected game (`None`: not selected). Made by
/// [`Query::ply_finder`](crate::Query::ply_finder).
#[derive(Debug, Clone)]
pub struct PlyFinder<V> {
    inner: V,
    query: Query,
    /// The query's position predicates and how far each is.
    leaves: Vec<(Positional, Follower)>,
    depth: u32,
    started: bool,
    /// Whether to stop reading a game once it cannot be selected
    /// ([`PlyFinder::stopping`]).
    stopping: bool,
    /// What the predicates found for good decide of the game, once they do.
    decided: Option<bool>,
    /// What is known of each predicate (room kept between games).
    known: Vec<Option<bool>>,
    /// The moves after which to ask the predicates again: those that may
    /// put one of them out of reach.
    lose: Lose,
    /// How many of those moves are needed before one may be
    /// ([`Follower::reach`]): the predicates are asked again after as many.
    wait: u32,
}

impl<V: Visitor> PlyFinder<V> {
    /// Wraps `inner` for `query`, whose predicates are `leaves` (in the order
    /// the query's plies are gathered).
    pub(crate) fn with(query: Query, leaves: Vec<Positional>, inner: V) -> PlyFinder<V> {
        let lose = leaves.iter().map(Lose::of).max().unwrap_or(Lose::Never);
        PlyFinder {
            lose,
            wait: 0,
            inner,
            query,
            leaves: leaves
                .into_iter()
                .map(|p| (p, Follower::default()))
                .collect(),
            depth: 0,
            started: false,
            stopping: false,
            decided: None,
            known: Vec::new(),
        }
    }

    /// The finder that also ends the reading of a game's moves
    /// ([`Visitor::stop`]) once the game can no longer be selected: every
    /// predicate it depends on is found for good or can never hold again
    /// (the men a `pattern`, `material` or `reaches` needs are gone for good:
    /// a pawn that cannot come back to its square, too few men of a kind), and
    /// that answer is "not selected". The plies of a selected game are all
    /// still found. The rest of a stopped game's moves are not read, so
    /// not checked either: the inner visitor sees the game end after the
    /// move that decided it (its diagnostics are those of what was read).
    pub fn stopping(mut self) -> PlyFinder<V> {
        self.stopping = true;
        self
    }

    /// Asks the predicates what they know after `mv` (`None`: at the start),
    /// in `pos`, unless the game is decided already.
    fn decide(&mut self, mv: Option<&pgnkit_chess::Move>, pos: &Position) {
        if self.decided.is_some() {
            return;
        }
        self.known.clear();
        self.wait = u32::MAX;
        for (p, f) in &mut self.leaves {
            let known = f.known(p, mv, pos);
            if known.is_none() {
                self.wait = self.wait.min(f.reach());
            }
            self.known.push(known);
        }
        self.decided = self.query.decided_by(&self.known);
    }

    /// The wrapped visitor.
    pub fn inner(&self) -> &V {
        &self.inner
    }

    fn start(&mut self, start: &Position) {
        self.started = true;
        self.decided = None;
        for (p, f) in &mut self.leaves {
            f.start(p, start);
        }
        // A query none of whose predicates can be out of reach is never decided early.
        if self.stopping && self.lose != Lose::Never {
            self.decide(None, start);
        }
    }
}

impl<V: Visitor> Visitor for PlyFinder<V> {
    type Output = (V::Output, Option<Vec<Ply>>);
    const MOVES: bool = true;
    /// The predicates read each move and the position after it; the position
    /// before it only if the inner visitor reads it (not [`Validate`](pgnkit_game::Validate)),
    /// so the reader need not copy it for every move.
    const BEFORE: bool = V::MOVES && V::BEFORE;
    const TEXT: bool = V::TEXT;
    const COMMENTS: bool = V::COMMENTS;
    const MAIN_LINE_MOVES: bool = V::MAIN_LINE_MOVES;
    /// Only when made [`stopping`](PlyFinder::stopping).
    const STOP: bool = true;

    /// A game decided "not selected" needs no more moves.
    #[inline]
    fn stop(&mut self) -> bool {
        self.decided == Some(false)
    }

    fn begin_game(&mut self, game: GameStart<'_>) {
        self.depth = 0;
        self.started = false;
        self.decided = None;
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
        self.start(start);
        self.inner.begin_movetext(start);
    }

    fn comment_before(&mut self, comment: RawComment<'_>) {
        if V::MOVES {
            self.inner.comment_before(comment);
        }
    }

    #[inline(always)]
    fn san(&mut self, event: MoveEvent<'_>) {
        if self.depth == 0 {
            for (p, f) in &mut self.leaves {
                f.moved(p, event.mv, event.after);
            }
            if self.stopping && self.decided.is_none() && self.lose.by(&event.mv) {
                if self.wait > 1 {
                    self.wait -= 1;
                } else {
                    self.decide(Some(&event.mv), event.after);
                }
            }
        }
        // An inner visitor without move events gets none (nor a `before` it
        // would not have been given).
        if V::MOVES {
            self.inner.san(event);
        }
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
        if !self.started {
            // No movetext: the standard start position alone, as `Moves` reads it.
            self.start(&Position::default());
        }
        let found: Vec<&[Ply]> = self.leaves.iter_mut().map(|(_, f)| f.plies()).collect();
        let plies = self.query.matching_plies_followed(&found);
        (self.inner.end_game(), plies)
    }
}

#[cfg(test)]
mod tests {
    use pgnkit_game::{Validate, visit_games};

    use crate::{MainLine, PlyFinder, Query};

    /// Games with variations, captures and a promotion, castling and en
    /// passant, a start position of their own and a game without moves.
    const PGN: &[u8] = b"1. e4 e5 (1... c5 2. Nf3 (2. c3) d6) 2. Nf3 $1 {x} Nc6 3. Bb5 a6 4. Bxc6 dxc6 5. O-O f5 6. d4 f4 7. g4 fxg3 *\n\n\
        [FEN \"4k3/P7/8/8/7r/8/8/4K3 w - - 0 1\"]\n[SetUp \"1\"]\n\n1. a8=Q+ Kd7 2. Qa4+ Ke7 3. Qxh4+ *\n\n\
        [FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n[SetUp \"1\"]\n\n1. e4 Kd7 2. e5 *\n\n\
        {no moves} *\n";

    #[test]
    fn plies_equal_those_of_the_moves_kept() {
        for text in [
            r#"material "KQk""#,
            r#"material "KPk" or material "KQkr""#,
            r#"imbalance "B vs N""#,
            r#"not material "KQRRBBNNP8kqrrbbnnp8""#,
            r#"pattern "*/*/*/*/*/*/*/RNBQK2R" or sequence "e4 Bb5""#,
            r#"sequence "e4 Nf3" and not pattern "*/*/*/*/*/*/*/*""#,
            r#"material "KP*kp*" and at (pattern "*/*/*/*/*/*/*/*" and stm black)"#,
            r#"reaches "4k3/8/8/8/4P3/8/8/4K3 b - - 0 1""#,
            r#"pattern "*/*/*/*/*/*/*/?????RK?""#,
            r#"pattern "*/*/*/*/*/*/*/????K??R""#,
            r#"pattern "*/*/*/*/*/*/*/????K*""#,
            r#"pattern "*/*/*/*/*/*/????_*/*""#,
            r#"pattern "*/*/*/*/*/*/*P*/*""#,
            r#"pattern "*/*/*/*/*/?????_*/*/*""#,
            r#"pattern "*/*/*/*/*/??????p?/*/*""#,
            r#"not pattern "*/*/*/*/*/*/*/????K*" and material "KQRRBBNNP8kqrrbbnnp8""#,
            r#"pattern "*/*/*/*/*/*/4P3/*""#,
            r#"pattern "*/*/*/*/4P3/*/*/*" or not pattern "*/*/*/*/*/*/*/????K*""#,
            r#"not pattern "*/*/*/*/*/*/4P3/*" and sequence "e4""#,
            r#"pattern "*/*/*/*/*/*/4P3/*" and (sequence "Nf3" or material "KQk")"#,
            r#"not (pattern "*/pppppppp/*/*/*/*/*/*" or imbalance "B vs N")"#,
            r#"reaches "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2""#,
        ] {
            let query = Query::parse(text).unwrap_or_else(|e| panic!("{text}: {e:?}"));
            let kept: Vec<_> = visit_games(PGN, MainLine::new(Validate))
                .map(|g| {
                    let moves = g.value.1;
                    let start = moves.start.unwrap_or_default();
                    query.matching_plies_in_moves(&start, &moves.moves)
                })
                .collect();
            let found: Vec<_> = visit_games(PGN, query.ply_finder(Validate).unwrap())
                .map(|g| g.value.1)
                .collect();
            assert_eq!(found.len(), 4);
            assert_eq!(found, kept, "{text}");
            // Stopping a game once it cannot be selected finds the same.
            let stopping: Vec<_> = visit_games(PGN, query.ply_finder(Validate).unwrap().stopping())
                .map(|g| g.value.1)
                .collect();
            assert_eq!(stopping, kept, "{text} (stopping)");
        }
        // The pattern of the castled king: from the castling on, until the king moves (never).
        let query = Query::parse(r#"pattern "*/*/*/*/*/*/*/?????RK?""#).unwrap();
        let found: Vec<_> = visit_games(PGN, query.ply_finder(Validate).unwrap())
            .map(|g| g.value.1.map(|plies| plies.len()))
            .collect();
        assert_eq!(found, [Some(6), None, None, None]);
        // The promotion and the capture change the material: found after both.
        let query = Query::parse(r#"material "KQk""#).unwrap();
        let found: Vec<_> = visit_games(PGN, query.ply_finder(Validate).unwrap())
            .map(|g| {
                g.value
                    .1
                    .map(|plies| plies.iter().map(|p| p.ply).collect::<Vec<_>>())
            })
            .collect();
        assert_eq!(found, [None, Some(vec![5]), None, None]);
        assert!(
            Query::parse("plies > 3")
                .unwrap()
                .ply_finder(Validate)
                .is_none()
        );
    }
    /// A game that can no longer be selected is read no further: its later
    /// moves are not checked (an illegal one is not found), the game still
    /// ends at its marker, and the next game reads as before. A selected
    /// game, or one that may still be, is read to its end.
    #[test]
    fn a_game_that_cannot_be_selected_is_read_no_further() {
        let pgn = b"[Result \"1-0\"]\n\n1. e4 h6 2. Qxz9 (2. d4 {x} 1/2-1/2) Nf6 {after} 1-0\n\n\
            1. e4 e5 2. Nf3 Nc6 3. Qxz9 *\n\n\
            1. d4 d5 2. c4 Kd7 3. Qxz9 *\n\n\
            1. Nf3 Nf6 *\n";
        // A black pawn on h7 and a white one on d4.
        let query = Query::parse(r#"pattern "*/???????p/*/*/???P*/*/*/*""#).unwrap();
        let read = |finder: PlyFinder<Validate>| -> Vec<(bool, Option<Vec<u32>>)> {
            visit_games(pgn, finder)
                .map(|g| {
                    let plies = g.value.1.map(|p| p.iter().map(|p| p.ply).collect());
                    (g.diagnostics.has_errors(), plies)
                })
                .collect()
        };
        let all = read(query.ply_finder(Validate).unwrap());
        let stopping = read(query.ply_finder(Validate).unwrap().stopping());
        // h6 ends game 1's chances; game 2 may still be selected (h7 and d2
        // stand) and is read whole, as game 3, selected from 1. d4 on.
        let selected = Some(vec![1, 2, 3, 4]);
        assert_eq!(
            all,
            [
                (true, None),
                (true, None),
                (true, selected.clone()),
                (false, None)
            ]
        );
        assert_eq!(
            stopping,
            [(false, None), (true, None), (true, selected), (false, None)]
        );
    }

    /// The plies are kept as runs (from the ply where the answer turns true to
    /// the one before it turns false, the last run up to the last move): a run
    /// from the start, one that ends and another up to the game's end.
    #[test]
    fn runs_of_plies_from_the_start_to_the_end() {
        let pgn = b"1. e4 e5 2. Ke2 Ke7 3. Ke1 Ke8 *\n\n1. d4 Nf6 *\n\n[FEN \"4k3/8/8/8/8/8/8/K7 w - - 0 1\"]\n[SetUp \"1\"]\n\n1. Kb1 Kd8 2. Kc1 *\n";
        let query = Query::parse(r#"pattern "*/*/*/*/*/*/*/????K*""#).unwrap();
        let found: Vec<_> = visit_games(pgn, query.ply_finder(Validate).unwrap())
            .map(|g| {
                g.value
                    .1
                    .map(|plies| plies.iter().map(|p| p.ply).collect::<Vec<_>>())
            })
            .collect();
        assert_eq!(
            found,
            [Some(vec![0, 1, 2, 5, 6]), Some(vec![0, 1, 2]), None]
        );
    }

    /// Patterns tested only when a move changes one of their squares find
    /// the plies of a test of every position, on the corpus files under 3 MB
    /// (castling, en passant and promotions included); each pattern is
    /// found somewhere and not everywhere.
    #[test]
    fn patterns_find_on_the_corpus_what_testing_every_position_finds() {
        let texts = [
            r#"pattern "6k1/5ppp/*/*/*/*/*/*""#,
            r#"pattern "*/*/*/*/*/*/*/?????RK?""#,
            r#"pattern "??kr*/*/*/*/*/*/*/*""#,
            r#"pattern "*/*/*/???pP*/*/*/*/*""#,
            r#"pattern "*/*/*/*/*/*/*/????K*" or pattern "*/*/*/*/*/*/*/*K""#,
            r#"pattern "*/*/*/*/????_*/*/???A*/*" and not material "KQRRBBNNP8kqrrbbnnp8""#,
        ];
        let queries: Vec<Query> = texts.iter().map(|q| Query::parse(q).unwrap()).collect();
        let mut selected = vec![(0usize, 0usize); queries.len()];
        let mut games = 0usize;
        for path in pgnkit_corpus::all_pgn_files() {
            let bytes = std::fs::read(&path).unwrap();
            if bytes.len() >= 3 << 20 {
                continue;
            }
            let kept: Vec<_> = visit_games(&bytes, MainLine::new(Validate))
                .map(|g| (g.diagnostics.has_errors(), g.value.1))
                .collect();
            games += kept.len();
            for (q, query) in queries.iter().enumerate() {
                let found = visit_games(&bytes, query.ply_finder(Validate).unwrap());
                let stopping = visit_games(&bytes, query.ply_finder(Validate).unwrap().stopping());
                for (n, ((game, stopped), (broken, moves))) in
                    found.zip(stopping).zip(&kept).enumerate()
                {
                    assert_eq!(
                        stopped.value.1,
                        game.value.1,
                        "{}: game {} (stopping): {}",
                        path.display(),
                        n + 1,
                        texts[q]
                    );
                    if *broken {
                        continue;
                    }
                    let start = moves.start.clone().unwrap_or_default();
                    let want = query.matching_plies_in_moves(&start, &moves.moves);
                    assert_eq!(
                        game.value.1,
                        want,
                        "{}: game {}: {}",
                        path.display(),
                        n + 1,
                        texts[q]
                    );
                    let count = &mut selected[q];
                    if want.is_some() {
                        count.0 += 1;
                    } else {
                        count.1 += 1;
                    }
                }
            }
        }
        for (text, (yes, no)) in texts.iter().zip(&selected) {
            println!("{yes:>7} selected, {no:>7} not: {text}");
            assert!(*yes > 0 && *no > 0, "`{text}` decides every game alike");
        }
        assert!(games > 50_000, "{games} games");
    }
}
