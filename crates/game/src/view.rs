//! A borrowed view of one node of a [`Game`] ([`NodeRef`], from
//! [`Game::node`]) and the walks over a game's tree: the main line
//! ([`Game::main_line_nodes`]) and every move in PGN order
//! ([`Game::walk`]).
//!
//! A view knows its game, so it answers what a bare [`Node`] cannot: its
//! parent, children and variations as views, whether it is on the main
//! line, its ply, move number and position. Positions are computed
//! incrementally: a view reached from another view whose position is known
//! plays one move; a walk plays one move per step; only a view taken
//! straight from [`Game::node`] replays from the start, once, when its
//! position is first asked for.

use std::cell::OnceCell;
use std::fmt;
use std::ops::Deref;

use pgnkit_chess::{Color, Position, SanPlus};

use crate::game::Game;
use crate::tree::{Annotation, Node, NodeId, PlayedMove};
use crate::{Comment, Nag};

/// The views and walks of a game (here, beside the view, so that `game.rs`
/// need not know it).
impl Game {
    /// The node `id` as a view with its context (parent, children,
    /// variations, position), unless `id` is not a node of this game.
    /// `game[id]` gives the bare [`Node`].
    pub fn node(&self, id: NodeId) -> Option<NodeRef<'_>> {
        NodeRef::new(self, id)
    }

    /// The root (the start, before the first move) as a view, its
    /// position known.
    pub fn root(&self) -> NodeRef<'_> {
        NodeRef::root(self)
    }

    /// The last node of the main line (the root when there are no moves).
    pub fn end(&self) -> NodeRef<'_> {
        self.root().end()
    }

    /// The main line's moves as views, their positions computed one move
    /// at a time.
    ///
    /// ```
    /// use pgnkit_game::Game;
    /// let game: Game = "1. e4 { [%clk 0:03:00] } e5 2. Nf3 *".parse().unwrap();
    /// let line: Vec<String> = game
    ///     .main_line_nodes()
    ///     .map(|n| format!("{} {}", n.san().unwrap(), n.position().fen(Default::default())))
    ///     .collect();
    /// assert_eq!(line[0], "e4 rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    /// assert_eq!(game.main_line_nodes().next().unwrap().clock().map(|c| c.as_secs()), Some(180));
    /// ```
    pub fn main_line_nodes(&self) -> MainLine<'_> {
        MainLine {
            next: self.root().main_child(),
        }
    }

    /// Every move in PGN order: each move, then its alternatives as
    /// variations, then the rest of its line (see [`Walk`]).
    ///
    /// ```
    /// use pgnkit_game::{Game, Step};
    /// let game: Game = "1. e4 (1. d4 d5) 1... e5 *".parse().unwrap();
    /// let text: Vec<String> = game
    ///     .walk()
    ///     .map(|step| match step {
    ///         Step::Move(node) => node.san().unwrap().to_string(),
    ///         Step::StartVariation => "(".to_owned(),
    ///         Step::EndVariation => ")".to_owned(),
    ///     })
    ///     .collect();
    /// assert_eq!(text.join(" "), "e4 ( d4 d5 ) e5");
    /// ```
    pub fn walk(&self) -> Walk<'_> {
        Walk::new(self.root())
    }
}

/// A node of a game with its context: derefs to the [`Node`] (move, SAN,
/// comments, NAGs, clock, eval) and adds navigation and the position.
///
/// ```
/// use pgnkit_game::{Game, NodeId};
/// let game: Game = "1. e4 e5 (1... c5 2. Nf3) 2. Nf3 *".parse().unwrap();
/// let e4 = game.root().main_child().unwrap();
/// assert_eq!(e4.san().unwrap().to_string(), "e4");
/// let c5 = e4.variations().next().unwrap();
/// assert!(!c5.is_main_line());
/// assert_eq!(c5.parent().unwrap().id(), e4.id());
/// assert_eq!(
///     c5.position().to_string(),
///     "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
/// );
/// assert_eq!(game.end().san().unwrap().to_string(), "Nf3");
/// ```
#[derive(Clone)]
pub struct NodeRef<'a> {
    game: &'a Game,
    id: NodeId,
    node: &'a Node,
    /// The position after this node's move, once known.
    position: OnceCell<Position>,
}

impl<'a> NodeRef<'a> {
    /// The view of `id`, when it is a node of `game`.
    pub(crate) fn new(game: &'a Game, id: NodeId) -> Option<NodeRef<'a>> {
        Some(NodeRef {
            game,
            id,
            node: game.tree.get(id)?,
            position: OnceCell::new(),
        })
    }

    /// The root, its position (the start) known.
    pub(crate) fn root(game: &'a Game) -> NodeRef<'a> {
        NodeRef {
            game,
            id: NodeId::ROOT,
            node: &game.tree[NodeId::ROOT],
            position: OnceCell::from(game.start.clone()),
        }
    }

    /// The view of `id` (a child of this node), its position derived from
    /// this one's when that is known.
    fn child(&self, id: NodeId) -> Option<NodeRef<'a>> {
        let child = NodeRef::new(self.game, id)?;
        if let (Some(pos), Some(mv)) = (self.position.get(), child.node.mv()) {
            let mut pos = pos.clone();
            pos.play_unchecked(mv);
            let _ = child.position.set(pos);
        }
        Some(child)
    }

    /// The game this node belongs to.
    pub fn game(&self) -> &'a Game {
        self.game
    }

    /// The node's id.
    pub fn id(&self) -> NodeId {
        self.id
    }

    /// The node itself.
    pub fn node(&self) -> &'a Node {
        self.node
    }

    /// The move and its SAN (`None` for the root). Like the [`Node`]
    /// getters below, borrowed from the game, not from the view.
    pub fn played(&self) -> Option<&'a PlayedMove> {
        self.node.played()
    }

    /// The move's canonical SAN (`None` for the root).
    pub fn san(&self) -> Option<&'a SanPlus> {
        self.node.san()
    }

    /// The NAGs and comments after the move, in the order read.
    pub fn annotations(&self) -> &'a [Annotation] {
        self.node.annotations()
    }

    /// The comments after the move, in order.
    pub fn comments(&self) -> impl Iterator<Item = &'a Comment> + Clone + 'a {
        self.node.comments()
    }

    /// The NAGs after the move, in order.
    pub fn nags(&self) -> impl Iterator<Item = Nag> + Clone + 'a {
        self.node.nags()
    }

    /// The comments standing before the move.
    pub fn comments_before(&self) -> &'a [Comment] {
        self.node.comments_before()
    }

    /// The comments after the move's variations when nothing follows.
    pub fn trailing_comments(&self) -> &'a [Comment] {
        self.node.trailing_comments()
    }

    /// Whether this is the root (the start, no move).
    pub fn is_root(&self) -> bool {
        self.id == NodeId::ROOT
    }

    /// The parent (`None` for the root). Its position is computed again
    /// when asked for (a move cannot be taken back).
    pub fn parent(&self) -> Option<NodeRef<'a>> {
        NodeRef::new(self.game, self.node.parent()?)
    }

    /// The children in order: the main continuation, then its alternatives.
    /// (`game[id].children()` gives their ids.)
    pub fn children(&self) -> Children<'a, '_> {
        Children {
            parent: self,
            ids: self.node.children().iter(),
        }
    }

    /// The main continuation.
    pub fn main_child(&self) -> Option<NodeRef<'a>> {
        self.child(self.node.main_child()?)
    }

    /// The alternatives to the main continuation (python-chess's
    /// `variations[1:]`).
    pub fn variations(&self) -> Children<'a, '_> {
        Children {
            parent: self,
            ids: self.node.variations().iter(),
        }
    }

    /// Whether the node is on the game's main line (the root is).
    pub fn is_main_line(&self) -> bool {
        let tree = &self.game.tree;
        let mut id = self.id;
        while let Some(parent) = tree.get(id).and_then(Node::parent) {
            if tree.get(parent).and_then(Node::main_child) != Some(id) {
                return false;
            }
            id = parent;
        }
        true
    }

    /// Whether the node is its parent's main continuation (the root is).
    pub fn is_main_variation(&self) -> bool {
        self.parent()
            .is_none_or(|p| p.node.main_child() == Some(self.id))
    }

    /// The number of moves from the start (0 for the root).
    pub fn ply(&self) -> usize {
        self.game.ply(self.id)
    }

    /// The move number of this node's move and who played it.
    pub fn move_number(&self) -> (u32, Color) {
        self.game.move_number(self.id)
    }

    /// The position after this node's move (the start for the root).
    pub fn position(&self) -> &Position {
        self.position.get_or_init(|| {
            self.game
                .position_at(self.id)
                .unwrap_or_else(|| self.game.start.clone())
        })
    }

    /// The last node of the line that continues from here along main
    /// continuations (this node when it has no children).
    pub fn end(&self) -> NodeRef<'a> {
        let mut node = self.clone();
        while let Some(next) = node.main_child() {
            node = next;
        }
        node
    }
}

impl Deref for NodeRef<'_> {
    type Target = Node;

    fn deref(&self) -> &Node {
        self.node
    }
}

impl fmt::Debug for NodeRef<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("NodeRef")
            .field("id", &self.id)
            .field("san", &self.node.san().map(ToString::to_string))
            .finish()
    }
}

impl PartialEq for NodeRef<'_> {
    /// The same node of the same game.
    fn eq(&self, other: &NodeRef<'_>) -> bool {
        std::ptr::eq(self.game, other.game) && self.id == other.id
    }
}

/// Children of a [`NodeRef`] as views, their positions derived from the
/// parent's when it is known.
#[derive(Debug, Clone)]
pub struct Children<'a, 'p> {
    parent: &'p NodeRef<'a>,
    ids: std::slice::Iter<'a, NodeId>,
}

impl<'a> Iterator for Children<'a, '_> {
    type Item = NodeRef<'a>;

    fn next(&mut self) -> Option<NodeRef<'a>> {
        // A node's children are always in the tree: removing one takes it
        // out of its parent's list.
        self.ids.find_map(|&id| self.parent.child(id))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.ids.size_hint()
    }
}

impl DoubleEndedIterator for Children<'_, '_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        while let Some(&id) = self.ids.next_back() {
            if let Some(child) = self.parent.child(id) {
                return Some(child);
            }
        }
        None
    }
}

impl ExactSizeIterator for Children<'_, '_> {}

/// The main line's moves as views with their positions, one move played
/// per step ([`Game::main_line_nodes`]).
#[derive(Debug, Clone)]
pub struct MainLine<'a> {
    pub(crate) next: Option<NodeRef<'a>>,
}

impl<'a> Iterator for MainLine<'a> {
    type Item = NodeRef<'a>;

    fn next(&mut self) -> Option<NodeRef<'a>> {
        let node = self.next.take()?;
        self.next = node.main_child();
        Some(node)
    }
}

/// One step of a walk in PGN order ([`Game::walk`]).
#[derive(Debug, Clone, PartialEq)]
pub enum Step<'a> {
    /// A move, with its position known.
    Move(NodeRef<'a>),
    /// A variation opens (`(` in PGN); its first move comes next.
    StartVariation,
    /// The variation ends (`)`).
    EndVariation,
}

/// Every move of a game in the order PGN writes them: a move, then the
/// variations that are alternatives to it, each between
/// [`Step::StartVariation`] and [`Step::EndVariation`], then the line goes
/// on. Positions are computed as it goes; no recursion.
#[derive(Debug, Clone)]
pub struct Walk<'a> {
    stack: Vec<Task<'a>>,
}

#[derive(Debug, Clone)]
enum Task<'a> {
    /// Walk the moves that follow this node.
    After(NodeRef<'a>),
    Step(Step<'a>),
}

impl<'a> Walk<'a> {
    pub(crate) fn new(root: NodeRef<'a>) -> Walk<'a> {
        Walk {
            stack: vec![Task::After(root)],
        }
    }
}

impl<'a> Iterator for Walk<'a> {
    type Item = Step<'a>;

    fn next(&mut self) -> Option<Step<'a>> {
        loop {
            match self.stack.pop()? {
                Task::Step(step) => return Some(step),
                Task::After(node) => {
                    let mut children = node.children();
                    let Some(main) = children.next() else {
                        continue;
                    };
                    let variations: Vec<_> = children.collect();
                    self.stack.push(Task::After(main.clone()));
                    for v in variations.into_iter().rev() {
                        self.stack.push(Task::Step(Step::EndVariation));
                        self.stack.push(Task::After(v.clone()));
                        self.stack.push(Task::Step(Step::Move(v)));
                        self.stack.push(Task::Step(Step::StartVariation));
                    }
                    return Some(Step::Move(main));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(text: &str) -> Game {
        text.parse().unwrap()
    }

    #[test]
    fn walk_is_in_pgn_order_with_positions() {
        let g = game("1. e4 e5 (1... c5 2. Nf3 (2. c3) d6) (1... e6) 2. Nf3 *");
        let mut out = Vec::new();
        for step in g.walk() {
            match step {
                Step::Move(n) => {
                    assert_eq!(n.position(), &g.position_at(n.id()).unwrap());
                    out.push(n.san().unwrap().to_string());
                }
                Step::StartVariation => out.push("(".into()),
                Step::EndVariation => out.push(")".into()),
            }
        }
        assert_eq!(out.join(" "), "e4 e5 ( c5 Nf3 ( c3 ) d6 ) ( e6 ) Nf3");
    }

    #[test]
    fn main_line_nodes_carry_positions() {
        let g = game("1. d4 d5 2. c4 (2. Nf3) 2... e6 *");
        let nodes: Vec<_> = g.main_line_nodes().collect();
        assert_eq!(nodes.len(), 4);
        assert!(nodes.iter().all(|n| n.position.get().is_some()));
        assert!(nodes.iter().all(NodeRef::is_main_line));
        let nf3 = nodes[1].variations().next().unwrap();
        assert!(nf3.position.get().is_some());
        assert!(!nf3.is_main_line());
        assert!(!nf3.is_main_variation());
        assert_eq!(nf3.ply(), 3);
        assert_eq!(nf3.move_number(), (2, Color::White));
        assert_eq!(
            nodes[3].position().to_string(),
            g.end().position().to_string()
        );
        assert_eq!(g.root().end(), g.end());
        assert!(g.root().is_root() && g.root().is_main_line());
    }
}
