"""The Keys evaluation: path costs to the goal edge from public facts only."""

from __future__ import annotations

from timelord.agents.keys.heuristic import distance, evaluate, tile_costs
from timelord.core import Rng, load
from timelord.games.keys.board import CONTROL, CONTROL_KIND, DOOR_TILES, OPEN_DOOR


def test_open_board_is_seven_steps_across() -> None:
    state = load("keys", players=4).new_game(3)
    state.back = tuple(CONTROL_KIND if t == CONTROL else OPEN_DOOR for t in range(49))
    everything = sum(1 << t for t in DOOR_TILES)
    state.open_mask = state.seen_mask = everything
    state.barrier_mask = 0
    costs = tile_costs(state)
    # off the board: enter the home edge, then six more rows to the far edge
    assert [distance(state, seat, costs) for seat in range(4)] == [7.0] * 4


def test_closed_unknown_doors_cost_more_and_hidden_backs_do_not_matter() -> None:
    game = load("keys", players=4)
    state = game.new_game(3)
    costs = tile_costs(state)
    assert distance(state, 0, costs) == 3 * 7  # every door still closed
    seat = state.to_move
    assert seat is not None
    # a sampled state (other backs behind closed doors) gives the same values
    sampled = game.sample_state(state.view(seat), Rng(5))
    assert evaluate(sampled) == evaluate(state)
    assert abs(sum(evaluate(state)) - 1.0) < 1e-9
