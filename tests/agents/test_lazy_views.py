"""A seat's view is built only when something reads it: random seats in `simulate` and at a
served table never build one, and their moves are the ones `act` on the view would make."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from tests.core.toy_game import ToyGame, ToyState
from timelord.agents import make_agent
from timelord.core import GAMES, Action, Rng, View, load
from timelord.server.bots import Bots
from timelord.sim.match import play_game


class CountingState(ToyState):
    """The toy game's state, counting the views built for each seat (None: the spectator)."""

    built: dict[int | None, int] = {}

    def view(self, seat: int | None) -> View:
        CountingState.built[seat] = CountingState.built.get(seat, 0) + 1
        return super().view(seat)

    def apply_unchecked(self, action: Action) -> ToyState:
        state = super().apply_unchecked(action)
        state.__class__ = CountingState
        return state


class CountingGame(ToyGame):
    def new_game(self, seed: int) -> ToyState:
        state = super().new_game(seed)
        state.__class__ = CountingState
        return state


def _never() -> View:
    raise AssertionError("the view was built")


@pytest.mark.parametrize("game_id", sorted(g for g in GAMES if not g.startswith("toy")))
def test_random_agent_moves_without_the_view_as_act_would(game_id: str) -> None:
    game = load(game_id)
    state = game.new_game(3)
    legal = state.legal_actions()
    agent = make_agent("random", game)
    for seed in range(20):
        lazy = agent.act_on(_never, legal, Rng(seed))
        assert lazy is agent.act(state.view(state.to_move), legal, Rng(seed))


def test_a_simulated_game_of_random_seats_builds_no_seat_view() -> None:
    game = CountingGame()
    CountingState.built = {}
    record = play_game(game, ["random", "random"], seed=5, index=0)
    assert record["result"]["length"] > 0
    assert CountingState.built == {None: 1}  # the game clock, read once at the end
    CountingState.built = {}
    play_game(game, ["ismcts:sims=5", "random"], seed=5, index=0)
    assert set(CountingState.built) == {0, None}  # the searching seat reads its view


def test_a_served_random_bot_builds_no_view() -> None:
    game = load("keys")
    state = game.new_game(1)
    legal = state.legal_actions()
    bots = Bots()
    try:
        action: Any = asyncio.run(
            bots.choose(game, make_agent("random", game), "random", _never, legal, 7)
        )
    finally:
        bots.close()
    assert action is make_agent("random", game).act(state.view(0), legal, Rng(7))
