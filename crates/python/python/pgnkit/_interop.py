"""Games to and from python-chess (``chess.pgn.Game``), through PGN text.

python-chess is an optional dependency: these helpers import it when called.
"""

from __future__ import annotations

import io
from typing import Any


def to_python_chess(text: str) -> Any:
    """A ``chess.pgn.Game`` read from the export text of a pgnkit game."""
    import chess.pgn

    return chess.pgn.read_game(io.StringIO(text))


def from_python_chess(game: Any) -> Any:
    """A ``pgnkit.Game`` from a python-chess game (its PGN text read by pgnkit)."""
    import chess.pgn

    from pgnkit._pgnkit import _read_one

    exporter = chess.pgn.StringExporter(headers=True, variations=True, comments=True)
    text = game.accept(exporter)
    return _read_one(text.encode("utf-8"))
