//! The game writer: a [`Game`]'s tag section and its move tree walked in
//! export order (SPEC-NOTES "Writing", rules 4-8) into the line layout.
//!
//! The walk uses an explicit stack of open lines, so variations nested any
//! depth cannot overflow the call stack.

use std::io;

use pgnkit_chess::{Color, Position};
use pgnkit_game::{Annotation, Comment, Game, Node, NodeId};

use crate::layout::Layout;
use crate::notation::MoveWriter;
use crate::options::ExportOptions;
use crate::tags::{TagFilter, TagSection};

/// A reusable game writer: keeps its buffers between games, so writing many
/// games allocates (almost) nothing per game.
///
/// ```
/// use pgnkit_export::{ExportOptions, GameWriter};
/// use pgnkit_game::{Game, NodeId};
/// let mut game = Game::new();
/// let e4 = game.add_san(NodeId::ROOT, "e4").unwrap();
/// game.add_san(e4, "e5").unwrap();
/// let mut writer = GameWriter::new(ExportOptions::export());
/// let mut out = Vec::new();
/// writer.write(&game, &mut out).unwrap();
/// assert!(String::from_utf8(out).unwrap().ends_with("\n\n1. e4 e5 *\n\n"));
/// ```
#[derive(Debug)]
pub struct GameWriter {
    options: ExportOptions,
    layout: Layout,
    tags: TagSection,
    moves: MoveWriter,
    stack: Vec<Frame>,
    /// Offset in the last game's text of its movetext's first byte.
    movetext_at: usize,
}

/// One open line of the walk.
#[derive(Debug, Clone, Copy)]
struct Frame {
    /// The node last written on this line.
    cur: NodeId,
    /// The node whose variations (children after the first) are the
    /// alternatives to `cur` still to write, if any.
    alternatives: Option<NodeId>,
    /// The next alternative's index among that node's children.
    next_alternative: usize,
    /// Half-moves from the game start to `cur`'s move, counting from 0.
    ply: u64,
    /// Whether a black move written next needs its number.
    need_number: bool,
}

/// Move numbering from a starting position.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Numbering {
    /// Half-moves before the first move, counted from move 1 White.
    base: u64,
}

impl Numbering {
    /// The numbering of the moves played from `start`.
    pub(crate) fn new(start: &Position) -> Numbering {
        Numbering::from_parts(u64::from(start.fullmoves()), start.turn())
    }

    /// The numbering from a fullmove number (0 counts as 1) and side to move.
    pub(crate) fn from_parts(fullmoves: u64, turn: Color) -> Numbering {
        let black = u64::from(turn == Color::Black);
        Numbering {
            base: (fullmoves.max(1) - 1).saturating_mul(2) + black,
        }
    }

    /// The move number of the move at `ply` (0 for the first move) and
    /// whether Black plays it.
    pub(crate) fn at(self, ply: u64) -> (u32, bool) {
        let half = self.base.saturating_add(ply);
        (
            u32::try_from(half / 2 + 1).unwrap_or(u32::MAX),
            half % 2 == 1,
        )
    }
}

impl GameWriter {
    /// A writer with `options`.
    pub fn new(options: ExportOptions) -> GameWriter {
        GameWriter {
            layout: Layout::new(options.width),
            options,
            tags: TagSection::default(),
            moves: MoveWriter::default(),
            stack: Vec::new(),
            movetext_at: 0,
        }
    }

    /// The options in use.
    pub fn options(&self) -> &ExportOptions {
        &self.options
    }

    /// Writes `game` in export format, ending with its empty line.
    pub fn write(&mut self, game: &Game, out: &mut impl io::Write) -> io::Result<()> {
        self.layout.clear();
        self.render(game);
        out.write_all(self.layout.output())
    }

    /// Writes `game` into an internal buffer and returns it.
    pub(crate) fn render(&mut self, game: &Game) -> &[u8] {
        self.layout.set_width(self.options.width);
        self.layout.set_comment_lines(self.options.comment_lines);
        self.layout
            .set_nested_comments(self.options.nested_comments);
        self.moves.set_checks(self.options.checks);
        if self.options.tags {
            self.write_tags(game);
        }
        self.movetext_at = self.layout.output().len();
        self.write_movetext(game);
        self.layout.output()
    }

    /// The movetext of the last game written: its text after the tag
    /// section and its empty line, ending with the game's empty line.
    ///
    /// ```
    /// use pgnkit_export::{ExportOptions, GameWriter};
    /// use pgnkit_game::Game;
    ///
    /// let game: Game = "[White \"A\"]\n\n1. e4 e5 1-0".parse().unwrap();
    /// let mut writer = GameWriter::new(ExportOptions::export());
    /// writer.write(&game, &mut std::io::sink()).unwrap();
    /// assert_eq!(writer.movetext(), b"1. e4 e5 1-0\n\n");
    /// ```
    pub fn movetext(&self) -> &[u8] {
        let text = self.layout.output();
        text.get(self.movetext_at..).unwrap_or_default()
    }

    fn write_tags(&mut self, game: &Game) {
        self.tags.clear();
        for (name, value) in game.tags().iter() {
            self.tags.push(name.as_bytes(), value.as_bytes());
        }
        let start = game.start_position();
        let needs_fen = *start != Position::new();
        let write_fen = needs_fen || (!self.options.reduced_tags && game.tags().contains("FEN"));
        if write_fen {
            let fen = start.fen(self.options.fen);
            self.tags.set_fen(Some(fen.as_bytes()));
        }
        let filter = if self.options.reduced_tags {
            TagFilter::Reduced {
                variant: game.is_chess960(),
            }
        } else {
            TagFilter::All
        };
        let result = game.termination().as_str().as_bytes();
        match &self.options.tag_order {
            Some(order) => {
                let variant = game.is_chess960();
                self.tags
                    .write_ordered(self.layout.raw(), result, filter, order, variant)
            }
            None => self.tags.write(self.layout.raw(), result, filter),
        };
    }

    /// Writes comments if enabled; returns whether any was written.
    fn comments<'a>(&mut self, comments: impl IntoIterator<Item = &'a Comment>) -> bool {
        let mut written = false;
        if self.options.comments {
            for comment in comments {
                written |= self.layout.comment(comment.text().as_bytes());
            }
        }
        written
    }

    /// Writes one move with what stands before it and its annotations;
    /// returns whether a black move after it needs its number.
    fn write_move(
        &mut self,
        node: &Node,
        numbering: Numbering,
        ply: u64,
        need_number: bool,
    ) -> bool {
        let Some(played) = node.played() else {
            return need_number;
        };
        let need_number = self.comments(node.comments_before()) || need_number;
        let (number, black) = numbering.at(ply);
        if (!black || need_number) && self.options.move_numbers {
            self.layout.move_number(number, black);
        }
        self.layout
            .mov(self.moves.write(played, self.options.notation));
        let mut need_number = false;
        for annotation in node.annotations() {
            match annotation {
                Annotation::Nag(nag) if self.options.nags => {
                    self.layout.nag(nag.0);
                    need_number = true;
                }
                Annotation::Comment(comment) if self.options.comments => {
                    need_number |= self.layout.comment(comment.text().as_bytes());
                }
                _ => {}
            }
        }
        need_number
    }

    fn write_movetext(&mut self, game: &Game) {
        let tree = game.tree();
        let numbering = Numbering::new(game.start_position());
        self.moves.set_game(game);
        self.stack.clear();
        if let Some(root) = tree.get(NodeId::ROOT) {
            self.comments(root.comments_before());
            self.comments(root.annotations().iter().filter_map(|a| match a {
                Annotation::Comment(c) => Some(c),
                Annotation::Nag(_) => None,
            }));
            if let Some(first) = root
                .main_child()
                .and_then(|id| tree.get(id).map(|n| (id, n)))
            {
                let need_number = self.write_move(first.1, numbering, 0, true);
                self.stack.push(Frame {
                    cur: first.0,
                    alternatives: Some(NodeId::ROOT),
                    next_alternative: 1,
                    ply: 0,
                    need_number,
                });
            } else {
                self.comments(root.trailing_comments());
            }
        }
        while let Some(top) = self.stack.last_mut() {
            let mut top = *top;
            // The alternatives to the move just written, each in parentheses.
            if self.options.variations
                && let Some(parent) = top.alternatives.and_then(|p| tree.get(p))
                && let Some((id, node)) = parent
                    .children()
                    .get(top.next_alternative)
                    .and_then(|&id| tree.get(id).map(|n| (id, n)))
            {
                top.next_alternative += 1;
                top.need_number = true;
                self.update_top(top);
                self.layout.open_variation();
                let need_number = self.write_move(node, numbering, top.ply, true);
                self.stack.push(Frame {
                    cur: id,
                    alternatives: None,
                    next_alternative: 0,
                    ply: top.ply,
                    need_number,
                });
                continue;
            }
            let Some(cur) = tree.get(top.cur) else {
                self.end_line();
                continue;
            };
            match cur
                .main_child()
                .and_then(|id| tree.get(id).map(|n| (id, n)))
            {
                Some((id, node)) => {
                    let ply = top.ply + 1;
                    let need_number = self.write_move(node, numbering, ply, top.need_number);
                    self.update_top(Frame {
                        cur: id,
                        alternatives: Some(top.cur),
                        next_alternative: 1,
                        ply,
                        need_number,
                    });
                }
                None => {
                    self.comments(cur.trailing_comments());
                    self.end_line();
                }
            }
        }
        if self.options.results {
            self.layout.marker(game.termination().as_str());
        }
        self.layout.finish();
        self.layout.raw().push(b'\n');
    }

    fn update_top(&mut self, frame: Frame) {
        if let Some(top) = self.stack.last_mut() {
            *top = frame;
        }
    }

    /// Closes the innermost open line (with `)` for a variation).
    fn end_line(&mut self) {
        self.stack.pop();
        if !self.stack.is_empty() {
            self.layout.close_variation();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pgnkit_game::Nag;

    fn movetext(game: &Game, options: ExportOptions) -> String {
        let mut out = Vec::new();
        GameWriter::new(options).write(game, &mut out).expect("Vec");
        let text = String::from_utf8(out).expect("UTF-8");
        let body = text.find("\n\n").map_or(0, |i| i + 2);
        text[body..].to_string()
    }

    /// `1. e4 e5 2. Nf3` with the ids of the moves.
    fn opening() -> (Game, [NodeId; 3]) {
        let mut game = Game::new();
        let e4 = game.add_san(NodeId::ROOT, "e4").expect("legal");
        let e5 = game.add_san(e4, "e5").expect("legal");
        let nf3 = game.add_san(e5, "Nf3").expect("legal");
        (game, [e4, e5, nf3])
    }

    #[test]
    fn comments_before_a_move_come_first_and_number_black() {
        let (mut game, [_, e5, _]) = opening();
        let node = game.node_mut(e5).expect("node");
        node.comments_before_mut().push(Comment::brace("before"));
        assert_eq!(
            movetext(&game, ExportOptions::export()),
            "1. e4 { before } 1... e5 2. Nf3 *\n\n"
        );
    }

    #[test]
    fn empty_comments_are_not_written_and_number_nothing() {
        let (mut game, [e4, _, _]) = opening();
        let node = game.node_mut(e4).expect("node");
        node.push_comment(Comment::brace(" \n "));
        node.push_comment(Comment::line(""));
        assert_eq!(
            movetext(&game, ExportOptions::export()),
            "1. e4 e5 2. Nf3 *\n\n"
        );
    }

    #[test]
    fn trailing_comments_end_the_line() {
        let (mut game, [_, _, nf3]) = opening();
        let node = game.node_mut(nf3).expect("node");
        node.trailing_comments_mut().push(Comment::brace("the end"));
        node.push_comment(Comment::line("a } brace"));
        assert_eq!(
            movetext(&game, ExportOptions::export()),
            "1. e4 e5 2. Nf3 ; a } brace\n{ the end } *\n\n"
        );
    }

    #[test]
    fn nags_in_read_order_with_comments_and_switched_off() {
        let (mut game, [e4, _, _]) = opening();
        let node = game.node_mut(e4).expect("node");
        node.push_nag(Nag(3));
        node.push_comment(Comment::brace("wow"));
        node.push_nag(Nag(18));
        assert_eq!(
            movetext(&game, ExportOptions::export()),
            "1. e4 $3 { wow } $18 1... e5 2. Nf3 *\n\n"
        );
        let plain = ExportOptions {
            nags: false,
            comments: false,
            ..ExportOptions::export()
        };
        assert_eq!(movetext(&game, plain), "1. e4 e5 2. Nf3 *\n\n");
    }

    #[test]
    fn game_without_moves_is_its_comments_and_marker() {
        let mut game = Game::new();
        if let Some(root) = game.node_mut(NodeId::ROOT) {
            root.push_comment(Comment::brace("no moves"));
        }
        assert_eq!(
            movetext(&game, ExportOptions::export()),
            "{ no moves } *\n\n"
        );
        assert_eq!(movetext(&Game::new(), ExportOptions::export()), "*\n\n");
    }

    #[test]
    fn fen_is_written_for_a_non_standard_start_even_without_a_tag() {
        let start = Position::from_fen("4k3/8/8/8/8/8/8/4K3 b - - 0 12").expect("valid FEN");
        let mut game = Game::from_position(start);
        game.add_san(NodeId::ROOT, "Kd7").expect("legal");
        // `from_position` gives the game its FEN and SetUp tags ...
        let text = crate::to_string(&game, &ExportOptions::export());
        assert!(text.contains("[SetUp \"1\"]\n\n12... Kd7 *"), "{text}");
        // ... and without them the FEN is still written.
        game.tags_mut().remove("FEN");
        game.tags_mut().remove("SetUp");
        let text = crate::to_string(&game, &ExportOptions::export());
        assert!(
            text.contains("[FEN \"4k3/8/8/8/8/8/8/4K3 b - - 0 12\"]\n\n12... Kd7 *"),
            "{text}"
        );
        assert!(!text.contains("SetUp"));
        let text = crate::to_string(&game, &ExportOptions::reduced());
        assert!(text.contains("[FEN "), "{text}");
        // A standard start writes no FEN in reduced form, even with a tag.
        let (mut game, _) = opening();
        game.tags_mut().set(
            "FEN",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        );
        assert!(crate::to_string(&game, &ExportOptions::export()).contains("[FEN "));
        assert!(!crate::to_string(&game, &ExportOptions::reduced()).contains("[FEN "));
    }

    #[test]
    fn fen_options_choose_en_passant_and_castling_notation() {
        use pgnkit_chess::FenOptions;
        let start = Position::from_fen("rk2r3/8/8/8/8/8/8/RK2R3 w KQkq - 0 1").expect("valid FEN");
        let game = Game::from_position(start);
        assert!(game.is_chess960());
        let x_fen = crate::to_string(&game, &ExportOptions::export());
        assert!(
            x_fen.contains("[FEN \"rk2r3/8/8/8/8/8/8/RK2R3 w KQkq - 0 1\"]"),
            "{x_fen}"
        );
        let shredder = ExportOptions {
            fen: FenOptions::new().shredder(),
            ..ExportOptions::export()
        };
        let text = crate::to_string(&game, &shredder);
        assert!(
            text.contains("[FEN \"rk2r3/8/8/8/8/8/8/RK2R3 w EAea - 0 1\"]"),
            "{text}"
        );

        let start = Position::from_fen("4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1").expect("valid FEN");
        let game = Game::from_position(start);
        let modern = crate::to_string(&game, &ExportOptions::export());
        assert!(
            modern.contains("[FEN \"4k3/8/8/8/4P3/8/8/4K3 b - - 0 1\"]"),
            "{modern}"
        );
        let old = ExportOptions {
            fen: FenOptions::new().en_passant_1994(),
            ..ExportOptions::export()
        };
        let text = crate::to_string(&game, &old);
        assert!(
            text.contains("[FEN \"4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1\"]"),
            "{text}"
        );
    }

    #[test]
    fn fen_tag_is_normalised() {
        use pgnkit_game::read_games;
        for (fen, written) in [
            ("4k3/8/8/8/8/8/8/4K3 w - -", "4k3/8/8/8/8/8/8/4K3 w - - 0 1"),
            (
                "4k3/8/8/8/8/8/8/4K3 w - - 3 0",
                "4k3/8/8/8/8/8/8/4K3 w - - 3 1",
            ),
            // Rights the position cannot have are removed.
            (
                "4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1",
                "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
            ),
        ] {
            let pgn = format!("[SetUp \"1\"]\n[FEN \"{fen}\"]\n\n*\n");
            let read = read_games(pgn.as_bytes()).next().expect("one game");
            let text = crate::to_string(&read.value, &ExportOptions::export());
            assert!(
                text.contains(&format!("[FEN \"{written}\"]\n[SetUp \"1\"]\n\n*\n\n")),
                "{fen}: {text}"
            );
        }
    }

    #[test]
    fn deep_nesting_does_not_overflow_the_stack() {
        use pgnkit_chess::{San, SanPlus};
        use pgnkit_game::PlayedMove;
        // Each move has one alternative, and the line goes on from the
        // alternative: 20,000 variations, each inside the one before.
        let mut game = Game::new();
        let mut pos = Position::new();
        let mut parent = NodeId::ROOT;
        let depth = 20_000;
        for i in 0..depth {
            let [main, alt] = [
                ["Nf3", "Nc3"],
                ["Nf6", "Nc6"],
                ["Nf3", "Nb1"],
                ["Nf6", "Nb8"],
            ][i % 4];
            let mut child = NodeId::ROOT;
            for san in [main, alt] {
                let mv = San::parse(san.as_bytes())
                    .expect("SAN")
                    .to_move(&pos)
                    .expect("legal");
                let played = PlayedMove {
                    mv,
                    san: SanPlus::from_move(&pos, mv),
                };
                child = game.tree_mut().push_child(parent, played).expect("parent");
            }
            pos.play_unchecked(
                San::parse(alt.as_bytes())
                    .expect("SAN")
                    .to_move(&pos)
                    .expect("legal"),
            );
            parent = child;
        }
        let text = crate::to_string(&game, &ExportOptions::export());
        // The last move and its 20,000 `)` are one unit, alone on its line.
        assert!(text.ends_with(&format!("\nNb8{}\n*\n\n", ")".repeat(depth))));
        assert_eq!(text.matches('(').count(), depth);
        assert!(text.contains("\n\n1. Nf3 (1. Nc3 Nf6 (1... Nc6 2. Nf3 (2. Nb1 Nf6 (2... Nb8"));
    }

    #[test]
    fn numbering() {
        let n = Numbering::from_parts(1, Color::White);
        assert_eq!(n.at(0), (1, false));
        assert_eq!(n.at(1), (1, true));
        assert_eq!(n.at(2), (2, false));
        let n = Numbering::from_parts(7, Color::Black);
        assert_eq!(n.at(0), (7, true));
        assert_eq!(n.at(1), (8, false));
        let n = Numbering::from_parts(0, Color::White);
        assert_eq!(n.at(0), (1, false));
        let n = Numbering::from_parts(u64::from(u32::MAX), Color::Black);
        assert_eq!(n.at(5).0, u32::MAX);
    }
}
