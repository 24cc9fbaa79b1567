"""Fixtures of the pgnkit package's tests: the corpus and the CLI binary, found
as the Rust tests and tests/python find them."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="session")
def corpus() -> Path:
    """The corpus: PGNKIT_CORPUS, else ../shared/corpus next to the workspace."""
    path = Path(os.environ.get("PGNKIT_CORPUS", ROOT.parent / "shared" / "corpus"))
    if not (path / "SOURCES.md").exists():
        pytest.fail(f"the corpus is not at {path}: set PGNKIT_CORPUS")
    return path


@pytest.fixture(scope="session")
def pgnkit_bin() -> Path:
    """The CLI: PGNKIT_BIN, else target/debug/pgnkit."""
    path = Path(os.environ.get("PGNKIT_BIN", ROOT / "target" / "debug" / "pgnkit"))
    if not path.exists():
        pytest.fail(
            f"no pgnkit binary at {path}: run `cargo build -p pgnkit-cli` or set PGNKIT_BIN"
        )
    return path
