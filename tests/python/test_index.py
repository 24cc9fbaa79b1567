"""The position index against python-chess: every Polyglot key pgnkit computes
(`pgnkit fen --every-ply --polyglot`) equals chess.polyglot.zobrist_hash for
every position of 3,000 corpus games, and `pgnkit tree` (from an index and
from the files) counts what a python-chess aggregation counts."""

import json
import math
from collections import defaultdict

import chess
import chess.pgn
import chess.polyglot
import pytest

from conftest import corpus_dir, run_pgnkit

KEY_FILES = [
    "lichess_db_2021-10_999games.pgn",
    "lichess_user_DrDrunkenstein_2019.pgn",
    "lichess_user_pnmadelaine.pgn",
]
TREE_FILES = ["lichess_db_2021-10_999games.pgn", "lichess_db_2025-05_first1MB.pgn"]
POSITIONS = ["", "e4", "e4 c5", "d4", "d4 d5 c4", "e4 e5 Nf3 Nc6", "Nf3 d5 d4"]


def lichess(name):
    return corpus_dir() / "lichess-annotated" / name


def python_games(path):
    with open(path, encoding="utf-8") as handle:
        while (game := chess.pgn.read_game(handle)) is not None:
            yield game


def test_polyglot_keys_equal_python_chess_for_3000_games():
    checked_games = 0
    checked_positions = 0
    for name in KEY_FILES:
        path = lichess(name)
        out = run_pgnkit("fen", "--every-ply", "--polyglot", str(path)).stdout
        blocks = [block.split("\n") for block in out.strip("\n").split("\n\n")]
        games = list(python_games(path))
        assert len(blocks) == len(games), name
        for block, game in zip(blocks, games):
            board = game.board()
            expected = [chess.polyglot.zobrist_hash(board)]
            for move in game.mainline_moves():
                board.push(move)
                expected.append(chess.polyglot.zobrist_hash(board))
            assert [int(key, 16) for key in block] == expected, game.headers
            checked_positions += len(expected)
            checked_games += 1
            if checked_games == 3000:
                break
        if checked_games == 3000:
            break
    assert checked_games == 3000
    assert checked_positions > 100_000


def python_tree(target):
    """Per move (UCI): games, white, draws, black, rating sum and count, over
    TREE_FILES, each game counted once per move played from a position with
    the target's key."""
    key = chess.polyglot.zobrist_hash(target)
    rows = defaultdict(lambda: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0])
    for name in TREE_FILES:
        for game in python_games(lichess(name)):
            board = game.board()
            played = set()
            for move in game.mainline_moves():
                if chess.polyglot.zobrist_hash(board) == key:
                    played.add(move.uci())
                board.push(move)
            result = game.headers.get("Result")
            elos = []
            sides = [0, 0, 0, 0]  # White's sum and count, Black's sum and count
            for side, tag in enumerate(("WhiteElo", "BlackElo")):
                try:
                    elo = int(game.headers.get(tag, ""))
                except ValueError:
                    continue
                if 0 < elo < 65536:
                    elos.append(elo)
                    sides[2 * side] += elo
                    sides[2 * side + 1] += 1
            for uci in played:
                row = rows[uci]
                row[0] += 1
                row[1] += result == "1-0"
                row[2] += result == "1/2-1/2"
                row[3] += result == "0-1"
                row[4] += sum(elos)
                row[5] += len(elos)
                for i in range(4):
                    row[6 + i] += sides[i]
    return dict(rows)


@pytest.fixture(scope="module")
def index(tmp_path_factory):
    path = tmp_path_factory.mktemp("index") / "games.pgnidx"
    run_pgnkit("index", *(str(lichess(name)) for name in TREE_FILES), "-o", str(path))
    return path


@pytest.mark.parametrize("moves", POSITIONS)
def test_tree_counts_equal_python_chess(index, moves):
    board = chess.Board()
    for san in moves.split():
        board.push_san(san)
    expected = python_tree(board)
    assert expected, moves
    from_index = json.loads(run_pgnkit("tree", moves, "--index", str(index), "--json").stdout)
    from_files = json.loads(
        run_pgnkit("tree", moves, *(str(lichess(name)) for name in TREE_FILES), "--json").stdout
    )
    assert from_index == from_files
    assert from_index["key"] == f"{chess.polyglot.zobrist_hash(board):016x}"
    got = {
        m["uci"]: [
            m["stats"][field]
            for field in (
                "games",
                "white",
                "draws",
                "black",
                "rating_sum",
                "rating_count",
                "white_rating_sum",
                "white_rating_count",
                "black_rating_sum",
                "black_rating_count",
            )
        ]
        for m in from_index["moves"]
    }
    assert got == expected
    # The score, opponents' average and performance of the side that moved.
    white = board.turn == chess.WHITE
    for m in from_index["moves"]:
        games, w, d, b = expected[m["uci"]][:4]
        wins = w if white else b
        assert m["score"] == pytest.approx(100 * (wins + d / 2) / games)
        opp_sum, opp_count = expected[m["uci"]][8:10] if white else expected[m["uci"]][6:8]
        if opp_count == 0:
            assert m["average_opponent"] is None and m["performance"] is None
            continue
        assert m["average_opponent"] == opp_sum // opp_count
        p = (wins + d / 2) / games
        dp = (
            -800
            if p <= 0
            else 800
            if p >= 1
            else max(-800, min(800, 400 * math.log10(p / (1 - p))))
        )
        assert m["performance"] == opp_sum // opp_count + round(dp)
    sans = {m["uci"]: m["san"] for m in from_index["moves"]}
    for uci, san in sans.items():
        assert board.san(chess.Move.from_uci(uci)) == san


def run_failing(*args):
    """Runs the binary expecting exit status 2; returns its stderr."""
    import subprocess

    from conftest import pgnkit_bin

    done = subprocess.run([str(pgnkit_bin()), *args], capture_output=True, text=True, check=False)
    assert done.returncode == 2, done.stderr
    return done.stderr


def test_errors_name_the_move_or_the_file(index, tmp_path):
    stderr = run_failing("tree", "e4 e5 Qh9", "--index", str(index))
    assert "move 3 `Qh9` (after e4 e5): not a move" in stderr
    stderr = run_failing("tree", "e4 e5 Ke3", "--index", str(index))
    assert "move 3 `Ke3` (after e4 e5): illegal move" in stderr
    copy = tmp_path / "copy.pgnidx"
    copy.mkdir()
    for part in index.iterdir():
        (copy / part.name).write_bytes(part.read_bytes())
    pieces = copy / "seg-0.pieces"
    pieces.write_bytes(pieces.read_bytes()[:-7])
    stderr = run_failing("tree", "e4", "--index", str(copy))
    assert f"{pieces}: corrupt index: truncated" in stderr
    manifest = copy / "MANIFEST"
    version, rest = manifest.read_text().split("\n", 1)
    current = version.removeprefix("pgnkit-index ")
    manifest.write_text("pgnkit-index 99\n" + rest)
    stderr = run_failing("tree", "e4", "--index", str(copy))
    assert f"index format version 99 is newer than this pgnkit reads (version {current})" in stderr
