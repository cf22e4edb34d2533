"""The perfect-recall observation tells every view apart over seeded games (the smaller
observation does not, in Clue), stays within its bounds, and is OpenSpiel's information
state tensor."""

from __future__ import annotations

import json

import numpy as np
import pyspiel
import pytest

import timelord
import timelord.adapters.openspiel as tos
from timelord.adapters.encode import encoder_for
from timelord.adapters.encode.history import HistoryEncoder, Recall
from timelord.agents import make_agent
from timelord.core import Game, View
from timelord.sim.match import seat_rngs

CASES = [("card-game", 3), ("clue", 3), ("clue", 5), ("episodes", 3), ("keys", 3)]


def _views(game: Game, seeds: range) -> list[View]:
    """Every seat's view at every step of seeded games, random and heuristic seats."""
    out = []
    for seed in seeds:
        spec = "heuristic" if seed % 2 else "random"
        agents = [make_agent(spec, game) for _ in range(game.players)]
        rngs = seat_rngs(seed, game.players)
        state = game.new_game(seed)
        while True:
            out += [state.view(seat) for seat in range(game.players)]
            if state.is_over:
                return out
            mover = state.to_move
            assert mover is not None
            choice = agents[mover].act(state.view(mover), state.legal_actions(), rngs[mover])
            state = state.apply(choice)
    return out


def _collisions(game: Game, views: list[View], recall: bool) -> int:
    encoder = encoder_for(game, recall=recall)
    by_vector: dict[bytes, set[str]] = {}
    for view in views:
        vector = encoder.encode(view)
        assert (vector >= 0).all() and (vector <= encoder.high).all()
        by_vector.setdefault(vector.tobytes(), set()).add(json.dumps(view, sort_keys=True))
    return sum(len(texts) - 1 for texts in by_vector.values())


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_distinct_views_give_distinct_vectors(game_id: str, players: int) -> None:
    game = timelord.load(game_id, players=players)
    views = _views(game, range(1, 5))
    assert _collisions(game, views, recall=True) == 0


def test_the_smaller_observation_forgets_clues_history() -> None:
    game = timelord.load("clue", players=4)
    views = _views(game, range(0, 4))
    assert _collisions(game, views, recall=False) > 0
    assert _collisions(game, views, recall=True) == 0


@pytest.mark.parametrize("game_id", ["clue", "card-game"])
def test_openspiel_information_state_tensor_is_the_recall_one(game_id: str) -> None:
    """The information state tensor is the perfect-recall observation of the view followed
    by the seat's decisions (`history.HistoryEncoder`, kept by the adapter's `Recall`)."""
    game = pyspiel.load_game(tos.short_name(game_id), {"players": 3})
    tl_game = timelord.load(game_id, players=3)
    recall, plain = encoder_for(tl_game, recall=True), encoder_for(tl_game)
    history = HistoryEncoder(tl_game, game.num_distinct_actions())
    assert game.information_state_tensor_size() == history.size > recall.size
    assert game.observation_tensor_size() == plain.size
    state = game.new_initial_state()
    rng = np.random.default_rng(3)
    record = Recall.start(3)
    for _ in range(40):
        if state.is_terminal():
            break
        for p in range(3):
            view = state.timelord_state.view(p)
            tensor = state.information_state_tensor(p)
            assert tensor == history.encode(view, record, p).tolist()
            assert tensor[: recall.size] == recall.encode(view).tolist()
            assert state.observation_tensor(p) == plain.encode(view).tolist()
        action = int(rng.choice(state.legal_actions()))
        record = record.after(state.timelord_state, game.index.actions[action], action)
        state.apply_action(action)
