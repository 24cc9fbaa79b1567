//! The move tree: an arena of [`Node`]s addressed by typed [`NodeId`]s.
//!
//! Node 0 is the root: it has no move; its annotations are the comments
//! that stand before the game's first move (or all the comments of a game
//! without moves). Every other node holds one move with its canonical SAN,
//! the comments that stand before it, its NAGs and comments in the order
//! read, and its children in order: the first child continues the line, the
//! others are variations (alternatives to the first child).
//!
//! Removing a variation detaches its nodes; their ids then answer `None`
//! from [`MoveTree::get`] and never come back, so ids held elsewhere stay
//! meaningful.

use std::ops::Index;
use std::time::Duration;

use pgnkit_chess::{Move, SanPlus};
use smallvec::SmallVec;

use crate::comment::Clock;
use crate::{Comment, Eval, Nag};

/// The id of a node of one [`MoveTree`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct NodeId(u32);

impl NodeId {
    /// The root of every tree.
    pub const ROOT: NodeId = NodeId(0);

    /// The node's index in the arena.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A NAG or a comment after a move, in the order read.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Annotation {
    /// A numeric annotation glyph (also from a suffix like `!?`).
    Nag(Nag),
    /// A comment.
    Comment(Comment),
}

/// A move in the tree: the move and its canonical SAN (with `+`/`#`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PlayedMove {
    /// The move.
    pub mv: Move,
    /// Its canonical SAN in the position it was played in.
    pub san: SanPlus,
}

/// One node of the tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Node {
    parent: Option<NodeId>,
    detached: bool,
    played: Option<PlayedMove>,
    annotations: SmallVec<[Annotation; 2]>,
    /// Up to four children fit in the 16 bytes a heap pointer takes, so a
    /// move with up to three variations allocates nothing for them.
    children: SmallVec<[NodeId; 4]>,
    /// The rarely used comment lists, boxed to keep nodes small.
    extra: Extras,
}

/// Comments before a move and after its variations.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Extra {
    before: Vec<Comment>,
    trailing: Vec<Comment>,
}

/// [`Extra`], allocated on first use; no box and an empty box are equal.
#[derive(Debug, Clone, Default)]
struct Extras(Option<Box<Extra>>);

impl Extras {
    fn before(&self) -> &[Comment] {
        self.0.as_ref().map_or(&[], |e| &e.before)
    }

    fn trailing(&self) -> &[Comment] {
        self.0.as_ref().map_or(&[], |e| &e.trailing)
    }

    fn get_mut(&mut self) -> &mut Extra {
        self.0.get_or_insert_with(Box::default)
    }
}

impl PartialEq for Extras {
    fn eq(&self, other: &Extras) -> bool {
        self.before() == other.before() && self.trailing() == other.trailing()
    }
}

impl Eq for Extras {}

impl Node {
    #[inline]
    fn new(parent: Option<NodeId>, played: Option<PlayedMove>) -> Node {
        Node {
            parent,
            detached: false,
            played,
            annotations: SmallVec::new(),
            children: SmallVec::new(),
            extra: Extras(None),
        }
    }

    /// The parent (`None` for the root).
    pub fn parent(&self) -> Option<NodeId> {
        self.parent
    }

    /// The move and its SAN (`None` for the root).
    pub fn played(&self) -> Option<&PlayedMove> {
        self.played.as_ref()
    }

    /// The move (`None` for the root).
    pub fn mv(&self) -> Option<Move> {
        self.played.as_ref().map(|p| p.mv)
    }

    /// The canonical SAN (`None` for the root).
    pub fn san(&self) -> Option<&SanPlus> {
        self.played.as_ref().map(|p| &p.san)
    }

    /// The comments that stand before this move.
    pub fn comments_before(&self) -> &[Comment] {
        self.extra.before()
    }

    /// The comments before this move, to edit.
    pub fn comments_before_mut(&mut self) -> &mut Vec<Comment> {
        &mut self.extra.get_mut().before
    }

    /// The NAGs and comments after this move, in the order read (for the
    /// root: the comments before the first move).
    pub fn annotations(&self) -> &[Annotation] {
        &self.annotations
    }

    /// The annotations, to edit.
    pub fn annotations_mut(&mut self) -> &mut SmallVec<[Annotation; 2]> {
        &mut self.annotations
    }

    /// The NAGs after this move, in order.
    pub fn nags(&self) -> impl Iterator<Item = Nag> + Clone + '_ {
        self.annotations.iter().filter_map(|a| match a {
            Annotation::Nag(n) => Some(*n),
            Annotation::Comment(_) => None,
        })
    }

    /// The comments after this move, in order.
    pub fn comments(&self) -> impl Iterator<Item = &Comment> + Clone + '_ {
        self.annotations.iter().filter_map(|a| match a {
            Annotation::Comment(c) => Some(c),
            Annotation::Nag(_) => None,
        })
    }

    /// Adds a NAG after the move's other annotations.
    pub fn push_nag(&mut self, nag: Nag) {
        self.annotations.push(Annotation::Nag(nag));
    }

    /// Adds a comment after the move's other annotations.
    pub fn push_comment(&mut self, comment: Comment) {
        self.annotations.push(Annotation::Comment(comment));
    }

    /// Replaces the NAGs, keeping the comments (new NAGs go first).
    pub fn set_nags(&mut self, nags: impl IntoIterator<Item = Nag>) {
        let mut new: SmallVec<[Annotation; 2]> = nags.into_iter().map(Annotation::Nag).collect();
        new.extend(
            self.annotations
                .drain(..)
                .filter(|a| matches!(a, Annotation::Comment(_))),
        );
        self.annotations = new;
    }

    /// Replaces the comments after the move, keeping the NAGs (new comments
    /// go last).
    pub fn set_comments(&mut self, comments: impl IntoIterator<Item = Comment>) {
        self.annotations.retain(|a| matches!(a, Annotation::Nag(_)));
        self.annotations
            .extend(comments.into_iter().map(Annotation::Comment));
    }

    /// The clock after this move, from the first `[%clk ...]` among its
    /// comments.
    pub fn clock(&self) -> Option<Duration> {
        self.comments().find_map(Comment::clock)
    }

    /// The time spent on this move, from the first `[%emt ...]`.
    pub fn emt(&self) -> Option<Duration> {
        self.comments().find_map(Comment::emt)
    }

    /// The evaluation after this move, from the first `[%eval ...]`.
    pub fn eval(&self) -> Option<Eval> {
        self.comments().find_map(Comment::eval)
    }

    /// Sets the clock after this move as lichess writes it: the
    /// `[%clk h:mm:ss]` command of its first comment that has one, else at
    /// the front of its first comment, else in a new comment. `None`
    /// removes the clock.
    ///
    /// ```
    /// use std::time::Duration;
    /// use pgnkit_game::{Game, NodeId};
    /// let mut game = Game::new();
    /// let e4 = game.add_san(NodeId::ROOT, "e4").unwrap();
    /// let node = game.node_mut(e4).unwrap();
    /// node.set_clock(Duration::from_millis(179_500));
    /// node.set_eval(pgnkit_game::Eval { score: pgnkit_game::Score::Centipawns(18), depth: None });
    /// assert_eq!(node.clock(), Some(Duration::from_millis(179_500)));
    /// assert_eq!(node.comments().next().unwrap().text(), " [%eval 0.18] [%clk 0:02:59.5] ");
    /// ```
    pub fn set_clock(&mut self, clock: impl Into<Option<Duration>>) {
        let args = clock.into().map(|d| Clock(d).to_string());
        self.set_command("clk", args.as_deref());
    }

    /// Sets the elapsed move time, `[%emt h:mm:ss]`, like [`Node::set_clock`].
    pub fn set_emt(&mut self, emt: impl Into<Option<Duration>>) {
        let args = emt.into().map(|d| Clock(d).to_string());
        self.set_command("emt", args.as_deref());
    }

    /// Sets the evaluation, `[%eval 0.18]` or `[%eval #-3]` (with `,depth`
    /// when known), like [`Node::set_clock`].
    pub fn set_eval(&mut self, eval: impl Into<Option<Eval>>) {
        let args = eval.into().map(|e| e.to_string());
        self.set_command("eval", args.as_deref());
    }

    /// Sets (or with `None` removes) the command `name` among the comments
    /// after this move.
    fn set_command(&mut self, name: &str, args: Option<&str>) {
        let comments = self.annotations.iter_mut().filter_map(|a| match a {
            Annotation::Comment(c) => Some(c),
            Annotation::Nag(_) => None,
        });
        match args {
            None => comments.for_each(|c| {
                c.set_command(name, None);
            }),
            Some(args) => {
                let mut first = None;
                for (i, c) in comments.enumerate() {
                    if c.command(name).is_some() {
                        c.set_command(name, Some(args));
                        return;
                    }
                    if i == 0 {
                        first = Some(c);
                    }
                }
                match first {
                    Some(c) => {
                        c.set_command(name, Some(args));
                    }
                    None => {
                        let mut c = Comment::brace("");
                        c.set_command(name, Some(args));
                        self.push_comment(c);
                    }
                }
            }
        }
    }

    /// Comments written after this move's variations when no move follows
    /// in its line (`1. e4 (1. d4) { here } *`).
    pub fn trailing_comments(&self) -> &[Comment] {
        self.extra.trailing()
    }

    /// The trailing comments, to edit.
    pub fn trailing_comments_mut(&mut self) -> &mut Vec<Comment> {
        &mut self.extra.get_mut().trailing
    }

    /// The children in order: the main continuation first, then variations.
    pub fn children(&self) -> &[NodeId] {
        &self.children
    }

    /// The main continuation.
    pub fn main_child(&self) -> Option<NodeId> {
        self.children.first().copied()
    }

    /// The variations that are alternatives to the main continuation.
    pub fn variations(&self) -> &[NodeId] {
        self.children.get(1..).unwrap_or(&[])
    }
}

/// An arena of nodes with a root.
///
/// Two trees are equal when they hold the same moves in the same order
/// with the same annotations: how the arena stores them (node ids, nodes
/// removed) does not count.
#[derive(Debug, Clone)]
pub struct MoveTree {
    nodes: Vec<Node>,
}

impl Default for MoveTree {
    fn default() -> MoveTree {
        MoveTree::new()
    }
}

impl MoveTree {
    /// A tree with only the root.
    pub fn new() -> MoveTree {
        MoveTree {
            nodes: vec![Node::new(None, None)],
        }
    }

    /// A tree with only the root and room for `moves` more nodes.
    pub fn with_capacity(moves: usize) -> MoveTree {
        let mut nodes = Vec::with_capacity(moves.saturating_add(1));
        nodes.push(Node::new(None, None));
        MoveTree { nodes }
    }

    /// The root.
    pub fn root(&self) -> NodeId {
        NodeId::ROOT
    }

    /// The node `id`, unless it is not in this tree or was removed.
    pub fn get(&self, id: NodeId) -> Option<&Node> {
        self.nodes.get(id.index()).filter(|n| !n.detached)
    }

    /// The node `id` to edit.
    pub fn get_mut(&mut self, id: NodeId) -> Option<&mut Node> {
        self.nodes.get_mut(id.index()).filter(|n| !n.detached)
    }

    /// Whether the tree has no moves.
    pub fn is_empty(&self) -> bool {
        self.nodes[0].children.is_empty()
    }

    /// How many nodes (with the root) the arena holds, removed ones included.
    pub fn capacity_used(&self) -> usize {
        self.nodes.len()
    }

    /// Appends a move as the last child of `parent` (its main continuation
    /// if it has none). Returns the new node, or `None` if `parent` is not
    /// in the tree. The move is not checked: see
    /// [`Game::add_move`](crate::Game::add_move).
    #[inline]
    pub fn push_child(&mut self, parent: NodeId, played: PlayedMove) -> Option<NodeId> {
        let id = NodeId(u32::try_from(self.nodes.len()).ok()?);
        self.get_mut(parent)?.children.push(id);
        self.nodes.push(Node::new(Some(parent), Some(played)));
        Some(id)
    }

    /// The ids of the main line from the root (root excluded).
    pub fn main_line(&self) -> LineIter<'_> {
        self.line_after(NodeId::ROOT)
    }

    /// The nodes that follow `id` along main continuations (`id` excluded).
    pub fn line_after(&self, id: NodeId) -> LineIter<'_> {
        LineIter {
            tree: self,
            next: self.get(id).and_then(Node::main_child),
        }
    }

    /// The path from the root's first move to `id` (root excluded, `id`
    /// included), in playing order.
    pub fn path_to(&self, id: NodeId) -> Vec<NodeId> {
        let mut path = Vec::new();
        let mut cur = Some(id);
        while let Some(c) = cur {
            let Some(node) = self.get(c) else { break };
            if node.played.is_some() {
                path.push(c);
            }
            cur = node.parent;
        }
        path.reverse();
        path
    }

    /// The number of moves from the start to `id` (0 for the root).
    pub fn ply(&self, id: NodeId) -> usize {
        let mut ply = 0;
        let mut cur = self.get(id).and_then(|n| n.parent);
        while let Some(c) = cur {
            ply += 1;
            cur = self.nodes.get(c.index()).and_then(|n| n.parent);
        }
        ply
    }

    /// The siblings of `id` including itself, and its index among them.
    fn sibling_index(&self, id: NodeId) -> Option<(NodeId, usize)> {
        let parent = self.get(id)?.parent?;
        let index = self.nodes[parent.index()]
            .children
            .iter()
            .position(|&c| c == id)?;
        Some((parent, index))
    }

    /// Moves the variation starting at `id` one place up among its
    /// siblings (index 1 becomes the main continuation). Returns whether it
    /// moved.
    pub fn promote(&mut self, id: NodeId) -> bool {
        match self.sibling_index(id) {
            Some((parent, index)) if index > 0 => {
                self.nodes[parent.index()].children.swap(index, index - 1);
                true
            }
            _ => false,
        }
    }

    /// Makes the variation starting at `id` the main continuation.
    pub fn promote_to_main(&mut self, id: NodeId) -> bool {
        match self.sibling_index(id) {
            Some((parent, index)) if index > 0 => {
                let children = &mut self.nodes[parent.index()].children;
                let c = children.remove(index);
                children.insert(0, c);
                true
            }
            _ => false,
        }
    }

    /// Moves `id` one place down among its siblings. Returns whether it moved.
    pub fn demote(&mut self, id: NodeId) -> bool {
        match self.sibling_index(id) {
            Some((parent, index)) if index + 1 < self.nodes[parent.index()].children.len() => {
                self.nodes[parent.index()].children.swap(index, index + 1);
                true
            }
            _ => false,
        }
    }

    /// Removes `id` and everything after it from the tree. Returns whether
    /// it was removed (the root cannot be).
    pub fn remove(&mut self, id: NodeId) -> bool {
        let Some((parent, index)) = self.sibling_index(id) else {
            return false;
        };
        self.nodes[parent.index()].children.remove(index);
        let mut stack = vec![id];
        while let Some(n) = stack.pop() {
            if let Some(node) = self.nodes.get_mut(n.index()) {
                node.detached = true;
                stack.extend(node.children.iter().copied());
            }
        }
        true
    }

    /// All attached nodes in depth-first pre-order (main line first at
    /// each branch), root first.
    pub fn preorder(&self) -> Vec<NodeId> {
        let mut out = Vec::with_capacity(self.nodes.len());
        let mut stack = vec![NodeId::ROOT];
        while let Some(id) = stack.pop() {
            out.push(id);
            if let Some(n) = self.get(id) {
                stack.extend(n.children.iter().rev().copied());
            }
        }
        out
    }
}

impl Node {
    /// Whether `self` and `other` hold the same move and annotations
    /// (children not compared).
    fn same_content(&self, other: &Node) -> bool {
        self.played == other.played
            && self.annotations == other.annotations
            && self.extra == other.extra
            && self.children.len() == other.children.len()
    }
}

impl PartialEq for MoveTree {
    /// The same moves, in the same order, with the same annotations, walked
    /// from both roots at once (without recursion).
    fn eq(&self, other: &MoveTree) -> bool {
        let mut stack = vec![(NodeId::ROOT, NodeId::ROOT)];
        while let Some((a, b)) = stack.pop() {
            let (Some(a), Some(b)) = (self.get(a), other.get(b)) else {
                return false;
            };
            if !a.same_content(b) {
                return false;
            }
            stack.extend(a.children.iter().copied().zip(b.children.iter().copied()));
        }
        true
    }
}

impl Eq for MoveTree {}

impl Index<NodeId> for MoveTree {
    type Output = Node;

    /// Panics when `id` is not from this tree (a programming error, like an
    /// out-of-range slice index); use [`MoveTree::get`] to check.
    fn index(&self, id: NodeId) -> &Node {
        &self.nodes[id.index()]
    }
}

/// The nodes of a line, following main continuations.
#[derive(Debug, Clone)]
pub struct LineIter<'a> {
    tree: &'a MoveTree,
    next: Option<NodeId>,
}

impl Iterator for LineIter<'_> {
    type Item = NodeId;

    fn next(&mut self) -> Option<NodeId> {
        let id = self.next?;
        self.next = self.tree.get(id).and_then(Node::main_child);
        Some(id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nodes_stay_small() {
        // Inline children cost no room over a spilled pointer and length.
        assert_eq!(
            std::mem::size_of::<SmallVec<[NodeId; 4]>>(),
            std::mem::size_of::<SmallVec<[NodeId; 1]>>()
        );
        assert!(std::mem::size_of::<Node>() <= 128);
    }
}
