"""`pgnkit search --json` against python-chess: for exact positions, board
patterns, material, imbalances, sequences of moves and a per-position test
with the side to move, on three corpus files, the games found and the plies
given equal a scan of the same files with python-chess written here (its own
reading of each predicate's rules, from docs/search.md)."""

import io
import json
import re
from functools import cache

import chess
import chess.pgn
import pytest
from conftest import corpus_dir, run_pgnkit

FILES = [
    "lichess-annotated/lichess_user_DannyTheDonkey_2019.pgn",
    "lichess-annotated/lichess_user_DrDrunkenstein_2019.pgn",
    "lichess-annotated/lichess_db_2025-05_first1MB.pgn",
]

KINDS = [chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN]
LETTERS = {"p": chess.PAWN, "n": chess.KNIGHT, "b": chess.BISHOP, "r": chess.ROOK, "q": chess.QUEEN}


def rows(board: chess.Board) -> list[str]:
    """The board as eight strings of eight characters, 8th rank first, `.` for empty."""
    return [
        "".join(
            (p.symbol() if (p := board.piece_at(chess.square(f, r))) else ".") for f in range(8)
        )
        for r in range(7, -1, -1)
    ]


@cache
def games(name: str) -> dict[int, dict]:
    """Each game python-chess reads without errors, by its number in the file
    (from 1): its positions (rows, turn, EPD, counts) and moves."""
    text = (corpus_dir() / name).read_text(encoding="utf-8")
    handle = io.StringIO(text)
    found = {}
    number = 0
    while (game := chess.pgn.read_game(handle)) is not None:
        number += 1
        if game.errors:
            continue
        board = game.board()
        positions, moves = [], []

        def note(b: chess.Board, positions: list = positions) -> None:
            counts = {
                (color, kind): len(b.pieces(kind, color))
                for color in (chess.WHITE, chess.BLACK)
                for kind in KINDS
            }
            positions.append({"rows": rows(b), "turn": b.turn, "epd": b.epd(), "counts": counts})

        note(board)
        for move in game.mainline_moves():
            moves.append(
                {
                    "piece": board.piece_type_at(move.from_square),
                    "from": move.from_square,
                    "to": move.to_square,
                    "capture": board.is_capture(move),
                    "promotion": move.promotion,
                    "castle": ("O-O" if board.is_kingside_castling(move) else "O-O-O")
                    if board.is_castling(move)
                    else None,
                }
            )
            board.push(move)
            note(board)
        found[number] = {"positions": positions, "moves": moves}
    assert found, name
    return found


def search(name: str, query: str) -> dict[int, list[int]]:
    done = run_pgnkit("search", str(corpus_dir() / name), query, "--json")
    hits = [json.loads(line) for line in done.stdout.splitlines()]
    return {hit["game"]: hit["plies"] for hit in hits}


def scan(name: str, holds) -> dict[int, list[int]]:
    """The plies of each game where `holds(position)` is true, games with none left out."""
    out = {}
    for number, game in games(name).items():
        plies = [ply for ply, pos in enumerate(game["positions"]) if holds(pos)]
        if plies:
            out[number] = plies
    return out


FOUND: dict[tuple[str, str], int] = {}


def compare(name: str, query: str, expected: dict[int, list[int]]) -> None:
    found = search(name, query)
    # Games python-chess could not read are not compared.
    found = {n: p for n, p in found.items() if n in games(name)}
    assert found == expected, query
    FOUND[(name, query)] = len(found)


def some_found(name: str, test: str) -> None:
    """Each test finds games in each file: no comparison of two empty answers only."""
    assert sum(n for (file, _), n in FOUND.items() if file == name) > 0, test
    FOUND.clear()


def pattern_regex(pattern: str) -> list[re.Pattern]:
    """A pattern's ranks as regular expressions over `rows`."""
    out = []
    for rank in pattern.split("/"):
        expr = ""
        for c in rank:
            if c.isdigit():
                expr += r"\." * int(c)
            else:
                expr += {
                    "?": ".",
                    "!": r"[^.]",
                    "A": "[A-Z]",
                    "a": "[a-z]",
                    "_": r"\.",
                    "-": r"\.",
                    "*": ".*",
                }.get(c, re.escape(c))
        out.append(re.compile(expr))
    return out


def fits(regexes: list[re.Pattern], pos: dict) -> bool:
    return all(r.fullmatch(row) for r, row in zip(regexes, pos["rows"]))


@pytest.mark.parametrize("name", FILES)
def test_exact_positions(name):
    numbers = sorted(games(name))
    for number in numbers[:3]:
        positions = games(name)[number]["positions"]
        for ply in (0, 6, 11):
            if ply >= len(positions):
                continue
            epd = positions[ply]["epd"]
            compare(name, f'reaches "{epd} 0 1"', scan(name, lambda p, epd=epd: p["epd"] == epd))
    some_found(name, "test_exact_positions")


PATTERNS = [
    "*/*/*/*/????P*/*/*/*",
    "*/*/*/*/*/2N2N2/*/*",
    "r*k*/*/*/*/*/*/*/*",
    "*/pp*/*/*/*/*/*PP/*",
    "*/*/*/??a!A*/*/*/*/*",
    "6k1/5ppp/*/*/*/*/*/*",
]


@pytest.mark.parametrize("name", FILES)
def test_patterns(name):
    for pattern in PATTERNS:
        regexes = pattern_regex(pattern)
        compare(name, f'pattern "{pattern}"', scan(name, lambda p, r=regexes: fits(r, p)))
    # A list: any of them.
    a, b = pattern_regex(PATTERNS[2]), pattern_regex(PATTERNS[5])
    compare(
        name,
        f'pattern "{PATTERNS[2]}", "{PATTERNS[5]}"',
        scan(name, lambda p: fits(a, p) or fits(b, p)),
    )
    # With the side to move.
    compare(
        name,
        f'at (pattern "{PATTERNS[1]}" and stm black)',
        scan(name, lambda p: fits(pattern_regex(PATTERNS[1]), p) and p["turn"] == chess.BLACK),
    )
    some_found(name, "test_patterns")


def balance(side: str) -> dict:
    """`Q R2 P*` as {kind: (count, open)}: every kind not written is zero."""
    out = {kind: (0, False) for kind in KINDS}
    for letter, more in re.findall(r"([QRBNP])(\d|\*)?", side.upper()):
        kind = LETTERS[letter.lower()]
        n, is_open = out[kind]
        if more == "*":
            out[kind] = (n, True)
        else:
            out[kind] = (n + (int(more) if more else 1), is_open)
    return out


def has(counts: dict, color: bool, want: dict) -> bool:
    return all(
        counts[(color, kind)] >= n if is_open else counts[(color, kind)] == n
        for kind, (n, is_open) in want.items()
    )


@pytest.mark.parametrize("name", FILES)
def test_material(name):
    for white, black in [("KR", "kr"), ("KRP*", "krp*"), ("KQ", "kq"), ("KBP*", "knp*")]:
        w, b = balance(white[1:]), balance(black[1:])

        def holds(p, w=w, b=b):
            c = p["counts"]
            return (has(c, chess.WHITE, w) and has(c, chess.BLACK, b)) or (
                has(c, chess.WHITE, b) and has(c, chess.BLACK, w)
            )

        compare(name, f'material "{white}{black}"', scan(name, holds))
    some_found(name, "test_material")


@pytest.mark.parametrize("name", FILES)
def test_imbalances(name):
    for first, second in [("R", "BN"), ("B", "N"), ("", "P"), ("Q", "RR"), ("R", "B")]:
        want = {
            kind: first.lower().count(letter) - second.lower().count(letter)
            for letter, kind in LETTERS.items()
        }

        def diff(p, color):
            return {
                kind: p["counts"][(color, kind)] - p["counts"][(not color, kind)] for kind in KINDS
            }

        compare(
            name,
            f'imbalance "{first} vs {second}"',
            scan(name, lambda p, want=want: want in (diff(p, chess.WHITE), diff(p, chess.BLACK))),
        )
        compare(
            name,
            f'imbalance black "{first} vs {second}"',
            scan(name, lambda p, want=want: diff(p, chess.BLACK) == want),
        )
    some_found(name, "test_imbalances")


SAN = re.compile(r"^([NBRQK])?([a-h])?([1-8])?(x)?([a-h][1-8])(?:=([NBRQ]))?$")


def step_is(step: str, move: dict) -> bool:
    if step in ("O-O", "O-O-O"):
        return move["castle"] == step
    piece, file, rank, capture, to, promotion = SAN.match(step).groups()
    kind = LETTERS[piece.lower()] if piece else chess.PAWN
    if piece == "K":
        kind = chess.KING
    return (
        move["castle"] is None
        and move["piece"] == kind
        and move["to"] == chess.parse_square(to)
        and move["capture"] == bool(capture)
        and move["promotion"] == (LETTERS[promotion.lower()] if promotion else None)
        and (file is None or chess.square_file(move["from"]) == "abcdefgh".index(file))
        and (rank is None or chess.square_rank(move["from"]) == int(rank) - 1)
    )


@pytest.mark.parametrize("name", FILES)
def test_sequences(name):
    for sequence in ["e4 c5 Nf3", "d4 Nf6 c4 e6 Nc3", "O-O O-O-O", "e4 e5 Nf3 Nc6 Bb5 a6", "Qxd8"]:
        steps = sequence.split()
        expected = {}
        for number, game in games(name).items():
            plies, at = [], 0
            for ply, move in enumerate(game["moves"], start=1):
                if at < len(steps) and step_is(steps[at], move):
                    plies.append(ply)
                    at += 1
            if at == len(steps):
                expected[number] = plies
        compare(name, f'sequence "{sequence}"', expected)
    some_found(name, "test_sequences")
