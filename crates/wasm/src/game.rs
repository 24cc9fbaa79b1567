//! A game as JavaScript holds it: the library's [`Game`] (tags, move tree, termination) with
//! the diagnostics of its reading beside it, and views of both as JavaScript values.
//!
//! `moves()` walks the tree once, playing each move on a position of its own (one move at a
//! time, not a replay from the start per move), and gives plain objects; `toPgn()` is the
//! export crate's writer; `toJSON()` is the game crate's JSON shape.

use js_sys::{Array, JSON, Map};
use pgnkit_chess::{FenOptions, Position, Uci};
use pgnkit_game::{
    Annotation, Comment, Diagnostic, Diagnostics, Game, NodeRef, SEVEN_TAG_ROSTER, Score, Severity,
};
use serde_json::{Map as JsonMap, Value, json};
use wasm_bindgen::JsValue;
use wasm_bindgen::prelude::wasm_bindgen;

use crate::options::export_options;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = r#"
/** An error or warning found while reading (lines and columns count from 1). */
export interface Diagnostic {
  line: number;
  column: number;
  /** Byte offset in the input. */
  offset: number;
  severity: "error" | "warning";
  message: string;
  /** For move errors: the move as written. */
  move: string | null;
  /** For move errors: the FEN of the position it was played in. */
  fen: string | null;
}
/** A diagnostic of `check()`, with the number of its game (from 1). */
export interface CheckDiagnostic extends Diagnostic {
  game: number;
}
/** A move of a game, with what stands around it. */
export interface Move {
  san: string;
  uci: string;
  /** The FEN after the move. */
  fen: string;
  ply: number;
  moveNumber: number;
  color: "w" | "b";
  commentsBefore: string[];
  comments: string[];
  nags: number[];
  /** `[%clk]` in seconds. */
  clock: number | null;
  /** `[%emt]` in seconds. */
  emt: number | null;
  eval: { cp?: number; mate?: number; depth: number | null } | null;
  /** The alternatives to this move, each a line of moves. */
  variations: Move[][];
}
/** How `toPgn()` writes (the options of `pgnkit export`). */
export interface ExportOptions {
  reduced?: boolean;
  comments?: boolean;
  nags?: boolean;
  variations?: boolean;
  width?: number;
  notation?: "san" | "lan" | "uci" | "fan";
}
/** How games are read. */
export interface ReadOptions {
  /** Lenient move forms (`e2e4`, `0-0`, a missing `x`) are errors. */
  strict?: boolean;
  /** `{ a { b } c }` is one comment (pgn-extract's `--nestedcomments`); by the standard
   * the first `}` ends a comment. */
  nestedComments?: boolean;
  /** A tag value without its closing quote whose line ends with `]` (`[Site "Paris]`) is
   * read up to that `]`, with a warning, instead of being an error. */
  fixTagStrings?: boolean;
}
"#;

/// A game read from PGN text, with the diagnostics of its reading.
#[wasm_bindgen(js_name = Game)]
pub struct JsGame {
    game: Game,
    diagnostics: Diagnostics,
    offset: u64,
    line: u64,
}

impl JsGame {
    /// A game read at byte `offset`, line `line` of its input.
    pub fn new(game: Game, diagnostics: Diagnostics, offset: u64, line: u64) -> JsGame {
        JsGame {
            game,
            diagnostics,
            offset,
            line,
        }
    }
}

#[wasm_bindgen(js_class = Game)]
impl JsGame {
    /// The tag pairs as a `Map`: the Seven Tag Roster first (those the game has, in roster
    /// order), then the others in the order read.
    #[wasm_bindgen(getter, unchecked_return_type = "Map<string, string>")]
    pub fn headers(&self) -> Map {
        let map = Map::new();
        let tags = self.game.tags();
        for (name, _) in SEVEN_TAG_ROSTER {
            if let Some(value) = tags.get(name) {
                map.set(&name.into(), &value.into());
            }
        }
        for (name, value) in tags.iter() {
            if !SEVEN_TAG_ROSTER.iter().any(|(roster, _)| *roster == name) {
                map.set(&name.into(), &value.into());
            }
        }
        map
    }

    /// The termination marker: `1-0`, `0-1`, `1/2-1/2` or `*`.
    #[wasm_bindgen(getter)]
    pub fn result(&self) -> String {
        self.game.termination().as_str().to_owned()
    }

    /// How many moves the main line has (half-moves), without building `moves()`.
    #[wasm_bindgen(getter, js_name = plyCount)]
    pub fn ply_count(&self) -> usize {
        self.game.main_line().count()
    }

    /// The FEN of the starting position.
    #[wasm_bindgen(getter, js_name = startFen)]
    pub fn start_fen(&self) -> String {
        self.game.start_position().fen(FenOptions::default())
    }

    /// The comments before the first move (texts as read).
    #[wasm_bindgen(getter, unchecked_return_type = "string[]")]
    pub fn comments(&self) -> Array {
        let root = self.game.root();
        root.annotations()
            .iter()
            .filter_map(|a| match a {
                Annotation::Comment(c) => Some(JsValue::from(c.text())),
                Annotation::Nag(_) => None,
            })
            .collect()
    }

    /// Byte offset of the game in its input.
    #[wasm_bindgen(getter)]
    pub fn offset(&self) -> f64 {
        self.offset as f64
    }

    /// Line of the game's first byte in its input (1-based).
    #[wasm_bindgen(getter)]
    pub fn line(&self) -> f64 {
        self.line as f64
    }

    /// Whether reading found errors (the game holds what was read before the first one).
    #[wasm_bindgen(getter, js_name = isBroken)]
    pub fn is_broken(&self) -> bool {
        self.diagnostics.has_errors()
    }

    /// The errors of the game's reading: `{ line, column, offset, severity, message, move,
    /// fen }` objects.
    #[wasm_bindgen(getter, unchecked_return_type = "Diagnostic[]")]
    pub fn errors(&self) -> Array {
        to_js_array(self.diagnostics.errors())
    }

    /// The errors and warnings of the game's reading, in the order found.
    #[wasm_bindgen(getter, unchecked_return_type = "Diagnostic[]")]
    pub fn diagnostics(&self) -> Array {
        to_js_array(self.diagnostics.iter())
    }

    /// The main line: one object per move with `san`, `uci`, `fen` (after the move), `ply`,
    /// `moveNumber`, `color`, `commentsBefore`, `comments`, `nags`, `clock` (seconds),
    /// `emt` (seconds), `eval` (`{ cp }` or `{ mate }`, and `depth`), and `variations` (the
    /// alternatives to this move, each an array of such moves).
    #[wasm_bindgen(unchecked_return_type = "Move[]")]
    pub fn moves(&self) -> JsValue {
        to_js(&Value::Array(line(&self.game, self.game.root())))
    }

    /// The game in export format, as `pgnkit export` writes it; `options`: `{ reduced,
    /// comments, nags, variations, width, notation }`.
    #[wasm_bindgen(js_name = toPgn)]
    pub fn to_pgn(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "ExportOptions")] options: Option<JsValue>,
    ) -> Result<String, JsValue> {
        let options = export_options(&options.unwrap_or(JsValue::UNDEFINED))?;
        Ok(pgnkit_export::to_string(&self.game, &options))
    }

    /// The game in pgnkit's JSON shape (docs/json.md), with its diagnostics.
    #[wasm_bindgen(js_name = toJSON, unchecked_return_type = "object")]
    pub fn to_json(&self) -> JsValue {
        let text = self.game.to_json_with_diagnostics(&self.diagnostics);
        JSON::parse(&text).unwrap_or(JsValue::NULL)
    }
}

/// A diagnostic as a JSON value (the fields of `pgnkit check --json`, without the file).
pub fn diagnostic_value(d: &Diagnostic) -> Value {
    let severity = match d.severity {
        Severity::Error => "error",
        _ => "warning",
    };
    json!({
        "line": d.line,
        "column": d.column,
        "offset": d.start,
        "severity": severity,
        "message": d.message(),
        "move": d.move_text,
        "fen": d.fen,
    })
}

/// Diagnostics as an array of plain objects.
fn to_js_array<'a>(diagnostics: impl Iterator<Item = &'a Diagnostic>) -> Array {
    diagnostics.map(|d| to_js(&diagnostic_value(d))).collect()
}

/// A JSON value as the JavaScript value `JSON.parse` makes of it.
pub fn to_js(value: &Value) -> JsValue {
    JSON::parse(&value.to_string()).unwrap_or(JsValue::NULL)
}

/// The line that continues from `node` (whose move gave `position`) along main
/// continuations, each move with its alternatives, played from the position before it.
fn line(game: &Game, node: NodeRef<'_>) -> Vec<Value> {
    let position = node.position().clone();
    continuation(game, node, position)
}

/// The moves after `node`, whose position is `position`.
fn continuation(game: &Game, mut node: NodeRef<'_>, mut position: Position) -> Vec<Value> {
    let mut moves = Vec::new();
    while let Some(next) = node.main_child() {
        let alternatives: Vec<Value> = node
            .variations()
            .map(|alt| Value::Array(variation(game, alt, &position)))
            .collect();
        let after = played(&next, &position);
        moves.push(move_value(game, &next, &position, &after, alternatives));
        position = after;
        node = next;
    }
    moves
}

/// A variation starting with `first`, played from `before`.
fn variation(game: &Game, first: NodeRef<'_>, before: &Position) -> Vec<Value> {
    let after = played(&first, before);
    let mut moves = vec![move_value(game, &first, before, &after, Vec::new())];
    moves.extend(continuation(game, first, after));
    moves
}

/// The position after `node`'s move, played in `before` (the reader checked it).
fn played(node: &NodeRef<'_>, before: &Position) -> Position {
    let mut after = before.clone();
    if let Some(played) = node.played() {
        after.play_unchecked(played.mv);
    }
    after
}

/// One move: `node`'s move played in `before`, giving `after`.
fn move_value(
    game: &Game,
    node: &NodeRef<'_>,
    before: &Position,
    after: &Position,
    variations: Vec<Value>,
) -> Value {
    let mut out = JsonMap::new();
    if let Some(played) = node.played() {
        out.insert("san".into(), played.san.to_string().into());
        let uci = Uci::from_move(played.mv, game.start_position().castling_mode());
        out.insert("uci".into(), uci.to_string().into());
    }
    out.insert("fen".into(), after.fen(FenOptions::default()).into());
    out.insert("ply".into(), node.ply().into());
    out.insert("moveNumber".into(), before.fullmoves().into());
    out.insert("color".into(), before.turn().fold_wb("w", "b").into());
    let before_comments: Vec<Value> = node.comments_before().iter().map(comment).collect();
    out.insert("commentsBefore".into(), before_comments.into());
    let mut comments = Vec::new();
    let mut nags = Vec::new();
    for annotation in node.annotations() {
        match annotation {
            Annotation::Nag(nag) => nags.push(Value::from(nag.0)),
            Annotation::Comment(c) => comments.push(comment(c)),
        }
    }
    comments.extend(node.trailing_comments().iter().map(comment));
    out.insert("comments".into(), comments.into());
    out.insert("nags".into(), nags.into());
    let seconds = |d: std::time::Duration| Value::from(d.as_secs_f64());
    out.insert("clock".into(), node.clock().map_or(Value::Null, seconds));
    out.insert("emt".into(), node.emt().map_or(Value::Null, seconds));
    let eval = node.eval().map_or(Value::Null, |eval| {
        let mut e = JsonMap::new();
        match eval.score {
            Score::Centipawns(cp) => e.insert("cp".into(), cp.into()),
            Score::Mate(mate) => e.insert("mate".into(), mate.into()),
        };
        e.insert("depth".into(), eval.depth.map_or(Value::Null, Value::from));
        Value::Object(e)
    });
    out.insert("eval".into(), eval);
    out.insert("variations".into(), variations.into());
    Value::Object(out)
}

/// A comment's text, exactly as read (`{}` and `;` comments alike; `toJSON()` tells them
/// apart).
fn comment(c: &Comment) -> Value {
    Value::from(c.text())
}
