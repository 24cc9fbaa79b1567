"""pgnkit: read, check and write chess games in PGN, python-chess's PGN API at native speed.

Reading::

    import pgnkit

    for game in pgnkit.read_games("games.pgn.zst"):
        print(game.headers["White"], game.headers["Black"], game.headers["Result"])
        for node in game.mainline():
            print(node.san(), node.clock())

The same shapes as python-chess (``chess.pgn``): ``read_game(handle)``,
``game.headers``, ``game.mainline_moves()``, ``node.clock()``, ``node.eval()``,
``game.board()``, ``str(game)``; every move is checked, and errors come with
their line and column (``game.errors``).

Tables: ``pgnkit.read_arrow(source, table="games" | "moves" | "positions")`` returns a
``pyarrow.Table`` (one row per game, or per main-line move);
``pgnkit.to_parquet(source, path)`` writes one.

Positions: ``pgnkit.search(source, query)`` finds games by position without an
index; ``pgnkit.Index.build(paths, folder)`` makes a persistent position index
(``Index.search(position)``, ``Index.tree(position)``: the moves played and how
they scored); ``pgnkit.book(paths, "book.bin")`` makes a Polyglot opening book.

See ``help(pgnkit.read_games)``, ``help(pgnkit.Game)``, ``help(pgnkit.Node)``,
``help(pgnkit.Board)`` and ``help(pgnkit.read_arrow)``.
"""

from __future__ import annotations

import weakref
from typing import IO, Any, Optional, Union

from pgnkit._outcome import Outcome
from pgnkit._pgnkit import (
    Board,
    BookMove,
    Game,
    Headers,
    Index,
    LegalMoves,
    Move,
    Node,
    PgnError,
    PgnIndexError,
    PgnWarning,
    ReadError,
    SearchHit,
    TreeGame,
    TreeRow,
    book,
    probe_book,
    read_arrow,
    read_games,
    read_headers,
    search,
    split_ranges,
    to_parquet,
    tree,
)
from pgnkit._pgnkit import _read_next as _read_next
from pgnkit._pgnkit import _read_one as _read_one
from pgnkit._score import Cp, Mate, MateGiven, PovScore, Score

__all__ = [
    "Board",
    "BookMove",
    "Cp",
    "Game",
    "Headers",
    "Index",
    "LegalMoves",
    "Mate",
    "MateGiven",
    "Move",
    "Node",
    "Outcome",
    "PgnError",
    "PgnIndexError",
    "PgnWarning",
    "PovScore",
    "ReadError",
    "Score",
    "SearchHit",
    "TreeGame",
    "TreeRow",
    "book",
    "probe_book",
    "read_arrow",
    "read_game",
    "read_games",
    "read_headers",
    "search",
    "split_ranges",
    "to_parquet",
    "tree",
]

# python-chess's names for the colours and pieces.
WHITE = True
BLACK = False
PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING = range(1, 7)

try:
    import collections.abc as _abc

    _abc.MutableMapping.register(Headers)
except Exception:  # pragma: no cover - registration is a convenience
    pass


# Bytes read past a game by ``read_game`` from a handle that cannot seek back,
# fed first to the next ``read_game`` on that handle.
_UNREAD: weakref.WeakKeyDictionary[Any, bytes] = weakref.WeakKeyDictionary()


def read_game(
    handle: Union[IO[str], IO[bytes], Any],
    *,
    strict: bool = False,
    nested_comments: bool = False,
    fix_tag_strings: bool = False,
) -> Optional[Game]:
    """Reads the next game from a file object, as python-chess's ``chess.pgn.read_game``.

    The handle is read line by line (``readline``) and the game ends where
    ``read_games`` ends it on the same text (the splitter's rules: a tag line
    after the movetext starts the next game even without a blank line before
    it; braces or semicolons in tag values open nothing). The splitter sees
    the line where the next game starts, then the handle is sought back to
    that game's first byte: it is left just after the game's last line (after
    its blank line, where python-chess leaves it), so calling ``read_game``
    again reads the next game. A handle that cannot seek (a pipe) keeps the
    bytes read past the game here, for the next ``read_game`` call on it.
    Returns None at the end of the file. Every move is checked; a game with
    errors is returned with ``game.errors`` set. ``game.line`` and
    ``game.offset`` count from where the handle was.

    ``strict``, ``nested_comments`` and ``fix_tag_strings`` are the reading
    rules of ``read_games`` (with ``nested_comments`` the game also ends where
    ``read_games`` with it ends it).

    ``handle`` may also be a path or PGN data (anything ``read_games`` takes):
    then the first game is returned. To read all games of a file,
    ``read_games`` is much faster.
    """
    rules = {
        "strict": strict,
        "nested_comments": nested_comments,
        "fix_tag_strings": fix_tag_strings,
    }
    if not hasattr(handle, "readline"):
        return next(iter(read_games(handle, **rules)), None)
    try:
        unread = _UNREAD.pop(handle, b"")
    except TypeError:  # not weakly referenceable: nothing was kept for it
        unread = b""
    game, unread = _read_next(handle, unread, **rules)
    if unread:
        try:
            _UNREAD[handle] = unread
        except TypeError:
            raise TypeError(
                f"pgnkit.read_game read {len(unread)} bytes past the game from a handle "
                "that can neither seek back nor be weakly referenced to keep them: "
                "give a seekable file object, or use pgnkit.read_games"
            ) from None
    return game
