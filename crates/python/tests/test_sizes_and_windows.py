"""Sizes parse one way (the command line's rule, through ``_pgnkit.parse_size``), and the
memory of a compressed input is bounded by ``max_window=`` as by ``--max-window``."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

import pgnkit
from pgnkit import _partition, _pgnkit


def test_parse_size_reads_every_unit_as_a_power_of_1024() -> None:
    for text in ["16K", "16k", "16KB", "16kb", "16KiB", "16 KiB"]:
        assert _pgnkit.parse_size(text) == 16 * 1024, text
    assert _pgnkit.parse_size("64MB") == 64 << 20
    assert _pgnkit.parse_size("1.5G") == 3 << 29
    assert _pgnkit.parse_size(1000) == 1000
    for bad in ["", "lots", "0", "16X", "-1", 0, -1]:
        with pytest.raises(ValueError):
            _pgnkit.parse_size(bad)
    for bad in [True, 1.5, None]:
        with pytest.raises(TypeError):
            _pgnkit.parse_size(bad)


def test_blocksize_uses_the_same_rule() -> None:
    assert _partition.parse_blocksize("64kb") == 64 * 1024
    assert _partition.parse_blocksize("32MiB") == 32 << 20
    assert _partition.parse_blocksize(None) == 2**63
    with pytest.raises(ValueError, match="blocksize"):
        _partition.parse_blocksize("lots")


def test_a_2_gib_zstd_window_needs_max_window(tmp_path: Path, corpus: Path) -> None:
    text = (
        corpus / "lichess-annotated" / "lichess_broadcast_lezcano-memorial-2025.pgn"
    ).read_bytes()
    plain = tmp_path / "games.pgn"
    plain.write_bytes(text)
    zst = tmp_path / "games.pgn.zst"
    # From a pipe (no size known), as `zstd --long=31` keeps its 2 GiB window then.
    with plain.open("rb") as source, zst.open("wb") as out:
        subprocess.run(["zstd", "-q", "--long=31", "-c"], stdin=source, stdout=out, check=True)
    with pytest.raises(pgnkit.PgnError) as error:
        list(pgnkit.read_headers(str(zst)))
    message = str(error.value)
    assert "needs a window of 2GiB, more than the limit of 128MiB" in message, message
    assert message.endswith('raise the limit with max_window="2GiB"'), message
    with pytest.raises(pgnkit.PgnError):
        pgnkit.read_arrow(str(zst))
    want = [dict(h) for h in pgnkit.read_headers(str(plain))]
    got = [dict(h) for h in pgnkit.read_headers(str(zst), max_window="2GiB")]
    assert got == want and want
    games = list(pgnkit.read_games(str(zst), max_window=2 << 30, skip_broken=True))
    assert len(games) == len(list(pgnkit.read_games(str(plain), skip_broken=True)))
    with pytest.raises(ValueError, match="max_window"):
        pgnkit.read_games(str(zst), max_window="lots")
