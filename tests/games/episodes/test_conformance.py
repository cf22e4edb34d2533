"""The shared protocol suite for every supported player count."""

from __future__ import annotations

import pytest

import timelord
from timelord.core.conformance import check_game


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_conformance(players: int) -> None:
    game = timelord.load("episodes", players=players)
    games = 4 if players <= 4 else 3  # bigger tables check more views per step
    report = check_game(game, games=games, seed=players, deep_every=2)
    assert report.games == games
    assert report.samples_checked > 0 and report.illegal_checked > 0
    assert report.longest <= game.max_actions


def test_conformance_short_games_and_small_deck() -> None:
    """Round-limit endings and a deck that runs dry (E-3.3) keep the protocol too."""
    game = timelord.load(
        "episodes",
        players=4,
        max_rounds=4,
        deck=[
            [s, f, 1]
            for s in ("Doctor", "Companion", "Gadget", "Foe", "Plot", "Special")
            for f in (2, 5, 8, 11)
        ],
    )
    report = check_game(game, games=6, seed=9)
    assert report.games == 6
