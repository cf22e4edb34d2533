"""The shared protocol suite, for every player count and variant."""

from __future__ import annotations

import pytest

import timelord
from timelord.core.conformance import check_game


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_conformance_with_intrigue(players: int) -> None:
    report = check_game(timelord.load("clue", players=players), games=3, deep_every=9)
    assert report.games == 3 and report.samples_checked > 0


@pytest.mark.parametrize("players", [3, 6])
def test_conformance_original_clue(players: int) -> None:
    game = timelord.load("clue", players=players, intrigue=False, max_rounds=15)
    assert check_game(game, games=3, deep_every=7).games == 3


def test_conformance_two_player_variant() -> None:
    game = timelord.load("clue", players=2, variant="two-player")
    assert check_game(game, games=4, deep_every=3).games == 4
