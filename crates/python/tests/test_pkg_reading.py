"""Reading games from every kind of source: paths, file objects, bytes, str; on worker
threads; tables against `pgnkit convert`."""

from __future__ import annotations

import gzip
import io
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
import warnings
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest

import pgnkit

PGN = (
    '[Event "Casual"]\n[White "Morphy"]\n[Black "Duke"]\n[Result "1-0"]\n\n'
    "1. e4 { [%clk 0:03:00] } e5 2. Nf3 d6 { Philidor } 3. d4 1-0\n\n"
    '[Event "Second"]\n\n1. d4 d5 *\n'
)


def test_read_games_from_str_yields_games_with_headers() -> None:
    games = list(pgnkit.read_games(PGN))
    assert [g.headers["Event"] for g in games] == ["Casual", "Second"]
    assert games[0].headers["White"] == "Morphy"
    assert [m.uci() for m in games[0].mainline_moves()] == ["e2e4", "e7e5", "g1f3", "d7d6", "d2d4"]


def test_read_games_from_every_source_kind(tmp_path: Path) -> None:
    path = tmp_path / "games.pgn"
    path.write_text(PGN, encoding="utf-8")
    packed = tmp_path / "games.pgn.gz"
    packed.write_bytes(gzip.compress(PGN.encode()))
    sources = [
        str(path),
        path,
        packed,
        PGN.encode(),
        PGN,
        io.BytesIO(PGN.encode()),
        io.StringIO(PGN),
    ]
    for source in sources:
        events = [g.headers["Event"] for g in pgnkit.read_games(source)]
        assert events == ["Casual", "Second"], source
    with open(path, encoding="utf-8") as text, open(path, "rb") as binary:
        assert len(list(pgnkit.read_games(text))) == 2
        assert len(list(pgnkit.read_games(binary))) == 2


def test_read_arrow_games_and_moves_tables() -> None:
    games = pgnkit.read_arrow(PGN.encode(), table="games")
    assert games.num_rows == 2
    assert games.column("White").to_pylist() == ["Morphy", None]
    moves = pgnkit.read_arrow(PGN.encode(), table="moves")
    assert moves.column("san").to_pylist()[:3] == ["e4", "e5", "Nf3"]
    assert moves.column("clock").to_pylist()[0] == 180_000


TABLE_FILES = [
    "annotated/pgn-extract/barnes-horton.pgn",
    "lichess-annotated/lichess_broadcast_lezcano-memorial-2025.pgn",
    "lichess-annotated/lichess_db_2021-10_999games.pgn",
]


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("rel", TABLE_FILES)
def test_read_arrow_games_table_is_converts_parquet(
    rel: str, threads: int, corpus: Path, pgnkit_bin: Path, tmp_path: Path
) -> None:
    """Every column of every row, movetext (variations, comments, NAGs) included."""
    path = corpus / rel
    out = tmp_path / "games.parquet"
    run = subprocess.run(
        [str(pgnkit_bin), "convert", str(path), "-o", str(out)], capture_output=True, check=False
    )
    assert run.returncode in (0, 1), run.stderr
    want = pq.read_table(out)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", pgnkit.PgnWarning)  # broken games, left out by both
        got = pgnkit.read_arrow(str(path), "games", threads=threads)
    assert got.num_rows == want.num_rows > 0
    assert got.column_names == want.column_names
    assert got.column("movetext").null_count == 0
    for name in want.column_names:
        a, b = got.column(name), want.column(name)
        if a.type != b.type:  # Parquet stores time32[s] as milliseconds
            b = b.cast(a.type)
        assert a.equals(b), f"{rel}: column {name} differs"


@pytest.mark.parametrize("table", ["games", "moves"])
def test_to_parquet_writes_read_arrows_table(table: str, corpus: Path, tmp_path: Path) -> None:
    path = corpus / TABLE_FILES[2]
    out = tmp_path / f"{table}.parquet"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", pgnkit.PgnWarning)
        rows = pgnkit.to_parquet(str(path), out, table, threads=2)
        got = pgnkit.read_arrow(str(path), table, threads=1)
    want = pq.read_table(out)
    assert rows == got.num_rows == want.num_rows > 0
    assert got.column("game_id").to_pylist() == want.column("game_id").to_pylist()
    assert got.cast(want.schema).equals(want)


@pytest.mark.parametrize(
    ("compression", "codec"),
    [
        ("zstd", "ZSTD"),
        ("zstd:9", "ZSTD"),
        ("lz4", "LZ4"),  # pyarrow names Parquet's LZ4_RAW codec "LZ4"
        ("snappy", "SNAPPY"),
        ("none", "UNCOMPRESSED"),
    ],
)
def test_to_parquet_compression_reads_back_in_pyarrow(
    compression: str, codec: str, tmp_path: Path
) -> None:
    out = tmp_path / "moves.parquet"
    assert pgnkit.to_parquet(PGN.encode(), out, "moves", threads=1, compression=compression) == 7
    metadata = pq.ParquetFile(out).metadata
    columns = [
        metadata.row_group(g).column(c)
        for g in range(metadata.num_row_groups)
        for c in range(metadata.num_columns)
    ]
    assert columns and {column.compression for column in columns} == {codec}
    got = pgnkit.read_arrow(PGN.encode(), "moves", threads=1)
    assert pq.read_table(out).equals(got)


def test_to_parquet_default_compression_is_zstd_level_1(tmp_path: Path) -> None:
    default, level_1 = tmp_path / "default.parquet", tmp_path / "zstd1.parquet"
    pgnkit.to_parquet(PGN.encode(), default, threads=1)
    pgnkit.to_parquet(PGN.encode(), level_1, threads=1, compression="zstd:1")
    assert default.read_bytes() == level_1.read_bytes()


@pytest.mark.parametrize("bad", ["gzip", "zstd:0", "zstd:23", "lz4:2", ""])
def test_to_parquet_refuses_an_unknown_compression(bad: str, tmp_path: Path) -> None:
    out = tmp_path / "games.parquet"
    with pytest.raises(ValueError, match="lz4, snappy or none|from 1 to 22"):
        pgnkit.to_parquet(PGN.encode(), out, compression=bad)
    assert not out.exists()


def test_read_arrow_does_not_import_pandas() -> None:
    """pyarrow.table() would import pandas (when installed) on the first call: 0.3 s."""
    code = (
        "import sys, pyarrow, pgnkit\n"
        "table = pgnkit.read_arrow(b'1. e4 *\\n')\n"
        "assert isinstance(table, pyarrow.Table) and table.num_rows == 1\n"
        "print('pandas' in sys.modules)\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout.strip() == "False", run.stderr


def test_read_arrow_movetext_is_the_export_without_tags() -> None:
    pgn = b'[Event "E"]\n\n1. e4 $1 { good } (1. d4 d5) 1... e5 *\n'
    games = pgnkit.read_arrow(pgn, "games")
    assert games.column("movetext").to_pylist() == ["1. e4 $1 { good } (1. d4 d5) 1... e5 *"]
    assert "movetext" not in pgnkit.read_arrow(pgn, "moves").column_names


def _summary(games: list) -> list:
    return [
        (
            (g.offset, g.line),
            dict(g.headers),
            [m.uci() for m in g.mainline_moves()],
            str(g),
            [(e.line, e.column, e.message) for e in g.errors],
        )
        for g in games
    ]


@pytest.mark.parametrize("rel", TABLE_FILES[:2] + ["edge"])
def test_read_games_threads_give_the_games_of_one_thread_in_order(rel: str, corpus: Path) -> None:
    """Offsets, lines, headers, moves, export text and errors (edge: broken games, odd
    encodings, empty files) are those of the single-threaded reading, in the same order."""
    paths = sorted((corpus / rel).rglob("*.pgn")) if (corpus / rel).is_dir() else [corpus / rel]
    total = 0
    for path in paths:
        one = _summary(pgnkit.read_games(path, threads=1))
        total += len(one)
        for threads in (2, 3):
            assert _summary(pgnkit.read_games(path, threads=threads)) == one, (path, threads)
    assert total > 0


def test_read_games_threads_skip_broken_warns_in_order() -> None:
    pgn = PGN + "\n1. e4 Ke7 *\n\n" + PGN
    with pytest.warns(pgnkit.PgnWarning, match="skipped"):
        events = [
            g.headers.get("Event") for g in pgnkit.read_games(pgn, threads=2, skip_broken=True)
        ]
    assert events == ["Casual", "Second", "Casual", "Second"]


def test_read_games_threads_an_abandoned_iterator_ends(tmp_path: Path) -> None:
    """Dropping an iterator read ahead on worker threads stops them (no hang, no error)."""
    path = tmp_path / "many.pgn"
    path.write_text(PGN * 5000, encoding="utf-8")
    for _ in range(3):
        games = pgnkit.read_games(path, threads=2)
        assert next(games).headers["Event"] == "Casual"
        del games
    assert sum(1 for _ in pgnkit.read_games(path, threads=2)) == 10000


def test_read_games_threads_a_read_error_ends_the_games_in_order(tmp_path: Path) -> None:
    """A truncated .gz: both readings give every game before the error, then raise it."""
    path = tmp_path / "cut.pgn.gz"
    packed = gzip.compress((PGN * 2000).encode())
    path.write_bytes(packed[: len(packed) // 2])
    one, two = [], []
    for threads, seen in ((1, one), (2, two)):
        with pytest.raises((OSError, pgnkit.PgnError)):
            for game in pgnkit.read_games(path, threads=threads):
                seen.append(game.offset)
    assert len(one) > 0
    assert two == one


@pytest.mark.parametrize("layout", ["one frame", "pzstd frames"])
def test_read_games_threads_yield_every_game_before_a_truncated_zst(
    layout: str, tmp_path: Path
) -> None:
    """A truncated .zst (one frame, or pzstd's frames, decoded on the threads too): with four
    threads the games before the error are those of one thread, then the same error."""
    zstd = shutil.which("pzstd" if layout == "pzstd frames" else "zstd")
    if zstd is None:
        pytest.skip(f"no {layout} compressor")
    plain = tmp_path / "games.pgn"
    plain.write_text(PGN * 20000, encoding="utf-8")
    packed = tmp_path / "games.pgn.zst"
    args = ["-p", "4"] if layout == "pzstd frames" else []
    subprocess.run([zstd, "-q", "-f", *args, str(plain), "-o", str(packed)], check=True)
    data = packed.read_bytes()
    for fraction in (0.5, 0.9):
        cut = tmp_path / "cut.pgn.zst"
        cut.write_bytes(data[: int(len(data) * fraction)])
        results = []
        for threads in (1, 4):
            seen = []
            with pytest.raises(pgnkit.PgnError) as raised:
                for game in pgnkit.read_games(cut, threads=threads):
                    seen.append((game.offset, game.headers["Event"], len(game.mainline_moves())))
            results.append((seen, str(raised.value)))
        assert len(results[0][0]) > 0
        assert results[1] == results[0], fraction


def _corpus_games_files(corpus: Path) -> list[Path]:
    """Every PGN file of the corpus (edge cases included), the two largest left out to
    keep the debug build's run short."""
    files = [p for p in sorted(corpus.rglob("*")) if p.suffix.lower() == ".pgn"]
    return [p for p in files if p.stat().st_size < 4_000_000]


def test_read_headers_gives_the_headers_of_read_games_on_the_corpus(corpus) -> None:
    # read_headers reads only the tag sections (the movetext is not lexed unless the
    # section has something to warn about); the headers must be read_games' exactly.
    files = _corpus_games_files(corpus)
    assert any("edge" in p.parts for p in files) and len(files) > 200
    # Result aside: a game's headers give its termination marker when the tag is missing or
    # says otherwise, while read_headers gives the tag as written ("*" when missing), as
    # python-chess's read_headers does.
    for path in files:
        ours = [list(h.items()) for h in pgnkit.read_headers(path)]
        theirs = [list(g.headers.items()) for g in pgnkit.read_games(path)]
        assert len(ours) == len(theirs), path
        for mine, game in zip(ours, theirs):
            assert [n for n, _ in mine] == [n for n, _ in game], path
            without_result = [(n, v) for n, v in mine if n != "Result"]
            assert without_result == [(n, v) for n, v in game if n != "Result"], path


def test_every_threads_argument_is_checked_as_the_commands(tmp_path: Path) -> None:
    """`threads` from 1 to 1024 (pgnkit::game::MAX_THREADS, as `--threads`): a ValueError
    naming the limit otherwise, before any thread starts."""
    path = tmp_path / "games.pgn"
    path.write_text(PGN, encoding="utf-8")
    calls = [
        lambda n: pgnkit.read_games(path, threads=n),
        lambda n: pgnkit.read_headers(path, threads=n),
        lambda n: pgnkit.read_arrow(path, threads=n),
        lambda n: pgnkit.to_parquet(path, tmp_path / "out.parquet", threads=n),
    ]
    for call in calls:
        for bad in (0, 1025, 10**6):
            with pytest.raises(ValueError, match=f"from 1 to 1024, not {bad}"):
                call(bad)
        call(1024)
    assert len(list(pgnkit.read_games(path, threads=1024))) == 2


def _pgnkit_threads() -> list[str]:
    """The names of the process's threads that pgnkit started (Rust threads, which
    `threading` does not see): `pgnkit-read-games` and its `pgnkit-reader-N` workers."""
    names = []
    for task in os.listdir("/proc/self/task"):
        try:
            with open(f"/proc/self/task/{task}/comm", encoding="utf-8") as comm:
                names.append(comm.read().strip())
        except (FileNotFoundError, ProcessLookupError):  # a thread that just ended
            pass
    return sorted(name for name in names if name.startswith("pgnkit"))


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs /proc")
def test_leaving_a_threaded_loop_early_stops_and_joins_its_threads(tmp_path: Path) -> None:
    path = tmp_path / "many.pgn"
    path.write_text(PGN * 20000, encoding="utf-8")
    # Threads of earlier tests (read_arrow's reading thread) may still be ending.
    deadline = time.monotonic() + 30
    while _pgnkit_threads() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _pgnkit_threads() == []
    games = pgnkit.read_games(path, threads=4)
    for game in games:
        assert game.headers["Event"] == "Casual"
        # The reading thread and three workers (the reading thread runs batches too). A
        # thread takes its name once it first runs, which on a busy machine can come after
        # the first game: wait for the names, not for a count that is never reached.
        deadline = time.monotonic() + 10
        while len(_pgnkit_threads()) < 4 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert len(_pgnkit_threads()) == 4, _pgnkit_threads()
        break
    del games
    # Dropping the iterator joined them: none is left, at once.
    assert _pgnkit_threads() == []


class _SlowStream(io.RawIOBase):
    """A binary stream that gives some games, then blocks until released."""

    def __init__(self, data: bytes) -> None:
        self._data = data
        self.release = threading.Event()

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        if not self._data:
            self.release.wait(30)
            return 0
        n = min(len(buffer), len(self._data))
        buffer[:n] = self._data[:n]
        self._data = self._data[n:]
        return n


@pytest.mark.skipif(sys.platform == "win32", reason="sends SIGINT to itself")
def test_ctrl_c_stops_a_threaded_loop_waiting_for_games_within_a_second() -> None:
    stream = _SlowStream((PGN * 10).encode())
    games = pgnkit.read_games(stream, threads=2)
    timer = threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT))
    seen = 0
    timer.start()
    start = time.monotonic()
    try:
        with pytest.raises(KeyboardInterrupt):
            for _ in games:
                seen += 1
        assert time.monotonic() - start < 1.5
        assert seen <= 20  # games wait in a batch until it is full or the input ends
    finally:
        timer.cancel()
        stream.release.set()
    del games
