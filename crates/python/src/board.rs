//! `pgnkit.Move` and `pgnkit.Board`: python-chess's `chess.Move` and
//! `chess.Board` for what PGN work needs (FEN, legal moves, SAN and UCI,
//! check, mate, outcome), over pgnkit-chess's `Position`.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use pgnkit::chess::{
    CastlingMode, Color, FenOptions, Move as ChessMove, PlaySanError, Position, Role, SanPlus,
    Square, Uci,
};
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyType;

/// python-chess's piece type numbers: PAWN = 1 ... KING = 6.
pub fn piece_type(role: Role) -> u8 {
    role as u8 + 1
}

/// The role of a python-chess piece type number.
fn role_of(piece_type: u8) -> PyResult<Role> {
    Ok(match piece_type {
        1 => Role::Pawn,
        2 => Role::Knight,
        3 => Role::Bishop,
        4 => Role::Rook,
        5 => Role::Queen,
        6 => Role::King,
        _ => return Err(PyValueError::new_err(format!("no piece type {piece_type}"))),
    })
}

fn square(index: u8) -> PyResult<Square> {
    Square::try_new(u32::from(index))
        .ok_or_else(|| PyValueError::new_err(format!("no square {index} (0 is a1, 63 is h8)")))
}

/// A move as python-chess has it: from and to squares (0 = a1 ... 63 = h8)
/// and a promotion piece type; `Move.null()` is the null move `0000`.
///
/// Castling is the king's move (`e1g1`) in standard chess and the king
/// taking its own rook (`e1h1`) in Chess960, as in python-chess.
#[pyclass(module = "pgnkit", frozen, eq, hash, from_py_object)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    pub(crate) uci: Uci,
}

impl Move {
    /// The move `m` as played in a game with castling `mode`.
    pub fn of(m: ChessMove, mode: CastlingMode) -> Move {
        Move {
            uci: Uci::from_move(m, mode),
        }
    }
}

#[pymethods]
impl Move {
    /// Move(from_square, to_square, promotion=None): squares are 0 (a1) to 63 (h8),
    /// promotion a piece type (2 knight ... 5 queen).
    #[new]
    #[pyo3(signature = (from_square, to_square, promotion=None, drop=None))]
    fn new(
        from_square: u8,
        to_square: u8,
        promotion: Option<u8>,
        drop: Option<u8>,
    ) -> PyResult<Move> {
        if drop.is_some() {
            return Err(PyValueError::new_err(
                "pgnkit reads standard chess and Chess960: no drops",
            ));
        }
        Ok(Move {
            uci: Uci::Normal {
                from: square(from_square)?,
                to: square(to_square)?,
                promotion: promotion.map(role_of).transpose()?,
            },
        })
    }

    /// Parses UCI notation: `e2e4`, `e7e8q`, `0000`.
    #[classmethod]
    fn from_uci(_cls: &Bound<'_, PyType>, uci: &str) -> PyResult<Move> {
        let uci = Uci::parse(uci.as_bytes())
            .map_err(|_| PyValueError::new_err(format!("invalid uci: {uci:?}")))?;
        Ok(Move { uci })
    }

    /// The null move, `0000`.
    #[classmethod]
    fn null(_cls: &Bound<'_, PyType>) -> Move {
        Move { uci: Uci::Null }
    }

    /// The move in UCI notation: `e2e4`, `e7e8q`, `0000`.
    pub(crate) fn uci(&self) -> String {
        self.uci.to_string()
    }

    /// The start square, 0 (a1) to 63 (h8); 0 for the null move.
    #[getter]
    #[allow(clippy::wrong_self_convention)] // python-chess's name
    fn from_square(&self) -> u32 {
        match self.uci {
            Uci::Normal { from, .. } => from.index(),
            Uci::Null => 0,
        }
    }

    /// The destination square, 0 (a1) to 63 (h8); 0 for the null move.
    #[getter]
    #[allow(clippy::wrong_self_convention)] // python-chess's name
    fn to_square(&self) -> u32 {
        match self.uci {
            Uci::Normal { to, .. } => to.index(),
            Uci::Null => 0,
        }
    }

    /// The promotion piece type (2 knight ... 5 queen), or None.
    #[getter]
    fn promotion(&self) -> Option<u8> {
        match self.uci {
            Uci::Normal { promotion, .. } => promotion.map(piece_type),
            Uci::Null => None,
        }
    }

    /// Always None: no drops in standard chess.
    #[getter]
    fn drop(&self) -> Option<u8> {
        None
    }

    fn __bool__(&self) -> bool {
        self.uci != Uci::Null
    }

    fn __str__(&self) -> String {
        self.uci()
    }

    fn __repr__(&self) -> String {
        format!("Move.from_uci('{}')", self.uci)
    }
}

/// A chess position with its move stack: python-chess's `chess.Board` for
/// PGN work.
///
/// `Board()` is the starting position; `Board(fen)` any legal position
/// (X-FEN or Shredder-FEN castling; Chess960 with `chess960=True`).
#[pyclass(module = "pgnkit")]
#[derive(Clone)]
pub struct Board {
    pub(crate) position: Position,
    /// The positions before each pushed move, and the moves.
    stack: Vec<(Position, ChessMove)>,
}

impl Board {
    /// A board at `position`, with no move stack.
    pub fn at(position: Position) -> Board {
        Board {
            position,
            stack: Vec::new(),
        }
    }

    /// The legal move that `m` names here, or a `ValueError` (python-chess's
    /// `IllegalMoveError` is a `ValueError` too).
    pub fn resolve(&self, m: &Move) -> PyResult<ChessMove> {
        m.uci.to_move(&self.position).map_err(|_| {
            PyValueError::new_err(format!("illegal move {} in {}", m.uci, self.position))
        })
    }

    /// Plays a move known to be legal, keeping it on the move stack.
    pub fn push_unchecked(&mut self, m: ChessMove) {
        self.stack.push((self.position.clone(), m));
        self.position.play_unchecked(m);
    }

    /// The position before the first move of the stack, and the moves.
    pub fn root_and_moves(&self) -> (Position, Vec<ChessMove>) {
        let root = self
            .stack
            .first()
            .map_or_else(|| self.position.clone(), |(p, _)| p.clone());
        (root, self.stack.iter().map(|(_, m)| *m).collect())
    }

    fn mode(&self) -> CastlingMode {
        self.position.castling_mode()
    }
}

/// The FEN of the starting position.
pub const STARTING_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

#[pymethods]
impl Board {
    #[new]
    #[pyo3(signature = (fen=Some(STARTING_FEN.to_string()), *, chess960=false))]
    fn new(fen: Option<String>, chess960: bool) -> PyResult<Board> {
        let Some(fen) = fen else {
            return Err(PyValueError::new_err(
                "pgnkit boards hold a legal position: Board(None) (an empty board) is not one",
            ));
        };
        let setup = pgnkit::chess::Setup::parse(fen.as_bytes())
            .map_err(|e| PyValueError::new_err(format!("invalid fen {fen:?}: {e}")))?;
        let mode = if chess960 {
            CastlingMode::Chess960
        } else {
            setup.castling_mode()
        };
        let position = Position::from_setup(setup, mode)
            .map_err(|e| PyValueError::new_err(format!("illegal position {fen:?}: {e}")))?;
        Ok(Board::at(position))
    }

    /// The position in FEN (X-FEN castling, en passant square only when a
    /// legal capture is possible, as python-chess's default `fen()`).
    #[pyo3(signature = (*, shredder=false))]
    fn fen(&self, shredder: bool) -> String {
        let options = if shredder {
            FenOptions::new().shredder()
        } else {
            FenOptions::new()
        };
        self.position.fen(options)
    }

    /// The side to move: True (WHITE) or False (BLACK), as python-chess.
    #[getter]
    fn turn(&self) -> bool {
        self.position.turn() == Color::White
    }

    /// The full move number.
    #[getter]
    fn fullmove_number(&self) -> u32 {
        self.position.fullmoves()
    }

    /// The half-move clock (for the fifty-move rule).
    #[getter]
    fn halfmove_clock(&self) -> u32 {
        self.position.halfmoves()
    }

    /// Whether castling is Chess960's.
    #[getter]
    fn chess960(&self) -> bool {
        self.mode() == CastlingMode::Chess960
    }

    /// The legal moves (a sized collection: `len()`, `in`, `count()`, iteration).
    #[getter]
    fn legal_moves(&self) -> LegalMoves {
        let mode = self.mode();
        LegalMoves {
            moves: self
                .position
                .legal_moves()
                .iter()
                .map(|&m| Move::of(m, mode))
                .collect(),
        }
    }

    /// The moves pushed so far, oldest first.
    #[getter]
    fn move_stack(&self) -> Vec<Move> {
        let mode = self.mode();
        self.stack.iter().map(|(_, m)| Move::of(*m, mode)).collect()
    }

    /// Whether `move` is legal here.
    fn is_legal(&self, r#move: &Move) -> bool {
        self.resolve(r#move).is_ok()
    }

    /// Plays a legal move.
    fn push(&mut self, r#move: &Move) -> PyResult<()> {
        let m = self.resolve(r#move)?;
        self.stack.push((self.position.clone(), m));
        self.position.play_unchecked(m);
        Ok(())
    }

    /// Plays a move given in SAN (`Nf3`, `exd5`, `O-O`, `e8=Q+`); returns it.
    fn push_san(&mut self, san: &str) -> PyResult<Move> {
        let before = self.position.clone();
        let m = self.position.play_san(san.as_bytes()).map_err(|e| {
            let what = match e {
                PlaySanError::InvalidSyntax => "invalid san",
                PlaySanError::Illegal => "illegal san",
                PlaySanError::Ambiguous => "ambiguous san",
                _ => "invalid san",
            };
            PyValueError::new_err(format!("{what}: {san:?} in {before}"))
        })?;
        self.stack.push((before, m));
        Ok(Move::of(m, self.mode()))
    }

    /// Plays a move given in UCI (`e2e4`); returns it.
    fn push_uci(&mut self, uci: &str) -> PyResult<Move> {
        let parsed = Uci::parse(uci.as_bytes())
            .map_err(|_| PyValueError::new_err(format!("invalid uci: {uci:?}")))?;
        let m = Move { uci: parsed };
        self.push(&m)?;
        Ok(m)
    }

    /// Takes back the last move and returns it.
    fn pop(&mut self) -> PyResult<Move> {
        let (before, m) = self
            .stack
            .pop()
            .ok_or_else(|| PyIndexError::new_err("pop from empty move stack"))?;
        self.position = before;
        Ok(Move::of(m, self.mode()))
    }

    /// The last move pushed.
    fn peek(&self) -> PyResult<Move> {
        let (_, m) = self
            .stack
            .last()
            .ok_or_else(|| PyIndexError::new_err("peek from empty move stack"))?;
        Ok(Move::of(*m, self.mode()))
    }

    /// The SAN of a legal move here, with `+` or `#`.
    fn san(&self, r#move: &Move) -> PyResult<String> {
        let m = self.resolve(r#move)?;
        Ok(SanPlus::from_move(&self.position, m).to_string())
    }

    /// The move a SAN names here, without playing it.
    fn parse_san(&self, san: &str) -> PyResult<Move> {
        let mut copy = self.clone();
        copy.push_san(san)
    }

    /// Whether the side to move is in check.
    fn is_check(&self) -> bool {
        self.position.is_check()
    }

    /// Whether the side to move is checkmated.
    fn is_checkmate(&self) -> bool {
        self.position.is_checkmate()
    }

    /// Whether the side to move has no legal move and is not in check.
    fn is_stalemate(&self) -> bool {
        self.position.is_stalemate()
    }

    /// Whether neither side has the material to mate.
    fn is_insufficient_material(&self) -> bool {
        self.position.is_insufficient_material()
    }

    /// Whether the game is over on the board (checkmate, stalemate, insufficient material).
    fn is_game_over(&self) -> bool {
        self.position.outcome().is_some()
    }

    /// The outcome on the board, or None while the game goes on: an object
    /// with `winner` (True, False or None), `termination` and `result()`.
    fn outcome(&self, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
        let Some(outcome) = self.position.outcome() else {
            return Ok(None);
        };
        let termination = if self.position.is_checkmate() {
            "CHECKMATE"
        } else if self.position.is_stalemate() {
            "STALEMATE"
        } else {
            "INSUFFICIENT_MATERIAL"
        };
        let winner = outcome.winner().map(|c| c == Color::White);
        let class = py.import("pgnkit._outcome")?.getattr("Outcome")?;
        Ok(Some(class.call1((termination, winner))?.unbind()))
    }

    /// A copy of the board (with its move stack).
    fn copy(&self) -> Board {
        self.clone()
    }

    fn __copy__(&self) -> Board {
        self.clone()
    }

    fn __eq__(&self, other: &Board) -> bool {
        self.position == other.position
    }

    fn __hash__(&self) -> u64 {
        let mut h = DefaultHasher::new();
        self.position.hash(&mut h);
        h.finish()
    }

    /// The board as text, rank 8 first: pieces as letters, empty squares as dots.
    fn __str__(&self) -> String {
        crate::svg::ascii(&self.position)
    }

    fn __repr__(&self) -> String {
        format!("Board('{}')", self.position)
    }

    /// The board as an SVG picture (Jupyter shows it).
    fn _repr_svg_(&self) -> String {
        let last = self.stack.last().map(|(_, m)| *m);
        crate::svg::board(&self.position, last)
    }
}

/// The legal moves of a position: python-chess's `LegalMoveGenerator`.
#[pyclass(module = "pgnkit", frozen)]
pub struct LegalMoves {
    moves: Vec<Move>,
}

#[pymethods]
impl LegalMoves {
    fn __len__(&self) -> usize {
        self.moves.len()
    }

    /// The number of legal moves.
    fn count(&self) -> usize {
        self.moves.len()
    }

    fn __contains__(&self, r#move: &Move) -> bool {
        self.moves.contains(r#move)
    }

    fn __bool__(&self) -> bool {
        !self.moves.is_empty()
    }

    fn __iter__(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let list = pyo3::types::PyList::new(py, self.moves.iter().copied())?;
        Ok(list.try_iter()?.into_any().unbind())
    }

    fn __repr__(&self) -> String {
        let list: Vec<String> = self.moves.iter().map(|m| m.uci.to_string()).collect();
        format!("<LegalMoves ({})>", list.join(", "))
    }
}
