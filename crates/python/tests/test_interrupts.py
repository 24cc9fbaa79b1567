"""Ctrl-C during a long table read or Parquet write: `KeyboardInterrupt` within a second, and
no partial file (`docs/reliability.md`; the threaded `read_games` loop is in
test_pkg_reading.py)."""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from pathlib import Path

import pytest

import pgnkit

PGN = (
    '[Event "Casual"]\n[White "Morphy"]\n[Black "Duke"]\n[Result "1-0"]\n\n'
    "1. e4 { [%clk 0:03:00] } e5 2. Nf3 d6 { Philidor } 3. d4 1-0\n\n"
    '[Event "Second"]\n\n1. d4 d5 *\n\n'
)


@pytest.mark.skipif(sys.platform == "win32", reason="sends SIGINT to itself")
@pytest.mark.parametrize("call", ["read_arrow", "to_parquet"])
def test_ctrl_c_stops_a_table_within_a_second_and_leaves_no_file(call: str, tmp_path: Path) -> None:
    source = tmp_path / "big.pgn"
    source.write_text(PGN * 300_000, encoding="utf-8")  # some 50 MB: seconds of work
    out = tmp_path / "out.parquet"
    out.write_bytes(b"an old table")
    before = sorted(p.name for p in tmp_path.iterdir())
    sent: list[float] = []

    def interrupt() -> None:
        sent.append(time.monotonic())
        os.kill(os.getpid(), signal.SIGINT)

    timer = threading.Timer(0.5, interrupt)
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            if call == "read_arrow":
                pgnkit.read_arrow(source, "moves", threads=2)
            else:
                pgnkit.to_parquet(source, out, "moves", threads=2)
        stopped = time.monotonic()
    finally:
        timer.cancel()
    assert sent, "the call ended before the interrupt"
    assert stopped - sent[0] < 1.0, f"stopped {stopped - sent[0]:.2f} s after Ctrl-C"
    assert sorted(p.name for p in tmp_path.iterdir()) == before, "no temporary file is left"
    assert out.read_bytes() == b"an old table"


def test_to_parquet_puts_its_file_in_place_only_whole(tmp_path: Path) -> None:
    out = tmp_path / "games.parquet"
    out.write_bytes(b"an old table")
    # A source that fails midway (a broken gzip stream): the old file stays, nothing else.
    import gzip

    data = gzip.compress((PGN * 2000).encode())
    broken = tmp_path / "cut.pgn.gz"
    broken.write_bytes(data[: len(data) // 2])
    with pytest.raises(Exception, match="cut.pgn.gz"):
        pgnkit.to_parquet(broken, out, threads=1)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cut.pgn.gz", "games.parquet"]
    assert out.read_bytes() == b"an old table"
    good = tmp_path / "good.pgn"
    good.write_text(PGN, encoding="utf-8")
    assert pgnkit.to_parquet(good, out) == 2
    assert out.read_bytes().endswith(b"PAR1")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cut.pgn.gz", "games.parquet", "good.pgn"]


@pytest.mark.skipif(not Path("/dev/null").exists(), reason="needs /dev/null")
def test_to_parquet_writes_a_device_directly_and_never_replaces_it() -> None:
    before = os.stat("/dev/null")
    assert pgnkit.to_parquet(PGN.encode(), "/dev/null") == 2
    after = os.stat("/dev/null")
    assert (after.st_ino, after.st_rdev) == (before.st_ino, before.st_rdev)
