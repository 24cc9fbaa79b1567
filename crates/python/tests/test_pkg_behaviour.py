"""Behaviour modelled on the facts python-chess's own PGN tests check
(test.py: PgnTestCase), written for pgnkit: the same results, and where
python-chess is installed, compared with it directly."""

from __future__ import annotations

import io

import chess
import chess.pgn
import pytest

import pgnkit

FOOLS_MATE = "1. f3 e5 2. g4 Qh4# 0-1"


def test_empty_game_exports_the_roster_and_a_star() -> None:
    game = pgnkit.Game()
    assert list(game.headers) == ["Event", "Site", "Date", "Round", "White", "Black", "Result"]
    assert str(game) == str(chess.pgn.Game())


def test_read_game_reads_one_game_at_a_time_from_a_text_handle() -> None:
    text = '[Event "A"]\n\n1. e4 *\n\n[Event "B"]\n\n1. d4 d5 *\n\n'
    handle = io.StringIO(text)
    first, second = pgnkit.read_game(handle), pgnkit.read_game(handle)
    assert pgnkit.read_game(handle) is None
    assert (first.headers["Event"], second.headers["Event"]) == ("A", "B")
    assert [m.uci() for m in second.mainline_moves()] == ["d2d4", "d7d5"]


def test_variations_main_line_and_promotion() -> None:
    game = pgnkit.Game()
    e4 = game.add_variation(pgnkit.Move.from_uci("e2e4"))
    d4 = game.add_variation("d4")
    assert game.variations == [e4, d4] and game.next() == e4
    c4 = game.add_main_variation("c4")
    assert game.variations[0] == c4 and c4.is_main_variation()
    d4.promote_to_main()
    assert game.variations[0] == d4
    assert d4.parent == game and d4.game() == game
    reply = d4.add_variation("Nf6", comment="Indian", nags=[1])
    assert reply.san() == "Nf6" and reply.comment == "Indian" and reply.nags == {1}
    assert str(game).endswith("1. d4 (1. c4) (1. e4) 1... Nf6 $1 { Indian } *")


def test_clock_emt_and_eval_as_python_chess() -> None:
    text = (
        "1. e4 { [%eval 0.17] [%clk 0:03:00.4] } e5 { [%eval #-3] [%emt 0:00:05] } "
        "2. Qh5 { [%eval #0] } *\n"
    )
    ours = pgnkit.read_game(io.StringIO(text)).mainline()
    theirs = list(chess.pgn.read_game(io.StringIO(text)).mainline())
    for x, y in zip(ours, theirs):
        assert (x.clock(), x.emt()) == (y.clock(), y.emt())
        assert repr(x.eval()) == repr(y.eval())
        assert x.eval().white().score(mate_score=1000) == y.eval().white().score(mate_score=1000)
    assert ours[0].clock() == 180.4
    assert ours[1].eval().white().mate() == -3 and ours[1].eval().is_mate()


def test_set_clock_and_eval_write_commands() -> None:
    game = pgnkit.read_game(io.StringIO("1. e4 { good } *\n"))
    node = game.next()
    node.set_clock(65.5)
    node.set_eval(pgnkit.PovScore(pgnkit.Cp(-30), pgnkit.BLACK))
    assert node.clock() == 65.5
    assert node.eval().white() == pgnkit.Cp(30)
    reread = chess.pgn.read_game(io.StringIO(str(game))).next()
    assert reread.clock() == 65.5 and reread.eval().white().score() == 30


def test_board_rules() -> None:
    board = pgnkit.Board()
    for san in FOOLS_MATE.replace("1. ", "").replace("2. ", "").split()[:-1]:
        board.push_san(san)
    assert board.is_check() and board.is_checkmate() and not board.is_stalemate()
    assert board.outcome().result() == "0-1" and board.outcome().winner is False
    assert (
        board.fen()
        == chess.Board("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3").fen()
    )
    assert len(board.legal_moves) == 0
    assert board.pop() == pgnkit.Move.from_uci("d8h4")
    assert board.san(pgnkit.Move.from_uci("d8h4")) == "Qh4#"
    stalemate = pgnkit.Board("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    assert stalemate.is_stalemate() and stalemate.outcome().result() == "1/2-1/2"
    assert pgnkit.Board()._repr_svg_().startswith("<svg")
    with pytest.raises(ValueError):
        pgnkit.Board().push_san("Ke2")


def test_game_from_board_and_python_chess_round_trip() -> None:
    board = pgnkit.Board()
    for uci in ["e2e4", "e7e5", "g1f3"]:
        board.push_uci(uci)
    game = pgnkit.Game.from_board(board)
    assert [m.uci() for m in game.mainline_moves()] == ["e2e4", "e7e5", "g1f3"]
    theirs = game.to_python_chess()
    assert isinstance(theirs, chess.pgn.Game)
    assert [m.uci() for m in theirs.mainline_moves()] == ["e2e4", "e7e5", "g1f3"]
    back = pgnkit.Game.from_python_chess(theirs)
    assert str(back) == str(game)


def test_headers_are_a_mutable_mapping_in_roster_order() -> None:
    game = pgnkit.read_game(io.StringIO('[WhiteElo "2700"]\n[White "Carlsen"]\n\n1. e4 *\n'))
    headers = game.headers
    assert list(headers)[:7] == ["Event", "Site", "Date", "Round", "White", "Black", "Result"]
    assert headers["WhiteElo"] == "2700" and "WhiteElo" in headers
    headers["Annotator"] = "pgnkit"
    del headers["WhiteElo"]
    assert "WhiteElo" not in headers
    assert '[Annotator "pgnkit"]' in str(game)
    with pytest.raises(KeyError):
        headers["Nope"]


def test_read_headers_matches_python_chess(corpus) -> None:
    path = corpus / "lichess-annotated" / "lichess_db_2021-10_999games.pgn"
    ours = [dict(h) for h in pgnkit.read_headers(path)]
    theirs = []
    with open(path, encoding="utf-8") as handle:
        while (headers := chess.pgn.read_headers(handle)) is not None:
            theirs.append(dict(headers))
    assert ours == theirs


def test_help_teaches() -> None:
    for item in (pgnkit.read_games, pgnkit.read_arrow, pgnkit.Game, pgnkit.Node, pgnkit.Board):
        assert item.__doc__ and len(item.__doc__) > 40, item
