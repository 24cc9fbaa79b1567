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
included, whatever the block size, and the line numbers of diagnostics are the file's: each
task reads its partition numbered from 0 and returns its counts (games, bytes, lines) with
its table; a chain of small tasks adds the counts up in plan order, and a last task per
partition shifts its rows by what came before. No partition is read twice.
"""

from __future__ import annotations

import warnings
from typing import Any, Dict, List, Sequence, Tuple, Union

# pandas is imported with this module, never first inside a task: a worker's task thread
# and its communication thread importing pandas at the same moment can leave a half
# imported pandas on Python 3.11 ("partially initialized module 'pandas'", seen once in
# CI), and every later task of that worker then fails. A task names its function by this
# module, so a worker imports it (and pandas) when it reads its first task.
import pandas as pd

from pgnkit import _partition

__all__ = ["read_pgn"]

#: The tables a reader gives (``pgnkit.read_arrow``'s).
TABLES = ("games", "moves", "positions")


#: How many partitions past the first one not yet read may be read: each read's table waits
#: in memory until every partition before it has been read (its counts give the bases), so
#: a slow partition would otherwise let all the later ones pile up behind it. Per thread of
#: the workers (see ``_window``).
WINDOW_PER_THREAD = 2


def _read(
    partition: _partition.Partition, table: str, options: Dict[str, Any], *_after: Any
) -> Tuple[Any, Tuple[_partition.Counts, _partition.Broken]]:
    t, counts, broken = _partition.read_local(partition, table, options)
    return t, (counts, broken)


def _step(
    state: _partition.State,
    partition: _partition.Partition,
    read: Tuple[_partition.Counts, _partition.Broken],
) -> Tuple[Tuple[_partition.Bases, _partition.Broken], _partition.State]:
    counts, broken = read
    bases, after = _partition.step(state, partition, counts)
    return (bases, broken), after


def _place(
    t: Any,
    partition: _partition.Partition,
    placed: Tuple[_partition.Bases, _partition.Broken],
) -> Any:
    bases, broken = placed
    return _partition.place(t, bases, broken).to_pandas(types_mapper=pd.ArrowDtype)


def _window() -> int:
    """The partitions that may be read ahead of the first one not yet read: twice the
    threads of the workers of the current ``distributed`` client when there is one, else
    twice the local scheduler's (``num_workers``, or the CPUs), at least 4."""
    import os

    import dask

    threads = 0
    try:
        from distributed import default_client

        threads = sum(default_client().nthreads().values())
    except (ImportError, ValueError):
        threads = dask.config.get("num_workers", None) or os.cpu_count() or 1
    return max(4, WINDOW_PER_THREAD * threads)


def read_pgn(
    paths: Union[str, Any, Sequence[Any]],
    *,
    table: str = "games",
    blocksize: Union[int, str, None] = "64MiB",
    keep_broken: bool = False,
    **reader_options: Any,
) -> Any:
    """Reads PGN files into a ``dask.dataframe.DataFrame`` of the games, moves or positions
    table.

    ``paths``: a path, a glob (``"data/*.pgn.zst"``) or a list of them, through fsspec;
    files are read in that order (a glob's matches sorted). ``table``: ``"games"`` (one row
    per game), ``"moves"`` (one row per main-line move) or ``"positions"`` (one row per
    main-line position, the start included), the tables of ``pgnkit.read_arrow`` and
    ``pgnkit convert``. ``blocksize``: bytes as stored per partition (``"64MiB"``, an
    int, or ``None`` for one partition per file); a pzstd partition is a group of whole
    frames of about that many compressed bytes, so it holds several times as much text.
    ``keep_broken``: keep games with errors (with what was read, and an ``errors`` column).
    ``reader_options``: ``fen``, ``strict``, ``nested_comments``, ``fix_tag_strings``,
    ``threads`` (per partition; default 1, since
    the scheduler runs partitions in parallel), ``max_window`` (a ``.zst`` written with
    ``--long=31`` needs ``"2GiB"``), as for ``pgnkit.read_arrow``.

    The dtypes are known before anything is read (``meta`` comes from the Arrow schema);
    divisions are unknown. ``game_id`` and ``offset`` are those of a single read of the
    same files, and the lines in ``errors`` and warnings the file's: each partition is read
    from 0 and shifted once the partitions before it have been read (a read waits until the
    first partition not yet read is at most ``2 x`` the workers' threads behind, so few
    tables wait in memory; see docs/cluster.md). A missing or
    unreadable file, a path that matches nothing, or a binary file raises here, naming it,
    before anything is scheduled; a file that breaks while it is read raises from its task.
    Files that cannot be cut (gzip, bzip2, xz, zip, a ``.zst`` not written by pzstd) are
    one partition each, with a ``pgnkit.PgnWarning`` naming them.
    """
    import dask
    import dask.dataframe as dd

    import pgnkit

    if table not in TABLES:
        raise ValueError(f'table is "games", "moves" or "positions", not {table!r}')
    options = _partition.reader_options(dict(reader_options, keep_broken=keep_broken))
    files = _partition.expand_paths(paths)
    partitions, notes = _partition.plan(files, blocksize)
    for note in notes:
        warnings.warn(note, pgnkit.PgnWarning, stacklevel=2)
    meta = _partition.schema(table, options).empty_table().to_pandas(types_mapper=pd.ArrowDtype)
    if not partitions:
        return dd.from_pandas(meta, npartitions=1)
    window = _window()
    state: Any = _partition.START
    states: List[Any] = []
    parts = []
    for i, p in enumerate(partitions):
        # The read may start once the partition `window` places before it has been placed.
        after = [states[i - window]] if i >= window else []
        t, read = dask.delayed(_read, pure=True, nout=2)(p, table, options, *after)
        placed, state = dask.delayed(_step, pure=True, nout=2)(state, p, read)
        states.append(state)
        parts.append(dask.delayed(_place, pure=True)(t, p, placed))
    return dd.from_delayed(parts, meta=meta, verify_meta=False)
