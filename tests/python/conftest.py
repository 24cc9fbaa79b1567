"""Shared fixtures: the pgnkit binary, the corpus, and `pgnkit convert` runs."""

import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def corpus_dir() -> Path:
    """The corpus, as the Rust tests find it: PGNKIT_CORPUS, else ../shared/corpus."""
    path = Path(os.environ.get("PGNKIT_CORPUS", ROOT.parent / "shared" / "corpus"))
    if not (path / "SOURCES.md").exists():
        pytest.fail(f"the corpus is not at {path}: set PGNKIT_CORPUS")
    return path


def pgnkit_bin() -> Path:
    """The binary under test: PGNKIT_BIN, else target/debug/pgnkit."""
    path = Path(os.environ.get("PGNKIT_BIN", ROOT / "target" / "debug" / "pgnkit"))
    if not path.exists():
        pytest.fail(
            f"no pgnkit binary at {path}: run `cargo build -p pgnkit-cli` or set PGNKIT_BIN"
        )
    return path


def lichess_files() -> list[Path]:
    """The Lichess files of the corpus (clocks and evals): the files of
    lichess-annotated that Lichess exported (their games' Site is lichess.org;
    the chess.com file there has no blank line between games, which
    python-chess splits differently)."""
    files = sorted(
        path
        for path in (corpus_dir() / "lichess-annotated").glob("*.pgn")
        if "lichess.org" in path.read_text(encoding="utf-8", errors="replace")
    )
    if len(files) < 5:
        pytest.fail(f"expected the lichess-annotated files in {corpus_dir()}")
    return files


def run_pgnkit(*args: str) -> subprocess.CompletedProcess:
    """Runs the binary; exit status 0 or 1 (some games rejected) is expected."""
    done = subprocess.run([str(pgnkit_bin()), *args], capture_output=True, text=True, check=False)
    assert done.returncode in (0, 1), f"pgnkit {' '.join(args)} failed:\n{done.stderr}"
    return done


@pytest.fixture(scope="session")
def converted(tmp_path_factory) -> tuple[Path, Path]:
    """The Lichess files converted in one run: (games.parquet, moves.parquet)."""
    out = tmp_path_factory.mktemp("convert")
    games, moves = out / "games.parquet", out / "moves.parquet"
    run_pgnkit("convert", *map(str, lichess_files()), "-o", str(games), "--moves", str(moves))
    return games, moves
