//! The JSON shape of a [`Game`] (serde `Serialize`/`Deserialize`).
//!
//! ```json
//! {
//!   "tags": [["Event", "Casual"], ["White", "A"], ["Result", "1-0"]],
//!   "fen": "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
//!   "chess960": true,
//!   "encoding": "latin-1",
//!   "comments": ["before the first move"],
//!   "moves": [
//!     { "san": "e5", "uci": "e7e5",
//!       "before": ["stands before e5"],
//!       "nags": [1],
//!       "comments": ["after e5", { "line": "a ; comment" }],
//!       "order": "cnc",
//!       "variations": [[ { "san": "c5", "uci": "c7c5" } ]],
//!       "after": ["after e5's variations, nothing follows"] }
//!   ],
//!   "result": "1-0"
//! }
//! ```
//!
//! - `tags`: the tag pairs in the order read, as `[name, value]`.
//! - `fen`: the starting position, only when it is not the standard start;
//!   `chess960`: only when the game is Chess960; `encoding`: only when the
//!   game was read as Latin-1 (the JSON itself is always UTF-8).
//! - `comments`: the comments before the first move (the root's).
//! - `moves`: the main line. Each move has its canonical `san` and its
//!   `uci` (Chess960 castling as king takes rook), and when not empty:
//!   `before` (comments standing before it), `nags` (numbers), `comments`
//!   (after it), `order` (only when NAGs and comments are interleaved: one
//!   letter per annotation, `n` or `c`, in the order read), `variations`
//!   (alternatives to this move, each a list of moves like `moves`), and
//!   `after` (comments after its variations when no move follows).
//! - A comment is a string for a `{}` comment, `{"line": text}` for a `;`
//!   comment. Texts are exactly as read.
//! - `result`: the termination marker.
//!
//! Deserialising replays every move from the start (`san` is read with
//! the reader's lenient rules; `uci`, when given, must name the same move)
//! and fails on the first illegal one, so JSON → `Game` → JSON gives the
//! same JSON. Diagnostics are not part of the shape.
//!
//! Depth: [`Game::to_json`] writes any tree, however deep, without
//! recursion. Reading JSON back is bounded by serde_json's nesting limit
//! (128 levels: about 40 levels of variations), and the serde `Serialize`
//! impl refuses trees nested deeper than [`SERDE_MAX_DEPTH`] variations
//! (with an error, not a stack overflow); real games nest a handful.

use pgnkit_chess::{CastlingMode, LenientSan, Position, San, SanPlus, Setup, Uci};
use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use smallvec::SmallVec;

use crate::comment::{Comment, CommentKind};
use crate::encoding::Encoding;
use crate::error::JsonError;
use crate::game::Game;
use crate::tree::{Annotation, MoveTree, NodeId, PlayedMove};
use crate::{Nag, Tags};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct JsonGame {
    #[serde(default)]
    tags: Vec<(String, String)>,
    #[serde(default)]
    fen: Option<String>,
    #[serde(default)]
    chess960: bool,
    #[serde(default)]
    encoding: Option<String>,
    #[serde(default)]
    comments: Vec<JsonComment>,
    #[serde(default)]
    moves: Vec<JsonMove>,
    result: String,
    /// Written for broken games only (`to_json_with_diagnostics`); ignored.
    #[serde(default)]
    #[allow(dead_code)]
    diagnostics: Option<serde::de::IgnoredAny>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct JsonMove {
    san: String,
    #[serde(default)]
    uci: Option<String>,
    #[serde(default)]
    before: Vec<JsonComment>,
    #[serde(default)]
    nags: Vec<u8>,
    #[serde(default)]
    comments: Vec<JsonComment>,
    #[serde(default)]
    order: Option<String>,
    #[serde(default)]
    variations: Vec<Vec<JsonMove>>,
    #[serde(default)]
    after: Vec<JsonComment>,
}

/// A comment in JSON: a string (`{}` comment) or `{"line": text}`.
enum JsonComment {
    Brace(String),
    Line { line: String },
}

impl<'de> Deserialize<'de> for JsonComment {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<JsonComment, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = JsonComment;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(r#"a comment: a string or {"line": string}"#)
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<JsonComment, E> {
                Ok(JsonComment::Brace(v.to_owned()))
            }
            fn visit_string<E: serde::de::Error>(self, v: String) -> Result<JsonComment, E> {
                Ok(JsonComment::Brace(v))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<JsonComment, A::Error> {
                let mut line = None;
                while let Some(key) = map.next_key::<String>()? {
                    if key != "line" || line.is_some() {
                        return Err(serde::de::Error::custom(format!(
                            "unexpected key {key:?} in a comment"
                        )));
                    }
                    line = Some(map.next_value::<String>()?);
                }
                line.map(|line| JsonComment::Line { line })
                    .ok_or_else(|| serde::de::Error::missing_field("line"))
            }
        }
        deserializer.deserialize_any(V)
    }
}

/// Serialises a comment without copying its text.
struct CommentRef<'a>(&'a Comment);

impl Serialize for CommentRef<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.0.kind() {
            CommentKind::Brace => serializer.serialize_str(self.0.text()),
            CommentKind::Line => {
                let mut map = serializer.serialize_map(Some(1))?;
                map.serialize_entry("line", self.0.text())?;
                map.end()
            }
        }
    }
}

/// A list of comments.
struct CommentsRef<I>(I);

impl<'a, I> Serialize for CommentsRef<I>
where
    I: Clone + Iterator<Item = &'a Comment>,
{
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.clone().map(CommentRef))
    }
}

impl From<JsonComment> for Comment {
    fn from(c: JsonComment) -> Comment {
        match c {
            JsonComment::Brace(text) => Comment::brace(text),
            JsonComment::Line { line } => Comment::line(line),
        }
    }
}

/// A fixed buffer for short ASCII texts (SAN, UCI), so serialising a move
/// allocates nothing.
struct Short {
    buf: [u8; 16],
    len: usize,
}

impl Short {
    fn new() -> Short {
        Short {
            buf: [0; 16],
            len: 0,
        }
    }

    fn as_str(&self) -> &str {
        std::str::from_utf8(self.buf.get(..self.len).unwrap_or_default()).unwrap_or_default()
    }
}

impl std::fmt::Write for Short {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        let end = self.len + s.len();
        let dest = self.buf.get_mut(self.len..end).ok_or(std::fmt::Error)?;
        dest.copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

/// The game, serialised in place.
struct GameRef<'a>(&'a Game);

impl Serialize for GameRef<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let game = self.0;
        let mode = game.start.castling_mode();
        let tree = &game.tree;
        let root = &tree[NodeId::ROOT];
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("tags", &TagsRef(&game.tags))?;
        if game.start != Position::new() {
            map.serialize_entry("fen", &game.start.to_string())?;
        }
        if mode == CastlingMode::Chess960 {
            map.serialize_entry("chess960", &true)?;
        }
        if game.encoding == Encoding::Latin1 {
            map.serialize_entry("encoding", "latin-1")?;
        }
        if root.comments().next().is_some() {
            map.serialize_entry("comments", &CommentsRef(root.comments()))?;
        }
        map.serialize_entry(
            "moves",
            &LineRef {
                tree,
                first: root.main_child(),
                mode,
                depth: 0,
            },
        )?;
        map.serialize_entry("result", game.termination.as_str())?;
        map.end()
    }
}

struct TagsRef<'a>(&'a Tags);

impl Serialize for TagsRef<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter())
    }
}

/// The line starting at `first`: `first`, its main continuation, and so on;
/// each move carries the alternatives to it (its later siblings).
struct LineRef<'a> {
    tree: &'a MoveTree,
    first: Option<NodeId>,
    mode: CastlingMode,
    depth: usize,
}

/// How deep variations may nest for the serde `Serialize` impl of
/// [`Game`] (which recurses); [`Game::to_json`] has no such limit.
pub const SERDE_MAX_DEPTH: usize = 100;

impl Serialize for LineRef<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if self.depth > SERDE_MAX_DEPTH {
            return Err(serde::ser::Error::custom(format!(
                "variations nested deeper than {SERDE_MAX_DEPTH}: use Game::to_json"
            )));
        }
        let mut seq = serializer.serialize_seq(None)?;
        let mut cur = self.first;
        while let Some(id) = cur {
            let Some(node) = self.tree.get(id) else { break };
            if node.played().is_none() {
                break;
            }
            seq.serialize_element(&MoveRef {
                tree: self.tree,
                id,
                mode: self.mode,
                depth: self.depth,
            })?;
            cur = node.main_child();
        }
        seq.end()
    }
}

struct MoveRef<'a> {
    tree: &'a MoveTree,
    id: NodeId,
    mode: CastlingMode,
    depth: usize,
}

impl Serialize for MoveRef<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use std::fmt::Write as _;
        let tree = self.tree;
        let node = &tree[self.id];
        let mut map = serializer.serialize_map(None)?;
        if let Some(played) = node.played() {
            let mut san = Short::new();
            let _ = write!(san, "{}", played.san);
            map.serialize_entry("san", san.as_str())?;
            let mut uci = Short::new();
            let _ = write!(uci, "{}", Uci::from_move(played.mv, self.mode));
            map.serialize_entry("uci", uci.as_str())?;
        }
        if !node.comments_before().is_empty() {
            map.serialize_entry("before", &CommentsRef(node.comments_before().iter()))?;
        }
        let (mut nags, mut comments, mut interleaved) = (0usize, 0usize, false);
        for a in node.annotations() {
            match a {
                Annotation::Nag(_) => {
                    nags += 1;
                    interleaved |= comments > 0;
                }
                Annotation::Comment(_) => comments += 1,
            }
        }
        if nags > 0 {
            let list: SmallVec<[u8; 4]> = node.nags().map(|n| n.0).collect();
            map.serialize_entry("nags", list.as_slice())?;
        }
        if comments > 0 {
            map.serialize_entry("comments", &CommentsRef(node.comments()))?;
        }
        if interleaved {
            let order: String = node
                .annotations()
                .iter()
                .map(|a| match a {
                    Annotation::Nag(_) => 'n',
                    Annotation::Comment(_) => 'c',
                })
                .collect();
            map.serialize_entry("order", &order)?;
        }
        // Only the main child of its parent carries the alternatives.
        let siblings = node
            .parent()
            .and_then(|p| tree.get(p))
            .map(|p| p.children())
            .unwrap_or(&[]);
        if siblings.first() == Some(&self.id) && siblings.len() > 1 {
            map.serialize_entry(
                "variations",
                &VariationsRef {
                    tree,
                    ids: &siblings[1..],
                    mode: self.mode,
                    depth: self.depth + 1,
                },
            )?;
        }
        if !node.trailing_comments().is_empty() {
            map.serialize_entry("after", &CommentsRef(node.trailing_comments().iter()))?;
        }
        map.end()
    }
}

struct VariationsRef<'a> {
    tree: &'a MoveTree,
    ids: &'a [NodeId],
    mode: CastlingMode,
    depth: usize,
}

impl Serialize for VariationsRef<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.ids.iter().map(|&id| LineRef {
            tree: self.tree,
            first: Some(id),
            mode: self.mode,
            depth: self.depth,
        }))
    }
}

/// A JSON string (serde_json's escaping).
fn write_str(out: &mut Vec<u8>, text: &str) {
    // Writing a string into a Vec cannot fail.
    let _ = serde_json::to_writer(&mut *out, text);
}

fn write_comment(out: &mut Vec<u8>, comment: &Comment) {
    match comment.kind() {
        CommentKind::Brace => write_str(out, comment.text()),
        CommentKind::Line => {
            out.extend_from_slice(b"{\"line\":");
            write_str(out, comment.text());
            out.push(b'}');
        }
    }
}

fn write_comments<'a>(out: &mut Vec<u8>, key: &str, comments: impl Iterator<Item = &'a Comment>) {
    let mut first = true;
    for c in comments {
        if first {
            out.extend_from_slice(b",\"");
            out.extend_from_slice(key.as_bytes());
            out.extend_from_slice(b"\":[");
            first = false;
        } else {
            out.push(b',');
        }
        write_comment(out, c);
    }
    if !first {
        out.push(b']');
    }
}

fn write_game(out: &mut Vec<u8>, game: &Game) {
    use std::io::Write as _;
    let mode = game.start.castling_mode();
    let tree = &game.tree;
    out.extend_from_slice(b"{\"tags\":[");
    for (i, (name, value)) in game.tags.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.push(b'[');
        write_str(out, name);
        out.push(b',');
        write_str(out, value);
        out.push(b']');
    }
    out.push(b']');
    if game.start != Position::new() {
        out.extend_from_slice(b",\"fen\":");
        write_str(out, &game.start.to_string());
    }
    if mode == CastlingMode::Chess960 {
        out.extend_from_slice(b",\"chess960\":true");
    }
    if game.encoding == Encoding::Latin1 {
        out.extend_from_slice(b",\"encoding\":\"latin-1\"");
    }
    let root = &tree[NodeId::ROOT];
    write_comments(out, "comments", root.comments());
    out.extend_from_slice(b",\"moves\":");
    write_lines(out, tree, root.main_child(), mode);
    let _ = write!(out, ",\"result\":\"{}\"}}", game.termination.as_str());
}

/// What is left to write, innermost last.
enum Frame<'a> {
    /// The rest of a line, from `next`; `first` when nothing of it is
    /// written yet (after its `[`).
    Line { next: Option<NodeId>, first: bool },
    /// The variations (alternatives) of a move, from index `next`.
    Variations { ids: &'a [NodeId], next: usize },
    /// The end of move `id`'s object (after its variations), then the rest
    /// of its line from `cont`.
    EndMove { id: NodeId, cont: Option<NodeId> },
}

/// Writes the line starting at `first` as a JSON list, with an explicit
/// stack instead of recursion.
fn write_lines(out: &mut Vec<u8>, tree: &MoveTree, first: Option<NodeId>, mode: CastlingMode) {
    use std::fmt::Write as _;
    out.push(b'[');
    let mut stack = vec![Frame::Line {
        next: first,
        first: true,
    }];
    while let Some(frame) = stack.pop() {
        match frame {
            Frame::Line { next: None, .. } => out.push(b']'),
            Frame::Line {
                next: Some(id),
                first,
            } => {
                let Some(node) = tree.get(id) else {
                    out.push(b']');
                    continue;
                };
                let Some(played) = node.played() else {
                    out.push(b']');
                    continue;
                };
                if !first {
                    out.push(b',');
                }
                let mut san = Short::new();
                let _ = write!(san, "{}", played.san);
                out.extend_from_slice(b"{\"san\":");
                write_str(out, san.as_str());
                let mut uci = Short::new();
                let _ = write!(uci, "{}", Uci::from_move(played.mv, mode));
                out.extend_from_slice(b",\"uci\":");
                write_str(out, uci.as_str());
                write_comments(out, "before", node.comments_before().iter());
                let (mut nags, mut comments, mut interleaved) = (0usize, 0usize, false);
                for a in node.annotations() {
                    match a {
                        Annotation::Nag(_) => {
                            nags += 1;
                            interleaved |= comments > 0;
                        }
                        Annotation::Comment(_) => comments += 1,
                    }
                }
                if nags > 0 {
                    out.extend_from_slice(b",\"nags\":[");
                    for (i, n) in node.nags().enumerate() {
                        if i > 0 {
                            out.push(b',');
                        }
                        let _ = std::io::Write::write_fmt(out, format_args!("{}", n.0));
                    }
                    out.push(b']');
                }
                write_comments(out, "comments", node.comments());
                if interleaved {
                    out.extend_from_slice(b",\"order\":\"");
                    for a in node.annotations() {
                        out.push(match a {
                            Annotation::Nag(_) => b'n',
                            Annotation::Comment(_) => b'c',
                        });
                    }
                    out.push(b'"');
                }
                let siblings = node
                    .parent()
                    .and_then(|p| tree.get(p))
                    .map(|p| p.children())
                    .unwrap_or(&[]);
                stack.push(Frame::EndMove {
                    id,
                    cont: node.main_child(),
                });
                // Only the main child of its parent carries the alternatives.
                if siblings.first() == Some(&id) && siblings.len() > 1 {
                    out.extend_from_slice(b",\"variations\":[");
                    stack.push(Frame::Variations {
                        ids: &siblings[1..],
                        next: 0,
                    });
                }
            }
            Frame::Variations { ids, next } => match ids.get(next) {
                Some(&id) => {
                    if next > 0 {
                        out.push(b',');
                    }
                    out.push(b'[');
                    stack.push(Frame::Variations {
                        ids,
                        next: next + 1,
                    });
                    stack.push(Frame::Line {
                        next: Some(id),
                        first: true,
                    });
                }
                None => out.push(b']'),
            },
            Frame::EndMove { id, cont } => {
                if let Some(node) = tree.get(id) {
                    write_comments(out, "after", node.trailing_comments().iter());
                }
                out.push(b'}');
                stack.push(Frame::Line {
                    next: cont,
                    first: false,
                });
            }
        }
    }
}

fn from_json_game(json: JsonGame) -> Result<Game, JsonError> {
    let start = match &json.fen {
        None if !json.chess960 => Position::new(),
        None => Position::from_setup(Setup::default(), CastlingMode::Chess960).map_err(|e| {
            JsonError::Fen {
                fen: String::new(),
                message: e.to_string(),
            }
        })?,
        Some(fen) => {
            let fen_err = |message: String| JsonError::Fen {
                fen: fen.clone(),
                message,
            };
            let setup = Setup::parse(fen.as_bytes()).map_err(|e| fen_err(e.to_string()))?;
            let mode = if json.chess960 {
                CastlingMode::Chess960
            } else {
                CastlingMode::Standard
            };
            Position::from_setup(setup, mode).map_err(|e| fen_err(e.to_string()))?
        }
    };
    let mut game = Game::from_position(start.clone());
    game.tags = json.tags.into_iter().collect::<Tags>();
    game.encoding = match json.encoding.as_deref() {
        Some("latin-1") => Encoding::Latin1,
        _ => Encoding::Utf8,
    };
    game.termination = json.result.parse()?;
    let root = game
        .tree
        .get_mut(NodeId::ROOT)
        .ok_or(JsonError::Result(String::new()))?;
    for c in json.comments {
        root.push_comment(c.into());
    }
    add_line(&mut game.tree, NodeId::ROOT, &start, json.moves, 0)?;
    Ok(game)
}

fn add_line(
    tree: &mut MoveTree,
    parent: NodeId,
    start: &Position,
    moves: Vec<JsonMove>,
    ply: usize,
) -> Result<(), JsonError> {
    let mut parent = parent;
    let mut pos = start.clone();
    for (i, m) in moves.into_iter().enumerate() {
        let ply = ply + i + 1;
        let err = |message: &str, san: &str| JsonError::Move {
            san: san.to_owned(),
            ply,
            message: message.to_owned(),
        };
        // Canonical SAN first (what this module writes), then the lenient forms.
        let mv = match San::parse(m.san.as_bytes())
            .ok()
            .and_then(|s| s.to_move(&pos).ok())
        {
            Some(mv) => mv,
            None => {
                let san =
                    LenientSan::parse(m.san.as_bytes()).map_err(|e| err(&e.to_string(), &m.san))?;
                san.to_move(&pos)
                    .map_err(|e| err(&e.to_string(), &m.san))?
                    .0
            }
        };
        if let Some(uci) = &m.uci {
            let expected = Uci::from_move(mv, pos.castling_mode()).to_string();
            if *uci != expected {
                return Err(err(&format!("uci {uci} is not {expected}"), &m.san));
            }
        }
        let before_move = pos.clone();
        let san_plus = SanPlus::from_move_and_play_unchecked(&mut pos, mv);
        let id = tree
            .push_child(parent, PlayedMove { mv, san: san_plus })
            .ok_or_else(|| err("tree too large", &m.san))?;
        {
            let node = tree.get_mut(id).ok_or_else(|| err("tree", &m.san))?;
            if !m.before.is_empty() {
                node.comments_before_mut()
                    .extend(m.before.into_iter().map(Comment::from));
            }
            let mut nags = m.nags.into_iter();
            let mut cs = m.comments.into_iter();
            let order = m
                .order
                .unwrap_or_else(|| "n".repeat(nags.len()) + &"c".repeat(cs.len()));
            for letter in order.chars() {
                match letter {
                    'n' => match nags.next() {
                        Some(n) => node.push_nag(Nag(n)),
                        None => return Err(err("order names more NAGs than given", &m.san)),
                    },
                    'c' => match cs.next() {
                        Some(c) => node.push_comment(c.into()),
                        None => {
                            return Err(err("order names more comments than given", &m.san));
                        }
                    },
                    _ => return Err(err("order letters are n and c", &m.san)),
                }
            }
            if nags.next().is_some() || cs.next().is_some() {
                return Err(err("order names fewer annotations than given", &m.san));
            }
            if !m.after.is_empty() {
                node.trailing_comments_mut()
                    .extend(m.after.into_iter().map(Comment::from));
            }
        }
        for variation in m.variations {
            add_line(tree, parent, &before_move, variation, ply - 1)?;
        }
        parent = id;
    }
    Ok(())
}

impl Serialize for Game {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        GameRef(self).serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Game {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Game, D::Error> {
        let json = JsonGame::deserialize(deserializer)?;
        from_json_game(json).map_err(serde::de::Error::custom)
    }
}

impl Game {
    /// The game as JSON (the shape of the [`json`](crate::json) module),
    /// compact, keys in the documented order. Written without recursion, so
    /// any depth of variations is fine.
    pub fn to_json(&self) -> String {
        let mut out = Vec::with_capacity(256 + 64 * self.tree.capacity_used());
        write_game(&mut out, self);
        String::from_utf8(out).unwrap_or_default()
    }

    /// [`Game::to_json`] with a last key, `diagnostics`: one object per
    /// diagnostic (`line`, `column`, `severity`, `message`, and `move` for
    /// a move error), in order. For broken games kept on request (`pgnkit
    /// json --keep-broken`); reading JSON ignores the key.
    ///
    /// ```
    /// let read = pgnkit_game::read_game("1. e4 e5 2. Ke3 *").unwrap();
    /// let json = read.value.to_json_with_diagnostics(&read.diagnostics);
    /// assert!(json.ends_with(r#""diagnostics":[{"line":1,"column":13,"severity":"error","message":"illegal move","move":"Ke3"}]}"#), "{json}");
    /// let back = pgnkit_game::Game::from_json(&json).unwrap();
    /// assert_eq!(back, read.value);
    /// ```
    pub fn to_json_with_diagnostics(&self, diagnostics: &crate::Diagnostics) -> String {
        let mut json = self.to_json();
        if json.ends_with('}') {
            json.pop();
            json.push_str(r#","diagnostics":["#);
            for (i, d) in diagnostics.iter().enumerate() {
                if i > 0 {
                    json.push(',');
                }
                let severity = match d.severity {
                    crate::Severity::Error => "error",
                    crate::Severity::Warning => "warning",
                };
                let string = |text: &str| serde_json::to_string(text).unwrap_or_default();
                json.push_str(&format!(
                    r#"{{"line":{},"column":{},"severity":"{severity}","message":{}"#,
                    d.line,
                    d.column,
                    string(&d.message())
                ));
                if let Some(text) = &d.move_text {
                    json.push_str(&format!(r#","move":{}"#, string(text)));
                }
                json.push('}');
            }
            json.push_str("]}");
        }
        json
    }

    /// A game from JSON, replaying and validating every move.
    pub fn from_json(json: &str) -> Result<Game, JsonError> {
        let json: JsonGame = serde_json::from_str(json)?;
        from_json_game(json)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_with_everything() {
        let json = r#"{"tags":[["Event","x"],["Result","1-0"]],"comments":["start"],"moves":[{"san":"e4","uci":"e2e4","before":["b"],"nags":[1,3],"comments":["c",{"line":"l"}],"order":"ncnc","variations":[[{"san":"d4","uci":"d2d4"},{"san":"d5","uci":"d7d5","after":["t"]}]]},{"san":"e5","uci":"e7e5"}],"result":"1-0"}"#;
        let game = Game::from_json(json).unwrap();
        assert_eq!(game.to_json(), json);
        // serde's Serialize writes the same text.
        assert_eq!(serde_json::to_string(&game).unwrap(), json);
        assert_eq!(game.main_line().count(), 2);
    }

    #[test]
    fn rejects_illegal_and_mismatched_uci() {
        let bad = r#"{"moves":[{"san":"e5"}],"result":"*"}"#;
        assert!(matches!(
            Game::from_json(bad),
            Err(JsonError::Move { ply: 1, .. })
        ));
        let bad = r#"{"moves":[{"san":"e4","uci":"d2d4"}],"result":"*"}"#;
        assert!(Game::from_json(bad).is_err());
        let bad = r#"{"moves":[],"result":"2-0"}"#;
        assert!(matches!(Game::from_json(bad), Err(JsonError::Result(_))));
    }
}
