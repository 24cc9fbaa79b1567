//! [`DropPlies`]: [`drop_plies`](crate::drop_plies) on the reader's events,
//! with no tree: a visitor that passes on to another (a streaming writer)
//! the game that dropping its first plies makes.
//!
//! The first plies of the main line are played by the reader and not passed
//! on, nor the comments, NAGs and variations that annotate them or stand
//! before them; the inner visitor's movetext then starts from the position
//! after them (from which a writer writes the `FEN` tag), with a `SetUp`
//! tag first, then the tags of the game but its own `FEN` and `SetUp`, as
//! the tree's tags stand. Everything after is passed on as read. The inner visitor thus sees the game [`drop_plies`] makes of
//! the tree, event for event.
//!
//! A `PlyCount` tag is set to the new length of the main line, as
//! [`Transforms::apply`](crate::Transforms::apply) sets it on the tree: the
//! tags come before the moves, so the `PlyCount` tag and those after it
//! wait for the end of the tag section, where the reader tells the main
//! line's move tokens ([`Visitor::main_line_moves`]): the tag is passed on
//! set to their count less the plies dropped, checked against the moves
//! read at the end of the game.
//!
//! What it cannot do the same way it says ([`Dropped`]): a game whose main
//! line is too short (to be written as read), and a game [`drop_plies`]
//! changes in a way a stream cannot follow (a Chess960 start, an end at the
//! standard start position, which needs no `SetUp`; a `PlyCount` tag when
//! the tokens did not tell the main line's length; or no plies to drop):
//! the caller then uses the tree.
//!
//! [`drop_plies`]: crate::drop_plies

use pgnkit_chess::{CastlingMode, Position};
use pgnkit_game::{
    GameStart, MainLineMoves, MoveEvent, Nag, RawComment, Skip, Termination, Visitor,
};

/// What [`DropPlies`] made of one game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dropped {
    /// The inner visitor got the game with its first plies dropped.
    Done,
    /// The main line has fewer plies than those to drop: the game is to be
    /// written unchanged ([`TooShort`](crate::TooShort)); what the inner
    /// visitor got is not the game.
    TooShort,
    /// Dropping changes more than a stream follows (the game starts from a
    /// Chess960 position, the plies dropped lead to the standard start
    /// position, or it has a `PlyCount` tag set to a length its main line
    /// turned out not to have): the game is to be transformed on its tree;
    /// what the inner visitor got is not the game.
    Tree,
}

/// Where a game's reading is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stage {
    /// Playing the plies to drop: nothing is passed on.
    Dropping,
    /// The plies are dropped; the inner visitor's movetext has not started
    /// (the annotations of the last ply dropped are not passed on).
    Dropped,
    /// Every event is passed on.
    Passing,
}

/// Passes to `V` the game with its first plies dropped (see the module
/// docs); its output is `V`'s with what became of the game ([`Dropped`]).
///
/// ```
/// use pgnkit_game::{Visitor, visit_games};
/// use pgnkit_select::{DropPlies, Dropped};
///
/// /// Collects the tags and the moves it is given.
/// #[derive(Default)]
/// struct Seen(Vec<String>);
/// impl Visitor for Seen {
///     type Output = Vec<String>;
///     fn tag(&mut self, name: &[u8], value: &[u8]) {
///         self.0.push(format!("{}={}", String::from_utf8_lossy(name), String::from_utf8_lossy(value)));
///     }
///     fn san(&mut self, event: pgnkit_game::MoveEvent<'_>) {
///         self.0.push(String::from_utf8_lossy(event.text).into_owned());
///     }
///     fn end_game(&mut self) -> Vec<String> {
///         std::mem::take(&mut self.0)
///     }
/// }
///
/// let pgn = b"[White \"A\"]\n\n1. e4 { x } e5 (1... c5) 2. Nf3 Nc6 *\n\n1. d4 *\n";
/// let games: Vec<_> = visit_games(pgn, DropPlies::new(2, Seen::default()))
///     .map(|read| read.value)
///     .collect();
/// let seen = ["SetUp=1", "White=A", "Nf3", "Nc6"].map(String::from).to_vec();
/// assert_eq!(games[0], (seen, Dropped::Done));
/// assert_eq!(games[1].1, Dropped::TooShort);
/// ```
#[derive(Debug, Clone)]
pub struct DropPlies<V> {
    inner: V,
    plies: usize,
    played: usize,
    stage: Stage,
    /// The position after the last ply dropped (where the inner visitor's
    /// movetext starts).
    start: Position,
    /// The game cannot be streamed ([`Dropped::Tree`]).
    tree: bool,
    /// The standard start position (built once).
    standard: Position,
    /// A `PlyCount` tag was read: it and the tags after it wait for the
    /// main line's length ([`Visitor::main_line_moves`]) in `held`.
    holding: bool,
    /// The names and values of the tags held, one after the other.
    held: Vec<u8>,
    /// Where each tag held ends in `held`: its name, then its value.
    held_ends: Vec<(usize, usize)>,
    /// The main line's move tokens ([`Visitor::main_line_moves`]), when told.
    told: Option<usize>,
    /// A `PlyCount` tag was passed on set to `told` less the plies dropped.
    ply_count: bool,
    /// The main line's moves read: those dropped and those passed on.
    main: usize,
    /// How deep in variations passed on the reading is.
    depth: usize,
    /// The text of the `PlyCount` value passed on (kept from game to game).
    value: String,
}

impl<V: Visitor> DropPlies<V> {
    /// Drops the first `plies` plies of each game, passing it on to `inner`.
    pub fn new(plies: usize, inner: V) -> DropPlies<V> {
        DropPlies {
            inner,
            plies,
            played: 0,
            stage: Stage::Dropping,
            start: Position::new(),
            tree: false,
            standard: Position::new(),
            holding: false,
            held: Vec::new(),
            held_ends: Vec::new(),
            told: None,
            ply_count: false,
            main: 0,
            depth: 0,
            value: String::new(),
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

    /// Keeps a tag until the main line's length is known.
    fn hold(&mut self, name: &[u8], value: &[u8]) {
        self.held.extend_from_slice(name);
        let name_end = self.held.len();
        self.held.extend_from_slice(value);
        self.held_ends.push((name_end, self.held.len()));
    }

    /// Passes on the tags held, the first (`PlyCount`) set to `ply_count`
    /// (as read without it: the game then goes the tree's way), and ends
    /// the inner visitor's tags.
    fn release(&mut self, ply_count: Option<usize>) {
        use std::fmt::Write as _;
        self.holding = false;
        let mut start = 0;
        for (n, &(name_end, end)) in self.held_ends.iter().enumerate() {
            let name = self.held.get(start..name_end).unwrap_or_default();
            let mut value = self.held.get(name_end..end).unwrap_or_default();
            if let (0, Some(plies)) = (n, ply_count) {
                self.value.clear();
                let _ = write!(self.value, "{plies}");
                value = self.value.as_bytes();
            }
            self.inner.tag(name, value);
            start = end;
        }
        self.ply_count = ply_count.is_some();
        let skipped = self.inner.end_tags() == Skip::Yes;
        self.tree |= ply_count.is_none() || skipped;
    }

    /// Starts the inner visitor's movetext once the plies are dropped;
    /// whether events now pass on.
    #[inline]
    fn passing(&mut self) -> bool {
        match self.stage {
            Stage::Passing => true,
            Stage::Dropping => false,
            Stage::Dropped => {
                self.inner.begin_movetext(&self.start);
                self.stage = Stage::Passing;
                true
            }
        }
    }
}

impl<V: Visitor> Visitor for DropPlies<V> {
    type Output = (V::Output, Dropped);
    const MOVES: bool = true;
    const BEFORE: bool = V::BEFORE;
    /// The tag names are read (`FEN`, `SetUp` and `PlyCount`).
    const TEXT: bool = true;
    /// A `PlyCount` tag is set to the new length before the moves are read.
    const MAIN_LINE_MOVES: bool = true;

    fn begin_game(&mut self, game: GameStart<'_>) {
        self.played = 0;
        self.holding = false;
        self.held.clear();
        self.held_ends.clear();
        self.told = None;
        self.ply_count = false;
        self.main = 0;
        self.depth = 0;
        self.stage = if self.plies == 0 {
            Stage::Dropped
        } else {
            Stage::Dropping
        };
        // Dropping no plies leaves the game as it is: that is the tree's.
        self.tree = self.plies == 0;
        self.inner.begin_game(game);
        // The tree's game starts from a position with `FEN` and `SetUp`
        // tags, before all others (a writer writes `FEN` itself).
        self.inner.tag(b"SetUp", b"1");
    }

    fn tag(&mut self, name: &[u8], value: &[u8]) {
        match name {
            b"FEN" | b"SetUp" => {}
            // The new length is known after the tags: it waits, with the
            // tags after it (in their order).
            b"PlyCount" => {
                self.holding = true;
                self.hold(name, value);
            }
            _ if self.holding => self.hold(name, value),
            _ => self.inner.tag(name, value),
        }
    }

    /// The inner visitor's choice, asked once the tags held are passed on.
    fn end_tags(&mut self) -> Skip {
        if self.holding {
            Skip::No
        } else {
            self.inner.end_tags()
        }
    }

    fn main_line_moves(&mut self, moves: MainLineMoves<'_>) {
        if self.holding {
            let moves = moves.count();
            self.told = Some(moves);
            self.release(Some(moves.saturating_sub(self.plies)));
        }
    }

    fn begin_movetext(&mut self, start: &Position) {
        // Not told the main line's length: the tags held go on as read.
        if self.holding {
            self.release(None);
        }
        self.tree |= start.castling_mode() == CastlingMode::Chess960;
        if self.plies == 0 {
            self.start.clone_from(start);
        }
    }

    fn comment_before(&mut self, comment: RawComment<'_>) {
        if self.passing() {
            self.inner.comment_before(comment);
        }
    }

    fn san(&mut self, event: MoveEvent<'_>) {
        if self.passing() {
            self.main += usize::from(self.depth == 0);
            self.inner.san(event);
            return;
        }
        // Dropping: every move is the main line's (variations are skipped).
        self.played += 1;
        self.main += 1;
        if self.played == self.plies {
            self.start.clone_from(event.after);
            self.stage = Stage::Dropped;
            // No `SetUp` for the tree there.
            self.tree |= self.start == self.standard;
        }
    }

    fn nag(&mut self, nag: Nag) {
        if self.stage == Stage::Passing {
            self.inner.nag(nag);
        }
    }

    fn comment(&mut self, comment: RawComment<'_>) {
        if self.stage == Stage::Passing {
            self.inner.comment(comment);
        }
    }

    fn trailing_comment(&mut self, comment: RawComment<'_>) {
        if self.passing() {
            self.inner.trailing_comment(comment);
        }
    }

    fn begin_variation(&mut self) -> Skip {
        if self.stage == Stage::Passing {
            let skip = self.inner.begin_variation();
            self.depth += usize::from(skip == Skip::No);
            skip
        } else {
            Skip::Yes
        }
    }

    fn end_variation(&mut self) {
        if self.stage == Stage::Passing {
            self.depth = self.depth.saturating_sub(1);
            self.inner.end_variation();
        }
    }

    fn end_movetext(&mut self, last: &Position) {
        if self.passing() {
            self.inner.end_movetext(last);
        }
    }

    fn termination(&mut self, termination: Termination) {
        self.inner.termination(termination);
    }

    fn end_game(&mut self) -> Self::Output {
        // A game whose movetext is not read (an error in its tags).
        if self.holding {
            self.release(None);
        }
        let dropped = if self.tree {
            Dropped::Tree
        } else if self.stage == Stage::Dropping {
            Dropped::TooShort
        } else if self.ply_count && self.told != Some(self.main) {
            // The `PlyCount` passed on is not the main line's new length.
            Dropped::Tree
        } else {
            self.passing();
            Dropped::Done
        };
        (self.inner.end_game(), dropped)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pgnkit_game::{Game, TreeBuilder, read_games, visit_games};

    /// The tags but `FEN` and `Result`, in order (a writer writes those
    /// from the start position and the marker).
    fn other_tags(game: &Game) -> Vec<(String, String)> {
        game.tags()
            .iter()
            .filter(|(n, _)| !matches!(*n, "FEN" | "Result"))
            .map(|(n, v)| (n.to_string(), v.to_string()))
            .collect()
    }

    /// Each corpus game whose plies it drops: the game a tree builder is
    /// given is the one `Transforms::apply` makes of the game's tree with
    /// `drop_plies` (its tags but `FEN` and `Result`, which a writer writes
    /// from the start position and the marker; a `PlyCount` tag set to the
    /// new length among them); a game `drop_plies` leaves unchanged is
    /// `TooShort`.
    #[test]
    fn the_stream_gives_the_game_drop_plies_makes() {
        let (mut done, mut short, mut tree) = (0usize, 0usize, 0usize);
        // Of the games done, those with a `PlyCount` tag.
        let mut ply_counts = 0usize;
        for path in pgnkit_corpus::all_pgn_files() {
            let bytes = std::fs::read(&path).expect("corpus file");
            if bytes.len() >= 3 << 20 {
                continue;
            }
            let trees: Vec<_> = read_games(&bytes).collect();
            for plies in [1, 4, 10] {
                let streamed: Vec<_> =
                    visit_games(&bytes, DropPlies::new(plies, TreeBuilder::new())).collect();
                assert_eq!(streamed.len(), trees.len(), "{}", path.display());
                for (n, (read, stream)) in trees.iter().zip(&streamed).enumerate() {
                    if read.is_broken() {
                        continue;
                    }
                    let at = format!("{} game {n}, {plies} plies", path.display());
                    let (game, dropped) = &stream.value;
                    let transforms = crate::Transforms {
                        drop_plies: Some(plies),
                        ..crate::Transforms::default()
                    };
                    let mut applied = transforms.apply(read.value.clone());
                    let expected = applied.games.pop().expect("one game");
                    let was = if applied.too_short == 0 {
                        Ok(())
                    } else {
                        Err(applied.too_short)
                    };
                    match (was, dropped) {
                        (_, Dropped::Tree) => tree += 1,
                        (Err(_), Dropped::TooShort) => short += 1,
                        (Ok(()), Dropped::Done) => {
                            done += 1;
                            ply_counts += usize::from(game.tags().contains("PlyCount"));
                            assert_eq!(game.start_position(), expected.start_position(), "{at}");
                            assert_eq!(game.tree(), expected.tree(), "{at}");
                            assert_eq!(game.termination(), expected.termination(), "{at}");
                            assert_eq!(other_tags(game), other_tags(&expected), "{at}");
                        }
                        (was, _) => panic!("{at}: drop_plies gave {was:?}, the stream {dropped:?}"),
                    }
                }
            }
        }
        assert!(
            done > 1000 && short > 10 && tree > 0 && ply_counts > 1000,
            "{done} {short} {tree} {ply_counts}"
        );
    }

    /// A game streamed: its tags (as `other_tags`), its main line's moves
    /// and what became of it.
    type Streamed = (Vec<(String, String)>, usize, Dropped);

    /// Each game of `pgn` streamed, `plies` dropped.
    fn streamed(pgn: &[u8], plies: usize) -> Vec<Streamed> {
        visit_games(pgn, DropPlies::new(plies, TreeBuilder::new()))
            .map(|read| {
                let (game, dropped) = read.value;
                (other_tags(&game), game.main_line_moves().count(), dropped)
            })
            .collect()
    }

    fn tags(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(n, v)| (n.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn a_ply_count_tag_is_set_to_the_new_length_while_streaming() {
        // The tag's own value (wrong here) does not count; variations, null
        // moves and a FEN start do not change the main line's length.
        let pgn = b"[White \"A\"]\n[PlyCount \"99\"]\n[Black \"B\"]\n\n\
            1. e4 { a } e5 (1... c5 2. Nf3 (2. c3)) 2. Nf3 -- 3. Bb5 $1 1-0\n\n\
            [PlyCount \"2\"]\n[SetUp \"1\"]\n\
            [FEN \"4k3/8/8/8/8/8/8/4K2R w K - 0 1\"]\n\n1. O-O Kd7 2. Rd1+ *\n";
        let games = streamed(pgn, 2);
        let first = tags(&[
            ("SetUp", "1"),
            ("White", "A"),
            ("PlyCount", "3"),
            ("Black", "B"),
        ]);
        assert_eq!(games[0], (first, 3, Dropped::Done));
        assert_eq!(
            games[1],
            (tags(&[("SetUp", "1"), ("PlyCount", "1")]), 1, Dropped::Done)
        );
        // All plies dropped: a length of 0.
        assert_eq!(streamed(pgn, 5)[0].0[2], ("PlyCount".into(), "0".into()));
        assert_eq!(streamed(pgn, 5)[0].2, Dropped::Done);
        // Shorter than the plies to drop: written as read.
        assert_eq!(streamed(pgn, 6)[0].2, Dropped::TooShort);
    }

    #[test]
    fn a_ply_count_the_moves_read_do_not_bear_out_goes_the_trees_way() {
        // An illegal third ply ends the main line read at two: the four
        // tokens told a length the game does not have.
        let pgn = b"[PlyCount \"4\"]\n\n1. e4 e5 2. Ke3 Nf6 *\n";
        assert_eq!(streamed(pgn, 1)[0].2, Dropped::Tree);
        // Without the count (a visitor between that does not pass it on),
        // the tree's way too.
        struct Hiding<V>(V);
        impl<V: Visitor> Visitor for Hiding<V> {
            type Output = V::Output;
            fn begin_game(&mut self, game: GameStart<'_>) {
                self.0.begin_game(game);
            }
            fn tag(&mut self, name: &[u8], value: &[u8]) {
                self.0.tag(name, value);
            }
            fn begin_movetext(&mut self, start: &Position) {
                self.0.begin_movetext(start);
            }
            fn san(&mut self, event: MoveEvent<'_>) {
                self.0.san(event);
            }
            fn begin_variation(&mut self) -> Skip {
                self.0.begin_variation()
            }
            fn end_variation(&mut self) {
                self.0.end_variation();
            }
            fn end_movetext(&mut self, last: &Position) {
                self.0.end_movetext(last);
            }
            fn end_game(&mut self) -> V::Output {
                self.0.end_game()
            }
        }
        let told = b"[PlyCount \"3\"]\n\n1. e4 e5 2. Nf3 *\n";
        let hidden = visit_games(told, Hiding(DropPlies::new(1, TreeBuilder::new())))
            .map(|read| read.value.1)
            .next();
        assert_eq!(hidden, Some(Dropped::Tree));
        // `MainLine` passes the count on.
        let through = visit_games(
            told,
            crate::MainLine::new(DropPlies::new(1, TreeBuilder::new())),
        )
        .map(|read| (read.value.0).1)
        .next();
        assert_eq!(through, Some(Dropped::Done));
    }

    #[test]
    fn chess960_and_no_plies_go_the_trees_way() {
        let pgn = b"[Variant \"Chess960\"]\n[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1\"]\n\n\
            1. e4 e5 2. Nf3 *\n";
        let dropped: Vec<Dropped> = visit_games(pgn, DropPlies::new(1, TreeBuilder::new()))
            .map(|read| read.value.1)
            .collect();
        assert_eq!(dropped, [Dropped::Tree]);
        let none = visit_games(b"1. e4 *", DropPlies::new(0, TreeBuilder::new()))
            .map(|read| read.value.1)
            .next();
        assert_eq!(none, Some(Dropped::Tree));
    }
}
