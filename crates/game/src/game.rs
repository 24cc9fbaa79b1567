//! [`Game`]: tags, starting position, move tree, termination marker,
//! diagnostics and encoding, with navigation and validated editing.

use std::fmt;
use std::str::FromStr;

use pgnkit_chess::{CastlingMode, Color, LenientSan, Move, Position, SanPlus};

use crate::error::EditError;
use crate::tree::{LineIter, MoveTree, Node, NodeId, PlayedMove};
use crate::{Diagnostics, Tags};

/// The termination marker of a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Termination {
    /// `1-0`.
    WhiteWins,
    /// `0-1`.
    BlackWins,
    /// `1/2-1/2`.
    Draw,
    /// `*`: unknown, ongoing or abandoned.
    #[default]
    Unknown,
}

impl Termination {
    /// The marker as written in export format.
    pub fn as_str(self) -> &'static str {
        match self {
            Termination::WhiteWins => "1-0",
            Termination::BlackWins => "0-1",
            Termination::Draw => "1/2-1/2",
            Termination::Unknown => "*",
        }
    }

    /// The marker for exactly `1-0`, `0-1`, `1/2-1/2` or `*` (the only
    /// Result tag values that count as a marker).
    pub fn from_exact(text: &[u8]) -> Option<Termination> {
        Some(match text {
            b"1-0" => Termination::WhiteWins,
            b"0-1" => Termination::BlackWins,
            b"1/2-1/2" => Termination::Draw,
            b"*" => Termination::Unknown,
            _ => return None,
        })
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Termination {
    type Err = crate::JsonError;

    fn from_str(s: &str) -> Result<Termination, Self::Err> {
        Termination::from_exact(s.as_bytes()).ok_or_else(|| crate::JsonError::Result(s.to_owned()))
    }
}

/// How the game's bytes were decoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Encoding {
    /// Every byte of the game was valid UTF-8.
    #[default]
    Utf8,
    /// Not valid UTF-8: every string and comment was read as Latin-1.
    Latin1,
}

/// A game: tags, the starting position, the move tree, the termination
/// marker, the diagnostics found reading it, and its encoding.
///
/// ```
/// use pgnkit_game::{Game, NodeId};
/// let mut game = Game::new();
/// let e4 = game.add_san(NodeId::ROOT, "e4").unwrap();
/// let e5 = game.add_san(e4, "e5").unwrap();
/// let c5 = game.add_san(e4, "c5").unwrap(); // a variation
/// assert_eq!(game.main_line().count(), 2);
/// assert_eq!(game.node(e4).unwrap().variations(), &[c5]); // alternatives to e5
/// assert_eq!(game.node(e4).unwrap().children(), &[e5, c5]);
/// game.promote_to_main(c5);
/// assert_eq!(game.main_line().nth(1), Some(c5));
/// assert_eq!(game.ply(c5), 2);
/// assert_eq!(
///     game.position_at(c5).unwrap().to_string(),
///     "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
/// );
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Game {
    pub(crate) tags: Tags,
    pub(crate) start: Position,
    pub(crate) tree: MoveTree,
    pub(crate) termination: Termination,
    pub(crate) diagnostics: Diagnostics,
    pub(crate) encoding: Encoding,
}

impl Default for Game {
    fn default() -> Game {
        Game::new()
    }
}

impl Game {
    /// An empty game from the standard start.
    pub fn new() -> Game {
        Game::from_position(Position::new())
    }

    /// An empty game from `start`.
    pub fn from_position(start: Position) -> Game {
        Game {
            tags: Tags::new(),
            start,
            tree: MoveTree::new(),
            termination: Termination::Unknown,
            diagnostics: Diagnostics::new(),
            encoding: Encoding::Utf8,
        }
    }

    /// The tag pairs.
    pub fn tags(&self) -> &Tags {
        &self.tags
    }

    /// The tag pairs, to edit.
    pub fn tags_mut(&mut self) -> &mut Tags {
        &mut self.tags
    }

    /// The starting position.
    pub fn start_position(&self) -> &Position {
        &self.start
    }

    /// Whether the game is Chess960.
    pub fn is_chess960(&self) -> bool {
        self.start.castling_mode() == CastlingMode::Chess960
    }

    /// The move tree.
    pub fn tree(&self) -> &MoveTree {
        &self.tree
    }

    /// The move tree, to edit annotations or reorder variations. Adding
    /// moves through it is unchecked; prefer [`Game::add_move`].
    pub fn tree_mut(&mut self) -> &mut MoveTree {
        &mut self.tree
    }

    /// The termination marker.
    pub fn termination(&self) -> Termination {
        self.termination
    }

    /// Sets the termination marker.
    pub fn set_termination(&mut self, termination: Termination) {
        self.termination = termination;
    }

    /// The diagnostics found reading the game.
    pub fn diagnostics(&self) -> &Diagnostics {
        &self.diagnostics
    }

    /// Whether reading found an error: the tree holds what was read up to
    /// each error.
    pub fn is_broken(&self) -> bool {
        self.diagnostics.has_errors()
    }

    /// How the game's text was decoded.
    pub fn encoding(&self) -> Encoding {
        self.encoding
    }

    /// The node `id`.
    pub fn node(&self, id: NodeId) -> Option<&Node> {
        self.tree.get(id)
    }

    /// The node `id`, to edit its comments and NAGs.
    pub fn node_mut(&mut self, id: NodeId) -> Option<&mut Node> {
        self.tree.get_mut(id)
    }

    /// The main line's node ids (the root excluded).
    pub fn main_line(&self) -> LineIter<'_> {
        self.tree.main_line()
    }

    /// The main line's moves.
    pub fn main_line_moves(&self) -> impl Iterator<Item = &PlayedMove> + '_ {
        self.main_line()
            .filter_map(|id| self.tree.get(id).and_then(Node::played))
    }

    /// The parent of `id`.
    pub fn parent(&self, id: NodeId) -> Option<NodeId> {
        self.tree.get(id).and_then(Node::parent)
    }

    /// The number of moves played from the start to reach `id`'s position
    /// (0 for the root).
    pub fn ply(&self, id: NodeId) -> usize {
        self.tree.ply(id)
    }

    /// The move number of `id`'s move and who played it (for the root:
    /// the number and side of the first move).
    pub fn move_number(&self, id: NodeId) -> (u32, Color) {
        let ply = self.ply(id).saturating_sub(1) as u64;
        let start_black = self.start.turn() == Color::Black;
        let half = ply + u64::from(start_black);
        let number = u64::from(self.start.fullmoves().max(1)) + half / 2;
        let color = if half.is_multiple_of(2) {
            Color::White
        } else {
            Color::Black
        };
        (u32::try_from(number).unwrap_or(u32::MAX), color)
    }

    /// The position after `id`'s move (the start for the root), by replay.
    pub fn position_at(&self, id: NodeId) -> Option<Position> {
        self.tree.get(id)?;
        let mut pos = self.start.clone();
        for n in self.tree.path_to(id) {
            if let Some(p) = self.tree.get(n).and_then(Node::played) {
                pos.play_unchecked(p.mv);
            }
        }
        Some(pos)
    }

    /// Plays `mv` after `parent`, as a new last child (the main
    /// continuation if `parent` has none), after checking it is legal.
    /// If the same move is already a child, returns that child.
    pub fn add_move(&mut self, parent: NodeId, mv: Move) -> Result<NodeId, EditError> {
        let mut pos = self.position_at(parent).ok_or(EditError::NoSuchNode)?;
        if !pos.legal_moves().contains(&mv) {
            return Err(EditError::IllegalMove(format!("{mv:?}")));
        }
        if let Some(existing) = self.tree[parent]
            .children()
            .iter()
            .copied()
            .find(|&c| self.tree[c].played().map(|p| &p.mv) == Some(&mv))
        {
            return Ok(existing);
        }
        let san = SanPlus::from_move_and_play_unchecked(&mut pos, mv);
        self.tree
            .push_child(parent, PlayedMove { mv, san })
            .ok_or(EditError::NoSuchNode)
    }

    /// Parses `san` (any form the reader accepts) at `parent` and adds it
    /// like [`Game::add_move`].
    pub fn add_san(&mut self, parent: NodeId, san: &str) -> Result<NodeId, EditError> {
        let pos = self.position_at(parent).ok_or(EditError::NoSuchNode)?;
        let parsed = LenientSan::parse(san.as_bytes())
            .map_err(|_| EditError::IllegalMove(san.to_owned()))?;
        let (mv, _) = parsed
            .to_move(&pos)
            .map_err(|_| EditError::IllegalMove(san.to_owned()))?;
        self.add_move(parent, mv)
    }

    /// Moves the variation at `id` one place up among its siblings.
    pub fn promote(&mut self, id: NodeId) -> bool {
        self.tree.promote(id)
    }

    /// Makes the variation at `id` the main continuation.
    pub fn promote_to_main(&mut self, id: NodeId) -> bool {
        self.tree.promote_to_main(id)
    }

    /// Moves the variation at `id` one place down among its siblings.
    pub fn demote(&mut self, id: NodeId) -> bool {
        self.tree.demote(id)
    }

    /// Removes `id` and all that follows it.
    pub fn remove(&mut self, id: NodeId) -> bool {
        self.tree.remove(id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Comment, Nag};

    #[test]
    fn edit_and_navigate() {
        let mut g = Game::new();
        let e4 = g.add_san(NodeId::ROOT, "e4").unwrap();
        let e5 = g.add_san(e4, "e5").unwrap();
        let nf3 = g.add_san(e5, "Nf3").unwrap();
        let c5 = g.add_san(e4, "c5").unwrap();
        assert_eq!(g.add_san(e4, "e5").unwrap(), e5);
        assert!(g.add_san(e4, "e4").is_err());
        assert_eq!(g.move_number(e4), (1, Color::White));
        assert_eq!(g.move_number(e5), (1, Color::Black));
        assert_eq!(g.move_number(nf3), (2, Color::White));
        assert_eq!(g.parent(c5), Some(e4));
        assert!(g.demote(e5));
        assert_eq!(g.main_line().collect::<Vec<_>>(), vec![e4, c5]);
        assert!(g.promote(e5));
        assert!(!g.promote(e5));
        assert!(g.remove(c5));
        assert!(g.node(c5).is_none());
        assert!(g.add_san(c5, "Nf3").is_err());
        assert_eq!(g.main_line().count(), 3);
        let node = g.node_mut(e4).unwrap();
        node.push_nag(Nag(1));
        node.push_comment(Comment::brace("best"));
        node.set_nags([Nag(3)]);
        assert_eq!(node.nags().collect::<Vec<_>>(), vec![Nag(3)]);
        assert_eq!(node.comments().count(), 1);
    }

    #[test]
    fn black_to_move_start_numbers() {
        let pos = Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 7")
            .unwrap();
        let mut g = Game::from_position(pos);
        let e5 = g.add_san(NodeId::ROOT, "e5").unwrap();
        let nf3 = g.add_san(e5, "Nf3").unwrap();
        assert_eq!(g.move_number(e5), (7, Color::Black));
        assert_eq!(g.move_number(nf3), (8, Color::White));
    }
}
