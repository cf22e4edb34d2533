"""The state doors (`state_from_json`, and `sample_state`'s check of a view) refuse only what
play cannot reach: every position of games played by the heuristic bots, whose play reaches
positions random play rarely does (Ironsides' staged Defenders, Clue accusations, Keys
bonuses), passes both and reads back exactly."""

from __future__ import annotations

import pytest

import timelord
from timelord.agents import make_agent
from timelord.core import Rng

CASES = [("card-game", 2), ("card-game", 4), ("episodes", 4), ("keys", 3), ("clue", 4)]


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_every_position_of_heuristic_games_passes_the_doors(game_id: str, players: int) -> None:
    game = timelord.load(game_id, players=players)
    agents = [make_agent("heuristic", game) for _ in range(players)]
    positions = 0
    for seed in range(3):
        rng = Rng(seed)
        state = game.new_game(seed)
        while True:
            data = state.to_json()
            assert game.state_from_json(data).to_json() == data, (seed, positions)
            seat = state.to_move
            if positions % 7 == 0 and seat is not None:
                game.sample_state(state.view(seat), Rng(positions))  # the view door
            positions += 1
            if state.is_over:
                break
            assert seat is not None
            state = state.apply(agents[seat].act(state.view(seat), state.legal_actions(), rng))
    assert positions > 100
