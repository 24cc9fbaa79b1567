"""The outcome of a game on the board, shaped as python-chess's ``chess.Outcome``."""

from __future__ import annotations

from typing import Optional


class Outcome:
    """How a game ended on the board.

    ``termination`` is the name of the reason (``"CHECKMATE"``, ``"STALEMATE"``,
    ``"INSUFFICIENT_MATERIAL"``), ``winner`` is True (white), False (black) or
    None (a draw).
    """

    __slots__ = ("termination", "winner")

    def __init__(self, termination: str, winner: Optional[bool]) -> None:
        self.termination = termination
        self.winner = winner

    def result(self) -> str:
        """The result as PGN writes it: ``1-0``, ``0-1`` or ``1/2-1/2``."""
        if self.winner is None:
            return "1/2-1/2"
        return "1-0" if self.winner else "0-1"

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Outcome)
            and other.termination == self.termination
            and other.winner == self.winner
        )

    def __hash__(self) -> int:
        return hash((self.termination, self.winner))

    def __repr__(self) -> str:
        return f"Outcome(termination={self.termination}, winner={self.winner!r})"
