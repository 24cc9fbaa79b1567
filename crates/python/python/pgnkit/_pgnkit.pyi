"""Type stubs of the native module's partition functions (crates/python/src/partition.rs),
which ``pgnkit._partition`` calls, and of ``_read_next`` (crates/python/src/reading/handle.rs),
behind ``pgnkit.read_game``. The rest of the native module is typed where the package
re-exports it, in ``pgnkit/__init__.pyi``; here it is ``Any``."""

from typing import Any, List, Optional, Sequence, Tuple, Union

#: ``(file index, path, start, end, kind)``: a partition as the native module passes it.
PartitionTuple = Tuple[int, str, int, int, str]
#: ``(games, bytes, lines, lead, lead_lines, origin)`` of a partition.
CountTuple = Tuple[int, int, int, int, int, int]
#: ``(game_id, offset, line)``: where a partition's first game is in a single read.
BasesTuple = Tuple[int, int, int]
#: What the partitions so far leave for the next one: ``(file index or None, bases)``.
StateTuple = Tuple[Optional[int], BasesTuple]
#: The first broken game a read left out: ``(name, line, column, message)``.
FirstTuple = Tuple[str, int, int, str]
#: The broken games a read left out, and the first one.
BrokenTuple = Tuple[int, Optional[FirstTuple]]

def parse_size(size: Union[int, str]) -> int: ...
def plan_partitions(paths: List[str], block: int) -> Tuple[List[PartitionTuple], List[str]]: ...
def count_partition(
    partition: PartitionTuple,
    *,
    threads: int = 1,
    max_window: Union[int, str, None] = None,
    nested_comments: bool = False,
) -> CountTuple: ...
def partition_bases(
    partitions: Sequence[PartitionTuple], counts: Sequence[CountTuple]
) -> List[BasesTuple]: ...
def partition_step(
    state: StateTuple, partition: PartitionTuple, counts: CountTuple
) -> Tuple[BasesTuple, StateTuple]: ...
def read_partition(
    partition: PartitionTuple,
    table: str = "games",
    *,
    bases: Optional[BasesTuple] = None,
    threads: int = 1,
    fen: bool = False,
    keep_broken: bool = False,
    strict: bool = False,
    max_window: Union[int, str, None] = None,
    nested_comments: bool = False,
    fix_tag_strings: bool = False,
) -> Tuple[Any, CountTuple, BrokenTuple]: ...
def place_partition(
    table: Any, bases: BasesTuple, broken: BrokenTuple
) -> Tuple[Any, Tuple[int, Optional[str]]]: ...
def broken_text(broken: BrokenTuple) -> Tuple[int, Optional[str]]: ...
def _read_next(
    handle: Any,
    unread: bytes,
    *,
    strict: bool = False,
    nested_comments: bool = False,
    fix_tag_strings: bool = False,
) -> Tuple[Any, bytes]:
    """The next game of a file object (or None) and the bytes read past it that the handle
    could not take back (``pgnkit.read_game`` passes them as ``unread`` to the next call)."""
    ...

def __getattr__(name: str) -> Any: ...
