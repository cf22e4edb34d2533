"""Derived features (`timelord.adapters.features`): functions of the seat's own view only,
right about what the seat can deduce, and carried by a trained folder to its seat."""

from __future__ import annotations

import numpy as np
import pytest

import timelord
from tests.support.positions import mid_game
from timelord.adapters.features import features_for
from timelord.agents import make_agent
from timelord.core import ConfigError, Rng
from timelord.sim.match import seat_rngs


def test_clue_deduction_depends_on_the_view_alone() -> None:
    """Other worlds the seat cannot tell apart (other hands, another envelope, dealt by
    `sample_state` from its view) give the same numbers; the other seat's view does not."""
    game = timelord.load("clue", players=2)
    features = features_for(game, "clue-deduction")
    assert features is not None
    compared = 0
    for seed in range(6):
        state = mid_game(game, seed)
        for seat in range(game.players):
            view = state.view(seat)
            mine = features.compute(view)
            assert mine.shape == (features.size,) and mine.min() >= 0 and mine.max() <= 1
            rng = Rng(seed)
            for _ in range(3):
                world = game.sample_state(view, rng)
                assert world.view(seat) == view
                assert np.array_equal(features.compute(world.view(seat)), mine)
                compared += 1
        # the two seats know different things (their own hands at least)
        assert not np.array_equal(features.compute(state.view(0)), features.compute(state.view(1)))
    assert compared == 36


def test_clue_deduction_says_what_the_detective_is_sure_of() -> None:
    """Over games of the exact detective: whenever the last number says "certain", each
    category's certain card is the real envelope card, with probability 1; the envelope
    cards' probabilities are never 0."""
    game = timelord.load("clue", players=2)
    features = features_for(game, "clue-deduction")
    assert features is not None
    cards = [c for cat in game.categories for c in cat]  # type: ignore[attr-defined]
    certain_seen = 0
    for seed in range(4):
        state = game.new_game(seed)
        agents = [make_agent("heuristic:hard", game) for _ in range(game.players)]
        rngs = seat_rngs(seed, game.players)
        envelope = set(state.env)  # type: ignore[attr-defined]
        while not state.is_over:
            seat = state.to_move
            assert seat is not None
            f = features.compute(state.view(seat))
            probs = dict(zip(cards, f[: len(cards)], strict=True))
            assert all(probs[c] > 0 for c in envelope)
            if f[-1] == 1.0:
                certain_seen += 1
                assert {c for c, p in probs.items() if p == 1.0} == envelope
            legal = state.legal_actions()
            state = state.apply(agents[seat].act(state.view(seat), legal, rngs[seat]))
    assert certain_seen > 0


def test_features_belong_to_their_game() -> None:
    assert features_for(timelord.load("keys", players=2), None) is None
    with pytest.raises(ConfigError, match="clue's, not keys's"):
        features_for(timelord.load("keys", players=2), "clue-deduction")
    with pytest.raises(ConfigError, match="unknown features"):
        features_for(timelord.load("clue", players=2), "telepathy")
