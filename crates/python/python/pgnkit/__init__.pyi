"""Type stubs of the pgnkit package (the native module's classes and functions)."""

import os
from typing import (
    IO,
    Any,
    Iterable,
    Iterator,
    List,
    Literal,
    Mapping,
    MutableMapping,
    Optional,
    Set,
    Tuple,
    Union,
    overload,
)

from pgnkit._outcome import Outcome as Outcome
from pgnkit._score import Cp as Cp
from pgnkit._score import Mate as Mate
from pgnkit._score import MateGiven as MateGiven
from pgnkit._score import PovScore as PovScore
from pgnkit._score import Score as Score

Source = Union[str, bytes, bytearray, os.PathLike, IO[str], IO[bytes]]

WHITE: bool
BLACK: bool
PAWN: int
KNIGHT: int
BISHOP: int
ROOK: int
QUEEN: int
KING: int

class PgnError(ValueError): ...
class PgnWarning(UserWarning): ...

class ReadError:
    line: int
    column: int
    message: str
    start: int
    end: int
    move_text: Optional[str]
    fen: Optional[str]
    severity: str

class Move:
    from_square: int
    to_square: int
    promotion: Optional[int]
    drop: None
    def __init__(
        self,
        from_square: int,
        to_square: int,
        promotion: Optional[int] = None,
        drop: Optional[int] = None,
    ) -> None: ...
    @classmethod
    def from_uci(cls, uci: str) -> Move: ...
    @classmethod
    def null(cls) -> Move: ...
    def uci(self) -> str: ...
    def __bool__(self) -> bool: ...
    def __hash__(self) -> int: ...

class LegalMoves:
    def __len__(self) -> int: ...
    def __iter__(self) -> Iterator[Move]: ...
    def __contains__(self, move: Move) -> bool: ...
    def count(self) -> int: ...

class Board:
    turn: bool
    fullmove_number: int
    halfmove_clock: int
    chess960: bool
    legal_moves: LegalMoves
    move_stack: List[Move]
    def __init__(self, fen: Optional[str] = ..., *, chess960: bool = False) -> None: ...
    def fen(self, *, shredder: bool = False) -> str: ...
    def is_legal(self, move: Move) -> bool: ...
    def push(self, move: Move) -> None: ...
    def push_san(self, san: str) -> Move: ...
    def push_uci(self, uci: str) -> Move: ...
    def pop(self) -> Move: ...
    def peek(self) -> Move: ...
    def san(self, move: Move) -> str: ...
    def parse_san(self, san: str) -> Move: ...
    def is_check(self) -> bool: ...
    def is_checkmate(self) -> bool: ...
    def is_stalemate(self) -> bool: ...
    def is_insufficient_material(self) -> bool: ...
    def is_game_over(self) -> bool: ...
    def outcome(self) -> Optional[Outcome]: ...
    def copy(self) -> Board: ...
    def _repr_svg_(self) -> str: ...

class Headers(MutableMapping[str, str]):
    def __init__(self, data: Optional[Mapping[str, str]] = None, **kwargs: str) -> None: ...
    def __getitem__(self, name: str) -> str: ...
    def __setitem__(self, name: str, value: str) -> None: ...
    def __delitem__(self, name: str) -> None: ...
    def __iter__(self) -> Iterator[str]: ...
    def __len__(self) -> int: ...
    def copy(self) -> Headers: ...
    def is_chess960(self) -> bool: ...

class Node:
    @property
    def move(self) -> Optional[Move]: ...
    @property
    def parent(self) -> Optional[Node]: ...
    @property
    def variations(self) -> List[Node]: ...
    comment: str
    starting_comment: str
    nags: Set[int]
    def san(self) -> str: ...
    def uci(self) -> str: ...
    def ply(self) -> int: ...
    def turn(self) -> bool: ...
    def board(self) -> Board: ...
    def game(self) -> Game: ...
    def end(self) -> Node: ...
    def next(self) -> Optional[Node]: ...
    def is_end(self) -> bool: ...
    def is_mainline(self) -> bool: ...
    def is_main_variation(self) -> bool: ...
    def mainline(self) -> List[Node]: ...
    def mainline_moves(self) -> List[Move]: ...
    def variation(self, which: Union[int, Move]) -> Node: ...
    def has_variation(self, move: Move) -> bool: ...
    def add_variation(
        self,
        move: Union[Move, str],
        *,
        comment: str = "",
        starting_comment: str = "",
        nags: Iterable[int] = (),
    ) -> Node: ...
    def add_main_variation(
        self, move: Union[Move, str], *, comment: str = "", nags: Iterable[int] = ()
    ) -> Node: ...
    def add_line(self, moves: Iterable[Union[Move, str]]) -> Node: ...
    def promote_to_main(self) -> None: ...
    def promote(self) -> None: ...
    def demote(self) -> None: ...
    def remove_variation(self, which: Union[int, Move]) -> None: ...
    def clock(self) -> Optional[float]: ...
    def emt(self) -> Optional[float]: ...
    def set_clock(self, seconds: Optional[float]) -> None: ...
    def set_emt(self, seconds: Optional[float]) -> None: ...
    def eval(self) -> Optional[PovScore]: ...
    def eval_depth(self) -> Optional[int]: ...
    def set_eval(self, score: Optional[PovScore], depth: Optional[int] = None) -> None: ...

class Game(Node):
    def __init__(self, headers: Optional[Mapping[str, str]] = None) -> None: ...
    @classmethod
    def from_board(cls, board: Board) -> Game: ...
    @classmethod
    def from_python_chess(cls, game: Any) -> Game: ...
    @property
    def headers(self) -> Headers: ...
    @property
    def errors(self) -> List[ReadError]: ...
    @property
    def warnings(self) -> List[ReadError]: ...
    @property
    def offset(self) -> int: ...
    @property
    def line(self) -> int: ...
    def root_board(self) -> Board: ...
    def to_pgn(
        self,
        *,
        columns: Optional[int] = None,
        comments: bool = True,
        variations: bool = True,
        headers: bool = True,
    ) -> str: ...
    def to_json(self) -> str: ...
    def matches(self, query: str) -> bool: ...
    def to_python_chess(self) -> Any: ...

def read_games(
    source: Source,
    *,
    threads: Optional[int] = None,
    strict: bool = False,
    skip_broken: bool = False,
    max_window: Union[int, str, None] = None,
) -> Iterator[Game]:
    """Iterates the games of a PGN source, every move checked, in input order.

    ``threads`` (default one) threads read and check games (and decode compressed
    input), from 1 to 1024 (a ``ValueError`` otherwise); with more than one, games are
    read ahead on worker threads, and an input error is raised after every game read
    before it, as with one. Leaving the loop early stops and joins the threads once the
    iterator is dropped.
    The GIL is released while Rust reads. ``max_window`` (default ``"128MiB"``,
    sizes as ``parse_size`` reads them) bounds the memory of a zstd window or an xz
    dictionary; a file that needs more raises ``PgnError`` naming what it needs.
    """

def read_game(handle: Union[Source, Any], *, strict: bool = False) -> Optional[Game]: ...

class SearchHit:
    """Where a game ``search(..., offsets=True)`` found is, and the plies where the
    query's position predicates hold (0: the start position; ``n``: after ``n`` moves)."""

    source: str
    offset: int
    game: int
    plies: List[int]
    variation_plies: List[int]

@overload
def search(
    source: Source,
    query: str,
    *,
    offsets: Literal[False] = False,
    strict: bool = False,
    max_window: Union[int, str, None] = None,
) -> Iterator[Game]: ...
@overload
def search(
    source: Source,
    query: str,
    *,
    offsets: Literal[True],
    strict: bool = False,
    max_window: Union[int, str, None] = None,
) -> Iterator[SearchHit]:
    """The games of a source that ``query`` selects (``pgnkit search``'s language:
    ``pattern``, ``material``, ``imbalance``, ``sequence``, ``reaches``, ``at (...)``,
    ``in_variations``; docs/search.md), in input order; with ``offsets=True`` a
    ``SearchHit`` each. A malformed query raises ``ValueError`` (the query with a
    caret under the fault) before the source is opened; games with errors are not
    searched and are reported as ``PgnWarning``s.
    """

def read_headers(
    source: Source,
    *,
    threads: Optional[int] = None,
    max_window: Union[int, str, None] = None,
) -> Iterator[Headers]: ...
def read_arrow(
    source: Source,
    table: str = "games",
    *,
    threads: Optional[int] = None,
    range: Optional[Tuple[int, int]] = None,
    fen: bool = False,
    keep_broken: bool = False,
    strict: bool = False,
    max_window: Union[int, str, None] = None,
) -> Any:
    """The games table (one row per game; ``movetext`` in export format, as
    ``pgnkit convert`` writes it), the moves table or the positions table (one row per
    main-line position, the start included, keyed by ``polyglot_key``) of a source, as a
    ``pyarrow.Table`` (or an object with ``__arrow_c_stream__`` without pyarrow).
    ``threads`` (default all cores) read and check games; rows keep input order.
    Columns as in docs/columnar.md: ``Date`` is the tag's text, ``game_date`` its date32;
    with ``keep_broken=True`` broken games are kept with an ``errors`` column, a list of
    structs ``{line, column, severity, message}`` per game.
    """

def to_parquet(
    source: Source,
    path: Union[str, os.PathLike],
    table: str = "games",
    *,
    threads: Optional[int] = None,
    range: Optional[Tuple[int, int]] = None,
    fen: bool = False,
    keep_broken: bool = False,
    strict: bool = False,
    max_window: Union[int, str, None] = None,
) -> int:
    """Writes the table ``read_arrow`` gives to a Parquet file; returns its rows."""

def split_ranges(path: Union[str, os.PathLike], n: int) -> List[Tuple[int, int]]: ...
