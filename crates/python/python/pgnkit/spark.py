"""PGN files as a Spark data source: ``pgnkit.spark.PgnDataSource`` (Spark 4's Python Data
Source API).

::

    import pgnkit.spark

    spark.dataSource.register(pgnkit.spark.PgnDataSource)
    games = spark.read.format("pgn").load("lichess_db_standard_rated_2024-01.pgn.zst")
    moves = spark.read.format("pgn").option("table", "moves").load("archive/*.pgn")

Options (all strings, as Spark passes them): ``table`` (``games``, ``moves`` or
``positions``),
``blocksize`` (``64MiB``; bytes as stored per partition), ``partitions`` (instead of
``blocksize``: about this many partitions, the total stored size divided evenly),
``keep_broken``, ``fen``, ``strict``, ``nested_comments``, ``fix_tag_strings``
(``true``/``false``), ``threads`` (per partition,
default 1), ``max_window`` (``2GiB``: the most memory a zstd window or xz dictionary may
take, as ``read_arrow``'s; default 128 MiB), ``paths`` (a JSON list, instead of the path
given to ``load``).

Partitions are those of ``pgnkit.dask``: byte ranges of plain files, groups of frames of
pzstd ``.zst`` files, whole files for other compressed files. The rows equal those of
``pgnkit.read_arrow`` over the same files, ``game_id`` and ``offset`` included, and the
lines in ``errors`` and warnings are the file's: planning counts each partition's games,
bytes and lines first (on the driver, a pass of decompression and splitting with no chess,
several partitions at once), so the driver must see the files too.

Spark has no unsigned integers nor a seconds-precision time: ``game_id`` and ``offset``
(uint64) become ``long``, and so does the positions table's ``polyglot_key`` (uint64): its
64 bits as a signed ``long``, as Java Polyglot readers hold it (keys of 2**63 and more come
out negative; ``pgnkit.spark.signed_key`` gives a key in that form), ``pieces`` and the
material counts (uint8) ``short``, ``ply_count``/``ply`` (uint16) ``int``, ``nags`` (list of uint8)
a list of ``short``, the ``errors`` structs' ``line`` and ``column`` ``long``, ``UTCTime`` (time32 seconds) Spark's ``time``; every batch is cast to
the declared schema before it is yielded, as Spark requires.
"""

from __future__ import annotations

import json
from typing import Any, Dict, Iterator, List, Tuple

from pyspark.sql.datasource import DataSource, DataSourceReader, InputPartition

__all__ = ["PgnDataSource", "signed_key"]


def _flag(options: Dict[str, str], name: str) -> bool:
    value = str(options.get(name, "false")).strip().lower()
    if value in ("true", "1", "yes"):
        return True
    if value in ("false", "0", "no", ""):
        return False
    raise ValueError(f"option {name} is true or false, not {value!r}")


def _reader_options(options: Dict[str, str]) -> Dict[str, Any]:
    flags = ("keep_broken", "fen", "strict", "nested_comments", "fix_tag_strings")
    out: Dict[str, Any] = {name: _flag(options, name) for name in flags}
    out["threads"] = int(options.get("threads", "1"))
    if options.get("max_window"):
        out["max_window"] = options["max_window"]
    return out


def _spark_arrow_type(t: Any) -> Any:
    """The Arrow type Spark takes for a pgnkit column's type."""
    import pyarrow as pa

    if pa.types.is_uint8(t):
        return pa.int16()
    if pa.types.is_uint16(t):
        return pa.int32()
    if pa.types.is_uint32(t) or pa.types.is_uint64(t):
        return pa.int64()
    if pa.types.is_time(t):
        return pa.time64("ns")
    if pa.types.is_large_string(t) or pa.types.is_string_view(t):
        return pa.string()
    if pa.types.is_map(t):
        return pa.map_(_spark_arrow_type(t.key_type), _spark_arrow_type(t.item_type))
    if pa.types.is_list(t) or pa.types.is_large_list(t):
        return pa.list_(_spark_arrow_type(t.value_type))
    if pa.types.is_struct(t):
        return pa.struct([pa.field(f.name, _spark_arrow_type(f.type), True) for f in t])
    return t


def spark_schemas(arrow_schema: Any) -> Tuple[Any, Any]:
    """The Spark ``StructType`` for a pgnkit table's Arrow schema, and the Arrow schema that
    batches are cast to (Spark's own Arrow form of that ``StructType``)."""
    import pyarrow as pa
    from pyspark.sql.pandas.types import from_arrow_schema, to_arrow_schema

    widened = pa.schema([pa.field(f.name, _spark_arrow_type(f.type), True) for f in arrow_schema])
    struct = from_arrow_schema(widened)
    return struct, to_arrow_schema(struct)


def to_spark(table: Any, target: Any) -> Any:
    """A pgnkit table in ``target``, the Arrow schema of ``spark_schemas``. The cast skips
    the overflow checks (``safe=False``): every change widens (uint8 -> int16, uint16 ->
    int32, seconds -> nanoseconds) except uint64 -> int64: ``game_id`` and ``offset`` are
    below 2**63 (counts of games and bytes), and ``polyglot_key`` keeps its 64 bits as a
    signed value (see ``signed_key``)."""
    return table.select(target.names).cast(target, safe=False)


def signed_key(key: int) -> int:
    """A Polyglot key (``chess.polyglot.zobrist_hash``, ``Position.polyglot_key``) as the
    Spark positions table's ``polyglot_key`` holds it: its 64 bits read as a signed long."""
    return key - (1 << 64) if key >= 1 << 63 else key


class _Partition(InputPartition):
    """A partition with its bases: plain values, pickled to the executors."""

    def __init__(self, partition: Any, base: Tuple[int, int, int]) -> None:
        super().__init__(partition.as_tuple())
        self.partition = partition
        self.base = base


class PgnReader(DataSourceReader):
    """Plans partitions on the driver and reads one per task on the executors."""

    def __init__(self, options: Dict[str, str], schema: Any) -> None:
        self.options = dict(options)
        self.table = self.options.get("table", "games")
        self.reader_options = _reader_options(self.options)
        self.schema = schema

    def _paths(self) -> List[str]:
        from pgnkit import _partition

        if "paths" in self.options:
            given = json.loads(self.options["paths"])
        elif "path" in self.options:
            given = self.options["path"]
        else:
            raise ValueError('give the files to load("...") or as option("paths", json list)')
        return _partition.expand_paths(given)

    def partitions(self) -> List[InputPartition]:
        import os
        import warnings
        from concurrent.futures import ThreadPoolExecutor

        from pgnkit import PgnWarning, _partition

        files = self._paths()
        if "partitions" in self.options:
            total = sum(os.path.getsize(f) for f in files)
            block: Any = max(1, -(-total // max(1, int(self.options["partitions"]))))
        else:
            block = self.options.get("blocksize", "64MiB")
        parts, notes = _partition.plan(files, block)
        for note in notes:
            warnings.warn(note, PgnWarning, stacklevel=2)
        # The counts release the GIL: several partitions at once.
        with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
            window = self.reader_options.get("max_window")
            nested = bool(self.reader_options.get("nested_comments", False))
            counts = list(
                pool.map(
                    lambda p: _partition.count(p, max_window=window, nested_comments=nested),
                    parts,
                )
            )
        bases = _partition.bases(parts, counts)
        out: List[InputPartition] = [_Partition(p, b) for p, b in zip(parts, bases)]
        return out or [InputPartition(None)]

    def read(self, partition: InputPartition) -> Iterator[Any]:
        from pgnkit import _partition

        if not isinstance(partition, _Partition):
            return
        _, target = spark_schemas(_partition.schema(self.table, self.reader_options))
        t = _partition.read(partition.partition, partition.base, self.table, self.reader_options)
        yield from to_spark(t, target).to_batches()


class PgnDataSource(DataSource):
    """``spark.read.format("pgn")``: the games, moves or positions table of PGN files (see
    the module's docs for the options)."""

    @classmethod
    def name(cls) -> str:
        return "pgn"

    def schema(self) -> Any:
        from pgnkit import _partition

        options = dict(self.options)
        table = options.get("table", "games")
        if table not in ("games", "moves", "positions"):
            raise ValueError(f'option table is "games", "moves" or "positions", not {table!r}')
        struct, _ = spark_schemas(_partition.schema(table, _reader_options(options)))
        return struct

    def reader(self, schema: Any) -> DataSourceReader:
        return PgnReader(dict(self.options), schema)
