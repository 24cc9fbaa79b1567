"""The peer of `pgnkit convert -o games.parquet`: the same games table built
with python-chess and pyarrow (versions pinned in tests/python/requirements.txt,
the venv `cargo xtask pytest` makes under target/python-venv).

    python bench/peers/python_chess_games.py FILE OUT.parquet [--max-bytes N]

--max-bytes reads only the games that start in the first N bytes (a sample,
for files that would take too long); the last line says what was read and
how long it took, so the full file's time can be extrapolated.
"""

import argparse
import datetime
import io
import logging
import sys
import time

import chess
import chess.pgn
import pyarrow as pa
import pyarrow.parquet as pq

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
TYPED = set(STRINGS + INTS + ["UTCDate", "UTCTime", "Variant"])

SCHEMA = pa.schema(
    [("game_id", pa.uint64()), ("source", pa.string()), ("offset", pa.uint64())]
    + [(name, pa.string()) for name in STRINGS]
    + [(name, pa.int16()) for name in INTS]
    + [
        ("UTCDate", pa.date32()),
        ("UTCTime", pa.time32("s")),
        ("date", pa.date32()),
        ("time_base", pa.int32()),
        ("time_increment", pa.int32()),
        ("variant", pa.string()),
        ("tags", pa.map_(pa.string(), pa.string())),
        ("movetext", pa.string()),
        ("ply_count", pa.uint16()),
        ("final_fen", pa.string()),
        ("outcome", pa.string()),
    ]
)


def as_int(text):
    try:
        value = int(text)
        return value if -32768 <= value < 32768 else None
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


def time_control(text):
    base, plus, inc = (text or "").partition("+")
    if plus and base.isdigit() and inc.isdigit():
        return int(base), int(inc)
    return None, None


def outcome(board):
    if board.is_checkmate():
        return "checkmate"
    if board.is_stalemate():
        return "stalemate"
    if board.is_insufficient_material():
        return "insufficient material"
    return None


def row(game, game_id, source, offset):
    headers = game.headers
    out = {"game_id": game_id, "source": source, "offset": offset}
    for name in STRINGS:
        out[name] = headers.get(name)
    for name in INTS:
        out[name] = as_int(headers.get(name))
    out["UTCDate"] = as_date(headers.get("UTCDate"))
    out["UTCTime"] = as_time(headers.get("UTCTime"))
    out["date"] = as_date(headers.get("Date"))
    out["time_base"], out["time_increment"] = time_control(headers.get("TimeControl"))
    out["variant"] = headers.get("Variant")
    out["tags"] = [(k, v) for k, v in headers.items() if k not in TYPED]
    exporter = chess.pgn.StringExporter(headers=False)
    out["movetext"] = game.accept(exporter)
    board = game.end().board()
    out["ply_count"] = board.ply() - game.board().ply()
    out["final_fen"] = board.fen()
    out["outcome"] = outcome(board)
    return out


def main():
    # python-chess logs each move it cannot read; the count is what matters here.
    logging.getLogger("chess.pgn").setLevel(logging.CRITICAL)
    parser = argparse.ArgumentParser()
    parser.add_argument("file")
    parser.add_argument("out")
    parser.add_argument("--max-bytes", type=int, default=None)
    args = parser.parse_args()
    started = time.perf_counter()
    cpu_started = time.process_time()
    games, rows, read_bytes = 0, [], 0
    with (
        open(args.file, "rb") as raw,
        pq.ParquetWriter(args.out, SCHEMA, compression="zstd") as out,
    ):
        handle = io.TextIOWrapper(raw, encoding="utf-8", errors="replace", newline="")
        while True:
            offset = raw.tell()
            if args.max_bytes is not None and offset >= args.max_bytes:
                break
            game = chess.pgn.read_game(handle)
            if game is None:
                break
            rows.append(row(game, games, args.file, offset))
            games += 1
            if len(rows) == 8192:
                out.write_table(pa.Table.from_pylist(rows, SCHEMA))
                rows.clear()
        if rows:
            out.write_table(pa.Table.from_pylist(rows, SCHEMA))
        read_bytes = raw.tell()
    seconds = time.perf_counter() - started
    cpu = time.process_time() - cpu_started
    print(
        f"python-chess+pyarrow: {games} games, {read_bytes} bytes in {seconds:.2f} s "
        f"({read_bytes / seconds / 1e6:.3f} MB/s), cpu {cpu:.2f} s"
    )


if __name__ == "__main__":
    sys.exit(main())
