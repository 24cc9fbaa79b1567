"""Speed and peak memory of the pgnkit Python package against its peers, on a
prefix of the bench file (issue 17's benchmarks; not a test).

Tasks, each run in a fresh process (so peak RSS is the task's own), in
alternating pairs (ours, peer), medians reported:

- ``games``: every game read with every move checked, iterating each main-line
  node's SAN and clock: ``pgnkit.read_games`` against python-chess's
  ``chess.pgn.read_game`` loop;
- ``headers``: every tag section: ``pgnkit.read_headers`` against
  ``chess.pgn.read_headers``;
- ``table``: a games table: ``pgnkit.read_arrow(path, "games")`` against
  ``rust-pgn-reader-python-binding`` (games split from the file in Python,
  then ``parse_games_from_strings``, its closest equivalent; skipped when it is
  not installed). "rejected": the games pgnkit left out of the table (its
  ``PgnWarning``), the games the peer marks ``is_valid == False`` (counted
  after the clock stops).

With ``--threads``, pgnkit alone with ``threads=1`` against
``threads=2`` (games per second, CPU seconds of the timed part (user + system, every
thread) and of the calling thread alone, the part that does not run in parallel; on a
loaded machine the CPU times say more than the wall clock): ``iterate`` takes each game and does nothing with it, ``games`` is
the task above, ``table`` is ``pgnkit.read_arrow(path, "games", threads=N)``.
Each line ends with the load average (1 min) before and after it.

Usage (after ``cargo xtask pytest`` made target/python-venv)::

    target/python-venv/bin/maturin develop --release -m crates/python/Cargo.toml
    target/python-venv/bin/pip install rust-pgn-reader-python-binding==4.1.0
    target/python-venv/bin/python bench/python/bench_pgnkit.py /work/bench/sample.pgn \\
        --bytes 2000000 --pairs 3
    target/python-venv/bin/python bench/python/bench_pgnkit.py /work/bench/bench.pgn \
        --bytes 100000000 --pairs 3 --threads
    target/python-venv/bin/python bench/python/bench_pgnkit.py /work/bench/bench.pgn \
        --bytes 20000000 --pairs 5 --only headers
    target/python-venv/bin/python bench/python/bench_pgnkit.py /work/bench/bench.pgn \
        --bytes 100000000 --pairs 3 --only table
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def task(name: str, path: str) -> dict:
    """Runs one task in this process; returns games, seconds, peak RSS in MB.
    The modules are imported before the clock starts."""
    import chess.pgn
    import pgnkit

    peer = None
    if name.startswith("table-"):
        import pyarrow  # noqa: F401  (both table tasks use it; imported untimed)

        try:
            import rust_pgn_reader_python_binding as peer
        except ImportError:
            pass
    before = resource.getrusage(resource.RUSAGE_SELF)
    start = time.perf_counter()
    start_main = time.thread_time()
    games = 0
    rejected = 0
    threads = int(name.partition("@")[2] or 1)  # `games-pgnkit@2`: two threads
    if name.startswith("games-pgnkit"):
        for game in pgnkit.read_games(path, threads=threads):
            for node in game.mainline():
                node.san()
                node.clock()
            games += 1
    elif name.startswith("iterate-pgnkit"):
        for _ in pgnkit.read_games(path, threads=threads):
            games += 1
    elif name == "games-python-chess":
        with open(path, encoding="utf-8") as handle:
            while (game := chess.pgn.read_game(handle)) is not None:
                for node in game.mainline():
                    node.san()
                    node.clock()
                games += 1
    elif name == "headers-pgnkit":
        for _ in pgnkit.read_headers(path):
            games += 1
    elif name == "headers-python-chess":
        with open(path, encoding="utf-8") as handle:
            while chess.pgn.read_headers(handle) is not None:
                games += 1
    elif name.startswith("table-pgnkit"):
        import warnings

        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", pgnkit.PgnWarning)
            table = pgnkit.read_arrow(path, "games", threads=threads if "@" in name else None)
        games = table.num_rows
        # "N broken games left out of the table ...": the games not in the table.
        rejected = sum(int(str(w.message).split()[0]) for w in caught)
    elif name == "table-rust-pgn-reader":
        # The bench file has a few bytes that are not UTF-8 (Latin-1 games): replaced, as
        # the peer takes `str` only (pgnkit reads such a game as Latin-1).
        text = Path(path).read_text(encoding="utf-8", errors="replace")
        parts = text.split("\n\n[Event ")
        pgns = [parts[0]] + ["[Event " + p for p in parts[1:]]
        parsed = peer.parse_games_from_strings(pgns)
        games = len(parsed)
    else:
        raise SystemExit(f"unknown task {name}")
    seconds = time.perf_counter() - start
    main = time.thread_time() - start_main
    if name == "table-rust-pgn-reader":  # counted after the clock stopped
        rejected = sum(1 for game in parsed if not game.is_valid)
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return {
        "games": games,
        "rejected": rejected,
        "seconds": seconds,
        "rss_mb": usage.ru_maxrss / 1024,
        # CPU of the timed part alone (every thread), the imports left out.
        "cpu": usage.ru_utime + usage.ru_stime - before.ru_utime - before.ru_stime,
        "main": main,
    }


def prefix(source: Path, size: int, out: Path) -> Path:
    """The first ``size`` bytes of ``source``, cut before the game that crosses the limit."""
    data = source.read_bytes()[: size + 1]
    if size < len(data):
        cut = data.rfind(b"\n\n[Event ", 0, size)
        data = data[: cut + 2] if cut > 0 else data[:size]
    out.write_bytes(data)
    return out


def run(name: str, path: Path) -> dict:
    result = subprocess.run(
        [sys.executable, __file__, "--task", name, str(path)],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(result.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", type=Path)
    parser.add_argument("--bytes", type=int, default=2_000_000, help="prefix size")
    parser.add_argument("--pairs", type=int, default=3)
    parser.add_argument(
        "--threads",
        action="store_true",
        help="read_games with threads=1 against threads=2",
    )
    parser.add_argument("--only", help="run only this comparison (games, headers, table, iterate)")
    parser.add_argument("--task", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.task:
        print(json.dumps(task(args.task, str(args.file))))
        return
    try:
        import rust_pgn_reader_python_binding  # noqa: F401

        peer_table = True
    except ImportError:
        peer_table = False
    with tempfile.TemporaryDirectory() as tmp:
        path = prefix(args.file, args.bytes, Path(tmp) / "prefix.pgn")
        mb = path.stat().st_size / 1e6
        print(f"{path.stat().st_size:,} bytes of {args.file} ({mb:.2f} MB), {args.pairs} pairs")
        comparisons = [
            ("games", "games-pgnkit", "games-python-chess"),
            ("headers", "headers-pgnkit", "headers-python-chess"),
        ]
        if args.threads:
            comparisons = [
                ("iterate", "iterate-pgnkit@1", "iterate-pgnkit@2"),
                ("games", "games-pgnkit@1", "games-pgnkit@2"),
                ("table", "table-pgnkit@1", "table-pgnkit@2"),
            ]
        elif peer_table:
            comparisons.append(("table", "table-pgnkit", "table-rust-pgn-reader"))
        if args.only:
            comparisons = [c for c in comparisons if c[0] == args.only]
        for label, ours, peer in comparisons:
            runs = {ours: [], peer: []}
            load = os.getloadavg()[0]
            for _ in range(args.pairs):
                for name in (ours, peer):
                    runs[name].append(run(name, path))
            line = [f"{label:8}"]
            medians = {}
            for name in (ours, peer):
                seconds = statistics.median(r["seconds"] for r in runs[name])
                rss = max(r["rss_mb"] for r in runs[name])
                games = runs[name][0]["games"]
                rejected = runs[name][0].get("rejected", 0)
                medians[name] = seconds
                cpu = statistics.median(r["cpu"] for r in runs[name])
                main = statistics.median(r["main"] for r in runs[name])
                line.append(
                    f"{name}: {seconds:.3f} s ({mb / seconds:.1f} MB/s, {games} games,"
                    f" {rejected} rejected,"
                    f" {games / seconds:,.0f} games/s, cpu {cpu:.2f} s, main thread {main:.2f} s,"
                    f" peak {rss:.0f} MB)"
                )
            if args.threads:  # the second is ours with two threads: its speed-up
                line.append(f"speed-up {medians[ours] / medians[peer]:.2f}x")
            else:
                line.append(f"ratio {medians[peer] / medians[ours]:.2f}x")
            line.append(f"load {load:.1f} -> {os.getloadavg()[0]:.1f}")
            print(" | ".join(line), flush=True)
    print(f"cpus: {os.cpu_count()}; medians of {args.pairs}; peak RSS is the process's maximum")


if __name__ == "__main__":
    main()
