"""Partitions shared by the cluster readers (``pgnkit.dask``, ``pgnkit.spark``).

A plan cuts files into partitions (``pgnkit-input``'s ``partition`` module, in Rust): byte
ranges of plain files, groups of frames of pzstd ``.zst`` files, the whole file for other
compressed files. Each partition is a small frozen dataclass of plain values, so it pickles
and travels to workers; workers open files themselves.

A partitioned read gives every game the ``game_id`` and ``offset`` of a single read
(``pgnkit.read_arrow`` over the same files), and its diagnostics the file's line numbers,
from *bases* ``(game_id, offset, line)``: the games, bytes and lines of the partitions
before it, added up in plan order (``bases``, ``step``) from each partition's *counts*
``(games, bytes, lines, lead, lead_lines, origin)``. Two ways to get them:

- count first (Spark, whose tasks cannot wait for each other): ``count`` reads a partition
  with the splitter alone, then ``read`` reads it at its bases;
- number after reading (Dask): ``read_local`` reads a partition from 0 and returns its
  counts with its table, a chain of ``step`` adds them up, and ``place`` shifts the table.
"""

from __future__ import annotations

import dataclasses
import os
import re
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

from pgnkit import _pgnkit

#: ``(games, bytes, lines, lead, lead_lines, origin)`` of a partition, as ``count`` and
#: ``read_local`` return them.
Counts = Tuple[int, int, int, int, int, int]
#: ``(game_id, offset, line)``: where a partition's first game is in a single read.
Bases = Tuple[int, int, int]
#: What the partitions so far leave for the next one: ``(file index or None, bases)``.
State = Tuple[Optional[int], Bases]
#: The broken games a read left out, and the first one's ``(name, line, column, message)``.
Broken = Tuple[int, Optional[Tuple[str, int, int, str]]]


def parse_blocksize(blocksize: Union[int, str, None]) -> int:
    """A block size in bytes: an int, ``None`` (whole files), or text like ``"64MiB"``, read
    by pgnkit's one size rule (``_pgnkit.parse_size``: K, M, G, T with or without ``B`` or
    ``iB`` are all powers of 1024, as the command line reads them)."""
    if blocksize is None:
        return 2**63
    try:
        return _pgnkit.parse_size(blocksize)
    except (TypeError, ValueError) as e:
        raise ValueError(f"blocksize: {e}") from None


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


def count(
    partition: Partition,
    threads: int = 1,
    max_window: Union[int, str, None] = None,
    nested_comments: bool = False,
) -> Counts:
    """The partition's counts, found with the splitter alone (no chess); ``max_window`` and
    ``nested_comments`` as for the ``pgnkit.read_arrow`` the counts are for (nested comments
    change where games end)."""
    return _pgnkit.count_partition(
        partition.as_tuple(),
        threads=threads,
        max_window=max_window,
        nested_comments=nested_comments,
    )


def bases(partitions: Sequence[Partition], counts: Sequence[Counts]) -> List[Bases]:
    """Each partition's bases, in plan order."""
    return list(_pgnkit.partition_bases([p.as_tuple() for p in partitions], list(counts)))


#: The state before the first partition.
START: State = (None, (0, 0, 0))


def step(state: State, partition: Partition, counts: Counts) -> Tuple[Bases, State]:
    """One partition's bases from what the partitions before it left, and what it leaves."""
    return _pgnkit.partition_step(state, partition.as_tuple(), counts)


def read(partition: Partition, base: Bases, table: str, options: Dict[str, Any]) -> Any:
    """The partition's rows as a ``pyarrow.Table``, placed at ``base`` (from ``count``'s
    counts): the single read's ``game_id`` and ``offset``, the file's lines. Broken games
    left out are told in a ``pgnkit.PgnWarning``."""
    t, _, broken = _pgnkit.read_partition(partition.as_tuple(), table, bases=base, **options)
    warn_broken(_pgnkit.broken_text(broken))
    return t


def read_local(
    partition: Partition, table: str, options: Dict[str, Any]
) -> Tuple[Any, Counts, Broken]:
    """The partition's rows counted from the partition (``game_id`` from 0, ``offset`` from
    its first game, lines from its first game's line), its counts (the read's own, no second
    pass) and the broken games it left out; ``place`` puts them where they belong."""
    return _pgnkit.read_partition(partition.as_tuple(), table, **options)


def place(t: Any, base: Bases, broken: Broken) -> Any:
    """``read_local``'s table placed at ``base`` (in Rust: ``game_id`` and ``offset``
    shifted, the line numbers of ``errors`` made the file's); a ``pgnkit.PgnWarning`` for
    the broken games left out, with the file's line."""
    placed, told = _pgnkit.place_partition(t, base, broken)
    warn_broken(told)
    return placed


def warn_broken(broken: Tuple[int, Optional[str]]) -> None:
    """A ``pgnkit.PgnWarning`` for the broken games a read left out, as ``read_arrow``'s."""
    import warnings

    import pgnkit

    count, first = broken
    if count:
        warnings.warn(
            f"{count} broken game{'' if count == 1 else 's'} left out of the table (keep them "
            f"with keep_broken=True); the first: {first}",
            pgnkit.PgnWarning,
            stacklevel=3,
        )


def schema(table: str, options: Dict[str, Any]) -> Any:
    """The ``pyarrow.Schema`` of ``table`` with these reader options (read from no input)."""
    import pgnkit

    return pgnkit.read_arrow(b"", table, **options).schema


def reader_options(options: Dict[str, Any]) -> Dict[str, Any]:
    """``read_arrow``'s keyword arguments for a worker: one thread unless asked (the engine
    runs partitions in parallel)."""
    known = {
        "threads",
        "fen",
        "keep_broken",
        "strict",
        "nested_comments",
        "fix_tag_strings",
        "max_window",
    }
    unknown = set(options) - known
    if unknown:
        raise TypeError(f"unknown reader option(s): {', '.join(sorted(unknown))}")
    out = dict(options)
    out.setdefault("threads", 1)
    return out
