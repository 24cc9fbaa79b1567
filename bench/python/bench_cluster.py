"""Throughput of the cluster readers (issue 18) against ``pgnkit convert`` on the same file:
``pgnkit.dask`` on the threaded scheduler and on a ``LocalCluster`` of worker processes, and
``pgnkit.spark`` in local mode (not a test; figures in docs/cluster.md and
docs/performance.md).

One engine per run of this script, timed in alternating pairs with ``pgnkit convert`` (so
both see the same machine load), after one warm-up pair (before the first file and table):

- ``convert``: ``pgnkit convert FILE -o games.arrow --threads N`` for the games table, and
  ``... --moves moves.arrow`` for the moves table (it writes the games table too); Arrow IPC
  files on a tmpfs-less temp dir, the closest to an in-memory table;
- ``threads``: ``pgnkit.dask.read_pgn(FILE, table=T, blocksize=B)``, every partition made
  (``map_partitions(len)``: read into Arrow, then pandas with ``pd.ArrowDtype`` columns) on
  the threaded scheduler with N workers;
- ``cluster``: the same on ``distributed.LocalCluster(n_workers=N, threads_per_worker=1)``
  (worker processes; started once, its start-up time reported apart);
- ``spark``: ``spark.read.format("pgn").option("table", T).option("blocksize", B)
  .load(FILE).write.format("noop")`` on ``local[N]`` (every row made, nothing collected;
  the session started once, its start-up apart). Planning (the counting pass on the driver)
  is inside the timed action.

Wall time, CPU time (for an engine: user + system of this process and every process under
it, reaped ones included: the JVM, Spark's Python workers, Dask's workers; for convert: its
process alone) and the 1-minute load average before and after each run. Medians over the
measured pairs. An engine's CPU is also given by kind of process (``by_process``: this
process, which holds a ``LocalCluster``'s scheduler and nannies and Spark's py4j client;
Dask's worker processes; the JVM; Spark's Python workers; its planner; ``reaped by X``: the
processes X started and waited for during the run), and before the first pair the idle
engine's CPU over ``--idle`` seconds (its upkeep: heartbeats, monitors, profilers).
``--set KEY=VALUE`` sets a Dask config key before the cluster starts (``cluster``,
``threads``) or a Spark conf key (``spark``).

Usage (after ``cargo xtask pytest`` made target/python-venv; release builds for figures)::

    cargo build --release -p pgnkit-cli
    target/python-venv/bin/maturin develop --release -m crates/python/Cargo.toml
    target/python-venv/bin/python bench/python/bench_cluster.py --engine spark \\
        --pgnkit target/release/pgnkit --pairs 2 /work/bench/bench.pgn target/bench-pz19.pgn.zst
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
from typing import Any, Callable, Dict, List, Tuple

import psutil


def kind(p: "psutil.Process") -> str:
    """What a process of the engine is, for the per-process breakdown."""
    if p.pid == os.getpid():
        return "bench process"
    try:
        cmd = " ".join(p.cmdline())
    except psutil.Error:
        return "?"
    if "java" in os.path.basename(p.cmdline()[0] if p.cmdline() else ""):
        return "jvm"
    if "pyspark.daemon" in cmd:
        return "spark python workers"
    if "pyspark" in cmd or "worker" in cmd:
        return "spark python planner"
    if "spawn_main" in cmd:
        return "dask worker processes"
    if "resource_tracker" in cmd or "forkserver" in cmd:
        return "multiprocessing helper"
    return os.path.basename(p.cmdline()[0]) if p.cmdline() else "?"


def tree_snapshot() -> Dict[int, Tuple[str, float, float]]:
    """For this process and all its descendants: what it is, its own CPU seconds (user +
    system) and those of the children it has reaped."""
    me = psutil.Process()
    out: Dict[int, Tuple[str, float, float]] = {}
    for p in [me, *me.children(recursive=True)]:
        try:
            t = p.cpu_times()
            out[p.pid] = (
                kind(p),
                t.user + t.system,
                t.children_user + t.children_system,
            )
        except psutil.Error:
            pass
    return out


def breakdown(
    before: Dict[int, Tuple[str, float, float]],
    after: Dict[int, Tuple[str, float, float]],
) -> Dict[str, float]:
    """CPU seconds spent between two snapshots, by kind of process (a process that ended
    in between counts where its parent reaped it: ``reaped by KIND``)."""
    out: Dict[str, float] = {}
    for pid, (k, own, reaped) in after.items():
        _, own0, reaped0 = before.get(pid, (k, 0.0, 0.0))
        out[k] = out.get(k, 0.0) + own - own0
        if reaped - reaped0 > 0.005:
            out[f"reaped by {k}"] = out.get(f"reaped by {k}", 0.0) + reaped - reaped0
    return {k: round(v, 2) for k, v in out.items() if abs(v) >= 0.005}


def tree_cpu() -> float:
    """CPU seconds (user + system) of this process and all its descendants, with the
    children each of them has reaped."""
    return sum(own + reaped for _, own, reaped in tree_snapshot().values())


def reaped_cpu() -> float:
    """CPU seconds of the children this process has reaped (``convert`` once it is done)."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def measure(run: Callable[[], Any], subprocess_only: bool) -> Dict[str, Any]:
    """``subprocess_only``: the run's CPU is its subprocess's alone (``convert``), not the
    idle engine's (a LocalCluster's heartbeats, the JVM) counted by ``tree_cpu``. An
    engine's run also reports its CPU by kind of process (``by_process``)."""
    load0 = os.getloadavg()[0]
    if subprocess_only:
        cpu0, wall0 = reaped_cpu(), time.perf_counter()
        rows = run()
        wall, cpu = time.perf_counter() - wall0, reaped_cpu() - cpu0
        by: Dict[str, float] = {}
    else:
        snap0, wall0 = tree_snapshot(), time.perf_counter()
        rows = run()
        wall, snap1 = time.perf_counter() - wall0, tree_snapshot()
        by = breakdown(snap0, snap1)
        cpu = sum(by.values())
    out = {
        "wall": wall,
        "cpu": cpu,
        "load": (load0, os.getloadavg()[0]),
        "rows": rows,
    }
    if by:
        out["by_process"] = by
    return out


def convert(pgnkit: str, path: str, table: str, threads: int, out: str) -> Callable[[], Any]:
    def run() -> Any:
        games = os.path.join(out, "games.arrow")
        cmd = [pgnkit, "convert", path, "-o", games, "--threads", str(threads)]
        if table == "moves":
            cmd += ["--moves", os.path.join(out, "moves.arrow")]
        done = subprocess.run(cmd, capture_output=True, text=True)
        if done.returncode not in (0, 1):
            raise RuntimeError(done.stderr)
        return None

    return run


def engine(
    name: str, threads: int, settings: Dict[str, str]
) -> Tuple[Callable[[str, str, str], Any], float, Any]:
    """The engine's read (path, table, blocksize) -> rows, its start-up seconds, and what
    to close. ``settings``: Dask config keys (``distributed.worker.profile.enabled``),
    set before the cluster starts, or Spark conf keys (``spark.python.worker.reuse``)."""
    import dask

    import pgnkit.dask

    dask.config.set({k: v for k, v in settings.items() if name != "spark"})

    start = time.perf_counter()
    if name == "threads":

        def read(path: str, table: str, block: str) -> Any:
            df = pgnkit.dask.read_pgn(path, table=table, blocksize=block)
            return int(
                df.map_partitions(len).compute(scheduler="threads", num_workers=threads).sum()
            )

        return read, time.perf_counter() - start, None
    if name == "cluster":
        import distributed

        cluster = distributed.LocalCluster(
            n_workers=threads,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
        )
        client = distributed.Client(cluster)

        def read(path: str, table: str, block: str) -> Any:
            df = pgnkit.dask.read_pgn(path, table=table, blocksize=block)
            return int(df.map_partitions(len).compute().sum())

        return read, time.perf_counter() - start, (client, cluster)
    if name == "spark":
        from pyspark.sql import SparkSession

        import pgnkit.spark

        os.environ["PYSPARK_PYTHON"] = sys.executable
        os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
        builder = (
            SparkSession.builder.master(f"local[{threads}]")
            .appName("pgnkit-bench")
            .config("spark.driver.memory", "2g")
            .config("spark.ui.enabled", "false")
        )
        for k, v in settings.items():
            builder = builder.config(k, v)
        spark = builder.getOrCreate()
        spark.sparkContext.setLogLevel("ERROR")
        spark.dataSource.register(pgnkit.spark.PgnDataSource)

        def read(path: str, table: str, block: str) -> Any:
            df = spark.read.format("pgn").option("table", table).option("blocksize", block)
            df.load(path).write.format("noop").mode("overwrite").save()
            return None

        return read, time.perf_counter() - start, spark
    raise SystemExit(f"unknown engine {name}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--engine", required=True, choices=["threads", "cluster", "spark"])
    ap.add_argument("--pgnkit", default="target/release/pgnkit")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--pairs", type=int, default=2)
    ap.add_argument("--tables", default="games,moves")
    ap.add_argument(
        "--blocksize",
        default="64MiB",
        help="per plain file (default: the readers' own); a .zst file gets a quarter of it "
        "(its bytes hold 4-7x the text). 8MiB costs about 30 ms of CPU a partition more "
        "on a LocalCluster (docs/cluster.md)",
    )
    ap.add_argument(
        "--idle",
        type=float,
        default=10.0,
        help="seconds of idle engine to measure first",
    )
    ap.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a Dask config key (cluster, threads) or Spark conf key (spark); repeatable",
    )
    args = ap.parse_args()
    settings: Dict[str, Any] = {}
    for item in args.set:
        key, _, value = item.partition("=")
        settings[key] = {"true": True, "false": False}.get(value.lower(), value)
    if settings:
        print(json.dumps({"settings": settings}), flush=True)
    read, startup, handle = engine(args.engine, args.threads, settings)
    print(json.dumps({"engine": args.engine, "startup": startup}), flush=True)
    if args.idle > 0:
        # The engine's upkeep when it has nothing to do (heartbeats, the JVM's threads).
        snap0 = tree_snapshot()
        time.sleep(args.idle)
        idle = breakdown(snap0, tree_snapshot())
        print(json.dumps({"idle_seconds": args.idle, "idle_cpu": idle}), flush=True)
    results: List[Dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="pgnkit-bench-cluster-") as out:
        for path in args.files:
            block = args.blocksize
            if path.endswith(".zst"):
                from pgnkit._partition import parse_blocksize

                block = str(max(1, parse_blocksize(block) // 4))
            for table in args.tables.split(","):
                ours = convert(args.pgnkit, path, table, args.threads, out)
                # One warm-up pair before the first file and table only (the JVM's JIT,
                # the workers' imports, the page cache).
                warmup = 0 if results or args.pairs == 0 else 1
                for i in range(1 - warmup, args.pairs + 1):
                    for who, run in (
                        ("convert", ours),
                        (args.engine, lambda: read(path, table, block)),
                    ):
                        r = measure(run, who == "convert")
                        r.update(
                            file=os.path.basename(path),
                            table=table,
                            who=who,
                            warm=i == 0,
                        )
                        print(json.dumps(r), flush=True)
                        if i > 0:
                            results.append(r)
    print(f"\n{args.engine}: start-up {startup:.1f} s; medians of {args.pairs} pairs")
    print(
        "| file | table | reader | wall | CPU | load 1 min "
        "| throughput vs convert (wall, CPU) | CPU by process |"
    )
    print("|---|---|---|---|---|---|---|---|")
    keys = sorted({(r["file"], r["table"]) for r in results}, key=lambda k: (k[0], k[1]))
    for file, table in keys:
        med: Dict[str, Tuple[float, float]] = {}
        for who in ("convert", args.engine):
            rs = [r for r in results if (r["file"], r["table"], r["who"]) == (file, table, who)]
            wall = statistics.median(r["wall"] for r in rs)
            cpu = statistics.median(r["cpu"] for r in rs)
            loads = [x for r in rs for x in r["load"]]
            med[who] = (wall, cpu)
            ratio, by = "", ""
            if who != "convert":
                # Throughput: convert's time over the engine's (1.0x: as fast).
                ratio = f"{med['convert'][0] / wall:.2f}x, {med['convert'][1] / cpu:.2f}x"
                kinds = sorted({k for r in rs for k in r.get("by_process", {})})
                by = ", ".join(
                    f"{k} {statistics.median(r['by_process'].get(k, 0.0) for r in rs):.2f}"
                    for k in kinds
                )
            print(
                f"| {file} | {table} | {who} | {wall:.2f} s | {cpu:.2f} s "
                f"| {min(loads):.1f}-{max(loads):.1f} | {ratio} | {by} |"
            )
    if args.engine == "cluster":
        client, cluster = handle
        client.close()
        cluster.close()
    elif args.engine == "spark":
        handle.stop()


if __name__ == "__main__":
    main()
