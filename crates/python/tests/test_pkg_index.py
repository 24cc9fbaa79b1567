"""`pgnkit.Index`, `pgnkit.tree` and `pgnkit.book` on corpus files: the index's
answers equal the scans without index (`pgnkit.search`, `pgnkit.tree`), also
after `append`; the tree counts what python-chess counts; a Polyglot book reads
back through `probe_book` and python-chess; bad folders, corrupt indexes and
malformed positions raise exceptions that say what is wrong."""

from __future__ import annotations

import shutil
from collections import defaultdict
from pathlib import Path

import chess
import chess.pgn
import chess.polyglot
import pgnkit
import pytest

FILES = [
    "lichess_db_2021-10_999games.pgn",
    "lichess_user_DrDrunkenstein_2019.pgn",
    "lichess_user_pnmadelaine.pgn",
]
POSITIONS = ["", "e4", "e4 c5", "d4 d5 c4", "e4 e5 Nf3 Nc6", "Nf3 d5 d4"]


@pytest.fixture(scope="module")
def files(corpus):
    return [corpus / "lichess-annotated" / name for name in FILES]


@pytest.fixture(scope="module")
def index(files, tmp_path_factory):
    folder = tmp_path_factory.mktemp("index") / "games.pgnidx"
    return pgnkit.Index.build(files, folder, threads=2)


def fen_of(moves: str) -> str:
    board = chess.Board()
    for san in moves.split():
        board.push_san(san)
    return board.fen()


def scan_hits(files, moves):
    found = []
    for path in files:
        found += pgnkit.search(path, f'reaches "{fen_of(moves)}"', offsets=True)
    return [(Path(h.source).name, h.offset, h.game, h.plies) for h in found]


def row_tuple(row):
    return (
        row.uci,
        row.san,
        row.games,
        row.white,
        row.draws,
        row.black,
        row.average_rating,
        row.score,
        row.average_opponent,
        row.performance,
    )


def test_build_open_and_counts(index, files):
    assert isinstance(index, pgnkit.Index)
    assert index.segments == 1
    assert index.games > 2000
    assert index.positions > 100 * index.games // 2
    again = pgnkit.Index.open(index.path)
    assert (again.games, again.positions) == (index.games, index.positions)
    assert "games=" in repr(again)


@pytest.mark.parametrize("moves", ["e4 c5 Nf3 d6", "d4 d5 c4 e6 Nc3", "e4 e5 Nf3 Nc6 Bb5 a6"])
def test_search_equals_the_scan(index, files, moves):
    hits = index.search(moves, offsets=True)
    assert hits, moves
    assert all(isinstance(h, pgnkit.SearchHit) for h in hits)
    assert [(Path(h.source).name, h.offset, h.game, h.plies) for h in hits] == scan_hits(
        files, moves
    )
    # The same position as a FEN and as a board.
    assert len(index.search(fen_of(moves), offsets=True)) == len(hits)
    assert len(index.search(chess.Board(fen_of(moves)), offsets=True)) == len(hits)
    games = index.search(moves)
    assert all(isinstance(g, pgnkit.Game) for g in games)
    scanned = [g for path in files for g in pgnkit.search(path, f'reaches "{fen_of(moves)}"')]
    assert [str(g) for g in games] == [str(g) for g in scanned]
    assert [g.offset for g in games] == [h.offset for h in hits]


WINDOWS = [(0, 0), (0, 1), (0, 50), (3, 7), (11, None), (10**6, 5), (0, 10**6)]


@pytest.mark.parametrize("moves", ["", "e4", "e4 c5 Nf3 d6"])
def test_skip_and_first_are_a_slice_of_the_answer(index, files, moves):
    whole = index.search(moves, offsets=True)
    key = [(h.source, h.offset, h.game, h.plies) for h in whole]
    for skip, first in WINDOWS:
        end = None if first is None else skip + first
        part = index.search(moves, offsets=True, skip=skip, first=first)
        assert [(h.source, h.offset, h.game, h.plies) for h in part] == key[skip:end]
    games = index.search(moves, skip=2, first=3)
    assert [g.offset for g in games] == [h.offset for h in whole[2:5]]
    # The scan without an index gives the same window of the same games.
    path = files[0]
    query = f'reaches "{fen_of(moves)}"'
    scanned = list(pgnkit.search(path, query, offsets=True))
    for skip, first in WINDOWS:
        end = None if first is None else skip + first
        part = list(pgnkit.search(path, query, offsets=True, skip=skip, first=first))
        assert [(h.offset, h.plies) for h in part] == [
            (h.offset, h.plies) for h in scanned[skip:end]
        ]


def python_trees(files, positions):
    """For each position: {uci: (games, white, draws, black)} over the files, by python-chess."""
    keys = {chess.polyglot.zobrist_hash(chess.Board(fen_of(moves))): moves for moves in positions}
    rows = {moves: defaultdict(lambda: [0, 0, 0, 0]) for moves in positions}
    for path in files:
        with open(path, encoding="utf-8") as handle:
            while (game := chess.pgn.read_game(handle)) is not None:
                board = game.board()
                played = set()
                for move in game.mainline_moves():
                    key = chess.polyglot.zobrist_hash(board)
                    if key in keys:
                        played.add((keys[key], move.uci()))
                    board.push(move)
                result = game.headers.get("Result")
                for moves, uci in played:
                    row = rows[moves][uci]
                    row[0] += 1
                    row[1] += result == "1-0"
                    row[2] += result == "1/2-1/2"
                    row[3] += result == "0-1"
    return {moves: {uci: tuple(row) for uci, row in r.items()} for moves, r in rows.items()}


@pytest.mark.parametrize("moves", POSITIONS)
def test_tree_equals_the_scan(index, files, moves):
    rows = index.tree(moves)
    assert rows and all(isinstance(r, pgnkit.TreeRow) for r in rows)
    assert [row_tuple(r) for r in rows] == [row_tuple(r) for r in pgnkit.tree(files, moves)]
    assert [r.games for r in rows] == sorted((r.games for r in rows), reverse=True)
    white_to_move = chess.Board(fen_of(moves)).turn == chess.WHITE
    for r in rows:
        wins = r.white if white_to_move else r.black
        assert r.score == pytest.approx(100 * (wins + r.draws / 2) / r.games)
        assert r.latest is not None and r.latest.result in ("1-0", "0-1", "1/2-1/2", "*")


def test_tree_counts_equal_python_chess(index, files):
    expected = python_trees(files, ["e4 c5", "d4"])
    for moves, rows in expected.items():
        got = {r.uci: (r.games, r.white, r.draws, r.black) for r in index.tree(moves)}
        assert got == rows, moves


def test_tree_filters(index, files):
    everything = index.tree("e4")
    rated = index.tree("e4", min_rating=2000)
    assert sum(r.games for r in rated) < sum(r.games for r in everything)
    assert [row_tuple(r) for r in rated] == [
        row_tuple(r) for r in pgnkit.tree(files, "e4", min_rating=2000)
    ]
    blitz = index.tree("e4", speeds=["blitz"], since="2019", until="2021.12")
    assert [row_tuple(r) for r in blitz] == [
        row_tuple(r)
        for r in pgnkit.tree(files, "e4", speeds=["blitz"], since="2019", until="2021.12")
    ]
    with pytest.raises(ValueError, match="`hyperbullet` is not one of"):
        index.tree("e4", speeds=["hyperbullet"])
    with pytest.raises(ValueError, match="not a date"):
        index.tree("e4", since="March")
    with pytest.raises(ValueError, match="give player="):
        index.tree("e4", color="white")


def test_append_equals_one_build(files, tmp_path):
    whole = pgnkit.Index.build(files, tmp_path / "whole.pgnidx")
    parts = pgnkit.Index.build(files[:2], tmp_path / "parts.pgnidx")
    parts.append(files[2:])
    assert parts.segments == 2
    assert parts.games == whole.games
    for moves in POSITIONS:
        assert [row_tuple(r) for r in parts.tree(moves)] == [
            row_tuple(r) for r in whole.tree(moves)
        ]
    hits = [(h.source, h.offset, h.plies) for h in parts.search("e4 c5 Nf3", offsets=True)]
    assert hits == [(h.source, h.offset, h.plies) for h in whole.search("e4 c5 Nf3", offsets=True)]
    with pytest.raises(pgnkit.PgnIndexError, match="already in the index"):
        parts.append(files[:1])


def test_errors_say_what_is_wrong(index, tmp_path):
    with pytest.raises(FileNotFoundError) as missing:
        pgnkit.Index.open(tmp_path / "nowhere.pgnidx")
    assert missing.value.filename == str(tmp_path / "nowhere.pgnidx")
    copy = tmp_path / "copy.pgnidx"
    shutil.copytree(index.path, copy)
    pieces = copy / "seg-0.pieces"
    pieces.write_bytes(pieces.read_bytes()[:-7])
    with pytest.raises(pgnkit.PgnIndexError, match="seg-0.pieces"):
        pgnkit.Index.open(copy)
    manifest = copy / "MANIFEST"
    _version, rest = manifest.read_text().split("\n", 1)
    manifest.write_text("pgnkit-index 99\n" + rest)
    with pytest.raises(pgnkit.PgnIndexError, match="version 99 is newer"):
        pgnkit.Index.open(copy)
    with pytest.raises(ValueError, match=r"move 3 `Qh9` \(after e4 e5\): not a move"):
        index.tree("e4 e5 Qh9")
    with pytest.raises(ValueError, match="invalid FEN"):
        index.search("8/8/8 w - - 0 1")
    assert issubclass(pgnkit.PgnIndexError, ValueError)


def test_book_reads_back(files, tmp_path):
    out = tmp_path / "book.bin"
    entries = pgnkit.book(files, out, max_ply=16)
    assert out.stat().st_size == 16 * entries
    moves = pgnkit.probe_book(out, "")
    assert moves and all(isinstance(m, pgnkit.BookMove) for m in moves)
    with chess.polyglot.open_reader(out) as reader:
        assert len(reader) == entries
        found = list(reader.find_all(chess.Board(), minimum_weight=0))
    assert [(m.uci, m.weight) for m in moves] == [(e.move.uci(), e.weight) for e in found]
    assert sum(m.percent for m in moves) == pytest.approx(100)
    white = pgnkit.book(files, tmp_path / "white.bin", only="white", min_games=1)
    assert 0 < white
    rated = pgnkit.book(files, tmp_path / "rated.bin", min_games=1, min_rating=2000)
    assert 0 < rated < pgnkit.book(files, tmp_path / "all.bin", min_games=1)
    assert pgnkit.probe_book(tmp_path / "white.bin", "e4") == []
    (tmp_path / "bad.bin").write_bytes(b"x" * 15)
    with pytest.raises(pgnkit.PgnIndexError, match="not a Polyglot book"):
        pgnkit.probe_book(tmp_path / "bad.bin", "")
    with pytest.raises(ValueError, match="only:"):
        pgnkit.book(files, tmp_path / "x.bin", only="red")


def test_a_file_indexed_twice_gives_one_game_with_the_plies_of_both(corpus, tmp_path):
    # The first game's position after 1. d4 Nf6 2. c4 e6 3. Nc3 Bb4 4. e3 O-O 5. Bd3 d5
    # 6. cxd5 exd5 7. Ne2 c6, reached by it alone, at ply 14: found in each copy, given
    # once with both plies, as `pgnkit search --index` writes it, with `first=` or not.
    path = corpus / "lichess-annotated" / "lichess_user_DannyTheDonkey_2019.pgn"
    twice = pgnkit.Index.build([path, path], tmp_path / "twice.pgnidx", threads=2)
    moves = "d4 Nf6 c4 e6 Nc3 Bb4 e3 O-O Bd3 d5 cxd5 exd5 Ne2 c6"
    for window in [{}, {"first": 5}]:
        hits = twice.search(moves, offsets=True, **window)
        assert [(h.offset, h.game, h.plies) for h in hits] == [(0, 1, [14, 14])], window
    assert twice.search(moves, offsets=True, skip=1) == []
