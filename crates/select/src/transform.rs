//! Game transforms on a [`Game`]: cut the moves after a ply
//! ([`truncate_plies`]), drop the first plies so that the game starts from
//! a FEN ([`drop_plies`]), count every ply ([`add_total_ply_count`]), a FEN
//! comment after each move ([`add_fen_comments`]), a comment at given
//! plies ([`mark_plies`]) and each variation as a game of its own
//! ([`split_variations`]); [`Transforms`] applies those asked
//! for, in one fixed order.
//!
//! These are pgn-extract's `--plylimit`, `--dropply`, `--totalplycount`,
//! `--fencomments` and `--splitvariants`. How the text is then written (move
//! numbers, results, checks, tags and their order) is the export writer's
//! part (`pgnkit_export::ExportOptions`), not a transform of the game.
//!
//! A transform never loses a game: one it cannot apply to (dropping more
//! plies than the main line has) is left unchanged and the caller is told
//! ([`TooShort`], [`Transformed::too_short`]).

use pgnkit_chess::{FenOptions, Position, polyglot};
use pgnkit_game::{Annotation, Comment, Game, MoveTree, NodeId, Termination};

use crate::error::TooShort;

/// The name of the tag [`add_total_ply_count`] writes.
pub const TOTAL_PLY_COUNT_TAG: &str = "TotalPlyCount";

/// Sets [`TOTAL_PLY_COUNT_TAG`] (`TotalPlyCount`) to the number of plies of
/// the whole tree, variations included (pgn-extract's `--totalplycount`);
/// whether it changed.
///
/// ```
/// let mut g: pgnkit_game::Game = "1. e4 e5 (1... c5 2. Nf3) 2. Nf3 *".parse().unwrap();
/// assert!(pgnkit_select::add_total_ply_count(&mut g));
/// assert_eq!(g.tags().get("TotalPlyCount"), Some("5"));
/// ```
pub fn add_total_ply_count(game: &mut Game) -> bool {
    let plies = game.tree().preorder().len().saturating_sub(1).to_string();
    if game.tags().get(TOTAL_PLY_COUNT_TAG) == Some(plies.as_str()) {
        return false;
    }
    game.tags_mut().insert(TOTAL_PLY_COUNT_TAG, &plies);
    true
}

/// Removes every move after the first `plies` plies of the game, in the
/// main line and in the variations alike (pgn-extract's `--plylimit`); the
/// game is then unfinished: its result becomes `*`. Returns whether a move
/// was removed.
///
/// ```
/// let mut g: pgnkit_game::Game = "1. e4 e5 (1... c5 2. Nf3) 2. Nf3 Nc6 1-0".parse().unwrap();
/// assert!(pgnkit_select::truncate_plies(&mut g, 2));
/// let text: Vec<_> = g.main_line_moves().map(|m| m.san.to_string()).collect();
/// assert_eq!(text, ["e4", "e5"]);
/// assert_eq!(g.tree().preorder().len(), 4); // the root, e4, e5 and c5
/// assert_eq!(g.termination(), pgnkit_game::Termination::Unknown);
/// ```
pub fn truncate_plies(game: &mut Game, plies: usize) -> bool {
    let mut cut = Vec::new();
    let mut stack = vec![(NodeId::ROOT, 0usize)];
    let tree = game.tree();
    while let Some((id, ply)) = stack.pop() {
        let Some(node) = tree.get(id) else { continue };
        if ply >= plies {
            cut.extend_from_slice(node.children());
        } else {
            stack.extend(node.children().iter().map(|&c| (c, ply + 1)));
        }
    }
    for &id in &cut {
        game.tree_mut().remove(id);
    }
    if !cut.is_empty() {
        game.set_termination(Termination::Unknown);
    }
    !cut.is_empty()
}

/// Drops the first `plies` plies of the main line (pgn-extract's
/// `--dropply`): the game then starts from the position after them, with
/// `SetUp` and `FEN` tags; its result, its other tags and the moves after
/// that position (with their comments and variations) are kept, the
/// variations and comments of the plies dropped are not.
///
/// A game whose main line has fewer plies is left unchanged: [`TooShort`].
///
/// ```
/// let mut g: pgnkit_game::Game = "[White \"A\"]\n\n1. e4 e5 2. Nf3 Nc6 1-0".parse().unwrap();
/// pgnkit_select::drop_plies(&mut g, 3).unwrap();
/// assert_eq!(g.tags().get("White"), Some("A"));
/// assert_eq!(g.tags().get("SetUp"), Some("1"));
/// assert_eq!(
///     g.tags().get("FEN"),
///     Some("rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2")
/// );
/// assert_eq!(g.main_line_moves().count(), 1);
/// assert!(pgnkit_select::drop_plies(&mut g, 2).is_err());
/// assert_eq!(g.main_line_moves().count(), 1, "unchanged");
/// ```
pub fn drop_plies(game: &mut Game, plies: usize) -> Result<(), TooShort> {
    if plies == 0 {
        return Ok(());
    }
    let Some(target) = game.main_line().nth(plies - 1) else {
        return Err(TooShort {
            plies: game.main_line().count(),
            wanted: plies,
        });
    };
    let Some(start) = game.position_at(target) else {
        return Err(TooShort {
            plies: 0,
            wanted: plies,
        });
    };
    let mut dropped = Game::from_position(start);
    for (name, value) in game.tags().iter() {
        if name != "FEN" && name != "SetUp" {
            dropped.tags_mut().insert(name, value);
        }
    }
    copy_after(game.tree(), target, dropped.tree_mut(), NodeId::ROOT);
    if let Some(node) = game.tree().get(target)
        && node.children().is_empty()
        && let Some(root) = dropped.node_mut(NodeId::ROOT)
    {
        root.trailing_comments_mut()
            .extend_from_slice(node.trailing_comments());
    }
    dropped.set_termination(game.termination());
    *game = dropped;
    Ok(())
}

/// Adds a comment holding the FEN of the position after each move, in the
/// main line and the variations (pgn-extract's `--fencomments`), after the
/// move's other annotations.
///
/// ```
/// use pgnkit_chess::FenOptions;
/// let mut g: pgnkit_game::Game = "1. e4 *".parse().unwrap();
/// pgnkit_select::add_fen_comments(&mut g, FenOptions::default());
/// let e4 = g.main_line().next().and_then(|id| g.tree().get(id)).unwrap();
/// let comment = e4.comments().next().unwrap();
/// assert_eq!(comment.text(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
/// ```
pub fn add_fen_comments(game: &mut Game, options: FenOptions) {
    comment_each_position(game, (), |(), _, after| ((), after.fen(options)));
}

/// Adds a comment holding the Polyglot key of the position after each move
/// (lowercase hexadecimal, as pgn-extract's `--hashcomments` writes it: no
/// leading zeros), in the main line and the variations, after the move's
/// other annotations. `hash 0x...` in a query finds the position again.
///
/// ```
/// let mut g: pgnkit_game::Game = "1. e4 e5 *".parse().unwrap();
/// pgnkit_select::add_hash_comments(&mut g);
/// let texts: Vec<String> = g
///     .main_line()
///     .filter_map(|id| g.tree().get(id))
///     .map(|n| n.comments().next().unwrap().text().to_string())
///     .collect();
/// assert_eq!(texts, ["823c9b50fd114196", "844931a6ef4b9a0"]);
/// ```
pub fn add_hash_comments(game: &mut Game) {
    // The key updated move by move, not computed from each board.
    let first = game.start_position().polyglot_key();
    comment_each_position(game, first, |key, before, after| {
        let key = polyglot::key_after(before, key, after);
        (key, hex(key))
    });
}

/// `format!("{key:x}")` without the formatting machinery (a key after
/// every move).
fn hex(key: u64) -> String {
    let mut text = Vec::with_capacity(16);
    polyglot::push_hex(key, &mut text);
    // Hexadecimal digits only.
    String::from_utf8(text).unwrap_or_default()
}

/// The name of the tag [`add_hash_code`] sets.
pub const HASH_CODE_TAG: &str = "HashCode";

/// Sets a `HashCode` tag: the Polyglot key of the main line's last position,
/// 16 lowercase hexadecimal digits (pgn-extract's `--addhashcode` writes a
/// 32-bit hash of its own, which no other program computes; this one is the
/// key opening books and `hash 0x...` use). Returns the key.
///
/// ```
/// let mut g: pgnkit_game::Game = "1. e4 *".parse().unwrap();
/// assert_eq!(pgnkit_select::add_hash_code(&mut g), 0x823c9b50fd114196);
/// assert_eq!(g.tags().get("HashCode"), Some("823c9b50fd114196"));
/// ```
pub fn add_hash_code(game: &mut Game) -> u64 {
    let mut pos = game.start_position().clone();
    for played in game.main_line_moves() {
        pos.play_unchecked(played.mv);
    }
    let key = pos.polyglot_key();
    game.tags_mut().set(HASH_CODE_TAG, format!("{key:016x}"));
    key
}

/// Moves the comments that stand before a variation's first move, `( { c }
/// 1... e6 ...)`, to after that move, before its own comments (after its
/// NAGs): `(1... e6 { c } ...)`. This is pgn-extract's `--lichesscommentfix`
/// (its 20-xx versions; 19.04 lacks it): a Lichess study drops a comment
/// standing before a variation's first move. Returns how many comments were
/// moved.
///
/// ```
/// let mut g: pgnkit_game::Game = "1. e4 e5 ({ Sicilian } 1... c5 $1 { best }) *".parse().unwrap();
/// assert_eq!(pgnkit_select::move_variation_comments(&mut g), 1);
/// let c5 = g.tree().get(g.main_line().next().unwrap()).unwrap().variations()[0];
/// let c5 = g.tree().get(c5).unwrap();
/// assert!(c5.comments_before().is_empty());
/// let texts: Vec<_> = c5.comments().map(|c| c.text().trim().to_string()).collect();
/// assert_eq!(texts, ["Sicilian", "best"]);
/// ```
pub fn move_variation_comments(game: &mut Game) -> usize {
    let firsts: Vec<NodeId> = game
        .tree()
        .preorder()
        .into_iter()
        .filter_map(|id| game.tree().get(id))
        .flat_map(|node| node.variations().to_vec())
        .collect();
    let mut moved = 0;
    for id in firsts {
        let Some(node) = game.node_mut(id) else {
            continue;
        };
        if node.comments_before().is_empty() {
            continue;
        }
        let before = std::mem::take(node.comments_before_mut());
        moved += before.len();
        let annotations = node.annotations_mut();
        let at = annotations
            .iter()
            .position(|a| matches!(a, Annotation::Comment(_)))
            .unwrap_or(annotations.len());
        annotations.insert_many(at, before.into_iter().map(Annotation::Comment));
    }
    moved
}

/// Adds a comment after each move of every line: `text(state, before,
/// after)` gives the comment on the move from `before` to `after` and the
/// state passed on to the moves after it (`state` is `first` at the start,
/// for a value updated move by move).
fn comment_each_position<S: Copy>(
    game: &mut Game,
    first: S,
    text: impl Fn(S, &Position, &Position) -> (S, String),
) {
    let mut stack = vec![(NodeId::ROOT, game.start_position().clone(), first)];
    while let Some((id, pos, state)) = stack.pop() {
        let children = game
            .tree()
            .get(id)
            .map(|n| n.children().to_vec())
            .unwrap_or_default();
        for child in children {
            let Some(played) = game.tree().get(child).and_then(|n| n.played()) else {
                continue;
            };
            let mut after = pos.clone();
            after.play_unchecked(played.mv);
            let (next, comment) = text(state, &pos, &after);
            if let Some(node) = game.node_mut(child) {
                node.push_comment(Comment::brace(comment));
            }
            stack.push((child, after, next));
        }
    }
}

/// Adds a comment `text` at each of `plies` of the main line (0: before
/// the first move; a ply past the end is ignored), after the move's other
/// annotations: `select --mark-matches` with
/// [`Query::first_match`](crate::Query::first_match).
///
/// ```
/// let mut g: pgnkit_game::Game = "1. e4 e5 *".parse().unwrap();
/// pgnkit_select::mark_plies(&mut g, &[2], "MATCH");
/// let e5 = g.main_line().nth(1).and_then(|id| g.tree().get(id)).unwrap();
/// assert_eq!(e5.comments().next().unwrap().text(), "MATCH");
/// ```
pub fn mark_plies(game: &mut Game, plies: &[usize], text: &str) {
    let ids: Vec<NodeId> = std::iter::once(NodeId::ROOT)
        .chain(game.main_line())
        .enumerate()
        .filter(|(ply, _)| plies.contains(ply))
        .map(|(_, id)| id)
        .collect();
    for id in ids {
        if let Some(node) = game.node_mut(id) {
            node.push_comment(Comment::brace(text));
        }
    }
}

/// Each line of the game as a game of its own (pgn-extract's
/// `--splitvariants`): the main line first, then each variation nested at
/// most `depth` deep (1: the variations of the main line; `usize::MAX`:
/// all), in the order they are written. A variation's game holds the moves
/// from the game's start to the variation's first move, then the variation
/// (with the comments and NAGs along the way, without any variation); its
/// result is `*`. Each game has the tags of the original.
///
/// ```
/// let g: pgnkit_game::Game = "1. e4 e5 (1... c5 2. Nf3 (2. Nc3)) 2. Nf3 1-0".parse().unwrap();
/// let games = pgnkit_select::split_variations(&g, usize::MAX);
/// let lines: Vec<String> = games
///     .iter()
///     .map(|g| g.main_line_moves().map(|m| m.san.to_string()).collect::<Vec<_>>().join(" "))
///     .collect();
/// assert_eq!(lines, ["e4 e5 Nf3", "e4 c5 Nf3", "e4 c5 Nc3"]);
/// assert_eq!(pgnkit_select::split_variations(&g, 1).len(), 2);
/// ```
pub fn split_variations(game: &Game, depth: usize) -> Vec<Game> {
    let Some(first) = game.tree().main_line().next() else {
        return vec![game.clone()];
    };
    std::iter::once(line_game(game, first, true))
        .chain(
            variation_starts(game.tree(), first, depth)
                .into_iter()
                .map(|start| line_game(game, start, false)),
        )
        .collect()
}

/// [`split_variations`] of a game given: its main line's game is the game
/// itself with its variations removed, not a copy.
fn split_owned(mut game: Game, depth: usize) -> Vec<Game> {
    let Some(first) = game.tree().main_line().next() else {
        return vec![game];
    };
    let starts = variation_starts(game.tree(), first, depth);
    let mut games = Vec::with_capacity(1 + starts.len());
    games.push(Game::new()); // the main line's, once the others are made
    games.extend(
        starts
            .into_iter()
            .map(|start| line_game(&game, start, false)),
    );
    // What `line_game` keeps of the main line: its moves with their comments
    // and NAGs, the last one's comments after its variations.
    let mut variations = Vec::new();
    for id in std::iter::once(NodeId::ROOT).chain(game.main_line()) {
        if let Some(node) = game.tree().get(id) {
            variations.extend_from_slice(node.variations());
        }
    }
    for id in variations {
        game.tree_mut().remove(id);
    }
    // As `line_game` sets it (a `Result` tag says the marker).
    game.set_termination(game.termination());
    games[0] = game;
    games
}

/// The first move of each variation [`split_variations`] makes a game of,
/// in writing order (the main line, whose first move is `first`, left out).
fn variation_starts(tree: &MoveTree, first: NodeId, depth: usize) -> Vec<NodeId> {
    let mut starts = Vec::new();
    // Lines still to write: their first node and how deep they are nested,
    // last to write first.
    let mut stack = vec![(first, 0usize)];
    while let Some((start, level)) = stack.pop() {
        if level > 0 {
            starts.push(start);
        }
        if level >= depth {
            continue;
        }
        // The variations along this line (for the main line, also those of
        // its first move), in writing order: pushed in reverse.
        let mut found = Vec::new();
        let mut node = Some(start);
        let mut first_of_line = true;
        while let Some(id) = node {
            if (!first_of_line || level == 0)
                && let Some(parent) = tree
                    .get(id)
                    .and_then(|n| n.parent())
                    .and_then(|p| tree.get(p))
            {
                found.extend(parent.variations().iter().map(|&v| (v, level + 1)));
            }
            first_of_line = false;
            node = tree.get(id).and_then(|n| n.main_child());
        }
        stack.extend(found.into_iter().rev());
    }
    starts
}

/// The game of the line from the start through `start` and on along main
/// continuations, without variations.
fn line_game(game: &Game, start: NodeId, main: bool) -> Game {
    let tree = game.tree();
    let mut line = Game::from_position(game.start_position().clone());
    *line.tags_mut() = game.tags().clone();
    if let (Some(root), Some(to)) = (tree.get(NodeId::ROOT), line.node_mut(NodeId::ROOT)) {
        to.comments_before_mut()
            .extend_from_slice(root.comments_before());
        to.annotations_mut()
            .extend(root.annotations().iter().cloned());
    }
    let mut parent = NodeId::ROOT;
    let mut last = None;
    let path = tree
        .path_to(start)
        .into_iter()
        .chain(tree.line_after(start));
    for id in path {
        let Some(node) = tree.get(id) else { break };
        let Some(played) = node.played() else { break };
        let Some(new) = line.tree_mut().push_child(parent, played.clone()) else {
            break;
        };
        if let Some(to) = line.node_mut(new) {
            to.comments_before_mut()
                .extend_from_slice(node.comments_before());
            to.annotations_mut()
                .extend(node.annotations().iter().cloned());
        }
        parent = new;
        last = Some(node);
    }
    if let (Some(node), Some(to)) = (last, line.node_mut(parent)) {
        to.trailing_comments_mut()
            .extend_from_slice(node.trailing_comments());
    }
    line.set_termination(if main {
        game.termination()
    } else {
        Termination::Unknown
    });
    line
}

/// Copies everything after `from` in `src` (its children and their
/// subtrees, with their comments and NAGs) under `to` in `dst`.
fn copy_after(src: &MoveTree, from: NodeId, dst: &mut MoveTree, to: NodeId) {
    let mut stack = vec![(from, to)];
    while let Some((s, d)) = stack.pop() {
        let Some(node) = src.get(s) else { continue };
        for &child in node.children() {
            let Some(c) = src.get(child) else { continue };
            let Some(played) = c.played() else { continue };
            let Some(new) = dst.push_child(d, played.clone()) else {
                continue;
            };
            if let Some(n) = dst.get_mut(new) {
                n.comments_before_mut()
                    .extend_from_slice(c.comments_before());
                n.annotations_mut().extend(c.annotations().iter().cloned());
                n.trailing_comments_mut()
                    .extend_from_slice(c.trailing_comments());
            }
            stack.push((child, new));
        }
    }
}

/// The transforms asked for; [`Transforms::apply`] applies them in this
/// order: the comments before a variation's first move moved after it,
/// `TotalPlyCount` (of the game as read), the split into lines, then
/// on each game the plies cut (counted from the game's start, as
/// pgn-extract counts them: `--truncate-plies 10 --drop-plies 4` leaves plies
/// 5 to 10), the plies dropped, a `PlyCount` tag the game has set to its new
/// length, the FEN comments.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Transforms {
    /// Add a `TotalPlyCount` tag ([`add_total_ply_count`]).
    pub total_ply_count: bool,
    /// Each line as a game, nested at most this deep ([`split_variations`]).
    pub split_variations: Option<usize>,
    /// Drop this many plies from the start ([`drop_plies`]).
    pub drop_plies: Option<usize>,
    /// Keep at most this many plies ([`truncate_plies`]).
    pub truncate_plies: Option<usize>,
    /// A FEN comment after each move, the FEN written with these options
    /// ([`add_fen_comments`]).
    pub fen_comments: Option<FenOptions>,
    /// A Polyglot key comment after each move ([`add_hash_comments`]).
    pub hash_comments: bool,
    /// A `HashCode` tag: the final position's Polyglot key ([`add_hash_code`]).
    pub hash_code: bool,
    /// The comments before a variation's first move moved after it
    /// ([`move_variation_comments`]).
    pub variation_comments: bool,
}

/// What [`Transforms::apply`] made of one game.
#[derive(Clone, Debug, Default)]
pub struct Transformed {
    /// The games to write (more than one when split).
    pub games: Vec<Game>,
    /// How many of them kept all their plies because their main line has
    /// fewer than the plies to drop (each is written unchanged otherwise).
    pub too_short: usize,
}

impl Transforms {
    /// Whether no transform is asked for.
    pub fn is_empty(&self) -> bool {
        *self == Transforms::default()
    }

    /// The plies to drop when dropping them is the only transform: then
    /// [`DropPlies`](crate::DropPlies) gives each game as [`Transforms::apply`]
    /// would, while it is read (no tree).
    ///
    /// ```
    /// use pgnkit_select::Transforms;
    /// let drop = Transforms { drop_plies: Some(10), ..Transforms::default() };
    /// assert_eq!(drop.streamed_drop(), Some(10));
    /// let and_cut = Transforms { truncate_plies: Some(20), ..drop };
    /// assert_eq!(and_cut.streamed_drop(), None);
    /// ```
    pub fn streamed_drop(&self) -> Option<usize> {
        let plies = self.drop_plies.filter(|&n| n > 0)?;
        let alone = Transforms {
            drop_plies: Some(plies),
            ..Transforms::default()
        };
        (*self == alone).then_some(plies)
    }

    /// Whether splitting into lines is the only transform: then a game
    /// without variations is its only line, and
    /// [`SplitLines`](crate::SplitLines) tells such a game while it is read
    /// (no tree).
    ///
    /// ```
    /// use pgnkit_select::Transforms;
    /// let split = Transforms { split_variations: Some(usize::MAX), ..Transforms::default() };
    /// assert!(split.streamed_split());
    /// assert!(!Transforms { drop_plies: Some(2), ..split }.streamed_split());
    /// ```
    pub fn streamed_split(&self) -> bool {
        let alone = Transforms {
            split_variations: self.split_variations,
            ..Transforms::default()
        };
        self.split_variations.is_some() && *self == alone
    }

    /// Whether the transforms asked for are FEN or Polyglot key comments
    /// alone ([`add_fen_comments`], [`add_hash_comments`]): a writer can then
    /// write them while it streams the game, with no tree
    /// (`pgnkit_export::StreamWriter::with_position_comments` writes the
    /// same text). Any other transform needs the tree, and [`apply`](Transforms::apply).
    ///
    /// ```
    /// use pgnkit_select::Transforms;
    /// let hash = Transforms { hash_comments: true, ..Transforms::default() };
    /// assert!(hash.only_position_comments());
    /// let cut = Transforms { truncate_plies: Some(4), ..hash.clone() };
    /// assert!(!cut.only_position_comments());
    /// assert!(!Transforms::default().only_position_comments());
    /// ```
    pub fn only_position_comments(&self) -> bool {
        let comments = Transforms {
            fen_comments: self.fen_comments,
            hash_comments: self.hash_comments,
            ..Transforms::default()
        };
        !self.is_empty() && *self == comments
    }

    /// Applies the transforms to `game`.
    ///
    /// ```
    /// use pgnkit_select::Transforms;
    /// let g: pgnkit_game::Game = "1. e4 e5 2. Nf3 *\n".parse().unwrap();
    /// let t = Transforms { drop_plies: Some(1), truncate_plies: Some(2), ..Transforms::default() };
    /// let out = t.apply(g);
    /// let moves: Vec<_> = out.games[0].main_line_moves().map(|m| m.san.to_string()).collect();
    /// assert_eq!(moves, ["e5"]);
    /// assert_eq!(out.too_short, 0);
    /// ```
    pub fn apply(&self, mut game: Game) -> Transformed {
        if self.variation_comments {
            move_variation_comments(&mut game);
        }
        if self.total_ply_count {
            add_total_ply_count(&mut game);
        }
        let mut games = match self.split_variations {
            Some(depth) => split_owned(game, depth),
            None => vec![game],
        };
        let mut too_short = 0;
        for game in &mut games {
            let mut cut = false;
            if let Some(plies) = self.truncate_plies {
                cut |= truncate_plies(game, plies);
            }
            if let Some(plies) = self.drop_plies {
                match drop_plies(game, plies) {
                    Ok(()) => cut |= plies > 0,
                    Err(_) => too_short += 1,
                }
            }
            if cut && game.tags().contains("PlyCount") {
                crate::add_ply_count(game);
            }
            if self.hash_code {
                add_hash_code(game);
            }
            if let Some(options) = self.fen_comments {
                add_fen_comments(game, options);
            }
            if self.hash_comments {
                add_hash_comments(game);
            }
        }
        Transformed { games, too_short }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_in_hex_as_format_writes_them() {
        for key in [
            0,
            1,
            0xf,
            0x10,
            0x844931a6ef4b9a0,
            u64::MAX,
            0x8000_0000_0000_0000,
        ] {
            assert_eq!(hex(key), format!("{key:x}"));
        }
    }

    #[test]
    fn variation_comments_move_after_the_first_move_only() {
        let mut g: Game = "{ start } 1. e4 ({ a } 1. d4 { b } ({ c } 1. c4) 1... d5) 1... e5 \
            ({ d } 1... c5 $1) 2. Nf3 *"
            .parse()
            .unwrap();
        assert_eq!(move_variation_comments(&mut g), 3);
        assert_eq!(
            comments(&g),
            ["0:start", "2:d", "1:a", "1:b", "1:c"],
            "before the first move of the game: left where it is"
        );
        let tree = g.tree();
        let c5 = tree
            .get(tree.main_line().next().unwrap())
            .unwrap()
            .children()[1];
        let c5 = tree.get(c5).unwrap();
        assert!(c5.comments_before().is_empty());
        assert_eq!(c5.annotations().len(), 2, "the NAG, then the comment");
        assert!(matches!(c5.annotations()[1], Annotation::Comment(_)));
        assert_eq!(move_variation_comments(&mut g), 0, "nothing left to move");
        let t = Transforms {
            variation_comments: true,
            ..Transforms::default()
        };
        assert!(!t.is_empty());
    }

    /// Every comment of the game, in tree order, as `ply:text`.
    fn comments(game: &Game) -> Vec<String> {
        let tree = game.tree();
        tree.preorder()
            .into_iter()
            .filter_map(|id| tree.get(id).map(|n| (tree.ply(id), n)))
            .flat_map(|(ply, n)| {
                n.comments_before()
                    .iter()
                    .chain(n.comments())
                    .chain(n.trailing_comments())
                    .map(move |c| format!("{ply}:{}", c.text().trim()))
            })
            .collect()
    }

    fn sans(game: &Game) -> String {
        game.main_line_moves()
            .map(|m| m.san.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    }

    const GAME: &str = "[Event \"T\"]\n[Result \"1-0\"]\n\n{ start } 1. e4 e5 { c1 } 2. Nf3 \
        (2. Bc4 Nf6 (2... Bc5 3. Qh5) 3. d3) 2... Nc6 3. Bb5 a6 { end } 1-0";

    #[test]
    fn truncate_cuts_variations_at_the_same_ply() {
        let mut g: Game = GAME.parse().expect("game");
        assert!(truncate_plies(&mut g, 4));
        assert_eq!(sans(&g), "e4 e5 Nf3 Nc6");
        // 4 main-line moves, Bc4 Nf6 and Bc5: the third-move replies are cut.
        assert_eq!(g.tree().preorder().len(), 1 + 4 + 3);
        assert_eq!(g.termination(), Termination::Unknown);
        assert!(!truncate_plies(&mut g, 4), "nothing more to cut");
        let mut g: Game = GAME.parse().expect("game");
        assert!(!truncate_plies(&mut g, 100));
        assert_eq!(g.termination(), Termination::WhiteWins);
    }

    #[test]
    fn drop_keeps_what_follows_with_its_variations() {
        let mut g: Game = GAME.parse().expect("game");
        drop_plies(&mut g, 2).expect("long enough");
        assert_eq!(sans(&g), "Nf3 Nc6 Bb5 a6");
        assert_eq!(g.tree().preorder().len(), 1 + 4 + 5, "the variations stay");
        assert_eq!(g.termination(), Termination::WhiteWins);
        assert_eq!(g.tags().get("Event"), Some("T"));
        assert_eq!(g.tags().get("SetUp"), Some("1"));
        assert_eq!(g.start_position().fullmoves(), 2);
        let root = g.tree().get(NodeId::ROOT).expect("root");
        assert_eq!(root.children().len(), 2, "Nf3 and Bc4");
        assert_eq!(comments(&g), ["4:end"], "c1 was on a ply dropped");
        // All the plies: a game with no moves from the final position.
        let mut g: Game = GAME.parse().expect("game");
        drop_plies(&mut g, 6).expect("exactly long enough");
        assert_eq!(g.main_line_moves().count(), 0);
        assert!(comments(&g).is_empty(), "`end` annotated a6, a ply dropped");
        let mut g: Game = GAME.parse().expect("game");
        assert_eq!(
            drop_plies(&mut g, 7),
            Err(TooShort {
                plies: 6,
                wanted: 7
            })
        );
        assert_eq!(sans(&g), "e4 e5 Nf3 Nc6 Bb5 a6");
        assert_eq!(g.tree().preorder().len(), 1 + 6 + 5);
    }

    #[test]
    fn split_gives_every_line_from_the_start() {
        let g: Game = GAME.parse().expect("game");
        let games = split_variations(&g, usize::MAX);
        let lines: Vec<String> = games.iter().map(sans).collect();
        assert_eq!(
            lines,
            [
                "e4 e5 Nf3 Nc6 Bb5 a6",
                "e4 e5 Bc4 Nf6 d3",
                "e4 e5 Bc4 Bc5 Qh5"
            ]
        );
        assert_eq!(games[0].termination(), Termination::WhiteWins);
        assert_eq!(games[1].termination(), Termination::Unknown);
        for game in &games {
            assert_eq!(comments(game)[..2], ["0:start", "2:c1"]);
            let tree = game.tree();
            assert!(
                tree.preorder()
                    .iter()
                    .all(|&id| tree.get(id).is_some_and(|n| n.variations().is_empty()))
            );
        }
        assert_eq!(comments(&games[0])[2..], ["6:end"]);
        assert_eq!(split_variations(&g, 1).len(), 2);
        assert_eq!(split_variations(&g, 0).len(), 1);
        let none: Game = "*".parse().expect("game");
        assert_eq!(split_variations(&none, 3).len(), 1);
    }

    /// The games `Transforms::apply` splits a game into (the main line's
    /// being the game itself, its variations removed) are those
    /// `split_variations` makes of every corpus game, at every depth.
    #[test]
    fn split_in_place_makes_the_same_games() {
        let mut compared = 0;
        for path in pgnkit_corpus::all_pgn_files() {
            let bytes = std::fs::read(&path).expect("corpus file");
            if bytes.len() >= 3 << 20 {
                continue;
            }
            for read in pgnkit_game::read_games(&bytes) {
                for depth in [0, 1, usize::MAX] {
                    let copied = split_variations(&read.value, depth);
                    let owned = split_owned(read.value.clone(), depth);
                    assert_eq!(copied.len(), owned.len(), "{}", path.display());
                    for (a, b) in copied.iter().zip(&owned) {
                        assert_eq!(a.tree(), b.tree(), "{}", path.display());
                        assert_eq!(a.tags(), b.tags(), "{}", path.display());
                        assert_eq!(a.start_position(), b.start_position());
                        assert_eq!(a.termination(), b.termination());
                    }
                    compared += copied.len();
                }
            }
        }
        assert!(compared > 10_000, "{compared}");
    }

    #[test]
    fn split_alternatives_to_the_first_move() {
        let g: Game = "1. e4 (1. d4 d5) (1. c4) e5 *".parse().expect("game");
        let lines: Vec<String> = split_variations(&g, usize::MAX).iter().map(sans).collect();
        assert_eq!(lines, ["e4 e5", "d4 d5", "c4"]);
    }

    #[test]
    fn fen_comments_in_every_line() {
        let mut g: Game = "1. e4 (1. d4) e5 *".parse().expect("game");
        add_fen_comments(&mut g, FenOptions::default());
        assert_eq!(
            comments(&g),
            [
                "1:rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
                "2:rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
                "1:rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1",
            ]
        );
    }

    #[test]
    fn matches_marked_at_their_first_ply() {
        use crate::{Context, Query};
        let mut g: Game = GAME.parse().expect("game");
        // `Bb5` reaches nothing; the position after 2. Nf3 is reached at ply 3;
        // the full material holds from the start, but only under a `not` here.
        let q = Query::parse(
            r#"reaches "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2" or (reaches "8/8/8/8/8/8/8/K1k5 w - - 0 1" and not material "KQR2B2N2P8kqr2b2n2p8")"#,
        )
        .expect("query");
        let ply = q.first_match(&g, &Context::default());
        assert_eq!(ply, Some(3));
        mark_plies(&mut g, &[3], "MATCH");
        assert_eq!(comments(&g), ["0:start", "2:c1", "3:MATCH", "6:end"]);
        let none = Query::parse("Event = T").expect("query");
        assert_eq!(none.first_match(&g, &Context::default()), None);
    }

    #[test]
    fn total_ply_count_counts_variations_before_cutting() {
        let t = Transforms {
            total_ply_count: true,
            truncate_plies: Some(2),
            ..Transforms::default()
        };
        assert!(!t.is_empty() && Transforms::default().is_empty());
        let out = t.apply(GAME.parse().expect("game"));
        assert_eq!(out.games.len(), 1);
        assert_eq!(out.games[0].tags().get(TOTAL_PLY_COUNT_TAG), Some("11"));
        assert_eq!(out.games[0].main_line_moves().count(), 2);
        let t = Transforms {
            drop_plies: Some(10),
            split_variations: Some(usize::MAX),
            ..Transforms::default()
        };
        let out = t.apply(GAME.parse().expect("game"));
        assert_eq!((out.games.len(), out.too_short), (3, 3));
        // Plies cut are counted from the start; a PlyCount tag follows.
        let t = Transforms {
            drop_plies: Some(2),
            truncate_plies: Some(5),
            ..Transforms::default()
        };
        let mut g: Game = GAME.parse().expect("game");
        g.tags_mut().insert("PlyCount", "6");
        let out = t.apply(g);
        assert_eq!(sans(&out.games[0]), "Nf3 Nc6 Bb5");
        assert_eq!(out.games[0].tags().get("PlyCount"), Some("3"));
        let out = t.apply(GAME.parse().expect("game"));
        assert!(!out.games[0].tags().contains("PlyCount"), "not added");
    }
}
