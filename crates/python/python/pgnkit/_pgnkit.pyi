"""Type stubs of the native module's partition functions (crates/python/src/partition.rs),
which ``pgnkit._partition`` calls. The rest of the native module is typed where the package
re-exports it, in ``pgnkit/__init__.pyi``; here it is ``Any``."""

from typing import Any, List, Sequence, Tuple

#: ``(file index, path, start, end, kind)``: a partition as the native module passes it.
PartitionTuple = Tuple[int, str, int, int, str]
#: ``(games, bytes, lead, origin)`` of a partition.
CountTuple = Tuple[int, int, int, int]

def plan_partitions(paths: List[str], block: int) -> Tuple[List[PartitionTuple], List[str]]: ...
def count_partition(partition: PartitionTuple, *, threads: int = 1) -> CountTuple: ...
def partition_bases(
    partitions: Sequence[PartitionTuple], counts: Sequence[CountTuple]
) -> List[Tuple[int, int]]: ...
def __getattr__(name: str) -> Any: ...
