"""The shared conformance suite for 2, 3 and 4 players (C-2.5, C-7)."""

import pytest

import timelord
from timelord.core.conformance import check_game


@pytest.mark.parametrize("players", [2, 3, 4])
def test_conformance(players: int) -> None:
    game = timelord.load("card-game", players=players)
    report = check_game(game, games=4, seed=players, deep_every=7)
    assert report.games == 4
    assert report.samples_checked > 0
    assert report.longest <= game.max_actions
