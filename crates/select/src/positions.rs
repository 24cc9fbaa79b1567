//! Position predicates of a query and the plies where they hold: `reaches`,
//! `material`, `pattern`, `imbalance`, `hash`, `stm` (inside `at (...)`), each a
//! test of one position, and `sequence`, moves in order. They are tested on
//! the positions of the main line or, with `in_variations`, of every line.
//!
//! Plies are counted from the game's start position (ply 0, the position
//! before the first move; ply `n` is the position after `n` moves), along
//! the line the position is on. A move's ply is the ply of the position it
//! leads to.

use pgnkit_chess::{Bitboard, Color, Move, Position, polyglot};
use pgnkit_game::Game;

use crate::imbalance::Imbalance;
use crate::material::Material;
use crate::needs::Needs;
use crate::pattern::Pattern;
use crate::position_key::PositionKey;
use crate::sequence::Sequence;

/// A place in a game where a position predicate holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Ply {
    /// Whether the position is on the main line (else in a variation).
    pub main_line: bool,
    /// Plies from the start position along its line (0: the start).
    pub ply: u32,
}

/// A test of one position.
#[derive(Debug, Clone)]
pub(crate) enum Test {
    /// The position with the men it needs (`needs.rs`), and its Polyglot
    /// key (what an index looks up).
    Reaches(Box<(PositionKey, Needs)>, u64),
    Material(Material),
    Pattern(Pattern),
    /// The imbalance, and the side that has its first part (either when `None`).
    Imbalance(Imbalance, Option<Color>),
    ToMove(Color),
    /// The position's Polyglot key (`hash 0x...`, pgn-extract's `-H`).
    Hash(u64),
    And(Vec<Test>),
    Or(Vec<Test>),
    Not(Box<Test>),
}

impl Test {
    /// Whether `pos` passes. A pattern or a material test (the tests a
    /// [`Follower`] makes again after a move) is made here, inline in the
    /// caller; the others out of line.
    #[inline]
    fn holds(&self, pos: &Position) -> bool {
        match self {
            Test::Pattern(p) => p.matches(pos.board()),
            Test::Material(m) => m.matches(pos.board()),
            _ => self.holds_other(pos),
        }
    }

    /// [`holds`](Test::holds) for the tests other than a pattern or a material test.
    #[inline(never)]
    fn holds_other(&self, pos: &Position) -> bool {
        match self {
            Test::Reaches(target, _) => target.0.is(pos),
            Test::Material(m) => m.matches(pos.board()),
            Test::Pattern(p) => p.matches(pos.board()),
            Test::Imbalance(i, first) => i.matches(pos.board(), *first),
            Test::ToMove(color) => pos.turn() == *color,
            Test::Hash(key) => pos.polyglot_key() == *key,
            Test::And(all) => all.iter().all(|t| t.holds(pos)),
            Test::Or(all) => all.iter().any(|t| t.holds(pos)),
            Test::Not(t) => !t.holds(pos),
        }
    }
}

impl Test {
    /// How far the test is from being out of reach, in the moves that may
    /// put it there ([`lose`](Test::lose)): 0 when no position reached from
    /// one with `board` can pass (the men a pattern, a material balance or
    /// an exact position needs are gone for good, `needs.rs`); `n` when at
    /// least `n` such moves are needed before that may be; `u32::MAX` for a
    /// test that never is (passed by a position without something, `not`;
    /// or by any board: the side to move, a key, an imbalance).
    fn reach(&self, board: &pgnkit_chess::Board) -> u32 {
        match self {
            Test::Pattern(p) => u32::from(!p.out_of_reach(board)),
            Test::Material(m) => m.reach(board),
            Test::Reaches(target, _) => u32::from(!target.1.out_of_reach(board)),
            Test::And(all) => all.iter().map(|t| t.reach(board)).min().unwrap_or(u32::MAX),
            Test::Or(all) => all.iter().map(|t| t.reach(board)).max().unwrap_or(0),
            Test::Not(_) | Test::ToMove(_) | Test::Hash(_) | Test::Imbalance(..) => u32::MAX,
        }
    }

    /// Which moves may put the test out of reach ([`Lose`]).
    pub(crate) fn lose(&self) -> Lose {
        match self {
            // A balance alone is not asked: exact counts are seldom out of
            // reach before a game's last captures, and asking after each of
            // them costs more than it saves (callgrind: +6% for
            // `material "KRPkr"`). Inside a test with a pattern it is.
            Test::Material(_) => Lose::Never,
            Test::Pattern(_) | Test::Reaches(..) => Lose::Men,
            Test::And(all) | Test::Or(all) => {
                all.iter().map(Test::lose).max().unwrap_or(Lose::Never)
            }
            Test::Not(_) | Test::ToMove(_) | Test::Hash(_) | Test::Imbalance(..) => Lose::Never,
        }
    }

    /// Whether the test reads the board alone, and only the pieces' counts
    /// (`material`, `imbalance`) or some squares (`pattern`): then a move
    /// can leave its answer as it was ([`unchanged_by`](Test::unchanged_by)).
    fn may_stay(&self) -> bool {
        match self {
            Test::Material(_) | Test::Imbalance(..) | Test::Pattern(_) => true,
            Test::And(all) | Test::Or(all) => all.iter().all(Test::may_stay),
            Test::Not(t) => t.may_stay(),
            _ => false,
        }
    }

    /// Whether the position after `mv` gives the same answer as the one
    /// before, for a test that [`may_stay`](Test::may_stay): a count of
    /// pieces changes only with a capture or a promotion; a pattern's
    /// answer only when a square it reads changes (a plain move changes
    /// its two squares; castling and en passant more, so they count as a
    /// change).
    fn unchanged_by(&self, mv: &Move) -> bool {
        match self {
            Test::Material(_) | Test::Imbalance(..) | Test::Pattern(_) => {
                Follower::stays(Stay::of(self), mv)
            }
            Test::And(all) | Test::Or(all) => all.iter().all(|t| t.unchanged_by(mv)),
            Test::Not(t) => t.unchanged_by(mv),
            _ => false,
        }
    }
}

/// Which moves may put a test out of reach ([`Test::reach`]), in
/// growing order (the larger takes in the smaller).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Lose {
    /// None: the test is never out of reach.
    #[default]
    Never,
    /// A capture or a pawn's move (a promotion too): the counts of men or
    /// the pawns' squares change (`pattern`, `reaches`, and a balance with them).
    Men,
}

impl Lose {
    /// Of a predicate (a sequence is never out of reach).
    pub(crate) fn of(p: &Positional) -> Lose {
        match &p.what {
            What::Test(test) => test.lose(),
            What::Sequence(_) => Lose::Never,
        }
    }

    /// Whether `mv` is one of these moves.
    #[inline]
    pub(crate) fn by(self, mv: &Move) -> bool {
        match self {
            Lose::Never => false,
            Lose::Men => mv.is_capture() || mv.role() == Some(pgnkit_chess::Role::Pawn),
        }
    }
}

/// When a [`Follower`]'s test may keep its answer over a move, found once per game.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
enum Stay {
    /// Never: the test is made after every move.
    #[default]
    Never,
    /// A pattern reading these squares: over a plain move that changes none of them.
    Squares(u64),
    /// A count of pieces: over a move that neither captures nor promotes.
    Material,
    /// Several tests that may each stay: when [`Test::unchanged_by`] says so.
    Each,
}

impl Stay {
    fn of(test: &Test) -> Stay {
        match test {
            Test::Pattern(p) => Stay::Squares(p.squares()),
            Test::Material(_) | Test::Imbalance(..) => Stay::Material,
            _ if test.may_stay() => Stay::Each,
            _ => Stay::Never,
        }
    }
}

/// [`Positional::plies`] on the main line, worked out as the game is read:
/// [`start`](Follower::start) with the start position, then
/// [`moved`](Follower::moved) after each main-line move, then
/// [`plies`](Follower::plies). The same plies as a search of the main line
/// (`Positional::main_line`), without playing the moves again.
#[derive(Debug, Clone, Default)]
pub(crate) struct Follower {
    /// The plies found.
    plies: Vec<Ply>,
    /// The ply of the last position.
    ply: u32,
    /// A sequence's next step, and the plies of the steps found so far.
    at: usize,
    steps: Vec<Ply>,
    /// The search is over (a sequence found whole).
    done: bool,
    /// When the test's answer at the last position, `last`, holds after a move.
    stay: Stay,
    last: bool,
    /// While `last` holds: the ply since which it has held. The plies of a run
    /// are added when it ends ([`plies`](Follower::plies) ends the last one), so
    /// a move that keeps the answer costs a count and a test, nothing more.
    since: u32,
    /// How far the test is from being out of reach ([`Test::reach`]; 0: it
    /// can never pass again in this game), as last asked ([`Follower::known`]).
    reach: u32,
}

impl Follower {
    /// A new game, from `start` (ply 0).
    pub(crate) fn start(&mut self, p: &Positional, start: &Position) {
        self.plies.clear();
        self.steps.clear();
        self.ply = 0;
        self.done = false;
        self.reach = u32::MAX;
        self.stay = Stay::Never;
        match &p.what {
            What::Test(test) => {
                self.stay = Stay::of(test);
                self.last = test.holds(start);
                self.since = 0;
            }
            What::Sequence(seq) => {
                self.last = false;
                self.at = seq.start();
            }
        }
    }

    /// The main line's move `mv` was played, giving `after`. Most moves leave
    /// a pattern's or a material test's answer as it was: that is decided here,
    /// inline in the reader's loop, the test made out of line.
    #[inline]
    pub(crate) fn moved(&mut self, p: &Positional, mv: Move, after: &Position) {
        self.ply += 1;
        if Follower::stays(self.stay, &mv) {
            return;
        }
        // The move by value: passed in registers, not stored for the call.
        self.moved_out_of_line(p, mv, after);
    }

    /// Whether a test that stays as `stay` says keeps its answer over `mv`
    /// (for [`Stay::Each`] the caller asks each test).
    #[inline]
    fn stays(stay: Stay, mv: &Move) -> bool {
        // A pattern first, with a test and a branch rather than a jump over
        // the four kinds: the common case, met at every move.
        if let Stay::Squares(squares) = stay {
            // A plain move changes its two squares; castling and en passant more.
            return match *mv {
                Move::Normal { from, to, .. } => {
                    squares & (Bitboard::from_square(from).0 | Bitboard::from_square(to).0) == 0
                }
                _ => false,
            };
        }
        stay == Stay::Material && !mv.is_capture() && !mv.is_promotion()
    }

    #[inline(never)]
    fn moved_out_of_line(&mut self, p: &Positional, mv: Move, after: &Position) {
        if self.done {
            return;
        }
        match &p.what {
            What::Test(test) => {
                let holds = if self.stay == Stay::Each && test.unchanged_by(&mv) {
                    self.last
                } else {
                    test.holds(after)
                };
                if holds != self.last {
                    if holds {
                        self.since = self.ply;
                    } else {
                        self.end_run(self.ply - 1);
                    }
                    self.last = holds;
                }
            }
            What::Sequence(seq) => {
                if seq.step_is(self.at, &mv) {
                    self.steps.push(self.at_ply());
                    self.at += 1;
                    if seq.is_done(self.at) {
                        self.plies.append(&mut self.steps);
                        self.done = true;
                    }
                }
            }
        }
    }

    /// Whether the predicate is found in the game (some plies) for good,
    /// whatever the moves after `pos` (the position of the last move `mv`
    /// followed, or the start with `None`): `Some(true)` once it holds or
    /// held, `Some(false)` when it never did and can never hold again (a
    /// sequence over without its plies; a test out of reach,
    /// [`Test::reach`], asked again only after a move that may put it
    /// there, [`Lose`]), `None` while it may still. Plies found only grow, so an
    /// answer given stays: a caller may stop following the game once the
    /// answers of its predicates decide it ([`PlyFinder`](crate::PlyFinder)).
    pub(crate) fn known(
        &mut self,
        p: &Positional,
        mv: Option<&Move>,
        pos: &Position,
    ) -> Option<bool> {
        match &p.what {
            What::Sequence(_) => self.done.then_some(!self.plies.is_empty()),
            What::Test(test) => {
                if self.last || !self.plies.is_empty() {
                    return Some(true);
                }
                if self.reach != 0 && mv.is_none_or(|mv| test.lose().by(mv)) {
                    self.reach = test.reach(pos.board());
                }
                (self.reach == 0).then_some(false)
            }
        }
    }

    /// How many moves that may put the test out of reach ([`Lose`]) are
    /// needed before it may be, as [`known`](Follower::known) last found
    /// (`u32::MAX` for a sequence, or a test that never is).
    pub(crate) fn reach(&self) -> u32 {
        self.reach
    }

    /// Adds the plies of the run of positions where the test held, from
    /// `since` to `last` (both included).
    fn end_run(&mut self, last: u32) {
        self.plies.extend((self.since..=last).map(|ply| Ply {
            main_line: true,
            ply,
        }));
    }

    /// The plies found in the game, once its moves are all played: the
    /// run of the last position is ended here.
    pub(crate) fn plies(&mut self) -> &[Ply] {
        if self.last {
            self.end_run(self.ply);
            self.last = false;
        }
        &self.plies
    }

    fn at_ply(&self) -> Ply {
        Ply {
            main_line: true,
            ply: self.ply,
        }
    }
}

/// A position predicate of a query: which positions, on which lines.
#[derive(Debug, Clone)]
pub(crate) struct Positional {
    pub(crate) what: What,
    /// Variations are searched too (`in_variations`).
    pub(crate) variations: bool,
}

/// What a [`Positional`] looks for.
#[derive(Debug, Clone)]
pub(crate) enum What {
    /// A position passing the test.
    Test(Test),
    /// Moves in order.
    Sequence(Sequence),
}

/// The game a predicate looks at: its tree (every line), or the start
/// position and main-line moves alone (as [`Moves`](crate::Moves) keeps them).
#[derive(Clone, Copy)]
pub(crate) enum Line<'a> {
    Tree(&'a Game),
    Moves(&'a Position, &'a [Move]),
}

impl Positional {
    /// The Polyglot key of the one position this predicate asks for, when it
    /// is `reaches "FEN"` or `hash KEY` on the main line.
    pub(crate) fn exact_key(&self) -> Option<u64> {
        match (&self.what, self.variations) {
            (What::Test(Test::Reaches(_, key) | Test::Hash(key)), false) => Some(*key),
            _ => None,
        }
    }

    /// Whether the predicate holds somewhere in `line`.
    pub(crate) fn holds(&self, line: Line<'_>) -> bool {
        let mut any = false;
        self.search(line, &mut |_| {
            any = true;
            false
        });
        any
    }

    /// Adds the plies where the predicate holds to `out` (for a sequence, the
    /// plies of its moves, the first time all are found); whether there were any.
    pub(crate) fn plies(&self, line: Line<'_>, out: &mut Vec<Ply>) -> bool {
        let before = out.len();
        self.search(line, &mut |ply| {
            out.push(ply);
            true
        });
        out.len() > before
    }

    /// Calls `found` with each ply found until it returns false.
    fn search(&self, line: Line<'_>, found: &mut dyn FnMut(Ply) -> bool) {
        match (line, self.variations) {
            (Line::Tree(game), true) => match &self.what {
                What::Test(test) => every_line(game, test, found),
                What::Sequence(seq) => {
                    if let Some(plies) = sequence(game, seq) {
                        for ply in plies {
                            if !found(ply) {
                                return;
                            }
                        }
                    }
                }
            },
            (Line::Tree(game), false) => self.main_line(
                game.start_position(),
                game.main_line_moves().map(|p| p.mv),
                found,
            ),
            (Line::Moves(start, moves), _) => {
                self.main_line(start, moves.iter().copied(), found);
            }
        }
    }

    /// The search along one line of moves from `start`.
    fn main_line(
        &self,
        start: &Position,
        moves: impl Iterator<Item = Move>,
        found: &mut dyn FnMut(Ply) -> bool,
    ) {
        let mut ply = Ply {
            main_line: true,
            ply: 0,
        };
        match &self.what {
            // The key updated move by move, not computed from each board.
            What::Test(Test::Hash(wanted)) => {
                let mut pos = start.clone();
                let mut key = pos.polyglot_key();
                if key == *wanted && !found(ply) {
                    return;
                }
                let mut before = pos.clone();
                for mv in moves {
                    before.clone_from(&pos);
                    pos.play_unchecked(mv);
                    key = polyglot::key_after(&before, key, &pos);
                    ply.ply += 1;
                    if key == *wanted && !found(ply) {
                        return;
                    }
                }
            }
            What::Test(test) => {
                let mut pos = start.clone();
                if test.holds(&pos) && !found(ply) {
                    return;
                }
                for mv in moves {
                    pos.play_unchecked(mv);
                    ply.ply += 1;
                    if test.holds(&pos) && !found(ply) {
                        return;
                    }
                }
            }
            What::Sequence(seq) => {
                let mut plies = Vec::with_capacity(seq.len());
                let mut at = seq.start();
                for mv in moves {
                    ply.ply += 1;
                    if seq.step_is(at, &mv) {
                        plies.push(ply);
                        at += 1;
                        if seq.is_done(at) {
                            for ply in plies {
                                if !found(ply) {
                                    return;
                                }
                            }
                            return;
                        }
                    }
                }
            }
        }
    }
}

/// Tests every position of every line, in the order the lines are written
/// (a position, then its main continuation, then its variations).
fn every_line(game: &Game, test: &Test, found: &mut dyn FnMut(Ply) -> bool) {
    let tree = game.tree();
    let first = Ply {
        main_line: true,
        ply: 0,
    };
    let mut stack = vec![(tree.root(), game.start_position().clone(), first)];
    while let Some((id, pos, at)) = stack.pop() {
        if test.holds(&pos) && !found(at) {
            return;
        }
        let Some(node) = tree.get(id) else { continue };
        for (i, &child) in node.children().iter().enumerate().rev() {
            let Some(played) = tree.get(child).and_then(|n| n.played()) else {
                continue;
            };
            let mut next = pos.clone();
            next.play_unchecked(played.mv);
            let ply = Ply {
                main_line: at.main_line && i == 0,
                ply: at.ply + 1,
            };
            stack.push((child, next, ply));
        }
    }
}

/// The plies of `seq`'s moves, the first time all are played in order on
/// one line (the first line written where they are).
fn sequence(game: &Game, seq: &Sequence) -> Option<Vec<Ply>> {
    let tree = game.tree();
    let first = Ply {
        main_line: true,
        ply: 0,
    };
    let mut stack = vec![(tree.root(), seq.start(), Vec::new(), first)];
    while let Some((id, at, plies, here)) = stack.pop() {
        if seq.is_done(at) {
            return Some(plies);
        }
        let node = tree.get(id)?;
        for (i, &child) in node.children().iter().enumerate().rev() {
            let Some(played) = tree.get(child).and_then(|n| n.played()) else {
                continue;
            };
            let ply = Ply {
                main_line: here.main_line && i == 0,
                ply: here.ply + 1,
            };
            let mut plies = plies.clone();
            let mut next = at;
            if seq.step_is(at, &played.mv) {
                plies.push(ply);
                next += 1;
            }
            stack.push((child, next, plies, ply));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use crate::{Context, Query, QueryErrorKind};
    use pgnkit_game::Game;

    fn plies(q: &str, pgn: &str) -> Option<Vec<(bool, u32)>> {
        let game: Game = pgn.parse().unwrap();
        let q = Query::parse(q).unwrap();
        let found = q.matching_plies(&game, &Context::default());
        assert_eq!(
            found.is_some(),
            q.matches(&game, &Context::default()),
            "{q:?}"
        );
        found.map(|v| v.iter().map(|p| (p.main_line, p.ply)).collect())
    }

    const GAME: &str = "1. e4 e5 2. Nf3 (2. Bc4 Nf6 3. Nf3) 2... Nc6 3. Bb5 a6 4. Bxc6 dxc6 *";

    #[test]
    fn hash_finds_the_positions_of_a_polyglot_key() {
        // The keys of the start and of 1. e4 in the Polyglot book format's own examples.
        assert_eq!(
            plies("hash 0x463b96181691fc9c", GAME),
            Some(vec![(true, 0)])
        );
        assert_eq!(plies("hash 823C9B50FD114196", GAME), Some(vec![(true, 1)]));
        // The position after 2... Nc6 (ply 4), from its FEN.
        let after_nf3 = pgnkit_chess::Position::from_fen(
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
        )
        .unwrap()
        .polyglot_key();
        assert_eq!(
            plies(&format!("hash {after_nf3:#x}"), GAME),
            Some(vec![(true, 4)])
        );
        assert_eq!(plies("hash 0x1", GAME), None);
        for bad in ["hash", "hash 0x", "hash xyz", "hash 0x1234567890abcdef0"] {
            let e = Query::parse(bad).unwrap_err();
            assert!(
                matches!(e.kind, QueryErrorKind::Syntax(s) if s.contains("Polyglot key")),
                "{bad}: {e:?}"
            );
        }
    }

    #[test]
    fn plies_of_each_predicate() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert_eq!(
            plies(&format!("reaches \"{start}\""), GAME),
            Some(vec![(true, 0)])
        );
        assert_eq!(
            plies("pattern \"*/*/*/*/*/5N2/*/*\"", GAME),
            Some(vec![
                (true, 3),
                (true, 4),
                (true, 5),
                (true, 6),
                (true, 7),
                (true, 8)
            ])
        );
        assert_eq!(plies("imbalance \"B vs N\"", GAME), Some(vec![(true, 8)]));
        assert_eq!(
            plies("imbalance black \"B vs N\"", GAME),
            Some(vec![(true, 8)])
        );
        assert_eq!(plies("imbalance white \"B vs N\"", GAME), None);
        assert_eq!(
            plies("sequence \"e4 Nc6 Bxc6\"", GAME),
            Some(vec![(true, 1), (true, 4), (true, 7)])
        );
        assert_eq!(plies("sequence \"Bc4 Nf3\"", GAME), None);
        assert_eq!(
            plies("in_variations sequence \"Bc4 Nf3\"", GAME),
            Some(vec![(false, 3), (false, 5)])
        );
        assert_eq!(
            plies("at (pattern \"*/*/*/*/*/5N2/*/*\" and stm black)", GAME),
            Some(vec![(true, 3), (true, 5), (true, 7)])
        );
        assert_eq!(
            plies("in_variations pattern \"*/*/*/*/??B*/*/*/*\"", GAME),
            Some(vec![(false, 3), (false, 4), (false, 5)])
        );
        assert_eq!(plies("pattern \"*/*/*/*/??B*/*/*/*\"", GAME), None);
        // Plies of what decides: not those under a `not`, all those of an `or`.
        assert_eq!(
            plies(
                "not material \"KQkq\" and (sequence \"Bb5\" or sequence \"a6\")",
                GAME
            ),
            Some(vec![(true, 5), (true, 6)])
        );
        assert_eq!(plies("plies > 3", GAME), Some(vec![]));
    }

    #[test]
    fn faults_are_shown_at_their_character() {
        let at = |q: &str| {
            let e = Query::parse(q).unwrap_err();
            (e.kind, e.start)
        };
        assert!(matches!(
            at("pattern \"*/*/x*/*/*/*/*/*\""),
            (QueryErrorKind::Pattern(_), 13)
        ));
        assert!(matches!(
            at("sequence \"e4 Nz3\""),
            (QueryErrorKind::Sequence(_), 13)
        ));
        assert!(matches!(
            at("imbalance \"R vs Kx\""),
            (QueryErrorKind::Imbalance(_), 16)
        ));
        assert!(matches!(
            at("pattern \"8/8\" and stm white"),
            (QueryErrorKind::Pattern(_), _)
        ));
        assert!(matches!(
            at("elo > 3 and stm white"),
            (QueryErrorKind::StmOutsideAt, 12)
        ));
        assert!(matches!(
            at("at (stm green)"),
            (QueryErrorKind::Syntax(_), 8)
        ));
        assert!(matches!(
            at("at (Event = x)"),
            (QueryErrorKind::Syntax(_), 4)
        ));
        assert!(matches!(
            at("in_variations Event = x"),
            (QueryErrorKind::Syntax(_), 14)
        ));
        let e = Query::parse("sequence \"e4 e5 Qh9\"").unwrap_err();
        assert_eq!(
            e.render("sequence \"e4 e5 Qh9\""),
            "sequence \"e4 e5 Qh9\"\n                ^\ninvalid sequence: `Qh9` is not a move in SAN (as e4, Nf3, exd5, O-O, e8=Q)"
        );
    }
}
