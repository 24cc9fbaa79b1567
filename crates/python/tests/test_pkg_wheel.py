"""The wheel as users get it: installed with pip into a fresh virtual environment whose
PATH has no Rust toolchain, imported from there (not from this tree), and reading a game.

The wheel is the one `cargo xtask pytest` built (PGNKIT_WHEEL; `release-check` runs this
file on the release wheel). Without PGNKIT_WHEEL the test is skipped, unless CI is set.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

READ_A_GAME = """
import pathlib, sys, pgnkit

here = pathlib.Path(pgnkit.__file__).resolve()
assert pathlib.Path(sys.prefix).resolve() in here.parents, here
native = list(here.parent.glob("_pgnkit*.so"))
assert [p.name for p in native] == ["_pgnkit.abi3.so"], native
(game,) = pgnkit.read_games(sys.argv[1])
print(game.headers["White"], [node.san() for node in game.mainline()])
"""


@pytest.fixture(scope="module")
def wheel() -> Path:
    """The wheel to install: PGNKIT_WHEEL."""
    path = os.environ.get("PGNKIT_WHEEL")
    if not path:
        if os.environ.get("CI"):
            pytest.fail("PGNKIT_WHEEL is not set: run the tests with `cargo xtask pytest`")
        pytest.skip("PGNKIT_WHEEL is not set (`cargo xtask pytest` builds the wheel)")
    return Path(path)


def without_rust(environ: dict[str, str]) -> dict[str, str]:
    """The environment with no Rust toolchain: PATH without any folder holding cargo or
    rustc (~/.cargo/bin), no CARGO/RUSTUP variables, no virtual environment, no PYTHONPATH."""
    path = [
        folder
        for folder in environ.get("PATH", "").split(os.pathsep)
        if folder and not any(Path(folder, tool).exists() for tool in ("cargo", "rustc", "rustup"))
    ]
    env = {
        key: value
        for key, value in environ.items()
        if not key.startswith(("CARGO", "RUSTUP", "RUSTC"))
        and key not in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME")
    }
    env["PATH"] = os.pathsep.join(path)
    return env


def test_wheel_is_abi3_for_manylinux(wheel: Path) -> None:
    assert wheel.is_file(), wheel
    name, version, python, abi, platform = wheel.name.removesuffix(".whl").split("-")
    assert (name, python, abi) == ("pgnkit", "cp39", "abi3"), wheel.name
    if sys.platform.startswith("linux"):
        assert platform.startswith("manylinux_"), wheel.name


def test_wheel_installs_and_reads_a_game_without_rust(wheel: Path, tmp_path: Path) -> None:
    env = without_rust(dict(os.environ))
    for tool in ("cargo", "rustc"):
        assert shutil.which(tool, path=env["PATH"]) is None, f"{tool} is still on PATH"
    venv = tmp_path / "venv"
    # No pip inside (seconds saved): this environment's pip installs into it (`--python`).
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, env=env)
    python = venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet"]
        + ["--disable-pip-version-check", "--no-index", "--no-deps", str(wheel)],
        check=True,
        env=env,
        cwd=tmp_path,
    )
    pgn = tmp_path / "game.pgn"
    pgn.write_text('[White "Morphy"]\n[Black "Duke"]\n\n1. e4 e5 2. Nf3 d6 {Philidor} 1-0\n')
    shown = subprocess.run(
        [str(python), "-c", READ_A_GAME, str(pgn)],
        check=True,
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert shown.stdout == "Morphy ['e4', 'e5', 'Nf3', 'd6']\n", shown
