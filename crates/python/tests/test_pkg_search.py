"""`pgnkit.search`: the games a query selects, their places and plies, and a
malformed query refused before the source is read."""

import warnings

import pgnkit
import pytest

GAMES = (
    b'[Event "One"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 1-0\n\n'
    b'[Event "Two"]\n\n1. d4 d5 (1... Nf6 2. c4 e6) 2. c4 e6 *\n\n'
    b'[Event "Broken"]\n\n1. e4 e5 2. Ke3 *\n\n'
    b'[Event "Three"]\n\n1. e4 c5 2. Nf3 d6 *\n'
)


def test_games_found():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        found = list(pgnkit.search(GAMES, 'sequence "e4 Nf3"'))
    assert [g.headers["Event"] for g in found] == ["One", "Three"]
    assert isinstance(found[0], pgnkit.Game)
    assert any("not searched" in str(w.message) for w in caught), "the broken game is reported"


def test_offsets_and_plies():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        hits = list(
            pgnkit.search(GAMES, 'in_variations pattern "*/*/*/*/??P*/*/*/*"', offsets=True)
        )
    assert len(hits) == 1
    hit = hits[0]
    assert isinstance(hit, pgnkit.SearchHit)
    assert (hit.game, hit.offset, hit.plies, hit.variation_plies) == (2, 63, [3, 4], [3, 4])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        hits = list(pgnkit.search(GAMES, 'imbalance "B vs N" and Event = One', offsets=True))
    assert [(h.game, h.plies) for h in hits] == [(1, [8])]


def test_a_bad_query_shows_a_caret_before_reading(tmp_path):
    missing = tmp_path / "missing.pgn"
    with pytest.raises(ValueError) as error:
        pgnkit.search(missing, 'pattern "*/*/*/*/x*/*/*/*"')
    lines = str(error.value).splitlines()
    assert lines[1] == 'pattern "*/*/*/*/x*/*/*/*"'
    assert lines[2] == " " * 17 + "^"
    assert lines[3].startswith("invalid pattern")


def test_skip_and_first():
    def found(**window):
        return [g.headers["Event"] for g in pgnkit.search(GAMES, "plies >= 0", **window)]

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert found() == ["One", "Two", "Three"]
        assert found(first=2) == ["One", "Two"]
        assert found(skip=1) == ["Two", "Three"]
        assert found(skip=1, first=1) == ["Two"]
        assert found(first=0) == []
        assert found(skip=5) == []
        hits = list(pgnkit.search(GAMES, 'sequence "e4"', offsets=True, skip=1, first=1))
    assert [h.game for h in hits] == [4]


def test_first_reads_no_further():
    # The games after the first one found are not read: the broken game is never reported.
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        found = list(pgnkit.search(GAMES, 'sequence "e4"', first=1))
    assert [g.headers["Event"] for g in found] == ["One"]
    assert not any("not searched" in str(w.message) for w in caught)
