"""The shared protocol suite (timelord.core.conformance) for 2, 3 and 4 players."""

import pytest

import timelord
from timelord.core.conformance import check_game


@pytest.mark.parametrize("players", [2, 3, 4])
def test_conformance(players: int) -> None:
    """Random playouts keep every protocol promise; some games are won, some hit K-7.2."""
    game = timelord.load("keys", players=players)
    report = check_game(game, games=4, seed=players, deep_every=5)
    assert report.games == 4
    assert report.longest <= game.max_actions
    assert report.samples_checked > 0 and report.illegal_checked > 0


def test_conformance_short_round_limit() -> None:
    """K-7.2: a tiny round limit ends every game early, with no winner when nobody escaped."""
    game = timelord.load("keys", players=3, round_limit=3)
    report = check_game(game, games=6, seed=11, deep_every=1)
    assert report.outcomes.get("none", 0) == 6
