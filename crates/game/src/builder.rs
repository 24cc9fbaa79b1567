//! [`TreeBuilder`]: the visitor that builds a [`Game`] from the reader's
//! events.
//!
//! A UTF-8 game's bytes are validated and copied once, in
//! [`GameText`]; its comments then share that copy and its tags are copied
//! out of it, so no comment costs an allocation or a UTF-8 check of its own.

use std::ops::Range;
use std::sync::Arc;

use pgnkit_chess::Position;
use smallvec::SmallVec;

use crate::comment::Comment;
use crate::encoding::Encoding;
use crate::game::Game;
use crate::game_start::GameStart;
use crate::termination::Termination;
use crate::tree::{Annotation, MoveTree, NodeId, PlayedMove};
use crate::visitor::{MoveEvent, RawComment, Skip, Visitor, san_plus};
use crate::{Nag, Tags};

/// Tag pairs to reserve room for at a game's first tag: the Seven Tag
/// Roster and the dozen more that servers such as lichess write (fewer in
/// a small game: a pair takes at least 6 bytes, `[A ""]`).
const TAG_PAIRS: usize = 24;
/// Bytes of tag names and values to reserve room for at a game's first tag
/// (lichess games have about 450; never more than the game's bytes).
const TAG_BYTES: usize = 512;

/// Builds a [`Game`] (tags, start, tree, marker, encoding). The
/// diagnostics are the reader's: they come beside the game, never in it.
#[derive(Debug, Default)]
pub struct TreeBuilder {
    game: Option<Game>,
    tags: Tags,
    encoding: Encoding,
    /// The node whose move is the last one of each open line; the top is
    /// the current line.
    lines: SmallVec<[NodeId; 8]>,
    pending_before: Vec<Comment>,
    /// Nodes to reserve for the game being read.
    capacity: usize,
    /// The length of the game being read.
    game_len: usize,
    /// The text of the game being read.
    text: GameText,
}

/// The text of the game being read, when its bytes are UTF-8: one checked
/// copy that the game's comments share and its tags are copied from.
#[derive(Debug, Default)]
struct GameText {
    /// The game's bytes as text (`None` for a Latin-1 game).
    text: Option<Arc<str>>,
    /// The address of the game's bytes in the input: the events' byte
    /// slices are pieces of those bytes, and their address says where.
    base: usize,
}

impl GameText {
    /// The encoding of `bytes` (UTF-8 when they all are, otherwise
    /// Latin-1) and, for UTF-8, their text.
    fn new(bytes: &[u8]) -> (Encoding, GameText) {
        let base = bytes.as_ptr().addr();
        match std::str::from_utf8(bytes) {
            Ok(text) => (
                Encoding::Utf8,
                GameText {
                    text: Some(Arc::from(text)),
                    base,
                },
            ),
            Err(_) => (Encoding::Latin1, GameText { text: None, base }),
        }
    }

    /// Where `bytes` stand in the game's text, when they are a piece of the
    /// game's bytes (an unescaped tag value with escapes is not). The bytes
    /// are compared, so a slice that merely starts at a matching address
    /// is never mistaken for the game's.
    #[inline]
    fn range_of(&self, bytes: &[u8]) -> Option<Range<usize>> {
        let text = self.text.as_deref()?;
        let start = bytes.as_ptr().addr().checked_sub(self.base)?;
        let range = start..start.checked_add(bytes.len())?;
        (text.as_bytes().get(range.clone())? == bytes).then_some(range)
    }

    /// `bytes` as text, when they are a piece of the game's text.
    #[inline]
    fn str_of(&self, bytes: &[u8]) -> Option<&str> {
        let range = self.range_of(bytes)?;
        self.text.as_deref()?.get(range)
    }

    /// The comment `raw`, sharing the game's text when it can, otherwise
    /// decoded into its own.
    #[inline]
    fn comment(&self, raw: RawComment<'_>, encoding: Encoding) -> Comment {
        self.text
            .as_ref()
            .and_then(|text| Comment::shared(text, self.range_of(raw.text)?, raw.kind))
            .unwrap_or_else(|| raw.decode(encoding))
    }
}

impl TreeBuilder {
    /// A builder.
    pub fn new() -> TreeBuilder {
        TreeBuilder::default()
    }

    /// The game being built: made at `begin_movetext`, so the fallback
    /// (events without one, from a hand-driven builder) is kept out of line.
    #[inline]
    fn game(&mut self) -> &mut Game {
        self.game.get_or_insert_with(empty_game)
    }

    fn current(&self) -> NodeId {
        self.lines.last().copied().unwrap_or(NodeId::ROOT)
    }
}

#[cold]
#[inline(never)]
fn empty_game() -> Game {
    Game::new()
}

impl Visitor for TreeBuilder {
    type Output = Game;

    fn begin_game(&mut self, game: GameStart<'_>) {
        (self.encoding, self.text) = GameText::new(game.bytes);
        // Real movetext spends 6 to 25 bytes a move: reserve for the dense end.
        self.capacity = (game.bytes.len() / 8).min(1 << 12);
        self.game_len = game.bytes.len();
        self.tags = Tags::new();
        self.game = None;
        self.lines.clear();
        self.lines.push(NodeId::ROOT);
        self.pending_before.clear();
    }

    fn tag(&mut self, name: &[u8], value: &[u8]) {
        if self.tags.is_empty() {
            // Reserved once, so the tag buffers do not grow pair by pair;
            // bounded by the game's size, so a tiny game stays tiny.
            let len = self.game_len;
            self.tags
                .reserve(TAG_PAIRS.min(len / 6), TAG_BYTES.min(len));
        }
        match (self.text.str_of(name), self.text.str_of(value)) {
            (Some(name), Some(value)) => self.tags.insert_new(name, value),
            _ => self.tags.insert_decoded(name, value, self.encoding),
        };
    }

    fn begin_movetext(&mut self, start: &Position) {
        self.game = Some(Game {
            tags: std::mem::take(&mut self.tags),
            start: start.clone(),
            tree: MoveTree::with_capacity(self.capacity),
            termination: Termination::Unknown,
            encoding: self.encoding,
        });
    }

    fn comment_before(&mut self, comment: RawComment<'_>) {
        let comment = self.text.comment(comment, self.encoding);
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
        let game = self.game.get_or_insert_with(empty_game);
        let Some(id) = game.tree.push_child(parent, played) else {
            self.pending_before.clear();
            return;
        };
        if !self.pending_before.is_empty()
            && let Some(node) = game.tree.get_mut(id)
        {
            *node.comments_before_mut() = std::mem::take(&mut self.pending_before);
        }
        if let Some(top) = self.lines.last_mut() {
            *top = id;
        }
    }

    fn nag(&mut self, nag: Nag) {
        let current = self.current();
        if let Some(node) = self.game().tree.get_mut(current) {
            node.push_nag(nag);
        }
    }

    fn comment(&mut self, comment: RawComment<'_>) {
        let comment = self.text.comment(comment, self.encoding);
        let current = self.current();
        if let Some(node) = self.game().tree.get_mut(current) {
            node.push_comment(comment);
        }
    }

    fn trailing_comment(&mut self, comment: RawComment<'_>) {
        let comment = self.text.comment(comment, self.encoding);
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
        let game = self.game();
        game.termination = termination;
        // The Result tag and the marker are one value (`Game::termination`):
        // where they disagree the marker wins (SPEC-NOTES), so the tag is
        // made to say the same. Tags that hold no marker stay as read.
        if game
            .tags
            .get("Result")
            .and_then(|v| Termination::from_exact(v.as_bytes()))
            .is_some_and(|tag| tag != termination)
        {
            game.tags.set("Result", termination.as_str());
        }
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
        self.text = GameText::default();
        game
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::CommentKind;

    fn start(bytes: &[u8]) -> GameStart<'_> {
        GameStart {
            bytes,
            offset: 0,
            line: 1,
            column: 1,
        }
    }

    #[test]
    fn pieces_of_the_game_are_found_in_its_text() {
        let bytes = b"[A \"b\"] { c\xc3\xa9 } 1. e4 *";
        let (encoding, text) = GameText::new(bytes);
        assert_eq!(encoding, Encoding::Utf8);
        assert_eq!(text.range_of(&bytes[3..5]), Some(3..5));
        assert_eq!(text.str_of(&bytes[10..13]), Some("cé"));
        // Inside the game but not on a character boundary.
        assert_eq!(text.str_of(&bytes[10..12]), None);
        // Equal bytes elsewhere are not a piece of the game.
        assert_eq!(text.range_of(b"\"b"), None);
        let (encoding, text) = GameText::new(b"{ \xe9 }");
        assert_eq!(encoding, Encoding::Latin1);
        assert_eq!(text.range_of(b"x"), None);
    }

    #[test]
    fn comments_and_tags_are_read_as_written() {
        let mut bytes = b"[White \"R\xc3\xa9ti\"] { one } ; two\n".to_vec();
        let mut builder = TreeBuilder::new();
        builder.begin_game(start(&bytes));
        builder.tag(&bytes[1..6], &bytes[8..13]);
        builder.tag(b"Black", b"escaped \"here\"");
        builder.begin_movetext(&Position::new());
        let brace = RawComment {
            text: &bytes[17..22],
            kind: CommentKind::Brace,
        };
        builder.comment_before(brace);
        let line = RawComment {
            text: &bytes[25..29],
            kind: CommentKind::Line,
        };
        builder.comment_before(line);
        // The caller may change its bytes between events: a slice at the
        // game's address is read for what it holds now.
        bytes[17..22].copy_from_slice(b" ONE ");
        builder.trailing_comment(RawComment {
            text: &bytes[17..22],
            kind: CommentKind::Brace,
        });
        let game = builder.end_game();
        let tags: Vec<_> = game.tags().iter().collect();
        assert_eq!(tags, [("White", "Réti"), ("Black", "escaped \"here\"")]);
        let root = game.node(NodeId::ROOT).unwrap();
        let comments: Vec<_> = root.comments().cloned().collect();
        assert_eq!(
            comments,
            [
                Comment::brace(" one "),
                Comment::line(" two"),
                Comment::brace(" ONE ")
            ]
        );
    }

    #[test]
    fn latin1_games_decode_their_comments() {
        let bytes = b"{ caf\xe9 } *";
        let mut builder = TreeBuilder::new();
        builder.begin_game(start(bytes));
        builder.begin_movetext(&Position::new());
        builder.comment_before(RawComment {
            text: &bytes[1..7],
            kind: CommentKind::Brace,
        });
        let game = builder.end_game();
        assert_eq!(game.encoding(), Encoding::Latin1);
        let root = game.node(NodeId::ROOT).unwrap();
        assert_eq!(root.comments().next().map(Comment::text), Some(" café "));
    }
}
