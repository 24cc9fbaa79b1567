"""Issue 18's "One truth": the bench file, a pzstd-layout .zst of it and a glob of corpus
files read through pgnkit.dask (threaded, and a LocalCluster of 2 worker processes, at
several block sizes) and pgnkit.spark (local mode, 2 and 16 partitions) give the rows of a
single read (pgnkit.read_arrow; for several files `pgnkit convert`), every column, after
sorting by game_id."""

from __future__ import annotations

import os
import shutil
import re
import subprocess
import sys
import warnings
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pytest

import pgnkit
import pgnkit.dask

ROOT = Path(__file__).resolve().parents[3]
MiB = 1 << 20

# Each test's time limit (pytest-timeout, pinned in tests/python/requirements.txt; it
# overrides xtask's --timeout): a read that stops making progress (a Spark job whose task
# result was lost) fails its test with every thread's stack instead of holding CI. A Spark
# test took 7 to 8 minutes on the 2-core machine under a load average of 15-23 (about 15 s
# of CPU); the limit leaves room for a heavier load.
pytestmark = pytest.mark.timeout(1800)


@pytest.fixture(scope="session")
def bench(corpus: Path) -> Path:
    """The bench file: PGNKIT_BENCH_FILE, else target/bench.pgn (built when missing)."""
    if "PGNKIT_BENCH_FILE" in os.environ:
        return Path(os.environ["PGNKIT_BENCH_FILE"])
    path = ROOT / "target" / "bench.pgn"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(["bash", str(corpus / "bench-file.sh"), str(path)], check=True)
    return path


@pytest.fixture(scope="session")
def bench_zst(bench: Path, tmp_path_factory) -> Path:
    """The bench file in pzstd's layout (level 1: frames of about 2 MiB of text)."""
    pzstd = shutil.which("pzstd") or "/usr/bin/pzstd"
    out = tmp_path_factory.mktemp("zst") / "bench.pgn.zst"
    subprocess.run([pzstd, "-q", "-f", "-1", "-p", "2", str(bench), "-o", str(out)], check=True)
    return out


@pytest.fixture(scope="session")
def glob_pattern(corpus: Path) -> str:
    """A glob of several corpus files (the conftest's `corpus` fixture finds the corpus)."""
    return str(corpus / "lichess-annotated" / "*.pgn")


def single(paths: list, table: str, tmp_path: Path, cli: Path) -> pa.Table:
    """The single read: read_arrow for one file, `pgnkit convert` (the binary `cli`) for several."""
    if len(paths) == 1:
        return pgnkit.read_arrow(str(paths[0]), table, threads=2)
    out = {name: tmp_path / f"{name}.arrow" for name in ("games", "moves", "positions")}
    done = subprocess.run(
        [str(cli), "convert", *map(str, paths), "-o", str(out["games"])]
        + ["--moves", str(out["moves"]), "--positions", str(out["positions"])],
        capture_output=True,
        text=True,
    )
    assert done.returncode in (0, 1), done.stderr
    with pa.memory_map(str(out[table])) as source:
        return pa.ipc.open_file(source).read_all()


def sort(t: pa.Table, table: str) -> pa.Table:
    keys = [("game_id", "ascending")] + ([("ply", "ascending")] if table != "games" else [])
    return t.sort_by(keys)


def assert_same(got: pa.Table, want: pa.Table, table: str, what: str) -> None:
    got, want = sort(got, table), sort(want, table)
    assert got.num_rows == want.num_rows, f"{what}: {got.num_rows} rows, want {want.num_rows}"
    assert got.column_names == want.column_names, what
    for name in want.column_names:
        a, b = got.column(name), want.column(name)
        if a.type != b.type:
            a = a.cast(b.type)
        if not a.equals(b):
            diff = pc.not_equal(a, b)
            first = next((i for i, v in enumerate(diff.to_pylist()) if v), None)
            raise AssertionError(f"{what}: column {name} differs, first at row {first}")


def from_dask(df, want: pa.Table) -> pa.Table:
    return pa.Table.from_pandas(df, preserve_index=False).cast(want.schema)


@pytest.fixture(scope="module")
def cluster():
    distributed = pytest.importorskip("distributed")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with (
            distributed.LocalCluster(
                n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
            ) as c,
            distributed.Client(c) as client,
        ):
            yield client


@pytest.mark.parametrize("table", ["games", "moves"])
def test_dask_bench_file_at_every_block_size(
    bench, bench_zst, cluster, table, tmp_path, pgnkit_bin
):
    for path in (bench, bench_zst):
        want = single([path], table, tmp_path, pgnkit_bin)
        # The moves table at one block size: it costs three times the games table.
        sizes = (1 * MiB, 8 * MiB, None) if table == "games" else (8 * MiB,)
        for blocksize in sizes:
            df = pgnkit.dask.read_pgn(str(path), table=table, blocksize=blocksize)
            got = from_dask(df.compute(), want)
            assert_same(got, want, table, f"{path.name} blocksize {blocksize}")


def test_the_zst_reads_as_the_plain_file(bench, bench_zst, tmp_path, pgnkit_bin):
    plain = single([bench], "games", tmp_path, pgnkit_bin).drop_columns(["source"])
    zst = single([bench_zst], "games", tmp_path, pgnkit_bin).drop_columns(["source"])
    assert_same(zst, plain, "games", "the .zst against the plain file")


def test_dask_threaded_glob_equals_convert(tmp_path, glob_pattern, pgnkit_bin):
    paths = sorted(Path(p) for p in __import__("glob").glob(glob_pattern))
    assert len(paths) >= 5
    for table in ("games", "moves"):
        want = single(paths, table, tmp_path, pgnkit_bin)
        for blocksize in (64 << 10, None):
            df = pgnkit.dask.read_pgn(glob_pattern, table=table, blocksize=blocksize)
            got = from_dask(df.compute(scheduler="threads"), want)
            assert_same(got, want, table, f"glob blocksize {blocksize}")


def test_dask_positions_table_equals_convert_threaded_and_on_a_cluster(
    cluster, tmp_path, glob_pattern, pgnkit_bin
):
    """table="positions" as table="moves": the glob's positions table through the threaded
    scheduler and the LocalCluster, at two block sizes, equals `pgnkit convert --positions`;
    each game has one more position than moves (its start)."""
    paths = sorted(Path(p) for p in __import__("glob").glob(glob_pattern))
    want = single(paths, "positions", tmp_path, pgnkit_bin)
    moves = single(paths, "moves", tmp_path, pgnkit_bin)
    games = single(paths, "games", tmp_path, pgnkit_bin)
    assert want.num_rows == moves.num_rows + games.num_rows
    assert pa.types.is_uint64(want.schema.field("polyglot_key").type)
    for blocksize in (64 << 10, None):
        df = pgnkit.dask.read_pgn(glob_pattern, table="positions", blocksize=blocksize)
        got = from_dask(df.compute(scheduler="threads"), want)
        assert_same(got, want, "positions", f"glob blocksize {blocksize}")
    df = pgnkit.dask.read_pgn(glob_pattern, table="positions", blocksize=256 << 10)
    got = from_dask(df.compute(), want)
    assert_same(got, want, "positions", "glob on the LocalCluster")


def test_glob_counts_equal_the_check_summary(glob_pattern, pgnkit_bin):
    """Games read, written and rejected by `pgnkit check` over the glob's files, and the
    games and plies of the partitioned read (broken games kept, then left out)."""
    paths = sorted(__import__("glob").glob(glob_pattern))
    done = subprocess.run([str(pgnkit_bin), "check", *paths], capture_output=True, text=True)
    m = re.search(r"(\d+) games read, (\d+) [\w ]+?, (\d+) rejected", done.stderr)
    assert m, done.stderr
    read, ok, rejected = map(int, m.groups())
    kept = pgnkit.dask.read_pgn(glob_pattern, blocksize=64 << 10, keep_broken=True).compute()
    assert len(kept) == read
    errors = pa.Table.from_pandas(kept[["errors"]], preserve_index=False).column("errors")
    lengths = pc.fill_null(pc.list_value_length(errors), 0)
    assert pc.sum(pc.greater(lengths, 0)).as_py() == rejected
    clean = pgnkit.dask.read_pgn(glob_pattern, blocksize=64 << 10).compute()
    assert len(clean) == ok
    moves = pgnkit.dask.read_pgn(glob_pattern, table="moves", blocksize=64 << 10).compute()
    assert len(moves) == int(clean["ply_count"].sum())


def test_dask_meta_is_known_before_reading(bench):
    df = pgnkit.dask.read_pgn(str(bench), blocksize=8 * MiB)
    assert df.npartitions >= 8
    assert str(df.dtypes["WhiteElo"]) == "int16[pyarrow]"
    assert str(df.dtypes["game_id"]) == "uint64[pyarrow]"


def test_bad_input_is_named_before_anything_is_scheduled(tmp_path):
    with pytest.raises(FileNotFoundError, match="nothing-here"):
        pgnkit.dask.read_pgn(str(tmp_path / "nothing-here-*.pgn"))
    good = tmp_path / "good.pgn"
    good.write_text('[Event "a"]\n\n1. e4 *\n')
    binary = tmp_path / "image.pgn"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01")
    with pytest.raises(pgnkit.PgnError, match="image.pgn"):
        pgnkit.dask.read_pgn([str(good), str(binary)])
    locked = tmp_path / "locked.pgn"
    locked.write_text('[Event "a"]\n\n1. e4 *\n')
    locked.chmod(0)
    if os.access(locked, os.R_OK):
        pytest.skip("running as root: permissions are not enforced")
    with pytest.raises(PermissionError, match="locked.pgn"):
        pgnkit.dask.read_pgn([str(good), str(locked)])


def test_paths_go_through_fsspec_and_only_local_files_are_read(glob_pattern):
    """A `file://` URL is fsspec's local filesystem: the same files and partitions as the
    plain path. Another filesystem (here fsspec's in-memory one, standing for s3:// and the
    like) is refused before anything is scheduled, naming the path (docs/cluster.md)."""
    import fsspec

    plain = pgnkit.dask.read_pgn(glob_pattern, blocksize=64 << 10)
    url = pgnkit.dask.read_pgn("file://" + glob_pattern, blocksize=64 << 10)
    assert url.npartitions == plain.npartitions > 5
    assert url.compute(scheduler="sync")["game_id"].tolist() == list(range(len(plain)))
    fsspec.filesystem("memory").pipe("/s8/games.pgn", b'[Event "a"]\n\n1. e4 *\n')
    with pytest.raises(NotImplementedError, match=r"memory://s8/games\.pgn: .*local files"):
        pgnkit.dask.read_pgn("memory://s8/games.pgn")


def test_a_gzip_file_is_one_partition_with_a_warning(tmp_path, glob_pattern):
    import gzip

    text = Path(sorted(__import__("glob").glob(glob_pattern))[0]).read_bytes()
    path = tmp_path / "games.pgn.gz"
    path.write_bytes(gzip.compress(text))
    with pytest.warns(pgnkit.PgnWarning, match="games.pgn.gz: a gzip file cannot be cut"):
        df = pgnkit.dask.read_pgn(str(path), blocksize=1024)
    assert df.npartitions == 1
    want = pgnkit.read_arrow(str(path), "games")
    assert_same(from_dask(df.compute(scheduler="sync"), want), want, "games", "gzip")


@pytest.fixture(scope="module")
def spark():
    pyspark = pytest.importorskip("pyspark")
    from pyspark.sql import SparkSession

    import pgnkit.spark

    # The workers' Python is this one (with pgnkit and pyarrow), not the PATH's python3.
    os.environ["PYSPARK_PYTHON"] = sys.executable
    # Local mode needs no network: bind to loopback, whatever the host name resolves to.
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    # Local mode runs the driver and the executors in one JVM, whose heap is
    # spark.driver.memory (1g by default). `toArrow()` of the bench file's moves table
    # (3.3 M rows, 260 MiB of Arrow) holds each task's result in that heap, and 1g ran out:
    # the OutOfMemoryError killed Spark's task-result-getter thread, the task was never
    # reported done, and the job waited forever with no CPU used (the CI hang of issue 18).
    # So: a heap that holds it (2g; PGNKIT_SPARK_DRIVER_MEMORY to change it), and a JVM that
    # exits on OutOfMemoryError, which fails the read at once ("Terminating due to
    # java.lang.OutOfMemoryError" in the captured log) rather than hanging.
    session = (
        SparkSession.builder.master("local[2]")
        .appName("pgnkit-tests")
        .config("spark.driver.memory", os.environ.get("PGNKIT_SPARK_DRIVER_MEMORY", "2g"))
        .config("spark.driver.extraJavaOptions", "-XX:+ExitOnOutOfMemoryError")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .getOrCreate()
    )
    session.dataSource.register(pgnkit.spark.PgnDataSource)
    yield session
    try:
        session.stop()
    except Exception as e:  # the JVM is gone (see spark_table): its test failed already
        warnings.warn(f"the Spark session did not stop: {e!r}")
    del pyspark


def spark_table(spark, path: str, table: str, partitions: int) -> pa.Table:
    from py4j.protocol import Py4JError

    try:
        df = (
            spark.read.format("pgn")
            .option("table", table)
            .option("partitions", str(partitions))
            .load(path)
        )
        return df.toArrow()
    except (Py4JError, OSError, EOFError) as e:
        pytest.fail(
            f"Spark's JVM stopped answering while reading {path} ({e!r}). Its log is in the "
            'captured stderr; "Terminating due to java.lang.OutOfMemoryError" there means '
            "spark.driver.memory (PGNKIT_SPARK_DRIVER_MEMORY) is too small for the table."
        )


@pytest.mark.parametrize("table", ["games", "moves"])
def test_spark_local_with_2_and_16_partitions(spark, bench, bench_zst, table, tmp_path, pgnkit_bin):
    import pgnkit.spark

    for path in (bench, bench_zst):
        want = single([path], table, tmp_path, pgnkit_bin)
        _, target = pgnkit.spark.spark_schemas(want.schema)
        want = want.cast(target)
        for n in (2, 16):
            got = spark_table(spark, str(path), table, n)
            assert_same(got.cast(target), want, table, f"spark {path.name} x{n}")


def test_spark_glob_equals_convert(spark, tmp_path, glob_pattern, pgnkit_bin):
    import pgnkit.spark

    paths = sorted(Path(p) for p in __import__("glob").glob(glob_pattern))
    want = single(paths, "games", tmp_path, pgnkit_bin)
    _, target = pgnkit.spark.spark_schemas(want.schema)
    got = spark_table(spark, glob_pattern, "games", 4)
    assert_same(got.cast(target), want.cast(target), "games", "spark glob")


def test_spark_positions_table_equals_convert(spark, tmp_path, glob_pattern, pgnkit_bin):
    """option("table", "positions"), in 2 and 16 partitions, equals `pgnkit convert
    --positions`, the Polyglot keys as Spark's signed longs (`signed_key`), so that the
    start position's key is found by a Spark SQL filter."""
    import pgnkit.spark

    paths = sorted(Path(p) for p in __import__("glob").glob(glob_pattern))
    want = single(paths, "positions", tmp_path, pgnkit_bin)
    _, target = pgnkit.spark.spark_schemas(want.schema)
    spark_want = pgnkit.spark.to_spark(want, target)
    keys = want.column("polyglot_key").to_pylist()
    assert any(k >= 1 << 63 for k in keys), "a key past 2**63 comes out negative"
    assert spark_want.column("polyglot_key").to_pylist() == [
        pgnkit.spark.signed_key(k) for k in keys
    ]
    for n in (2, 16):
        got = spark_table(spark, glob_pattern, "positions", n)
        assert_same(got.cast(target), spark_want, "positions", f"spark positions x{n}")
    start = 0x463B96181691FC9C
    df = spark.read.format("pgn").option("table", "positions").load(glob_pattern)
    found = df.filter(df.polyglot_key == pgnkit.spark.signed_key(start)).count()
    assert found == keys.count(start) > 0


# Line numbers: a partitioned read's diagnostics count lines from the file's start, as a
# single read's do (the `errors` column with keep_broken, and the warning for broken games).

BROKEN = (
    b'[Event "broken {n}"]\n[White "a"]\n[Black "b"]\n[Result "*"]\n\n1. e4 e5 2. Ke3 Kd6 *\n\n'
)


@pytest.fixture(scope="session")
def broken_file(corpus: Path, tmp_path_factory) -> Path:
    """A 2.3 MB corpus file with blank lines before its first game, one CRLF game, and
    broken games (an illegal move) in the middle and near the end: a partition at a small
    block size starts thousands of lines into the file."""
    text = (corpus / "lichess-annotated" / "lichess_db_2021-10_999games.pgn").read_bytes()
    games = text.split(b"\n\n[Event ")
    middle, late = len(games) // 2, len(games) - 3
    out = bytearray(b"\n\n\r\n")
    for i, game in enumerate(games):
        out += game if i == 0 else b"[Event " + game
        out += b"\n\n"
        if i == 10:
            out += BROKEN.replace(b"\n", b"\r\n").replace(b"{n}", b"crlf")
        if i in (middle, late):
            out += BROKEN.replace(b"{n}", str(i).encode())
    path = tmp_path_factory.mktemp("broken") / "broken.pgn"
    path.write_bytes(bytes(out))
    return path


def errors_by_game(t: pa.Table) -> dict:
    """game_id -> errors, for the games with errors."""
    return {
        g: e for g, e in zip(t.column("game_id").to_pylist(), t.column("errors").to_pylist()) if e
    }


def test_dask_errors_count_lines_from_the_files_start(broken_file):
    want = errors_by_game(pgnkit.read_arrow(str(broken_file), keep_broken=True))
    assert len(want) == 3, want
    assert all(e[0]["severity"] == "error" and e[0]["column"] > 0 for e in want.values()), want
    last_line = max(want.items())[1][0]["line"]
    assert last_line > 15_000, "the late broken game is far into the file"
    for blocksize in (64 << 10, 1 * MiB):
        df = pgnkit.dask.read_pgn(str(broken_file), blocksize=blocksize, keep_broken=True)
        assert df.npartitions > 1
        got = pa.Table.from_pandas(df.compute(scheduler="threads"), preserve_index=False)
        assert errors_by_game(got) == want, f"blocksize {blocksize}"


def test_dask_warning_names_the_files_line(broken_file):
    with pytest.warns(pgnkit.PgnWarning) as single_read:
        pgnkit.read_arrow(str(broken_file))
    (want,) = [str(w.message) for w in single_read if "broken game" in str(w.message)]
    assert "3 broken games" in want
    first = want.split("the first: ")[1]
    assert re.match(re.escape(str(broken_file)) + r":\d+:\d+: ", first), first
    with pytest.warns(pgnkit.PgnWarning) as dask_read:
        pgnkit.dask.read_pgn(str(broken_file), blocksize=64 << 10).compute(scheduler="sync")
    messages = [str(w.message) for w in dask_read if "broken game" in str(w.message)]
    # One warning per partition that left a game out; each names the file's line.
    firsts = sorted(m.split("the first: ")[1] for m in messages)
    assert first in firsts, (first, firsts)
    assert len(messages) == 3


def test_spark_errors_count_lines_from_the_files_start(spark, broken_file):
    want = errors_by_game(pgnkit.read_arrow(str(broken_file), keep_broken=True))
    got = (
        spark.read.format("pgn")
        .option("keep_broken", "true")
        .option("partitions", "16")
        .load(str(broken_file))
        .toArrow()
    )
    assert errors_by_game(got) == want


def test_spark_counts_split_as_the_reads_with_nested_comments(spark, tmp_path):
    """With nested_comments a result marker inside an inner comment ends no game: Spark's
    planning counts must split as the reads do, or the game_ids after the first such comment
    are off (they were: the counts split by the standard's rules)."""
    nested = '[Event "n{n}"]\n\n1. e4 {{ outer {{ inner }} 1-0 still outer }} e5 *\n\n'
    plain = '[Event "p{n}"]\n\n1. d4 d5 *\n\n'
    path = tmp_path / "nested.pgn"
    path.write_text("".join((plain if n % 5 else nested).format(n=n) for n in range(400)))
    want = pgnkit.read_arrow(str(path), nested_comments=True)
    assert want.num_rows == 400
    plain = pgnkit.read_arrow(str(path), keep_broken=True)
    assert plain.num_rows > 400, "by the standard's rules the marker ends a game"
    got = (
        spark.read.format("pgn")
        .option("nested_comments", "true")
        .option("partitions", "8")
        .load(str(path))
        .toArrow()
    )
    assert got.column("game_id").to_pylist() == want.column("game_id").to_pylist()
    assert got.column("Event").to_pylist() == want.column("Event").to_pylist()


def test_spark_sql_filters_on_the_date_tag(spark, corpus: Path):
    """`Date` (the tag's text) and the typed `game_date` are two names to Spark SQL, which
    reads names without case: a filter on `Date` is no ambiguous reference."""
    path = corpus / "lichess-annotated" / "lichess_db_2021-10_999games.pgn"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        single = pgnkit.read_arrow(str(path))
    dates = single.column("Date").to_pylist()
    want = sum(1 for d in dates if d is not None and d.startswith("2021"))
    assert want > 900
    spark.read.format("pgn").option("partitions", "4").load(str(path)).createOrReplaceTempView(
        "games"
    )
    got = spark.sql("SELECT count(*) FROM games WHERE Date LIKE '2021%'").collect()[0][0]
    assert got == want
    typed = spark.sql("SELECT count(*) FROM games WHERE year(game_date) = 2021").collect()[0][0]
    assert typed == want


# Bad inputs on a cluster (issue "Hardening"): a corrupt `.zst` among several paths fails the
# job naming the file and the compressed offset; a missing path is named before any task; the
# zstd window limit (`max_window`) reaches the workers.


@pytest.fixture(scope="module")
def bad_inputs(corpus: Path, tmp_path_factory) -> dict:
    """A good file, a `.zst` of it corrupted in its middle, and a `zstd --long=31` file (a
    2 GiB window)."""
    out = tmp_path_factory.mktemp("bad-inputs")
    good = out / "good.pgn"
    good.write_bytes(
        (corpus / "lichess-annotated" / "lichess_db_2021-10_999games.pgn").read_bytes()
    )
    packed = bytearray(
        subprocess.run(["zstd", "-q", "-c", str(good)], capture_output=True, check=True).stdout
    )
    middle = len(packed) // 2
    packed[middle : middle + 64] = bytes(64)
    corrupt = out / "corrupt.pgn.zst"
    corrupt.write_bytes(bytes(packed))
    long31 = out / "long31.pgn.zst"
    with good.open("rb") as source, long31.open("wb") as sink:
        # From a pipe (no size known), as `zstd --long=31` keeps its 2 GiB window then.
        subprocess.run(["zstd", "-q", "--long=31", "-c"], stdin=source, stdout=sink, check=True)
    return {"good": str(good), "corrupt": str(corrupt), "long31": str(long31)}


CORRUPT = r"corrupt\.pgn\.zst: zstd data corrupt or truncated near byte \d+ of the compressed file"


def test_dask_bad_inputs_on_a_local_cluster(cluster, bad_inputs, tmp_path):
    good, corrupt, long31 = bad_inputs["good"], bad_inputs["corrupt"], bad_inputs["long31"]
    missing = str(tmp_path / "missing.pgn")
    with pytest.raises(FileNotFoundError, match="missing.pgn"):
        pgnkit.dask.read_pgn([good, missing])
    df = pgnkit.dask.read_pgn([good, corrupt, good], blocksize=256 << 10)
    with pytest.raises(pgnkit.PgnError, match=CORRUPT):
        df.compute()
    with pytest.raises(pgnkit.PgnError, match='max_window="2GiB"'):
        pgnkit.dask.read_pgn(long31).compute()
    got = pgnkit.dask.read_pgn(long31, max_window="2GiB").compute()
    assert len(got) == pgnkit.read_arrow(good).num_rows > 900


def test_spark_bad_inputs_in_local_mode(spark, bad_inputs, tmp_path):
    import json

    good, corrupt, long31 = bad_inputs["good"], bad_inputs["corrupt"], bad_inputs["long31"]
    missing = str(tmp_path / "missing.pgn")

    def load(paths: list, **options: str):
        reader = spark.read.format("pgn").option("paths", json.dumps(paths))
        for name, value in options.items():
            reader = reader.option(name, value)
        return reader.load().toArrow()

    with pytest.raises(Exception, match=r"FileNotFoundError.*missing\.pgn"):
        load([good, missing])
    with pytest.raises(Exception, match=CORRUPT):
        load([good, corrupt])
    with pytest.raises(Exception, match='max_window="2GiB"'):
        load([long31])
    assert load([long31], max_window="2GiB").num_rows == pgnkit.read_arrow(good).num_rows
