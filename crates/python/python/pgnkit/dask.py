"""PGN files as a Dask DataFrame: ``pgnkit.dask.read_pgn``.

::

    import pgnkit.dask

    games = pgnkit.dask.read_pgn("lichess_db_standard_rated_2024-01.pgn.zst")
    moves = pgnkit.dask.read_pgn("archive/*.pgn", table="moves", blocksize="32MiB")
    games.groupby("ECO").size().compute()

Each partition is a byte range of a plain file, a group of frames of a pzstd ``.zst``
file, or a whole file for other compressed files (with a warning naming it), read by
pgnkit's Rust reader into Arrow and handed to pandas with Arrow-backed dtypes
(``pd.ArrowDtype``), so nothing is lost on the way (int16 with nulls, dates, maps, lists).

Rows are those of ``pgnkit.read_arrow`` over the same files, ``game_id`` and ``offset``
included, whatever the block size: the graph first counts each partition's games (a pass of
decompression and splitting, no chess), then each read shifts its ids by the games before.
"""

from __future__ import annotations

import warnings
from typing import Any, Dict, List, Sequence, Tuple, Union

from pgnkit import _partition

__all__ = ["read_pgn"]


def _count(partition: _partition.Partition) -> _partition.Counts:
    return _partition.count(partition)


def _bases(
    partitions: Sequence[_partition.Partition], *counts: _partition.Counts
) -> List[Tuple[Tuple[int, int], int]]:
    bases = _partition.bases(partitions, counts)
    return [(b, c[3]) for b, c in zip(bases, counts)]


def _read(
    partition: _partition.Partition,
    bases: List[Tuple[Tuple[int, int], int]],
    index: int,
    table: str,
    options: Dict[str, Any],
) -> Any:
    import pandas as pd

    base, origin = bases[index]
    t = _partition.read(partition, base, origin, table, options)
    return t.to_pandas(types_mapper=pd.ArrowDtype)


def read_pgn(
    paths: Union[str, Any, Sequence[Any]],
    *,
    table: str = "games",
    blocksize: Union[int, str, None] = "64MiB",
    keep_broken: bool = False,
    **reader_options: Any,
) -> Any:
    """Reads PGN files into a ``dask.dataframe.DataFrame`` of the games or moves table.

    ``paths``: a path, a glob (``"data/*.pgn.zst"``) or a list of them, through fsspec;
    files are read in that order (a glob's matches sorted). ``table``: ``"games"`` (one row
    per game) or ``"moves"`` (one row per main-line move), the tables of ``pgnkit.read_arrow``
    and ``pgnkit convert``. ``blocksize``: bytes as stored per partition (``"64MiB"``, an
    int, or ``None`` for one partition per file); a pzstd partition is a group of whole
    frames of about that many compressed bytes, so it holds several times as much text.
    ``keep_broken``: keep games with errors (with what was read, and an ``errors`` column).
    ``reader_options``: ``fen``, ``strict``, ``threads`` (per partition; default 1, since
    the scheduler runs partitions in parallel), as for ``pgnkit.read_arrow``.

    The dtypes are known before anything is read (``meta`` comes from the Arrow schema);
    divisions are unknown. ``game_id`` and ``offset`` are those of a single read of the
    same files: a first stage of the graph counts each partition's games. A missing or
    unreadable file, a path that matches nothing, or a binary file raises here, naming it,
    before anything is scheduled; a file that breaks while it is read raises from its task.
    Files that cannot be cut (gzip, bzip2, xz, zip, a ``.zst`` not written by pzstd) are
    one partition each, with a ``pgnkit.PgnWarning`` naming them.
    """
    import dask
    import dask.dataframe as dd
    import pandas as pd

    import pgnkit

    if table not in ("games", "moves"):
        raise ValueError(f'table is "games" or "moves", not {table!r}')
    options = _partition.reader_options(dict(reader_options, keep_broken=keep_broken))
    files = _partition.expand_paths(paths)
    partitions, notes = _partition.plan(files, blocksize)
    for note in notes:
        warnings.warn(note, pgnkit.PgnWarning, stacklevel=2)
    meta = _partition.schema(table, options).empty_table().to_pandas(types_mapper=pd.ArrowDtype)
    if not partitions:
        return dd.from_pandas(meta, npartitions=1)
    counts = [dask.delayed(_count, pure=True)(p) for p in partitions]
    bases = dask.delayed(_bases, pure=True, nout=None)(partitions, *counts)
    parts = [
        dask.delayed(_read, pure=True)(p, bases, i, table, options)
        for i, p in enumerate(partitions)
    ]
    return dd.from_delayed(parts, meta=meta, verify_meta=False)
