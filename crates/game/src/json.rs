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

use pgnkit_chess::{CastlingMode, LenientSan, Position, SanPlus, Setup, Uci};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::comment::{Comment, CommentKind};
use crate::error::JsonError;
use crate::game::{Encoding, Game};
use crate::tree::{Annotation, MoveTree, NodeId, PlayedMove};
use crate::{Nag, Tags};

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct JsonGame {
    #[serde(default)]
    tags: Vec<(String, String)>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    fen: Option<String>,
    #[serde(default, skip_serializing_if = "is_false")]
    chess960: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    encoding: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    comments: Vec<JsonComment>,
    #[serde(default)]
    moves: Vec<JsonMove>,
    result: String,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct JsonMove {
    san: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    uci: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    before: Vec<JsonComment>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    nags: Vec<u8>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    comments: Vec<JsonComment>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    order: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    variations: Vec<Vec<JsonMove>>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    after: Vec<JsonComment>,
}

#[derive(Serialize, Deserialize)]
#[serde(untagged)]
enum JsonComment {
    Brace(String),
    Line { line: String },
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl From<&Comment> for JsonComment {
    fn from(c: &Comment) -> JsonComment {
        match c.kind() {
            CommentKind::Brace => JsonComment::Brace(c.text().to_owned()),
            CommentKind::Line => JsonComment::Line {
                line: c.text().to_owned(),
            },
        }
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

fn comments(list: &[Comment]) -> Vec<JsonComment> {
    list.iter().map(JsonComment::from).collect()
}

fn to_json_game(game: &Game) -> JsonGame {
    let mode = game.start.castling_mode();
    let standard = game.start == Position::new();
    let tree = &game.tree;
    let root = &tree[NodeId::ROOT];
    JsonGame {
        tags: game
            .tags
            .iter()
            .map(|(n, v)| (n.to_owned(), v.to_owned()))
            .collect(),
        fen: (!standard).then(|| game.start.to_string()),
        chess960: mode == CastlingMode::Chess960,
        encoding: (game.encoding == Encoding::Latin1).then(|| "latin-1".to_owned()),
        comments: root.comments().map(JsonComment::from).collect(),
        moves: line_to_json(tree, root.main_child(), mode),
        result: game.termination.as_str().to_owned(),
    }
}

/// The line starting at `first`: `first`, its main continuation, and so on;
/// each move carries the alternatives to it (its later siblings).
fn line_to_json(tree: &MoveTree, first: Option<NodeId>, mode: CastlingMode) -> Vec<JsonMove> {
    let mut out = Vec::new();
    let mut cur = first;
    while let Some(id) = cur {
        let Some(node) = tree.get(id) else { break };
        let Some(played) = node.played() else { break };
        let siblings = node
            .parent()
            .and_then(|p| tree.get(p))
            .map(|p| p.children())
            .unwrap_or(&[]);
        // Only the main child of its parent carries the alternatives.
        let variations = if siblings.first() == Some(&id) {
            siblings[1..]
                .iter()
                .map(|&v| line_to_json(tree, Some(v), mode))
                .collect()
        } else {
            Vec::new()
        };
        out.push(move_to_json(node, played, mode, variations));
        cur = node.main_child();
    }
    out
}

fn move_to_json(
    node: &crate::tree::Node,
    played: &PlayedMove,
    mode: CastlingMode,
    variations: Vec<Vec<JsonMove>>,
) -> JsonMove {
    let nags: Vec<u8> = node.nags().map(|n| n.0).collect();
    let cs: Vec<JsonComment> = node.comments().map(JsonComment::from).collect();
    let order: String = node
        .annotations()
        .iter()
        .map(|a| match a {
            Annotation::Nag(_) => 'n',
            Annotation::Comment(_) => 'c',
        })
        .collect();
    let plain = "n".repeat(nags.len()) + &"c".repeat(cs.len());
    JsonMove {
        san: played.san.to_string(),
        uci: Some(Uci::from_move(played.mv, mode).to_string()),
        before: comments(node.comments_before()),
        nags,
        comments: cs,
        order: (order != plain).then_some(order),
        variations,
        after: comments(node.trailing_comments()),
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
        let san = LenientSan::parse(m.san.as_bytes()).map_err(|e| err(&e.to_string(), &m.san))?;
        let (mv, _) = san.to_move(&pos).map_err(|e| err(&e.to_string(), &m.san))?;
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
            node.comments_before_mut()
                .extend(m.before.into_iter().map(Comment::from));
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
            node.trailing_comments_mut()
                .extend(m.after.into_iter().map(Comment::from));
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
        to_json_game(self).serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Game {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Game, D::Error> {
        let json = JsonGame::deserialize(deserializer)?;
        from_json_game(json).map_err(serde::de::Error::custom)
    }
}

impl Game {
    /// The game as JSON (the shape of the [`json`](crate::json) module).
    pub fn to_json(&self) -> String {
        serde_json::to_string(&to_json_game(self)).unwrap_or_default()
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
