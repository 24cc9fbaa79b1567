//! [`TreeBuilder`]: the visitor that builds a [`Game`] from the reader's
//! events.

use pgnkit_chess::Position;

use crate::comment::Comment;
use crate::game::{Encoding, Game, Termination};
use crate::tree::{Annotation, NodeId, PlayedMove};
use crate::visitor::{GameStart, MoveEvent, RawComment, Skip, Visitor, san_plus};
use crate::{Nag, Tags};

/// Builds a [`Game`] (tags, start, tree, marker, encoding). The reader
/// adds the diagnostics.
#[derive(Debug, Default)]
pub struct TreeBuilder {
    game: Option<Game>,
    tags: Tags,
    encoding: Encoding,
    /// The node whose move is the last one of each open line; the top is
    /// the current line.
    lines: Vec<NodeId>,
    pending_before: Vec<Comment>,
    /// Nodes to reserve for the game being read.
    capacity: usize,
}

impl TreeBuilder {
    /// A builder.
    pub fn new() -> TreeBuilder {
        TreeBuilder::default()
    }

    fn game(&mut self) -> &mut Game {
        self.game.get_or_insert_with(Game::new)
    }

    fn current(&self) -> NodeId {
        self.lines.last().copied().unwrap_or(NodeId::ROOT)
    }
}

impl Visitor for TreeBuilder {
    type Output = Game;

    fn begin_game(&mut self, game: GameStart<'_>) {
        self.encoding = game.encoding();
        // Real movetext spends 6 to 25 bytes a move: reserve for the dense end.
        self.capacity = (game.bytes.len() / 8).min(1 << 12);
        self.tags = Tags::new();
        self.game = None;
        self.lines.clear();
        self.lines.push(NodeId::ROOT);
        self.pending_before.clear();
    }

    fn tag(&mut self, name: &[u8], value: &[u8]) {
        self.tags.insert_decoded(name, value, self.encoding);
    }

    fn begin_movetext(&mut self, start: &Position) {
        let mut game = Game::from_position(start.clone());
        game.tree = crate::tree::MoveTree::with_capacity(self.capacity);
        game.tags = std::mem::take(&mut self.tags);
        game.encoding = self.encoding;
        self.game = Some(game);
    }

    fn comment_before(&mut self, comment: RawComment<'_>) {
        let comment = comment.decode(self.encoding);
        let current = self.current();
        // Before the first move of the main line: the root holds it.
        if current == NodeId::ROOT && self.lines.len() == 1 {
            if let Some(root) = self.game().tree.get_mut(NodeId::ROOT) {
                root.annotations_mut().push(Annotation::Comment(comment));
            }
        } else {
            self.pending_before.push(comment);
        }
    }

    fn san(&mut self, event: MoveEvent<'_>) {
        let san = san_plus(&event);
        let parent = self.current();
        let played = PlayedMove { mv: event.mv, san };
        let before = std::mem::take(&mut self.pending_before);
        let game = self.game();
        if let Some(id) = game.tree.push_child(parent, played) {
            if let (Some(node), false) = (game.tree.get_mut(id), before.is_empty()) {
                *node.comments_before_mut() = before;
            }
            if let Some(top) = self.lines.last_mut() {
                *top = id;
            }
        }
    }

    fn nag(&mut self, nag: Nag) {
        let current = self.current();
        if let Some(node) = self.game().tree.get_mut(current) {
            node.push_nag(nag);
        }
    }

    fn comment(&mut self, comment: RawComment<'_>) {
        let comment = comment.decode(self.encoding);
        let current = self.current();
        if let Some(node) = self.game().tree.get_mut(current) {
            node.push_comment(comment);
        }
    }

    fn trailing_comment(&mut self, comment: RawComment<'_>) {
        let comment = comment.decode(self.encoding);
        let current = self.current();
        // A comment "after the variations" only stays apart from the move's
        // own comments when the move has variations in the tree: it must be
        // its parent's first child with siblings. Alternatives written inside
        // a variation to its own move (`(1... e5 (1... e6) { c })`) become
        // siblings of that move, which then has none, and export writes the
        // comment right after it, where it reads back as its comment.
        let has_variations = self
            .game()
            .tree
            .get(current)
            .and_then(|n| n.parent())
            .and_then(|p| self.game().tree.get(p))
            .is_some_and(|p| p.children().first() == Some(&current) && p.children().len() > 1);
        if let Some(node) = self.game().tree.get_mut(current) {
            if current == NodeId::ROOT || !has_variations {
                node.push_comment(comment);
            } else {
                node.trailing_comments_mut().push(comment);
            }
        }
    }

    fn begin_variation(&mut self) -> Skip {
        // The variation is an alternative to the current line's last move:
        // it continues from that move's parent.
        let current = self.current();
        let parent = self
            .game()
            .tree
            .get(current)
            .and_then(|n| n.parent())
            .unwrap_or(NodeId::ROOT);
        self.lines.push(parent);
        self.pending_before.clear();
        Skip::No
    }

    fn end_variation(&mut self) {
        if self.lines.len() > 1 {
            self.lines.pop();
        }
        self.pending_before.clear();
    }

    fn termination(&mut self, termination: Termination) {
        self.game().termination = termination;
    }

    fn end_game(&mut self) -> Game {
        let mut game = self.game.take().unwrap_or_default();
        if game.tags.is_empty() && !self.tags.is_empty() {
            game.tags = std::mem::take(&mut self.tags);
            game.encoding = self.encoding;
        }
        // The reader sends waiting comments as trailing ones when a line
        // ends, so nothing is left here; keep any leftovers all the same.
        let current = self.current();
        for comment in std::mem::take(&mut self.pending_before) {
            if let Some(node) = game.tree.get_mut(current) {
                if current == NodeId::ROOT {
                    node.push_comment(comment);
                } else {
                    node.trailing_comments_mut().push(comment);
                }
            }
        }
        self.lines.clear();
        game
    }
}
