"""Where the cluster readers' CPU goes (issue 18, session 9): every partition of a file read
in this one process, one stage at a time, each stage's CPU time summed over the partitions,
against ``pgnkit convert --threads 1`` on the same file (not a test; figures in
docs/performance.md and docs/cluster.md).

Stages, in the order a Dask or Spark task runs them:

- ``count``: ``_partition.count`` (Spark's counting pass: splitter alone, decompression;
  Dask has none since session 10);
- ``read_arrow``: ``_partition.read_local`` (``_pgnkit.read_partition(..., threads=1)``:
  the Rust read into Arrow, what ``convert`` does before it writes, plus its counts);
- ``shift``: ``_partition.place`` (``game_id``, ``offset`` and the lines of ``errors``
  moved to the single read's: Dask's last task per partition);
- Dask: ``to_pandas`` (``Table.to_pandas(types_mapper=pd.ArrowDtype)``), ``len`` and
  ``sizeof`` (``dask.sizeof``, what a distributed worker computes for every result it keeps);
- Spark: ``cast`` (``pgnkit.spark.to_spark``: ``select`` + ``cast`` to Spark's Arrow
  schema, as ``PgnReader.read`` does),
  ``ipc`` (the batches written as an Arrow IPC stream to memory: what the Python worker does
  to hand them to the JVM).

CPU is ``time.thread_time`` (this thread; ``threads=1`` reads run on it). ``convert``: one
run of ``pgnkit convert FILE -o games.arrow --threads 1`` (``--moves moves.arrow`` for the
moves table), user + system of the child.

Usage::

    python bench/python/bench_cluster_stages.py --pgnkit target/release/pgnkit \\
        --blocksize 64MiB /work/bench/bench.pgn
"""

from __future__ import annotations

import argparse
import io
import os
import resource
import subprocess
import tempfile
import time
from typing import Any, Callable, Dict, List

import pandas as pd
import pyarrow as pa


def cpu_of(stages: Dict[str, float], name: str, run: Callable[[], Any]) -> Any:
    t0 = time.thread_time()
    out = run()
    stages[name] = stages.get(name, 0.0) + time.thread_time() - t0
    return out


def convert_cpu(pgnkit: str, path: str, table: str, threads: int) -> float:
    with tempfile.TemporaryDirectory(prefix="pgnkit-stages-") as out:
        cmd = [pgnkit, "convert", path, "-o", os.path.join(out, "g.arrow")]
        cmd += ["--threads", str(threads)]
        if table == "moves":
            cmd += ["--moves", os.path.join(out, "m.arrow")]
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        done = subprocess.run(cmd, capture_output=True, text=True)
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        if done.returncode not in (0, 1):
            raise RuntimeError(done.stderr)
    return (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)


def main() -> None:
    from dask.sizeof import sizeof

    from pgnkit import _partition
    from pgnkit.spark import spark_schemas, to_spark

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--pgnkit", default="target/release/pgnkit")
    ap.add_argument("--blocksize", default="64MiB")
    ap.add_argument("--tables", default="games,moves")
    args = ap.parse_args()
    for path in args.files:
        parts, _ = _partition.plan([path], args.blocksize)
        options = _partition.reader_options({})
        for table in args.tables.split(","):
            stages: Dict[str, float] = {}
            counts = [cpu_of(stages, "count", lambda: _partition.count(p)) for p in parts]
            bases = _partition.bases(parts, counts)
            _, target = spark_schemas(_partition.schema(table, options))
            rows = 0
            batches: List[int] = []
            for p, b, c in zip(parts, bases, counts):
                t, _, broken = cpu_of(
                    stages,
                    "read_arrow",
                    lambda: _partition.read_local(p, table, options),
                )
                t = cpu_of(stages, "shift", lambda: _partition.place(t, p, b, broken))
                df = cpu_of(stages, "to_pandas", lambda: t.to_pandas(types_mapper=pd.ArrowDtype))
                rows += cpu_of(stages, "len", lambda: len(df))
                cpu_of(stages, "sizeof", lambda: sizeof(df))
                del df
                s = cpu_of(stages, "cast", lambda: to_spark(t, target))
                bs = cpu_of(stages, "to_batches", lambda: s.to_batches())
                batches.append(len(bs))

                def ipc() -> int:
                    sink = io.BytesIO()
                    with pa.ipc.new_stream(sink, target) as w:
                        for batch in bs:
                            w.write_batch(batch)
                    return sink.tell()

                cpu_of(stages, "ipc", ipc)
            conv = {n: convert_cpu(args.pgnkit, path, table, n) for n in (1, 2)}
            base = stages["read_arrow"]
            print(
                f"\n{os.path.basename(path)} {table}: {len(parts)} partitions "
                f"(blocksize {args.blocksize}), {rows} rows, {sum(batches)} record batches"
            )
            print("| stage | CPU | / read_arrow |")
            print("|---|---|---|")
            for name, cpu in stages.items():
                print(f"| {name} | {cpu:.2f} s | {cpu / base:.2f} |")
            dask_total = sum(stages[k] for k in ("count", "read_arrow", "shift", "to_pandas"))
            spark_total = sum(stages[k] for k in ("count", "read_arrow", "shift", "cast", "ipc"))
            for n, cpu in conv.items():
                print(f"| convert --threads {n} | {cpu:.2f} s | {cpu / base:.2f} |")
            print(
                f"| Dask task (count..to_pandas) | {dask_total:.2f} s | {dask_total / base:.2f} |"
            )
            print(f"| Spark task (count..ipc) | {spark_total:.2f} s | {spark_total / base:.2f} |")


if __name__ == "__main__":
    main()
