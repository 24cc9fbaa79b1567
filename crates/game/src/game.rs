//! [`Game`]: tags, starting position, move tree, termination marker,
//! and encoding, with navigation and validated editing.

use std::ops::Index;

use pgnkit_chess::{CastlingMode, Color, LenientSan, Move, Position, SanError, SanPlus, Uci};

use crate::Tags;
use crate::encoding::Encoding;
use crate::error::EditError;
use crate::termination::Termination;
use crate::tree::{LineIter, MoveTree, Node, NodeId, PlayedMove};

mod equality;

/// A game: tags, the starting position, the move tree, the termination
/// marker and its encoding.
///
/// What reading found wrong is not part of the game: the diagnostics come
/// with it, once, in [`ReadGame::diagnostics`](crate::ReadGame) (or beside
/// it from [`visit_game`](crate::visit_game)), so they cannot disagree.
///
/// ```
/// use pgnkit_game::{Game, NodeId};
/// let mut game = Game::new();
/// let e4 = game.add_san(NodeId::ROOT, "e4").unwrap();
/// let e5 = game.add_san(e4, "e5").unwrap();
/// let c5 = game.add_san(e4, "c5").unwrap(); // a variation
/// assert_eq!(game.main_line().count(), 2);
/// assert_eq!(game[e4].variations(), &[c5]); // alternatives to e5
/// assert_eq!(game[e4].children(), &[e5, c5]);
/// game.promote_to_main(c5);
/// assert_eq!(game.main_line().nth(1), Some(c5));
/// assert_eq!(game.ply(c5), 2);
/// assert_eq!(
///     game.node(c5).unwrap().position().to_string(),
///     "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
/// );
/// ```
///
/// # Equality
///
/// Two games are equal when the export format writes them the same: the
/// same starting position, result, moves in the same order with the same
/// NAGs, comments and variations, and the same tags as export writes them.
/// So a game equals itself written and read again (a test checks it on
/// every game of the corpus), and its JSON round trip. In detail:
///
/// - a missing Seven Tag Roster tag equals its default (`?`, `????.??.??`
///   for `Date`), `Result` counts as [`Game::termination`], `FEN` as
///   whether it is written (the starting positions are compared), and the
///   order of the tags does not count (export writes the roster first,
///   then the others by name);
/// - comments compare by their words, as export writes them: white space
///   runs count as one space, white space at the ends and blank comments
///   not at all, nor whether a comment was written `{...}` or `; ...`;
/// - how the game is stored does not count (node ids, nodes removed by an
///   edit), nor what reading found (diagnostics) or how the text was
///   decoded (encoding).
///
/// To compare tags or comment texts exactly, compare [`Game::tags`] or
/// [`Comment::text`](crate::Comment::text) themselves.
///
/// ```
/// use pgnkit_game::Game;
/// let game: Game = "[White \"Réti\"]\n\n1. Nf3 {a   plan} *".parse().unwrap();
/// let written: Game = concat!(
///     "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n",
///     "[White \"Réti\"]\n[Black \"?\"]\n[Result \"*\"]\n\n1. Nf3 { a plan } *\n",
/// ).parse().unwrap();
/// assert_eq!(game, written);
/// assert_ne!(game.tags(), written.tags());
/// ```
///
/// # The result: one value
///
/// The `Result` tag and the termination marker are one value,
/// [`Game::termination`]: the `Result` tag when it holds one of the four
/// markers (`1-0`, `0-1`, `1/2-1/2`, `*`), otherwise the marker read or
/// set. [`Game::set_termination`] is its setter and writes both. The reader
/// makes them agree when they differ (the marker wins, with a warning, as
/// SPEC-NOTES says); export writes this one value as the `Result` tag and as
/// the marker, from a tree and from the streaming writer alike.
///
/// ```
/// use pgnkit_game::{Game, Termination};
/// let mut game: Game = "1. e4 e5 *".parse().unwrap();
/// game.tags_mut().insert("Result", "1-0");
/// assert_eq!(game.termination(), Termination::WhiteWins);
/// game.set_termination(Termination::Draw);
/// assert_eq!(game.tags().get("Result"), Some("1/2-1/2"));
/// ```
#[derive(Debug, Clone)]
pub struct Game {
    pub(crate) tags: Tags,
    pub(crate) start: Position,
    pub(crate) tree: MoveTree,
    pub(crate) termination: Termination,
    pub(crate) encoding: Encoding,
}

impl PartialEq for Game {
    /// Whether the export format writes both games the same (see
    /// [equality](Game#equality)).
    fn eq(&self, other: &Game) -> bool {
        equality::same_game(self, other)
    }
}

impl Index<NodeId> for Game {
    type Output = Node;

    /// The node `id`. Panics when `id` is not a node of this game (a
    /// programming error, like an out-of-range slice index); use
    /// [`Game::node`] to check.
    fn index(&self, id: NodeId) -> &Node {
        match self.tree.get(id) {
            Some(node) => node,
            None => panic!("{id:?} is not a node of this game"),
        }
    }
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

    /// An empty game from `start`. When `start` is not the standard
    /// start, its tags get `FEN` and `SetUp "1"` (and `Variant "Chess960"`
    /// for a Chess960 start), as python-chess writes them, so the game is
    /// written with them.
    ///
    /// ```
    /// use pgnkit_game::Game;
    /// use pgnkit_chess::Position;
    /// let pos = Position::from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1").unwrap();
    /// let game = Game::from_position(pos);
    /// assert_eq!(game.tags().get("SetUp"), Some("1"));
    /// assert_eq!(game.tags().get("FEN"), Some("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"));
    /// assert!(Game::from_position(Position::new()).tags().is_empty());
    /// ```
    pub fn from_position(start: Position) -> Game {
        let mut tags = Tags::new();
        if start != Position::new() {
            if start.castling_mode() == CastlingMode::Chess960 {
                tags.insert_new("Variant", "Chess960");
            }
            tags.insert_new("FEN", start.to_string());
            tags.insert_new("SetUp", "1");
        }
        Game {
            tags,
            start,
            tree: MoveTree::new(),
            termination: Termination::Unknown,
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

    /// The result: the `Result` tag when it holds a marker, otherwise the
    /// termination marker read or set (see [the result](Game#the-result-one-value)).
    pub fn termination(&self) -> Termination {
        self.tags
            .get("Result")
            .and_then(|v| Termination::from_exact(v.as_bytes()))
            .unwrap_or(self.termination)
    }

    /// Sets the result: the termination marker and the `Result` tag (added
    /// when missing, unless the result is `*`).
    pub fn set_termination(&mut self, termination: Termination) {
        self.termination = termination;
        if termination != Termination::Unknown || self.tags.contains("Result") {
            self.tags.set("Result", termination.as_str());
        }
    }

    /// How the game's text was decoded.
    pub fn encoding(&self) -> Encoding {
        self.encoding
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
            return Err(EditError::IllegalMove(mv.to_string()));
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
    /// like [`Game::add_move`]. The error says why a move was refused: its
    /// syntax, no legal move, or more than one.
    ///
    /// ```
    /// use pgnkit_game::{EditError, Game, NodeId};
    /// let mut game = Game::new();
    /// let e4 = game.add_san(NodeId::ROOT, "e4").unwrap();
    /// assert_eq!(game.add_san(e4, "Qxz9"), Err(EditError::InvalidSyntax("Qxz9".into())));
    /// assert_eq!(game.add_san(e4, "Ke3"), Err(EditError::IllegalMove("Ke3".into())));
    /// let mut game: Game = "1. Nf3 d5 2. d4 Nf6 *".parse().unwrap();
    /// assert_eq!(game.add_san(game.end().id(), "Nd2"), Err(EditError::Ambiguous("Nd2".into())));
    /// ```
    pub fn add_san(&mut self, parent: NodeId, san: &str) -> Result<NodeId, EditError> {
        let pos = self.position_at(parent).ok_or(EditError::NoSuchNode)?;
        let parsed = LenientSan::parse(san.as_bytes())
            .map_err(|_| EditError::InvalidSyntax(san.to_owned()))?;
        let (mv, _) = parsed.to_move(&pos).map_err(|e| match e {
            SanError::Ambiguous => EditError::Ambiguous(san.to_owned()),
            _ => EditError::IllegalMove(san.to_owned()),
        })?;
        self.add_move(parent, mv)
    }

    /// Parses `uci` (`e2e4`, `e7e8q`; Chess960 castling as king takes rook
    /// in a Chess960 game) at `parent` and adds it like [`Game::add_move`].
    ///
    /// ```
    /// use pgnkit_game::{EditError, Game, NodeId};
    /// let mut game = Game::new();
    /// let e4 = game.add_uci(NodeId::ROOT, "e2e4").unwrap();
    /// assert_eq!(game[e4].san().unwrap().to_string(), "e4");
    /// assert_eq!(game.add_uci(e4, "e2"), Err(EditError::InvalidSyntax("e2".into())));
    /// assert_eq!(game.add_uci(e4, "e2e4"), Err(EditError::IllegalMove("e2e4".into())));
    /// ```
    pub fn add_uci(&mut self, parent: NodeId, uci: &str) -> Result<NodeId, EditError> {
        let pos = self.position_at(parent).ok_or(EditError::NoSuchNode)?;
        let parsed: Uci = uci
            .parse()
            .map_err(|_| EditError::InvalidSyntax(uci.to_owned()))?;
        let mv = parsed
            .to_move(&pos)
            .map_err(|_| EditError::IllegalMove(uci.to_owned()))?;
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
