"""For every Lichess file of the corpus, the games table's shared columns equal
python-chess's headers for every game, and the moves table's clock and eval
equal python-chess's node.clock() and node.eval() for every main-line move."""

import datetime

import chess.pgn
import pyarrow.parquet as pq
import pytest

from conftest import lichess_files, run_pgnkit

STRINGS = [
    "Event",
    "Site",
    "Date",
    "Round",
    "White",
    "Black",
    "Result",
    "WhiteTitle",
    "BlackTitle",
    "ECO",
    "Opening",
    "Termination",
    "TimeControl",
]
INTS = ["WhiteElo", "BlackElo", "WhiteRatingDiff", "BlackRatingDiff"]
# python-chess fills in the Seven Tag Roster when a game lacks it.
ROSTER_DEFAULTS = {
    "Event": "?",
    "Site": "?",
    "Date": "????.??.??",
    "Round": "?",
    "White": "?",
    "Black": "?",
    "Result": "*",
}


def as_int(text):
    try:
        return int(text)
    except (TypeError, ValueError):
        return None


def as_date(text):
    try:
        return datetime.datetime.strptime(text, "%Y.%m.%d").date()
    except (TypeError, ValueError):
        return None


def as_time(text):
    try:
        return datetime.datetime.strptime(text, "%H:%M:%S").time()
    except (TypeError, ValueError):
        return None


def python_chess_games(path):
    with open(path, encoding="utf-8-sig", errors="replace") as handle:
        while (game := chess.pgn.read_game(handle)) is not None:
            yield game


@pytest.mark.parametrize("path", lichess_files(), ids=lambda p: p.name)
def test_columns_equal_python_chess(path, tmp_path):
    games_out, moves_out = tmp_path / "g.parquet", tmp_path / "m.parquet"
    run_pgnkit(
        "convert", str(path), "-o", str(games_out), "--moves", str(moves_out), "--keep-broken"
    )
    games = pq.read_table(games_out).to_pylist()
    moves = pq.read_table(moves_out).to_pylist()
    by_game = {}
    for move in moves:
        by_game.setdefault(move["game_id"], []).append(move)
    theirs = list(python_chess_games(path))
    assert len(games) == len(theirs), f"{path.name}: game count"
    compared_moves = 0
    for row, game in zip(games, theirs):
        at = f"{path.name}, game {row['game_id']}"
        headers = game.headers
        for name in STRINGS:
            ours = row[name]
            if ours is None:
                ours = ROSTER_DEFAULTS.get(name)
            assert ours == headers.get(name), f"{at}: {name}"
        for name in INTS:
            assert row[name] == as_int(headers.get(name)), f"{at}: {name}"
        assert row["UTCDate"] == as_date(headers.get("UTCDate")), f"{at}: UTCDate"
        assert row["UTCTime"] == as_time(headers.get("UTCTime")), f"{at}: UTCTime"
        if row["errors"] or game.errors:
            continue  # the two readers may stop at different places in a broken game
        nodes = list(game.mainline())
        ours_moves = by_game.get(row["game_id"], [])
        assert row["ply_count"] == len(nodes), f"{at}: ply count"
        assert len(ours_moves) == len(nodes), f"{at}: moves rows"
        for move, node in zip(ours_moves, nodes):
            where = f"{at}, ply {move['ply']}"
            assert move["san"] == node.san(), where
            clock = node.clock()
            assert move["clock"] == (None if clock is None else round(clock * 1000)), where
            score = node.eval()
            if score is None:
                assert move["eval_cp"] is None and move["eval_mate"] is None, where
            else:
                white = score.white()
                assert move["eval_cp"] == white.score(), where
                assert move["eval_mate"] == white.mate(), where
            compared_moves += 1
    assert compared_moves > 0 or not moves, f"{path.name}: no move compared"
