"""`max_game_length` (OpenSpiel) is `Game.max_actions`, a true bound: seeded games never pass
it, at the default options and with each game's length cap set small, where random games run
into the cap and so come nearest the bound (docs/game-length.md gives the proofs)."""

from __future__ import annotations

from typing import Any

import pytest

import timelord
from tests.adapters.cases import CASES
from timelord.core import Rng

pyspiel = pytest.importorskip("pyspiel")
from timelord.adapters.openspiel import short_name  # noqa: E402

#: each game's documented length cap (C-6.5, K-7.2, E-7.2, C-9.1), set small
CAPS: dict[str, dict[str, Any]] = {
    "card-game": {"max_turns": 6},
    "keys": {"round_limit": 3},
    "episodes": {"max_rounds": 3},
    "clue": {"max_rounds": 2},
}


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_seeded_games_end_within_max_game_length(game_id: str, players: int) -> None:
    for options in ({}, CAPS[game_id]):
        game = timelord.load(game_id, players=players, **options)
        spiel = pyspiel.load_game(short_name(game_id), {"players": players, **options})
        assert spiel.max_game_length() == game.max_actions
        for seed in range(3):
            rng, state, length = Rng(seed), game.new_game(seed), 0
            while not state.is_over:
                state = state.apply_unchecked(rng.choice(state.legal_actions()))
                length += 1
                assert length <= game.max_actions, (options, seed)


def test_a_small_cap_ends_the_game_by_the_cap() -> None:
    """The capped variants above do end by their caps (so the test reaches the bound's
    regime): a 6-turn Card Game ends on the turn limit."""
    game = timelord.load("card-game", players=2, **CAPS["card-game"])
    rng, state = Rng(1), game.new_game(1)
    while not state.is_over:
        state = state.apply_unchecked(rng.choice(state.legal_actions()))
    assert state.to_json()["ended"] == "turn-limit"
