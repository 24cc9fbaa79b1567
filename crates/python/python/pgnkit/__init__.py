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

Tables: ``pgnkit.read_arrow(source, table="games" | "moves")`` returns a
``pyarrow.Table`` (one row per game, or per main-line move);
``pgnkit.to_parquet(source, path)`` writes one.

See ``help(pgnkit.read_games)``, ``help(pgnkit.Game)``, ``help(pgnkit.Node)``,
``help(pgnkit.Board)`` and ``help(pgnkit.read_arrow)``.
"""

from __future__ import annotations

from typing import IO, Any, Optional, Union

from pgnkit._outcome import Outcome
from pgnkit._pgnkit import (
    Board,
    Game,
    Headers,
    LegalMoves,
    Move,
    Node,
    PgnError,
    PgnWarning,
    ReadError,
    read_arrow,
    read_games,
    read_headers,
    split_ranges,
    to_parquet,
)
from pgnkit._pgnkit import _read_one as _read_one
from pgnkit._score import Cp, Mate, MateGiven, PovScore, Score

__all__ = [
    "Board",
    "Cp",
    "Game",
    "Headers",
    "LegalMoves",
    "Mate",
    "MateGiven",
    "Move",
    "Node",
    "Outcome",
    "PgnError",
    "PgnWarning",
    "PovScore",
    "ReadError",
    "Score",
    "read_arrow",
    "read_game",
    "read_games",
    "read_headers",
    "split_ranges",
    "to_parquet",
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


def _is_blank(line: Union[str, bytes]) -> bool:
    return not line.strip()


def read_game(handle: Union[IO[str], IO[bytes], Any], *, strict: bool = False) -> Optional[Game]:
    """Reads the next game from a file object, as python-chess's ``chess.pgn.read_game``.

    The handle is read line by line and left just after the game (at the
    blank line that ends its movetext, as python-chess leaves it), so calling
    ``read_game`` again reads the next game. Returns None at the end of the
    file. Every move is checked; a game with errors is returned with
    ``game.errors`` set.

    ``handle`` may also be a path or PGN data (anything ``read_games`` takes):
    then the first game is returned. To read all games of a file,
    ``read_games`` is much faster.
    """
    if not hasattr(handle, "readline"):
        return next(iter(read_games(handle, strict=strict)), None)
    lines: list = []
    in_comment = False
    movetext = False
    while True:
        line = handle.readline()
        if not line:
            break
        text = line if isinstance(line, str) else line.decode("latin-1")
        if not lines and (_is_blank(text) or text.startswith("%")):
            continue  # leading blank lines and escape lines
        if not in_comment and movetext and _is_blank(text):
            break  # a blank line ends the movetext
        lines.append(line)
        stripped = text.lstrip()
        if (
            not in_comment
            and not movetext
            and stripped
            and not stripped.startswith(("[", "%", ";"))
        ):
            movetext = True
        # Brace comments may span lines; ";" comments run to the end of the line.
        at = 0
        while at < len(text):
            if in_comment:
                close = text.find("}", at)
                if close < 0:
                    break
                in_comment = False
                at = close + 1
                continue
            brace = text.find("{", at)
            semicolon = text.find(";", at)
            if brace < 0:
                break
            if 0 <= semicolon < brace:
                break
            in_comment = True
            at = brace + 1
    if not lines:
        return None
    data = b"".join(
        line.encode("utf-8") if isinstance(line, str) else bytes(line) for line in lines
    )
    return _read_one(data, strict=strict)
