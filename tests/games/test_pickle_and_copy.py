"""Games and states pickle and copy in both builds: process pools, search trees that copy a
root, and learning environments hand them around. A game travels as its class and options,
a state as its canonical JSON form, so what comes back plays on exactly as the original."""

from __future__ import annotations

import copy
import pickle

import pytest

import timelord
from timelord.core import Rng

GAMES = ["card-game", "clue", "episodes", "keys"]


@pytest.mark.parametrize("game_id", GAMES)
def test_a_game_pickles_as_its_options_and_copies_as_itself(game_id: str) -> None:
    game = timelord.load(game_id, players=3)
    back = pickle.loads(pickle.dumps(game))
    assert type(back) is type(game) and back.options == game.options
    assert copy.copy(game) is game and copy.deepcopy(game) is game


@pytest.mark.parametrize("game_id", GAMES)
def test_a_state_mid_game_pickles_and_copies_and_plays_on_alike(game_id: str) -> None:
    game = timelord.load(game_id, players=3)
    state, rng = game.new_game(7), Rng(7)
    for _ in range(25):
        state = state.apply(rng.choice(state.legal_actions()))
    others = [
        pickle.loads(pickle.dumps(state)),
        copy.copy(state),
        copy.deepcopy(state),
        copy.deepcopy({"root": state})["root"],
    ]
    for other in others:
        assert other is not state and type(other) is type(state)
        assert other.to_json() == state.to_json()
        assert other.view(0) == state.view(0)
        a, b, ra, rb = state, other, Rng(1), Rng(1)
        while not a.is_over:
            a = a.apply(ra.choice(a.legal_actions()))
            b = b.apply(rb.choice(b.legal_actions()))
        assert b.is_over and b.to_json() == a.to_json()


def test_a_copy_shares_nothing_the_original_holds() -> None:
    """A copy edited in place (as tests and tools build positions) leaves the original as it
    was: `to_json` may hand out a state's own lists, so the copy is read from a snapshot."""
    state = timelord.load("keys").new_game(3)
    before = state.to_json()
    other = copy.copy(state)
    data = other.to_json()
    for value in data.values():
        if isinstance(value, list) and value:
            value.clear()
    assert state.to_json() == before
