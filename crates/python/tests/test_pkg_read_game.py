"""`pgnkit.read_game(handle)` reads a file object line by line with the game boundaries of
`read_games` (the lexer's splitter), leaves the handle where python-chess leaves it, and
reads no line past the first line of the next game."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any, Callable, Iterator, List, Optional, Tuple

import chess.pgn
import pytest

import pgnkit

#: What is compared of a game: its headers and its main-line moves.
Summary = Tuple[List[Tuple[str, str]], List[str]]

# Each case: its text, and what python-chess reads right (there it must agree): nothing, the
# games, or the games and where the handle is left after each (an escape line between games
# goes with the game before for pgnkit's splitter, with the next for python-chess).
CASES = {
    # A `{` in a tag value opens no comment.
    "brace_in_tag_value": (
        '[Event "a{b"]\n[Site "x"]\n\n1. e4 e5 *\n\n'
        '[Event "c"]\n\n1. d4 d5 1-0\n\n'
        '[Event "d}"]\n\n1. c4 0-1\n',
        "games and position",
    ),
    # No blank line between a result and the next tag section.
    "no_blank_line_after_the_result": (
        '[Event "a"]\n\n1. e4 e5 1-0\n[Event "b"]\n\n1. d4 0-1\n',
        "nothing",
    ),
    # `{`, `}` and `;` in tag values and in comments spanning lines.
    "braces_and_semicolons_in_tags_and_comments": (
        '[Event "x;y}"]\n[Site "{a"]\n\n'
        "1. e4 { a comment\n"
        '[with a bracket; and "a quote"\n'
        "over three lines } e5 ; a rest-of-line comment { with a brace\n"
        "2. Nf3 { another ; } Nc6 1/2-1/2\n\n"
        '[Event "next"]\n[Annotator "}"]\n\n1. d4 { { } d5 *\n',
        "games and position",
    ),
    # `%` escape lines (first column) between games and inside the movetext.
    "escape_lines": (
        "% a file comment {\n"
        '[Event "a"]\n\n1. e4\n% inside the movetext { [Event "no"]\ne5 1-0\n\n'
        "% between games }\n"
        '[Event "b"]\n\n1. d4 *\n',
        "games",
    ),
    # No blank line anywhere.
    "no_blank_lines_at_all": (
        '[Event "a"]\n[White "w"]\n1. e4 e5 1-0\n[Event "b"]\n1. d4 d5 0-1\n[Event "c"]\n1. c4 *\n',
        "nothing",
    ),
    # Games ending inside a line: a tag pair after a result, a game without tags.
    "games_ending_inside_a_line": (
        '[Event "a"]\n\n1. e4 1-0 [Event "b"]\n\n1. d4 0-1 1. c4 e5 *\n',
        "nothing",
    ),
    # Blank lines inside a tag section, between games, and Windows line ends.
    "crlf_and_extra_blank_lines": (
        '\r\n\r\n[Event "a"]\r\n\r\n[Site "s"]\r\n\r\n1. e4 *\r\n\r\n\r\n\r\n[Event "b"]\r\n\r\n1. d4 *\r\n',
        "nothing",
    ),
    # Non-ASCII text: a text handle's position counts characters.
    "non_ascii": (
        '[Event "Åbo ½"]\n[White "Ñandú"]\n\n1. e4 { café } 1-0 [Event "ü"]\n\n1. d4 *\n',
        "nothing",
    ),
}


def _summary(game: Any) -> Summary:
    return (list(game.headers.items()), [m.uci() for m in game.mainline_moves()])


def _read_all(handle: Any, read: Callable[[Any], Optional[Any]]) -> Iterator[Any]:
    while (game := read(handle)) is not None:
        yield game


class LinesOnly:
    """A handle with `readline` alone (it cannot seek), counting the lines read."""

    def __init__(self, data: bytes) -> None:
        self._lines = io.BytesIO(data).readlines()
        self.read = 0

    def readline(self) -> bytes:
        if self.read == len(self._lines):
            return b""
        self.read += 1
        return self._lines[self.read - 1]


def _handles(text: str, tmp_path: Path) -> Iterator[Tuple[str, Any]]:
    data = text.encode("utf-8")
    path = tmp_path / "games.pgn"
    path.write_bytes(data)
    yield "StringIO", io.StringIO(text, newline="")
    yield "BytesIO", io.BytesIO(data)
    with open(path, encoding="utf-8", newline="") as handle:
        yield "text file", handle
    with open(path, encoding="utf-8") as handle:
        yield "text file, newlines translated", handle
    with open(path, "rb") as handle:
        yield "binary file", handle
    yield "readline only", LinesOnly(data)


@pytest.mark.parametrize("case", sorted(CASES))
def test_read_game_in_a_loop_gives_the_games_of_read_games(case: str, tmp_path: Path) -> None:
    text, _ = CASES[case]
    expected = [_summary(g) for g in pgnkit.read_games(text.encode("utf-8"))]
    assert len(expected) >= 2
    for kind, handle in _handles(text, tmp_path):
        got = [_summary(g) for g in _read_all(handle, pgnkit.read_game)]
        if kind == "text file, newlines translated":
            # The same games; the text read has LF line ends.
            expected_lf = [_summary(g) for g in pgnkit.read_games(text.replace("\r\n", "\n"))]
            assert got == expected_lf, kind
        else:
            assert got == expected, kind


@pytest.mark.parametrize("case", sorted(c for c, (_, right) in CASES.items() if right != "nothing"))
def test_read_game_agrees_with_python_chess_where_it_is_right(case: str) -> None:
    """The same games, and the handle left at the same place after each."""
    text, right = CASES[case]
    ours, theirs = io.StringIO(text), io.StringIO(text)
    while True:
        game, reference = pgnkit.read_game(ours), chess.pgn.read_game(theirs)
        if reference is None:
            assert game is None
            break
        assert game is not None
        assert list(game.headers.items()) == list(reference.headers.items())
        assert [m.uci() for m in game.mainline_moves()] == [
            m.uci() for m in reference.mainline_moves()
        ]
        if right == "games and position":
            assert ours.tell() == theirs.tell()


def test_read_game_leaves_the_handle_after_the_games_blank_line() -> None:
    text = '[Event "a"]\n\n1. e4 *\n\n\n\n[Event "b"]\n\n1. d4 *\n'
    handle = io.StringIO(text)
    assert pgnkit.read_game(handle) is not None
    assert handle.tell() == text.index("*\n\n") + 3
    assert handle.readline() == "\n"
    handle.seek(text.index('[Event "b"]'))
    game = pgnkit.read_game(handle)
    assert game is not None and game.headers["Event"] == "b"
    assert handle.read() == ""


def test_read_game_leaves_the_handle_inside_a_line_where_a_game_ends_on_it() -> None:
    text = '[Event "a"]\n\n1. e4 1-0 [Event "é"]\n\n1. d4 *\n'
    for handle in (io.StringIO(text), io.BytesIO(text.encode("utf-8"))):
        assert pgnkit.read_game(handle) is not None
        rest = handle.read()
        assert (rest if isinstance(rest, str) else rest.decode("utf-8")) == text[
            text.index('[Event "é"]') :
        ]


def test_read_game_reads_no_line_past_the_next_games_first_line() -> None:
    """python-chess's own reading stops at the blank line; the splitter needs the next
    game's first line, and no more."""
    lines = [
        b'[Event "a"]\n',
        b"\n",
        b"1. e4 *\n",
        b"\n",
        b'[Event "b"]\n',
        b"\n",
        b"1. d4 *\n",
    ]
    handle = LinesOnly(b"".join(lines))
    first = pgnkit.read_game(handle)
    assert first is not None and first.headers["Event"] == "a"
    assert handle.read == 5
    second = pgnkit.read_game(handle)
    assert second is not None and second.headers["Event"] == "b"
    assert handle.read == 7
    assert pgnkit.read_game(handle) is None


def test_read_game_from_an_iterated_text_file_keeps_what_it_read(tmp_path: Path) -> None:
    """A text file being iterated cannot tell its position: the bytes read past a game are
    kept for the next call, and no game is lost."""
    text, _ = CASES["no_blank_lines_at_all"]
    path = tmp_path / "games.pgn"
    path.write_text(text, encoding="utf-8")
    with open(path, encoding="utf-8") as handle:
        next(handle)  # iterating disables tell()
        events = [g.headers["Event"] for g in _read_all(handle, pgnkit.read_game)]
    # The first line went to the loop: the first game has no Event tag.
    assert events == ["?", "b", "c"]


def test_read_game_takes_paths_and_data_too(tmp_path: Path) -> None:
    text, _ = CASES["brace_in_tag_value"]
    path = tmp_path / "games.pgn"
    path.write_text(text, encoding="utf-8")
    for source in (path, str(path), text.encode("utf-8")):
        game = pgnkit.read_game(source)
        assert game is not None and game.headers["Event"] == "a{b"
