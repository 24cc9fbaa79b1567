"""Issue 33: the game-ending predicates of `pgnkit select --where` agree with
python-chess game by game. For each file, python-chess plays every game's
main line and judges its positions (`is_checkmate()`, `is_stalemate()`,
`is_insufficient_material()` on the last one; `is_repetition(3)`,
`is_fifty_moves()`, `is_seventyfive_moves()` on every one, the start
included); pgnkit selects the games with each predicate. The games each
selects must be the same ones; the counts are printed (`pytest -s`).

Both judge the same games, known by their number: `pgnkit select FILE`
writes every game it reads (in export format: a game python-chess splits
differently in the original text, such as one with a blank line after its
first comment, is whole there), a `GameIndex` tag is put before each game's
`[Event`, and both sides read that file. python-chess must read every game
of it without an error; the number of games pgnkit rejects in FILE is
printed.

The bench file (42k games) is judged in pieces, one process a CPU (51 s on
CI's two cores), and only when PGNKIT_EVENTS_BENCH=1, which `.ci/run` sets
(the bench file is PGNKIT_BENCH_FILE, else target/bench.pgn).
"""

import io
import os
import subprocess
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import chess
import chess.pgn
import pytest
from conftest import ROOT, corpus_dir, run_pgnkit

PREDICATES = [
    "checkmate",
    "stalemate",
    "insufficient_material",
    "threefold",
    "fifty_moves",
    "seventy_five_moves",
]

# The corpus files compared in every run: the rule tests of pgn-extract and
# pychess (mates, stalemates, repetitions, the fifty- and seventy-five-move
# rules, insufficient material), a month of Lichess games, Chess960 games.
FILES = [
    "rules/pgn-extract_test-checkmate.pgn",
    "rules/pgn-extract_test-stalemate.pgn",
    "rules/pgn-extract_test-repetition.pgn",
    "rules/pgn-extract_test-fifty.pgn",
    "rules/pgn-extract_test-seventyfive.pgn",
    "rules/pychess_50.pgn",
    "rules/pychess_draw.pgn",
    "rules/pychess_insufficient_material.pgn",
    "rules/pychess_mate.pgn",
    "lichess-annotated/lichess_db_2021-10_999games.pgn",
    "chess960/pychess_chess960rwch.pgn",
]


def indexed_games(path: Path, tmp_path: Path) -> tuple[Path, int]:
    """Every game pgnkit reads in `path`, written by pgnkit with a
    `GameIndex` tag first; the number of games."""
    written = tmp_path / "all.pgn"
    done = run_pgnkit("select", str(path), "-o", str(written))
    print(f"\n{path.name}: {done.stderr.strip().splitlines()[-1]}")
    lines = written.read_text(encoding="utf-8").split("\n")
    out, index, blank = [], 0, True
    for line in lines:
        if blank and line.startswith('[Event "'):
            out.append(f'[GameIndex "{index}"]')
            index += 1
        out.append(line)
        blank = line == ""
    indexed = tmp_path / "indexed.pgn"
    indexed.write_text("\n".join(out), encoding="utf-8")
    return indexed, index


def judge(board: chess.Board, seen: set[str]) -> None:
    """Adds to `seen` the predicates of every position that `board` holds now."""
    if "threefold" not in seen and board.is_repetition(3):
        seen.add("threefold")
    if "fifty_moves" not in seen and board.is_fifty_moves():
        seen.add("fifty_moves")
    if "seventy_five_moves" not in seen and board.is_seventyfive_moves():
        seen.add("seventy_five_moves")


def facts_of_chunk(text: str) -> tuple[dict[str, set[int]], list[int]]:
    """For each predicate, the games (by GameIndex) of `text` python-chess
    says it holds for; the GameIndex of every game read, in order."""
    holds: dict[str, set[int]] = {p: set() for p in PREDICATES}
    indices = []
    handle = io.StringIO(text)
    while (game := chess.pgn.read_game(handle)) is not None:
        index = int(game.headers["GameIndex"])
        assert not game.errors, f"game {index}: {game.errors}"
        indices.append(index)
        board = game.board()
        seen: set[str] = set()
        judge(board, seen)
        for move in game.mainline_moves():
            board.push(move)
            judge(board, seen)
        if board.is_checkmate():
            seen.add("checkmate")
        if board.is_stalemate():
            seen.add("stalemate")
        if board.is_insufficient_material():
            seen.add("insufficient_material")
        for p in seen:
            holds[p].add(index)
    return holds, indices


def chunks(text: str, count: int) -> list[str]:
    """`text` cut into about `count` pieces of whole games, each cut before a
    `[GameIndex` line."""
    size = len(text) // count + 1
    pieces, start = [], 0
    while start < len(text):
        cut = text.find('\n\n[GameIndex "', start + size)
        end = len(text) if cut < 0 else cut + 2
        pieces.append(text[start:end])
        start = end
    return pieces


def python_chess_facts(path: Path) -> tuple[dict[str, set[int]], int]:
    """For each predicate, the games (by GameIndex) python-chess says it
    holds for; the number of games read. Large files are judged in pieces
    of whole games, one process a CPU."""
    text = path.read_text(encoding="utf-8")
    workers = os.cpu_count() or 1
    pieces = chunks(text, workers * 4) if len(text) > 4_000_000 else [text]
    if len(pieces) > 1:
        with ProcessPoolExecutor(workers) as pool:
            results = list(pool.map(facts_of_chunk, pieces))
    else:
        results = [facts_of_chunk(text)]
    holds: dict[str, set[int]] = {p: set() for p in PREDICATES}
    read = 0
    for chunk_holds, indices in results:
        for index in indices:
            assert index == read, f"game {read}: python-chess splits pgnkit's output otherwise"
            read += 1
        for p, games in chunk_holds.items():
            holds[p] |= games
    return holds, read


def pgnkit_selected(path: Path, query: str, tmp_path: Path) -> set[int]:
    """The games (by GameIndex) `pgnkit select --where QUERY` keeps."""
    out = tmp_path / "selected.pgn"
    run_pgnkit("select", str(path), "-o", str(out), "--where", query)
    games = set()
    with open(out, encoding="utf-8") as handle:
        while (headers := chess.pgn.read_headers(handle)) is not None:
            games.add(int(headers["GameIndex"]))
    return games


def compare(path: Path, tmp_path: Path) -> dict[str, int]:
    indexed, count = indexed_games(path, tmp_path)
    holds, read = python_chess_facts(indexed)
    assert read == count, f"{path.name}: pgnkit wrote {count} games, python-chess read {read}"
    counts = {}
    for p in PREDICATES:
        ours = pgnkit_selected(indexed, p, tmp_path)
        theirs = holds[p]
        print(f"  {p:22} python-chess {len(theirs):6}  pgnkit {len(ours):6}")
        assert ours == theirs, (
            f"{path.name} {p}: games only pgnkit selects {sorted(ours - theirs)[:10]}, "
            f"only python-chess {sorted(theirs - ours)[:10]}"
        )
        counts[p] = len(ours)
    return counts


@pytest.mark.parametrize("name", FILES)
def test_game_endings_equal_python_chess(name, tmp_path):
    compare(corpus_dir() / name, tmp_path)


def test_the_rule_files_have_every_ending(tmp_path):
    """The corpus files above hold every ending, so no comparison is of empty sets."""
    totals = Counter()
    for name in FILES:
        folder = tmp_path / Path(name).stem
        folder.mkdir()
        indexed, _ = indexed_games(corpus_dir() / name, folder)
        for p, games in python_chess_facts(indexed)[0].items():
            totals[p] += len(games)
    print(f"\npython-chess over the corpus files: {dict(totals)}")
    assert all(totals[p] > 0 for p in PREDICATES), totals


def bench_file() -> Path:
    path = Path(os.environ.get("PGNKIT_BENCH_FILE", ROOT / "target" / "bench.pgn"))
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(["bash", str(corpus_dir() / "bench-file.sh"), str(path)], check=True)
    return path


@pytest.mark.skipif(
    os.environ.get("PGNKIT_EVENTS_BENCH") != "1",
    reason="the bench file is compared with PGNKIT_EVENTS_BENCH=1 (.ci/run sets it)",
)
def test_game_endings_on_the_bench_file(tmp_path):
    compare(bench_file(), tmp_path)
