"""K-7.3 sampling, fast path: `sample_state` reads a view once and then only deals."""

from __future__ import annotations

import copy
from collections import Counter

import timelord
from timelord.core import Rng
from timelord.games.keys.sample import _shuffle


def test_k7_3_repeated_samples_of_one_view_each_match_it() -> None:
    """K-7.3: many samples of the same view object (the cached plan) all reproduce it, and
    keep the moves of the seat to move."""
    game = timelord.load("keys", players=4)
    state = game.new_game(9)
    rng = Rng(2)
    for _ in range(60):
        legal = state.legal_actions()
        state = state.apply(legal[rng.below(len(legal))])
    seat = state.to_move
    assert seat is not None
    view = state.view(seat)
    hands = set()
    for i in range(30):
        sample = game.sample_state(view, Rng(i))
        assert sample.view(seat) == view
        assert sample.legal_actions() == state.legal_actions()
        hands.add(sample.hands[(seat + 1) % 4])
    assert len(hands) > 1


def test_k7_3_a_changed_view_is_read_again() -> None:
    """K-7.3 negative: the plan is reused only while the view is unchanged; a view changed in
    place (another hand) is read afresh, so the sample holds the new hand."""
    game = timelord.load("keys", players=2)
    state = game.new_game(4)
    view = state.view(0)
    game.sample_state(view, Rng(1))
    other = game.new_game(5).view(0)
    view.clear()
    view.update(copy.deepcopy(other))
    sample = game.sample_state(view, Rng(1))
    assert sample.view(0) == other


def test_shuffle_is_a_fair_permutation() -> None:
    """The wide-draw shuffle permutes (nothing lost or doubled) and every order of three
    items turns up about equally often."""
    rng = Rng(7)
    seen: Counter[tuple[int, ...]] = Counter()
    for _ in range(6000):
        items = [0, 1, 2]
        _shuffle(items, rng)
        seen[tuple(items)] += 1
    assert len(seen) == 6 and all(800 < n < 1200 for n in seen.values())
    deck = list(range(40))
    _shuffle(deck, rng)
    assert sorted(deck) == list(range(40)) and deck != list(range(40))
