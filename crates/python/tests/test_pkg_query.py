"""`Game.matches(query)`: the query language of `pgnkit select --where` (the Rust library's
`Query`, one owner) on a game read in Python, the game-event predicates of issue 33 included;
a query that cannot be read is a `ValueError` with the query and a caret."""

from __future__ import annotations

import io

import pytest

import pgnkit

MATE = '[White "Fischer, R."]\n[Black "Spassky, B."]\n[Result "0-1"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n'


def read(text: str) -> pgnkit.Game:
    game = pgnkit.read_game(io.StringIO(text))
    assert game is not None
    return game


def test_game_event_predicates() -> None:
    game = read(MATE)
    assert game.matches("checkmate and result_consistent and moves = 2")
    assert game.matches("soundex player = Fisher and not stalemate")
    assert not game.matches("threefold or underpromotion or moves > 2")
    assert game.matches('any_tag ~ "Spassky" and piece_count = 32')
    open_game = read("1. e4 e5 *\n")
    assert not open_game.matches("checkmate")
    assert open_game.matches("plies = 2 and not setup")


def test_a_bad_query_shows_a_caret() -> None:
    with pytest.raises(ValueError) as error:
        read(MATE).matches("moves > 2 and chekmate")
    lines = str(error.value).splitlines()
    assert lines[1] == "moves > 2 and chekmate"
    assert lines[2] == " " * 14 + "^" * 8
    assert "the predicates are checkmate" in lines[3]
