"""The positions table (`pgnkit convert --positions`) in DuckDB: "which games reach this
position" is a join of the positions table on its Polyglot key with the games table, and
its answers (the games, by file and offset, and the plies) equal `pgnkit search 'hash ...'`
on three corpus files; the keys equal python-chess's `chess.polyglot.zobrist_hash` and the
EPDs its `board.epd()`."""

import io
import json
from pathlib import Path

import chess
import chess.pgn
import chess.polyglot
import duckdb
import pytest
from conftest import corpus_dir, run_pgnkit

FILES = [
    "lichess-annotated/lichess_user_DannyTheDonkey_2019.pgn",
    "lichess-annotated/lichess_user_DrDrunkenstein_2019.pgn",
    "lichess-annotated/lichess_db_2025-05_first1MB.pgn",
]


@pytest.fixture(scope="module")
def tables(tmp_path_factory) -> tuple[Path, Path]:
    """The three files converted in one run: (games.parquet, positions.parquet)."""
    out = tmp_path_factory.mktemp("positions")
    games, positions = out / "games.parquet", out / "positions.parquet"
    paths = [str(corpus_dir() / name) for name in FILES]
    run_pgnkit("convert", *paths, "-o", str(games), "--positions", str(positions), "--fen")
    return games, positions


def by_game(rows) -> dict[tuple[str, int], list[int]]:
    """(file name, offset) -> the plies, sorted, from rows of (path, offset, ply)."""
    out: dict[tuple[str, int], list[int]] = {}
    for path, offset, ply in rows:
        out.setdefault((Path(path).name, offset), []).append(ply)
    return {game: sorted(plies) for game, plies in out.items()}


def duckdb_reaching(db, games: Path, positions: Path, key: int) -> dict:
    """The games reaching the position of `key`, and where: the join a user writes."""
    rows = db.execute(
        f"SELECT g.source, g.\"offset\", p.ply FROM '{positions}' p "
        f"JOIN '{games}' g USING (game_id) WHERE p.polyglot_key = {key}::UBIGINT"
    ).fetchall()
    return by_game(rows)


def search_reaching(key: int) -> dict:
    """`pgnkit search` of the same files, by the same key (the main line's plies)."""
    paths = [str(corpus_dir() / name) for name in FILES]
    done = run_pgnkit("search", *paths, f"hash 0x{key:016x}", "--json")
    hits = [json.loads(line) for line in done.stdout.splitlines()]
    return by_game((hit["file"], hit["offset"], ply) for hit in hits for ply in hit["plies"])


def test_which_games_reach_a_position_is_a_join_equal_to_search(tables):
    games, positions = tables
    db = duckdb.connect()
    kept = {
        (Path(path).name, offset)
        for path, offset in db.execute(f"SELECT source, \"offset\" FROM '{games}'").fetchall()
    }
    # Positions of every kind: the start, a few plies in, the most reached position after
    # ten plies (transpositions), a late one, and a position of each file's first game.
    keys = [
        row[0]
        for row in db.execute(
            f"SELECT polyglot_key FROM '{positions}' WHERE ply = 10 "
            "GROUP BY polyglot_key ORDER BY count(*) DESC, polyglot_key LIMIT 2"
        ).fetchall()
    ]
    keys += [
        row[0]
        for row in db.execute(
            f"SELECT p.polyglot_key FROM '{positions}' p JOIN '{games}' g USING (game_id) "
            "WHERE (p.ply IN (0, 4, 7) AND g.game_id = 0) OR (p.ply = 30 AND g.game_id = 3) "
            'OR (p.ply = 6 AND g."offset" = 0) ORDER BY g.game_id, p.ply'
        ).fetchall()
    ]
    assert len(set(keys)) >= 6, keys
    for key in dict.fromkeys(keys):
        found = duckdb_reaching(db, games, positions, key)
        assert found, f"{key:016x}"
        want = search_reaching(key)
        # Broken games are left out of the tables (search reads what comes before the error).
        assert {g: p for g, p in want.items() if g in kept} == found, f"{key:016x}"
        assert len(want) - len(found) <= len(want) // 20 + 1, f"{key:016x}"
    # The start position: every game of these files starts there (no SetUp).
    start = duckdb_reaching(db, games, positions, chess.polyglot.zobrist_hash(chess.Board()))
    assert set(start) == kept


def test_keys_epds_and_moves_equal_python_chess(tables):
    games, positions = tables
    db = duckdb.connect()
    first = FILES[0]
    text = (corpus_dir() / first).read_text(encoding="utf-8")
    # Lichess games are told apart by their Site (the game's URL).
    ids = dict(
        db.execute(
            f"SELECT Site, min(game_id) FROM '{games}' WHERE source LIKE '%{Path(first).name}' "
            "GROUP BY Site HAVING count(*) = 1"
        ).fetchall()
    )
    handle = io.StringIO(text)
    checked = 0
    while checked < 40:
        game = chess.pgn.read_game(handle)
        if game is None:
            break
        site = game.headers.get("Site")
        if game.errors or site not in ids:
            continue
        rows = db.execute(
            f"SELECT ply, polyglot_key, epd, side_to_move, uci, pieces, white_material, "
            f"black_material FROM '{positions}' WHERE game_id = {ids[site]} ORDER BY ply"
        ).fetchall()
        board = game.board()
        moves = list(game.mainline_moves())
        assert len(rows) == len(moves) + 1
        for ply, (at, key, epd, side, uci, pieces, white, black) in enumerate(rows):
            assert at == ply
            assert key == chess.polyglot.zobrist_hash(board), (site, ply)
            assert epd == board.epd()
            assert side == ("w" if board.turn else "b")
            assert uci == (moves[ply].uci() if ply < len(moves) else None)
            assert pieces == len(board.piece_map())
            values = {
                chess.PAWN: 1,
                chess.KNIGHT: 3,
                chess.BISHOP: 3,
                chess.ROOK: 5,
                chess.QUEEN: 9,
            }
            for color, points in ((chess.WHITE, white), (chess.BLACK, black)):
                want = sum(v * len(board.pieces(k, color)) for k, v in values.items())
                assert points == want
            if ply < len(moves):
                board.push(moves[ply])
        checked += 1
    assert checked == 40
