//! `pgnkit.Game` and `pgnkit.Node`: python-chess's `chess.pgn.Game` and
//! `GameNode` over pgnkit-game's move tree.
//!
//! A game's data lives once, behind a lock shared by the `Game` object and
//! every `Node` made from it ([`Shared`]); a node is that handle and a node
//! id, so nodes are cheap and see every change to the game.

use std::sync::{Arc, RwLock};

use pgnkit::chess::{CastlingMode, Position};
use pgnkit::game::{Comment, Diagnostic, Eval, Game as CoreGame, Nag, NodeId, Score};
use pgnkit::{ExportOptions, to_string};
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PySet};

use crate::board::{Board, Move};
use crate::headers::Headers;
use crate::shared::{Shared, read_lock, write_lock};

/// An error (or warning) found while reading a game: where (`line`,
/// `column`, byte `start` and `end` in the input) and what (`message`).
#[pyclass(module = "pgnkit", frozen, get_all)]
#[derive(Clone)]
pub struct ReadError {
    /// 1-based line in the input.
    pub line: u64,
    /// 1-based column, in characters.
    pub column: u64,
    /// What is wrong.
    pub message: String,
    /// Byte offset of the fault in the input.
    pub start: u64,
    /// End of the faulty bytes.
    pub end: u64,
    /// For move errors, the move as written.
    pub move_text: Option<String>,
    /// For move errors, the FEN of the position it was played in.
    pub fen: Option<String>,
    /// "error" or "warning".
    pub severity: &'static str,
}

impl ReadError {
    /// The error of a diagnostic, its offsets moved by `origin`.
    pub fn of(d: &Diagnostic, origin: u64) -> ReadError {
        ReadError {
            line: d.line,
            column: d.column,
            message: d.message(),
            start: d.start + origin,
            end: d.end + origin,
            move_text: d.move_text.clone(),
            fen: d.fen.clone(),
            severity: if d.is_error() { "error" } else { "warning" },
        }
    }
}

#[pymethods]
impl ReadError {
    fn __str__(&self) -> String {
        let mut text = format!("{}:{}: {}", self.line, self.column, self.message);
        if let (Some(m), Some(fen)) = (&self.move_text, &self.fen) {
            text.push_str(&format!(" ({m} in {fen})"));
        }
        text
    }

    fn __repr__(&self) -> String {
        format!(
            "ReadError(line={}, column={}, message={:?})",
            self.line, self.column, self.message
        )
    }
}

/// A node of a game's move tree: the game itself (the root) or a move with
/// its comments, NAGs and variations. python-chess's `GameNode`.
#[pyclass(module = "pgnkit", subclass, frozen)]
pub struct Node {
    pub(crate) shared: Shared,
    pub(crate) id: NodeId,
    /// The game object this node belongs to; `None` for the game itself.
    owner: Option<Py<Game>>,
}

/// python-chess's score classes (pure Python, `pgnkit._score`).
static SCORES: PyOnceLock<Py<PyAny>> = PyOnceLock::new();

fn scores(py: Python<'_>) -> PyResult<&Bound<'_, PyAny>> {
    SCORES
        .get_or_try_init(py, || {
            Ok::<_, PyErr>(py.import("pgnkit._score")?.into_any().unbind())
        })
        .map(|m| m.bind(py))
}

impl Node {
    fn game_object(slf: &Bound<'_, Node>) -> PyResult<Py<Game>> {
        match &slf.get().owner {
            Some(owner) => Ok(owner.clone_ref(slf.py())),
            None => Ok(slf.cast::<Game>()?.clone().unbind()),
        }
    }

    fn child(slf: &Bound<'_, Node>, id: NodeId) -> PyResult<Py<Node>> {
        let owner = Node::game_object(slf)?;
        Py::new(
            slf.py(),
            Node {
                shared: slf.get().shared.clone(),
                id,
                owner: Some(owner),
            },
        )
    }

    /// A node (or, for the root, the game object) for `id`.
    fn node_object(slf: &Bound<'_, Node>, id: NodeId) -> PyResult<Py<PyAny>> {
        if id == NodeId::ROOT {
            return Ok(Node::game_object(slf)?.into_any());
        }
        Ok(Node::child(slf, id)?.into_any())
    }

    fn with<T>(&self, f: impl FnOnce(&CoreGame, &pgnkit::game::Node) -> T) -> PyResult<T> {
        let game = read_lock(&self.shared);
        let node = game
            .tree()
            .get(self.id)
            .ok_or_else(|| PyValueError::new_err("this node was removed from its game"))?;
        Ok(f(&game, node))
    }

    fn with_mut<T>(&self, f: impl FnOnce(&mut pgnkit::game::Node) -> T) -> PyResult<T> {
        let mut game = write_lock(&self.shared);
        let node = game
            .node_mut(self.id)
            .ok_or_else(|| PyValueError::new_err("this node was removed from its game"))?;
        Ok(f(node))
    }

    fn mode(game: &CoreGame) -> CastlingMode {
        game.start_position().castling_mode()
    }

    /// Makes a legal move of this node's position from a `Move` or a SAN/UCI string.
    fn resolve(&self, game: &CoreGame, m: &Bound<'_, PyAny>) -> PyResult<pgnkit::chess::Move> {
        let position = game
            .position_at(self.id)
            .ok_or_else(|| PyValueError::new_err("this node was removed from its game"))?;
        let board = Board::at(position);
        if let Ok(m) = m.extract::<Move>() {
            return board.resolve(&m);
        }
        if let Ok(text) = m.extract::<String>() {
            let mut position = board.position.clone();
            if let Ok(mv) = position.play_san(text.as_bytes()) {
                return Ok(mv);
            }
            if let Ok(uci) = pgnkit::chess::Uci::parse(text.as_bytes()) {
                return board.resolve(&Move { uci });
            }
            return Err(PyValueError::new_err(format!(
                "{text:?} is no legal move in {}",
                board.position
            )));
        }
        Err(PyValueError::new_err(
            "a move is a pgnkit.Move or a SAN/UCI string",
        ))
    }
}

/// Joins comment texts as python-chess does: each without one space after
/// `{` and one before `}` (python-chess's reading of `{ text }`), joined with a
/// space, empty ones left out.
fn join(comments: &[&Comment]) -> String {
    let texts: Vec<&str> = comments
        .iter()
        .map(|c| {
            let text = c.text();
            let text = text.strip_prefix(' ').unwrap_or(text);
            text.strip_suffix(' ').unwrap_or(text)
        })
        .filter(|t| !t.is_empty())
        .collect();
    texts.join(" ")
}

fn seconds(d: std::time::Duration) -> f64 {
    d.as_secs_f64()
}

#[pymethods]
impl Node {
    /// The move that leads to this node (None for the game).
    #[getter(r#move)]
    fn get_move(&self) -> PyResult<Option<Move>> {
        self.with(|game, node| node.mv().map(|m| Move::of(m, Node::mode(game))))
    }

    /// The parent node (the game for the first move; None for the game).
    #[getter]
    fn parent(slf: &Bound<'_, Node>) -> PyResult<Option<Py<PyAny>>> {
        let parent = slf.get().with(|_, node| node.parent())?;
        parent.map(|id| Node::node_object(slf, id)).transpose()
    }

    /// The continuations from here, the main one first.
    #[getter]
    fn variations(slf: &Bound<'_, Node>) -> PyResult<Vec<Py<Node>>> {
        let children = slf.get().with(|_, node| node.children().to_vec())?;
        children
            .into_iter()
            .map(|id| Node::child(slf, id))
            .collect()
    }

    /// The comment after the move (for the game: before the first move),
    /// commands such as `[%clk 0:03:00]` included, as python-chess keeps
    /// them. Several comments are joined with a space.
    #[getter]
    fn comment(&self) -> PyResult<String> {
        self.with(|_, node| join(&node.comments().collect::<Vec<_>>()))
    }

    #[setter]
    fn set_comment(&self, text: String) -> PyResult<()> {
        self.with_mut(|node| {
            let comments = (!text.is_empty()).then(|| Comment::brace(text));
            node.set_comments(comments);
        })
    }

    /// The comment before the move (only shown at the start of a variation).
    #[getter]
    fn starting_comment(&self) -> PyResult<String> {
        self.with(|_, node| join(&node.comments_before().iter().collect::<Vec<_>>()))
    }

    #[setter]
    fn set_starting_comment(&self, text: String) -> PyResult<()> {
        self.with_mut(|node| {
            let before = node.comments_before_mut();
            before.clear();
            if !text.is_empty() {
                before.push(Comment::brace(text));
            }
        })
    }

    /// The NAGs (numeric annotation glyphs) of the move, as a set of ints.
    #[getter]
    fn nags<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PySet>> {
        let nags: Vec<u8> = self.with(|_, node| node.nags().map(|n| n.0).collect())?;
        PySet::new(py, nags)
    }

    #[setter]
    fn set_nags(&self, nags: Vec<u8>) -> PyResult<()> {
        self.with_mut(|node| node.set_nags(nags.into_iter().map(Nag)))
    }

    /// The move in SAN, with `+` or `#` (e.g. `Nf3`, `O-O`, `exd8=Q#`).
    fn san(&self) -> PyResult<String> {
        self.with(|_, node| node.san().map(|s| s.to_string()))?
            .ok_or_else(|| PyValueError::new_err("the game node has no move"))
    }

    /// The move in UCI notation (e.g. `g1f3`).
    fn uci(&self) -> PyResult<String> {
        self.with(|game, node| node.mv().map(|m| Move::of(m, Node::mode(game)).uci()))?
            .ok_or_else(|| PyValueError::new_err("the game node has no move"))
    }

    /// The number of half-moves from the start of the game (0 for the game).
    fn ply(&self) -> PyResult<usize> {
        self.with(|game, _| game.ply(self.id))
    }

    /// The side that moves next at this node: True (white) or False (black).
    fn turn(&self) -> PyResult<bool> {
        Ok(self.position()?.turn() == pgnkit::chess::Color::White)
    }

    /// The position after the move, as a new `Board` (with the moves that
    /// lead to it on its move stack).
    fn board(&self) -> PyResult<Board> {
        let game = read_lock(&self.shared);
        let mut board = Board::at(game.start_position().clone());
        for id in game.tree().path_to(self.id) {
            if let Some(played) = game.tree().get(id).and_then(|n| n.played()) {
                board.push_unchecked(played.mv);
            }
        }
        Ok(board)
    }

    /// The game this node belongs to.
    fn game(slf: &Bound<'_, Node>) -> PyResult<Py<Game>> {
        Node::game_object(slf)
    }

    /// The last node of the main continuation from here.
    fn end(slf: &Bound<'_, Node>) -> PyResult<Py<PyAny>> {
        let end = slf.get().with(|game, _| {
            let mut id = slf.get().id;
            while let Some(next) = game.tree().get(id).and_then(|n| n.main_child()) {
                id = next;
            }
            id
        })?;
        Node::node_object(slf, end)
    }

    /// The main continuation, or None at the end of a line.
    fn next(slf: &Bound<'_, Node>) -> PyResult<Option<Py<Node>>> {
        let next = slf.get().with(|_, node| node.main_child())?;
        next.map(|id| Node::child(slf, id)).transpose()
    }

    /// Whether this node has no continuation.
    fn is_end(&self) -> PyResult<bool> {
        self.with(|_, node| node.children().is_empty())
    }

    /// Whether the node is on the game's main line.
    fn is_mainline(&self) -> PyResult<bool> {
        self.with(|game, _| game.node(self.id).is_some_and(|n| n.is_main_line()))
    }

    /// Whether the node is the main continuation of its parent (the game: True).
    fn is_main_variation(&self) -> PyResult<bool> {
        self.with(|game, _| game.node(self.id).is_some_and(|n| n.is_main_variation()))
    }

    /// The nodes of the main continuation from here (not this node).
    fn mainline(slf: &Bound<'_, Node>) -> PyResult<Vec<Py<Node>>> {
        let ids = slf.get().with(|game, _| main_after(game, slf.get().id))?;
        ids.into_iter().map(|id| Node::child(slf, id)).collect()
    }

    /// The moves of the main continuation from here.
    fn mainline_moves(&self) -> PyResult<Vec<Move>> {
        self.with(|game, _| {
            let mode = Node::mode(game);
            main_after(game, self.id)
                .into_iter()
                .filter_map(|id| game.tree().get(id).and_then(|n| n.mv()))
                .map(|m| Move::of(m, mode))
                .collect()
        })
    }

    /// The `i`-th continuation, or the one that plays `move`.
    fn variation(slf: &Bound<'_, Node>, which: &Bound<'_, PyAny>) -> PyResult<Py<Node>> {
        let children = slf.get().with(|_, node| node.children().to_vec())?;
        if let Ok(i) = which.extract::<usize>() {
            let id = children
                .get(i)
                .copied()
                .ok_or_else(|| PyIndexError::new_err(format!("no variation {i}")))?;
            return Node::child(slf, id);
        }
        let wanted: Move = which.extract()?;
        let found = slf.get().with(|game, _| {
            let mode = Node::mode(game);
            children.iter().copied().find(|&id| {
                game.tree()
                    .get(id)
                    .and_then(|n| n.mv())
                    .map(|m| Move::of(m, mode))
                    == Some(wanted)
            })
        })?;
        let id = found.ok_or_else(|| pyo3::exceptions::PyKeyError::new_err(wanted.uci()))?;
        Node::child(slf, id)
    }

    /// Whether a continuation plays `move`.
    fn has_variation(&self, r#move: Move) -> PyResult<bool> {
        self.with(|game, node| {
            let mode = Node::mode(game);
            node.children().iter().any(|&id| {
                game.tree()
                    .get(id)
                    .and_then(|n| n.mv())
                    .map(|m| Move::of(m, mode))
                    == Some(r#move)
            })
        })
    }

    /// Adds a continuation playing `move` (a `Move`, or SAN/UCI text) and
    /// returns its node; the first one added is the main one. If the move is
    /// already a continuation, that node is returned.
    #[pyo3(signature = (r#move, *, comment=String::new(), starting_comment=String::new(), nags=Vec::new()))]
    fn add_variation(
        slf: &Bound<'_, Node>,
        r#move: &Bound<'_, PyAny>,
        comment: String,
        starting_comment: String,
        nags: Vec<u8>,
    ) -> PyResult<Py<Node>> {
        let this = slf.get();
        let id = {
            let mut game = write_lock(&this.shared);
            let mv = this.resolve(&game, r#move)?;
            let id = game
                .add_move(this.id, mv)
                .map_err(|e| PyValueError::new_err(e.to_string()))?;
            if let Some(node) = game.node_mut(id) {
                // NAGs before the comment, as python-chess writes them.
                for nag in nags {
                    node.push_nag(Nag(nag));
                }
                if !comment.is_empty() {
                    node.push_comment(Comment::brace(comment));
                }
                if !starting_comment.is_empty() {
                    node.comments_before_mut()
                        .push(Comment::brace(starting_comment));
                }
            }
            id
        };
        Node::child(slf, id)
    }

    /// Adds a continuation playing `move` as the main one; returns its node.
    #[pyo3(signature = (r#move, *, comment=String::new(), nags=Vec::new()))]
    fn add_main_variation(
        slf: &Bound<'_, Node>,
        r#move: &Bound<'_, PyAny>,
        comment: String,
        nags: Vec<u8>,
    ) -> PyResult<Py<Node>> {
        let node = Node::add_variation(slf, r#move, comment, String::new(), nags)?;
        let id = node.get().id;
        write_lock(&slf.get().shared).promote_to_main(id);
        Ok(node)
    }

    /// Adds a line of moves after this node; returns the last node.
    fn add_line(slf: &Bound<'_, Node>, moves: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let mut node: Py<PyAny> = slf.clone().unbind().into_any();
        for m in moves.try_iter()? {
            let current = node.bind(slf.py()).cast::<Node>()?.clone();
            node = Node::add_variation(&current, &m?, String::new(), String::new(), Vec::new())?
                .into_any();
        }
        Ok(node)
    }

    /// Makes this node the main continuation of its parent.
    fn promote_to_main(&self) -> PyResult<()> {
        write_lock(&self.shared).promote_to_main(self.id);
        Ok(())
    }

    /// Moves this node one place up among its parent's continuations.
    fn promote(&self) -> PyResult<()> {
        write_lock(&self.shared).promote(self.id);
        Ok(())
    }

    /// Moves this node one place down among its parent's continuations.
    fn demote(&self) -> PyResult<()> {
        write_lock(&self.shared).demote(self.id);
        Ok(())
    }

    /// Removes the continuation playing `move` (or the `i`-th one) and its subtree.
    fn remove_variation(slf: &Bound<'_, Node>, which: &Bound<'_, PyAny>) -> PyResult<()> {
        let node = Node::variation(slf, which)?;
        let id = node.get().id;
        write_lock(&slf.get().shared).remove(id);
        Ok(())
    }

    /// The remaining clock time after the move, in seconds (`[%clk ...]`), or None.
    fn clock(&self) -> PyResult<Option<f64>> {
        self.with(|_, node| node.clock().map(seconds))
    }

    /// The elapsed move time, in seconds (`[%emt ...]`), or None.
    fn emt(&self) -> PyResult<Option<f64>> {
        self.with(|_, node| node.emt().map(seconds))
    }

    /// Sets (or with None removes) the `[%clk ...]` command of the comment.
    fn set_clock(&self, seconds: Option<f64>) -> PyResult<()> {
        let d = duration(seconds)?;
        self.with_mut(|node| node.set_clock(d))
    }

    /// Sets (or with None removes) the `[%emt ...]` command of the comment.
    fn set_emt(&self, seconds: Option<f64>) -> PyResult<()> {
        let d = duration(seconds)?;
        self.with_mut(|node| node.set_emt(d))
    }

    /// The evaluation of the `[%eval ...]` command, as python-chess gives it:
    /// a `PovScore` from the point of view of the side to move, with
    /// `.white()` and `.black()`; None without one.
    fn eval(&self, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
        let Some(eval) = self.with(|_, node| node.eval())? else {
            return Ok(None);
        };
        let turn = self.turn()?;
        let module = scores(py)?;
        let (kind, value) = match eval.score {
            Score::Centipawns(cp) => ("cp", cp),
            Score::Mate(m) => ("mate", m),
        };
        Ok(Some(
            module
                .call_method1("_from_white", (kind, value, turn))?
                .unbind(),
        ))
    }

    /// The search depth of the `[%eval ...]` command, or None.
    fn eval_depth(&self) -> PyResult<Option<u32>> {
        self.with(|_, node| node.eval().and_then(|e| e.depth))
    }

    /// Sets (or with None removes) the `[%eval ...]` command: `score` is a
    /// `PovScore` (or anything with `.white()` giving a score with `.score()`
    /// and `.mate()`).
    #[pyo3(signature = (score, depth=None))]
    fn set_eval(&self, score: Option<&Bound<'_, PyAny>>, depth: Option<u32>) -> PyResult<()> {
        let eval = match score {
            None => None,
            Some(score) => {
                let white = score.call_method0("white")?;
                let mate: Option<i32> = white.call_method0("mate")?.extract()?;
                let score = match mate {
                    Some(m) => Score::Mate(m),
                    None => Score::Centipawns(white.call_method0("score")?.extract()?),
                };
                Some(Eval { score, depth })
            }
        };
        self.with_mut(|node| node.set_eval(eval))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<Node>()
            .is_ok_and(|o| Arc::ptr_eq(&o.get().shared, &self.shared) && o.get().id == self.id)
    }

    fn __hash__(&self) -> u64 {
        (Arc::as_ptr(&self.shared) as usize as u64) ^ (self.id.index() as u64).rotate_left(48)
    }

    fn __repr__(&self) -> PyResult<String> {
        self.with(|game, node| match node.san() {
            Some(san) => {
                let (number, color) = game.move_number(self.id);
                let dots = if color == pgnkit::chess::Color::White {
                    "."
                } else {
                    "..."
                };
                format!("<Node {number}{dots} {san}>")
            }
            None => "<Node (start)>".to_string(),
        })
    }
}

impl Node {
    fn position(&self) -> PyResult<Position> {
        read_lock(&self.shared)
            .position_at(self.id)
            .ok_or_else(|| PyValueError::new_err("this node was removed from its game"))
    }
}

/// The main continuation after `id`, in order.
fn main_after(game: &CoreGame, id: NodeId) -> Vec<NodeId> {
    let mut ids = Vec::new();
    let mut at = id;
    while let Some(next) = game.tree().get(at).and_then(|n| n.main_child()) {
        ids.push(next);
        at = next;
    }
    ids
}

fn duration(seconds: Option<f64>) -> PyResult<Option<std::time::Duration>> {
    seconds
        .map(|s| {
            std::time::Duration::try_from_secs_f64(s.max(0.0))
                .map_err(|e| PyValueError::new_err(e.to_string()))
        })
        .transpose()
}

/// A game: its headers, its move tree (the game is the root node), and
/// what reading it found (`errors`, `warnings`). python-chess's
/// `chess.pgn.Game`.
///
/// `Game()` is an empty game from the standard start; `Game.from_board(b)`
/// starts from a board's position and plays its move stack.
#[pyclass(module = "pgnkit", extends = Node, frozen)]
pub struct Game {
    errors: Vec<ReadError>,
    warnings: Vec<ReadError>,
    /// Byte offset of the game in its input, and its first line.
    offset: u64,
    line: u64,
}

impl Game {
    /// A Python game object around `game`.
    pub fn create(
        py: Python<'_>,
        game: CoreGame,
        errors: Vec<ReadError>,
        warnings: Vec<ReadError>,
        offset: u64,
        line: u64,
    ) -> PyResult<Py<Game>> {
        let node = Node {
            shared: Arc::new(RwLock::new(game)),
            id: NodeId::ROOT,
            owner: None,
        };
        Py::new(
            py,
            PyClassInitializer::from(node).add_subclass(Game {
                errors,
                warnings,
                offset,
                line,
            }),
        )
    }

    /// The game's data.
    pub fn shared(slf: &Bound<'_, Game>) -> Shared {
        slf.as_super().get().shared.clone()
    }
}

/// Export options from keyword arguments.
pub fn export_options(
    columns: Option<usize>,
    comments: bool,
    variations: bool,
    headers: bool,
) -> ExportOptions {
    let mut options = ExportOptions::export();
    if let Some(columns) = columns {
        options.width = columns;
    }
    options.comments = comments;
    options.nags = comments;
    options.variations = variations;
    let _ = headers;
    options
}

#[pymethods]
impl Game {
    #[new]
    #[pyo3(signature = (headers=None))]
    fn new(headers: Option<&Bound<'_, PyAny>>) -> PyResult<PyClassInitializer<Game>> {
        let mut game = CoreGame::new();
        if let Some(headers) = headers {
            let dict = PyDict::new(headers.py());
            dict.call_method1("update", (headers,))?;
            for (k, v) in dict.iter() {
                game.tags_mut()
                    .set(k.extract::<String>()?, v.extract::<String>()?);
            }
        }
        let node = Node {
            shared: Arc::new(RwLock::new(game)),
            id: NodeId::ROOT,
            owner: None,
        };
        Ok(PyClassInitializer::from(node).add_subclass(Game {
            errors: Vec::new(),
            warnings: Vec::new(),
            offset: 0,
            line: 0,
        }))
    }

    /// A game that starts from `board`'s first position and plays its move stack.
    #[classmethod]
    fn from_board(
        _cls: &Bound<'_, pyo3::types::PyType>,
        py: Python<'_>,
        board: &Board,
    ) -> PyResult<Py<Game>> {
        let (start, moves) = board.root_and_moves();
        let mut game = CoreGame::from_position(start);
        let mut at = NodeId::ROOT;
        for m in moves {
            at = game
                .add_move(at, m)
                .map_err(|e| PyValueError::new_err(e.to_string()))?;
        }
        Game::create(py, game, Vec::new(), Vec::new(), 0, 0)
    }

    /// The tag pairs: a mutable mapping that keeps order (roster first).
    #[getter]
    fn headers(slf: &Bound<'_, Game>) -> Headers {
        Headers::of_game(Game::shared(slf))
    }

    /// The errors found while reading the game (a game with errors holds what
    /// was read up to each): objects with `line`, `column` and `message`.
    #[getter]
    fn errors(&self) -> Vec<ReadError> {
        self.errors.clone()
    }

    /// The warnings found while reading the game (lenient forms accepted).
    #[getter]
    fn warnings(&self) -> Vec<ReadError> {
        self.warnings.clone()
    }

    /// The byte offset of the game in its input.
    #[getter]
    fn offset(&self) -> u64 {
        self.offset
    }

    /// The 1-based line of the game's first byte in its input.
    #[getter]
    fn line(&self) -> u64 {
        self.line
    }

    /// The starting position, as a new `Board`.
    fn root_board(slf: &Bound<'_, Game>) -> Board {
        Board::at(read_lock(&Game::shared(slf)).start_position().clone())
    }

    /// The game in PGN export format, as `pgnkit export` writes it:
    /// `columns` (line width, default 80), `comments` (comments and NAGs),
    /// `variations`.
    #[pyo3(signature = (*, columns=None, comments=true, variations=true, headers=true))]
    fn to_pgn(
        slf: &Bound<'_, Game>,
        columns: Option<usize>,
        comments: bool,
        variations: bool,
        headers: bool,
    ) -> String {
        let shared = Game::shared(slf);
        let game = read_lock(&shared);
        let text = to_string(
            &game,
            &export_options(columns, comments, variations, headers),
        );
        if headers {
            return text;
        }
        match text.find("\n\n") {
            Some(at) if text.starts_with('[') => text[at + 2..].to_string(),
            _ => text,
        }
    }

    /// Whether the game is selected by ``query``, a query of ``pgnkit select --where``
    /// (docs/select.md): ``game.matches("checkmate and moves < 30")``. A query that
    /// cannot be read raises ``ValueError`` with the query and a caret under the fault.
    fn matches(slf: &Bound<'_, Game>, query: &str) -> PyResult<bool> {
        let parsed = pgnkit::select::Query::parse(query)
            .map_err(|e| PyValueError::new_err(format!("bad query:\n{}", e.render(query))))?;
        let shared = Game::shared(slf);
        let game = read_lock(&shared);
        Ok(parsed.matches(&game, &Default::default()))
    }

    /// The game as JSON (pgnkit's game JSON: tags, moves, comments, variations).
    fn to_json(slf: &Bound<'_, Game>) -> String {
        read_lock(&Game::shared(slf)).to_json()
    }

    /// The game in export format, without the final blank line.
    fn __str__(slf: &Bound<'_, Game>) -> String {
        let shared = Game::shared(slf);
        let game = read_lock(&shared);
        to_string(&game, &ExportOptions::export())
            .trim_end()
            .to_string()
    }

    fn __repr__(slf: &Bound<'_, Game>) -> String {
        let shared = Game::shared(slf);
        let game = read_lock(&shared);
        let tags = game.tags();
        format!(
            "<Game ({:?} vs. {:?}, {:?})>",
            tags.get("White").unwrap_or("?"),
            tags.get("Black").unwrap_or("?"),
            tags.get("Date").unwrap_or("????.??.??"),
        )
    }

    /// A `chess.pgn.Game` of python-chess with the same content (needs the
    /// `chess` package).
    fn to_python_chess(slf: &Bound<'_, Game>) -> PyResult<Py<PyAny>> {
        let py = slf.py();
        let text = Game::__str__(slf);
        Ok(py
            .import("pgnkit._interop")?
            .call_method1("to_python_chess", (text,))?
            .unbind())
    }

    /// A pgnkit game from a python-chess game (through its PGN text).
    #[classmethod]
    fn from_python_chess(
        _cls: &Bound<'_, pyo3::types::PyType>,
        game: &Bound<'_, PyAny>,
    ) -> PyResult<Py<PyAny>> {
        let py = game.py();
        Ok(py
            .import("pgnkit._interop")?
            .call_method1("from_python_chess", (game,))?
            .unbind())
    }
}
