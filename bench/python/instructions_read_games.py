"""The Python entry of the instruction-count guard (``cargo xtask bench --instructions``,
xtask/src/bench_instructions.rs; not a test): ``pgnkit.read_games`` over the guard's sample
on one thread, each game's headers and main-line moves touched (every tag, each move's SAN
and clock, as ``bench_pgnkit.py``'s ``games`` task does).

With ``--import-only`` it imports ``pgnkit`` and reads nothing: the guard runs both under
callgrind and subtracts that count (Python's start-up and the package's import, the same in
both runs) from the loop's, so the entry counts the loop alone.

Usage::

    python bench/python/instructions_read_games.py SAMPLE
    python bench/python/instructions_read_games.py --import-only
"""

from __future__ import annotations

import sys

import pgnkit


def main() -> None:
    args = sys.argv[1:]
    if args == ["--import-only"]:
        return
    if len(args) != 1:
        sys.exit(__doc__)
    games = tags = moves = 0
    for game in pgnkit.read_games(args[0]):
        for _name, _value in game.headers.items():
            tags += 1
        for node in game.mainline():
            node.san()
            node.clock()
            moves += 1
        games += 1
    print(f"{games} games, {tags} tags, {moves} moves")


if __name__ == "__main__":
    main()
