"""`pgnkit book` against python-chess: the book made from corpus files holds
exactly the entries a python-chess aggregation of the same games expects
(Polyglot make-book's rules: 2 points for a win of the side that moved, 1 for
a draw or no result, 0 for a loss; moves played in fewer than --min-games
games or that never scored left out), as `chess.polyglot.open_reader` reads
them back: keys, moves (castling and promotions included) and weights; and
`pgnkit book --probe` prints what the reader finds."""

import functools
import json
import subprocess
from collections import defaultdict

import chess
import chess.pgn
import chess.polyglot
import pytest

from conftest import corpus_dir, pgnkit_bin, run_pgnkit

BOOK_FILES = [
    "lichess_db_2021-10_999games.pgn",
    "lichess_user_DrDrunkenstein_2019.pgn",
    "lichess_user_pnmadelaine.pgn",
]


def lichess(name):
    return corpus_dir() / "lichess-annotated" / name


@functools.cache
def python_games(path):
    """Each game's result, start position and main-line moves (read once per file)."""
    games = []
    with open(path, encoding="utf-8") as handle:
        while (game := chess.pgn.read_game(handle)) is not None:
            games.append((game.headers.get("Result"), game.board(), list(game.mainline_moves())))
    return games


def python_book(paths, max_ply, min_games, side=None):
    """The book python-chess expects: {key: {uci: weight}} and a board for
    each key (to probe with)."""
    counts = defaultdict(lambda: [0, 0])
    boards = {}
    for path in paths:
        for result, start, moves in python_games(path):
            board = start.copy()
            played = {}
            for ply, move in enumerate(moves):
                if ply >= max_ply:
                    break
                if side is None or board.turn == side:
                    key = chess.polyglot.zobrist_hash(board)
                    boards.setdefault(key, board.copy(stack=False))
                    if result == "1-0":
                        points = 2 if board.turn == chess.WHITE else 0
                    elif result == "0-1":
                        points = 2 if board.turn == chess.BLACK else 0
                    else:
                        points = 1
                    played[(key, move.uci())] = points
                board.push(move)
            for entry, points in played.items():
                counts[entry][0] += 1
                counts[entry][1] += points
    book = defaultdict(dict)
    for (key, uci), (games, points) in counts.items():
        if games >= min_games and points > 0:
            book[key][uci] = points
    return dict(book), boards


def make_book(tmp_path, paths, *options):
    out = tmp_path / "book.bin"
    done = run_pgnkit("book", *map(str, paths), "-o", str(out), *options)
    assert done.returncode == 0, done.stderr
    assert "entries from" in done.stderr
    return out


@pytest.mark.parametrize(
    "options, max_ply, min_games, side, files",
    [
        ([], 20, 3, None, BOOK_FILES),
        (["--only-black", "--min-games", "2"], 20, 2, chess.BLACK, BOOK_FILES),
        (["--only-white", "--max-ply", "12"], 12, 3, chess.WHITE, BOOK_FILES),
        # Whole games: promotions, castling on both sides, every kind of move.
        (["--max-ply", "1000", "--min-games", "1"], 1000, 1, None, BOOK_FILES[:1]),
    ],
)
def test_book_entries_equal_python_chess(tmp_path, options, max_ply, min_games, side, files):
    paths = [lichess(name) for name in files]
    expected, boards = python_book(paths, max_ply, min_games, side)
    book = make_book(tmp_path, paths, *options)
    assert book.stat().st_size == 16 * sum(len(moves) for moves in expected.values())
    with chess.polyglot.open_reader(book) as reader:
        keys = [entry.key for entry in reader]
        assert keys == sorted(keys), "entries sorted by key"
        assert set(keys) == set(expected)
        for key, moves in expected.items():
            found = list(reader.find_all(boards[key], minimum_weight=0))
            assert {e.move.uci(): e.weight for e in found} == moves, boards[key].fen()
            assert len(found) == len(moves), "no entry is illegal in its position"
            assert all(e.learn == 0 and e.key == key for e in found)
            # Polyglot's order: the highest weight first, then by move.
            order = [(-e.weight, e.raw_move) for e in found]
            assert order == sorted(order)
    if max_ply == 1000:
        moves = [uci for moves in expected.values() for uci in moves]
        assert any(len(uci) == 5 for uci in moves), "a promotion was checked"
        assert {"e1g1", "e1c1", "e8g8", "e8c8"} <= set(moves), "castling was checked"


def test_probe_prints_what_python_chess_reads(tmp_path):
    paths = [lichess(name) for name in BOOK_FILES]
    book = make_book(tmp_path, paths)
    for moves in ["", "e4", "d4 d5", "e4 e5 Nf3 Nc6 Bc4"]:
        board = chess.Board()
        for san in moves.split():
            board.push_san(san)
        probe = json.loads(run_pgnkit("book", "--probe", moves, str(book), "--json").stdout)
        assert probe["key"] == f"{chess.polyglot.zobrist_hash(board):016x}"
        assert probe["fen"] == board.fen()
        with chess.polyglot.open_reader(book) as reader:
            found = list(reader.find_all(board, minimum_weight=0))
        assert [(m["uci"], m["weight"]) for m in probe["moves"]] == [
            (e.move.uci(), e.weight) for e in found
        ]
        assert [m["san"] for m in probe["moves"]] == [board.san(e.move) for e in found]
        if found:
            total = sum(e.weight for e in found)
            assert probe["moves"][0]["percent"] == pytest.approx(100 * found[0].weight / total)
    table = run_pgnkit("book", "--probe", "e4 c5", str(book)).stdout
    assert table.startswith(
        chess.Board("rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2").fen()
    )
    assert "Nf3" in table and "weight" in table


def test_a_file_that_is_not_a_book_is_refused(tmp_path):
    bad = tmp_path / "bad.bin"
    bad.write_bytes(b"\0" * 20)
    done = subprocess.run(
        [str(pgnkit_bin()), "book", "--probe", "e4", str(bad)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert f"{bad}: not a Polyglot book: 20 bytes" in done.stderr
