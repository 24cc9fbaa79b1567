"""The reading rules as keywords of every reading function: ``nested_comments=``
(``{ a { b } c }`` read as one comment, the command's ``--nested-comments``) and
``fix_tag_strings=`` (a tag value without its closing quote whose line ends with ``]``
repaired, ``--fix-tag-strings``), each read both ways."""

from __future__ import annotations

import io
import warnings
from pathlib import Path

import pytest

import pgnkit
from pgnkit import _partition

NESTED = '[Event "n"]\n[Result "*"]\n\n1. e4 { a { b } c } e5 *\n\n[Event "m"]\n\n1. d4 *\n'
UNCLOSED = '[Site "Paris]\n[Event "E"]\n\n1. e4 *\n'


@pytest.mark.parametrize("threads", [1, 2])
def test_read_games_reads_a_nested_comment_as_one_only_when_asked(threads: int) -> None:
    plain = list(pgnkit.read_games(NESTED, threads=threads))
    assert plain[0].errors, "without the keyword ` c }` is not movetext"
    nested = list(pgnkit.read_games(NESTED, threads=threads, nested_comments=True))
    assert [g.errors for g in nested] == [[], []]
    first = nested[0].next()
    assert first is not None and first.comment == "a { b } c"
    assert [m.uci() for m in nested[0].mainline_moves()] == ["e2e4", "e7e5"]


def test_read_game_takes_the_rules_from_a_handle_and_from_text() -> None:
    handle = io.StringIO(NESTED)
    game = pgnkit.read_game(handle, nested_comments=True)
    assert game is not None and game.errors == []
    second = pgnkit.read_game(handle, nested_comments=True)
    assert second is not None and second.headers["Event"] == "m"
    assert pgnkit.read_game(io.StringIO(NESTED)).errors  # type: ignore[union-attr]
    assert pgnkit.read_game(NESTED, nested_comments=True).errors == []  # type: ignore[union-attr]
    fixed = pgnkit.read_game(io.BytesIO(UNCLOSED.encode()), fix_tag_strings=True)
    assert fixed is not None and fixed.headers["Site"] == "Paris"


def test_fix_tag_strings_repairs_a_value_with_a_warning_only_when_asked() -> None:
    (plain,) = pgnkit.read_games(UNCLOSED)
    assert [e.message for e in plain.errors] == ["unterminated string"]
    (fixed,) = pgnkit.read_games(UNCLOSED, fix_tag_strings=True)
    assert fixed.errors == []
    assert fixed.headers["Site"] == "Paris"
    assert fixed.headers["Event"] == "E"
    assert len(fixed.warnings) == 1 and "closing quote" in fixed.warnings[0].message


def test_read_headers_takes_the_rules() -> None:
    (plain,) = pgnkit.read_headers(UNCLOSED)
    assert {name: plain[name] for name in plain}.get("Site") != "Paris"
    (fixed,) = pgnkit.read_headers(UNCLOSED, fix_tag_strings=True)
    assert fixed["Site"] == "Paris"
    events = [h["Event"] for h in pgnkit.read_headers(NESTED, nested_comments=True)]
    assert events == ["n", "m"]


def test_search_takes_the_rules() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert list(pgnkit.search(NESTED, 'sequence "e4 e5"')) == []
    assert any(issubclass(w.category, pgnkit.PgnWarning) for w in caught)
    found = list(pgnkit.search(NESTED, 'sequence "e4 e5"', nested_comments=True))
    assert [g.headers["Event"] for g in found] == ["n"]
    hits = list(pgnkit.search(UNCLOSED, 'sequence "e4"', offsets=True, fix_tag_strings=True))
    assert [h.game for h in hits] == [1]


def test_tables_take_the_rules(tmp_path: Path) -> None:
    with pytest.warns(pgnkit.PgnWarning):
        plain = pgnkit.read_arrow(NESTED, threads=1)
    assert plain.column("Event").to_pylist() == ["m"]
    nested = pgnkit.read_arrow(NESTED, "moves", threads=1, nested_comments=True)
    assert nested.num_rows == 3
    assert "a { b } c" in nested.column("comment").to_pylist()
    fixed = pgnkit.read_arrow(UNCLOSED, threads=1, fix_tag_strings=True)
    assert fixed.column("Site").to_pylist() == ["Paris"]
    path = tmp_path / "games.parquet"
    assert pgnkit.to_parquet(NESTED, path, threads=1, nested_comments=True) == 2


def test_the_cluster_readers_pass_the_rules_on() -> None:
    options = {"nested_comments": True, "fix_tag_strings": True}
    assert _partition.reader_options(options) == {**options, "threads": 1}
    schema = _partition.schema("games", _partition.reader_options(options))
    assert "Site" in schema.names


AFTER_E4_E5 = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"


def test_the_index_functions_take_the_rules(tmp_path: Path) -> None:
    path = tmp_path / "nested.pgn"
    path.write_text(NESTED.replace("e5 *", "e5 2. Nf3 *") + "\n" + "1. e4 e5 2. Bc4 *\n")
    plain = pgnkit.Index.build([path], tmp_path / "plain.pgnidx", threads=1)
    nested = pgnkit.Index.build([path], tmp_path / "nested.pgnidx", threads=1, nested_comments=True)
    assert (plain.games, nested.games) == (2, 3)
    assert [r.san for r in plain.tree(AFTER_E4_E5)] == ["Bc4"]
    assert [r.san for r in nested.tree(AFTER_E4_E5)] == ["Bc4", "Nf3"]
    assert [r.san for r in pgnkit.tree([path], AFTER_E4_E5, threads=1)] == ["Bc4"]
    scanned = pgnkit.tree([path], AFTER_E4_E5, threads=1, nested_comments=True)
    assert [r.san for r in scanned] == ["Bc4", "Nf3"]
    found = nested.search(AFTER_E4_E5, nested_comments=True)
    assert [g.errors for g in found] == [[], []]
    # Read again without the rule, the nested game comes back broken.
    assert [bool(g.errors) for g in nested.search(AFTER_E4_E5)] == [True, False]
    book = tmp_path / "book.bin"
    assert pgnkit.book([path], book, min_games=1, threads=1, nested_comments=True) >= 1
