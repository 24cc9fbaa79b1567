"""Partitions shared by the cluster readers (``pgnkit.dask``, ``pgnkit.spark``).

A plan cuts files into partitions (``pgnkit-input``'s ``partition`` module, in Rust): byte
ranges of plain files, groups of frames of pzstd ``.zst`` files, the whole file for other
compressed files. Each partition is a small frozen dataclass of plain values, so it pickles
and travels to workers; workers open files themselves.

A partitioned read gives every game the ``game_id`` and ``offset`` of a single read
(``pgnkit.read_arrow`` over the same files): a first pass counts each partition's games with
the splitter alone (``count``), ``bases`` adds the counts up in plan order, and ``read``
reads a partition with ``read_arrow`` and shifts its ``game_id`` and ``offset`` by them.
"""

from __future__ import annotations

import dataclasses
import os
import re
from typing import Any, Dict, List, Sequence, Tuple, Union

from pgnkit import _pgnkit

#: ``(games, bytes, lead, origin)`` of a partition, as ``count`` returns them.
Counts = Tuple[int, int, int, int]

_UNITS = {
    "": 1,
    "b": 1,
    "kb": 10**3,
    "mb": 10**6,
    "gb": 10**9,
    "tb": 10**12,
    "kib": 2**10,
    "mib": 2**20,
    "gib": 2**30,
    "tib": 2**40,
}


def parse_blocksize(blocksize: Union[int, str, None]) -> int:
    """A block size in bytes: an int, ``None`` (whole files), or text like ``"64MiB"``."""
    if blocksize is None:
        return 2**63
    if isinstance(blocksize, int) and not isinstance(blocksize, bool):
        if blocksize < 1:
            raise ValueError(f"blocksize must be at least 1 byte, not {blocksize}")
        return blocksize
    if isinstance(blocksize, str):
        m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]*)\s*", blocksize)
        if m and m.group(2).lower() in _UNITS:
            size = int(float(m.group(1)) * _UNITS[m.group(2).lower()])
            if size >= 1:
                return size
    raise ValueError(f'blocksize is a number of bytes or text like "64MiB", not {blocksize!r}')


@dataclasses.dataclass(frozen=True)
class Partition:
    """One piece of the input that a worker reads on its own.

    Its identity is ``(file, start)``: the file's index in the list and the first stored
    byte of its range. ``kind`` is ``"range"`` (a byte range of a plain file), ``"frames"``
    (whole frames of a pzstd ``.zst`` file, a range in compressed bytes) or ``"whole"`` (a
    file that cannot be cut).
    """

    file: int
    path: str
    start: int
    end: int
    kind: str

    def as_tuple(self) -> Tuple[int, str, int, int, str]:
        return (self.file, self.path, self.start, self.end, self.kind)

    def __dask_tokenize__(self) -> Any:
        return ("pgnkit.Partition", self.as_tuple())


def expand_paths(paths: Union[str, "os.PathLike[str]", Sequence[Any]]) -> List[str]:
    """Local paths for a path, a glob or a list of them, through fsspec, in order (each
    glob's matches sorted). A path or glob that matches nothing raises FileNotFoundError
    naming it; a filesystem that is not local raises NotImplementedError."""
    import fsspec
    from fsspec.implementations.local import LocalFileSystem

    items = [paths] if isinstance(paths, (str, os.PathLike)) else list(paths)
    if not items:
        raise ValueError("no paths given")
    out: List[str] = []
    for item in items:
        text = os.fspath(item)
        fs, _, found = fsspec.get_fs_token_paths(text)
        if not isinstance(fs, LocalFileSystem):
            raise NotImplementedError(
                f"{text}: pgnkit reads ranges of local files only for now (the Rust reader "
                "needs a file it can seek in); mount the bucket (s3fs-fuse, gcsfuse, /dbfs) "
                "or copy the files to the workers, see docs/cluster.md"
            )
        if not found or (not fs.exists(found[0]) and not any(c in text for c in "*?[")):
            raise FileNotFoundError(2, "no such file, or no file matches", text)
        out.extend(sorted(found) if any(c in text for c in "*?[") else found)
    return out


def plan(
    paths: Sequence[str], blocksize: Union[int, str, None]
) -> Tuple[List[Partition], List[str]]:
    """The partitions of ``paths`` (local, in input order) and the warnings to show."""
    parts, warnings = _pgnkit.plan_partitions(list(paths), parse_blocksize(blocksize))
    return [Partition(*p) for p in parts], list(warnings)


def count(partition: Partition, threads: int = 1) -> Counts:
    """The partition's ``(games, bytes, lead, origin)``, found with the splitter alone."""
    return _pgnkit.count_partition(partition.as_tuple(), threads=threads)


def bases(partitions: Sequence[Partition], counts: Sequence[Counts]) -> List[Tuple[int, int]]:
    """Each partition's ``(first game_id, offset of its first game)``, in plan order."""
    return list(_pgnkit.partition_bases([p.as_tuple() for p in partitions], list(counts)))


def read(
    partition: Partition,
    base: Tuple[int, int],
    origin: int,
    table: str,
    options: Dict[str, Any],
) -> Any:
    """The partition's rows as a ``pyarrow.Table`` with the single read's ``game_id`` and
    ``offset``. ``origin`` is the count's (what ``read_arrow`` adds to a range's offsets)."""
    return shift_ids(read_local(partition, table, options), partition, base, origin)


def read_local(partition: Partition, table: str, options: Dict[str, Any]) -> Any:
    """The partition's rows as ``read_arrow`` gives them: ``game_id`` from 0 in the
    partition, ``offset`` from the file's start plus ``origin`` (see ``shift_ids``)."""
    import pgnkit

    if partition.kind == "whole":
        return pgnkit.read_arrow(partition.path, table, **options)
    return pgnkit.read_arrow(
        partition.path, table, range=(partition.start, partition.end), **options
    )


def shift_ids(t: Any, partition: Partition, base: Tuple[int, int], origin: int) -> Any:
    """``read_local``'s table with the single read's ``game_id`` and ``offset``."""
    import pyarrow as pa
    import pyarrow.compute as pc

    game_id, offset = base

    def shift(t: Any, name: str, minus: int, plus: int) -> Any:
        i = t.schema.get_field_index(name)
        if i < 0 or (minus == 0 and plus == 0):
            return t
        column = t.column(i)
        if minus:
            column = pc.subtract(column, pa.scalar(minus, column.type))
        if plus:
            column = pc.add(column, pa.scalar(plus, column.type))
        return t.set_column(i, t.schema.field(i), column)

    t = shift(t, "game_id", 0, game_id)
    if partition.kind != "whole":
        t = shift(t, "offset", origin, offset)
    return t


def schema(table: str, options: Dict[str, Any]) -> Any:
    """The ``pyarrow.Schema`` of ``table`` with these reader options (read from no input)."""
    import pgnkit

    return pgnkit.read_arrow(b"", table, **options).schema


def reader_options(options: Dict[str, Any]) -> Dict[str, Any]:
    """``read_arrow``'s keyword arguments for a worker: one thread unless asked (the engine
    runs partitions in parallel)."""
    known = {"threads", "fen", "keep_broken", "strict"}
    unknown = set(options) - known
    if unknown:
        raise TypeError(f"unknown reader option(s): {', '.join(sorted(unknown))}")
    out = dict(options)
    out.setdefault("threads", 1)
    return out
