"""DuckDB runs the queries a user would on `pgnkit convert`'s Parquet output;
the answers must equal what pgnkit's own JSON output says of the same games."""

import json
import re
from collections import Counter

import duckdb

from conftest import lichess_files, run_pgnkit

CLOCK = re.compile(r"\[%clk\s")


def rust_side() -> dict:
    """Games count, average WhiteElo, moves with a clock and the most common ECO,
    computed from `pgnkit json` (the tree reader), not from the Parquet files."""
    done = run_pgnkit("json", *map(str, lichess_files()))
    games = [json.loads(line) for line in done.stdout.splitlines()]
    elos, ecos, clocks = [], Counter(), 0
    for game in games:
        tags = dict(reversed(game["tags"]))  # a duplicate keeps its first value
        try:
            elos.append(int(tags["WhiteElo"]))
        except (KeyError, ValueError):
            pass
        if "ECO" in tags:
            ecos[tags["ECO"]] += 1
        for move in game["moves"]:
            texts = [c if isinstance(c, str) else c["line"] for c in move.get("comments", [])]
            clocks += any(CLOCK.search(text) for text in texts)
    top = min(ecos.items(), key=lambda item: (-item[1], item[0]))[0]
    return {
        "games": len(games),
        "avg_elo": sum(elos) / len(elos),
        "clocks": clocks,
        "eco": top,
    }


def test_duckdb_queries_equal_the_rust_side(converted):
    games, moves = converted
    expected = rust_side()
    assert expected["games"] > 1000 and expected["clocks"] > 10000
    db = duckdb.connect()
    count = db.execute(f"SELECT count(*) FROM '{games}'").fetchone()[0]
    avg_elo = db.execute(f"SELECT avg(WhiteElo) FROM '{games}'").fetchone()[0]
    clocks = db.execute(f"SELECT count(*) FROM '{moves}' WHERE clock IS NOT NULL").fetchone()[0]
    eco = db.execute(
        f"SELECT ECO FROM '{games}' WHERE ECO IS NOT NULL "
        "GROUP BY ECO ORDER BY count(*) DESC, ECO LIMIT 1"
    ).fetchone()[0]
    assert count == expected["games"]
    assert abs(avg_elo - expected["avg_elo"]) < 1e-9
    assert clocks == expected["clocks"]
    assert eco == expected["eco"]


def test_duckdb_joins_moves_to_games(converted):
    games, moves = converted
    db = duckdb.connect()
    orphans = db.execute(
        f"SELECT count(*) FROM '{moves}' m ANTI JOIN '{games}' g ON m.game_id = g.game_id"
    ).fetchone()[0]
    assert orphans == 0
    mismatched = db.execute(
        f"SELECT count(*) FROM '{games}' g JOIN "
        f"(SELECT game_id, count(*) AS n FROM '{moves}' GROUP BY game_id) m USING (game_id) "
        "WHERE m.n <> g.ply_count"
    ).fetchone()[0]
    assert mismatched == 0


def test_duckdb_sees_every_column_under_its_own_name(tmp_path):
    """DuckDB reads names without case and renames a second `date` to `date_1`: no table,
    with any of its optional columns, has two names equal ignoring case."""
    games, moves = tmp_path / "games.parquet", tmp_path / "moves.parquet"
    files = [str(p) for p in lichess_files()]
    run_pgnkit("convert", *files, "-o", str(games), "--moves", str(moves), "--fen", "--keep-broken")
    db = duckdb.connect()
    for path in (games, moves):
        names = [row[0] for row in db.execute(f"DESCRIBE SELECT * FROM '{path}'").fetchall()]
        assert not [n for n in names if n.endswith("_1")], names
        assert len({n.lower() for n in names}) == len(names), names
    both = db.execute(
        f"SELECT count(*) FROM '{games}' WHERE Date LIKE '20%' AND year(game_date) >= 2000"
    ).fetchone()[0]
    assert both > 1000
    # The errors are structs: a reader takes their fields by name.
    broken = tmp_path / "broken.pgn"
    broken.write_text('[Event "a"]\n\n1. e4 e5 *\n\n[Event "b"]\n\n1. e4 e5 2. Ke3 *\n')
    kept = tmp_path / "kept.parquet"
    run_pgnkit("convert", str(broken), "-o", str(kept), "--keep-broken")
    rows = db.execute(
        f"SELECT game_id, e.line, e.column, e.severity FROM "
        f"(SELECT game_id, unnest(errors) AS e FROM '{kept}')"
    ).fetchall()
    assert rows == [(1, 7, 13, "error")]
