"""str(game) against the CLI's export, and every kind of bad input."""

from __future__ import annotations

import os
import subprocess
import warnings
from pathlib import Path

import pytest

import pgnkit


@pytest.mark.parametrize(
    "rel",
    [
        "annotated/pgn-extract/barnes-horton.pgn",
        "annotated/pychess/dortmund.pgn",
        "lichess-annotated/lichess_db_2021-10_999games.pgn",
        "fen-start/pychess_mate_in_2.pgn",
        "chess960/python-chess_cutechess-fischerrandom.pgn",
    ],
)
def test_str_game_is_the_cli_export(rel: str, corpus: Path, pgnkit_bin: Path) -> None:
    path = corpus / rel
    run = subprocess.run([str(pgnkit_bin), "export", str(path)], capture_output=True, check=False)
    assert run.returncode in (0, 1), run.stderr
    cli = run.stdout.decode("utf-8")
    games = [g for g in pgnkit.read_games(path) if not g.errors]
    assert games, f"{path}: no game"
    ours = "".join(str(g) + "\n\n" for g in games)
    assert ours == cli


def test_missing_file_is_file_not_found(tmp_path: Path) -> None:
    missing = tmp_path / "nope.pgn"
    with pytest.raises(FileNotFoundError) as caught:
        pgnkit.read_games(missing)
    assert caught.value.filename == str(missing)
    with pytest.raises(FileNotFoundError):
        pgnkit.read_arrow(str(missing))


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads every file")
def test_unreadable_file_is_permission_error(tmp_path: Path) -> None:
    path = tmp_path / "locked.pgn"
    path.write_text("1. e4 *\n")
    path.chmod(0)
    with pytest.raises(PermissionError):
        pgnkit.read_games(path)


def test_unreadable_file_is_permission_error_as_root(tmp_path: Path) -> None:
    # Root reads mode-0 files, so a directory stands in: reading it is refused
    # with an OSError subclass that names it, never a crash.
    with pytest.raises(IsADirectoryError):
        pgnkit.read_games(tmp_path)


def test_binary_input_is_pgn_error_with_the_cli_message(tmp_path: Path, pgnkit_bin: Path) -> None:
    path = tmp_path / "noise.pgn"
    path.write_bytes(bytes(range(256)) * 64)
    with pytest.raises(pgnkit.PgnError) as caught:
        pgnkit.read_games(path)
    assert isinstance(caught.value, ValueError)
    run = subprocess.run([str(pgnkit_bin), "check", str(path)], capture_output=True)
    cli = run.stderr.decode().splitlines()[0]
    assert cli == f"pgnkit: {caught.value}"


def test_broken_game_is_yielded_with_errors() -> None:
    games = list(pgnkit.read_games("1. e4 e5 2. Ke3 Nc6 *\n\n1. d4 d5 *\n"))
    assert len(games) == 2
    broken = games[0]
    assert [m.uci() for m in broken.mainline_moves()] == ["e2e4", "e7e5"]
    (error,) = broken.errors
    assert (error.line, error.column) == (1, 13)  # the K of Ke3
    assert "illegal" in error.message
    assert not games[1].errors


def test_skip_broken_warns_with_the_position() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        games = list(pgnkit.read_games(b"1. d4 *\n\n1. e4 e5 2. Ke3 *\n", skip_broken=True))
    assert len(games) == 1
    (warning,) = caught
    assert issubclass(warning.category, pgnkit.PgnWarning)
    assert str(warning.message).startswith("<bytes>:3:13: illegal move")


def test_not_a_source_is_type_error() -> None:
    with pytest.raises(TypeError):
        pgnkit.read_games(42)  # type: ignore[arg-type]


def test_bad_table_name_and_range_without_path() -> None:
    with pytest.raises(ValueError):
        pgnkit.read_arrow(b"1. e4 *\n", table="openings")
    with pytest.raises(ValueError):
        pgnkit.read_arrow(b"1. e4 *\n", range=(0, 10))
