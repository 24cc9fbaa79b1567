"""Engine scores as python-chess shapes them (``chess.engine``): ``Cp``, ``Mate``,
``MateGiven`` and ``PovScore``, which ``node.eval()`` returns.

The same names, values, ordering and printing as python-chess, so code written
for ``node.eval().white().score()`` runs unchanged.
"""

from __future__ import annotations

from typing import Optional, Tuple, Union


class Score:
    """An evaluation from one side's point of view: ``Cp``, ``Mate`` or ``MateGiven``.

    Scores are ordered: ``Mate(-0) < Mate(-1) < Cp(-50) < Cp(200) < Mate(4) < Mate(1) < MateGiven``.
    """

    def score(self, *, mate_score: Optional[int] = None) -> Optional[int]:
        """The score in centipawns, or None for a mate (unless ``mate_score`` is given)."""
        raise NotImplementedError

    def mate(self) -> Optional[int]:
        """Moves to mate (negative when being mated), or None."""
        raise NotImplementedError

    def is_mate(self) -> bool:
        """Whether this is a mate score."""
        return self.mate() is not None

    def __neg__(self) -> Score:
        raise NotImplementedError

    def _score_tuple(self) -> Tuple[bool, bool, bool, int, Optional[int]]:
        mate = self.mate()
        return (
            isinstance(self, MateGivenType),
            mate is not None and mate > 0,
            mate is None,
            -(mate or 0),
            self.score(),
        )

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Score):
            return self._score_tuple() == other._score_tuple()
        return NotImplemented

    def __lt__(self, other: Score) -> bool:
        return self._score_tuple() < other._score_tuple()

    def __le__(self, other: Score) -> bool:
        return self._score_tuple() <= other._score_tuple()

    def __gt__(self, other: Score) -> bool:
        return self._score_tuple() > other._score_tuple()

    def __ge__(self, other: Score) -> bool:
        return self._score_tuple() >= other._score_tuple()

    def __hash__(self) -> int:
        return hash(self._score_tuple())


class Cp(Score):
    """A score in centipawns (hundredths of a pawn)."""

    def __init__(self, cp: int) -> None:
        self.cp = cp

    def mate(self) -> None:
        return None

    def score(self, *, mate_score: Optional[int] = None) -> int:
        return self.cp

    def __str__(self) -> str:
        return f"+{self.cp:d}" if self.cp > 0 else str(self.cp)

    def __repr__(self) -> str:
        return f"Cp({self})"

    def __neg__(self) -> Cp:
        return Cp(-self.cp)

    def __pos__(self) -> Cp:
        return Cp(self.cp)

    def __abs__(self) -> Cp:
        return Cp(abs(self.cp))


class Mate(Score):
    """Mate in ``moves`` moves; negative when the side is being mated, ``Mate(0)`` when it is mated."""

    def __init__(self, moves: int) -> None:
        self.moves = moves

    def mate(self) -> int:
        return self.moves

    def score(self, *, mate_score: Optional[int] = None) -> Optional[int]:
        if mate_score is None:
            return None
        if self.moves > 0:
            return mate_score - self.moves
        return -mate_score - self.moves

    def __str__(self) -> str:
        return f"#+{self.moves}" if self.moves > 0 else f"#-{abs(self.moves)}"

    def __repr__(self) -> str:
        return "Mate({})".format(str(self).lstrip("#"))

    def __neg__(self) -> Union[MateGivenType, Mate]:
        return MateGiven if not self.moves else Mate(-self.moves)

    def __pos__(self) -> Mate:
        return Mate(self.moves)

    def __abs__(self) -> Union[MateGivenType, Mate]:
        return MateGiven if not self.moves else Mate(abs(self.moves))


class MateGivenType(Score):
    """The winning side's score once mate is on the board: ``-Mate(0)``."""

    def mate(self) -> int:
        return 0

    def score(self, *, mate_score: Optional[int] = None) -> Optional[int]:
        return mate_score

    def __neg__(self) -> Mate:
        return Mate(0)

    def __pos__(self) -> MateGivenType:
        return self

    def __abs__(self) -> MateGivenType:
        return self

    def __repr__(self) -> str:
        return "MateGiven"

    def __str__(self) -> str:
        return "#+0"


MateGiven = MateGivenType()


class PovScore:
    """A score relative to the side to move (``turn``: True white, False black)."""

    def __init__(self, relative: Score, turn: bool) -> None:
        self.relative = relative
        self.turn = turn

    def white(self) -> Score:
        """The score from white's point of view."""
        return self.pov(True)

    def black(self) -> Score:
        """The score from black's point of view."""
        return self.pov(False)

    def pov(self, color: bool) -> Score:
        """The score from the point of view of ``color`` (True white, False black)."""
        return self.relative if self.turn == color else -self.relative

    def is_mate(self) -> bool:
        """Whether this is a mate score."""
        return self.relative.is_mate()

    def __repr__(self) -> str:
        return "PovScore({!r}, {})".format(self.relative, "WHITE" if self.turn else "BLACK")

    def __eq__(self, other: object) -> bool:
        if isinstance(other, PovScore):
            return self.white() == other.white()
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.white())


def _from_white(kind: str, value: int, turn: bool) -> PovScore:
    """The ``PovScore`` of a ``[%eval]`` command (white's point of view) at a node
    where ``turn`` moves next, as python-chess's ``GameNode.eval()`` builds it."""
    if kind == "mate":
        if value == 0:
            # The side to move is mated.
            return PovScore(Mate(0), turn)
        score: Score = Mate(value)
    else:
        score = Cp(value)
    return PovScore(score if turn else -score, turn)
