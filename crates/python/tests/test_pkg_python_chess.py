"""pgnkit against python-chess (the reference reader) on the corpus files that
python-chess reads: for every game, the same headers; and for every game both
read without error, the same main line (SAN and UCI), final FEN, clocks,
evals, comments and NAGs.

CI reads a sample: every PGN file of the corpus except the big benchmark set
and the opening books, at most ``GAMES_PER_FILE`` games of each, and the first
games of every tenth file of ``big/``. Set ``PGNKIT_PY_FULL=1`` to read every
game of every PGN file (minutes).
"""

from __future__ import annotations

import itertools
import os
from pathlib import Path
from typing import Iterator, List

import chess.pgn
import pytest

import pgnkit

FULL = os.environ.get("PGNKIT_PY_FULL") == "1"
GAMES_PER_FILE = None if FULL else 150
BIG_GAMES_PER_FILE = None if FULL else 15

CORPUS = Path(
    os.environ.get("PGNKIT_CORPUS", Path(__file__).resolve().parents[4] / "shared" / "corpus")
)

# Where python-chess is wrong or reads differently, by file: why, and pgnkit's
# behaviour asserted instead (games read, games with errors).
KNOWN = {
    # python-chess ends a game at a blank line only; pgnkit also where a tag
    # line follows the movetext (SPEC-NOTES "no blank line between games").
    "lichess-annotated/chesscom_MagnusCarlsen.pgn": ("no blank line between games", 334, 0),
    "big/chesscom/cancer0707_chesscom.pgn": ("no blank line between games", None, None),
    "edge/scalachess/FWWRC-tags-only.pgn": ("tag sections without blank lines", 605, 0),
    "edge/scalachess/uzchesscup-tags-only.pgn": ("tag sections without blank lines", 45, 0),
    "edge/pgn-extract/test-fuzzydepth.pgn": ("games without blank lines between", 4, 0),
    "edge/pgn-extract/test-nobadresults.pgn": ("games without blank lines between", 9, 0),
    # A blank line after a comment that precedes the moves: python-chess ends
    # the game there and reads the moves as a second game without tags.
    "annotated/pgn-extract/barnes-horton.pgn": ("blank line before the movetext", 1, 0),
    "rules/pgn-extract_test-checkmate.pgn": ("blank line before the movetext", 2, 0),
    "rules/pgn-extract_test-stalemate.pgn": ("blank line before the movetext", 3, 0),
    # python-chess raises IndexError inside its GameBuilder on this file.
    "fen-start/lichess-practice/lichess-practice-the-fork_by_arex_2017.01.29.pgn": (
        "python-chess crashes",
        18,
        3,
    ),
    # pgnkit's Result follows the termination marker when the Result tag holds
    # another marker (issue 22); python-chess keeps the tag (or takes the
    # marker only over "*").
    "edge/chess-library/no_moves_but_game_termination_2.pgn": ("Result follows the marker", 1, 0),
    "edge/chess-library/no_moves_but_game_termination_3.pgn": ("Result follows the marker", 1, 0),
    "edge/chess.js/0-html-br-newlines.pgn": ("Result tag of a broken game", 1, 1),
    # Antichess: python-chess reads the variant, pgnkit standard chess only.
    "edge/python-chess/antichess-programfox.pgn": ("a variant pgnkit does not read", 2, 2),
    # `[Event "Tournament \"]`: the backslash escapes the quote (PGN standard),
    # so the string is unterminated, an error; python-chess keeps the backslash.
    "edge/chess-library/backslash_header.pgn": ("backslash escape in a tag", 1, 1),
    # `\"` inside a tag value is a quote; python-chess keeps the backslash.
    "edge/chess-library/square_bracket_in_header.pgn": ("escaped quotes in a tag", 1, 0),
    # Games in UTF-8 and in Latin-1 in one file: pgnkit decodes each game on
    # its own; python-chess reads the file in one encoding.
    "fen-start/pgn-extract_odds.pgn": ("mixed encodings", None, None),
}


def pgn_files() -> List[Path]:
    if not (CORPUS / "SOURCES.md").exists():
        pytest.fail(f"the corpus is not at {CORPUS}: set PGNKIT_CORPUS")
    files = []
    for path in sorted(CORPUS.rglob("*.pgn")):
        rel = path.relative_to(CORPUS).as_posix()
        if rel.startswith("openings/") and not FULL:
            continue
        if rel.startswith("big/") and not FULL:
            continue
        files.append(path)
    if not FULL:
        files += sorted(CORPUS.glob("big/**/*.pgn"))[::10]
    return files


def limit(path: Path):
    rel = path.relative_to(CORPUS).as_posix()
    return BIG_GAMES_PER_FILE if rel.startswith("big/") else GAMES_PER_FILE


def theirs(path: Path, n) -> Iterator[chess.pgn.Game]:
    data = path.read_bytes()
    try:
        data.decode("utf-8")
        encoding = "utf-8-sig"
    except UnicodeDecodeError:
        encoding = "latin-1"  # pgnkit reads a game that is not UTF-8 as Latin-1
    with open(path, encoding=encoding) as handle:
        for _ in itertools.count() if n is None else range(n):
            game = chess.pgn.read_game(handle)
            if game is None:
                return
            yield game


def ours(path: Path, n) -> Iterator[pgnkit.Game]:
    return itertools.islice(pgnkit.read_games(path), n)


def normal_comment(text: str) -> str:
    return " ".join(text.split())


def main_line_comments(nodes: List[pgnkit.Node]):
    """Each main-line node's comment and starting comment as python-chess
    places them: a comment after a variation's `)` stands before the next move
    in pgnkit (that move's starting comment), after the move before in python-chess."""
    comments = [normal_comment(n.comment) for n in nodes]
    starting = [normal_comment(n.starting_comment) for n in nodes]
    for i in range(1, len(nodes)):
        if starting[i] and len(nodes[i - 1].parent.variations) > 1:
            comments[i - 1] = " ".join(filter(None, [comments[i - 1], starting[i]]))
            starting[i] = ""
    return comments, starting


def compare_game(at: str, a: pgnkit.Game, b: chess.pgn.Game) -> int:
    """Compares one game; returns the main-line moves compared."""
    assert dict(a.headers) == dict(b.headers), f"{at}: headers"
    if a.errors or b.errors:
        return 0
    a_nodes, b_nodes = a.mainline(), list(b.mainline())
    assert [n.san() for n in a_nodes] == [n.san() for n in b_nodes], f"{at}: SAN"
    assert [m.uci() for m in a.mainline_moves()] == [m.uci() for m in b.mainline_moves()], (
        f"{at}: UCI"
    )
    assert a.end().board().fen() == b.end().board().fen(), f"{at}: final FEN"
    assert normal_comment(a.comment) == normal_comment(b.comment), f"{at}: game comment"
    comments, starting = main_line_comments(a_nodes)
    for x, y, comment, start in zip(a_nodes, b_nodes, comments, starting):
        where = f"{at}, ply {x.ply()} {x.san()}"
        assert x.clock() == y.clock(), f"{where}: clock"
        assert x.emt() == y.emt(), f"{where}: emt"
        assert repr(x.eval()) == repr(y.eval()), f"{where}: eval"
        assert x.nags == y.nags, f"{where}: NAGs"
        assert comment == normal_comment(y.comment), f"{where}: comment"
        assert start == normal_comment(y.starting_comment), f"{where}: starting comment"
    return len(a_nodes)


@pytest.mark.parametrize("path", pgn_files(), ids=lambda p: p.relative_to(CORPUS).as_posix())
def test_same_as_python_chess(path: Path) -> None:
    rel = path.relative_to(CORPUS).as_posix()
    n = limit(path)
    if rel in KNOWN:
        _, count, broken = KNOWN[rel]
        games = list(ours(path, n))
        if count is not None:
            count = count if n is None else min(count, n)
            assert (len(games), sum(1 for g in games if g.errors)) == (count, broken), rel
        return
    a_games, b_games = list(ours(path, n)), list(theirs(path, n))
    assert len(a_games) == len(b_games), f"{rel}: game count"
    for i, (a, b) in enumerate(zip(a_games, b_games)):
        compare_game(f"{rel}, game {i + 1}", a, b)


def test_known_differences_hold() -> None:
    """The named differences, checked on pgnkit's side."""
    first = {
        rel: next(iter(pgnkit.read_games(CORPUS / rel)))
        for rel in (
            "edge/chess-library/square_bracket_in_header.pgn",
            "edge/chess-library/backslash_header.pgn",
            "annotated/pgn-extract/test-splitvariants.pgn",
            "edge/chess-library/no_moves_but_game_termination_3.pgn",
        )
    }
    assert first["edge/chess-library/square_bracket_in_header.pgn"].headers["White"] == (
        'New-cfe8"dsadsa"ce842c'
    )
    broken = first["edge/chess-library/backslash_header.pgn"]
    assert (broken.errors[0].line, broken.errors[0].message) == (1, "unterminated string")
    nodes = first["annotated/pgn-extract/test-splitvariants.pgn"].mainline()
    assert [n.comment for n in nodes[:2]] == ["comment1", "comment2"]
    assert nodes[2].starting_comment == "comment5"
    game = first["edge/chess-library/no_moves_but_game_termination_3.pgn"]
    assert game.headers["Result"] == "*" and str(game).endswith("*")
