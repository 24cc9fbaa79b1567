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

class PgnIndexError(ValueError):
    """A position index or opening book that cannot be used: corrupt or truncated,
    written by a newer pgnkit, a source file changed since it was indexed, a file
    indexed twice, a file that is not a Polyglot book. The message names the file
    and what is wrong."""

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
    nested_comments: bool = False,
    fix_tag_strings: bool = False,
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
    The reading rules (also taken by ``read_game``, ``read_headers``, ``search``,
    ``read_arrow``, ``to_parquet`` and the Dask and Spark readers): ``strict`` makes
    lenient move forms errors; ``nested_comments`` reads ``{ a { b } c }`` as one
    comment (pgn-extract's ``--nestedcomments``); ``fix_tag_strings`` repairs a tag
    value without its closing quote whose line ends with ``]`` (``[Site "Paris]``),
    with a warning, instead of an error (``--fixtagstrings``).
    """

def read_game(
    handle: Union[Source, Any],
    *,
    strict: bool = False,
    nested_comments: bool = False,
    fix_tag_strings: bool = False,
) -> Optional[Game]: ...

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
    skip: int = 0,
    first: Optional[int] = None,
    strict: bool = False,
    max_window: Union[int, str, None] = None,
    nested_comments: bool = False,
    fix_tag_strings: bool = False,
) -> Iterator[Game]: ...
@overload
def search(
    source: Source,
    query: str,
    *,
    offsets: Literal[True],
    skip: int = 0,
    first: Optional[int] = None,
    strict: bool = False,
    max_window: Union[int, str, None] = None,
    nested_comments: bool = False,
    fix_tag_strings: bool = False,
) -> Iterator[SearchHit]:
    """The games of a source that ``query`` selects (``pgnkit search``'s language:
    ``pattern``, ``material``, ``imbalance``, ``sequence``, ``reaches``, ``at (...)``,
    ``in_variations``; docs/search.md), in input order; with ``offsets=True`` a
    ``SearchHit`` each. ``skip=N`` leaves out the first N games found and ``first=N``
    yields at most N, reading no further (``pgnkit search --skip N --first N``). A
    malformed query raises ``ValueError`` (the query with a caret under the fault)
    before the source is opened; games with errors are not searched and are reported
    as ``PgnWarning``s.
    """

Paths = Union[str, os.PathLike, Iterable[Union[str, os.PathLike]]]
#: A position: a FEN, moves from the start (``"e4 c5 Nf3"``, move numbers allowed),
#: or a board (anything with a ``fen()`` method: ``pgnkit.Board``, ``chess.Board``).
Position = Union[str, Any]
Speed = Literal["ultrabullet", "bullet", "blitz", "rapid", "classical", "correspondence"]

class TreeGame:
    """A game of a tree row: the latest or the highest-rated game that played the move."""

    source: str
    offset: int
    game: int
    white: str
    black: str
    white_elo: Optional[int]
    black_elo: Optional[int]
    date: str
    result: str

class TreeRow:
    """One move of a tree (``Index.tree``, ``pgnkit.tree``): how often it was played
    from the position (transpositions included) and how those games ended."""

    san: str
    uci: str
    games: int
    white: int
    draws: int
    black: int
    #: The score of the side that played the move, in percent (a win 1, a draw ½).
    score: float
    #: The players' average rating (``None`` when no game has one).
    average_rating: Optional[int]
    #: The average rating of the opponents of the side that played the move.
    average_opponent: Optional[int]
    #: The performance rating of the side that played the move: the opponents'
    #: average plus ``400 * log10(p / (1 - p))`` for its score ``p``, at most ±800.
    performance: Optional[int]
    latest: Optional[TreeGame]
    best: Optional[TreeGame]

class Index:
    """A persistent position index (a folder, as ``pgnkit index`` makes it): the games
    that reach a position and the moves played from it, keyed by Polyglot keys. The
    games stay in their source files (plain or compressed); the index keeps where they
    are and checks that the files have not changed before it reads them.

    A missing folder raises ``FileNotFoundError``; a corrupt, truncated or newer index
    ``PgnIndexError``; a malformed position ``ValueError`` (which move is illegal and why).
    """

    @staticmethod
    def build(
        paths: Paths,
        folder: Union[str, os.PathLike],
        *,
        threads: Optional[int] = None,
        strict: bool = False,
        nested_comments: bool = False,
        fix_tag_strings: bool = False,
    ) -> Index:
        """Indexes the PGN files ``paths`` into ``folder`` (an index there is replaced;
        a failed build leaves nothing under its name) and opens the index. ``threads``
        (default all cores) read the games. Games with errors are left out. ``strict``,
        ``nested_comments`` and ``fix_tag_strings`` are the reading rules of
        ``read_games`` (the index records nothing of them: give them to ``append``,
        ``search`` and ``tree`` without an index too)."""
    @staticmethod
    def open(folder: Union[str, os.PathLike]) -> Index:
        """Opens the index in ``folder``."""
    def append(
        self,
        paths: Paths,
        *,
        threads: Optional[int] = None,
        strict: bool = False,
        nested_comments: bool = False,
        fix_tag_strings: bool = False,
    ) -> None:
        """Adds the PGN files ``paths`` as a new segment, atomically (the index is as it
        was if this fails); a file indexed already raises ``PgnIndexError``."""
    @property
    def path(self) -> str: ...
    @property
    def games(self) -> int: ...
    @property
    def positions(self) -> int: ...
    @property
    def segments(self) -> int: ...
    @overload
    def search(
        self,
        position: Position,
        *,
        offsets: Literal[False] = False,
        skip: int = 0,
        first: Optional[int] = None,
        strict: bool = False,
        nested_comments: bool = False,
        fix_tag_strings: bool = False,
    ) -> List[Game]: ...
    @overload
    def search(
        self,
        position: Position,
        *,
        offsets: Literal[True],
        skip: int = 0,
        first: Optional[int] = None,
        strict: bool = False,
        nested_comments: bool = False,
        fix_tag_strings: bool = False,
    ) -> List[SearchHit]:
        """The games whose main line reaches ``position``, in input order, read from
        their source files (by the reading rules given); with ``offsets=True`` a ``SearchHit`` each (source, byte
        offset, game number, plies), as ``pgnkit.search(source, 'reaches "FEN"',
        offsets=True)`` gives them without an index. ``skip=N`` leaves out the first N
        games and ``first=N`` gives at most N, the index read no further than they need
        (``pgnkit search --index --skip N --first N``)."""
    def tree(
        self,
        position: Position,
        *,
        min_rating: Optional[int] = None,
        max_rating: Optional[int] = None,
        speeds: Optional[List[Speed]] = None,
        since: Optional[str] = None,
        until: Optional[str] = None,
        player: Optional[str] = None,
        color: Optional[Literal["white", "black"]] = None,
    ) -> List[TreeRow]:
        """The moves played from ``position``, most played first, as ``pgnkit tree``
        gives them: games that reach the position by any move order count. Filters as
        the Lichess explorer's: the players' average rating, speed classes (from
        ``TimeControl``), dates (``YYYY.MM.DD``, ``YYYY.MM`` or ``YYYY``), a player
        (exact name, case-insensitive) and with ``color`` the side they had."""

def tree(
    paths: Paths,
    position: Position,
    *,
    min_rating: Optional[int] = None,
    max_rating: Optional[int] = None,
    speeds: Optional[List[Speed]] = None,
    since: Optional[str] = None,
    until: Optional[str] = None,
    player: Optional[str] = None,
    color: Optional[Literal["white", "black"]] = None,
    threads: Optional[int] = None,
    strict: bool = False,
    nested_comments: bool = False,
    fix_tag_strings: bool = False,
) -> List[TreeRow]:
    """``Index.tree`` read from the files themselves, without an index (the same rows)."""

class BookMove:
    """A move of a Polyglot book in a position (``probe_book``)."""

    uci: str
    san: str
    weight: int
    #: The move's share of the weights of the position's moves, in percent.
    percent: float
    learn: int

def book(
    paths: Paths,
    out: Union[str, os.PathLike],
    *,
    max_ply: int = 20,
    min_games: int = 3,
    min_score: float = 0.0,
    only: Optional[Literal["white", "black"]] = None,
    uniform: bool = False,
    min_rating: Optional[int] = None,
    max_rating: Optional[int] = None,
    speeds: Optional[List[Speed]] = None,
    since: Optional[str] = None,
    until: Optional[str] = None,
    player: Optional[str] = None,
    color: Optional[Literal["white", "black"]] = None,
    threads: Optional[int] = None,
    strict: bool = False,
    nested_comments: bool = False,
    fix_tag_strings: bool = False,
) -> int:
    """Writes a Polyglot opening book (``.bin``) of the games' main lines to ``out``
    (whole or not at all) and returns its entries, as ``pgnkit book`` does: each move
    played before ``max_ply`` weighs 2 for a win of the side that played it, 1 for a
    draw (or no result), 0 for a loss; moves played in fewer than ``min_games`` games,
    that never scored, or that scored under ``min_score`` percent are left out;
    ``only`` keeps one side's moves; ``uniform`` weighs every move 1; the other
    keywords choose the games, as for ``Index.tree``."""

def probe_book(path: Union[str, os.PathLike], position: Position) -> List[BookMove]:
    """The moves the Polyglot book ``path`` holds for ``position``, in the book's order
    (highest weight first in the books pgnkit makes), as ``chess.polyglot``'s
    ``find_all(board, minimum_weight=0)`` reads them."""

def read_headers(
    source: Source,
    *,
    threads: Optional[int] = None,
    max_window: Union[int, str, None] = None,
    nested_comments: bool = False,
    fix_tag_strings: bool = False,
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
    nested_comments: bool = False,
    fix_tag_strings: bool = False,
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
    nested_comments: bool = False,
    fix_tag_strings: bool = False,
    compression: str = "zstd",
) -> int:
    """Writes the table ``read_arrow`` gives to a Parquet file; returns its rows.
    ``compression`` is the codec of every column: ``"zstd"`` (level 1, the default),
    ``"zstd:LEVEL"`` (1 to 22), ``"lz4"`` (Parquet's LZ4_RAW), ``"snappy"`` or ``"none"``;
    other text raises ``ValueError``.
    """

def split_ranges(path: Union[str, os.PathLike], n: int) -> List[Tuple[int, int]]: ...
